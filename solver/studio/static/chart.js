// Charts drawn as SVG: the ladder's curve (each rung's clear rate under the open-hand ceiling)
// and the review's rounds (the search player's clear rate from the start of each round).
import { svgEl } from "./dom.js";

function text(svg, x, y, words, size, fill) {
  svg.appendChild(svgEl("text", { x, y, "font-size": size, "text-anchor": "middle", fill }, words));
}

const whole = (x) => `${Math.round(100 * x)} %`;

// The ladder's curve: each rung's clear rate written above its point, its 95 % interval drawn as a
// bar through it and said in the point's title (hover) and in the line under the curve (a tap, a
// click or the keyboard on a point). Drawn for the width of the page, so that its words stay
// readable on a phone. Returns a box holding the SVG (id ``id``) and that line.
export function ladderChart(d, id = "ladder-curve") {
  const W = Math.round(Math.min(560, Math.max(340, (document.documentElement.clientWidth || 560) - 30)));
  const H = 286, L = 36, R = 8, B = 62, T = 40;
  const box = document.createElement("div");
  box.className = "curvebox";
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id, role: "group",
                             "aria-label": "the ladder: the clear rate of each rung (a table of a given strength), with the open-hand ceiling" });
  const said = document.createElement("p");
  said.className = "msg curvepoint";
  said.setAttribute("aria-live", "polite");
  said.textContent = "Hover, tap or tab to a point for its 95 % interval.";
  const n = d.rungs.length;
  const x = (i) => L + (i + 0.5) * (W - L - R) / n;
  const tight = (W - L - R) / n < 44;  // a phone: "100%" beside "100%" still leaves room
  const value = (v) => (tight ? `${Math.round(100 * v)}%` : whole(v));
  const y = (v) => T + (1 - v) * (H - T - B);
  const line = (x1, y1, x2, y2, stroke, extra) => svg.appendChild(svgEl("line", { x1, y1, x2, y2, stroke, ...(extra || {}) }));
  for (const v of [0, 0.25, 0.5, 0.75, 1]) { line(L, y(v), W - R, y(v), "#e4e4e4"); text(svg, L - 16, y(v) + 4, `${v * 100}%`, 10, "#555"); }
  const ceil = d.ceiling.clear_rate;
  line(L, y(ceil), W - R, y(ceil), "#2e7d32", { "stroke-dasharray": "5 3" });
  line(L, 9, L + 22, 9, "#2e7d32", { "stroke-dasharray": "5 3" });  // the legend, above the plot
  svg.appendChild(svgEl("text", { x: L + 28, y: 13, "font-size": 11, fill: "#1d6b1d" },
                        `open hands (a team that sees every hand): ${whole(ceil)}`));
  svg.appendChild(svgEl("polyline", { points: d.rungs.map((r, i) => `${x(i)},${y(r.clear_rate)}`).join(" "),
                                      fill: "none", stroke: "#1f77b4", "stroke-width": 2 }));
  d.rungs.forEach((r, i) => {
    const name = r.samples ? `search-${r.samples}` : r.policy;
    const ci = r.ci95 || [r.clear_rate, r.clear_rate];
    const words = `${name}: wins ${whole(r.clear_rate)} of ${r.games || d.games} deals (95 % interval ${whole(ci[0])} to ${whole(ci[1])})`;
    const g = svgEl("g", { class: "point", tabindex: "0", role: "button", "aria-label": words, "data-rung": name,
                           "data-value": whole(r.clear_rate), "data-interval": `${whole(ci[0])} to ${whole(ci[1])}` });
    g.appendChild(svgEl("title", {}, words));
    g.appendChild(svgEl("line", { x1: x(i), x2: x(i), y1: y(ci[0]), y2: y(ci[1]), stroke: "#8fb8dc", "stroke-width": 5,
                                  "stroke-linecap": "round" }));
    g.appendChild(svgEl("circle", { cx: x(i), cy: y(r.clear_rate), r: 4.5, fill: "#1f77b4" }));
    g.appendChild(svgEl("rect", { x: x(i) - 14, y: T - 14, width: 28, height: H - T + 14, fill: "transparent" }));
    const above = y(ci[1]) - 5 < 26 ? y(ci[0]) + 13 : y(ci[1]) - 5;  // under the bar where the top leaves no room
    g.appendChild(svgEl("text", { x: x(i), y: above, "font-size": 11, "text-anchor": "middle", fill: "#123",
                                  class: "value" }, value(r.clear_rate)));
    const lab = svgEl("text", { x: x(i), y: H - B + 12, "font-size": 11, "text-anchor": "end", fill: "#333",
                                transform: `rotate(-40 ${x(i)} ${H - B + 12})` }, name);
    g.appendChild(lab);
    const show = () => { said.textContent = words; };
    g.addEventListener("click", show);
    g.addEventListener("focus", show);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(); } });
    svg.appendChild(g);
  });
  box.append(svg, said);
  return box;
}

export function reviewChart(doc, lostIn) {
  const W = 520, H = 180, L = 40, B = 34, T = 10;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "review-chart", role: "img",
                             "aria-label": "each round: the search player's clear rate from its start" });
  const n = doc.rounds.length;
  const bw = (W - L - 10) / Math.max(n, 1);
  const y = (v) => T + (1 - v) * (H - T - B);
  const colour = { clearable: "#cfe8cf", not_clearable: "#f3c4c4", undecided: "#e4e4e4" };
  doc.rounds.forEach((r, i) => {
    svg.appendChild(svgEl("rect", { x: L + i * bw, y: T, width: bw - 2, height: H - T - B,
                                    fill: colour[r.open_hand] || "#eee" }));
    svg.appendChild(svgEl("rect", { x: L + i * bw + bw * 0.25, width: bw * 0.5, y: y(r.search_rate),
      height: Math.max(0, H - B - y(r.search_rate)), fill: r.round === lostIn ? "#b00020" : "#1f77b4",
      "data-round": String(r.round) }));
    text(svg, L + i * bw + bw / 2, H - B + 14, String(r.round), 10, "#333");
  });
  for (const v of [0, 0.5, 1]) text(svg, L - 16, y(v) + 4, `${v * 100}%`, 10, "#555");
  text(svg, L + (W - L) / 2, H - 4, "round: the search player's clear rate from its start; green: clearable with open hands, red: lost", 9, "#444");
  return svg;
}
