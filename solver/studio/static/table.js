"use strict";
// kakapo studio, the table: start games, a seat's page (its own link: ?game=ID&seat=N&token=T), and
// the review of any game's log on the board. A seat's page is sent only what its seat may see; it
// asks the server again every second while others play, and shows their moves one at a time.
// Text from the server is only ever shown with textContent.

const table = {
  seat: null,          // {game, seat, token} on a seat's page
  doc: null,           // the seat's last document
  shown: 0,            // moves shown so far (others' moves appear at a readable pace)
  pending: [],         // moves still to show
  picked: [],          // cells clicked for a placement
  preview: null,       // the placement choice previewed on the board
  timer: null, busy: false, pacing: false,
  review: null,        // {doc, log, rows, rounds} of the review shown
  reviewJob: null, reviewEvents: null,
};
window.table = table;

const PACE_MS = 450;   // one move of another seat every PACE_MS
const POLL_MS = 1000;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function showView(name) {
  for (const v of document.querySelectorAll("main[data-view]")) v.hidden = v.dataset.view !== name;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
}

// ------------------------------------------------------------------ starting games (the host's page)
function seatBoxes() {
  const n = parseInt($("g-players").value, 10);
  const keep = new Set([...document.querySelectorAll("#g-seats input:checked")].map((i) => i.value));
  const names = {};
  for (const i of document.querySelectorAll("#g-names input")) names[i.dataset.seat] = i.value;
  const boxes = [];
  for (let s = 0; s < n; s++) {
    const lab = el("label", null);
    const box = document.createElement("input");
    box.type = "checkbox"; box.value = String(s);
    box.checked = keep.size ? keep.has(String(s)) : s === 0;
    box.addEventListener("change", nameBoxes);
    lab.append(box, ` seat ${s} is a person`);
    boxes.push(lab);
  }
  $("g-seats").replaceChildren(...boxes);
  nameBoxes(names);
}

function nameBoxes(previous) {
  const names = previous && !(previous instanceof Event) ? previous : {};
  if (!previous || previous instanceof Event) for (const i of document.querySelectorAll("#g-names input")) names[i.dataset.seat] = i.value;
  const people = [...document.querySelectorAll("#g-seats input:checked")].map((i) => i.value);
  $("g-names").replaceChildren(...people.map((s) => {
    const lab = el("label", `Name of seat ${s} `);
    const input = document.createElement("input");
    input.maxLength = 40; input.size = 10; input.dataset.seat = s; input.value = names[s] || "";
    input.placeholder = `player ${s}`;
    lab.appendChild(input);
    return lab;
  }));
}

function knownDeal() {
  const known = $("g-known").checked;
  $("g-deal").hidden = !known;
  $("g-dealmsg").textContent = known
    ? "A known deal: anyone who knows this seed and game number knows every hand (kakapo play --seed S --game I deals them)."
    : "The deal is drawn at random and kept secret until the game ends.";
}

async function fillGameMissions() {
  const res = await api("GET", "/api/missions");
  if (!res.ok) return;
  const sel = $("g-mission");
  const opts = [new Option("the one in the editor", "")];
  for (const m of res.doc) if (m.valid !== false) opts.push(new Option(`${m.id}: ${m.name}`, m.id));
  sel.replaceChildren(...opts);
}

function remembered() {
  try { return JSON.parse(localStorage.getItem("kakapo-games") || "{}"); } catch (e) { return {}; }
}

function forget(id) {
  const links = remembered();
  if (id === undefined) for (const k of Object.keys(links)) delete links[k]; else delete links[id];
  try { localStorage.setItem("kakapo-games", JSON.stringify(links)); } catch (e) { /* private mode */ }
  listGames();
}

