"""The newest surfaces hold, probed as a careless neighbour and a club member with a shared folder
would: the phone flow starts with any --dir, one game per recording however many finish at once,
dropped sheets never read outside the folder, no file hangs anything or is read whole before its
size is checked, outputs never written through a planted link nor over a FIFO or a device, an
import keyed on what was played, calibration bounded and priced before it starts, names a sheet
can hold, deep JSON a 4xx. Traffic only to 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import webbrowser
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
from solver.app.calibrating import LATEST, estimate_seconds, keep_latest
from solver.app.sheets import read_game_file
from solver.cli import main
from solver.core.errors import InputError
from solver.io.gamelog import write_log
from solver.io.safefiles import NotRegular, TooLarge, UnsafeTarget, read_regular, write_output
from solver.io.tomlfile import TomlSource
from solver.studio import server as server_module
from tests.helpers.client import client_for
from tests.helpers.games import entries_of, sheet_lines, simulated
from tests.helpers.paths import ROOT


def within(seconds: float, fn, *args):
    """``fn(*args)`` in a thread that may not take longer than ``seconds`` (a hang fails the test
    instead of holding the suite)."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn(*args)
        except BaseException as e:  # handed to the test
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{getattr(fn, '__name__', fn)} still running after {seconds} s: it hangs"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# ---------------------------------------------------------------- 1. the phone flow starts anywhere
def forwarding_pages(folder: Path) -> list[Path]:
    return sorted((folder / ".kakapo").glob("open-*.html")) if (folder / ".kakapo").is_dir() else []


