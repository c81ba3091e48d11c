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
N_CHALLENGES = sum(1 for p in CH.parent.iterdir() if (p / "challenge.yaml").is_file())


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


REFERENCE = (CH / "reference.py").read_text()
# Right softmax, log_softmax off by 1e-3 in its last element: a value mismatch at a known location;
# prints on every call.
OFF_BY_A_LITTLE = REFERENCE + (
    "\n_log_softmax = log_softmax\n\n"
    "def log_softmax(x, dim=-1):\n    print('log_softmax on', tuple(x.shape))\n    d = torch.zeros_like(x)\n"
    "    d.view(-1)[-1] = 1e-3\n    return _log_softmax(x, dim) + d\n")


def test_run_shows_stdout_and_a_compact_diff(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/challenges/stable-softmax")
    set_code(page, OFF_BY_A_LITTLE)
    page.locator("#run-btn").click()
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Wrong Answer", timeout=120_000)
    report = page.locator("#report")
    # what the code printed, per public test
    expect(report.locator("pre.stdout").first).to_have_text("log_softmax on (1, 3)\n")
    expect(report.locator("pre.stdout")).to_have_count(2)
    # compact, torch-like values instead of one number per line
    expected = report.locator("pre.values.expected").first
    expect(expected).to_contain_text("softmax = tensor([[0.0900, 0.2447, 0.6652]], dtype=float64)  shape=(1, 3)")
    assert "\n0.09" not in expected.inner_text()
    expect(report.locator("pre.values.got").first).to_contain_text("log_softmax = tensor([[-2.4076, -1.4076, -0.4066]]")
    expect(report.locator(".mismatch").first).to_contain_text(
        "'log_softmax': largest difference 0.001 at index [0, 2]: expected -0.407606, got -0.406606; 1 of 3 elements differ")
    page.close()


def test_custom_input_shows_both_outputs_and_their_difference(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/challenges/stable-softmax")
    set_code(page, (CH / "wrong" / "no_max_subtraction.py").read_text())
    page.locator("#custom-input summary").click()
    expect(page.locator("#custom-spec")).to_contain_text("dim", timeout=60_000)  # loaded on opening (imports torch)
    expect(page.locator("#custom")).to_have_value('{"values": [[1.0, 2.0, 3.0]], "dim": -1}')  # the example

    page.locator("#custom").fill('{"values": [[1000, 1001]], "dim": -1}')
    page.locator("#custom-btn").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-mode", "custom", timeout=120_000)
    expect(verdict).to_have_attribute("data-verdict", "Wrong Answer")
    result = page.locator(".custom-result")
    expect(result.locator("pre.values.input")).to_contain_text("x = tensor([[1000.0000, 1001.0000]], dtype=float64)")
    expect(result.locator("pre.values.expected")).to_contain_text("softmax = tensor([[0.2689, 0.7311]]")
    expect(result.locator("pre.values.got")).to_contain_text("softmax = tensor([[nan, nan]]")
    expect(result.locator(".mismatch")).to_contain_text("'softmax' has NaN where the reference does not")

    # The reference on the same input: the same, no difference.
    set_code(page, REFERENCE)
    page.locator("#custom-btn").click()
    expect(verdict).to_have_attribute("data-verdict", "Accepted", timeout=120_000)
    expect(verdict).to_contain_text("Same as the reference")
    expect(result.locator(".mismatch")).to_contain_text("none")

    # A bad input is refused in place, naming the field.
    page.locator("#custom").fill('{"dim": 7}')
    page.locator("#custom-btn").click()
    expect(verdict).to_have_attribute("data-verdict", "Bad Input", timeout=30_000)
    expect(verdict).to_have_attribute("data-field", "dim")
    expect(verdict).to_contain_text("dim must be from -1 to 1")
    page.close()


def test_keyboard_shortcuts_run_and_submit_and_indent_four_spaces(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/challenges")
    expect(page.locator("#solved-count")).to_have_text(f"0 / {N_CHALLENGES} solved")
    page.goto(server.url + "/challenges/stable-softmax")

    # 4-space indentation: Enter after a colon, and Tab.
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type("def f(x):")
    page.keyboard.press("Enter")
    page.keyboard.type("return x")
    assert page.locator("#code").input_value() == "def f(x):\n    return x"
    page.keyboard.press("Control+a")
    page.keyboard.press("Tab")
    assert page.locator("#code").input_value() == "    def f(x):\n        return x"

    set_code(page, REFERENCE)
    page.keyboard.press("Control+Enter")  # run: public tests only
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-verdict", "Accepted", timeout=120_000)
    expect(verdict).to_contain_text("2/2 tests · run")
    assert page.locator("#code").input_value() == REFERENCE  # the editor did not insert a line

    page.keyboard.press("Control+Shift+Enter")  # submit: all tests
    expect(verdict).to_contain_text("7/7 tests · submit", timeout=120_000)
    expect(page.locator("#editorial-link")).to_be_visible()  # Accepted opens the editorial
    assert page.locator("#code").input_value() == REFERENCE

    page.goto(server.url + "/challenges?status=solved")
    expect(page.locator("#solved-count")).to_have_text(f"1 / {N_CHALLENGES} solved")
    expect(page.locator("li.result")).to_have_count(1)
    expect(page.locator("li.result")).to_have_attribute("data-challenge", "stable-softmax")
    page.close()
