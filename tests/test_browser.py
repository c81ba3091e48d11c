"""Real Chromium (Debian's) driven by Playwright against a real server."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_search_open_question_and_complete_a_review(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/")
    due_before = int(page.locator("#due-now").inner_text())
    assert due_before > 0

    # Search (HTMX live results) and open a question.
    page.get_by_role("link", name="Questions", exact=True).click()
    page.locator("#q").fill("contiguous")
    expect(page.locator("#result-count")).to_contain_text("matching “contiguous”")
    page.locator(".result-title", has_text="view() vs reshape()").click()
    expect(page).to_have_url(re.compile(r"/questions/view-reshape-contiguous$"))
    expect(page.locator("h1")).to_contain_text("view() vs reshape() vs contiguous()")
    expect(page.locator("figure.runnable").first).to_be_visible()

    # Review: reveal with the keyboard, rate with a click, next card arrives in place.
    page.goto(server.url + "/review")
    first = page.locator("#card").get_attribute("data-entry")
    remaining = int(page.locator("#remaining").inner_text())
    page.keyboard.press(" ")
    expect(page.locator(".card-back")).to_be_visible()
    page.get_by_role("button", name=re.compile("^Good")).click()
    expect(page.locator(".flash")).to_have_text("Saved: Good")
    expect(page.locator("#card")).not_to_have_attribute("data-entry", first)
    expect(page.locator("#reviewed-today")).to_have_text("1")
    assert int(page.locator("#remaining").inner_text()) == remaining - 1

    # The rated card now shows its FSRS state; home shows one fewer card to study.
    page.goto(f"{server.url}/questions/{first}")
    expect(page.locator(".card-state")).to_contain_text("stability")
    page.goto(server.url + "/")
    assert int(page.locator("#due-now").inner_text()) == due_before - 1
    page.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_pages_fit_phone_and_desktop_widths(server, browser, width):
    page = browser.new_page(viewport={"width": width, "height": 844})
    for path in ("/", "/questions", "/questions/view-reshape-contiguous", "/review"):
        page.goto(server.url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
    page.close()
