"""Many games and many missions: `simulate`, `chance`, `ceiling`, `ladder` (placed in the
campaign), `validate` and `generate`, as the documents both front ends print or serve (the
report: ``reporting.py``; the campaign: ``campaign.py``).

The heavy engines (Numba, OR-Tools, pandas) are imported by each function when it runs, so that
the command line starts at once."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from solver.app.documents import Counted, Doc, Fraction, Rungs, Said, Shown
from solver.app.inputs import (
    TEXT_NAME,
    excluded_pieces,
    job_folder,
    mission_catalog,
    mission_of_text,
    samples_for,
    table_size,
)
from solver.app.packs import one_mission, validate_inputs
from solver.app.policychoices import BATCH_DEFAULT
from solver.core.cards import Card, Colour
from solver.core.errors import InputError, ParseError
from solver.core.rules import Mission
from solver.game.moment import check_hand, moment_spec
from solver.io.catalog import Catalog
from solver.io.difficulty import (
    Campaign,
    data_digest,
    file_key,
    find_campaign,
    mission_key,
    no_campaign_text,
    placement_phrase,
)
from solver.io.difficulty import place_in_campaign as place_in
from solver.io.loginputs import catalog_text
from solver.io.missionfile import check_file
from solver.io.packs import FolderFile
from solver.io.paths import mission_path
from solver.io.replays import Replays
from solver.io.safefiles import MAX_FILE_BYTES, read_regular

if TYPE_CHECKING:  # heavy at run time: Numba
    from solver.analysis.simulate import Outcomes


def simulate(m: Mission, catalog: Catalog, players: int, games: int, *, seed: int, policy: str, engine: str,
             workers: int, samples: int, progress: Counted | None = None) -> tuple[Doc, Outcomes]:
    """`kakapo simulate`'s document, and the games' outcomes (one result and round count a game)."""
    from solver.analysis.simulate import play_games, summarise  # heavy: Numba

    out = play_games(m, catalog, players, games, seed, policy, engine, workers, progress=progress, samples=samples)
    return summarise(m, players, policy, games, seed=seed, out=out, engine=engine, workers=workers,
                     samples=samples), out


if TYPE_CHECKING:
    from solver.analysis.cluster import ClusterWork


def on_cluster(address: str | None, mission: str, catalog: Catalog, players: int, seed: int,
               time_limit: float | None, worker_timeout: float,
               status: Callable[[str | None], None] | None = None) -> ClusterWork | None:
    """The ladder's or the ceiling's work for the Dask scheduler at ``address`` (None: here):
    the mission and catalog files travel as text, so the workers need only kakapo."""
    if address is None:
        return None
    from solver.analysis.cluster import ClusterWork  # heavy: with the task runners

    packed = one_mission(mission, None)  # a mission inside a pack: its text
    if packed is not None:
        m = packed[1]
        return ClusterWork(address, f"{m.id}.toml", m.source.encode(), catalog_text(catalog).encode("utf-8"),
                           players, seed, time_limit, worker_timeout, status)
    path = mission_path(mission)
    return ClusterWork(address, path.name, read_regular(path, MAX_FILE_BYTES), catalog_text(catalog).encode("utf-8"),
                       players, seed, time_limit, worker_timeout, status)


def ceiling(m: Mission, catalog: Catalog, players: int, games: int, *, seed: int, workers: int,
            time_limit: float | None = None, progress: Counted | None = None,
            cluster: ClusterWork | None = None) -> tuple[Doc, list[str]]:
    """`kakapo ceiling`'s document, and each deal's answer (clearable, not_clearable, undecided)."""
    from solver.openhand.ceiling import ceiling as run_ceiling  # heavy: OR-Tools and Numba

    doc = run_ceiling(m, catalog, players, games, seed, workers, time_limit=time_limit, progress=progress,
                      decide=cluster.decide if cluster is not None else None)
    answers = doc.pop("answers")
    return doc, answers


def ladder(m: Mission, catalog: Catalog, players: int, games: int, *, seed: int, workers: int,
           time_limit: float | None = None, progress: Rungs | None = None, cluster: ClusterWork | None = None,
           folder: Path | None = None, near: tuple[Path, ...] = ()) -> Doc:
    """`kakapo ladder`'s document, with where the mission falls among the other missions measured
    with the same catalog (``folder``: the mission's, searched first for a campaign; ``near``: more
    places, the studio's folder)."""
    from solver.analysis.ladder import ladder as run_ladder  # heavy: Numba and OR-Tools

    doc = run_ladder(m, catalog, players, games, seed=seed, workers=workers, progress=progress, time_limit=time_limit,
                     cluster=cluster)
    place_in_campaign(doc, m, catalog, players, folder, near)
    return doc


def chance(m: Mission, catalog: Catalog, players: int, gone: list[Card], *, games: int, seed: int,
           trump: Colour | None = None, samples: int | None = None, progress: Counted | None = None,
           hand: list[Card] | None = None) -> Doc:
    """`kakapo chance`: the search player's clear rate from the board ``m`` (its rounds and skills
    those left) with the cards ``gone`` out of the game, over ``games`` deals of the unseen cards."""
    from solver.analysis.chance import chance as run_chance  # heavy: Numba

    return run_chance(m, catalog, players, gone, games=games, seed=seed, trump=trump,
                      samples=samples_for("search", samples), progress=progress, hand=hand)


@dataclass(frozen=True)
class Moment:
    """Where a table stands: the board (its rounds and skill counters those left), the table's size,
    the cards gone and the trump in force; checked (``game.moment.moment_spec``)."""

    mission: Mission
    players: int
    gone: list[Card]
    trump: Colour | None
    hand: list[Card] | None = None  # the asking seat's cards, when given


def table_moment(m: Mission, players: int | None, exclude: Iterable[object], rounds: int | None = None,
                 skills: int | None = None, trump: str | None = None, source: str = "mission",
                 hand: Iterable[object] | None = None) -> Moment:
    """The moment a request describes (the studio's table panel, `kakapo chance`); InputError when
    it cannot be (cards gone that are not whole rounds', hands that cannot last the rounds left)."""
    if rounds is not None and rounds < 1:
        raise InputError("rounds", "at least one round must be left to play", "give the rounds left, 1 or more")
    if skills is not None and skills < 0:
        raise InputError("skills", "the skill counters left cannot be negative", "give 0 or more")
    m = replace(m, rounds=m.rounds if rounds is None else rounds, skills=m.skills if skills is None else skills)
    n = table_size(m, players, source)
    gone = excluded_pieces(exclude)
    try:
        colour = None if not trump else Colour.parse(trump)
    except ParseError as e:
        raise InputError("--trump", str(e), "give a colour: red, yellow, green, blue or purple") from None
    spec, held = moment_spec(m, n, gone, colour)
    mine = None
    if hand is not None:
        mine = check_hand(spec, held, [_hand_card(x) for item in hand for x in str(item).split(",") if x.strip()])
    return Moment(m, n, gone, colour, mine)


def _hand_card(name: str) -> Card:
    try:
        return Card.parse(name)
    except ParseError as e:
        raise InputError("--hand", str(e), "name cards like red-5 or p8, separated by commas") from None


def place_in_campaign(doc: Doc, m: Mission, catalog: Catalog, players: int, folder: Path | None = None,
                      near: tuple[Path, ...] = ()) -> None:
    """Where the ladder's figure falls among the other missions of that mode and table measured
    with the same catalog (``io.difficulty``: the campaign found from the mission's folder, never
    the mission itself); ``campaign`` null and ``campaign_text`` saying so when none was measured."""
    campaign = find_campaign(catalog, folder, near, [mission_key(m)])
    placed = place_in(campaign, doc["difficulty"]["value"], m.id, m.mode, players)
    doc["difficulty"]["campaign"] = placed
    doc["difficulty"]["campaign_text"] = no_campaign_text(catalog) if placed is None else placement_phrase(placed)


# ---------------------------------------------------------------- the studio's mission jobs
# each answers the document of the command of its name with --json (``registry.JOBS``); its request
# as the studio's job model gives it: the mission's ``text`` and file ``name``, ``players``,
# ``games``, ``seed``; ``progress(fraction)``
def _job_mission(request: Doc, catalog: Catalog) -> tuple[Mission, str]:
    """The job's mission, and the name its errors are said with."""
    name = request.get("name")
    return mission_of_text(request["text"], catalog, name), name or TEXT_NAME


def _fraction(progress: Fraction) -> Counted:
    return lambda done, total: progress(done / max(total, 1))


def simulate_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction, shown: Shown | None = None,
               replays: Replays | None = None) -> Doc:
    """`kakapo simulate`'s document; ``policy``: the request's (default the batch commands')."""
    m, source = _job_mission(request, catalog)
    players = table_size(m, request.get("players"), source)
    policy = request.get("policy") or BATCH_DEFAULT
    doc, _ = simulate(m, catalog, players, request["games"], seed=request["seed"], policy=policy, engine="numba",
                      workers=workers, samples=samples_for(policy, None), progress=_fraction(progress))
    return doc


