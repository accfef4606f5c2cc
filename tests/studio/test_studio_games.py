"""The studio's table (`/api/games`, `/api/review`, as docs/studio.md says): whole games played through the API by
each human-seat layout, every response checked against the true deal; tokens; wrong answers;
the log only after the end, refereed; a studio started again continues the game."""

from __future__ import annotations

import json
import random
import re
import sqlite3

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")

from solver.cli import main
from solver.game.advice import ranked_actions
from solver.game.rng import SplitMix64
from solver.game.roster import make_policy
from solver.play.question import question
from solver.play.seatview import seat_view
from tests.helpers.client import client_for, game_of, job_ended, start
from tests.helpers.referee import referee

CARD = re.compile(r"\b(red|yellow|green|blue|purple)-[1-8]\b")


@pytest.fixture
def folder(tmp_path):
    return tmp_path


def public_cards_named(doc) -> set[str]:
    """The cards a seat's document names as cards (its hand, the trick, the moves revealed); the
    pieces it names (a wild colour's, those on the board) are pieces, not cards."""
    moves = " ".join(m["text"] for m in doc["moves"] if " revealed " in m["text"])
    text = json.dumps([doc["hand"], doc["trick"]]) + moves
    return {m.group(0) for m in CARD.finditer(text)}


def sees_only_its_own(game, seat, doc, rng) -> None:
    """The document the seat got is what it would get with every card it has not seen dealt
    otherwise (the other hands and the set-aside cards shuffled among themselves), and names as
    cards only its own hand and the cards revealed."""
    st = game.state.clone()
    hidden = [c for k, h in enumerate(st.hands) if k != seat for c in h] + list(st.set_aside)
    rng.shuffle(hidden)
    at = 0
    for k in range(st.players):
        if k != seat:
            n = len(st.hands[k])
            st.hands[k] = sorted(hidden[at:at + n])
            at += n
    st.set_aside = sorted(hidden[at:])
    obs = st.observation(seat)
    q = None
    if doc["question"] is not None:
        advisor = make_policy(game.setup.policy, game.setup.samples or 16)
        q = question(obs, ranked_actions(advisor, obs, SplitMix64(st.seat_rngs[seat].state)))
    redealt = seat_view(obs, q, st.current_player(), game.result(), game.public_summary())
    redealt.update({"players": game.players_json(), "thinking": False, "play_forced": game.forced_for(seat)})
    if q is not None:
        redealt["question"]["id"] = game.question_id()
    assert json.loads(json.dumps(redealt)) == doc
    revealed = {str(c) for _, c in st.trick} | {str(c) for r in st.history for _, c in r.plays}
    assert public_cards_named(doc) <= {str(c) for c in game.state.hands[seat]} | revealed


def play_through(client, game_id, seats, tokens, rng, by_cells_every=3):
    """Answer every question of the human seats until the game ends; every document a seat gets
    holds no card it has not seen. Returns the number of answers."""
    answers = 0
    for _ in range(400):
        progressed = False
        for seat in seats:
            url = f"/api/games/{game_id}/seats/{seat}?token={tokens[seat]}"
            game = game_of(client, game_id)
            res = client.get(url)
            assert res.status_code == 200, res.text
            doc = res.json()
            sees_only_its_own(game, seat, doc, rng)
            assert doc["seat"] == seat and doc["round"] >= 1 and isinstance(doc["hand"], list)
            assert doc["hand"] == [str(c) for c in game.state.hands[seat]]
            if doc["result"] is not None:
                return answers
            q = doc["question"]
            if q is None:
                continue
            assert q["choices"] and q["prompt"]
            if q["kind"] == "place" and answers % by_cells_every == 0:
                body = {"cells": q["placements"][-1]}  # a placement by its cells
            else:
                body = {"choice": rng.randint(1, len(q["choices"])) if rng.random() < 0.3 else 1}
            res = client.post(url, json=body)
            assert res.status_code == 200, res.text
            after = res.json()
            if not after["thinking"]:  # the answer's document, if the game stood still after it
                sees_only_its_own(game, seat, after, rng)
            answers += 1
            progressed = True
        if not progressed:
            game = game_of(client, game_id)
            assert game.result() is not None or game.pending is not None
    raise AssertionError("the game did not end")