async function startGame() {
  const human = [...document.querySelectorAll("#g-seats input:checked")].map((i) => parseInt(i.value, 10));
  const body = { players: parseInt($("g-players").value, 10), human, policy: $("g-policy").value, names: {} };
  for (const i of document.querySelectorAll("#g-names input")) if (i.value.trim()) body.names[i.dataset.seat] = i.value.trim();
  if ($("g-known").checked) {
    body.seed = parseInt($("g-seed").value, 10);
    body.game = parseInt($("g-game").value, 10) || 0;
    if (!(body.seed >= 0)) { $("g-msg").textContent = "give the seed of the known deal (or untick it for a secret deal)"; return; }
  }
  if ($("g-mission").value) body.mission = $("g-mission").value;
  else { body.text = $("toml").value; body.name = $("filename").value; }
  const res = await api("POST", "/api/games", body);
  if (!res.ok) { $("g-msg").textContent = `not started: ${res.doc ? res.doc.error.message : res.status}`; return; }
  const links = remembered();
  links[res.doc.id] = res.doc.seats;
  try { localStorage.setItem("kakapo-games", JSON.stringify(links)); } catch (e) { /* private mode */ }
  $("g-msg").textContent = (res.doc.seats.length
    ? `game ${res.doc.id} started: each person opens their seat's link`
    : `game ${res.doc.id} is played by the bots`) + (res.doc.known_deal ? " (a known deal)" : " (a secret deal)");
  showLinks($("g-links"), res.doc.id, res.doc.seats);
  listGames();
}

function showLinks(list, id, seats) {
  list.replaceChildren(...seats.map((s) => {
    const li = el("li", `seat ${s.seat}: `);
    const a = el("a", s.url);
    a.href = s.url; a.target = "_blank"; a.rel = "noopener";
    a.dataset.seat = String(s.seat);
    li.appendChild(a);
    return li;
  }));
}

async function listGames() {
  const res = await api("GET", "/api/games");
  if (!res.ok) return;
  const links = remembered();
  $("g-list").replaceChildren(...res.doc.slice().reverse().map((g) => {
    const state = g.broken ? `cannot go on: ${g.broken}` : g.result ? g.result.replace("_", " ")
      : `in play, round ${g.round}` + (g.thinking ? " (a bot is thinking)" : "");
    const who = (g.human || []).map((s) => (g.names && g.names[s]) || `seat ${s}`).join(", ") || "-";
    const li = el("li", `${g.id}: ${g.mission || "?"} (${g.name || "?"}), ${g.players || "?"} players, people: ${who}; ${state} `);
    if (g.broken) li.className = "error";
    for (const s of links[g.id] || []) {
      const a = el("a", `seat ${s.seat}`);
      a.href = s.url; a.target = "_blank"; a.rel = "noopener";
      li.append(" ", a);
    }
    if (links[g.id]) {
      const b = el("button", "forget the links");
      b.type = "button";
      b.addEventListener("click", () => forget(g.id));
      li.append(" ", b);
    }
    if (g.result || (g.broken && g.players)) {
      const a = el("a", "log");
      a.href = `/api/games/${encodeURIComponent(g.id)}/log`;
      li.append(" ", a);
    }
    return li;
  }));
}

// ------------------------------------------------------------------ a seat's page
function seatUrl(more) {
  const s = table.seat;
  return `/api/games/${encodeURIComponent(s.game)}/seats/${s.seat}${more || ""}?token=${encodeURIComponent(s.token)}`;
}

async function refreshSeat() {
  clearTimeout(table.timer);
  const res = await api("GET", seatUrl());
  if (!res.ok) {
    $("s-prompt").textContent = res.doc ? res.doc.error.message : `the studio answered ${res.status}`;
    if (res.status !== 403 && res.status !== 404) table.timer = setTimeout(refreshSeat, 3 * POLL_MS);
    return;
  }
  takeDoc(res.doc);
}

function takeDoc(doc) {
  const first = table.doc === null;
  table.doc = doc;
  if (first) {  // a reload shows where it was at once: the earlier moves without waiting
    table.shown = Math.max(0, doc.moves.length - 1);
    for (const m of doc.moves.slice(0, table.shown)) addMove(m);
  }
  table.pending = doc.moves.slice(table.shown);
  if (!table.pacing) pace();
  if (!doc.result && !doc.question) table.timer = setTimeout(refreshSeat, doc.thinking ? POLL_MS / 2 : POLL_MS);
}

function pace() {
  // others' moves appear one at a time; the seat's own question waits until they have
  if (table.pending.length) {
    table.pacing = true;
    const m = table.pending.shift();
    table.shown += 1;
    addMove(m);
    drawSeat(true);
    setTimeout(pace, m.seat === table.doc.seat ? 0 : PACE_MS);
    return;
  }
  table.pacing = false;
  drawSeat(false);
}

