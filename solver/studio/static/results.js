// A finished job's result in words, as the server says them (the job's "words": the figure in one
// line, what it means for a player in one plain sentence, and the glossary's term that explains
// it), shown in a box with a link to the glossary, and the chart its kind draws (GET /api/rules:
// "chart": "ladder", the ladder's curve). The page holds no sentence and no rule of its own.
import { ladderChart } from "./chart.js";
import { el } from "./dom.js";
import { RULES } from "./gamerules.js";

// a rung's or a policy's name as the page says it: search-16, planner
export const rungName = (r) => (r.samples ? `${r.policy}-${r.samples}` : r.policy);

// the glossary's address for a term (GET /glossary, the server's page)
export const glossaryHref = (id) => `/glossary${id ? `#${id}` : ""}`;

export function glossaryLink(id, text) {
  return el("a", text || "what the words mean", "glossary-link", { href: glossaryHref(id), target: "_blank", rel: "noopener" });
}

// a finished job (GET /api/jobs/ID) in ``box``: its figure, its meaning and a link to the glossary;
// the chart its kind draws in ``curve``
export function showResult(box, job, curve, chartId) {
  const words = job.words || { figure: `${job.kind}: done`, meaning: "", glossary: null };
  box.replaceChildren(el("span", words.figure, "figure"));
  if (words.meaning) {
    box.append(el("span", words.meaning, "meaning", { "data-meaning": job.kind }), " ", glossaryLink(words.glossary));
  }
  const kind = (RULES.jobs || []).find((k) => k.name === job.kind) || {};
  if (curve) curve.replaceChildren(...(kind.chart === "ladder" ? [ladderChart(job.result, chartId)] : []));
}
