"""The review session: one card at a time, reveal, rate Again/Hard/Good/Easy (FSRS).

Works with HTMX (fragments swapped in place) and without JavaScript (plain forms and
redirects). The time shown-to-rated is measured server-side from a hidden timestamp.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

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


@router.get("/review", response_class=HTMLResponse)
def review(request: Request, level: str | None = None, topic: str | None = None, type: str | None = None):
    ctx = _card_ctx(request, filters(level, topic, type), reveal=False)
    return templates.TemplateResponse(request, "review.html", ctx)


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
