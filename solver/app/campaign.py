"""The campaign measured for a catalog (`kakapo campaign`): the ladder of every mission of a folder
(the bundled campaign when none is given) for each of its player counts, played with that
catalog's shapes; the missions in order of their shortfall; and ``difficulty.json`` written with
the catalog's digest inside, so that what is compared later is compared with figures of the same
shapes.

The work is ``analysis/campaign.py``'s: each row's rungs play batches of deals until its shortfall
is known to the precision asked, then its open-hand ceiling and its fewest pieces; the tasks are
kept as they finish in a progress file of the output folder (``.campaign-DIGEST/``): Ctrl-C keeps
them, the same command finishes the rest, and a Dask scheduler runs the same tasks with the same
numbers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.app.documents import Doc, Said, Ticked
from solver.app.inputs import missions_catalog
from solver.app.outputs import check_writable
from solver.app.packs import pack_campaign_inputs
from solver.app.reporting import Tally, run_kept
from solver.core.errors import InputError
from solver.io.catalog import Catalog
from solver.io.difficulty import is_bundled_catalog
from solver.io.missionfile import mission_files, mission_fit
from solver.io.packs import FolderFile
from solver.io.paths import MISSIONS
from solver.io.safefiles import read_regular, write_file

DIFFICULTY = "difficulty.json"


def campaign_missions(directory: Path | None) -> list[Path]:
    """The missions of ``directory`` (its ``*.toml`` files that are not catalogs; the bundled
    campaign, Buddy then Party, when None)."""
    if directory is None:
        return [p for mode in ("buddy", "party") for p in sorted((MISSIONS / mode).glob("*.toml"))]
    if not directory.is_dir():
        raise InputError(str(directory), "not a folder", "give the folder of your missions (or none: the bundled "
                         "campaign, with --out)")
    return mission_files(directory)


def fitting_missions(paths: list[Path | FolderFile], catalog: Catalog
                     ) -> tuple[list[Path | FolderFile], list[Doc]]:
    """The missions that fit the catalog (measured), and those that do not (a pre-placed piece
    whose cells are not its shape there, or made with another catalog): skipped, each
    ``{"mission", "why"}``. A file that is no mission at all stays an input error."""
    fit: list[Path | FolderFile] = []
    skipped: list[Doc] = []
    for path in paths:
        if isinstance(path, FolderFile):  # a pack's mission: read from its bytes
            _, why = mission_fit(path.label, catalog, text=path.text)
            stem = path.stem
        else:
            _, why = mission_fit(path, catalog)
            stem = path.stem
        if why is None:
            fit.append(path)
        else:
            skipped.append({"mission": stem, "why": why})
    return fit, skipped


def campaign_order(rows: list[Doc]) -> list[str]:
    """The missions easiest first: by the mean of their shortfalls over their player counts."""
    by_mission: dict[str, list[float]] = {}
    for r in rows:
        by_mission.setdefault(r["mission"], []).append(float(r["shortfall"]))
    return sorted(by_mission, key=lambda m: (sum(by_mission[m]) / len(by_mission[m]), m))


def campaign_doc(rows: list[Doc], digest: str, catalog_name: str, skipped: list[Doc] | None = None,
                 missions: Path | None = None) -> Doc:
    return {"about": f"The campaign's ladder measured with the catalog {catalog_name} (kakapo campaign): each "
                     "rung's clear rate on the same deals, the open-hand ceiling, the shortfall per mission and "
                     "player count, and the fewest new pieces. A row counts while its mission file has this digest, "
                     "for the catalog of this pieces_digest only.",
            "pieces_digest": digest, "rows": rows, "order": campaign_order(rows), "skipped": skipped or [],
            **({"missions": str(missions.resolve())} if missions is not None else {})}


def check_target(out_dir: Path, digest: str, force: bool = False) -> None:
    """Before any work: ``out_dir/difficulty.json`` may be written (absent, or measured for this
    catalog); one measured for another catalog is not replaced unless ``force``."""
    target = out_dir / DIFFICULTY
    if target.is_file() and not target.is_symlink() and not force:
        try:
            theirs = json.loads(read_regular(target, 50_000_000)).get("pieces_digest")
        except (OSError, ValueError, AttributeError, RecursionError):
            theirs = "?"
        if theirs != digest:
            raise InputError(str(target), "holds a campaign measured for another catalog (or a file kakapo did not "
                             "write)", "measure into another folder with --out, or add --force to replace it")


def write_difficulty(out_dir: Path, doc: Doc, force: bool = False) -> Path:
    """``out_dir/difficulty.json``, written whole and never through a link (``check_target``)."""
    check_target(out_dir, doc["pieces_digest"], force)
    scratch = out_dir / f".campaign-{doc['pieces_digest']}" / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    write_file(out_dir, DIFFICULTY, (json.dumps(doc, indent=1) + "\n").encode(), overwrite=True, scratch=scratch)
    return out_dir / DIFFICULTY


@dataclass
class MeasuredCampaign:
    """What `kakapo campaign` measured and wrote: ``doc`` as written into ``file``."""

    doc: Doc
    file: Path
    names: dict[str, str]  # each measured mission's name, by id
    catalog: str  # the catalog measured with, in words: "the bundled catalog" or its file

    def summary(self) -> Doc:
        """`kakapo campaign --json`'s document."""
        keys = ("mission", "players", "shortfall", "precision", "rates", "rung_games", "ceiling_rate", "min_pieces")
        return {"pieces_digest": self.doc["pieces_digest"], "file": str(self.file),
                "rows": [{k: r[k] for k in keys} for r in self.doc["rows"]], "order": self.doc["order"],
                "skipped": self.doc["skipped"]}


