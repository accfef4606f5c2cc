// The editor: one state document drives the board, the fields and the TOML text. Every edit is
// checked by the server at once (POST /api/validate); solving and the long jobs are asked of the
// server too, and their answers are marked as being for the previous version once the mission
// changes. The mission being drawn is kept as a draft in this browser, and can be shared as a link
// that carries it (no server storage); drafts.js offers a draft of before back, never overwriting it.
import { api, followJob, message } from "./api.js";
import { boardSvg, cellOf, cellRC, SIZE, pieceSvg } from "./board.js";
import { COLOURS } from "./deck.js";
import { $, button, el } from "./dom.js";
import { createDrafts } from "./drafts.js";
import { fromLink, linkCode } from "./linkcode.js";
import { carriedText, carry, offer, onCatalogSwitch, stamped } from "./madewith.js";
import { firstMode, LIMITS, modeDefaults, tableSizes } from "./gamerules.js";
import { showResult } from "./results.js";  // a result in the server's words
import { reasonCells, solveWords } from "./solvewords.js";

export function emptyState() {
  const mode = firstMode();
  return { name: "New mission", story: "", mode, clear: 1, rounds: modeDefaults(mode).rounds, skills: modeDefaults(mode).skills,
           board: Array(SIZE).fill(".".repeat(SIZE)), placed: [] };
}

// the TOML text of a state document, as the server's writer (io/missionwrite.mission_toml) writes
// it: rounds and skills only where they are not the mode's (a JSON string is a TOML basic string)
export function toml(s) {
  const q = (t) => JSON.stringify(String(t));
  const out = [`name = ${q(s.name || "Untitled")}`];
  if (s.story) out.push(`story = ${q(s.story)}`);
  out.push(`mode = ${q(s.mode)}`, `clear = ${s.clear === "all" ? '"all"' : s.clear}`);
  const d = modeDefaults(s.mode);
  if (s.rounds !== d.rounds) out.push(`rounds = ${s.rounds}`);
  if (s.skills !== d.skills) out.push(`skills = ${s.skills}`);
  if (s.pieces_digest) out.push(`pieces_digest = ${q(s.pieces_digest)}`);
  out.push('board = """', ...s.board, '"""');
  for (const p of s.placed) out.push("", "[[placed]]", `piece = ${q(p.piece)}`, `cells = [${p.cells.map(q).join(", ")}]`);
  return out.join("\n") + "\n";
}

// what each field allows: {value} or {error}; the limits are the server's (rules.js sets them)
const whole = (v, lo, hi) => /^\d+$/.test(v.trim()) && +v >= lo && +v <= hi;
const within = (v, [lo, hi], what) => (whole(v, lo, hi) ? { value: +v } : { error: `${what} is a whole number from ${lo} to ${hi}` });
export const FIELD_RULES = {
  clear: (v) => (v.trim().toLowerCase() === "all" ? { value: "all" } : whole(v, 1, LIMITS.birds) ? { value: +v }
    : { error: "Clear is how many birds must be scanned: a whole number, 1 or more, or all" }),
  rounds: (v) => within(v, LIMITS.rounds, "Rounds"),
  skills: (v) => within(v, LIMITS.skills, "Skills"),
  name: (v) => (v.trim() ? { value: v } : { error: "a mission needs a name" }),
};

