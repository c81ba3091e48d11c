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
    expect(page.locator("figure.runnable").first).to_be_hidden()  # the model answer is folded: answer first
    page.get_by_text("Show the model answer").click()
    expect(page.locator("figure.runnable").first).to_be_visible()

    # Review: reveal with the keyboard, rate with a click, next card arrives in place.
    page.goto(server.url + "/review")
    first = page.locator("#card").get_attribute("data-entry")
    remaining = int(page.locator("#remaining").inner_text())
    page.keyboard.press(" ")
    expect(page.locator(".card-back")).to_be_visible()
    # Easy: the card leaves today's queue (Good would keep it, due again after a 10-minute learning step)
    page.get_by_role("button", name=re.compile("^Easy")).click()
    expect(page.locator(".flash")).to_have_text("Saved: Easy")
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


def test_challenge_list_search_and_filters(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/challenges")
    total = page.locator("li.result").count()
    assert total >= 60
    expect(page.locator("#solved-count")).to_have_text(f"0 / {total} solved")
    page.locator("#ch-q").fill("softmax")  # HTMX: the list updates as you type
    expect(page.locator("#shown-count")).to_be_visible()
    links = page.locator("li.result .result-title")
    shown = [(links.nth(i).inner_text(), links.nth(i).get_attribute("href")) for i in range(links.count())]
    # the query matches the title or the id (e.g. debug-softmax-wrong-dim, whose title does not say softmax)
    assert shown and all("softmax" in t.lower() or "softmax" in href for t, href in shown), shown
    assert len(shown) < total
    page.locator("#ch-q").fill("stable-softmax")  # ids match too
    expect(page.locator("li.result")).to_have_count(1)
    page.locator("#ch-q").fill("")
    expect(page.locator("li.result")).to_have_count(total)
    page.locator("select[name=level]").select_option("senior")
    expect(page.locator("li.result .badge.level-junior")).to_have_count(0)  # the list was swapped
    levels = page.locator("li.result .badge[class*=level-]").all_inner_texts()
    assert levels and set(levels) == {"senior"}
    page.locator("select[name=status]").select_option("solved")
    expect(page.locator("li.empty")).to_have_text("No challenge matches these filters.")
    assert "status=solved" in page.url  # the filters are in the address, so reload keeps them
    page.close()


def test_hints_one_at_a_time_then_give_up_opens_the_editorial(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/challenges/layer-norm/editorial")
    expect(page.locator("body")).to_contain_text("locked")
    page.goto(server.url + "/challenges/layer-norm")
    expect(page.locator(".hint")).to_have_count(0)
    page.locator("#hint-btn").click()
    expect(page.locator(".hint")).to_have_count(1)
    expect(page.locator(".hint").first).to_contain_text("Hint 1 of 3")
    page.locator("#hint-btn").click()
    expect(page.locator(".hint")).to_have_count(2)
    page.reload()  # remembered
    expect(page.locator(".hint")).to_have_count(2)
    expect(page.locator("details.editorial")).to_have_count(0)
    page.once("dialog", lambda d: d.dismiss())  # asked first: "no" changes nothing
    page.locator("#give-up-btn").click()
    expect(page.locator("#give-up-btn")).to_be_visible()
    page.once("dialog", lambda d: d.accept())
    page.locator("#give-up-btn").click()
    expect(page.locator("details.editorial")).to_contain_text("E[x²] - E[x]²")
    expect(page.locator(".hint")).to_have_count(3)  # giving up shows every hint
    page.goto(server.url + "/challenges/layer-norm/editorial")
    expect(page.locator("#editorial-text")).to_contain_text("Biased variance")
    page.close()
