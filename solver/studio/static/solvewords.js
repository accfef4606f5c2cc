// A solve's answer in words, and the cells a reason of an unsolvable mission concerns (the
// editor's Solve and the Table tab's "Can we still clear it?" say them alike).
export function solveWords(d) {
  if (d.status === "solvable") {
    const count = d.count_complete === undefined ? "" : d.count_complete
      ? (d.solution_count === 1 ? "; a unique answer of that size" : `; ${d.solution_count} answers of that size`)
      : `; at least ${d.solution_count} answers of that size`;
    return `solvable with ${d.pieces_used} new piece(s), ${d.optimal ? "proven minimal" : "not proven minimal"}${count}; `
      + `scans ${(d.scanned || []).join(", ") || "-"}; pieces: ` + d.placements.map((p) => `${p.piece} at ${p.cells.join(" ")}`).join("; ");
  }
  if (d.status === "unsolvable") return "unsolvable (proven):";
  return "undecided: no answer within the time limit";
}

// the cells a reason concerns: its own, and those of the birds it names
export function reasonCells(reason, rows) {
  const out = new Set(reason.cells || []);
  const birds = new Set(reason.birds || []);
  rows.forEach((row, r) => [...row].forEach((ch, c) => { if (birds.has(ch)) out.add("abcdefghijkl"[c] + (r + 1)); }));
  return out;
}
