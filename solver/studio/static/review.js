// The Review tab, as a chess site shows a game's analysis: the decision that lost the game and
// why at the top, each seat's accuracy, every judged decision with its class and mark (?! ? ??)
// and who made it; a decision clicked shows the board at that moment with the move played and the
// better one. The same numbers as `kakapo review --json`; the document carries the boards.
import { api, followJob, message } from "./api.js";
import { LONG, boardSvg } from "./board.js";
import { reviewChart } from "./chart.js";
import { $, button, el } from "./dom.js";

const MARKS = { best: "", good: "", inaccuracy: "?!", mistake: "?", blunder: "??", equal: "", forced: "" };
const VERBS = { card: "revealed", selection: "selected", placement: "placed" };
const CLASS_WORDS = { equal: "every choice led to the same result", forced: "the only legal move" };

export function createReview() {
  const rv = { doc: null, players: null, events: null };

  // who made a seat's decisions: its name at the studio's table, else a person or a bot
  // (``human``: whether a person made the decision, while the whole review is not known yet)
  function who(seat, human) {
    const p = rv.players && rv.players.find((x) => x.seat === seat);
    if (p) return p.bot ? `${p.name} (bot, ${p.policy})` : p.name;
    const d = rv.doc;
    const named = d && d.seats && d.seats.find((x) => x.seat === seat && x.name);
    if (named) return named.name;
    if (!d) return human ? `player ${seat} (a person)` : `player ${seat} (bot)`;
    return d.human.includes(seat) ? `player ${seat} (a person)` : `player ${seat} (bot${d.policy ? ", " + d.policy : ""})`;
  }

  function clear() {
    rv.doc = null;
    for (const id of ["r-summary", "r-lostby", "r-round"]) $(id).textContent = "";
    for (const id of ["r-chart", "r-rounds", "r-board", "r-decisions", "r-seats", "r-reason-cards"]) $(id).replaceChildren();
  }

  function follow(id, token, canCancel) {
    clear();
    if (rv.events) rv.events.close();
    rv.events = followJob(id, "r", (_kind, result) => show(result), token, showJudged, canCancel);
  }

  // the decisions judged so far, as the review streams them (no boards yet: those come with the
  // whole review); marked data-judged, so that [data-decision] always means the finished review's
  function showJudged(decisions) {
    $("r-summary").textContent = `${decisions.length} decision(s) judged so far; the rest are being judged…`;
    $("r-decisions").replaceChildren(...decisions.map((d, i) => {
      const li = el("li", null, `decision ${d.class}`, { "data-judged": String(i), "data-judged-class": d.class });
      li.append(decisionWords(d));
      return li;
    }));
  }

  function decisionWords(d) {
    const head = `round ${d.round}, ${who(d.seat, d.human)} ${VERBS[d.kind] || d.kind} ${d.played}${MARKS[d.class] || ""}`;
    if (CLASS_WORDS[d.class]) return `${head} (${d.class}: ${CLASS_WORDS[d.class]})`;
    return `${head} (${d.class})` + (d.class === "best" ? "" : `; better: ${d.best}, ${Math.round(100 * d.rate_best)} % against `
      + `${Math.round(100 * d.rate_played)} %`) + (d.reasons ? `. Why: ${d.reasons.map((r) => r.text).join("; ")}` : "");
  }

  async function start(text) {
    $("r-state").textContent = "reviewing…";
    rv.players = null;
    const res = await api("POST", "/api/jobs", { kind: "review", text, name: "the log" });
    if (!res.ok) { $("r-state").textContent = `cannot review: ${message(res)}`; return; }
    follow(res.doc.id, res.doc.token, true);
  }

  // a finished game of the studio's table, from a seat's page (its own token)
  async function fromSeat(seat, seatDoc) {
    $("r-state").textContent = "reviewing…";
    rv.players = seatDoc.players;
    const res = await api("POST", `/api/games/${encodeURIComponent(seat.game)}/review?token=${encodeURIComponent(seat.token)}`);
    if (!res.ok) { $("r-state").textContent = `cannot review: ${message(res)}`; return; }
    follow(res.doc.id, res.doc.token, false);  // a seat follows it; cancelling is the host's
  }

  // a finished game of the folder (played, recorded or dropped in), from the host's page
  async function fromGame(game) {
    clear();
    $("r-state").textContent = "reviewing…";
    rv.players = null;
    const res = await api("POST", `/api/games/${encodeURIComponent(game)}/review`);
    if (!res.ok) { $("r-state").textContent = `cannot review: ${message(res)}`; return; }
    follow(res.doc.id, res.doc.token, true);
  }

  function show(doc) {
    rv.doc = doc;
    const lost = doc.lost_in ? ` The deal was lost in round ${doc.lost_in}.` : doc.lost_at ? ` From round ${doc.lost_at} no one could clear it.` : "";
    $("r-summary").textContent = doc.summary + lost;
    const lb = doc.lost_by;
    $("r-lostby").textContent = lb ? `The losing decision: ${lb.why.charAt(0).toUpperCase()}${lb.why.slice(1)}.` : "";
    $("r-seats").replaceChildren(...doc.seats.map((s) => el("li", `${who(s.seat)}: ` + (!s.decisions
      ? "no decision to make (every move was forced)" : s.accuracy === null
        ? `none of ${s.decisions} decision(s) mattered: every choice led to the same result`
        : `accuracy ${s.accuracy.toFixed(0)} % over ${s.counted} decision(s) that mattered, of ${s.decisions}`), null,
      { "data-accuracy": s.accuracy === null ? "" : String(s.accuracy), "data-seat": String(s.seat) })));
    $("r-decisions").replaceChildren(...doc.decisions.map((d, i) => {
      const li = el("li", null, `decision ${d.class}`, { "data-decision": String(i), "data-class": d.class });
      const b = button(decisionWords(d), () => showDecision(i), { "aria-label": `show decision ${i + 1} on the board` });
      li.appendChild(b);
      return li;
    }));
    $("r-chart").replaceChildren(reviewChart(doc, doc.lost_in));
    $("r-rounds").replaceChildren(...doc.rounds.map((r) => {
      const b = button(`round ${r.round}`, () => showRound(r.round), { "data-round": String(r.round) });
      if (r.round === doc.lost_in) b.classList.add("lostround");
      return b;
    }));
    const worst = doc.rounds.filter((r) => r.costliest).sort((a, b) => b.costliest.cost - a.costliest.cost)[0];
    showRound(doc.lost_in || (worst ? worst.round : 1));
  }

  function showDecision(i) {
    const d = rv.doc.decisions[i];
    for (const li of document.querySelectorAll("#r-decisions li")) li.classList.toggle("active", li.dataset.decision === String(i));
    const pieces = (d.pieces || []).map((p) => ({ piece: p.piece, cells: p.cells }));
    const piece = (words) => (words.split(" at ")[0] || "").trim();
    if (d.played_cells) pieces.push({ piece: piece(d.played), cells: d.played_cells, light: true });
    if (d.best_cells && d.class !== "best") pieces.push({ piece: piece(d.best), cells: d.best_cells, ghost: true });
    const reasonCells = (d.reasons || []).flatMap((r) => r.cells);
    const named = d.named || { cards: [], pieces: [] };
    const outlined = named.pieces.filter((p) => p.cells.length);
    $("r-board").replaceChildren(boardSvg(rv.doc.board, { pieces, marked: reasonCells, outlined,
                                                          label: `the board at decision ${i + 1}` }));
    $("r-reason-cards").replaceChildren(...reasonCards(named.cards));
    $("r-round").textContent = `Round ${d.round}, ${who(d.seat)}: played ${d.played} (a careful table clears `
      + `${Math.round(100 * d.rate_played)} % from there); the search player's choice ${d.best} (${Math.round(100 * d.rate_best)} %)`
      + (d.best_cells && d.class !== "best" ? ", dashed on the board." : ".")
      + (d.reasons ? ` Why: ${d.reasons.map((r) => r.text).join("; ")}` + (reasonCells.length ? " (circled on the board)." : "") : "");
  }

  // the cards the reasons name, circled, each with who held it (the server's words)
  function reasonCards(cards) {
    const out = [];
    for (const c of cards) {
      const li = el("li", null, null, { "data-reason-card": c.card, "data-seat": c.seat === null ? "" : String(c.seat),
                                         "data-where": c.where });
      li.append(el("span", c.card, `card c-${LONG[c.card.split("-")[0]]}`), el("span", c.held));
      out.push(li);
    }
    return out;
  }

  function showRound(n) {
    const doc = rv.doc;
    $("r-reason-cards").replaceChildren();
    for (const b of document.querySelectorAll("#r-rounds button")) b.classList.toggle("active", b.dataset.round === String(n));
    const r = doc.rounds.find((x) => x.round === n);
    const pieces = (r.pieces || []).map((p) => ({ piece: p.piece, cells: p.cells }));
    for (const p of r.placements || []) pieces.push({ piece: p.piece, cells: p.cells, light: true });
    const c = r.costliest;
    if (c && c.alternative_cells) pieces.push({ piece: c.alternative.split(" at ")[0], cells: c.alternative_cells, ghost: true });
    $("r-board").replaceChildren(boardSvg(doc.board, { pieces, label: `the board of round ${n}` }));
    const words = { clearable: "still clearable with open hands", not_clearable: "lost: no play of these cards clears it",
                    undecided: "undecided with open hands" };
    const parts = [`Round ${n}: ${words[r.open_hand] || r.open_hand}; the search player clears it from here in `
      + `${Math.round(100 * r.search_rate)} % of its games.`];
    if (r.plays && r.plays.length) {
      parts.push(`Played: ${r.plays.map((p) => `${who(p.player)} ${p.card}`).join(", ")}; `
        + `${r.placements.map((p) => `${p.piece} at ${p.cells.join(" ")}`).join("; ") || "nothing placed"}.`);
    }
    if (c) {
      parts.push(`Costliest decision (${who(c.player)}, ${c.class}): played ${c.played} (${Math.round(100 * c.rate_played)} %); `
        + `the search player's ${c.alternative} (${Math.round(100 * c.rate_alternative)} %)` + (c.alternative_cells ? ", dashed on the board." : "."));
    }
    $("r-round").textContent = parts.join(" ");
  }

  async function fromFile() {
    const f = $("r-file").files[0];
    if (!f) { $("r-state").textContent = "choose a log file first"; return; }
    if (f.size > 1000000) { $("r-state").textContent = "that file is over 1 MB: a game log has a few kilobytes"; return; }
    start(await f.text());
  }

  return {
    fromSeat,
    fromGame,
    init() { $("r-start").addEventListener("click", fromFile); },
  };
}
