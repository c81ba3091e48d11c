"""Home: what is due, progress per topic, where to start."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
def home(request: Request):
    d = dojo(request)
    progress, due_reviews, new = d.flashcards.overview()  # one read of the cards
    ctx = {
        "progress": progress,
        "due_now": due_reviews + new,
        "due_reviews": due_reviews,
        "entries": len(d.bank),
        "verified": d.verified_count,  # computed once at start
        "levels": d.level_counts,
    }
    return templates.TemplateResponse(request, "home.html", ctx)
