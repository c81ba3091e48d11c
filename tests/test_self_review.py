"""Feedback you can trust: live follow-ups and self-review on rubric scorecards, with the real
offline grader, a real server, Chromium and a real terminal."""

from __future__ import annotations

import os
import re
import signal
import time
from datetime import UTC, datetime, timedelta

import httpx
import pexpect
import pytest
from conftest import BANK, TORCHDOJO
from playwright.sync_api import expect
from test_mock_web import DEFAULT_GRADER, serving

from torchdojo.core import Dojo
from torchdojo.practice.mock import MockConfig

PARTIAL = {  # entry → an answer that makes its first key point only (so a follow-up has a gap to probe)
    "what-is-autograd": "Autograd records every operation on tensors that require grad into a graph as the forward runs.",
}


def _grader_ready(url: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if httpx.get(url + "/mock/grader-status").json()["status"] == "ready":
            return
        time.sleep(0.5)
    raise AssertionError("the grader did not load")


def _shot(page, name: str) -> None:
    """A full-page screenshot for a person to look at, when TORCHDOJO_SCREENSHOTS names a folder."""
    if os.environ.get("TORCHDOJO_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["TORCHDOJO_SCREENSHOTS"], name), full_page=True)


def _first_kp_answer(d: Dojo, entry_id: str) -> str:
    return PARTIAL.get(entry_id) or d.bank.get(entry_id).meta.key_points[0].text


def test_follow_up_then_grading_then_review_in_the_core(settings):
    d = Dojo(settings)
    m = d.mocks.start(MockConfig(level="mid", minutes=12, types=("concept",), use_judge=False, seed=4))
    assert m.config["follow_ups"] is True  # on by default for mid
    n = len(m.items)
    first = m.items[0]
    d.mocks.save_answer(m.id, 0, _first_kp_answer(d, first.ref_id))
    fu = d.mocks.ask_follow_up(m.id, 0, d.grader)
    assert fu is not None and fu.position == 1 and fu.parent_position == 0 and fu.is_follow_up
    assert fu.target in {k.id for k in d.bank.get(first.ref_id).meta.key_points[1:]}
    m = d.mocks.get(m.id)
    assert len(m.items) == n + 1 and m.items[2].ref_id != first.ref_id  # the rest moved down by one
    assert d.mocks.ask_follow_up(m.id, 0, d.grader) is None  # asked once
    assert d.mocks.ask_follow_up(m.id, 1, d.grader) is None  # no follow-up of a follow-up
    d.mocks.save_answer(m.id, 1, "Because the engine sums the gradients into .grad, you have to zero them.")
    d.mocks.finish(m.id)
    d.mocks.grade(m.id, d.grader)
    pairs = d.mocks.review_items(m.id)
    assert [i.position for i, _ in pairs] == [0, 1]
    (_, sc0), (_, sc1) = pairs
    assert len(sc1.lines) == 1 and sc1.lines[0].ref == fu.target and sc1.prompt == fu.prompt
    assert d.mocks.review_state(d.mocks.get(m.id)) == "pending"
    before = set(d.flashcards.queue(limit=10_000))
    # The candidate overrules one "missed" proposal (says covered) and accepts the rest.
    missed = next(ln for ln in sc0.lines if ln.kind == "key-point" and ln.proposal != "covered")
    d.scorecards.set_mark(sc0.id, missed.position, "covered")
    for _, sc in pairs:
        d.scorecards.accept_all(sc.id)
        d.scorecards.finalize(sc.id)
    m = d.mocks.finish_review(m.id)
    assert d.mocks.review_state(m) == "done"
    cards = set(d.flashcards.queue(limit=10_000)) - before
    assert f"{first.ref_id}#{missed.ref}" not in cards  # overruled: no card
    confirmed_missed = {ln.ref for ln in d.scorecards.get(sc0.id).lines if ln.kind == "key-point" and ln.mark == "missed"}
    assert {f"{first.ref_id}#{r}" for r in confirmed_missed} <= cards
    assert m.items[0].score == d.scorecards.get(sc0.id).score and m.items[1].score == d.scorecards.get(sc1.id).score
    unanswered = [i.score for i in m.items[2:]]
    assert unanswered == [0] * len(unanswered)
    rep = d.mocks.report(m.id)
    assert rep.overall == pytest.approx(sum(i.score for i in m.items) / len(m.items))


@pytest.mark.browser
def test_mock_with_follow_ups_times_out_and_is_self_reviewed_with_the_keyboard(db_url, dojo, browser):
    with serving(db_url, DEFAULT_GRADER) as srv:
        _grader_ready(srv.url)
        start = datetime.now(UTC) - timedelta(minutes=5) + timedelta(seconds=45)
        m = dojo.mocks.start(MockConfig(level="mid", minutes=5, types=("concept",), use_judge=False, seed=7,
                                        follow_ups=True), now=start)
        first = m.items[0]
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{srv.url}/mock/{m.id}/1")
        page.locator("#answer").fill(_first_kp_answer(dojo, first.ref_id))
        page.locator("#next-btn").click()
        # The interviewer follows up on the weakest point of that answer before moving on.
        expect(page).to_have_url(re.compile(rf"/mock/{m.id}/2\?msg=follow-up$"), timeout=60_000)
        expect(page.locator("#msg")).to_contain_text("follows up")
        fu = dojo.mocks.get(m.id).items[1]
        assert fu.is_follow_up and fu.parent_position == 0
        expect(page.locator("h1")).to_contain_text("Follow-up")
        page.locator("#answer").fill("Gradients add up in .grad across backward calls, so zero them each step.")
        # Time runs out: the report page polls while grading, then the self-review opens.
        expect(page).to_have_url(re.compile(rf"/mock/{m.id}/report\?timeup=1$"), timeout=90_000)
        expect(page).to_have_url(re.compile(rf"/mock/{m.id}/review$"), timeout=240_000)
        expect(page.locator("#review-answer")).to_contain_text(_first_kp_answer(dojo, first.ref_id)[:40])
        # Keyboard: change two proposals (keys chosen to differ from what the machine proposed) ...
        page.locator(".sc-head").click()
        _shot(page, "mock-review.png")
        changed = []
        for _ in range(2):
            pos = int(page.locator(".scorecard .sc-line.current").get_attribute("data-pos"))
            proposal, choices = page.locator(f".sc-line[data-pos='{pos}']").evaluate(
                "l => [l.querySelector('.proposal')?.dataset.proposal ?? null, "
                "[...l.querySelectorAll('button.mark-btn')].map(b => b.value)]")
            key = next(i for i, c in enumerate(choices, 1) if c != proposal)
            page.keyboard.press(str(key))
            expect(page.locator(f".sc-line[data-pos='{pos}'] button.on")).to_have_attribute("value", choices[key - 1])
            changed.append((pos, choices[key - 1], proposal))
        # ... then Enter accepts the rest of this answer and opens the follow-up's scorecard.
        page.keyboard.press("Enter")
        expect(page).to_have_url(re.compile(rf"/mock/{m.id}/review\?n=2$"))
        expect(page.locator("h1")).to_contain_text("Follow-up")
        page.locator(".sc-head").click()
        page.keyboard.press("Enter")
        expect(page.locator("#review-done")).to_be_visible()
        page.keyboard.press("Enter")
        expect(page).to_have_url(re.compile(rf"/mock/{m.id}/report$"))
        expect(page.locator("#overall-confirmed")).to_be_visible()
        rows = page.locator("#mock-items tbody tr")
        expect(rows.nth(0).locator("[data-confirmation]")).to_have_text("confirmed")
        expect(rows.nth(1)).to_contain_text("follow-up to 1")
        expect(rows.nth(1).locator("[data-confirmation]")).to_have_text("confirmed")
        _shot(page, "mock-report.png")
        # The database holds the two changed marks, set by the candidate, beside the machine's proposals.
        sc = dojo.mocks.review_items(m.id)[0][1]
        for pos, mark, proposal in changed:
            ln = sc.lines[pos]
            assert (ln.mark, ln.marked_by, ln.proposal) == (mark, "self", proposal) and mark != proposal
        done = dojo.mocks.get(m.id)
        assert done.end_reason == "time-out" and dojo.mocks.review_state(done) == "done"
        assert done.items[0].score == sc.score
        page.close()


@pytest.mark.browser
def test_question_page_practice_with_self_review_and_a_follow_up(db_url, dojo, browser):
    entry = dojo.bank.get("what-is-autograd")
    with serving(db_url, DEFAULT_GRADER) as srv:
        _grader_ready(srv.url)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{srv.url}/questions/{entry.id}")
        page.locator("#practice-answer").fill(PARTIAL[entry.id])
        page.locator("#practice-submit").click()
        card = page.locator("#practice-result .scorecard")
        expect(card).to_be_visible(timeout=120_000)
        expect(card.locator(".sc-line")).to_have_count(len(entry.meta.key_points) + len(entry.meta.misconceptions))
        card.locator(".sc-head").click()
        page.keyboard.press("j")  # to the second key point
        page.keyboard.press("1")  # mark it covered (the candidate disagrees with the machine)
        expect(card.locator(".sc-line[data-pos='1'] button.on")).to_have_attribute("value", "covered")
        page.keyboard.press("Enter")
        expect(page.locator("#practice-result .scorecard[data-status='final']")).to_be_visible()
        expect(page.locator("#practice-result .sc-score").first).to_contain_text("Confirmed score")
        _shot(page, "practice-review.png")
        # The interviewer's follow-up, answered and scored on the point it probes.
        expect(page.locator("#follow-up-form")).to_be_visible()
        page.locator("#follow-up-answer").fill("Gradients accumulate into .grad, so you zero them before each backward.")
        page.locator("#follow-up-submit").click()
        expect(page.locator("#follow-up-result .scorecard")).to_be_visible(timeout=60_000)
        expect(page.locator("#follow-up-result .sc-line")).to_have_count(1)
        cards = dojo.scorecards.list()
        assert len(cards) == 2 and cards[1].parent_id == cards[0].id and cards[0].final
        assert cards[0].lines[1].mark == "covered" and cards[0].lines[1].marked_by == "self"
        # The agreement page shows the figures of what was confirmed.
        ag = dojo.scorecards.agreement()["per_kind"]["key-point"]
        page.goto(f"{srv.url}/scorecards/agreement")
        expect(page.locator("#agree-key-point")).to_have_text(f"{round(100 * ag['accuracy'], 1)} %")
        page.close()


def _spawn(args, db_url, cwd, timeout=60):
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "120",
           "TERM": "xterm-256color"}
    env.pop("TORCHDOJO_GRADER", None)
    return pexpect.spawn(TORCHDOJO, args, env=env, encoding="utf-8", timeout=timeout, dimensions=(50, 120), cwd=str(cwd))


@pytest.mark.terminal
def test_terminal_mock_with_one_follow_up_and_self_review(settings, db_url, tmp_path):
    child = _spawn(["mock", "--level", "mid", "--minutes", "10", "--type", "concept", "--no-judge", "--seed", "4",
                    "--follow-ups"], db_url, tmp_path)
    child.expect(r"Mock interview #(\d+)")
    mock_id = int(child.match.group(1))
    d = Dojo(settings)
    first = d.mocks.get(mock_id).items[0]
    n = len(d.mocks.get(mock_id).items)
    child.expect(rf"mock #\d+ \[1/{n}\] > ")
    child.sendline("a")
    child.expect("End it with a line containing only")
    child.expect(r"\| ")
    child.sendline(_first_kp_answer(d, first.ref_id))
    child.expect(r"\| ")
    child.sendline(".")
    child.expect("Saved")
    child.sendline("n")
    child.expect("The interviewer follows up", timeout=300)
    child.expect(rf"mock #\d+ \[2/{n + 1}\] > ")
    child.sendline("a")
    child.expect(r"\| ")
    child.sendline("Gradients accumulate into .grad across backward calls, so zero them every step.")
    child.expect(r"\| ")
    child.sendline(".")
    child.expect("Saved")
    child.sendline("s")
    child.expect("Submit now")
    child.sendline("y")
    child.expect("Self-review", timeout=600)
    child.expect("review > ", timeout=120)
    child.sendline("2 3")  # line 2: missed
    child.expect("review > ")
    child.sendline("")  # accept the rest of the first answer
    child.expect("Saved:")
    child.expect("review > ")
    child.sendline("")  # the follow-up's scorecard
    child.expect("Saved:")
    child.expect(pexpect.EOF, timeout=300)
    child.close()
    m = d.mocks.get(mock_id)
    (i0, sc0), (i1, sc1) = d.mocks.review_items(mock_id)
    assert i1.is_follow_up and i1.parent_position == 0 and sc1.final and len(sc1.lines) == 1
    assert sc0.final and sc0.lines[1].mark == "missed" and sc0.lines[1].marked_by == "self"
    assert d.mocks.review_state(m) == "done" and m.items[0].score == sc0.score


@pytest.mark.terminal
def test_kill_9_during_self_review_loses_no_confirmed_mark(settings, db_url, tmp_path):
    d = Dojo(settings)
    m = d.mocks.start(MockConfig(level="mid", minutes=12, types=("concept",), use_judge=False, seed=5,
                                 follow_ups=False))
    d.mocks.save_answer(m.id, 0, _first_kp_answer(d, m.items[0].ref_id))
    d.mocks.save_answer(m.id, 1, _first_kp_answer(d, m.items[1].ref_id))
    d.mocks.finish(m.id)
    d.mocks.grade(m.id, d.grader)
    child = _spawn(["mock", "review", str(m.id)], db_url, tmp_path, timeout=300)
    child.expect("review > ")
    child.sendline("1 4")  # line 1: wrong
    child.expect("review > ")
    child.sendline("3 2")  # line 3: partly
    child.expect("review > ")  # both marks are committed before the prompt comes back
    os.kill(child.pid, signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    sc = Dojo(settings).mocks.review_items(m.id)[0][1]
    assert (sc.lines[0].mark, sc.lines[0].marked_by) == ("wrong", "self")
    assert (sc.lines[2].mark, sc.lines[2].marked_by) == ("partly", "self")
    assert not sc.final  # the review goes on where it stopped


def test_self_review_routes_refuse_bad_marks_and_interview_cards(server, dojo):
    sid = dojo.scorecards.create("what-is-autograd", "Autograd records operations.", None)
    c = httpx.Client(base_url=server.url)
    r = c.post(f"/scorecards/{sid}/lines/0", data={"mark": "excellent"}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and "takes one of" in r.text
    assert c.post(f"/scorecards/{sid}/lines/0", data={"mark": "2"}).status_code == 303
    assert dojo.scorecards.get(sid).lines[0].mark == "partly"
    assert c.post(f"/scorecards/{10**12}/lines/0", data={"mark": "1"}).status_code == 404
    r = c.post(f"/scorecards/{sid}/accept", headers={"HX-Request": "true"})
    assert r.status_code == 422 and "yourself" in r.text  # no machine: nothing to accept
    iid = dojo.interviews.start(dojo.interviews.kit("junior", count=2), candidate="C")
    card = dojo.scorecards.for_interview(iid)[0]
    r = c.post(f"/scorecards/{card.id}/lines/0", data={"mark": "1"})
    assert r.status_code == 409 and "interview sheet" in r.text
