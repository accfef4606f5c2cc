"""A table people can trust: secret deals, forced moves asked, answers tied to their question, the
state in SQLite (private, hashed tokens, one transaction a move, old records imported once),
symlink-safe writes, no framing, the host token off loopback, bots off the request path, a
bounded job queue, and the API fuzzed (schemathesis, briefly: the benchmark runs it at length)."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.io.loginputs import catalog_text
from solver.io.paths import bundled_mission
from solver.play.tablegame import TableGame, replay_record
from solver.studio.app import create_app
from solver.studio.security import local_addresses
from tests.helpers.client import client_for, game_of, start
from tests.helpers.referee import referee

SECRET_FREE = ("seed", "game_seed", "hands", "set_aside")


def seat_get(client, gid, seat, token):
    res = client.get(f"/api/games/{gid}/seats/{seat}?token={token}")
    assert res.status_code == 200, res.text
    return res.json()


def answer(client, gid, seat, token, **body):
    return client.post(f"/api/games/{gid}/seats/{seat}?token={token}", json=body)


def play_out(client, gid, tokens, choose=lambda q: 1):
    """Every person answers (choice ``choose(question)``) until the game ends."""
    for _ in range(600):
        g = game_of(client, gid)
        if g.result() is not None:
            return g
        seat = g.pending_seat
        q = seat_get(client, gid, seat, tokens[seat])["question"]
        assert answer(client, gid, seat, tokens[seat], choice=choose(q), question=q["id"]).status_code == 200
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- 1. secret deals
def test_a_game_without_a_seed_gets_a_secret_deal_of_its_own(tmp_path):
    client = client_for(tmp_path)
    hands = []
    for _ in range(3):
        gid, tokens, doc = start(client, mission="b05", human=[0], policy="planner")
        assert doc["known_deal"] is False
        game_of(client, gid)
        hands.append(seat_get(client, gid, 0, tokens[0])["hand"])
    assert len({tuple(h) for h in hands}) == 3  # no two games share a deal by default
    # nothing answered before the end names the seed: not the list, not the seat, not the jobs, not the status
    secret = game_of(client, gid).setup
    seen = [client.get("/api/games").text, client.get(f"/api/games/{gid}/seats/0?token={tokens[0]}").text,
            client.get("/api/jobs").text, client.get("/api/status").text,
            client.get(f"/api/games/{gid}/log").text, client.post(f"/api/games/{gid}/review").text]
    for text in seen:
        assert str(secret.seed) not in text
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert not set(SECRET_FREE) & set(listed[gid]) and "game" not in listed[gid]
    # an all-bot game anyone starts (no seed) deals something else than the unfinished games
    bots, _, _ = start(client, mission="b05", human=[])
    dealt = game_of(client, bots).state.dealt[0]
    assert all(sorted(dealt) != sorted(game_of(client, g["id"]).state.dealt[0])
               for g in listed.values() if g["id"] != bots and g["result"] is None)
    # once a game is over, its seed is no secret: the list and the log name it
    g = play_out(client, gid, tokens)
    listed = {x["id"]: x for x in client.get("/api/games").json()}
    assert listed[gid]["seed"] == g.setup.seed and listed[gid]["game"] == 0
    events = [json.loads(x) for x in client.get(f"/api/games/{gid}/log").text.splitlines()]
    assert events[0]["seed"] == g.setup.seed
    assert referee(events, g.mission, g.catalog) == events[-1]["result"]


def test_a_known_deal_is_the_batch_game_and_says_so(tmp_path):
    client = client_for(tmp_path)
    gid, _, doc = start(client, mission="b05", human=[0], seed=7, game=3)
    assert doc["known_deal"] is True
    g = game_of(client, gid)
    from solver.game.seeds import game_seeds
    from solver.game.state import deal

    assert g.state.dealt == deal(g.mission, g.catalog, 2, int(game_seeds(7, 3, 1)[0])).dealt
    listed = {x["id"]: x for x in client.get("/api/games").json()}
    assert listed[gid]["known_deal"] is True and "seed" not in listed[gid]  # still not said before the end
    res = client.post("/api/games", json={"mission": "b05", "game": 3})
    assert res.status_code == 422 and "seed" in res.json()["error"]["message"]


# ---------------------------------------------------------------- 2. forced moves
def forced_table(client):
    """A Party game of two people (seats 0 and 1) and a bot, and the first question with a single
    legal answer it asks a person (the game is searched over a few known deals)."""
    for seed in range(1, 30):
        gid, tokens, _ = start(client, mission="p03", players=3, human=[0, 1], policy="heuristic", seed=seed, game=0)
        for _ in range(200):
            g = game_of(client, gid)
            if g.result() is not None:
                break
            seat = g.pending_seat
            doc = seat_get(client, gid, seat, tokens[seat])
            q = doc["question"]
            if len(q["choices"]) == 1:
                return gid, tokens, seat, doc
            assert answer(client, gid, seat, tokens[seat], choice=1, question=q["id"]).status_code == 200
    raise AssertionError("no forced move in 30 deals")


def test_at_a_table_of_people_a_forced_move_is_asked_and_the_others_see_nothing_until_it_is_answered(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, seat, doc = forced_table(client)
    other = 1 - seat
    assert doc["play_forced"] is False and doc["question"]["id"] >= 1
    before = seat_get(client, gid, other, tokens[other])
    assert before["to_act"] == seat and len(before["moves"]) == len(doc["moves"])  # nothing of it shown yet
    moves = len(game_of(client, gid).moves)
    assert answer(client, gid, seat, tokens[seat], choice=1, question=doc["question"]["id"]).status_code == 200
    assert game_of(client, gid).moves[moves].by == "person"


def test_a_person_may_have_their_forced_moves_played_and_one_person_alone_has_them_played(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, seat, _ = forced_table(client)
    res = client.post(f"/api/games/{gid}/seats/{seat}/settings?token={tokens[seat]}", json={"play_forced": True})
    assert res.status_code == 200 and res.json()["play_forced"] is True
    g = game_of(client, gid)
    assert any(m.by == "forced" and m.seat == seat for m in g.moves)  # the waiting forced move, played
    assert client.post(f"/api/games/{gid}/seats/{seat}/settings?token={tokens[1 - seat]}",
                       json={"play_forced": False}).status_code == 403  # one's own seat only
    # alone with bots: the forced moves are played (as the terminal seat does), never asked
    asked = []
    for seed in range(1, 6):
        gid, tokens, _ = start(client, mission="p03", players=3, human=[0], policy="heuristic", seed=seed, game=0)
        assert seat_get(client, gid, 0, tokens[0])["play_forced"] is True
        g = play_out(client, gid, tokens, choose=lambda q: asked.append(len(q["choices"])) or 1)
        if any(m.by == "forced" for m in g.moves):
            break
    assert any(m.by == "forced" and m.seat == 0 for m in g.moves) and min(asked) > 1


# ---------------------------------------------------------------- 3. answers tied to their question
def test_a_stale_answer_is_409_and_changes_nothing(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner", seed=1, game=0)
    game_of(client, gid)
    q = seat_get(client, gid, 0, tokens[0])["question"]
    assert answer(client, gid, 0, tokens[0], choice=1, question=q["id"]).status_code == 200
    g = game_of(client, gid)
    trace, moves = g.state.trace, len(g.moves)
    res = answer(client, gid, 0, tokens[0], choice=1, question=q["id"])  # the same answer again
    assert res.status_code == 409 and "not taken" in res.json()["error"]["message"]
    assert game_of(client, gid).state.trace == trace and len(game_of(client, gid).moves) == moves
    now = seat_get(client, gid, 0, tokens[0])["question"]
    assert now["id"] > q["id"]  # a new id for the new question
    assert answer(client, gid, 0, tokens[0], choice=1, question=now["id"] + 5).status_code == 409
    assert answer(client, gid, 0, tokens[0], choice=1).status_code == 200  # a script without ids still plays


def test_two_identical_answers_sent_at_once_are_taken_once(tmp_path):
    client = client_for(tmp_path)
    for seed in range(1, 6):
        gid, tokens, _ = start(client, mission="b05", human=[0, 1], policy="planner", seed=seed, game=0)
        g = game_of(client, gid)
        seat = g.pending_seat
        q = seat_get(client, gid, seat, tokens[seat])["question"]
        codes, barrier = [], threading.Barrier(2)

        def send(codes=codes, barrier=barrier, gid=gid, seat=seat, token=tokens[seat], qid=q["id"]):
            barrier.wait()
            codes.append(answer(client, gid, seat, token, choice=1, question=qid).status_code)

        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) == [200, 409]
        assert sum(1 for m in game_of(client, gid).moves if m.by == "person") == 1


# ---------------------------------------------------------------- 4. the database
def test_the_state_is_private_and_tokens_are_stored_only_as_hashes(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0, 1], policy="planner", seed=3, game=0)
    state = tmp_path / ".kakapo"
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    for f in state.glob("studio.sqlite3*"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    play_out(client, gid, tokens)
    log = tmp_path / "games" / f"{gid}.jsonl"
    assert stat.S_IMODE(log.stat().st_mode) == 0o600  # it holds every hand
    assert log.read_text() == client.get(f"/api/games/{gid}/log").text
    stored = b"".join(f.read_bytes() for f in state.glob("studio.sqlite3*"))
    for token in tokens.values():
        assert token.encode() not in stored
    db = sqlite3.connect(client.ctx.store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    n_moves = db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()[0]
    assert n_moves == len(game_of(client, gid).moves)


def test_a_second_studio_on_the_same_folder_is_refused_naming_the_first(tmp_path):
    from tests.helpers.studio import start_studio, stop

    proc, url = start_studio(tmp_path)
    try:
        second = subprocess.run([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                                 "--dir", str(tmp_path)], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and "Traceback" not in second.stderr
        assert "another kakapo studio serves this folder" in second.stderr and url in second.stderr
    finally:
        stop(proc)


def old_record(tmp_path, catalog, answers=None) -> dict:
    """A game record as the studio's earlier versions wrote it (games/ID.json, format 1)."""
    text = bundled_mission("b05").read_text(encoding="utf-8")
    record = {"format": 1, "id": "20260101-120000-abcdef", "mission": "b05", "name": "old game", "mission_text": text,
              "pieces_text": catalog_text(catalog), "players": 2, "human": [0], "policy": "heuristic", "seed": 4,
              "game": 1, "samples": None, "tokens": {"0": "old-token-of-seat-0"}, "answers": [],
              "created": "2026-01-01T12:00:00"}
    if answers is None:  # one answer: the last legal move of the first question
        setup, moves, streams, _ = replay_record(record)
        g = TableGame(setup, moves, streams)
        code = g.state.legal_actions()[-1].code
        answers = [{"seat": 0, "action": code}]
    record["answers"] = answers
    return record


