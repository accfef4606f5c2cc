"""`/api/games`: a game at the studio's table, each person on their own seat link (a secret
token), and `/api/review` of any game's log. The game itself is play/tablegame.py's, the table of the
folder studio/table.py's: handlers check, call and answer."""

from __future__ import annotations

import asyncio
import unicodedata

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from solver.app.documents import Doc
from solver.app.inputs import mission_of_text, person_seats, table_size
from solver.app.reviewing import review_text
from solver.core.errors import InputError
from solver.play.tablegame import MAX_NAME, AnswerError, BrokenGame, StaleAnswer
from solver.studio.context import Ctx, HostAuthority, SeatGame, SeatNumber, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.jobqueue import QueueFull
from solver.studio.links import qr_rows
from solver.studio.live import LiveGame
from solver.studio.models import GameRequest, ReviewRequest, SeatAnswer, SeatBotRequest, SeatSettings
from solver.studio.responses import ERRORS, LOG, GameRow, GameStarted, JobStarted, ReviewDoc, SeatBot, SeatDoc, SeatLink
from solver.studio.table import TableFull

router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)


def seat_url(ctx: StudioContext, request: Request, game_id: str, seat: int, token: str) -> str:
    base = ctx.share_base or str(request.base_url).rstrip("/")
    return f"{base}/?game={game_id}&seat={seat}&token={token}"


def seat_link(ctx: StudioContext, request: Request, game_id: str, seat: int, token: str) -> Doc:
    """A seat's link, to open on that person's phone: its address and its QR code."""
    url = seat_url(ctx, request, game_id, seat, token)
    return {"seat": seat, "token": token, "url": url, "qr": qr_rows(url)}


def _host_only(host: bool) -> None:
    if not host:
        raise StudioError(403, "only the host may do this", "open the host's link")


def _names(given: dict[str, str], humans: list[int]) -> dict[int, str]:
    out = {}
    for key, value in given.items():
        if not key.isdigit() or int(key) not in humans:
            raise StudioError(422, f"names: {key[:10]!r} is not a person's seat", "name the seats people play, "
                              'by number: {"0": "Ann"}')
        name = " ".join(value.split())
        if not name or len(name) > MAX_NAME or any(unicodedata.category(ch).startswith("C") for ch in name):
            raise StudioError(422, f"names: seat {key}'s name must be 1 to {MAX_NAME} printable characters",
                              "give a short name")
        out[int(key)] = name
    return out


def _broken(game_id: str, e: BrokenGame) -> StudioError:
    return StudioError(409, f"game {game_id} cannot go on: {e}", "its log can still be downloaded")


@router.post("/games", response_model=GameStarted)
def start_game(body: GameRequest, ctx: Ctx, request: Request) -> Doc:
    if (body.mission is None) == (body.text is None):
        raise StudioError(422, "give the mission by its id or as text, one of them", 'send "mission": "b05" or "text"')
    if body.seed is None and body.game is not None:
        raise StudioError(422, "a game number names a deal only with its seed", 'send "seed" too, or neither '
                          "(a secret deal)")
    text, name = body.text, body.name
    if text is None:
        found = ctx.folder.mission(body.mission or "")
        text, name = found["text"], found["file"]
    try:
        m = mission_of_text(text, ctx.catalog, name)
        players = table_size(m, body.players, name or "mission")
        person_seats(body.human, players, "human")
    except InputError as e:
        raise refused(e) from None
    names = _names(body.names, body.human)
    try:
        g, tokens = ctx.table.start(m, ctx.catalog, players, body.human, policy=body.policy, samples=body.samples,
                                    seed=body.seed, game=body.game, names=names)
    except TableFull as e:
        raise StudioError(429, f"{e}: a game of bots only waits until one of them ends",
                          "wait for one to end, or seat a person at this one") from None
    return {"id": g.id, "known_deal": g.setup.known_deal,
            "seats": [seat_link(ctx, request, g.id, s, t) for s, t in sorted(tokens.items())]}


@router.get("/games", response_model=list[GameRow])
def list_games(ctx: Ctx) -> list[Doc]:
    return ctx.table.listing()


@router.get("/games/{game_id}/seats/{seat}", response_model=SeatDoc)
def seat_view(game_id: str, seat: SeatNumber, live: SeatGame, ctx: Ctx) -> Doc:
    try:
        return ctx.table.seats.view(live, seat)
    except BrokenGame as e:
        raise _broken(game_id, e) from None


@router.post("/games/{game_id}/seats/{seat}", response_model=SeatDoc)
def answer(game_id: str, seat: SeatNumber, body: SeatAnswer, live: SeatGame, ctx: Ctx) -> Doc:
    try:
        return ctx.table.seats.answer(live, seat, body.choice, body.cells, body.question)
    except StaleAnswer as e:
        raise StudioError(409, f"{e}: this answer was not taken", "reload the seat and answer the question it "
                          "shows") from None
    except AnswerError as e:
        raise StudioError(422, str(e), "answer a choice's number from the question, or a legal placement's cells") \
            from None
    except BrokenGame as e:
        raise _broken(game_id, e) from None


