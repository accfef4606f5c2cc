"""`kakapo rate` in words, and its likelihood plot (matplotlib, imported when drawn)."""

from __future__ import annotations

import math

from solver.analysis.ladder import rung_label
from solver.analysis.rate import LR_BOUND
from solver.io.safefiles import save_figure


def rate_lines(doc: dict) -> list[str]:
    """The rating in words."""
    out = [f"{doc['games']} game(s) ({', '.join(doc['missions'])}), {doc['cleared']} of {doc['finished']} "
           f"finished cleared; rated seat(s) {', '.join(map(str, doc['seats']))}; {doc['plays']} replays of "
           "each deal per rung"]
    out.append(f"  {'rung':<12} {'log-lik.':>9} {'agreement':>10} {'expected clears':>16}")
    best = rung_label(doc["best"]["policy"], doc["best"]["samples"])
    plausible = {rung_label(p["policy"], p["samples"]) for p in doc["plausible"]}
    for r in doc["rungs"]:
        label = rung_label(r["policy"], r["samples"])
        mark = " <- best" if label == best else " (plausible)" if label in plausible else ""
        agree = "-" if r["agreement"] is None else f"{r['agreement']:.0%}"
        out.append(f"  {label:<12} {r['log_likelihood']:>9.2f} {agree:>10} {r['expected_clears']:>16.1f}{mark}")
    if doc["told_apart"]:
        out.append(f"the table plays like {best}; every other rung is ruled out (likelihood ratio, 95 %)")
    else:
        names = ", ".join(rung_label(p["policy"], p["samples"]) for p in doc["plausible"])
        out.append(f"best: {best}, but these games cannot tell apart: {names} (likelihood ratio, 95 %); more games "
                   "narrow it")
    for p in doc["predictions"]:
        if p["clear_rate"] is None:
            out.append(f"no prediction at {p['mission']}: {p['why']}")
            continue
        lo, hi = p["ci95"]
        out.append(f"expected at {p['mission']} with {p['players']} players: {p['clear_rate']:.0%} "
                   f"(95 % {lo:.0%} .. {hi:.0%}; {p['rung']}, {p['source']})")
    out += [f"note: {n}" for n in doc["notes"]]
    return out


def likelihood_plot(doc: dict, path) -> None:
    """The log-likelihood of the table's results across the rungs, the plausible band shaded."""
    import matplotlib  # heavy: matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: matplotlib

    labels = [rung_label(r["policy"], r["samples"]) for r in doc["rungs"]]
    ll = [r["log_likelihood"] for r in doc["rungs"]]
    top = max(ll)
    fig, ax = plt.subplots(figsize=(7.5, 3.8), dpi=110)
    ax.plot(range(len(ll)), ll, marker="o", color="#1f77b4", lw=1.8, label="log-likelihood of the results")
    ax.axhspan(top - LR_BOUND, top + 0.2, color="#2ca02c", alpha=0.15, label="plausible (likelihood ratio, 95 %)")
    ax2 = ax.twinx()
    agree = [r["agreement"] if r["agreement"] is not None else math.nan for r in doc["rungs"]]
    ax2.plot(range(len(ll)), agree, marker="s", color="#ff7f0e", lw=1.2, ls="--", label="agreement")
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("agreement with the logged decisions")
    ax.set_xticks(range(len(ll)), labels, fontsize=8, rotation=20)
    ax.set_ylabel("log-likelihood")
    ax.set_title(f"Which rung plays like this table ({doc['games']} games)", fontsize=11)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="lower right")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
