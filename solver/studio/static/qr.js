// A link to hand to someone across the table: its QR code (drawn from the module matrix the
// server computed: one string of 0 and 1 a row, dark = 1; no rule or encoding of its own here),
// the address as text, and a button that copies it.
import { button, el, svgEl } from "./dom.js";

const QUIET = 4;  // the white margin a reader needs around the code, in modules

// the code as an SVG: one path of the dark modules on a white square with its quiet zone
export function qrSvg(rows, label) {
  const n = rows.length;
  const size = n + 2 * QUIET;
  const svg = svgEl("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label, "data-qr": "",
                             "shape-rendering": "crispEdges", class: "qr" });
  svg.appendChild(svgEl("title", {}, label));
  svg.appendChild(svgEl("rect", { x: 0, y: 0, width: size, height: size, fill: "#fff" }));
  const d = [];
  rows.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {  // a run of dark modules is one rectangle
      if (row[x] !== "1") { x += 1; continue; }
      let end = x;
      while (end < row.length && row[end] === "1") end += 1;
      d.push(`M${x + QUIET} ${y + QUIET}h${end - x}v1h${x - end}z`);
      x = end;
    }
  });
  svg.appendChild(svgEl("path", { d: d.join(""), fill: "#000" }));
  return svg;
}

// select the text of an element, so that a person can copy it by hand
function selectText(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const sel = document.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

async function copy(url, textNode, said) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard here");
    await navigator.clipboard.writeText(url);
    said.textContent = "copied";
    return;
  } catch (e) { /* a page not served on this machine has no clipboard API: select the link instead */ }
  selectText(textNode);
  let done = false;
  try { done = document.execCommand("copy"); } catch (e) { done = false; }
  said.textContent = done ? "copied" : "the link is selected: copy it (Ctrl+C, or the menu)";
}

// A link with its code: ``what`` names it (the QR's label says what it links), ``anchor``
// attributes make the address a link that can be opened here (a seat's), else it is plain text.
export function linkCard(url, qr, what, anchor) {
  const box = el("div", null, "linkcard", { "data-link": url });
  if (qr && qr.length) box.appendChild(qrSvg(qr, `QR code of ${what}`));
  const side = el("div", null, "linkside");
  side.appendChild(el("p", what, "linkwhat"));
  const text = anchor ? el("a", url, "linkurl", { href: url, target: "_blank", rel: "noopener", ...anchor })
    : el("code", url, "linkurl");
  side.appendChild(text);
  const said = el("span", "", "msg", { role: "status" });
  side.append(el("br"), button("Copy link", () => copy(url, text, said), { "data-copy": url, "aria-label": `Copy link: ${what}` }), " ", said);
  box.appendChild(side);
  return box;
}
