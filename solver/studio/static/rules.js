// The game's rules as the server says them (GET /api/rules): the page's menus (modes, table sizes,
// trumps, policies with what each is, the jobs a mission can be given) and the fields' limits. The
// page holds no rule of its own: a change to a rule is made once, on the server.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { setDeck } from "./deck.js";
import { LIMITS, RULES } from "./gamerules.js";

// a select's options from [value, text, title?]; the value chosen before stays chosen where it still is
function fill(id, items, chosen) {
  const sel = $(id);
  if (!sel) return;
  const was = sel.value || chosen;
  sel.replaceChildren(...items.map(([value, text, title]) => {
    const o = new Option(text, value);
    if (title) o.title = title;
    return o;
  }));
  if (items.some(([value]) => value === was)) sel.value = was;
}

export async function loadRules() {
  const res = await api("GET", "/api/rules");
  if (!res.ok) return null;
  const r = res.doc;
  setDeck(r.colours, r.values);
  fill("f-mode", r.modes.map((m) => [m.name, m.name, `${m.players.join(" or ")} players`]));
  fill("j-kind", r.jobs.filter((j) => j.needs === "mission" && j.name !== "chance").map((j) => [j.name, j.name, j.about]));
  fill("t-trump", r.colours.map((c) => [c, c]), r.colours[r.colours.length - 1]);
  fill("g-players", r.players.map((n) => [String(n), String(n)]));
  fill("g-policy", r.policies.map((p) => [p.name, p.name, p.about]), r.table_default);
  const about = $("g-policy-about");
  if (about) {
    const say = () => { const p = r.policies.find((x) => x.name === $("g-policy").value); about.textContent = p ? p.about : ""; };
    $("g-policy").addEventListener("change", say);
    say();
    if (!$("g-policy-words")) about.after(" ", el("a", "what the players are", "glossary-link",
      { id: "g-policy-words", href: "/glossary#greedy", target: "_blank", rel: "noopener" }));
  }
  RULES.jobs = r.jobs;  // each kind's chart (results.js)
  const kind = $("j-kind");  // the Difficulty panel's job: what it measures, beside its menu
  if (kind && !$("j-kind-about")) {
    const said = el("p", null, "msg hint", { id: "j-kind-about" });
    const sayKind = () => { const j = r.jobs.find((x) => x.name === kind.value); said.textContent = j ? `${j.name}: ${j.about}` : ""; };
    kind.closest(".row").after(said);
    kind.addEventListener("change", sayKind);
    sayKind();
  }
  for (const m of r.modes) RULES.modes[m.name] = { players: m.players, rounds: m.rounds, skills: m.skills };
  RULES.first = r.modes[0].name;
  LIMITS.rounds = r.limits.rounds;
  LIMITS.skills = r.limits.skills;
  return r;
}
