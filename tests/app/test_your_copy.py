"""Your copy of the game: a catalog never breaks a list. With any valid catalog in use, every
mission is listed (the CLI and the studio), one that does not fit it says why, and anything asked
of it is refused naming the piece; a file is a catalog or a mission by what it holds."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import DEFAULT_CATALOG, is_catalog_text

pytest.importorskip("fastapi")
from tests.helpers.catalogs import other_catalog
from tests.helpers.client import client_for


def test_list_with_another_catalog_lists_every_mission_and_says_which_do_not_fit(tmp_path):
    pieces = other_catalog(tmp_path)
    res = CliRunner().invoke(main, ["list", "--pieces", str(pieces), "--json"])
    assert res.exit_code == 0, res.output
    rows = {r["id"]: r for r in json.loads(res.output)["missions"]}
    bundled = {r["id"]: r for r in json.loads(CliRunner().invoke(main, ["list", "--json"]).output)["missions"]}
    assert rows.keys() == bundled.keys()
    assert rows["b09"]["fits"] is False and "red-5" in rows["b09"]["why"] and "line" in rows["b09"]["why"]
    assert all(r["fits"] for k, r in rows.items() if k != "b09") and all(r["fits"] for r in bundled.values())
    # the campaign was measured with the bundled shapes: no figure of it is shown as this catalog's
    assert all(v is None for r in rows.values() for v in r["shortfall"].values())
    assert any(v is not None for r in bundled.values() for v in r["shortfall"].values())
    text = CliRunner().invoke(main, ["list", "--pieces", str(pieces)]).output
    assert "does not fit this catalog" in text and "no campaign measured for this catalog" in text


def test_the_studio_lists_every_mission_with_any_catalog_and_refuses_one_that_does_not_fit(tmp_path):
    other_catalog(tmp_path)
    (tmp_path / "mine_mission.toml").write_text((tmp_path / "mine.toml").read_text().split("[red]")[0]
                                                + 'name = "x"\nmode = "buddy"\nclear = 1\nrounds = 6\n'
                                                'board = """\n' + ("." * 12 + "\n") * 11 + "A" + "." * 11
                                                + '\n"""\n')
    client = client_for(tmp_path)
    assert client.post("/api/catalogs", json={"file": "mine.toml"}).status_code == 200
    res = client.get("/api/missions")
    assert res.status_code == 200
    rows = {r["id"]: r for r in res.json()}
    assert rows["b09"]["fits"] is False and "red-5" in rows["b09"]["why"]
    assert "mine" not in rows and rows["mine_mission"]["valid"]  # the catalog is no mission; the mission is
    catalogs = {c["file"] for c in client.get("/api/catalogs").json()}
    assert "mine.toml" in catalogs and "mine_mission.toml" not in catalogs
    for res in (client.post("/api/games", json={"mission": "b09", "human": [0]}),
                client.post("/api/solve", json={"text": client.get("/api/missions/b09").json()["text"]})):
        assert res.status_code == 422 and "red-5" in res.json()["error"]["message"], res.text
    assert client.post("/api/games", json={"mission": "b05", "human": [0]}).status_code == 200


def test_a_file_is_a_catalog_by_its_colour_tables():
    assert is_catalog_text(DEFAULT_CATALOG.read_text())
    assert is_catalog_text("# mine\n [ purple ] # the last colour\n1 = \"#\"\n")
    assert not is_catalog_text('name = "[red]"\nmode = "buddy"\n')
