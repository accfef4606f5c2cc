"""Batch difficulty report: clear rates per (mission, players), fewest pieces, the band, the CSV and plots.

The work is a list of tasks (solve a mission; play one policy's games; decide the ceiling's
deals), each a plain value that says everything it needs: file contents, not paths, so that it
can run on another machine. Each finished task is appended at once to
``report.progress.jsonl`` in the output folder, keyed by everything that determines it. An
interrupted report keeps that work; the same command again computes only what is missing,
and the result equals an uninterrupted run. Locally, tasks run side by side in the worker
processes; with a Dask scheduler they run on the cluster's workers.
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.analysis.cluster import WORKER_TIMEOUT, run_on_cluster
from solver.analysis.ladder import LADDER_SAMPLES, rung_games, shortfall_of_rates
from solver.analysis.tasks import Task, run_task
from solver.core.codes import BAND_POLICIES, PolicyId
from solver.core.errors import InputError
from solver.game.search import DEFAULT_SAMPLES
from solver.io.missionfile import load_mission
from solver.io.packs import FolderFile
from solver.io.safefiles import MAX_FILE_BYTES, append_line, read_regular, write_output
from solver.openhand.deal import DEFAULT_TIME_LIMIT
from solver.runtime.workers import process_pool, stop_pool

PROGRESS = "report.progress.jsonl"
IDENTITY = "report.about.json"  # what the folder's report is a report of (kept with it)
OUTPUTS = ("report.csv", "report.md", "report.html", PROGRESS, "clear_rate.png", "pieces_vs_clear_rate.png", "band.png",
           "ladder.png")
COLUMNS = ["mission", "name", "mode", "players", "rounds", "skills", "clear", "games", "cleared", "clear_rate",
           "ci95_low", "ci95_high", "min_pieces", "optimal", "rounds_exhausted", "unplaceable",
           "mean_rounds_when_cleared", "policy", "samples", "seed"]
# per policy of the band: its rate and interval, and how its games were lost
BAND_COLUMNS = [f"{p}_{c}" for p in BAND_POLICIES
                for c in ("rate", "ci95_low", "ci95_high", "rounds_exhausted", "unplaceable")]
LADDER_COLUMNS = ["ladder_games"] + [f"search{k}_{c}" for k in LADDER_SAMPLES
                                     for c in ("rate", "ci95_low", "ci95_high")]
OBSERVED_COLUMNS = ["observed_games", "observed_tables", "observed_rate", "observed_learned"]  # report --observed
CEILING_COLUMNS = ["ceiling_games", "ceiling_rate", "ceiling_ci95_low", "ceiling_ci95_high", "ceiling_undecided",
                   "shortfall"]


def find_missions(args, bundled: Path) -> list[Path]:
    if not args:
        args = [str(bundled)]
    out: list[Path] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.toml") if q.name != "pieces.toml")
            if not found:
                raise InputError(a, "no mission files (*.toml) in this folder",
                                 "give mission files or a folder with them")
            out += found
        elif p.exists():
            out.append(p)
        else:
            raise InputError(a, "mission file or folder not found", "check the path")
    return out


MAX_JOURNAL = 200_000_000  # bytes of the journal of finished work: far above any report's


class Progress:
    """Append-only record of finished work in the output folder."""

    def __init__(self, path: Path):
        self.path = path
        self.done: dict[str, dict] = {}
        if path.exists():
            for line in read_regular(path, MAX_JOURNAL, follow_links=False).decode("utf-8", "replace").splitlines():
                try:
                    entry = json.loads(line)
                    self.done[entry["key"]] = entry["value"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by an interruption

    def get(self, key):
        return self.done.get(key)

    def put(self, key, value):
        self.done[key] = value
        append_line(self.path, json.dumps({"key": key, "value": value}) + "\n")  # never through a link


@dataclass
class Plan:
    """The tasks of a report, and how they make its rows."""

    missions: list  # (path, Mission)
    solve: dict  # (mission id, players) -> Task
    rows: list  # (mission id, players, {"main": Task, "greedy": Task, ..., "ceiling": Task})

    def tasks(self) -> list[Task]:
        out = {t.key: t for t in self.solve.values()}
        for _, _, parts in self.rows:
            for t in parts.values():
                out.setdefault(t.key, t)  # the main policy is often one of the band's too
        return list(out.values())


def read_missions(paths, catalog) -> list:
    """(path, Mission) for every file, each checked before any work (a pack's files, ``FolderFile``,
    read from memory); two files with one id are an input error."""
    missions = [(p, load_mission(p.label, catalog, text=p.text, mission_id=p.stem) if isinstance(p, FolderFile)
                 else load_mission(p, catalog)) for p in paths]
    seen: dict[str, Any] = {}
    for p, m in missions:
        if m.id in seen:
            raise InputError(_label(p), f"two missions share the id {m.id!r} ({_label(seen[m.id])} and {_label(p)})",
                             "rename one of the files: the id is the file name")
        seen[m.id] = p
    return missions


def plan_report(paths, catalog, catalog_bytes: bytes, games: int, *, seed: int, players_filter, policy: str,
                time_limit: float, baseline: bool = False, ceiling_games: int = 0, ladder_games: int = 0,
                samples: int = DEFAULT_SAMPLES) -> Plan:
    missions = read_missions(paths, catalog)
    plan = Plan(missions, {}, [])
    for path, m in missions:
        # read and checked already: a mission file (or a pack's)
        text = path.data if isinstance(path, FolderFile) else read_regular(path, MAX_FILE_BYTES)
        name = path.name if isinstance(path, FolderFile) else Path(path).name
        base: dict[str, Any] = {"mission_name": name, "mission_text": text, "catalog_text": catalog_bytes}
        for players in m.player_counts():
            if players_filter and players not in players_filter:
                continue
            # per player count: with 3 players purple-1 is out of the game
            plan.solve[(m.id, players)] = Task("solve", players=players, time_limit=time_limit, **base)
            main_samples = samples if policy == PolicyId.SEARCH.label else 0
            parts = {"main": Task("sim", players=players, games=games, seed=seed, policy=policy,
                                  samples=main_samples, **base)}
            if baseline:
                for pol in BAND_POLICIES:
                    parts[pol] = Task("sim", players=players, games=games, seed=seed, policy=pol, **base)
            for k in LADDER_SAMPLES if ladder_games else ():
                parts[f"search{k}"] = Task("sim", players=players, games=rung_games(k, ladder_games), seed=seed,
                                           policy=PolicyId.SEARCH.label, samples=k, **base)
            if ceiling_games:
                parts["ceiling"] = Task("ceiling", players=players, games=ceiling_games, seed=seed,
                                        time_limit=DEFAULT_TIME_LIMIT, **base)
            plan.rows.append((m.id, players, parts))
    return plan


def _label(p) -> str:
    return p.label if isinstance(p, FolderFile) else str(p)


def report_identity(plan: Plan) -> dict:
    """What a report is a report of: its missions (ids and contents), catalog and settings, as
    the tasks carry them, but not the version of the code (an upgrade resumes its report)."""
    tasks = sorted((t.kind, t.mission_name, t.players, t.games, t.seed, t.policy, t.time_limit, t.samples,
                    hashlib.sha256(t.mission_text).hexdigest()[:16], hashlib.sha256(t.catalog_text).hexdigest()[:16])
                   for t in plan.tasks())
    rows = sorted(f"{mid}/{players}" for mid, players, _ in plan.rows)
    return {"format": 1, "rows": rows, "digest": hashlib.sha256(json.dumps(tasks).encode()).hexdigest()[:24]}


def claim_folder(out_dir: Path, identity: dict, force: bool) -> None:
    """Make sure --out may receive this report: a new or empty folder, or one holding this same
    report (finished or not). A folder holding another report, or report files kakapo cannot
    place, is refused (InputError) unless ``force``; with it, those files are removed first."""
    about = out_dir / IDENTITY
    theirs = None
    if about.is_file():
        try:
            theirs = json.loads(read_regular(about, MAX_FILE_BYTES, follow_links=False))
        except (OSError, ValueError, RecursionError):
            theirs = None
    ours = [out_dir / name for name in (*OUTPUTS, IDENTITY) if (out_dir / name).exists()]
    if isinstance(theirs, dict) and theirs.get("digest") == identity["digest"]:
        return  # the same report: resume it, or write it again
    if ours and not force:
        if isinstance(theirs, dict) and isinstance(theirs.get("rows"), list):
            shown = ", ".join(str(r) for r in theirs["rows"][:6]) + (", ..." if len(theirs["rows"]) > 6 else "")
            what = f"a report of other missions or settings ({shown})"
        else:
            what = f"report files kakapo cannot tell apart from another report's ({ours[0].name})"
        raise InputError(str(out_dir), f"--out {out_dir} holds {what}",
                         "give this report a folder of its own with --out DIR, or add --force to replace that one")
    for f in ours:
        f.unlink()  # only the files a report writes: anything else in the folder stays
    out_dir.mkdir(parents=True, exist_ok=True)
    write_output(about, json.dumps(identity, indent=1) + "\n")


def run_plan(plan: Plan, out_dir: Path, workers: int, scheduler: str | None = None, tick=None,
             worker_timeout: float = WORKER_TIMEOUT, status=None) -> Progress:
    """Do every task not yet in the progress file; ``tick(done, total, label)`` after each. On a
    cluster, ``status`` hears when no worker is connected (cluster.run_on_cluster)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    progress = Progress(out_dir / PROGRESS)
    tasks = plan.tasks()
    todo = [t for t in tasks if progress.get(t.key) is None]
    done = len(tasks) - len(todo)
    if tick:
        tick(done, len(tasks), None)
    finished = run_on_cluster(scheduler, todo, worker_timeout, status) if scheduler else run_locally(todo, workers)
    for task, result in finished:
        progress.put(task.key, result)
        done += 1
        if tick:
            tick(done, len(tasks), task.label())
    return progress


