// The Play tab (the host's): start a game at the studio's table, each person on their own link;
// the games of the folder; the links this browser started, kept until forgotten. The deal is
// secret unless the host asks for a known one, and the page says what that reveals.
import { api, message } from "./api.js";
import { $, button, el } from "./dom.js";

const LINKS = "kakapo-games";

function remembered() {
  try { return JSON.parse(localStorage.getItem(LINKS) || "{}"); } catch (e) { return {}; }
}

function keep(links) {
  try { localStorage.setItem(LINKS, JSON.stringify(links)); } catch (e) { /* private mode */ }
}

export function createPlay(editor) {
  function seatBoxes() {
    const n = parseInt($("g-players").value, 10);
    const was = new Set([...document.querySelectorAll("#g-seats input:checked")].map((i) => i.value));
    $("g-seats").replaceChildren(...Array.from({ length: n }, (_, s) => {
      const box = el("input", null, null, { type: "checkbox", value: String(s), id: `g-seat-${s}` });
      box.checked = was.size ? was.has(String(s)) : s === 0;
      box.addEventListener("change", nameBoxes);
      const lab = el("label", ` seat ${s} is a person`, null, { for: `g-seat-${s}` });
      const span = el("span", null, "seatbox");
      span.append(box, lab);
      return span;
    }));
    nameBoxes();
  }

  function nameBoxes() {
    const names = {};
    for (const i of document.querySelectorAll("#g-names input")) names[i.dataset.seat] = i.value;
    const people = [...document.querySelectorAll("#g-seats input:checked")].map((i) => i.value);
    $("g-names").replaceChildren(...people.map((s) => {
      const lab = el("label", `Name of seat ${s} `);
      const input = el("input", null, null, { maxlength: "40", size: "10", placeholder: `player ${s}` });
      input.dataset.seat = s;
      input.value = names[s] || "";
      lab.appendChild(input);
      return lab;
    }));
  }

  function knownDeal() {
    const known = $("g-known").checked;
    $("g-deal").hidden = !known;
    $("g-dealmsg").textContent = known
      ? "A known deal: anyone who knows this seed and game number knows every hand (kakapo play --seed S --game I deals them)."
      : "The deal is drawn at random and kept secret until the game ends.";
  }

  async function fillMissions() {
    const res = await api("GET", "/api/missions");
    if (!res.ok) return;
    const sel = $("g-mission");
    const chosen = sel.value;  // a choice made while the list was on its way stays
    const opts = [new Option("the one in the editor", "")];
    for (const m of res.doc) if (m.valid !== false) opts.push(new Option(`${m.id}: ${m.name}`, m.id));
    sel.replaceChildren(...opts);
    if (chosen) sel.value = chosen;
  }

  async function startGame() {
    const human = [...document.querySelectorAll("#g-seats input:checked")].map((i) => parseInt(i.value, 10));
    const body = { players: parseInt($("g-players").value, 10), human, policy: $("g-policy").value, names: {} };
    for (const i of document.querySelectorAll("#g-names input")) if (i.value.trim()) body.names[i.dataset.seat] = i.value.trim();
    if ($("g-known").checked) {
      body.seed = parseInt($("g-seed").value, 10);
      body.game = parseInt($("g-game").value, 10) || 0;
      if (!(body.seed >= 0)) { $("g-msg").textContent = "give the seed of the known deal (or untick it for a secret deal)"; return; }
    }
    if ($("g-mission").value) body.mission = $("g-mission").value;
    else { body.text = editor.text(); body.name = editor.filename(); }
    const res = await api("POST", "/api/games", body);
    if (!res.ok) { $("g-msg").textContent = `not started: ${message(res)}`; return; }
    const links = remembered();
    links[res.doc.id] = res.doc.seats;
    keep(links);
    $("g-msg").textContent = (res.doc.seats.length ? `game ${res.doc.id} started: each person opens their seat's link`
      : `game ${res.doc.id} is played by the bots`) + (res.doc.known_deal ? " (a known deal)" : " (a secret deal)");
    $("g-links").replaceChildren(...res.doc.seats.map((s) => {
      const li = el("li", `seat ${s.seat}${body.names[s.seat] ? ` (${body.names[s.seat]})` : ""}: `);
      const a = el("a", s.url, null, { href: s.url, target: "_blank", rel: "noopener", "data-seat": String(s.seat) });
      li.appendChild(a);
      return li;
    }));
    listGames();
  }

  function forget(id) {
    const links = remembered();
    if (id === undefined) for (const k of Object.keys(links)) delete links[k]; else delete links[id];
    keep(links);
    listGames();
  }

  async function listGames() {
    const res = await api("GET", "/api/games");
    if (!res.ok) return;
    const links = remembered();
    $("g-list").replaceChildren(...res.doc.slice().reverse().map((g) => {
      const state = g.broken ? `cannot go on: ${g.broken}` : g.result ? g.result.replace("_", " ")
        : `in play, round ${g.round}` + (g.thinking ? " (a bot is thinking)" : "");
      const who = (g.human || []).map((s) => (g.names && g.names[s]) || `seat ${s}`).join(", ") || "-";
      const li = el("li", `${g.id}: ${g.mission || "?"} (${g.name || "?"}), ${g.players || "?"} players, people: ${who}; ${state} `);
      if (g.broken) li.className = "error";
      for (const s of links[g.id] || []) li.append(" ", el("a", `seat ${s.seat}`, null, { href: s.url, target: "_blank", rel: "noopener" }));
      if (links[g.id]) li.append(" ", button("forget the links", () => forget(g.id)));
      if (g.result || (g.broken && g.players)) li.append(" ", el("a", "log", null, { href: `/api/games/${encodeURIComponent(g.id)}/log` }));
      return li;
    }));
  }

  return {
    init() {
      $("g-players").addEventListener("change", seatBoxes);
      $("g-start").addEventListener("click", startGame);
      $("g-known").addEventListener("change", knownDeal);
      $("g-forget-all").addEventListener("click", () => forget());
      seatBoxes(); knownDeal(); fillMissions();
    },
    shown() { listGames(); fillMissions(); },
  };
}
