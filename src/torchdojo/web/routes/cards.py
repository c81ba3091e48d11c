"""The card browser (``/cards``), own cards (new, edit, delete) and notes and bookmarks on any card.

Thin over the core: :func:`torchdojo.practice.card_browser.list_cards`,
:class:`torchdojo.practice.own_cards.OwnCards`, :class:`torchdojo.practice.notes.Notes`.
Filters are a GET form; an invalid value is a 400 that names it. Every POST passes the app's
Origin / Sec-Fetch-Site guard (:mod:`torchdojo.web.security`). Works without JavaScript (forms and
redirects); HTMX swaps the note box in place.
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from markupsafe import escape

from torchdojo.practice.card_browser import SORTS, STATES, CardQueryError, parse_query
from torchdojo.practice.flashcards import split_card_id
from torchdojo.practice.notes import MAX_NOTE_CHARS, NoteError, UnknownCardError
from torchdojo.practice.own_cards import (
    MAX_BACK_CHARS,
    MAX_FRONT_CHARS,
    MAX_KEY_POINTS,
    OwnCard,
    OwnCardError,
    UnknownOwnCardError,
    is_own_id,
)
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import DbId, dojo, is_htmx

router = APIRouter()

_QUERY_KEYS = ("q", "topic", "level", "state", "bookmarked", "own", "sort", "order", "page")


def card_page_url(card_id: str) -> str:
    """Where a card is shown: an own card's page, or its bank entry's question page."""
    if is_own_id(card_id):
        return f"/cards/{card_id.replace(':', '/', 1)}"
    return f"/questions/{split_card_id(card_id)[0]}"


templates.env.globals["card_page_url"] = card_page_url


@router.get("/cards", response_class=HTMLResponse)
def cards(request: Request):
    """The browser: every card, filtered (GET form), sorted (column links) and paged (50)."""
    params = {k: request.query_params.get(k) for k in _QUERY_KEYS}
    ctx = {"params": {k: v or "" for k, v in params.items()}, "STATES": STATES, "SORTS": SORTS, "error": None,
           "page": None, "urlencode": urlencode}
    try:
        query = parse_query(params)
        ctx["query"] = query
        ctx["page"] = dojo(request).cards(query)
    except CardQueryError as e:
        ctx["error"] = str(e)
        return templates.TemplateResponse(request, "cards.html", ctx, status_code=400)
    return templates.TemplateResponse(request, "cards.html", ctx)


def _key_points(raw: str) -> list[str]:
    return [line for line in raw.splitlines() if line.strip()]


def _form_ctx(card: OwnCard | None = None, **extra) -> dict:
    values = {"front": card.front if card else "", "back": card.back if card else "",
              "key_points": "\n".join(card.key_points) if card else "", "topic": card.topic or "" if card else "",
              "level": card.level or "" if card else ""}
    return {"card": card, "values": values, "error": None, "limits": {
        "front": MAX_FRONT_CHARS, "back": MAX_BACK_CHARS, "key_points": MAX_KEY_POINTS}, **extra}


@router.get("/cards/new", response_class=HTMLResponse)
def new_card(request: Request):
    return templates.TemplateResponse(request, "own_card.html", _form_ctx())


@router.post("/cards/new", response_class=HTMLResponse)
def create_card(request: Request, front: str = Form(""), back: str = Form(""), key_points: str = Form(""),
                topic: str = Form(""), level: str = Form("")):
    """Save a new own card, then show it; an invalid field is a 422 with the form kept as typed."""
    try:
        card = dojo(request).own_cards.create(front, back, _key_points(key_points), topic, level)
    except OwnCardError as e:
        ctx = _form_ctx(error=str(e))
        ctx["values"] = {"front": front, "back": back, "key_points": key_points, "topic": topic, "level": level}
        return templates.TemplateResponse(request, "own_card.html", ctx, status_code=422)
    return RedirectResponse(f"/cards/own/{card.id}?created=1", status_code=303)


def _own(request: Request, card_id: int) -> OwnCard:
    try:
        return dojo(request).own_cards.get(card_id)
    except UnknownOwnCardError as e:
        raise HTTPException(404, f"There is no own card 'own:{card_id}'.") from e


@router.get("/cards/own/{card_id}", response_class=HTMLResponse)
def own_card(request: Request, card_id: DbId, created: bool = False, saved: bool = False):
    """An own card: its front and back, its schedule, its note, and the form that edits it."""
    card = _own(request, card_id)
    d = dojo(request)
    ctx = _form_ctx(card, status=d.flashcards.status(card.card_id), note=d.notes.get(card.card_id),
                    note_card_id=card.card_id, flash="Card saved." if created or saved else None)
    return templates.TemplateResponse(request, "own_card.html", ctx)


@router.post("/cards/own/{card_id}", response_class=HTMLResponse)
def edit_card(request: Request, card_id: DbId, front: str = Form(""), back: str = Form(""),
              key_points: str = Form(""), topic: str = Form(""), level: str = Form("")):
    """Replace an own card's fields (its schedule and review log are kept)."""
    card = _own(request, card_id)
    try:
        dojo(request).own_cards.update(card_id, front, back, _key_points(key_points), topic, level)
    except OwnCardError as e:
        d = dojo(request)
        ctx = _form_ctx(card, error=str(e), status=d.flashcards.status(card.card_id), note=d.notes.get(card.card_id),
                        note_card_id=card.card_id)
        ctx["values"] = {"front": front, "back": back, "key_points": key_points, "topic": topic, "level": level}
        return templates.TemplateResponse(request, "own_card.html", ctx, status_code=422)
    return RedirectResponse(f"/cards/own/{card_id}?saved=1", status_code=303)


