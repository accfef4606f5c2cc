"""`POST /api/records`: a sheet recorded in the studio joins the folder's games, finished, with its
names; its log is what `kakapo record` writes; review and rate take it like a played game; a sheet
that breaks a rule is a 422 naming the line; it is kept across a restart."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
from tests.helpers.client import client_for
from tests.helpers.games import sheet_lines, simulated


def test_a_recorded_sheet_is_one_of_the_folders_games(catalog, tmp_path):
    client = client_for(tmp_path)
    sheet = "\n".join(sheet_lines(catalog)) + "\n"
    res = client.post("/api/records", json={"sheet": sheet})
    assert res.status_code == 200, res.text
    doc = res.json()
    _, events = simulated(catalog, "buddy/b05", 2, 3)
    logged = [json.loads(x) for x in doc["log"].splitlines()]
    assert logged[1:] == events[1:] and logged[0]["names"] == {"0": "Ann", "1": "Ben"}
    assert doc["names"] == ["Ann", "Ben"] and doc["result"] == events[-1]["result"]
    row = next(g for g in client.get("/api/games").json() if g["id"] == doc["game"])
    assert row["result"] == events[-1]["result"] and row["names"] == {"0": "Ann", "1": "Ben"}
    assert row["policy"] == "recorded" and row["human"] == [0, 1]
    assert client.get(f"/api/games/{doc['game']}/log").text == doc["log"]
    # review and rate take it as they take a game played here
    assert client.post(f"/api/games/{doc['game']}/review").status_code == 200
    # a restart keeps it
    again = client_for(tmp_path)
    assert again.get(f"/api/games/{doc['game']}/log").text == doc["log"]
    assert any(g["id"] == doc["game"] and g["result"] for g in again.get("/api/games").json())


def test_a_sheet_that_breaks_a_rule_is_refused_naming_the_line(catalog, tmp_path):
    client = client_for(tmp_path)
    lines = sheet_lines(catalog)
    first = next(i for i, x in enumerate(lines) if x.startswith("1. "))
    lines[first] = lines[first].replace("Ann ", "Zoe ", 1)
    res = client.post("/api/records", json={"sheet": "\n".join(lines)})
    assert res.status_code == 422
    err = res.json()["error"]
    assert err["line"] == first + 1 and "'Zoe' is not at the table" in err["message"] and err["fix"]
    assert client.get("/api/games").json() == []
    nowhere = client.post("/api/records", json={"sheet": "mission: zz99\nplayers: A, B\n"})
    assert nowhere.status_code == 422 and nowhere.json()["error"]["line"] == 1


def test_a_sheet_names_a_mission_and_catalog_of_the_folder(catalog, tmp_path):
    from tests.helpers.catalogs import made_with, other_catalog

    client = client_for(tmp_path)
    mine = other_catalog(tmp_path)
    from solver.io.catalog import load_catalog

    made_with(tmp_path, load_catalog(mine).digest, "fan.toml")  # b01, made with mine
    text, _ = simulated(load_catalog(mine), "buddy/b01", 2, 1)
    from solver.app.sheets import sheet_of
    from solver.io.gamelog import parse_log

    sheet = sheet_of(parse_log(text, "g")).replace("mission: b01", "mission: fan\npieces: mine.toml")
    sheet = "\n".join(x for x in sheet.splitlines() if not x.startswith("#") and not x.startswith("pieces: pieces"))
    res = client.post("/api/records", json={"sheet": sheet})
    assert res.status_code == 200, res.text
    setup = json.loads(res.json()["log"].splitlines()[0])
    assert setup["mission"] == "fan" and "pieces_digest" in setup
    assert load_catalog("x", setup["pieces_text"]).digest == load_catalog(mine).digest


def test_a_tables_names_are_used_in_the_moves_and_the_prompts(tmp_path):
    from tests.helpers.client import game_of, start

    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="p03", players=3, human=[0, 2], policy="heuristic", seed=5, game=2,
                           names={"0": "Ann", "2": "Cleo"})
    seen = None
    for _ in range(60):  # both people answer their first choice until Ann is asked in round 2
        for seat in (0, 2):
            game_of(client, gid)  # the bot has moved
            url = f"/api/games/{gid}/seats/{seat}?token={tokens[seat]}"
            doc = client.get(url).json()
            if seat == 0 and doc["question"] is not None and doc["round"] >= 2:
                seen = doc
                break
            if doc["question"] is not None:
                client.post(url, json={"choice": 1, "question": doc["question"]["id"]})
        if seen is not None:
            break
    assert seen is not None
    assert seen["question"]["prompt"].startswith(f"round {seen['round']}, you (Ann):")
    texts = [m["text"] for m in seen["moves"]]
    assert any(t.startswith("Cleo ") for t in texts), texts
    assert not any(t.startswith(("player 0", "player 2")) for t in texts), texts


def test_logs_and_sheets_dropped_into_the_games_folder_join_the_folders_games(catalog, tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    text, events = simulated(catalog, "party/p02", 3, 4)
    (games / "from-elsewhere.jsonl").write_text(text)
    (games / "thursday.txt").write_text("\n".join(sheet_lines(catalog)) + "\n")
    (games / "broken.txt").write_text("mission: b05\nplayers: Ann, Ben\n1. Ann red-9 / -\n")
    client = client_for(tmp_path)
    client.ctx.table.inbox.import_records()  # (the studio starts it in the background)
    rows = {g.get("file") or g["id"]: g for g in client.get("/api/games").json()}
    recorded = [g for g in rows.values() if g.get("policy") == "recorded"]
    assert len(recorded) == 2, rows
    by_names = {tuple(sorted(g["names"].values())): g for g in recorded}
    assert by_names[("Ann", "Ben")]["result"] and by_names[()]["result"] == events[-1]["result"]
    assert client.get(f"/api/games/{by_names[()]['id']}/log").text == text
    assert "line 3" in rows["broken.txt"]["broken"]
    client.ctx.table.inbox.import_records()  # once each
    assert len([g for g in client.get("/api/games").json() if g.get("policy") == "recorded"]) == 2


def test_a_seat_sees_the_last_trick_until_the_next_card(tmp_path):
    from tests.helpers.client import game_of, start

    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner", seed=3, game=1)
    url = f"/api/games/{gid}/seats/0?token={tokens[0]}"
    for _ in range(40):
        game_of(client, gid)
        doc = client.get(url).json()
        if doc["result"] is not None:
            break
        if doc["round"] >= 2 and not doc["trick"]:
            game = game_of(client, gid)
            last = game.state.history[doc["round"] - 2]
            assert doc["last_trick"] == [{"player": p, "card": str(c)} for p, c in last.plays]
            assert doc["last_in_charge"] == last.in_charge
            return
        client.post(url, json={"choice": 1, "question": doc["question"]["id"]})
    raise AssertionError("no round began with the person to lead")
