"""The coach's pages (team mode, accounts on): the cohort dashboard, a learner's page, a
learner's scorecard with comments, assignments; and the learner's own list of assignments.

All the rules of who sees what are in :class:`torchdojo.team.cohort.Cohort` (a coach: their own
cohort; an admin: any; a learner: none of these pages — 403; another cohort's learner — 404).
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from torchdojo.bank.taxonomy import LEVELS
from torchdojo.grading.feedback import BANDS
from torchdojo.team.cohort import ASSIGNMENT_KINDS, Cohort, CohortError
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import DbId

router = APIRouter()


def cohort_view(request: Request) -> Cohort:
    """The app's :class:`Cohort` (learner stores through the app's learner contexts)."""
    got = getattr(request.app.state, "cohort", None)
    if got is None:
        learners = request.app.state.learners
        got = request.app.state.cohort = Cohort(request.app.state.accounts, lambda u: learners.get(u).dojo)
    return got


def _user(request: Request):
    return request.state.user


def _fail(e: CohortError):
    raise HTTPException(e.status, str(e))


@router.get("/coach", response_class=HTMLResponse)
def dashboard(request: Request, cohort: Annotated[str | None, Query(max_length=60)] = None,
              error: str | None = None, status: int = 200):
    """The cohort: heat map (topic × level), each learner's figures, inactive learners, assignments."""
    view, user = cohort_view(request), _user(request)
    try:
        cohorts = view.cohorts(user)
        chosen = cohort if cohort is not None else (cohorts[0] if cohorts else "")
        members = view.members(user, chosen) if chosen else []
        progress = view.progress(user, chosen) if chosen else []
        heat = view.heat_map(user, chosen) if chosen else []
    except CohortError as e:
        _fail(e)
    assignments = view.assignments(chosen, members) if chosen else []
    today = datetime.now(UTC).date()
    return templates.TemplateResponse(request, "coach.html", {
        "cohorts": cohorts, "cohort": chosen, "progress": progress, "heat": heat, "assignments": assignments,
        "members": members, "KINDS": ASSIGNMENT_KINDS, "error": error,
        "default_due": (today + timedelta(days=7)).isoformat(),
        "inactive": [p for p in progress if p.inactive]}, status_code=status)


@router.post("/coach/assignments", response_class=HTMLResponse)
def assign(request: Request, cohort: Annotated[str, Form(max_length=60)], kind: Annotated[str, Form(max_length=12)],
           title: Annotated[str, Form(max_length=200)], due: Annotated[str, Form(max_length=10)],
           items: Annotated[str, Form(max_length=5000)] = "", level: Annotated[str, Form(max_length=10)] = "",
           topics: Annotated[str, Form(max_length=500)] = ""):
    """Assign work to ``cohort``: a mock (level, topics), questions or challenges (ids, one per line
    or comma-separated), due at the end of ``due`` (a date, UTC)."""
    view, user = cohort_view(request), _user(request)
    d = request.app.state.dojo
    try:
        try:
            due_at = datetime.combine(datetime.strptime(due, "%Y-%m-%d").date(), time(23, 59), tzinfo=UTC)
        except ValueError:
            raise CohortError(f"due must be a date as YYYY-MM-DD, not {due!r}") from None
        ids = [i.strip() for chunk in items.splitlines() for i in chunk.split(",") if i.strip()]
        if kind == "mock":
            if level not in LEVELS:
                raise CohortError(f"a mock assignment names a level ({', '.join(LEVELS)})")
            what = {"level": level, "topics": [t.strip() for t in topics.split(",") if t.strip()]}
            valid = None
        else:
            what = ids
            valid = set(e.id for e in d.bank) if kind == "questions" else set(d.challenges)
        view.assign(user, cohort, kind, title, what, due_at, valid_ids=valid)
    except CohortError as e:
        if e.status == 403:
            _fail(e)
        return dashboard(request, cohort, error=str(e), status=e.status)
    return RedirectResponse(f"/coach?cohort={cohort}", status_code=303)


@router.get("/coach/learners/{learner_id}", response_class=HTMLResponse)
def learner_page(request: Request, learner_id: DbId):
    """One learner: figures, mock scores over time, recent scorecards."""
    view, user = cohort_view(request), _user(request)
    try:
        p = view.learner_progress(user, learner_id)
        cards = view.scorecards(user, learner_id)
    except CohortError as e:
        _fail(e)
    bank = request.app.state.dojo.bank
    return templates.TemplateResponse(request, "coach_learner.html", {"p": p, "cards": cards, "bank": bank})


@router.get("/coach/learners/{learner_id}/scorecards/{scorecard_id}", response_class=HTMLResponse)
def learner_scorecard(request: Request, learner_id: DbId, scorecard_id: DbId, error: str | None = None,
                      status: int = 200):
    """A learner's scorecard, read-only, with the coaches' comments and a form to add one."""
    view, user = cohort_view(request), _user(request)
    try:
        learner = view.learner(user, learner_id)
        sc = view.scorecard(user, learner_id, scorecard_id)
    except CohortError as e:
        _fail(e)
    if sc is None:
        raise HTTPException(404, f"no scorecard {scorecard_id} for this learner")
    entry = request.app.state.dojo.bank.get(sc.entry_id)
    return templates.TemplateResponse(request, "coach_scorecard.html", {
        "learner": learner, "sc": sc, "entry": entry, "BANDS": BANDS, "error": error,
        "comments": view.comments(learner_id, scorecard_id)}, status_code=status)


@router.post("/coach/learners/{learner_id}/scorecards/{scorecard_id}/comments", response_class=HTMLResponse)
def add_comment(request: Request, learner_id: DbId, scorecard_id: DbId, text: Annotated[str, Form(max_length=5000)]):
    view, user = cohort_view(request), _user(request)
    try:
        view.comment(user, learner_id, scorecard_id, text)
    except CohortError as e:
        if e.status in (403, 404):
            _fail(e)
        return learner_scorecard(request, learner_id, scorecard_id, error=str(e), status=e.status)
    return RedirectResponse(f"/coach/learners/{learner_id}/scorecards/{scorecard_id}", status_code=303)


@router.get("/assignments", response_class=HTMLResponse)
def my_assignments(request: Request):
    """The signed-in learner's assignments (their cohort's), with what they have done."""
    user = _user(request)
    items = cohort_view(request).learner_assignments(user)
    return templates.TemplateResponse(request, "assignments.html", {"assignments": items, "me": user,
                                                                    "now": datetime.now(UTC)})
