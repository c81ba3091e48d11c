"""One question: the full answer, key points, mistakes, follow-ups, sources, card state; and
"Practise answering": type an answer, get the machine's proposed marks on a rubric scorecard,
confirm or change them (self-review, :mod:`torchdojo.practice.scorecards`), and answer the one
follow-up an interviewer would ask about the weakest point of that answer.

Grading goes through the app's :class:`~torchdojo.grading.worker.GraderProcess`
(``app.state.grader``), so this process never imports torch. Unlike the mock report, this one
request waits for the grade (up to :data:`GRADE_TIMEOUT` s, the model's first load included).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse
from markupsafe import escape

from torchdojo.bank.loader import Entry
from torchdojo.grading.feedback import BANDS, Feedback, failed
from torchdojo.web.app import templates
from torchdojo.web.highlight import highlight
from torchdojo.web.routes.deps import DbId, dojo, is_htmx

router = APIRouter()

#: Longest answer the practice form grades, in characters.
MAX_ANSWER_CHARS = 20_000
#: Seconds one practice request waits for its grade (loading the model included).
GRADE_TIMEOUT = 120.0
#: What the page says while the grader process is still loading its model.
LOADING_NOTE = "the answer grader is loading (first use takes a few seconds)…"

templates.env.globals["BANDS"] = BANDS


def _entry(request: Request, entry_id: str) -> Entry:
    """The bank entry, or the :class:`Entry` view of an own card (``own:<n>``); 404 otherwise."""
    from torchdojo.practice.flashcards import UnknownEntryError
    from torchdojo.practice.own_cards import is_own_id

    if is_own_id(entry_id):
        try:
            return dojo(request).flashcards.card(entry_id)[0]
        except UnknownEntryError:
            raise HTTPException(404, f"There is no own card '{entry_id}'.") from None
    entry = dojo(request).bank.get(entry_id)
    if entry is None:
        raise HTTPException(404, f"There is no question with id '{entry_id}'. Search the bank instead.")
    return entry


def _grader_status(request: Request) -> str:
    grader = getattr(request.app.state, "grader", None)
    return grader.status if grader is not None else "stopped"


def _ctx(request: Request, entry: Entry, **extra: Any) -> dict[str, Any]:
    d = dojo(request)
    return {
        "e": entry,
        "m": entry.meta,
        "verification": d.verification(entry),
        "card": d.flashcards.status(entry.id),
        "note": d.notes.get(entry.id),
        "note_card_id": entry.id,
        "bank": d.bank,
        "grader_status": _grader_status(request),
        "loading_note": LOADING_NOTE,
        "max_chars": MAX_ANSWER_CHARS,
        "practice": None,
        "answer": "",
        **extra,
    }


@router.get("/questions/{entry_id}", response_class=HTMLResponse)
def question(request: Request, entry_id: str):
    entry = _entry(request, entry_id)
    return templates.TemplateResponse(request, "question.html", _ctx(request, entry))


def _grade(request: Request, entry: Entry, answer: str) -> tuple[Feedback, bool]:
    """The grade of ``answer`` (never raises) and whether the grader was still loading."""
    grader = getattr(request.app.state, "grader", None)
    if grader is None:
        return failed(entry, "none", "the answer grader is not running in this app"), False
    was_loading = grader.status in ("loading", "stopped")
    return grader.grade(entry, answer, timeout=GRADE_TIMEOUT), was_loading


def _practice_view(entry: Entry, answer: str, fb: Feedback, was_loading: bool) -> dict[str, Any]:
    """The context of ``partials/feedback.html`` for one practice answer."""
    view: dict[str, Any] = {"fb": None, "error": fb.error, "entry": None, "standalone": True}
    if fb.error:  # not graded: no score, no evidence
        view["answer_html"] = escape(answer)
    else:
        view["fb"], view["answer_html"] = fb, highlight(answer, fb)
    view["note"] = (
        "When you sent this answer the grader was still loading its model (first use takes a few seconds), "
        "so the answer waited for it."
        if was_loading
        else ""
    )
    return view


@router.post("/questions/{entry_id}/answer", response_class=HTMLResponse)
def practise(request: Request, entry_id: str, answer: str = Form(""), parent: int | None = Form(None, ge=0, le=2**63 - 1),
             target: str | None = Form(None, max_length=80), prompt: str | None = Form(None, max_length=2000),
             speech: str | None = Form(None, max_length=4_000_000)):
    """Grade one practice answer and open its scorecard for self-review. With ``parent`` (the
    scorecard of the answer it follows up), ``target`` and ``prompt``: the answer to a follow-up,
    scored on the key point it probes. With ``speech`` (the transcript JSON the recording
    returned, see :mod:`torchdojo.web.routes.speech`): delivery feedback beside the content
    feedback. HTMX: the feedback fragment; otherwise the question page with the feedback in it.
    Over :data:`MAX_ANSWER_CHARS` characters, or a malformed ``speech``: 422."""
    entry = _entry(request, entry_id)
    transcript = None
    if speech:
        from pydantic import ValidationError

        from torchdojo.speech import Transcript

        try:
            transcript = Transcript.model_validate_json(speech)
        except ValidationError as e:
            raise HTTPException(422, f"The recording's transcript sent with the answer is malformed: {e.errors()[:1]}") from None
    if target is not None and target not in {k.id for k in entry.meta.key_points}:
        raise HTTPException(422, f"'{target}' is not a key point of this question.")
    if len(answer) > MAX_ANSWER_CHARS:
        msg = (
            f"Your answer is {len(answer):,} characters long; the most that can be graded is "
            f"{MAX_ANSWER_CHARS:,}. Shorten it and try again."
        )
        if is_htmx(request):
            return HTMLResponse(f'<p class="bad" role="alert" id="practice-error">{escape(msg)}</p>', status_code=422)
        ctx = _ctx(request, entry, answer=answer, practice_error=msg)
        return templates.TemplateResponse(request, "question.html", ctx, status_code=422)
    if dojo(request).settings.broker_url and answer.strip():  # team mode: a worker grades it
        return _queue_answer(request, entry, answer, parent, target, prompt, transcript)
    fb, was_loading = _grade(request, entry, answer)
    view = _practice_view(entry, answer, fb, was_loading)
    if transcript is not None:
        from torchdojo.speech.delivery import delivery

        view["delivery"] = delivery(transcript, answer, None if fb.error else fb, [k.text for k in entry.meta.key_points])
    if answer.strip():
        d = dojo(request)
        sid = d.scorecards.create(entry.id, answer, fb, context="practice", parent_id=parent,
                                  prompt=prompt if parent is not None else None,
                                  only=[target] if parent is not None and target else None)
        view["sc"] = d.scorecards.get(sid)
        view["back"] = f"/questions/{entry.id}#practice"
        view["is_follow_up"] = parent is not None
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/feedback.html", view)
    if entry.id.startswith("own:"):  # a follow-up to an own card's answer, without JavaScript
        from torchdojo.web.routes.cards import own_page

        return own_page(request, int(entry.id[4:]), practice=view, answer=answer)
    ctx = _ctx(request, entry, answer=answer, practice=view)
    return templates.TemplateResponse(request, "question.html", ctx)


# -- team mode: the answer is stored, a worker grades it, the page gets the result by SSE --------

#: Seconds an answer's event stream stays open, and between looks at its row.
EVENTS_MAX_SECONDS, EVENTS_POLL_SECONDS = 600, 0.5


def _queue_answer(request: Request, entry: Entry, answer: str, parent: int | None, target: str | None,
                  prompt: str | None, transcript, page=None):
    """Store the answer as a scorecard waiting for the machine, submit ``grade_answer`` and answer
    at once (202) with a banner whose event stream brings the feedback. ``page(ctx)``: the full
    page for a request without HTMX (default: the question page)."""
    from torchdojo.web.routes.deps import jobs

    d = dojo(request)
    sid = d.scorecards.create(entry.id, answer, None, context="practice", parent_id=parent,
                              prompt=prompt if parent is not None else None,
                              only=[target] if parent is not None and target else None, pending=True)
    backend = jobs(request)
    state = backend.submit("grade_answer", sid, priority="high") if backend is not None else None
    delivery = None
    if transcript is not None:
        from torchdojo.speech.delivery import delivery as make_delivery

        delivery = make_delivery(transcript, answer, None, [k.text for k in entry.meta.key_points])
    ctx = {"sid": sid, "delivery": delivery, "queue_error": state.error if state is not None else
           "background jobs are not running in this app"}
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/answer_pending.html", ctx, status_code=202)
    if page is not None:
        return page(ctx)
    full = _ctx(request, entry, answer=answer, practice_pending=ctx)
    return templates.TemplateResponse(request, "question.html", full, status_code=202)


def _feedback_view(request: Request, sc) -> dict[str, Any]:
    """The feedback fragment's context for a scorecard a worker graded (the request path's view)."""
    from pydantic import ValidationError

    entry = dojo(request).scorecards.entry_of(sc.entry_id)
    try:
        fb = Feedback.model_validate_json(sc.feedback) if sc.feedback else failed(entry, sc.grader or "none", "no feedback")
    except ValidationError:
        fb = failed(entry, sc.grader or "none", "the stored feedback is unreadable")
    view = _practice_view(entry, sc.answer, fb, False)
    view.update(sc=sc, back=f"/questions/{entry.id}#practice", is_follow_up=sc.parent_id is not None)
    return view


@router.get("/scorecards/{sid}/events")
async def answer_events(request: Request, sid: DbId):
    """Server-sent events for a practice answer a worker grades: ``status`` (pending), then
    ``verdict`` (the feedback fragment's HTML) once the machine's proposals are in, and the stream
    ends. 404 for no such scorecard."""
    import asyncio
    import time

    from fastapi.concurrency import run_in_threadpool
    from fastapi.responses import StreamingResponse

    from torchdojo.practice.scorecards import ScorecardError
    from torchdojo.web.routes.challenges import _sse

    d = dojo(request)
    try:
        await run_in_threadpool(d.scorecards.get, sid)
    except ScorecardError as e:
        raise HTTPException(404, str(e)) from None
    fragment = templates.get_template("partials/feedback.html")

    async def stream():
        start, sent = time.monotonic(), False
        while time.monotonic() - start < EVENTS_MAX_SECONDS and not await request.is_disconnected():
            sc = await run_in_threadpool(d.scorecards.get, sid)
            if not sc.machine_pending:
                view = await run_in_threadpool(_feedback_view, request, sc)
                yield _sse("verdict", fragment.render({**view, "request": request, "BANDS": BANDS}))
                return
            if not sent:
                sent = True
                yield _sse("status", "pending")
            await asyncio.sleep(EVENTS_POLL_SECONDS)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
