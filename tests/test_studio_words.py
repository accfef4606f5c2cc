"""The ladder in plain words (issue 52, item 4): the jobs' history newest first with their states
(SPEC, "The review explains", GET /api/jobs), a finished job's result from the history after the
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
from solver.studio.app import create_app
from tests.conftest import ROOT

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
    words = (static / "results.js").read_text(encoding="utf-8")
    table = re.search(r"GLOSSARY_OF = \{([^}]*)\}", words).group(1)
    rate = (static / "rate.js").read_text(encoding="utf-8")
    linked = set(re.findall(r'"([a-z-]+)"', table)) | set(re.findall(r'glossaryLink\("([a-z-]+)"', rate))
    assert linked and linked <= anchors, linked - anchors
