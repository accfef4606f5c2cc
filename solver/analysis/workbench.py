"""What the studio asks of a mission it holds as text (`kakapo studio`, solver/studio/): check it,
solve it, run the long jobs (ladder, simulate, ceiling) and review a game's log. The same functions the command line
calls, so both front ends give the same answers; no web code here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from solver.core.board import cell_name
from solver.core.codes import DEFAULT_POLICY
from solver.core.errors import InputError
from solver.core.rules import Board, Mission, blocked_reason
from solver.core.spec import GameSpec
from solver.io.catalog import Catalog
from solver.io.gamelog import parse_log
from solver.io.missionfile import board_line, load_mission
from solver.io.missionwrite import board_rows, mission_json
from solver.io.paths import MISSIONS, bundled_mission
from solver.io.records import log_inputs

NAME = "mission.toml"


def mission_id(name: str | None) -> str:
    return Path(name or NAME).stem or "mission"


def parse_text(text: str, catalog: Catalog, name: str | None = None) -> Mission:
    """The mission of a TOML text; InputError (naming the line) when it is not a valid mission."""
    return load_mission(name or NAME, catalog, text=text, mission_id=mission_id(name))


def warning_items(m: Mission) -> list[dict]:
    """The warnings `validate` gives before it solves or plays, with their line and cells."""
    out = []
    board = Board.start(m)
    for b in m.birds:
        cells = [cell_name(c) for c in sorted(b.cells)]
        why = blocked_reason(m, b)
        if why:
            out.append({"line": board_line(m, min(b.cells)), "message": f"bird {b.letter} can never be scanned "
                        f"({why}): a decoy", "fix": "move the bird, or leave it as a decoy on purpose",
                        "cells": cells})
        elif not board.can_still_be_scanned(b):
            out.append({"line": board_line(m, min(b.cells)), "message": f"bird {b.letter} can never be scanned: a "
                        "pre-placed piece covers a coloured side with another colour", "fix": "", "cells": cells})
    if len(board.scanned()) >= m.clear:
        out.append({"line": None, "message": "the mission is already cleared by the pre-placed pieces", "fix": "",
                    "cells": []})
    return out


def editable(m: Mission) -> dict:
    """The mission as the page's state document: the fields it edits and the board drawn row by row."""
    return {"name": m.name, "story": m.story, "mode": m.mode, "clear": "all" if m.clear_all else m.clear,
            "rounds": m.rounds, "skills": m.skills, "board": board_rows(m),
            "placed": [p.to_json() for p in m.placed], "players": list(m.player_counts()), "show": mission_json(m)}


def check_text(text: str, catalog: Catalog, name: str | None = None) -> dict:
    """`POST /api/validate`: the checks `validate` makes before it solves or plays."""
    try:
        m = parse_text(text, catalog, name)
    except InputError as e:
        return {"valid": False, "errors": [_item(x) for x in e.all()], "warnings": [], "mission": None}
    return {"valid": True, "errors": [], "warnings": warning_items(m), "mission": editable(m)}


def _item(e: InputError) -> dict:
    return {"line": e.line, "message": e.problem, "fix": e.fix, "cells": list(e.cells)}


def solve_text(text: str, catalog: Catalog, name: str | None = None, players: int | None = None,
               count: bool = False, time_limit: float = 60.0, cap: int = 1000) -> dict:
    """`POST /api/solve`: the `kakapo solve --json` document (and `--count`'s keys with ``count``)."""
    from solver.puzzle.answer import answer  # heavy: OR-Tools
    from solver.puzzle.cpsat import SolutionCount, count_solutions  # heavy: OR-Tools

    m = parse_text(text, catalog, name)
    players = GameSpec.of(m, players if players is not None else m.default_players(), name or NAME).players
    a = answer(m, catalog, players, [], None, time_limit)
    doc = a.to_json()
    doc["players"] = players
    if count:
        r = a.result
        if r.status == "solvable" and r.optimal:
            tally = count_solutions(m, catalog, r.pieces_used, cap, False, [], players, time_limit)
        else:
            tally = SolutionCount(r.pieces_used or 0, 0, r.status == "unsolvable", "sets")
        doc.update({"solution_count": tally.count, "count_complete": tally.complete, "count_of": tally.what})
    return doc


