// The table in front of you: a board mid-game at a real table, as a state apart from the mission
// (never saved over it): the pieces placed since, the cards already gone, the rounds and skill
// counters left and the trump in force. From it, two answers: whether it can still be cleared at
// all with the cards not yet gone (exact: POST /api/solve with exclude), and the chance a careful
// table clears it from here (the chance job). The state can be saved as its own file and loaded.
import { api, followJob, message } from "./api.js";
import { boardSvg, cellOf, LONG, pieceSvg } from "./board.js";
import { cardName, CARDS, COLOURS, lastColour, VALUES } from "./deck.js";
import { $, button, el } from "./dom.js";
import { toml } from "./editor.js";
import { reasonCells, solveWords } from "./solvewords.js";
import { showResult } from "./results.js";
import { tableSizes } from "./gamerules.js";
import { carriedText, carry, offer, onCatalogSwitch, stamped } from "./madewith.js";

const FORMAT = "kakapo-table-1";

export function createTableState(editor) {
  const t = { base: null, placed: [], gone: new Set(), hand: new Set(), rounds: 8, skills: 5, trump: lastColour(), players: 2, pending: null,
              picked: [], check: null, solution: null, problems: new Set(), seq: 0 };

  // the mission as the table stands: the mission's board with every piece on it, and what is left
  t.text = () => toml({ ...t.base, placed: [...t.base.placed, ...t.placed], rounds: t.rounds, skills: t.skills });

  function fromEditor() {
    t.base = structuredClone(editor.state);
    t.placed = []; t.gone = new Set(); t.hand = new Set(); t.rounds = t.base.rounds; t.skills = t.base.skills; t.trump = lastColour();
    t.players = tableSizes(t.base.mode)[0];
    refresh();
  }

  function stale() {  // the answers are about another moment: removed
    for (const r of document.querySelectorAll("#tablestate [data-result]")) { r.replaceChildren(); delete r.dataset.stale; }
    t.solution = null; t.problems = new Set();
  }

  function refresh() {
    $("t-none").hidden = !!t.base;
    $("t-body").hidden = !t.base;
    if (!t.base) return;
    $("t-name").textContent = `${t.base.name}: ${t.placed.length} piece(s) placed since the start`;
    $("t-rounds").value = t.rounds; $("t-skills").value = t.skills; $("t-trump").value = t.trump;
    const counts = tableSizes(t.base.mode);
    $("t-players").replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
    $("t-players").value = String(t.players);
    for (const b of document.querySelectorAll("#t-gone [data-gone]")) b.setAttribute("aria-pressed", t.gone.has(b.dataset.gone) ? "true" : "false");
    $("t-gonecount").textContent = `${t.gone.size} card(s) gone`;
    for (const b of document.querySelectorAll("#t-hand [data-hand]")) b.setAttribute("aria-pressed", t.hand.has(b.dataset.hand) ? "true" : "false");
    $("t-handcount").textContent = t.hand.size ? `${t.hand.size} card(s) in my hand: only the others' cards are dealt anew`
      : "none chosen: every unseen card is dealt anew";
    stale();
    check();
  }

  async function check() {
    const seq = ++t.seq;
    const res = await api("POST", "/api/validate", { text: t.text(), name: "table.toml" });
    if (seq !== t.seq || !res.doc) return;
    t.check = res.doc;
    const problems = [...(res.doc.errors || []), ...(res.doc.warnings || [])];
    t.problems = new Set(problems.flatMap((p) => p.cells || []));
    $("t-problems").replaceChildren(...(problems.length ? problems.map((p) => el("li", p.message, "error"))
      : [el("li", "the board is legal", "ok")]));
    draw();
  }

  function draw() {
    if (!t.base) return;
    const pieces = [...t.base.placed, ...t.placed].map((p) => ({ piece: p.piece, cells: p.cells }))
      .concat((t.solution || []).map((p) => ({ piece: p.piece, cells: p.cells, light: true })));
    const cls = (n) => (t.picked.includes(n) ? " picked" : "") + (t.problems.has(n) ? " bad" : "");
    $("t-board").replaceChildren(boardSvg(t.base.board, { pieces, cellClass: cls,
      state: t.check && t.check.mission ? t.check.mission.state : null,
      label: "the board in front of you: click the cells of a piece placed, then Place it" }));
  }

  function place() {
    const typed = $("t-cells").value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
    const cells = typed.length ? typed : t.picked;
    if (!cells.length) { $("t-msg").textContent = "click the cells of the piece first (or type them)"; return; }
    const piece = $("t-piece").value;
    if (t.base.placed.some((p) => p.piece === piece)) { $("t-msg").textContent = `${piece} was on the board from the start`; return; }
    t.placed = t.placed.filter((p) => p.piece !== piece).concat([{ piece, cells: cells.slice().sort() }]);
    t.picked = []; $("t-cells").value = "";
    $("t-msg").textContent = `${piece} placed`;
    refresh();
  }

  async function solve() {
    const out = $("t-solve");
    out.textContent = "solving…";
    const res = await api("POST", "/api/solve", { text: t.text(), name: "table.toml", players: t.players,
                                                  exclude: [...t.gone] });
    if (!res.ok) { out.textContent = `cannot solve: ${message(res)}`; return; }
    const d = res.doc;
    t.solution = d.placements || [];
    const gone = t.gone.size ? ` with the ${t.gone.size} card(s) gone left out` : "";
    out.textContent = (d.status === "solvable" ? `can still be cleared${gone}: ` : d.status === "unsolvable"
      ? `cannot be cleared any more${gone}: ` : "") + solveWords(d)
      + (d.status === "unsolvable" ? " " + (d.reasons || []).map((r) => r.message).join(" ") : "");
    out.dataset.status = d.status;
    if (d.status === "unsolvable") for (const r of d.reasons || []) for (const c of reasonCells(r, t.base.board)) t.problems.add(c);
    draw();
  }

  async function chance() {
    const out = $("t-chance");
    out.replaceChildren();
    const res = await api("POST", "/api/jobs", { kind: "chance", text: t.text(), name: "table.toml", players: t.players,
      games: parseInt($("t-games").value, 10) || 100, seed: 1, exclude: [...t.gone], rounds: t.rounds,
      skills: t.skills, trump: t.trump, ...(t.hand.size ? { hand: [...t.hand] } : {}) });
    if (!res.ok) { $("tc-state").textContent = `not started: ${message(res)}`; return; }
    followJob(res.doc.id, "tc", (_kind, _result, job) => showResult(out, job), res.doc.token);
  }

  // the state saved as a file; made with a catalog other than the bundled one, it carries that catalog
  async function saveFile() {
    const doc = { format: FORMAT, mission: stamped(toml(t.base)), placed: t.placed, gone: [...t.gone].sort(),
                  hand: [...t.hand].sort(), rounds: t.rounds, skills: t.skills, trump: t.trump, players: t.players };
    const pieces = await carriedText();
    if (pieces) doc.pieces_text = pieces;
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" }));
    a.download = "table.json";
    document.body.appendChild(a); a.click(); a.remove();
  }

  async function loadFile() {
    const f = $("t-file").files[0];
    if (!f) return;
    let doc;
    try { doc = JSON.parse(await f.text()); } catch (e) { $("t-filemsg").textContent = `${f.name} is not a table's state (not JSON)`; return; }
    if (!doc || doc.format !== FORMAT || typeof doc.mission !== "string") { $("t-filemsg").textContent = `${f.name} is not a table's state saved here`; return; }
    doc.file = f.name;
    await carry(doc.pieces_text);
    await loadDoc(doc);
  }

  // a saved state read: made with another catalog, it waits (offered) until that catalog is in use
  async function loadDoc(doc) {
    const res = await api("POST", "/api/validate", { text: doc.mission, name: "table.toml" });
    offer($("t-made-with"), res.doc, `The table saved in ${doc.file}`);
    t.pending = null;
    if (res.ok && res.doc.pieces_digest && res.doc.pieces_digest !== res.doc.catalog_digest) {
      t.pending = doc;
      $("t-filemsg").textContent = `${doc.file} is not loaded yet: it was made with another catalog`;
      return;
    }
    if (!res.ok || !res.doc.valid) { $("t-filemsg").textContent = `the mission in ${doc.file} does not load`; return; }
    const m = res.doc.mission;
    t.base = { name: m.name, story: m.story || "", mode: m.mode, clear: m.clear, rounds: m.rounds, skills: m.skills,
               pieces_digest: m.pieces_digest || null, board: m.board, placed: m.placed };
    t.placed = Array.isArray(doc.placed) ? doc.placed.filter((p) => p && CARDS.includes(p.piece) && Array.isArray(p.cells)) : [];
    t.gone = new Set((doc.gone || []).filter((c) => CARDS.includes(c)));
    t.hand = new Set((Array.isArray(doc.hand) ? doc.hand : []).filter((c) => CARDS.includes(c)));
    t.rounds = +doc.rounds || m.rounds; t.skills = Number.isInteger(doc.skills) ? doc.skills : m.skills;
    t.trump = COLOURS.includes(doc.trump) ? doc.trump : lastColour();
    t.players = +doc.players || tableSizes(m.mode)[0];
    $("t-filemsg").textContent = `loaded ${doc.file}`;
    refresh();
  }

  t.init = () => {
    onCatalogSwitch(async () => { if (t.pending) await loadDoc(t.pending); });
    $("t-from-editor").addEventListener("click", fromEditor);
    $("t-board").addEventListener("click", (e) => {
      const name = cellOf(e);
      if (!name) return;
      if ($("t-remove").checked) {
        t.placed = t.placed.filter((p) => !p.cells.includes(name));
        refresh();
        return;
      }
      const i = t.picked.indexOf(name);
      if (i >= 0) t.picked.splice(i, 1); else t.picked.push(name);
      $("t-cells").value = t.picked.join(" ");
      draw();
    });
    $("t-place").addEventListener("click", place);
    $("t-solve-btn").addEventListener("click", solve);
    $("t-chance-btn").addEventListener("click", chance);
    $("t-save").addEventListener("click", saveFile);
    $("t-file").addEventListener("change", loadFile);
    for (const [id, key] of [["t-rounds", "rounds"], ["t-skills", "skills"]]) {
      $(id).addEventListener("change", () => {
        const v = parseInt($(id).value, 10);
        if (Number.isInteger(v) && v >= (key === "rounds" ? 1 : 0)) { t[key] = v; refresh(); } else $(id).value = t[key];
      });
    }
    $("t-trump").addEventListener("change", () => { t.trump = $("t-trump").value; stale(); });
    $("t-players").addEventListener("change", () => { t.players = parseInt($("t-players").value, 10); stale(); });
    // two grids of the 40 cards: the cards gone, and the cards in my hand (the server checks both)
    const grid = (id, key, hook, said) => $(id).replaceChildren(...COLOURS.map((col) => {
      const row = el("div", null, "gonerow", { role: "group", "aria-label": `${col} cards` });
      for (const v of VALUES) {
        const card = cardName(col, v);
        const toggle = () => { const set = t[key]; if (set.has(card)) set.delete(card); else set.add(card); refresh(); };
        row.appendChild(button(`${v}`, toggle,
          { [hook]: card, "aria-pressed": "false", "aria-label": `${card} ${said}`, class: `card small c-${LONG[col]}` }));
      }
      return row;
    }));
    grid("t-gone", "gone", "data-gone", "is gone");  // by name: a new table's sets replace these
    grid("t-hand", "hand", "data-hand", "is in my hand");
    $("t-piece").replaceChildren(...CARDS.map((c) => new Option(c, c)));
    $("t-piece").addEventListener("change", showPiece);
    refresh();
  };

  function showPiece() {
    const name = $("t-piece").value;
    const shape = editor.shapes[name];
    $("t-pieceshape").replaceChildren(shape ? pieceSvg(name, shape, 14) : el("span", name));
  }
  t.showPiece = showPiece;
  return t;
}
