"""The table holds: broken games stay secret, a link-safe database, no credential in a
cookie or on a command line, bounded floods served fairly, job quotas, files and the database
under faults, no 500, a phone joins by scanning, someone leaves the table. Traffic only to
127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.core.errors import InputError
from solver.io.paths import bundled_mission
from solver.play.tablegame import TableGame
from solver.studio import turns as turns_module
from solver.studio.app import create_app
from solver.studio.jobqueue import MAX_SEAT_WAITING, MAX_WAITING, JobManager, QueueFull
from solver.studio.links import qr_rows
from solver.studio.server import browser_file
from solver.studio.store import Store
from solver.studio.table import MAX_BOT_GAMES
from solver.studio.thinking import TRIES, GaveUp, Thinkers
from tests.helpers.client import answer_first, client_for, game_of, play_to_end, seat_doc, start
from tests.helpers.referee import referee

LOG_SECRETS = ("hands", "set_aside")


# ---------------------------------------------------------------- 1. broken games stay secret
def _failing(_request):
    raise RuntimeError("this worker is out of order")


def test_a_game_whose_bots_cannot_decide_is_broken_secret_from_seats_and_stays_broken(tmp_path, monkeypatch):
    calls = []

    def failing(request):
        calls.append(request.seat)
        raise RuntimeError("this worker is out of order")

    monkeypatch.setattr(turns_module, "think", failing)
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner")
    assert client.ctx.table.settle(gid, 60)
    live = client.ctx.table.live(gid)
    assert live.problem and f"{TRIES} tries" in live.problem and "out of order" in live.problem
    assert len(calls) == TRIES  # asked again of a fresh worker, then given up
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["broken"] == live.problem and "seed" not in listed[gid]
    # a seat learns nothing more of the deal: no log, no review (403), whether or not it can go on
    for res in (client.get(f"/api/games/{gid}/log?token={tokens[0]}"),
                client.post(f"/api/games/{gid}/review?token={tokens[0]}")):
        assert res.status_code == 403, res.text
    # the host may download it (it shows every hand)
    res = client.get(f"/api/games/{gid}/log")
    assert res.status_code == 200 and res.headers["cache-control"] == "no-store"
    assert json.loads(res.text.splitlines()[0])["hands"]
    client.ctx.close()
    # a restart does not quietly play it on: still broken, for the same reason
    monkeypatch.setattr(turns_module, "think", turns_module.forget.__globals__["think"])
    again = client_for(tmp_path)
    live = again.ctx.table.live(gid)
    assert live.problem and "out of order" in live.problem and not live.thinking
    assert seat_doc(again, gid, 0, tokens[0])["problem"] == live.problem
    assert again.get(f"/api/games/{gid}/log?token={tokens[0]}").status_code == 403
    again.ctx.close()


@pytest.mark.slow  # a whole game
def test_a_worker_that_fails_once_is_replaced_and_the_game_goes_on(tmp_path, monkeypatch):
    real = turns_module.think
    failed = []

    def flaky(request):
        if not failed:
            failed.append(request.seat)
            raise RuntimeError("a worker lost on the way")
        return real(request)

    monkeypatch.setattr(turns_module, "think", flaky)
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="planner")
    g = play_to_end(client, gid, tokens)
    assert failed and client.ctx.table.live(gid).problem is None and g.result() is not None


def _die_once(flag: str) -> int:
    if not os.path.exists(flag):
        Path(flag).write_text("died")
        os._exit(3)  # the worker process dies mid-request
    return os.getpid()


def _die_always(_flag: str) -> int:
    os._exit(3)


@pytest.mark.slow  # worker processes started four times
def test_a_worker_process_that_dies_is_replaced_and_one_that_always_dies_is_given_up(tmp_path):
    thinkers = Thinkers(1)
    try:
        assert thinkers.submit("g1", _die_once, str(tmp_path / "flag")).result(timeout=120) != os.getpid()
        with pytest.raises(GaveUp) as e:
            thinkers.submit("g2", _die_always, "").result(timeout=120)
        assert len(e.value.errors) == TRIES and all("BrokenProcessPool" in x for x in e.value.errors)
    finally:
        thinkers.close()


# ---------------------------------------------------------------- 2. the database is link-safe
@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_a_link_in_the_place_of_a_database_file_is_refused_and_nothing_outside_is_touched(tmp_path, suffix):
    folder = tmp_path / "dir"
    state = folder / ".kakapo"
    state.mkdir(parents=True, mode=0o700)
    outside = tmp_path / "outside"
    if suffix:  # a database of its own first, then a link beside it
        Store(folder, "test").close()
        for s in ("-wal", "-shm"):
            (state / f"studio.sqlite3{s}").unlink(missing_ok=True)
        outside.write_text("someone else's file")
        outside.chmod(0o644)
    (state / f"studio.sqlite3{suffix}").symlink_to(outside)
    with pytest.raises(InputError) as e:
        Store(folder, "test")
    assert e.value.path.endswith(f"studio.sqlite3{suffix}") and "symbolic link" in e.value.problem
    if suffix:
        assert outside.read_text() == "someone else's file" and stat.S_IMODE(outside.stat().st_mode) == 0o644
    else:
        assert not outside.exists()


@pytest.mark.slow  # two studio processes
def test_a_link_or_a_damaged_database_stops_the_studio_with_exit_2_naming_the_file(tmp_path):
    state = tmp_path / ".kakapo"
    state.mkdir(mode=0o700)
    damaged = b"this is not a database at all, " * 200
    (state / "studio.sqlite3").write_bytes(damaged)
    res = subprocess.run([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser", "--dir",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert "studio.sqlite3" in res.stderr and "not a SQLite database" in res.stderr and "move it aside" in res.stderr
    assert (state / "studio.sqlite3").read_bytes() == damaged  # kept as it is
    (state / "studio.sqlite3").unlink()
    (state / "studio.sqlite3-shm").unlink(missing_ok=True)
    (state / "studio.sqlite3-wal").unlink(missing_ok=True)
    (state / "studio.sqlite3-shm").symlink_to(tmp_path / "elsewhere")
    res = subprocess.run([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser", "--dir",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "Traceback" not in res.stderr and "studio.sqlite3-shm" in res.stderr, res.stderr
    assert not (tmp_path / "elsewhere").exists()


# ---------------------------------------------------------------- 3. no credential in a cookie
def test_no_cookie_grants_anything_and_none_is_ever_set(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, host_token="HOST", think_inline=True, bot_pace=0)
    with TestClient(app) as anyone:
        for cookies in ({"kakapo-studio-token": "HOST"}, {"token": "HOST"}, {"Authorization": "token HOST"}):
            res = TestClient(app, cookies=cookies).get("/api/games")
            assert res.status_code == 403, cookies
        host = TestClient(app, headers={"Authorization": "token HOST"})
        answers = [anyone.get("/"), anyone.get("/?token=HOST"), host.get("/api/games"), host.get("/api/status"),
                   host.post("/api/games", json={"mission": "b05", "human": [0]})]
        assert all("set-cookie" not in r.headers for r in answers)
        assert answers[1].status_code == 200 and answers[2].status_code == 200


# ---------------------------------------------------------------- 4. no token on a command line
@pytest.mark.slow  # a studio process
def test_the_browser_is_opened_on_a_private_file_never_with_the_token_on_its_command_line(tmp_path):
    seen = tmp_path / "browser-argv.json"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import json, sys\nopen({str(seen)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    env = {**os.environ, "DISPLAY": ":99", "BROWSER": f"{sys.executable} {browser} %s"}
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--host", "0.0.0.0", "--port", "0",
                             "--dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        token = re.search(r"\?token=([\w-]+)", proc.stdout.readline()).group(1)
        for _ in range(100):
            if seen.exists() and seen.read_text():
                break
            time.sleep(0.1)
        argv = json.loads(seen.read_text())
        assert argv and not any(token in a for a in argv), argv
        opened = Path(argv[-1].removeprefix("file://"))
        assert opened.parent == (tmp_path / ".kakapo").resolve() and stat.S_IMODE(opened.stat().st_mode) == 0o600
        assert "127.0.0.1" in opened.read_text() and token in opened.read_text()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=15)
    assert proc.returncode == 0 and not opened.exists()  # the forwarding file goes with the studio


def test_the_forwarding_file_escapes_what_it_forwards_to(tmp_path):
    made = browser_file(tmp_path, "http://127.0.0.1:1/", "T\"><script>x</script>")
    text = made.read_text()
    assert "<script>x</script>" not in text and stat.S_IMODE(made.stat().st_mode) == 0o600


# ---------------------------------------------------------------- 5. floods are bounded, fairly served
def test_unfinished_games_of_bots_only_are_bounded(tmp_path):
    client = client_for(tmp_path)
    client.ctx.thinkers.close()  # nothing thinks: every game stays unfinished
    codes = [client.post("/api/games", json={"mission": "b05", "human": []}).status_code
             for _ in range(MAX_BOT_GAMES + 1)]
    assert codes == [200] * MAX_BOT_GAMES + [429]
    res = client.post("/api/games", json={"mission": "b05", "human": []})
    assert "bots only" in res.json()["error"]["message"]
    assert client.post("/api/games", json={"mission": "b05", "human": [0]}).status_code == 200  # people still play


def test_the_bound_holds_for_games_of_bots_asked_for_at_once(tmp_path):
    client = client_for(tmp_path)
    client.ctx.thinkers.close()
    codes: list[int] = []

    def ask():
        codes.append(client.post("/api/games", json={"mission": "b05", "human": []}).status_code)

    threads = [threading.Thread(target=ask) for _ in range(3 * MAX_BOT_GAMES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] * MAX_BOT_GAMES + [429] * (2 * MAX_BOT_GAMES)


def test_a_worker_serves_games_in_turn_and_peoples_tables_first(tmp_path):
    thinkers = Thinkers(1, inline=True)
    gate = threading.Event()
    order: list[str] = []
    try:
        first = thinkers.submit("busy", gate.wait, 30)
        futures = [thinkers.submit(game, order.append, f"{game}{k}", people=game == "P")
                   for k in range(2) for game in ("A", "B", "P")]
        gate.set()
        first.result(timeout=30)
        for f in futures:
            f.result(timeout=30)
        assert order == ["P0", "P1", "A0", "B0", "A1", "B1"]
        # each game thinks in one worker: its state stays where it was built
        many = Thinkers(2)
        assert many.home("x") is many.home("x") and many.home("x") is not many.home("y")
        many.close()
    finally:
        thinkers.close()


def test_at_a_table_of_people_a_bots_move_never_comes_sooner_than_the_pace(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, think_inline=True, bot_pace=0.4)
    client = TestClient(app)
    client.ctx = app.state.ctx
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="greedy", seed=2, game=0)
    table = client.ctx.table
    gaps = []
    for _ in range(6):
        assert table.settle(gid, 60)
        g = game_of(client, gid)
        if g.result() is not None:
            break
        n = len(g.moves)
        t0 = time.monotonic()
        assert answer_first(client, gid, 0, tokens[0]).status_code == 200
        while len(g.moves) <= n + 1 and g.result() is None and g.pending is None and time.monotonic() - t0 < 30:
            time.sleep(0.01)  # until a bot moves (or the person is asked again: no bot moved)
        if g.moves[n + 1:] and g.moves[n + 1].by == "bot":
            gaps.append(time.monotonic() - t0)
    assert gaps and min(gaps) >= 0.4, gaps


# ---------------------------------------------------------------- 6. job quotas
def test_seats_jobs_have_a_quota_of_their_own_and_a_review_is_one_job(tmp_path):
    jobs = JobManager(None, 1, warm=False)
    jobs.shutdown()  # nothing runs: every job waits
    request = {"kind": "review", "text": "", "games": 0, "seed": 1}
    same = jobs.submit(request, key="review:g0", host=False)
    assert jobs.submit(request, key="review:g0", host=False) is same
    for k in range(1, MAX_SEAT_WAITING):
        jobs.submit(request, key=f"review:g{k}", host=False)
    with pytest.raises(QueueFull):
        jobs.submit(request, key="review:one-more", host=False)
    for _ in range(MAX_WAITING):  # the host keeps all its room
        jobs.submit({"kind": "simulate"})
    with pytest.raises(QueueFull):
        jobs.submit({"kind": "simulate"})
    jobs.cancel(same.id)
    assert jobs.submit(request, key="review:g0", host=False) is not same  # a cancelled one is asked anew


@pytest.mark.slow  # a whole game
def test_a_seat_asking_twice_for_its_review_gets_the_same_job(tmp_path):
    client = client_for(tmp_path)
    client.ctx.jobs.shutdown()
    gid, tokens, _ = start(client, mission="b05", human=[0], policy="greedy", seed=1, game=0)
    play_to_end(client, gid, tokens)
    first = client.post(f"/api/games/{gid}/review?token={tokens[0]}").json()
    assert client.post(f"/api/games/{gid}/review?token={tokens[0]}").json() == first


# ---------------------------------------------------------------- 7. files and the database under faults
def test_a_fifo_named_like_a_catalog_or_mission_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "x.toml")
    client = client_for(tmp_path)
    t0 = time.monotonic()
    res = client.post("/api/catalogs", json={"file": "x.toml"})
    assert 400 <= res.status_code < 500 and "not a plain file" in res.json()["error"]["message"]
    assert client.get("/api/catalogs").status_code == 200 and client.get("/api/missions").status_code == 200
    assert client.get("/api/missions/x").status_code == 404
    assert time.monotonic() - t0 < 5


@pytest.mark.slow  # a studio process and its workers
def test_sigterm_stops_the_studio_within_5_seconds_while_bots_think(tmp_path):
    from tests.helpers.studio import start_studio

    proc, url = start_studio(tmp_path)
    try:
        import urllib.request

        req = urllib.request.Request(url + "api/games", data=json.dumps(
            {"mission": "p15", "players": 4, "human": [], "policy": "search", "samples": 64}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as res:
            assert res.status == 200
        time.sleep(1)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
        assert time.monotonic() - t0 < 5 and proc.returncode == 0 and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_database_locked_by_another_program_is_a_503_within_3_s_and_other_seats_are_not_held(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="p15", players=3, human=[0, 1, 2], policy="planner", seed=1, game=0)
    table = client.ctx.table
    assert table.settle(gid)
    seat = game_of(client, gid).pending_seat
    other = next(s for s in tokens if s != seat)
    q = seat_doc(client, gid, seat, tokens[seat])["question"]
    holder = sqlite3.connect(tmp_path / ".kakapo" / "studio.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the database
    views = []

    def look():
        time.sleep(0.3)
        t = time.monotonic()
        views.append((client.get(f"/api/games/{gid}/seats/{other}?token={tokens[other]}").status_code,
                      time.monotonic() - t))

    watcher = threading.Thread(target=look)
    watcher.start()
    t0 = time.monotonic()
    res = client.post(f"/api/games/{gid}/seats/{seat}?token={tokens[seat]}", json={"choice": 1, "question": q["id"]})
    took = time.monotonic() - t0
    watcher.join()
    holder.execute("ROLLBACK")
    holder.close()
    assert res.status_code == 503 and took < 3, (res.status_code, took)
    assert "locked" in res.json()["error"]["message"]
    assert views[0][0] == 200 and views[0][1] < 1.0, views  # another seat's view did not wait for the write
    # nothing was taken: the same question is still asked, and now it is answered
    assert seat_doc(client, gid, seat, tokens[seat])["question"]["id"] == q["id"]
    assert answer_first(client, gid, seat, tokens[seat]).status_code == 200


# ---------------------------------------------------------------- 8. no 500, no cache, no timing
def test_out_of_range_seats_and_nul_names_are_4xx_and_private_answers_are_not_cached(tmp_path):
    client = client_for(tmp_path)
    gid, tokens, _doc = start(client, mission="b05", human=[0], policy="greedy", seed=1, game=0)
    for path in (f"/api/games/{gid}/seats/9223372036854775808", f"/api/games/{gid}/seats/4",
                 f"/api/games/{gid}/seats/-1"):
        assert 400 <= client.get(path + f"?token={tokens[0]}").status_code < 500, path
    for body in ({"file": "a\x00.toml"}, {"file": "\x00"}):
        assert 400 <= client.post("/api/catalogs", json=body).status_code < 500, body
    assert 400 <= client.post("/api/missions", json={"file": "a\x00.toml", "text": "x"}).status_code < 500
    assert 400 <= client.post("/api/games", json={"mission": "b05", "names": {"0": "A\x00n"}}).status_code < 500
    answers = [client.get(f"/api/games/{gid}/seats/0?token={tokens[0]}"), client.get("/api/games"),
               client.post("/api/games", json={"mission": "b05", "human": [0]}), client.get("/api/status")]
    for res in answers:
        assert res.headers["cache-control"] == "no-store" and "x-process-time" not in res.headers


# ---------------------------------------------------------------- 9. a phone joins by scanning
def test_links_come_with_their_qr_codes_and_the_host_link_is_the_hosts_only(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, host_token="HOST", think_inline=True, bot_pace=0)
    app.state.ctx.host_link = "http://192.0.2.7:8765/?token=HOST"
    app.state.ctx.share_base = "http://192.0.2.7:8765"
    with TestClient(app) as anyone:
        host = TestClient(app, headers={"Authorization": "token HOST"})
        mine = host.get("/api/status").json()
        assert mine["host"] is True and mine["link"]["url"] == "http://192.0.2.7:8765/?token=HOST"
        assert mine["link"]["qr"] == qr_rows(mine["link"]["url"])
        theirs = anyone.get("/api/status").json()
        assert theirs["host"] is False and theirs["link"] is None and "HOST" not in json.dumps(theirs)
        seat = host.post("/api/games", json={"mission": "b05", "human": [0]}).json()["seats"][0]
        assert seat["url"].startswith("http://192.0.2.7:8765/?game=") and seat["qr"] == qr_rows(seat["url"])
        rows = seat["qr"]
        assert len(rows) >= 21 and all(len(r) == len(rows) and set(r) <= {"0", "1"} for r in rows)
        assert rows[0].startswith("1111111")  # a finder pattern in the corner


# ---------------------------------------------------------------- 10. someone leaves the table
def test_the_host_hands_a_seat_to_a_bot_and_back_and_the_log_says_who_played(tmp_path, catalog):
    client = client_for(tmp_path)
    gid, tokens, _ = start(client, mission="b05", human=[0, 1], policy="planner", seed=4, game=0,
                           names={"0": "Ann", "1": "Ben"})
    table = client.ctx.table
    assert answer_first(client, gid, game_of(client, gid).pending_seat,
                        tokens[game_of(client, gid).pending_seat]).status_code == 200
    res = client.post(f"/api/games/{gid}/seats/1/bot", json={"policy": "heuristic"})
    assert res.status_code == 200 and res.json()["policy"] == "heuristic"
    assert client.get(f"/api/games/{gid}/seats/1?token={tokens[1]}").status_code == 403  # the old link stops
    assert client.post(f"/api/games/{gid}/seats/1/bot", json={"policy": "greedy"}).status_code == 409
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["seats"][1] == {"seat": 1, "name": "Ben", "bot": True, "policy": "heuristic", "handed": True}
    # the bot plays seat 1 while Ann plays on
    for _ in range(3):
        assert table.settle(gid)
        g = game_of(client, gid)
        if g.result() is not None or g.pending_seat != 0:
            break
        assert answer_first(client, gid, 0, tokens[0]).status_code == 200
    # Ben comes back on a new link
    back = client.post(f"/api/games/{gid}/seats/1/person")
    assert back.status_code == 200 and back.json()["token"] != tokens[1] and back.json()["qr"]
    tokens[1] = back.json()["token"]
    assert seat_doc(client, gid, 1, tokens[1])["players"][1]["bot"] is False
    g = play_to_end(client, gid, tokens)
    events = [json.loads(x) for x in client.get(f"/api/games/{gid}/log").text.splitlines()]
    assert referee(events, g.mission, g.catalog) == events[-1]["result"]
    turns = events[0]["seats"][1]["played_by"]
    assert [t["by"] for t in turns] == ["person", "bot", "person"] and turns[1]["policy"] == "heuristic"
    by_bot = [p for e in events if e["event"] == "round" for p in e["plays"] + e["placements"] if p.get("by")]
    assert by_bot and all(p["by"] == "bot" for p in by_bot)
    assert all(p["player"] == 1 for e in events if e["event"] == "round" for p in e["plays"] if p.get("by"))
    bot_moves = [m for m in g.moves if m.seat == 1 and m.by == "bot"]
    assert len(by_bot) + sum(1 for e in events if e.get("skill_by")) == len(bot_moves)
    # the game, rebuilt from the database, is the same (a restart keeps who plays what)
    client.ctx.close()
    again = client_for(tmp_path)
    rebuilt = again.ctx.table.live(gid).game
    assert [m.by for m in rebuilt.moves] == [m.by for m in g.moves] and rebuilt.handovers == g.handovers
    again.ctx.close()


def test_only_the_host_hands_seats_over(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, host_token="HOST", think_inline=True, bot_pace=0)
    with TestClient(app) as anyone:
        host = TestClient(app, headers={"Authorization": "token HOST"})
        doc = host.post("/api/games", json={"mission": "b05", "human": [0]}).json()
        gid, token = doc["id"], doc["seats"][0]["token"]
        assert anyone.post(f"/api/games/{gid}/seats/0/bot?token={token}", json={}).status_code == 403
        assert host.post(f"/api/games/{gid}/seats/0/bot", json={"policy": "greedy"}).status_code == 200
        assert host.post(f"/api/games/{gid}/seats/5/bot", json={}).status_code == 422


def test_a_table_game_rebuilt_with_its_handovers_plays_the_same(tmp_path):
    """The game in memory and the one rebuilt from its moves and handovers agree move by move."""
    client = client_for(tmp_path)
    gid, _tokens, _ = start(client, mission="b05", human=[0], policy="greedy", seed=5, game=0)
    client.post(f"/api/games/{gid}/seats/0/bot", json={"policy": "planner"})
    assert client.ctx.table.settle(gid)
    g = game_of(client, gid)
    assert g.result() is not None and not g.humans
    copy = TableGame(g.setup, g.moves, None, {}, g.handovers)
    assert copy.log() == g.log()
    assert bundled_mission("b05") is not None
