"""Study statistics (torchdojo.practice.stats) against hand-computed values, on a real SQLite
file with reviews recorded through Flashcards.review at explicit times; and `torchdojo stats`."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from fsrs import Card, State
from typer.testing import CliRunner

from torchdojo.practice import stats
from torchdojo.store.models import CardRow, MockRow, OwnCardRow, SubmissionRow

NOW = datetime(2026, 3, 15, 12, 0, tzinfo=UTC)  # a Sunday; "today" is 2026-03-15 (UTC)
X = "advanced-indexing-views-copies"  # tensors
Y = "backprop-chain-rule"  # autograd
Z = "functional-vs-module-layers"  # nn-module
M = timedelta(minutes=10)


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture
def seeded(dojo):
    """Three cards with known histories (the FSRS intervals are those of the default scheduler
    without fuzzing: Good, Good graduates with a 2-day interval; Good on time then gives 11 days,
    then 46 days)."""
    assert dojo.bank.get(X).meta.topics == ["tensors"]
    assert dojo.bank.get(Y).meta.topics == ["autograd"]
    assert dojo.bank.get(Z).meta.topics == ["nn-module"]
    r = dojo.flashcards.review
    # X: learning, learning, young pass (interval 2), young pass (11), mature Again (46), relearning.
    r(X, "good", now=at(2026, 1, 1))
    r(X, "good", now=at(2026, 1, 1) + M)
    r(X, "good", now=at(2026, 1, 3, 0, 10))
    r(X, "good", now=at(2026, 1, 14, 0, 10))
    r(X, "again", now=at(2026, 3, 1, 0, 10))
    r(X, "good", now=at(2026, 3, 1, 0, 20))
    # Y: day boundaries (23:59:59 on the 14th, 00:00:00 on the 15th), then a young pass today.
    r(Y, "good", now=at(2026, 3, 14, 23, 59, 59), duration_ms=90_000)
    r(Y, "good", now=at(2026, 3, 15), duration_ms=30_000)
    r(Y, "good", now=at(2026, 3, 15, 11))
    # Z: graduates on the 10th, young Again on the 12th (counted), relearning review (not counted).
    r(Z, "good", now=at(2026, 3, 10), duration_ms=120_000)
    r(Z, "good", now=at(2026, 3, 10) + M, duration_ms=120_000)
    r(Z, "again", now=at(2026, 3, 12, 0, 10), duration_ms=60_000)
    r(Z, "good", now=at(2026, 3, 12, 0, 20))
    # A review after NOW is left out of everything.
    r(Y, "good", now=NOW + timedelta(days=5), duration_ms=1000)
    return dojo


def compute(d, now=NOW, days=30):
    return stats.study_stats(d.sessions, d.bank, d.flashcards.scheduler, d.challenges, now, days=days)


def test_replay_gives_the_state_and_interval_each_review_was_given_in(seeded):
    facts = [f for f in stats.replay_facts(seeded.flashcards.history([X]), seeded.flashcards.scheduler)]
    assert [f.state for f in facts] == [State.Learning, State.Learning, State.Review, State.Review, State.Review,
                                        State.Relearning]
    assert [f.interval_days for f in facts[2:5]] == [2.0, 11.0, 46.0]
    assert [f.mature for f in facts[2:5]] == [False, False, True]


def test_true_retention_young_mature_windows_and_again(seeded):
    ret = compute(seeded).retention
    # all time: young X(2 d) pass, X(11 d) pass, Y pass, Z Again; mature X(46 d) Again
    assert ret.all_time.young == stats.Rate(3, 4)
    assert ret.all_time.mature == stats.Rate(0, 1)
    assert ret.all_time.total == stats.Rate(3, 5) and ret.all_time.total.percent == "60.0%"
    # last 30 days (from 2026-02-14 00:00): Y pass, Z Again (young); X's Again on 03-01 (mature)
    assert ret.last_30.young == stats.Rate(1, 2) and ret.last_30.young.value == 0.5
    assert ret.last_30.mature == stats.Rate(0, 1) and ret.last_30.mature.percent == "0.0%"
    # the same from the single-purpose function
    assert stats.true_retention(seeded.sessions, seeded.flashcards.scheduler, NOW) == ret
    # Learning and Relearning reviews never count: 13 reviews up to NOW, 5 in the Review state
    assert stats.review_activity(seeded.sessions, NOW, days=365).reviews == 13


def test_reviews_and_minutes_per_utc_day(seeded):
    act = compute(seeded).activity
    assert len(act.days) == 30 and act.days[-1].day == date(2026, 3, 15) and act.days[0].day == date(2026, 2, 14)
    by_day = {d.day: d for d in act.days}
    assert by_day[date(2026, 3, 15)] == stats.DayActivity(date(2026, 3, 15), 2, 0.5, 1)  # 00:00:00 belongs to the 15th
    assert by_day[date(2026, 3, 14)] == stats.DayActivity(date(2026, 3, 14), 1, 1.5, 0)  # 23:59:59 to the 14th
    assert by_day[date(2026, 3, 12)] == stats.DayActivity(date(2026, 3, 12), 2, 1.0, 1)
    assert by_day[date(2026, 3, 10)] == stats.DayActivity(date(2026, 3, 10), 2, 4.0, 0)
    assert by_day[date(2026, 3, 1)] == stats.DayActivity(date(2026, 3, 1), 2, 0.0, 2)
    assert (act.reviews, act.minutes, act.untimed, act.today, act.last(7), act.days_studied) == (9, 7.0, 4, 2, 7, 5)
    week = stats.review_activity(seeded.sessions, NOW, days=7)
    assert [d.reviews for d in week.days] == [0, 2, 0, 2, 0, 1, 2]  # 03-09 .. 03-15


def test_heat_map_grid_and_levels(seeded):
    hm = compute(seeded).heat_map
    assert len(hm.days) == 365 and hm.reviews == 13 and hm.days_studied == 8 and hm.max_reviews == 2
    first, last = hm.days[0], hm.days[-1]
    assert first.day == date(2025, 3, 16) and (first.week, first.weekday) == (0, 6)  # a Sunday: alone in week 0
    assert last.day == date(2026, 3, 15) and (last.week, last.weekday) == (52, 6) and hm.weeks == 53
    cells = {d.day: d for d in hm.days}
    assert cells[date(2026, 1, 1)].reviews == 2 and cells[date(2026, 1, 1)].level == 4
    assert cells[date(2026, 3, 14)].level == 2  # ceil(4 * 1 / 2)
    assert cells[date(2026, 3, 13)].level == 0
    assert cells[date(2026, 3, 9)].weekday == 0  # Monday
    assert hm.legend == [stats.HeatLevel(2, 1, 1), stats.HeatLevel(4, 2, 2)]


def test_forecast_day_zero_includes_overdue_and_excludes_suspended(dojo):
    def card(cid, due, **kw):
        return CardRow(question_id=cid, state=2, step=None, stability=5.0, difficulty=5.0, due=due,
                       last_review=due - timedelta(days=5), created_at=at(2026, 1, 1), **kw)

    with dojo.sessions.begin() as s:
        s.add(OwnCardRow(id=7, front="f", back="b", topic="autograd", created_at=NOW, updated_at=NOW))
        s.add_all([
            card(X, at(2026, 3, 10)),  # overdue: day 0
            card(Y, at(2026, 3, 15, 23, 59, 59)),  # later today: day 0
            card(Z, at(2026, 3, 16)),  # midnight: tomorrow
            card("backprop-through-sampling", at(2026, 4, 13, 23)),  # day 29
            card("autograd-engine-internals", at(2026, 4, 14)),  # day 30: outside
            card("argmax-flat-index-unravel", at(2026, 3, 15, 8), suspended=True),  # never
            card("boolean-mask-filtering", at(2026, 3, 15, 8), buried_until=at(2026, 3, 16)),  # back tomorrow
            card("no-such-entry", at(2026, 3, 15, 8)),  # its entry is gone
            card("view-reshape-contiguous#view-never-copies", at(2026, 3, 1)),  # key-point card, overdue
            card("own:7", at(2026, 3, 17)),  # own card: day 2
            card("own:8", at(2026, 3, 17)),  # own card row gone
        ])
    fc = stats.due_forecast(dojo.sessions, dojo.bank, NOW)
    assert len(fc.days) == 30 and fc.days[0].day == date(2026, 3, 15) and fc.days[29].day == date(2026, 4, 13)
    assert (fc.today, fc.overdue, fc.tomorrow, fc.days[2].due, fc.days[29].due) == (3, 2, 2, 1, 1)
    assert fc.total == 7 and fc.next(7) == 6


def test_per_topic_learned_retention_stability_retrievability(seeded):
    seeded.flashcards.add_key_point_cards("view-reshape-contiguous", ["view-never-copies"], now=at(2026, 3, 2))
    seeded.flashcards.review("view-reshape-contiguous#view-never-copies", "good", now=at(2026, 3, 2))
    topics = {t.topic: t for t in compute(seeded).topics}
    assert list(topics)[:3] == ["tensors", "autograd", "nn-module"]  # taxonomy order
    # the key-point card counts for its entry's topics (tensors and memory-performance)
    assert topics["tensors"].learned == 2 and topics["memory-performance"].learned == 1
    assert topics["autograd"].learned == 1 and topics["nn-module"].learned == 1 and topics["distributed"].learned == 0
    assert topics["tensors"].retention == stats.Rate(2, 3)  # X: two young passes, one mature Again
    assert topics["autograd"].retention == stats.Rate(1, 1)
    assert topics["nn-module"].retention == stats.Rate(0, 1)
    assert topics["distributed"].retention.percent == "—"
    assert topics["distributed"].mean_stability is None and topics["distributed"].mean_retrievability is None
    with seeded.sessions() as s:
        x, kp = s.get(CardRow, X), s.get(CardRow, "view-reshape-contiguous#view-never-copies")
    assert topics["tensors"].mean_stability == pytest.approx((x.stability + kp.stability) / 2)
    sch = seeded.flashcards.scheduler

    def r(row):
        return sch.get_card_retrievability(Card(card_id=0, state=State(row.state), step=row.step, stability=row.stability,
                                                difficulty=row.difficulty, due=row.due, last_review=row.last_review), NOW)

    assert topics["tensors"].mean_retrievability == pytest.approx((r(x) + r(kp)) / 2)
    # Y has a review after NOW: its state at NOW is the replay of the reviews up to NOW
    y_at_now = seeded.flashcards.replay([g for g in seeded.flashcards.history([Y]) if g.reviewed_at <= NOW], at(2026, 3, 14))
    assert topics["autograd"].mean_stability == pytest.approx(y_at_now.stability)
    assert topics["autograd"].mean_retrievability == pytest.approx(sch.get_card_retrievability(y_at_now, NOW))
    assert 0 < topics["autograd"].mean_retrievability <= 1


def test_mock_scores_and_challenges(dojo):
    with dojo.sessions.begin() as s:
        def mock(level, status, score, start, finish=None):
            return MockRow(level=level, minutes=30, config="{}", status=status, started_at=start,
                           deadline=start + timedelta(minutes=30), finished_at=finish, score=score)
        s.add_all([
            mock("mid", "graded", 62.5, at(2026, 3, 2, 9), at(2026, 3, 2, 9, 31)),
            mock("junior", "graded", 40.0, at(2026, 2, 1, 9), at(2026, 2, 1, 9, 25)),
            mock("senior", "active", None, at(2026, 3, 14)),
            mock("mid", "graded", None, at(2026, 3, 3)),  # nothing could be graded: no score
            mock("mid", "graded", 90.0, NOW + timedelta(hours=1), NOW + timedelta(hours=2)),  # after now
        ])

        def sub(cid, mode, verdict):
            return SubmissionRow(challenge_id=cid, mode=mode, code="", verdict=verdict, report=json.dumps({}),
                                 backend="test", created_at=NOW)
        s.add_all([sub("layer-norm", "run", "Wrong Answer"), sub("layer-norm", "submit", "Accepted"),
                   sub("stable-softmax", "submit", "Wrong Answer"), sub("stable-softmax", "run", "Accepted"),
                   sub("no-such-challenge", "submit", "Accepted")])
    st = compute(dojo)
    assert [(m.level, m.score, m.finished) for m in st.mocks] == [("junior", 40.0, at(2026, 2, 1, 9, 25)),
                                                                  ("mid", 62.5, at(2026, 3, 2, 9, 31))]
    ch = st.challenges
    assert (ch.solved, ch.attempted, ch.total) == (1, 1, len(dojo.challenges))
    ln, sm = dojo.challenges["layer-norm"].meta.topics, dojo.challenges["stable-softmax"].meta.topics
    for t in ch.topics:  # layer-norm solved, stable-softmax attempted (a run Accepted is not a solve)
        assert (t.solved, t.attempted) == (int(t.topic in ln), int(t.topic in sm)), t
        assert t.total == sum(t.topic in c.meta.topics for c in dojo.challenges.values())
    assert sum(t.total for t in ch.topics) >= ch.total
    # reading challenge metadata never imports torch (checked in a fresh process)
    import subprocess
    import sys
    code = ("import sys; from pathlib import Path; from torchdojo.core import Dojo; from torchdojo.settings import Settings; "
            f"d = Dojo(Settings(bank_dir=Path({str(dojo.settings.bank_dir)!r}), database_url={dojo.settings.database_url!r})); "
            "d.stats(); print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_empty_database_gives_zeros_and_no_division_by_zero(dojo):
    st = compute(dojo)
    assert st.activity.reviews == 0 and st.activity.minutes == 0 and st.activity.max_reviews == 0
    assert st.forecast.total == 0 and st.forecast.today == 0 and st.forecast.overdue == 0
    for w in (st.retention.last_30, st.retention.all_time):
        for r in (w.young, w.mature, w.total):
            assert r.n == 0 and r.value is None and r.percent == "—"
    assert all(t.learned == 0 and t.mean_stability is None for t in st.topics)
    assert st.heat_map.max_reviews == 0 and st.heat_map.legend == [] and {d.level for d in st.heat_map.days} == {0}
    assert st.mocks == [] and st.challenges.solved == 0 and st.challenges.attempted == 0


def test_bad_arguments_are_refused(dojo):
    with pytest.raises(ValueError, match="naive"):
        stats.review_activity(dojo.sessions, datetime(2026, 3, 15))
    with pytest.raises(ValueError, match="days must be"):
        stats.review_activity(dojo.sessions, NOW, days=0)
    with pytest.raises(ValueError, match="days must be"):
        compute(dojo, days=366)


def test_cli_stats_shows_the_numbers(dojo, settings, monkeypatch):
    from torchdojo.cli.main import app

    now = datetime.now(UTC)
    # Seeded a few days back so that the counts hold whatever the time is while the test runs.
    for eid in (X, Y, Z):
        dojo.flashcards.review(eid, "good", now=now - timedelta(days=3), duration_ms=60_000)
        dojo.flashcards.review(eid, "good", now=now - timedelta(days=3) + M)
    dojo.flashcards.review(X, "again", now=now - timedelta(days=3) + 2 * M)  # Review state: young Again
    env = {"TORCHDOJO_DATABASE_URL": settings.database_url, "TORCHDOJO_BANK_DIR": str(settings.bank_dir)}
    res = CliRunner().invoke(app, ["stats", "--days", "7"], env=env, terminal_width=120)
    assert res.exit_code == 0, res.output
    assert "last 7 days 7" in res.output  # 7 reviews in the last 7 days
    assert "Time: 3.0 min" in res.output and "4 review(s) without a recorded duration" in res.output
    assert "young (< 21 d)" in res.output and "0.0% (n=1)" in res.output
    assert "— (n=0)" in res.output  # mature: nothing to measure
    assert "Challenges: 0 solved, 0 attempted" in res.output
    bad = CliRunner().invoke(app, ["stats", "--days", "0"], env=env)
    assert bad.exit_code != 0 and "--days" in bad.output
