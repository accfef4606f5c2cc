"""The rules' refusals of a recorded game in a person's words: each code of ``IllegalAction``
(``game/state.py``, ``game/recorded.py``) with its facts becomes one sentence, the same for a sheet
(``app/sheets.py``, which gives the line) and the Record tab (``app/taps.py``, which gives the
entry), e.g. ``round 2: Ann played red-1 but held blue-4: must follow blue``; a sheet points to an
earlier round's line too (``blue-2 was played already in round 1 (line 3)``).

A refusal about a round starts with ``round N:`` (its ``round`` fact); one about the cards left
(``round`` None), with ``left:``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.core.board import cell_name
from solver.game.state import IllegalAction

LineOf = Callable[[int], int]  # a sheet's line of a round: an earlier round is pointed to by it too


def _cards(cards: Sequence[Any]) -> str:
    return ", ".join(map(str, cards)) or "no piece"


def _result(result: str | None) -> str:
    return (result or "not ended").replace("_", " ")


def _skill(skill: str | None) -> str:
    return skill.replace("_", " ") if skill else "no skill"


_WHY_NOT = {"not_in_mode": "a {mode} game does not have", "no_counters": "needs a skill counter, and none is left",
            "colours_differ": "needs the cards revealed all of one colour"}


def sentence(e: IllegalAction, names: Sequence[str], line_of: LineOf | None = None) -> tuple[str, str]:
    """The refusal ``e`` as (the problem, the fix), the seats called by ``names``, an earlier round
    with its line where ``line_of`` is given (a sheet)."""
    f = e.facts

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) and names[seat] else f"player {seat + 1}"

    def where(rnd: int) -> str:
        return f"round {rnd}" + (f" (line {line_of(rnd)})" if line_of is not None else "")

    problem, fix = _said(e.code, f, name, where)
    if problem is None:  # a code no recorded game raises (an engine's own refusal): its own words
        problem, fix = str(e), "undo it and enter what was played"
    if "round" not in f:
        return problem, fix
    return (f"round {f['round']}: " if f["round"] is not None else "left: ") + problem, fix


Said = tuple[str | None, str]


def _said(code: str, f: dict[str, Any], name: Callable[[int], str], where: Callable[[int], str]) -> Said:
    if code == "must_follow":
        return (f"{name(f['seat'])} played {f['card']} but held {f['held']}: must follow {f['led']}",
                f"correct {f['card']}, or {f['held']} (revealed later, or among the cards left)")
    if code == "not_leader":
        if f.get("held") is not None:
            return (f"{name(f['leader'])} held {f['held']} and leads round 1, not {name(f['seat'])}",
                    f"the holder of {f['held']} plays the first card: correct who leads, or the cards")
        why = "the holder of purple-8 leads round 1" if f["round"] == 1 else "the winner of the last trick leads"
        return f"{name(f['leader'])} plays next, not {name(f['seat'])} ({why})", "correct the order of the plays"
    if code == "not_your_turn":
        return (f"{name(f['leader'])} plays next, not {name(f['seat'])} (play goes clockwise)",
                "correct the order of the plays")
    if code == "card_removed":
        return f"{f['card']} is out of the game with {f['players']} players", "correct the card"
    if code == "card_gone":
        fix = "each card is played or held once: correct the card"
        if "played_in" in f:
            if f["round"] is None:
                return f"{name(f['seat'])} still holds {f['card']}, but it was played in {where(f['played_in'])}", fix
            return f"{name(f['seat'])} played {f['card']}, which was played already in {where(f['played_in'])}", fix
        if f["kept_by"] == f["seat"] and f["round"] is None:
            return f"{name(f['seat'])} holds {f['card']} twice", fix
        if f["round"] is None:
            return f"{name(f['seat'])} holds {f['card']}, but so does {name(f['kept_by'])}", fix
        return f"{name(f['seat'])} played {f['card']}, but {name(f['kept_by'])} still holds it at the end", fix
    if code == "hand_count":
        return (f"{name(f['seat'])} played {f['played']} card(s) and holds {f['held']}: a {f['players']}-player "
                f"{f['mode']} game deals {f['hand_size']} to each", "correct the cards played or the cards left")
    if code in ("wrong_selection", "skill_not_allowed"):
        trick = f"{f['decision']} wins the trick ({name(f['seat'])} in charge): {_cards(f['pieces'])}"
        fix = "choose a selection the rules allow (a skill is read from the pieces placed)"
        if code == "skill_not_allowed":
            return f"{trick} is the skill {_skill(f['skill'])}, which {_WHY_NOT[f['why']].format(**f)}", fix
        offered = "; ".join(f"{_skill(s)}: {', '.join(map(str, p)) or 'nothing'}" for s, p in f["offered"])
        return f"{trick} is no selection the rules allow ({offered})", fix
    if code == "wrong_phase":
        return _out_of_turn(f, name), "enter the round in its order: the cards, the selection, the placements"
    if code == "game_over":
        return (f"the game ended after round {f['rounds']} ({_result(f['result'])})",
                "nothing is played after the end: enter the cards each person still holds")
    if code == "wrong_piece":
        return f"{f['card']} is not the piece to place now ({f['piece']} is)", "place the piece selected"
    if code == "not_its_shape":
        cells = " ".join(cell_name(c) for c in sorted(f["cells"]))
        return (f"the cells of {f['piece']} ({cells}) are not its shape ({f['shape']}) in any rotation or "
                "reflection", "correct the cells")
    if code == "placement_illegal":
        cells = " ".join(cell_name(c) for c in sorted(f["cells"]))
        return f"{name(f['seat'])} cannot place {f['piece']} at {cells}: {f['rule']}", "correct the cells"
    if code == "no_option":
        return (f"{name(f['seat'])} has no selection {f['option']} (the rules offer {f['options']})",
                "choose a selection the rules allow")
    if code == "no_position":
        return f"{f['piece']} has no position {f['position']}", "correct the cells"
    if code == "not_in_hand":
        return f"{name(f['seat'])} does not hold {f['card']}", "correct the card"
    if code == "must_place":
        return (f"{f['piece']} fits on the board ({f['places']} place(s)), so it must be placed",
                f"give the cells where {f['piece']} was placed")
    return None, ""


def _out_of_turn(f: dict[str, Any], name: Callable[[int], str]) -> str:
    action, phase = f["action"], f["phase"]
    if action == "reveal":
        return (f"{f['card']} is revealed, but the trick is complete: {name(f['seat'])} selects and places first"
                if phase in ("select", "place") else f"{f['card']} is revealed, but the game is over")
    if action == "select":
        return "no selection now: the trick is not complete" if phase == "reveal" else \
            f"no selection now: {f['piece']} is to be placed first"
    if phase == "reveal":
        return f"{f['card']} is placed, but the round is over"
    return f"{f['card']} is placed, but no selection is made yet"
