"""The report as a self-contained HTML page (pictures embedded, a table that sorts on a click) and
as Markdown. Names and stories come from mission files, which are untrusted: every one of them is
escaped, and control characters are dropped."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from solver.core.text import clean
from solver.io.safefiles import read_regular
from solver.view.report_plots import board_thumbnail

RATE_COLUMNS = [("clear_rate", "clear rate"), ("greedy_rate", "greedy"), ("heuristic_rate", "heuristic"),
                ("planner_rate", "planner"), *((f"search{k}_rate", f"search {k}") for k in (2, 4, 8, 16, 32, 64)),
                ("ceiling_rate", "ceiling"), ("observed_rate", "tables cleared"),
                ("observed_learned", "tables (learned)")]


def pct(v) -> str:
    return "-" if v is None or v != v else f"{100 * float(v):.1f}%"


def shortfall_text(v) -> str:
    return "-" if v is None or v != v else f"{float(v):.2f}"


def _intro(meta: dict, df, esc=html.escape) -> list[str]:
    players = ", ".join(str(p) for p in sorted(set(df["players"])))
    policy = meta.get("policy") or ", ".join(sorted(set(df["policy"])))
    lines = [
        f"Each row is one mission played by {players} players: {int(df['games'].iloc[0]) if len(df) else 0} "
        f"simulated games per row with the policy <b>{html.escape(policy)}</b> "
        f"(seed {html.escape(str(meta.get('seed', '')))}), "
        "the share of games cleared (with its 95% Wilson interval), and the fewest new pieces that clear the "
        "puzzle (CP-SAT, proven).",
    ]
    band = ""
    if "greedy_rate" in df.columns:
        band = ("The <b>band</b> places each mission between what a naive table does (greedy: random cards, "
                "best immediate placement) and what the hidden-information players do (heuristic and planner).")
    if "ladder_games" in df.columns:
        games = int(df["ladder_games"].iloc[0]) if len(df) else 0
        band += (f" The <b>ladder</b> adds the search player (it samples the cards it cannot see and plays each "
                 f"candidate move to the end with the planner) with 2 to 64 samples a decision, over the "
                 f"same first {games} deals (32 and 64 samples on at most the first 200): how the clear rate "
                 "grows with the table's strength. A mission that "
                 "only the search player clears is hard for shallow players, not for careful ones. With the "
                 "ceiling, the <b>shortfall</b> sums the curve up: the share of the clearable deals a rung of the "
                 "ladder misses, on average (0: every rung clears them all).")
    if "ceiling_rate" in df.columns:
        games = int(df["ceiling_games"].iloc[0]) if len(df) else 0
        band += (f" The <b>open-hand ceiling</b> says what is possible at all with those cards: it decides each of "
                 f"the first {games} deals exactly, for a team that sees every hand. It cheats on purpose: an upper "
                 "bound, never a difficulty on its own. A deal it cannot decide within its time limit counts as "
                 "not clearable, so where the <i>undecided</i> column is not 0 the ceiling is a lower bound (a hollow "
                 "triangle in the plot).")
    if band:
        lines.append(band.strip())
    lines += why_sentences(df, esc)
    lines.append(f"Made {html.escape(str(meta.get('date', '')))} by kakapo {html.escape(str(meta.get('version', '')))}"
                 f"{' with ' + html.escape(meta['command']) if meta.get('command') else ''}.")
    return lines


def why_sentences(df, esc=html.escape) -> list[str]:
    """The page's summary in words: how the main policy's games were lost, and where the band is
    wide (the cards allow far more than the players make of them). ``esc``: text from files, for
    the page's format."""
    out = []
    if len(df) and "rounds_exhausted" in df.columns:
        lost_rounds, lost_piece = int(df["rounds_exhausted"].sum()), int(df["unplaceable"].sum())
        lost = lost_rounds + lost_piece
        if lost:
            policy = ", ".join(sorted(set(map(str, df["policy"]))))
            out.append(f"How games were lost: of the {lost:,} games the {html.escape(policy)} players lost, the rounds "
                       f"ran out in {lost_rounds / lost:.0%} and a selected piece fit nowhere on the board in "
                       f"{lost_piece / lost:.0%} (per row in the table's last column).")
    if "ceiling_rate" in df.columns and len(df):
        gaps = []
        for _, r in df.iterrows():
            gap = float(r["ceiling_rate"]) - float(r["clear_rate"])
            if gap >= 0.5:
                top = next((k for k in (64, 16) if f"search{k}_rate" in df.columns
                            and r[f"search{k}_rate"] == r[f"search{k}_rate"]), None)
                strong = f"; the search player with {top} samples clears {pct(r[f'search{top}_rate'])}" \
                    if top else ""
                gaps.append((gap, f"{esc(clean(r['mission']))} with {r['players']} players "
                                  f"({html.escape(str(r['policy']))} {pct(r['clear_rate'])} against "
                                  f"{pct(r['ceiling_rate'])} with open hands{strong})"))
        if gaps:
            gaps.sort(key=lambda g: -g[0])
            shown = "; ".join(t for _, t in gaps[:5]) + (f"; and {len(gaps) - 5} more" if len(gaps) > 5 else "")
            out.append(f"Where the band is wide: {shown}. There the cards allow a clear in most deals, so what "
                       "loses the games is play (who wins which trick, which cards are kept for later), not the "
                       "puzzle: a careful table recovers much of it, the players here do not.")
    return out


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(read_regular(path, 50_000_000, follow_links=False)).decode()  # the plot just written
    return f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}"></figure>'


