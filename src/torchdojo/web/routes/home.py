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
    progress = d.flashcards.progress()
    due_reviews, new = d.flashcards.due_split()
    verified = sum(1 for e in d.bank if (v := d.verification(e)) and v.current)
    ctx = {
        "progress": progress,
        "due_now": due_reviews + new,
        "due_reviews": due_reviews,
        "entries": len(d.bank),
        "verified": verified,
        "levels": {lv: sum(1 for e in d.bank if e.meta.level == lv) for lv in ("junior", "mid", "senior")},
    }
    return templates.TemplateResponse(request, "home.html", ctx)
