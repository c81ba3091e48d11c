"""Peer mock interviews in the browser (team mode with accounts; see :mod:`torchdojo.team.peer`).

- ``GET /peer``: your peer mocks, and a form to start one with a partner from your cohort.
- ``POST /peer``: start one (you ask first); then ``/peer/<id>``.
- ``GET /peer/<id>``: the stage, who asks now, for the interviewer a link to their
  ``/interview/<id>`` sheet (their own store), "Swap" once the first half is final, "Finish"
  once the second is, and links to both scorecards (each in the viewer's own store: the one they
  marked and the copy of the one they received).
- ``POST /peer/<id>/swap`` and ``POST /peer/<id>/finish``.

Peer mocks are server-wide rows, not in a learner store: every route names the signed-in user
to :class:`~torchdojo.team.peer.PeerMocks`, which answers 404 unless they are one of the two
participants. Forms are POST with the session's CSRF token (a hidden field here, and
``static/csrf.js``). Included by :func:`torchdojo.web.app.create_app` only with accounts on.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from torchdojo.bank.taxonomy import TOPICS
from torchdojo.practice.interviews import MAX_COUNT
from torchdojo.team.peer import PeerError, PeerMocks
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import DbId

router = APIRouter()

#: Messages a page can show after a redirect (``?msg=``); never reflect free text.
MESSAGES = {"started": "Peer mock started: you ask first. Open your interview sheet below.",
            "swapped": "Roles swapped: your partner now asks you.",
            "finished": "Peer mock finished: both scorecards are kept, each of you has both."}


def peer_mocks(request: Request) -> PeerMocks:
    """The app's :class:`PeerMocks` (made on first use)."""
    return peer_mocks_of(request.app)


def peer_mocks_of(app) -> PeerMocks:
    """``app``'s :class:`PeerMocks` over its server database and learner stores (made on first use)."""
    pm = getattr(app.state, "peer_mocks", None)
    if pm is None:
        pm = app.state.peer_mocks = PeerMocks(app.state.dojo.sessions, app.state.accounts,
                                              lambda u: app.state.learners.get(u).dojo)
    return pm


def _user(request: Request):
    user = getattr(request.state, "user", None)
    if user is None:
        raise HTTPException(401, "sign in first")
    return user


def _error(request: Request, e: PeerError) -> HTMLResponse:
    title = {404: "Not found", 409: "Not now"}.get(e.status, "Peer mock not started")
    return templates.TemplateResponse(request, "error.html", {"title": title, "detail": str(e)}, status_code=e.status)


def _list_ctx(request: Request, user, error: str | None = None, form: dict | None = None) -> dict:
    pm = peer_mocks(request)
    return {"mocks": pm.list(user), "partners": pm.partners(user), "user": user, "error": error,
            "form": form or {"partner": "", "level": "mid", "topics": [], "count": ""},
            "topics": TOPICS, "max_count": MAX_COUNT}


@router.get("/peer", response_class=HTMLResponse)
def peer_list(request: Request):
    user = _user(request)
    return templates.TemplateResponse(request, "peer.html", _list_ctx(request, user))


@router.post("/peer", response_class=HTMLResponse)
def peer_start(request: Request, partner: Annotated[str, Form(max_length=20)] = "",
               level: Annotated[str, Form(max_length=20)] = "mid",
               topics: Annotated[list[str] | None, Form()] = None,
               count: Annotated[str, Form(max_length=10)] = ""):
    """Start a peer mock with ``partner`` (a user id of your cohort): 303 to its page; 400/422
    with the form and a message when it cannot start."""
    user = _user(request)
    topics = topics or []
    form = {"partner": partner, "level": level, "topics": topics, "count": count}
    try:
        try:
            partner_id = int(partner)
        except ValueError:
            raise PeerError("choose your partner from the other members of your cohort") from None
        n = None
        if count.strip():
            try:
                n = int(count)
            except ValueError:
                raise PeerError(f"the number of questions must be a number, not '{count.strip()[:10]}'", 422) from None
        got = peer_mocks(request).start(user, partner_id, level, topics, n)
    except PeerError as e:
        return templates.TemplateResponse(request, "peer.html", _list_ctx(request, user, str(e), form),
                                          status_code=e.status)
    return RedirectResponse(f"/peer/{got.id}?msg=started", status_code=303)


@router.get("/peer/{peer_id}", response_class=HTMLResponse)
def peer_page(request: Request, peer_id: DbId, msg: str | None = None):
    user = _user(request)
    try:
        pm = peer_mocks(request).refresh(peer_id, user)  # a half finalised since: its copy reaches the candidate
    except PeerError as e:
        return _error(request, e)
    own = peer_mocks(request).dojo_of(user).interviews
    own_id, got_id = pm.own_interview_id(user), pm.received_id(user)

    def status(iid):
        try:
            return own.get(iid) if iid is not None else None
        except Exception:  # noqa: BLE001 - a missing interview shows as not started
            return None

    mine = status(own_id)
    half_a_final = pm.a_copy_id is not None
    half_b_final = pm.b_copy_id is not None
    return templates.TemplateResponse(request, "peer_mock.html", {
        "pm": pm, "user": user, "partner": pm.partner_of(user), "role": pm.role_of(user),
        "mine": mine, "received": status(got_id), "own_id": own_id, "received_id": got_id,
        "can_swap": pm.stage == "a-asks" and half_a_final, "can_finish": pm.stage == "b-asks" and half_b_final,
        "message": MESSAGES.get(msg or ""), "TOPICS": TOPICS,
    })


@router.post("/peer/{peer_id}/swap")
def peer_swap(request: Request, peer_id: DbId):
    """Swap roles once the first half is final (404 not yours, 409 not yet / already)."""
    user = _user(request)
    try:
        peer_mocks(request).swap(peer_id, user)
    except PeerError as e:
        return _error(request, e)
    return RedirectResponse(f"/peer/{peer_id}?msg=swapped", status_code=303)


@router.post("/peer/{peer_id}/finish")
def peer_finish(request: Request, peer_id: DbId):
    """Finish once the second half is final (404 not yours, 409 not yet / already)."""
    user = _user(request)
    try:
        peer_mocks(request).finish(peer_id, user)
    except PeerError as e:
        return _error(request, e)
    return RedirectResponse(f"/peer/{peer_id}?msg=finished", status_code=303)
