"""Mock interviews in the web app: a real `torchdojo serve` process, real SQLite, real Chromium.

Grading goes through the app's grader process. With the offline embedding grader installed
(``torchdojo.grading.rubric``) the end-to-end test runs with it and expects real scores; the
other tests point the LLM judge at a closed port, so every prose answer comes back with
``error`` set and the report must say "not graded".
"""

from __future__ import annotations

import importlib.util
import os
import re
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from unittest import mock as um
from urllib.parse import quote

import httpx
import pytest
from conftest import Server
from playwright.sync_api import expect

from torchdojo.practice.mock import MockConfig

HAVE_RUBRIC = importlib.util.find_spec("torchdojo.grading.rubric") is not None
#: The LLM judge at a port where nothing listens: grading fails fast and says so.
LLM_DOWN = {"TORCHDOJO_GRADER": "llm", "TORCHDOJO_LLM_BASE_URL": "http://127.0.0.1:9/v1", "TORCHDOJO_LLM_MODEL": "none"}
DEFAULT_GRADER = {"TORCHDOJO_GRADER": "embedding"}
HX = {"HX-Request": "true"}


@contextmanager
def serving(db_url: str, env: dict[str, str]):
    with um.patch.dict(os.environ, env):  # the server (and its grader worker) inherit these
        srv = Server(db_url)
        srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def llm_server(db_url):
    with serving(db_url, LLM_DOWN) as srv:
        yield srv


def start_mock(c: httpx.Client, **form) -> int:
    data = {"level": "junior", **form}
    r = c.post("/mock", data=data)
    assert r.status_code == 303, r.text
    m = re.fullmatch(r"/mock/(\d+)/1", r.headers["location"])
    assert m, r.headers["location"]
    return int(m.group(1))