def run_job(kind: str, text: str, catalog: Catalog, name: str | None, players: int | None, games: int, seed: int,
            policy: str | None, workers: int, progress=None) -> dict:
    """A long job's document, as the command of that name prints it with --json; ``progress(fraction)``."""
    from solver.analysis.ladder import RUNGS, ladder  # heavy: Numba and OR-Tools
    from solver.analysis.simulate import play_games, summarise  # heavy: Numba
    from solver.openhand.ceiling import ceiling  # heavy: OR-Tools

    if kind == "review":
        return review_log_text(text, name or "the log", progress=progress)
    m = parse_text(text, catalog, name)
    players = GameSpec.of(m, players if players is not None else m.default_players(), name or NAME).players
    tell = progress or (lambda _f: None)
    if kind == "simulate":
        policy = policy or DEFAULT_POLICY
        out = play_games(m, catalog, players, games, seed, policy, "numba", workers,
                         progress=lambda d, t: tell(d / max(t, 1)))
        return summarise(m, players, policy, games, seed, out, "numba", workers)
    if kind == "ceiling":
        doc = ceiling(m, catalog, players, games, seed, workers, progress=lambda d, t: tell(d / max(t, 1)))
        doc.pop("answers", None)
        return {"mission": m.id, "players": players, "games": games, "seed": seed, **doc}
    if kind == "ladder":
        steps = len(RUNGS) + 1
        labels: list[str] = []

        def step(label: str, done: int, total: int) -> None:
            if label not in labels:
                labels.append(label)
            tell((len(labels) - 1 + done / max(total, 1)) / steps)

        doc = ladder(m, catalog, players, games, seed, workers, progress=step)
        place_in_campaign(doc, m, catalog, players)
        return doc
    raise ValueError(f"unknown job kind {kind!r}")


def review_log_text(text: str, name: str = "the log", time_limit: float = 10.0, progress=None) -> dict:
    """`POST /api/review` and the review job: `kakapo review --json` of a log's text (format 2 logs
    carry their mission; an older one is read with the bundled mission it names)."""
    from solver.analysis.review import REVIEW_PLAYOUTS, REVIEW_SAMPLES, review_game  # heavy: Numba, OR-Tools

    log = parse_log(text, name)
    inputs = log_inputs(log)
    tell = progress or (lambda _f: None)
    steps = [0]

    def said(_text: str) -> None:  # one line per round, then one per open-hand verdict
        steps[0] += 1
        tell(min(0.99, steps[0] / (2 * len(log.rounds_logged) + 2)))

    rv = review_game(log, inputs.mission, inputs.catalog, time_limit, REVIEW_SAMPLES, REVIEW_PLAYOUTS, 1, said)
    return rv.to_json()


def rate_table(logs: dict[str, str], workers: int, progress=None) -> dict:
    """The studio's "rate this table": `kakapo rate` of the folder's finished games (their logs'
    texts by game id; the people's seats), with the clear rate to expect at every bundled mission."""
    from solver.analysis.rate import rate  # heavy: Numba

    tell = progress or (lambda _f: None)
    bundled = [p.stem for p in sorted(MISSIONS.glob("buddy/*.toml")) + sorted(MISSIONS.glob("party/*.toml"))]
    with tempfile.TemporaryDirectory(prefix="kakapo-rate-") as tmp:
        paths = []
        for game_id, text in logs.items():
            path = Path(tmp) / f"{Path(game_id).name}.jsonl"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        return rate(paths, None, missions=bundled, workers=workers,
                    progress=lambda d, t: tell(0.97 * d / max(t, 1)))


def place_in_campaign(doc: dict, m: Mission, catalog: Catalog, players: int) -> None:
    """Where the ladder's figure falls among the bundled missions of that mode and table (by the
    campaign's own measured figures), as `kakapo ladder` says it."""
    from solver.analysis.validate import bundled_shortfalls, place_by_difficulty, placement_phrase  # heavy: OR-Tools

    others = [(mid, v) for mid, v in bundled_shortfalls(catalog).get((m.mode, players), []) if mid != m.id]
    if others:
        doc["difficulty"]["campaign"] = place_by_difficulty(doc["difficulty"]["value"], others)
        doc["difficulty"]["campaign_text"] = placement_phrase(doc["difficulty"]["campaign"])


def warm_up(catalog: Catalog) -> None:
    """Load (or compile, the first time) the kernels the jobs use, on a small bundled mission."""
    from solver.analysis.simulate import play_games  # heavy: Numba
    from solver.puzzle.answer import answer  # heavy: OR-Tools

    m = load_mission(bundled_mission("b01") or "b01", catalog)
    for policy in ("heuristic", "planner", "greedy", "search"):
        play_games(m, catalog, 2, 2, 1, policy, "numba", 1, samples=2)
    answer(m, catalog, 2, [], None, 10.0)
