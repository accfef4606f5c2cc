"""Solving a mission and checking one: `kakapo solve` (with `--count` and `--from LOG`), and what
the studio asks of the mission it holds as text (`/api/validate`, `/api/solve`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.app.documents import Doc
from solver.app.inputs import game_inputs, mission_of_text, table_size
from solver.core.cards import Card
from solver.core.errors import InputError
from solver.core.rules import Board, Mission
from solver.game.resume import board_mission, replay
from solver.game.state import GameState
from solver.io.catalog import Catalog
from solver.io.gamelog import GameLog
from solver.io.missionfile import declared_pieces, made_with, warning_items
from solver.io.missionwrite import board_json, board_rows, mission_json

if TYPE_CHECKING:  # heavy at run time: OR-Tools
    from solver.puzzle.answer import Answer
    from solver.puzzle.cpsat import SolutionCount


@dataclass
class Solved:
    """A solve's answer (``puzzle.answer.Answer``), its count when asked, and the moment it was
    about when it came from a log (``state``: the game at the start of that round)."""

    mission: Mission
    players: int
    answer: Answer
    tally: SolutionCount | None = None
    state: GameState | None = None
    log_path: str | None = None

    def to_json(self) -> Doc:
        doc = self.answer.to_json()
        if self.tally is not None:
            t = self.tally
            doc.update({"solution_count": t.count, "count_complete": t.complete, "count_of": t.what})
        if self.state is not None:
            m = self.mission
            doc.update({"from": self.log_path, "round": self.state.round, "rounds_left": m.rounds,
                        "skills_left": m.skills})
        return doc


def solve(m: Mission, catalog: Catalog, players: int, exclude: list[Card], *, max_pieces: int | None,
          time_limit: float, count: bool = False, cap: int = 1000, placements: bool = False) -> Solved:
    """The fewest new pieces that clear ``m`` (proven minimal when it can be), and with ``count``
    how many distinct answers of that size there are (sets of pieces, or ``placements``)."""
    from solver.puzzle.answer import answer  # heavy: OR-Tools

    a = answer(m, catalog, players, exclude, max_pieces, time_limit)
    out = Solved(m, players, a)
    if count or placements:
        from solver.puzzle.cpsat import SolutionCount, count_solutions  # heavy: OR-Tools

        r = a.result
        what = "placements" if placements else "sets"
        if r.status == "solvable" and r.optimal and r.pieces_used is not None:
            out.tally = count_solutions(m, catalog, r.pieces_used, cap, placements, exclude, players, time_limit)
        else:  # proven unsolvable: none at all; no proven fewest size: nothing counted, not complete
            out.tally = SolutionCount(r.pieces_used or 0, 0, r.status == "unsolvable", what)
    return out


def solve_request(mission: str | None, pieces: str | None, *, players: int | None, exclude: list[Card],
                  max_pieces: int | None, time_limit: float, count: bool = False, cap: int = 1000,
                  placements: bool = False, from_log: str | None = None, from_round: int | None = None,
                  noted: Callable[[str], None] | None = None) -> Solved:
    """`kakapo solve`: MISSION (``solve``), or with ``from_log`` the board at the start of round
    ``from_round`` of the logged game, its rounds and skill counters those left (``board_of_log``);
    ``noted(note)`` as in ``inputs.game_inputs``."""
    catalog, m, lg = game_inputs(mission, pieces, from_log, noted)
    state = None
    if lg is not None:
        m, state = board_of_log(lg.log, m, catalog, from_round, players)
        n = lg.log.players
    else:
        n = table_size(m, players, str(mission))
    solved = solve(m, catalog, n, exclude, max_pieces=max_pieces, time_limit=time_limit, count=count, cap=cap,
                   placements=placements)
    solved.state, solved.log_path = state, from_log
    return solved


def board_of_log(log: GameLog, m: Mission, catalog: Catalog, round_: int | None,
                 players: int | None) -> tuple[Mission, GameState]:
    """The board at the start of round ``round_`` of a logged game, as a mission whose rounds and
    skills are those left (and the game's state there)."""
    if players is not None and players != log.players:
        raise InputError("--players", f"the game in {log.path} has {log.players} players, not {players}",
                         "leave --players out with --from")
    state = replay(log, m, catalog, round_)
    return board_mission(state), state


def solve_text(text: str, catalog: Catalog, name: str | None = None, players: int | None = None,
               count: bool = False, time_limit: float = 60.0, cap: int = 1000,
               exclude: list[Card] | None = None) -> Doc:
    """`POST /api/solve`: the `kakapo solve --json` document (and `--count`'s keys with ``count``),
    with the table's size in it."""
    m = mission_of_text(text, catalog, name)
    n = table_size(m, players, name or "mission.toml")
    doc = solve(m, catalog, n, list(exclude or []), max_pieces=None, time_limit=time_limit, count=count,
                cap=cap).to_json()
    doc["players"] = n
    return doc


# ---------------------------------------------------------------- the checks a mission text gets
def editable(m: Mission) -> Doc:
    """The mission as the page's state document: the fields it edits and the board drawn row by row."""
    return {"name": m.name, "story": m.story, "mode": m.mode, "clear": "all" if m.clear_all else m.clear,
            "rounds": m.rounds, "skills": m.skills, "pieces_digest": made_with(m), "board": board_rows(m),
            "placed": [p.to_json() for p in m.placed], "players": list(m.player_counts()), "show": mission_json(m),
            "state": board_json(Board.start(m))}


MADE_WITH_FIX = ("use the catalog it was made with: the notice beside the board offers it when this folder has it "
                 "or the link or file carried it (else put that catalog's file into the folder); its shapes are "
                 "part of the mission")


def check_text(text: str, catalog: Catalog, name: str | None = None) -> Doc:
    """`POST /api/validate`: the checks `validate` makes before it solves or plays."""
    # the catalog the text says it was made with, beside the one in use: the page offers to switch
    made = {"pieces_digest": declared_pieces(text), "catalog_digest": catalog.digest}
    try:
        m = mission_of_text(text, catalog, name)
    except InputError as e:
        errors = [_item(x) for x in e.all()]
        if made["pieces_digest"] not in (None, catalog.digest):
            for item in errors:  # the page offers that catalog beside the errors: the advice is to take it
                if "made with another catalog" in item["message"]:
                    item["fix"] = MADE_WITH_FIX
        return {"valid": False, "errors": errors, "warnings": [], "mission": None, **made}
    return {"valid": True, "errors": [], "warnings": warning_items(m), "mission": editable(m), **made}


def _item(e: InputError) -> Doc:
    return {"line": e.line, "message": e.problem, "fix": e.fix, "cells": list(e.cells)}