@router.post("/games/{game_id}/seats/{seat}/settings", response_model=SeatDoc)
def settings(game_id: str, seat: SeatNumber, body: SeatSettings, live: SeatGame, ctx: Ctx) -> Doc:
    try:
        return ctx.table.seats.set_play_forced(live, seat, body.play_forced)
    except BrokenGame as e:
        raise _broken(game_id, e) from None


def _readable_log(ctx: StudioContext, host: bool, game_id: str, token: str | None) -> str:
    """The game's log for the host, or for a seat of that game (its token) once the game has ended:
    before, whether or not it can go on, it would show hands nobody may see yet (403). A request
    with a seat's token is that seat's, on this machine too (the host's page sends none)."""
    if token is not None:
        host = False
    if not host and not ctx.table.seats.any_seat(game_id, token):
        raise StudioError(403, "this needs the host's link or a seat's link of that game", "")
    text, why = ctx.table.log_of(game_id, host)
    if text is not None:
        return text
    if why == "no such game":
        raise StudioError(404, f"no game {game_id[:40]!r}", "see GET /api/games")
    if not host:
        raise StudioError(403, f"game {game_id} has not ended: its log, and a review of it, hold every hand",
                          "ask again when the game has ended")
    if why == "in play":
        raise StudioError(409, f"game {game_id} is still in play: its log holds every hand",
                          "ask again when the game has ended")
    raise StudioError(409, f"game {game_id}: {why}", "")


@router.get("/games/{game_id}/log", response_class=Response, responses=LOG)
def game_log(game_id: str, ctx: Ctx, host: HostAuthority, token: str | None = None) -> PlainTextResponse:
    text = _readable_log(ctx, host, game_id, token)
    return PlainTextResponse(text, media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"',
                                      "Cache-Control": "no-store"})


@router.post("/games/{game_id}/review", response_model=JobStarted)
def review_game(game_id: str, ctx: Ctx, host: HostAuthority, token: str | None = None) -> Doc:
    """The review of a finished game, as a job that whoever asked may follow with its token (a
    seat's page, off loopback, has no other way to a job). One job a game: asked again, the same
    job (unless it failed or was cancelled); a seat's never takes the room the host's jobs need."""
    text = _readable_log(ctx, host, game_id, token)
    host = host and token is None
    if not ctx.table.ended(game_id):
        raise StudioError(409, f"game {game_id} has not ended", "review a game once it has ended")
    try:
        job = ctx.jobs.submit({"kind": "review", "text": text, "name": f"{game_id}.jsonl", "games": 0, "seed": 1},
                              about=f"review of game {game_id}", key=f"review:{game_id}", host=host)
    except QueueFull as e:
        raise StudioError(429, str(e), "wait for a job to end, or cancel one") from None
    return {"id": job.id, "token": job.token}


def _live(ctx: StudioContext, game_id: str) -> LiveGame:
    live = ctx.table.live(game_id)
    if live is None:
        raise StudioError(404, f"no game {game_id[:40]!r}", "see GET /api/games")
    return live


@router.post("/games/{game_id}/seats/{seat}/bot", response_model=SeatBot)
def seat_to_bot(game_id: str, seat: SeatNumber, body: SeatBotRequest, ctx: Ctx, host: HostAuthority) -> Doc:
    """Someone left the table: a bot plays their seat from its next decision; their link stops working."""
    _host_only(host)
    live = _live(ctx, game_id)
    try:
        ctx.table.seats.hand_over(live, seat, True, body.policy, body.samples)
    except AnswerError as e:
        raise StudioError(409, str(e), "see who plays each seat in GET /api/games") from None
    except BrokenGame as e:
        raise _broken(game_id, e) from None
    player = ctx.table.seats.player(live, seat)
    return {"seat": seat, "policy": player["policy"], "samples": body.samples}


@router.post("/games/{game_id}/seats/{seat}/person", response_model=SeatLink)
def seat_to_person(game_id: str, seat: SeatNumber, ctx: Ctx, host: HostAuthority, request: Request) -> Doc:
    """A person takes the seat back (or a bot's seat): a new link, the only one that opens it."""
    _host_only(host)
    live = _live(ctx, game_id)
    try:
        token = ctx.table.seats.hand_over(live, seat, False)
    except AnswerError as e:
        raise StudioError(409, str(e), "see who plays each seat in GET /api/games") from None
    except BrokenGame as e:
        raise _broken(game_id, e) from None
    assert token is not None
    return seat_link(ctx, request, game_id, seat, token)


@router.post("/review", response_model=ReviewDoc)
async def review(body: ReviewRequest, ctx: Ctx) -> Doc:
    try:
        future = ctx.solver_pool().submit(review_text, body.log, "the log")
        doc: Doc = await asyncio.wrap_future(future)
        return doc
    except InputError as e:
        raise refused(e) from None
