"""Issue 14's rough edges in real Chromium: "/" focuses search, the phone header, the folded model answer."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _active(page) -> str:
    return page.evaluate("document.activeElement ? (document.activeElement.id || document.activeElement.name || "
                         "document.activeElement.tagName) : ''")


def test_slash_focuses_search_and_escape_leaves_it(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    # the questions list: its own search box
    page.goto(server.url + "/questions")
    page.locator("h1").click()  # the box has autofocus: start outside it
    assert _active(page) != "q"
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    expect(page.locator("#q")).to_have_value("")  # the "/" was not typed into it
    page.keyboard.press("Escape")
    expect(page.locator("#q")).not_to_be_focused()

    # a page without its own search: the header's
    page.goto(server.url + "/questions/view-reshape-contiguous")
    page.keyboard.press("/")
    quick = page.locator(".quicksearch input")
    expect(quick).to_be_focused()
    page.keyboard.type("retain_graph")
    page.keyboard.press("Escape")
    expect(quick).not_to_be_focused()

    # typing "/" in a text area types it, it does not jump
    page.locator("#practice-answer").click()
    page.keyboard.type("a/b")
    expect(page.locator("#practice-answer")).to_be_focused()
    expect(page.locator("#practice-answer")).to_have_value("a/b")

    # the challenges list: its own search box
    page.goto(server.url + "/challenges")
    page.keyboard.press("/")
    expect(page.locator("#ch-q")).to_be_focused()
    page.close()


def test_model_answer_is_folded_until_you_answer(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/questions/view-reshape-contiguous")
    expect(page.locator("#model-answer .key-points")).to_be_hidden()
    page.get_by_text("Show the model answer").click()
    expect(page.locator("#model-answer .key-points")).to_be_visible()
    page.close()


@pytest.mark.parametrize("path", ["/", "/questions", "/questions/super-init-module", "/challenges", "/review"])
def test_phone_header_is_one_compact_row(server, browser, path):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + path)
    header = page.locator("header.topbar").bounding_box()
    assert header["height"] <= 64, f"{path}: the header is {header['height']:.0f}px tall at 390px"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px"
    # every nav link is still reachable (the nav scrolls sideways inside the header)
    last = page.locator(".topbar nav a").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    expect(page.locator(".quicksearch input")).to_be_visible()
    page.close()


def test_mock_bar_never_covers_the_site_header(server, browser, dojo):
    from torchdojo.practice.mock import MockConfig

    mock = dojo.mocks.start(MockConfig(level="junior", use_judge=False, seed=3), now=datetime.now(UTC))
    for width in (390, 1280):
        page = browser.new_page(viewport={"width": width, "height": 844})
        page.goto(f"{server.url}/mock/{mock.id}/1")
        for scroll in (0, 400, 2000):
            page.evaluate(f"window.scrollTo(0, {scroll})")
            header = page.locator("header.topbar").bounding_box()
            bar = page.locator("#mock-bar").bounding_box()
            overlap = min(header["y"] + header["height"], bar["y"] + bar["height"]) - max(header["y"], bar["y"])
            assert overlap <= 0, f"at {width}px, scrolled {scroll}px: the mock bar and the header overlap by {overlap}px"
        if width == 390:
            assert page.locator("header.topbar").bounding_box()["height"] <= 64
        page.close()