def test_old_records_are_imported_once_and_a_copy_is_not_a_second_game(tmp_path, catalog):
    games = tmp_path / "games"
    games.mkdir()
    record = old_record(tmp_path, catalog)
    (games / f"{record['id']}.json").write_text(json.dumps(record))
    (games / f"{record['id']} copy.json").write_text(json.dumps(record))
    (games / "junk.json").write_text("{not json")
    deep = "[" * 200_000
    (games / "deep.json").write_text(deep)
    client = client_for(tmp_path)
    deadline = time.time() + 60
    while time.time() < deadline and len(client.get("/api/games").json()) < 4:
        time.sleep(0.2)
    listed = client.get("/api/games").json()
    mine = [g for g in listed if g["id"] == record["id"]]
    assert len(mine) == 2  # the game, and its copy listed as not imported
    game = next(g for g in mine if not g.get("broken"))
    assert "copy" in next(g for g in mine if g.get("broken"))["broken"]
    assert {g.get("file") for g in listed if g.get("broken")} >= {"junk.json", "deep.json"}
    g = game_of(client, game["id"])
    assert [m.by for m in g.moves if m.by == "person"] == ["person"] and g.moves
    doc = seat_get(client, game["id"], 0, "old-token-of-seat-0")  # the old link goes on
    assert doc["result"] is not None or doc["question"] is not None
    assert stat.S_IMODE((games / f"{record['id']}.json").stat().st_mode) == 0o600
    again = client_for(tmp_path)  # a second start imports nothing twice
    time.sleep(0.5)
    assert sorted(x["id"] for x in again.get("/api/games").json()) == sorted(x["id"] for x in listed)


