"""The studio in this process (Starlette's test client): a folder's studio, its games started and
played to their end through the API, its jobs waited for. Import it after
``pytest.importorskip("fastapi")``."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from solver.studio.app import create_app


def client_for(folder):
    """A studio on ``folder`` whose bots think in a thread of this process and move at once (the
    quick studio; the pace of bots at a table of people has a test of its own)."""
    app = create_app(folder, None, 1, warm=False, think_inline=True, bot_pace=0)
    client = TestClient(app)
    client.ctx = app.state.ctx
    return client


def job_ended(client, job_id, seconds=600):
    """A job's state once it has ended (or after ``seconds``)."""
    for _ in range(2 * seconds):
        state = client.get(f"/api/jobs/{job_id}").json()
        if state["state"] in ("done", "failed", "cancelled"):
            break
        time.sleep(0.5)
    return state


def game_of(client, gid):
    """The game's true state, once its bots have stopped thinking."""
    assert client.ctx.table.settle(gid, 120)
    return client.ctx.table.live(gid).game


def start(client, **body):
    res = client.post("/api/games", json=body)
    assert res.status_code == 200, res.text
    doc = res.json()
    return doc["id"], {s["seat"]: s["token"] for s in doc["seats"]}, doc


def seat_doc(client, gid, seat, token):
    res = client.get(f"/api/games/{gid}/seats/{seat}?token={token}")
    assert res.status_code == 200, res.text
    return res.json()


def answer_first(client, gid, seat, token):
    q = seat_doc(client, gid, seat, token)["question"]
    return client.post(f"/api/games/{gid}/seats/{seat}?token={token}", json={"choice": 1, "question": q["id"]})


def play_to_end(client, gid, tokens):
    table = client.ctx.table
    for _ in range(400):
        g = game_of(client, gid)
        if g.result() is not None:
            return g
        seat = g.pending_seat
        assert seat in tokens, (seat, tokens)
        assert answer_first(client, gid, seat, tokens[seat]).status_code == 200
        table.settle(gid)
    raise AssertionError("the game did not end")

