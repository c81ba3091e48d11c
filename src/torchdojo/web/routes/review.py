"""The review session: one card at a time, reveal, rate Again/Hard/Good/Easy (FSRS).

Works with HTMX (fragments swapped in place) and without JavaScript (plain forms and
redirects). The time shown-to-rated is measured server-side from a hidden timestamp.
Undo (``u`` or Ctrl+Z) removes the latest rating and shows that card again; Bury (``-``) and
Suspend (``!``) take the card out of the queue (until tomorrow / until unsuspended on /settings).
"""

from __future__ import annotations

import time
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from torchdojo.practice.flashcards import RATINGS, CardChangedError, Filters, UnknownEntryError
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo, filters, is_htmx

router = APIRouter()


def _qs(f: Filters) -> str:
    return urlencode({k: v for k, v in (("level", f.level), ("topic", f.topic), ("type", f.type)) if v})


def _card_ctx(request: Request, f: Filters, reveal: bool, card_id: str | None = None) -> dict:
    """The card to show: ``card_id`` (an entry id, or ``<entry>#<key point>`` for a key-point
    card made from a mock interview) or the head of the queue."""
    d = dojo(request)
    queue = d.flashcards.queue(f)
    if card_id is None:
        card_id = queue[0] if queue else None
    entry, kp = d.flashcards.card(card_id) if card_id else (None, None)
    ctx = {
        "can_undo": d.flashcards.review_count() > 0,
        "f": f,
        "qs": _qs(f),
        "entry": entry,
        "kp": kp,
        "card_id": card_id,
        "remaining": len(queue),
        "reveal": reveal,
        "shown_at": int(time.time() * 1000),
        "reviewed_today": _reviewed_today(d),
    }
    if entry is not None:
        ctx["m"] = entry.meta
        ctx["status"] = d.flashcards.status(card_id)
        ctx["note"], ctx["note_card_id"] = d.notes.get(card_id), card_id
        ctx["own"] = card_id.startswith("own:")
        if kp is not None:
            ctx["prompt"] = _kp_prompt(d, entry, kp)
        if reveal:
            ctx["preview"] = d.flashcards.preview(card_id)
    return ctx


def _kp_prompt(d, entry, kp) -> str:
    """The question a key-point card asks: a follow-up of the entry that probes this key point
    (its text, or the linked entry's title), else a plain recall prompt."""
    for fu in entry.meta.follow_ups:
        if kp.id in fu.probes:
            if fu.text:
                return fu.text
            ref = d.bank.get(fu.ref) if fu.ref else None
            if ref is not None:
                return ref.meta.title
    return f"Recall the key point about: {entry.meta.title}"


def _reviewed_today(d) -> int:
    from datetime import UTC, datetime

    return d.flashcards.reviews_since(datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0))


#: What the page says after an action, for a browser without JavaScript (``?done=`` after the redirect).
_DONE = {
    **{f"undone-{n}": f"Undone: {n.capitalize()}. Here is the card again." for n in RATINGS},
    "nothing": "Nothing to undo.",
    "buried": "Buried until the next midnight UTC.",
    "suspended": "Suspended: unsuspend it on the Settings page.",
}


@router.get("/review", response_class=HTMLResponse)
def review(request: Request, level: str | None = None, topic: str | None = None, type: str | None = None,
           card: str | None = Query(None, max_length=200), done: str | None = Query(None, max_length=20)):
    """The queue's head, or ``card`` (a card id: where Undo sends a browser without JavaScript)."""
    if card is not None:
        try:
            dojo(request).flashcards.card(card)
        except UnknownEntryError:
            card = None
    ctx = _card_ctx(request, filters(level, topic, type), reveal=False, card_id=card)
    if done in _DONE:
        ctx["notice"] = _DONE[done]
    return templates.TemplateResponse(request, "review.html", ctx)


def _after_action(request: Request, f: Filters, notice: str, done: str, card_id: str | None = None):
    """The page (or HTMX fragment) after undo / bury / suspend: ``card_id`` or the queue's head."""
    if not is_htmx(request):
        extra = f"&card={quote(card_id, safe='')}" if card_id else ""
        return RedirectResponse(f"/review?{_qs(f)}&done={done}{extra}", status_code=303)
    ctx = _card_ctx(request, f, reveal=False, card_id=card_id)
    ctx["notice"] = notice
    return templates.TemplateResponse(request, "partials/card.html", ctx)


