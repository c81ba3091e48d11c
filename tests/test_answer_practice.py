"""Practising one question outside a mock: ``POST /questions/{id}/answer`` on a real server (its
grader process running the real embedding grader), the question page in a real Chromium, and
``torchdojo answer`` in a real pseudo-terminal. The first grade loads the model: generous timeouts."""

from __future__ import annotations

import html
import os
import re
import subprocess
from unittest import mock as um

import httpx
import pexpect
import pytest
from conftest import BANK, TORCHDOJO, Server
from playwright.sync_api import expect

ENTRY = "what-is-autograd"
#: A good answer that leaves out one key point (only floating-point tensors can require grad),
#: so the grader has a gap to ask a follow-up about.
GOOD = (
    "Autograd records the operations on tensors that require grad while the forward code runs, "
    "building a graph of grad_fn nodes.\n"
    "Then backward() walks that graph from the output back to the inputs with the chain rule, and the "
    "gradients are accumulated into the .grad of the leaf tensors."
)
HX = {"HX-Request": "true"}
#: The LLM judge at a port where nothing listens: grading fails fast and must say so.
LLM_DOWN = {"TORCHDOJO_GRADER": "llm", "TORCHDOJO_LLM_BASE_URL": "http://127.0.0.1:9/v1", "TORCHDOJO_LLM_MODEL": "none"}
GRADE_TIMEOUT = 300  # seconds: the grader process loads its model on a shared, busy machine


def key_points(dojo) -> list:
    return dojo.bank.get(ENTRY).meta.key_points


def marks(page: str) -> list[str]:
    """The texts of the ``<mark>`` evidence highlights, unescaped."""
    return [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r"<mark class=\"\w+\"[^>]*>(.*?)</mark>", page, re.S)]


# -- HTTP ----------------------------------------------------------------------------------------


def test_question_page_puts_practice_before_the_model_answer(server):
    page = httpx.get(f"{server.url}/questions/{ENTRY}").text
    practice, model = page.index('id="practice"'), page.index('id="model-answer"')
    assert practice < model < page.index("Key points a strong answer makes")
    form = page[practice:model]
    assert "Practise answering" in form and "Answer before you read on" in form
    assert f'hx-post="/questions/{ENTRY}/answer"' in form and f'action="/questions/{ENTRY}/answer#practice"' in form
    assert "kept with its scorecard" in form and "Get feedback" in form
    assert httpx.post(f"{server.url}/questions/no-such-entry/answer", data={"answer": "x"}).status_code == 404


def test_a_good_answer_gets_graded_feedback_with_evidence(server, dojo):
    c = httpx.Client(base_url=server.url, timeout=GRADE_TIMEOUT)
    r = c.post(f"/questions/{ENTRY}/answer", data={"answer": GOOD}, headers=HX)
    assert r.status_code == 200, r.text
    frag = r.text
    assert "<html" not in frag and "not graded" not in frag, frag[:2000]
    score = re.search(r'id="practice-score" data-score="(\d+)" data-band="(\d)" data-uncertain="(true|false)"', frag)
    assert score, frag[:2000]
    if score.group(3) == "true":
        assert "<strong>uncertain</strong>" in frag
    else:
        assert f"Score: <strong>{score.group(1)}</strong>/100" in frag
        assert int(score.group(1)) >= 50, f"a good answer scored {score.group(1)}"
    assert re.search(r'class="band band-\d">(wrong|weak|adequate|excellent)<', frag) or score.group(3) == "true"
    # Every key point is listed with its status, at least one was made, and a gap is asked about.
    assert "<h4>Key points</h4>" in frag
    statuses = re.findall(r'<li class="kp (hit|missed|contradicted)">', frag)
    assert len(statuses) == len(key_points(dojo)) and "hit" in statuses, statuses
    assert "The interviewer follows up" in frag and "follow-up-form" in frag
    # The evidence is marked in the answer, and every marked piece is text of the answer.
    found = marks(frag)
    assert found, "no evidence highlighted"
    assert all(piece and piece in GOOD for piece in found), found
    assert 'class="hit"' in frag

    # Without JavaScript: the whole question page, with the feedback and the answer kept in the form.
    page = c.post(f"/questions/{ENTRY}/answer", data={"answer": GOOD}).text
    assert "<html" in page and 'id="practice-score"' in page and page.count('<li class="kp ') == len(statuses)
    assert html.escape(GOOD, quote=False) in page[page.index('<textarea id="practice-answer"'):]
    assert page.index('id="practice-result"') < page.index('id="model-answer"')


def test_empty_answer_scores_0_and_an_overlong_answer_is_refused(server):
    c = httpx.Client(base_url=server.url, timeout=GRADE_TIMEOUT)
    r = c.post(f"/questions/{ENTRY}/answer", data={"answer": ""}, headers=HX)
    assert r.status_code == 200
    assert 'data-score="0"' in r.text and "No answer" in r.text and "Score: <strong>0</strong>/100" in r.text

    too_long = ("Autograd records every operation on tensors that require grad. " * 400)[:20_001]
    assert len(too_long) == 20_001
    r = c.post(f"/questions/{ENTRY}/answer", data={"answer": too_long}, headers=HX)
    assert r.status_code == 422
    assert "20,001 characters" in r.text and "20,000" in r.text and 'data-score' not in r.text
    page = c.post(f"/questions/{ENTRY}/answer", data={"answer": too_long})  # without JS: the page says it
    assert page.status_code == 422 and "<html" in page.text and "the most that can be graded is 20,000" in page.text
    r = c.post(f"/questions/{ENTRY}/answer", data={"answer": too_long[:20_000]}, headers=HX)
    assert r.status_code == 200 and 'id="practice-score"' in r.text  # the limit itself is allowed


