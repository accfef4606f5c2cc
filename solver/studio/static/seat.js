// A seat's page (its own link: ?game=ID&seat=N&token=T; the token is kept in this tab's
// sessionStorage and out of the address bar, so a reload finds it): sent only what its seat may see. It asks
// the server again while others play and shows their moves one at a time. The hand is a row of
// cards, each with its piece drawn; a placement is chosen by tapping the board (each tap narrows
// the legal placements to those covering every cell tapped: narrow.js) and sent only by the
// confirm button; the numbered choices stay for the keyboard. Every answer carries its question's
// id, so a double tap is answered once.
import { api, download, message } from "./api.js";
import { boardSvg, cellOf, LONG, pieceSvg } from "./board.js";
import { $, button, el } from "./dom.js";
import { narrow, narrowWords } from "./narrow.js";

const PACE_MS = 450;  // one move of another seat every PACE_MS, unless the seat asks to see them at once
const POLL_MS = 1000;  // while people play
const THINKING_POLL_MS = 200;  // while a bot thinks: its answer usually takes a fraction of a second
const AT_ONCE = "kakapo-moves-at-once";  // that choice, kept in this browser

function atOnce() {
  try { return localStorage.getItem(AT_ONCE) === "1"; } catch (e) { return false; }
}

export function createSeat(onReview) {
  const q = new URLSearchParams(window.location.search);
  const seat = { game: q.get("game"), seat: parseInt(q.get("seat"), 10), token: q.get("token") };
  if (!seat.token) {  // the link's token, kept for this tab when the page first opened it
    try { seat.token = sessionStorage.getItem(`kakapo-seat:${seat.game}:${q.get("seat")}`); } catch (e) { seat.token = null; }
  }
  const st = { doc: null, shown: 0, pending: [], picked: null, taps: [], timer: null, busy: false, pacing: false };
  const url = (more) => `/api/games/${encodeURIComponent(seat.game)}/seats/${seat.seat}${more || ""}?token=${encodeURIComponent(seat.token)}`;

  const label = (d, s) => {
    const p = d.players.find((x) => x.seat === s);
    if (!p) return `player ${s}`;
    return s === d.seat ? `you (${p.name})` : p.bot ? `${p.name} (bot, ${p.policy})` : p.name;
  };

  async function refresh() {
    clearTimeout(st.timer);
    const res = await api("GET", url());
    if (!res.ok) {
      $("s-prompt").textContent = message(res);
      if (res.status !== 403 && res.status !== 404) st.timer = setTimeout(refresh, 3 * POLL_MS);
      return;
    }
    take(res.doc);
  }

  function take(doc) {
    const first = st.doc === null;
    const newQuestion = !st.doc || !st.doc.question || !doc.question || st.doc.question.id !== (doc.question && doc.question.id);
    st.doc = doc;
    if (newQuestion) { st.picked = null; st.taps = []; }
    if (first) {  // a reload shows where it was at once: the earlier moves without waiting
      st.shown = Math.max(0, doc.moves.length - 1);
      for (const m of doc.moves.slice(0, st.shown)) addMove(m);
    }
    st.pending = doc.moves.slice(st.shown);
    if (!st.pacing) pace();
    if (!doc.result && !doc.question) st.timer = setTimeout(refresh, doc.thinking ? THINKING_POLL_MS : POLL_MS);
  }

  function pace() {  // others' moves appear one at a time; the seat's own question waits until they have
    if (st.pending.length) {
      st.pacing = true;
      const m = st.pending.shift();
      st.shown += 1;
      addMove(m);
      draw(true);
      setTimeout(pace, m.seat === st.doc.seat || $("s-atonce").checked ? 0 : PACE_MS);
      return;
    }
    st.pacing = false;
    draw(false);
  }

  function addMove(m) {
    const li = el("li", `round ${m.round}: ${m.text}`);
    if (m.seat === st.doc.seat) li.className = "mine";
    $("s-moves").prepend(li);
  }

  function draw(catchingUp) {
    const d = st.doc;
    const thinking = d.thinking && d.to_act !== null && d.to_act !== d.seat ? " (thinking…)" : "";
    const who = (d.result ? "the game is over" : d.to_act === d.seat
      ? (d.question ? "your turn" : "your turn: your choices are being prepared…") : `waiting for ${label(d, d.to_act)}${thinking}`)
      + (d.in_charge !== null && !d.result ? ` · ${label(d, d.in_charge)} in charge` : "");
    $("s-head").replaceChildren(
      el("h2", `${d.mission.name} (${d.mission.id}): you are ${d.players.find((p) => p.seat === d.seat).name}, `
        + `seat ${d.seat} of ${d.players.length}`),
      el("p", "at the table: " + d.players.map((p) => `${p.seat}: ${p.seat === d.seat ? "you" : label(d, p.seat)}`).join(" · "), "state"),
      el("p", `round ${d.round} of ${d.rounds} · trump ${d.trump} · skill counters left ${d.skills_left} · scanned `
        + `${d.scanned.length} of ${d.mission.needed} (${d.scanned.join(", ") || "-"}) · ${who}`, "state"));
    $("s-head").dataset.turn = d.to_act === d.seat ? "yours" : "others";
    const last = !d.trick.length && (d.last_trick || []).length;  // the last trick stays until the next card
    $("s-trick").replaceChildren(el("span", d.trick.length ? "this round: " : last ? `round ${d.round - 1}, won by `
      + `${label(d, d.last_in_charge)}: ` : "this round: no card yet", "what"),
      ...(last ? d.last_trick : d.trick).map((t) => card(t.card, label(d, t.player))));
    $("s-trick").dataset.trick = last ? "last" : "this";
    if (d.lead) $("s-trick").append(el("span", ` led ${d.lead}`, "what"));
    const q = catchingUp ? null : d.question;
    drawBoard(q);
    $("s-forced").checked = !!d.play_forced;
    $("s-prompt").textContent = q ? q.prompt : d.result ? "" : catchingUp ? "…" : `waiting for ${label(d, d.to_act)}`;
    drawHand(q);
    drawChoices(q);
    $("s-placing").hidden = !(q && q.kind === "place");
    drawResult(catchingUp);
  }

  function drawBoard(q) {
    const d = st.doc;
    const pieces = d.pieces.map((p) => ({ piece: p.piece, cells: p.cells }));
    const preview = q && q.kind === "place" && st.picked ? st.picked : null;
    if (preview) pieces.push({ piece: q.piece, cells: preview, light: true });
    $("s-board").replaceChildren(boardSvg(d.mission.board, { pieces, last: d.last, preview: preview || [],
      state: d.state, tapped: preview ? st.taps : [],
      label: "the board: during a placement, tap the cells the piece covers: each tap narrows the placements shown" }));
    $("s-confirm").disabled = !preview;
    $("s-confirm").textContent = preview ? `Place ${q.piece} at ${preview.join(" ")}` : "Place: tap the board first";
  }

  function card(name, who) {
    const [col, v] = name.split("-");
    const c = el("span", null, `card c-${LONG[col]}`, { "data-card": name });
    c.append(el("span", `${who ? who + ": " : ""}${col} ${v}`, "cardname"));
    if (st.doc.shapes && st.doc.shapes[name]) c.appendChild(pieceSvg(name, st.doc.shapes[name]));
    return c;
  }

  function drawHand(q) {
    const d = st.doc;
    const choiceOf = new Map();
    if (q && q.kind === "card") q.cards.forEach((c, i) => choiceOf.set(c, i + 1));
    $("s-hand").replaceChildren(...d.hand.map((c) => {
      const [col, v] = c.split("-");
      const k = choiceOf.get(c);
      const b = button("", k ? () => answer({ choice: k }) : null, { "data-card": c, class: `card c-${LONG[col]}`,
        "aria-label": `${col} ${v}` + (k ? `: play it (choice ${k})` : q && q.kind === "card" ? ": not playable now" : "") });
      b.append(el("span", `${col} ${v}`, "cardname"));
      if (d.shapes && d.shapes[c]) b.appendChild(pieceSvg(c, d.shapes[c]));
      if (col === d.trump) b.classList.add("trump");
      if (k) {
        b.dataset.choice = String(k);
        b.title = q.choices[k - 1];
        if (k === 1 && $("s-advice").checked) b.classList.add("advised");
      } else {
        b.disabled = true;
        if (q && q.kind === "card") b.title = `not legal now: you must follow ${d.lead}`;
      }
      return b;
    }));
  }

  function drawChoices(q) {
    const list = $("s-choices");
    if (!q || q.kind === "card") { list.replaceChildren(); return; }
    list.replaceChildren(...q.choices.map((text, i) => {
      const li = el("li");
      const b = button(text, () => answer({ choice: i + 1 }), { class: "choice", "data-choice": String(i + 1) });
      if (q.kind === "select") for (const p of q.pieces[i]) b.appendChild(pieceSvg(p, st.doc.shapes[p] || "#"));
      if (i === 0 && $("s-advice").checked) b.classList.add("advised");
      if (q.kind === "place") {
        const show = () => { st.picked = q.placements[i]; drawBoard(q); };
        b.addEventListener("mouseenter", show);
        b.addEventListener("focus", show);
      }
      li.appendChild(b);
      return li;
    }));
  }

  function drawResult(catchingUp) {
    const d = st.doc;
    const res = $("s-result");
    res.replaceChildren();
    if (!d.result || catchingUp) return;
    const r = d.result;
    res.append(el("p", r.result === "cleared" ? `Cleared in ${r.rounds_played} round(s): scanned ${r.scanned.join(", ")}`
      : `Not cleared (${r.result.replace("_", " ")}) after ${r.rounds_played} round(s)`, r.result === "cleared" ? "won" : "lost"));
    const said = el("span", "", "msg", { role: "status" });
    const log = button("Download the log", async () => {
      const failed = await download(`/api/games/${encodeURIComponent(seat.game)}/log?token=${encodeURIComponent(seat.token)}`,
        `${seat.game}.jsonl`);
      said.textContent = failed ? `not downloaded: ${failed}` : "";
    }, { id: "s-log" });
    res.append(log, " ", button("Review this game", () => onReview(seat, d), { id: "s-review" }), " ", said);
  }

  // a tap on the board during a placement: the legal placements (best first) narrowed to those
  // covering every cell tapped so far (narrow.js)
  function tap(name) {
    const d = st.doc;
    const q = d && d.question;
    if (!q || q.kind !== "place" || st.pending.length) return;
    const r = narrow(q.legal || q.placements, st.taps, st.picked, name);
    st.taps = r.taps;
    st.picked = r.picked;
    $("s-error").textContent = "";
    drawBoard(q);
    $("s-tapmsg").textContent = narrowWords(q.piece, name, r);
  }

  async function answer(body) {
    if (st.busy) return;
    st.busy = true;
    $("s-error").textContent = "";
    try {
      const qd = st.doc && st.doc.question;
      if (qd && qd.id !== undefined) body.question = qd.id;  // this answer counts for this question only
      const res = await api("POST", url(), body);
      if (res.status === 409) { refresh(); return; }  // answered already (a double tap): show where it stands
      if (!res.ok) { $("s-error").textContent = message(res); return; }
      st.picked = null;
      take(res.doc);
    } finally { st.busy = false; }
  }

  return {
    init() {
      document.body.classList.add("seatonly");
      document.title = `kakapo: seat ${seat.seat}`;
      if (!seat.token) {
        $("s-prompt").textContent = "This address lacks the seat's token: open the whole link the host gave you "
          + "(or scan its QR code again).";
        return;
      }
      $("s-board").addEventListener("click", (e) => { const n = cellOf(e); if (n) tap(n); });
      $("s-confirm").addEventListener("click", () => { if (st.picked) answer({ cells: st.picked.slice() }); });
      $("s-advice").addEventListener("change", () => draw(false));
      $("s-atonce").checked = atOnce();
      $("s-atonce").addEventListener("change", () => {
        try { localStorage.setItem(AT_ONCE, $("s-atonce").checked ? "1" : "0"); } catch (e) { /* private mode */ }
      });
      $("s-forced").addEventListener("change", async () => {
        const res = await api("POST", url("/settings"), { play_forced: $("s-forced").checked });
        if (res.ok) take(res.doc);
      });
      document.addEventListener("keydown", (e) => {  // Enter takes the first (best) choice, one legal move included
        if (e.key !== "Enter" || !st.doc || !st.doc.question || st.pending.length) return;
        const t = e.target;
        if (t && ["BUTTON", "INPUT", "TEXTAREA", "SELECT", "A"].includes(t.tagName)) return;
        e.preventDefault();
        answer({ choice: 1 });
      });
      refresh();
    },
  };
}