# ---------------------------------------------------------------- 5. files
def test_a_link_in_the_way_is_409_and_nothing_is_written_outside_the_folder(tmp_path):
    folder, outside = tmp_path / "dir", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    victim = outside / "victim.toml"
    victim.write_text("precious")
    (folder / "mine.toml").symlink_to(victim)
    (folder / ".new.toml.studio.tmp").symlink_to(victim)  # the old temporary name, planted
    client = client_for(folder)
    res = client.post("/api/missions", json={"file": "mine.toml", "text": "x", "overwrite": True})
    assert res.status_code == 409 and "link" in res.json()["error"]["message"]
    res = client.post("/api/missions", json={"file": "new.toml", "text": "name = 1\n"})
    assert res.status_code == 200 and (folder / "new.toml").read_text() == "name = 1\n"
    assert victim.read_text() == "precious"
    assert "mine" not in {m["id"] for m in client.get("/api/missions").json() if m["source"] == "dir"}
    assert client.get("/api/missions/mine").status_code == 404


# ---------------------------------------------------------------- 6. headers
def test_no_answer_can_be_framed(tmp_path):
    client = client_for(tmp_path)
    for res in (client.get("/"), client.get("/static/studio.js"), client.get("/api/missions"),
                client.get("/api/games/x/seats/0"), client.get("/api/nothing"),
                client.post("/api/validate", json={"text": ""}), client.get("/api/games", headers={"host": "evil"})):
        assert res.headers["x-frame-options"] == "DENY", res.request.url
        assert "frame-ancestors 'none'" in res.headers["content-security-policy"], res.request.url


