"""The Record tab's recordings as use cases of the application layer, over any store that keeps
them (here a dictionary, no studio): start, add, undo, finish once, discard; the tapes kept
replayed; each refusal with its kind (missing, conflict, invalid, full)."""

from __future__ import annotations

import copy

import pytest

from solver.app import recordings
from solver.app.recordings import RecordingRefused, TapeCache
from solver.io.paths import bundled_mission

ROUND_1 = ["blue-2", "blue-8", "blue-6", "blue-3"]


class DictStore:
    """What the studio's database keeps of the recordings, in a dictionary."""

    def __init__(self) -> None:
        self.rows: dict[str, dict] = {}
        self.clock = 0

    def add_recording(self, recording_id, setup):
        self.rows[recording_id] = {"id": recording_id, "setup": setup, "entries": [], "game": None, "updated": 0}

    def recording(self, recording_id):
        return copy.deepcopy(self.rows.get(recording_id))

    def recordings(self):
        return [copy.deepcopy(r) for r in self.rows.values()]

    def set_entries(self, recording_id, entries, expected):
        row = self.rows[recording_id]
        if row["game"] is not None or len(row["entries"]) != expected:
            return False
        self.clock += 1
        row["entries"], row["updated"] = list(entries), self.clock
        return True

    def drop_recording(self, recording_id):
        self.rows.pop(recording_id, None)


def b05():
    path = bundled_mission("b05")
    return {"id": "b05", "file": str(path), "text": path.read_text(encoding="utf-8")}


def kind(call, *args, **kwargs) -> str:
    with pytest.raises(RecordingRefused) as info:
        call(*args, **kwargs)
    return info.value.kind


def test_a_recording_start_to_discard_without_a_studio(catalog):
    store, tapes = DictStore(), TapeCache()
    doc = recordings.start(store, tapes, "b05", b05(), catalog=catalog, catalog_file=None, pieces_text=None,
                           names=["Ann", " Ben "], leader=0)
    rid = doc["id"]
    assert doc["setup"]["names"] == ["Ann", "Ben"] and doc["to_act"] == 0 and doc["entries"] == 0
    for n, card in enumerate(ROUND_1):
        doc = recordings.add_entry(store, tapes, rid, n, {"card": card})
    assert doc["phase"] == "select" and doc["decision"] == "blue-8" and doc["in_charge"] == 1
    assert kind(recordings.add_entry, store, tapes, rid, 2, {"card": "red-1"}) == recordings.CONFLICT  # seen 2
    assert kind(recordings.add_entry, store, tapes, rid, 4, {"card": "red-1"}) == recordings.INVALID
    assert kind(recordings.add_entry, store, tapes, rid, 4, None) == recordings.INVALID
    assert store.rows[rid]["entries"] == [{"card": c} for c in ROUND_1]  # nothing refused is kept
    doc = recordings.undo(store, tapes, rid, 4, None)
    assert doc["entries"] == 3 and doc["phase"] == "play"
    assert recordings.show(store, TapeCache(), rid)["trick"] == doc["trick"]  # replayed afresh, the same
    assert kind(recordings.finish, store, tapes, rid, lambda *a: "g1") == recordings.INVALID  # not over
    assert [r["id"] for r in recordings.listing(store)] == [rid]
    assert recordings.discard(store, rid) == {"id": rid, "discarded": True}
    assert kind(recordings.show, store, tapes, rid) == recordings.MISSING
    assert kind(recordings.show, store, tapes, "r" * 41) == recordings.MISSING


def test_bad_setups_and_a_full_store_are_refused(catalog):
    store, tapes = DictStore(), TapeCache()
    assert kind(recordings.start, store, tapes, "b05", b05(), catalog=catalog, catalog_file=None,
                pieces_text=None, names=["Ann", "Ann"], leader=0) == \
        recordings.INVALID
    for k in range(recordings.MAX_RECORDINGS):
        store.add_recording(f"r{k}", {})
    assert kind(recordings.start, store, tapes, "b05", b05(), catalog=catalog, catalog_file=None,
                pieces_text=None, names=["Ann", "Ben"], leader=0) == \
        recordings.FULL


def test_the_tapes_kept_are_the_latest_few(catalog):
    store, tapes = DictStore(), TapeCache()
    rid = recordings.start(store, tapes, "b05", b05(), catalog=catalog, catalog_file=None, pieces_text=None,
                           names=["Ann", "Ben"], leader=0)["id"]
    kept = tapes.get(rid)
    assert kept is not None and kept[0] == "[]"
    for k in range(recordings.MAX_TAPES):
        tapes.put(f"x{k}", "[]", kept[1])
    assert tapes.get(rid) is None and tapes.get("x0") is not None  # the oldest goes


def test_a_finished_recording_is_saved_once(catalog):
    from solver.game.engine import play_game
    from solver.game.roster import make_policy
    from solver.io.missionfile import load_mission

    events = play_game(load_mission(bundled_mission("b05"), catalog), catalog, 2, 1, make_policy("heuristic"),
                       log=True).events
    store, tapes = DictStore(), TapeCache()
    doc = recordings.start(store, tapes, "b05", b05(), catalog=catalog, catalog_file=None, pieces_text=None,
                           names=["Ann", "Ben"], leader=events[0]["start_player"])
    played = set()
    for e in (e for e in events[1:] if e["event"] == "round"):
        entries = [{"card": p["card"]} for p in e["plays"]] + [{"pieces": e["pieces"]}]
        entries += [{"place": pl["piece"], "cells": pl["cells"]} for pl in e["placements"]]
        played |= {p["card"] for p in e["plays"]}
        for entry in entries:
            doc = recordings.add_entry(store, tapes, doc["id"], doc["entries"], entry)
    for seat, hand in enumerate(events[0]["hands"]):
        left = [c for c in hand if c not in played]
        if left:
            doc = recordings.add_entry(store, tapes, doc["id"], doc["entries"], {"seat": seat, "left": left})
    assert doc["phase"] == "done"
    saved = []

    def save(game, mission, catalog):
        saved.append(game)
        store.rows[doc["id"]]["game"] = "g1"
        return "g1"

    fin = recordings.finish(store, tapes, doc["id"], save)
    assert fin["game"] == "g1" and fin["names"] == ["Ann", "Ben"] and fin["result"] == events[-1]["result"]
    assert [len(saved), saved[0].events[1:]] == [1, events[1:]]
    with pytest.raises(RecordingRefused) as again:
        recordings.finish(store, tapes, doc["id"], save)
    assert again.value.kind == recordings.CONFLICT and again.value.more == {"game": "g1"} and len(saved) == 1
    assert kind(recordings.discard, store, doc["id"]) == recordings.CONFLICT
