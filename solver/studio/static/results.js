// A job's result in words: the figure (jobWords, one line), then what it means for a player, in one
// plain sentence (meaning), and the whole shown in a box (showResult: the figure, the sentence, a
// link to the glossary, and a ladder's curve). The words of the policies are the server's (GET
// /api/rules, kept in RULES by rules.js): the page holds no rule of its own.
import { ladderChart } from "./chart.js";
import { el, pct } from "./dom.js";
import { RULES } from "./gamerules.js";

const whole = (x) => `${Math.round(100 * x)} %`;

// a rung's or a policy's name as the page says it: search-16, planner
export const rungName = (r) => (r.samples ? `${r.policy}-${r.samples}` : r.policy);

// what a policy is, in the server's words ("" when the server did not say)
export function policyAbout(name) {
  const p = (RULES.policies || []).find((x) => x.name === name);
  return p ? p.about : "";
}

// the glossary's address for a term (GET /glossary, the server's page)
export const glossaryHref = (id) => `/glossary${id ? `#${id}` : ""}`;

export function glossaryLink(id, text) {
  return el("a", text || "what the words mean", "glossary-link", { href: glossaryHref(id), target: "_blank", rel: "noopener" });
}

// where a ladder's figure falls among the other missions of its mode and table measured with the
// same catalog (the bundled campaign, or your campaign's when another catalog is in use): one statement
export function campaignWords(diff, players) {
  const c = diff.campaign;
  if (!c) return diff.campaign_text || "";
  const [easier] = c.between || [];
  const bundled = !c.source || c.source === "bundled";
  const others = bundled ? `the ${c.of} other bundled missions for ${players} players`
    : `your campaign's ${c.of} other missions for ${players} players`;
  if (!c.of) return bundled ? "no bundled mission to compare with" : "no other mission of your campaign to compare with";
  if (c.harder_than === 0) return `easier than all ${others}`;
  if (c.harder_than === c.of) return `harder than all ${others}`;
  return `harder than ${c.harder_than} of ${others}, just after ${easier}`;
}

// the figure: one line
export function jobWords(kind, d) {
  if (kind === "ladder") {
    const place = campaignWords(d.difficulty, d.players);
    const c = d.difficulty.campaign;
    const which = !c ? "" : !c.source || c.source === "bundled" ? "in the campaign: " : "in your campaign: ";
    return `ladder: shortfall ${d.difficulty.value.toFixed(3)}; open-hand ceiling ${pct(d.ceiling.clear_rate)}`
      + (place ? `; ${which}${place}` : "");
  }
  if (kind === "simulate") return `simulate: ${d.policy} clears ${pct(d.clear_rate)} (95 % interval ${pct(d.ci95[0])} to ${pct(d.ci95[1])}) of ${d.games} games`;
  if (kind === "chance") return `a careful table clears ${pct(d.clear_rate)} (95 % interval ${pct(d.ci95[0])} to ${pct(d.ci95[1])}) of ${d.games} deals of the unseen cards`;
  if (kind === "ceiling") return `ceiling: open hands clear ${pct(d.clear_rate)} of ${d.games} deals (${d.undecided} undecided)`;
  if (kind === "rate") return `rate: the table plays like ${rungName(d.best)} (from ${d.games} game(s))`;
  if (kind === "review") return `review of a game: ${(d.decisions || []).length} decisions judged (open the log in the Review tab to see them)`;
  return `${kind}: done`;
}

// what the figure means for a player, in plain words
export function meaning(kind, d) {
  if (kind === "ladder") {
    const sf = d.difficulty.value, ceil = d.ceiling.clear_rate;
    const n = d.rungs.length, weak = rungName(d.rungs[0]), strong = rungName(d.rungs[n - 1]);
    const lost = sf < 0.005 ? "every table, even the weakest, wins every deal that can be won"
      : `a table picked at random among ${n} strengths, from ${weak} (the weakest) to ${strong} (the strongest), `
        + `loses about ${Math.round(100 * sf)} in 100 of the deals that can be won`;
    const top = ceil >= 0.9995 ? "every deal can be won by a team that sees every hand"
      : `even a team that sees every hand (open hands) wins only ${whole(ceil)} of the deals: the rest cannot be won at all`;
    return `What it means: ${lost}; ${top}. Each point of the curve is one such table (a rung).`;
  }
  if (kind === "simulate") {
    const about = policyAbout(d.policy);
    return `What it means: a table playing like ${d.policy}${about ? ` (${about})` : ""} wins about ${whole(d.clear_rate)} of its games `
      + `of this mission; after ${d.games} games the true rate is very likely between ${whole(d.ci95[0])} and ${whole(d.ci95[1])}.`;
  }
  if (kind === "ceiling") {
    return `What it means: ${whole(d.clear_rate)} of the deals can be won at all, by a team that cheats by seeing every hand; `
      + "no real table does better" + (d.undecided ? `, and ${d.undecided} deal(s) could not be decided in the time allowed.` : ".");
  }
  if (kind === "chance") {
    return `What it means: from where the table stands, a careful table wins about ${whole(d.clear_rate)} of the ways the unseen cards may lie.`;
  }
  if (kind === "rate") {
    const about = policyAbout(d.best.policy);
    return `What it means: the people play about as well as the ${rungName(d.best)} table${about ? ` (${about})` : ""}; `
      + "the table below gives the clear rate to expect from them at each mission, from the campaign measured "
      + "for the pieces they played with.";
  }
  return "";
}

const GLOSSARY_OF = { ladder: "shortfall", simulate: "clear-rate", ceiling: "ceiling", chance: "interval", rate: "rung" };

// the result in ``box``: the figure, its meaning, a link to the glossary; a ladder's curve in ``curve``
export function showResult(box, kind, d, curve, chartId) {
  const said = meaning(kind, d);
  box.replaceChildren(el("span", jobWords(kind, d), "figure"));
  if (said) box.append(el("span", said, "meaning", { "data-meaning": kind }), " ", glossaryLink(GLOSSARY_OF[kind]));
  if (curve) curve.replaceChildren(...(kind === "ladder" ? [ladderChart(d, chartId)] : []));
}