# ---------------------------------------------------------------- 7. the host token
def test_off_loopback_everything_but_a_seats_own_needs_the_host_token(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, host_token="HOST", think_inline=True, bot_pace=0)
    with TestClient(app) as anyone:
        host = TestClient(app, headers={"Authorization": "token HOST"})
        assert anyone.get("/").status_code == 200 and anyone.get("/static/main.js").status_code == 200
        for method, path, body in (("GET", "/api/games", None), ("GET", "/api/missions", None),
                                   ("POST", "/api/missions", {"file": "x.toml", "text": "x"}),
                                   ("POST", "/api/games", {"mission": "b05"}), ("GET", "/api/jobs", None),
                                   ("POST", "/api/jobs", {"kind": "simulate", "text": ""}),
                                   ("POST", "/api/validate", {"text": ""}), ("DELETE", "/api/jobs/x", None)):
            res = anyone.request(method, path, json=body)
            assert res.status_code == 403 and "host" in res.json()["error"]["message"], (method, path)
        res = host.post("/api/games", json={"mission": "b05", "human": [0], "policy": "planner"})
        assert res.status_code == 200
        gid, token = res.json()["id"], res.json()["seats"][0]["token"]
        assert f"token={token}" in res.json()["seats"][0]["url"]
        app.state.ctx.table.settle(gid)
        assert anyone.get(f"/api/games/{gid}/seats/0?token={token}").status_code == 200  # a seat's own
        assert anyone.get(f"/api/games/{gid}/seats/0").status_code == 403
        assert anyone.get(f"/api/games/{gid}/log").status_code == 403
        assert host.get(f"/api/games/{gid}/seats/0").status_code == 403  # the host does not see a seat either
        # the host's link opens the page (which keeps the token for its tab): no cookie, never cached
        res = TestClient(app).get("/?token=HOST", follow_redirects=False)
        assert res.status_code == 200 and "set-cookie" not in res.headers
        assert res.headers["cache-control"] == "no-store"
        # a seat reviews its own game once it is over (not before), and follows the job with the job's token
        assert anyone.get(f"/api/games/{gid}/log?token={token}").status_code == 403
        assert anyone.post(f"/api/games/{gid}/review?token={token}").status_code == 403
        table = app.state.ctx.table
        while table.settle(gid) and table.live(gid).game.result() is None:
            q = anyone.get(f"/api/games/{gid}/seats/0?token={token}").json()["question"]
            anyone.post(f"/api/games/{gid}/seats/0?token={token}", json={"choice": 1, "question": q["id"]})
        assert anyone.get(f"/api/games/{gid}/log?token={token}").status_code == 200
        job = anyone.post(f"/api/games/{gid}/review?token={token}").json()
        assert anyone.get(f"/api/jobs/{job['id']}").status_code == 403
        assert anyone.get(f"/api/jobs/{job['id']}?token={job['token']}").status_code == 200
        assert anyone.delete(f"/api/jobs/{job['id']}?token={job['token']}").status_code == 403
        assert host.delete(f"/api/jobs/{job['id']}").status_code == 200


