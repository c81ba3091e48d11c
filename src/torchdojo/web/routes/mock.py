"""Mock interviews in the browser: set-up, the timed item page, finishing, grading, the report.

Every page calls :class:`torchdojo.practice.mock.MockInterviews` (``dojo.mocks``) and nothing
else decides: the server's deadline drives the countdown, ``open_item`` on each GET measures the
time per item, every write goes through the core (which refuses it past the deadline with
:class:`~torchdojo.practice.mock.TimeUp`). Works without JavaScript: every action is a button of
the one answer form (``formaction``), so the typed answer is saved with whatever the button does;
``static/mock.js`` adds the ticking countdown, debounced autosave, confirmations and shortcuts.

Grading never runs in a request handler: the pages submit the ``grade_mock`` task to the jobs
layer (:mod:`torchdojo.jobs`; the app's backend grades one mock at a time in a background thread
through the app's :class:`~torchdojo.grading.worker.GraderProcess`: the web process never imports
torch) and show its progress; the report page polls until it is done.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from markupsafe import escape

from torchdojo.bank.taxonomy import QUESTION_TYPES, TOPICS
from torchdojo.grading.feedback import BANDS, Feedback, band_of
from torchdojo.practice.mock import BLUEPRINTS, Locked, Mock, MockConfig, MockError, TimeUp
from torchdojo.web.app import templates
from torchdojo.web.highlight import highlight
from torchdojo.web.routes.deps import DbId, Position, dojo, is_htmx

router = APIRouter()

#: Messages an item page can show after a redirect (``?msg=``); never reflect free text.
MESSAGES = {
    "saved": "Saved.",
    "follow-up": "The interviewer follows up on your last answer.",
    "locked": "The model answer was shown before you answered, so this item stays unanswered.",
    "flagged": "Flag updated.",
}
#: The jobs layer's task that grades an ended mock (:mod:`torchdojo.jobs.tasks`).
GRADE = "grade_mock"


# -- background grading: submitted to the jobs layer (app.state.jobs), never run in a request -----


def _jobs(request: Request):
    """The app's jobs backend (:class:`torchdojo.jobs.local.LocalBackend`; in team mode
    :class:`torchdojo.jobs.celery_backend.CeleryBackend`), None outside the app's lifespan."""
    from torchdojo.web.routes.deps import jobs

    return jobs(request)


def _ensure_grading(request: Request, m: Mock) -> None:
    """Submit the grading of ``m`` while it waits for it (a no-op when queued, running or failed)."""
    jobs = _jobs(request)
    if jobs is not None and m.status == "grading":
        jobs.submit(GRADE, m.id)


# -- helpers -------------------------------------------------------------------------------------


def _mock(request: Request, mock_id: int) -> Mock:
    try:
        return dojo(request).mocks.get(mock_id)
    except MockError as e:
        raise HTTPException(404, f"There is no mock interview #{mock_id}. Start one at /mock.") from e


def _index(m: Mock, pos: int) -> int:
    """1-based URL position → 0-based item index; 404 when out of range."""
    if not 1 <= pos <= len(m.items):
        raise HTTPException(404, f"Mock interview #{m.id} has {len(m.items)} items; there is no item {pos}.")
    return pos - 1


def _report_url(mock_id: int, timeup: bool = False) -> str:
    return f"/mock/{mock_id}/report" + ("?timeup=1" if timeup else "")


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _ended(request: Request, mock_id: int) -> Response:
    """The answer to any write once the interview is over: go to the report (HTMX: HX-Redirect)."""
    m = dojo(request).mocks.get(mock_id)
    _ensure_grading(request, m)
    url = _report_url(mock_id, timeup=m.end_reason == "time-out")
    if is_htmx(request):
        msg = "Time is up." if m.end_reason == "time-out" else "This interview has ended."
        return HTMLResponse(
            f'<span class="save-status warn" role="status">{msg} Opening the report…</span>',
            headers={"HX-Redirect": url},
        )
    return _redirect(url)


