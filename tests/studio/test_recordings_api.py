"""`/api/recordings`: the Record tab's game entered tap by tap. Simulated games of every mode,
skills used, entered one card, selection and placement at a time, give the same game as their
log; the server says whose turn it is, the decision, the selections and placements the rules
allow; a card that breaks must-follow against a card revealed later is refused at once, against a
card still held at the end when the cards left are entered, in the sheet's words; undo; the
recording outlives a restart; the finished game joins the folder's games with its names."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
from tests.helpers.client import client_for
from tests.helpers.games import ROWS, entries_of, simulated

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def start(client, mission, players, leader):
    res = client.post("/api/recordings", json={"mission": mission, "names": NAMES[:players], "leader": leader})
    assert res.status_code == 200, res.text
    return res.json()


def enter(client, rid, doc, entry):
    res = client.post(f"/api/recordings/{rid}/entries", json={"at": doc["entries"], **entry})
    assert res.status_code == 200, (entry, res.text)
    return res.json()


@pytest.mark.parametrize("name,players", [pytest.param(n, p, marks=[pytest.mark.slow] if p > 2 else [])
                                          for n, p in ROWS])
def test_a_game_entered_tap_by_tap_is_the_same_game(name, players, catalog, tmp_path):
    client = client_for(tmp_path)
    skills = set()
    for seed in (1, 2):
        _, events = simulated(catalog, name, players, seed, "random")
        entries, left = entries_of(events)
        doc = start(client, name.split("/")[1], players, events[0]["start_player"])
        rid = doc["id"]
        rounds = [e for e in events[1:] if e["event"] == "round"]
        for entry in entries:
            if "card" in entry:
                assert doc["phase"] == "play" and entry["card"] not in doc["gone"]
            if "pieces" in entry:  # the server offers the selection that was made, the decision its own
                r = rounds[doc["round"] - 1]
                assert doc["phase"] == "select" and doc["decision"] == r["decision"]
                assert doc["in_charge"] == r["in_charge"]
                assert entry["pieces"] in [o["pieces"] for o in doc["options"]]
            if "place" in entry:
                assert doc["phase"] == "place" and doc["piece"] == entry["place"]
                assert sorted(entry["cells"]) in doc["placements"]
            doc = enter(client, rid, doc, entry)
        assert doc["phase"] in ("left", "done") and doc["result"] == events[-1]["result"]
        for k, cards in left.items():
            if cards:
                assert doc["left_needed"][str(k)] == len(cards)
                doc = enter(client, rid, doc, {"seat": k, "left": cards})
        assert doc["phase"] == "done" and ("left:" in doc["sheet"]) == any(left.values())
        fin = client.post(f"/api/recordings/{rid}/finish")
        assert fin.status_code == 200, fin.text
        logged = [json.loads(x) for x in fin.json()["log"].splitlines()]
        assert logged[1:] == events[1:], (name, seed)
        assert logged[0]["hands"] == events[0]["hands"] and logged[0]["names"] == {
            str(k): NAMES[k] for k in range(players)}
        row = next(g for g in client.get("/api/games").json() if g["id"] == fin.json()["game"])
        assert row["policy"] == "recorded" and row["result"] == events[-1]["result"]
        assert client.post(f"/api/recordings/{rid}/finish").status_code == 409  # once
        skills |= {r["skill"] for r in rounds}
    assert len(skills - {None}) >= 1


def test_whose_turn_undo_and_a_restart(catalog, tmp_path):
    client = client_for(tmp_path)
    _, events = simulated(catalog, "party/p02", 3, 4)
    entries, _ = entries_of(events)
    lead = events[0]["start_player"]
    doc = start(client, "p02", 3, lead)
    assert doc["to_act"] == lead and doc["phase"] == "play" and doc["round"] == 1
    assert doc["removed"] and all(c not in doc["removed"] for c in doc["gone"])
    doc = enter(client, doc["id"], doc, entries[0])
    assert doc["to_act"] == (lead + 1) % 3 and doc["trick"][0]["player"] == lead
    # a double tap (the same count seen) is not entered twice
    again = client.post(f"/api/recordings/{doc['id']}/entries", json={"at": 0, **entries[0]})
    assert again.status_code == 409
    # the same card twice, a card out of the game: refused, saying why
    dup = client.post(f"/api/recordings/{doc['id']}/entries", json={"at": 1, **entries[0]})
    said = dup.json()["error"]["message"]
    assert dup.status_code == 422 and said == f"entry 2: round 1: {NAMES[(lead + 1) % 3]} played " \
        f"{entries[0]['card']}, which was played already in round 1", said
    out = client.post(f"/api/recordings/{doc['id']}/entries", json={"at": 1, "card": doc["removed"][0]})
    assert out.status_code == 422 and "out of the game" in out.json()["error"]["message"]
    for entry in entries[1:5]:
        doc = enter(client, doc["id"], doc, entry)
    n = doc["entries"]
    # a restart goes on with it
    client = client_for(tmp_path)
    assert [r["id"] for r in client.get("/api/recordings").json()] == [doc["id"]]
    back = client.get(f"/api/recordings/{doc['id']}").json()
    assert back["entries"] == n and back["trick"] == doc["trick"] and back["round"] == doc["round"]
    undone = client.post(f"/api/recordings/{doc['id']}/undo", json={"at": n}).json()
    assert undone["entries"] == n - 1
    redone = enter(client, doc["id"], undone, entries[n - 1])
    assert redone["trick"] == doc["trick"] and redone["phase"] == doc["phase"]
    to_start = client.post(f"/api/recordings/{doc['id']}/undo", json={"at": n, "to": 0}).json()
    assert to_start["entries"] == 0 and to_start["gone"] == []
    assert client.delete(f"/api/recordings/{doc['id']}").json()["discarded"]
    assert client.get("/api/recordings").json() == []


def test_must_follow_is_checked_against_cards_revealed_later_and_at_the_end(catalog, tmp_path):
    client = client_for(tmp_path)
    doc = start(client, "b05", 2, 0)
    # Ann leads blue-2, Ben discards red-2; later Ben reveals blue-3: he held it, so must have followed
    for card in ("blue-2", "red-2"):
        doc = enter(client, doc["id"], doc, {"card": card})
    assert doc["phase"] == "play" and len(doc["trick"]) == 2  # a Buddy trick has four cards
    for card in ("blue-5", "blue-3"):
        res = client.post(f"/api/recordings/{doc['id']}/entries", json={"at": doc["entries"], "card": card})
        if res.status_code == 422:
            said = res.json()["error"]["message"]
            # the sheet's words, after the entry's number (the round of the breach, the person, the rule)
            assert said == f"entry {doc['entries'] + 1}: round 1: Ben played red-2 but held blue-3: must follow " \
                "blue", said
            break
        doc = res.json()
    else:
        pytest.fail("Ben's blue-3 after his red-2 on a blue lead was taken")


def test_bad_setups_are_refused(tmp_path):
    client = client_for(tmp_path)
    for body, words in [({"mission": "b05", "names": ["Ann", "Ann"]}, "same name"),
                        ({"mission": "b05", "names": ["Ann", "Ben", "Cat"]}, "played by 2"),
                        ({"mission": "b05", "names": ["Ann", "B,en"]}, "cannot be written"),
                        ({"mission": "b05", "names": ["Ann", "Ben"], "leader": 3}, "leads")]:
        res = client.post("/api/recordings", json=body)
        assert res.status_code == 422 and words in res.json()["error"]["message"], res.text
    assert client.post("/api/recordings", json={"mission": "zz99", "names": ["A", "B"]}).status_code == 404
    assert client.get("/api/recordings/nope").status_code == 404


def test_a_hand_that_breaks_must_follow_is_refused_at_the_end_naming_the_round(catalog, tmp_path):
    """The cards left make a hand that held a colour its owner did not follow: entering them is
    refused with the round, the person and the rule (a sheet's words), and nothing is saved."""
    client = client_for(tmp_path)
    for seed in range(40):
        _, events = simulated(catalog, "party/p02", 3, seed, "random")
        entries, left = entries_of(events)
        rounds = [e for e in events[1:] if e["event"] == "round"]
        colour = lambda c: c.split("-")[0]  # noqa: E731
        for r in rounds:
            lead = colour(r["plays"][0]["card"])
            for p in r["plays"][1:]:
                k = p["player"]
                if colour(p["card"]) == lead:
                    continue
                other = next(((j, c) for j in left for c in left[j] if j != k and colour(c) == lead), None)
                mine = next((c for c in left[k] if colour(c) != lead), None)
                if other and mine:
                    j, c = other
                    left[j] = [x for x in left[j] if x != c] + [mine]
                    left[k] = [x for x in left[k] if x != mine] + [c]
                    doc = start(client, "p02", 3, events[0]["start_player"])
                    for entry in entries:
                        doc = enter(client, doc["id"], doc, entry)
                    res = client.post(f"/api/recordings/{doc['id']}/entries",
                                      json={"at": doc["entries"], "seat": k, "left": sorted(left[k])})
                    assert res.status_code == 422, res.text
                    said = res.json()["error"]["message"]
                    assert said == f"entry {doc['entries'] + 1}: round {r['round']}: {NAMES[k]} played {p['card']} " \
                                   f"but held {c}: must follow {lead}", said
                    fin = client.post(f"/api/recordings/{doc['id']}/finish")
                    assert fin.status_code == 422 and "not all entered" in fin.json()["error"]["message"], fin.text
                    assert client.get("/api/games").json() == []
                    return
    pytest.fail("no simulated game had a hand to swap")
