"""`/api/games`: a game at the studio's table, each person on their own seat link (a secret
token), and `/api/review` of any game's log. The game itself is analysis/tablegame.py's."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from solver.analysis.tablegame import AnswerError, TableGame
from solver.analysis.workbench import parse_text, review_log_text
from solver.core.errors import InputError
from solver.core.spec import GameSpec
from solver.studio.models import GameRequest, ReviewRequest, SeatAnswer
from solver.studio.routers.missions import StudioError, open_mission, refused

router = APIRouter(prefix="/api", tags=["games"])


def _game(request: Request, game_id: str) -> TableGame:
    g = request.app.state.ctx.table.get(game_id)
    if g is None:
        raise StudioError(404, f"no game {game_id[:40]!r}", "see GET /api/games")
    return g


def _seat(request: Request, game_id: str, seat: int, token: str | None) -> TableGame:
    g = _game(request, game_id)
    if not g.token_ok(seat, token):
        raise StudioError(403, f"seat {seat} of game {game_id} needs its own link's token",
                          "open the seat's link as the studio gave it")
    return g


def seat_url(request: Request, g: TableGame, seat: int) -> str:
    base = request.app.state.ctx.share_base or str(request.base_url).rstrip("/")
    return f"{base}/?game={g.id}&seat={seat}&token={g.record['tokens'][str(seat)]}"


@router.post("/games")
def start_game(body: GameRequest, request: Request) -> dict:
    ctx = request.app.state.ctx
    if (body.mission is None) == (body.text is None):
        raise StudioError(422, "give the mission by its id or as text, one of them", 'send "mission": "b05" or "text"')
    text, name = body.text, body.name
    if text is None:
        found = open_mission(body.mission or "", request)
        text, name = found["text"], found["file"]
    try:
        m = parse_text(text, ctx.catalog, name)
        players = GameSpec.of(m, body.players if body.players is not None else m.default_players(),
                              name or "mission").players
    except InputError as e:
        raise refused(e) from None
    bad = [s for s in body.human if not 0 <= s < players]
    if bad or len(set(body.human)) != len(body.human):
        raise StudioError(422, f"human seats {body.human} at a table of {players}: seats are 0 to {players - 1}, "
                          "each once", "name each person's seat once")
    g = ctx.table.start(m, ctx.catalog, players, body.human, body.policy, body.seed, body.game, body.samples)
    return {"id": g.id, "seats": [{"seat": s, "token": g.record["tokens"][str(s)], "url": seat_url(request, g, s)}
                                  for s in g.humans]}


@router.get("/games")
def list_games(request: Request) -> list[dict]:
    return [g.summary() for g in request.app.state.ctx.table.all()]


@router.get("/games/{game_id}/seats/{seat}")
def seat_view(game_id: str, seat: int, request: Request, token: str | None = None) -> dict:
    return _seat(request, game_id, seat, token).view(seat)


@router.post("/games/{game_id}/seats/{seat}")
def answer(game_id: str, seat: int, body: SeatAnswer, request: Request, token: str | None = None) -> dict:
    g = _seat(request, game_id, seat, token)
    try:
        g.answer(seat, body.choice, body.cells)
    except AnswerError as e:
        raise StudioError(422, str(e), "answer a choice's number from the question, or a legal placement's cells") \
            from None
    return g.view(seat)


@router.get("/games/{game_id}/log")
def game_log(game_id: str, request: Request):
    g = _game(request, game_id)
    if g.result() is None:
        raise StudioError(409, f"game {game_id} is still in play: its log holds every hand",
                          "ask again when the game has ended")
    return PlainTextResponse(g.log_path().read_text(encoding="utf-8"), media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="{g.id}.jsonl"'})


@router.post("/review")
async def review(body: ReviewRequest, request: Request) -> dict:
    ctx = request.app.state.ctx
    try:
        future = ctx.solver_pool().submit(review_log_text, body.log, "the log")
        return await asyncio.wrap_future(future)
    except InputError as e:
        raise refused(e) from None