def ceiling_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction, shown: Shown | None = None,
               replays: Replays | None = None) -> Doc:
    """`kakapo ceiling`'s document, with the mission, table, games and seed it was measured for."""
    m, source = _job_mission(request, catalog)
    players = table_size(m, request.get("players"), source)
    games, seed = request["games"], request["seed"]
    doc, _ = ceiling(m, catalog, players, games, seed=seed, workers=workers, progress=_fraction(progress))
    return {"mission": m.id, "players": players, "games": games, "seed": seed, **doc}


def ladder_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction, shown: Shown | None = None,
               replays: Replays | None = None) -> Doc:
    """`kakapo ladder`'s document, placed among the missions of the campaign found from the
    request's ``folder`` (the studio's); the progress of the rungs one after the other."""
    from solver.analysis.ladder import RUNGS  # heavy: Numba and OR-Tools

    m, source = _job_mission(request, catalog)
    players = table_size(m, request.get("players"), source)
    steps = len(RUNGS) + 1
    labels: list[str] = []

    def step(label: str, done: int, total: int) -> None:
        if label not in labels:
            labels.append(label)
        progress((len(labels) - 1 + done / max(total, 1)) / steps)

    return ladder(m, catalog, players, request["games"], seed=request["seed"], workers=workers, progress=step,
                  folder=job_folder(request))


