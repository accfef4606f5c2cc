"""What the studio's routers share instead of importing each other: the folder's files (one scan
tells a folder's missions from its catalogs, for the studio and the commands alike; a mission
found by its id; safe reads), one size limit for a file a person gives, and one rule for a
finished game (the Tables list, an export and a rating take the same games)."""

from __future__ import annotations

import ast
import json
import os

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.app.tables import finished_games
from solver.game.engine import play_game
from solver.game.roster import make_policy
from solver.io.catalog import DEFAULT_CATALOG
from solver.io.missionfile import load_mission, mission_files
from solver.io.packs import scan_folder
from solver.io.paths import MISSIONS
from solver.io.safefiles import MAX_FILE_BYTES
from solver.studio.app import create_app
from tests.helpers.paths import ROOT

B05 = (MISSIONS / "buddy/b05.toml").read_text(encoding="utf-8")


def studio(folder):
    app = create_app(folder, None, 1, warm=False, think_inline=True, bot_pace=0)
    client = TestClient(app)
    client.ctx = app.state.ctx
    return client


def test_one_scan_tells_missions_from_catalogs_for_the_studio_and_the_commands(tmp_path):
    bundled = DEFAULT_CATALOG.read_text(encoding="utf-8")
    (tmp_path / "mine.toml").write_text(B05.replace("Short night", "Mine"), encoding="utf-8")
    (tmp_path / "shapes.toml").write_text(bundled, encoding="utf-8")
    (tmp_path / "broken.toml").write_text(bundled.replace('1 = "', '1 = "#.#', 1), encoding="utf-8")
    (tmp_path / "pieces.toml").write_text("# a catalog's usual name, not yet written\n", encoding="utf-8")
    (tmp_path / "huge.toml").write_text(B05 + "#" * MAX_FILE_BYTES, encoding="utf-8")
    (tmp_path / "elsewhere.toml").symlink_to(tmp_path / "mine.toml")
    os.mkfifo(tmp_path / "pipe.toml")  # never waited on
    (tmp_path / "notes.txt").write_text(B05, encoding="utf-8")

    found = scan_folder(tmp_path)
    assert [f.name for f in found.missions] == ["mine.toml", "pieces.toml"]
    assert [f.name for f in found.catalogs] == ["broken.toml", "shapes.toml"]
    # the commands read the same scan, links followed (a folder of one's own missions)
    assert [p.name for p in mission_files(tmp_path)] == ["elsewhere.toml", "mine.toml", "pieces.toml"]

    client = studio(tmp_path)
    try:
        own = [m for m in client.get("/api/missions").json() if m["source"] == "dir"]
        assert [(m["id"], m["valid"], m["name"]) for m in own] == [("mine", True, "Mine")]
        catalogs = client.get("/api/catalogs").json()
        assert [(c["file"], c["valid"]) for c in catalogs] == [(None, True), ("broken.toml", False),
                                                               ("shapes.toml", True)]
        assert "line" in catalogs[1]["error"] and catalogs[2]["digest"] == catalogs[0]["digest"]
        assert client.get("/api/catalogs/text?file=pipe.toml").status_code == 409  # refused unread
        assert client.get("/api/catalogs/text?file=elsewhere.toml").status_code == 409  # a link is not followed
    finally:
        client.ctx.close()


def test_a_mission_by_its_id_is_the_folders_then_the_bundled_one(tmp_path):
    (tmp_path / "b05.toml").write_text(B05.replace("Short night", "Our night"), encoding="utf-8")
    outside = tmp_path / "away"
    outside.mkdir()
    (outside / "far.toml").write_text(B05, encoding="utf-8")
    (tmp_path / "far.toml").symlink_to(outside / "far.toml")
    client = studio(tmp_path)
    try:
        own = client.get("/api/missions/b05").json()
        assert own["source"] == "dir" and "Our night" in own["text"]
        assert client.get("/api/missions/b06").json()["source"] == "bundled"
        assert client.get("/api/missions/far").status_code == 404  # a link out of the folder is not its file
        assert client.get("/api/missions/..%2Fb05").status_code == 404
        # a game and a recording take the mission the same way
        started = client.post("/api/games", json={"mission": "b05", "human": [0]})
        assert started.status_code == 200, started.text
        assert client.get("/api/games").json()[0]["name"] == "Our night"
        assert client.post("/api/recordings", json={"mission": "nope", "names": ["A", "B"]}).status_code == 404
    finally:
        client.ctx.close()


def test_one_size_limit_for_a_file_a_person_gives(tmp_path):
    """``io/safefiles.MAX_FILE_BYTES`` is the one limit: no other number of a megabyte in the code."""
    megabytes = []
    for path in sorted((ROOT / "solver").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {id(n.value): n.targets[0].id for n in ast.walk(tree)
                 if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)}
        megabytes += [f"{path.relative_to(ROOT)}: {named.get(id(n), f'line {n.lineno}')}" for n in ast.walk(tree)
                      if isinstance(n, ast.Constant) and type(n.value) is int and n.value == 1_000_000]
    # the megabyte itself, and a budget of search nodes (no size)
    assert megabytes == ["solver/io/safefiles.py: MEGABYTE", "solver/puzzle/library.py: DEFAULT_BUDGET"], megabytes
    (tmp_path / "big.toml").write_text(B05 + "#" * MAX_FILE_BYTES, encoding="utf-8")
    client = studio(tmp_path)
    try:
        res = client.get("/api/missions/big")
        assert res.status_code == 413 and res.json()["error"]["message"] == "big.toml is over 1 MB"
        res = client.post("/api/validate", json={"text": "#" * MAX_FILE_BYTES})
        assert res.status_code == 413 and "over 1 MB" in res.json()["error"]["message"]
    finally:
        client.ctx.close()


def test_a_finished_game_is_one_rule_for_the_tables_an_export_and_a_rating(catalog, tmp_path):
    rows = [{"id": "a", "result": "cleared", "players": 2}, {"id": "b", "result": None, "players": 2},
            {"id": "c", "result": "lost", "players": 2, "broken": "its bots could not decide"},
            {"id": "d", "result": "lost", "players": None}, {"id": "e", "result": "lost", "players": 3}]
    assert [g["id"] for g in finished_games(rows)] == ["a", "e"]
    client = studio(tmp_path)
    try:
        m = load_mission(MISSIONS / "buddy/b05.toml", catalog)
        logs = ["".join(json.dumps(e) + "\n" for e in play_game(m, catalog, 2, seed, make_policy("heuristic"),
                                                                log=True).events) for seed in (1, 2)]
        assert len(client.post("/api/games/import", json={"text": "".join(logs)}).json()["imported"]) == 2
        waiting = client.post("/api/games", json={"mission": "b05", "human": [0]}).json()["id"]  # a person's turn
        finished = {g["id"] for g in finished_games(client.get("/api/games").json())}
        assert len(finished) == 2 and waiting not in finished
        assert {i for t in client.get("/api/tables").json() for i in t["ids"]} == finished
        exported = client.get("/api/games/export").text
        assert sum(json.loads(x)["event"] == "setup" for x in exported.splitlines()) == 2
        refused = client.post("/api/jobs", json={"kind": "rate", "logs": [waiting]})
        assert refused.status_code == 422 and "no finished game" in refused.json()["error"]["message"]
    finally:
        client.ctx.close()
