"""The CLI in a real pseudo-terminal (pexpect): study, search, show."""

from __future__ import annotations

import os

import pexpect
import pytest
from conftest import BANK, TORCHDOJO

pytestmark = pytest.mark.terminal


def spawn(args: list[str], db_url: str) -> pexpect.spawn:
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "100",
           "TERM": "xterm-256color"}
    return pexpect.spawn(TORCHDOJO, args, env=env, encoding="utf-8", timeout=30, dimensions=(40, 100))


def test_study_reveal_rate_and_quit(settings, db_url):
    from torchdojo.core import Dojo

    first = Dojo(settings).flashcards.queue()[0]
    child = spawn(["study", "--topic", "tensors"], db_url)
    child.expect("Enter")
    child.sendline("")
    child.expect("In 20 seconds")
    child.expect("Key points")
    child.expect(r"1.*Again.*2.*Hard.*3.*Good.*4.*Easy")
    child.sendline("7")  # not a choice: asked again, nothing saved
    child.expect("Please select one of the available options")
    child.sendline("3")
    child.expect("Saved Good")
    child.expect("Enter")
    child.sendline("q")
    child.expect("1 card\\(s\\) reviewed. Progress is saved.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    d = Dojo(settings)
    (log,) = d.flashcards.history()
    assert log.rating == 3 and log.duration_ms is not None
    assert d.bank.get(log.question_id).meta.topics[0] == "tensors" or "tensors" in d.bank.get(log.question_id).meta.topics
    assert first  # the queue was not empty


def test_study_rejects_unknown_filters(db_url):
    child = spawn(["study", "--level", "expert"], db_url)
    child.expect("'expert' is not one of: junior, mid, senior")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_search_and_show(db_url):
    child = spawn(["search", "contiguous"], db_url)
    child.expect("view-reshape-contiguous")
    child.expect(pexpect.EOF)
    child = spawn(["search", "qwertyuiopasdf"], db_url)
    child.expect("No question matches")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    child = spawn(["show", "view-reshape-contiguous"], db_url)
    child.expect("Full answer")
    child.expect(pexpect.EOF)