def _save_if_changed(request: Request, m: Mock, idx: int, answer: str | None, speech: str | None = None) -> None:
    """Save ``answer`` for item ``idx`` if it was posted and differs from what is stored (a
    challenge's untouched starter code is not an answer). ``speech``: the transcript JSON of the
    recording the answer came from (answer out loud), stored when it is new. Raises TimeUp /
    Locked / MockError (a malformed transcript included)."""
    if answer is None:
        return
    d = dojo(request)
    item = m.items[idx]
    if speech and speech != item.speech:
        from pydantic import ValidationError

        from torchdojo.speech import Transcript

        try:
            Transcript.model_validate_json(speech)
        except ValidationError as e:
            raise MockError(f"the recording's transcript sent with the answer is malformed: {e.errors()[:1]}") from None
        d.mocks.save_answer(m.id, idx, answer, speech=speech)
        return
    if answer == item.answer:
        return
    if item.kind == "challenge" and not item.answer:
        ch = d.challenges.get(item.ref_id)
        if ch is not None and answer.strip() == ch.starter.strip():
            return
    d.mocks.save_answer(m.id, idx, answer)


def _first_unanswered(m: Mock) -> int:
    return next((i.position + 1 for i in m.items if not i.answered and not i.revealed_before_answer), 1)


def _fmt_seconds(s: float) -> str:
    s = max(0, int(s))
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


def _fmt_ms(ms: int) -> str:
    return _fmt_seconds(round(ms / 1000))


templates.env.filters["mmss"] = _fmt_seconds
templates.env.filters["ms_mmss"] = _fmt_ms


# -- set-up --------------------------------------------------------------------------------------


def _setup_ctx(request: Request, error: str | None = None, form: dict | None = None) -> dict:
    d = dojo(request)
    mocks = d.mocks.list()
    blueprints = []
    for bp in BLUEPRINTS.values():
        n = max(2, min(15, round(bp.minutes / bp.minutes_per_item)))
        blueprints.append({"bp": bp, "n_items": n})
    return {
        "blueprints": blueprints,
        "mocks": mocks,
        "active": next((m for m in mocks if m.status == "active"), None),
        "error": error,
        "form": form or {"level": "junior", "topics": [], "types": [], "use_judge": True},
        "topics": TOPICS,
        "types": QUESTION_TYPES,
        "grader_status": _grader_status(request),
    }


@router.get("/mock", response_class=HTMLResponse)
def setup(request: Request):
    return templates.TemplateResponse(request, "mock_setup.html", _setup_ctx(request))


@router.get("/mock/grader-status")
def grader_status(request: Request) -> JSONResponse:
    """The answer grader's state (``stopped``/``loading``/``ready``/``failed: …``) and the
    progress of mocks being graded, as JSON. Never waits."""
    jobs = _jobs(request)
    active = jobs.active(GRADE) if jobs is not None else {}
    progress = {str(k): list(st.progress) for k, st in active.items() if st.progress is not None}
    return JSONResponse({"status": _grader_status(request), "grading": progress})


def _grader_status(request: Request) -> str:
    grader = getattr(request.app.state, "grader", None)
    return grader.status if grader is not None else "stopped"


def _number(raw: str, what: str, cast=int):
    raw = (raw or "").strip()
    if not raw:
        return None
    try:
        return cast(raw)
    except ValueError:
        raise MockError(f"{what} must be a number, not '{raw}'") from None


