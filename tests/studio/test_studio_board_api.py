"""What the page as the table needs of the API: the catalog drawn and chosen, a seat's shapes, last
placement and board state, the exact answer with the cards gone (as `solve --exclude`), the chance
from where a table stands (the job, and `kakapo chance`), and the review's decisions with their
boards."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.cli import main
from solver.io.paths import bundled_mission
from solver.studio.app import create_app
from tests.helpers.client import client_for, game_of, start
from tests.helpers.paths import ROOT

CATALOG = (ROOT / "missions/pieces.toml").read_text(encoding="utf-8")


def wait_job(client, job_id, limit=300):
    for _ in range(limit * 5):
        state = client.get(f"/api/jobs/{job_id}").json()
        if state["state"] in ("done", "failed", "cancelled"):
            return state
        time.sleep(0.2)
    raise AssertionError("the job did not end")


def test_the_catalog_is_drawn_and_chosen_among_the_folders(tmp_path):
    (tmp_path / "mine.toml").write_text(CATALOG.replace('1 = "#"', '1 = "##"', 1), encoding="utf-8")  # red-1 of two
    (tmp_path / "broken.toml").write_text("[red]\n1 = 5\n", encoding="utf-8")
    client = client_for(tmp_path)
    pieces = client.get("/api/pieces").json()
    assert pieces["file"] is None and len(pieces["pieces"]) == 40
    cli = json.loads(CliRunner().invoke(main, ["pieces", "--json"]).stdout)
    assert pieces["pieces"] == cli
    rows = {r["file"]: r for r in client.get("/api/catalogs").json()}
    assert rows[None]["current"] and rows["mine.toml"]["valid"] and not rows["broken.toml"]["valid"]
    assert "line" in rows["broken.toml"]["error"]
    res = client.post("/api/catalogs", json={"file": "broken.toml"})
    assert res.status_code == 422
    res = client.post("/api/catalogs", json={"file": "mine.toml"})
    assert res.status_code == 200 and res.json()["pieces"][0] == {"piece": "red-1", "cells": 2, "shape": "##"}
    assert client.get("/api/catalogs").json()[0]["current"] is False
    assert client.post("/api/catalogs", json={"file": "../x.toml"}).status_code == 400
    assert client.post("/api/catalogs", json={"file": "none.toml"}).status_code == 404


def test_a_seats_document_carries_its_shapes_its_last_placement_and_the_board_state(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner", seed=3, game=0)
    url = f"/api/games/{gid}/seats/0?token={tokens[0]}"
    for _ in range(60):
        g = game_of(client, gid)
        doc = client.get(url).json()
        if g.state.board.pieces.keys() - {p.card for p in g.mission.placed} or doc["result"]:
            break
        client.post(url, json={"choice": 1, "question": doc["question"]["id"]})
    g = game_of(client, gid)
    doc = client.get(url).json()
    assert doc["shapes"]["red-1"] == g.catalog[next(c for c in g.catalog if str(c) == "red-1")].format()
    placed = [p for r in g.state.history for p in r.placements] + list(g.state.placed)
    assert placed and doc["last"] == placed[-1].cell_names()
    assert set(doc["state"]) >= {"scanned", "scanned_cells", "needed"}
    if doc["question"] and doc["question"]["kind"] == "place":
        assert len(doc["question"]["legal"]) == doc["question"]["legal_places"]


def test_the_exact_answer_with_the_cards_gone_is_solve_exclude(tmp_path):
    client = client_for(tmp_path)
    text = bundled_mission("b05").read_text(encoding="utf-8")
    gone = ["green-7", "blue-2", "red-3", "yellow-5"]
    doc = client.post("/api/solve", json={"text": text, "name": "b05.toml", "exclude": gone}).json()
    cli = json.loads(CliRunner().invoke(main, ["solve", "b05", "--exclude", ",".join(gone), "--json"]).stdout)
    assert {k: doc[k] for k in ("status", "pieces_used", "optimal")} == {k: cli[k] for k in ("status", "pieces_used",
                                                                                           "optimal")}
    assert not {p["piece"] for p in doc["placements"]} & set(gone)
    assert client.post("/api/solve", json={"text": text, "exclude": ["red-9"]}).status_code == 422


@pytest.mark.slow
def test_the_chance_job_is_kakapo_chance(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    text = bundled_mission("b05").read_text(encoding="utf-8")
    gone = ["red-1", "red-2", "red-3", "blue-4"]
    with TestClient(app) as client:
        res = client.post("/api/jobs", json={"kind": "chance", "text": text, "name": "b05.toml", "games": 8, "seed": 2,
                                             "exclude": gone, "rounds": 5, "skills": 4, "trump": "red"})
        assert res.status_code == 200, res.text
        state = wait_job(client, res.json()["id"])
    assert state["state"] == "done", state
    doc = state["result"]
    cli = json.loads(CliRunner().invoke(main, ["chance", "b05", "--exclude", ",".join(gone), "--rounds", "5",
                                               "--skills", "4", "--trump", "red", "--games", "8", "--seed", "2",
                                               "--json"]).stdout)
    assert doc == cli and set(doc) >= {"clear_rate", "ci95", "games"} and doc["games"] == 8


def test_a_chance_that_cannot_be_is_refused_before_it_queues(tmp_path):
    client = client_for(tmp_path)
    text = bundled_mission("b05").read_text(encoding="utf-8")
    for extra, words in (({"exclude": ["red-1"]}, "multiple"), ({"rounds": 9}, "round"),
                         ({"exclude": ["red-1", "red-1", "red-2", "red-3"]}, "twice")):
        res = client.post("/api/jobs", json={"kind": "chance", "text": text, "games": 4, **extra})
        assert res.status_code == 422 and words in res.json()["error"]["message"], (extra, res.text)
    res = CliRunner().invoke(main, ["chance", "b05", "--exclude", "red-1"])
    assert res.exit_code == 2 and "multiple" in res.output and "Traceback" not in res.output


@pytest.mark.slow
def test_the_review_carries_each_decisions_board(tmp_path):
    log = tmp_path / "g.jsonl"
    CliRunner().invoke(main, ["play", "b03", "--policy", "greedy", "--seed", "2", "--log", str(log)])
    doc = json.loads(CliRunner().invoke(main, ["review", str(log), "--json"]).stdout)
    events = [json.loads(x) for x in log.read_text().splitlines()]
    assert doc["board"] and doc["policy"] == "greedy" and doc["decisions"]
    for d in doc["decisions"]:
        r = events[d["round"]]
        before = {p["piece"] for p in events[0].get("placed", [])}
        assert {p["piece"] for p in d["pieces"]} >= before
        if d["kind"] == "placement":
            assert d["played_cells"] in [p["cells"] for p in r["placements"]]


def test_the_review_job_streams_each_decision_as_it_is_judged(tmp_path):
    """The page lists the decisions while the rest are judged: the job's ``partial`` grows a
    decision at a time, each as the finished review has it (without its boards)."""
    log = tmp_path / "g.jsonl"
    CliRunner().invoke(main, ["play", "b05", "--policy", "greedy", "--seed", "3", "--log", str(log)])
    client = client_for(tmp_path)
    job = client.post("/api/jobs", json={"kind": "review", "text": log.read_text(), "name": "g.jsonl"}).json()
    seen = []
    for _ in range(1500):
        state = client.get(f"/api/jobs/{job['id']}").json()
        if state["partial"]:
            seen.append(len(state["partial"]))
        if state["state"] in ("done", "failed", "cancelled"):
            break
        time.sleep(0.05)
    assert state["state"] == "done" and state["partial"] is None, state
    shown = client.app.state.ctx.jobs.get(job["id"]).shown
    boards = ("pieces", "best_cells", "played_cells")
    final = [{k: v for k, v in d.items() if k not in boards} for d in state["result"]["decisions"]]
    def moves(ds):
        return [(d["round"], d["seat"], d["played"]) for d in ds]
    assert moves(shown) == moves(final)
    # only the losing decision's contenders sharpen
    assert sum(a == b for a, b in zip(shown, final, strict=True)) >= len(final) - 3
    assert seen == sorted(seen)  # it only grows
