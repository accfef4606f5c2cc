"use strict";
// kakapo studio: one state document drives the board, the fields and the TOML text. Every edit
// is checked by the server at once (POST /api/validate); solving and the long jobs are asked of
// the server too. Text from files and the server is only ever shown with textContent.

const SIZE = 12;
const COLS = "abcdefghijkl";
const FILL = { r: "#d62728", y: "#f2c400", g: "#2ca02c", b: "#1f77b4", p: "#8e44ad" };
const LONG = { red: "r", yellow: "y", green: "g", blue: "b", purple: "p" };
const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const studio = {
  state: emptyState(),
  tool: ".",
  picked: [],          // cells clicked for a piece to place
  solution: null,      // the last solve's placements, drawn over the board
  problems: { cells: new Set(), warn: new Set() },
  history: [], future: [],
  checkTimer: null, checkSeq: 0,
  job: null, events: null, painting: false,
};
window.studio = studio; // for tests and the curious

function emptyState() {
  return { name: "New mission", story: "", mode: "buddy", clear: 1, rounds: 8, skills: 5,
           board: Array(SIZE).fill(".".repeat(SIZE)), placed: [] };
}
const cellName = (r, c) => COLS[c] + (r + 1);
function cellRC(name) { return [parseInt(name.slice(1), 10) - 1, COLS.indexOf(name[0])]; }

// ------------------------------------------------------------------ the TOML text of the state
function toml(s) {
  const q = (t) => JSON.stringify(String(t)); // a JSON string is a TOML basic string
  const out = [`name = ${q(s.name || "Untitled")}`];
  if (s.story) out.push(`story = ${q(s.story)}`);
  out.push(`mode = ${q(s.mode)}`);
  out.push(`clear = ${s.clear === "all" ? '"all"' : (parseInt(s.clear, 10) || 1)}`);
  out.push(`rounds = ${parseInt(s.rounds, 10) || 1}`);
  out.push(`skills = ${parseInt(s.skills, 10) || 0}`);
  out.push('board = """', ...s.board, '"""');
  for (const p of s.placed) {
    out.push("", "[[placed]]", `piece = ${q(p.piece)}`, `cells = [${p.cells.map(q).join(", ")}]`);
  }
  return out.join("\n") + "\n";
}

// ------------------------------------------------------------------ the board
// One drawing for every board of the page: the mission's rows, pieces over them (solid, or light
// for a solution or a preview), and a class per cell (problems, picked cells, an alternative).
function boardSvg(rows, pieces, cellClass) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `-0.6 -0.6 ${SIZE + 0.8} ${SIZE + 0.8}`);
  svg.setAttribute("role", "grid");
  const at = new Map();
  for (const p of pieces) for (const c of p.cells) if (!at.has(c) || !p.light) at.set(c, p);
  for (let c = 0; c < SIZE; c++) label(svg, c + 0.5, -0.15, COLS[c], 0.4, "#888");
  for (let r = 0; r < SIZE; r++) {
    label(svg, -0.3, r + 0.65, String(r + 1), 0.34, "#888");
    for (let c = 0; c < SIZE; c++) {
      const name = cellName(r, c);
      const ch = rows[r][c];
      const rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("x", c); rect.setAttribute("y", r);
      rect.setAttribute("width", 1); rect.setAttribute("height", 1);
      rect.setAttribute("data-cell", name);
      rect.setAttribute("class", "cell" + (cellClass(name) || ""));
      let fill = "#fafafa";
      const p = at.get(name);
      if (p) fill = FILL[LONG[p.piece.split("-")[0]]];
      else if (ch >= "A" && ch <= "Z") fill = "#555";
      rect.setAttribute("fill", fill);
      if (p && p.light) rect.setAttribute("fill-opacity", "0.55");
      svg.appendChild(rect);
      if (p) {
        const [col, v] = p.piece.split("-");
        label(svg, c + 0.5, r + 0.68, p.label || LONG[col] + v, 0.42, "#fff");
      } else if (ch >= "A" && ch <= "Z") {
        label(svg, c + 0.5, r + 0.72, ch, 0.6, "#fff");
      } else if (FILL[ch]) {
        const m = document.createElementNS(SVGNS, "rect");
        m.setAttribute("x", c + 0.3); m.setAttribute("y", r + 0.3);
        m.setAttribute("width", 0.4); m.setAttribute("height", 0.4);
        m.setAttribute("fill", FILL[ch]); m.setAttribute("pointer-events", "none");
        svg.appendChild(m);
      }
    }
  }
  return svg;
}