def test_a_buddy_game_played_through_the_api_against_the_planner(folder, catalog):
    client = client_for(folder)
    gid, tokens, doc = start(client, mission="b05", human=[0], policy="planner", seed=3, game=1)
    assert [s["seat"] for s in doc["seats"]] == [0]
    assert doc["seats"][0]["url"].startswith("http") and f"token={tokens[0]}" in doc["seats"][0]["url"]
    assert client.get(f"/api/games/{gid}/log").status_code == 409  # it holds every hand: not before the end
    answers = play_through(client, gid, [0], tokens, random.Random(1))
    assert answers >= 1
    res = client.get(f"/api/games/{gid}/log")
    assert res.status_code == 200
    events = [json.loads(line) for line in res.text.splitlines()]
    assert events[0]["format"] == 2 and events[0]["human"] == [0] and events[0]["policy"] == "planner"
    game = game_of(client, gid)
    assert referee(events, game.mission, game.catalog) == events[-1]["result"]
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["result"] == events[-1]["result"] and listed[gid]["human"] == [0]
    # the file in the games folder is the log served
    assert (folder / "games" / f"{gid}.jsonl").read_text() == res.text
    # continued from its last round by `play --from`, the rounds before it come back unchanged
    log = folder / "games" / f"{gid}.jsonl"
    last = events[-1]["rounds_played"]
    again = folder / "again.jsonl"
    out = CliRunner().invoke(main, ["play", "--from", str(log), "--round", str(last), "--policy", "planner",
                                    "--seed", "3", "--game", "1", "--log", str(again)])
    assert out.exit_code in (0, 1), out.output
    replayed = [json.loads(line) for line in again.read_text().splitlines()]
    assert events[0]["names"] == {"1": "bot (planner)"}  # the studio's log says who played: here a bot
    assert replayed[1:last] == events[1:last]
    assert replayed[0] == {k: v for k, v in events[0].items() if k != "names"}  # the bots play on, unnamed


def test_a_party_game_with_two_people_each_on_their_own_seat(folder):
    client = client_for(folder)
    gid, tokens, _ = start(client, mission="p03", players=3, human=[0, 2], policy="heuristic", seed=5, game=2)
    assert set(tokens) == {0, 2} and tokens[0] != tokens[2]
    play_through(client, gid, [0, 2], tokens, random.Random(2))
    # a seat's token opens that seat only
    assert client.get(f"/api/games/{gid}/seats/2?token={tokens[0]}").status_code == 403
    assert client.get(f"/api/games/{gid}/seats/1?token={tokens[0]}").status_code == 403  # a bot's seat
    events = [json.loads(line) for line in client.get(f"/api/games/{gid}/log").text.splitlines()]
    game = game_of(client, gid)
    assert events[0]["human"] == [0, 2] and referee(events, game.mission, game.catalog) == events[-1]["result"]


def test_a_game_of_bots_only_is_the_game_kakapo_play_plays(folder, tmp_path):
    client = client_for(folder)
    gid, _, doc = start(client, mission="b07", human=[], policy="heuristic", seed=4, game=3)
    assert doc["seats"] == [] and doc["known_deal"] is True
    game_of(client, gid)
    studio_log = client.get(f"/api/games/{gid}/log").text
    cli_log = tmp_path / "cli.jsonl"
    out = CliRunner().invoke(main, ["play", "b07", "--policy", "heuristic", "--seed", "4", "--game", "3",
                                    "--log", str(cli_log)])
    assert out.exit_code in (0, 1), out.output
    studio = [json.loads(x) for x in studio_log.splitlines()]
    assert studio[0].pop("names") == {"0": "bot (heuristic)", "1": "bot (heuristic)"}  # the studio says who played
    assert studio == [json.loads(x) for x in cli_log.read_text().splitlines()]


