"""`/api/jobs`: ladder, simulate, ceiling and a log's review in worker processes, with progress,
events and cancel."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from solver.analysis.workbench import parse_text
from solver.core.errors import InputError
from solver.io.gamelog import parse_log
from solver.io.records import log_inputs
from solver.studio.jobs import FINAL
from solver.studio.models import JobRequest
from solver.studio.routers.missions import StudioError, refused

router = APIRouter(prefix="/api/jobs", tags=["jobs"])


@router.post("")
def start(body: JobRequest, request: Request):
    ctx = request.app.state.ctx
    if body.kind == "rate":  # the table's games in the folder, finished
        finished = {g.id: g for g in ctx.table.all() if g.result() is not None}
        wanted = body.logs if body.logs is not None else sorted(finished)
        missing = [i for i in wanted if i not in finished]
        if missing or not wanted:
            raise StudioError(422, f"no finished game {missing[0][:40]!r} in the folder" if missing else
                              "no finished game in the folder to rate", "play games to their end first")
        paths = [str(finished[i].log_path()) for i in wanted]
        return {"id": ctx.jobs.submit({**body.model_dump(), "paths": paths, "games": 0, "seed": 1}).id}
    if body.kind == "review":  # the text is a log: a broken one is said now, not in the job
        try:
            log_inputs(parse_log(body.text, body.name or "the log"))
        except InputError as e:
            raise refused(e) from None
        return {"id": ctx.jobs.submit(body.model_dump()).id}
    try:
        m = parse_text(body.text, ctx.catalog, body.name)  # a broken mission is said now, not in the job
    except InputError as e:
        raise refused(e) from None
    if body.players is not None and body.players not in m.player_counts():
        raise StudioError(422, f"a {m.mode} mission is played by {' or '.join(map(str, m.player_counts()))} players",
                          "choose another number of players")
    job = ctx.jobs.submit(body.model_dump())
    return {"id": job.id}


def _job(request: Request, job_id: str):
    job = request.app.state.ctx.jobs.get(job_id)
    if job is None or job_id == "warmup":
        raise StudioError(404, f"no job {job_id[:40]!r}", "start one with POST /api/jobs")
    return job


@router.get("/{job_id}")
def status(job_id: str, request: Request) -> dict:
    return _job(request, job_id).snapshot()


@router.delete("/{job_id}")
def cancel(job_id: str, request: Request) -> dict:
    _job(request, job_id)
    return request.app.state.ctx.jobs.cancel(job_id).snapshot()


@router.get("/{job_id}/events")
async def events(job_id: str, request: Request):
    job = _job(request, job_id)

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