function drawBoard() {
  const pieces = studio.state.placed.map((p) => ({ piece: p.piece, cells: p.cells }))
    .concat((studio.solution || []).map((p) => ({ piece: p.piece, cells: p.cells, light: true })));
  const cls = (name) => (studio.problems.cells.has(name) ? " bad" : "") + (studio.problems.warn.has(name) ? " warn" : "")
    + (studio.picked.includes(name) ? " picked" : "");
  $("board").replaceChildren(boardSvg(studio.state.board, pieces, cls));
}

// painting: a press on a cell, a drag over others, one step of history when the press ends
function wireBoard() {
  const box = $("board");
  const cellOf = (e) => (e.target && e.target.getAttribute ? e.target.getAttribute("data-cell") : null);
  box.addEventListener("pointerdown", (e) => {
    const name = cellOf(e);
    if (!name) return;
    e.preventDefault();
    studio.painting = studio.tool !== "piece";
    paint(name, true);
  });
  box.addEventListener("pointerover", (e) => {
    if (!studio.painting || !(e.buttons & 1)) return;
    const name = cellOf(e);
    if (name) paint(name, false);
  });
  const stop = () => { if (studio.painting) { studio.painting = false; commit(); } };
  box.addEventListener("pointerup", stop);
  box.addEventListener("pointerleave", stop);
  document.addEventListener("pointerup", stop);
}

function label(svg, x, y, text, size, fill) {
  const t = document.createElementNS(SVGNS, "text");
  t.setAttribute("x", x); t.setAttribute("y", y);
  t.setAttribute("font-size", size); t.setAttribute("text-anchor", "middle"); t.setAttribute("fill", fill);
  t.textContent = text;
  svg.appendChild(t);
}

function paint(name, first) {
  const [r, c] = cellRC(name);
  const s = studio.state;
  if (studio.tool === "piece") {
    const i = studio.picked.indexOf(name);
    if (i >= 0) studio.picked.splice(i, 1); else studio.picked.push(name);
    drawBoard();
    return;
  }
  if (studio.tool === "erase") {
    const k = s.placed.findIndex((p) => p.cells.includes(name));
    if (k >= 0) { s.placed.splice(k, 1); studio.solution = null; drawBoard(); if (first) commit(); return; }
  }
  let ch = studio.tool === "bird" ? $("letter").value : studio.tool === "erase" ? "." : studio.tool;
  const row = s.board[r];
  if (row[c] === ch) return;
  s.board[r] = row.slice(0, c) + ch + row.slice(c + 1);
  studio.solution = null;
  drawBoard();
}

// ------------------------------------------------------------------ state <-> fields and text
function showFields() {
  const s = studio.state;
  $("f-name").value = s.name; $("f-story").value = s.story || ""; $("f-mode").value = s.mode;
  $("f-clear").value = s.clear; $("f-rounds").value = s.rounds; $("f-skills").value = s.skills;
  const counts = s.mode === "party" ? [4, 3] : [2];
  for (const id of ["s-players", "j-players"]) {
    const sel = $(id), keep = sel.value;
    sel.replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
    if (counts.includes(parseInt(keep, 10))) sel.value = keep;
  }
}

