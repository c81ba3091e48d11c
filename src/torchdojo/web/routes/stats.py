"""Statistics: reviews and time per day, forecast, true retention, per topic, heat map, mock
scores, challenges (definitions: :mod:`torchdojo.practice.stats`). Charts are inline SVG drawn
by the template (``partials/stats_charts.html``), each with a table equivalent."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from torchdojo.practice.stats import MAX_DAYS
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo

router = APIRouter()

#: The windows offered in the page's selector (any 1–365 is accepted in the address).
DAY_CHOICES = (7, 30, 90, 365)


@router.get("/stats", response_class=HTMLResponse)
def stats(request: Request, days: int = Query(30, ge=1, le=MAX_DAYS, description="days of reviews per day to show (1–365)")):
    st = dojo(request).stats(days=days)
    reviews = [(f"{d.day:%b} {d.day.day}", d.reviews, d.day.isoformat(), i == len(st.activity.days) - 1)
               for i, d in enumerate(st.activity.days)]
    forecast = [("today" if d.offset == 0 else f"{d.day:%b} {d.day.day}", d.due,
                 d.day.isoformat() + (" (today, overdue included)" if d.offset == 0 else ""), d.offset == 0)
                for d in st.forecast.days]
    return templates.TemplateResponse(request, "stats.html", {"st": st, "days": days, "choices": DAY_CHOICES,
                                                              "review_bars": reviews, "forecast_bars": forecast})
