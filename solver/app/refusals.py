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


PEOPLE = ("seat", "leader", "by", "kept_by")  # the facts that are seats: said as the person's name
ONCE = "each card is played or held once: correct the card"
SELECT = "choose a selection the rules allow (a skill is read from the pieces placed)"
ORDER = "enter the round in its order: the cards, the selection, the placements"

# each code's sentence and fix, over its facts (a code with variants: its variant's key, ``said_key``)
SAID: dict[str, tuple[str, str]] = {
    "must_follow": ("{seat} played {card} but held {held}: must follow {led}",
                    "correct {card}, or {held} (revealed later, or among the cards left)"),
    "not_leader held": ("{leader} held {held} and leads round 1, not {seat}",
                        "the holder of {held} plays the first card: correct who leads, or the cards"),
    "not_leader first": ("{leader} plays next, not {seat} (the holder of purple-8 leads round 1)",
                         "correct the order of the plays"),
    "not_leader": ("{leader} plays next, not {seat} (the winner of the last trick leads)",
                   "correct the order of the plays"),
    "not_your_turn": ("{leader} plays next, not {seat} (play goes clockwise)", "correct the order of the plays"),
    "card_removed": ("{card} is out of the game with {players} players", "correct the card"),
    "card_gone": ("{seat} played {card}, which was played already in {played_in}", ONCE),
    "card_gone left": ("{seat} still holds {card}, but it was played in {played_in}", ONCE),
    "card_gone twice": ("{seat} holds {card} twice", ONCE),
    "card_gone kept": ("{seat} holds {card}, but so does {kept_by}", ONCE),
    "card_gone kept later": ("{seat} played {card}, but {kept_by} still holds it at the end", ONCE),
    "hand_count": ("{seat} played {played} card(s) and holds {held}: a {players}-player {mode} game deals "
                   "{hand_size} to each", "correct the cards played or the cards left"),
    "wrong_selection": ("{decision} wins the trick ({seat} in charge): {pieces} is no selection the rules allow "
                        "({offered})", SELECT),
    "skill_not_allowed": ("{decision} wins the trick ({seat} in charge): {pieces} is the skill {skill}, which "
                          "{why}", SELECT),
    "wrong_phase reveal": ("{card} is revealed, but the trick is complete: {seat} selects and places first",
                           ORDER),
    "wrong_phase select": ("no selection now: the trick is not complete ({seat} plays next)", ORDER),
    "wrong_phase select place": ("no selection now: {seat} places {piece} first", ORDER),
    "wrong_phase place": ("{card} is placed, but the round is over ({seat} plays next)", ORDER),
    "wrong_phase place select": ("{card} is placed, but {seat} has not selected the pieces yet", ORDER),
    "game_over": ("the game ended after round {rounds} ({result})",
                  "nothing is played after the end: enter the cards each person still holds"),
    "wrong_piece": ("{card} is not the piece to place now ({seat} places {piece})", "place the piece selected"),
    "not_its_shape": ("the cells of {piece} ({cells}) are not its shape ({shape}) in any rotation or reflection",
                      "correct the cells"),
    "placement_illegal": ("{seat} cannot place {piece} at {cells}: {rule}", "correct the cells"),
    "must_place": ("{piece} fits on the board ({places} place(s)), so {seat} must place it",
                   "give the cells where {piece} was placed"),
    "no_option": ("{seat} has no selection {option} (the rules offer {options})", "choose a selection the rules allow"),
    "no_position": ("{piece} has no position {position}", "correct the cells"),
    "not_in_hand": ("{seat} does not hold {card}", "correct the card"),
}

WHY_NOT = {"not_in_mode": "a {mode} game does not have", "no_counters": "needs a skill counter, and none is left",
           "colours_differ": "needs the cards revealed all of one colour"}


def sentence(e: IllegalAction, names: Sequence[str], line_of: LineOf | None = None) -> tuple[str, str]:
    """The refusal ``e`` as (the problem, the fix), the seats called by ``names``, an earlier round
    with its line where ``line_of`` is given (a sheet)."""
    f = e.facts
    said = SAID.get(said_key(e.code, f))
    if said is None:  # a code no recorded game raises (an engine's own refusal): its own words
        return str(e), "undo it and enter what was played"
    words = {k: _word(k, v, names, line_of) for k, v in f.items()}
    if "why" in f:
        words["why"] = WHY_NOT[f["why"]].format(**words)
    problem, fix = (text.format(**words) for text in said)
    if "round" not in f:
        return problem, fix
    return (f"round {f['round']}: " if f["round"] is not None else "left: ") + problem, fix


def said_key(code: str, f: dict[str, Any]) -> str:
    """The key of the sentence ``code`` takes with facts ``f``."""
    if code == "not_leader":
        return "not_leader held" if f.get("held") is not None else "not_leader first" if f["round"] == 1 else code
    if code == "card_gone":
        if "played_in" in f:
            return code if f["round"] is not None else "card_gone left"
        if f["round"] is None:
            return "card_gone twice" if f["kept_by"] == f["seat"] else "card_gone kept"
        return "card_gone kept later"
    if code == "wrong_phase":  # a card while the round's pieces are chosen; a selection or a piece out of its turn
        later = {("select", "place"): " place", ("place", "select"): " select"}.get((f["action"], f["phase"]), "")
        return f"wrong_phase {f['action']}{later}"
    return code


def _word(key: str, value: Any, names: Sequence[str], line_of: LineOf | None) -> str:
    """A fact as the sentence says it: a seat by its person's name, an earlier round with its line,
    cells by their names, a skill and a result in words."""
    if key in PEOPLE and isinstance(value, int):
        return names[value] if 0 <= value < len(names) and names[value] else f"player {value + 1}"
    if key == "played_in":
        return f"round {value}" + (f" (line {line_of(value)})" if line_of is not None else "")
    if key == "cells":
        return " ".join(cell_name(c) for c in sorted(value))
    if key == "pieces":
        return ", ".join(map(str, value)) or "no piece"
    if key == "offered":
        return "; ".join(f"{_skill(s)}: {', '.join(map(str, p)) or 'nothing'}" for s, p in value)
    if key == "skill":
        return _skill(value)
    if key == "result":
        return (value or "not ended").replace("_", " ")
    return str(value)


def _skill(skill: str | None) -> str:
    return skill.replace("_", " ") if skill else "no skill"