function readFields() {
  const s = studio.state;
  s.name = $("f-name").value; s.story = $("f-story").value;
  if ($("f-mode").value !== s.mode) {
    s.mode = $("f-mode").value;
    s.rounds = s.mode === "party" ? 10 : 8; s.skills = s.mode === "party" ? 3 : 5;
  } else {
    s.rounds = $("f-rounds").value; s.skills = $("f-skills").value;
  }
  const clear = $("f-clear").value.trim();
  s.clear = clear.toLowerCase() === "all" ? "all" : clear;
}

// an edit of the board or the fields: new text, a step of history, a check
function commit() {
  // the file's opening comment lines (a designer's notes) stay above the text the board writes
  const notes = [];
  for (const line of $("toml").value.split("\n")) {
    if (!line.trim().startsWith("#")) break;
    notes.push(line);
  }
  $("toml").value = (notes.length ? notes.join("\n") + "\n" : "") + toml(studio.state);
  remember();
  check();
}

function remember() {
  const text = $("toml").value;
  if (studio.history.length && studio.history[studio.history.length - 1].text === text) return;
  studio.history.push({ text, state: structuredClone(studio.state) });
  if (studio.history.length > 200) studio.history.shift();
  studio.future = [];
}

function restore(step) {
  studio.state = structuredClone(step.state);
  $("toml").value = step.text;
  studio.solution = null;
  showFields(); drawBoard(); check();
}

// ------------------------------------------------------------------ the server
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const res = await fetch(path, opts);
  let doc = null;
  try { doc = await res.json(); } catch (e) { doc = null; }
  return { status: res.status, ok: res.ok, doc };
}

function check(fromText) {
  clearTimeout(studio.checkTimer);
  studio.checkTimer = setTimeout(() => runCheck(fromText), fromText ? 250 : 30);
}

async function runCheck(fromText) {
  const seq = ++studio.checkSeq;
  const text = $("toml").value;
  const res = await api("POST", "/api/validate", { text, name: $("filename").value });
  if (seq !== studio.checkSeq || !res.doc) return;
  const d = res.doc;
  if (fromText && d.valid && d.mission) {  // the text was edited: the board follows it
    const m = d.mission;
    studio.state = { name: m.name, story: m.story || "", mode: m.mode, clear: m.clear, rounds: m.rounds,
                     skills: m.skills, board: m.board.slice(), placed: m.placed.map((p) => ({ piece: p.piece, cells: p.cells.slice() })) };
    showFields();
    remember();
  }
  showProblems(d);
  drawBoard();
}

function showProblems(d) {
  const list = $("problems");
  const items = [];
  studio.problems = { cells: new Set(), warn: new Set() };
  const line = (x) => (x.line ? `line ${x.line}: ` : "");
  for (const e of d.errors || []) {
    const li = document.createElement("li");
    li.className = "error";
    li.textContent = `error: ${line(e)}${e.message}` + (e.fix ? ` (fix: ${e.fix})` : "");
    items.push(li);
    for (const c of e.cells || []) studio.problems.cells.add(c);
  }
  for (const w of d.warnings || []) {
    const li = document.createElement("li");
    li.className = "warning";
    li.textContent = `warning: ${line(w)}${w.message}`;
    items.push(li);
    for (const c of w.cells || []) studio.problems.warn.add(c);
  }
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "ok";
    li.textContent = "valid: no errors, no warnings";
    items.push(li);
  }
  list.replaceChildren(...items);
  list.dataset.valid = d.valid ? "true" : "false";
}

// ------------------------------------------------------------------ opening and saving
async function loadMissions() {
  const res = await api("GET", "/api/missions");
  if (!res.ok) return;
  const sel = $("open");
  const groups = { bundled: document.createElement("optgroup"), dir: document.createElement("optgroup") };
  groups.bundled.label = "Bundled campaign"; groups.dir.label = "Your folder";
  for (const m of res.doc) {
    const o = new Option(`${m.id}: ${m.name || "(does not load)"}`, m.id);
    groups[m.source === "dir" ? "dir" : "bundled"].appendChild(o);
  }
  sel.replaceChildren(new Option("choose a mission…", ""), groups.dir, groups.bundled);
}

