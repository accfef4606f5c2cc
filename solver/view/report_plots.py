"""The report's pictures (matplotlib, imported only here): clear rates, the band, puzzle size against
clear rate, and a small drawing of each board."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator, PercentFormatter

from solver.core.board import SIZE, col_of, row_of
from solver.io.safefiles import save_figure
from solver.view.plot import FILL

PLAYER_COLOURS = {2: "#1f77b4", 3: "#2ca02c", 4: "#d62728"}
BAND_STYLE = [("greedy", "floor: greedy", "#9e9e9e", "v"), ("heuristic", "heuristic", "#1f77b4", "o"),
              ("planner", "planner", "#2ca02c", "s"), ("ceiling", "ceiling: open hands (cheats)", "#d62728", "^")]


def _labels(df) -> list[str]:
    return [f"{m} ({p}p)" for m, p in zip(df["mission"], df["players"], strict=False)]


def plots(df, out_dir: Path) -> list[Path]:
    out = [clear_rate_plot(df, out_dir / "clear_rate.png"), size_plot(df, out_dir / "pieces_vs_clear_rate.png")]
    if "greedy_rate" in df.columns or "ceiling_rate" in df.columns:
        out.append(band_plot(df, out_dir / "band.png"))
    if "ladder_games" in df.columns:
        out.append(ladder_curves(df, out_dir / "ladder.png"))
    return out


LADDER_STEPS = [("greedy_rate", "greedy"), ("heuristic_rate", "heur."), ("planner_rate", "plan."),
                ("search2_rate", "s2"), ("search4_rate", "s4"), ("search8_rate", "s8"), ("search16_rate", "s16"),
                ("search32_rate", "s32"), ("search64_rate", "s64")]


def ladder_curves(df, path: Path) -> Path:
    """One small panel per mission and player count: the clear rate up the ladder's rungs (those
    the report has), the ceiling as a dashed line."""
    steps = [(c, label) for c, label in LADDER_STEPS if c in df.columns]
    n = len(df)
    cols = min(6, max(1, n))
    rows = -(-n // cols)
    height = 2.0 * rows + 0.7
    fig, axes = plt.subplots(rows, cols, figsize=(2.3 * cols, height), dpi=100, squeeze=False, sharey=True)
    for ax in axes.flat[n:]:
        ax.axis("off")
    for ax, (_, r), label in zip(axes.flat, df.iterrows(), _labels(df), strict=False):
        ax.plot(range(len(steps)), [float(r[c]) for c, _ in steps], marker="o", ms=3, lw=1.4,
                color=PLAYER_COLOURS.get(r["players"], "grey"))
        if "ceiling_rate" in df.columns:
            ax.axhline(float(r["ceiling_rate"]), color="#d62728", ls="--", lw=1)
        shortfall = r.get("shortfall")
        ax.set_title(label + ("" if shortfall is None or shortfall != shortfall else f"  shortfall {shortfall:.2f}"),
                     fontsize=9)
        ax.set_ylim(0, 1.05)
        ax.set_xticks(range(len(steps)), [s for _, s in steps], fontsize=9, rotation=90)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.tick_params(axis="y", labelsize=9)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("The ladder: clear rate as the table grows stronger (dashed: open-hand ceiling)", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / height))  # room for the title above the panels
    save_figure(fig, path)
    plt.close(fig)
    return path


def clear_rate_plot(df, path: Path) -> Path:
    """The policy's clear rate per mission and player count, one horizontal bar each."""
    n = len(df)
    fig, ax = plt.subplots(figsize=(7.5, max(2.8, 0.3 * n + 1.4)), dpi=100)
    y = list(range(n))[::-1]
    rate = df["clear_rate"].astype(float)
    err = [rate - df["ci95_low"].astype(float), df["ci95_high"].astype(float) - rate]
    ax.barh(y, rate, xerr=err, color=[PLAYER_COLOURS.get(p, "grey") for p in df["players"]], capsize=2, height=0.7)
    ax.set_yticks(y, _labels(df), fontsize=9)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(f"clear rate, policy {', '.join(sorted(set(df['policy'])))} (95% interval)")
    ax.set_title("Clear rate per mission and player count", pad=22)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(handles=[Patch(color=PLAYER_COLOURS[p], label=f"{p} players") for p in sorted(set(df["players"]))],
              fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def size_plot(df, path: Path) -> Path:
    """Fewest pieces against clear rate; names beside the points, spread so that none overlap."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5), dpi=100)
    for p, group in df.groupby("players"):
        ax.scatter(group["min_pieces"], group["clear_rate"], label=f"{p} players", color=PLAYER_COLOURS.get(p, "grey"),
                   s=18, zorder=3)
    placed: list[tuple[float, float]] = []
    for _, r in df.sort_values(["min_pieces", "clear_rate"]).iterrows():
        if r["min_pieces"] != r["min_pieces"]:  # unknown
            continue
        x, y = float(r["min_pieces"]), float(r["clear_rate"])
        ty = y
        while any(abs(px - x) < 0.9 and abs(py - ty) < 0.045 for px, py in placed):
            ty -= 0.045  # move the label down until it has room
        placed.append((x, ty))
        ax.annotate(f"{r['mission']}", (x, y), xytext=(x + 0.12, ty), fontsize=8, va="center",
                    arrowprops={"arrowstyle": "-", "lw": 0.4, "color": "#999999"} if ty != y else None)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("fewest pieces that clear the mission (CP-SAT)")
    ax.set_ylabel("clear rate")
    ax.set_ylim(-0.05, 1.05)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    ax.set_title("Puzzle size against clear rate")
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def band_plot(df, path: Path) -> Path:
    """Per mission and player count: the clear rate of each band policy with its 95% interval."""
    n = len(df)
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.36 * n + 1.5)), dpi=100)
    y = list(range(n))[::-1]
    offsets = {"greedy": -0.24, "heuristic": -0.08, "planner": 0.08, "ceiling": 0.24}
    for key, label, colour, marker in BAND_STYLE:
        col = f"{key}_rate"
        if col not in df.columns:
            continue
        rate = df[col].astype(float)
        err = [rate - df[f"{key}_ci95_low"].astype(float), df[f"{key}_ci95_high"].astype(float) - rate]
        ys = [v + offsets[key] for v in y]
        if key == "ceiling" and "ceiling_undecided" in df.columns and (df["ceiling_undecided"] > 0).any():
            # undecided deals count as not clearable: there the ceiling is a lower bound (hollow marker)
            low = (df["ceiling_undecided"] > 0).to_numpy()
            for mask, lab, face in ((~low, label, colour), (low, "ceiling, lower bound (deals undecided)", "white")):
                if mask.any():
                    ax.errorbar(rate[mask], [v for v, k in zip(ys, mask, strict=False) if k],
                                xerr=[e[mask] for e in err], fmt=marker, color=colour, mfc=face, ms=4, capsize=2,
                                elinewidth=1, label=lab)
            continue
        ax.errorbar(rate, ys, xerr=err, fmt=marker, color=colour, ms=4, capsize=2, elinewidth=1, label=label)
    ax.set_yticks(y, _labels(df), fontsize=9)
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlim(-0.02, 1.02)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("clear rate (95% interval)")
    ax.set_title("Difficulty band per mission and player count", pad=34)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def ladder_plot(doc: dict, title: str, path: Path) -> Path:
    """The ladder of one mission and table: clear rate (95% interval) per rung, the ceiling above."""
    rungs = doc["rungs"]
    names = [r["policy"] if r["samples"] is None else f"search\n{r['samples']} samples" for r in rungs]
    rate = [r["clear_rate"] for r in rungs]
    lo = [r["clear_rate"] - r["ci95"][0] for r in rungs]
    hi = [r["ci95"][1] - r["clear_rate"] for r in rungs]
    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=110)
    x = list(range(len(rungs)))
    ax.errorbar(x, rate, yerr=[lo, hi], color="#1f77b4", marker="o", capsize=3, lw=1.8, label="clear rate")
    top = doc["ceiling"]
    ax.axhline(top["clear_rate"], color="#d62728", ls="--", lw=1.4,
               label="open-hand ceiling (sees every hand: cheats)")
    if top["undecided"]:
        ax.axhspan(top["clear_rate"], min(1.0, top["clear_rate"] + top["undecided"] / doc["games"]),
                   color="#d62728", alpha=0.12, label="ceiling: undecided deals")
    ax.set_xticks(x, names, fontsize=9)
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylabel(f"deals cleared (of {doc['games']})")
    d = doc["difficulty"]
    ax.set_title(f"{title}: the ladder ({d['name']} {d['value']:.2f})", fontsize=11)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def board_thumbnail(mission) -> bytes:
    """A small PNG of the board before play: birds, coloured sides, pieces placed before play."""
    fig, ax = plt.subplots(figsize=(1.3, 1.3), dpi=90)
    ax.set_xlim(0, SIZE)
    ax.set_ylim(SIZE, 0)
    ax.set_aspect("equal")
    ax.add_patch(Rectangle((0, 0), SIZE, SIZE, facecolor="#f7f7f2", edgecolor="#bbbbbb", lw=0.8))
    for p in mission.placed:
        for c in p.cells:
            ax.add_patch(Rectangle((col_of(c), row_of(c)), 1, 1, facecolor=FILL[p.card.colour], alpha=0.55))
    for b in mission.birds:
        for c in b.cells:
            ax.add_patch(Rectangle((col_of(c), row_of(c)), 1, 1, facecolor="#333333"))
    for c, col in mission.marks:
        ax.add_patch(Rectangle((col_of(c) + 0.15, row_of(c) + 0.15), 0.7, 0.7, facecolor=FILL[col]))
    ax.axis("off")
    fig.subplots_adjust(0, 0, 1, 1)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()
