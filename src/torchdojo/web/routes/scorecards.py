"""Scorecard marking (self-review in practice and mock interviews) and the agreement page.

Each mark is its own POST and commits at once (a closed tab loses no confirmed mark). HTMX
requests get the scorecard fragment back; plain forms are redirected to ``back`` (a local path).
"""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from torchdojo.grading.feedback import BANDS
from torchdojo.practice.scorecards import MARKS, MAX_NOTE, ScorecardError
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import DbId, Position, dojo, is_htmx

router = APIRouter()


def _back(back: str, default: str) -> str:
    """Only a path on this server (never another site)."""
    return back if back.startswith("/") and not back.startswith("//") and "\\" not in back else default


def _after(request: Request, sid: int, back: str, error: str | None = None, status: int = 200):
    d = dojo(request)
    sc = d.scorecards.get(sid)
    if sc.mock_item_id is not None:
        d.mocks.sync_scores_for_item(sc.mock_item_id)
    if is_htmx(request):
        # in a mock review, "accept" is a plain form: it opens the next answer
        ctx = {"sc": sc, "back": back, "BANDS": BANDS, "error": error, "plain_accept": sc.context == "mock"}
        return templates.TemplateResponse(request, "partials/scorecard.html", ctx, status_code=status)
    if error:
        raise HTTPException(status, error)
    return RedirectResponse(_back(back, f"/scorecards/{sid}"), status_code=303)


def _card_or_404(request: Request, sid: int, marking: bool = False):
    try:
        sc = dojo(request).scorecards.get(sid)
    except ScorecardError as e:
        raise HTTPException(404, str(e)) from e
    if marking and sc.context == "interview":  # an interviewer's card is marked on its sheet, by the interviewer
        raise HTTPException(409, f"Scorecard #{sid} belongs to interview #{sc.interview_id}: mark it on the interview sheet.")
    return sc


@router.post("/scorecards/{sid}/lines/{pos}", response_class=HTMLResponse)
def mark(request: Request, sid: DbId, pos: Position, mark: str = Form(..., max_length=20),
         note: str | None = Form(None, max_length=MAX_NOTE), back: str = Form("", max_length=300)):
    """Set one line's mark (by the candidate: self-review)."""
    _card_or_404(request, sid, marking=True)
    try:
        dojo(request).scorecards.set_mark(sid, pos, mark, by="self", note=note)
    except ScorecardError as e:
        return _after(request, sid, back, str(e), 409 if "final" in str(e) else 422)
    return _after(request, sid, back)


@router.post("/scorecards/{sid}/accept", response_class=HTMLResponse)
def accept(request: Request, sid: DbId, back: str = Form("", max_length=300)):
    """Accept the machine's proposals on every unmarked line, then finish (finalise) the
    scorecard when every line has a mark; otherwise say which lines still need one."""
    _card_or_404(request, sid, marking=True)
    s = dojo(request).scorecards
    try:
        left = s.accept_all(sid)
        if left:
            return _after(request, sid, back, f"Mark line(s) {', '.join(str(p + 1) for p in left)} yourself: the machine "
                          "had no proposal for them.", 422)
        s.finalize(sid)
    except ScorecardError as e:
        return _after(request, sid, back, str(e), 409)
    return _after(request, sid, back)


@router.get("/scorecards/agreement", response_class=HTMLResponse)
def agreement(request: Request):
    """How often the machine's proposals matched what people confirmed."""
    ag = dojo(request).scorecards.agreement()
    return templates.TemplateResponse(request, "agreement.html", {"ag": ag, "MARKS": MARKS, "BANDS": BANDS})


@router.get("/scorecards/{sid}", response_class=HTMLResponse)
def scorecard(request: Request, sid: DbId):
    sc = _card_or_404(request, sid)
    entry = dojo(request).bank.get(sc.entry_id)
    user = request.scope.get("state", {}).get("user")
    comments = []
    if user is not None:  # team mode: the coaches' comments on this scorecard
        from torchdojo.web.routes.coach import cohort_view

        comments = cohort_view(request).comments(user.id, sid)
    return templates.TemplateResponse(request, "scorecard.html", {"sc": sc, "entry": entry, "back": f"/scorecards/{sid}",
                                                                  "BANDS": BANDS, "comments": comments})
