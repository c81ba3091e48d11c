"""Accounts on the web (team mode, ``Settings.accounts_enabled``): sign-in, CSRF, the learner's view.

:class:`AccountsGuard` (ASGI middleware, inside :class:`~torchdojo.web.security.LocalGuard`):

1. Reads the session cookie (:data:`COOKIE`: ``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the
   request came over HTTPS or ``TORCHDOJO_COOKIE_SECURE`` says so) and looks the session up
   (:meth:`torchdojo.team.accounts.Accounts.session`).
2. A request without a live session may only reach the sign-in pages, static files and
   ``/healthz``: a page request is sent to ``/login?next=…`` (303), any other gets 401.
3. A state-changing request (POST, PUT, PATCH, DELETE) of a signed-in user must carry the
   session's CSRF token (synchronizer token pattern): header ``X-CSRF-Token`` (htmx, fetch) or
   form field ``csrf_token`` (plain forms, sendBeacon; ``static/csrf.js`` adds both). Otherwise
   403. This is on top of LocalGuard's Origin / Sec-Fetch-Site check, which also covers the
   sign-in forms (no session yet to bind a token to).
4. Sets ``request.state.user`` (:class:`~torchdojo.team.accounts.User`), ``request.state.csrf``
   and ``request.state.learner`` (:class:`LearnerContext`): the routes' ``deps.dojo(request)``
   then serves that learner's store only, so every existing page is scoped to its owner
   without a change (see :mod:`torchdojo.store.learners`).

Source: OWASP Cross-Site Request Forgery Prevention cheat sheet ("Synchronizer token pattern").
"""

from __future__ import annotations

import hmac
import threading
from datetime import UTC, datetime, timedelta
from http.cookies import SimpleCookie
from typing import Annotated
from urllib.parse import parse_qs, quote

from anyio import to_thread
from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from torchdojo.team.accounts import AccountError, Accounts, User
from torchdojo.team.ratelimit import RateLimited, RateLimits
from torchdojo.web.app import templates
from torchdojo.web.security import SAFE_METHODS, _refuse

COOKIE = "torchdojo_session"
#: Paths served without a session (prefixes end with "/").
PUBLIC = ("/login", "/healthz", "/favicon.ico", "/static/", "/static-gen/", "/signup/")
#: Static files: served without looking the session up.
STATIC = ("/static/", "/static-gen/", "/favicon.ico")
#: How stale ``users.last_seen_at`` may get before a request refreshes it (one write).
TOUCH_EVERY = timedelta(minutes=5)
#: Paths whose POST needs no CSRF token (no session yet: LocalGuard's origin check covers them).
NO_TOKEN = ("/login", "/signup/")


def _public(path: str, prefixes=PUBLIC) -> bool:
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in prefixes)


class LearnerContext:
    """What a signed-in user's requests are served with: a :class:`~torchdojo.core.Dojo` view over
    their store, a jobs backend for it and (team mode) a judge queue storing in it. One per
    user per web process, made on their first request."""

    def __init__(self, app, user: User) -> None:
        base = app.state.dojo
        self.store = user.store
        self.dojo = base.for_store(app.state.learner_stores.sessions(self.store), self.store)
        self._app = app
        self._jobs = None
        self._queue = None
        self._lock = threading.Lock()

    @property
    def jobs(self):
        """This store's jobs backend (local threads, or Celery in team mode), started on first use."""
        with self._lock:
            if self._jobs is None:
                from torchdojo.jobs import JobContext

                shared = getattr(self._app.state, "jobs", None)
                if shared is None:
                    return None
                ctx = JobContext(self.dojo.settings, dojo=self.dojo, grader=getattr(self._app.state, "grader", None))
                if self.dojo.settings.broker_url:
                    from torchdojo.jobs.celery_backend import CeleryBackend

                    self._jobs = CeleryBackend(ctx, app=shared.app)
                else:
                    from torchdojo.jobs.local import LocalBackend

                    self._jobs = LocalBackend(ctx)
                self._jobs.resume()  # this learner's mocks left "grading" by a stopped server
            return self._jobs

    def judge_queue(self, shared):
        """The team judge queue storing this learner's submissions in their store."""
        with self._lock:
            if self._queue is None:
                from torchdojo.jobs.celery_app import JudgeQueue

                self._queue = JudgeQueue(self.dojo.settings, self.dojo.sessions, self.dojo.judge.challenges,
                                         store=self.store, shared=shared)
            return self._queue

    def close(self) -> None:
        if self._jobs is not None:
            self._jobs.close()


