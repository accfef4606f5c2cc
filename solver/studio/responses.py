"""What the studio's JSON API answers, as models: the OpenAPI document (`/api/openapi.json`) says
what each endpoint answers, and each answer is checked against its model on the way out.

The documents are those of the command line's --json; their models name the keys a client relies
on and let the rest through (``Open``: the documents grow, as the contract allows)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Open(BaseModel):
    """A document whose listed keys are always there; others may come with it."""

    model_config = ConfigDict(extra="allow")


class ErrorBody(BaseModel):
    message: str
    fix: str


class ErrorDoc(BaseModel):
    """Every refusal (400, 403, 404, 409, 413, 422, 429, 500): what is wrong and how to fix it."""

    error: ErrorBody


ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorDoc} for code in (400, 403, 404, 409, 413, 422, 429)}


# ---------------------------------------------------------------- missions and checks
class MissionRow(Open):
    """`kakapo list --json`'s row (bundled) or a mission of the folder (``valid`` false when it
    does not load)."""

    id: str
    source: Literal["bundled", "dir"]
    file: str
    name: str | None = None
    mode: str | None = None
    fits: bool = Field(default=True, description="whether it reads with the catalog in use (a pre-placed piece "
                                                 "whose cells are its shape there)")
    why: str | None = Field(default=None, description="why it does not fit, or does not load")


class MissionFile(BaseModel):
    id: str
    source: Literal["bundled", "dir"]
    file: str
    text: str


class Saved(BaseModel):
    file: str
    saved: bool


class CheckItem(BaseModel):
    line: int | None
    message: str
    fix: str
    cells: list[str]


class CheckDoc(BaseModel):
    """The checks `validate` makes before it solves or plays; ``mission`` the parsed mission when valid."""

    valid: bool
    errors: list[CheckItem]
    warnings: list[CheckItem]
    mission: dict[str, Any] | None
    pieces_digest: str | None = None  # the catalog the text says it was made with
    catalog_digest: str | None = None  # the catalog in use


class PlacementDoc(BaseModel):
    piece: str
    cells: list[str]


class SolveDoc(Open):
    """The `solve --json` document (``solution_count`` and ``count_complete`` when counted)."""

    mission: str
    status: Literal["solvable", "unsolvable", "unknown"]
    pieces_used: int | None
    optimal: bool | None
    placements: list[PlacementDoc]
    scanned: list[str]
    players: int


class PieceRow(BaseModel):
    piece: str
    cells: int
    shape: str


class PiecesDoc(BaseModel):
    """The catalog in use (``file`` null: the bundled one), as `kakapo pieces --json` lists it."""

    file: str | None
    pieces: list[PieceRow]
    digest: str | None = None  # its shapes' digest (a mission's ``pieces_digest``)


class CatalogRow(BaseModel):
    file: str | None
    name: str
    valid: bool
    error: str | None
    current: bool
    digest: str | None  # its shapes' digest when it loads (a mission's ``pieces_digest``)


class CatalogProblem(BaseModel):
    line: int | None
    piece: str | None
    message: str
    fix: str


class CatalogCheck(BaseModel):
    """A catalog's text checked as `--pieces` loads it: every problem, each piece drawn as written."""

    valid: bool
    errors: list[CatalogProblem]
    pieces: list[PieceRow]
    digest: str | None = None  # its shapes' digest when it loads


class CatalogFile(BaseModel):
    """A catalog's text (``file`` null: the bundled one)."""

    file: str | None
    text: str


class Link(BaseModel):
    """A link to open on another device, and its QR code: one string of '0' and '1' (dark) per row
    of modules, without the quiet zone."""

    url: str
    qr: list[str]


class Status(Open):
    kernels: Literal["compiling", "ready"]
    kernels_progress: float = Field(ge=0, le=1, description="the fraction of the kernels ready")
    host: bool = Field(description="whether this request carries the host's authority (else: a seat's link "
                                   "opens that seat only)")
    link: Link | None = Field(default=None, description="the host's link, for the host, when the studio "
                                                        "listens beyond this machine")


# ---------------------------------------------------------------- jobs
class CalibrationCost(BaseModel):
    """What a calibration learns from and about how long it takes, said before it starts."""

    games: int
    tables: int
    left_out: int
    latest: int | None
    estimate_seconds: float
    estimate: str


class JobStarted(BaseModel):
    id: str
    token: str
    cost: CalibrationCost | None = None  # a calibration's, said before it starts


class ResultWords(BaseModel):
    """What a finished job's result says: the figure in one line, what it means for a player in one
    plain sentence ("" when its kind says none), and the glossary's term that explains it."""

    figure: str
    meaning: str
    glossary: str | None


class JobState(BaseModel):
    id: str
    kind: str
    state: Literal["queued", "running", "done", "failed", "cancelled"]
    progress: float
    left_s: float | None = None  # while it runs: about how many seconds are left, from its progress so far
    result: dict[str, Any] | None
    error: str | None
    partial: list[dict[str, Any]] | None = None  # a review's decisions judged so far, while it runs
    words: ResultWords | None = None  # a finished job's, said by its kind (the page shows them as they are)


class JobRow(BaseModel):
    id: str
    kind: str
    state: str
    progress: float
    created: str
    ended: str | None
    error: str | None
    about: str | None


