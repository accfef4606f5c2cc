"""Request bodies of the studio's API (pydantic): checked at the edge, so that a handler only ever
sees well-formed values; anything else is a 422 with a JSON error (app.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from solver.app.catalogs import drawn_catalog_text
from solver.app.registry import JOB_KINDS, ONE_STEP, POLICIES, TABLE_DEFAULT
from solver.core.cards import ALL_CARDS
from solver.io.safefiles import MAX_FILE_BYTES
from solver.studio.errors import StudioError


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MissionText(Strict):
    text: str = Field(max_length=MAX_FILE_BYTES)
    name: str | None = Field(default=None, max_length=200)


class SolveRequest(MissionText):
    """``exclude``: pieces that may not be used (as `solve --exclude`: the cards already gone)."""

    players: int | None = Field(default=None, ge=2, le=4)
    count: bool = False
    time_limit: float = Field(default=20.0, gt=0, le=600)
    exclude: list[str] = Field(default_factory=list, max_length=40)


class SaveRequest(Strict):
    file: str = Field(max_length=200)
    text: str = Field(max_length=MAX_FILE_BYTES)
    overwrite: bool = False


class JobRequest(Strict):
    """A long job; for ``review``, ``text`` is the game's log (JSON Lines); for ``rate``, ``logs``
    names games of the folder (finished ones; default every finished game)."""

    kind: Literal[JOB_KINDS]  # type: ignore[valid-type]
    exclude: list[str] = Field(default_factory=list, max_length=40)  # chance: the cards gone
    rounds: int | None = Field(default=None, ge=1, le=13)  # chance: the rounds left
    skills: int | None = Field(default=None, ge=0, le=20)  # chance: the skill counters left
    trump: Literal["red", "yellow", "green", "blue", "purple"] | None = None  # chance: the trump in force
    hand: list[str] | None = Field(default=None, max_length=20)  # chance: the cards the asking seat holds
    text: str = Field(default="", max_length=MAX_FILE_BYTES)
    name: str | None = Field(default=None, max_length=200)
    logs: list[str] | None = Field(default=None, max_length=1000)
    players: int | None = Field(default=None, ge=2, le=4)
    games: int = Field(default=200, ge=1, le=100_000)
    seed: int = Field(default=1, ge=0, le=2**63 - 1)
    policy: Literal[ONE_STEP] | None = None  # type: ignore[valid-type]


PolicyName = Literal[POLICIES]  # type: ignore[valid-type]


class RecordRequest(Strict):
    """A game's sheet (docs/logs.md: "The game sheet")."""

    sheet: str = Field(max_length=200_000)


class PoolRequest(Strict):
    """A file of finished games (GET /api/games/export's), to join the folder's."""

    text: str = Field(max_length=20_000_000)
    name: str | None = Field(default=None, max_length=200)


class RecordingRequest(Strict):
    """The Record tab's new game: the mission by id, the names in seat order, who leads round one."""

    mission: str = Field(max_length=200)
    names: list[str] = Field(min_length=2, max_length=4)
    leader: int = Field(default=0, ge=0, le=3)


CARD_PATTERN = r"^[a-z]{1,6}-[1-8]$"


class RecordingEntry(Strict):
    """One entry: ``card`` (revealed), ``pieces`` (selected; [] when the piece is on the board
    already), ``place`` with ``cells`` (a piece placed), or ``seat`` with ``left`` (the cards that
    person still holds at the end). ``at``: the entries the page saw."""

    at: int = Field(ge=0, le=1000)
    card: str | None = Field(default=None, max_length=12, pattern=CARD_PATTERN)
    pieces: list[str] | None = Field(default=None, max_length=2)
    place: str | None = Field(default=None, max_length=12, pattern=CARD_PATTERN)
    cells: list[str] | None = Field(default=None, max_length=12)
    seat: int | None = Field(default=None, ge=0, le=3)
    left: list[str] | None = Field(default=None, max_length=20)

    def entry(self) -> dict[str, object] | None:
        """The entry as the recording keeps it; None when it is not exactly one kind."""
        given = self.model_dump(exclude={"at"}, exclude_none=True)
        kinds = [k for k in ("card", "pieces", "place", "left") if k in given]
        if len(kinds) != 1 or ("place" in given) != ("cells" in given) or ("left" in given) != ("seat" in given):
            return None
        return given