function addMove(m) {
  const li = el("li", `round ${m.round}: ${m.text}`);
  if (m.seat === table.doc.seat) li.className = "mine";
  $("s-moves").prepend(li);
}

function drawSeat(catchingUp) {
  const d = table.doc;
  const you = (s) => (s === d.seat ? "you" : seatLabel(d, s));
  const head = $("s-head");
  const thinking = d.thinking && d.to_act !== null && d.to_act !== d.seat ? " (thinking…)" : "";
  const who = (d.result ? "the game is over" : d.to_act === d.seat
    ? (d.question ? "your turn" : "your turn: your choices are being prepared…") : `waiting for ${you(d.to_act)}${thinking}`)
    + (d.in_charge !== null && !d.result ? ` · ${you(d.in_charge)} in charge` : "");
  head.replaceChildren(
    el("h2", `${d.mission.name} (${d.mission.id}): you are ${seatLabel(d, d.seat)}, seat ${d.seat} of ${d.players.length}`),
    el("p", "at the table: " + d.players.map((p) => `${p.seat}: ${seatLabel(d, p.seat)}`).join(" · "), "state"),
    el("p", `round ${d.round} of ${d.rounds} · trump ${d.trump} · skill counters left ${d.skills_left} · scanned `
      + `${d.scanned.length} of ${d.mission.needed} (${d.scanned.join(", ") || "-"}) · ${who}`, "state"));
  head.dataset.turn = d.to_act === d.seat ? "yours" : "others";
  const trick = $("s-trick");
  trick.replaceChildren(el("span", d.trick.length ? "this round: " : "this round: no card yet", "what"),
    ...d.trick.map((t) => cardEl(t.card, you(t.player))));
  if (d.lead) trick.append(el("span", ` led ${d.lead}`, "what"));
  drawSeatBoard();
  $("s-forced").checked = !!d.play_forced;
  const q = catchingUp ? null : d.question;
  $("s-prompt").textContent = q ? q.prompt : d.result ? "" : catchingUp ? "…" : `waiting for ${you(d.to_act)}`;
  drawHand(q);
  drawChoices(q);
  $("s-placing").hidden = !(q && q.kind === "place");
  const res = $("s-result");
  res.replaceChildren();
  if (d.result && !catchingUp) {
    const r = d.result;
    res.append(el("p", r.result === "cleared"
      ? `Cleared in ${r.rounds_played} round(s): scanned ${r.scanned.join(", ")}`
      : `Not cleared (${r.result.replace("_", " ")}) after ${r.rounds_played} round(s)`, r.result === "cleared" ? "won" : "lost"));
    const a = el("a", "Download the log");
    a.href = `/api/games/${encodeURIComponent(d.game)}/log`;
    a.id = "s-log";
    const b = el("button", "Review this game");
    b.type = "button"; b.id = "s-review";
    b.addEventListener("click", reviewThisGame);
    res.append(a, " ", b);
  }
}

// a seat by its name, with "bot, POLICY" for a bot: the players list of the seat's document
function seatLabel(d, s) {
  const p = d.players.find((x) => x.seat === s);
  if (!p) return `player ${s}`;
  return p.bot ? `${p.name} (bot, ${p.policy})` : p.name;
}

function cardEl(card, who) {
  const [col, v] = card.split("-");
  const span = el("span", `${who ? who + ": " : ""}${col} ${v}`, `card c-${LONG[col]}`);
  return span;
}