class Learners:
    """The web process's :class:`LearnerContext` per user id."""

    def __init__(self, app) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._by_user: dict[int, LearnerContext] = {}

    def get(self, user: User) -> LearnerContext:
        with self._lock:
            got = self._by_user.get(user.id)
        if got is not None:
            return got
        made = LearnerContext(self.app, user)  # opens (and on first use migrates) the store: outside the lock
        with self._lock:
            return self._by_user.setdefault(user.id, made)

    def close(self) -> None:
        with self._lock:
            for c in self._by_user.values():
                c.close()
            self._by_user.clear()


def _cookie(headers: dict[str, str]) -> str | None:
    raw = headers.get("cookie")
    if not raw:
        return None
    jar = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # noqa: BLE001 - a malformed Cookie header: no session
        return None
    m = jar.get(COOKIE)
    return m.value if m is not None else None


class AccountsGuard:
    """ASGI middleware: sessions, sign-in redirect, CSRF tokens, the learner's context (module doc)."""

    def __init__(self, app, accounts: Accounts, learners: Learners) -> None:
        self.app, self.accounts, self.learners = app, accounts, learners

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await self._guard(scope, receive, send)
        except Exception as e:
            from torchdojo.store.db import unavailable

            if not unavailable(e) or scope.get("state", {}).get("responded"):
                raise
            # the server database (sessions) is not answering: as the app's own handler, a 503 to retry
            await _refuse(send, 503, "Database unavailable: this request was not saved. Retry in a few seconds.",
                          headers=[(b"retry-after", b"5")])

    async def _guard(self, scope, receive, send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        path, method = scope["path"], scope["method"]
        if method in SAFE_METHODS and _public(path, STATIC):  # files: no session to look up
            scope.setdefault("state", {})["responded"] = True
            await self.app(scope, receive, send)
            return
        session = await to_thread.run_sync(self.accounts.session, _cookie(headers))
        state = scope.setdefault("state", {})
        if session is None:
            state["user"] = None
            if _public(path):
                state["responded"] = True
                await self.app(scope, receive, send)
            elif method in ("GET", "HEAD") and "text/html" in headers.get("accept", "") \
                    and headers.get("hx-request") != "true":
                target = path + (f"?{scope['query_string'].decode('latin-1')}" if scope.get("query_string") else "")
                await _redirect(send, f"/login?next={quote(target, safe='')}")
            else:
                await _refuse(send, 401, "Sign in first: this torchdojo server has accounts (/login).")
            return
        state["user"], state["csrf"] = session.user, session.csrf_token
        if method not in SAFE_METHODS and not _public(path, NO_TOKEN):
            token = headers.get("x-csrf-token")
            if token is None:
                body, receive = await _buffer(receive)
                token = await _form_token(scope, headers, body)
            if token is None or not hmac.compare_digest(token.encode(), session.csrf_token.encode()):
                await _refuse(send, 403, "CSRF token missing or wrong: reload the page and try again.")
                return
        if not _public(path):
            state["learner"] = await to_thread.run_sync(self.learners.get, session.user)
            seen = session.user.last_seen_at
            if seen is None or datetime.now(UTC) - seen > TOUCH_EVERY:  # a write at most every few minutes
                await to_thread.run_sync(self.accounts.touch, session.user.id)
        state["responded"] = True  # from here on the app answers (its own handlers turn outages into 503)
        await self.app(scope, receive, send)


async def _buffer(receive):
    """Read the whole request body; returns (body, a receive that replays it)."""
    chunks, more = [], True
    while more:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            break
        chunks.append(msg.get("body", b""))
        more = msg.get("more_body", False)
    body = b"".join(chunks)
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay


async def _form_token(scope, headers: dict[str, str], body: bytes) -> str | None:
    ctype = headers.get("content-type", "")
    if ctype.startswith("application/x-www-form-urlencoded"):
        got = parse_qs(body.decode("latin-1"), max_num_fields=10_000).get("csrf_token")
        return got[0] if got else None
    if ctype.startswith("multipart/form-data"):
        from starlette.requests import Request as StarletteRequest

        done = False

        async def once():
            nonlocal done
            if done:
                return {"type": "http.disconnect"}
            done = True
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            async with StarletteRequest(scope, once).form() as form:
                value = form.get("csrf_token")
                return value if isinstance(value, str) else None
        except Exception:  # noqa: BLE001 - a malformed body: no token (the route reports the body itself)
            return None
    return None


async def _redirect(send, location: str) -> None:
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", location.encode("latin-1")), (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


# -- pages: sign in, sign up, sign out, users ---------------------------------------------------

router = APIRouter()


def _accounts(request: Request) -> Accounts:
    return request.app.state.accounts


def _limits(request: Request) -> RateLimits:
    return request.app.state.rate_limits


def _safe_next(target: str | None) -> str:
    """Only a path of this site (never ``//evil.example`` or ``https://…``): no open redirect."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _set_cookie(request: Request, response: Response, token: str) -> None:
    secure = request.app.state.dojo.settings.cookie_secure
    if secure is None:
        secure = request.url.scheme == "https"
    from torchdojo.team.accounts import SESSION_DAYS

    response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax", secure=secure,
                        path="/")


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.get("/login", response_class=HTMLResponse, include_in_schema=False)
def login_page(request: Request, next: str | None = None) -> HTMLResponse:
    return templates.TemplateResponse(request, "login.html", {"next": _safe_next(next), "error": None})


def _hash_limiter(request: Request):
    """The capacity limiter password work runs under (argon2id: CPU and 64 MiB per hash): at most
    half the cores at once, in threads of their own. A log-in waiting for its turn waits as a
    coroutine, holding none of the thread pool the other pages run in (a log-in storm at 9:00
    would otherwise take every thread and stall every page)."""
    import os

    from anyio import CapacityLimiter

    got = getattr(request.app.state, "hash_limiter", None)
    if got is None:
        got = request.app.state.hash_limiter = CapacityLimiter(max(1, (os.cpu_count() or 2) // 2))
    return got


@router.post("/login", response_class=HTMLResponse, include_in_schema=False)
async def login(request: Request, email: Annotated[str, Form(max_length=254)] = "",
                password: Annotated[str, Form(max_length=1024)] = "",
                next: Annotated[str, Form(max_length=2000)] = "/"):
    limits, accounts = _limits(request), _accounts(request)
    key, client = (email or "").strip().lower(), _client(request)

    def check() -> None:
        limits.check("login-account", key)
        limits.check("login-client", client)

    def failed() -> None:
        try:
            limits.hit("login-account", key)
            limits.hit("login-client", client)
        except RateLimited:
            pass

    try:
        await to_thread.run_sync(check)
        user = await to_thread.run_sync(accounts.authenticate, email, password, limiter=_hash_limiter(request))
    except RateLimited as e:
        return templates.TemplateResponse(request, "login.html", {"next": _safe_next(next), "error": str(e)},
                                          status_code=429, headers={"Retry-After": str(e.retry_after)})
    except AccountError as e:
        await to_thread.run_sync(failed)
        return templates.TemplateResponse(request, "login.html", {"next": _safe_next(next), "error": str(e)},
                                          status_code=e.status)
    await to_thread.run_sync(limits.reset, "login-account", key)
    token, _session = await to_thread.run_sync(accounts.open_session, user)
    resp = RedirectResponse(_safe_next(next), status_code=303)
    _set_cookie(request, resp, token)
    return resp


@router.post("/logout", include_in_schema=False)
def logout(request: Request):
    _accounts(request).close_session(_cookie(dict(request.headers.items())))
    resp = RedirectResponse("/login", status_code=303)
    resp.delete_cookie(COOKIE, path="/")
    return resp


@router.get("/signup/{token}", response_class=HTMLResponse, include_in_schema=False)
def signup_page(request: Request, token: str) -> HTMLResponse:
    try:
        inv = _accounts(request).invitation(token)
    except AccountError as e:
        return templates.TemplateResponse(request, "error.html", {"title": "Invitation", "detail": str(e)},
                                          status_code=e.status)
    return templates.TemplateResponse(request, "signup.html", {"invitation": inv, "token": token, "error": None})


@router.post("/signup/{token}", response_class=HTMLResponse, include_in_schema=False)
async def signup(request: Request, token: str, password: Annotated[str, Form(max_length=1024)] = "",
                 password2: Annotated[str, Form(max_length=1024)] = "",
                 name: Annotated[str, Form(max_length=120)] = ""):
    accounts = _accounts(request)
    try:
        inv = await to_thread.run_sync(accounts.invitation, token)
    except AccountError as e:
        return templates.TemplateResponse(request, "error.html", {"title": "Invitation", "detail": str(e)},
                                          status_code=e.status)
    try:
        if password != password2:
            raise AccountError("the two passwords differ")
        user = await to_thread.run_sync(accounts.sign_up, token, password, name, limiter=_hash_limiter(request))
    except AccountError as e:
        return templates.TemplateResponse(request, "signup.html", {"invitation": inv, "token": token,
                                                                   "error": str(e)}, status_code=e.status)
    session_token, _ = await to_thread.run_sync(accounts.open_session, user)
    resp = RedirectResponse("/", status_code=303)
    _set_cookie(request, resp, session_token)
    return resp


def _require(request: Request, role: str) -> User:
    from fastapi import HTTPException

    user = request.state.user
    if user is None or (role == "admin" and not user.is_admin) or (role == "coach" and not user.is_coach):
        raise HTTPException(403, f"this page is for the {role}s of this server")
    return user


@router.get("/admin/users", response_class=HTMLResponse)
def users_page(request: Request) -> HTMLResponse:
    """Accounts and invitations (admins)."""
    _require(request, "admin")
    return templates.TemplateResponse(request, "admin_users.html", {"users": _accounts(request).users(),
                                                                    "invited": None, "error": None})


@router.post("/invitations", response_class=HTMLResponse)
def invite(request: Request, email: Annotated[str, Form(max_length=254)],
           role: Annotated[str, Form(max_length=10)] = "learner", cohort: Annotated[str, Form(max_length=60)] = ""):
    """Invite someone (an admin: anyone; a coach: learners to their own cohort). The page shows the
    sign-up link once."""
    user = request.state.user
    if user is None or not user.is_coach:
        from fastapi import HTTPException

        raise HTTPException(403, "only coaches and admins invite")
    accounts = _accounts(request)
    if not user.is_admin:
        cohort = cohort or user.cohort
    try:
        _id, token = accounts.invite(user, email, role, cohort)
        link, error, status = str(request.base_url).rstrip("/") + f"/signup/{token}", None, 201
    except AccountError as e:
        link, error, status = None, str(e), e.status
    page = "admin_users.html" if user.is_admin else "coach_invite.html"
    return templates.TemplateResponse(request, page, {"users": accounts.users() if user.is_admin else [],
                                                      "invited": link, "error": error}, status_code=status)