async function openMission(id) {
  const res = await api("GET", `/api/missions/${encodeURIComponent(id)}`);
  if (!res.ok) { $("savemsg").textContent = res.doc ? res.doc.error.message : "cannot open"; return; }
  $("toml").value = res.doc.text;
  $("filename").value = res.doc.source === "dir" ? res.doc.file : `${id}.toml`;
  studio.solution = null; studio.picked = [];
  await runCheck(true);
  remember();
}

async function save(overwrite) {
  const file = $("filename").value.trim();
  const res = await api("POST", "/api/missions", { file, text: $("toml").value, overwrite: !!overwrite });
  const msg = $("savemsg");
  if (res.status === 409 && !overwrite && res.doc && /exists/.test(res.doc.error.message)) {
    if (window.confirm(`${file} exists in the folder. Replace it?`)) return save(true);
    msg.textContent = "not saved: the file exists (nothing was overwritten)";
    return;
  }
  msg.textContent = res.ok ? `saved ${res.doc.file}` : `not saved: ${res.doc ? res.doc.error.message : res.status}`;
  if (res.ok) loadMissions();
}

function download() {
  const blob = new Blob([$("toml").value], { type: "application/toml" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = $("filename").value.trim() || "mission.toml";
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ------------------------------------------------------------------ solving
async function solve() {
  const out = $("solution");
  out.textContent = "solving…";
  $("reasons").replaceChildren();
  const res = await api("POST", "/api/solve", { text: $("toml").value, name: $("filename").value,
                                                players: parseInt($("s-players").value, 10), count: true });
  if (!res.ok) { out.textContent = `cannot solve: ${res.doc ? res.doc.error.message : res.status}`; return; }
  const d = res.doc;
  studio.solution = d.placements || [];
  if (d.status === "solvable") {
    const count = d.count_complete ? (d.solution_count === 1 ? "a unique answer" : `${d.solution_count} answers`)
      : `at least ${d.solution_count} answers`;
    out.textContent = `solvable with ${d.pieces_used} new piece(s), ${d.optimal ? "proven minimal" : "not proven minimal"}; `
      + `${count} of that size; scans ${(d.scanned || []).join(", ") || "-"}; pieces: `
      + d.placements.map((p) => `${p.piece} at ${p.cells.join(" ")}`).join("; ");
  } else if (d.status === "unsolvable") {
    out.textContent = "unsolvable (proven):";
    studio.problems = { cells: new Set(), warn: new Set() };
    $("reasons").replaceChildren(...(d.reasons || []).map((r) => {
      const li = document.createElement("li");
      li.className = "error";
      li.textContent = r.message;
      for (const c of r.cells || []) studio.problems.cells.add(c);
      return li;
    }));
  } else {
    out.textContent = "undecided: no answer within the time limit";
  }
  out.dataset.status = d.status;
  drawBoard();
}

// ------------------------------------------------------------------ placing pieces by clicks
function fillPieces() {
  const sel = $("piece");
  const names = [];
  for (const col of ["red", "yellow", "green", "blue", "purple"]) for (let v = 1; v <= 8; v++) names.push(`${col}-${v}`);
  sel.replaceChildren(...names.map((n) => new Option(n, n)));
}

function placePicked() {
  const msg = $("placemsg");
  if (!studio.picked.length) { msg.textContent = "click the cells of the piece first"; return; }
  const piece = $("piece").value;
  studio.state.placed = studio.state.placed.filter((p) => p.piece !== piece);
  studio.state.placed.push({ piece, cells: studio.picked.slice().sort() });
  studio.picked = [];
  msg.textContent = `${piece} placed: the checks below say whether the rules allow it`;
  commit();
}

// ------------------------------------------------------------------ jobs
async function startJob() {
  const body = { kind: $("j-kind").value, text: $("toml").value, name: $("filename").value,
                 players: parseInt($("j-players").value, 10), games: parseInt($("j-games").value, 10) || 100,
                 seed: parseInt($("j-seed").value, 10) || 0 };
  const res = await api("POST", "/api/jobs", body);
  if (!res.ok) { $("j-state").textContent = `not started: ${res.doc ? res.doc.error.message : res.status}`; return; }
  studio.job = res.doc.id;
  $("curve").replaceChildren();
  if (studio.events) studio.events.close();
  studio.events = followJob(studio.job, "j", (kind, result) => showResult(kind, result));
}

// A job's progress into the panel whose elements are PREFIX-progress, PREFIX-state and
// PREFIX-cancel, until it ends; onDone(kind, result) when it is done; ``token``: the job's own
// (a seat's page has no other way to it). Returns the event source.
function followJob(id, prefix, onDone, token) {
  $(`${prefix}-cancel`).disabled = !!token;
  const ev = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events` + (token ? `?token=${encodeURIComponent(token)}` : ""));
  ev.onmessage = async (m) => {
    const j = JSON.parse(m.data);
    $(`${prefix}-progress`).value = j.progress;
    const line = $(`${prefix}-state`);
    line.textContent = `${j.kind}: ${j.state}` + (j.state === "running" ? ` (${Math.round(100 * j.progress)} %)` : "")
      + (j.error ? `: ${j.error}` : "");
    line.dataset.state = j.state;
    if (["done", "failed", "cancelled"].includes(j.state)) {
      ev.close(); $(`${prefix}-cancel`).disabled = true;
      if (j.state === "done") await onDone(j.kind, j.result);
    }
  };
  return ev;
}

async function cancelJob() {
  if (studio.job) await api("DELETE", `/api/jobs/${studio.job}`);
}

function showResult(kind, d) {
  const p = $("j-state");
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  if (kind === "ladder") {
    const place = d.difficulty.campaign_text ? `; in the campaign: ${d.difficulty.campaign_text}` : "";
    p.textContent = `ladder done: shortfall ${d.difficulty.value.toFixed(3)} (0 = every rung clears every clearable deal); `
      + `open-hand ceiling ${pct(d.ceiling.clear_rate)}${place}`;
    drawCurve(d);
  } else if (kind === "simulate") {
    p.textContent = `simulate done: ${d.policy} clears ${pct(d.clear_rate)} (95 % interval ${pct(d.ci95[0])} to ${pct(d.ci95[1])}) of ${d.games} games`;
  } else {
    p.textContent = `ceiling done: open hands clear ${pct(d.clear_rate)} of ${d.games} deals (${d.undecided} undecided)`;
  }
  p.dataset.state = "done";
}

function drawCurve(d) {
  const W = 520, H = 240, L = 40, B = 50, T = 10;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("id", "ladder-curve");
  const n = d.rungs.length;
  const x = (i) => L + (i + 0.5) * (W - L - 10) / n;
  const y = (v) => T + (1 - v) * (H - T - B);
  const line = (x1, y1, x2, y2, stroke, dash) => {
    const l = document.createElementNS(SVGNS, "line");
    l.setAttribute("x1", x1); l.setAttribute("y1", y1); l.setAttribute("x2", x2); l.setAttribute("y2", y2);
    l.setAttribute("stroke", stroke); if (dash) l.setAttribute("stroke-dasharray", dash);
    svg.appendChild(l);
  };
  for (const v of [0, 0.25, 0.5, 0.75, 1]) { line(L, y(v), W - 10, y(v), "#e4e4e4"); label(svg, L - 18, y(v) + 4, `${v * 100}%`, 10, "#666"); }
  line(L, y(d.ceiling.clear_rate), W - 10, y(d.ceiling.clear_rate), "#2e7d32", "5 3");
  label(svg, W - 60, y(d.ceiling.clear_rate) - 4, "open hands", 10, "#2e7d32");
  const pts = d.rungs.map((r, i) => `${x(i)},${y(r.clear_rate)}`).join(" ");
  const poly = document.createElementNS(SVGNS, "polyline");
  poly.setAttribute("points", pts); poly.setAttribute("fill", "none"); poly.setAttribute("stroke", "#1f77b4");
  poly.setAttribute("stroke-width", "2");
  svg.appendChild(poly);
  d.rungs.forEach((r, i) => {
    const dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("cx", x(i)); dot.setAttribute("cy", y(r.clear_rate)); dot.setAttribute("r", 3.5);
    dot.setAttribute("fill", "#1f77b4");
    svg.appendChild(dot);
    label(svg, x(i), H - B + 16, r.samples ? `search-${r.samples}` : r.policy, 10, "#333");
  });
  $("curve").replaceChildren(svg);
}

// ------------------------------------------------------------------ status and wiring
async function pollStatus() {
  const res = await api("GET", "/api/status");
  const el = $("status");
  if (res.ok && res.doc.kernels === "ready") {
    el.textContent = "ready"; el.className = "status ready";
    return;
  }
  el.textContent = "compiling the simulator's kernels in the background: checks and solving work now, jobs start when they are ready";
  el.className = "status";
  setTimeout(pollStatus, 2000);
}

function setTool(tool) {
  studio.tool = tool;
  for (const b of document.querySelectorAll("#palette button")) b.classList.toggle("active", b.dataset.tool === tool);
  $("placing").hidden = tool !== "piece";
  if (tool !== "piece") { studio.picked = []; drawBoard(); }
}

// a seat's own link (?game=ID&seat=N&token=T): the page is that seat's, and nothing of the editor runs
function isSeatPage() {
  const q = new URLSearchParams(window.location.search);
  return !!(q.get("game") && q.get("seat") !== null && q.get("token"));
}

function init() {
  if (isSeatPage()) return;
  const letters = $("letter");
  for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") letters.appendChild(new Option(ch, ch));
  fillPieces();
  wireBoard();
  for (const b of document.querySelectorAll("#palette button")) b.addEventListener("click", () => setTool(b.dataset.tool));
  letters.addEventListener("change", () => setTool("bird"));
  for (const id of ["f-name", "f-story", "f-mode", "f-clear", "f-rounds", "f-skills"]) {
    $(id).addEventListener("change", () => { readFields(); showFields(); commit(); });
  }
  $("toml").addEventListener("input", () => { studio.solution = null; check(true); });
  $("toml").addEventListener("change", () => remember());
  $("new").addEventListener("click", () => { studio.state = emptyState(); studio.solution = null; showFields(); drawBoard(); commit(); });
  $("open").addEventListener("change", (e) => { if (e.target.value) openMission(e.target.value); });
  $("save").addEventListener("click", () => save(false));
  $("download").addEventListener("click", download);
  $("solve").addEventListener("click", solve);
  $("clearsol").addEventListener("click", () => { studio.solution = null; $("solution").textContent = ""; drawBoard(); });
  $("place").addEventListener("click", placePicked);
  $("unpick").addEventListener("click", () => { studio.picked = []; drawBoard(); });
  $("j-start").addEventListener("click", startJob);
  $("j-cancel").addEventListener("click", cancelJob);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target === $("toml")) return;
    if (e.key === "z") { e.preventDefault(); undo(); } else if (e.key === "y") { e.preventDefault(); redo(); }
  });
  showFields(); drawBoard(); commit();
  loadMissions(); pollStatus();
}

function undo() {
  if (studio.history.length < 2) return;
  studio.future.push(studio.history.pop());
  restore(studio.history[studio.history.length - 1]);
}

function redo() {
  const step = studio.future.pop();
  if (!step) return;
  studio.history.push(step);
  restore(step);
}

document.addEventListener("DOMContentLoaded", init);