def test_tokens_wrong_answers_and_bad_requests(folder):
    client = client_for(folder)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner", seed=1, game=0)
    base = f"/api/games/{gid}/seats/0"
    assert client.get(base).status_code == 403
    assert client.get(f"{base}?token=nope").status_code == 403
    assert client.post(f"{base}?token=nope", json={"choice": 1}).status_code == 403
    game_of(client, gid)
    doc = client.get(f"{base}?token={tokens[0]}").json()
    q = doc["question"]
    for body in ({"choice": 0}, {"choice": len(q["choices"]) + 1}, {"choice": 1, "cells": ["a1"]}, {"cells": ["a1"]},
                 {"choice": "x"}, {"extra": 1}):
        res = client.post(f"{base}?token={tokens[0]}", json=body)
        assert res.status_code == 422, (body, res.text)
        assert "Traceback" not in res.text and set(res.json()) == {"error"}
    assert client.get(f"{base}?token={tokens[0]}").json()["question"] == q  # the question stays
    assert client.get("/api/games/nosuch/seats/0?token=x").status_code == 404
    for body in ({"mission": "b05", "human": [2]}, {"mission": "b05", "human": [0, 0]}, {"mission": "zz9"},
                 {"human": [0]}, {"mission": "b05", "text": "x"}, {"mission": "b05", "policy": "open-hand"},
                 {"mission": "b05", "players": 3}, {"text": "name = "}):
        res = client.post("/api/games", json=body)
        assert res.status_code in (404, 422), (body, res.text)
        assert set(res.json()) == {"error"}


def test_the_same_links_continue_after_the_studio_starts_again(folder):
    client = client_for(folder)
    gid, tokens, _ = start(client, mission="p05", players=4, human=[1], policy="planner", seed=2, game=0)
    url = f"/api/games/{gid}/seats/1?token={tokens[1]}"
    for _ in range(5):
        game_of(client, gid)
        q = client.get(url).json()["question"]
        if q is None:
            break
        assert client.post(url, json={"choice": len(q["choices"])}).status_code == 200
    game = game_of(client, gid)
    before = client.get(url).json()
    trace = game.state.trace
    again = client_for(folder)  # a new studio on the same folder
    assert gid in {g["id"] for g in again.get("/api/games").json()}
    game_of(again, gid)
    assert again.get(url).json() == before
    assert again.ctx.table.live(gid).game.state.trace == trace
    play_through(again, gid, [1], tokens, random.Random(3))
    assert again.get(f"/api/games/{gid}/log").status_code == 200


def test_a_damaged_game_is_listed_with_its_reason_and_its_log_kept_never_a_crash(folder):
    client = client_for(folder)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner", seed=1, game=0)
    url = f"/api/games/{gid}/seats/0?token={tokens[0]}"
    game_of(client, gid)
    assert client.post(url, json={"choice": 1}).status_code == 200
    game_of(client, gid)
    other, other_tokens, _ = start(client, mission="b05", human=[0], policy="planner")
    game_of(client, other)
    db = sqlite3.connect(client.ctx.store.path)
    db.execute("UPDATE moves SET action = 99999 WHERE game_id = ? AND n = 1", (gid,))  # a move no rule allows
    db.execute("UPDATE games SET humans = ? WHERE id = ?", ("[" * 100_000, other))  # deeply nested
    db.commit()
    db.close()
    again = client_for(folder)
    res = again.get("/api/games")
    assert res.status_code == 200, res.text
    listed = {g["id"]: g for g in res.json()}
    assert "move 1" in listed[gid]["broken"] and "damaged" in listed[other]["broken"]
    assert again.get(url).status_code == 409 and "cannot go on" in again.get(url).json()["error"]["message"]
    log = again.get(f"/api/games/{gid}/log")
    assert log.status_code == 200 and log.text.startswith('{"event": "setup"')  # the log as it stood
    assert again.get(f"/api/games/{other}/seats/0?token={other_tokens[0]}").status_code == 409