def html_page(df, images: list[Path], missions: dict, meta: dict) -> str:
    rates = [(c, label) for c, label in RATE_COLUMNS if c in df.columns]
    # the report's policy has a column of its own in the band: its clear rate goes there, with the
    # interval under it, rather than in a column that repeats it (the table fits a 1400 px page)
    policies = set(map(str, df["policy"])) if "policy" in df.columns else set()
    own = f"{policies.pop()}_rate" if len(policies) == 1 else ""
    if own in df.columns and own != "clear_rate" and (df[own] == df["clear_rate"]).all():
        rates = [(c, label) for c, label in rates if c != "clear_rate"]
    else:
        own = "clear_rate"
    head = ["board", "mission", "name", "players", "fewest pieces"] + \
        (["difficulty (shortfall)"] if "shortfall" in df.columns else []) + \
        [label + (", 95% interval" if c == own else "") for c, label in rates] + \
        (["undecided deals"] if "ceiling_undecided" in df.columns else []) + \
        ["mean rounds when cleared", "games lost: rounds ran out / a piece fit nowhere"]
    thumbs: dict[str, str] = {}
    body = []
    for _, r in df.iterrows():
        mid = str(r["mission"])
        m = missions.get(mid)
        if m is not None and mid not in thumbs:
            thumbs[mid] = base64.b64encode(board_thumbnail(m)).decode()
        story = clean(m.story) if m is not None and m.story else ""
        need = f"scan {r['clear']}" + (f" of {len(m.birds)} birds" if m is not None else "")
        counters = f"{r['rounds']} rounds, {r['skills']} skills, {need}" if "rounds" in df.columns else ""
        cells = [
            (f'<img class="thumb" src="data:image/png;base64,{thumbs[mid]}" alt="board of {html.escape(clean(mid))}">'
             if mid in thumbs else "", ""),
            (html.escape(clean(mid)), clean(mid)),
            (f"<b>{html.escape(clean(r['name']))}</b>" + (f"<br><i>{html.escape(story)}</i>" if story else "") +
             (f'<br><span class="counters">{html.escape(counters)}</span>' if counters else ""), clean(r["name"])),
            (str(r["players"]), r["players"]),
            ("-" if r["min_pieces"] != r["min_pieces"] else str(int(r["min_pieces"])), r["min_pieces"]),
        ]
        if "shortfall" in df.columns:
            cells.append((shortfall_text(r["shortfall"]), r["shortfall"]))
        low, high = r["ci95_low"], r["ci95_high"]
        interval = "" if low != low or high != high else \
            f'<br><span class="ci">{100 * float(low):.1f}&ndash;{100 * float(high):.1f}%</span>'
        cells += [(pct(r[c]) + (interval if c == own else ""), r[c]) for c, _ in rates]
        if "ceiling_undecided" in df.columns:
            cells.append((str(int(r["ceiling_undecided"])), r["ceiling_undecided"]))
        mr = r["mean_rounds_when_cleared"]
        cells.append(("-" if mr != mr or mr is None else f"{float(mr):.1f}", mr))
        games = int(r["games"]) or 1
        cells.append((f"{pct(r['rounds_exhausted'] / games)} / {pct(r['unplaceable'] / games)}",
                      r["rounds_exhausted"] / games))
        row = "".join(f'<td data-v="{html.escape(str(v))}">{shown}</td>' for shown, v in cells)
        body.append(f"<tr>{row}</tr>")
    main = [p for p in images if Path(p).name in ("band.png", "ladder.png")] or images[:1]
    rest = [p for p in images if p not in main]
    header = "".join(f'<th onclick="sortBy({i})" title="sort">{html.escape(h)}</th>' for i, h in enumerate(head))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kakapo difficulty report</title>
