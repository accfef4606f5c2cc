"""Batch difficulty report: clear rates per (mission, players), fewest pieces, tables and plots.

Each finished row is appended at once to ``report.progress.jsonl`` in the output folder,
keyed by everything that determines it (mission and catalog contents, players, games,
seed, policy). An interrupted report keeps that work; running the same command again
computes only what is missing, and the result equals an uninterrupted run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .errors import InputError
from .missionfile import load_mission

PROGRESS = "report.progress.jsonl"
COLUMNS = ["mission", "name", "mode", "players", "games", "cleared", "clear_rate", "ci95_low", "ci95_high",
           "min_pieces", "optimal", "rounds_exhausted", "unplaceable", "mean_rounds_when_cleared", "policy", "seed"]
# the band of a mission: the naive table, the two hidden-information players, the open-hand ceiling
BAND_POLICIES = ("greedy", "heuristic", "planner")
BAND_COLUMNS = [f"{p}_{c}" for p in BAND_POLICIES for c in ("rate", "ci95_low", "ci95_high")]
CEILING_COLUMNS = ["ceiling_games", "ceiling_rate", "ceiling_ci95_low", "ceiling_ci95_high", "ceiling_undecided"]
FORMAT_VERSION = 1


def find_missions(args, bundled: Path) -> list[Path]:
    if not args:
        args = [str(bundled)]
    out: list[Path] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.toml") if q.name != "pieces.toml")
            if not found:
                raise InputError(a, "no mission files (*.toml) in this folder", "give mission files or a folder with them")
            out += found
        elif p.exists():
            out.append(p)
        else:
            raise InputError(a, "mission file or folder not found", "check the path")
    return out


def _digest(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else json.dumps(p, sort_keys=True).encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


class Progress:
    """Append-only record of finished work in the output folder."""

    def __init__(self, path: Path):
        self.path = path
        self.done: dict[str, dict] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    self.done[entry["key"]] = entry["value"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by an interruption

    def get(self, key):
        return self.done.get(key)

    def put(self, key, value):
        self.done[key] = value
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"key": key, "value": value}) + "\n")
            f.flush()


def compute_rows(paths, catalog, catalog_bytes: bytes, games: int, seed: int, players_filter, policy: str,
                 workers: int, time_limit: float, out_dir: Path, echo=lambda s: None, baseline: bool = False,
                 ceiling_games: int = 0) -> list[dict]:
    """One row per (mission, players): the policy's clear rate and the fewest pieces; with
    ``baseline`` the rates of every band policy, with ``ceiling_games`` the open-hand ceiling."""
    from .cpsat import solve

    missions = [(p, load_mission(p, catalog)) for p in paths]  # every file checked before any work
    seen: dict[str, Path] = {}
    for p, m in missions:
        if m.id in seen:
            raise InputError(str(p), f"two missions share the id {m.id!r} ({seen[m.id]} and {p})",
                             "rename one of the files: the id is the file name")
        seen[m.id] = p
    out_dir.mkdir(parents=True, exist_ok=True)
    progress = Progress(out_dir / PROGRESS)
    rows = []
    for path, m in missions:
        text = Path(path).read_bytes()
        skey = _digest("solve", FORMAT_VERSION, text, catalog_bytes, time_limit)
        sol = progress.get(skey)
        if sol is None:
            r = solve(m, catalog, time_limit=time_limit)
            sol = {"status": r.status, "min_pieces": r.pieces_used, "optimal": r.optimal}
            progress.put(skey, sol)
        for players in m.player_counts():
            if players_filter and players not in players_filter:
                continue
            row = _simulated(progress, m, catalog, text, catalog_bytes, players, games, seed, policy, workers, echo)
            row = {**row, "min_pieces": sol["min_pieces"], "optimal": sol["optimal"]}
            if baseline:
                for pol in BAND_POLICIES:
                    r = row if pol == policy else _simulated(progress, m, catalog, text, catalog_bytes, players,
                                                            games, seed, pol, workers, echo)
                    for c in ("rate", "ci95_low", "ci95_high"):
                        row[f"{pol}_{c}"] = r["clear_rate" if c == "rate" else c]
            if ceiling_games:
                row.update(_ceiling(progress, m, catalog, text, catalog_bytes, players, ceiling_games, seed, workers,
                                    echo))
            rows.append(row)
    return rows


def _simulated(progress, m, catalog, text, catalog_bytes, players, games, seed, policy, workers, echo) -> dict:
    from .game.simulate import play_games, summarise

    key = _digest("sim", FORMAT_VERSION, text, catalog_bytes, players, games, seed, policy)
    row = progress.get(key)
    if row is None:
        out = play_games(m, catalog, players, games, seed, policy, "numba", workers)
        doc = summarise(m, players, policy, games, seed, out, "numba", workers)
        row = {"mission": m.id, "name": m.name, "mode": m.mode, "players": players, "games": games,
               "cleared": doc["cleared"], "clear_rate": doc["clear_rate"], "ci95_low": doc["ci95"][0],
               "ci95_high": doc["ci95"][1], "rounds_exhausted": doc["failures"]["rounds_exhausted"],
               "unplaceable": doc["failures"]["unplaceable"],
               "mean_rounds_when_cleared": doc["mean_rounds_when_cleared"], "policy": policy, "seed": seed}
        progress.put(key, row)
        echo(f"{m.id} with {players} players, {policy}: {row['clear_rate']:.1%} cleared")
    return row


def _ceiling(progress, m, catalog, text, catalog_bytes, players, deals, seed, workers, echo) -> dict:
    from .openhand.ceiling import ceiling
    from .openhand.deal import DEFAULT_TIME_LIMIT

    key = _digest("ceiling", FORMAT_VERSION, text, catalog_bytes, players, deals, seed, DEFAULT_TIME_LIMIT)
    got = progress.get(key)
    if got is None:
        doc = ceiling(m, catalog, players, deals, seed, workers)
        got = {"ceiling_games": deals, "ceiling_rate": doc["clear_rate"], "ceiling_ci95_low": doc["ci95"][0],
               "ceiling_ci95_high": doc["ci95"][1], "ceiling_undecided": doc["undecided"]}
        progress.put(key, got)
        echo(f"{m.id} with {players} players, open-hand ceiling: {got['ceiling_rate']:.1%} of {deals} deals")
    return got


def write_outputs(rows: list[dict], out_dir: Path) -> list[Path]:
    import pandas as pd

    extra = [c for c in BAND_COLUMNS + CEILING_COLUMNS if rows and c in rows[0]]
    df = pd.DataFrame(rows, columns=COLUMNS + extra).sort_values(["mode", "mission", "players"], kind="stable")
    df = df.reset_index(drop=True)
    files = [out_dir / "report.csv", out_dir / "report.md", out_dir / "report.html"]
    df.to_csv(files[0], index=False)
    plots = _plots(df, out_dir)
    files[1].write_text(_markdown(df, plots), encoding="utf-8")
    files[2].write_text(_html(df, plots), encoding="utf-8")
    return files + plots


def _fmt(v, col):
    if v is None or (isinstance(v, float) and v != v):
        return "-"
    if col.endswith(("rate", "ci95_low", "ci95_high")):
        return f"{v:.3f}"
    if col == "mean_rounds_when_cleared":
        return f"{v:.2f}"
    return str(v)


SHOWN = ["mission", "name", "mode", "players", "games", "cleared", "clear_rate", "ci95_low", "ci95_high",
         "min_pieces", "mean_rounds_when_cleared"]


def _shown(df) -> list[str]:
    band = [c for c in ("greedy_rate", "heuristic_rate", "planner_rate", "ceiling_rate") if c in df.columns]
    return SHOWN + band


def _markdown(df, plots) -> str:
    shown = _shown(df)
    lines = ["# Difficulty report", "",
             f"{len(df)} rows; clear rates from simulated games (policy {', '.join(sorted(set(df['policy'])))}), "
             "95% Wilson intervals; min_pieces is the fewest new pieces that clear the mission (CP-SAT).", "",
             "| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    for _, r in df.iterrows():
        lines.append("| " + " | ".join(_fmt(r[c], c) for c in shown) + " |")
    lines.append("")
    lines += [f"![{p.stem}]({p.name})" for p in plots]
    return "\n".join(lines) + "\n"


def _html(df, plots) -> str:
    import html

    shown = _shown(df)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in shown)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(r[c], c))}</td>" for c in shown) + "</tr>"
                   for _, r in df.iterrows())
    imgs = "".join(f'<p><img src="{p.name}" alt="{p.stem}"></p>' for p in plots)
    return ("<!doctype html><html><head><meta charset='utf-8'><title>kakapo difficulty report</title>"
            "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
            "padding:3px 8px;text-align:right}</style></head><body><h1>Difficulty report</h1>"
            f"<table><tr>{head}</tr>{body}</table>{imgs}</body></html>\n")


def _plots(df, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(df) + 2), 4), dpi=100)
    colours = {2: "#1f77b4", 3: "#2ca02c", 4: "#d62728"}
    labels = [f"{m}\n{p}p" for m, p in zip(df["mission"], df["players"])]
    x = range(len(df))
    err = [df["clear_rate"] - df["ci95_low"], df["ci95_high"] - df["clear_rate"]]
    ax.bar(x, df["clear_rate"], yerr=err, color=[colours.get(p, "grey") for p in df["players"]], capsize=2)
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color=colours[p], label=f"{p} players") for p in sorted(set(df["players"]))],
              fontsize=7, loc="lower left")
    ax.set_xticks(list(x), labels, fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_ylabel("clear rate (95% interval)")
    ax.set_title("Clear rate per mission and player count")
    fig.tight_layout()
    out.append(out_dir / "clear_rate.png")
    fig.savefig(out[-1])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5.5, 4), dpi=100)
    for p, group in df.groupby("players"):
        ax.scatter(group["min_pieces"], group["clear_rate"], label=f"{p} players", color=colours.get(p, "grey"))
        for _, r in group.iterrows():
            ax.annotate(r["mission"], (r["min_pieces"], r["clear_rate"]), fontsize=6, xytext=(3, 2),
                        textcoords="offset points")
    ax.set_xlabel("fewest pieces (CP-SAT)")
    ax.set_ylabel("clear rate")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=7)
    ax.set_title("Puzzle size against clear rate")
    fig.tight_layout()
    out.append(out_dir / "pieces_vs_clear_rate.png")
    fig.savefig(out[-1])
    plt.close(fig)
    if "greedy_rate" in df.columns or "ceiling_rate" in df.columns:
        out.append(_band_plot(df, out_dir, plt))
    return out


BAND_STYLE = [("greedy", "floor: greedy", "#9e9e9e", "v"), ("heuristic", "heuristic", "#1f77b4", "o"),
              ("planner", "planner", "#2ca02c", "s"), ("ceiling", "ceiling: open hands (cheats)", "#d62728", "^")]


def _band_plot(df, out_dir: Path, plt) -> Path:
    """Per mission and player count: the clear rate of each band policy with its 95% interval."""
    n = len(df)
    fig, ax = plt.subplots(figsize=(7.5, max(3.0, 0.32 * n + 1.4)), dpi=100)
    labels = [f"{m} ({p}p)" for m, p in zip(df["mission"], df["players"])]
    y = list(range(n))[::-1]
    offsets = {"greedy": -0.24, "heuristic": -0.08, "planner": 0.08, "ceiling": 0.24}
    for key, label, colour, marker in BAND_STYLE:
        col = f"{key}_rate"
        if col not in df.columns:
            continue
        rate = df[col].astype(float)
        err = [rate - df[f"{key}_ci95_low"].astype(float), df[f"{key}_ci95_high"].astype(float) - rate]
        ax.errorbar(rate, [v + offsets[key] for v in y], xerr=err, fmt=marker, color=colour, ms=4, capsize=2,
                    elinewidth=1, label=label)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("clear rate (95% interval)")
    ax.set_title("Difficulty band per mission and player count", pad=24)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, frameon=False)
    fig.tight_layout()
    path = out_dir / "band.png"
    fig.savefig(path)
    plt.close(fig)
    return path
