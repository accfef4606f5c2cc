// The Record tab: a game played with the printed cards, entered on one phone passed around the
// table. Each trick, the cards are tapped as they are revealed; the server (the rules) says whose
// turn it is, the decision card, who is in charge, the new trump, the selections the skills allow
// and the legal placements; a placement is tapped on the board, previewed and confirmed. At the
// end each person taps the cards still in hand, and the whole game is checked as its sheet. The
// page holds no rule: every tap is an entry the server checks and keeps in the folder's database,
// so a reload or a restart goes on where the table was. Undo takes back the last entry.
import { api, message } from "./api.js";
import { boardSvg, cellOf, LONG, pieceSvg } from "./board.js";
import { cardName, COLOURS, VALUES } from "./deck.js";
import { $, button, el } from "./dom.js";
import { onCatalogSwitch } from "./madewith.js";
import { narrow, narrowWords } from "./narrow.js";

const CURRENT = "kakapo-recording";  // the recording this tab shows, kept for a reload

export function createRecord(onReview, onTables) {
  const st = { doc: null, picked: null, taps: [], leftPick: new Set(), busy: false, missions: [] };
  const name = (k) => (st.doc ? st.doc.setup.names[k] : `seat ${k}`);

  function remember(id) {
    try { if (id) sessionStorage.setItem(CURRENT, id); else sessionStorage.removeItem(CURRENT); } catch (e) { /* refused */ }
  }

  function remembered() {
    try { return sessionStorage.getItem(CURRENT); } catch (e) { return null; }
  }

  // ------------------------------------------------------------ the setup
  function players() { return parseInt($("rc-players").value, 10) || 2; }

  function setupFields() {
    const m = st.missions.find((x) => x.id === $("rc-mission").value && x.fits !== false);
    const counts = m ? m.players : [2];
    const keep = players();
    $("rc-players").replaceChildren(...counts.map((n) => new Option(`${n}`, `${n}`, false, n === keep)));
    const n = players();
    const old = [...document.querySelectorAll("#rc-names input")].map((i) => i.value);
    $("rc-names").replaceChildren(...Array.from({ length: n }, (_, k) => {
      const label = el("label", `Seat ${k + 1} `);
      const input = el("input", null, null, { "data-name-seat": String(k), autocomplete: "off", maxlength: "24" });
      input.value = old[k] || "";
      input.addEventListener("input", leaders);
      label.appendChild(input);
      return label;
    }));
    leaders();
  }

  // who leads round one, chosen by name (the names as typed, in seat order)
  function leaders() {
    const names = [...document.querySelectorAll("#rc-names input")].map((i) => i.value.trim());
    const keep = $("rc-leader").value;
    $("rc-leader").replaceChildren(...names.map((x, k) => new Option(x || `seat ${k + 1} (no name yet)`, `${k}`, false,
      `${k}` === keep)));
  }

  // the missions of the Mission menu: those that do not fit the catalog in use are greyed, and why is
  // said under the menu (a tooltip shows on no phone)
  async function listMissions() {
    const res = await api("GET", "/api/missions");
    st.missions = res.ok ? res.doc.filter((m) => m.name) : [];
    const keep = $("rc-mission").value;
    $("rc-mission").replaceChildren(...st.missions.map((m) => {
      const o = new Option(m.fits === false ? `${m.id}: ${m.name} (does not fit your pieces)` : `${m.id}: ${m.name}`, m.id);
      o.disabled = m.fits === false;
      o.selected = m.id === keep && !o.disabled;
      return o;
    }));
    const misfits = st.missions.filter((m) => m.fits === false);
    $("rc-nofit").hidden = !misfits.length;
    $("rc-nofit-list").replaceChildren(...misfits.map((m) => el("li", `${m.id} (${m.name}): ${m.why}`, null,
      { "data-nofit": m.id })));
    setupFields();
  }

  async function listRecordings() {
    const res = await api("GET", "/api/recordings");
    if (!res.ok) return;
    $("rc-list").replaceChildren(...res.doc.map((r) => {
      const li = el("li", `${r.mission}: ${r.names.join(", ")} (${r.entries} entries${r.game ? ", finished" : ""}) `);
      li.appendChild(button(r.game ? "Show" : "Go on", () => open(r.id), { "data-recording": r.id }));
      return li;
    }));
  }

  async function start() {
    const names = [...document.querySelectorAll("#rc-names input")].map((i) => i.value.trim());
    if (names.some((x) => !x)) { $("rc-setupmsg").textContent = "give every seat a name"; return; }
    const res = await api("POST", "/api/recordings", { mission: $("rc-mission").value, names,
                                                      leader: parseInt($("rc-leader").value, 10) || 0 });
    if (!res.ok) { $("rc-setupmsg").textContent = message(res); return; }
    $("rc-setupmsg").textContent = "";
    take(res.doc);
  }

  async function open(id) {
    const res = await api("GET", `/api/recordings/${encodeURIComponent(id)}`);
    if (!res.ok) { $("rc-setupmsg").textContent = message(res); remember(null); return; }
    take(res.doc);
  }

  function close() {
    st.doc = null;
    remember(null);
    $("rc-game").hidden = true;
    $("rc-setup").hidden = false;
    $("rc-board").replaceChildren();
    listRecordings();
  }

  // ------------------------------------------------------------ entries
  async function send(path, body) {
    if (st.busy || !st.doc) return;
    st.busy = true;
    $("rc-error").textContent = "";
    try {
      const res = await api("POST", `/api/recordings/${encodeURIComponent(st.doc.id)}${path}`,
                            { at: st.doc.entries, ...body });
      if (res.status === 409) { await open(st.doc.id); return; }  // changed meanwhile: show where it stands
      if (!res.ok) { $("rc-error").textContent = message(res); return; }
      take(res.doc);
    } finally { st.busy = false; }
  }

  const enter = (entry) => send("/entries", entry);
  const undo = () => send("/undo", {});

  async function finish() {
    // one save a game: the button waits with the request (a double tap sends one; the server also
    // saves one game however many arrive, the others are 409 and show the game saved)
    const saving = $("rc-finish");
    if (saving.disabled || !st.doc) return;
    saving.disabled = true;
    try {
      const res = await api("POST", `/api/recordings/${encodeURIComponent(st.doc.id)}/finish`);
      if (!res.ok && res.status !== 409) { $("rc-error").textContent = `${message(res)}${res.doc && res.doc.error && res.doc.error.fix ? ` (${res.doc.error.fix})` : ""}`; return; }
      await open(st.doc.id);
    } finally { saving.disabled = false; }
  }

  function take(doc) {
    st.doc = doc;
    st.picked = null;
    st.taps = [];
    st.leftPick = new Set();
    remember(doc.id);
    $("rc-setup").hidden = true;
    $("rc-game").hidden = false;
    draw();
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    const d = st.doc;
    $("rc-game").dataset.entries = String(d.entries);  // what the page shows: entry N drawn, of this recording
    $("rc-game").dataset.recording = d.id;
    $("rc-title").textContent = `${d.mission.name}: ${d.setup.names.join(", ")}`;
    $("rc-round").textContent = d.result ? `Game over after round ${d.round} of ${d.rounds}`
      : `Round ${d.round} of ${d.rounds}, trump ${d.trump}${d.lead ? `, ${d.lead} led` : ""}; skills left ${d.skills_left}`;
    $("rc-turn").textContent = turnWords(d);
    const trick = d.trick.length ? d.trick : d.last_trick;
    $("rc-trick").replaceChildren(...(trick.length ? [el("span", d.trick.length ? "This trick: " : "Last trick: ")] : []),
      ...trick.map((p) => el("span", `${name(p.player)} ${p.card}`, `card small c-${LONG[p.card.split("-")[0]]}`,
        { "data-trick-card": p.card })));
    drawOptions(d);
    drawCards(d);
    drawBoard();
    $("rc-undo").disabled = !d.entries || !!d.game;
    $("rc-finish").hidden = d.phase !== "done" || !!d.game;
    $("rc-review").hidden = !d.game;
    $("rc-totables").hidden = !d.game;
    $("rc-sheet").textContent = d.sheet;
  }

  function turnWords(d) {
    if (d.game) return `Saved: ${d.result === "cleared" ? "cleared" : `not cleared (${d.result.replace("_", " ")})`}. `
      + `It is one of the folder's games, ${d.setup.names.join(", ")}'s: review it here, and see how this table plays `
      + "and what it could play next in the Tables tab.";
    if (d.phase === "play") return `${name(d.to_act)} reveals a card: tap it.`;
    if (d.phase === "select") return `${d.decision} wins the trick: ${name(d.in_charge)} is in charge, and the trump is `
      + `${d.decision.split("-")[0]} from the next round. What did ${name(d.in_charge)} select?`;
    if (d.phase === "place") return `${name(d.in_charge)} places ${d.piece}: tap the cells it covers, then Place.`;
    const words = { cleared: "Cleared!", rounds_exhausted: "The rounds ran out.", unplaceable: "A piece fitted nowhere." };
    if (d.phase === "left") {
      const k = parseInt(Object.keys(d.left_needed)[0], 10);
      return `${words[d.result] || ""} Now ${name(k)}: tap the ${d.left_needed[k]} card(s) still in your hand.`;
    }
    return `${words[d.result] || ""} Every card is entered: check and save the game.`;
  }

  function drawOptions(d) {
    const box = $("rc-options");
    if (d.phase !== "select") { box.replaceChildren(); return; }
    box.replaceChildren(...d.options.map((o, i) => {
      const b = button("", () => enter({ pieces: o.pieces }), { "data-option": String(i), class: "choice" });
      b.append(o.text, ...o.pieces.map((p) => pieceSvg(p, d.shapes[p], 9)));
      return b;
    }));
  }

  function drawCards(d) {
    const gone = new Set(d.gone);
    const out = new Set(d.removed);
    const leftSeat = d.phase === "left" ? parseInt(Object.keys(d.left_needed)[0], 10) : null;
    const can = (card) => !d.game && !gone.has(card) && !out.has(card) && (d.phase === "play" || d.phase === "left");
    $("rc-cards").replaceChildren(...COLOURS.map((col) => {
      const row = el("div", null, "gonerow", { role: "group", "aria-label": `${col} cards` });
      for (const v of VALUES) {
        const card = cardName(col, v);
        const why = out.has(card) ? "out of the game" : gone.has(card) ? "gone" : "";
        const pressed = st.leftPick.has(card);
        const attrs = { "data-rec-card": card, class: `card small c-${LONG[col]}${why ? " gone" : ""}`,
                        "aria-label": `${card}${why ? `: ${why}` : d.phase === "left" ? `: in ${name(leftSeat)}'s hand` : ""}` };
        if (d.phase === "left") attrs["aria-pressed"] = pressed ? "true" : "false";
        const b = button(`${v}`, () => tapCard(card), attrs);
        b.disabled = !can(card);
        row.appendChild(b);
      }
      return row;
    }));
    $("rc-cards").hidden = !["play", "left"].includes(d.phase) || !!d.game;  // only while cards are tapped
    $("rc-leftrow").hidden = d.phase !== "left";
    if (d.phase === "left") {
      const need = d.left_needed[leftSeat];
      $("rc-leftok").textContent = `${name(leftSeat)} holds these ${st.leftPick.size} of ${need} card(s)`;
      $("rc-leftok").disabled = st.leftPick.size !== need;
    }
  }

  function tapCard(card) {
    const d = st.doc;
    if (d.phase === "play") { enter({ card }); return; }
    if (d.phase === "left") {
      if (st.leftPick.has(card)) st.leftPick.delete(card); else st.leftPick.add(card);
      drawCards(d);
    }
  }

  function drawBoard() {
    const d = st.doc;
    const pieces = d.pieces.map((p) => ({ piece: p.piece, cells: p.cells }));
    if (st.picked) pieces.push({ piece: d.piece, cells: st.picked, light: true });
    $("rc-board").replaceChildren(boardSvg(d.mission.board, { pieces, last: d.last, preview: st.picked || [], state: d.state,
      tapped: st.taps, label: "the board: while a piece is placed, tap the cells it covers: each tap narrows the placements shown" }));
    $("rc-confirm").hidden = d.phase !== "place";
    $("rc-confirm").disabled = !st.picked;
    $("rc-confirm").textContent = st.picked ? `Place ${d.piece} at ${st.picked.join(" ")}` : "Place: tap the board first";
    $("record").classList.toggle("placing", d.phase === "place" && !d.game);
    if (d.phase !== "place") $("rc-tapmsg").textContent = "";
    else if (!st.picked) $("rc-tapmsg").textContent = `${name(d.in_charge)} places ${d.piece}: tap a cell it covers`;
  }

  // a tap on the board while a piece is placed: the legal placements (the server's) narrowed to those
  // covering every cell tapped so far (narrow.js)
  function tapBoard(cell) {
    const d = st.doc;
    if (!d || d.phase !== "place" || d.game) return;
    const r = narrow(d.placements, st.taps, st.picked, cell);
    st.taps = r.taps;
    st.picked = r.picked;
    drawBoard();
    $("rc-tapmsg").textContent = narrowWords(d.piece, cell, r);
  }

  function downloadSheet() {
    const a = el("a", null, null, { download: `${st.doc.setup.mission}-${st.doc.id}.txt` });
    a.href = URL.createObjectURL(new Blob([st.doc.sheet], { type: "text/plain" }));
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  return {
    async init() {
      await listMissions();
      onCatalogSwitch(listMissions);  // another catalog: other missions fit
      $("rc-mission").addEventListener("change", setupFields);
      $("rc-players").addEventListener("change", setupFields);
      $("rc-start").addEventListener("click", start);
      $("rc-undo").addEventListener("click", undo);
      $("rc-close").addEventListener("click", close);
      $("rc-finish").addEventListener("click", finish);
      $("rc-review").addEventListener("click", () => onReview(st.doc.game));
      $("rc-totables").addEventListener("click", () => onTables());
      $("rc-download").addEventListener("click", downloadSheet);
      $("rc-leftok").addEventListener("click", () => {
        const k = parseInt(Object.keys(st.doc.left_needed)[0], 10);
        enter({ seat: k, left: [...st.leftPick].sort() });
      });
      $("rc-board").addEventListener("click", (e) => { const c = cellOf(e); if (c) tapBoard(c); });
      $("rc-confirm").addEventListener("click", () => { if (st.picked) enter({ place: st.doc.piece, cells: st.picked.slice() }); });
    },
    async shown() {
      if (st.doc) return;
      const id = remembered();
      if (id) await open(id);
      if (!st.doc) listRecordings();
    },
  };
}
