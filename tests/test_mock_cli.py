"""``torchdojo mock`` and key-point cards in ``torchdojo study``, in a real pseudo-terminal (pexpect),
against a real SQLite file and the real bank."""

from __future__ import annotations

import os
import re
import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pexpect
import pytest
from conftest import BANK, TORCHDOJO

pytestmark = pytest.mark.terminal

#: The LLM grader pointed at a port nothing listens on: grading fails fast, and says so.
DEAD_LLM = {"TORCHDOJO_GRADER": "llm", "TORCHDOJO_LLM_BASE_URL": "http://127.0.0.1:9/v1", "TORCHDOJO_LLM_MODEL": "none"}
GRADING_TIMEOUT = 600  # the first embedding grade loads a model; this machine is shared and loaded


def spawn(args: list[str], db_url: str, cwd: Path, extra_env: dict[str, str] | None = None) -> pexpect.spawn:
    env = {
        **os.environ,
        "TORCHDOJO_DATABASE_URL": db_url,
        "TORCHDOJO_BANK_DIR": str(BANK),
        "COLUMNS": "100",
        "TERM": "xterm-256color",
    }
    env.pop("TORCHDOJO_GRADER", None)  # the default grader unless the test asks for another
    env.update(extra_env or {})
    return pexpect.spawn(TORCHDOJO, args, env=env, encoding="utf-8", timeout=60, dimensions=(40, 100), cwd=str(cwd))


def prompt(n: int, total: int) -> str:
    return rf"mock #\d+ \[{n}/{total}\] > "


def answer(child: pexpect.spawn, lines: list[str]) -> None:
    child.sendline("a")
    child.expect("End it with a line containing only")
    for line in lines:
        child.expect(r"\| ")
        child.sendline(line)
    child.expect(r"\| ")
    child.sendline(".")
    child.expect("Saved")


def finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF, timeout=GRADING_TIMEOUT)
    child.close()


def mocks(settings):
    from torchdojo.core import Dojo

    return Dojo(settings).mocks


