"""Browse and search: filters by level, topic and type; FTS5 full-text search, ranked."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo, filters, is_htmx

router = APIRouter()


@router.get("/questions", response_class=HTMLResponse)
def browse(request: Request, q: str = "", level: str | None = None, topic: str | None = None,
           type: str | None = None):
    f = filters(level, topic, type)
    results = dojo(request).browse(q[:200], f)
    ctx = {"results": results, "q": q, "f": f}
    name = "partials/results.html" if is_htmx(request) else "browse.html"
    return templates.TemplateResponse(request, name, ctx)
