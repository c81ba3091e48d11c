"""One question: the full answer, key points, mistakes, follow-ups, sources, card state."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo

router = APIRouter()


@router.get("/questions/{entry_id}", response_class=HTMLResponse)
def question(request: Request, entry_id: str):
    d = dojo(request)
    entry = d.bank.get(entry_id)
    if entry is None:
        raise HTTPException(404, f"There is no question with id '{entry_id}'. Search the bank instead.")
    ctx = {
        "e": entry,
        "m": entry.meta,
        "verification": d.verification(entry),
        "card": d.flashcards.status(entry.id),
        "bank": d.bank,
    }
    return templates.TemplateResponse(request, "question.html", ctx)
