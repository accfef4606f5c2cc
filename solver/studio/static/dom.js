// Small DOM helpers every component uses. Text is only ever set with textContent: nothing that
// came from a file, a log or the server is interpreted as HTML.

export const SVGNS = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

// an element with optional text, class and attributes
export function el(tag, text, cls, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

export function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export function button(text, onClick, attrs) {
  const b = el("button", text, null, attrs);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

export const pct = (x) => `${(100 * x).toFixed(1)} %`;
