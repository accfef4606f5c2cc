"""Pooling games: `GET /api/games/export` gives the folder's finished games as one JSON Lines file
(no unfinished game, no token, names optional); `POST /api/games/import` takes such a file into
another folder (each game replayed by the rules; a game held already is skipped, a broken one
refused with its line); the same games, rated the same."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
from tests.helpers.client import client_for
from tests.helpers.games import sheet_lines, simulated


def test_export_then_import_gives_the_same_finished_games(catalog, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = client_for(tmp_path / "a")
    sheet = "\n".join(sheet_lines(catalog)) + "\n"
    assert a.post("/api/records", json={"sheet": sheet}).status_code == 200
    text, _ = simulated(catalog, "party/p02", 3, 4)
    doc = a.post("/api/games/import", json={"text": text}).json()
    assert len(doc["imported"]) == 1 and doc["held"] == 0 and doc["refused"] == []
    # an unfinished game at the table: never exported (its log would show the hands)
    started = a.post("/api/games", json={"mission": "b05", "human": [0], "policy": "planner"})
    assert started.status_code == 200, started.text
    exported = a.get("/api/games/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    lines = [json.loads(x) for x in exported.text.splitlines()]
    setups = [e for e in lines if e["event"] == "setup"]
    assert len(setups) == 2 and all(e.get("result") for e in lines if e["event"] == "end")
    tokens = [s["token"] for s in started.json()["seats"]]
    assert started.json()["id"] not in exported.text and not any(t in exported.text for t in tokens)
    assert any(s.get("names") == {"0": "Ann", "1": "Ben"} for s in setups)
    anonymous = a.get("/api/games/export?names=false").text
    assert "Ann" not in anonymous and len(anonymous.splitlines()) == len(lines)

    b = client_for(tmp_path / "b")
    got = b.post("/api/games/import", json={"text": exported.text, "name": "club.jsonl"}).json()
    assert len(got["imported"]) == 2 and got["refused"] == []
    rows = [g for g in b.get("/api/games").json()]
    assert sorted(g["result"] for g in rows) == sorted(g["result"] for g in a.get("/api/games").json() if g["result"])
    again = b.post("/api/games/import", content=exported.text,  # the file itself, as export wrote it
                   headers={"content-type": "application/x-ndjson"}).json()
    assert again["imported"] == [] and again["held"] == 2  # the same games are not taken twice
    assert sorted(b.get("/api/games/export").text.splitlines()) == sorted(exported.text.splitlines())


def test_a_broken_game_in_a_pooled_file_is_refused_with_its_line(catalog, tmp_path):
    c = client_for(tmp_path)
    good, _ = simulated(catalog, "buddy/b05", 2, 3)
    bad, _ = simulated(catalog, "party/p02", 3, 4)
    lines = bad.splitlines()
    third = json.loads(lines[2])
    third["plays"][0]["card"] = third["plays"][1]["card"]  # a card played twice
    lines[2] = json.dumps(third)
    text = good + "\n".join(lines) + "\n"
    doc = c.post("/api/games/import", json={"text": text}).json()
    assert len(doc["imported"]) == 1 and len(doc["refused"]) == 1
    r = doc["refused"][0]
    assert r["game"] == 2 and r["line"] == len(good.splitlines()) + 3 and r["message"]
    res = c.post("/api/games/import", json={"text": "not json\n"})
    assert res.status_code == 422 and "line 1" in res.json()["error"]["message"]
