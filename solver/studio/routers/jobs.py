"""`/api/jobs`: ladder, simulate, ceiling, a log's review and the table's rating in worker
processes, with progress, events and cancel; the jobs' history."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from solver.app.documents import Doc
from solver.app.inputs import mission_of_text
from solver.app.measuring import table_moment
from solver.app.tables import calibration_cost, finished_games
from solver.core.errors import InputError
from solver.io.gamelog import parse_log
from solver.io.loginputs import log_inputs
from solver.studio.context import Ctx, HostAuthority, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.jobqueue import FINAL, Job, QueueFull
from solver.studio.models import JobRequest
from solver.studio.responses import ERRORS, EVENTS, JobRow, JobStarted, JobState
from solver.studio.store import token_hash, token_matches

router = APIRouter(prefix="/api/jobs", tags=["jobs"], responses=ERRORS)


def _submit(ctx: StudioContext, job: Doc, about: str) -> Doc:
    try:
        # the catalog in use now, and the folder where the campaign measured for it is found
        made = ctx.jobs.submit({**job, "pieces": ctx.pieces, "folder": str(ctx.directory)}, about)
    except QueueFull as e:
        raise StudioError(429, str(e), "wait for a job to end, or cancel one") from None
    return {"id": made.id, "token": made.token}


@router.post("", response_model=JobStarted)
def start(body: JobRequest, ctx: Ctx) -> Doc:
    if body.kind in ("rate", "calibrate"):  # the table's (or every table's) games in the folder, finished
        rows = finished_games(ctx.table.listing())
        finished = {g["id"]: k for k, g in enumerate(rows)}  # oldest first, as the listing gives them
        wanted = body.logs if body.logs is not None else list(finished)
        missing = [i for i in wanted if i not in finished]
        if missing or not wanted:
            raise StudioError(422, f"no finished game {missing[0][:40]!r} in the folder" if missing else
                              "no finished game in the folder to rate", "play games to their end first")
        wanted = sorted(set(wanted), key=finished.__getitem__)  # in the order they were played: the latest last
        logs = [ctx.table.log_of(i)[0] for i in wanted]
        started = _submit(ctx, {**body.model_dump(), "texts": logs, "names": wanted, "games": 0, "seed": 1},
                          f"{body.kind} of {len(wanted)} game(s)")
        if body.kind == "calibrate":  # its cost, said before it starts: what it learns from, how long it takes
            chosen = set(wanted)
            started["cost"] = calibration_cost([g for g in rows if g["id"] in chosen], ctx.workers)
        return started
    if body.kind == "review":  # the text is a log: a broken one is said now, not in the job
        try:
            log_inputs(parse_log(body.text, body.name or "the log"))
        except InputError as e:
            raise refused(e) from None
        return _submit(ctx, body.model_dump(), "review of a log")
    try:
        m = mission_of_text(body.text, ctx.catalog, body.name)  # a broken mission is said now, not in the job
    except InputError as e:
        raise refused(e) from None
    if body.players is not None and body.players not in m.player_counts():
        raise StudioError(422, f"a {m.mode} mission is played by {' or '.join(map(str, m.player_counts()))} players",
                          "choose another number of players")
    if body.kind == "chance":  # the table's state is said now too, not in the job
        try:
            table_moment(m, body.players, body.exclude, body.rounds, body.skills, body.trump, hand=body.hand)
        except InputError as e:
            raise refused(e) from None
    return _submit(ctx, body.model_dump(), f"{body.kind} of {m.name[:80]}")


@router.get("", response_model=list[JobRow])
def history(ctx: Ctx) -> list[Doc]:
    """Every job of this folder, newest first, with its state (without the results: GET
    /api/jobs/ID has them). A job of this run says its state and progress as they are now; jobs
    started within the same second keep the order they were started in."""
    rows = []
    for j in ctx.store.jobs.all():
        row = {k: v for k, v in j.items() if k not in ("token_hash", "result")}
        live = ctx.jobs.get(j["id"])
        if live is not None:
            row.update(state=live.state, progress=round(live.progress, 4))
        rows.append(row)
    return rows


def _job(ctx: StudioContext, host: bool, job_id: str, token: str | None = None) -> Job:
    job, hashed = ctx.jobs.get(job_id), None
    if job is None and job_id != "warmup":  # a job of an earlier run of the studio: as its history keeps it
        job, hashed = _stored(ctx, job_id)
    if job is None or job_id == "warmup":
        raise StudioError(404, f"no job {job_id[:40]!r}", "start one with POST /api/jobs")
    if not host and not token_matches(token, hashed or token_hash(job.token)):
        raise StudioError(403, "this job is followed with the host's link or its own token", "")
    return job


def _stored(ctx: StudioContext, job_id: str) -> tuple[Job | None, str | None]:
    """A job of the history that this run did not start (it ended, or failed when the studio
    stopped), and its token's hash."""
    row = ctx.store.jobs.get(job_id)
    if row is None:
        return None, None
    state = row["state"] if row["state"] in FINAL else "failed"
    return Job(row["id"], row["kind"], {}, state=state, progress=row["progress"], result=row["result"],
               error=row["error"]), row["token_hash"]


@router.get("/{job_id}", response_model=JobState)
def status(job_id: str, ctx: Ctx, host: HostAuthority, token: str | None = None) -> Doc:
    return _job(ctx, host, job_id, token).snapshot()


@router.delete("/{job_id}", response_model=JobState)
def cancel(job_id: str, ctx: Ctx, host: HostAuthority) -> Doc:
    stored = _job(ctx, host, job_id)
    job = ctx.jobs.cancel(job_id)
    return (job or stored).snapshot()  # a job of an earlier run has ended already


@router.get("/{job_id}/events", response_class=StreamingResponse, responses=EVENTS)
async def events(job_id: str, request: Request, ctx: Ctx, host: HostAuthority,
                 token: str | None = None) -> StreamingResponse:
    job = _job(ctx, host, job_id, token)

    async def stream() -> AsyncIterator[str]:
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
