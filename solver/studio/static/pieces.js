// Your pieces (the Pieces tab): the 40 scanner pieces of a catalog, each drawn as it is, redrawn
// cell by cell on a small grid, and saved as a catalog file of the folder. The page holds no rule
// of a catalog and writes no file: every change sends the pieces as drawn to POST
// /api/catalogs/validate (the server writes the catalog's file and checks it by the rules
// `--pieces` loads a catalog by), and the server writes and checks it again before it saves it.
import { api, message } from "./api.js";
import { colourOf, pieceSvg } from "./board.js";
import { CARDS, COLOURS, cardsOf } from "./deck.js";
import { $, button, el } from "./dom.js";

const MIN_GRID = 5;  // room for any pentomino
const MAX_GRID = 12;  // a piece fits on the 12 x 12 board
const CHECK_AFTER = 250;  // ms after the last change

const key = (r, c) => `${r},${c}`;
const rc = (k) => k.split(",").map(Number);

// "##/#." -> the set of its '#' cells ("ROW,COL")
function cellsOf(shape) {
  const out = new Set();
  (shape || "").split("/").forEach((row, r) => [...row].forEach((ch, c) => { if (ch === "#") out.add(key(r, c)); }));
  return out;
}

// the cells as rows of '#' and '.', from their top-left ("" for none)
function shapeOf(cells) {
  if (!cells.size) return "";
  const all = [...cells].map(rc);
  const r0 = Math.min(...all.map(([r]) => r)), c0 = Math.min(...all.map(([, c]) => c));
  const h = Math.max(...all.map(([r]) => r)) - r0 + 1, w = Math.max(...all.map(([, c]) => c)) - c0 + 1;
  const rows = [];
  for (let r = 0; r < h; r++) {
    let row = "";
    for (let c = 0; c < w; c++) row += cells.has(key(r + r0, c + c0)) ? "#" : ".";
    rows.push(row);
  }
  return rows.join("/");
}

// the pieces as drawn, for the server to write as a catalog file: {"red-1": "##/#.", ...} and the
// catalog they started from (a shape holds only '#', '.' and '/'; "" for a piece not drawn)
function drawn(shapes, from) {
  return { pieces: Object.fromEntries([...shapes].map(([piece, cells]) => [piece, shapeOf(cells)])), source: from };
}

