"""The ladder in plain words: the jobs' history newest first with their states (`GET /api/jobs`,
as docs/studio.md says), a finished job's result from the history after the
studio started again, the glossary the page links to (the same as docs/policies.md's), and the
policies' words the page shows beside its menus."""

from __future__ import annotations

import re
import time
from html import unescape

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.app.glossary import GLOSSARY, glossary_markdown
from solver.app.jobmeaning import rounded, whole
from solver.app.jobwords import fixed, pct
from solver.app.registry import JOBS
from solver.studio.app import create_app
from solver.studio.jobqueue import Job, result_words
from tests.helpers.paths import ROOT

B05 = (ROOT / "missions/buddy/b05.toml").read_text(encoding="utf-8")


def wait_for(client, job_id, states, timeout=120):
    t0 = time.time()
    while time.time() - t0 < timeout:
        doc = client.get(f"/api/jobs/{job_id}").json()
        if doc["state"] in states:
            return doc
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} never reached {states}")


def test_the_history_is_newest_first_within_one_second(tmp_path):
    """Quick: the jobs wait (no worker serves them), started within the same second."""
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    app.state.ctx.jobs.shutdown()
    client = TestClient(app)
    ids = [client.post("/api/jobs", json={"kind": kind, "text": B05, "games": 3}).json()["id"]
           for kind in ("simulate", "ceiling", "ladder", "simulate")]
    rows = client.get("/api/jobs").json()
    assert [r["id"] for r in rows] == ids[::-1]
    assert [(r["kind"], r["state"]) for r in rows] == [("simulate", "queued"), ("ladder", "queued"),
                                                       ("ceiling", "queued"), ("simulate", "queued")]
    assert len({r["created"] for r in rows}) <= 2  # the same second, mostly: the order is not the clock's


@pytest.mark.slow  # three jobs, each in a worker process of its own (about 9 s)
def test_the_history_lists_the_jobs_newest_first_with_their_states(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    with TestClient(app) as client:
        first = client.post("/api/jobs", json={"kind": "simulate", "text": B05, "games": 20, "seed": 1}).json()
        done, token = first["id"], first["token"]
        assert wait_for(client, done, ("done", "failed"))["state"] == "done"
        running = client.post("/api/jobs", json={"kind": "simulate", "text": B05, "games": 50_000}).json()["id"]
        queued = client.post("/api/jobs", json={"kind": "ceiling", "text": B05, "games": 2}).json()["id"]
        wait_for(client, running, ("running",))
        rows = client.get("/api/jobs").json()
        assert [r["id"] for r in rows] == [queued, running, done]  # newest first, in one second or not
        assert [r["state"] for r in rows] == ["queued", "running", "done"]
        assert rows[2]["progress"] == 1.0 and rows[2]["ended"] and "simulate of" in rows[2]["about"]
        assert all("result" not in r and "token_hash" not in r for r in rows)
        for job in (queued, running):
            client.delete(f"/api/jobs/{job}")
        assert wait_for(client, running, ("cancelled",))["state"] == "cancelled"
        result = client.get(f"/api/jobs/{done}").json()["result"]
    # the studio started again on the folder: the history is kept, a finished job's result with it;
    # off loopback, the history is the host's and a job is followed with its own token
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0, host_token="h" * 24)
    with TestClient(app) as anyone, TestClient(app, headers={"Authorization": "token " + "h" * 24}) as host:
        rows = host.get("/api/jobs").json()
        assert [r["id"] for r in rows] == [queued, running, done]
        assert [r["state"] for r in rows] == ["cancelled", "cancelled", "done"]
        doc = host.get(f"/api/jobs/{done}").json()
        assert doc["state"] == "done" and doc["result"] == result and doc["result"]["games"] == 20
        assert doc["words"] == result_words("simulate", result)  # said again from the result kept
        assert doc["words"]["figure"].startswith("simulate: ") and doc["words"]["glossary"] == "clear-rate"
        assert host.delete(f"/api/jobs/{done}").json()["state"] == "done"  # ended already: nothing to cancel
        assert host.get("/api/jobs/nothing").status_code == 404
        assert anyone.get("/api/jobs").status_code == 403
        assert anyone.get(f"/api/jobs/{done}").status_code == 403
        assert anyone.get(f"/api/jobs/{done}?token=wrong").status_code == 403
        assert anyone.get(f"/api/jobs/{done}?token={token}").json()["result"] == result
        assert anyone.get("/glossary").status_code == 200  # the words are anyone's


