"""`kakapo calibrate` in words, and its reliability diagram (matplotlib, imported when drawn)."""

from __future__ import annotations

from solver.analysis.calibrate import skill
from solver.analysis.ladder import rung_label
from solver.core.codes import PolicyId
from solver.core.stats import too_wide
from solver.io.difficulty import OBSERVED_MIN_GAMES, OBSERVED_MIN_TABLES
from solver.io.safefiles import save_figure

NEXT_SHOWN = 3  # the suggestions a table's text shows (the JSON has them all)
TOO_FEW = "too few games to say yet"  # said where an interval is too wide (analysis.calibrate.too_wide)


def _pc(x: float) -> str:
    return f"{x:.0%}"


def level_words(level: dict) -> str:
    """How the table's level reads beyond its rung: the deal's share and the shift."""
    follows = {"follows": "its results follow the deal as a bot's do",
               "less": "its results follow the deal less than a bot's (mistakes, mixed play): what it should "
                       "expect leans on the missions' clear rates",
               "unsure": "its games do not tell yet how closely its results follow the deal"}[level["deal"]]
    shift = {"more": "it clears more games than that rung would", "fewer": "it clears fewer games than that rung "
             "would", "as": "it clears about as many games as that rung"}[level["beyond"]]
    return f"{follows} (deal's share {level['deal_share']:.0%}); {shift} (shift {level['shift']:+.2f} logit)"


def calibrate_lines(doc: dict) -> list[str]:
    """The tables, the check of the predictions and the missions, for a player to read."""
    c = doc["calibration"]
    out = [f"{len(doc['tables'])} table(s), {c['games']} finished game(s); {doc['plays']} replays of each deal "
           "per rung"]
    for t in doc["tables"]:
        best = rung_label(t["best"]["policy"], t["best"]["samples"])
        who = f" ({', '.join(t['names'])})" if t["names"] and ", ".join(t["names"]) != t["table"] else ""
        out.append(f"table {t['table']}{who}: {t['games']} game(s) with {t['players']} players, {t['cleared']} "
                   f"cleared ({', '.join(t['missions'])})")
        if t["told_apart"]:
            out.append(f"  plays like {best}")
        else:
            names = ", ".join(rung_label(p["policy"], p["samples"]) for p in t["plausible"])
            out.append(f"  plays like {best}; its games cannot tell apart {names}")
        out.append(f"  {level_words(t['level'])}")
        if t["next"]:
            shown = "; ".join(f"{e['mission']} {_pc(e['predicted'])} (95 % {_pc(e['ci95'][0])} .. "
                              f"{_pc(e['ci95'][1])})" for e in t["next"][:NEXT_SHOWN])
            source = t["next"][0].get("source")
            where = "" if source in (None, "bundled") else f"; from your campaign, {source}"
            out.append(f"  to play next (not cleared yet, nearest a {_pc(doc['target'])} clear rate{where}): {shown}")
        elif t.get("next_why"):
            out.append(f"  to play next: {t['next_why']}")
        else:
            out.append("  to play next: no measured mission left uncleared at this table size")
    if c["games"]:
        gain = skill(doc)
        better = "" if gain is None else (f"; {gain:.0%} better than the baseline" if gain > 0 else
                                          "; no better than the baseline")
        out.append(f"predictions checked, each game from the table's other games only: Brier {c['brier']:.3f} "
                   f"against {c['brier_baseline']:.3f} for the mission's rate over the ladder's rungs "
                   f"(lower is better){better}")
        out.append(f"  {'predicted':>9} {'cleared':>8} {'95 %':>13} {'games':>6}")
        for b in c["bins"]:
            lo, hi = b["ci95"]
            mark = "" if lo <= b["predicted"] <= hi else "  <- outside"
            out.append(f"  {_pc(b['predicted']):>9} {_pc(b['observed']):>8} {_pc(lo) + ' .. ' + _pc(hi):>13} "
                       f"{b['games']:>6}{mark}")
    if doc["missions"]:
        out.append("missions as the tables played them (observed; learned: the ladder's expectation corrected "
                   "by the games):")
        for m in doc["missions"]:
            few = "" if m["games"] >= 5 and m["tables"] >= 2 else "  (few games: mostly the ladder's figure)"
            out.append(f"  {m['mission']} with {m['players']} players: {m['games']} game(s) at {m['tables']} "
                       f"table(s), cleared {_pc(m['observed'])}, learned {_pc(m['learned'])}, the ladder expected "
                       f"{_pc(m['expected'])}{few}")
    out += [f"note: {n}" for n in doc.get("notes", [])]
    return out


