"""The job registry has teeth: every kind the studio may be asked for runs from its request through
its own runner (``app/registry.py``), answers the document of the command of its name with
--json, and says its finished result in one plain line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.app.jobrunner import run_job
from solver.app.jobwords import fixed, pct, rung_name
from solver.app.registry import JOBS, NEEDS
from solver.cli import main
from solver.io.paths import mission_path

B01 = mission_path("b01")
TIMING = ("seconds", "games_per_second")  # the only figures that differ from run to run


def untimed(doc):
    """The document without its timings, at any depth."""
    return json.loads(json.dumps(doc), object_hook=lambda d: {k: v for k, v in d.items() if k not in TIMING})


def command_json(*args) -> dict:
    res = CliRunner().invoke(main, [str(a) for a in args] + ["--json"])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """A finished game of b01 (the planner in both seats), as a log file."""
    path = tmp_path_factory.mktemp("game") / "g.jsonl"
    res = CliRunner().invoke(main, ["play", "b01", "--policy", "planner", "--seed", "3", "--log", str(path)])
    assert res.exit_code in (0, 1) and path.is_file(), res.output
    return path


def mission_request(games: int) -> dict:
    return {"text": B01.read_text(), "name": "b01.toml", "games": games, "seed": 1}


def games_request(log) -> dict:
    return {"names": ["g1"], "texts": [log.read_text()], "games": 0, "seed": 1}


# a tiny request for each kind; the document it must answer, and what its line must say
def check_simulate(doc, log):
    assert untimed(doc) == untimed(command_json("simulate", B01, "--games", 20, "--workers", 1))
    return [doc["policy"], pct(doc["clear_rate"]), f"of {doc['games']} games"]


def check_ceiling(doc, log):
    here = command_json("ceiling", B01, "--games", 2, "--workers", 1)
    assert untimed(doc) == untimed({"mission": "b01", "players": 2, "games": 2, "seed": 1, **here})
    return [pct(doc["clear_rate"]), f"{doc['undecided']} undecided"]


def check_chance(doc, log):
    assert doc == command_json("chance", B01, "--games", 4, "--exclude", "red-1,red-2,red-3,red-4",
                               "--rounds", 7)
    assert doc["gone"] and doc["rounds_left"] == 7
    return [pct(doc["clear_rate"]), "of 4 deals"]


def check_ladder(doc, log):
    assert untimed(doc) == untimed(command_json("ladder", B01, "--games", 2, "--workers", 1))
    return [f"shortfall {fixed(doc['difficulty']['value'], 3)}", pct(doc["ceiling"]["clear_rate"]), "in the campaign"]


def check_review(doc, log):
    assert untimed(doc) == untimed(command_json("review", log, "--workers", 1))
    return [f"{len(doc['decisions'])} decisions judged"]


def check_rate(doc, log):
    here = command_json("rate", log, "--workers", 1)  # the job also predicts every bundled mission
    assert [doc[k] for k in ("rungs", "best", "plausible")] == [here[k] for k in ("rungs", "best", "plausible")]
    assert {p["mission"] for p in doc["predictions"]} >= {"b01", "p20"}
    return [rung_name(doc["best"]), "from 1 game(s)"]


def check_calibrate(doc, log):
    (table,) = doc["tables"]
    assert table["games"] == 1 and doc["words"]["tables"][0]["summary"].startswith("1 game(s)")
    return ["1 table(s) from 1 finished game(s)", f"{table['cleared']} cleared"]


REQUESTS = {
    "simulate": (lambda log: mission_request(20), check_simulate),
    "ceiling": (lambda log: mission_request(2), check_ceiling),
    "chance": (lambda log: {**mission_request(4), "exclude": ["red-1,red-2", "red-3", "red-4"], "rounds": 7},
               check_chance),
    "ladder": (lambda log: mission_request(2), check_ladder),
    "review": (lambda log: {"text": log.read_text(), "name": "g.jsonl", "games": 0, "seed": 1}, check_review),
    "rate": (games_request, check_rate),
    "calibrate": (games_request, check_calibrate),
}

def test_every_registered_job_kind_has_a_tiny_request_here_and_says_what_it_needs():
    assert set(REQUESTS) == set(JOBS), "give a new job kind its tiny request in REQUESTS"
    assert all(kind.needs in NEEDS and kind.summary and callable(kind.run) and callable(kind.words)
               for kind in JOBS.values())


@pytest.mark.parametrize("kind", list(JOBS))
def test_every_job_kind_runs_from_its_request_through_the_registry(kind, catalog, game_log):
    make, check = REQUESTS[kind]
    told, shown = [], []
    doc = run_job({"kind": kind, **make(game_log)}, catalog, 1, progress=told.append, shown=shown.append)
    said = check(doc, game_log)
    assert told and all(0 <= f <= 1 for f in told) and told[-1] >= 0.5  # its progress, as fractions
    assert (len(shown) == len(doc["decisions"])) if kind == "review" else not shown
    line = JOBS[kind].words(doc)
    assert "\n" not in line and all(part in line for part in said), (line, said)
    meaning = JOBS[kind].meaning
    assert meaning is None or meaning(doc).startswith("What it means: ")


def test_the_words_write_figures_as_the_page_does():
    # a half rounded up, as JavaScript's toFixed rounds the exact value (Python's format: 0.2 %, 6.2 %);
    # 41.55 is a little under its half as a float
    assert [pct(0.0025), pct(0.0625), pct(0.4155), pct(1), fixed(0.0625, 3), fixed(0, 3)] == \
        ["0.3 %", "6.3 %", "41.5 %", "100.0 %", "0.063", "0.000"]
    assert [rung_name({"policy": "search", "samples": 16}), rung_name({"policy": "planner", "samples": None})] == \
        ["search-16", "planner"]
    ladder = {"players": 2, "ceiling": {"clear_rate": 0.9},
              "difficulty": {"value": 0.25, "campaign": {"harder_than": 3, "of": 19, "between": ["b04", "b05"],
                                                         "source": "bundled"}}}
    assert JOBS["ladder"].words(ladder) == ("ladder: shortfall 0.250; open-hand ceiling 90.0 %; in the campaign: "
                                           "harder than 3 of the 19 other bundled missions for 2 players, just "
                                           "after b04")
    ladder["difficulty"] = {"value": 0.25, "campaign": None, "campaign_text": "no campaign measured for this catalog"}
    assert JOBS["ladder"].words(ladder).endswith("; no campaign measured for this catalog")
