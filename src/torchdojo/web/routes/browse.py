"""Browse and search: filters by level, topic and type; hybrid search (BM25 + meaning), ranked."""

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
    d = dojo(request)
    did_you_mean, mode = None, None
    if q.strip():
        grader = getattr(request.app.state, "grader", None)
        dense = grader.dense_search if grader is not None and d.settings.search_dense else None
        results, found = d.search(q[:200], f, dense)
        did_you_mean, mode = found.did_you_mean, found.mode
    else:
        results = d.browse("", f)
    ctx = {"results": results, "q": q, "f": f, "did_you_mean": did_you_mean, "search_mode": mode}
    name = "partials/results.html" if is_htmx(request) else "browse.html"
    return templates.TemplateResponse(request, name, ctx)
