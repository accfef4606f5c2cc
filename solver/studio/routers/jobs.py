"""`/api/jobs`: ladder, simulate, ceiling, a log's review and the table's rating in worker
processes, with progress, events and cancel; the jobs' history."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from solver.app.inputs import mission_of_text
from solver.core.errors import InputError
from solver.io.gamelog import parse_log
from solver.io.records import log_inputs
from solver.studio.errors import StudioError, refused
from solver.studio.jobs import FINAL, Job, QueueFull
from solver.studio.models import JobRequest
from solver.studio.routers.games import host_ok
from solver.studio.store import token_hash, token_matches

router = APIRouter(prefix="/api/jobs", tags=["jobs"])


def _submit(request: Request, job: dict, about: str) -> dict:
    try:
        made = request.app.state.ctx.jobs.submit(job, about)
    except QueueFull as e:
        raise StudioError(429, str(e), "wait for a job to end, or cancel one") from None
    return {"id": made.id, "token": made.token}


@router.post("")
def start(body: JobRequest, request: Request):
    ctx = request.app.state.ctx
    if body.kind == "rate":  # the table's games in the folder, finished
        finished = {g["id"] for g in ctx.table.listing() if g.get("result") is not None and not g.get("broken")}
        wanted = body.logs if body.logs is not None else sorted(finished)
        missing = [i for i in wanted if i not in finished]
        if missing or not wanted:
            raise StudioError(422, f"no finished game {missing[0][:40]!r} in the folder" if missing else
                              "no finished game in the folder to rate", "play games to their end first")
        logs = [ctx.table.log_of(i)[0] for i in wanted]
        return _submit(request, {**body.model_dump(), "texts": logs, "names": wanted, "games": 0, "seed": 1},
                       f"rate of {len(wanted)} game(s)")
    if body.kind == "review":  # the text is a log: a broken one is said now, not in the job
        try:
            log_inputs(parse_log(body.text, body.name or "the log"))
        except InputError as e:
            raise refused(e) from None
        return _submit(request, body.model_dump(), "review of a log")
    try:
        m = mission_of_text(body.text, ctx.catalog, body.name)  # a broken mission is said now, not in the job
    except InputError as e:
        raise refused(e) from None
    if body.players is not None and body.players not in m.player_counts():
        raise StudioError(422, f"a {m.mode} mission is played by {' or '.join(map(str, m.player_counts()))} players",
                          "choose another number of players")
    return _submit(request, body.model_dump(), f"{body.kind} of {m.name[:80]}")


@router.get("")
def history(request: Request) -> list[dict]:
    """Every job of this folder, oldest first (without their results: GET /api/jobs/ID has them)."""
    return [{k: v for k, v in j.items() if k not in ("token_hash", "result")}
            for j in request.app.state.ctx.store.jobs()]


def _job(request: Request, job_id: str, token: str | None = None) -> Job:
    job = request.app.state.ctx.jobs.get(job_id)
    if job is None or job_id == "warmup":
        raise StudioError(404, f"no job {job_id[:40]!r}", "start one with POST /api/jobs")
    if not host_ok(request) and not token_matches(token, token_hash(job.token)):
        raise StudioError(403, "this job is followed with the host's link or its own token", "")
    return job


@router.get("/{job_id}")
def status(job_id: str, request: Request, token: str | None = None) -> dict:
    return _job(request, job_id, token).snapshot()


@router.delete("/{job_id}")
def cancel(job_id: str, request: Request) -> dict:
    _job(request, job_id)
    return request.app.state.ctx.jobs.cancel(job_id).snapshot()


@router.get("/{job_id}/events")
async def events(job_id: str, request: Request, token: str | None = None):
    job = _job(request, job_id, token)

    async def stream():
        seen = -1
        while True:
            if job.version != seen:
                seen = job.version
                yield f"data: {json.dumps(job.snapshot())}\n\n"
                if job.state in FINAL:
                    return
            if await request.is_disconnected():
                return
            await asyncio.sleep(0.2)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
