"""The units of work of a report, each a plain value that says everything it needs (file
contents, not paths), so that it runs the same in a local worker process or on a Dask worker
of another machine: solve a mission, play one policy's games, decide the ceiling's deals.

A task's key digests everything that determines its result, the package's own sources
included, so that a resumed report never mixes in results of other code.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.analysis import simulate
from solver.core.codes import PolicyId
from solver.game.arrays import build_arrays
from solver.game.planner import planner_library
from solver.game.seeds import game_seeds
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.openhand.ceiling import ceiling, decide_deals, policy_clears
from solver.openhand.deal import CLEARABLE, DealSolver
from solver.puzzle import librarystore
from solver.puzzle.cpsat import solve

FORMAT_VERSION = 2


def _code_stamp() -> str:
    """A digest of the package's sources: results computed by other code are never reused."""
    root = Path(__file__).resolve().parent.parent  # the whole package
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


CODE_STAMP = _code_stamp()


def _digest(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else json.dumps(p, sort_keys=True).encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


@dataclass(frozen=True)
class Task:
    """One unit of work, complete in itself (see the module docstring)."""

    kind: str  # "solve" | "sim" | "ceiling"; "deals" (a piece of a rung) | "decide" (of a ceiling); the campaign's
    # "library" (the planner's, built once for every piece of the mission) | "openhand" (the ceiling on some deals)
    mission_name: str  # the file name: the mission's id
    mission_text: bytes
    catalog_text: bytes
    players: int = 0
    games: int = 0
    seed: int = 0
    policy: str = ""
    time_limit: float = 0.0
    samples: int = 0  # the search player's
    first: int = 0  # "deals": games first..first+games-1
    deals: tuple[int, ...] = ()  # "decide": these deals

    @property
    def key(self) -> str:
        # the file name is part of the key: two files with the same text are two missions (two ids)
        return _digest(self.kind, FORMAT_VERSION, CODE_STAMP, self.mission_name, self.mission_text, self.catalog_text,
                       self.players, self.games, self.seed, self.policy, self.time_limit, self.samples,
                       self.first, list(self.deals))

    def label(self) -> str:
        mid = Path(self.mission_name).stem
        if self.kind == "solve":
            return f"{mid}: fewest pieces"
        if self.kind == "library":
            return f"{mid}: the planner's library"
        if self.kind in ("ceiling", "openhand", "decide"):
            return f"{mid} with {self.players} players: open-hand ceiling"
        searching = f" {self.samples} samples" if self.policy == PolicyId.SEARCH.label else ""
        return f"{mid} with {self.players} players: {self.policy}{searching}"


_CATALOGS: dict = {}  # catalog text -> catalog: one object per text, so per-catalog caches hit
_MISSIONS: dict = {}  # (file name, mission text, catalog text) -> mission: a process reads each once
_SOLVERS: dict = {}  # (mission, catalog, players, time limit) -> the deal solver (its puzzle solved once)


def _load(task: Task):
    """Catalog and mission from the texts the task carries (written to a private folder), read
    once per process."""
    known = _MISSIONS.get((task.mission_name, task.mission_text, task.catalog_text))
    if known is not None:
        return known
    with tempfile.TemporaryDirectory() as tmp:
        catalog = _CATALOGS.get(task.catalog_text)
        if catalog is None:
            cat_path = Path(tmp) / "pieces.toml"
            cat_path.write_bytes(task.catalog_text)
            catalog = _CATALOGS[task.catalog_text] = load_catalog(cat_path)
        path = Path(tmp) / task.mission_name
        path.write_bytes(task.mission_text)
        loaded = _MISSIONS[(task.mission_name, task.mission_text, task.catalog_text)] = (catalog,
                                                                                          load_mission(path, catalog))
        return loaded


def deal_solver(m, catalog, players: int, time_limit: float | None) -> DealSolver:
    """The deal solver of a mission and table, made once per process (its puzzle is solved on first use)."""
    key = (m, catalog.key, players, time_limit)
    if key not in _SOLVERS:
        _SOLVERS[key] = DealSolver(m, catalog, players, **({} if time_limit is None else {"time_limit": time_limit}))
    return _SOLVERS[key]


def openhand_deals(m, catalog, players: int, seed: int, deals: list[int], time_limit: float | None
                   ) -> list[tuple[int, str]]:
    """The open-hand ceiling's answer for each of these deals, as ``ceiling`` gives it: clearable
    when a witness policy clears it, else the deal solver's answer."""
    seeds = game_seeds(seed, 0, max(deals) + 1)
    arrays = build_arrays(m, catalog, planner_library(m, catalog))
    picked = seeds[np.array(deals, np.int64)]
    witnessed = np.zeros(len(deals), bool)
    for cleared in policy_clears(m, catalog, players, picked, arrays).values():
        witnessed |= cleared
    out = []
    for k, i in enumerate(deals):
        out.append((i, CLEARABLE if witnessed[k] else deal_solver(m, catalog, players, time_limit).decide(
            int(seeds[i])).result))
    return out


def run_task(task: Task, workers: int = 1, library: dict | None = None) -> dict:
    """Do one task; the result is what the progress file keeps. ``library``: the planner's library
    of the task's mission as a "library" task gave it (a cluster's worker keeps it, so that it is
    built once for the whole cluster, not once a worker)."""
    catalog, m = _load(task)
    if library is not None:
        librarystore.install(m, catalog, library)
    if task.kind == "library":
        return librarystore.document(m, catalog, planner_library(m, catalog))
    if task.kind == "openhand":
        return {"answers": [[i, a] for i, a in openhand_deals(m, catalog, task.players, task.seed, list(task.deals),
                                                               task.time_limit or None)]}
    if task.kind == "solve":
        r = solve(m, catalog, time_limit=task.time_limit, players=task.players or None)
        return {"status": r.status, "min_pieces": r.pieces_used, "optimal": r.optimal}
    if task.kind == "deals":
        res = simulate.play_range(m, catalog, task.players, task.seed, task.first, task.games, task.policy,
                                  task.samples)
        return {"results": [int(x) for x in res]}
    if task.kind == "decide":
        answers = decide_deals(m, catalog, task.players, task.seed, list(task.deals), task.time_limit or None)
        return {"answers": [[i, a] for i, a in answers]}
    if task.kind == "ceiling":
        doc = ceiling(m, catalog, task.players, task.games, task.seed, workers)
        return {"ceiling_games": task.games, "ceiling_rate": doc["clear_rate"], "ceiling_ci95_low": doc["ci95"][0],
                "ceiling_ci95_high": doc["ci95"][1], "ceiling_undecided": doc["undecided"]}
    out = simulate.play_games(m, catalog, task.players, task.games, task.seed, task.policy, "numba", workers,
                              samples=task.samples)
    doc = simulate.summarise(m, task.players, task.policy, task.games, seed=task.seed, out=out, engine="numba",
                             workers=workers, samples=task.samples)
    return {"mission": m.id, "name": m.name, "mode": m.mode, "players": task.players, "games": task.games,
            "cleared": doc["cleared"], "clear_rate": doc["clear_rate"], "ci95_low": doc["ci95"][0],
            "ci95_high": doc["ci95"][1], "rounds_exhausted": doc["failures"]["rounds_exhausted"],
            "unplaceable": doc["failures"]["unplaceable"],
            "mean_rounds_when_cleared": doc["mean_rounds_when_cleared"], "policy": task.policy, "seed": task.seed,
            "samples": doc["samples"]}
