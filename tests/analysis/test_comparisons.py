"""Every comparison with the right figures: where the campaign measured for a catalog is found (the
missions' folder first, the catalog's folder, a campaign/ folder beside the catalog; the bundled
table only for the bundled shapes); a mission compared only with the other missions measured with
the same catalog, never with itself, and named "your campaign's" when they are not the bundled
ones; `list [DIR] --pieces`; the one rule for a mission made with another catalog and given no
--pieces; and a prediction's source in `rate` and `calibrate`. The campaigns here are written by
hand (the figures made up, the digests true) so that the rules are checked without measuring."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from solver.analysis.ladder import RUNGS, rung_label
from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.difficulty import (
    file_digest,
    find_campaign,
    games_places,
    place_in_campaign,
    placement_phrase,
)
from solver.io.missionfile import load_mission
from solver.io.paths import mission_path
from tests.helpers.catalogs import made_with, other_catalog


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write_campaign(folder: Path, catalog, shortfalls: dict[str, float], missions: Path | None = None,
                   players: int = 2) -> Path:
    """``folder/difficulty.json`` as `kakapo campaign` writes it for ``catalog``: a row per mission
    (a file of ``missions`` or ``folder`` by its id, else a bundled one) with made-up figures."""
    rows = []
    for mid, shortfall in shortfalls.items():
        own = (missions or folder) / f"{mid}.toml"
        path = own if own.is_file() else mission_path(mid)
        rate = round(1 - shortfall, 4)
        rows.append({"mission": mid, "mode": "buddy", "players": players, "games": 8, "seed": 1,
                     "digest": file_digest(path), "rates": {rung_label(*r): rate for r in RUNGS},
                     "ceiling_rate": 1.0, "undecided": 0, "shortfall": shortfall, "min_pieces": 3})
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "difficulty.json"
    out.write_text(json.dumps({"pieces_digest": catalog.digest, "rows": rows, "order": list(shortfalls)}))
    return out


def box(tmp_path) -> tuple[Path, object]:
    """The owner's box: mine.toml (red-5 drawn as ####: b09 does not fit) and three missions of
    theirs (copies of b01, b05 and b09)."""
    d = tmp_path / "box"
    d.mkdir()
    mine = load_catalog(other_catalog(d))
    for mid in ("b01", "b05", "b09"):
        shutil.copy(mission_path(mid), d / f"own_{mid}.toml")
    return d, mine


# ---------------------------------------------------------------- where a campaign is found
def test_a_campaign_is_found_beside_the_missions_the_catalog_or_in_a_campaign_folder(tmp_path):
    d, mine = box(tmp_path)
    assert find_campaign(mine).source is None  # none measured for these shapes: nothing to compare with
    assert find_campaign(load_catalog()).source == "bundled"
    bundled = write_campaign(d / "campaign", mine, {"b01": 0.1, "b05": 0.3})  # `campaign --out box/campaign`
    assert find_campaign(mine).source == str(bundled)  # a campaign/ folder beside the catalog
    # the missions in one folder, the catalog in another: the missions' folder is searched first
    missions = tmp_path / "missions"
    missions.mkdir()
    for mid in ("b01", "b05"):
        shutil.copy(mission_path(mid), missions / f"m_{mid}.toml")
    own = write_campaign(missions, mine, {"m_b01": 0.2, "m_b05": 0.4})
    assert find_campaign(mine, missions, (), ["m_b05"]).source == str(own)
    # a bundled mission is compared with the campaign that measured it
    assert find_campaign(mine, mission_path("b05").parent, (), ["b05"]).source == str(bundled)
    # a campaign of other shapes is never found for these, and the bundled table never for other shapes
    assert find_campaign(load_catalog(), missions, (), ["m_b05"]).source == "bundled"
    write_campaign(tmp_path / "other", load_catalog(), {"b01": 0.0})
    assert find_campaign(mine, tmp_path / "other").source == str(bundled)


def test_a_row_counts_only_while_its_mission_is_the_file_measured(tmp_path):
    d, mine = box(tmp_path)
    write_campaign(d, mine, {"own_b01": 0.1, "own_b05": 0.3})
    assert set(find_campaign(mine, d).rows) == {("own_b01", 2), ("own_b05", 2)}
    (d / "own_b05.toml").write_text((d / "own_b05.toml").read_text().replace('name = "', 'name = "Edited ', 1))
    assert set(find_campaign(mine, d).rows) == {("own_b01", 2)}
    # measured into another folder (campaign DIR --out ELSEWHERE): the file says where its missions are
    elsewhere = write_campaign(tmp_path / "elsewhere", mine, {"own_b01": 0.1}, missions=d)
    doc = json.loads(elsewhere.read_text())
    assert find_campaign(mine, tmp_path / "elsewhere").source == str(d / "difficulty.json")  # own_b01 not there
    elsewhere.write_text(json.dumps({**doc, "missions": str(d)}))
    assert find_campaign(mine, tmp_path / "elsewhere").source == str(elsewhere)


# ---------------------------------------------------------------- a mission among the others
def test_a_mission_is_compared_with_the_others_never_itself_and_your_campaign_is_named_yours(tmp_path):
    d, mine = box(tmp_path)
    source = write_campaign(d, mine, {"own_b01": 0.1, "own_b05": 0.3})
    campaign = find_campaign(mine, d, (), ["own_b05"])
    placed = place_in_campaign(campaign, 0.3, "own_b05", "buddy", 2)
    assert placed == {"harder_than": 1, "of": 1, "between": ["own_b01", None], "source": str(source)}
    words = placement_phrase(placed)
    assert "bundled" not in words and "1 of 1 of your campaign's missions" in words and str(source) in words
    # a mission the campaign did not measure is compared with all of them
    assert place_in_campaign(campaign, 0.2, "new", "buddy", 2)["of"] == 2
    # the bundled campaign: b05 among the 19 other Buddy missions, called bundled
    shipped = place_in_campaign(find_campaign(load_catalog()), 0.2, "b05", "buddy", 2)
    assert shipped["of"] == 19 and "b05" not in shipped["between"] and "bundled missions" in placement_phrase(shipped)
    (tmp_path / "lone").mkdir()
    lone = load_catalog(other_catalog(tmp_path / "lone"))  # the same shapes, no campaign anywhere near
    assert place_in_campaign(find_campaign(lone), 0.2, "b05", "buddy", 2) is None


@pytest.mark.slow  # a ladder and a validate of one mission, a few deals each
def test_ladder_and_validate_place_an_own_mission_among_the_same_missions(tmp_path):
    d, mine = box(tmp_path)
    write_campaign(d, mine, {"own_b01": 0.1, "own_b05": 0.3})
    ladder = run("ladder", d / "own_b05.toml", "--pieces", d / "mine.toml", "--games", 4, "--workers", 1, "--json")
    assert ladder.exit_code == 0, ladder.output
    placed = json.loads(ladder.stdout)["difficulty"]["campaign"]
    assert placed["of"] == 1 and "own_b01" in placed["between"] and placed["source"] == str(d / "difficulty.json")
    validate = run("validate", d / "own_b05.toml", "--pieces", d / "mine.toml", "--games", 8, "--ladder-games", 4,
                   "--ceiling-games", 4, "--workers", 1, "--json")
    assert validate.exit_code == 0, validate.output
    (entry,) = json.loads(validate.stdout)["files"][0]["difficulty"]
    for key in ("campaign", "shortfall_place"):  # the same missions, never itself
        assert entry[key]["of"] == 1 and entry[key]["source"] == placed["source"]
        assert "own_b05" not in entry[key]["between"]
    assert entry["of"] == 1 and entry["source"] == placed["source"]  # by the clear rate too
    text = run("validate", d / "own_b05.toml", "--pieces", d / "mine.toml", "--games", 8, "--ladder-games", 4,
               "--ceiling-games", 4, "--workers", 1).stdout
    assert "your campaign's missions" in text and "bundled" not in text
    said = run("ladder", d / "own_b05.toml", "--pieces", d / "mine.toml", "--games", 4, "--workers", 1).stdout
    assert "in your campaign: " in said and "bundled" not in said


# ---------------------------------------------------------------- kakapo list [DIR] --pieces
def test_list_takes_a_folder_and_finds_the_campaign_measured_for_the_catalog(tmp_path):
    d, mine = box(tmp_path)
    res = run("list", d, "--pieces", d / "mine.toml", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    rows = {r["id"]: r for r in doc["missions"]}
    assert set(rows) == {"own_b01", "own_b05", "own_b09"}  # the catalog is no mission
    assert rows["own_b09"]["fits"] is False and "red-5" in rows["own_b09"]["why"]
    assert doc["campaign"] is None and "kakapo campaign" in doc["campaign_text"]
    source = write_campaign(d, mine, {"own_b01": 0.1, "own_b05": 0.3})
    doc = json.loads(run("list", d, "--pieces", d / "mine.toml", "--json").stdout)
    rows = {r["id"]: r for r in doc["missions"]}
    assert doc["campaign"] == str(source) and rows["own_b05"]["shortfall"] == {"2": 0.3}
    assert rows["own_b09"]["shortfall"] == {"2": None}
    # the bundled missions with the campaign the README measures into a campaign/ folder beside the catalog
    assert all(v is None for r in json.loads(run("list", "--pieces", d / "mine.toml", "--json").stdout)["missions"]
               for v in r["shortfall"].values())
    write_campaign(d / "campaign", mine, {"b01": 0.05, "b05": 0.25})
    doc = json.loads(run("list", "--pieces", d / "mine.toml", "--json").stdout)
    rows = {r["id"]: r for r in doc["missions"]}
    assert doc["campaign"] == str(d / "campaign" / "difficulty.json") and rows["b05"]["shortfall"]["2"] == 0.25
    assert rows["b09"]["fits"] is False and rows["b02"]["shortfall"]["2"] is None
    text = run("list", "--pieces", d / "mine.toml").stdout
    assert "your campaign" in text and str(d / "campaign" / "difficulty.json") in text
    assert run("list", tmp_path / "nowhere").exit_code == 2


# ---------------------------------------------------------------- one rule for a mission made with other shapes
def test_a_mission_made_with_another_catalog_follows_one_rule_in_every_command(tmp_path):
    d, mine = box(tmp_path)
    made = made_with(d, mine.digest)  # b01 saying it was made with mine.toml, which lies beside it
    for args in (("solve", made), ("validate", made, "--games", 0), ("list", d)):
        res = run(*args, "--json")
        assert res.exit_code == 0, (args, res.output)
        assert "made with the catalog mine.toml beside them: read with its shapes" in res.stderr or \
            "made with the catalog mine.toml beside it: read with its shapes" in res.stderr, args
    # nothing beside it: the same refusal everywhere, naming both digests
    alone = tmp_path / "alone"
    alone.mkdir()
    moved = made_with(alone, mine.digest)
    said = set()
    for args in (("solve", moved), ("validate", moved, "--games", 0), ("show", moved)):
        res = run(*args, "--json")
        assert res.exit_code == 2, (args, res.output)
        doc = json.loads(res.stdout)
        err = doc["error"] if "error" in doc else doc["files"][0]["errors"][0]
        said.add(err["message"])
        assert mine.digest in err["message"] and "--pieces" in err["fix"]
    assert len(said) == 1


# ---------------------------------------------------------------- a prediction's source
def test_a_prediction_comes_from_the_campaign_of_the_games_catalog_or_says_why(tmp_path):
    from solver.analysis.rate import predict

    d, mine = box(tmp_path)
    best, plausible = 3, [3, 4]
    bundled = predict("b14", best, plausible, [2], seed=1, workers=1, catalog=load_catalog())
    assert bundled["source"] == "bundled" and bundled["clear_rate"] is not None
    # played with other shapes: never the bundled shapes' figure
    none = predict("b14", best, plausible, [2], seed=1, workers=1, catalog=mine, near=(d,), simulate=False)
    assert none["clear_rate"] is None and "no campaign measured for this catalog" in none["why"]
    source = write_campaign(d / "campaign", mine, {"b14": 0.4})
    found = predict("b14", best, plausible, [2], seed=1, workers=1, catalog=mine, near=(d,), simulate=False)
    assert found["source"] == str(source) and found["clear_rate"] == 0.6
    assert predict("b09", best, plausible, [2], seed=1, workers=1, catalog=mine,
                   near=(d,))["why"].startswith("it does not fit")
    own = predict(str(d / "own_b05.toml"), best, plausible, [2], seed=1, workers=1, catalog=mine, near=(),
                  simulate=False)
    assert own["clear_rate"] is None and own["mission"] == "own_b05"  # its campaign has no row for it
    write_campaign(d, mine, {"own_b05": 0.5})
    assert predict(str(d / "own_b05.toml"), best, plausible, [2], seed=1, workers=1,
                   catalog=mine)["source"] == str(d / "difficulty.json")


def test_calibrate_looks_up_the_campaign_of_each_games_catalog(tmp_path):
    from solver.analysis.calibrate import Ladder, Table, next_of
    from solver.io.loginputs import mission_text

    d, mine = box(tmp_path)
    m = load_mission(mission_path("b14"), mine)
    game = SimpleNamespace(mission=m, catalog=mine, start=SimpleNamespace(players=2), cleared=True, path="g1")
    table = Table("t", [game])  # type: ignore[list-item]
    ladder = Ladder(1, 1, games_places([d / "games" / "g1.jsonl"]))
    assert ladder.row(game) == (None, None)  # type: ignore[arg-type]
    level = SimpleNamespace(expect=lambda rates: (0.5, 0.4, 0.6))
    said = next_of(table, level, ladder, 0.6)  # type: ignore[arg-type]
    assert said["next"] == [] and "no campaign measured for this catalog" in said["next_why"]
    source = write_campaign(d / "campaign", mine, {"b14": 0.4, "b15": 0.5, "b16": 0.6})
    ladder = Ladder(1, 1, games_places([d / "games" / "g1.jsonl"]))
    row, where = ladder.row(game)  # type: ignore[arg-type]
    assert row is not None and where == str(source) and ladder.of(game).source == str(source)  # type: ignore
    nxt = next_of(table, level, ladder, 0.6)["next"]  # type: ignore[arg-type]
    assert {e["mission"] for e in nxt} == {"b15", "b16"} and {e["source"] for e in nxt} == {str(source)}
    own = write_campaign(d, mine, {"own_b05": 0.3})  # the owner's missions too: next draws from both
    nxt = next_of(table, level, Ladder(1, 1, games_places([d / "games" / "g1.jsonl"])), 0.6)["next"]  # type: ignore
    assert {(e["mission"], e["source"]) for e in nxt} == {("b15", str(source)), ("b16", str(source)),
                                                          ("own_b05", str(own))}
    # the bundled shapes' table for the bundled catalog only, and only for the mission as shipped
    bundled = SimpleNamespace(mission=load_mission(mission_path("b14"), load_catalog()), catalog=load_catalog(),
                              start=SimpleNamespace(players=2))
    assert Ladder(1, 1).row(bundled)[1] == "bundled"  # type: ignore[arg-type]
    text = mission_text(bundled.mission).replace('name = "', 'name = "x', 1)
    edited = load_mission("b14.toml", load_catalog(), text=text, mission_id="b14")
    assert Ladder(1, 1).row(SimpleNamespace(mission=edited, catalog=load_catalog(),  # type: ignore[arg-type]
                                            start=SimpleNamespace(players=2))) == (None, None)


def test_a_mission_of_yours_named_like_a_bundled_one_keeps_its_own_figures(tmp_path):
    d, mine = box(tmp_path)
    edited = mission_path("b05").read_text().replace('name = "', 'name = "My ', 1)
    (d / "b05.toml").write_text(edited)  # the owner's own b05: another board than the bundled one
    own = write_campaign(d, mine, {"b05": 0.9, "own_b01": 0.1})
    bundled = write_campaign(d / "campaign", mine, {"b05": 0.2, "b01": 0.1})
    listed = json.loads(run("list", "--pieces", d / "mine.toml", "--json").stdout)
    assert listed["campaign"] == str(bundled)  # the table that measured the bundled files, not the owner's
    assert {r["id"]: r for r in listed["missions"]}["b05"]["shortfall"]["2"] == 0.2
    mine_listed = json.loads(run("list", d, "--pieces", d / "mine.toml", "--json").stdout)
    assert mine_listed["campaign"] == str(own)
    assert {r["id"]: r for r in mine_listed["missions"]}["b05"]["shortfall"]["2"] == 0.9