def test_the_glossary_page_says_what_docs_policies_says(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    with TestClient(app) as client:
        res = client.get("/glossary")
        rules = client.get("/api/rules").json()
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    assert "script-src" not in res.headers["content-security-policy"]  # nothing runs there
    terms = re.findall(r'<dt id="([a-z-]+)">([^<]*)</dt>\s*<dd>([^<]*)</dd>', res.text)
    assert [(a, unescape(t), unescape(x)) for a, t, x in terms] == list(GLOSSARY)
    for needed in ("rung", "ladder", "shortfall", "open hands", "open-hand ceiling", "greedy", "heuristic",
                   "planner", "search-N", "clear rate", "interval (95 %)"):
        assert needed in {t for _, t, _ in GLOSSARY}
    docs = " ".join((ROOT / "docs/policies.md").read_text(encoding="utf-8").split())
    for line in glossary_markdown().splitlines():
        assert " ".join(line.split()) in docs, line
    assert rules["glossary"] == [{"id": a, "term": t, "text": x} for a, t, x in GLOSSARY]
    # the policies' words the page shows beside its menus: plain, no jargon of the code
    about = {p["name"]: p["about"] for p in rules["policies"]}
    assert set(about) >= {"greedy", "heuristic", "planner", "search"}
    assert not any("one-ply" in a or "uniform" in a for a in about.values())
    # the page's anchors: every term the page links to is in the glossary
    anchors = {a for a, _, _ in GLOSSARY}
    static = ROOT / "solver/studio/static"
    for name in ("results.js", "rules.js", "index.html"):
        for anchor in re.findall(r"/glossary#([a-z-]+)", (static / name).read_text(encoding="utf-8")):
            assert anchor in anchors, (name, anchor)
    rate = (static / "rate.js").read_text(encoding="utf-8")
    linked = {j["glossary"] for j in rules["jobs"] if j["glossary"]}
    linked |= set(re.findall(r'glossaryLink\("([a-z-]+)"', rate))
    assert len(linked) >= 5 and linked <= anchors, linked - anchors


# a result of each kind of job, as the command of that name writes it with --json (the words use only these keys)
RESULTS = {
    "ladder": {"players": 2, "rungs": [{"policy": "greedy", "samples": None}, {"policy": "search", "samples": 64}],
               "ceiling": {"clear_rate": 0.95},
               "difficulty": {"value": 0.2125, "campaign_text": "", "campaign": {
                   "harder_than": 6, "of": 19, "between": ["b06", "b08"], "source": None}}},
    "simulate": {"policy": "heuristic", "clear_rate": 0.8125, "ci95": [0.7, 0.9], "games": 200},
    "ceiling": {"clear_rate": 1.0, "games": 40, "undecided": 2},
    "chance": {"clear_rate": 0.625, "ci95": [0.5, 0.75], "games": 100},
    "review": {"decisions": [{}, {}, {}]},
    "rate": {"best": {"policy": "search", "samples": 16}, "games": 3},
    "calibrate": {"tables": []},
}
SAID = {
    "ladder": ("ladder: shortfall 0.212; open-hand ceiling 95.0 %; in the campaign: harder than 6 of the 19 other "
               "bundled missions for 2 players, just after b06",
               "What it means: a table picked at random among 2 strengths, from greedy (the weakest) to search-64 "
               "(the strongest), loses about 21 in 100 of the deals that can be won; even a team that sees every hand "
               "(open hands) wins only 95 % of the deals: the rest cannot be won at all. Each point of the curve is "
               "one such table (a rung)."),
    "simulate": ("simulate: heuristic clears 81.3 % (95 % interval 70.0 % to 90.0 %) of 200 games",
                 "What it means: a table playing like heuristic ("),
    "ceiling": ("ceiling: open hands clear 100.0 % of 40 deals (2 undecided)",
                "What it means: 100 % of the deals can be won at all, by a team that cheats by seeing every hand; no "
                "real table does better, and 2 deal(s) could not be decided in the time allowed."),
    "chance": ("a careful table clears 62.5 % (95 % interval 50.0 % to 75.0 %) of 100 deals of the unseen cards",
               "What it means: from where the table stands, a careful table wins about 63 % of the ways the unseen "
               "cards may lie."),
    "review": ("review of a game: 3 decisions judged (open the log in the Review tab to see them)", ""),
    "rate": ("rate: the table plays like search-16 (from 3 game(s))",
             "What it means: the people play about as well as the search-16 table ("),
    "calibrate": ("calibrate: 0 table(s) from 0 finished game(s), 0 cleared", ""),
}


def test_every_job_kind_says_its_result_in_words():
    """Each kind of job of the registry carries its words: the figure of its result in one line, what
    it means in one sentence (the page shows them as they are), the glossary's term that explains it."""
    assert set(RESULTS) == set(JOBS) == set(SAID)  # a new kind of job: its words and its example here
    for kind, result in RESULTS.items():
        words = result_words(kind, result)
        figure, meaning = SAID[kind]
        assert words["figure"] == figure, kind
        assert words["meaning"].startswith(meaning) and (meaning == "") == (words["meaning"] == ""), kind
        assert (words["glossary"] is None) == (meaning == ""), kind
    assert [k for k, j in JOBS.items() if j.chart] == ["ladder"]
    # a result that does not read as its kind's (another version's) is said as done, never an error
    assert result_words("ladder", {"rungs": []}) == {"figure": "ladder: done", "meaning": "", "glossary": None}
    assert result_words("no such kind", {}) == {"figure": "no such kind: done", "meaning": "", "glossary": None}


def test_the_figures_round_a_half_up_as_the_page_always_wrote_them():
    assert fixed(0.125, 2) == "0.13" and f"{0.125:.2f}" == "0.12"  # Python's own rounding differs here
    assert fixed(0.2125, 3) == "0.212"  # the double nearest 0.2125 lies below it
    assert [rounded(x) for x in (0.5, 1.5, 2.5, -0.5, -2.5, 0.49999999999999994)] == [1, 2, 3, 0, -2, 0]
    assert pct(0.8125) == "81.3 %" and pct(1) == "100.0 %" and whole(0.625) == "63 %" and whole(0.005) == "1 %"


def test_a_finished_job_carries_its_words_and_an_unfinished_one_none():
    done = Job("j1", "simulate", {}, state="done", result=RESULTS["simulate"])
    assert done.snapshot()["words"] == result_words("simulate", RESULTS["simulate"])
    assert Job("j2", "simulate", {}, state="running").snapshot()["words"] is None
    assert Job("j3", "simulate", {}, state="failed", error="stopped").snapshot()["words"] is None
