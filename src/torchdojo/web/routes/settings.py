"""The study settings page: every setting with its value and default, save and reset, what a
desired-retention change does, FSRS optimisation (fit, compare by log loss, then "Use these
parameters"), and the suspended cards. A thin face over
:meth:`torchdojo.practice.flashcards.Flashcards.save_settings` and friends; bad input is a 422
with the message next to its field, never a 500.
"""

from __future__ import annotations

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from torchdojo.practice import study_settings as st
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo
from torchdojo.web.routes.deps import jobs as deps_jobs

router = APIRouter()

#: The jobs layer's task fitting FSRS parameters (:mod:`torchdojo.jobs.tasks`).
OPTIMIZE = "optimize_fsrs"
#: Desired retentions the page compares (the Good interval of a sample card at each).
SAMPLE_RETENTIONS = (0.70, 0.80, 0.85, 0.90, 0.95, 0.97)


def _ctx(request: Request, *, errors: dict | None = None, form: dict | None = None, message: str | None = None,
         result=None, optimize_error: str | None = None, optimizing: int | None = None) -> dict:
    fc = dojo(request).flashcards
    study = fc.refresh()
    from torchdojo.practice.optimizer import MIN_REVIEWS

    return {
        "study": study,
        "defaults": fc.defaults,
        "fields": st.FIELDS,
        "errors": errors or {},
        "form": form or {},
        "message": message,
        "samples": [(r, fc.sample_interval(r)) for r in SAMPLE_RETENTIONS],
        "current_interval": fc.sample_interval(study.desired_retention),
        "review_count": fc.review_count(),
        "min_reviews": MIN_REVIEWS,
        "result": result,
        "optimize_error": optimize_error,
        "optimizing": optimizing,
        "suspended": fc.suspended(),
        # full precision: saving the form unchanged must not move the parameters (and reschedule)
        "params_text": ", ".join(repr(x) for x in study.fsrs_parameters) if study.fsrs_parameters else "",
    }


@router.get("/settings", response_class=HTMLResponse)
def page(request: Request, saved: int = 0, rescheduled: int = 0, reset: str | None = None,
         optimize: int | None = Query(None, ge=1, le=2**63 - 1)):
    """The page; ``optimize=<ref>``: with optimisation request ``ref``'s progress or outcome."""
    if optimize is not None:
        return templates.TemplateResponse(request, "settings.html", _ctx(request, **_optimization(request, optimize)))
    message = None
    if saved:
        message = "Saved." + (" Every card was rescheduled from its review log." if rescheduled else "")
    elif reset:
        message = "Back to the default." + (" Every card was rescheduled from its review log." if rescheduled else "")
    return templates.TemplateResponse(request, "settings.html", _ctx(request, message=message))


@router.post("/settings", response_class=HTMLResponse)
async def save(request: Request):
    """Save the form: every field that changed (an emptied number field returns to its default)."""
    data = await request.form()
    fc = dojo(request).flashcards
    current = fc.refresh()
    values: dict = {}
    resets: list[str] = []
    errors: dict[str, str] = {}
    form = {k: data.get(k, "") for k in ("desired_retention", "new_per_day", "max_reviews_per_day", "fsrs_parameters")}
    form["topics"], form["levels"] = data.getlist("topics"), data.getlist("levels")
    for key in ("desired_retention", "new_per_day", "max_reviews_per_day"):
        text = str(form[key]).strip()
        if len(text) > 40:
            errors[key] = st.message(key, "too long")
        elif text == "":
            resets.append(key)
        else:
            values[key] = text
    values["topics"], values["levels"] = list(form["topics"])[:100], list(form["levels"])[:10]
    try:
        values["fsrs_parameters"] = st.parse_text("fsrs_parameters", str(form["fsrs_parameters"])[:2000])
    except st.StudySettingsError as e:
        errors.update(e.errors)
    if not errors:
        try:
            st.validate(values, current)
        except st.StudySettingsError as e:
            errors.update(e.errors)
    if errors:
        return templates.TemplateResponse(request, "settings.html", _ctx(request, errors=errors, form=form),
                                          status_code=422)
    before = fc.study
    new = fc.save_settings(values)
    if resets:
        new = fc.reset_settings(resets)
    rescheduled = any(getattr(before, k) != getattr(new, k) for k in st.SCHEDULER_KEYS)
    return RedirectResponse(f"/settings?saved=1&rescheduled={int(rescheduled)}", status_code=303)


