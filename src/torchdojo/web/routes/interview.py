"""Interviewer mode in the browser: build a kit, run the interview from its sheet, mark the
scorecard live, finish, export as Markdown or PDF.

Thin over :class:`torchdojo.practice.interviews.Interviews` (``dojo.interviews``): every mark,
note and recommendation is committed by the core as it is set. Works without JavaScript (each
mark button submits its line's form and the page comes back at that question); with HTMX a
mark swaps only that question's scorecard, so its score updates in place. ``static/interview.js``
adds the print button and the confirmation before finishing.

Errors: an unknown interview, scorecard or line is a 404; any change to a finished interview a
409; a mark a line does not take, an over-long note or a bad set-up a 422 — each with a message
(see :func:`interview_error`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from torchdojo.bank.taxonomy import QUESTION_TYPES, TOPICS
from torchdojo.grading.feedback import BANDS
from torchdojo.practice.interviews import (
    KIND_NAMES,
    MAX_COUNT,
    RUBRIC,
    InterviewError,
    InterviewFinal,
    InterviewNotFound,
    follow_ups,
)
from torchdojo.practice.mock import BLUEPRINTS
from torchdojo.practice.scorecards import RECOMMENDATIONS
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import DbId, Position, dojo, is_htmx

router = APIRouter()

#: Messages the sheet can show after a redirect (``?msg=``); never reflect free text.
MESSAGES = {"saved": "Saved.", "finished": "Interview finished: the scorecard is final. Export it below."}


def interview_error(request: Request, exc: InterviewError) -> HTMLResponse:
    """The response to an :class:`InterviewError`: 404 (not found), 409 (finished) or 422, as a
    small fragment for HTMX (shown in place by ``interview.js``) or the error page."""
    status = 404 if isinstance(exc, InterviewNotFound) else 409 if isinstance(exc, InterviewFinal) else 422
    title = {404: "Not found", 409: "This interview is finished", 422: "Not saved"}[status]
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/interview_error.html", {"detail": str(exc)},
                                          status_code=status)
    return templates.TemplateResponse(request, "error.html", {"title": title, "detail": str(exc)},
                                      status_code=status)


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _setup_ctx(request: Request, error: str | None = None, form: dict | None = None) -> dict:
    return {
        "blueprints": list(BLUEPRINTS.values()),
        "interviews": dojo(request).interviews.list(),
        "topics": TOPICS,
        "types": QUESTION_TYPES,
        "max_count": MAX_COUNT,
        "error": error,
        "form": form or {"level": "mid", "topics": [], "types": [], "count": "", "candidate": "", "interviewer": ""},
    }


@router.get("/interview", response_class=HTMLResponse)
def setup(request: Request):
    return templates.TemplateResponse(request, "interview_setup.html", _setup_ctx(request))


@router.post("/interview", response_class=HTMLResponse)
def create(
    request: Request,
    level: str = Form("mid"),
    count: str = Form(""),
    topics: Annotated[list[str] | None, Form()] = None,
    types: Annotated[list[str] | None, Form()] = None,
    candidate: str = Form("", max_length=1000),
    interviewer: str = Form("", max_length=1000),
):
    topics, types = topics or [], types or []
    form = {"level": level, "count": count, "topics": topics, "types": types, "candidate": candidate,
            "interviewer": interviewer}
    ivs = dojo(request).interviews
    try:
        n = None
        if count.strip():
            try:
                n = int(count)
            except ValueError:
                raise InterviewError(f"the number of questions must be a number, not '{count.strip()[:20]}'") from None
        kit = ivs.kit(level, topics or None, types or None, n)
        iid = ivs.start(kit, candidate, interviewer, level=level, topics=topics, types=types)
    except InterviewError as e:
        return templates.TemplateResponse(request, "interview_setup.html", _setup_ctx(request, str(e), form),
                                          status_code=422)
    return _redirect(f"/interview/{iid}")


def _card_ctx(iv, q) -> dict:
    return {"iv": iv, "q": q, "card": q.card, "KIND_NAMES": KIND_NAMES, "BANDS": BANDS}


@router.get("/interview/{interview_id}", response_class=HTMLResponse)
def sheet(request: Request, interview_id: DbId, msg: str | None = None):
    d = dojo(request)
    iv = d.interviews.get(interview_id)
    return templates.TemplateResponse(request, "interview.html", {
        "iv": iv,
        "follow_ups": {q.entry.id: follow_ups(d.bank, q.entry) for q in iv.questions},
        "KIND_NAMES": KIND_NAMES,
        "BANDS": BANDS,
        "RUBRIC": RUBRIC,
        "RECOMMENDATIONS": RECOMMENDATIONS,
        "message": MESSAGES.get(msg or ""),
    })


def _question(request: Request, interview_id: int, scorecard_id: int):
    iv = dojo(request).interviews.get(interview_id)
    q = next((q for q in iv.questions if q.card.id == scorecard_id), None)
    if q is None:
        raise InterviewNotFound(f"interview #{interview_id} has no scorecard #{scorecard_id}")
    return iv, q


def _after_card_change(request: Request, interview_id: int, scorecard_id: int):
    iv, q = _question(request, interview_id, scorecard_id)
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/interview_card.html", _card_ctx(iv, q))
    return _redirect(f"/interview/{interview_id}?msg=saved#q-{q.position + 1}")


@router.post("/interview/{interview_id}/card/{scorecard_id}/line/{position}", response_class=HTMLResponse)
def mark_line(request: Request, interview_id: DbId, scorecard_id: DbId, position: Position,
              mark: str = Form("", max_length=40), note: str | None = Form(None, max_length=20_000)):
    """Set a line's mark (a name or its key 1..n; empty: only save the note) and note."""
    dojo(request).interviews.mark(interview_id, scorecard_id, position, mark.strip() or None, note)
    return _after_card_change(request, interview_id, scorecard_id)


@router.post("/interview/{interview_id}/card/{scorecard_id}/notes", response_class=HTMLResponse)
def question_notes(request: Request, interview_id: DbId, scorecard_id: DbId,
                   notes: str = Form("", max_length=20_000)):
    dojo(request).interviews.set_question_notes(interview_id, scorecard_id, notes)
    return _after_card_change(request, interview_id, scorecard_id)


@router.post("/interview/{interview_id}/overall", response_class=HTMLResponse)
def overall(request: Request, interview_id: DbId, recommendation: str = Form("", max_length=40),
            notes: str = Form("", max_length=20_000)):
    d = dojo(request)
    d.interviews.set_overall(interview_id, recommendation.strip() or None, notes)
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/interview_overall.html", {
            "iv": d.interviews.get(interview_id), "RUBRIC": RUBRIC, "RECOMMENDATIONS": RECOMMENDATIONS,
            "saved": True})
    return _redirect(f"/interview/{interview_id}?msg=saved#overall")


@router.post("/interview/{interview_id}/finish")
def finish(request: Request, interview_id: DbId):
    dojo(request).interviews.finalize(interview_id)
    return _redirect(f"/interview/{interview_id}?msg=finished#export")


@router.get("/interview/{interview_id}/export.md")
def export_md(request: Request, interview_id: DbId) -> Response:
    text = dojo(request).interviews.markdown(interview_id)
    return Response(text, media_type="text/markdown; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="interview-{interview_id}.md"'})


@router.get("/interview/{interview_id}/export.pdf")
def export_pdf(request: Request, interview_id: DbId) -> Response:
    pdf = dojo(request).interviews.pdf(interview_id)
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="interview-{interview_id}.pdf"'})
