"""Brute-force open-hand answer for missions of one or two rounds, to check the deal solver.

Every legal trick (all card orders allowed by must-follow) and every selection option is
enumerated with the reference card rules of solver/game/state.py; a sequence clears when
the selected pieces can all lie on the board at once while scanning enough birds, which is
decided exactly by ``plan.arrange`` (memoised per set of pieces)."""

from __future__ import annotations

from solver.game.state import decision_card, legal_cards, selection_options
from solver.openhand.plan import arrange


def tricks(hands, start, mode, players):
    order = [start, 1 - start, start, 1 - start] if mode == "buddy" else [(start + k) % players for k in range(players)]

    def rec(i, trick, hands):
        if i == len(order):
            yield list(trick), hands
            return
        seat = order[i]
        lead = trick[0][1].colour if trick else None
        for c in legal_cards(hands[seat], lead):
            nh = list(hands)
            nh[seat] = [x for x in hands[seat] if x != c]
            yield from rec(i + 1, [*trick, (seat, c)], nh)

    yield from rec(0, [], hands)


class Board0:
    """Stands in for the board in selection_options: only which pieces are used matters."""

    def __init__(self, used):
        self.used = used

    def is_used(self, card):
        return card in self.used


def clearable(state, catalog) -> bool:
    mission = state.mission
    pre = {p.card for p in mission.placed}
    memo: dict[frozenset, bool] = {}

    def fits(selected) -> bool:
        key = frozenset(selected)
        if key not in memo:
            r = arrange(mission, catalog, list(selected), time_limit=30)
            assert r != "unknown"
            memo[key] = r is not None
        return memo[key]

    def rec(rnd, hands, start, trump, skills, selected) -> bool:
        if rnd > mission.rounds:
            return False
        for trick, nh in tricks(hands, start, mission.mode, state.players):
            in_charge, decision = decision_card(trick, trump)
            for o in selection_options(state.spec, Board0(pre | set(selected)), trick, decision, skills):
                sel = selected + list(o.pieces)
                if fits(sel):
                    return True
                if rec(rnd + 1, nh, in_charge, decision.colour, skills - (1 if o.skill else 0), sel):
                    return True
        return False

    return rec(1, [list(h) for h in state.hands], state.start_player, state.spec.trump_round_one, mission.skills, [])