def test_a_studio_on_every_address_prints_the_host_link_and_says_who_can_do_what(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--host", "0.0.0.0", "--port", "0",
                             "--no-browser", "--dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline().strip()
        m = re.match(r"^kakapo studio: http://([^/:]+):(\d+)/\?token=([\w-]+)$", line)
        assert m, line
        address, port, token = m.groups()
        # an address a phone on that network can open: one of this machine's, never the wildcard
        assert address not in ("0.0.0.0", "::") and address in [*local_addresses(), "127.0.0.1"], line
        base = f"http://127.0.0.1:{port}"  # traffic to loopback only, though it listens on every address

        def get(path, headers=None):
            req = urllib.request.Request(base + path, headers=headers or {})
            try:
                with urllib.request.urlopen(req, timeout=30) as res:
                    return res.status
            except urllib.error.HTTPError as e:
                return e.code

        assert get("/api/games") == 403 and get("/api/games", {"Authorization": f"token {token}"}) == 200
        assert get("/") == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert "host's link" in err and "A seat's link lets whoever holds it see and play that seat only" in err
    assert "scan it" in err and "\u2584" in err  # the host's link drawn as a QR code
    assert proc.returncode == 0 and "Traceback" not in err


# ---------------------------------------------------------------- 8. bots off the request path
def test_bots_think_in_worker_processes_while_the_server_answers(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)  # thinking in a worker process, as the studio serves
    with TestClient(app) as client:
        slow = client.post("/api/games", json={"mission": "p15", "players": 4, "human": [], "policy": "search",
                                               "samples": 64})
        assert slow.status_code == 200
        gid = slow.json()["id"]
        other, tokens, _ = start(client, mission="b05", human=[0], policy="heuristic", seed=1, game=0)
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[gid]["result"] is None and listed[gid]["thinking"]  # the search game goes on behind
        assert app.state.ctx.table.settle(other, 300)
        doc = seat_get(client, other, 0, tokens[0])
        assert doc["question"] is not None and doc["players"][1] == {"seat": 1, "name": "player 1", "bot": True,
                                                                     "policy": "heuristic", "handed": False}
        assert app.state.ctx.table.live(gid).game.result() is None  # still thinking: we did not wait for it


def test_the_job_queue_is_bounded(tmp_path):
    from solver.studio.jobqueue import MAX_WAITING

    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    app.state.ctx.jobs.shutdown()  # no job runs: they all wait
    client = TestClient(app)
    text = bundled_mission("b01").read_text()
    codes = [client.post("/api/jobs", json={"kind": "simulate", "text": text, "games": 10}).status_code
             for _ in range(MAX_WAITING + 1)]
    assert codes[:MAX_WAITING] == [200] * MAX_WAITING and codes[-1] == 429
    ids = {j["id"] for j in client.get("/api/jobs").json()}
    assert len(ids) == MAX_WAITING and not any(re.fullmatch(r"j\d+", i) for i in ids)  # random, not sequential


@pytest.mark.slow
# ---------------------------------------------------------------- 10. fuzz, briefly
def test_the_api_fuzzed_briefly_answers_no_5xx(tmp_path):
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, settings

    app = create_app(tmp_path, None, 1, warm=False, think_inline=True, bot_pace=0)

    @schemathesis.serializer("application/zip")  # a pack is sent as the body itself: any bytes
    def zip_body(ctx, value):
        return value if isinstance(value, bytes) else str(value).encode("utf-8")

    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    seen = []
    for op in schema.get_all_operations():
        operation = op.ok()

        @settings(max_examples=15, suppress_health_check=list(HealthCheck), deadline=None, database=None)
        @schemathesis_given(operation)
        def check(case):
            res = case.call()
            seen.append(res.status_code)
            assert res.status_code < 500, (case.method, case.path, res.status_code, res.text[:300])

        check()
    assert len(seen) >= 100 and TestClient(app).get("/api/status").status_code == 200


def schemathesis_given(operation):
    from hypothesis import given

    return given(case=operation.as_strategy())


def test_state_folder_in_the_way_is_said_not_a_traceback(tmp_path):
    (tmp_path / ".kakapo").write_text("a file where the studio keeps its state")
    res = subprocess.run([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser", "--dir",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "Traceback" not in res.stderr and ".kakapo" in res.stderr
