"""Challenges in the web app: a real browser submits a wrong, then a right solution."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")]
CH = Path(__file__).resolve().parents[1] / "bank" / "challenges" / "stable-softmax"


def set_code(page, code: str) -> None:
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def test_submit_wrong_then_right_from_the_editor(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/challenges")
    page.get_by_role("link", name="Numerically stable softmax and log-softmax").click()
    expect(page.locator(".cm-editor")).to_be_visible()
    expect(page.locator(".cm-content")).to_contain_text("raise NotImplementedError")

    set_code(page, (CH / "wrong" / "no_max_subtraction.py").read_text())
    page.locator("#run-btn").click()  # public tests only
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Wrong Answer", timeout=120_000)
    expect(page.locator("#report")).to_contain_text("Expected")  # public: expected vs got shown

    set_code(page, (CH / "reference.py").read_text())
    page.locator("#submit-btn").click()
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Accepted", timeout=120_000)
    expect(page.locator("#report")).to_contain_text("7/7 tests")

    # Both submissions are stored, and a stored one can be re-judged to the same verdict.
    page.reload()
    page.locator("details.history summary").click()
    links = page.locator("details.history a")
    expect(links).to_have_count(2)
    links.first.click()
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Accepted")
    page.get_by_role("button", name="Re-judge this code").click()
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Accepted", timeout=120_000)
    page.close()


def test_hidden_test_feedback_does_not_leak_expected_outputs(server):
    wrong = (CH / "wrong" / "wrong_dim.py").read_text()
    r = httpx.post(f"{server.url}/challenges/stable-softmax/judge", data={"code": wrong, "mode": "submit"},
                   headers={"HX-Request": "true"}, timeout=180)
    assert r.status_code == 200 and 'data-verdict="Wrong Answer"' in r.text
    assert "Smallest failing input" in r.text and "largest difference" in r.text
    hidden_rows = r.text.split("hidden")[1:]
    assert hidden_rows and all("<strong>Expected</strong>" not in row.split("</tr>")[0] for row in hidden_rows)


def test_unknown_challenge_and_bad_mode(server):
    assert httpx.get(server.url + "/challenges/nope").status_code == 404
    r = httpx.post(server.url + "/challenges/stable-softmax/judge", data={"code": "x", "mode": "sudo"})
    assert r.status_code == 422
