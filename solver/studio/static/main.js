// kakapo studio: the page's entry. A seat's own link (?game=ID&seat=N&token=T) is that seat's page
// and nothing else; any other address is the host's page (editor, the table in front of you, Play,
// Review). Each component is a module of its own; they share nothing but what is handed to them.
import { api } from "./api.js";
import { $ } from "./dom.js";
import { createEditor } from "./editor.js";
import { createPlay } from "./play.js";
import { createRate } from "./rate.js";
import { createReview } from "./review.js";
import { createSeat } from "./seat.js";
import { createTableState } from "./tablestate.js";

function showView(name) {
  for (const v of document.querySelectorAll("main[data-view]")) v.hidden = v.dataset.view !== name;
  for (const b of document.querySelectorAll("#tabs [data-tab]")) {
    const on = b.dataset.tab === name;
    b.classList.toggle("active", on);
    b.setAttribute("aria-selected", on ? "true" : "false");
  }
}

function isSeatPage() {
  const q = new URLSearchParams(window.location.search);
  return !!(q.get("game") && q.get("seat") !== null && q.get("token"));
}

async function pollStatus() {
  const res = await api("GET", "/api/status");
  const box = $("status");
  if (res.ok && res.doc.kernels === "ready") { box.textContent = "ready"; box.className = "status ready"; return; }
  const done = res.ok ? Math.round(100 * (res.doc.kernels_progress || 0)) : 0;
  box.textContent = `compiling the simulator's kernels in the background (${done} %, once per install): `
    + "checks and solving work now, jobs start when they are ready";
  box.className = "status";
  setTimeout(pollStatus, 1000);
}

async function catalogs(editor) {
  const res = await api("GET", "/api/catalogs");
  if (!res.ok) return;
  const sel = $("catalog");
  sel.replaceChildren(...res.doc.map((c) => {
    const o = new Option(c.valid ? c.name : `${c.name} (does not load: ${c.error})`, c.file || "");
    o.disabled = !c.valid;
    o.selected = c.current;
    return o;
  }));
  const pieces = await api("GET", "/api/pieces");
  if (pieces.ok) editor.setShapes(pieces.doc.pieces);
}

function init() {
  const review = createReview();
  review.init();
  if (isSeatPage()) {
    showView("seat");
    createSeat((seat, doc) => { document.body.classList.remove("seatonly"); showView("review"); review.fromSeat(seat, doc); }).init();
    return;
  }
  const editor = createEditor();
  const table = createTableState(editor);
  const play = createPlay(editor);
  editor.init();
  table.init();
  play.init();
  createRate().init();
  for (const b of document.querySelectorAll("#tabs [data-tab]")) {
    b.addEventListener("click", () => {
      showView(b.dataset.tab);
      if (b.dataset.tab === "play") play.shown();
      if (b.dataset.tab === "tablestate") table.showPiece();
    });
  }
  $("catalog").addEventListener("change", async () => {
    const file = $("catalog").value || null;
    const res = await api("POST", "/api/catalogs", { file });
    $("status").textContent = res.ok ? `catalog: ${file || "the bundled one"}` : res.doc.error.message;
    await catalogs(editor);
  });
  catalogs(editor);
  pollStatus();
}

document.addEventListener("DOMContentLoaded", init);