export function createEditor() {
  const ed = {
    state: emptyState(), tool: ".", picked: [], solution: null, problems: { cells: new Set(), warn: new Set() },
    boardState: null, history: [], future: [], checkSeq: 0, checkTimer: null, painting: false, job: null,
    shapes: {}, listeners: [],
    owns: false,  // whether the stored draft is what this page drew (else a draft of before, offered back)
  };
  const drafts = createDrafts(ed);

  // ---------------------------------------------------------------- reading
  ed.text = () => $("toml").value;
  ed.filename = () => $("filename").value.trim() || "mission.toml";
  ed.onChange = (f) => ed.listeners.push(f);

  // ---------------------------------------------------------------- the board
  function drawBoard() {
    const pieces = ed.state.placed.map((p) => ({ piece: p.piece, cells: p.cells }))
      .concat((ed.solution || []).map((p) => ({ piece: p.piece, cells: p.cells, light: true })));
    const cls = (name) => (ed.problems.cells.has(name) ? " bad" : "") + (ed.problems.warn.has(name) ? " warn" : "")
      + (ed.picked.includes(name) ? " picked" : "");
    $("board").replaceChildren(boardSvg(ed.state.board, { pieces, cellClass: cls, state: ed.boardState,
      label: "the mission's board: click or drag to paint with the tool chosen below" }));
  }

  function paint(name, first) {
    const [r, c] = cellRC(name);
    const s = ed.state;
    if (ed.tool === "piece") {
      const i = ed.picked.indexOf(name);
      if (i >= 0) ed.picked.splice(i, 1); else ed.picked.push(name);
      $("cells-typed").value = ed.picked.join(" ");
      drawBoard();
      return;
    }
    if (ed.tool === "erase") {
      const k = s.placed.findIndex((p) => p.cells.includes(name));
      if (k >= 0) { s.placed.splice(k, 1); drawBoard(); if (first) commit(); return; }
    }
    const ch = ed.tool === "bird" ? $("letter").value : ed.tool === "erase" ? "." : ed.tool;
    const row = s.board[r];
    if (row[c] === ch) return;
    s.board[r] = row.slice(0, c) + ch + row.slice(c + 1);
    drawBoard();
  }

  function wireBoard() {
    const box = $("board");
    box.addEventListener("pointerdown", (e) => {
      const name = cellOf(e);
      if (!name || ed.unshown) return;
      e.preventDefault();
      ed.painting = ed.tool !== "piece";
      paint(name, true);
    });
    box.addEventListener("pointerover", (e) => {
      if (!ed.painting || !(e.buttons & 1)) return;
      const name = cellOf(e);
      if (name) paint(name, false);
    });
    const stop = () => { if (ed.painting) { ed.painting = false; commit(); } };
    box.addEventListener("pointerup", stop);
    box.addEventListener("pointerleave", stop);
    document.addEventListener("pointerup", stop);
  }

  // ---------------------------------------------------------------- fields, text, history
  function showFields() {
    const s = ed.state;
    $("f-name").value = s.name; $("f-story").value = s.story || ""; $("f-mode").value = s.mode;
    $("f-clear").value = s.clear; $("f-rounds").value = s.rounds; $("f-skills").value = s.skills;
    for (const f of ["name", "clear", "rounds", "skills"]) fieldError(f, null);
    const counts = tableSizes(s.mode);
    for (const id of ["s-players", "j-players"]) {
      const sel = $(id), keep = sel.value;
      sel.replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
      if (counts.includes(parseInt(keep, 10))) sel.value = keep;
    }
  }

  function fieldError(field, text) {
    const box = $(`f-${field}-error`);
    box.textContent = text || "";
    box.hidden = !text;
    $(`f-${field}`).setAttribute("aria-invalid", text ? "true" : "false");
  }

  // a field edited: a value not allowed is said beside it, and the text keeps the last valid one
  function readField(field) {
    const s = ed.state;
    ed.fieldEdits = (ed.fieldEdits || 0) + 1;
    if (field === "mode") {
      s.mode = $("f-mode").value;
      s.rounds = modeDefaults(s.mode).rounds; s.skills = modeDefaults(s.mode).skills;
      showFields();
      return true;
    }
    if (field === "story") { s.story = $("f-story").value; return true; }
    const v = FIELD_RULES[field]($(`f-${field}`).value);
    fieldError(field, v.error || null);
    if (v.error) return false;
    s[field] = v.value;
    return true;
  }

  function commit() {
    if (ed.unshown) return;  // the text opened is not drawn: nothing drawn may be written over it
    const notes = [];  // the file's opening comment lines (a designer's notes) stay above the text
    for (const line of $("toml").value.split("\n")) {
      if (!line.trim().startsWith("#")) break;
      notes.push(line);
    }
    $("toml").value = (notes.length ? notes.join("\n") + "\n" : "") + toml(ed.state);
    changed();
    remember();
    check();
  }

  // the mission changed: the answers about the previous one say so, and the draft follows (not
  // when ``quiet``: a mission opened from a share link is no drawing of this browser's yet)
  function changed(quiet) {
    ed.solution = null;
    for (const r of document.querySelectorAll("#editor [data-result]")) {
      if (r.dataset.stale !== undefined || !r.textContent) continue;
      r.dataset.stale = "";
      r.prepend(el("strong", "for the previous version: ", "stale"));
    }
    if (ed.ready && !quiet) drafts.writeDraft();  // not the empty board the page starts from, nor a shared mission as it came
    for (const f of ed.listeners) f();
  }

  function clearResults() {
    ed.solution = null;
    for (const r of document.querySelectorAll("#editor [data-result]")) { r.replaceChildren(); delete r.dataset.stale; }
    $("reasons").replaceChildren();
    $("curve").replaceChildren();
  }

  function remember() {
    const text = $("toml").value;
    if (ed.history.length && ed.history[ed.history.length - 1].text === text) return;
    ed.history.push({ text, state: structuredClone(ed.state), unshown: !!ed.unshown });
    if (ed.history.length > 200) ed.history.shift();
    ed.future = [];
  }

  function restore(step) {
    if (ed.unshown !== step.unshown) unshown(!!step.unshown);
    ed.state = structuredClone(step.state);
    $("toml").value = step.text;
    showFields(); changed(); drawBoard(); check();
  }

  ed.undo = () => { if (ed.history.length < 2) return; ed.future.push(ed.history.pop()); restore(ed.history[ed.history.length - 1]); };
  ed.redo = () => { const step = ed.future.pop(); if (!step) return; ed.history.push(step); restore(step); };

  // ---------------------------------------------------------------- checks
  function check(fromText) {
    clearTimeout(ed.checkTimer);
    const edits = ed.fieldEdits || 0;  // counted when the text changed: a field edited after it, even
    ed.checkTimer = setTimeout(() => runCheck(fromText, edits), fromText ? 250 : 30);  // before the check starts, wins
  }

  async function runCheck(fromText, edits) {
    const seq = ++ed.checkSeq;
    const res = await api("POST", "/api/validate", { text: $("toml").value, name: $("filename").value });
    if (seq !== ed.checkSeq || !res.doc) return;
    const d = res.doc;
    if (d.valid && d.mission) {
      if (ed.unshown && fromText) unshown(false);  // the text reads now: drawn as the text says
      ed.boardState = d.mission.state;
      if (fromText) {  // the text was edited: the board and the fields follow it
        const m = d.mission;
        ed.state = { name: m.name, story: m.story || "", mode: m.mode, clear: m.clear, rounds: m.rounds, skills: m.skills,
                     pieces_digest: m.pieces_digest || null,
                     board: m.board.slice(), placed: m.placed.map((p) => ({ piece: p.piece, cells: p.cells.slice() })) };
        if (edits === (ed.fieldEdits || 0)) showFields();  // a field edited meanwhile keeps what was typed
        remember();
      }
    }
    showProblems(d);
    // one mission at a time: the text as opened cannot be drawn (whichever check answers for it)
    if (!d.valid && !ed.unshown && ed.opened !== undefined && $("toml").value === ed.opened) unshown(true);
    offer($("made-with"), d, "This mission");
    drawBoard();
  }

  function showProblems(d) {
    const items = [];
    ed.problems = { cells: new Set(), warn: new Set() };
    const line = (x) => (x.line ? `line ${x.line}: ` : "");
    for (const e of d.errors || []) {
      items.push(el("li", `error: ${line(e)}${e.message}` + (e.fix ? ` (fix: ${e.fix})` : ""), "error"));
      for (const c of e.cells || []) ed.problems.cells.add(c);
    }
    for (const w of d.warnings || []) {
      items.push(el("li", `warning: ${line(w)}${w.message}`, "warning"));
      for (const c of w.cells || []) ed.problems.warn.add(c);
    }
    if (!items.length) items.push(el("li", "valid: no errors, no warnings", "ok"));
    $("problems").replaceChildren(...items);
    $("problems").dataset.valid = d.valid ? "true" : "false";
  }

  // ---------------------------------------------------------------- open, save, share, draft
  ed.load = async (text, file, quiet) => {
    $("toml").value = text;
    ed.opened = text;
    if (file) $("filename").value = file;
    ed.picked = [];
    clearResults();
    const seq = (ed.loadSeq = (ed.loadSeq || 0) + 1);
    await runCheck(true, ed.fieldEdits || 0);
    if (seq !== ed.loadSeq) return;  // another text was opened meanwhile: it is the one shown
    // one mission at a time: a text that cannot be drawn (it does not fit the pieces in use, or was
    // made with another catalog) never shows beside the board and fields of the mission before
    if ($("problems").dataset.valid !== "true") unshown(true);
    if (quiet) ed.owns = false;  // what is stored is offered back, and set aside at the first edit
    changed(quiet);
    remember();
  };

  // the board and the fields emptied and locked while the text opened cannot be drawn; the text,
  // its errors and the made-with notice say why; a valid text (edited, or read with another
  // catalog) is drawn again
  const LOCKED = ["f-name", "f-story", "f-mode", "f-clear", "f-rounds", "f-skills"];
  function unshown(on) {
    ed.unshown = on;
    $("unshown").hidden = !on;
    for (const id of LOCKED) $(id).disabled = on;
    for (const b of document.querySelectorAll("#palette button")) b.disabled = on;
    if (!on) return;
    ed.state = { ...emptyState(), name: "", board: Array(SIZE).fill(".".repeat(SIZE)), placed: [] };
    ed.boardState = null;
    ed.solution = null;
    showFields();
    for (const id of ["f-name", "f-clear", "f-rounds", "f-skills"]) $(id).value = "";
    drawBoard();
  }

  async function openMission(id) {
    const seq = (ed.openSeq = (ed.openSeq || 0) + 1);
    const res = await api("GET", `/api/missions/${encodeURIComponent(id)}`);
    if (seq !== ed.openSeq) return;  // another mission was chosen meanwhile: that one opens
    if (!res.ok) { $("savemsg").textContent = message(res); return; }
    await ed.load(res.doc.text, res.doc.source === "dir" ? res.doc.file : `${id}.toml`);
  }

  // what is saved, downloaded or shared says which catalog it was made with (when not the bundled one)
  function stampText() {
    const text = stamped($("toml").value);
    if (text !== $("toml").value) { $("toml").value = text; changed(); check(true); remember(); }
    return text;
  }

  async function save(overwrite) {
    stampText();
    const file = $("filename").value.trim();
    const res = await api("POST", "/api/missions", { file, text: $("toml").value, overwrite: !!overwrite });
    const msg = $("savemsg");
    if (res.status === 409 && !overwrite && res.doc && /exists/.test(res.doc.error.message)) {
      if (window.confirm(`${file} exists in the folder. Replace it?`)) return save(true);
      msg.textContent = "not saved: the file exists (nothing was overwritten)";
      return;
    }
    msg.textContent = res.ok ? `saved ${res.doc.file}` : `not saved: ${message(res)}`;
    if (res.ok) { drafts.saved(); loadMissions(); }  // a draft of before, still offered, stays
  }

  function download() {
    stampText();
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([$("toml").value], { type: "application/toml" }));
    a.download = $("filename").value.trim() || "mission.toml";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // the link carries the mission and, made with a catalog other than the bundled one, that catalog
  async function share() {
    const pieces = await carriedText();
    const url = `${location.origin}/#mission=${linkCode(stampText())}` + (pieces ? `&pieces=${linkCode(pieces)}` : "");
    const out = $("share-url");
    out.value = url;
    out.dataset.shareUrl = url;
    out.setAttribute("data-share-url", url);
    out.hidden = false;
    out.select();
    try { navigator.clipboard.writeText(url); } catch (e) { /* not allowed: the link is shown */ }
  }

  // a link made by share(): the mission it carries, or null
  ed.fromLink = () => fromLink("mission");
  // a mission opened from a link: the catalog it carries is remembered first, so that the check
  // that follows can offer it
  async function openLinked(text) {
    await carry(fromLink("pieces"));
    await ed.load(text, "shared.toml", true);
    drafts.offerDrafts();
  }

  // ---------------------------------------------------------------- solving and jobs
  async function solve() {
    const out = $("solution");
    out.replaceChildren(el("span", "solving…"));
    delete out.dataset.stale;
    $("reasons").replaceChildren();
    const res = await api("POST", "/api/solve", { text: $("toml").value, name: $("filename").value,
                                                  players: parseInt($("s-players").value, 10), count: true });
    if (!res.ok) { out.textContent = `cannot solve: ${message(res)}`; return; }
    const d = res.doc;
    ed.solution = d.placements || [];
    out.textContent = solveWords(d);
    out.dataset.status = d.status;
    ed.problems = { cells: new Set(), warn: new Set() };
    if (d.status === "unsolvable") {
      $("reasons").replaceChildren(...(d.reasons || []).map((r) => {
        for (const c of reasonCells(r, ed.state.board)) ed.problems.cells.add(c);
        return el("li", r.message, "error");
      }));
    }
    drawBoard();
  }

  async function startJob() {
    const body = { kind: $("j-kind").value, text: $("toml").value, name: $("filename").value,
                   players: parseInt($("j-players").value, 10), games: parseInt($("j-games").value, 10) || 100,
                   seed: parseInt($("j-seed").value, 10) || 0 };
    const res = await api("POST", "/api/jobs", body);
    const out = $("j-result");
    out.replaceChildren(); delete out.dataset.stale;
    if (!res.ok) { $("j-state").textContent = `not started: ${message(res)}`; return; }
    ed.job = res.doc.id;
    $("curve").replaceChildren();
    followJob(ed.job, "j", (_kind, _result, job) => showResult(out, job, $("curve")), res.doc.token);
  }

  // ---------------------------------------------------------------- pieces to place
  ed.setShapes = (pieces) => {
    ed.shapes = Object.fromEntries(pieces.map((p) => [p.piece, p.shape]));
    const menu = $("piece-menu");
    const keep = $("piece").value;
    menu.replaceChildren(...COLOURS.map((col) => {
      const row = el("div", null, "piecerow");
      for (const p of pieces.filter((x) => x.piece.startsWith(col + "-"))) {
        const b = button("", () => choosePiece(p.piece), { "aria-label": `choose ${p.piece}`, "data-choose": p.piece });
        b.appendChild(pieceSvg(p.piece, p.shape));
        row.appendChild(b);
      }
      return row;
    }));
    $("piece").replaceChildren(...pieces.map((p) => new Option(p.piece, p.piece)));
    if (keep) $("piece").value = keep;
    choosePiece($("piece").value);
  };

  function choosePiece(name) {
    $("piece").value = name;
    for (const b of document.querySelectorAll("#piece-menu button")) b.setAttribute("aria-pressed", b.dataset.choose === name ? "true" : "false");
    $("pieceshape").replaceChildren(ed.shapes[name] ? pieceSvg(name, ed.shapes[name], 14) : el("span", name));
  }

  function placePicked() {
    const typed = $("cells-typed").value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
    const cells = typed.length ? typed : ed.picked;
    const msg = $("placemsg");
    if (!cells.length) { msg.textContent = "click the cells of the piece first (or type them)"; return; }
    const piece = $("piece").value;
    ed.state.placed = ed.state.placed.filter((p) => p.piece !== piece);
    ed.state.placed.push({ piece, cells: cells.slice().sort() });
    ed.picked = [];
    $("cells-typed").value = "";
    msg.textContent = `${piece} placed: the checks below say whether the rules allow it`;
    commit();
  }

  function setTool(tool) {
    ed.tool = tool;
    for (const b of document.querySelectorAll("#palette button")) {
      b.classList.toggle("active", b.dataset.tool === tool);
      b.setAttribute("aria-pressed", b.dataset.tool === tool ? "true" : "false");
    }
    $("placing").hidden = tool !== "piece";
    if (tool !== "piece") { ed.picked = []; drawBoard(); }
  }

  async function loadMissions() {
    const res = await api("GET", "/api/missions");
    if (!res.ok) { $("status").textContent = `the missions could not be listed: ${message(res)}`; return; }
    const groups = { bundled: el("optgroup"), dir: el("optgroup") };
    groups.bundled.label = "Bundled campaign"; groups.dir.label = "Your folder";
    for (const m of res.doc) {
      const note = !m.name ? " (does not load)" : m.fits === false ? " (does not fit this catalog)" : "";
      const o = new Option(`${m.id}: ${m.name || ""}${note}`, m.id);
      if (m.why) o.title = m.why;
      groups[m.source === "dir" ? "dir" : "bundled"].appendChild(o);
    }
    $("open").replaceChildren(new Option("choose a mission…", ""), groups.dir, groups.bundled);
  }
  ed.loadMissions = loadMissions;

  // ---------------------------------------------------------------- wiring
  ed.init = () => {
    const letters = $("letter");
    for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") letters.appendChild(new Option(ch, ch));
    wireBoard();
    for (const b of document.querySelectorAll("#palette button")) b.addEventListener("click", () => setTool(b.dataset.tool));
    letters.addEventListener("change", () => setTool("bird"));
    for (const f of ["name", "story", "mode", "clear", "rounds", "skills"]) {
      $(`f-${f}`).addEventListener("change", () => { if (readField(f)) commit(); });
      // typing is an edit already: a check answered meanwhile must not put the old value back
      $(`f-${f}`).addEventListener("input", () => { ed.fieldEdits = (ed.fieldEdits || 0) + 1; });
    }
    $("toml").addEventListener("input", () => { changed(); check(true); });
    $("toml").addEventListener("change", () => remember());
    $("new").addEventListener("click", () => {
      unshown(false);
      ed.state = emptyState(); clearResults(); showFields(); drawBoard(); commit();
    });
    $("open").addEventListener("change", (e) => { if (e.target.value) openMission(e.target.value); });
    $("save").addEventListener("click", () => save(false));
    $("download").addEventListener("click", download);
    $("share").addEventListener("click", share);
    $("solve").addEventListener("click", solve);
    $("clearsol").addEventListener("click", () => { ed.solution = null; $("solution").replaceChildren(); drawBoard(); });
    $("place").addEventListener("click", placePicked);
    $("piece").addEventListener("change", () => choosePiece($("piece").value));
    $("unpick").addEventListener("click", () => { ed.picked = []; $("cells-typed").value = ""; drawBoard(); });
    $("j-start").addEventListener("click", startJob);
    $("undo").addEventListener("click", ed.undo);
    $("redo").addEventListener("click", ed.redo);
    document.addEventListener("keydown", (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.target === $("toml") || $("editor").hidden) return;  // the editor's only
      if (e.key === "z") { e.preventDefault(); ed.undo(); } else if (e.key === "y") { e.preventDefault(); ed.redo(); }
    });
    const linked = ed.fromLink();
    showFields(); drawBoard();
    if (linked) { ed.ready = true; openLinked(linked); } else { commit(); ed.ready = true; drafts.offerDrafts(); }
    addEventListener("hashchange", () => {  // a share link pasted into this page's address bar
      const text = ed.fromLink();
      if (text && text !== $("toml").value) openLinked(text);
    });
    onCatalogSwitch(() => runCheck(true, ed.fieldEdits || 0));
    loadMissions();
  };
  return ed;
}