def test_answer_flag_navigate_reveal_quit_resume_submit(settings, db_url, tmp_path):
    child = spawn(
        ["mock", "--level", "junior", "--minutes", "10", "--no-judge", "--seed", "1"], db_url, tmp_path, DEAD_LLM
    )
    child.expect(r"Mock interview #(\d+)")
    mock_id = int(child.match.group(1))
    child.expect("Junior screens check fundamentals")  # the blueprint's why
    child.expect("Item 1/2")
    child.expect(r"1·.*2·")  # the navigator: nothing answered yet
    child.expect(prompt(1, 2))
    lines = [
        "nn.Module layers own parameters and buffers, so they are registered and saved.",
        "torch.nn.functional is stateless: use it for ops without weights, like relu.",
    ]
    answer(child, lines)
    child.expect(r"1✓")  # the navigator now shows item 1 answered
    child.expect(prompt(1, 2))
    m = mocks(settings).get(mock_id)
    assert m.items[0].answer == "\n".join(lines)  # autosaved before the next prompt

    child.sendline("n")
    child.expect("Item 2/2")
    child.expect(prompt(2, 2))
    child.sendline("f")
    child.expect("flagged")
    child.expect(r"2·⚑")
    child.expect(prompt(2, 2))
    child.sendline("p")
    child.expect("Item 1/2")
    child.expect(prompt(1, 2))
    child.sendline("g 2")
    child.expect("Item 2/2")
    child.expect(prompt(2, 2))
    child.sendline("g 9")
    child.expect("Go to which item")
    child.expect(prompt(2, 2))
    child.sendline("r")
    child.expect("locks the item")
    child.expect(r"\[y/N\]")
    child.sendline("y")
    child.expect("In 20 seconds")
    child.expect("Key points")
    child.expect(prompt(2, 2))
    m = mocks(settings).get(mock_id)
    assert m.items[1].revealed_before_answer and m.items[1].flagged
    assert not m.items[0].revealed_before_answer and not m.items[0].flagged
    child.sendline("a")  # locked now: the core refuses, the face says why
    child.expect("stays unanswered")
    child.expect(prompt(2, 2))
    child.sendline("l")
    child.expect("locked \\(revealed\\)")
    child.expect(prompt(2, 2))
    child.sendline("q")
    child.expect("Paused")
    child.expect("torchdojo mock --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    m = mocks(settings).get(mock_id)
    assert m.status == "active" and m.items[0].answer == "\n".join(lines)
    assert m.items[0].time_spent_ms > 0  # open_item was called: the core measured time on item 1

    # Resume in a new process: the saved answer is still there.
    child = spawn(["mock", "--resume"], db_url, tmp_path, DEAD_LLM)
    child.expect("Resuming: 1/2 answered")
    child.expect("Item 1/2")
    child.expect("your saved answer")
    child.expect("nn.Module layers own parameters")
    child.expect(prompt(1, 2))
    child.sendline("s")
    child.expect(r"1 item\(s\) are unanswered.*\[y/N\]")
    child.sendline("y")
    child.expect("loading the answer grader")
    child.expect(r"Report · mock #\d+", timeout=GRADING_TIMEOUT)
    child.expect("ended: submitted")
    child.expect(r"Grading failed for 1 item\(s\) \(1\)")
    child.expect(r"Items: .*1✓.*2·⚑")  # final navigator with the flag
    child.expect("score")  # the per-item table
    child.expect("grading failed")  # item 1: no score shown as if graded
    child.expect("before answer")  # item 2 revealed before answering
    child.expect("Score by topic")
    child.expect("Score by level")
    child.expect("Grading failed for this item: ")
    child.expect("connection")
    child.expect("Study plan")
    # only graded items count: item 1 failed grading, item 2 (unanswered, locked) scored 0
    child.expect(re.escape(mocks(settings).get(mock_id).items[1].ref_id))
    child.expect(r"key-point flashcard\(s\) added")
    child.expect("torchdojo study")
    child.expect("revealed before answering on 2")
    finish(child)
    assert child.exitstatus == 0
    m = mocks(settings).get(mock_id)
    assert m.status == "graded" and m.end_reason == "submitted"
    assert "error" in m.items[0].feedback

    child = spawn(["mock", "history"], db_url, tmp_path)
    child.expect(r"1 mock interview\(s\)")
    child.expect("submitted")
    finish(child)
    assert child.exitstatus == 0
    child = spawn(["mock", "report"], db_url, tmp_path)
    child.expect(rf"Report · mock #{mock_id}")
    child.expect("grading failed")
    finish(child)
    assert child.exitstatus == 0


def test_time_out_interrupts_typing(settings, db_url, tmp_path):
    from torchdojo.core import Dojo
    from torchdojo.practice.mock import MockConfig

    # The deadline falls 30 s after this line: enough for the CLI to start and show its prompts on a
    # busy machine (8 s was not, with the load at 10 on 2 cores), then the alarm interrupts typing.
    started = datetime.now(UTC) - timedelta(minutes=5) + timedelta(seconds=30)
    m = Dojo(settings).mocks.start(MockConfig(level="junior", minutes=5, use_judge=False, seed=2), now=started)
    child = spawn(["mock", "--resume"], db_url, tmp_path)
    child.expect(prompt(1, 2))
    child.sendline("a")
    child.expect(r"\| ")
    child.sendline("a first line that is never finished")
    child.expect(r"\| ")
    child.send("still typing")  # no newline, no '.': input() is pending when the alarm fires
    child.expect("Time is up", timeout=120)
    child.expect(r"Report · mock #\d+", timeout=GRADING_TIMEOUT)
    child.expect("ended: time-out")
    child.expect("Time ran out")
    finish(child)
    assert child.exitstatus == 0
    got = mocks(settings).get(m.id)
    assert got.end_reason == "time-out" and got.status == "graded"
    assert all(not i.answered for i in got.items)  # nothing typed after the deadline was saved


def test_answer_survives_sigkill(settings, db_url, tmp_path):
    child = spawn(["mock", "--level", "junior", "--minutes", "10", "--no-judge", "--seed", "3"], db_url, tmp_path)
    child.expect(r"Mock interview #(\d+)")
    mock_id = int(child.match.group(1))
    child.expect(prompt(1, 2))
    answer(child, ["saved before the crash", "second line"])
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == signal.SIGKILL
    m = mocks(settings).get(mock_id)
    assert m.status == "active" and m.items[0].answer == "saved before the crash\nsecond line"
    # Starting again offers to resume the running mock (instead of silently starting another).
    child = spawn(["mock", "--level", "junior", "--no-judge"], db_url, tmp_path)
    child.expect(rf"Mock #{mock_id} \(junior, 1/2 answered\) is still running")
    child.expect(r"Resume it\? \[Y/n\]")
    child.sendline("")
    child.expect("Resuming: 1/2 answered")
    child.expect(prompt(2, 2))  # resumes at the first unanswered item
    child.sendline("g 1")
    child.expect("your saved answer")
    child.expect("saved before the crash")
    child.expect(prompt(1, 2))
    child.sendline("q")
    finish(child)
    assert child.exitstatus == 0
    assert [x.id for x in mocks(settings).list()] == [mock_id]  # no second mock was started


def test_unknown_level_is_a_user_error(db_url, tmp_path):
    child = spawn(["mock", "--level", "principal"], db_url, tmp_path)
    child.expect("unknown level 'principal': use one of junior, mid, senior")
    finish(child)
    assert child.exitstatus == 2
    assert "Traceback" not in (child.before or "")
    child = spawn(["mock", "report", "99"], db_url, tmp_path)
    child.expect("there is no mock interview 99")
    finish(child)
    assert child.exitstatus == 2


def test_report_with_the_embedding_grader(settings, db_url, tmp_path):
    """The default grader: key points hit with the answer span that shows them."""
    from torchdojo.core import Dojo

    child = spawn(["mock", "--level", "junior", "--minutes", "10", "--no-judge", "--seed", "1"], db_url, tmp_path)
    child.expect(r"Mock interview #(\d+)")
    mock_id = int(child.match.group(1))
    child.expect(prompt(1, 2))
    entry = Dojo(settings).bank.get(mocks(settings).get(mock_id).items[0].ref_id)
    answer(child, [k.text for k in entry.meta.key_points[:3]])
    child.expect(prompt(1, 2))
    t0 = time.monotonic()
    child.sendline("s")
    child.expect(r"\[y/N\]")
    child.sendline("y")
    child.expect("loading the answer grader")
    child.expect("Self-review", timeout=GRADING_TIMEOUT)  # the review comes before the report
    print(f"grading with the embedding grader took {time.monotonic() - t0:.1f} s")
    child.expect("review > ")
    child.sendline("s")  # skip it: the report shows the machine's estimates, unconfirmed
    child.expect("Review skipped")
    child.expect(r"Report · mock #\d+", timeout=GRADING_TIMEOUT)
    child.expect("Score by topic")
    child.expect("Feedback per answer")
    child.expect("Key points")
    child.expect("✓ hit")
    child.expect("“")  # the quoted answer span that shows a hit
    child.expect("Study plan")
    child.expect(r"key-point flashcard\(s\) added")
    finish(child)
    assert child.exitstatus == 0
    m = mocks(settings).get(mock_id)
    assert m.status == "graded"
    fb = m.items[0].feedback
    assert fb and not fb.get("error") and any(k["status"] == "hit" for k in fb["key_points"])


def test_study_reviews_a_key_point_card(settings, db_url, tmp_path):
    from torchdojo.core import Dojo

    d = Dojo(settings)
    entry = d.bank.get("functional-vs-module-layers")
    kp = next(k for k in entry.meta.key_points if k.id == "state-needs-module")
    probe = next(f.text for f in entry.meta.follow_ups if kp.id in f.probes and f.text)
    (card_id,) = d.flashcards.add_key_point_cards(entry.id, [kp.id])
    assert d.flashcards.queue()[0] == card_id  # due now: first in the queue
    child = spawn(["study"], db_url, tmp_path)
    child.expect(re.escape(entry.meta.title[:40]))
    child.expect("Key point you missed in a mock interview")
    child.expect(re.escape(probe[:40]))
    child.expect("Enter")
    child.sendline("")
    child.expect("The key point")
    child.expect(re.escape(kp.text[:30]))
    child.expect(rf"weight {kp.weight}/3")
    child.expect("In 20 seconds")
    child.expect(r"1.*Again.*2.*Hard.*3.*Good.*4.*Easy")
    child.sendline("3")
    child.expect("Saved Good")
    child.expect("Enter")  # the next card (a plain entry card)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    d = Dojo(settings)
    (log,) = d.flashcards.history()
    assert log.question_id == card_id and log.rating == 3
    assert d.flashcards.status(card_id).due > datetime.now(UTC)
