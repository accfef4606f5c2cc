"""The chance from my hand: the cards the asking seat holds are its own in every deal, only the
other unseen cards are dealt anew; a hand that cannot be held then is refused saying why."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.core.cards import Card
from solver.game.moment import deal_moment, moment_spec
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS

GONE = ["red-3", "red-7", "blue-2", "red-1"]  # two Buddy rounds


def test_my_hand_is_mine_in_every_deal_and_the_rest_is_dealt_anew(catalog):
    m = load_mission(MISSIONS / "buddy" / "b05.toml", catalog)
    spec, held = moment_spec(m, 2, [Card.parse(c) for c in GONE], None)
    assert held == 14
    out = set(spec.removed)  # the gone cards are out of the game
    mine = sorted(Card.parse(c) for c in ("red-2", "red-4", "red-5", "red-6", "red-8", "yellow-1", "yellow-2",
                                          "yellow-3", "green-1", "green-2", "blue-1", "blue-3", "purple-1",
                                          "purple-2"))
    others = set()
    for seed in range(20):
        state = deal_moment(m, catalog, spec, held, seed, mine)
        assert state.hands[0] == mine
        assert not set(state.hands[1]) & set(mine) and not set(state.set_aside) & set(mine)
        assert not set(state.hands[1]) & out
        others.add(tuple(state.hands[1]))
    assert len(others) == 20  # the other hand is dealt anew


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("hand,said", [
    ("red-2,red-4", "each hand holds 14 now"),
    ("red-3,red-2,red-4,red-5,red-6,red-8,yellow-1,yellow-2,yellow-3,green-1,green-2,blue-1,blue-3,purple-2",
     "red-3 is gone"),
    ("red-2,red-2", "named twice"),
    ("red-9", "--hand"),
])
def test_a_hand_that_cannot_be_held_is_refused(hand, said):
    res = run("chance", "b05", "--exclude", ",".join(GONE), "--rounds", 6, "--hand", hand, "--games", 2, "--json")
    assert res.exit_code == 2, res.output
    assert said in json.loads(res.stdout)["error"]["message"] + json.loads(res.stdout)["error"]["file"]


def test_the_chance_job_takes_my_hand(tmp_path):
    pytest.importorskip("fastapi")
    from tests.helpers.client import client_for

    client = client_for(tmp_path)
    text = (MISSIONS / "buddy" / "b05.toml").read_text()
    res = client.post("/api/jobs", json={"kind": "chance", "text": text, "name": "b05.toml", "players": 2,
                                         "games": 2, "seed": 1, "exclude": GONE, "rounds": 6, "hand": ["red-2"]})
    assert res.status_code == 422 and "each hand holds 14" in res.json()["error"]["message"]


def test_the_cli_says_the_hand_it_used():
    hand = "red-2,red-4,red-5,red-6,red-8,yellow-1,yellow-2,yellow-3,green-1,green-2,blue-1,blue-3,purple-1,purple-2"
    res = run("chance", "b05", "--exclude", ",".join(GONE), "--rounds", 6, "--hand", hand, "--games", 3, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["hand"] == sorted(hand.split(","), key=lambda c: Card.parse(c))
