"""Interviewer mode: the core (kits, live marks, finalize, Markdown/PDF), the web routes' errors,
the CLI export, and the whole flow in Debian's Chromium from kit to the exported PDF."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import BANK, ROOT
from sqlalchemy import func, select

from torchdojo.practice.interviews import InterviewError, InterviewFinal, InterviewNotFound
from torchdojo.practice.mock import BLUEPRINTS
from torchdojo.practice.scorecards import score_of

SRC = str(ROOT / "src")
#: Page 1 of the exported PDF, rendered for a person to look at (in the test's own temp folder
#: unless TORCHDOJO_SCREENSHOTS names a folder).
PNG_DIR = os.environ.get("TORCHDOJO_SCREENSHOTS")


def _env(db_url: str) -> dict[str, str]:
    return {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK),
            "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""), "COLUMNS": "200"}


def _cli(db_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "torchdojo.cli.main", *args], env=_env(db_url), capture_output=True,
                          text=True, timeout=120)


def _pdf_text(path: Path) -> str:
    """The PDF's text, whitespace folded (pdftotext from poppler-utils, else pypdf)."""
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout
    else:
        pypdf = pytest.importorskip("pypdf")
        text = "\n".join(p.extract_text() for p in pypdf.PdfReader(str(path)).pages)
    return " ".join(text.split())


# -- core ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["junior", "mid", "senior"])
def test_kit_follows_the_level_blueprint(dojo, level):
    bp = BLUEPRINTS[level]
    kit = dojo.interviews.kit(level, seed=7)
    entries = [dojo.bank.get(e) for e in kit]
    assert all(entries) and len(set(kit)) == len(kit)  # bank entries only, no challenges, no repeats
    assert len(kit) == round(bp.minutes / bp.minutes_per_item)
    assert {e.meta.type for e in entries} <= set(bp.types)
    assert {e.meta.level for e in entries} <= set(bp.levels)
    levels = Counter(e.meta.level for e in entries)
    assert levels.most_common(1)[0][0] == level  # mostly questions at the role's level
    if "coding" in bp.types:
        assert any(e.meta.type == "coding" for e in entries)  # coding asked as a discussion question


def test_kit_choices_and_bad_set_ups(dojo):
    kit = dojo.interviews.kit("mid", topics=["autograd"], types=["concept"], count=3, seed=1)
    assert len(kit) == 3
    assert all(dojo.bank.get(e).meta.type == "concept" and "autograd" in dojo.bank.get(e).meta.topics for e in kit)
    assert len(dojo.interviews.kit("senior", count=1, seed=2)) == 1
    assert dojo.interviews.kit("mid", seed=5) == dojo.interviews.kit("mid", seed=5)
    for bad in ({"level": "staff"}, {"level": "mid", "count": 0}, {"level": "mid", "count": 16},
                {"level": "mid", "topics": ["nope"]}, {"level": "mid", "types": ["trivia"]}):
        with pytest.raises(InterviewError):
            dojo.interviews.kit(**bad)
    with pytest.raises(InterviewError, match="no entry"):
        dojo.interviews.start(["no-such-entry"])
    with pytest.raises(InterviewError, match="no questions"):
        dojo.interviews.start([])