@pytest.mark.slow
def test_the_review_of_a_log_is_kakapo_reviews(folder, tmp_path):
    client = client_for(folder)
    log = tmp_path / "g.jsonl"
    out = CliRunner().invoke(main, ["play", "b03", "--policy", "heuristic", "--seed", "2", "--log", str(log)])
    assert out.exit_code in (0, 1)
    cli = json.loads(CliRunner().invoke(main, ["review", str(log), "--json"]).stdout)
    res = client.post("/api/review", json={"log": log.read_text()})
    assert res.status_code == 200, res.text
    doc = res.json()
    cli.pop("seconds"), doc.pop("seconds")
    assert doc == cli
    bad = client.post("/api/review", json={"log": '{"event": "round"}'})
    assert bad.status_code == 422 and "line 1" in bad.json()["error"]["message"]


def test_a_seats_moves_only_grow_so_the_page_can_show_them_one_at_a_time(folder):
    client = client_for(folder)
    for mid, players, human in (("p03", 3, [0, 2]), ("b12", 2, [1])):
        gid, tokens, _ = start(client, mission=mid, players=players, human=human, policy="heuristic", seed=2, game=1)
        seen = {h: [] for h in human}
        while True:
            g = game_of(client, gid)
            for h in human:
                moves = client.get(f"/api/games/{gid}/seats/{h}?token={tokens[h]}").json()["moves"]
                assert moves[:len(seen[h])] == seen[h]
                seen[h] = moves
            if g.result() is not None:
                break
            seat = g.pending_seat
            assert client.post(f"/api/games/{gid}/seats/{seat}?token={tokens[seat]}", json={"choice": 1}).status_code \
                == 200
        assert len(seen[human[0]]) >= g.state.rounds_played() * players


def test_on_every_address_the_table_reaches_this_machine_and_nothing_else():
    from solver.studio.security import Guard, local_addresses

    guard = Guard(None)
    guard.allow("0.0.0.0", 8765)
    assert {"127.0.0.1:8765", "localhost:8765"} <= guard.hosts
    assert all(f"{a}:8765" in guard.hosts for a in local_addresses())
    assert "evil.example:8765" not in guard.hosts and "0.0.0.0:8766" not in guard.hosts
    loop = Guard(None)
    loop.allow("127.0.0.1", 8765)
    assert not any(f"{a}:8765" in loop.hosts for a in local_addresses())


def test_rating_the_folders_table_needs_finished_games(folder):
    client = client_for(folder)
    res = client.post("/api/jobs", json={"kind": "rate"})
    assert res.status_code == 422 and "no finished game" in res.json()["error"]["message"]
    res = client.post("/api/jobs", json={"kind": "rate", "logs": ["nosuch"]})
    assert res.status_code == 422


@pytest.mark.slow
def test_the_folders_table_rated_as_kakapo_rate_rates_it(folder):
    client = client_for(folder)
    ids = []
    for game in (0, 1):
        gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner", seed=1, game=game)
        play_through(client, gid, [0], tokens, random.Random(game))
        ids.append(gid)
    with client:
        state = job_ended(client, client.post("/api/jobs", json={"kind": "rate"}).json()["id"])
    assert state["state"] == "done", state
    doc = state["result"]
    paths = [str(folder / "games" / f"{i}.jsonl") for i in sorted(ids)]
    cli = json.loads(CliRunner().invoke(main, ["rate", *paths, "--json", "--workers", "1"]).stdout)
    assert doc["rungs"] == cli["rungs"] and doc["best"] == cli["best"] and doc["seats"] == [0]
    assert {p["mission"] for p in doc["predictions"]} >= {"b01", "b20", "p01", "p20"}
