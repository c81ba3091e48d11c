"""Issue 14's rough edges, over HTTP against a real server and through the real CLI (Typer)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from conftest import BANK
from typer.testing import CliRunner

INIT = "super-init-module"  # title: "Why must a custom nn.Module call super().__init__() before assigning layers?"
DUNDER_EMPHASIS = re.compile(r"<(strong|em)>(init|getitem|setattr|torch_function|torch_dispatch)</\1>")
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def literal_init(html: str, where: str) -> None:
    assert "__init__" in html, f"{where}: no literal __init__"
    assert not DUNDER_EMPHASIS.search(html), f"{where}: a dunder name rendered as emphasis"


# -- 1. identifiers stay literal ----------------------------------------------------------------


def test_markdown_keeps_identifiers_literal_and_emphasis_with_stars():
    from torchdojo.bank.markup import parser

    md = parser()
    assert md.renderInline("call super().__init__() first") == "call super().__init__() first"
    assert md.renderInline("torch.__version__ and x.add_(y), _foreach_lerp_, snake_case") == \
        "torch.__version__ and x.add_(y), _foreach_lerp_, snake_case"
    assert md.renderInline("**bold** and *em*") == "<strong>bold</strong> and <em>em</em>"
    assert md.renderInline("`__init__` in code") == "<code>__init__</code> in code"
    assert md.renderInline("[a link](http://x/a__b__c)") == '<a href="http://x/a__b__c">a link</a>'


def _mock_with(dojo, entry_id: str) -> int:
    """A mock interview (junior, nn.Module concept questions) that asks ``entry_id``: the first seed
    whose plan includes it."""
    from torchdojo.practice.mock import MockConfig

    for seed in range(500):
        cfg = MockConfig(level="junior", topics=("nn-module",), types=("concept",), use_judge=False, seed=seed)
        if ("question", entry_id) in dojo.mocks.plan(cfg):
            return dojo.mocks.start(cfg, now=datetime.now(UTC)).id
    pytest.fail(f"no seed plans {entry_id}")


def test_every_page_showing_an_entry_shows_init_literally(server, dojo):
    c = httpx.Client(base_url=server.url, timeout=30)
    literal_init(c.get(f"/questions/{INIT}").text, "question page (title, key points, answer)")
    hits = c.get("/questions", params={"q": "super init assigning layers"}).text
    assert f'href="/questions/{INIT}"' in hits
    literal_init(hits, "questions list")
    literal_init(c.get("/questions", params={"topic": "nn-module", "level": "junior"}).text, "questions list, browsing")
    literal_init(c.get(f"/review/{INIT}/answer").text, "review card")

    mock_id = _mock_with(dojo, INIT)
    pos = 1 + [i.ref_id for i in dojo.mocks.get(mock_id).items].index(INIT)
    literal_init(c.get(f"/mock/{mock_id}/{pos}").text, "mock question")

    sid = dojo.scorecards.create(INIT, "It registers the parameters.", None, context="practice")
    literal_init(c.get(f"/scorecards/{sid}").text, "scorecard")

    iv = dojo.interviews.start([INIT, "view-reshape-contiguous"], candidate="A", interviewer="B")
    literal_init(c.get(f"/interview/{iv}").text, "interviewer page")
    literal_init(dojo.interviews.html(iv), "scorecard export (the PDF's HTML)")


# -- 2, 4, 5. the question page ---------------------------------------------------------------------


def test_question_page_folds_the_model_answer_and_shows_no_internal_text(server, dojo):
    page = httpx.get(f"{server.url}/questions/{INIT}").text
    details = re.search(r'<details class="model-answer" id="model-answer"([^>]*)>\s*<summary>([^<]*)', page)
    assert details, "the model answer is not in a <details>"
    assert "open" not in details.group(1), "the model answer is open under 'answer before you read on'"
    assert "Show the model answer" in details.group(2)
    assert "Key points a strong answer makes" in page  # still on the page, folded
    covered = next(e for e in dojo.bank if e.meta.coverage)
    page = httpx.get(f"{server.url}/questions/{covered.id}").text
    assert "catalogue rows" not in page and covered.meta.coverage[0] not in page


def test_chips_show_each_label_once(server, dojo):
    debugging = next(e for e in dojo.bank if e.meta.type == "debugging" and "debugging" in e.meta.topics)
    for url in (f"/questions/{debugging.id}", f"/review/{debugging.id}/answer"):
        page = httpx.get(server.url + url).text
        badges = re.search(r'<div class="badges">(.*?)</div>', page, re.S).group(1)
        labels = [x.strip().lower() for x in re.findall(r'class="badge[^"]*"[^>]*>([^<]+)<', badges)]
        assert labels.count("debugging") == 1, (url, labels)
    page = httpx.get(server.url + "/questions", params={"type": "debugging", "topic": "debugging"}).text
    assert page.count('<span class="badge topic">Debugging</span>') == 0
    assert page.count('<span class="badge type">debugging</span>') >= 1
    challenges = httpx.get(server.url + "/challenges", params={"topic": "debugging"}).text
    assert re.search(r'badge type">debug</span>\s*<span class="badge topic">Debugging', challenges) is None


# -- 3. paging --------------------------------------------------------------------------------------


def test_paginate_counts_pages_and_refuses_past_the_end():
    from torchdojo.practice.paging import PageOutOfRange, paginate

    p = paginate(list(range(101)), 3, per_page=50)
    assert (p.items, p.number, p.pages, p.total, p.first, p.last) == ([100], 3, 3, 101, 101, 101)
    assert paginate([], 1).pages == 1 and paginate([], 1).items == []
    with pytest.raises(PageOutOfRange, match="Page 4 is past the end"):
        paginate(list(range(101)), 4, per_page=50)
    with pytest.raises(ValueError):
        paginate([1], 0)


def test_questions_list_is_paged_and_keeps_the_filters(server, dojo):
    c = httpx.Client(base_url=server.url)
    total = len(dojo.bank)
    assert total > 100
    first = c.get("/questions").text
    assert first.count('<li class="result">') == 50
    assert f"{total} questions" in first and "showing 1–50" in first
    pages = -(-total // 50)
    assert f"Page 1 of {pages}" in first and 'href="/questions?page=2"' in first
    second = c.get("/questions", params={"page": 2}).text
    assert second.count('<li class="result">') == 50 and "showing 51–100" in second
    assert not set(re.findall(r'href="/questions/([\w-]+)"', first)) & set(re.findall(r'href="/questions/([\w-]+)"', second))
    # filters and the query are kept in the page links
    tensors = sum("tensors" in e.meta.topics for e in dojo.bank)
    assert tensors > 50
    t1 = c.get("/questions", params={"topic": "tensors"}).text
    assert 'href="/questions?topic=tensors&amp;page=2"' in t1
    t2 = c.get("/questions", params={"topic": "tensors", "page": 2}).text
    assert t2.count('<li class="result">') == tensors - 50
    hits = c.get("/questions", params={"q": "tensor", "level": "mid"}).text
    assert 'href="/questions?q=tensor&amp;level=mid&amp;page=2"' in hits
    # past the end: 404 naming the last page; not a number: 422
    r = c.get("/questions", params={"page": pages + 1})
    assert r.status_code == 404 and f"fill {pages} page(s)" in r.text and f"/questions?page={pages}" in r.text
    assert c.get("/questions", params={"page": "x"}).status_code == 422
    assert c.get("/questions", params={"page": 0}).status_code == 422


# -- 6. invalid filters -------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "params", "allowed"), [
    ("/questions", {"level": "expert"}, "junior, mid, senior"),
    ("/questions", {"topic": "nope"}, "tensors, autograd"),
    ("/questions", {"type": "x"}, "concept, coding, debugging"),
    ("/challenges", {"level": "expert"}, "junior, mid, senior"),
    ("/challenges", {"topic": "nope"}, "autograd"),
    ("/challenges", {"status": "done"}, "solved, attempted, new"),
    ("/review", {"level": "expert"}, "junior, mid, senior"),
    ("/review", {"topic": "nope"}, "tensors, autograd"),
])
def test_unknown_filters_are_a_400_naming_the_allowed_values(server, path, params, allowed):
    r = httpx.get(server.url + path, params=params)
    assert r.status_code == 400, (path, params, r.status_code)
    field, value = next(iter(params.items()))
    assert f"Unknown {field} &#39;{value}&#39;" in r.text and allowed in r.text
    assert "<html" in r.text  # a page with the message, not a bare error
    assert httpx.get(server.url + path, params={field: ""}).status_code == 200  # empty means any


# -- 10, 11. challenges: best verdict, submissions total ---------------------------------------------


def _submit(dojo, challenge_id: str, verdict: str, minutes: int, mode: str = "submit") -> None:
    from torchdojo.store.models import SubmissionRow

    with dojo.sessions.begin() as s:
        s.add(SubmissionRow(challenge_id=challenge_id, mode=mode, code="pass\n", verdict=verdict, report="{}",
                            backend="test", created_at=T0 + timedelta(minutes=minutes)))


def test_best_verdict_ignores_judge_errors(dojo):
    from torchdojo.judge.service import JUDGE_ERROR_ONLY

    _submit(dojo, "layer-norm", "Wrong Answer", 1)
    _submit(dojo, "layer-norm", "Judge Error", 2)  # newest, but says nothing about the code
    _submit(dojo, "stable-softmax", "Judge Error", 1)
    _submit(dojo, "stable-softmax", "Judge Error", 2)
    _submit(dojo, "gelu-tanh", "Accepted", 1)
    _submit(dojo, "gelu-tanh", "Judge Error", 2)
    _submit(dojo, "gelu-tanh", "Time Limit Exceeded", 3)
    best = dojo.judge.best_verdicts()
    assert best["layer-norm"] == "Wrong Answer"
    assert best["stable-softmax"] == JUDGE_ERROR_ONLY
    assert best["gelu-tanh"] == "Accepted"


def test_challenge_list_and_page_show_real_verdicts_and_the_submission_total(server, dojo, db_url):
    for i in range(23):
        _submit(dojo, "layer-norm", "Wrong Answer" if i == 0 else "Judge Error", i)
    page = httpx.get(f"{server.url}/challenges/layer-norm").text
    assert "Your submissions (23, latest 20 shown)" in page
    assert page.count('<li><a href="/submissions/') == 20
    lst = httpx.get(f"{server.url}/challenges", params={"q": "layer-norm"}).text
    assert "Attempted: Wrong Answer" in lst and "Attempted: Judge Error" not in lst

    from torchdojo.cli.main import app

    r = CliRunner().invoke(app, ["challenge", "list"], env={"TORCHDOJO_DATABASE_URL": db_url,
                                                            "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    row = next(line for line in r.output.splitlines() if " layer-norm " in line)
    assert "Wrong Answer" in row and "Judge Error" not in row


# -- 8, 9 and 1 in the terminal -----------------------------------------------------------------------


def _cli(db_url, *args):
    from torchdojo.cli.main import app

    env = {"TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "200"}
    return CliRunner().invoke(app, list(args), env=env)


def test_search_help_points_to_a_topics_command_that_lists_slugs_with_counts(db_url, dojo):
    help_text = _cli(db_url, "search", "--help").output
    assert "torchdojo topics" in help_text
    r = _cli(db_url, "topics")
    assert r.exit_code == 0, r.output
    autograd = sum("autograd" in e.meta.topics for e in dojo.bank)
    row = next(line for line in r.output.splitlines() if " autograd " in line)
    assert re.search(rf"\bAutograd\b.*\b{autograd}\b", row), row
    for slug in ("tensors", "nn-module", "behavioral"):
        assert f" {slug} " in r.output


def test_show_titles_its_panel_with_the_entry_and_prints_dunders_literally(db_url):
    r = _cli(db_url, "show", INIT)
    assert r.exit_code == 0, r.output
    top = r.output.splitlines()[0]
    assert "0 left" not in r.output and INIT in top, top
    assert "super().__init__()" in r.output


def test_terminal_markdown_prints_dunders_literally():
    from rich.console import Console

    from torchdojo.cli.markdown import Markdown

    console = Console(width=100, record=True, color_system=None)
    console.print(Markdown("Call super().__init__() first; __torch_function__ sees **every** call."))
    text = console.export_text()
    assert "super().__init__()" in text and "__torch_function__" in text, text  # Rich alone prints "init"
    assert "**" not in text  # emphasis with stars still works
