"""What a seat at a table is sent: ``seat_view`` builds it from that seat's ``Observation`` only
(its own hand, the public cards, the board, the counters), the question it must answer now and the
public facts of whose turn it is and how the game ended, so no other hand or set-aside card can
reach a seat."""

from __future__ import annotations

from typing import Any

from solver.core.cards import ALL_CARDS
from solver.game.actions import Phase
from solver.game.state import Observation, decision_card
from solver.io.missionwrite import board_json, board_rows
from solver.play.question import Question, seat_name


def seat_view(obs: Observation, q: Question | None, to_act: int, result: dict | None, game: dict) -> dict:
    """A seat's document (seat, round, hand, question, result, and what the page draws), built
    from the seat's observation only."""
    me = obs.seat
    m = obs.mission
    in_charge = None
    if obs.phase in (Phase.SELECT, Phase.PLACE) or (obs.trick and len(obs.trick) == obs.spec.players):
        in_charge = decision_card(obs.trick, obs.trump)[0]
    names = {int(k): str(v) for k, v in (game.get("names") or {}).items()}  # the table's names, public
    moves = []
    for r in obs.history:
        moves += _round_moves(r.round, r.plays, r.in_charge, r.skill, r.pieces, r.placements, me, names)
    skill = obs.options[obs.option].skill if obs.option >= 0 else None  # this round's, once chosen
    moves += _round_moves(obs.round, obs.trick, in_charge, skill, (), obs.placed, me, names)
    last: list[str] = []  # the cells of the last piece placed (this round's, else the last round's)
    for placements in [r.placements for r in obs.history] + [obs.placed]:
        if placements:
            last = placements[-1].cell_names()
    return {
        "game": game["id"], "seat": me, "players": obs.spec.players, "human": game["human"],
        "policy": game["policy"],
        "mission": {"id": m.id, "name": m.name, "mode": m.mode, "clear": "all" if m.clear_all else m.clear,
                    "needed": m.clear, "rounds": obs.spec.rounds, "board": board_rows(m),
                    "placed": [p.to_json() for p in m.placed]},
        "round": obs.round, "rounds": obs.spec.rounds, "trump": str(obs.trump),
        "lead": None if obs.lead is None else str(obs.lead), "start_player": obs.start_player,
        "hand": [str(c) for c in obs.hand], "hand_sizes": list(obs.hand_sizes),
        "trick": [{"player": p, "card": str(c)} for p, c in obs.trick],
        # the last round's cards, shown until this round's first card (what the table still sees)
        "last_trick": [{"player": p, "card": str(c)} for p, c in obs.history[-1].plays] if obs.history else [],
        "last_in_charge": obs.history[-1].in_charge if obs.history else None,
        "in_charge": in_charge, "to_act": None if to_act < 0 else to_act,
        "skills_left": obs.skills_left, "scanned": obs.board.scanned(),
        "pieces": [p.to_json() for p in obs.board.pieces.values()], "last": last, "state": board_json(obs.board),
        "shapes": {str(c): obs.catalog[c].format() for c in ALL_CARDS},  # the game's catalog: public
        "moves": moves,
        "question": None if q is None else question_json(q, names.get(me)),
        "result": result,
    }


def _round_moves(rnd, plays, in_charge, skill, pieces, placements, me, names=None) -> list[dict]:
    out = [{"round": rnd, "seat": p, "text": f"{seat_name(p, me, names)} revealed {c}"} for p, c in plays]
    if in_charge is not None and len(plays):
        if skill is not None and skill.json:
            out.append({"round": rnd, "seat": in_charge,
                        "text": f"{seat_name(in_charge, me, names)} used the skill {skill.json.replace('_', ' ')}"})
        for p in placements:
            out.append({"round": rnd, "seat": in_charge,
                        "text": f"{seat_name(in_charge, me, names)} placed {p.card} at {' '.join(p.cell_names())}"})
        if len(pieces) > len(placements):
            out.append({"round": rnd, "seat": in_charge, "text": f"{pieces[-1]} fits nowhere"})
    return out


def question_json(q: Question, name: str | None = None) -> dict:
    """A question as the page shows it (``name``: the seat's name, said in the prompt for "player N")."""
    obs = q.obs
    prompt = q.prompt.replace(f"you (player {obs.seat})", f"you ({name})") if name else q.prompt
    doc: dict[str, Any] = {"kind": q.kind, "prompt": prompt, "choices": list(q.choices), "help": q.help}
    if q.kind == "card":
        doc["cards"] = [str(a.card) for a in q.actions]
    elif q.kind == "select":
        doc["pieces"] = [[str(c) for c in obs.options[a.index].pieces] for a in q.actions]
    else:
        doc["piece"] = str(obs.piece)
        doc["placements"] = [p.cell_names() for p in q.placements]
        doc["legal_places"] = len(obs.legal)
        doc["legal"] = [p.cell_names() for p in obs.placements()]  # every legal place, for tap-to-place
    return doc
