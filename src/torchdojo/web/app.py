"""The local web app: FastAPI + Jinja2 + HTMX, one module per page under ``routes/``.

``create_app`` builds a :class:`torchdojo.core.Dojo` once (bank, database, search index) and
shares it with the routes through ``app.state.dojo``. Nothing here imports torch.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.exc import DBAPIError

from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.core import Dojo
from torchdojo.grading.feedback import BANDS
from torchdojo.judge.display import format_mismatch, format_values
from torchdojo.practice.flashcards import CardStateError, FilterError
from torchdojo.practice.interviews import InterviewError
from torchdojo.practice.mock import MockError
from torchdojo.settings import Settings
from torchdojo.store.db import unavailable
from torchdojo.store.search import HL_END, HL_START
from torchdojo.web import markdown
from torchdojo.web.security import LocalGuard

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
templates.env.filters["md"] = markdown.render
templates.env.filters["md_inline"] = markdown.render_inline
templates.env.globals.update(TOPICS=TOPICS, LEVELS=LEVELS, QUESTION_TYPES=QUESTION_TYPES, BANDS=BANDS)


def _snippet(text: str) -> str:
    from markupsafe import escape

    return str(escape(text)).replace(HL_START, "<mark>").replace(HL_END, "</mark>")


def _duration(td) -> str:
    s = td.total_seconds()
    if s < 3600:
        return f"{max(1, round(s / 60))} min"
    if s < 86400:
        return f"{round(s / 3600)} h"
    if s < 86400 * 60:
        return f"{round(s / 86400)} d"
    return f"{s / 86400 / 30:.1f} mo"


templates.env.filters["snippet"] = _snippet
templates.env.filters["judge_values"] = format_values
templates.env.filters["judge_mismatch"] = format_mismatch
templates.env.filters["duration"] = _duration


#: Seconds a client is told to wait (Retry-After) when the database is not answering.
DB_RETRY_AFTER = 5


def _reason(exc: DBAPIError) -> str:
    """The driver's error class of ``exc`` for the page (the full first line goes to the log:
    it may name hosts and sockets)."""
    lines = str(exc.orig).strip().splitlines()
    logging.getLogger("torchdojo.web").warning("database unavailable: %s: %s", type(exc.orig).__name__,
                                               lines[0][:300] if lines else "")
    return type(exc.orig).__name__


#: A challenge kind that names the same thing as a topic.
_KIND_TOPIC = {"debug": "debugging"}


def _chip_topics(topics, kind: str) -> list[str]:
    """The topic chips to show beside a question type / challenge kind chip: each label once, so
    the topic that repeats the type ("debugging" · "Debugging", "debug" · "Debugging") is left out."""
    same = _KIND_TOPIC.get(kind, kind)
    return [t for t in topics if t != same]


templates.env.filters["chip_topics"] = _chip_topics


def create_app(settings: Settings | None = None, dojo: Dojo | None = None) -> FastAPI:
    """The web app over ``dojo`` (built from ``settings`` when not given)."""
    from torchdojo.web.routes import (
        browse,
        cards,
        challenges,
        data,
        home,
        interview,
        mock,
        question,
        review,
        scorecards,
        speech,
        stats,
    )
    from torchdojo.web.routes import settings as settings_page

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # The answer grader loads its model in a child process (seconds; torch stays out of
        # this process): start it now without waiting, so pages are served at once.
        from torchdojo.grading.worker import GraderProcess

        d = app.state.dojo
        _ = d.mocks, d.interviews  # built here, not concurrently by two threads
        app.state.grader = GraderProcess(d.settings, d.bank)
        app.state.grader.start()
        # Background work (mock grading, …) through the jobs layer: in-process threads, or in
        # team mode the Celery workers (celery imported only then; the web never imports torch).
        from torchdojo.jobs import JobContext

        if d.settings.broker_url:
            from torchdojo.jobs.celery_backend import CeleryBackend

            app.state.jobs = CeleryBackend(JobContext(d.settings, dojo=d))
        else:
            from torchdojo.jobs.local import LocalBackend

            app.state.jobs = LocalBackend(JobContext(d.settings, dojo=d, grader=app.state.grader))
        app.state.jobs.resume()  # e.g. mocks left in "grading" by a stopped server
        if d.settings.judge_prestart and not d.settings.broker_url:  # team mode: workers judge
            # The judge's server (torch import, warm-up: seconds) and torch in this process, in the
            # background: the first Run/Submit should not wait for them (issue 17).
            d.judge.warm_up()
        yield
        if getattr(app.state, "learners", None) is not None:
            app.state.learners.close()
            app.state.learner_stores.close()
        app.state.jobs.close()
        # A worker still loading its model is killed at once (nothing to lose); one that is
        # grading gets a moment to answer (an unanswered item stays ungraded and is resumed).
        app.state.grader.close(timeout=0 if app.state.grader.status == "loading" else 3)
        if getattr(app.state, "speech", None) is not None:  # started by the first recording
            app.state.speech.close()
        if getattr(app.state, "judge_queue", None) is not None:  # team mode's connection to Redis
            app.state.judge_queue.close()
        if "judge" in app.state.dojo.__dict__:  # started at start-up (judge_prestart) or by a submission
            app.state.dojo.judge.close()

    # The OpenAPI schema is published (/openapi.json) so the app can be fuzzed (schemathesis in
    # CI); no interactive docs pages.
    app = FastAPI(title="torchdojo", docs_url=None, redoc_url=None, openapi_url="/openapi.json", lifespan=lifespan)
    app.state.dojo = dojo or Dojo(settings)
    if app.state.dojo.settings.accounts_enabled:
        # Accounts (team mode): sign-in, CSRF tokens, one store per learner (torchdojo.web.accounts).
        from torchdojo.store.learners import LearnerStores
        from torchdojo.team.accounts import Accounts
        from torchdojo.team.ratelimit import RateLimits
        from torchdojo.web import accounts as accounts_web

        st = app.state.dojo.settings
        app.state.accounts = Accounts(app.state.dojo.sessions)
        app.state.learner_stores = LearnerStores(st.database_url, engine=app.state.dojo.sessions.engine)
        app.state.learners = accounts_web.Learners(app)
        app.state.rate_limits = RateLimits(st.broker_url)
        app.add_middleware(accounts_web.AccountsGuard, accounts=app.state.accounts, learners=app.state.learners)
        app.include_router(accounts_web.router)
        from torchdojo.web.routes import coach

        app.include_router(coach.router)
        from torchdojo.web.routes import peer

        app.include_router(peer.router)
    app.add_middleware(LocalGuard, allowed_hosts=app.state.dojo.settings.host_allow_list())
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    css = markdown.pygments_css()

    @app.get("/static-gen/pygments.css", include_in_schema=False)
    def pygments() -> PlainTextResponse:
        return PlainTextResponse(css, media_type="text/css", headers={"Cache-Control": "max-age=3600"})

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict:
        """Liveness and the judge's health (its server: up or down, restarts, last failure). The
        judge is not created, nor its server started, by asking."""
        d = app.state.dojo
        judge = d.__dict__.get("judge")  # a cached_property: present once someone used the judge
        return {"ok": True, "entries": len(d.bank),
                "judge": judge.health() if judge is not None else {"state": "not started", "restarts": 0,
                                                                    "last_failure": None}}

    for module in (home, browse, question, speech, review, cards, challenges, mock, interview, scorecards, stats, data,
                   settings_page):
        app.include_router(module.router)

    @app.exception_handler(MockError)
    async def mock_error(request: Request, exc: MockError) -> HTMLResponse:
        # e.g. an over-long answer posted with Flag, Reveal or Finish: a 422 that says why
        return templates.TemplateResponse(request, "error.html", {"title": "Not saved", "detail": str(exc)},
                                          status_code=422)

    @app.exception_handler(InterviewError)
    async def interview_error(request: Request, exc: InterviewError) -> HTMLResponse:
        # 404 unknown interview/scorecard/line, 409 finished, 422 a bad mark or set-up
        return interview.interview_error(request, exc)

    @app.exception_handler(CardStateError)
    async def card_state(request: Request, exc: CardStateError) -> HTMLResponse:
        return templates.TemplateResponse(request, "error.html", {"title": "This card cannot be shown",
                                                                  "detail": str(exc)}, status_code=409)

    @app.exception_handler(FilterError)
    async def filter_error(request: Request, exc: FilterError) -> HTMLResponse:
        # e.g. /review?level=expert: never silently ignored, never a 500
        return templates.TemplateResponse(request, "error.html", {"title": "Unknown filter", "detail": str(exc)},
                                          status_code=400)

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, exc: DBAPIError) -> HTMLResponse:
        # The database stopped or restarting (team mode: PostgreSQL): a clear 503 with
        # Retry-After, never a 500 with a traceback; the request's transaction was rolled back.
        if not unavailable(exc):
            raise exc
        return templates.TemplateResponse(
            request, "error.html", {"title": "Database unavailable",
                                    "detail": "The database is not answering right now (it may be restarting); this "
                                              f"request was not saved. Retry in a few seconds. ({_reason(exc)})"},
            status_code=503, headers={"Retry-After": str(DB_RETRY_AFTER)})

    @app.exception_handler(404)
    async def not_found(request: Request, exc) -> HTMLResponse:
        detail = getattr(exc, "detail", "Not found")
        return templates.TemplateResponse(request, "error.html", {"title": "Not found", "detail": detail},
                                          status_code=404)

    return app
