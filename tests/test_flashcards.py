"""FSRS flashcards over the real bank and a real SQLite file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from torchdojo.core import Dojo
from torchdojo.practice.flashcards import Filters, UnknownEntryError

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def test_new_cards_come_junior_first_and_respect_the_daily_limit(settings):
    settings.new_per_day = 3
    d = Dojo(settings)
    q = d.flashcards.queue(now=NOW)
    assert len(q) == 3
    levels = [d.bank.get(i).meta.level for i in d.flashcards.queue(Filters(topic="tensors"), now=NOW)]
    assert levels == sorted(levels, key=["junior", "mid", "senior"].index)
    d.flashcards.review(q[0], "good", now=NOW)
    after = d.flashcards.queue(now=NOW)
    # one new card used today's allowance; the rated one (10-minute learning step) stays counted, last
    assert len(after) == 3 and after[-1] == q[0] and after[:2] == q[1:]
    tomorrow = d.flashcards.queue(now=NOW + timedelta(days=1))
    assert tomorrow[0] == q[0] and len(tomorrow) == 1 + 3  # the due card first, then a fresh allowance


def test_review_schedules_with_fsrs_and_persists(settings):
    d = Dojo(settings)
    entry_id = d.flashcards.queue(now=NOW)[0]
    preview = d.flashcards.preview(entry_id, now=NOW)
    assert preview["again"] < preview["hard"] <= preview["good"] < preview["easy"]
    st = d.flashcards.review(entry_id, "easy", now=NOW, duration_ms=4200)
    assert not st.is_new and st.due == NOW + preview["easy"]
    assert st.stability > 0 and 1 <= st.difficulty <= 10 and st.retrievability == pytest.approx(1.0)
    assert entry_id not in d.flashcards.queue(now=NOW)
    # A fresh Dojo over the same file (an app restart) sees the same state and log.
    d2 = Dojo(settings)
    st2 = d2.flashcards.status(entry_id, now=NOW)
    assert (st2.due, st2.stability, st2.difficulty) == (st.due, st.stability, st.difficulty)
    (log,) = d2.flashcards.history()
    assert (log.question_id, log.rating, log.duration_ms, log.reviewed_at) == (entry_id, 4, 4200, NOW)
    # Retrievability decays with time; once due, the card is back in the queue.
    later = d2.flashcards.status(entry_id, now=st.due + timedelta(days=3))
    assert later.retrievability < st.retrievability
    assert d2.flashcards.queue(now=st.due + timedelta(seconds=1))[0] == entry_id


def test_again_brings_the_card_back_within_minutes(dojo):
    entry_id = dojo.flashcards.queue(now=NOW)[0]
    st = dojo.flashcards.review(entry_id, "again", now=NOW)
    assert st.due - NOW <= timedelta(minutes=10)
    assert entry_id in dojo.flashcards.queue(now=NOW + timedelta(minutes=10))


def test_progress_counts_per_topic(dojo):
    before = {p.topic: p for p in dojo.flashcards.progress(now=NOW)}
    entry = next(e for e in dojo.bank if e.primary_topic == "autograd")
    dojo.flashcards.review(entry.id, "good", now=NOW)
    after = {p.topic: p for p in dojo.flashcards.progress(now=NOW + timedelta(days=400))}
    for t in entry.meta.topics:
        assert after[t].learned == before[t].learned + 1 and after[t].new == before[t].new - 1
        assert after[t].due == 1  # due again long before 400 days


def test_errors_are_specific(dojo):
    with pytest.raises(UnknownEntryError):
        dojo.flashcards.review("no-such-entry", "good")
    with pytest.raises(KeyError):
        dojo.flashcards.review(dojo.flashcards.queue()[0], "perfect")
    assert dojo.flashcards.history() == []  # nothing half-written


def test_desired_retention_changes_intervals(settings):
    settings.desired_retention = 0.8
    low = Dojo(settings)
    entry_id = low.flashcards.queue(now=NOW)[0]
    settings.desired_retention = 0.95
    high = Dojo(settings)
    assert low.flashcards.preview(entry_id, now=NOW)["easy"] > high.flashcards.preview(entry_id, now=NOW)["easy"]


def test_key_point_cards_are_due_at_once_and_reviewable(settings):
    d = Dojo(settings)
    now = datetime(2026, 1, 5, 12, tzinfo=UTC)
    created = d.flashcards.add_key_point_cards("what-is-autograd", ["records-ops", "float-only"], now=now)
    assert created == ["what-is-autograd#records-ops", "what-is-autograd#float-only"]
    assert d.flashcards.add_key_point_cards("what-is-autograd", ["records-ops"], now=now) == []  # kept as is
    q = d.flashcards.queue(now=now)
    assert q[:2] == created  # due cards come before new ones
    assert d.flashcards.new_introduced_today(now) == 0  # they do not eat the new-card allowance
    entry, kp = d.flashcards.card(created[0])
    assert entry.id == "what-is-autograd" and kp.id == "records-ops"
    st = d.flashcards.review(created[0], "good", now=now)
    assert st.due > now and created[0] not in d.flashcards.queue(now=now, learn_ahead=timedelta(0))
    assert len(d.flashcards.queue(filters=Filters(topic="autograd"), now=now)) >= 1
    with pytest.raises(UnknownEntryError):
        d.flashcards.add_key_point_cards("what-is-autograd", ["no-such-point"], now=now)
    with pytest.raises(UnknownEntryError):
        d.flashcards.review("what-is-autograd#no-such-point", "good", now=now)


def test_overview_agrees_with_progress_and_due_split(dojo):
    """The home page's one-read overview counts exactly what progress() and due_split() count."""
    ids = dojo.flashcards.queue(now=NOW)[:6]
    for i, cid in enumerate(ids):
        dojo.flashcards.review(cid, ["again", "good", "easy"][i % 3], now=NOW)
    dojo.flashcards.add_key_point_cards("what-is-autograd", ["records-ops"], now=NOW)
    for when in (NOW, NOW + timedelta(minutes=30), NOW + timedelta(days=9)):
        progress, due, new = dojo.flashcards.overview(now=when)
        assert progress == dojo.flashcards.progress(now=when)
        assert (due, new) == dojo.flashcards.due_split(now=when)
        assert due + new == len(dojo.flashcards.queue(now=when, limit=10_000))