def test_the_phone_flow_starts_with_the_default_folder_and_a_display(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(server_module, "_deadline", lambda: None)  # no hard exit of the test's own process
    opened: dict = {}

    def browser(target):
        path = Path(target.removeprefix("file://"))
        opened.update(target=target, existed=path.is_file(), text=path.read_text() if path.is_file() else "")
        return True

    monkeypatch.setattr(webbrowser, "open", browser)

    def run(self, sockets=None):  # the server, served until the browser has been opened
        for _ in range(100):
            if opened:
                break
            time.sleep(0.05)
        self.started = True

    monkeypatch.setattr(server_module._Server, "run", run)
    said = []
    server_module.serve("0.0.0.0", 0, ".", None, workers=1, open_browser=True, say=said.append, warn=lambda _t: None)
    token = re.search(r"\?token=([\w-]+)", said[0]).group(1)
    assert opened["target"].startswith("file:///") and opened["existed"], opened
    assert Path(opened["target"].removeprefix("file://")).parent == (tmp_path / ".kakapo").resolve()
    assert token in opened["text"] and token not in opened["target"]
    assert forwarding_pages(tmp_path) == []  # gone with the studio


def test_a_failed_start_leaves_no_forwarding_page_and_frees_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(server_module, "_deadline", lambda: None)
    monkeypatch.setattr(webbrowser, "open", lambda target: True)

    def broken(self, sockets=None):
        assert forwarding_pages(tmp_path), "the page is written before the server runs"
        raise OSError(98, "the server could not start")

    monkeypatch.setattr(server_module._Server, "run", broken)
    with pytest.raises(OSError):
        server_module.serve("0.0.0.0", 0, ".", None, workers=1, open_browser=True, say=lambda _t: None,
                            warn=lambda _t: None)
    assert forwarding_pages(tmp_path) == []

    def quiet(self, sockets=None):  # uvicorn's own failed start: it returns without having started
        self.started = False

    monkeypatch.setattr(server_module._Server, "run", quiet)
    with pytest.raises(InputError, match="could not start"):
        server_module.serve("0.0.0.0", 0, ".", None, workers=1, open_browser=True, say=lambda _t: None,
                            warn=lambda _t: None)
    assert forwarding_pages(tmp_path) == []
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:  # a port in use: exit 2 naming it, nothing left behind
        with pytest.raises(InputError, match="in use"):
            server_module.serve("0.0.0.0", taken.getsockname()[1], ".", None, workers=1, open_browser=True)
    finally:
        taken.close()
    assert forwarding_pages(tmp_path) == []


@pytest.mark.slow  # a studio process
def test_the_studio_serves_a_relative_folder_with_a_display_and_a_browser(tmp_path):
    seen = tmp_path / "browser-argv.json"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import json, sys\nopen({str(seen)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    (tmp_path / "club").mkdir()
    env = {**os.environ, "DISPLAY": ":99", "BROWSER": f"{sys.executable} {browser} %s",
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--host", "0.0.0.0", "--port", "0",
                             "--dir", "club"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert "?token=" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
        for _ in range(100):
            if seen.exists() and seen.read_text():
                break
            time.sleep(0.1)
        opened = Path(json.loads(seen.read_text())[-1].removeprefix("file://"))
        assert opened.is_absolute() and opened.parent == (tmp_path / "club" / ".kakapo").resolve()
        assert proc.poll() is None  # still serving
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert forwarding_pages(tmp_path / "club") == []


# ---------------------------------------------------------------- 2. one game per recording
def test_many_finish_calls_at_once_save_one_game_and_the_others_are_409(catalog, tmp_path, monkeypatch):
    from solver.app import recordings

    client = client_for(tmp_path)
    _, events = simulated(catalog, "buddy/b05", 2, 1, "random")
    entries, left = entries_of(events)
    doc = client.post("/api/recordings", json={"mission": "b05", "names": ["Ann", "Ben"],
                                               "leader": events[0]["start_player"]}).json()
    rid = doc["id"]
    for entry in entries + [{"seat": k, "left": cards} for k, cards in left.items() if cards]:
        doc = client.post(f"/api/recordings/{rid}/entries", json={"at": doc["entries"], **entry}).json()
    assert doc["phase"] == "done", doc
    slow_check = recordings.game_of_sheet_text

    def game_of_sheet_text(*args):  # every call is past the first check before any saves (a double tap, two phones)
        time.sleep(0.3)
        return slow_check(*args)

    monkeypatch.setattr(recordings, "game_of_sheet_text", game_of_sheet_text)
    ready = threading.Barrier(6)
    answers = []

    def finish():
        ready.wait()
        answers.append(client.post(f"/api/recordings/{rid}/finish"))

    threads = [threading.Thread(target=finish) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409, 409, 409, 409, 409], [a.text for a in answers]
    game = next(a.json()["game"] for a in answers if a.status_code == 200)
    assert all(a.json()["error"]["game"] == game for a in answers if a.status_code == 409)
    recorded = [g for g in client.get("/api/games").json() if g.get("policy") == "recorded"]
    assert [g["id"] for g in recorded] == [game]
    assert client.get(f"/api/recordings/{rid}").json()["game"] == game


def test_the_page_disables_check_and_save_while_it_waits():
    text = (ROOT / "solver/studio/static/record.js").read_text()
    body = text[text.index("async function finish()"):text.index("function take(")]
    assert "saving.disabled = true" in body and body.index("saving.disabled = true") < body.index("await api(")
    assert "if (saving.disabled" in body  # a second tap while it waits sends nothing


# ---------------------------------------------------------------- 3. dropped sheets stay in the folder
def test_dropped_sheets_resolve_only_plain_names_of_the_folder(catalog, tmp_path):
    folder, outside = tmp_path / "club", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    secret = outside / "secret.toml"
    secret.write_text((ROOT / "missions/buddy/b05.toml").read_text()
                      + "# SECRET-OF-THE-NEIGHBOUR\n")
    (folder / "linked.toml").symlink_to(secret)
    os.mkfifo(folder / "pipe.toml")
    good = "\n".join(sheet_lines(catalog)) + "\n"
    assert good.startswith("mission: b05")
    games = folder / "games"
    games.mkdir()
    cases = {"a-absolute.txt": good.replace("mission: b05", f"mission: {secret}"),
             "b-dotdot.txt": good.replace("mission: b05", "mission: ../outside/secret.toml"),
             "c-link.txt": good.replace("mission: b05", "mission: linked"),
             "d-pieces-absolute.txt": good.replace("mission: b05", f"mission: b05\npieces: {secret}"),
             "e-pieces-fifo.txt": good.replace("mission: b05", "mission: b05\npieces: pipe.toml"),
             "f-pieces-stdin.txt": good.replace("mission: b05", "mission: b05\npieces: /dev/stdin"),
             "z-good.txt": good}
    for name, text in cases.items():
        (games / name).write_text(text)
    client = client_for(folder)
    within(30, client.ctx.table.inbox.import_records)
    rows = {g.get("file"): g for g in client.get("/api/games").json() if g.get("file")}
    for name in cases:
        if name == "z-good.txt":
            continue
        why = rows[name]["broken"]
        line = 2 if name.startswith(("d-", "e-", "f-")) else 1  # the mission: or pieces: line
        assert f"line {line}:" in why, (name, why)
        assert "plain file name" in why or "cannot be read" in why, (name, why)
    recorded = [g for g in client.get("/api/games").json() if g.get("policy") == "recorded"]
    assert len(recorded) == 1 and recorded[0]["result"]  # the good one, after six bad ones
    everything = client.get("/api/games/export").text + json.dumps(client.get("/api/games").json())
    with client.ctx.store.reading() as db:
        everything += json.dumps(db.execute("SELECT * FROM games").fetchall())
    assert "SECRET-OF-THE-NEIGHBOUR" not in everything
    for name in ("a-absolute.txt", "c-link.txt"):  # POST /api/records refuses them alike
        res = client.post("/api/records", json={"sheet": cases[name]})
        assert res.status_code == 422 and res.json()["error"]["line"] == 1, res.text


# ---------------------------------------------------------------- 4. no file can hang anything
def test_the_reader_refuses_fifos_devices_links_and_large_files_unread(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotRegular):
        within(5, read_regular, fifo, 1000)
    with pytest.raises(NotRegular):
        within(5, read_regular, "/dev/zero", 1000)  # a device: would never end
    exact = tmp_path / "exact"
    exact.write_bytes(b"x" * 1000)
    assert read_regular(exact, 1000) == b"x" * 1000
    with pytest.raises(TooLarge):
        read_regular(exact, 999)
    (tmp_path / "link").symlink_to(exact)
    assert read_regular(tmp_path / "link", 1000) == b"x" * 1000
    with pytest.raises(UnsafeTarget):
        read_regular(tmp_path / "link", 1000, follow_links=False)
    with pytest.raises(InputError, match="FIFO"):
        within(5, TomlSource, fifo, "mission")


def test_a_sparse_file_is_refused_before_it_is_read(tmp_path):
    sparse = tmp_path / "huge.jsonl"
    with open(sparse, "wb") as f:
        f.truncate(3_000_000_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    for read in (read_game_file, lambda p: TomlSource(p, "mission")):
        with pytest.raises(InputError, match="3000000000 bytes"):
            read(sparse)
    grew_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024  # KiB on Linux
    assert grew_mb < 50 and time.monotonic() - t0 < 5, grew_mb


@pytest.mark.slow  # two kakapo processes
def test_record_and_calibrate_refuse_a_sheet_whose_pieces_is_a_fifo_at_once(catalog, tmp_path):
    table = tmp_path / "thursday"
    table.mkdir()
    os.mkfifo(table / "pipe.toml")
    text = "\n".join(sheet_lines(catalog)) + "\n"
    (table / "g1.txt").write_text(text.replace("mission: b05", "mission: b05\npieces: pipe.toml"))
    for args in (["record", str(table / "g1.txt")], ["calibrate", str(table), "--plays", "1"]):
        res = subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True,
                             timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        assert "pipe.toml" in res.stderr and "FIFO" in res.stderr, res.stderr


def test_one_bad_dropped_file_never_stops_the_others(catalog, tmp_path, monkeypatch):
    from solver.studio import inbox as inbox_module

    games = tmp_path / "games"
    games.mkdir()
    good = "\n".join(sheet_lines(catalog)) + "\n"
    (games / "a-boom.txt").write_text(good)
    (games / "b-good.txt").write_text(good.replace("Ann", "Cat").replace("Ben", "Dan"))
    os.mkfifo(games / "c-pipe.txt")
    real = inbox_module.game_file

    def game_file(text, name, resolve):
        if name == "a-boom.txt":
            raise RuntimeError("an error nobody foresaw")
        return real(text, name, resolve)

    monkeypatch.setattr(inbox_module, "game_file", game_file)
    client = client_for(tmp_path)
    within(30, client.ctx.table.inbox.import_records)
    rows = client.get("/api/games").json()
    assert [sorted(g["names"].values()) for g in rows if g.get("policy") == "recorded"] == [["Cat", "Dan"]]
    broken = {g["file"]: g["broken"] for g in rows if g.get("file")}
    assert "RuntimeError" in broken["a-boom.txt"] and "FIFO" in broken["c-pipe.txt"], broken


# ---------------------------------------------------------------- 5. outputs written safely
def test_a_planted_temporary_link_is_never_written_through(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    log = tmp_path / "game.jsonl"
    for name in (f".{log.name}.{os.getpid()}.tmp", f".{log.name}.tmp", f"{log.name}.tmp"):  # the old names
        (tmp_path / name).symlink_to(victim)
    write_log(log, [{"event": "setup"}])
    assert victim.read_text() == "precious" and log.read_text() == '{"event": "setup"}\n'
    assert sorted(p.name for p in tmp_path.iterdir() if not p.is_symlink()) == ["game.jsonl", "victim"]
    (tmp_path / "out.png").symlink_to(victim)  # a link at the name itself: refused, not replaced
    with pytest.raises(UnsafeTarget, match="link"):
        write_output(tmp_path / "out.png", b"png")
    assert victim.read_text() == "precious" and (tmp_path / "out.png").is_symlink()


def a_device(tmp_path: Path) -> Path:
    """A character device of our own (the null device's numbers), never the system's."""
    dev = tmp_path / "device"
    os.mknod(dev, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    return dev


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root; the FIFO case runs anyway")
def test_a_device_at_an_output_is_exit_2_and_stays_a_device(tmp_path):
    dev = a_device(tmp_path)
    res = within(60, cli, "play", "b01", "--log", dev)
    assert res.exit_code == 2 and str(dev) in res.output and "device" in res.output, res.output
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_a_fifo_or_a_link_at_an_output_is_exit_2_and_untouched(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    res = within(60, cli, "play", "b01", "--log", fifo)
    assert res.exit_code == 2 and str(fifo) in res.output and "FIFO" in res.output, res.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    victim = tmp_path / "victim.png"
    victim.write_bytes(b"precious")
    (tmp_path / "board.png").symlink_to(victim)
    res = within(60, cli, "show", "b01", "--png", tmp_path / "board.png")
    assert res.exit_code == 2 and "link" in res.output, res.output
    assert victim.read_bytes() == b"precious"
    with pytest.raises(UnsafeTarget, match="FIFO"):
        within(5, write_output, fifo, "x")


# ---------------------------------------------------------------- 6. an import keys a game on what was played
def test_a_game_held_already_is_held_whatever_extra_keys_or_names_its_lines_carry(catalog, tmp_path):
    client = client_for(tmp_path)
    logs = [simulated(catalog, name, players, seed)[0] for name, players, seed in
            (("buddy/b05", 2, 1), ("party/p02", 3, 2), ("buddy/b05", 2, 3))]
    first = client.post("/api/games/import", json={"text": "".join(logs)}).json()
    assert len(first["imported"]) == 3 and first["held"] == 0
    copies = []
    for k in range(20):
        for log in logs:
            lines = [json.loads(x) for x in log.splitlines()]
            lines[0].update({"names": {"0": f"Someone {k}"}, f"extra_{k}": k, "game_id": f"copy-{k}",
                             "created": "2030-01-01", "policy": f"whatever-{k}"})
            for line in lines[1:]:
                line[f"note_{k}"] = "a key nobody reads"
            copies.append("".join(json.dumps(x) + "\n" for x in lines))
    again = client.post("/api/games/import", json={"text": "".join(copies)}).json()
    assert again["imported"] == [] and again["held"] == 60 and again["refused"] == []
    other = [json.loads(x) for x in logs[0].splitlines()]
    other[1]["plays"][0], other[1]["plays"][1] = other[1]["plays"][1], other[1]["plays"][0]  # another game
    doc = client.post("/api/games/import", json={"text": "".join(json.dumps(x) + "\n" for x in other)}).json()
    assert doc["held"] == 0  # not held: refused by the rules or imported, never counted as a copy


# ---------------------------------------------------------------- 7. calibration bounded, its cost said
def test_each_table_keeps_its_latest_games_and_says_what_it_left_out(tmp_path):
    paths = []
    for k in range(5):
        p = tmp_path / f"g{k}.jsonl"
        p.write_text("x")
        os.utime(p, (1_000_000 + 10 * (5 - k), 1_000_000 + 10 * (5 - k)))  # g0 the newest
        paths.append(str(p))
    kept, cut = keep_latest([("thursday", paths, ["Ann"]), ("friday", paths[:2], [])], 3)
    assert kept[0][1] == paths[:3] and kept[1][1] == paths[:2]
    assert cut == [("thursday", 2, 5)]
    assert keep_latest([("thursday", paths, [])], 0)[0][0][1] == paths  # 0: every game
    assert LATEST >= 20 and estimate_seconds(100, 20, 2) > estimate_seconds(100, 4, 2) > estimate_seconds(100, 4, 4)


@pytest.mark.slow  # a calibration of two games
def test_calibrate_says_its_cost_before_it_starts_and_the_games_left_out(catalog, tmp_path):
    table = tmp_path / "thursday"
    table.mkdir()
    for seed in (1, 2):
        (table / f"g{seed}.jsonl").write_text(simulated(catalog, "buddy/b05", 2, seed)[0])
    res = cli("calibrate", table, "--plays", 1, "--workers", 1, "--latest", 1)
    assert res.exit_code == 0, res.output
    said = re.search(r"calibrate: 1 game\(s\) of 1 table\(s\), about \d+ s on 1 worker.*", res.stderr)
    assert said and "1 older game(s) left out" in said.group(), res.stderr
    assert res.output.index(said.group()) < res.output.index("Brier")  # said before the answer
    res = cli("calibrate", table, "--plays", 1, "--workers", 1, "--latest", 1, "--json")
    assert res.exit_code == 0 and res.stderr == "", res.output  # with --json: one document, nothing else
    doc = json.loads(res.stdout)
    assert doc["left_out"] == 1 and doc["latest"] == 1 and doc["tables"][0]["games"] == 1
    assert any("left out" in n for n in doc["notes"])
    assert doc["estimate_seconds"] == 0  # the first run kept its replays beside the logs: nothing left to make


def test_the_studio_says_the_calibrations_cost_when_it_starts(catalog, tmp_path):
    client = client_for(tmp_path)
    text = "".join(simulated(catalog, "buddy/b05", 2, seed)[0] for seed in (1, 2, 3))
    assert len(client.post("/api/games/import", json={"text": text}).json()["imported"]) == 3
    res = client.post("/api/jobs", json={"kind": "calibrate"})
    assert res.status_code == 200, res.text
    cost = res.json()["cost"]
    assert cost["games"] == 3 and cost["tables"] == 1 and cost["left_out"] == 0 and cost["estimate_seconds"] > 0
    client.delete(f"/api/jobs/{res.json()['id']}")
    from solver.app.tables import calibration_cost

    rows = [{"id": str(k), "result": "cleared", "players": 2, "names": {"0": "Ann"}, "mission": "b05"}
            for k in range(100)]
    cut = calibration_cost(rows, 2, latest=40)
    assert cut["games"] == 40 and cut["left_out"] == 60 and cut["estimate"].startswith("about")


# ---------------------------------------------------------------- 8. names checked when the recording starts
@pytest.mark.parametrize("name,code", [("An\x00n", "U+0000"), ("An\rmission: x", "U+000D"), ("An\u202en", "U+202E"),
                                       ("An\u2028n", "U+2028"), ("Ann\r", "U+000D"), ("A\tB", "U+0009")])
def test_a_name_the_sheet_cannot_hold_is_422_at_once(tmp_path, name, code):
    client = client_for(tmp_path)
    res = client.post("/api/recordings", json={"mission": "b05", "names": [name, "Ben"], "leader": 0})
    assert res.status_code == 422 and code in res.json()["error"]["message"], res.text
    assert client.get("/api/recordings").json() == []
    ok = client.post("/api/recordings", json={"mission": "b05", "names": ["Zoë", "Ben O'Neil"], "leader": 0})
    assert ok.status_code == 200, ok.text


# ---------------------------------------------------------------- 9. deep or malformed JSON is 4xx
def test_deep_or_malformed_json_is_a_4xx_with_a_message(tmp_path):
    client = client_for(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    for path in ("/api/games", "/api/records", "/api/recordings", "/api/jobs", "/api/missions", "/api/games/import"):
        for body in (deep, '{"sheet": ' + deep + "}", "{not json"):
            res = client.post(path, content=body, headers={"content-type": "application/json"})
            assert 400 <= res.status_code < 500 and res.json()["error"]["message"], (path, res.status_code, res.text)
    setup = '{"event": "setup", "players": 2, "deep": ' + deep + "}\n"
    for content_type in ("text/plain", "application/x-ndjson"):
        res = client.post("/api/games/import", content=setup, headers={"content-type": content_type})
        assert res.status_code == 422 and "nested" in res.json()["error"]["message"], res.text
    res = client.post("/api/games/import", json={"text": '{"event": "setup"}\n{"event": ' + deep + "}\n"})
    assert res.status_code == 422 and res.json()["error"]["message"].startswith("line 2"), res.text