def chance_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction, shown: Shown | None = None,
               replays: Replays | None = None) -> Doc:
    """`kakapo chance`'s document from the moment the request describes (``exclude``: the cards
    gone, ``rounds`` and ``skills`` left, ``trump``, ``hand``: the asking seat's cards)."""
    m, source = _job_mission(request, catalog)
    at = table_moment(m, request.get("players"), request.get("exclude") or [], request.get("rounds"),
                      request.get("skills"), request.get("trump"), source, request.get("hand"))
    return chance(at.mission, catalog, at.players, at.gone, games=request["games"], seed=request["seed"],
                  trump=at.trump, progress=_fraction(progress), hand=at.hand)


# ---------------------------------------------------------------- validate
@dataclass
class Validated:
    """`kakapo validate`: a document per file (in order), those that do not load said first."""

    docs: list[Doc]
    invalid: dict[int, Doc]

    def exit_code(self) -> int:
        if any(not d["valid"] for d in self.docs):
            return 2
        if any(d["status"] == "unsolvable" for d in self.docs):
            return 1
        if any(d["status"] != "solvable" for d in self.docs):
            return 3
        return 0


def validate_catalogs(paths: list[Path | FolderFile], pieces: str | None, folder_catalog: Catalog,
                      notes: list[str] | None = None) -> list[Catalog]:
    """The catalog each file is read with: a file of a folder or pack given whole, the catalog its
    missions were made with (``folder_catalog``: ``packs.validate_inputs``); a mission file
    (``inputs.mission_catalog``), ``--pieces``, else the one beside a mission made with another
    catalog, with a note."""
    return [folder_catalog if isinstance(p, FolderFile) else mission_catalog(p, pieces, notes) for p in paths]


def invalid_files(paths: list[Path | FolderFile], catalogs: list[Catalog]) -> dict[int, Doc]:
    """The files that do not load, by their place in ``paths`` (files, or the files of a folder or
    pack): said before any work."""
    out = {}
    for i, (p, catalog) in enumerate(zip(paths, catalogs, strict=True)):
        label, text = _file_text(p)
        doc = check_file(label, catalog, text)
        if doc is not None:
            out[i] = doc
    return out