def own_page(request: Request, card_id: int, status_code: int = 200, **extra):
    """An own card's page (card, note, practice form, edit form) with ``extra`` in its context."""
    card = _own(request, card_id)
    d = dojo(request)
    ctx = _form_ctx(card, status=d.flashcards.status(card.card_id), note=d.notes.get(card.card_id),
                    note_card_id=card.card_id, **extra)
    return templates.TemplateResponse(request, "own_card.html", ctx, status_code=status_code)


@router.post("/cards/own/{card_id}/answer", response_class=HTMLResponse)
def practise_own(request: Request, card_id: DbId, answer: str = Form("")):
    """Grade an answer to an own card on its key points (in the grader's worker, as for bank
    questions) and open its scorecard. HTMX: the feedback fragment; otherwise the card's page
    with it. No key points: 422 (nothing to grade on). Over the practice form's limit: 422."""
    from torchdojo.web.routes.question import MAX_ANSWER_CHARS, _grade, _practice_view

    card = _own(request, card_id)
    d = dojo(request)
    error = None
    if not card.key_points:
        error = "This card has no key points, so answers to it cannot be graded: add key points below."
    elif len(answer) > MAX_ANSWER_CHARS:
        error = (f"Your answer is {len(answer):,} characters long; the most that can be graded is "
                 f"{MAX_ANSWER_CHARS:,}. Shorten it and try again.")
    if error:
        if is_htmx(request):
            return HTMLResponse(f'<p class="bad" role="alert" id="practice-error">{escape(error)}</p>', status_code=422)
        return own_page(request, card_id, 422, practice_error=error, answer=answer)
    entry = card.as_entry()
    if d.settings.broker_url and answer.strip():  # team mode: stored now, a worker grades it
        from torchdojo.web.routes.question import _queue_answer

        return _queue_answer(request, entry, answer, None, None, None, None,
                             page=lambda ctx: own_page(request, card_id, 202, practice_pending=ctx, answer=answer))
    fb, was_loading = _grade(request, entry, answer)
    view = _practice_view(entry, answer, fb, was_loading)
    if answer.strip():
        sid = d.scorecards.create(entry.id, answer, fb, context="practice")
        view["sc"] = d.scorecards.get(sid)
        view["back"] = f"/cards/own/{card_id}#practice"
        view["is_follow_up"] = False
    if is_htmx(request):
        return templates.TemplateResponse(request, "partials/feedback.html", view)
    return own_page(request, card_id, practice=view, answer=answer)


@router.get("/cards/own/{card_id}/delete", response_class=HTMLResponse)
def confirm_delete(request: Request, card_id: DbId):
    """Ask first: deleting removes the card, its schedule and its review log."""
    card = _own(request, card_id)
    reviews = len(dojo(request).flashcards.history([card.card_id]))
    return templates.TemplateResponse(request, "own_card_delete.html", {"card": card, "reviews": reviews})


@router.post("/cards/own/{card_id}/delete")
def delete_card(request: Request, card_id: DbId, confirm: str = Form("")):
    """Delete an own card with its schedule, review log and note; needs ``confirm=yes``."""
    if confirm != "yes":
        raise HTTPException(422, "Deleting a card needs confirmation (confirm=yes).")
    try:
        dojo(request).own_cards.delete(card_id)
    except UnknownOwnCardError as e:
        raise HTTPException(404, f"There is no own card 'own:{card_id}'.") from e
    return RedirectResponse("/cards?own=1", status_code=303)


# -- notes and bookmarks ------------------------------------------------------------------------
def _note_response(request: Request, card_id: str, saved: str | None, status_code: int = 200, error: str | None = None,
                   text: str | None = None):
    d = dojo(request)
    note = d.notes.get(card_id)
    if is_htmx(request):
        ctx = {"note": note, "note_card_id": card_id, "note_saved": saved, "note_error": error, "note_text": text}
        return templates.TemplateResponse(request, "partials/note.html", ctx, status_code=status_code)
    if error:
        return templates.TemplateResponse(request, "error.html", {"title": "Note not saved", "detail": error},
                                          status_code=status_code)
    return RedirectResponse(card_page_url(card_id) + "#note-box", status_code=303)


@router.post("/notes", response_class=HTMLResponse)
def save_note(request: Request, card_id: str = Form(..., max_length=80), text: str = Form("")):
    """Save (or, with an empty text, clear) the note on a card."""
    try:
        dojo(request).notes.save(card_id, text)
    except UnknownCardError as e:
        raise HTTPException(404, f"There is no card '{card_id}'.") from e
    except NoteError as e:
        return _note_response(request, card_id, None, 422, str(e), text)
    return _note_response(request, card_id, "Note saved." if text.strip() else "Note cleared.")


@router.post("/notes/bookmark", response_class=HTMLResponse)
def toggle_bookmark(request: Request, card_id: str = Form(..., max_length=80)):
    """Bookmark the card, or remove its bookmark."""
    try:
        note = dojo(request).notes.toggle_bookmark(card_id)
    except UnknownCardError as e:
        raise HTTPException(404, f"There is no card '{card_id}'.") from e
    return _note_response(request, card_id, "Bookmarked." if note.bookmarked else "Bookmark removed.")


__all__ = ["MAX_NOTE_CHARS", "router"]
