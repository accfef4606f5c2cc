"""The campaign's measured difficulty (missions/difficulty.json): complete, of today's files, equal
to what `kakapo ladder` measures, and in the campaign's order; and its reader's refusals."""

import itertools
import json
import shutil

import pytest

from solver.analysis.ladder import RUNGS, ladder, rung_label
from solver.io.catalog import load_catalog
from solver.io.difficulty import DIFFICULTY_FILE, campaign_difficulty, file_digest
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS, bundled_mission


def bundled_rows():
    catalog = load_catalog()
    for path in sorted(MISSIONS.glob("*/*.toml")):
        m = load_mission(path, catalog)
        for players in m.player_counts():
            yield m, players


def test_the_table_covers_every_bundled_mission_as_it_is_today(catalog):
    table = campaign_difficulty(catalog.key, load_catalog().key)
    wanted = {(m.id, players) for m, players in bundled_rows()}
    assert set(table) == wanted, "missions changed since missions/difficulty.json was measured: " \
                                 "run benchmarks/bench_ladder.py and benchmarks/campaign_order.py --write"
    for row in table.values():
        assert set(row.rates) == {rung_label(p, k) for p, k in RUNGS}
        assert 0 <= row.shortfall <= 1 and row.games >= 500


def test_the_campaign_is_numbered_by_its_difficulty(catalog):
    """As missions/CAMPAIGN.md says: measured difficulty rises with the number. The campaign's figure is the shortfall
    (Party: the mean over 3 and 4 players). Two neighbours may stand the other way round only
    within each other's 95 % interval: the campaign is renumbered when a figure crosses a
    neighbour's by more than that, not for noise."""
    table = campaign_difficulty(catalog.key, load_catalog().key)
    intervals = {(r["mission"], r["players"]): r["shortfall_ci95"]
                 for r in json.loads(DIFFICULTY_FILE.read_text())["rows"]}
    for mode in ("b", "p"):
        keys: dict = {}
        for (mid, players), row in table.items():
            if mid.startswith(mode):
                keys.setdefault(mid, []).append((row.shortfall, *intervals[(mid, players)]))
        ordered = sorted(keys)
        mean = {m: [sum(x[i] for x in keys[m]) / len(keys[m]) for i in range(3)] for m in ordered}
        for a, b in itertools.pairwise(ordered):
            if mean[b][0] < mean[a][0]:  # the other way round: within each other's interval
                assert mean[b][2] >= mean[a][1], (a, mean[a], b, mean[b])
        for i, m in enumerate(ordered):  # and never past a mission further away
            for later in ordered[i + 2:]:
                assert mean[later][0] >= mean[m][0], (m, later)


def test_the_reader_drops_what_it_cannot_trust(tmp_path, catalog):
    doc = json.loads(DIFFICULTY_FILE.read_text())
    row = dict(doc["rows"][0])
    copy = tmp_path / "difficulty.json"
    copy.write_text(json.dumps({"rows": [row, {**row, "players": 9, "digest": "0" * 16}, {"mission": 3}]}))
    got = campaign_difficulty(catalog.key, catalog.key, copy)
    assert list(got) == [(row["mission"], row["players"])]  # another file's digest, and a broken row: left out
    assert campaign_difficulty(("another",), catalog.key, copy) == {}  # another catalog: nothing applies
    copy.write_text("{not json")
    assert campaign_difficulty(path=copy) == {}
    assert campaign_difficulty(path=tmp_path / "missing.json") == {}


def test_an_edited_mission_leaves_the_table(tmp_path, monkeypatch, catalog):
    import solver.io.difficulty as difficulty

    folder = tmp_path / "missions"
    shutil.copytree(MISSIONS, folder)
    mid = json.loads(DIFFICULTY_FILE.read_text())["rows"][0]["mission"]
    path = bundled_mission(mid)
    edited = folder / path.parent.name / path.name
    edited.write_text(edited.read_text() + "\n# edited\n")
    monkeypatch.setattr(difficulty, "bundled_mission",
                        lambda i: folder / ("buddy" if i.startswith("b") else "party") / f"{i}.toml")
    assert file_digest(edited) != file_digest(path)
    table = campaign_difficulty(path=DIFFICULTY_FILE)
    assert all(k[0] != mid for k in table) and len(table) > 0


@pytest.mark.slow
def test_a_row_is_what_kakapo_ladder_measures(catalog):
    """The cheapest row again, with the table's deals and seed: the same clear counts."""
    table = campaign_difficulty(catalog.key, catalog.key)
    row = min(table.values(), key=lambda r: (r.shortfall, r.mission))
    m = load_mission(bundled_mission(row.mission), catalog)
    doc = ladder(m, catalog, row.players, row.games, seed=row.seed, workers=2)
    assert {rung_label(r["policy"], r["samples"]): r["clear_rate"] for r in doc["rungs"]} == row.rates
    assert doc["difficulty"]["value"] == pytest.approx(row.shortfall)


def test_kakapo_list_shows_every_bundled_mission_with_its_fewest_pieces_and_difficulty(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from solver.cli import main
    from tests.helpers.paths import ROOT

    monkeypatch.chdir(tmp_path)  # from any directory
    res = CliRunner().invoke(main, ["list", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["missions"]
    assert [r["id"] for r in rows] == [p.stem for p in sorted(MISSIONS.glob("buddy/*.toml"))] + \
        [p.stem for p in sorted(MISSIONS.glob("party/*.toml"))]
    golden = json.loads((ROOT / "tests/golden/min_pieces.json").read_text())["campaign"]
    table = campaign_difficulty()
    for r in rows:
        default = str(max(r["players"]))  # the default table: every piece in the game
        assert r["min_pieces"][default] == golden[r["id"]], r["id"]
        for p in r["players"]:
            assert r["shortfall"][str(p)] == pytest.approx(table[(r["id"], p)].shortfall, abs=1e-4)
    text = CliRunner().invoke(main, ["list"]).output.splitlines()
    assert text[0].split()[:2] == ["id", "name"] and len(text) == len(rows) + 1  # a heading, then one mission a line
    p20 = next(line for line in text if line.startswith("p20"))
    assert "party" in p20 and "3,4" in p20 and f"{golden['p20']} / {golden['p20']}" in p20
