// Tap to place: each tap on the board narrows the legal placements (the server's, in its order) to
// those covering every cell tapped so far, so any placement is reached in at most its number of
// cells (a placement is the only one covering all of its own cells). The preview stays while it
// still covers the cells tapped, else it is the placement that shares the most cells with the
// others that do (so a tap on a cell it misses rules out the most). A cell tapped again is
// taken back; a tap that no placement covers together with the others starts afresh from that
// cell. benchmarks/bench_record_taps.py counts the taps with the same rule.

// a tap on ``cell``: {taps, picked (the preview, or null), count (placements covering the taps), restarted}
export function narrow(placements, taps, picked, cell) {
  let now = taps.includes(cell) ? taps.filter((c) => c !== cell) : [...taps, cell];
  const covers = (p) => now.every((c) => p.includes(c));
  let covering = placements.filter(covers);
  let restarted = false;
  if (!covering.length && now.length > 1) {
    now = [cell];
    covering = placements.filter(covers);
    restarted = true;
  }
  if (!covering.length || !now.length) return { taps: [], picked: null, count: covering.length, restarted };
  const same = picked && covering.some((p) => p.length === picked.length && p.every((c, i) => c === picked[i]));
  return { taps: now, picked: same ? picked : central(covering), count: covering.length, restarted };
}

// the placement sharing the most cells with the others (the first on a tie): when it is not the one,
// the cell of the piece it misses is one few placements cover, so the next tap rules out the most
function central(covering) {
  let best = 0, most = -1;
  covering.forEach((p, i) => {
    const cells = new Set(p);
    let shared = 0;
    for (const q of covering) for (const c of q) if (cells.has(c)) shared += 1;
    if (shared > most) { best = i; most = shared; }
  });
  return covering[best];
}

// what a tap did, in words (``piece``: the piece placed)
export function narrowWords(piece, cell, r) {
  if (!r.picked) return r.taps.length === 0 && r.count ? `${piece}: tap a cell it covers`
    : `no legal place for ${piece} covers ${cell}${r.restarted ? "" : " with the cells tapped before"}`;
  const cells = r.taps.join(" ");
  const again = r.restarted ? `no placement covers ${cell} with the cells tapped before: starting again from ${cell}. ` : "";
  if (r.count === 1) return `${again}the only placement covering ${cells}: Place confirms it`;
  return `${again}${r.count} placements cover ${cells}: if this one is not it, tap a cell of the piece it misses `
    + "(a cell tapped again is taken back)";
}