@router.post("/review/undo", response_class=HTMLResponse)
def undo(request: Request, level: str | None = Form(None), topic: str | None = Form(None), type: str | None = Form(None)):
    """Undo the most recent rating (of any card) and show that card again."""
    f = filters(level, topic, type)
    d = dojo(request)
    undone = d.flashcards.undo()
    if undone is None:
        return _after_action(request, f, _DONE["nothing"], "nothing")
    name = {1: "again", 2: "hard", 3: "good", 4: "easy"}[undone.rating]
    try:
        d.flashcards.card(undone.card_id)
    except UnknownEntryError:  # its entry left the bank: undone, but it cannot be shown
        return _after_action(request, f, f"Undone: {name.capitalize()} on {undone.card_id}.", f"undone-{name}")
    return _after_action(request, f, _DONE[f"undone-{name}"], f"undone-{name}", undone.card_id)


@router.post("/review/{entry_id}/bury", response_class=HTMLResponse)
def bury(request: Request, entry_id: str, level: str | None = Form(None), topic: str | None = Form(None),
         type: str | None = Form(None)):
    """Out of the queue until the next midnight UTC."""
    try:
        until = dojo(request).flashcards.bury(entry_id)
    except UnknownEntryError as e:
        raise HTTPException(404, f"There is no question with id '{entry_id}'.") from e
    return _after_action(request, filters(level, topic, type), f"Buried until {until:%Y-%m-%d %H:%M} UTC.", "buried")


@router.post("/review/{entry_id}/suspend", response_class=HTMLResponse)
def suspend(request: Request, entry_id: str, level: str | None = Form(None), topic: str | None = Form(None),
            type: str | None = Form(None)):
    """Out of the queue until unsuspended (on /settings)."""
    try:
        dojo(request).flashcards.suspend(entry_id)
    except UnknownEntryError as e:
        raise HTTPException(404, f"There is no question with id '{entry_id}'.") from e
    return _after_action(request, filters(level, topic, type), _DONE["suspended"], "suspended")


@router.get("/review/{entry_id}/answer", response_class=HTMLResponse)
def reveal(
    request: Request,
    entry_id: str,
    shown_at: int = Query(0, ge=0, le=2**53),
    level: str | None = None,
    topic: str | None = None,
    type: str | None = None,
):
    """``entry_id`` is a card id: an entry id or ``<entry>#<key point>`` (URL-encoded '#')."""
    f = filters(level, topic, type)
    try:
        dojo(request).flashcards.card(entry_id)
    except UnknownEntryError as e:
        raise HTTPException(404, f"There is no question with id '{entry_id}'.") from e
    ctx = _card_ctx(request, f, reveal=True, card_id=entry_id)
    ctx["shown_at"] = shown_at or ctx["shown_at"]
    name = "partials/card.html" if is_htmx(request) else "review.html"
    return templates.TemplateResponse(request, name, ctx)


@router.post("/review/{entry_id}", response_class=HTMLResponse)
def rate(
    request: Request,
    entry_id: str,
    rating: str = Form(...),
    shown_at: int = Form(0, ge=0, le=2**53),
    seen: str | None = Form(None, max_length=64),
    level: str | None = Form(None),
    topic: str | None = Form(None),
    type: str | None = Form(None),
):
    f = filters(level, topic, type)
    if rating.lower() not in RATINGS:
        raise HTTPException(422, f"Unknown rating '{rating}': use again, hard, good or easy.")
    duration = int(time.time() * 1000) - shown_at if shown_at else None
    if duration is not None and not 0 <= duration <= 86_400_000:
        duration = None
    notice = None
    try:
        dojo(request).flashcards.review(entry_id, rating, duration_ms=duration, seen=seen)
    except UnknownEntryError as e:
        raise HTTPException(404, f"There is no question with id '{entry_id}'.") from e
    except CardChangedError as e:
        # Another tab (or `torchdojo study`) rated this card after this page showed it: the
        # rating is refused, never merged, and the queue's current head is shown instead.
        notice = f"Not recorded: {e} (another window?). Here is the next card."
    if not is_htmx(request):
        if notice:
            ctx = _card_ctx(request, f, reveal=False)
            ctx["notice"] = notice
            return templates.TemplateResponse(request, "review.html", ctx, status_code=409)
        return RedirectResponse(f"/review?{_qs(f)}", status_code=303)
    ctx = _card_ctx(request, f, reveal=False)
    if notice:
        ctx["notice"] = notice
    else:
        ctx["just_rated"] = rating.lower()
    return templates.TemplateResponse(request, "partials/card.html", ctx)
