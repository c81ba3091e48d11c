"""The settings page and the review page's Undo / Bury / Suspend: a real server process, real
Chromium (Playwright), and plain HTTP for the error paths."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from torchdojo.core import Dojo

pytestmark = pytest.mark.browser


def _seed_review_card(settings) -> str:
    """A card in the Review state, overdue now (two Good ratings 40 days ago): the queue's head."""
    d = Dojo(settings)
    cid = d.flashcards.queue()[0]
    t0 = datetime.now(UTC) - timedelta(days=40)
    d.flashcards.review(cid, "good", now=t0)
    d.flashcards.review(cid, "good", now=t0 + timedelta(minutes=10))
    return cid


def _good_seconds(page) -> int:
    return int(page.locator("button.rate-good small").get_attribute("data-seconds"))


def test_lower_retention_on_the_settings_page_lengthens_the_good_interval(server, browser, settings):
    cid = _seed_review_card(settings)
    page = browser.new_page()
    page.goto(server.url + "/review")
    expect(page.locator("#card")).to_have_attribute("data-entry", cid)
    page.keyboard.press(" ")
    expect(page.locator(".card-back")).to_be_visible()
    before = _good_seconds(page)

    page.get_by_role("link", name="Settings", exact=True).click()
    expect(page).to_have_url(re.compile(r"/settings$"))
    interval_before = page.locator("#current-interval").inner_text()
    page.locator("#desired-retention").fill("0.75")
    page.locator("#save-settings").click()
    expect(page.locator("#settings-message")).to_contain_text("Every card was rescheduled")
    expect(page.locator("#desired-retention")).to_have_value("0.75")
    assert page.locator("#current-interval").inner_text() != interval_before

    page.goto(server.url + "/review")
    expect(page.locator("#card")).to_have_attribute("data-entry", cid)
    page.keyboard.press(" ")
    expect(page.locator(".card-back")).to_be_visible()
    assert _good_seconds(page) > before
    assert Dojo(settings).flashcards.check(repair=False) == []  # rescheduled from the log, in the server
    page.close()


