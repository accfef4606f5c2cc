"""An independent referee for game logs (JSON Lines, as docs/logs.md describes them): replays every rule.

It shares only the rules module's board (placement legality and scanning) with
the engines; the card rules are written out again here on purpose, as a check.
"""

from __future__ import annotations

from solver.core.cards import ALL_CARDS, Card
from solver.core.rules import Board, Placement

COLOURS = ["red", "yellow", "green", "blue", "purple"]


def colour(name):
    return name.split("-")[0]


def value(name):
    return int(name.split("-")[1])


def referee(events, mission, catalog):
    setup, rounds, end = events[0], events[1:-1], events[-1]
    assert setup["event"] == "setup" and end["event"] == "end"
    players = setup["players"]
    hands = [list(h) for h in setup["hands"]]
    everything = sorted(c for h in hands for c in h) + setup["set_aside"] + setup["removed"]
    assert sorted(everything) == sorted(str(c) for c in ALL_CARDS)
    if mission.mode == "buddy":
        assert players == 2 and len(setup["set_aside"]) == 8 and all(len(h) == 16 for h in hands)
        assert setup["removed"] == []
    elif players == 3:
        assert setup["removed"] == ["purple-1"] and all(len(h) == 13 for h in hands) and not setup["set_aside"]
    else:
        assert players == 4 and all(len(h) == 10 for h in hands) and not setup["set_aside"] and not setup["removed"]
    holders = [k for k in range(players) if "purple-8" in hands[k]]
    if holders:
        assert setup["start_player"] == holders[0]
    else:
        assert mission.mode == "buddy" and "purple-8" in setup["set_aside"]
    board = Board.start(mission)
    start = setup["start_player"]
    trump = "purple"
    skills = mission.skills
    result = None
    for i, r in enumerate(rounds, start=1):
        assert result is None, "a round after the game ended"
        assert r["round"] == i and r["start_player"] == start and r["trump"] == trump
        order = [start, 1 - start, start, 1 - start] if mission.mode == "buddy" else \
            [(start + k) % players for k in range(players)]
        assert [p["player"] for p in r["plays"]] == order
        lead = colour(r["plays"][0]["card"])
        for p in r["plays"]:
            hand = hands[p["player"]]
            assert p["card"] in hand
            if p is not r["plays"][0] and any(colour(c) == lead for c in hand):
                assert colour(p["card"]) == lead, f"must follow broken in round {i}"
            hand.remove(p["card"])
        cards = [p["card"] for p in r["plays"]]
        trumps = [c for c in cards if colour(c) == trump]
        decision = max(trumps or [c for c in cards if colour(c) == lead], key=value)
        assert r["decision"] == decision
        assert r["in_charge"] == r["plays"][cards.index(decision)]["player"]
        used = {str(c) for c in board.pieces}
        skill = r["skill"]
        if skill is None:
            expected = [] if decision in used else [decision]
            assert r["pieces"][: len(expected)] == expected[: len(r["pieces"])]
        else:
            assert skills > 0
            skills -= 1
            if skill == "double_scan":
                assert len({colour(c) for c in cards}) == 1
                lowest = min(cards, key=value)
                assert lowest not in used
                full = [[decision, lowest], [lowest, decision]] if decision not in used else [[lowest]]
                assert any(r["pieces"] == f[: len(r["pieces"])] and len(r["pieces"]) >= min(1, len(f)) for f in full)
                if len(r["pieces"]) < len(full[0]):
                    assert len(r["placements"]) < len(r["pieces"])  # cut short only by an unplaceable piece
            elif skill == "wild_color":
                assert mission.mode == "buddy" and len(r["pieces"]) == 1
                assert value(r["pieces"][0]) == value(decision) and colour(r["pieces"][0]) != colour(decision)
            elif skill == "shift_change":
                assert mission.mode == "buddy" and len(r["pieces"]) == 1
                assert colour(r["pieces"][0]) == colour(decision) and abs(value(r["pieces"][0]) - value(decision)) == 1
            else:
                raise AssertionError(f"unknown skill {skill}")
        assert r["skills_left"] == skills
        assert not set(r["pieces"]) & used, "a used piece was selected"
        for k, piece in enumerate(r["pieces"]):
            card = Card.parse(piece)
            if k < len(r["placements"]):
                pl = r["placements"][k]
                assert pl["piece"] == piece
                board.place(Placement.parse(piece, pl["cells"]), catalog[card])  # raises if illegal
            else:
                assert board.legal_placements(card, catalog[card]) == [], "gave up on a placeable piece"
                assert k == len(r["pieces"]) - 1
                result = "unplaceable"
        assert r["scanned"] == board.scanned()
        if result is None:
            if len(board.scanned()) >= mission.clear:
                result = "cleared"
            elif i == mission.rounds:
                result = "rounds_exhausted"
        trump = colour(decision)
        start = r["in_charge"]
    assert end["result"] == result and end["rounds_played"] == len(rounds) and end["scanned"] == board.scanned()
    return result
