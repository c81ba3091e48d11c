"""Coding challenges: list (search, filters, solved counter), the editor page (CodeMirror,
Run = public tests, Submit = all tests, Custom = the user's input against the reference),
hints revealed one at a time, the editorial (after Accepted or giving up), stored submissions
and re-judging. Judging runs in FastAPI's thread pool (sync routes), so other pages stay
responsive while a job runs. Everything decided here is the core's (``JudgeService``).

Team mode (``TORCHDOJO_BROKER_URL`` set): Run and Submit store the submission ``pending`` and
queue it for the judge workers (:mod:`torchdojo.jobs.celery_app`), answering at once; the page
gets the verdict from ``GET /submissions/{id}/events`` (server-sent events). A full queue is a
429 with ``Retry-After``; Redis not answering, a 503; the database not answering, a 503 too (the
app's handler), and an open event stream waits for it to come back. Custom input still runs here."""

from __future__ import annotations

import asyncio
import json
import threading
import time

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, StreamingResponse
from sqlalchemy.exc import DBAPIError

from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.practice.flashcards import FilterError, check_filter
from torchdojo.store.db import unavailable
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import DbId, dojo, is_htmx, submission_limited

router = APIRouter()
MAX_CODE = 100_000


STATUSES = ("solved", "attempted", "new")
#: Longest a verdict event stream stays open (seconds); the browser's EventSource reconnects.
EVENTS_MAX_SECONDS = 300
#: Seconds between looks at a pending submission's row, and between keep-alive comments.
EVENTS_POLL_SECONDS, EVENTS_KEEPALIVE_SECONDS = 0.5, 15
#: Seconds between looks while the database is not answering.
EVENTS_DB_RETRY_SECONDS = 1.0
_queue_lock = threading.Lock()


def _team_queue(request: Request):
    """The app's :class:`~torchdojo.jobs.celery_app.JudgeQueue` (team mode; created on first use);
    with accounts, the signed-in learner's (storing in their store, over the app's connections)."""
    learner = request.scope.get("state", {}).get("learner")
    if learner is not None:
        return learner.judge_queue(_app_queue(request))
    return _app_queue(request)


def _app_queue(request: Request):
    with _queue_lock:
        q = getattr(request.app.state, "judge_queue", None)
        if q is None:
            from torchdojo.jobs.celery_app import JudgeQueue

            d = request.app.state.dojo
            q = request.app.state.judge_queue = JudgeQueue(d.settings, d.sessions, d.judge.challenges)
        return q


def _enqueue(request: Request, challenge_id: str, code: str, mode: str, redirect: bool = False):
    """Queue a submission (team mode): the pending banner, or the refusal (429 + Retry-After, 503)."""
    from torchdojo.jobs import QueueFull, QueueUnavailable

    try:
        sid = _team_queue(request).submit(challenge_id, code, mode)
    except QueueFull as e:
        return templates.TemplateResponse(request, "partials/report.html", {"error": str(e)}, status_code=429,
                                          headers={"Retry-After": str(e.retry_after)})
    except QueueUnavailable as e:
        return templates.TemplateResponse(request, "partials/report.html", {"error": f"Refusing to judge: {e}"},
                                          status_code=503)
    if is_htmx(request) and not redirect:
        return templates.TemplateResponse(request, "partials/report.html", {"pending": sid, "status": "pending"},
                                          status_code=202)
    return RedirectResponse(f"/submissions/{sid}", status_code=303)
#: Submissions listed on a challenge's page (the latest; the heading gives the total).
HISTORY_SHOWN = 20


@router.get("/challenges", response_class=HTMLResponse)
def challenges(request: Request, q: str = Query("", max_length=200), level: str | None = None,
               topic: str | None = None, status: str | None = None):
    """The list: search (title or id), filters (level, topic, status) and the solved counter.
    Empty filter values mean 'any'; an unknown one is a 400 whose page names the allowed values.
    HTMX asks for the list only."""
    d = dojo(request)
    topics = sorted({t for ch in d.judge.challenges.values() for t in ch.meta.topics}, key=lambda t: TOPICS.get(t, t))
    error = None
    try:
        level = check_filter("level", level, LEVELS)
        topic = check_filter("topic", topic, topics)
        status = check_filter("status", status, STATUSES)
    except FilterError as e:
        error, level, topic, status = str(e), None, None, None
    found, statuses = d.judge.find(q, level, topic, status)
    ctx = {"found": [] if error else found, "best": d.judge.best_verdicts(), "q": q, "level": level, "topic": topic,
           "status": status, "topics": topics, "statuses": STATUSES, "total": len(d.judge.challenges),
           "solved": sum(v == "solved" for cid, v in statuses.items() if cid in d.judge.challenges),
           "filter_error": error}
    name = "partials/challenge_list.html" if is_htmx(request) else "challenges.html"
    return templates.TemplateResponse(request, name, ctx, status_code=400 if error else 200)