def test_undo_on_the_review_page_shows_the_card_again(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/review")
    first = page.locator("#card").get_attribute("data-entry")
    remaining = int(page.locator("#remaining").inner_text())
    page.keyboard.press(" ")
    page.get_by_role("button", name=re.compile("^Again")).click()
    expect(page.locator(".flash")).to_have_text("Saved: Again")
    expect(page.locator("#card")).not_to_have_attribute("data-entry", first)
    # the card rated Again is back in minutes: it still counts in what is left
    assert int(page.locator("#remaining").inner_text()) == remaining
    expect(page.locator("#reviewed-today")).to_have_text("1")

    page.keyboard.press("u")
    expect(page.locator("#review-status .flash")).to_contain_text("Undone: Again")
    expect(page.locator("#card")).to_have_attribute("data-entry", first)
    expect(page.locator("#reviewed-today")).to_have_text("0")
    expect(page.locator(".card-back")).to_have_count(0)  # the front again
    expect(page.locator("#card .badge.new")).to_be_visible()  # its only review undone: new again

    page.keyboard.press(" ")
    page.get_by_role("button", name=re.compile("^Good")).click()
    expect(page.locator("#reviewed-today")).to_have_text("1")
    page.keyboard.press("Control+z")
    expect(page.locator("#review-status .flash")).to_contain_text("Undone: Good")
    expect(page.locator("#card")).to_have_attribute("data-entry", first)
    expect(page.locator("#undo")).to_have_count(0)  # nothing left to undo
    page.close()


def test_suspend_on_the_review_page_takes_the_card_out_of_the_queue(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/review")
    first = page.locator("#card").get_attribute("data-entry")
    remaining = int(page.locator("#remaining").inner_text())
    page.keyboard.press("!")
    expect(page.locator("#review-status .flash")).to_contain_text("Suspended")
    expect(page.locator("#card")).not_to_have_attribute("data-entry", first)
    second = page.locator("#card").get_attribute("data-entry")
    page.reload()
    assert page.locator("#card").get_attribute("data-entry") == second
    # a new card was suspended: the next new card takes its place in today's allowance
    assert int(page.locator("#remaining").inner_text()) == remaining
    page.locator("#bury").click()
    expect(page.locator("#review-status .flash")).to_contain_text("Buried until")
    expect(page.locator("#card")).not_to_have_attribute("data-entry", second)

    page.goto(server.url + "/settings")
    item = page.locator("#suspended li", has_text=first)
    expect(item).to_have_count(1)
    item.get_by_role("button", name="Unsuspend").click()
    expect(page.locator("#suspended li", has_text=first)).to_have_count(0)
    page.goto(server.url + "/review")
    expect(page.locator("#card")).to_have_attribute("data-entry", first)
    page.close()


def test_settings_errors_are_shown_inline_and_nothing_is_saved(server):
    with httpx.Client(base_url=server.url) as c:
        page = c.get("/settings")
        assert page.status_code == 200 and 'id="desired-retention"' in page.text and "Default: 0.9" in page.text
        r = c.post("/settings", data={"desired_retention": "0.5", "new_per_day": "abc", "max_reviews_per_day": "200",
                                      "topics": ["autograd", "cooking"], "fsrs_parameters": "1, 2"})
        assert r.status_code == 422
        for name in ("desired-retention", "new-per-day", "topics"):
            assert f'id="error-{name}"' in r.text
        assert "0.70 to 0.97" in r.text and "unknown topic" in r.text
        assert 'value="0.5"' in r.text  # what was typed is kept
        r = c.post("/settings", data={"desired_retention": "0.9", "new_per_day": "20", "max_reviews_per_day": "200",
                                      "fsrs_parameters": "1, 2"})
        assert r.status_code == 422 and 'id="error-fsrs-parameters"' in r.text and "expected 21 numbers" in r.text
        assert c.post("/settings/reset", data={"key": "colour"}).status_code == 422
        assert c.post("/settings/parameters", data={"fsrs_parameters": "x"}).status_code == 422
        r = c.post("/settings/optimize")
        assert r.status_code == 422 and "at least 512 reviews" in r.text
        # a cross-origin page cannot change settings
        r = c.post("/settings", data={"new_per_day": "1"}, headers={"Origin": "http://evil.example"})
        assert r.status_code == 403
        r = c.post("/settings", data={"desired_retention": "0.9", "new_per_day": "5", "max_reviews_per_day": "",
                                      "levels": ["junior"]}, follow_redirects=False)
        assert r.status_code == 303
        page = c.get(r.headers["location"]).text
        assert 'id="settings-message"' in page and re.search(r'id="new-per-day"[^>]*value="5"', page)
        assert "Every card was rescheduled" not in page  # retention unchanged: nothing rescheduled
        assert c.post("/review/undo", headers={"HX-Request": "true"}).text.count("Nothing to undo") == 1
        r = c.post("/review/undo", follow_redirects=True)  # without JavaScript: redirect, same message
        assert r.status_code == 200 and "Nothing to undo" in r.text
        assert c.post("/review/no-such-card/bury").status_code == 404
        assert c.post("/review/no-such-card/suspend").status_code == 404


def test_optimise_on_the_settings_page_then_use_the_parameters(server, settings):
    from test_study_settings import _synthetic_log, _write_log

    d = Dojo(settings)
    cards = [e.id for e in list(d.bank)[:60]]
    _write_log(d, _synthetic_log(cards, 11))
    with httpx.Client(base_url=server.url, timeout=600) as c:
        r = c.post("/settings/optimize")  # submits the optimize_fsrs job (jobs layer), then shows its progress
        assert r.status_code == 303, r.text[-2000:]
        url = r.headers["location"]
        assert re.fullmatch(r"/settings\?optimize=\d+#optimize", url)
        deadline = time.monotonic() + 600
        while 'id="loss-before"' not in (r := c.get(url)).text and time.monotonic() < deadline:
            assert r.status_code == 200 and 'id="optimize-running"' in r.text and 'id="optimize-error"' not in r.text
            time.sleep(1)
        before = float(re.search(r'id="loss-before">([0-9.]+)<', r.text).group(1))
        after = float(re.search(r'id="loss-after">([0-9.]+)<', r.text).group(1))
        assert after <= before and 'id="use-parameters"' in r.text
        assert Dojo(settings).flashcards.study.fsrs_parameters is None  # nothing saved yet
        params = re.search(r'name="fsrs_parameters" value="([^"]+)"', r.text).group(1)
        r = c.post("/settings/parameters", data={"fsrs_parameters": params}, follow_redirects=True)
        assert r.status_code == 200 and "Every card was rescheduled" in r.text
    fc = Dojo(settings).flashcards
    assert fc.study.fsrs_parameters is not None and len(fc.study.fsrs_parameters) == 21
    assert fc.check(repair=False) == []