def test_a_failed_grade_says_not_graded_and_shows_no_score(db_url):
    with um.patch.dict(os.environ, LLM_DOWN):  # the server and its grader process inherit these
        srv = Server(db_url)
        srv.start()
    try:
        r = httpx.post(f"{srv.url}/questions/{ENTRY}/answer", data={"answer": GOOD}, headers=HX, timeout=GRADE_TIMEOUT)
        assert r.status_code == 200
        assert re.search(r'<strong class="bad not-graded">not graded: \S', r.text), r.text[:1000]
        assert "data-score" not in r.text and "Score:" not in r.text and "<mark" not in r.text
        assert html.escape(GOOD, quote=False) in r.text  # the answer is still shown, unmarked
    finally:
        srv.stop()


# -- Chromium ------------------------------------------------------------------------------------


@pytest.mark.browser
def test_typing_an_answer_on_the_question_page_shows_feedback(server, browser, dojo):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/questions/{ENTRY}")
    form, model = page.locator("#practice-form"), page.locator("#model-answer")
    expect(form).to_be_visible()
    assert form.bounding_box()["y"] < model.bounding_box()["y"]
    page.locator("#practice-answer").press_sequentially(GOOD, delay=1)
    page.get_by_role("button", name="Get feedback").click()
    result = page.locator("#practice-result")
    expect(result.locator(".key-point-results li")).to_have_count(len(key_points(dojo)), timeout=GRADE_TIMEOUT * 1000)
    expect(result.locator("#practice-score")).to_contain_text(re.compile(r"Score: (\d{1,3}/100 · \w+|uncertain)"))
    expect(result.locator(".your-answer mark.hit").first).to_be_visible()
    expect(result.locator("#follow-up")).to_contain_text("The interviewer follows up")
    assert page.url == f"{server.url}/questions/{ENTRY}"  # swapped in place (HTMX), not a new page
    expect(page.locator("#practice-answer")).to_have_value(GOOD)

    # Too long: the 422 message replaces the feedback in place (htmx does not swap errors by itself).
    page.locator("#practice-answer").fill("x" * 20_001)
    page.get_by_role("button", name="Get feedback").click()
    expect(result.locator("#practice-error")).to_contain_text("20,001 characters")
    expect(result.locator("#practice-score")).to_have_count(0)
    page.close()


# -- terminal ------------------------------------------------------------------------------------


def spawn(args: list[str], db_url: str, cwd) -> pexpect.spawn:
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "100",
           "TERM": "xterm-256color"}
    env.pop("TORCHDOJO_GRADER", None)  # the default (embedding) grader
    return pexpect.spawn(TORCHDOJO, args, env=env, encoding="utf-8", timeout=60, dimensions=(40, 100), cwd=str(cwd))


@pytest.mark.terminal
def test_cli_answer_typed_in_the_terminal(db_url, tmp_path, dojo):
    child = spawn(["answer", ENTRY], db_url, tmp_path)
    child.expect(re.escape(dojo.bank.get(ENTRY).meta.title))
    child.expect("End it with a line containing only")
    for line in GOOD.splitlines():
        child.expect(r"\| ")
        child.sendline(line)
    child.expect(r"\| ")
    child.sendline(".")
    child.expect("loading the answer grader")
    child.expect(r"score \d+ \((wrong|weak|adequate|excellent)\)|uncertain", timeout=GRADE_TIMEOUT)
    child.expect("Key points")
    child.expect("✓ hit")
    child.expect("Follow-up: ")
    child.expect("Self-review")
    child.expect("review > ")
    child.sendline("")  # accept the machine's proposals
    child.expect("Saved:")
    child.expect(r"Your answer is saved with scorecard #1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


@pytest.mark.terminal
def test_cli_answer_from_a_file(db_url, tmp_path):
    path = tmp_path / "answer.txt"
    path.write_text(GOOD, encoding="utf-8")
    child = spawn(["answer", ENTRY, "--file", str(path), "--no-review"], db_url, tmp_path)
    child.expect("Answer read from")
    child.expect(f"your answer \\({len(GOOD)} characters\\)")
    child.expect(r"score \d+ \(\w+\)|uncertain", timeout=GRADE_TIMEOUT)
    child.expect("Key points")
    child.expect("Follow-up: ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


def test_cli_answer_unknown_id_or_missing_file_exits_2(db_url, tmp_path):
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "200"}
    out = subprocess.run([TORCHDOJO, "answer", "no-such-entry"], env=env, capture_output=True, text=True, timeout=60,
                         input="never read\n.\n")
    assert out.returncode == 2, out
    assert "No question with id 'no-such-entry'" in out.stdout and "torchdojo search" in out.stdout
    out = subprocess.run([TORCHDOJO, "answer", ENTRY, "--file", str(tmp_path / "missing.txt")], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out
    assert "Cannot read the answer from" in out.stdout and "Key points" not in out.stdout


def test_cli_answer_that_cannot_be_graded_exits_1_without_a_score(db_url, tmp_path):
    path = tmp_path / "answer.txt"
    path.write_text(GOOD, encoding="utf-8")
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "200", **LLM_DOWN}
    out = subprocess.run([TORCHDOJO, "answer", ENTRY, "--file", str(path)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1, out
    assert "Grading failed for this answer" in out.stdout and "No score is shown" in out.stdout
    assert not re.search(r"score \d", out.stdout), out.stdout