def _challenge(request: Request, challenge_id: str):
    ch = dojo(request).judge.challenges.get(challenge_id)
    if ch is None:
        raise HTTPException(404, f"There is no challenge with id '{challenge_id}'.")
    return ch


@router.get("/challenges/{challenge_id}", response_class=HTMLResponse)
def challenge(request: Request, challenge_id: str):
    d = dojo(request)
    ch = _challenge(request, challenge_id)
    history = d.judge.history(ch.id)
    code = history[0].code if history else ch.starter
    return templates.TemplateResponse(request, "challenge.html", {"ch": ch, "m": ch.meta, "code": code,
                                                                  "history": history[:HISTORY_SHOWN],
                                                                  "history_total": len(history), "bank": d.bank,
                                                                  **_learning(d, ch)})


def _learning(d, ch) -> dict:
    """What the hints and editorial sections show: only revealed hints, the editorial once unlocked."""
    p = d.judge.progress(ch.id)
    return {"progress": p, "hints": ch.hints[:p.hints_shown],
            "editorial": ch.editorial if p.editorial_unlocked else None}


@router.post("/challenges/{challenge_id}/hints", response_class=HTMLResponse)
def reveal_hint(request: Request, challenge_id: str, seen: int = Form(0, ge=0, le=1000)):
    """Reveal the next hint (``seen``: how many the page showed, so a double click reveals one)."""
    d = dojo(request)
    ch = _challenge(request, challenge_id)
    if not ch.hints:
        raise HTTPException(404, f"Challenge '{ch.id}' has no hints.")
    d.judge.reveal_hint(ch.id, seen)
    if not is_htmx(request):
        return RedirectResponse(f"/challenges/{ch.id}#hints", status_code=303)
    return templates.TemplateResponse(request, "partials/hints.html", {"ch": ch, **_learning(d, ch)})


@router.post("/challenges/{challenge_id}/give-up", response_class=HTMLResponse)
def give_up(request: Request, challenge_id: str):
    """Unlock the editorial without an Accepted submission (remembered)."""
    d = dojo(request)
    ch = _challenge(request, challenge_id)
    if ch.editorial is None:
        raise HTTPException(404, f"Challenge '{ch.id}' has no editorial.")
    d.judge.give_up(ch.id)
    if not is_htmx(request):
        return RedirectResponse(f"/challenges/{ch.id}/editorial", status_code=303)
    return templates.TemplateResponse(request, "partials/learning.html", {"ch": ch, **_learning(d, ch)})


@router.get("/challenges/{challenge_id}/editorial", response_class=HTMLResponse)
def editorial(request: Request, challenge_id: str):
    from torchdojo.judge.service import EditorialLocked

    d = dojo(request)
    ch = _challenge(request, challenge_id)
    try:
        text = d.judge.editorial(ch.id)
    except LookupError:
        raise HTTPException(404, f"Challenge '{ch.id}' has no editorial.") from None
    except EditorialLocked as e:
        return templates.TemplateResponse(request, "error.html", {
            "title": "The editorial is locked", "detail": f"The editorial of '{ch.meta.title}' is locked: {e}."},
            status_code=403)
    return templates.TemplateResponse(request, "editorial.html", {"ch": ch, "m": ch.meta, "editorial": text})


@router.get("/challenges/{challenge_id}/custom-input", response_class=HTMLResponse)
def custom_input(request: Request, challenge_id: str):
    """The parameters a custom input may set and an example (loaded when the section opens:
    it imports the challenge's tests, hence torch, which the challenge page itself does not)."""
    ch = _challenge(request, challenge_id)
    spec, example = dojo(request).judge.custom_input_spec(ch.id)
    return templates.TemplateResponse(request, "partials/custom_spec.html",
                                      {"ch": ch, "spec": spec, "example": json.dumps(example)})


@router.post("/challenges/{challenge_id}/judge", response_class=HTMLResponse)
def judge(request: Request, challenge_id: str, code: str = Form(...), mode: str = Form("run"),
          custom: str = Form("", description="custom input: a JSON object of the challenge's test parameters")):
    from torchdojo.judge.custom import CustomInputError
    from torchdojo.judge.sandbox.backend import SandboxUnavailable

    d = dojo(request)
    ch = _challenge(request, challenge_id)
    if mode not in ("run", "submit", "custom"):
        raise HTTPException(422, "mode must be 'run' (public tests), 'submit' (all tests) or 'custom' (your input)")
    if len(code) > MAX_CODE:
        raise HTTPException(413, f"The code is {len(code)} characters; the limit is {MAX_CODE}.")
    if (limited := submission_limited(request)) is not None:
        return limited
    if mode == "custom":
        if not custom.strip():
            custom = json.dumps(d.judge.custom_input_spec(ch.id)[1])  # no input given: the first example's
        try:
            rep = d.judge.run_custom(ch.id, code, custom)
        except CustomInputError as e:
            return templates.TemplateResponse(request, "partials/report.html", {"input_error": e}, status_code=422)
        except SandboxUnavailable as e:
            return templates.TemplateResponse(request, "partials/report.html", {"error": f"Refusing to judge: {e}"},
                                              status_code=503)
        ctx = {"rep": rep.to_dict(), "sid": None, "ch": ch, "custom": custom}
        if is_htmx(request):
            return templates.TemplateResponse(request, "partials/report.html", ctx)
        return templates.TemplateResponse(request, "custom_run.html", {**ctx, "code": code})
    if d.settings.broker_url:
        return _enqueue(request, ch.id, code, mode)
    try:
        sid, rep = d.judge.submit(ch.id, code, mode)  # type: ignore[arg-type]
    except SandboxUnavailable as e:
        ctx = {"error": f"Refusing to judge: {e}"}
        return templates.TemplateResponse(request, "partials/report.html", ctx, status_code=503)
    ctx = {"rep": rep.to_dict(), "sid": sid, "ch": ch}
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/report.html", ctx)
    return templates.TemplateResponse(request, "submission.html", {**ctx, "code": code})


