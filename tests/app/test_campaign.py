"""`kakapo campaign`: the campaign measured for your copy's pieces. Every mission's ladder with that
catalog, in order of shortfall, written to difficulty.json with the catalog's digest; the same
numbers resumed, with any workers and on a Dask cluster; and from then on `list` and `ladder`
compare with it, while a catalog with no campaign says so instead of comparing with the bundled
shapes' figures."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import DEFAULT_CATALOG, load_catalog
from solver.io.paths import mission_path
from tests.helpers.catalogs import RED_5, folder_with_catalog


def run(*args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    return res


@pytest.mark.slow  # every rung of two missions' ladders, twice
def test_a_campaign_for_another_catalog_is_measured_written_resumed_and_compared_with(tmp_path):
    d = folder_with_catalog(tmp_path)
    res = run("campaign", d, "--pieces", d / "mine.toml", "--games", 4, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    catalog = load_catalog(str(d / "mine.toml"))
    assert doc["pieces_digest"] == catalog.digest != load_catalog().digest
    assert sorted((r["mission"], r["players"]) for r in doc["rows"]) == [("b01", 2), ("b05", 2)]
    assert sorted(doc["order"]) == ["b01", "b05"]
    shortfall = {r["mission"]: r["shortfall"] for r in doc["rows"]}
    assert shortfall[doc["order"][0]] <= shortfall[doc["order"][1]]
    assert set(doc["rows"][0]["rates"]) >= {"greedy", "heuristic", "planner", "search-2", "search-64"}
    written = json.loads((d / "difficulty.json").read_text())
    assert written["pieces_digest"] == catalog.digest and len(written["rows"]) == 2  # the catalog is no mission
    # the same command again: the work is kept, the same numbers; and with two workers the same
    again = run("campaign", d, "--pieces", d / "mine.toml", "--games", 4, "--workers", 2, "--json")
    assert again.exit_code == 0 and json.loads(again.output) == doc
    # from then on list and ladder compare with the campaign measured for this catalog
    rows = {r["id"]: r for r in json.loads(run("list", "--pieces", d / "mine.toml", "--json").output)["missions"]}
    assert rows["b05"]["shortfall"]["2"] == round(shortfall["b05"], 4) and rows["b02"]["shortfall"]["2"] is None
    ladder = json.loads(run("ladder", d / "b05.toml", "--pieces", d / "mine.toml", "--games", 4, "--json").output)
    assert ladder["difficulty"]["campaign"]["source"] == str((d / "difficulty.json").resolve())


@pytest.mark.slow  # two ladders
def test_a_catalog_with_no_campaign_says_so_instead_of_comparing(tmp_path):
    d = folder_with_catalog(tmp_path)
    res = run("ladder", "b05", "--pieces", d / "mine.toml", "--games", 4, "--json")
    assert res.exit_code == 0, res.output
    diff = json.loads(res.output)["difficulty"]
    assert diff["campaign"] is None and "no campaign measured for this catalog" in diff["campaign_text"]
    bundled = json.loads(run("ladder", "b05", "--games", 4, "--json").output)["difficulty"]
    assert bundled["campaign"]["source"] == "bundled"


def test_the_bundled_campaign_needs_a_folder_of_yours_and_another_catalogs_table_is_not_replaced(tmp_path):
    d = folder_with_catalog(tmp_path)
    res = run("campaign", "--pieces", d / "mine.toml")
    assert res.exit_code == 2 and "--out" in res.output
    (d / "difficulty.json").write_text(json.dumps({"pieces_digest": "another", "rows": []}))
    res = run("campaign", d, "--pieces", d / "mine.toml", "--games", 2, "--workers", 1)
    assert res.exit_code == 2 and "another catalog" in res.output
    assert json.loads((d / "difficulty.json").read_text())["pieces_digest"] == "another"


@pytest.mark.slow  # one mission's ladder on a deal a rung
def test_a_mission_that_does_not_fit_is_skipped_with_why_and_the_others_measured(tmp_path):
    d = folder_with_catalog(tmp_path)
    (d / "b05.toml").unlink()
    shutil.copy(mission_path("b09"), d / "b09.toml")  # its pre-placed red-5 is the bundled L, not mine's ####
    res = run("campaign", d, "--pieces", d / "mine.toml", "--games", 1, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [r["mission"] for r in doc["rows"]] == ["b01"]
    assert [s["mission"] for s in doc["skipped"]] == ["b09"] and "red-5" in doc["skipped"][0]["why"]
    assert json.loads((d / "difficulty.json").read_text())["skipped"] == doc["skipped"]
    text = run("campaign", d, "--pieces", d / "mine.toml", "--games", 1, "--workers", 1)
    assert text.exit_code == 0 and "skipped, 1 mission(s) that do not fit this catalog" in text.stdout
    assert "b09: line 22: [[placed]] #1 (red-5)" in text.stdout


def test_a_campaign_where_no_mission_fits_is_refused_before_any_work(tmp_path):
    d = tmp_path / "copy"
    d.mkdir()
    (d / "mine.toml").write_text(DEFAULT_CATALOG.read_text().replace(RED_5, '5 = "####"'))
    shutil.copy(mission_path("b09"), d / "b09.toml")
    res = run("campaign", d, "--pieces", d / "mine.toml", "--games", 1, "--json")
    assert res.exit_code == 2 and "no mission fits this catalog" in json.loads(res.stdout)["error"]["message"]
    assert not (d / "difficulty.json").exists()
