// The Tables tab: the people who play (each table by its names) with their finished games, and
// what all those games teach (`kakapo calibrate`): each table's level on the ladder, the clear
// rate it should expect and the missions to play next, its predictions checked against what it
// then did (the Brier score beside a table-blind baseline, and a reliability diagram), and the
// missions' difficulty as the tables found it beside the ladder's. Every figure is the server's.
import { api, followJob, message } from "./api.js";
import { $, el, svgEl } from "./dom.js";

const whole = (x) => `${Math.round(100 * x)} %`;
const rungName = (r) => (r.samples ? `${r.policy}-${r.samples}` : r.policy);

// The reliability diagram: each bin of predictions (x: the mean predicted rate) against the share
// of those games cleared (y), its 95 % interval as a bar and its games as the point's size; a
// calibrated table's points sit on the diagonal, within their bars.
export function reliabilityChart(cal) {
  const W = 330, H = 300, L = 52, B = 40, T = 12, R = 22;  // room for "50 %" beside the axis title and "100 %" at the end
  const x = (v) => L + v * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "reliability", role: "img", "data-reliability": "",
    "aria-label": `predicted clear rate against the share cleared, in ${cal.bins.length} bin(s) of ${cal.games} game(s)` });
  for (const v of [0, 0.5, 1]) {
    svg.appendChild(svgEl("line", { x1: x(0), x2: x(1), y1: y(v), y2: y(v), stroke: "#e4e4e4" }));
    svg.appendChild(svgEl("text", { x: L - 6, y: y(v) + 4, "font-size": 10, "text-anchor": "end", fill: "#555" }, whole(v)));
    svg.appendChild(svgEl("text", { x: x(v), y: H - B + 14, "font-size": 10, "text-anchor": "middle", fill: "#555" }, whole(v)));
  }
  svg.appendChild(svgEl("line", { x1: x(0), y1: y(0), x2: x(1), y2: y(1), stroke: "#999", "stroke-dasharray": "4 3" }));
  svg.appendChild(svgEl("text", { x: (L + W - R) / 2, y: H - 6, "font-size": 11, "text-anchor": "middle", fill: "#333" },
                        "predicted (from the table's other games)"));
  svg.appendChild(svgEl("text", { x: 12, y: (T + H - B) / 2, "font-size": 11, "text-anchor": "middle", fill: "#333",
                                  transform: `rotate(-90 12 ${(T + H - B) / 2})` }, "cleared"));
  const most = Math.max(1, ...cal.bins.map((b) => b.games));
  for (const b of cal.bins) {
    const words = `predicted ${whole(b.predicted)}, cleared ${whole(b.observed)} of ${b.games} game(s)`
      + (b.ci95 ? ` (95 % interval ${whole(b.ci95[0])} to ${whole(b.ci95[1])})` : "");
    const g = svgEl("g", { "data-bin": "", "data-games": String(b.games) });
    g.appendChild(svgEl("title", {}, words));
    if (b.ci95) g.appendChild(svgEl("line", { x1: x(b.predicted), x2: x(b.predicted), y1: y(b.ci95[0]), y2: y(b.ci95[1]),
                                              stroke: "#8fb8dc", "stroke-width": 4, "stroke-linecap": "round" }));
    g.appendChild(svgEl("circle", { cx: x(b.predicted), cy: y(b.observed), r: 3 + 6 * Math.sqrt(b.games / most), fill: "#1f77b4",
                                    "fill-opacity": 0.8 }));
    svg.appendChild(g);
  }
  return svg;
}