@router.post("/mock", response_class=HTMLResponse)
def start(
    request: Request,
    level: str = Form("junior"),
    minutes: str = Form(""),
    topics: Annotated[list[str] | None, Form()] = None,
    types: Annotated[list[str] | None, Form()] = None,
    per_item_minutes: str = Form(""),
    use_judge: str | None = Form(None),
    follow_ups: str = Form("", max_length=1),
    out_loud: str | None = Form(None, max_length=1),
):
    topics, types = topics or [], types or []
    form = {
        "level": level,
        "minutes": minutes,
        "topics": topics,
        "types": types,
        "per_item_minutes": per_item_minutes,
        "use_judge": bool(use_judge),
        "follow_ups": follow_ups,
        "out_loud": bool(out_loud),
    }
    try:
        per_item = _number(per_item_minutes, "the per-question countdown", float)
        if per_item is not None and not 0.5 <= per_item <= 60:
            raise MockError("the per-question countdown must be between 0.5 and 60 minutes")
        cfg = MockConfig(
            level=level,
            minutes=_number(minutes, "the duration"),
            topics=tuple(topics) or None,
            types=tuple(types) or None,
            per_item_minutes=per_item,
            use_judge=bool(use_judge),
            follow_ups={"1": True, "0": False}.get(follow_ups),
            out_loud=bool(out_loud),
        )
        m = dojo(request).mocks.start(cfg)
    except MockError as e:
        return templates.TemplateResponse(
            request, "mock_setup.html", _setup_ctx(request, str(e), form), status_code=422
        )
    return _redirect(f"/mock/{m.id}/1")


@router.get("/mock/{mock_id}", response_class=HTMLResponse)
def resume(request: Request, mock_id: DbId):
    m = _mock(request, mock_id)
    if m.status != "active":
        return _redirect(_report_url(m.id))
    return _redirect(f"/mock/{m.id}/{_first_unanswered(m)}")


# -- the report (declared before /mock/{id}/{pos}: "report" is not a position) ------------------


def _item_view(d, item, sc=None) -> dict[str, Any]:
    """What the report shows for one item: score text (confirmed, unconfirmed estimate or
    "uncertain — not scored"), feedback, highlighted answer. ``sc``: the item's scorecard."""
    view: dict[str, Any] = {
        "item": item,
        "fb": None,
        "code": None,
        "graded": False,
        "error": None,
        "entry": d.bank.get(item.ref_id) if item.kind == "question" else None,
    }
    fbd = item.feedback or {}
    if item.answered and fbd.get("error"):  # grading failed: never shown as a score
        view["error"] = fbd["error"]
        view["score_text"] = f"not graded: {fbd['error']}"
    elif not item.graded:
        view["score_text"] = "grading…"
    elif not item.answered:
        view["score_text"], view["graded"] = "0 · unanswered", True
    elif item.kind == "challenge":
        view["code"] = fbd
        view["score_text"], view["graded"] = str(item.score), True
    else:
        fb = Feedback.model_validate(fbd)
        view["fb"], view["graded"], view["sc"] = fb, True, sc
        if sc is not None and sc.final and sc.score is not None:
            who = "confirmed" if any(ln.marked_by not in (None, "machine") for ln in sc.lines) else "unconfirmed"
            view["score_text"], view["band"], view["confirmation"] = str(sc.score), BANDS[sc.band], who
        elif item.score is not None:
            view["score_text"], view["confirmation"] = str(item.score), "unconfirmed"
            view["band"] = BANDS[band_of(item.score)]
        else:
            view["score_text"], view["confirmation"] = "uncertain — not scored", "uncertain"
    if item.kind == "question" and item.answered and item.speech:
        view["delivery"] = _delivery(item, view["fb"], view["entry"])
    if item.kind == "question" and item.answered:
        view["highlighted"] = escape(item.answer)
        if view["fb"] is not None:
            view["highlighted"] = highlight(item.answer, view["fb"])
    return view


def _delivery(item, fb, entry):
    """Delivery feedback of an answer given out loud (None if its transcript cannot be read)."""
    from pydantic import ValidationError

    from torchdojo.speech import Transcript
    from torchdojo.speech.delivery import delivery

    try:
        transcript = Transcript.model_validate_json(item.speech)
    except ValidationError:
        return None
    return delivery(transcript, item.answer, fb, [k.text for k in entry.meta.key_points] if entry else None)


def _chart(data: dict[str, float], names: dict | None = None) -> list[tuple[str, float, str]]:
    """[(label, score, band name)] sorted by label order given."""
    return [((names or {}).get(k, k) or "—", v, BANDS[band_of(round(v))]) for k, v in data.items()]