def _file_text(p: Path | FolderFile) -> tuple[Path | str, str | None]:
    """A file as `validate` names and reads it: a path, or a pack's file with its text."""
    return (p.label, p.text) if isinstance(p, FolderFile) else (p, None)


def _file_campaign(p: Path | FolderFile, catalog: Catalog) -> Campaign:
    """The campaign a file is placed in: the one measured for its catalog, looked for from its
    folder (or pack), the one that measured this very file first."""
    if isinstance(p, FolderFile):
        return find_campaign(catalog, Path(p.label).parent, (), [(p.stem, data_digest(p.data))])
    return find_campaign(catalog, p.parent, (), [file_key(p)])


def validate(files: list[str] | tuple[str, ...], pieces: str | None, *, time_limit: float, games: int, seed: int,
             policy: str, workers: int, ceiling_games: int, ladder_games: int, noted: Said | None = None,
             broken: Callable[[Doc], None] | None = None, progress: Rungs | None = None) -> Validated:
    """`kakapo validate`: every file (a folder or a pack stands for its missions) read with its
    catalog (``validate_catalogs``; ``noted(note)`` says where one came from); ``broken(doc)`` for
    each file that does not load, before any work; then every valid file solved, and with
    ``games`` its difficulty per table placed among the other missions measured with its catalog
    (the band, the ceiling, the ladder's search rungs)."""
    catalog, paths = validate_inputs(files, pieces)
    notes: list[str] = []
    catalogs = validate_catalogs(paths, pieces, catalog, notes)
    for note in notes:
        if noted is not None:
            noted(note)
    invalid = invalid_files(paths, catalogs)
    for i in sorted(invalid):
        if broken is not None:
            broken(invalid[i])
    if len(invalid) == len(paths):
        return Validated([invalid[i] for i in range(len(paths))], invalid)
    from solver.analysis.validate import validate_file  # heavy: OR-Tools, Numba

    docs = [invalid[i] if i in invalid else
            validate_file(_file_text(paths[i])[0], catalogs[i], time_limit, games, seed=seed, policy=policy,
                          workers=workers, ceiling_games=ceiling_games, ladder_games=ladder_games if games > 0 else 0,
                          progress=progress, campaign=_file_campaign(paths[i], catalogs[i]),
                          text=_file_text(paths[i])[1])
            for i in range(len(paths))]
    return Validated(docs, invalid)


# ---------------------------------------------------------------- generate
def band_of(text: str) -> tuple[float, float]:
    """`--band LOW-HIGH`: a range of clear rates."""
    try:
        low, high = (float(x) for x in text.split("-"))
    except ValueError:
        raise InputError("--band", f"cannot read {text!r}", "give two rates like 0.30-0.50") from None
    if not 0 <= low < high <= 1:
        raise InputError("--band", f"{text!r} is not a range of clear rates",
                         "give 0 <= LOW < HIGH <= 1, e.g. 0.30-0.50")
    return low, high


def generate_players(mode: str, players: int | None) -> int:
    """The table a generated mission is measured at: the one asked for if the mode allows it."""
    players = players if players is not None else (2 if mode == "buddy" else 4)
    if (mode == "buddy") != (players == 2) or players not in (2, 3, 4):
        raise InputError("--players", f"{mode} missions are not played by {players} players",
                         "use 2 for buddy, 3 or 4 for party")
    return players


def generate(mode: str, low: float, high: float, players: int, *, policy: str, count: int, seed: int, out_dir: Path,
             catalog: Catalog, workers: int, progress: Callable[[int, int, int], None] | None = None) -> list[Doc]:
    """`kakapo generate --json`'s list: the missions written, each with its measured clear rate;
    ``progress(candidates tried, the most it tries, missions kept)``."""
    from solver.analysis import generate as generator  # heavy: OR-Tools and Numba

    most = generator.MAX_CANDIDATES
    found = generator.generate(mode, low, high, players, policy=policy, count=count, seed=seed, out=out_dir,
                               catalog=catalog, workers=workers,
                               progress=None if progress is None else lambda tried, kept: progress(tried, most, kept))
    return [{"file": str(f.path), "clear_rate": f.clear_rate, "ci95": list(f.ci95), "min_pieces": f.min_pieces}
            for f in found]