def measure_campaign(directory: str | None, *, pieces: str | None, games: int, players: Sequence[int], seed: int,
                     workers: int, scheduler: str | None, out_dir: str | None, force: bool,
                     precision: float, worker_timeout: float,
                     progress: Ticked | None = None, said: Said | None = None, noted: Said | None = None,
                     status: Said | None = None) -> MeasuredCampaign:
    """`kakapo campaign`: the ladder of every mission of ``directory`` (a folder or a pack; None:
    the bundled campaign) that fits the catalog, for ``players`` (none: each mission's table
    sizes), each row's rungs playing at most ``games`` deals and stopping once its shortfall is
    known to within ``precision`` (95 %), written as ``difficulty.json`` into ``out_dir`` (default
    ``directory``). Everything is checked before any work (``noted(note)``: what the reader
    should know of the inputs); ``said(line)``: that earlier work is resumed; ``status(line)``: a
    Dask cluster's state; a stop keeps the work (``reporting.KeptWork``)."""
    from solver.analysis.campaign import plan_campaign, run_campaign  # heavy: the engines
    from solver.analysis.report import claim_folder  # heavy: pandas

    if directory is None and out_dir is None:
        raise InputError("--out", "the bundled campaign is measured into a folder of yours",
                         "add --out DIR (difficulty.json is written there; a campaign/ folder beside your catalog "
                         "is found by list, ladder and validate)")
    packed = pack_campaign_inputs(directory, pieces)  # a pack: its missions, with its catalog
    if packed is not None and out_dir is None:
        raise InputError("--out", "a pack's campaign is measured into a folder of yours", "add --out DIR")
    every: list[Path | FolderFile]
    notes: list[str] = []
    folder: Path | None = None
    if packed is not None:
        catalog, catalog_bytes, packed_missions = packed
        every = list(packed_missions)
    else:
        folder = None if directory is None else Path(directory)
        files = campaign_missions(folder)
        catalog = missions_catalog(files, pieces, notes)
        every = list(files)
        catalog_bytes = catalog.text.encode("utf-8")
    for note in notes:
        if noted is not None:
            noted(note)
    digest = catalog.digest
    paths, skipped = fitting_missions(every, catalog)
    if not paths:
        raise InputError(directory or "--pieces", "no mission fits this catalog: " + "; ".join(
            f"{s['mission']}: {s['why']}" for s in skipped[:5]) + ("; ..." if len(skipped) > 5 else ""),
            "give the catalog the missions were made with (--pieces FILE), or missions drawn with these shapes")
    out = Path(out_dir or str(directory))
    check_writable(str(out), "--out", folder=True)
    check_target(out, digest, force)  # before any work, not after it
    plan = plan_campaign(paths, catalog, catalog_bytes, games, seed, set(players) or None, precision)
    if not plan.rows:
        raise InputError("--players", "no mission of these is played by that many players", "check --players")
    work = out / f".campaign-{digest}"
    claim_folder(work, plan.identity(), force=True)  # the folder of this catalog's measurements

    def resumed(done: int, total: int) -> None:
        if said is not None:
            said(f"resuming: {done} results already measured")

    tally = Tally(progress, resumed)
    rows = run_kept(lambda: run_campaign(plan, work, workers, scheduler, tally, worker_timeout, status), tally, work,
                    "campaign")
    name = Path(catalog.source).name if not is_bundled_catalog(catalog) else "bundled"
    elsewhere = folder is not None and folder.resolve() != out.resolve()  # --out: the rows say where their missions are
    doc = campaign_doc(rows, digest, name, skipped, folder if elsewhere else None)
    written = write_difficulty(out, doc, force)
    used = "the bundled catalog" if is_bundled_catalog(catalog) else str(catalog.source)
    return MeasuredCampaign(doc, written, {m.id: m.name for _, m in plan.missions}, used)