def reliability_plot(doc: dict, path) -> None:
    """Predicted against observed clear rate in the bins, each bin's 95 % interval, the diagonal."""
    import matplotlib  # heavy: matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: matplotlib

    c = doc["calibration"]
    bins = c["bins"]
    fig, ax = plt.subplots(figsize=(5.6, 5.2), dpi=110)
    ax.plot([0, 1], [0, 1], color="#999999", lw=1, ls="--", label="calibrated")
    if bins:
        xs = [b["predicted"] for b in bins]
        ys = [b["observed"] for b in bins]
        err = [[b["observed"] - b["ci95"][0] for b in bins], [b["ci95"][1] - b["observed"] for b in bins]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", color="#1f77b4", ecolor="#1f77b4", capsize=3, lw=1.2,
                    label="share cleared (95 %)")
        for x, y, b in zip(xs, ys, bins, strict=True):
            ax.annotate(str(b["games"]), (x, y), textcoords="offset points", xytext=(6, -10), fontsize=7,
                        color="#555555")
    ax.set_xlim(-0.02, 1.02)  # a bin at 0 % or 100 % stays in view
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel("predicted clear rate (from the table's other games)")
    ax.set_ylabel("share of the games cleared")
    brier = "" if c["brier"] is None else f"; Brier {c['brier']:.3f}, baseline {c['brier_baseline']:.3f}"
    ax.set_title(f"Predictions against results ({c['games']} games{brier})", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


# ---------------------------------------------------------------- the Tables tab's plain words
def _rung_about(policy: str, samples: int | None) -> str:
    """A rung in plain words: its name and what kind of player it is."""
    about = PolicyId.parse(policy).summary if policy in PolicyId.labels() else ""
    name = rung_label(policy, samples)
    return f"the bot {name} ({about})" if about else f"the bot {name}"


def _level_words(t: dict) -> str:
    best = t["best"]
    if t["told_apart"]:
        return f"Plays like {_rung_about(best['policy'], best['samples'])}."
    p = [rung_label(r["policy"], r["samples"]) for r in t["plausible"]]
    span = f"{p[0]} and {p[-1]}" if len(p) > 1 else p[0]
    return (f"Plays most like {_rung_about(best['policy'], best['samples'])}; its {t['games']} game(s) cannot yet "
            f"tell it from any bot between {span}: each game played narrows it.")


LUCK = {"follows": "Its wins and losses follow the cards dealt as a bot's do: a deal the bots win, it wins.",
        "less": "Its wins and losses follow the cards dealt less than a bot's (some mistakes, or players of "
                "different strength), so what it should expect leans more on how hard each mission is.",
        "unsure": f"It has {TOO_FEW} how much the cards dealt decide its games."}
BEYOND = {"more": "It wins more often than that bot would.", "fewer": "It wins less often than that bot would.",
          "as": "It wins about as often as that bot would."}


def _pc_words(x: float) -> str:
    return f"{round(100 * x)} %"


def next_words(e: dict) -> str:
    """One suggestion of what to play next, in plain words (never a figure its interval cannot back)."""
    head = f"{e['mission']} with {e['players']} players"
    if e.get("too_few_games", too_wide(e["ci95"])):
        return f"{head}: {TOO_FEW} how often you would clear it"
    return (f"{head}: expect to clear it about {_pc_words(e['predicted'])} of the time (very likely between "
            f"{_pc_words(e['ci95'][0])} and {_pc_words(e['ci95'][1])})")


def _next_intro(t: dict, target: float) -> str:
    if not t["next"]:
        return "Every campaign mission at this table size is cleared: try your own, or another table size."
    after = t["next"][0].get("after")
    where = (f"the next missions of the campaign after {after}, the furthest it cleared" if after
             else "the campaign's first missions (it has cleared none yet)")
    return (f"What to play next: {where}, the one nearest a {_pc_words(target)} chance to clear first (a table "
            "then wins more often than it loses, and still loses often enough for a win to count).")


def plain_words(doc: dict) -> dict:
    """Every figure of a `calibrate` document in a sentence a player understands (the studio's Tables
    tab shows them; the glossary has the words): each table's level, its luck, what to play next;
    whether the predictions came true; the missions as the tables found them."""
    tables = []
    for t in doc["tables"]:
        lv = t["level"]
        tables.append({"table": t["table"], "summary": f"{t['games']} game(s), {t['cleared']} cleared.",
                       "level": _level_words(t), "luck": LUCK[lv["deal"]], "beyond": BEYOND[lv["beyond"]],
                       "next_intro": _next_intro(t, doc["target"]),
                       "next": [{"mission": e["mission"], "text": next_words(e),
                                 "too_few_games": bool(e.get("too_few_games", too_wide(e["ci95"])))}
                                for e in t["next"][:NEXT_SHOWN]]})
    c = doc["calibration"]
    bins = c["bins"]
    if not c["games"] or c["brier"] is None:
        check, diagram = "No finished game to check a prediction against yet.", ""
    else:
        better = ("Knowing the table made the predictions better." if c["brier"] < c["brier_baseline"]
                  else "Knowing the table has not made the predictions better yet.")
        check = (f"Each of the {c['games']} game(s) was predicted from the same table's other games only, then set "
                 f"against what happened. The predictions were off by {c['brier']:.2f} on average (the Brier "
                 f"score: 0 is perfect, always saying 50 % gets 0.25), against {c['brier_baseline']:.2f} for a "
                 f"guess that ignores who plays (each mission's average over the bots). {better}")
        seen = ("each group holds too few games to say yet whether the predictions come true."
                if all(too_wide(b["ci95"]) for b in bins) else
                f"{c['bins_within']} of {len(bins)} group(s) are.")
        diagram = ("In the chart, each dot is a group of games given about the same chance: across, the chance "
                   "predicted; up, the share of them cleared, with a bar where that share very likely lies. Dots "
                   f"on the dashed line mean the predictions came true as often as they said: {seen}")
    missions = [{"mission": m["mission"], "players": m["players"],
                 "few": m["games"] < OBSERVED_MIN_GAMES or m["tables"] < OBSERVED_MIN_TABLES}
                for m in doc["missions"]]
    return {"tables": tables, "check": check, "diagram": diagram,
            "missions_intro": ("How hard each mission played at these tables: the share of games cleared; what "
                               "the games say (that share pulled toward what the bots expected, the less the "
                               "more games); and what the bots expected of these tables. With few games or one "
                               "table, what the games say is mostly the bots' figure (marked *)."),
            "missions_head": ["mission", "games (tables)", "cleared", "what the games say", "what the bots expected"],
            "missions": missions}