def wait_graded(c: httpx.Client, mock_id: int, timeout: float = 60) -> str:
    """Poll the report like the page does (HTMX fragment) until grading is done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = c.get(f"/mock/{mock_id}/report", headers=HX)
        assert r.status_code == 200
        if 'data-status="graded"' in r.text:
            return c.get(f"/mock/{mock_id}/report").text
        assert "Grading your answers" in r.text and 'hx-trigger="every 2s"' in r.text
        time.sleep(0.5)
    raise AssertionError(f"mock {mock_id} was not graded within {timeout} s")


# -- HTTP ----------------------------------------------------------------------------------------


def test_setup_page_and_validation(llm_server):
    c = httpx.Client(base_url=llm_server.url)
    page = c.get("/mock")
    assert page.status_code == 200
    for part in (
        "Junior screens check fundamentals",
        "30 min default · about 6 items",
        "Item types",
        "Coding items through the judge",
        'name="topics" value="autograd"',
        "No interviews yet",
        'href="/mock" aria-current="page"',
    ):
        assert part in page.text, part
    bad = c.post("/mock", data={"level": "principal"})
    assert bad.status_code == 422 and "unknown level" in bad.text
    assert c.post("/mock", data={"level": "junior", "minutes": "2"}).status_code == 422
    mock_id = start_mock(c, use_judge="")
    listing = c.get("/mock").text
    assert f'href="/mock/{mock_id}"' in listing and "Resume" in listing


def test_autosave_stores_the_answer_and_time_per_item_is_measured(llm_server, dojo):
    c = httpx.Client(base_url=llm_server.url)
    mock_id = start_mock(c, use_judge="")
    assert c.get(f"/mock/{mock_id}/1").status_code == 200  # opens item 1: its clock runs
    text = "Autograd records a graph; <b>backward</b> walks it & sums gradients."
    r = c.post(f"/mock/{mock_id}/1/answer", data={"answer": text}, headers=HX)
    assert r.status_code == 200 and re.search(r"Saved \d\d:\d\d:\d\d", r.text) and "<html" not in r.text
    assert dojo.mocks.get(mock_id).items[0].answer == text  # committed before the response
    page = c.get(f"/mock/{mock_id}/1").text
    assert "Autograd records a graph; &lt;b&gt;backward&lt;/b&gt; walks it &amp; sums gradients." in page
    assert 'data-state="answered"' in page and 'aria-label="Question 1: answered"' in page
    # Without JS: Next saves the posted answer, then goes to the next item.
    time.sleep(0.3)
    r = c.post(f"/mock/{mock_id}/1/answer", data={"answer": text + " Edited.", "go": "2"})
    assert r.status_code == 303 and r.headers["location"] == f"/mock/{mock_id}/2"
    c.get(r.headers["location"])
    m = dojo.mocks.get(mock_id)
    assert m.items[0].answer == text + " Edited."
    assert m.items[0].time_spent_ms >= 300  # measured by the server between the GETs


def test_writes_after_the_deadline_are_refused_and_end_the_mock(llm_server, dojo):
    c = httpx.Client(base_url=llm_server.url)
    late = datetime.now(UTC) - timedelta(minutes=5, seconds=30)  # deadline passed 30 s ago
    cfg = MockConfig(level="junior", minutes=5, use_judge=False, seed=2)
    plain, htmx = dojo.mocks.start(cfg, now=late).id, dojo.mocks.start(cfg, now=late).id

    r = c.post(f"/mock/{plain}/1/answer", data={"answer": "too late"})
    assert r.status_code == 303 and r.headers["location"] == f"/mock/{plain}/report?timeup=1"
    m = dojo.mocks.get(plain)
    assert m.status in ("grading", "graded") and m.end_reason == "time-out" and m.items[0].answer == ""
    assert "Time is up" in c.get(r.headers["location"]).text

    r = c.post(f"/mock/{htmx}/2/answer", data={"answer": "too late"}, headers=HX)  # what mock.js sends
    assert r.headers["HX-Redirect"] == f"/mock/{htmx}/report?timeup=1" and "Time is up" in r.text
    assert dojo.mocks.get(htmx).end_reason == "time-out" and dojo.mocks.get(htmx).items[1].answer == ""
    # Every later write and page of an ended mock leads to its report.
    assert c.post(f"/mock/{htmx}/1/flag", data={"flagged": "1"}).headers["location"].startswith(f"/mock/{htmx}/report")
    assert c.get(f"/mock/{htmx}/1").headers["location"] == f"/mock/{htmx}/report?timeup=1"


def test_revealing_an_unanswered_item_asks_first_then_locks_it(llm_server, dojo):
    c = httpx.Client(base_url=llm_server.url)
    mock_id = start_mock(c, use_judge="")
    entry = dojo.mocks.entry(dojo.mocks.get(mock_id).items[0])
    ask = c.post(f"/mock/{mock_id}/1/reveal", data={"answer": ""})
    assert ask.status_code == 200 and "Reveal anyway" in ask.text and "locks this question unanswered" in ask.text
    assert not dojo.mocks.get(mock_id).items[0].revealed  # nothing recorded yet

    r = c.post(f"/mock/{mock_id}/1/reveal", data={"confirm": "1"})
    assert r.status_code == 303 and r.headers["location"] == f"/mock/{mock_id}/1#model-answer"
    item = dojo.mocks.get(mock_id).items[0]
    assert item.revealed and item.revealed_before_answer
    page = c.get(f"/mock/{mock_id}/1").text
    assert 'id="model-answer"' in page and entry.meta.key_points[0].text.split()[0] in page
    assert "Locked: the model answer was shown before you answered" in page and "disabled" in page

    r = c.post(f"/mock/{mock_id}/1/answer", data={"answer": "now I know it"}, headers=HX)
    assert r.status_code == 409 and "stays unanswered" in r.text
    r = c.post(f"/mock/{mock_id}/1/answer", data={"answer": "now I know it"})
    assert r.status_code == 303 and r.headers["location"].endswith("?msg=locked")
    assert dojo.mocks.get(mock_id).items[0].answer == ""
    # Revealing after answering is recorded but does not lock.
    c.post(f"/mock/{mock_id}/2/answer", data={"answer": "my answer"}, headers=HX)
    assert c.post(f"/mock/{mock_id}/2/reveal", data={}).status_code == 303
    item2 = dojo.mocks.get(mock_id).items[1]
    assert item2.revealed and not item2.revealed_before_answer


def test_unknown_mock_or_position_is_404(llm_server):
    c = httpx.Client(base_url=llm_server.url)
    mock_id = start_mock(c, use_judge="")
    for url in ("/mock/99999/1", "/mock/99999/report", "/mock/99999", f"/mock/{mock_id}/0", f"/mock/{mock_id}/99"):
        r = c.get(url)
        assert r.status_code == 404, url
    assert "There is no mock interview #99999" in c.get("/mock/99999/1").text
    assert c.post(f"/mock/{mock_id}/99/answer", data={"answer": "x"}).status_code == 404
    assert c.post("/mock/99999/finish", data={}).status_code == 404


def test_finish_asks_then_the_report_says_not_graded_when_the_grader_fails(llm_server, dojo):
    c = httpx.Client(base_url=llm_server.url)
    mock_id = start_mock(c, use_judge="")
    c.post(
        f"/mock/{mock_id}/1/answer",
        data={"answer": "Tensors carry a grad_fn; backward applies the chain rule."},
        headers=HX,
    )
    ask = c.post(f"/mock/{mock_id}/finish", data={"pos": "1"})
    assert ask.status_code == 200 and "Finish the interview?" in ask.text
    assert dojo.mocks.get(mock_id).status == "active"
    r = c.post(f"/mock/{mock_id}/finish", data={"confirm": "1"})
    assert r.status_code == 303 and r.headers["location"] == f"/mock/{mock_id}/report"
    for attempt in range(2):  # the first grading, then "grade again" (the endpoint is still down)
        page = wait_graded(c, mock_id)
        m = dojo.mocks.get(mock_id)
        assert m.status == "graded" and m.end_reason == "submitted"
        assert m.items[0].score is None and m.items[0].feedback["error"]  # the grader failed ...
        row = re.search(r'<tr data-pos="1" data-graded="(\w+)">(.*?)</tr>', page, re.S)
        assert row.group(1) == "false" and "not graded: " in row.group(2)  # ... and the report says so
        assert "connection refused" in page and "could not be graded" in page
        assert 'id="overall-score"' in page and 'id="study-plan"' in page
        assert re.search(r"\d+ key-point flashcards? (were|was)\s+added to your review queue", page)
        if attempt == 0:
            r = c.post(f"/mock/{mock_id}/regrade")
            assert r.status_code == 303 and r.headers["location"] == f"/mock/{mock_id}/report"


def test_review_shows_a_key_point_card_and_records_its_rating(llm_server, dojo):
    entry, fu = next((e, f) for e in dojo.bank for f in e.meta.follow_ups if f.probes and f.text)
    card_id = f"{entry.id}#{fu.probes[0]}"
    assert dojo.flashcards.add_key_point_cards(entry.id, [fu.probes[0]]) == [card_id]
    c = httpx.Client(base_url=llm_server.url)
    front = c.get("/review").text
    assert f'data-entry="{card_id}"' in front  # due now: first in the queue
    assert "Key point you missed in a mock interview" in front
    assert fu.text.split("`")[0][:30] in front  # the follow-up that probes this key point is the prompt
    assert f"/review/{quote(card_id, safe='')}/answer" in front
    back = c.get(f"/review/{quote(card_id, safe='')}/answer")
    kp = next(k for k in entry.meta.key_points if k.id == fu.probes[0])
    assert back.status_code == 200 and 'id="kp-text"' in back.text and "In 20 seconds" in back.text
    assert kp.text.split("`")[0][:30] in back.text and 'name="rating" value="good"' in back.text
    r = c.post(f"/review/{quote(card_id, safe='')}", data={"rating": "good", "shown_at": "0"})
    assert r.status_code == 303
    assert not dojo.flashcards.status(card_id).is_new
    assert [h.question_id for h in dojo.flashcards.history([card_id])] == [card_id]
    assert c.get(f"/review/{quote(entry.id + '#no-such-point', safe='')}/answer").status_code == 404


def test_pages_answer_at_once_while_the_grader_model_loads(db_url, dojo):
    # A mock waiting to be graded: the server resumes its grading at start-up, and that must
    # wait for the model in the background, not in any request.
    pending = dojo.mocks.start(MockConfig(level="junior", use_judge=False, seed=5))
    dojo.mocks.save_answer(pending.id, 0, "The graph is recorded during forward.")
    dojo.mocks.finish(pending.id)
    running = dojo.mocks.start(MockConfig(level="junior", use_judge=False, seed=6))
    with serving(db_url, DEFAULT_GRADER) as srv:
        c = httpx.Client(base_url=srv.url, timeout=30)
        measured = []
        for path in (
            "/",
            f"/mock/{pending.id}/report",
            "/mock",
            f"/mock/{running.id}/1",
            f"/mock/{running.id}/2",
            "/review",
        ):
            t0 = time.perf_counter()
            r = c.get(path)
            took = time.perf_counter() - t0
            after = c.get("/mock/grader-status").json()["status"]  # still loading once the page was served?
            measured.append((path, r.status_code, round(took, 3), after))
            if path.endswith("/report") and after == "loading":
                assert 'Grading your answers… (answer grader: <span id="grader-state">loading</span>)' in r.text
        for path, code, took, _ in measured:
            assert code == 200, (path, code)
            assert took < 1.5, f"{path} took {took:.2f} s while the grader was loading: {measured}"
        while_loading = [m for m in measured if m[3] == "loading"]
        if len(while_loading) < 3:  # without the embedding grader, or a model that loads in a blink
            pytest.skip(f"the grader was not loading long enough to tell: {measured}")


# -- Chromium ------------------------------------------------------------------------------------


@pytest.mark.browser
def test_mock_interview_end_to_end_with_autosave_flags_and_time_out(db_url, dojo, browser):
    env = DEFAULT_GRADER if HAVE_RUBRIC else LLM_DOWN
    with serving(db_url, env) as srv:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(srv.url + "/")
        page.get_by_role("link", name="Mock interview").click()
        page.locator('input[name="level"][value="junior"]').check()
        page.get_by_label("Coding items through the judge").uncheck()
        page.get_by_role("button", name="Start the interview").click()
        expect(page).to_have_url(re.compile(r"/mock/\d+/1$"))
        mock_id = int(re.search(r"/mock/(\d+)/1$", page.url).group(1))
        n = len(dojo.mocks.get(mock_id).items)
        assert n >= 5
        expect(page.locator("#countdown")).to_have_text(re.compile(r"^(29|30):\d\d$"))

        # Answer item 1 by typing: the debounced autosave reports the time it saved.
        answer = "A neural network composes linear layers and nonlinearities; forward applies them in turn."
        page.locator("#answer").press_sequentially(answer, delay=2)
        expect(page.locator("#save-status")).to_contain_text(re.compile(r"Saved \d\d:\d\d:\d\d"))
        nav = page.locator("#mock-nav")
        expect(nav.locator('a[data-pos="1"]')).to_have_attribute("data-state", "answered")
        expect(nav.locator('a[data-pos="1"]')).to_have_attribute("aria-label", "Question 1: answered")

        # Alt+N from inside the textarea goes on (plain letters typed above did not).
        page.locator("#answer").focus()
        page.keyboard.press("Alt+n")
        expect(page).to_have_url(re.compile(rf"/mock/{mock_id}/2$"))
        page.get_by_role("button", name=re.compile("Flag for later")).click()
        expect(page.locator("#flag-btn")).to_have_attribute("aria-pressed", "true")
        expect(nav.locator('a[data-pos="2"]')).to_have_attribute("aria-label", "Question 2: unanswered, flagged")
        expect(nav.locator('a[data-pos="2"] .nav-mark')).to_have_text("–⚑")
        page.keyboard.press("Alt+f")  # the shortcut toggles it off and on again
        expect(page.locator("#flag-btn")).to_have_attribute("aria-pressed", "false")
        expect(nav.locator('a[data-pos="2"]')).to_have_attribute("aria-label", "Question 2: unanswered")
        page.keyboard.press("Alt+f")
        expect(page.locator("#flag-btn")).to_have_attribute("aria-pressed", "true")

        # The navigator jumps; Previous goes back; text typed just before leaving is saved.
        nav.get_by_role("link", name=re.compile(r"^Question 3:")).click()
        expect(page).to_have_url(re.compile(rf"/mock/{mock_id}/3$"))
        expect(nav.locator('a[aria-current="step"]')).to_have_attribute("data-pos", "3")
        page.locator("#answer").fill("Split by group before shuffling.")
        page.get_by_role("button", name=re.compile("Previous")).click()
        expect(page).to_have_url(re.compile(rf"/mock/{mock_id}/2$"))
        expect(nav.locator('a[data-pos="3"]')).to_have_attribute("data-state", "answered")
        expect(nav.locator('a[data-pos="1"]')).to_have_attribute("data-state", "answered")
        expect(nav.locator('a[data-pos="2"]')).to_have_attribute("data-flagged", "true")
        expect(nav.locator('a[data-pos="4"]')).to_have_attribute("data-state", "unanswered")
        expect(page.locator("#nav-counts")).to_contain_text("2 answered")
        page.keyboard.press("Alt+p")
        expect(page).to_have_url(re.compile(rf"/mock/{mock_id}/1$"))
        page.reload()
        expect(page.locator("#answer")).to_have_value(answer)
        m = dojo.mocks.get(mock_id)
        assert [i.answer for i in m.items[:3]] == [answer, "", "Split by group before shuffling."]
        assert m.items[1].flagged and m.status == "active"

        # Time-out: a mock whose 5 minutes end ~12 s from now, answered in the browser.
        start = datetime.now(UTC) - timedelta(minutes=5) + timedelta(seconds=12)
        timed = dojo.mocks.start(MockConfig(level="junior", minutes=5, use_judge=False, seed=2), now=start)
        first = dojo.mocks.entry(timed.items[0])
        page.goto(f"{srv.url}/mock/{timed.id}/1")
        expect(page.locator("#countdown")).to_have_text(re.compile(r"^0:(0\d|1[0-2])$"))
        page.locator("#answer").fill(first.meta.short_answer)  # a good answer, saved at the latest when time is up
        expect(page).to_have_url(re.compile(rf"/mock/{timed.id}/report\?timeup=1$"), timeout=30_000)
        expect(page.locator("#time-up")).to_contain_text("Time is up")
        if HAVE_RUBRIC:  # graded: the self-review comes before the report; skipping it keeps the estimates
            expect(page).to_have_url(re.compile(rf"/mock/{timed.id}/review$"), timeout=240_000)
            page.locator("#review-skip").click()
        expect(page.locator("#overall-score")).to_be_visible(timeout=240_000)  # polls until graded

        rows = page.locator("#mock-items tbody tr")
        expect(rows).to_have_count(len(timed.items))
        expect(page.locator("#end-reason")).to_contain_text("time-out")
        for chart in ("#chart-topic svg", "#chart-level svg", "#chart-type svg", "#chart-history svg"):
            expect(page.locator(chart)).to_be_visible()
        expect(page.locator("#chart-topic rect.chart-bar")).not_to_have_count(0)
        expect(page.locator("#fb-1 .key-point-results li")).to_have_count(len(first.meta.key_points))
        expect(page.locator("#study-plan")).to_contain_text("Study plan")
        expect(page.locator("#cards-added")).to_contain_text("added to your review queue")
        score_cell = rows.nth(0).locator("td.score")
        if HAVE_RUBRIC:  # the real grader: a real score (or "uncertain"), with evidence marked
            expect(rows.nth(0)).to_have_attribute("data-graded", "true")
            expect(score_cell).to_have_text(re.compile(r"^(\d{1,3} \(\w+\) (unconfirmed|confirmed)|uncertain — not scored uncertain) scorecard$"))
            expect(page.locator("#fb-1 .your-answer mark.hit").first).to_be_visible()
            expect(page.locator("#fb-1 .kp.hit").first).to_be_visible()
        else:  # the LLM judge is down: no score is shown as if graded
            expect(score_cell).to_contain_text("not graded: ")
            expect(rows.nth(0)).to_have_attribute("data-graded", "false")

        done = dojo.mocks.get(timed.id)
        assert done.end_reason == "time-out" and done.status == "graded"
        assert done.items[0].answer == first.meta.short_answer
        page.close()


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_mock_pages_fit_phone_and_desktop_widths(llm_server, dojo, browser, width):
    cfg = MockConfig(level="mid", use_judge=True, seed=3, per_item_minutes=2)
    running = dojo.mocks.start(cfg)
    code_pos = next(i.position for i in running.items if i.kind == "challenge") + 1
    ended = dojo.mocks.start(MockConfig(level="junior", use_judge=False, seed=4))
    for pos in (1, 2):
        dojo.mocks.save_answer(ended.id, pos - 1, "A long answer with torch.distributed.fsdp.fully_shard_and_more " * 8)
    dojo.mocks.set_flag(ended.id, 0, True)
    dojo.mocks.finish(ended.id)
    c = httpx.Client(base_url=llm_server.url)
    wait_graded(c, ended.id)
    page = browser.new_page(viewport={"width": width, "height": 844})
    for path in ("/mock", f"/mock/{running.id}/1", f"/mock/{running.id}/{code_pos}", f"/mock/{ended.id}/report"):
        page.goto(llm_server.url + path)
        page.wait_for_load_state("load")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
    page.close()


@pytest.mark.browser
@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")
def test_coding_item_autosaves_the_editor_and_runs_public_tests(llm_server, dojo, browser):
    m = dojo.mocks.start(MockConfig(level="junior", minutes=10, types=("coding",), use_judge=True, seed=1))
    assert m.items[0].kind == "challenge"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{llm_server.url}/mock/{m.id}/1")
    expect(page.locator(".cm-editor")).to_be_visible()
    page.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("\n# my edit\n")
    expect(page.locator("#save-status")).to_contain_text(re.compile(r"Saved \d\d:\d\d:\d\d"))
    assert "# my edit" in dojo.mocks.get(m.id).items[0].answer
    page.get_by_role("button", name="Run public tests").click()
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", re.compile(r"\w"), timeout=120_000)
    expect(page.locator("#report table.tests")).to_be_visible()
    page.close()