<style>
body{{font-family:system-ui,sans-serif;max-width:1400px;margin:2em auto;padding:0 1em;color:#222}}
.wide{{overflow-x:auto}}
table{{border-collapse:collapse;font-size:13px}} td,th{{border-bottom:1px solid #ddd;padding:4px 6px;text-align:right}}
td:nth-child(2),td:nth-child(3),th:nth-child(3){{text-align:left}} td:nth-child(3){{min-width:15em}}
th{{cursor:pointer;background:#f3f3f3;position:sticky;top:0}}
th:hover{{background:#e4e4e4}} img.thumb{{width:72px;height:72px}} figure{{margin:1em 0}} figure img{{max-width:100%}}
.intro p{{line-height:1.45}} .counters{{color:#666;font-size:12px}} .ci{{color:#666;font-size:11px;white-space:nowrap}}
</style></head><body>
<h1>kakapo difficulty report</h1>
<div class="intro">{"".join(f"<p>{x}</p>" for x in _intro(meta, df))}</div>
{"".join(_img(p, Path(p).stem) for p in main)}
<h2>Missions</h2>
<p>Click a column heading to sort by it; click again to reverse.</p>
<div class="wide"><table id="rows"><thead><tr>{header}</tr></thead><tbody>
{chr(10).join(body)}
</tbody></table></div>
<h2>More pictures</h2>
{"".join(_img(p, Path(p).stem) for p in rest)}
<script>
let last = -1, asc = true;
function sortBy(i) {{
  const tb = document.querySelector("#rows tbody");
  const rows = Array.from(tb.rows);
  asc = (i === last) ? !asc : true; last = i;
  const val = r => {{ const v = r.cells[i].dataset.v; const n = parseFloat(v); return isNaN(n) ? v : n; }};
  rows.sort((a, b) => {{ const x = val(a), y = val(b);
    const c = (typeof x === "number" && typeof y === "number") ? x - y : String(x).localeCompare(String(y));
    return asc ? c : -c; }});
  rows.forEach(r => tb.appendChild(r));
}}
const m = location.hash.match(/^#sort=([0-9]+)$/);  // a link can open the table sorted
if (m) sortBy(parseInt(m[1]));
</script>
</body></html>
"""


MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~:<>])")


def md_text(text) -> str:
    """Text from a file as plain Markdown text: no control characters, HTML escaped, and every
    character Markdown could read as syntax (links, images, emphasis, code, table bars, the
    colon of an autolink) escaped with a backslash."""
    return MD_SPECIAL.sub(r"\\\1", html.escape(clean(text), quote=False))


def md_cell(text) -> str:
    """A Markdown table cell (``md_text``: a bar cannot end the cell)."""
    return md_text(text)


def markdown_page(df, images: list[Path], meta: dict) -> str:
    rates = [(c, label) for c, label in RATE_COLUMNS if c in df.columns]
    short = "shortfall" in df.columns
    seen = "observed_games" in df.columns
    head = ["mission", "name", "players", "fewest pieces"] + (["difficulty (shortfall)"] if short else []) + \
        [label for _, label in rates] + ["95% interval"] + (["tables' games (tables)"] if seen else [])
    safe = dict(meta, command=md_text(meta["command"])) if meta.get("command") else meta
    lines = ["# kakapo difficulty report", "",
             re.sub(r"</?b>", "**", " ".join(_intro(safe, df, md_text))), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, r in df.iterrows():
        cells = [md_cell(r["mission"]), md_cell(r["name"]), str(r["players"]),
                 "-" if r["min_pieces"] != r["min_pieces"] else str(int(r["min_pieces"]))]
        cells += [shortfall_text(r["shortfall"])] if short else []
        cells += [pct(r[c]) for c, _ in rates]
        cells.append(f"{pct(r['ci95_low'])} .. {pct(r['ci95_high'])}")
        if seen:
            g = r["observed_games"]
            cells.append("-" if g is None or str(g) in ("<NA>", "nan") else f"{int(g)} ({int(r['observed_tables'])})")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"![{Path(p).stem}]({Path(p).name})" for p in images]
    return "\n".join(lines) + "\n"