@router.get("/submissions/{submission_id}", response_class=HTMLResponse)
def submission(request: Request, submission_id: DbId):
    d = dojo(request)
    row = d.judge.get_submission(submission_id)
    if row is None:
        raise HTTPException(404, f"There is no submission #{submission_id}.")
    ch = d.judge.challenges.get(row.challenge_id)
    return templates.TemplateResponse(request, "submission.html", {**_row_context(row), "sid": row.id,
                                                                    "ch": ch, "code": row.code, "row": row})


def _row_context(row) -> dict:
    """What ``partials/report.html`` shows for a stored submission: its report, the pending
    banner (team mode: queued or being judged) or why the judge could not judge it."""
    if row.status in ("pending", "judging"):
        return {"pending": row.id, "status": row.status}
    if row.status == "failed":
        return {"error": f"The judge could not judge submission #{row.id}: {row.error}"}
    return {"rep": json.loads(row.report), "sid": row.id}


def _sse(event: str, data: str) -> str:
    return f"event: {event}\n" + "".join(f"data: {line}\n" for line in (data.splitlines() or [""])) + "\n"


@router.get("/submissions/{submission_id}/events")
async def submission_events(request: Request, submission_id: DbId):
    """Server-sent events (``text/event-stream``) for one submission: ``status`` (pending,
    judging, done, failed) whenever it changes, then ``verdict`` (the report's HTML) once it has
    one, and the stream ends. Open at most :data:`EVENTS_MAX_SECONDS`; 404 for no such submission."""
    d = dojo(request)
    if await run_in_threadpool(d.judge.get_submission, submission_id) is None:
        raise HTTPException(404, f"There is no submission #{submission_id}.")
    report = templates.get_template("partials/report.html")

    async def stream():
        last, start, quiet = None, time.monotonic(), time.monotonic()
        while time.monotonic() - start < EVENTS_MAX_SECONDS and not await request.is_disconnected():
            try:
                row = await run_in_threadpool(d.judge.get_submission, submission_id)
            except DBAPIError as e:  # the database restarting: the stream waits for it (a comment keeps it open)
                if not unavailable(e):
                    raise
                yield ": the database is not answering; waiting\n\n"
                await asyncio.sleep(EVENTS_DB_RETRY_SECONDS)
                continue
            if row is None:
                yield _sse("status", "gone")
                return
            if row.status != last:
                last, quiet = row.status, time.monotonic()
                yield _sse("status", row.status)
            if row.status in ("done", "failed"):
                ch = d.judge.challenges.get(row.challenge_id)
                yield _sse("verdict", report.render({**_row_context(row), "ch": ch, "request": request}))
                return
            if time.monotonic() - quiet > EVENTS_KEEPALIVE_SECONDS:
                quiet = time.monotonic()
                yield ": waiting\n\n"
            await asyncio.sleep(EVENTS_POLL_SECONDS)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.post("/submissions/{submission_id}/rejudge", response_class=HTMLResponse)
def rejudge(request: Request, submission_id: DbId):
    from torchdojo.judge.sandbox.backend import SandboxUnavailable

    d = dojo(request)
    old = d.judge.get_submission(submission_id)
    if old is None:
        raise HTTPException(404, f"There is no submission #{submission_id}.")
    if (limited := submission_limited(request)) is not None:
        return limited
    if d.settings.broker_url:
        return _enqueue(request, old.challenge_id, old.code, old.mode, redirect=True)
    try:
        sid, rep = d.judge.rejudge(submission_id)
    except SandboxUnavailable as e:
        return templates.TemplateResponse(request, "partials/report.html", {"error": f"Refusing to judge: {e}"},
                                          status_code=503)
    row = d.judge.get_submission(sid)
    return templates.TemplateResponse(request, "submission.html", {"rep": rep.to_dict(), "sid": sid, "code": row.code,
                                                                    "ch": d.judge.challenges.get(row.challenge_id),
                                                                    "row": row})
