"""The folder's tables in the studio: `GET /api/tables` groups the finished games by the names of
who played (played, recorded, imported alike); the job `calibrate` gives each table's level,
its predictions checked and what to play next, as `kakapo calibrate` gives them for those games."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
from solver.cli import main
from tests.helpers.client import client_for, job_ended
from tests.helpers.games import sheet_lines, simulated


def folder_with_tables(client, catalog):
    sheet = "\n".join(sheet_lines(catalog)) + "\n"
    assert client.post("/api/records", json={"sheet": sheet}).status_code == 200  # Ann, Ben
    other = sheet.replace("Ann", "Cat").replace("Ben", "Dan")
    assert client.post("/api/records", json={"sheet": other}).status_code == 200  # Cat, Dan
    text, _ = simulated(catalog, "party/p02", 3, 4)  # nobody named
    assert len(client.post("/api/games/import", json={"text": text}).json()["imported"]) == 1


def test_the_tables_are_the_games_grouped_by_who_played(catalog, tmp_path):
    client = client_for(tmp_path)
    folder_with_tables(client, catalog)
    tables = {t["table"]: t for t in client.get("/api/tables").json()}
    assert set(tables) == {"Ann, Ben", "Cat, Dan", "unnamed"}
    ab = tables["Ann, Ben"]
    assert ab["games"] == 1 and ab["names"] == ["Ann", "Ben"] and len(ab["ids"]) == 1
    assert ab["missions"] == [{"mission": "b05", "players": 2, "games": 1, "cleared": ab["cleared"]}]
    assert tables["unnamed"]["missions"][0]["players"] == 3


@pytest.mark.slow
def test_the_calibrate_job_is_kakapo_calibrate_of_the_folders_games(catalog, tmp_path):
    client = client_for(tmp_path)
    folder_with_tables(client, catalog)
    with client:
        job = client.post("/api/jobs", json={"kind": "calibrate"})
        assert job.status_code == 200, job.text
        state = job_ended(client, job.json()["id"])
    assert state["state"] == "done", state
    doc = state["result"]
    assert {t["table"] for t in doc["tables"]} == {"Ann, Ben", "Cat, Dan", "unnamed"}
    assert doc["calibration"]["games"] == 3 and doc["calibration"]["method"] == "leave-one-out"
    logs = []
    for i, g in enumerate(client.get("/api/games").json()):
        path = tmp_path / f"g{i}.jsonl"
        path.write_text(client.get(f"/api/games/{g['id']}/log").text)
        logs.append(str(path))
    cli = json.loads(CliRunner().invoke(main, ["calibrate", *logs, "--json", "--workers", "1"]).stdout)
    by = {t["table"]: t for t in cli["tables"]}
    for t in doc["tables"]:
        if t["table"] in by:  # the named tables: the same figures whatever folder they came from
            assert t["best"] == by[t["table"]]["best"] and t["next"] == by[t["table"]]["next"]