def _report_ctx(request: Request, m: Mock, timeup: bool) -> dict:
    d = dojo(request)
    r = d.mocks.report(m.id)
    jobs = _jobs(request)
    ctx: dict[str, Any] = {
        "m": r.mock,
        "r": r,
        "timeup": timeup and r.mock.end_reason == "time-out",
        "grader_status": _grader_status(request),
    }
    job = jobs.state(GRADE, m.id) if jobs is not None else None
    if r.mock.status == "grading" or (job is not None and job.busy):
        done = sum(i.graded or bool((i.feedback or {}).get("error")) for i in r.mock.items)
        ctx["done"], ctx["total"] = done, len(r.mock.items)
        if job is not None and job.status == "running" and job.progress is not None:
            run_done, run_total = job.progress
            ctx["done"] = len(r.mock.items) - run_total + run_done
        ctx["grading_error"] = job.error if job is not None else None
        ctx["grading_failed"] = job is not None and job.status == "failed"
        return ctx
    cards = d.mocks.scorecards.for_mock_items(i.item_id for i in r.mock.items)
    views = [_item_view(d, i, cards.get(i.item_id)) for i in r.mock.items]
    order = {lv: i for i, lv in enumerate(("junior", "mid", "senior"))}
    ctx.update(
        {
            "views": views,
            "regradable": [v for v in views if v["error"] and not v["item"].graded],
            "uncertain": [v for v in views if v.get("confirmation") == "uncertain"],
            "review_state": d.mocks.review_state(r.mock),
            "by_topic": _chart(dict(sorted(r.by_topic.items(), key=lambda kv: kv[1])), TOPICS),
            "by_level": _chart(dict(sorted(r.by_level.items(), key=lambda kv: order.get(kv[0], 9)))),
            "by_type": _chart(r.by_type),
            "history": r.history[-12:],
        }
    )
    return ctx


@router.get("/mock/{mock_id}/report", response_class=HTMLResponse)
def report(request: Request, mock_id: DbId, timeup: int = Query(0, ge=0, le=1), later: int = Query(0, ge=0, le=1)):
    m = _mock(request, mock_id)  # ends it first if its time ran out
    if m.status == "active":
        return _redirect(f"/mock/{m.id}/{_first_unanswered(m)}")
    _ensure_grading(request, m)
    m = dojo(request).mocks.get(m.id)
    if m.status == "graded" and dojo(request).mocks.review_state(m) == "pending" and not later \
            and dojo(request).mocks.review_items(m.id):
        url = f"/mock/{m.id}/review"  # the self-review comes before the report
        if is_htmx(request):
            return HTMLResponse('<p class="flash">Graded: opening your self-review…</p>', headers={"HX-Redirect": url})
        return _redirect(url)
    ctx = _report_ctx(request, m, bool(timeup))
    name = "partials/mock_report.html" if is_htmx(request) else "mock_report.html"
    return templates.TemplateResponse(request, name, ctx)


# -- self-review (before the report) --------------------------------------------------------------


@router.get("/mock/{mock_id}/review", response_class=HTMLResponse)
def review(request: Request, mock_id: DbId, n: int = Query(1, ge=1, le=10_000)):
    """Self-review, one answer at a time: the answer beside its rubric scorecard with the
    machine's proposals and evidence; the candidate confirms or changes each mark."""
    d = dojo(request)
    m = _mock(request, mock_id)
    if m.status == "active":
        return _redirect(f"/mock/{m.id}/{_first_unanswered(m)}")
    if m.status != "graded":
        return _redirect(_report_url(m.id))
    pairs = d.mocks.review_items(m.id)
    if not pairs:
        return _redirect(_report_url(m.id))
    n = min(n, len(pairs))
    item, sc = pairs[n - 1]
    parent = next((i for i in m.items if item.parent_position is not None and i.position == item.parent_position), None)
    ctx = {"m": m, "item": item, "sc": sc, "n": n, "total": len(pairs), "pairs": pairs, "parent": parent,
           "entry": d.bank.get(item.ref_id), "all_final": all(c.final for _, c in pairs),
           "state": d.mocks.review_state(m), "plain_accept": True,
           "back": f"/mock/{m.id}/review?n={min(n + 1, len(pairs))}",
           "finish_label": "Accept the rest and go to the next answer" if n < len(pairs) else "Accept the rest"}
    return templates.TemplateResponse(request, "mock_review.html", ctx)