# ---------------------------------------------------------------- the table
class SeatLink(BaseModel):
    seat: int
    token: str
    url: str
    qr: list[str] = Field(description="the link's QR code (rows of '0'/'1', no quiet zone)")


class SeatBot(BaseModel):
    seat: int
    policy: str
    samples: int | None


class RecordDoc(BaseModel):
    """A sheet recorded: the game's id in this folder and its log (JSON Lines)."""

    game: str
    log: str
    rounds: int
    result: str | None
    names: list[str]


class PoolRefusal(BaseModel):
    game: int = Field(description="the game's place in the file, from 1")
    line: int | None
    message: str
    fix: str


class PoolImported(BaseModel):
    """A pooled file taken in: the games joined to the folder's (their new ids), how many it held
    already, and those refused (by the rules, or unfinished)."""

    imported: list[str]
    held: int
    refused: list[PoolRefusal]


class TableMission(BaseModel):
    mission: str | None
    players: int
    games: int
    cleared: int


class TableRow(BaseModel):
    """One table of the folder: the people who played (by their names), its finished games."""

    table: str
    names: list[str]
    games: int
    cleared: int
    ids: list[str]
    missions: list[TableMission]


class RecordingRow(BaseModel):
    """A recording of the Record tab: unfinished (``game`` null), or finished with its game."""

    id: str
    mission: str | None
    names: list[str]
    entries: int
    game: str | None
    updated: str


class RecordingDoc(Open):
    """A recording replayed by the rules: what comes next (``phase``: "card", "select", "place",
    "left" or "done"), the board and the trick as they stand, and the game as a sheet so far."""

    id: str
    phase: str
    round: int
    entries: int
    sheet: str
    game: str | None
    updated: str


class Discarded(BaseModel):
    id: str
    discarded: bool


class GameStarted(BaseModel):
    id: str
    known_deal: bool
    seats: list[SeatLink]


class GameRow(Open):
    """A game of the folder (no token, and no seed before its end); ``broken``: why it cannot go on."""

    id: str
    result: str | None = None
    broken: str | None = None


class PlayerDoc(BaseModel):
    seat: int
    name: str
    bot: bool
    policy: str | None
    handed: bool = Field(default=False, description="not played by whom the game started with (someone left "
                                                    "and a bot took the seat, or a person came back)")


class QuestionDoc(Open):
    id: int
    kind: Literal["card", "select", "place"]
    prompt: str
    choices: list[str]
    help: str


class SeatDoc(Open):
    """A seat's document: built from that seat's observation only."""

    game: str
    seat: int
    round: int
    hand: list[str]
    players: list[PlayerDoc]
    question: QuestionDoc | None
    result: dict[str, Any] | None
    thinking: bool
    play_forced: bool


class ReviewDoc(Open):
    """The `review --json` document."""

    mission: str
    players: int
    result: str
    rounds: list[dict[str, Any]]
    lost_at: int | None
    decisions: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    lost_by: dict[str, Any] | None
    summary: str


# ---------------------------------------------------------------- the rules the page uses
class JobKindDoc(BaseModel):
    """A kind of job: what it measures, what its request carries, and how the page shows its result
    (the glossary's term its meaning links to; ``chart``: "ladder" for the ladder's curve)."""

    name: str
    about: str
    needs: Literal["mission", "log", "games"]
    glossary: str | None
    chart: Literal["ladder"] | None


class RulesDoc(Open):
    """The modes, table sizes, limits, colours, policies (``{"name", "about"}``) and job kinds."""

    modes: list[dict[str, Any]]
    players: list[int]
    limits: dict[str, list[int]]
    colours: list[str]
    policies: list[dict[str, str]]
    jobs: list[JobKindDoc]


# ---------------------------------------------------------------- printing and packs
class PackRefusal(BaseModel):
    file: str
    why: str


class PackOpened(BaseModel):
    """A pack joined to the folder: the missions and catalogs written (new names), whether its
    campaign (``difficulty.json``) was, the files the folder holds already with the same bytes
    (``held``) and those refused (another file of that name, or a mission that does not read):
    nothing is overwritten."""

    missions: list[str]
    catalogs: list[str]
    campaign: str | None
    held: list[str]
    refused: list[PackRefusal]


# ---------------------------------------------------------------- answers that are files, not JSON
def file_answer(media_type: str, description: str, binary: bool = True) -> dict[int | str, dict[str, Any]]:
    """A 200 that is a file: its media type and, for the OpenAPI document, a string (of bytes)."""
    schema = {"type": "string", "format": "binary"} if binary else {"type": "string"}
    return {200: {"content": {media_type: {"schema": schema}}, "description": description}}


PDF = file_answer("application/pdf", "the PDF")
PACK = file_answer("application/zip", "the pack (a zip: missions, catalog, difficulty.json, README.md)")
LOGS = file_answer("application/x-ndjson", "the finished games' logs, one after another (JSON Lines)", binary=False)
LOG = file_answer("application/x-ndjson", "the log (JSON Lines)", binary=False)
EVENTS = file_answer("text/event-stream", "the job's state as it changes (server-sent events: data: JobState)",
                     binary=False)