class RecordingUndo(Strict):
    at: int = Field(ge=0, le=1000)
    to: int | None = Field(default=None, ge=0, le=1000)


class GameRequest(Strict):
    """A game at the studio's table: the mission by id (bundled or in the folder) or as text.
    Without ``seed`` the deal comes from the system's randomness and stays secret until the end;
    with it, the deal is game ``game`` of `kakapo simulate --seed SEED` (known to whoever knows the
    seed). ``names``: the people's names by seat."""

    mission: str | None = Field(default=None, max_length=200)
    text: str | None = Field(default=None, max_length=MAX_FILE_BYTES)
    name: str | None = Field(default=None, max_length=200)
    players: int | None = Field(default=None, ge=2, le=4)
    human: list[int] = Field(default_factory=lambda: [0], max_length=4)
    policy: PolicyName = TABLE_DEFAULT  # the other seats: as `play --human`
    samples: int | None = Field(default=None, ge=1, le=64)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    game: int | None = Field(default=None, ge=0, le=2**31 - 1)
    names: dict[str, str] = Field(default_factory=dict, max_length=4)


class SeatAnswer(Strict):
    """An answer; ``question`` (the question's id) makes it count only for that question."""

    choice: int | None = None
    cells: list[str] | None = Field(default=None, max_length=16)
    question: int | None = Field(default=None, ge=1)


class SeatSettings(Strict):
    """A person's own choices at their seat: ``play_forced``, their forced moves played for them."""

    play_forced: bool


class SeatBotRequest(Strict):
    """Someone left: the bot that plays their seat from now on (``samples``: a search player's)."""

    policy: PolicyName = TABLE_DEFAULT
    samples: int | None = Field(default=None, ge=1, le=64)


class ReviewRequest(Strict):
    log: str = Field(max_length=MAX_FILE_BYTES)


class CatalogChoice(Strict):
    """The catalog to use: a file of the folder (``x.toml``), or null for the bundled one."""

    file: str | None = Field(default=None, max_length=200)


PIECE_NAMES = tuple(str(c) for c in ALL_CARDS)
PieceName = Literal[PIECE_NAMES]  # type: ignore[valid-type]
Drawing = Annotated[str, Field(max_length=200, pattern=r"^[#./]*$")]  # "##/#.": '#' filled, rows separated by '/'


class CatalogText(Strict):
    """A piece catalog to check (the Pieces tab): its ``text``, or its ``pieces`` drawn (each piece's
    cells as rows of '#' and '.' separated by '/'; "" or missing: not drawn) with the catalog they
    started from (``source``), which the server writes as the catalog file (one of the two)."""

    text: str | None = Field(default=None, max_length=MAX_FILE_BYTES)
    pieces: dict[PieceName, Drawing] | None = None
    source: str = Field(default="the bundled catalog", max_length=200)

    def catalog_text(self) -> str:
        """The catalog's text: as sent, or written from its drawings; StudioError when it is neither
        or both."""
        if (self.text is None) == (self.pieces is None):
            raise StudioError(422, "give the catalog as its text or its pieces drawn, one of them",
                              'send "text": the file, or "pieces": {"red-1": "##", ...}')
        return self.text if self.text is not None else drawn_catalog_text(self.pieces or {}, self.source)


class PrintRequest(MissionText):
    """A mission's card (or with ``sheet`` its blank game sheet for ``players``) as a PDF."""

    paper: Literal["a4", "letter"] = "a4"
    sheet: bool = False
    players: int | None = Field(default=None, ge=2, le=4)


class CatalogSave(CatalogText):
    """A piece catalog (its text or its pieces drawn) written as ``--dir/file``; ``replace``: over a
    file of that name."""

    file: str = Field(max_length=200)
    replace: bool = False