def test_marks_commit_finalize_scores_and_refuses_later_changes(dojo, settings):
    from torchdojo.core import Dojo
    from torchdojo.store.models import CardRow

    ivs = dojo.interviews
    kit = ivs.kit("mid", count=3, seed=3)
    iid = ivs.start(kit, "Ada Lovelace", "Grace Hopper", level="mid")
    iv = ivs.get(iid)
    assert iv.status == "open" and [q.entry.id for q in iv.questions] == kit
    assert all(q.card.context == "interview" and q.card.reviewer == "interviewer" for q in iv.questions)
    assert all(ln.proposal is None and ln.mark is None for q in iv.questions for ln in q.card.lines)
    c0, c1 = iv.questions[0].card, iv.questions[1].card
    kps = [ln for ln in c0.lines if ln.kind == "key-point"]
    mis = next(ln for ln in c0.lines if ln.kind == "misconception")

    ivs.mark(iid, c0.id, kps[0].position, "covered", note="crisp, with an example")
    ivs.mark(iid, c0.id, kps[1].position, "2")  # key 2 = partly
    ivs.mark(iid, c0.id, kps[2].position, "missed")
    ivs.mark(iid, c0.id, mis.position, "not-stated")
    ivs.mark(iid, c0.id, kps[3].position, None, note="did not get to it")  # a note alone
    ivs.set_question_notes(iid, c0.id, "Needed one hint on gather.")
    ivs.set_overall(iid, "yes", "Solid fundamentals.")

    # Every mark is committed: a new process (a new Dojo) sees it.
    again = Dojo(settings).interviews.get(iid)
    lines = {ln.position: ln for ln in again.questions[0].card.lines}
    assert lines[kps[0].position].mark == "covered" and lines[kps[0].position].note == "crisp, with an example"
    assert lines[kps[1].position].mark == "partly" and lines[kps[1].position].marked_by == "interviewer"
    assert lines[kps[3].position].mark is None and lines[kps[3].position].note == "did not get to it"
    assert again.recommendation == "yes" and again.notes == "Solid fundamentals."

    with pytest.raises(InterviewError, match="takes one of") as e:
        ivs.mark(iid, c0.id, kps[0].position, "excellent")
    assert not isinstance(e.value, InterviewFinal)
    with pytest.raises(InterviewNotFound):
        ivs.mark(iid, c0.id, 999, "covered")
    with pytest.raises(InterviewError):
        ivs.set_overall(iid, "maybe")
    other = ivs.start(ivs.kit("junior", count=2, seed=1))
    with pytest.raises(InterviewNotFound):
        ivs.mark(other, c0.id, 0, "covered")  # a scorecard of another interview

    with dojo.sessions() as s:
        cards_before = s.scalar(select(func.count()).select_from(CardRow))
    done = ivs.finalize(iid)
    assert done.final and done.finalized_at is not None
    q0 = done.questions[0]
    expected = score_of(q0.card.lines, {ln.position: ln.mark for ln in q0.card.lines})
    assert q0.card.final and (q0.card.score, q0.card.band) == expected
    assert q0.score == round(100 * (kps[0].weight + 0.5 * kps[1].weight) / (kps[0].weight + kps[1].weight + kps[2].weight))
    assert all(q.card.final and q.score is None for q in done.questions[1:])  # nothing marked: no score
    with dojo.sessions() as s:  # the candidate's misses are not the interviewer's flashcards
        assert s.scalar(select(func.count()).select_from(CardRow)) == cards_before

    for change in (lambda: ivs.mark(iid, c0.id, kps[0].position, "missed"),
                   lambda: ivs.mark(iid, c1.id, 0, None, note="late"),
                   lambda: ivs.set_question_notes(iid, c0.id, "late"),
                   lambda: ivs.set_overall(iid, "no"),
                   lambda: ivs.finalize(iid)):
        with pytest.raises(InterviewFinal, match="finished"):
            change()
    assert ivs.get(iid).questions[0].card.lines[kps[0].position].mark == "covered"


def test_markdown_has_the_marks_notes_and_recommendation(dojo):
    ivs = dojo.interviews
    iid = ivs.start(ivs.kit("junior", count=2, seed=4), "Ada | Lovelace", "Grace")
    card = ivs.get(iid).questions[0].card
    ivs.mark(iid, card.id, 0, "covered", note="explained | with shapes")
    ivs.mark(iid, card.id, 1, "wrong")
    ivs.set_question_notes(iid, card.id, "Mixed up view and reshape.\nRecovered after a hint.")
    ivs.set_overall(iid, "strong-no", "Not yet.")
    ivs.finalize(iid)
    md = ivs.markdown(iid)
    iv = ivs.get(iid)
    title = iv.questions[0].entry.meta.title
    assert md.startswith("# Interview scorecard: Ada | Lovelace")
    assert "**Interviewer:** Grace" in md and "**Level:** junior" in md and "**Status:** final" in md
    assert "**Strong no** — Well below the bar" in md and "> Not yet." in md
    assert f"## 1. {title}" in md
    assert "| **covered** | explained \\| with shapes |" in md  # pipes escaped inside the table
    assert "| **wrong** |" in md and "*unmarked*" in md
    assert "> Mixed up view and reshape.\n> Recovered after a hint." in md
    assert f"**Score:** {iv.questions[0].score} ({['wrong', 'weak', 'adequate', 'excellent'][iv.questions[0].band]})" in md
    assert "**Score:** not scored" in md  # the second question was not marked
    pdf = ivs.pdf(iid)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 5000