function drawHand(q) {
  const d = table.doc;
  const hand = $("s-hand");
  const choiceOf = new Map();
  if (q && q.kind === "card") q.cards.forEach((c, i) => choiceOf.set(c, i + 1));
  hand.replaceChildren(...d.hand.map((c) => {
    const b = el("button", null, `card c-${LONG[c.split("-")[0]]}`);
    b.type = "button";
    const [col, v] = c.split("-");
    b.textContent = `${col} ${v}`;
    if (c.split("-")[0] === d.trump) b.classList.add("trump");
    const k = choiceOf.get(c);
    if (k) {
      b.dataset.choice = String(k);
      b.title = q.choices[k - 1];
      if (k === 1 && $("s-advice").checked) b.classList.add("advised");
      b.addEventListener("click", () => answer({ choice: k }));
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
    const li = document.createElement("li");
    const b = el("button", text, "choice");
    b.type = "button";
    b.dataset.choice = String(i + 1);
    if (i === 0 && $("s-advice").checked) b.classList.add("advised");
    b.addEventListener("click", () => answer({ choice: i + 1 }));
    if (q.kind === "place") {
      b.addEventListener("mouseenter", () => { table.preview = i; drawSeatBoard(); });
      b.addEventListener("focus", () => { table.preview = i; drawSeatBoard(); });
    }
    li.appendChild(b);
    return li;
  }));
}

function drawSeatBoard() {
  const d = table.doc;
  const q = d.question;
  const pieces = d.pieces.map((p) => ({ piece: p.piece, cells: p.cells }));
  if (q && q.kind === "place" && !table.pending.length) {
    const i = table.preview === null ? 0 : table.preview;
    if (q.placements[i]) pieces.push({ piece: q.piece, cells: q.placements[i], light: true, label: String(i + 1) });
  }
  const cls = (name) => (table.picked.includes(name) ? " picked" : "");
  $("s-board").replaceChildren(boardSvg(d.mission.board, pieces, cls));
}

async function answer(body) {
  if (table.busy) return;
  table.busy = true;
  $("s-error").textContent = "";
  try {
    const q = table.doc && table.doc.question;
    if (q && q.id !== undefined) body.question = q.id;  // this answer counts for this question only
    const res = await api("POST", seatUrl(), body);
    if (res.status === 409) { refreshSeat(); return; }  // answered already (a double tap): show where it stands
    if (!res.ok) { $("s-error").textContent = res.doc ? res.doc.error.message : `the studio answered ${res.status}`; return; }
    table.picked = []; table.preview = null;
    takeDoc(res.doc);
  } finally { table.busy = false; }
}

function wireSeat() {
  $("s-board").addEventListener("click", (e) => {
    const name = e.target && e.target.getAttribute ? e.target.getAttribute("data-cell") : null;
    const q = table.doc && table.doc.question;
    if (!name || !q || q.kind !== "place") return;
    const i = table.picked.indexOf(name);
    if (i >= 0) table.picked.splice(i, 1); else table.picked.push(name);
    drawSeatBoard();
  });
  $("s-place").addEventListener("click", () => {
    if (!table.picked.length) { $("s-error").textContent = "click the cells of the piece on the board first"; return; }
    answer({ cells: table.picked.slice() });
  });
  $("s-unpick").addEventListener("click", () => { table.picked = []; drawSeatBoard(); });
  $("s-advice").addEventListener("change", () => drawSeat(false));
  $("s-forced").addEventListener("change", async () => {
    const res = await api("POST", seatUrl("/settings"), { play_forced: $("s-forced").checked });
    if (res.ok) takeDoc(res.doc);
  });
  document.addEventListener("keydown", (e) => {  // Enter takes the first (best) choice, one legal move included
    if (e.key !== "Enter" || !table.doc || !table.doc.question || table.pending.length) return;
    const t = e.target;
    if (t && (t.tagName === "BUTTON" || t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    e.preventDefault();
    answer({ choice: 1 });
  });
}

async function reviewThisGame() {
  document.body.classList.remove("seatonly");
  showView("review");
  $("r-state").textContent = "reviewing…";
  const res = await api("POST", `/api/games/${encodeURIComponent(table.doc.game)}/review?token=${encodeURIComponent(table.seat.token)}`);
  if (!res.ok) { $("r-state").textContent = `cannot review: ${res.doc ? res.doc.error.message : res.status}`; return; }
  followReview(res.doc.id, res.doc.token);
}

// ------------------------------------------------------------------ the review on the board
function clearReview() {
  $("r-summary").textContent = ""; $("r-chart").replaceChildren(); $("r-rounds").replaceChildren();
  $("r-board").replaceChildren(); $("r-round").textContent = "";
}

async function startReview(text) {
  $("r-state").textContent = "reviewing…";
  const res = await api("POST", "/api/jobs", { kind: "review", text, name: "the log" });
  if (!res.ok) { $("r-state").textContent = `cannot review: ${res.doc ? res.doc.error.message : res.status}`; return; }
  followReview(res.doc.id, res.doc.token);
}

function followReview(id, token) {
  clearReview();
  table.reviewJob = id;
  if (table.reviewEvents) table.reviewEvents.close();
  table.reviewEvents = followJob(id, "r", (_kind, result) => showReview(result), token);
}

function showReview(doc) {
  table.review = { doc };
  const lost = doc.lost_in ? ` The deal was lost in round ${doc.lost_in}.` : doc.lost_at ? ` From round ${doc.lost_at} no one could clear it.` : "";
  $("r-summary").textContent = doc.summary + lost;
  drawReviewChart(doc);
  const bar = $("r-rounds");
  bar.replaceChildren(...doc.rounds.map((r) => {
    const b = el("button", `round ${r.round}`);
    b.type = "button"; b.dataset.round = String(r.round);
    if (r.round === doc.lost_in) b.classList.add("lostround");
    b.addEventListener("click", () => showReviewRound(r.round));
    return b;
  }));
  const worst = doc.rounds.filter((r) => r.costliest).sort((a, b) => b.costliest.cost - a.costliest.cost)[0];
  showReviewRound(doc.lost_in || (worst ? worst.round : 1));
}

function showReviewRound(n) {
  const { doc } = table.review;
  for (const b of document.querySelectorAll("#r-rounds button")) b.classList.toggle("active", b.dataset.round === String(n));
  const r = doc.rounds.find((x) => x.round === n);
  const pieces = (r.pieces || []).map((p) => ({ piece: p.piece, cells: p.cells }));
  for (const p of r.placements || []) pieces.push({ piece: p.piece, cells: p.cells, light: true });
  const alt = new Set(r && r.costliest && r.costliest.alternative_cells ? r.costliest.alternative_cells : []);
  const cls = (name) => (alt.has(name) ? " alternative" : "");
  $("r-board").replaceChildren(boardSvg(doc.board, pieces, cls));
  const words = { clearable: "still clearable with open hands", not_clearable: "lost: no play of these cards clears it",
                  undecided: "undecided with open hands" };
  const parts = [`Round ${n}: ${words[r.open_hand] || r.open_hand}; the search player clears it from here in `
    + `${Math.round(100 * r.search_rate)} % of its games.`];
  if (r.plays && r.plays.length) parts.push(`Played: ${r.plays.map((p) => `player ${p.player} ${p.card}`).join(", ")}; `
    + `${r.placements.map((p) => `${p.piece} at ${p.cells.join(" ")}`).join("; ") || "nothing placed"}.`);
  if (r.costliest) {
    const c = r.costliest;
    parts.push(`Costliest decision (player ${c.player}, ${c.class}): played ${c.played} (${Math.round(100 * c.rate_played)} %); `
      + `the search player's ${c.alternative} (${Math.round(100 * c.rate_alternative)} %)`
      + (alt.size ? ", outlined on the board." : "."));
  }
  $("r-round").textContent = parts.join(" ");
}

function drawReviewChart(doc) {
  const W = 520, H = 180, L = 40, B = 34, T = 10;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("id", "review-chart");
  const n = doc.rounds.length;
  const bw = (W - L - 10) / Math.max(n, 1);
  const y = (v) => T + (1 - v) * (H - T - B);
  const colour = { clearable: "#cfe8cf", not_clearable: "#f3c4c4", undecided: "#e4e4e4" };
  doc.rounds.forEach((r, i) => {
    const band = document.createElementNS(SVGNS, "rect");
    band.setAttribute("x", L + i * bw); band.setAttribute("y", T); band.setAttribute("width", bw - 2);
    band.setAttribute("height", H - T - B); band.setAttribute("fill", colour[r.open_hand] || "#eee");
    svg.appendChild(band);
    const bar = document.createElementNS(SVGNS, "rect");
    bar.setAttribute("x", L + i * bw + bw * 0.25); bar.setAttribute("width", bw * 0.5);
    bar.setAttribute("y", y(r.search_rate)); bar.setAttribute("height", Math.max(0, H - B - y(r.search_rate)));
    bar.setAttribute("fill", r.round === doc.lost_in ? "#b00020" : "#1f77b4");
    bar.setAttribute("data-round", String(r.round));
    svg.appendChild(bar);
    label(svg, L + i * bw + bw / 2, H - B + 14, String(r.round), 10, "#333");
  });
  for (const v of [0, 0.5, 1]) label(svg, L - 16, y(v) + 4, `${v * 100}%`, 10, "#666");
  label(svg, L + (W - L) / 2, H - 4, "round: the search player's clear rate from its start; green: clearable with open hands, red: lost", 9, "#555");
  $("r-chart").replaceChildren(svg);
}

async function reviewFile() {
  const f = $("r-file").files[0];
  if (!f) { $("r-state").textContent = "choose a log file first"; return; }
  if (f.size > 1000000) { $("r-state").textContent = "that file is over 1 MB: a game log has a few kilobytes"; return; }
  startReview(await f.text());
}

// ------------------------------------------------------------------ rating the table
async function rateTable() {
  $("t-state").textContent = "rating…";
  $("t-expected").replaceChildren();
  const res = await api("POST", "/api/jobs", { kind: "rate" });
  if (!res.ok) { $("t-state").textContent = `cannot rate: ${res.doc ? res.doc.error.message : res.status}`; return; }
  const id = res.doc.id;
  $("t-cancel").onclick = () => api("DELETE", `/api/jobs/${id}`);
  followJob(id, "t", (_kind, result) => showRating(result));
}

const rungName = (r) => (r.samples ? `${r.policy}-${r.samples}` : r.policy);

async function showRating(d) {
  const plausible = d.plausible.map(rungName).join(", ");
  $("t-state").textContent = `${d.games} game(s), seat(s) ${d.seats.join(", ")}: the table plays like `
    + `${rungName(d.best)}` + (d.told_apart ? " (every other rung ruled out)" : `; these games cannot tell apart: ${plausible}`);
  const list = await api("GET", "/api/missions");
  const shortfall = new Map();
  if (list.ok) for (const m of list.doc) if (m.shortfall) shortfall.set(m.id, m.shortfall);
  const head = document.createElement("tr");
  for (const h of ["mission", "players", "campaign shortfall", "expected for your table"]) head.appendChild(el("th", h));
  const rows = d.predictions.map((p) => {
    const tr = document.createElement("tr");
    tr.dataset.mission = p.mission;
    const sf = shortfall.get(p.mission);
    tr.append(el("td", p.mission), el("td", String(p.players)),
      el("td", sf && sf[String(p.players)] !== undefined ? sf[String(p.players)].toFixed(3) : "-"),
      el("td", `${Math.round(100 * p.clear_rate)} % (${Math.round(100 * p.ci95[0])}–${Math.round(100 * p.ci95[1])} %)`));
    return tr;
  });
  $("t-expected").replaceChildren(head, ...rows);
}

// ------------------------------------------------------------------ wiring
function initTable() {
  for (const b of document.querySelectorAll("#tabs button")) {
    b.addEventListener("click", () => { showView(b.dataset.tab); if (b.dataset.tab === "table") listGames(); });
  }
  $("g-players").addEventListener("change", seatBoxes);
  $("g-start").addEventListener("click", startGame);
  $("g-known").addEventListener("change", knownDeal);
  $("g-forget-all").addEventListener("click", () => forget());
  $("t-rate").addEventListener("click", rateTable);
  $("r-start").addEventListener("click", reviewFile);
  $("r-cancel").addEventListener("click", () => { if (table.reviewJob) api("DELETE", `/api/jobs/${table.reviewJob}`); });
  wireSeat();
  if (isSeatPage()) {
    const q = new URLSearchParams(window.location.search);
    table.seat = { game: q.get("game"), seat: parseInt(q.get("seat"), 10), token: q.get("token") };
    document.body.classList.add("seatonly");
    document.title = `kakapo: seat ${table.seat.seat}`;
    showView("seat");
    refreshSeat();
    return;
  }
  seatBoxes();
  knownDeal();
  fillGameMissions();
}

document.addEventListener("DOMContentLoaded", initTable);
