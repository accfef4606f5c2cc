"""The piece editor's catalog (your copy of the game, in the Pieces tab): a catalog's text checked by
the rules `--pieces` loads it with, every independent problem with its line and piece; saved into
`--dir` only when it loads, never through a link nor over a file unasked, and listed at once;
`kakapo pieces --pieces BAD` refusing it (exit 2) naming the line and the piece."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from solver.app.catalogs import check_catalog
from solver.cli import main
from solver.core.errors import InputError
from solver.io.catalog import DEFAULT_CATALOG, load_catalog

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.studio.app import create_app
from tests.helpers.catalogs import RED_5

BUNDLED = DEFAULT_CATALOG.read_text(encoding="utf-8")
RED_5_LINE = BUNDLED.splitlines().index(RED_5) + 1
TWO_PARTS = BUNDLED.replace(RED_5, '5 = "#.#/#.."')


@pytest.fixture
def studio(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    with TestClient(app) as client:
        client.folder = tmp_path
        client.ctx = app.state.ctx
        yield client


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


# ---------------------------------------------------------------- the check
def test_the_bundled_catalog_is_valid_and_listed_as_kakapo_pieces_lists_it():
    doc = check_catalog(BUNDLED, "pieces.toml")
    cli = json.loads(CliRunner().invoke(main, ["pieces", "--json"]).stdout)
    assert doc == {"valid": True, "errors": [], "pieces": cli, "digest": load_catalog().digest}


def test_every_independent_problem_is_reported_with_its_line_and_piece():
    text = (TWO_PARTS.replace('3 = "###"', "3 = 3", 1)     # red-3: not a string
            .replace("[green]", "[gren]")                  # a misspelt table: said once, where it is
            .replace('8 = "#.#/###"', '8 = "#x#"', 1)      # red-8: a character that is no cell
            + '\n9 = "#"\n')                               # [purple] has a key 9
    blue = text.index("[blue]")
    text = text[:blue] + text[blue:].replace('\n2 = "', '\n# 2 gone\n#2 = "', 1)  # blue-2 missing
    doc = check_catalog(text, "mine.toml")
    assert not doc["valid"]
    got = [(e["line"], e["piece"]) for e in doc["errors"]]
    assert got == [(line_of(text, "3 = 3"), "red-3"), (RED_5_LINE, "red-5"), (line_of(text, '8 = "#x#"'), "red-8"),
                   (line_of(text, "[gren]"), None), (line_of(text, "[blue]"), "blue-2"),
                   (line_of(text, '9 = "#"'), None)]
    words = {e["piece"] or e["message"]: e["message"] for e in doc["errors"]}
    assert "not one edge-connected" in words["red-5"] and "'x'" in words["red-8"]
    assert "did you mean [green]" in words[next(k for k in words if "[gren]" in k)]
    assert "no piece for value 2" in words["blue-2"]
    assert all(e["fix"] for e in doc["errors"])
    # a piece that breaks a rule is still drawn as it is; one that is no drawing is not
    drawn = {p["piece"]: p for p in doc["pieces"]}
    assert drawn["red-5"] == {"piece": "red-5", "cells": 3, "shape": "#.#/#.."}
    assert "red-3" not in drawn and "red-8" not in drawn and "blue-2" not in drawn
    # the same problems the loader refuses the file for: one set of rules
    with pytest.raises(InputError) as e:
        load_catalog("mine.toml", text)
    assert [(x.line, x.problem) for x in e.value.all()] == [(x["line"], x["message"]) for x in doc["errors"]]


def test_the_size_limit_and_an_empty_piece_are_the_loaders():
    big = BUNDLED.replace('1 = "#"', '1 = "' + "#" * 145 + '"', 1)
    doc = check_catalog(big, "big.toml")
    assert [(e["piece"], e["line"]) for e in doc["errors"]] == [("red-1", line_of(big, '1 = "###'))]
    assert "144" in doc["errors"][0]["message"]
    empty = BUNDLED.replace(RED_5, '5 = "...."')
    assert [(e["piece"], e["message"]) for e in check_catalog(empty, "e.toml")["errors"]] == \
        [("red-5", "red-5: shape has no filled cell '#'")]


def test_a_piece_given_twice_is_named_on_its_line():
    text = BUNDLED.replace(RED_5, RED_5 + '\n5 = "#"')
    doc = check_catalog(text, "twice.toml")
    assert doc["valid"] is False and doc["pieces"] == []
    assert [(e["line"], e["piece"]) for e in doc["errors"]] == [(RED_5_LINE + 1, "red-5")]
    assert "malformed TOML" in doc["errors"][0]["message"]


def test_too_many_problems_are_cut_short():
    text = "".join(f"[t{i}]\n" for i in range(3000)) + BUNDLED
    doc = check_catalog(text, "many.toml")
    assert 1 < len(doc["errors"]) <= 50


# ---------------------------------------------------------------- the command line
def test_kakapo_pieces_refuses_a_broken_catalog_naming_the_line_and_the_piece(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(TWO_PARTS.replace('2 = "##"', '2 = "#.#"', 1), encoding="utf-8")
    res = CliRunner().invoke(main, ["pieces", "--pieces", str(bad)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{bad}, line {RED_5_LINE}: red-5:" in res.output
    assert f"{bad}, line {line_of(bad.read_text(), '2 = ')}: red-2:" in res.output  # every problem, not the first
    res = CliRunner().invoke(main, ["pieces", "--pieces", str(bad), "--json"])
    assert res.exit_code == 2
    doc = json.loads(res.stdout)
    assert [(e["line"], e["message"].split(":")[0]) for e in doc["errors"]] == \
        [(line_of(bad.read_text(), '2 = '), "red-2"), (RED_5_LINE, "red-5")]


# ---------------------------------------------------------------- the studio
def test_validate_answers_200_either_way(studio):
    ok = studio.post("/api/catalogs/validate", json={"text": BUNDLED})
    assert ok.status_code == 200 and ok.json()["valid"] and len(ok.json()["pieces"]) == 40
    bad = studio.post("/api/catalogs/validate", json={"text": TWO_PARTS})
    assert bad.status_code == 200
    assert bad.json()["errors"] == [{"line": RED_5_LINE, "piece": "red-5",
                                     "message": "red-5: shape's filled cells are not one edge-connected polyomino",
                                     "fix": "draw one edge-connected piece with '#' cells"}]
    assert studio.post("/api/catalogs/validate", json={"text": "[red\n"}).json()["errors"][0]["line"] == 1
    assert studio.post("/api/catalogs/validate", json={"text": BUNDLED, "x": 1}).status_code == 422


def test_the_text_of_the_bundled_catalog_and_of_a_folder_catalog(studio):
    res = studio.get("/api/catalogs/text")
    assert res.status_code == 200 and res.json() == {"file": None, "text": BUNDLED}
    (studio.folder / "broken.toml").write_text(TWO_PARTS, encoding="utf-8")
    assert studio.get("/api/catalogs/text", params={"file": "broken.toml"}).json() == \
        {"file": "broken.toml", "text": TWO_PARTS}  # a catalog that does not load opens too: to be mended
    (studio.folder / "mission.toml").write_text('name = "x"\n', encoding="utf-8")
    assert studio.get("/api/catalogs/text", params={"file": "mission.toml"}).status_code == 422
    assert studio.get("/api/catalogs/text", params={"file": "none.toml"}).status_code == 404
    assert studio.get("/api/catalogs/text", params={"file": "../x.toml"}).status_code == 400
    os.symlink(studio.folder / "broken.toml", studio.folder / "link.toml")
    assert studio.get("/api/catalogs/text", params={"file": "link.toml"}).status_code == 409


def test_save_writes_a_valid_catalog_listed_at_once(studio):
    text = BUNDLED.replace(RED_5, '5 = "####"')
    res = studio.post("/api/catalogs/save", json={"file": "mine.toml", "text": text})
    assert res.status_code == 200 and res.json() == {"file": "mine.toml", "saved": True}
    assert (studio.folder / "mine.toml").read_text(encoding="utf-8") == text
    rows = {r["file"]: r for r in studio.get("/api/catalogs").json()}
    assert rows["mine.toml"]["valid"] and not rows["mine.toml"]["current"]
    assert studio.post("/api/catalogs", json={"file": "mine.toml"}).json()["pieces"][4]["shape"] == "####"
    # 409 without replace; nothing changed
    again = studio.post("/api/catalogs/save", json={"file": "mine.toml", "text": BUNDLED})
    assert again.status_code == 409 and '"replace": true' in again.json()["error"]["fix"]
    assert (studio.folder / "mine.toml").read_text(encoding="utf-8") == text
    # replacing the catalog in use: the studio uses it as it is now
    res = studio.post("/api/catalogs/save", json={"file": "mine.toml", "text": BUNDLED, "replace": True})
    assert res.status_code == 200 and (studio.folder / "mine.toml").read_text(encoding="utf-8") == BUNDLED
    assert studio.get("/api/pieces").json()["pieces"][4]["shape"] == "###/#.."


def test_save_refuses_an_invalid_catalog_and_bad_names(studio):
    res = studio.post("/api/catalogs/save", json={"file": "bad.toml", "text": TWO_PARTS})
    assert res.status_code == 422
    assert f"line {RED_5_LINE}: red-5" in res.json()["error"]["message"]
    assert not (studio.folder / "bad.toml").exists()
    for name in ("../up.toml", "sub/x.toml", "x.txt", ".hidden.toml", "a\x01b.toml", "a\\b.toml"):
        res = studio.post("/api/catalogs/save", json={"file": name, "text": BUNDLED})
        assert res.status_code == 400, name
    assert sorted(p.name for p in studio.folder.iterdir()) == [".kakapo"]


def test_save_never_writes_through_a_link(studio, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "target.toml"
    outside.write_text("keep", encoding="utf-8")
    os.symlink(outside, studio.folder / "linked.toml")
    for replace in (False, True):
        res = studio.post("/api/catalogs/save", json={"file": "linked.toml", "text": BUNDLED, "replace": replace})
        assert res.status_code == 409 and "link" in res.json()["error"]["message"]
    assert outside.read_text(encoding="utf-8") == "keep" and (studio.folder / "linked.toml").is_symlink()


# ---------------------------------------------------------------- the pieces drawn: the server writes the file
def test_the_pieces_drawn_are_written_by_the_server_checked_and_saved(studio):
    drawn = {p["piece"]: p["shape"] for p in studio.get("/api/pieces").json()["pieces"]}
    drawn["red-5"] = "###/#.."
    checked = studio.post("/api/catalogs/validate", json={"pieces": drawn, "source": "the bundled catalog"}).json()
    assert checked["valid"] and checked["digest"] == load_catalog().digest
    saved = studio.post("/api/catalogs/save", json={"file": "mine.toml", "pieces": drawn, "source": "x\ny.toml"})
    assert saved.json() == {"file": "mine.toml", "saved": True}
    text = (studio.folder / "mine.toml").read_text(encoding="utf-8")
    assert text.startswith("# kakapo piece catalog, drawn in the studio's Pieces tab (started from x y.toml).\n")
    assert '\n[red]\n1 = "#"\n' in text and text.endswith('8 = "' + drawn["purple-8"] + '"\n')
    assert load_catalog(studio.folder / "mine.toml").digest == load_catalog().digest
    # a piece not drawn is written empty, and said as the catalog refuses it
    del drawn["blue-2"]
    broken = studio.post("/api/catalogs/validate", json={"pieces": drawn}).json()
    assert not broken["valid"] and [e["piece"] for e in broken["errors"]] == ["blue-2"]
    refused = studio.post("/api/catalogs/save", json={"file": "two.toml", "pieces": drawn})
    assert refused.status_code == 422 and not (studio.folder / "two.toml").exists()
    # only pieces, drawn in '#', '.' and '/': nothing else reaches the file
    for bad in ({"red-9": "#"}, {"red-1": '#"\n[x]'}, {"red-1": "#" * 201}):
        assert studio.post("/api/catalogs/validate", json={"pieces": bad}).status_code == 422, bad
    both = studio.post("/api/catalogs/validate", json={"text": BUNDLED, "pieces": drawn})
    assert both.status_code == 422 and "one of them" in both.json()["error"]["message"]
    assert studio.post("/api/catalogs/validate", json={}).status_code == 422