export function createPieces(refreshCatalogs) {
  const p = { shapes: new Map(CARDS.map((c) => [c, new Set()])), chosen: CARDS[0], history: [], errors: [],
              file: null, from: "the bundled catalog", dirty: false, seq: 0, loadSeq: 0, timer: null, loaded: false };

  const errorsOf = (piece) => p.errors.filter((e) => e.piece === piece);

  function drawList() {
    const rows = COLOURS.map((colour) => {
      const row = el("div", null, "piecerow", { role: "group", "aria-label": `the ${colour} pieces` });
      for (const piece of cardsOf(colour)) {
        const shape = shapeOf(p.shapes.get(piece));
        const errs = errorsOf(piece);
        const attrs = { "data-edit-piece": piece, "aria-pressed": piece === p.chosen ? "true" : "false" };
        if (errs.length) { attrs["data-piece-error"] = errs[0].message; attrs.title = errs[0].message; }
        const b = button(null, () => choose(piece), attrs);
        b.className = "edittile";
        b.append(el("span", piece, "tilename"),
          shape ? pieceSvg(piece, shape, 7) : el("span", "empty", "tileempty"));
        if (errs.length) b.append(el("span", "error", "tileerror"));
        row.appendChild(b);
      }
      return row;
    });
    $("pc-list").replaceChildren(...rows);
  }

  // a free row and column to grow into, up to the board's size (never smaller than the piece)
  function gridSize(cells) {
    let extent = 0;
    for (const [r, c] of [...cells].map(rc)) extent = Math.max(extent, r + 1, c + 1);
    return Math.max(MIN_GRID, Math.min(extent + 1, MAX_GRID), extent);
  }

  function drawGrid() {
    const piece = p.chosen;
    const cells = p.shapes.get(piece);
    const n = gridSize(cells);
    $("pc-chosen").textContent = `${piece}: ${cells.size} cell(s)`;
    const grid = $("pc-grid");
    grid.style.setProperty("--n", String(n));
    grid.setAttribute("aria-label", `the cells of ${piece}: ${n} rows of ${n}`);
    const buttons = [];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const on = cells.has(key(r, c));
        const b = button(null, () => toggle(r, c), { "data-shape-toggle": key(r, c), "aria-pressed": on ? "true" : "false",
                                                     "aria-label": `row ${r + 1}, column ${c + 1}` });
        b.className = "shapecell";
        if (on) b.style.background = colourOf(piece);
        buttons.push(b);
      }
    }
    grid.replaceChildren(...buttons);
    const errs = errorsOf(piece);
    $("pc-error").replaceChildren(...errs.map((e) => el("span", e.message + (e.fix ? ` (fix: ${e.fix})` : ""))));
    $("pc-error").hidden = !errs.length;
  }

  function drawProblems() {
    const general = p.errors.filter((e) => !e.piece);
    const broken = new Set(p.errors.filter((e) => e.piece).map((e) => e.piece));
    const items = general.map((e) => el("li", e.message, "error"));
    if (broken.size) items.push(el("li", `pieces to fix: ${[...broken].join(", ")}`, "error"));
    if (!p.errors.length) items.push(el("li", "the 40 pieces load as a catalog", "ok"));
    $("pc-problems").replaceChildren(...items);
    $("pc-undo").disabled = !p.history.length;
  }

  // everything drawn again; the cell or piece that had the keyboard's focus keeps it
  function draw() {
    const a = document.activeElement;
    const d = a && a.dataset ? a.dataset : {};
    const again = d.shapeToggle ? `[data-shape-toggle="${d.shapeToggle}"]` : d.editPiece ? `[data-edit-piece="${d.editPiece}"]` : null;
    drawList(); drawGrid(); drawProblems();
    const f = again ? $("pieces").querySelector(again) : null;
    if (f) f.focus();
  }

  function choose(piece) {
    p.chosen = piece;
    draw();
    $("pc-grid").scrollIntoView({ block: "nearest" });  // at phone width the grid is below the pieces
  }

  function toggle(r, c) {
    const cells = p.shapes.get(p.chosen);
    p.history.push({ piece: p.chosen, cells: new Set(cells) });
    const k = key(r, c);
    if (cells.has(k)) cells.delete(k); else cells.add(k);
    p.dirty = true;
    changed();
  }

  function undo() {
    const last = p.history.pop();
    if (!last) return;
    p.chosen = last.piece;
    p.shapes.set(last.piece, last.cells);
    p.dirty = true;
    changed();
  }

  function changed() {
    draw();
    clearTimeout(p.timer);
    p.timer = setTimeout(check, CHECK_AFTER);
  }

  async function check() {
    const seq = ++p.seq;
    const res = await api("POST", "/api/catalogs/validate", drawn(p.shapes, p.from));
    if (seq !== p.seq) return;
    if (!res.ok) { $("pc-state").textContent = `cannot check the pieces: ${message(res)}`; return; }
    p.errors = res.doc.errors;
    draw();
  }

  async function sources() {
    const res = await api("GET", "/api/catalogs");
    if (!res.ok) return;
    const sel = $("pc-source");
    const was = p.loaded ? sel.value : (res.doc.find((c) => c.current) || {}).file || "";
    sel.replaceChildren(...res.doc.map((c) => new Option(c.valid ? c.name : `${c.name} (does not load as it is)`, c.file || "")));
    if ([...sel.options].some((o) => o.value === was)) sel.value = was;
  }

  async function load() {
    if (p.dirty && !window.confirm("Start again from this catalog? The changes to the pieces not saved are lost.")) {
      $("pc-source").value = p.file || "";
      return;
    }
    const file = $("pc-source").value || null;
    // the last catalog chosen wins: a load still answering for an earlier choice is dropped
    const seq = ++p.loadSeq;
    const res = await api("GET", "/api/catalogs/text" + (file ? `?file=${encodeURIComponent(file)}` : ""));
    if (seq !== p.loadSeq) return;
    if (!res.ok) { $("pc-state").textContent = `cannot open it: ${message(res)}`; return; }
    const checked = await api("POST", "/api/catalogs/validate", { text: res.doc.text });
    if (seq !== p.loadSeq) return;
    if (!checked.ok) { $("pc-state").textContent = `cannot check it: ${message(checked)}`; return; }
    p.shapes = new Map(CARDS.map((c) => [c, new Set()]));
    for (const piece of checked.doc.pieces) p.shapes.set(piece.piece, cellsOf(piece.shape));
    p.errors = [];
    p.file = file;
    p.from = file || "the bundled catalog";
    p.history = []; p.dirty = false; p.loaded = true;
    const first = checked.doc.errors[0];
    $("pc-state").textContent = `from ${p.from}` + (checked.doc.valid ? "" : ` (as it is, it does not load: `
      + `${checked.doc.errors.length} problem(s); the first, ${first.line ? `line ${first.line}: ` : ""}${first.message})`);
    if (file && !$("pc-file").value) $("pc-file").value = file;
    draw();
    await check();  // the pieces as this page writes them (a piece that is no drawing is drawn empty)
  }

  async function save() {
    let file = $("pc-file").value.trim();
    if (!file) { $("pc-state").textContent = "give the catalog a file name first"; $("pc-file").focus(); return; }
    if (!file.endsWith(".toml")) file += ".toml";
    $("pc-state").textContent = `saving ${file}…`;
    const body = { file, ...drawn(p.shapes, p.from), replace: false };
    let res = await api("POST", "/api/catalogs/save", body);
    if (res.status === 409 && res.doc && res.doc.error && res.doc.error.fix.includes('"replace"')) {
      if (!window.confirm(`${file} is in the folder already. Replace it?`)) { $("pc-state").textContent = "not saved"; return; }
      res = await api("POST", "/api/catalogs/save", { ...body, replace: true });
    }
    if (!res.ok) {
      const fix = res.doc && res.doc.error && res.doc.error.fix ? ` (${res.doc.error.fix})` : "";
      $("pc-state").textContent = `not saved: ${message(res)}${fix}`;
      return;
    }
    p.dirty = false;
    $("pc-file").value = res.doc.file;
    $("pc-state").textContent = `saved as ${res.doc.file} in the folder: choose it in the Catalog menu to use it`;
    await Promise.all([refreshCatalogs(), sources()]);
  }

  // arrow keys move between the grid's cells
  function arrows(e) {
    const at = e.target.dataset ? e.target.dataset.shapeToggle : null;
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!at || !step) return;
    const [r, c] = rc(at);
    const next = $("pc-grid").querySelector(`[data-shape-toggle="${key(r + step[0], c + step[1])}"]`);
    if (next) { e.preventDefault(); next.focus(); }
  }

  return {
    init() {
      $("pc-source").addEventListener("change", load);
      $("pc-undo").addEventListener("click", undo);
      $("pc-save").addEventListener("click", save);
      $("pc-grid").addEventListener("keydown", arrows);
      // Ctrl+Z in this tab undoes a piece's change, not the mission's (the editor listens on the document)
      document.addEventListener("keydown", (e) => {
        if ($("pieces").hidden || !(e.ctrlKey || e.metaKey) || e.key !== "z") return;
        if (e.target && ["INPUT", "TEXTAREA"].includes(e.target.tagName)) return;
        e.preventDefault();
        e.stopPropagation();
        undo();
      }, true);
      draw();
    },
    async shown() {
      await sources();
      if (!p.loaded) await load();
    },
  };
}