# -- web (in-process client: statuses and messages) ---------------------------------------------


def test_web_errors_are_4xx_with_a_message(dojo):
    from starlette.testclient import TestClient

    from torchdojo.web.app import create_app

    c = TestClient(create_app(dojo=dojo), base_url="http://127.0.0.1")
    h = {"Origin": "http://127.0.0.1"}
    r = c.post("/interview", data={"level": "mid", "count": "2", "candidate": "Ada"}, headers=h, follow_redirects=False)
    assert r.status_code == 303
    iid = int(r.headers["location"].rsplit("/", 1)[1])
    sid = dojo.interviews.get(iid).questions[0].card.id
    base = f"/interview/{iid}/card/{sid}/line"
    r = c.post(f"{base}/0", data={"mark": "covered", "note": "ok"}, headers={**h, "HX-Request": "true"})
    assert r.status_code == 200 and 'aria-pressed="true"' in r.text and 'id="card-' in r.text
    r = c.post(f"{base}/0", data={"mark": "bogus"}, headers={**h, "HX-Request": "true"})
    assert r.status_code == 422 and "takes one of covered, partly, missed, wrong" in r.text
    assert c.post(f"{base}/999", data={"mark": "1"}, headers=h).status_code == 404
    assert c.post(f"/interview/{iid}/card/{sid + 999}/line/0", data={"mark": "1"}, headers=h).status_code == 404
    assert c.post(f"/interview/{iid + 999}/card/{sid}/line/0", data={"mark": "1"}, headers=h).status_code == 404
    assert c.get(f"/interview/{iid + 999}").status_code == 404
    assert c.get("/interview/abc").status_code == 422
    assert c.get(f"/interview/{2**64}/export.pdf").status_code == 422
    assert c.post(f"/interview/{iid}/overall", data={"recommendation": "maybe"}, headers=h).status_code == 422
    r = c.post("/interview", data={"level": "mid", "count": "40"}, headers=h)
    assert r.status_code == 422 and "between 1 and 15" in r.text
    assert c.post("/interview", data={"level": "principal"}, headers=h).status_code == 422
    r = c.post(f"{base}/1", data={"mark": "2"}, headers=h, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("#q-1")  # plain-form fallback
    assert c.post(f"/interview/{iid}/finish", headers=h, follow_redirects=False).status_code == 303
    r = c.post(f"{base}/0", data={"mark": "missed"}, headers=h)
    assert r.status_code == 409 and "is finished" in r.text
    assert c.post(f"/interview/{iid}/finish", headers=h).status_code == 409
    r = c.get(f"/interview/{iid}/export.md")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown") and "Ada" in r.text


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_lists_and_exports(dojo, db_url, tmp_path):
    ivs = dojo.interviews
    iid = ivs.start(ivs.kit("mid", count=2, seed=9), "[bold]Eve[/bold]", "Mallory")
    card = ivs.get(iid).questions[0].card
    ivs.mark(iid, card.id, 0, "covered", note="fine")
    ivs.set_overall(iid, "strong-yes", "Hire.")
    ivs.finalize(iid)

    r = _cli(db_url, "interview", "list")
    assert r.returncode == 0, r.stderr
    assert "[bold]Eve[/bold]" in r.stdout and "strong-yes" in r.stdout  # markup printed literally
    r = _cli(db_url, "interview", "export", str(iid))
    assert r.returncode == 0, r.stderr
    assert r.stdout == ivs.markdown(iid)
    out = tmp_path / "card.pdf"
    r = _cli(db_url, "interview", "export", str(iid), "--format", "pdf", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes().startswith(b"%PDF-")
    text = _pdf_text(out)
    assert "[bold]Eve[/bold]" in text and "Strong yes" in text and "Hire." in text
    r = _cli(db_url, "interview", "export", "4242")
    assert r.returncode == 1 and "no interview #4242" in r.stderr


# -- the browser, from kit to the exported PDF --------------------------------------------------


def test_interviewer_mode_from_kit_to_pdf_in_chromium(server, browser, tmp_path):
    from playwright.sync_api import expect

    page = browser.new_page(accept_downloads=True)
    page.goto(server.url + "/")
    page.get_by_role("link", name="Interviewer", exact=True).click()
    expect(page).to_have_url(re.compile(r"/interview$"))

    # Build a kit.
    page.locator("#candidate").fill("Ada Lovelace")
    page.locator("#interviewer").fill("Grace Hopper")
    page.locator('input[name="level"][value="mid"]').check()
    page.locator("#count").fill("3")
    page.locator("#build-kit").click()
    expect(page).to_have_url(re.compile(r"/interview/\d+$"))
    iid = int(page.url.rsplit("/", 1)[1])
    expect(page.locator(".iv-question")).to_have_count(3)
    expect(page.locator("#candidate-name")).to_have_text("Ada Lovelace")
    first = page.locator("#q-1")
    title = " ".join(first.locator(".iv-title").inner_text().split(". ", 1)[1].split())
    expect(first.locator(".strong-answer")).not_to_be_empty()
    assert first.locator(".follow-ups li").count() >= 2

    # Mark a few lines with clicks; each mark is saved and the card's score updates in place.
    card = first.locator(".iv-card")
    sid = card.get_attribute("data-scorecard")
    line0 = card.locator("form.iv-line").nth(0)
    line0.locator(".iv-note").fill("clear, with a shape example")
    line0.get_by_role("button", name=re.compile("covered$")).click()
    expect(card.locator("form.iv-line").nth(0).locator(".mark-covered")).to_have_attribute("aria-pressed", "true")
    card.locator("form.iv-line").nth(1).get_by_role("button", name=re.compile("partly$")).click()
    expect(card.locator("form.iv-line").nth(1).locator(".mark-partly")).to_have_attribute("aria-pressed", "true")
    expect(card.locator("[data-score]")).to_be_visible()
    expect(card.locator("form.iv-line").nth(0).locator(".iv-note")).to_have_value("clear, with a shape example")
    second = page.locator("#q-2 .iv-card")
    second.locator("form.iv-line").nth(0).get_by_role("button", name=re.compile("missed$")).click()
    expect(page.locator("#q-2 form.iv-line").nth(0)).to_have_attribute("data-mark", "missed")

    # The sheet fits a phone's width (long code-like key points wrap).
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    page.set_viewport_size({"width": 1280, "height": 900})

    # The print stylesheet hides the app's chrome and the buttons.
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator("#finish")).to_be_hidden()
    page.emulate_media(media="screen")

    # Overall recommendation, then finish (confirmed).
    page.locator(".rec-card.rec-yes").click()
    page.locator("#overall-notes").fill("Strong on tensors; revisit autograd hooks.")
    page.locator("#save-overall").click()
    expect(page.locator("#overall-saved")).to_have_text("Saved.")
    page.once("dialog", lambda d: d.accept())
    page.locator("#finish").click()
    expect(page.locator("#iv-status")).to_have_text("finished")
    expect(page.locator("#q-1 .mark-btn").first).to_be_disabled()
    r = page.request.post(f"{server.url}/interview/{iid}/card/{sid}/line/0", form={"mark": "missed"},
                          headers={"Origin": server.url})
    assert r.status == 409 and "is finished" in r.text()

    # Download the PDF, check its text, render page 1 to PNG.
    with page.expect_download() as dl:
        page.locator("#download-pdf").click()
    pdf = tmp_path / "scorecard.pdf"
    dl.value.save_as(pdf)
    assert dl.value.suggested_filename == f"interview-{iid}.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-")
    text = _pdf_text(pdf)
    assert "Ada Lovelace" in text and "Grace Hopper" in text
    assert title in text, (title, text[:2000])
    assert "Yes — At the bar" in text and "Strong on tensors; revisit autograd hooks." in text
    assert "covered" in text and "clear, with a shape example" in text
    png = Path(PNG_DIR or tmp_path) / "interview-page1.png"  # pdftoppm: poppler-utils, installed by setup.sh --test
    png.unlink(missing_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(png.with_suffix(""))], check=True)
    assert png.stat().st_size > 10_000
    page.close()
