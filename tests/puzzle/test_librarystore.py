"""The planner's library on disk: read back equal, never trusted when damaged, foreign or wrong,
and planner_library builds it only when no trustworthy file is there; the libraries shipped for
the bundled missions are the ones the code builds, and current."""

import gzip
import json

import pytest

from solver.game import planner
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_missions
from solver.puzzle import librarystore
from tests.helpers.paths import ROOT

SHIPPED = librarystore.shipped_path


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(librarystore, "cache_root", lambda: tmp_path)
    monkeypatch.setattr(librarystore, "bundled_missions", lambda: tmp_path / "shipped")  # none shipped
    monkeypatch.setattr(planner, "_LIBRARIES", {})
    return tmp_path


@pytest.fixture
def mission(catalog):
    return load_mission(ROOT / "missions/party/p13.toml", catalog)  # pre-placed pieces too


def test_round_trip_and_reuse(store, mission, catalog, monkeypatch):
    built = planner.planner_library(mission, catalog)
    path = librarystore.library_path(mission, catalog)
    assert path.parent.parent == store and path.is_file() and len(built) > 10
    assert librarystore.load(mission, catalog) == built

    def no_build(*a, **k):
        raise AssertionError("the library was built again")

    monkeypatch.setattr(planner, "_LIBRARIES", {})
    monkeypatch.setattr("solver.puzzle.library.build_library", no_build)
    assert planner.planner_library(mission, catalog) == built  # a second run reads the file
    # the copy shipped with kakapo is this same library, and read when the cache has none
    path.unlink()
    monkeypatch.setattr(librarystore, "bundled_missions", bundled_missions)
    monkeypatch.setattr(planner, "_LIBRARIES", {})
    assert planner.planner_library(mission, catalog) == built


def test_the_shipped_libraries_are_current(catalog):
    """One per bundled mission and kind, for the code as it is (else: python -m solver.analysis.libraries)."""
    from solver.analysis.libraries import wanted

    want = {SHIPPED(m, catalog, kind).name for m, kind in wanted(catalog)}
    have = {p.name for p in (ROOT / "missions/libraries").glob("*.json.gz")}
    assert want == have, "the shipped libraries are not the code's: run python -m solver.analysis.libraries"
    b01 = load_mission(ROOT / "missions/buddy/b01.toml", catalog)
    doc = json.loads(gzip.decompress(SHIPPED(b01, catalog, "deal-2").read_bytes()))
    assert doc["mission"] == "b01" and doc["kind"] == "deal-2" and doc["solutions"]


@pytest.mark.slow
def test_a_damaged_shipped_file_is_not_trusted(store, mission, catalog, monkeypatch):
    built = planner.planner_library(mission, catalog)
    librarystore.library_path(mission, catalog).unlink()
    shipped = librarystore.write_shipped(mission, catalog, built)
    assert shipped.parent == store / "shipped" / "libraries" and librarystore.load(mission, catalog) == built
    good = shipped.read_bytes()
    shipped.write_bytes(good[: len(good) // 2])  # cut short
    assert librarystore.load(mission, catalog) is None
    doc = json.loads(gzip.decompress(good))
    doc["solutions"][0] = doc["solutions"][0][:-1]  # one piece fewer: it no longer clears the mission
    shipped.write_bytes(gzip.compress(json.dumps(doc).encode()))
    assert librarystore.load(mission, catalog) is None


def damage_file(path, damage: str) -> None:
    doc = json.loads(path.read_text())
    if damage == "truncated":
        path.write_text(path.read_text()[:100])
    elif damage == "not json":
        path.write_bytes(b"\x00\xff")
    elif damage == "other key":
        doc["key"] = "0" * 32
        path.write_text(json.dumps(doc))
    elif damage == "illegal":  # two pieces on one cell
        first = doc["solutions"][0]
        first[1]["cells"] = first[0]["cells"]
        path.write_text(json.dumps(doc))
    else:  # one piece fewer: the birds are no longer all scanned
        doc["solutions"][0] = doc["solutions"][0][:-1]
        path.write_text(json.dumps(doc))


@pytest.mark.slow
def test_a_file_that_cannot_be_trusted_is_built_again(store, mission, catalog, monkeypatch):
    built = planner.planner_library(mission, catalog)
    path = librarystore.library_path(mission, catalog)
    damage_file(path, "other key")
    assert librarystore.load(mission, catalog) is None
    monkeypatch.setattr(planner, "_LIBRARIES", {})
    assert planner.planner_library(mission, catalog) == built  # built again ...
    assert librarystore.load(mission, catalog) == built  # ... and written again


@pytest.mark.slow
def test_no_damaged_file_is_trusted(store, mission, catalog):
    """Each kind of damage is refused (load gives None, so the planner builds the library again,
    as the test above shows): one build, each damage written over a good copy."""
    planner.planner_library(mission, catalog)
    path = librarystore.library_path(mission, catalog)
    good = path.read_bytes()
    for damage in ("truncated", "not json", "illegal", "does not clear"):
        path.write_bytes(good)
        damage_file(path, damage)
        assert librarystore.load(mission, catalog) is None, damage


def test_the_key_is_the_content_not_the_name(mission, catalog):
    from dataclasses import replace

    renamed = replace(mission, id="x99", name="Other", story="")
    assert librarystore.library_key(renamed, catalog) == librarystore.library_key(mission, catalog)
    harder = replace(mission, rounds=mission.rounds - 1)
    assert librarystore.library_key(harder, catalog) != librarystore.library_key(mission, catalog)


@pytest.mark.slow
def test_an_unwritable_cache_only_costs_time(tmp_path, monkeypatch, mission, catalog):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setattr(librarystore, "cache_root", lambda: blocked)
    monkeypatch.setattr(librarystore, "bundled_missions", lambda: tmp_path / "none shipped")
    monkeypatch.setattr(planner, "_LIBRARIES", {})
    assert len(planner.planner_library(mission, catalog)) > 10
