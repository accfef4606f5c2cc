"""`rate` and `calibrate` keep every game's replays (beside the logs, and in the studio's database):
a game's replays depend on its deal and moves alone, never on the other games or its place among
them; rating again gives the same document from the kept replays; a damaged entry is made again;
and learning again after one new game replays only that game."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from solver.analysis.ladder import RUNGS
from solver.analysis.rate import measure, read_games
from solver.io.replays import CACHE_FILE, DatabaseReplays, FolderReplays, entry_line, read_entries
from tests.helpers.commands import bot_logs, run

PLAYS = 2


def test_a_sealed_entry_reads_back_and_a_damaged_one_does_not():
    line = entry_line("k1", {"clears": 2, "plays": 2, "same": 3, "decisions": 5})
    assert read_entries(line) == {"k1": {"clears": 2, "plays": 2, "same": 3, "decisions": 5}}
    doc = json.loads(line)
    doc["value"]["clears"] = 1  # edited by hand, or a bit flipped on the disk
    assert read_entries(json.dumps(doc)) == {}
    assert read_entries(line[:40] + "\n" + "not json\n") == {}  # cut short by an interruption


def test_the_studios_database_keeps_them_as_sealed_entries(tmp_path):
    from solver.studio.store import Store

    store = Store(tmp_path, "test")
    kept = DatabaseReplays(store.replays.get, store.replays.keep)
    kept.put([("a", {"clears": 1}, None), ("b", {"clears": 2}, None)])
    assert kept.get([("a", None), ("b", None), ("c", None)]) == {"a": {"clears": 1}, "b": {"clears": 2}}
    with store.transaction() as db:  # damaged in the database: taken as missing
        db.execute("UPDATE replays SET entry = replace(entry, '\"clears\": 2', '\"clears\": 3') WHERE key = 'b'")
    assert kept.get([("a", None), ("b", None)]) == {"a": {"clears": 1}}
    store.close()


@pytest.mark.slow  # every rung replays three games, several times
def test_replays_are_the_games_own_kept_and_made_again_when_damaged(tmp_path):
    (tmp_path / "t").mkdir()
    logs = [str(p) for p in bot_logs(tmp_path / "t", "b05", "planner", 3)]
    games = read_games(logs, None)
    alone = measure(games, PLAYS, 1)
    # the same game anywhere among others, on any workers: the same replays
    turned = measure(games[::-1], PLAYS, 1, workers=2)
    for table in ("clears", "same", "decisions"):
        assert np.array_equal(getattr(alone, table), getattr(turned, table)[:, ::-1])
    # rated, then rated again from the kept replays: the same document
    first = run("rate", *logs, "--plays", PLAYS, "--workers", 1, "--json")
    assert first.exit_code == 0, first.output
    cache = tmp_path / "t" / CACHE_FILE
    assert len(read_entries(cache.read_text())) == len(RUNGS) * 3
    again = run("rate", *logs, "--plays", PLAYS, "--workers", 1, "--json")
    assert json.loads(again.output) == json.loads(first.output)
    kept = measure(games, PLAYS, 1, replays=FolderReplays())
    assert kept.kept == len(RUNGS) * 3 and np.array_equal(kept.clears, alone.clears)
    # one entry damaged: that replay is made again (and kept again), the document unchanged
    lines = cache.read_text().splitlines()
    damaged = json.loads(lines[-1])["key"]  # every entry of one key: an edited value no longer matches its seal

    def edit(line: str) -> str:
        doc = json.loads(line)
        if doc["key"] == damaged:
            doc["value"]["made"] += 1
        return json.dumps(doc)

    cache.write_text("\n".join(edit(x) for x in lines) + "\n")
    mended = measure(games, PLAYS, 1, replays=FolderReplays())
    assert mended.kept == len(RUNGS) * 3 - 1
    assert all(np.array_equal(getattr(mended, t), getattr(alone, t)) for t in ("clears", "same", "decisions"))
    assert measure(games, PLAYS, 1, replays=FolderReplays()).kept == len(RUNGS) * 3
    # calibrating a table again after one new game: only that game is replayed
    more = tmp_path / "t2"
    shutil.copytree(tmp_path / "t", more)
    bot_logs(more, "b05", "planner", 4)  # games 0 to 2 again (the same files), and a fourth
    table = read_games(sorted(str(p) for p in more.glob("*.jsonl")), None)
    assert measure(table, PLAYS, 1, replays=FolderReplays()).kept == len(RUNGS) * 3
    said = run("calibrate", more, "--plays", PLAYS, "--workers", 1)
    assert said.exit_code == 0 and "4 replayed before, kept" in said.output, said.output


@pytest.mark.slow  # every rung replays eight games eight times, twice
def test_the_rungs_near_the_best_make_every_replay_and_judge_as_every_replay_does(tmp_path, monkeypatch):
    from solver.analysis import rate, replayplan

    (tmp_path / "t").mkdir()
    # a greedy table on a mission where the rungs spread: the strong rungs are far from its best
    games = read_games([str(p) for p in bot_logs(tmp_path / "t", "b14", "greedy", 8)], None)
    plays = 8  # more than the first replays, so that some are left unmade where they cannot change a figure
    shortcut = measure(games, plays, 1)
    monkeypatch.setattr(replayplan, "EARLY", 10_000)  # every replay made first
    every = measure(games, plays, 1)
    assert shortcut.made < every.made  # the shortcut left replays unmade ...
    table = [list(range(len(games)))]
    values = shortcut.replayer.values
    near = replayplan.near_best(values, games, table, plays, replayplan.ruled_out(values, games, table, plays))
    assert near and len({r for r, _ in near}) < len(RUNGS)  # the best rung is near itself; not every rung is
    for r, g in near:  # ... but none of a rung near the best
        assert shortcut.clears[r, g] == every.clears[r, g]
    a, b = rate.judge(games, shortcut), rate.judge(games, every)
    assert (a["best_index"], a["plausible_index"]) == (b["best_index"], b["plausible_index"])
