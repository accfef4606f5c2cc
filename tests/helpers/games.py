"""Games to record and replay: games of simulated players as logs, as written sheets and as the
Record tab's entries, and logs read and written as JSON Lines."""

from __future__ import annotations

import json

from solver.app.sheets import sheet_of
from solver.game.engine import play_game
from solver.game.roster import make_policy
from solver.io.gamelog import parse_log
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS
from tests.helpers.paths import ROOT

ROWS = [("buddy/b05", 2), ("party/p02", 3), ("party/p03", 4)]


def simulated(catalog, name, players, seed, policy="heuristic"):
    m = load_mission(MISSIONS / f"{name}.toml", catalog)
    events = play_game(m, catalog, players, seed, make_policy(policy), log=True).events
    return "".join(json.dumps(e) + "\n" for e in events), events


def sheet_lines(catalog, name="buddy/b05", players=2, seed=3):
    text, _ = simulated(catalog, name, players, seed)
    return sheet_of(parse_log(text, "g")).replace("player 1", "Ann").replace("player 2", "Ben") \
        .replace("player 3", "Cleo").splitlines()


def entries_of(events):
    """A log's game as the Record tab's entries, and the cards each seat still holds at the end."""
    setup = events[0]
    out = []
    played = {k: [] for k in range(setup["players"])}
    for e in events[1:]:
        if e["event"] != "round":
            continue
        for p in e["plays"]:
            out.append({"card": p["card"]})
            played[p["player"]].append(p["card"])
        out.append({"pieces": list(e["pieces"])})
        for pl in e["placements"]:
            out.append({"place": pl["piece"], "cells": pl["cells"]})
    left = {k: [c for c in setup["hands"][str(k)] if c not in played[k]] if isinstance(setup["hands"], dict)
            else [c for c in setup["hands"][k] if c not in played[k]] for k in played}
    return out, left


def lines(path):
    return [json.loads(x) for x in open(path, encoding="utf-8").read().splitlines()]


def write_lines(path, events):
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def mission_of(name, catalog):
    return load_mission(ROOT / "missions" / ("buddy" if name[0] == "b" else "party") / f"{name}.toml", catalog)

