// kakapo studio: the page's entry. A seat's own link (?game=ID&seat=N&token=T) is that seat's page
// and nothing else; any other address is the host's page (editor, the table in front of you, Play,
// Review), or, off loopback without the host's token, a word that the studio is the host's. A
// token in the address is kept in this tab's sessionStorage (never a cookie) and taken out of the
// address bar at once. Each component is a module of its own; they share nothing but what is
// handed to them.
import { api, forgetHostToken, HOST_TOKEN, hostToken } from "./api.js";
import { $ } from "./dom.js";
import { createEditor } from "./editor.js";
import { createJobs } from "./jobs.js";
import { catalogSwitched, setCatalogRows } from "./madewith.js";
import { createPlay } from "./play.js";
import { createPieces } from "./pieces.js";
import { createPrinting } from "./printing.js";
import { createRate } from "./rate.js";
import { createRecord } from "./record.js";
import { createTables } from "./tables.js";
import { createReview } from "./review.js";
import { loadRules } from "./rules.js";
import { createSeat } from "./seat.js";
import { createTableState } from "./tablestate.js";

function showView(name) {
  for (const v of document.querySelectorAll("main[data-view]")) v.hidden = v.dataset.view !== name;
  for (const id of ["undo", "redo"]) $(id).hidden = name !== "editor";  // the mission's; each tab has its own
  for (const b of document.querySelectorAll("#tabs [data-tab]")) {
    const on = b.dataset.tab === name;
    b.classList.toggle("active", on);
    b.setAttribute("aria-selected", on ? "true" : "false");
  }
}

function isSeatPage() {
  const q = new URLSearchParams(window.location.search);
  return !!(q.get("game") && q.get("seat") !== null);
}

// ?token=T: a seat's (with ?game and ?seat) or the host's; kept for this tab, out of the address
function takeToken() {
  const u = new URL(window.location.href);
  const q = u.searchParams;
  const token = q.get("token");
  if (token === null) return;
  const game = q.get("game");
  const seat = q.get("seat");
  try {
    if (game && seat !== null) sessionStorage.setItem(`kakapo-seat:${game}:${seat}`, token);
    else if (!game) sessionStorage.setItem(HOST_TOKEN, token);
    else return;
  } catch (e) { return; }  // storage refused: the token stays in the address, where the page still reads it
  q.delete("token");
  const rest = q.toString();
  history.replaceState(history.state, "", u.pathname + (rest ? `?${rest}` : "") + u.hash);
}

// off loopback without the host's token: nothing of the editor, a word on how to take a seat
function guest(hadToken) {
  document.body.classList.add("guest");
  showView("nohost");
  if (hadToken) {  // a token this studio does not know (started again since?): not sent again
    forgetHostToken();
    $("nohost-stale").hidden = false;
  }
}

async function pollStatus(first) {
  const res = first || await api("GET", "/api/status");
  const box = $("status");
  if (res.ok && res.doc.kernels === "ready") { box.textContent = "ready"; box.className = "status ready"; return; }
  const done = res.ok ? Math.round(100 * (res.doc.kernels_progress || 0)) : 0;
  box.textContent = `compiling the simulator's kernels in the background (${done} %, once per install): `
    + "checks and solving work now, jobs start when they are ready";
  box.className = "status";
  setTimeout(() => pollStatus(), 1000);
}

// the header's Catalog menu and the pieces the editor draws, as the server has them now
async function catalogs(editor) {
  const res = await api("GET", "/api/catalogs");
  if (!res.ok) return;
  setCatalogRows(res.doc, () => catalogs(editor));
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

async function init() {
  takeToken();
  const review = createReview();
  review.init();
  if (isSeatPage()) {
    showView("seat");
    document.body.classList.remove("starting");
    createSeat((seat, doc) => { document.body.classList.remove("seatonly"); showView("review"); review.fromSeat(seat, doc); }).init();
    return;
  }
  const status = await api("GET", "/api/status");
  if (status.ok && status.doc && status.doc.host === false) {
    document.body.classList.remove("starting");
    guest(!!hostToken());
    return;
  }
  await loadRules();  // the menus and limits, before anything reads them
  showView("editor");
  const editor = createEditor();
  const table = createTableState(editor);
  const toReview = (game) => { showView("review"); review.fromGame(game); };
  const play = createPlay(editor, toReview);
  await catalogs(editor);  // the catalogs known before a mission is opened (made with another: offered)
  editor.init();
  table.init();
  play.init(status.ok && status.doc ? status.doc.link || null : null);
  createRate().init();
  createJobs().init();
  const pieces = createPieces(() => catalogs(editor));
  pieces.init();
  const tables = createTables();
  const toTables = () => { showView("tables"); tables.shown(); };
  const record = createRecord(toReview, toTables);
  await record.init();
  tables.init();
  await createPrinting(editor, async () => { await editor.loadMissions(); await catalogs(editor); }).init();
  for (const b of document.querySelectorAll("#tabs [data-tab]")) {
    b.addEventListener("click", () => {
      showView(b.dataset.tab);
      if (b.dataset.tab === "play") play.shown();
      if (b.dataset.tab === "tablestate") table.showPiece();
      if (b.dataset.tab === "pieces") pieces.shown();
      if (b.dataset.tab === "record") record.shown();
      if (b.dataset.tab === "tables") tables.shown();
    });
  }
  $("catalog").addEventListener("change", async () => {
    const file = $("catalog").value || null;
    const res = await api("POST", "/api/catalogs", { file });
    $("status").textContent = res.ok ? `catalog: ${file || "the bundled one"}` : res.doc.error.message;
    await catalogs(editor);
    await catalogSwitched();
  });
  document.body.classList.remove("starting");  // shown once every control answers
  pollStatus(status);
}

document.addEventListener("DOMContentLoaded", init);
