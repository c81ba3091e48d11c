"""The statistics page in real Chromium against a real server: its numbers equal what direct SQL
on the same SQLite file says. The server uses the real clock, so reviews are seeded relative to
the real time and every expected number is computed from the page's own "now" (data-now)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from torchdojo.store.models import CardRow, MockRow, SubmissionRow

pytestmark = pytest.mark.browser

A, B = "advanced-indexing-views-copies", "backprop-chain-rule"
M = timedelta(minutes=10)


def _utc(text: str) -> datetime:
    """A naive UTC datetime as SQLite stores it, made aware."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _seed(dojo) -> None:
    now = datetime.now(UTC)
    r = dojo.flashcards.review
    # A: two learning steps, then Again in the Review state (a young Again). B: a young pass.
    t = now - timedelta(days=3)
    r(A, "good", now=t, duration_ms=60_000)
    r(A, "good", now=t + M)
    r(A, "again", now=t + 2 * M, duration_ms=30_000)
    t = now - timedelta(days=2)
    r(B, "good", now=t)
    r(B, "good", now=t + M)
    r(B, "good", now=t + 2 * M, duration_ms=45_000)
    kps = ["view-never-copies", "view-raises-when-incompatible", "reshape-view-or-copy", "contiguous-definition",
           "contiguous-copies-only-if-needed"]
    with dojo.sessions.begin() as s:
        # key-point cards (never reviewed) due 12 h ago (overdue), in 12 h, 1, 1.5, 2 and 40 days
        for kp, due in zip(kps, (now - timedelta(hours=12), *(now + timedelta(days=d) for d in (0.5, 1, 1.5, 2, 40))),
                           strict=False):
            s.add(CardRow(question_id=f"view-reshape-contiguous#{kp}", state=2, step=None, stability=4.0, difficulty=5.0,
                          due=due, last_review=due - timedelta(days=4), created_at=now - timedelta(days=4)))
        s.add(MockRow(level="mid", minutes=30, config="{}", status="graded", started_at=now - timedelta(days=1),
                      deadline=now - timedelta(days=1) + timedelta(minutes=30), finished_at=now - timedelta(days=1),
                      score=72.0))
        for cid, mode, verdict in (("layer-norm", "submit", "Accepted"), ("stable-softmax", "run", "Wrong Answer")):
            s.add(SubmissionRow(challenge_id=cid, mode=mode, code="", verdict=verdict, report="{}", backend="test",
                                created_at=now - timedelta(days=1)))


def test_stats_page_numbers_match_the_database(server, browser, dojo, db_url):
    _seed(dojo)
    page = browser.new_page()
    page.goto(server.url + "/")
    page.get_by_role("link", name="Stats", exact=True).click()
    expect(page.locator("h1")).to_have_text("Statistics")
    now = datetime.fromisoformat(page.locator("#stats-head").get_attribute("data-now"))
    today = now.date()
    day0 = datetime(today.year, today.month, today.day, tzinfo=UTC)

    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    logs = [(_utc(t), rating) for t, rating in con.execute("SELECT reviewed_at, rating FROM review_logs")]
    cards = [(_utc(d), bool(susp)) for d, susp in con.execute("SELECT due, suspended FROM cards")]
    solved = con.execute("SELECT count(DISTINCT challenge_id) FROM submissions WHERE mode = 'submit' "
                         "AND verdict = 'Accepted'").fetchone()[0]
    con.close()

    # reviews: today and the last 7 UTC days, as SQL counts them
    last7 = sum(1 for t, _ in logs if day0 - timedelta(days=6) <= t <= now)
    assert last7 == 6
    expect(page.locator("#stat-reviews-7d")).to_have_text(str(last7))
    expect(page.locator("#stat-reviews-today")).to_have_text(str(sum(1 for t, _ in logs if day0 <= t <= now)))
    expect(page.locator("#stat-minutes")).to_have_text("2.2 min")  # 60 + 30 + 45 s
    expect(page.locator("#stat-untimed")).to_have_text("3")

    # forecast: day 0 includes the overdue card; tomorrow is the next UTC day
    due_on = [(d.date() - today).days for d, susp in cards if not susp]
    expect(page.locator("#stat-due-today")).to_have_text(str(sum(1 for o in due_on if o <= 0)))
    expect(page.locator("#stat-overdue")).to_have_text(str(sum(1 for d, _ in cards if d < day0)))
    expect(page.locator("#stat-due-tomorrow")).to_have_text(str(sum(1 for o in due_on if o == 1)))
    expect(page.locator("#forecast-table tr[data-offset='1'] td.num")).to_have_text(str(sum(1 for o in due_on if o == 1)))

    # true retention: the only Review-state reviews are A's Again and B's Good (young): 50%
    assert sum(1 for _, rating in logs if rating == 1) == 1
    expect(page.locator("#ret-30-young")).to_have_text("50.0%")
    expect(page.locator("#ret-30-young-n")).to_have_text("2")
    expect(page.locator("#ret-all-mature")).to_have_text("—")
    expect(page.locator("#ret-all-mature-n")).to_have_text("0")

    # heat map: one coloured cell per day with reviews
    days_with_reviews = {t.date() for t, _ in logs}
    expect(page.locator("#chart-heat rect[data-reviews]:not(.heat-0)")).to_have_count(len(days_with_reviews))
    expect(page.locator("#stat-year-reviews")).to_have_text(str(len(logs)))

    # per topic, mocks, challenges
    # learned = cards with a review (A); the key-point cards above were never reviewed
    reviewed = {cid for (cid,) in sqlite3.connect(db_url.removeprefix("sqlite:///")).execute(
        "SELECT DISTINCT question_id FROM review_logs")}
    tensors = sum(1 for cid in reviewed if "tensors" in dojo.bank.get(cid.split("#")[0]).meta.topics)
    assert tensors == 1
    expect(page.locator("#topic-table tr[data-topic='tensors'] td.learned")).to_have_text(str(tensors))
    expect(page.locator("#stat-mock-latest")).to_have_text("72")
    expect(page.locator("#chart-mocks circle")).to_have_count(1)
    expect(page.locator("#stat-solved")).to_have_text(str(solved))
    expect(page.locator("#stat-attempted")).to_have_text("1")

    # every chart has a text equivalent; the reviews table opens and lists today's count
    for chart in ("#chart-reviews", "#chart-forecast", "#chart-heat", "#chart-mocks"):
        assert page.locator(f"{chart} svg desc").count() == 1 and page.locator(f"{chart} svg title").count() >= 1
    page.get_by_text("Reviews and time per day as a table").click()
    expect(page.locator(f"#reviews-table tr[data-day='{today.isoformat()}'] td").nth(1)).to_be_visible()

    # choosing another window reloads with it
    page.locator("#days").select_option("7")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#reviews-table tbody tr")).to_have_count(7)
    page.close()


def test_stats_page_empty_fits_a_phone_and_refuses_bad_days(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/stats")
    expect(page.locator("#stat-reviews-today")).to_have_text("0")
    expect(page.locator("#ret-all-total")).to_have_text("—")
    expect(page.locator("#stat-mocks-none")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"/stats scrolls sideways by {overflow}px"
    page.close()
    for bad in ("0", "366", "abc"):
        r = httpx.get(f"{server.url}/stats?days={bad}")
        assert r.status_code == 422 and "days" in r.text
