"""Names stay with a table: a studio game's log names who played each seat (the people by their
names, each bot labelled), export and import keep them, the Tables list and `calibrate` group the
games by the people (never by a bot's label), a seat handed to a bot tells its old link so, and
the games list says who played."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
from solver.app.calibrating import find_tables
from solver.io.gamelog import parse_log, people_of
from tests.helpers.client import answer_first, client_for, game_of, play_to_end, start


def finished_game(client, names, human, policy="greedy", seed=3):
    gid, tokens, _ = start(client, mission="b05", human=human, policy=policy, seed=seed, game=0, names=names)
    play_to_end(client, gid, tokens)
    return gid


def test_a_studio_games_log_names_the_people_and_labels_the_bots(tmp_path):
    client = client_for(tmp_path)
    gid = finished_game(client, {"0": "Mia"}, [0])
    text = client.get(f"/api/games/{gid}/log").text
    setup = json.loads(text.splitlines()[0])
    assert setup["names"] == {"0": "Mia", "1": "bot (greedy)"} and setup["human"] == [0]
    log = parse_log(text, "x.jsonl")
    assert people_of(log) == {0: "Mia"}  # the bot's label is no person
    written = (tmp_path / "games" / f"{gid}.jsonl").read_text()
    assert json.loads(written.splitlines()[0])["names"] == setup["names"]
    # a person left unnamed is not named; a game of bots only names its bots
    unnamed = finished_game(client, {}, [0], seed=4)
    assert json.loads(client.get(f"/api/games/{unnamed}/log").text.splitlines()[0])["names"] == {"1": "bot (greedy)"}
    tables = {t["table"]: t["games"] for t in client.get("/api/tables").json()}
    assert tables == {"Mia": 1, "unnamed": 1}


def test_export_and_import_keep_the_names_and_learn_groups_by_them(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = client_for(tmp_path / "a")
    finished_game(a, {"0": "Mia"}, [0], seed=3)
    finished_game(a, {"0": "Mia"}, [0], seed=5)
    finished_game(a, {"0": "Ann", "1": "Ben"}, [0, 1], seed=6)
    exported = a.get("/api/games/export").text
    b = client_for(tmp_path / "b")
    got = b.post("/api/games/import", json={"text": exported}).json()
    assert len(got["imported"]) == 3 and got["refused"] == []
    rows = b.get("/api/games").json()
    assert sorted(sorted(g["names"].values()) for g in rows) == [["Ann", "Ben"], ["Mia"], ["Mia"]]
    # games/ holds each imported game's log once, as it holds the games played there
    written = sorted(p.stem for p in (tmp_path / "b" / "games").glob("*.jsonl"))
    assert written == sorted(g["id"] for g in rows)
    b.ctx.table.inbox.import_dropped()  # read again: none of them is taken for a game dropped there
    assert len(b.get("/api/games").json()) == 3
    assert {t["table"]: t["games"] for t in b.get("/api/tables").json()} == {"Mia": 2, "Ann, Ben": 1}
    # exported again from the second studio: the same names, the bots still labelled
    again = [json.loads(x) for x in b.get("/api/games/export").text.splitlines()]
    assert sorted(json.dumps(e["names"], sort_keys=True) for e in again if e["event"] == "setup") == sorted(
        json.dumps(e["names"], sort_keys=True) for e in map(json.loads, exported.splitlines()) if e["event"] == "setup")
    # calibrate's tables are the people's, whatever folder the logs lie in
    folder = tmp_path / "pooled"
    folder.mkdir()
    for k, g in enumerate(rows):
        (folder / f"{k}.jsonl").write_text(b.get(f"/api/games/{g['id']}/log").text)
    found, _, _ = find_tables([str(folder)])
    assert sorted((name, len(paths), names) for name, paths, names in found) == [
        ("Ann, Ben", 1, ["Ann", "Ben"]), ("Mia", 2, ["Mia"])]


def test_a_seat_handed_to_a_bot_tells_its_old_link_so_and_the_list_says_who_played(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0, 1], policy="planner", seed=4, game=0,
                           names={"0": "Ann", "1": "Ben"})
    seat = game_of(client, gid).pending_seat
    assert answer_first(client, gid, seat, tokens[seat]).status_code == 200
    assert client.post(f"/api/games/{gid}/seats/1/bot", json={"policy": "heuristic"}).status_code == 200
    res = client.get(f"/api/games/{gid}/seats/1?token={tokens[1]}")
    assert res.status_code == 403
    err = res.json()["error"]
    assert err["message"] == "a bot plays this seat now; ask the host for a new link" and "new link" in err["fix"]
    # a token that never was this seat's is told nothing of who plays it
    other = client.get(f"/api/games/{gid}/seats/1?token={tokens[0]}")
    assert other.status_code == 403 and "bot" not in other.json()["error"]["message"]
    assert client.get(f"/api/games/{gid}/seats/0?token={tokens[0]}").status_code == 200
    listed = next(g for g in client.get("/api/games").json() if g["id"] == gid)
    assert [(p["name"], p["bot"], p["handed"]) for p in listed["seats"]] == [("Ann", False, False),
                                                                            ("Ben", True, True)]
    back = client.post(f"/api/games/{gid}/seats/1/person").json()
    old = client.get(f"/api/games/{gid}/seats/1?token={tokens[1]}")
    assert old.status_code == 403
    assert old.json()["error"]["message"] == "this seat has a new link now; ask the host for it"
    g = play_to_end(client, gid, {0: tokens[0], 1: back["token"]})
    setup = g.log()[0]
    assert setup["names"] == {"0": "Ann", "1": "Ben"}  # Ben played the seat before the bot: his name stays
