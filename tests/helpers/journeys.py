"""What the journey tests share (tests/journeys/): a person's own pieces, games played by
simulated players to enter as a table would, the Record tab driven by taps, the Tables tab's
calibration, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from solver.game.engine import play_game
from solver.game.roster import make_policy
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission
from tests.helpers.games import entries_of
from tests.helpers.paths import ROOT
from tests.helpers.tabs import tap_placement, wait_entries

BUDDY = [f"b{k:02d}" for k in range(1, 21)]
LEARN_TIMEOUT = 600_000  # ms: every rung replays every game (minutes on a loaded 2-core machine)


def kakapo(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command line, as a person runs it (this worktree's code)."""
    return subprocess.run([sys.executable, "-m", "solver.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=str(cwd or ROOT), timeout=900, env={**__import__("os").environ,
                                                                 "PYTHONPATH": str(ROOT)})


def campaign_for(pieces: Path, out: Path) -> Path:
    """``out/difficulty.json``: the campaign of the bundled missions measured for the catalog
    ``pieces``, as `kakapo campaign --pieces PIECES --out OUT` writes it, its rows standing in for a
    measurement (the bundled shapes' figures of the missions that fit these pieces: the journeys
    are about what a table does with a campaign, not about measuring one; the owner's journey
    measures one)."""
    from solver.io.catalog import load_catalog
    from solver.io.difficulty import DIFFICULTY_FILE
    from solver.io.missionfile import mission_fit

    catalog = load_catalog(pieces)
    doc = json.loads(DIFFICULTY_FILE.read_text(encoding="utf-8"))
    doc["rows"] = [r for r in doc["rows"] if mission_fit(bundled_mission(r["mission"]), catalog)[1] is None]
    doc["pieces_digest"] = catalog.digest
    out.mkdir(parents=True, exist_ok=True)
    (out / "difficulty.json").write_text(json.dumps(doc), encoding="utf-8")
    return out / "difficulty.json"


def cleared_game(catalog, mission: str, players: int, policy: str = "planner", cleared: bool = True,
                 seeds: range = range(1, 60)) -> list[dict]:
    """The log's events of the first simulated game (of ``seeds``) whose result is as asked."""
    m = load_mission(bundled_mission(mission), catalog)
    for seed in seeds:
        events = play_game(m, catalog, players, seed, make_policy(policy), log=True).events
        if (events[-1]["result"] == "cleared") == cleared:
            return events
    raise AssertionError(f"no game of {mission} came out {'cleared' if cleared else 'lost'}")


def record_in_the_tab(page, events: list[dict], mission: str, names: list[str]) -> list[tuple[int, int]]:
    """Enter a game in the Record tab as a table would (the names, the leader by name, each card
    revealed, the selection, each placement by tapping the cells the preview misses, the cards
    left), then check and save it; (taps, cells) for each placement."""
    entries, left = entries_of(events)
    page.click("#tabs [data-tab=record]")
    if page.is_visible("#rc-close"):
        page.click("#rc-close")
    page.select_option("#rc-mission", mission)
    page.select_option("#rc-players", str(len(names)))
    for k, name in enumerate(names):
        page.fill(f"[data-name-seat='{k}']", name)
    leader = names[events[0]["start_player"]]
    page.select_option("#rc-leader", label=leader)  # chosen by name, after the names
    page.click("#rc-start")
    page.wait_for_selector("#rc-game:not([hidden])")
    placed = []
    n = 0
    for entry in entries:
        if "card" in entry:
            page.click(f"[data-rec-card='{entry['card']}']")
        elif "pieces" in entry:
            rid = page.get_attribute("#rc-game", "data-recording")
            options = json.loads(page.evaluate(f"fetch('/api/recordings/{rid}').then(r => r.text())"))["options"]
            page.click(f"[data-option='{next(i for i, o in enumerate(options) if o['pieces'] == entry['pieces'])}']")
        else:
            placed.append((tap_placement(page, entry["cells"]), len(entry["cells"])))
        n += 1
        wait_entries(page, n)
    for cards in left.values():
        if cards:
            for c in cards:
                page.click(f"[data-rec-card='{c}']")
            page.click("#rc-leftok")
            n += 1
            wait_entries(page, n)
    page.click("#rc-finish")
    page.wait_for_selector("#rc-review:not([hidden])")
    return placed


def learn(page) -> None:
    """The Tables tab's *Learn from every table's games*, to its end."""
    page.click("#tabs [data-tab=tables]")
    page.click("#tb-calibrate")
    t0 = time.time()
    while time.time() - t0 < LEARN_TIMEOUT / 1000:
        state = page.get_attribute("#tb-state", "data-state")
        if state in ("failed", "cancelled"):
            raise AssertionError(page.text_content("#tb-state"))
        if state == "done" and page.locator("[data-level]").count():
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"the calibration did not end: {page.text_content('#tb-state')}")


def window(cleared: set[str], order: list[str], steps: int = 3) -> set[str]:
    """Where a table may be sent next: the missions of ``order`` it has not cleared, up to
    ``steps`` past the furthest it cleared."""
    reached = max((i for i, m in enumerate(order) if m in cleared), default=-1)
    return {m for i, m in enumerate(order) if m not in cleared and i <= reached + steps}
