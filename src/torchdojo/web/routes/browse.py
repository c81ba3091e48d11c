"""Browse and search: filters by level, topic and type; hybrid search (BM25 + meaning), ranked; paged."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from torchdojo.practice.flashcards import FilterError, Filters
from torchdojo.practice.paging import PageOutOfRange, paginate
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo, filters, is_htmx

router = APIRouter()


@router.get("/questions", response_class=HTMLResponse)
def browse(request: Request, q: str = "", level: str | None = None, topic: str | None = None,
           type: str | None = None, page: int = Query(1, ge=1, le=100_000, description="page number, from 1")):
    """The questions list, :data:`~torchdojo.practice.paging.PER_PAGE` a page. An unknown filter
    value: 400, the page says which values are allowed. A page past the end: 404 naming the last."""
    name = "partials/results.html" if is_htmx(request) else "browse.html"
    try:
        f = filters(level, topic, type)
    except FilterError as e:
        ctx = {"results": paginate([]), "q": q, "f": Filters(), "filter_error": str(e), "page_url": None}
        return templates.TemplateResponse(request, name, ctx, status_code=400)
    d = dojo(request)
    did_you_mean, mode = None, None
    if q.strip():
        grader = getattr(request.app.state, "grader", None)
        dense = grader.dense_search if grader is not None and d.settings.search_dense else None
        rows, found = d.search(q[:200], f, dense)
        did_you_mean, mode = found.did_you_mean, (found.mode if dense else None)
    else:
        rows = d.browse("", f)
    try:
        results = paginate(rows, page)
    except PageOutOfRange as e:
        last = _page_url(q, f, e.pages)
        raise HTTPException(404, f"{e} The last page is {last}") from None
    ctx = {"results": results, "q": q, "f": f, "page_url": lambda n: _page_url(q, f, n),
           "did_you_mean": did_you_mean, "search_mode": mode}
    return templates.TemplateResponse(request, name, ctx)


def _page_url(q: str, f: Filters, number: int) -> str:
    """The address of page ``number`` of this list: the query and filters kept."""
    params = {k: v for k, v in (("q", q), ("level", f.level), ("topic", f.topic), ("type", f.type)) if v}
    if number > 1:
        params["page"] = str(number)
    return "/questions" + (f"?{urlencode(params)}" if params else "")
