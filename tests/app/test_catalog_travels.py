"""A catalog travels: a mission saved with another catalog says so (``pieces_digest``); the CLI
reads it with that catalog when it lies beside the mission and refuses other shapes naming both
digests; the studio tells the page which catalog a text was made with and which is in use, and a
log carries its catalog as it always did. Nothing is read with the wrong shapes in silence."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission, mission_fit
from solver.io.missionfile import made_with as declared_digest
from solver.io.missionwrite import mission_toml
from solver.io.paths import MISSIONS
from tests.helpers.catalogs import made_with, other_catalog

B01 = MISSIONS / "buddy" / "b01.toml"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_mission_made_with_another_catalog_is_read_with_the_one_beside_it(tmp_path):
    mine = load_catalog(other_catalog(tmp_path))
    mission = made_with(tmp_path, mine.digest)
    res = run("solve", mission, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["status"] == "solvable"
    assert "made with the catalog mine.toml beside it: read with its shapes" in res.stderr  # said, never silent
    # the same file with no such catalog beside it: refused, naming both digests and the fix
    alone = tmp_path / "alone"
    alone.mkdir()
    moved = made_with(alone, mine.digest)
    res = run("solve", moved, "--json")
    assert res.exit_code == 2
    err = json.loads(res.stdout)["error"]
    line = 1 + moved.read_text().splitlines().index(f'pieces_digest = "{mine.digest}"')
    assert mine.digest in err["message"] and load_catalog().digest in err["message"] and err["line"] == line
    assert "--pieces" in err["fix"]
    # given the catalog it was made with, it reads; given another, refused
    assert run("solve", moved, "--pieces", tmp_path / "mine.toml", "--json").exit_code == 0
    assert run("validate", made_with(alone, load_catalog().digest, "b.toml"), "--pieces", tmp_path / "mine.toml",
               "--json", "--games", 20).exit_code == 2


def test_the_digest_is_written_back_and_checked(tmp_path, catalog):
    m = load_mission(made_with(tmp_path, catalog.digest), catalog)
    assert declared_digest(m) == catalog.digest and f'pieces_digest = "{catalog.digest}"' in mission_toml(m)
    assert declared_digest(load_mission(B01, catalog)) is None and "pieces_digest" not in mission_toml(
        load_mission(B01, catalog))
    bad = tmp_path / "bad.toml"
    bad.write_text(B01.read_text().replace("board =", 'pieces_digest = "mine"\nboard =', 1))
    res = run("solve", bad, "--json")
    assert res.exit_code == 2 and "16 hexadecimal digits" in json.loads(res.stdout)["error"]["message"]
    assert "digest: " + catalog.digest in run("pieces").output


def test_a_list_says_a_mission_made_with_another_catalog_does_not_fit(tmp_path):
    mine = load_catalog(other_catalog(tmp_path))
    path = made_with(tmp_path, mine.digest)
    m, why = mission_fit(path, load_catalog())
    assert declared_digest(m) == mine.digest and "another catalog" in why and mine.digest in why
    assert mission_fit(path, mine)[1] is None


def test_the_studio_says_what_a_text_was_made_with_and_what_is_in_use(tmp_path):
    pytest.importorskip("fastapi")
    from tests.helpers.client import client_for

    mine = load_catalog(other_catalog(tmp_path))
    client = client_for(tmp_path)
    rows = {c["file"]: c for c in client.get("/api/catalogs").json()}
    assert rows["mine.toml"]["digest"] == mine.digest and rows[None]["digest"] == load_catalog().digest
    text = made_with(tmp_path, mine.digest).read_text()
    doc = client.post("/api/validate", json={"text": text, "name": "made.toml"}).json()
    assert doc["valid"] is False and doc["pieces_digest"] == mine.digest
    assert doc["catalog_digest"] == load_catalog().digest and mine.digest in doc["errors"][0]["message"]
    # asked of it with the bundled shapes: 422 naming the digest; with its own: an answer
    res = client.post("/api/solve", json={"text": text, "name": "made.toml"})
    assert res.status_code == 422 and mine.digest in res.json()["error"]["message"]
    assert client.post("/api/catalogs", json={"file": "mine.toml"}).status_code == 200
    doc = client.post("/api/validate", json={"text": text, "name": "made.toml"}).json()
    assert doc["valid"] and doc["pieces_digest"] == doc["catalog_digest"] == mine.digest
    assert doc["mission"]["pieces_digest"] == mine.digest
    assert client.post("/api/solve", json={"text": text, "name": "made.toml"}).status_code == 200
    check = client.post("/api/catalogs/validate", json={"text": (tmp_path / "mine.toml").read_text()}).json()
    assert check["digest"] == mine.digest
