"""Small helpers the page modules share: the Dojo of the request and query filters."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request

from torchdojo.core import Dojo
from torchdojo.practice.flashcards import Filters


def dojo(request: Request) -> Dojo:
    """The core serving this request: with accounts, the signed-in user's learner view (their
    store only, see :mod:`torchdojo.store.learners`); otherwise the app's."""
    learner = request.scope.get("state", {}).get("learner")
    return learner.dojo if learner is not None else request.app.state.dojo


def jobs(request: Request):
    """The jobs backend for this request's store (:mod:`torchdojo.jobs`), None outside the app's lifespan."""
    learner = request.scope.get("state", {}).get("learner")
    if learner is not None:
        return learner.jobs
    return getattr(request.app.state, "jobs", None)


def filters(level: str | None = None, topic: str | None = None, type: str | None = None) -> Filters:
    """Filters from query parameters; empty values mean 'any'. An unknown value raises
    :class:`~torchdojo.practice.flashcards.FilterError` (the app answers 400 with the allowed values)."""
    return Filters.parse(level, topic, type)


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


#: A database row id in a path: an int64 (SQLite's and PostgreSQL's integer keys); anything
#: else is a 422 with a message, never an overflow inside the driver.
DbId = Annotated[int, Path(ge=0, le=2**63 - 1, description="a row id (0 to 2**63 - 1)")]
#: A 0-based item position in a mock interview.
Position = Annotated[int, Path(ge=0, le=10_000, description="an item position (0-based)")]


def submission_limited(request: Request):
    """With accounts: count one code run against the user's submission limit
    (:mod:`torchdojo.team.ratelimit`); returns the 429 answer (``Retry-After`` set) when it is
    over, None otherwise (and always None without accounts)."""
    user = request.scope.get("state", {}).get("user")
    limits = getattr(request.app.state, "rate_limits", None)
    if user is None or limits is None:
        return None
    from torchdojo.team.ratelimit import RateLimited
    from torchdojo.web.app import templates

    try:
        limits.hit("submit", str(user.id))
    except RateLimited as e:
        return templates.TemplateResponse(request, "partials/report.html", {"error": f"Too many runs: {e}."},
                                          status_code=429, headers={"Retry-After": str(e.retry_after)})
    return None
