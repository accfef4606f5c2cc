"""The batch report (`kakapo report`): the missions' clear rates per table size, their fewest
pieces, the band, the ladder's rungs and the ceiling when asked, written as report.csv,
report.md, report.html and plots into a folder of their own.

The work is ``analysis/report.py``'s tasks, each kept in the folder's progress file as it
finishes: a run that stops (Ctrl-C, no worker left on the cluster) raises ``KeptWork``, saying
how much is kept where, and the same request again finishes it. The campaign
(``app/campaign.py``) runs its ladders the same way."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import TypeVar

from solver.app.documents import Said, Ticked
from solver.app.inputs import missions_catalog, samples_for
from solver.app.outputs import check_writable
from solver.core.errors import InputError, NoWorkers
from solver.io.difficulty import read_observed
from solver.io.paths import MISSIONS, mission_path

T = TypeVar("T")
Status = Callable[[str | None], None]  # a cluster with no worker: what it waits for (None: one is back)


class KeptWork(Exception):
    """A batch run (a report's, a campaign's) stopped before its end with its finished work kept:
    ``done`` of ``total`` results in ``kept_in``; ``no_workers`` the cluster's error when no worker
    was left, None when the person stopped it (Ctrl-C). The same request again finishes it."""

    def __init__(self, done: int, total: int, kept_in: Path, what: str, no_workers: NoWorkers | None = None):
        self.done, self.total, self.kept_in, self.what, self.no_workers = done, total, kept_in, what, no_workers
        super().__init__(f"{done} of {total} results kept in {kept_in}")


class Tally:
    """The tasks' progress as ``run_plan`` tells it, kept for ``KeptWork`` and passed on:
    ``progress(done, total, label)``; ``resumed(done, total)`` once, before any new work, when
    results were kept from an earlier run."""

    def __init__(self, progress: Ticked | None, resumed: Callable[[int, int], None] | None) -> None:
        self.done = self.total = 0
        self.progress, self.resumed = progress, resumed

    def __call__(self, done: int, total: int, label: str | None, tasks: tuple[int, int] | None = None) -> None:
        """``tasks``: (finished, foreseen) when ``done`` and ``total`` count units of work, not tasks
        (a campaign's: its bar's time left follows the work foreseen; what is kept counts tasks)."""
        finished, foreseen = tasks if tasks is not None else (done, total)
        if label is None and finished and self.resumed is not None:
            self.resumed(finished, foreseen)
        self.done, self.total = finished, foreseen
        if self.progress is not None:
            self.progress(done, total, label)


def run_kept(run: Callable[[], T], tally: Tally, kept_in: Path, what: str) -> T:
    """``run()`` (a report's or campaign's tasks); its stop with the work kept as ``KeptWork``."""
    try:
        return run()
    except NoWorkers as e:
        raise KeptWork(tally.done, tally.total, kept_in, what, e) from None
    except KeyboardInterrupt:
        raise KeptWork(tally.done, tally.total, kept_in, what) from None


def report_players(text: str | None) -> set[int] | None:
    """`report --players 2,3`: the table sizes to include (None: those of each mission's mode)."""
    if not text:
        return None
    try:
        wanted = {int(x) for x in text.split(",") if x.strip()}
    except ValueError:
        raise InputError("--players", f"cannot read {text!r}", "give counts like 2,3,4") from None
    if not wanted or not wanted <= {2, 3, 4}:
        raise InputError("--players", f"{text!r}: player counts are 2 (buddy), 3 or 4 (party)",
                         "give counts like 2,3,4")
    return wanted


def make_report(targets: Sequence[str], *, pieces: str | None, games: int, seed: int, players: str | None,
                policy: str, workers: int, out_dir: str, force: bool, time_limit: float, baseline: bool,
                ceiling_games: int, ladder_games: int, samples: int | None, scheduler: str | None,
                worker_timeout: float, observed: str | None, command: str = "", progress: Ticked | None = None,
                said: Said | None = None, status: Status | None = None, noted: Said | None = None) -> list[Path]:
    """`kakapo report`: the report of ``targets`` (mission files or folders; none: the bundled
    missions) written into ``out_dir``, the files written in order. Every input is checked
    before any work (``noted(note)`` says what the reader should know of them, such as a catalog
    read from beside the missions); ``said(line)`` that earlier work is resumed; ``status`` what
    a cluster waits for; ``command``: the command line, for the page's introduction."""
    from solver.analysis.report import (  # heavy: pandas, the engines
        PROGRESS,
        claim_folder,
        find_missions,
        plan_report,
        report_identity,
        rows_of,
        run_plan,
    )
    from solver.view.report_files import write_outputs  # heavy: pandas, matplotlib

    samples = samples_for(policy, samples)
    seen = read_observed(observed) if observed else None  # a broken file is said before any work
    wanted = report_players(players)
    paths = find_missions([str(mission_path(t)) for t in targets], MISSIONS)
    notes: list[str] = []
    catalog = missions_catalog(paths, pieces, notes)  # --pieces, else the one the missions were made with
    for note in notes:
        if noted is not None:
            noted(note)
    check_writable(out_dir, "--out", folder=True)
    out = Path(out_dir)
    plan = plan_report(paths, catalog, catalog.text.encode("utf-8"), games, seed=seed, players_filter=wanted,
                       policy=policy, time_limit=time_limit, baseline=baseline, ceiling_games=ceiling_games,
                       ladder_games=ladder_games, samples=samples)
    if not plan.rows:
        raise InputError(out_dir, "no (mission, players) pair matches --players", "check --players and the missions")
    claim_folder(out, report_identity(plan), force)

    def resumed(done: int, total: int) -> None:
        if said is not None:
            said(f"resuming: {done} of {total} results already in {out / PROGRESS}")

    tally = Tally(progress, resumed)
    kept = run_kept(lambda: run_plan(plan, out, workers, scheduler, tally, worker_timeout, status), tally,
                    out / PROGRESS, "report")
    meta = {"policy": policy, "seed": seed, "date": datetime.date.today().isoformat(), "version": version("kakapo"),
            "command": command}
    rows = rows_of(plan, kept)
    for r in rows if seen is not None else ():
        o = (seen or {}).get((r["mission"], r["players"])) or {}
        r.update(observed_games=o.get("games"), observed_tables=o.get("tables"), observed_rate=o.get("observed"),
                 observed_learned=o.get("learned"))
    files: list[Path] = write_outputs(rows, out, {m.id: m for _, m in plan.missions}, meta)
    return files