@router.post("/settings/reset", response_class=HTMLResponse)
def reset(request: Request, key: str = Form(..., max_length=60)):
    """Return one setting (``key``, or ``all``) to its default."""
    fc = dojo(request).flashcards
    before = fc.refresh()
    try:
        new = fc.reset_settings(None if key == "all" else [key])
    except st.StudySettingsError as e:
        return templates.TemplateResponse(request, "settings.html", _ctx(request, errors=e.errors), status_code=422)
    rescheduled = any(getattr(before, k) != getattr(new, k) for k in st.SCHEDULER_KEYS)
    return RedirectResponse(f"/settings?reset={st.key_of(key) if key != 'all' else 'all'}&rescheduled={int(rescheduled)}",
                            status_code=303)


@router.post("/settings/optimize", response_class=HTMLResponse)
def optimize(request: Request):
    """Ask for FSRS parameters fitted to the review log: the ``optimize_fsrs`` job (jobs layer;
    a child process that can take a minute) is submitted and the page shows its progress
    (``/settings?optimize=<ref>``), then the comparison. Nothing is saved: the result carries a
    "Use these parameters" form. Too few reviews: a 422 at once."""
    from torchdojo.jobs.tasks import request_optimization
    from torchdojo.practice.optimizer import NotEnoughReviewsError

    jobs = deps_jobs(request)
    try:
        ref = request_optimization(dojo(request).sessions)
    except NotEnoughReviewsError as e:
        return templates.TemplateResponse(request, "settings.html", _ctx(request, optimize_error=str(e)),
                                          status_code=422)
    if jobs is None:
        return templates.TemplateResponse(request, "settings.html",
                                          _ctx(request, optimize_error="background jobs are not running in this app"),
                                          status_code=503)
    jobs.retry(OPTIMIZE, ref)  # a new request for the same log after a failure tries again
    return RedirectResponse(f"/settings?optimize={ref}#optimize", status_code=303)


def _optimization(request: Request, ref: int) -> dict:
    """What the page shows for optimisation request ``ref``: running, its error or its result."""
    from torchdojo.jobs.tasks import read_optimization, stored_result

    stored = read_optimization(dojo(request).sessions) or {}
    jobs = deps_jobs(request)
    job = jobs.state(OPTIMIZE, ref) if jobs is not None else None
    if stored.get("upto") == ref and stored.get("status") == "done":
        return {"result": stored_result(stored["result"])}
    if job is not None and job.busy:
        return {"optimizing": ref}
    if job is not None and job.status == "failed":
        return {"optimize_error": stored.get("error") if stored.get("upto") == ref and stored.get("error")
                else job.error}
    if stored.get("upto") == ref and stored.get("status") == "failed":
        return {"optimize_error": stored.get("error")}
    if stored.get("upto") == ref and stored.get("status") == "requested" and jobs is not None:
        jobs.submit(OPTIMIZE, ref)  # requested before a restart: resumed
        return {"optimizing": ref}
    return {}


@router.post("/settings/parameters", response_class=HTMLResponse)
def use_parameters(request: Request, fsrs_parameters: str = Form(..., max_length=2000)):
    """Save optimised parameters ("Use these parameters"); every card is rescheduled."""
    fc = dojo(request).flashcards
    try:
        fc.save_settings({"fsrs_parameters": st.parse_text("fsrs_parameters", fsrs_parameters)})
    except st.StudySettingsError as e:
        return templates.TemplateResponse(request, "settings.html", _ctx(request, errors=e.errors), status_code=422)
    return RedirectResponse("/settings?saved=1&rescheduled=1", status_code=303)


@router.post("/settings/unsuspend", response_class=HTMLResponse)
def unsuspend(request: Request, card_id: str = Form(..., max_length=200)):
    """Put a suspended card back in the queue."""
    dojo(request).flashcards.unsuspend(card_id)
    return RedirectResponse("/settings#suspended", status_code=303)
