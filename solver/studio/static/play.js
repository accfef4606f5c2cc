// The Play tab (the host's): start a game at the studio's table, each person on their own link
// (with its QR code); the games of the folder, a seat handed to a bot when its person leaves and
// given back with a new link; the links this browser started, kept until forgotten; the host's own
// link off loopback. The deal is secret unless the host asks for a known one, and the page says
// what that reveals.
import { api, download, message } from "./api.js";
import { $, button, el } from "./dom.js";
import { linkCard } from "./qr.js";

const LINKS = "kakapo-games";

// what is remembered of a seat's link (not its QR code: the link makes it again)
const kept = (s) => ({ seat: s.seat, token: s.token, url: s.url });

function remembered() {
  try { return JSON.parse(localStorage.getItem(LINKS) || "{}"); } catch (e) { return {}; }
}

function keep(links) {
  try { localStorage.setItem(LINKS, JSON.stringify(links)); } catch (e) { /* private mode */ }
}

export function createPlay(editor, onReview) {
  const fresh = new Map();  // "game:seat" -> a seat's new link given back to a person, with its code, while the page lives
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
    if (!res.ok) { $("g-msg").textContent = `the missions could not be listed: ${message(res)}`; return; }
    const sel = $("g-mission");
    const chosen = sel.value;  // a choice made while the list was on its way stays
    const opts = [new Option("the one in the editor", "")];
    for (const m of res.doc) {
      if (m.valid === false) continue;
      const o = new Option(`${m.id}: ${m.name}${m.fits === false ? " (does not fit this catalog)" : ""}`, m.id);
      o.disabled = m.fits === false;
      if (m.why) o.title = m.why;
      opts.push(o);
    }
    sel.replaceChildren(...opts);
    if (chosen) sel.value = chosen;
    const misfits = res.doc.filter((m) => m.valid !== false && m.fits === false);  // said, not only in a tooltip
    $("g-nofit").hidden = !misfits.length;
    $("g-nofit-list").replaceChildren(...misfits.map((m) => el("li", `${m.id} (${m.name}): ${m.why}`, null,
      { "data-nofit": m.id })));
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
    links[res.doc.id] = res.doc.seats.map(kept);
    keep(links);
    $("g-msg").textContent = (res.doc.seats.length ? `game ${res.doc.id} started: each person opens their seat's link`
      + " (or scans its code)" : `game ${res.doc.id} is played by the bots`) + (res.doc.known_deal ? " (a known deal)" : " (a secret deal)");
    $("g-links").replaceChildren(...res.doc.seats.map((s) => {
      const li = el("li");
      const who = body.names[s.seat] ? ` (${body.names[s.seat]})` : "";
      li.appendChild(linkCard(s.url, s.qr, `seat ${s.seat}${who}: its link`, { "data-seat": String(s.seat) }));
      return li;
    }));
    listGames();
  }

  function forget(id) {
    const links = remembered();
    if (id === undefined) for (const k of Object.keys(links)) delete links[k]; else delete links[id];
    keep(links);
    for (const k of [...fresh.keys()]) if (id === undefined || k.startsWith(`${id}:`)) fresh.delete(k);
    listGames();
  }

  // the policies a bot may play: the server's list (the Start panel's), never one of the page's own
  function policies() {
    return [...$("g-policy").options].map((o) => o.value);
  }

  async function handToBot(g, seat, policy, said) {
    said.textContent = "handing over…";
    const res = await api("POST", `/api/games/${encodeURIComponent(g.id)}/seats/${seat}/bot`, { policy });
    if (!res.ok) { said.textContent = `seat ${seat} not handed over: ${message(res)}`; said.dataset.error = ""; return; }
    const links = remembered();
    if (links[g.id]) { links[g.id] = links[g.id].filter((s) => s.seat !== seat); keep(links); }  // that link plays no more
    fresh.delete(`${g.id}:${seat}`);
    const d = res.doc;
    $("g-listmsg").textContent = `game ${g.id}: seat ${d.seat} is played by a bot now (${d.policy}`
      + (d.samples ? `, ${d.samples} samples` : "") + ")";
    listGames();
  }

  async function giveBack(g, seat, said) {
    said.textContent = "giving it back…";
    const res = await api("POST", `/api/games/${encodeURIComponent(g.id)}/seats/${seat}/person`, {});
    if (!res.ok) { said.textContent = `seat ${seat} not given back: ${message(res)}`; said.dataset.error = ""; return; }
    const d = res.doc;
    const links = remembered();
    links[g.id] = (links[g.id] || []).filter((s) => s.seat !== d.seat).concat([kept(d)]).sort((a, b) => a.seat - b.seat);
    keep(links);
    fresh.set(`${g.id}:${d.seat}`, d);
    $("g-listmsg").textContent = `game ${g.id}: seat ${d.seat} is a person's again: give them its new link`;
    listGames();
  }

  // who plays each seat of an unfinished game, and the host's hand on it
  function seatControls(g) {
    const list = el("ul", null, "seatctl", { "aria-label": `the seats of game ${g.id}` });
    for (const p of g.seats) {
      const li = el("li", null, null, { "data-seat-control": String(p.seat) });
      const said = el("span", "", "msg", { role: "status" });
      if (!p.bot) {
        li.append(el("span", `seat ${p.seat}: ${p.name} (a person)`));
        const sel = el("select", null, null, { "data-hand-policy": String(p.seat) });
        sel.replaceChildren(...[...$("g-policy").options].map((o) => Object.assign(new Option(o.text, o.value), { title: o.title })));
        if (g.policy && policies().includes(g.policy)) sel.value = g.policy;
        const lab = el("label", `bot for seat ${p.seat} `);
        lab.appendChild(sel);
        li.append(lab, button(`Hand seat ${p.seat} to a bot`, () => handToBot(g, p.seat, sel.value, said),
          { "data-hand": String(p.seat) }));
      } else if (p.handed) {
        li.append(el("span", `seat ${p.seat}: ${p.name} (a bot, ${p.policy}, in a person's place)`),
          button(`Give seat ${p.seat} back to a person`, () => giveBack(g, p.seat, said), { "data-give-back": String(p.seat) }));
      } else {
        li.append(el("span", `seat ${p.seat}: ${p.name} (a bot, ${p.policy})`));
      }
      li.append(said);
      const f = fresh.get(`${g.id}:${p.seat}`);
      if (f && !p.bot) {
        const card = linkCard(f.url, f.qr, `seat ${p.seat}: its new link`, { "data-seat": String(p.seat) });
        card.dataset.newLink = String(p.seat);
        li.appendChild(card);
      }
      list.appendChild(li);
    }
    return list;
  }

  async function saveLog(g, said) {
    const failed = await download(`/api/games/${encodeURIComponent(g.id)}/log`, `${g.id}.jsonl`);
    said.textContent = failed ? `not downloaded: ${failed}` : "";
  }

  async function listGames() {
    const res = await api("GET", "/api/games");
    if (!res.ok) { $("g-listmsg").textContent = `the games cannot be listed: ${message(res)}`; return; }
    const links = remembered();
    $("g-list").replaceChildren(...res.doc.slice().reverse().map((g) => {
      const state = g.broken ? `cannot go on: ${g.broken}` : g.result ? g.result.replace("_", " ")
        : `in play, round ${g.round}` + (g.thinking ? " (a bot is thinking)" : "");
      // who played each seat: a person by name (then a bot, when the seat was handed on), a bot by its policy
      const people = g.seats ? g.seats.map((p) => (!p.bot ? p.name : p.handed ? `${p.name}, then a bot (${p.policy})`
        : `a bot (${p.policy})`))
        : (g.human || []).map((s) => (g.names && g.names[s]) || `seat ${s}`);
      const li = el("li", null, g.broken ? "error" : null, { "data-game": g.id });
      li.append(el("span", `${g.id}: ${g.mission || "?"} (${g.name || "?"}), ${g.players || "?"} players, `
        + `played by ${people.join(", ") || "-"}; ${state} `, null, { "data-game-state": g.broken ? "broken" : g.result ? "over" : "playing" }));
      for (const s of links[g.id] || []) li.append(" ", el("a", `seat ${s.seat}`, null, { href: s.url, target: "_blank", rel: "noopener" }));
      if (links[g.id]) li.append(" ", button("forget the links", () => forget(g.id)));
      const said = el("span", "", "msg", { role: "status" });
      if (g.result) {
        li.append(" ", button("Download the log", () => saveLog(g, said), { "data-log": g.id }),
          " ", button("Review", () => onReview(g.id), { "data-review-game": g.id }));
      }
      else if (g.broken && g.players) {
        li.append(" ", button("Download its log (it shows every hand)", () => saveLog(g, said), { "data-log": g.id }));
      }
      li.append(" ", said);
      if (!g.result && !g.broken && Array.isArray(g.seats) && g.seats.length) li.appendChild(seatControls(g));
      return li;
    }));
  }

  function showHostLink(link) {
    $("g-invite").hidden = !link;
    if (!link) return;
    $("g-hostlink").replaceChildren(linkCard(link.url, link.qr, "the host's link (it opens everything here)"));
  }

  return {
    init(hostLink) {
      showHostLink(hostLink);
      $("g-players").addEventListener("change", seatBoxes);
      $("g-start").addEventListener("click", startGame);
      $("g-known").addEventListener("change", knownDeal);
      $("g-forget-all").addEventListener("click", () => forget());
      seatBoxes(); knownDeal(); fillMissions();
    },
    shown() { listGames(); fillMissions(); },
  };
}
