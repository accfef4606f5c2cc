// Charts drawn as SVG: the ladder's curve (each rung's clear rate under the open-hand ceiling)
// and the review's rounds (the search player's clear rate from the start of each round).
import { svgEl } from "./dom.js";

function text(svg, x, y, words, size, fill) {
  svg.appendChild(svgEl("text", { x, y, "font-size": size, "text-anchor": "middle", fill }, words));
}

export function ladderChart(d) {
  const W = 520, H = 240, L = 40, B = 50, T = 10;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "ladder-curve", role: "img",
                             "aria-label": "the ladder: the clear rate of each rung, with the open-hand ceiling" });
  const n = d.rungs.length;
  const x = (i) => L + (i + 0.5) * (W - L - 10) / n;
  const y = (v) => T + (1 - v) * (H - T - B);
  const line = (x1, y1, x2, y2, stroke, dash) => svg.appendChild(svgEl("line", { x1, y1, x2, y2, stroke,
    ...(dash ? { "stroke-dasharray": dash } : {}) }));
  for (const v of [0, 0.25, 0.5, 0.75, 1]) { line(L, y(v), W - 10, y(v), "#e4e4e4"); text(svg, L - 18, y(v) + 4, `${v * 100}%`, 10, "#555"); }
  line(L, y(d.ceiling.clear_rate), W - 10, y(d.ceiling.clear_rate), "#2e7d32", "5 3");
  text(svg, W - 60, y(d.ceiling.clear_rate) - 4, "open hands", 10, "#2e7d32");
  svg.appendChild(svgEl("polyline", { points: d.rungs.map((r, i) => `${x(i)},${y(r.clear_rate)}`).join(" "),
                                      fill: "none", stroke: "#1f77b4", "stroke-width": 2 }));
  d.rungs.forEach((r, i) => {
    svg.appendChild(svgEl("circle", { cx: x(i), cy: y(r.clear_rate), r: 3.5, fill: "#1f77b4" }));
    text(svg, x(i), H - B + 16, r.samples ? `search-${r.samples}` : r.policy, 10, "#333");
  });
  return svg;
}

export function reviewChart(doc, lostIn) {
  const W = 520, H = 180, L = 40, B = 34, T = 10;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "review-chart", role: "img",
                             "aria-label": "each round: the search player's clear rate from its start" });
  const n = doc.rounds.length;
  const bw = (W - L - 10) / Math.max(n, 1);
  const y = (v) => T + (1 - v) * (H - T - B);
  const colour = { clearable: "#cfe8cf", not_clearable: "#f3c4c4", undecided: "#e4e4e4" };
  doc.rounds.forEach((r, i) => {
    svg.appendChild(svgEl("rect", { x: L + i * bw, y: T, width: bw - 2, height: H - T - B,
                                    fill: colour[r.open_hand] || "#eee" }));
    svg.appendChild(svgEl("rect", { x: L + i * bw + bw * 0.25, width: bw * 0.5, y: y(r.search_rate),
      height: Math.max(0, H - B - y(r.search_rate)), fill: r.round === lostIn ? "#b00020" : "#1f77b4",
      "data-round": String(r.round) }));
    text(svg, L + i * bw + bw / 2, H - B + 14, String(r.round), 10, "#333");
  });
  for (const v of [0, 0.5, 1]) text(svg, L - 16, y(v) + 4, `${v * 100}%`, 10, "#555");
  text(svg, L + (W - L) / 2, H - 4, "round: the search player's clear rate from its start; green: clearable with open hands, red: lost", 9, "#444");
  return svg;
}