export function createTables() {
  const st = { events: null };

  async function list() {
    const res = await api("GET", "/api/tables");
    if (!res.ok) { $("tb-state").textContent = message(res); return; }
    $("tb-list").replaceChildren(...res.doc.map((t) => {
      const li = el("li", null, null, { "data-tablename": t.table });
      li.append(el("strong", t.table), `: ${t.games} game(s), ${t.cleared} cleared. `,
        t.missions.map((m) => `${m.mission} with ${m.players}: ${m.cleared} of ${m.games}`).join("; "));
      return li;
    }));
    $("tb-empty").hidden = res.doc.length > 0;
    $("tb-calibrate").disabled = res.doc.length === 0;
  }

  async function calibrate() {
    $("tb-state").textContent = "measuring every table on the ladder…";
    const res = await api("POST", "/api/jobs", { kind: "calibrate" });
    if (!res.ok) { $("tb-state").textContent = `not started: ${message(res)}`; return; }
    const c = res.doc.cost;  // said before it starts: what it learns from and about how long it takes
    $("tb-cost").textContent = c ? `Learning from ${c.games} game(s) of ${c.tables} table(s): ${c.estimate}`
      + (c.left_out ? `; ${c.left_out} older game(s) left out (each table's latest ${c.latest} count).` : ".") : "";
    if (st.events) st.events.close();
    st.events = followJob(res.doc.id, "tb", (_kind, doc) => show(doc), res.doc.token);
  }

  function show(doc) {
    $("tb-levels").replaceChildren(...doc.tables.map((t) => {
      const li = el("li", null, null, { "data-level": t.table });
      const p = t.plausible.map(rungName);
      const ruled = t.told_apart ? "every other rung ruled out" : p.length > 3
        ? `these games cannot tell apart ${p.length} rungs, from ${p[0]} to ${p[p.length - 1]}: more games will`
        : `these games cannot tell apart ${p.join(", ")}`;
      li.append(el("strong", t.table), `: ${t.games} game(s), ${t.cleared} cleared; plays like ${rungName(t.best)} (${ruled}).`);
      const lv = t.level;
      const beyond = { more: "it clears more games than that rung would", fewer: "it clears fewer games than that rung would",
        as: "it clears about as many games as that rung" }[lv.beyond];
      const deal = { follows: "Its results follow the deal as a bot's do",
        less: "Its results follow the deal less than a bot's (mistakes, mixed play), so what it should expect leans on the missions' clear rates",
        unsure: "Its games do not tell yet how closely its results follow the deal" }[lv.deal];
      li.append(el("span", ` ${deal}; ${beyond}.`,
      null, { "data-beyond": lv.beyond }));
      if (t.next && t.next.length) {
        const next = el("ol", null, "next");
        next.append(...t.next.slice(0, 3).map((n) => el("li", `${n.mission} with ${n.players}: expect ${whole(n.predicted)} `
          + `(95 % interval ${whole(n.ci95[0])} to ${whole(n.ci95[1])})`, null, { "data-next": n.mission })));
        li.append(` Next, nearest ${whole(doc.target)}:`, next);
      }
      return li;
    }));
    const c = doc.calibration;
    $("tb-check").textContent = c.brier === null ? "No finished game to check a prediction against yet."
      : `Each of the ${c.games} game(s) predicted from the same table's other games only: Brier score ${c.brier.toFixed(3)} `
        + `against ${c.brier_baseline.toFixed(3)} for a prediction that ignores the table (${c.baseline}); lower is `
        + `better, 0 is perfect. In the diagram, points on the diagonal mean the predictions came true as often as `
        + `they said; ${c.bins_within} of ${c.bins.length} bin(s) hold the diagonal within their 95 % interval.`;
    $("tb-diagram").replaceChildren(reliabilityChart(c));
    const head = el("tr");
    for (const h of ["mission", "games (tables)", "cleared", "learned", "ladder"]) {
      head.appendChild(el("th", h, null, { scope: "col" }));
    }
    $("tb-missions").replaceChildren(head, ...doc.missions.map((m) => {
      const tr = el("tr", null, null, { "data-mission": m.mission });
      for (const v of [`${m.mission}, ${m.players} players`, `${m.games} (${m.tables})`, whole(m.observed), whole(m.learned),
        whole(m.expected)]) {
        tr.appendChild(el("td", String(v)));
      }
      return tr;
    }));
  }

  return {
    init() {
      $("tb-calibrate").addEventListener("click", calibrate);
      $("tb-refresh").addEventListener("click", list);
    },
    shown() { list(); },
  };
}