def _run_bundle(tasks: list) -> list[dict]:
    return [run_task(t, 1) for t in tasks]


def run_locally(tasks: list, workers: int):
    """Yield (task, result) as they finish: one mission's tasks after each other in one of
    ``workers`` processes (so its planner library is built once for all player counts), the
    missions side by side. A task's numbers do not depend on where it runs."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield task, run_task(task, 1)
        return
    bundles: dict = {}
    for t in tasks:
        bundles.setdefault(t.mission_name, []).append(t)
    pool = process_pool(workers)
    try:
        pending = {pool.submit(_run_bundle, b): b for b in sorted(bundles.values(), key=len, reverse=True)}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                yield from zip(pending.pop(f), f.result(), strict=False)
    except BaseException:
        stop_pool(pool)  # Ctrl-C (or an error): the workers stop now, not after their tasks
        raise
    pool.shutdown()


def rows_of(plan: Plan, progress: Progress) -> list[dict]:
    rows = []
    missions = {m.id: m for _, m in plan.missions}
    for mid, players, parts in plan.rows:
        sol = progress.get(plan.solve[(mid, players)].key)
        m = missions[mid]
        row = {**progress.get(parts["main"].key), "min_pieces": sol["min_pieces"], "optimal": sol["optimal"],
               "rounds": m.rounds, "skills": m.skills, "clear": "all" if m.clear_all else m.clear}
        for pol in BAND_POLICIES:
            if pol in parts:
                r = progress.get(parts[pol].key)
                for c in ("rate", "ci95_low", "ci95_high", "rounds_exhausted", "unplaceable"):
                    row[f"{pol}_{c}"] = r["clear_rate" if c == "rate" else c]
        for k in LADDER_SAMPLES:
            if f"search{k}" in parts:
                r = progress.get(parts[f"search{k}"].key)
                row["ladder_games"] = max(row.get("ladder_games", 0), r["games"])  # the top rungs: fewer
                for c in ("rate", "ci95_low", "ci95_high"):
                    row[f"search{k}_{c}"] = r["clear_rate" if c == "rate" else c]
        if "ceiling" in parts:
            row.update(progress.get(parts["ceiling"].key))
            steps = [f"{p}_rate" for p in BAND_POLICIES] + [f"search{k}_rate" for k in LADDER_SAMPLES]
            if all(c in row for c in steps):
                row["shortfall"] = shortfall_of_rates([row[c] for c in steps], row["ceiling_rate"])
        rows.append(row)
    return rows


def compute_rows(paths, catalog, catalog_bytes: bytes, games: int, *, seed: int, players_filter, policy: str,
                 workers: int, time_limit: float, out_dir: Path, echo=lambda s: None, baseline: bool = False,
                 ceiling_games: int = 0, scheduler: str | None = None, tick=None, ladder_games: int = 0,
                 samples: int = DEFAULT_SAMPLES) -> list[dict]:
    """One row per (mission, players): the policy's clear rate and the fewest pieces; with
    ``baseline`` the rates of every band policy, with ``ceiling_games`` the open-hand ceiling."""
    plan = plan_report(paths, catalog, catalog_bytes, games, seed=seed, players_filter=players_filter, policy=policy,
                       time_limit=time_limit, baseline=baseline, ceiling_games=ceiling_games,
                       ladder_games=ladder_games, samples=samples)
    progress = run_plan(plan, out_dir, workers, scheduler, tick)
    return rows_of(plan, progress)