@router.post("/mock/{mock_id}/review/finish", response_class=HTMLResponse)
def review_finish(request: Request, mock_id: DbId, skip: str = Form("0", max_length=1)):
    """End the self-review (``skip=1``: skip what is left; the report then shows the machine's
    estimates labelled unconfirmed) and open the report."""
    from torchdojo.practice.scorecards import ScorecardError

    m = _mock(request, mock_id)
    try:
        dojo(request).mocks.finish_review(m.id, skipped=skip == "1")
    except (ScorecardError, MockError) as e:
        raise HTTPException(409, f"{e}. Mark those lines, or skip the rest of the review.") from e
    return _redirect(_report_url(m.id))


# -- the item page -------------------------------------------------------------------------------


def _item_ctx(request: Request, m: Mock, idx: int, msg: str = "", run: dict | None = None) -> dict:
    d = dojo(request)
    item = m.items[idx]
    now = datetime.now(UTC)
    ctx: dict[str, Any] = {
        "m": m,
        "item": item,
        "pos": idx + 1,
        "n": len(m.items),
        "msg": MESSAGES.get(msg, ""),
        "remaining_ms": max(0, int((m.deadline - now).total_seconds() * 1000)),
        "entry": None,
        "ch": None,
        "run": run,
        "code": item.answer,
    }
    per_item = m.config.get("per_item_minutes")
    ctx["item_remaining_ms"] = None if not per_item else int(per_item * 60_000 - item.time_spent_ms)
    if item.kind == "challenge":
        ch = d.challenges.get(item.ref_id)
        ctx["ch"] = ch
        if ch is not None and not item.answer:
            ctx["code"] = ch.starter
    else:
        ctx["entry"] = d.bank.get(item.ref_id)
    ctx["out_loud"] = bool(m.config.get("out_loud")) and item.kind == "question" and not item.revealed_before_answer
    return ctx


def _item_page(
    request: Request, m: Mock, idx: int, msg: str = "", run: dict | None = None, status_code: int = 200
) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "mock_item.html", _item_ctx(request, m, idx, msg, run), status_code=status_code
    )


@router.get("/mock/{mock_id}/{pos}", response_class=HTMLResponse)
def item_page(request: Request, mock_id: DbId, pos: Position, msg: str = ""):
    d = dojo(request)
    m = _mock(request, mock_id)
    if m.status != "active":
        _ensure_grading(request, m)
        return _redirect(_report_url(m.id, timeup=m.end_reason == "time-out"))
    idx = _index(m, pos)
    try:
        d.mocks.open_item(m.id, idx)
    except (TimeUp, Locked):
        return _ended(request, m.id)
    return _item_page(request, d.mocks.get(m.id), idx, msg)


def _go(m: Mock, go: str) -> int | None:
    try:
        g = int(go)
    except (TypeError, ValueError):
        return None
    return g if 1 <= g <= len(m.items) else None


@router.post("/mock/{mock_id}/{pos}/answer", response_class=HTMLResponse)
def save(request: Request, mock_id: DbId, pos: Position, answer: str = Form(""), go: str = Form(""),
         speech: str | None = Form(None, max_length=4_000_000)):
    """Autosave (mock.js, HTMX-style: returns the status fragment) or the no-JS Save / Previous /
    Next buttons (save, then 303 to the item ``go`` or back to this one)."""
    m = _mock(request, mock_id)
    idx = _index(m, pos)
    target = _go(m, go)
    try:
        if m.status != "active":
            raise Locked("this interview has ended")
        _save_if_changed(request, m, idx, answer, speech)
    except TimeUp:
        return _ended(request, mock_id)
    except Locked as e:
        if dojo(request).mocks.get(mock_id).status != "active":
            return _ended(request, mock_id)
        if is_htmx(request):
            return templates.TemplateResponse(request, "partials/mock_status.html", {"error": str(e)}, status_code=409)
        return _redirect(f"/mock/{mock_id}/{target or pos}" + ("" if target else "?msg=locked"))
    except MockError as e:
        if is_htmx(request):
            return templates.TemplateResponse(request, "partials/mock_status.html", {"error": str(e)}, status_code=422)
        raise HTTPException(422, str(e)) from e
    if is_htmx(request):
        return templates.TemplateResponse(
            request, "partials/mock_status.html", {"saved_at": datetime.now().strftime("%H:%M:%S")}
        )
    if target == pos + 1 and _maybe_follow_up(request, mock_id, idx):
        return _redirect(f"/mock/{mock_id}/{pos + 1}?msg=follow-up")
    return _redirect(f"/mock/{mock_id}/{target}" if target else f"/mock/{mock_id}/{pos}?msg=saved")


