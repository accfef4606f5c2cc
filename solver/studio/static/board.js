// One drawing for every board of the page (the editor, the table in front of you, a seat, the
// review), and every piece drawn as its shape. A board is drawn from the mission's rows and the
// pieces over it; each cell is an element with data-cell (a1 .. l12), and carries data-last,
// data-preview and data-scanned where they apply.
import { el, svgEl } from "./dom.js";

export const SIZE = 12;
export const COLS = "abcdefghijkl";
export const FILL = { r: "#d62728", y: "#f2c400", g: "#2ca02c", b: "#1f77b4", p: "#8e44ad" };
export const LONG = { red: "r", yellow: "y", green: "g", blue: "b", purple: "p" };
export const COLOURS = ["red", "yellow", "green", "blue", "purple"];
export const CARDS = COLOURS.flatMap((c) => [1, 2, 3, 4, 5, 6, 7, 8].map((v) => `${c}-${v}`));

export const cellName = (r, c) => COLS[c] + (r + 1);
export function cellRC(name) { return [parseInt(name.slice(1), 10) - 1, COLS.indexOf(name[0])]; }
export const colourOf = (piece) => FILL[LONG[piece.split("-")[0]]];
export const isBird = (ch) => ch >= "A" && ch <= "Z";

// The board as an SVG. opts: pieces [{piece, cells, light, label, ghost}], cellClass(name) -> " cls",
// state (board_json: scanned_cells, needed), last [cells], preview [cells], tapped [cells], label (for readers),
// marked [cells] (circled: a review's reason is about them), outlined [{piece, cells}] (pieces a
// reason names, where a clear would put them: drawn as outlines in their colour, data-reason-piece).
export function boardSvg(rows, opts = {}) {
  const svg = svgEl("svg", { viewBox: `-0.6 -0.6 ${SIZE + 0.8} ${SIZE + 0.8}`, role: "group",
                             "aria-label": opts.label || "the board" });
  const at = new Map();
  const ghosts = new Map();
  for (const p of opts.pieces || []) {
    for (const c of p.cells) {
      if (p.ghost) ghosts.set(c, p);
      else if (!at.has(c) || !p.light) at.set(c, p);
    }
  }
  const last = new Set(opts.last || []);
  const preview = new Set(opts.preview || []);
  const marked = new Set(opts.marked || []);  // cells a review's reason is about
  const tapped = new Set(opts.tapped || []);  // cells tapped to place a piece (narrow.js)
  const scanned = new Set((opts.state && opts.state.scanned_cells) || []);
  const needed = new Map();
  for (const cells of Object.values((opts.state && opts.state.needed) || {})) {
    for (const [c, colour] of Object.entries(cells)) needed.set(c, colour);
  }
  for (let c = 0; c < SIZE; c++) svg.appendChild(svgEl("text", { x: c + 0.5, y: -0.15, "font-size": 0.4,
    "text-anchor": "middle", fill: "#666", "aria-hidden": "true" }, COLS[c]));
  for (let r = 0; r < SIZE; r++) {
    svg.appendChild(svgEl("text", { x: -0.3, y: r + 0.65, "font-size": 0.34, "text-anchor": "middle", fill: "#666",
                                    "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < SIZE; c++) drawCell(svg, rows, r, c, { at, ghosts, last, preview, scanned, needed, marked, tapped, opts });
  }
  for (const p of opts.outlined || []) {
    const g = svgEl("g", { "data-reason-piece": p.piece, "pointer-events": "none" });
    for (const name of p.cells) {
      const [r, c] = cellRC(name);
      g.appendChild(svgEl("rect", { x: c + 0.14, y: r + 0.14, width: 0.72, height: 0.72, fill: "none",
        stroke: colourOf(p.piece), "stroke-width": 0.1, "stroke-dasharray": "0.16 0.08", class: "reasonpiece" }));
    }
    svg.appendChild(g);
  }
  return svg;
}

function drawCell(svg, rows, r, c, k) {
  const name = cellName(r, c);
  const ch = rows[r][c];
  const p = k.at.get(name);
  let fill = "#fafafa";
  if (p) fill = colourOf(p.piece);
  else if (isBird(ch)) fill = k.scanned.has(name) ? "#2e7d32" : "#555";
  const rect = svgEl("rect", { x: c, y: r, width: 1, height: 1, "data-cell": name, fill,
                               class: "cell" + ((k.opts.cellClass && k.opts.cellClass(name)) || "") });
  if (p && p.light) rect.setAttribute("fill-opacity", "0.5");
  if (k.last.has(name)) rect.setAttribute("data-last", "");
  if (k.preview.has(name)) rect.setAttribute("data-preview", "");
  if (k.scanned.has(name)) rect.setAttribute("data-scanned", "");
  svg.appendChild(rect);
  if (k.preview.has(name)) {
    svg.appendChild(svgEl("rect", { x: c + 0.08, y: r + 0.08, width: 0.84, height: 0.84, class: "previewmark",
                                    "pointer-events": "none" }));
  }
  if (k.needed.has(name) && !p) {  // a side the bird still needs: drawn in its colour (grey when plain)
    const colour = k.needed.get(name);
    svg.appendChild(svgEl("rect", { x: c + 0.1, y: r + 0.1, width: 0.8, height: 0.8, fill: "none",
      stroke: colour ? FILL[LONG[colour]] : "#999", "stroke-width": colour ? 0.12 : 0.06,
      "stroke-dasharray": colour ? "" : "0.15 0.1", class: "needed", "pointer-events": "none" }));
  }
  if (k.tapped.has(name)) {  // a cell tapped to place a piece: a dot, whatever is drawn under it
    rect.setAttribute("data-tapped", "");
    svg.appendChild(svgEl("circle", { cx: c + 0.22, cy: r + 0.22, r: 0.14, fill: "#111", stroke: "#fff",
                                      "stroke-width": 0.05, class: "tapmark", "pointer-events": "none" }));
  }
  if (k.marked && k.marked.has(name)) {
    rect.setAttribute("data-reason", "");
    svg.appendChild(svgEl("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.46, fill: "none", stroke: "#c62828",
                                      "stroke-width": 0.1, class: "reasonmark", "pointer-events": "none" }));
  }
  const g = k.ghosts.get(name);
  if (g) {
    svg.appendChild(svgEl("rect", { x: c + 0.06, y: r + 0.06, width: 0.88, height: 0.88, fill: colourOf(g.piece),
      "fill-opacity": 0.25, stroke: colourOf(g.piece), "stroke-width": 0.1, "stroke-dasharray": "0.2 0.12",
      "pointer-events": "none", class: "ghost" }));
  }
  if (p) {
    const [col, v] = p.piece.split("-");
    svg.appendChild(svgEl("text", { x: c + 0.5, y: r + 0.68, "font-size": 0.42, "text-anchor": "middle",
                                    fill: "#fff", "pointer-events": "none" }, p.label || LONG[col] + v));
  } else if (isBird(ch)) {
    svg.appendChild(svgEl("text", { x: c + 0.5, y: r + 0.72, "font-size": 0.6, "text-anchor": "middle",
                                    fill: "#fff", "pointer-events": "none" }, ch));
  } else if (FILL[ch]) {
    svg.appendChild(svgEl("rect", { x: c + 0.3, y: r + 0.3, width: 0.4, height: 0.4, fill: FILL[ch],
                                    "pointer-events": "none" }));
  }
}

// A piece drawn as its shape ("##/#.": rows of # and ., / between rows): an element
// data-piece="COLOR-N" holding an SVG with one data-shape-cell element per cell.
export function pieceSvg(piece, shape, size = 9) {
  const rows = shape.split("/");
  const h = rows.length, w = Math.max(...rows.map((r) => r.length));
  const box = el("span", null, "piece", { "data-piece": piece, role: "img", "aria-label": `piece ${piece}: ${shape}` });
  const svg = svgEl("svg", { width: w * size, height: h * size, viewBox: `0 0 ${w} ${h}`, "aria-hidden": "true" });
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    if (ch === "#") {
      svg.appendChild(svgEl("rect", { x: c + 0.05, y: r + 0.05, width: 0.9, height: 0.9, fill: colourOf(piece),
                                      "data-shape-cell": "" }));
    }
  }));
  box.appendChild(svg);
  return box;
}

// The cells of a board in words, for a reader that does not see the picture.
export function cellOf(event) {
  const t = event.target;
  return t && t.getAttribute ? t.getAttribute("data-cell") : null;
}
