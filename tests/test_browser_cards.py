"""Own cards, notes, bookmarks and the card browser in real Chromium against a real server."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_create_an_own_card_and_review_it_as_a_new_card(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/cards")
    page.get_by_role("link", name="New card").click()
    page.locator("#own-save").click()  # empty front: the browser's own check stops it (required)
    expect(page).to_have_url(re.compile(r"/cards/new$"))
    page.locator("#own-front-input").fill("What does `tensor.detach()` return?")
    page.locator("#own-back-input").fill("A tensor that **shares storage** and is cut from the graph.")
    page.locator("#own-kp-input").fill("shares storage with the original\nno gradient flows through it")
    page.locator("select[name=topic]").select_option("autograd")
    page.locator("#own-save").click()
    expect(page).to_have_url(re.compile(r"/cards/own/1\?created=1$"))
    expect(page.locator("#own-front code")).to_have_text("tensor.detach()")
    expect(page.locator(".card-state")).to_contain_text("new card")

    # the review page shows it first, as a new card; reveal, rate, the next card arrives
    page.goto(server.url + "/review")
    expect(page.locator("#card")).to_have_attribute("data-entry", "own:1")
    expect(page.locator("#card .badge.new")).to_be_visible()
    page.keyboard.press(" ")
    expect(page.locator("#own-back strong")).to_have_text("shares storage")
    page.get_by_role("button", name=re.compile("^Good")).click()
    expect(page.locator(".flash")).to_have_text("Saved: Good")
    expect(page.locator("#card")).not_to_have_attribute("data-entry", "own:1")

    # the browser lists it with its review; edit it from there
    page.goto(server.url + "/cards?own=1")
    row = page.locator("tr[data-card='own:1']")
    expect(row.locator("td.state")).to_have_text("learning")
    row.get_by_role("link", name="edit").click()
    page.locator("#own-front-input").fill("What does detach() return?")
    page.locator("#own-save").click()
    expect(page.locator("#own-flash")).to_have_text("Card saved.")
    expect(page.locator("#own-front")).to_contain_text("What does detach() return?")
    page.close()


def test_note_on_a_question_page_survives_a_reload_and_bookmarks_filter_the_browser(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/questions/view-reshape-contiguous")
    page.locator("#note-input").fill("`view` needs **contiguous** memory")
    page.locator("#note-save").click()
    expect(page.locator("#note-saved")).to_have_text("Note saved.")  # swapped in place by HTMX
    page.reload()
    expect(page.locator("#note-text strong")).to_have_text("contiguous")
    expect(page.locator("#note-input")).to_have_value("`view` needs **contiguous** memory")

    page.locator("#bookmark-btn").click()
    expect(page.locator("#bookmark-btn")).to_contain_text("Bookmarked")
    expect(page.locator("#bookmark-btn")).to_have_attribute("aria-pressed", "true")

    page.goto(server.url + "/cards")
    assert page.locator("tbody tr[data-card]").count() == 50  # first page of every card
    page.locator("#f-bookmarked").check()
    page.locator("#cards-filter").click()
    expect(page).to_have_url(re.compile(r"bookmarked=1"))
    expect(page.locator("tbody tr[data-card]")).to_have_count(1)
    expect(page.locator("tbody tr[data-card]")).to_have_attribute("data-card", "view-reshape-contiguous")
    expect(page.locator("#cards-count")).to_have_text("1 card")

    # sorting is a column link; the filter stays
    page.locator("th a[data-sort=lapses]").click()
    expect(page).to_have_url(re.compile(r"sort=lapses"))
    expect(page.locator("tbody tr[data-card]")).to_have_count(1)
    page.close()


def test_bad_filters_are_400_and_cross_origin_posts_are_refused(server):
    r = httpx.get(server.url + "/cards", params={"state": "lapsed"})
    assert r.status_code == 400 and "unknown state" in r.text and "lapsed" in r.text
    r = httpx.get(server.url + "/cards", params={"page": "99"})
    assert r.status_code == 400 and "page 99 does not exist" in r.text
    r = httpx.post(server.url + "/notes", data={"card_id": "view-reshape-contiguous", "text": "x"},
                   headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    r = httpx.post(server.url + "/notes", data={"card_id": "view-reshape-contiguous", "text": "x" * 20001},
                   headers={"HX-Request": "true"})
    assert r.status_code == 422 and "at most 20,000" in r.text
    r = httpx.post(server.url + "/cards/new", data={"front": "q", "level": "staff"})
    assert r.status_code == 422 and "unknown level" in r.text
    r = httpx.post(server.url + "/cards/own/7/delete", data={"confirm": "yes"})
    assert r.status_code == 404