def _maybe_follow_up(request: Request, mock_id: int, idx: int) -> bool:
    """Ask the interviewer's follow-up on item ``idx`` (0-based) when the set-up wants one and the
    grader is ready (it never waits for the model to load: then the interview just moves on)."""
    grader = getattr(request.app.state, "grader", None)
    if grader is None or grader.status != "ready":
        return False
    try:
        return dojo(request).mocks.ask_follow_up(mock_id, idx, grader) is not None
    except (TimeUp, Locked):
        return False


@router.post("/mock/{mock_id}/{pos}/next")
def next_item(request: Request, mock_id: DbId, pos: Position) -> JSONResponse:
    """Moving on from item ``pos`` (mock.js, after saving): the URL to open next — the
    follow-up the interviewer asks about this answer, if any, else the next item."""
    m = _mock(request, mock_id)
    idx = _index(m, pos)
    if m.status != "active":
        return JSONResponse({"url": _report_url(mock_id, timeup=m.end_reason == "time-out"), "follow_up": False})
    asked = _maybe_follow_up(request, mock_id, idx)
    return JSONResponse({"url": f"/mock/{mock_id}/{pos + 1}" + ("?msg=follow-up" if asked else ""), "follow_up": asked})


def _save_alongside(request: Request, m: Mock, idx: int, answer: str | None) -> None:
    """Another action (flag, reveal) also saves what was typed. Raises Locked on an ended mock
    and TimeUp past the deadline; a locked answer does not stop the action."""
    if m.status != "active":
        raise Locked("this interview has ended")
    try:
        _save_if_changed(request, m, idx, answer)
    except Locked:
        pass


@router.post("/mock/{mock_id}/{pos}/leave", status_code=204)
def leave(request: Request, mock_id: DbId, pos: Position) -> Response:
    """The page was left: pause the item's clock (a no-op if another item was opened since)."""
    m = _mock(request, mock_id)
    dojo(request).mocks.pause(m.id, position=_index(m, pos))
    return Response(status_code=204)


@router.post("/mock/{mock_id}/{pos}/flag", response_class=HTMLResponse)
def flag(request: Request, mock_id: DbId, pos: Position, flagged: str = Form("1"), answer: str | None = Form(None)):
    d = dojo(request)
    m = _mock(request, mock_id)
    idx = _index(m, pos)
    try:
        _save_alongside(request, m, idx, answer)
        d.mocks.set_flag(m.id, idx, flagged == "1")
    except (TimeUp, Locked):
        return _ended(request, mock_id)
    if is_htmx(request):
        m = d.mocks.get(m.id)
        return templates.TemplateResponse(
            request, "partials/mock_flag.html", {"m": m, "item": m.items[idx], "pos": pos, "oob": True}
        )
    return _redirect(f"/mock/{mock_id}/{pos}?msg=flagged")


