// Rate this table: which rung of the ladder the people play like, from the folder's finished games
// (kakapo rate), and the clear rate to expect from them at each bundled mission.
import { api, followJob, message } from "./api.js";
import { $, el } from "./dom.js";
import { glossaryLink, rungName } from "./results.js";

// the rating's document in the panel, with what it means in the server's words (the finished job's
// "words"; exported for the tests of the page)
export async function showRating(d, words) {
  const plausible = d.plausible.map(rungName).join(", ");
  $("rt-state").textContent = `${d.games} game(s), seat(s) ${d.seats.join(", ")}: the table plays like ${rungName(d.best)}`
    + (d.told_apart ? " (every other rung ruled out)" : `; these games cannot tell apart: ${plausible}`);
  let said = $("rt-meaning");
  if (!said) { said = el("p", null, "msg meaning", { id: "rt-meaning", "data-meaning": "rate" }); $("rt-expected").before(said); }
  said.replaceChildren((words && words.meaning) || "", " The campaign shortfall is each mission's difficulty (0: every table wins "
    + "every winnable deal). ", glossaryLink("rung"));
  const list = await api("GET", "/api/missions");
  const shortfall = new Map();
  if (list.ok) for (const m of list.doc) if (m.shortfall) shortfall.set(m.id, m.shortfall);
  const head = el("tr");
  for (const h of ["mission", "players", "campaign shortfall", "expected for your table"]) head.appendChild(el("th", h, null, { scope: "col" }));
  // a prediction the server could not make (a mission that does not fit the games' catalog, or one no
  // campaign measured for it) has no figure: the row says so, and why is said once below the table
  const whys = new Map();
  const rows = d.predictions.map((p) => {
    const tr = el("tr", null, null, { "data-mission": p.mission });
    // the mission's shortfall in the campaign measured for the games' pieces (the server's, with the
    // prediction); an older rating without it: the campaign of the catalog in use
    const sf = "shortfall" in p ? { [String(p.players)]: p.shortfall } : shortfall.get(p.mission);
    const players = p.players === null || p.players === undefined ? "-" : String(p.players);
    const known = sf && p.players !== null && sf[String(p.players)] !== undefined && sf[String(p.players)] !== null;
    let expected = "no figure (see below)";
    if (p.clear_rate !== null && p.clear_rate !== undefined) {
      expected = `${Math.round(100 * p.clear_rate)} % (${Math.round(100 * p.ci95[0])}–${Math.round(100 * p.ci95[1])} %)`;
    } else {
      if (!whys.has(p.why)) whys.set(p.why, []);
      whys.get(p.why).push(p.mission);
      tr.dataset.why = p.why || "";
    }
    tr.append(el("td", p.mission), el("td", players), el("td", known ? sf[String(p.players)].toFixed(3) : "-"),
      el("td", expected));
    return tr;
  });
  $("rt-expected").replaceChildren(head, ...rows);
  const sources = [...new Set(d.predictions.map((p) => p.source).filter(Boolean))];
  let notes = $("rt-why");
  if (!notes) { notes = el("ul", null, "msg", { id: "rt-why" }); $("rt-expected").after(notes); }
  notes.replaceChildren(
    ...sources.map((s) => el("li", s === "bundled" ? "figures: the bundled campaign (the bundled shapes)" : `figures: ${s}`,
      null, { "data-source": s })),
    ...[...whys.entries()].map(([why, ids]) => el("li", `no figure for ${ids.length > 3 ? `${ids.length} missions` : ids.join(", ")}: ${why}`,
      null, { "data-why": "" })));
}

// the folder's tables as the server groups its finished games (GET /api/tables: by the names of who
// played, here, from a sheet or dropped into games/; games that name nobody are a table of their own)
async function tables() {
  const res = await api("GET", "/api/tables");
  const sel = $("rt-table");
  const was = sel.value;
  sel.replaceChildren(new Option("every finished game", ""), ...(res.ok ? res.doc : []).map((t) => {
    const o = new Option(`${t.table} (${t.games} game${t.games > 1 ? "s" : ""})`, t.ids.join(" "));
    o.dataset.table = t.names.length ? t.table : "";
    return o;
  }));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}

export function createRate() {
  async function start() {
    $("rt-state").textContent = "rating…";
    $("rt-expected").replaceChildren();
    const chosen = $("rt-table").value;
    const res = await api("POST", "/api/jobs", chosen ? { kind: "rate", logs: chosen.split(" ") } : { kind: "rate" });
    if (!res.ok) { $("rt-state").textContent = `cannot rate: ${message(res)}`; return; }
    followJob(res.doc.id, "rt", (_kind, result, job) => showRating(result, job.words), res.doc.token);
  }
  return {
    init() {
      $("rt-rate").addEventListener("click", start);
      $("rt-table").addEventListener("focus", tables);
      tables();
    },
    tables,
  };
}
