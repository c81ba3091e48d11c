"""Study settings, the queue they shape, undo / bury / suspend, rescheduling on change and FSRS
optimisation: over the real bank and a real SQLite file, every time passed explicitly."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler
from sqlalchemy import select
from typer.testing import CliRunner

from torchdojo.core import Dojo
from torchdojo.practice import optimizer as opt
from torchdojo.practice import study_settings as st
from torchdojo.practice.flashcards import Filters, UnknownEntryError
from torchdojo.store.models import CardRow, ReviewLogRow

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def _row(d: Dojo, cid: str) -> tuple | None:
    """Every stored field of a card (None: no row)."""
    with d.sessions() as s:
        r = s.get(CardRow, cid)
        if r is None:
            return None
        return (r.state, r.step, r.stability, r.difficulty, r.due, r.last_review, r.created_at, r.suspended,
                r.buried_until)


def _to_review_state(d: Dojo, cid: str, t: datetime) -> None:
    """Two Good ratings, ten minutes apart: the card leaves learning for the Review state."""
    d.flashcards.review(cid, "good", now=t)
    d.flashcards.review(cid, "good", now=t + timedelta(minutes=10))


# -- settings: validation, load / save / reset -----------------------------------------------
def test_defaults_come_from_torchdojo_settings_and_saved_values_win(settings):
    settings.desired_retention, settings.new_per_day = 0.85, 7
    d = Dojo(settings)
    assert (d.flashcards.study.desired_retention, d.flashcards.study.new_per_day) == (0.85, 7)
    assert d.flashcards.study.max_reviews_per_day == 200 and d.flashcards.study.fsrs_parameters is None
    saved = d.flashcards.save_settings({"new-per-day": "12", "topics": ["autograd", "tensors"], "levels": ["junior"]})
    assert saved.new_per_day == 12 and saved.topics == ("tensors", "autograd")  # taxonomy order
    again = Dojo(settings)  # a restart (or another process) reads them back
    assert again.flashcards.study == saved and again.flashcards.new_per_day == 12
    assert again.flashcards.reset_settings(["new_per_day"]).new_per_day == 7
    assert again.flashcards.reset_settings().topics == ()


@pytest.mark.parametrize(("values", "field", "words"), [
    ({"desired_retention": 0.5}, "desired_retention", "0.70 to 0.97"),
    ({"desired-retention": "lots"}, "desired_retention", "0.70 to 0.97"),
    ({"new_per_day": 1001}, "new_per_day", "0 to 1000"),
    ({"max_reviews_per_day": -1}, "max_reviews_per_day", "0 to 10000"),
    ({"topics": ["autograd", "cooking"]}, "topics", "unknown topic 'cooking'"),
    ({"levels": ["staff"]}, "levels", "junior, mid, senior"),
    ({"fsrs_parameters": [0.2] * 20}, "fsrs_parameters", "expected 21 numbers, got 20"),
    ({"fsrs_parameters": [500.0] * 21}, "fsrs_parameters", "out of bounds"),
    ({"colour": "blue"}, "colour", "unknown setting"),
])
def test_a_bad_value_names_the_field_and_what_is_allowed(dojo, values, field, words):
    with pytest.raises(st.StudySettingsError) as e:
        dojo.flashcards.save_settings(values)
    assert set(e.value.errors) == {field} and words in e.value.errors[field]
    if field in st.FIELDS:
        assert st.FIELDS[field].label in str(e.value)
    assert st.load(dojo.sessions(), dojo.flashcards.defaults) == dojo.flashcards.defaults  # nothing written


def test_parse_text_and_display_round_trip():
    params = list(Scheduler().parameters)
    text = ", ".join(str(x) for x in params)
    assert st.parse_text("fsrs_parameters", text) == params
    assert st.parse_text("fsrs_parameters", "") is None and st.parse_text("topics", "all") == []
    assert st.parse_text("levels", "junior, mid") == ["junior", "mid"]
    with pytest.raises(st.StudySettingsError, match="fsrs-parameters"):
        st.parse_text("fsrs_parameters", "1, two, 3")


# -- the queue honours them ------------------------------------------------------------------
def test_queue_honours_topics_and_levels(dojo):
    dojo.flashcards.save_settings({"topics": ["autograd"], "levels": ["mid", "senior"]})
    q = dojo.flashcards.queue(now=NOW, limit=1000)
    assert q and all("autograd" in dojo.bank.get(c).meta.topics and dojo.bank.get(c).meta.level != "junior" for c in q)
    assert len(q) == 20  # the new-card limit still applies
    dojo.flashcards.reset_settings(["levels"])
    assert any(dojo.bank.get(c).meta.level == "junior" for c in dojo.flashcards.queue(now=NOW))


def test_review_cap_counts_reviews_done_today(settings):
    settings.max_reviews_per_day, settings.new_per_day = 3, 0
    d = Dojo(settings)
    cards = [e.id for e in list(d.bank)[:5]]
    day0 = NOW - timedelta(days=30)
    for c in cards:
        _to_review_state(d, c, day0)
    later = NOW + timedelta(days=60)  # every card is due long before
    assert len(d.flashcards.queue(now=later)) == 3  # the cap
    d.flashcards.review(d.flashcards.queue(now=later)[0], "good", now=later)
    assert len(d.flashcards.queue(now=later)) == 2  # one review done today counts against it
    d.flashcards.save_settings({"max_reviews_per_day": 10})
    assert len(d.flashcards.queue(now=later)) == 4  # every card still due
    assert d.flashcards.due_split(now=later) == (4, 0)


def test_suspend_and_bury_take_cards_out_of_the_queue(dojo):
    fc = dojo.flashcards
    q = fc.queue(now=NOW)
    new_card, reviewed = q[0], q[1]
    fc.review(reviewed, "again", now=NOW)
    fc.suspend(new_card, now=NOW)  # a new card can be suspended: it gets a row, no review
    assert fc.status(new_card, now=NOW).is_new and new_card in fc.suspended()
    assert fc.check(repair=False) == []  # the row is a valid new state
    assert new_card not in fc.queue(now=NOW + timedelta(days=3), limit=1000)
    assert fc.new_introduced_today(NOW) == 1  # suspending is not studying
    until = fc.bury(reviewed, now=NOW)
    assert until == datetime(2026, 1, 6, tzinfo=UTC)
    assert reviewed not in fc.queue(now=NOW + timedelta(minutes=5), limit=1000)
    assert reviewed in fc.queue(now=until + timedelta(seconds=1))
    assert fc.unsuspend(new_card) and not fc.unsuspend(new_card)
    assert fc.queue(now=NOW + timedelta(minutes=5))[0] == new_card  # a new card again, first in learning order
    fc.bury(new_card, now=NOW)
    assert new_card not in fc.queue(now=NOW, limit=1000) and fc.check(repair=False) == []
    with pytest.raises(UnknownEntryError):
        fc.bury("no-such-card", now=NOW)


def test_a_card_rated_again_still_counts_in_the_queue(dojo):
    """The review page's "N left": a card rated Again is due again in minutes, so it is still
    part of today's queue (Anki's learn-ahead). Before the fix it dropped out of the count."""
    fc = dojo.flashcards
    q = fc.queue(now=NOW, limit=1000)
    fc.review(q[0], "again", now=NOW)
    after = fc.queue(now=NOW + timedelta(seconds=5), limit=1000)
    assert q[0] in after and len(after) == len(q)
    assert sum(fc.due_split(now=NOW + timedelta(seconds=5))) == len(after)
    assert fc.overview(now=NOW + timedelta(seconds=5))[1:] == fc.due_split(now=NOW + timedelta(seconds=5))


# -- undo ------------------------------------------------------------------------------------
def test_undo_restores_exactly_the_previous_state(dojo):
    fc = dojo.flashcards
    cid = fc.queue(now=NOW)[0]
    _to_review_state(dojo, cid, NOW)
    before = _row(dojo, cid)
    t = NOW + timedelta(days=5)
    fc.review(cid, "again", now=t, duration_ms=800)
    assert _row(dojo, cid) != before
    undone = fc.undo(now=t)
    assert (undone.card_id, undone.rating, undone.reviewed_at) == (cid, 1, t)
    assert _row(dojo, cid) == before
    assert [h.rating for h in fc.history([cid])] == [3, 3]
    assert fc.check(repair=False) == []


def test_undo_of_a_first_review_makes_the_card_new_again(settings):
    settings.new_per_day = 2
    d = Dojo(settings)
    fc = d.flashcards
    q = fc.queue(now=NOW)
    fc.review(q[0], "good", now=NOW)
    fc.review(q[1], "easy", now=NOW + timedelta(seconds=1))
    assert fc.new_introduced_today(NOW) == 2 and fc.queue(now=NOW + timedelta(seconds=2)) == [q[0]]
    assert fc.undo(now=NOW).card_id == q[1]  # the most recent rating, whichever card
    assert _row(d, q[1]) is None and fc.status(q[1]).is_new
    assert fc.new_introduced_today(NOW) == 1
    assert fc.queue(now=NOW + timedelta(seconds=2)) == [q[1], q[0]]  # new again (then the learning card)
    assert fc.undo(now=NOW).card_id == q[0] and fc.undo(now=NOW) is None
    assert fc.history() == [] and fc.check(repair=False) == []


def test_undo_keeps_the_row_of_a_key_point_card(dojo):
    fc = dojo.flashcards
    (cid,) = fc.add_key_point_cards("what-is-autograd", ["records-ops"], now=NOW)
    before = _row(dojo, cid)
    fc.review(cid, "hard", now=NOW + timedelta(minutes=1))
    fc.undo(now=NOW)
    assert _row(dojo, cid)[:7] == before[:7] and fc.check(repair=False) == []


# -- reschedule on change --------------------------------------------------------------------
def test_changing_retention_reschedules_every_card_from_its_log(dojo):
    fc = dojo.flashcards
    ids = fc.queue(now=NOW)[:4]
    for c in ids[:3]:
        _to_review_state(dojo, c, NOW)
    fc.review(ids[3], "again", now=NOW)  # still in learning: its due does not depend on retention
    due_before = {c: fc.status(c).due for c in ids}
    fc.save_settings({"desired_retention": 0.75})
    assert fc.check(repair=False) == []  # stored state == replay through the new scheduler
    for c in ids[:3]:
        assert fc.status(c).due > due_before[c]  # lower retention: longer intervals
    assert fc.status(ids[3]).due == due_before[ids[3]]
    # the same holds in a fresh process, and going back restores the old dates exactly
    d2 = Dojo(dojo.settings)
    assert d2.flashcards.check(repair=False) == []
    d2.flashcards.reset_settings(["desired-retention"])
    assert {c: d2.flashcards.status(c).due for c in ids} == due_before
    assert fc.check(repair=False) == []  # the first process picks the change up from the database


def test_saving_parameters_reschedules_too(dojo):
    fc = dojo.flashcards
    cid = fc.queue(now=NOW)[0]
    _to_review_state(dojo, cid, NOW)
    params = list(Scheduler().parameters)
    params[2] *= 3  # a larger initial stability for Good
    old_due = fc.status(cid).due
    fc.save_settings({"fsrs_parameters": params})
    assert fc.check(repair=False) == [] and fc.status(cid).due > old_due
    assert fc.sample_interval(0.8) > fc.sample_interval(0.9)


# -- FSRS optimisation -----------------------------------------------------------------------
def _synthetic_log(cards: list[str], reviews_per_card: int, seed: int = 7) -> list[tuple[str, int, datetime]]:
    """A learner whose memory follows FSRS with parameters far from the defaults (stability
    three times longer), reviewing at explicit times; recall drawn from that model."""
    rng = random.Random(seed)
    true = list(Scheduler().parameters)
    for i in range(4):
        true[i] *= 3
    sched = Scheduler(parameters=true, enable_fuzzing=False)
    out = []
    for k, cid in enumerate(cards):
        t = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(hours=k)
        card = Card(card_id=0, due=t)
        for _ in range(reviews_per_card):
            recalled = card.last_review is None or rng.random() < sched.get_card_retrievability(card, t)
            rating = rng.choice([Rating.Hard, Rating.Good, Rating.Good, Rating.Easy]) if recalled else Rating.Again
            out.append((cid, int(rating), t))
            card, _ = sched.review_card(card, rating, t)
            t += timedelta(days=rng.randint(1, 12), minutes=rng.randint(0, 600))
    return out


def _write_log(d: Dojo, log: list[tuple[str, int, datetime]]) -> None:
    """Store a review log as it would have been recorded, then build every card from it."""
    with d.sessions.begin() as s:
        for cid in dict.fromkeys(c for c, _, _ in log):
            first = min(t for c, _, t in log if c == cid)
            s.add(CardRow(question_id=cid, state=1, step=0, due=first, created_at=first))
        s.flush()
        for cid, rating, t in sorted(log, key=lambda x: x[2]):
            s.add(ReviewLogRow(question_id=cid, rating=rating, reviewed_at=t, duration_ms=5000))
    d.flashcards.check(repair=True)
    assert d.flashcards.check(repair=False) == []


def test_optimize_refuses_below_the_minimum(dojo):
    cards = [e.id for e in list(dojo.bank)[:10]]
    _write_log(dojo, _synthetic_log(cards, 8))
    with pytest.raises(opt.NotEnoughReviewsError, match=f"at least {opt.MIN_REVIEWS} reviews"):
        dojo.flashcards.optimize()


def test_our_log_loss_is_the_optimizers_own():
    torch = pytest.importorskip("torch")  # noqa: F841  (the optimiser's loss needs it; the app's does not)
    from fsrs import ReviewLog
    from fsrs.optimizer import Optimizer

    log = _synthetic_log([f"c{i}" for i in range(12)], 10)
    reviews = opt.as_reviews([ReviewLogRow(question_id=c, rating=r, reviewed_at=t) for c, r, t in log])
    fsrs_logs = [ReviewLog(card_id=c, rating=Rating(r), review_datetime=t, review_duration=None) for c, r, t, _ in reviews]
    params = list(Scheduler().parameters)
    assert opt.log_loss(reviews, params) == pytest.approx(
        Optimizer(fsrs_logs)._compute_batch_loss(parameters=params), rel=1e-9)


def test_optimize_fits_the_learners_log_and_applies_only_on_request(dojo):
    cards = [e.id for e in list(dojo.bank)[:60]]
    log = _synthetic_log(cards, 11)
    _write_log(dojo, log)
    fc = dojo.flashcards
    due_before = {c: fc.status(c).due for c in cards[:5]}
    result = fc.optimize()
    assert result.training_reviews >= opt.MIN_REVIEWS and result.reviews == len(log)
    assert len(result.parameters) == st.N_PARAMETERS and result.parameters != result.old_parameters
    assert result.loss_after <= result.loss_before and result.improved
    assert fc.study.fsrs_parameters is None  # nothing saved yet
    fc.save_settings({"fsrs_parameters": list(result.parameters)})
    assert fc.study.fsrs_parameters == pytest.approx(result.parameters)
    assert fc.check(repair=False) == []
    assert any(fc.status(c).due != due_before[c] for c in cards[:5])


# -- CLI: torchdojo config -------------------------------------------------------------------
def test_cli_config_show_set_reset(settings, monkeypatch):
    from torchdojo.cli.main import app

    monkeypatch.setenv("TORCHDOJO_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("TORCHDOJO_BANK_DIR", str(settings.bank_dir))
    runner = CliRunner()
    r = runner.invoke(app, ["config"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "desired-retention" in r.output and "0.9" in r.output and "max-reviews-per-day" in r.output
    r = runner.invoke(app, ["config", "set", "desired-retention", "0.85"])
    assert r.exit_code == 0 and "0.85" in r.output, r.output
    assert Dojo(settings).flashcards.study.desired_retention == 0.85
    r = runner.invoke(app, ["config", "set", "desired-retention", "1.5"])
    assert r.exit_code == 1 and "desired-retention" in r.output and "0.70 to 0.97" in r.output
    r = runner.invoke(app, ["config", "set", "levels", "junior,mid"])
    assert r.exit_code == 0 and Dojo(settings).flashcards.study.levels == ("junior", "mid")
    r = runner.invoke(app, ["config", "show"], env={"COLUMNS": "200"})
    assert "junior, mid" in r.output and "0.85" in r.output
    r = runner.invoke(app, ["config", "reset", "desired-retention"])
    assert r.exit_code == 0 and Dojo(settings).flashcards.study.desired_retention == 0.9
    r = runner.invoke(app, ["config", "reset", "colour"])
    assert r.exit_code == 1 and "unknown setting" in r.output
    cid = Dojo(settings).flashcards.queue()[0]
    Dojo(settings).flashcards.suspend(cid)
    assert cid in runner.invoke(app, ["config"], env={"COLUMNS": "200"}).output
    assert runner.invoke(app, ["config", "unsuspend", cid]).exit_code == 0
    r = runner.invoke(app, ["config", "unsuspend", cid])
    assert r.exit_code == 1 and "is not suspended" in r.output
    r = runner.invoke(app, ["config", "optimize"])
    assert r.exit_code == 1 and f"at least {opt.MIN_REVIEWS}" in r.output
    with Dojo(settings).sessions() as s:
        assert s.scalars(select(ReviewLogRow)).first() is None


def test_filters_and_settings_combine(dojo):
    dojo.flashcards.save_settings({"levels": ["senior"]})
    q = dojo.flashcards.queue(Filters(topic="autograd"), now=NOW)
    assert q and all(dojo.bank.get(c).meta.level == "senior" and "autograd" in dojo.bank.get(c).meta.topics for c in q)


# -- terminal: torchdojo study keys ----------------------------------------------------------
@pytest.mark.terminal
def test_study_in_a_terminal_undo_suspend_bury(settings, db_url):
    import os

    import pexpect
    from conftest import BANK, TORCHDOJO

    first, second = Dojo(settings).flashcards.queue()[:2]
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "120",
           "TERM": "xterm-256color"}
    child = pexpect.spawn(TORCHDOJO, ["study"], env=env, encoding="utf-8", timeout=60, dimensions=(40, 120))
    child.expect("u.* undo .*bury.*suspend")  # the front's prompt names the keys
    child.sendline("")
    child.expect(r"4.*Easy.*u.*undo.*-.*bury.*!.*suspend")
    child.sendline("1")
    child.expect("Saved Again")
    child.expect("Enter")
    child.sendline("u")
    child.expect(f"Undone.*Again on {first}")
    child.expect("Enter")  # the undone card, shown again
    child.sendline("!")
    child.expect("Suspended")
    child.expect("Enter")
    child.sendline("-")
    child.expect("Buried.* until")
    child.expect("Enter")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    d = Dojo(settings)
    assert d.flashcards.history() == [] and d.flashcards.suspended() == [first]
    q = d.flashcards.queue(limit=1000)
    assert first not in q and second not in q