@router.post("/mock/{mock_id}/{pos}/reveal", response_class=HTMLResponse)
def reveal(request: Request, mock_id: DbId, pos: Position, answer: str | None = Form(None), confirm: str = Form("0")):
    """Show the model answer. An unanswered item needs confirmation first (it is then recorded as
    revealed before answering and locked); without JS the confirmation is a page."""
    d = dojo(request)
    m = _mock(request, mock_id)
    idx = _index(m, pos)
    try:
        _save_alongside(request, m, idx, answer)
        item = d.mocks.get(m.id).items[idx]
        if item.kind != "question":
            raise HTTPException(400, "Coding items have no model answer to reveal during the interview.")
        if not item.answered and not item.revealed and confirm != "1":
            return templates.TemplateResponse(
                request, "mock_confirm.html", {"m": m, "item": item, "pos": pos, "what": "reveal"}
            )
        d.mocks.reveal(m.id, idx)
    except (TimeUp, Locked):
        return _ended(request, mock_id)
    return _redirect(f"/mock/{mock_id}/{pos}#model-answer")


@router.post("/mock/{mock_id}/{pos}/run", response_class=HTMLResponse)
def run(request: Request, mock_id: DbId, pos: Position, answer: str = Form("")):
    """Save the code, then run the challenge's public tests in the judge (the challenge page's
    machinery: ``JudgeService.submit`` in run mode); returns the verdict table."""
    from torchdojo.judge.sandbox.backend import SandboxUnavailable

    d = dojo(request)
    m = _mock(request, mock_id)
    idx = _index(m, pos)
    item = m.items[idx]
    if item.kind != "challenge" or item.ref_id not in d.challenges:
        raise HTTPException(400, "Only coding items can run tests.")
    from torchdojo.web.routes.deps import submission_limited

    if (limited := submission_limited(request)) is not None:
        return limited
    try:
        if m.status != "active":
            raise Locked("this interview has ended")
        _save_if_changed(request, m, idx, answer)
    except (TimeUp, Locked):
        return _ended(request, mock_id)
    code = answer or d.challenges[item.ref_id].starter
    if len(code) > 100_000:
        raise HTTPException(413, "The code is over 100,000 characters.")
    try:
        sid, rep = d.judge.submit(item.ref_id, code, "run")
        ctx: dict[str, Any] = {"rep": rep.to_dict(), "sid": sid, "ch": d.challenges[item.ref_id]}
    except SandboxUnavailable as e:
        ctx = {"error": f"Refusing to judge: {e}"}
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/report.html", ctx)
    return _item_page(request, d.mocks.get(m.id), idx, run=ctx)


@router.post("/mock/{mock_id}/finish", response_class=HTMLResponse)
def finish(
    request: Request, mock_id: DbId, answer: str | None = Form(None), pos: str = Form(""), confirm: str = Form("0")
):
    """End the interview (saving the posted answer first) and start grading; asks for
    confirmation (a page without JS) when items are unanswered."""
    d = dojo(request)
    m = _mock(request, mock_id)
    idx = (_go(m, pos) or 0) - 1
    if m.status == "active":
        try:
            if idx >= 0:
                try:
                    _save_if_changed(request, m, idx, answer)
                except Locked:
                    pass
            m = d.mocks.get(mock_id)
            unanswered = [i for i in m.items if not i.answered]
            if m.status == "active" and unanswered and confirm != "1":
                return templates.TemplateResponse(
                    request,
                    "mock_confirm.html",
                    {"m": m, "pos": idx + 1 if idx >= 0 else 1, "what": "finish", "unanswered": unanswered},
                )
            m = d.mocks.finish(mock_id)
        except TimeUp:
            m = d.mocks.get(mock_id)
    _ensure_grading(request, m)
    return _redirect(_report_url(mock_id, timeup=m.end_reason == "time-out"))


@router.post("/mock/{mock_id}/regrade", response_class=HTMLResponse)
def regrade(request: Request, mock_id: DbId):
    """Grade the answers whose grading failed again (in the background), then show the report."""
    m = _mock(request, mock_id)
    if m.status == "active":
        return _redirect(f"/mock/{m.id}/{_first_unanswered(m)}")
    jobs = _jobs(request)
    if jobs is None:
        raise HTTPException(503, "The answer grader is not running in this app.")
    jobs.retry(GRADE, m.id)
    return _redirect(_report_url(m.id))
