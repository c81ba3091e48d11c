"""The jobs layer (torchdojo.jobs): registry, idempotent mock grading, bounded retries, resume after
a restart. Real SQLite files, the real bank, the LLM grader against a real local HTTP endpoint
(tests/fake_llm.py), real worker threads; the web and CLI mock flows are in test_mock_web.py and
test_mock_cli.py (they go through this layer)."""

from __future__ import annotations

import threading
import time

import pytest
from conftest import BANK
from fake_llm import ANSWER, ENTRY_ID, FakeLLM

from torchdojo.core import Dojo
from torchdojo.jobs import REGISTRY, JobContext, JobError, get_task, task, wait
from torchdojo.jobs.local import LocalBackend
from torchdojo.practice.mock import MockConfig
from torchdojo.settings import Settings

DEADLINE = 120.0  # seconds to wait for a job on a busy machine (never asserted as a duration)


def llm_settings(db_url: str, fake: FakeLLM) -> Settings:
    return Settings(bank_dir=BANK, database_url=db_url, grader="llm", llm_base_url=fake.base_url,
                    llm_model="fake-model", llm_timeout=30)


def autograd_config(d: Dojo) -> MockConfig:
    """A mock whose plan holds what-is-autograd (the entry the fake LLM's reply fits)."""
    for seed in range(500):
        for level in ("junior", "mid", "senior"):
            cfg = MockConfig(level=level, use_judge=False, seed=seed)
            if any(ref == ENTRY_ID for _kind, ref in d.mocks.plan(cfg)):
                return cfg
    raise AssertionError("no seed puts what-is-autograd in a mock")


def ended_mock(d: Dojo, answers: dict[str, str] | None = None, extra: int = 0) -> int:
    """A finished mock (status ``grading``) with ANSWER on the autograd item, ``extra`` other
    prose items answered too (graded after it), the rest unanswered."""
    m = d.mocks.start(autograd_config(d))
    pos = next(i.position for i in m.items if i.ref_id == ENTRY_ID)
    d.mocks.save_answer(m.id, pos, ANSWER)
    others = [i.position for i in m.items if i.position > pos and i.kind == "question"][:extra]
    for p in others:
        d.mocks.save_answer(m.id, p, "Some answer about this topic: it depends on the shapes.")
    assert d.mocks.finish(m.id).status == "grading"
    return m.id


def snapshot(d: Dojo, mock_id: int):
    """What grading wrote: the mock, its items, and the rows it adds (cards, scorecards)."""
    from sqlalchemy import func, select

    from torchdojo.store.models import CardRow, MockItemRow, ScorecardLineRow, ScorecardRow

    m = d.mocks.get(mock_id)
    with d.sessions() as s:
        items = [(r.position, r.score, r.graded_at, r.feedback, r.verdict) for r in
                 s.scalars(select(MockItemRow).where(MockItemRow.mock_id == mock_id).order_by(MockItemRow.position))]
        rows = tuple(s.scalar(select(func.count()).select_from(t)) for t in (CardRow, ScorecardRow, ScorecardLineRow))
    return m.status, m.score, m.config.get("cards_added"), items, rows


def llm_calls(fake: FakeLLM) -> int:
    return len(fake.requests)


@pytest.fixture
def fake():
    with FakeLLM() as f:
        yield f


@pytest.fixture
def backends():
    made: list[LocalBackend] = []

    def make(ctx: JobContext, **kw) -> LocalBackend:
        b = LocalBackend(ctx, retry_delay=kw.pop("retry_delay", 0.0), **kw)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()
        b.join(30)


# -- registry ------------------------------------------------------------------------------------


def test_the_registry_knows_grade_mock_and_refuses_unknown_names_refs_and_duplicates(settings, backends):
    assert "grade_mock" in REGISTRY and get_task("grade_mock").pending is not None
    with pytest.raises(JobError, match="unknown task 'nope'"):
        get_task("nope")

    @task("test_jobs_noop")
    def noop(ctx, ref):
        return None

    assert get_task("test_jobs_noop").fn is noop
    task("test_jobs_noop")(noop)  # registering the same function again (a re-import) is fine
    with pytest.raises(JobError, match="already registered"):

        @task("test_jobs_noop")
        def other(ctx, ref):
            return None

    b = backends(JobContext(settings))
    with pytest.raises(JobError, match="unknown task"):
        b.submit("nope", 1)
    for bad in (0, -3, True, "7", 1.5, None):
        with pytest.raises(JobError, match="id of a stored row"):
            b.submit("test_jobs_noop", bad)
    with pytest.raises(JobError, match="priority must be one of"):
        b.submit("test_jobs_noop", 1, priority="urgent")
    assert b.state("test_jobs_noop", 5).status == "unknown"
    assert wait(b, "test_jobs_noop", 5).status == "unknown"  # never submitted: nothing to wait for
    b.submit("test_jobs_noop", 5)
    st = wait(b, "test_jobs_noop", 5, timeout=DEADLINE)
    assert (st.status, st.attempts, st.error) == ("done", 1, None)


# -- idempotency ---------------------------------------------------------------------------------


def test_grading_a_mock_twice_repeats_no_finished_work(db_url, fake, backends):
    s = llm_settings(db_url, fake)
    d = Dojo(s)
    mock_id = ended_mock(d)
    b = backends(JobContext(s, dojo=d))
    b.submit("grade_mock", mock_id)
    st = wait(b, "grade_mock", mock_id, timeout=DEADLINE)
    assert (st.status, st.error) == ("done", None)
    first = snapshot(d, mock_id)
    assert first[0] == "graded" and llm_calls(fake) == 1
    item = next(i for i in d.mocks.get(mock_id).items if i.ref_id == ENTRY_ID)
    assert item.graded and item.score is not None and not (item.feedback or {}).get("error")
    assert first[2] > 0 and first[4][0] > 0 and first[4][1] == 1  # key-point cards, one scorecard

    # Submitting a done job again, and retrying it, runs the task again: it changes nothing.
    assert b.submit("grade_mock", mock_id).status == "queued"
    assert wait(b, "grade_mock", mock_id, timeout=DEADLINE).status == "done"
    assert b.retry("grade_mock", mock_id).status == "queued"
    assert wait(b, "grade_mock", mock_id, timeout=DEADLINE).status == "done"
    # The task itself, run directly twice more.
    get_task("grade_mock").fn(JobContext(s, dojo=d), mock_id)
    assert snapshot(d, mock_id) == first  # no card, scorecard or score added or changed
    assert llm_calls(fake) == 1  # the graded answer was never sent to the grader again


def test_a_failed_answer_is_graded_again_but_graded_ones_are_not(db_url, fake, backends):
    s = llm_settings(db_url, fake)
    d = Dojo(s)
    mock_id = ended_mock(d, extra=1)  # the second answer's entry does not fit the fake's reply
    b = backends(JobContext(s, dojo=d))
    b.submit("grade_mock", mock_id)
    assert wait(b, "grade_mock", mock_id, timeout=DEADLINE).status == "done"
    m = d.mocks.get(mock_id)
    failed = [i for i in m.items if i.answered and not i.graded]
    assert m.status == "graded" and len(failed) == 1 and failed[0].feedback["error"]
    assert llm_calls(fake) == 2
    b.retry("grade_mock", mock_id)  # the report's "grade again"
    assert wait(b, "grade_mock", mock_id, timeout=DEADLINE).status == "done"
    assert llm_calls(fake) == 3  # only the failed one went to the grader again
    assert [body["messages"][-1]["content"] == fake.requests[1][1]["messages"][-1]["content"]
            for _h, body in fake.requests[2:]] == [True]


# -- failures and retries -------------------------------------------------------------------------

RUNS: dict[str, int] = {}


@task("test_jobs_always_fails")
def always_fails(ctx, ref):
    RUNS["always"] = RUNS.get("always", 0) + 1
    raise RuntimeError(f"the disk is on fire (run {RUNS['always']})")


@task("test_jobs_fails_twice")
def fails_twice(ctx, ref):
    RUNS["twice"] = RUNS.get("twice", 0) + 1
    if RUNS["twice"] <= 2:
        raise ConnectionError("the database went away")


def test_a_task_that_keeps_failing_ends_failed_with_its_error_after_bounded_attempts(settings, backends):
    RUNS.clear()
    assert settings.jobs_max_retries == 2  # the default
    b = backends(JobContext(settings))
    b.submit("test_jobs_always_fails", 1)
    st = wait(b, "test_jobs_always_fails", 1, timeout=DEADLINE)
    assert (st.status, st.attempts) == ("failed", 3) and RUNS["always"] == 3
    assert st.error == "RuntimeError: the disk is on fire (run 3)"
    # A failed job is not run again by another submit (a page polling): only by retry.
    assert b.submit("test_jobs_always_fails", 1).status == "failed"
    time.sleep(0.3)
    assert RUNS["always"] == 3 and b.active("test_jobs_always_fails") == {}
    b.retry("test_jobs_always_fails", 1)
    st = wait(b, "test_jobs_always_fails", 1, timeout=DEADLINE)
    assert (st.status, st.attempts, RUNS["always"]) == ("failed", 3, 6)

    one = backends(JobContext(settings), max_retries=0)
    one.submit("test_jobs_always_fails", 2)
    assert wait(one, "test_jobs_always_fails", 2, timeout=DEADLINE).attempts == 1


def test_a_task_that_fails_twice_then_succeeds_is_done_on_its_third_attempt(settings, backends):
    RUNS.clear()
    b = backends(JobContext(settings), retry_delay=0.05)  # waits 0.05 s, then 0.1 s
    b.submit("test_jobs_fails_twice", 4)
    st = wait(b, "test_jobs_fails_twice", 4, timeout=DEADLINE)
    assert (st.status, st.attempts, st.error) == ("done", 3, None) and RUNS["twice"] == 3


def test_grading_a_running_or_unknown_mock_fails_at_once_with_a_clear_error(dojo, settings, backends):
    running = dojo.mocks.start(MockConfig(level="junior", use_judge=False, seed=1))
    b = backends(JobContext(settings, dojo=dojo))
    b.submit("grade_mock", running.id)
    b.submit("grade_mock", 999_999)
    st = wait(b, "grade_mock", running.id, timeout=DEADLINE)
    assert (st.status, st.attempts) == ("failed", 1)
    assert st.error == f"JobError: mock #{running.id} is still running: finish it before grading it"
    st = wait(b, "grade_mock", 999_999, timeout=DEADLINE)
    assert st.status == "failed" and st.error.startswith("JobError: mock #999999:")
    assert dojo.mocks.get(running.id).status == "active"


def test_priority_high_runs_before_normal_before_low(settings, backends):
    order: list[int] = []
    gate = threading.Event()

    @task("test_jobs_ordered")
    def ordered(ctx, ref):
        if ref == 1:
            gate.wait(DEADLINE)
        order.append(ref)

    b = backends(JobContext(settings))
    b.submit("test_jobs_ordered", 1)
    deadline = time.monotonic() + DEADLINE
    while b.state("test_jobs_ordered", 1).status != "running" and time.monotonic() < deadline:
        time.sleep(0.01)
    b.submit("test_jobs_ordered", 2, priority="low")
    b.submit("test_jobs_ordered", 3)
    b.submit("test_jobs_ordered", 4, priority="high")
    assert b.submit("test_jobs_ordered", 3).status == "queued"  # not queued twice
    assert set(b.active("test_jobs_ordered")) == {1, 2, 3, 4}
    gate.set()
    for ref in (2, 3, 4):
        assert wait(b, "test_jobs_ordered", ref, timeout=DEADLINE).status == "done"
    assert order == [1, 4, 3, 2]


# -- resume after a restart -----------------------------------------------------------------------


def test_a_new_backend_over_the_same_database_finishes_unfinished_grading(db_url, fake, backends):
    s = llm_settings(db_url, fake)
    d = Dojo(s)
    never_started = ended_mock(d)  # the app was stopped before it could grade this one
    interrupted = ended_mock(d, extra=1)
    graded_before = llm_calls(fake)
    assert graded_before == 0

    # Run 1: stopped while the grader answers the interrupted mock's first answer.
    fake.delay = 2.0
    first = backends(JobContext(s, dojo=d))
    first.submit("grade_mock", interrupted)
    deadline = time.monotonic() + DEADLINE
    while llm_calls(fake) < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert first.state("grade_mock", interrupted).status == "running"
    first.close()
    first.join(DEADLINE)  # the process is gone
    fake.delay = 0.0
    m = d.mocks.get(interrupted)
    assert m.status == "grading" and sum(i.answered and i.graded for i in m.items) == 1  # its answer was stored
    assert d.mocks.get(never_started).status == "grading"
    assert llm_calls(fake) == 1

    # Run 2: a new backend, a new core over the same database, resumes both.
    d2 = Dojo(s)
    second = backends(JobContext(s, dojo=d2))
    second.resume()
    for mock_id in (never_started, interrupted):
        deadline = time.monotonic() + DEADLINE
        while second.state("grade_mock", mock_id).status == "unknown" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert wait(second, "grade_mock", mock_id, timeout=DEADLINE).status == "done"
        assert d2.mocks.get(mock_id).status == "graded"
    # Every answer went to the grader once: the interrupted mock's graded answer was not redone.
    assert llm_calls(fake) == 3
    assert second.active("grade_mock") == {}


def test_a_closed_backend_takes_no_work(settings, backends):
    b = backends(JobContext(settings))
    b.close()
    assert b.submit("grade_mock", 1).status == "unknown"


# -- the second task: FSRS optimisation ------------------------------------------------------------


def test_optimize_fsrs_stores_its_result_once_and_refuses_a_short_log(dojo, settings, backends):
    from test_study_settings import _synthetic_log, _write_log

    from torchdojo.jobs.tasks import read_optimization, request_optimization, stored_result
    from torchdojo.practice.optimizer import NotEnoughReviewsError

    with pytest.raises(NotEnoughReviewsError, match="at least 512 reviews"):
        request_optimization(dojo.sessions)  # refused at once: nothing recorded, no job
    assert read_optimization(dojo.sessions) is None

    _write_log(dojo, _synthetic_log([e.id for e in list(dojo.bank)[:60]], 11))
    ref = request_optimization(dojo.sessions)
    assert read_optimization(dojo.sessions) == {"upto": ref, "status": "requested"}
    # A restart: the request is in the database, so a new backend's resume() finds and runs it.
    b = backends(JobContext(settings))
    b.resume()
    deadline = time.monotonic() + DEADLINE
    while b.state("optimize_fsrs", ref).status == "unknown" and time.monotonic() < deadline:
        time.sleep(0.05)
    st = wait(b, "optimize_fsrs", ref, timeout=600)
    assert (st.status, st.error) == ("done", None), st
    stored = read_optimization(dojo.sessions)
    assert stored["upto"] == ref and stored["status"] == "done"
    result = stored_result(stored["result"])
    assert len(result.parameters) == 21 and result.loss_after <= result.loss_before
    assert dojo.flashcards.refresh().fsrs_parameters is None  # nothing applied
    # Idempotent: asking again for the same log keeps the outcome and fits nothing again.
    assert request_optimization(dojo.sessions) == ref
    b.retry("optimize_fsrs", ref)
    assert wait(b, "optimize_fsrs", ref, timeout=DEADLINE).status == "done"
    assert read_optimization(dojo.sessions) == stored  # same result, same time: not fitted again


# -- the web face shows a failed job and retries it on request ------------------------------------


def test_the_report_shows_a_failed_grading_and_grades_again_on_request(bank_copy, db_url, tmp_path):
    """A mock whose grading raises (its question was removed from the bank before the server
    started): the job fails after its bounded attempts, the report says why and offers to try
    again, and "try again" runs it again (a real ``torchdojo serve``)."""
    import re

    import httpx
    from conftest import Server

    d = Dojo(Settings(bank_dir=bank_copy, database_url=db_url))
    m = d.mocks.start(MockConfig(level="junior", use_judge=False, seed=3))
    d.mocks.save_answer(m.id, 0, "An answer whose question is about to disappear.")
    d.mocks.finish(m.id)
    gone = m.items[0].ref_id
    next(bank_copy.joinpath("questions").rglob(f"{gone}.md")).unlink()
    env = {"TORCHDOJO_GRADER": "llm", "TORCHDOJO_LLM_BASE_URL": "http://127.0.0.1:9/v1", "TORCHDOJO_LLM_MODEL": "none",
           "TORCHDOJO_JOBS_MAX_RETRIES": "1"}
    srv = Server(db_url, bank_dir=bank_copy, env=env)
    srv.start(timeout=120)
    try:
        c = httpx.Client(base_url=srv.url, timeout=60)
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            page = c.get(f"/mock/{m.id}/report")
            assert page.status_code == 200
            if 'id="grading-retry"' in page.text:
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"the report never showed the failure: {page.text[-3000:]}")
        err = re.search(r'id="grading-error">Grading stopped with an error: ([^<]*)<', page.text)
        assert err and "KeyError" in err.group(1) and gone in err.group(1)
        assert "will be retried" not in page.text  # attempts are used up
        assert Dojo(Settings(bank_dir=bank_copy, database_url=db_url)).mocks.get(m.id).status == "grading"
        # Try again: the job runs again (and, the entry still missing, fails again the same way).
        r = c.post(f"/mock/{m.id}/regrade")
        assert r.status_code == 303 and r.headers["location"] == f"/mock/{m.id}/report"
        deadline = time.monotonic() + DEADLINE
        while 'id="grading-retry"' not in (page := c.get(f"/mock/{m.id}/report").text) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert 'id="grading-retry"' in page and "KeyError" in page
    finally:
        srv.stop()
    log = srv.proc.stdout.read()
    # Two runs of the job (the first, then "try again"), each of 1 + 1 retry attempts.
    assert log.count(f"job grade_mock({m.id}) failed (attempt 1)") == 2, log[-3000:]
    assert log.count(f"job grade_mock({m.id}) failed (attempt 2, giving up)") == 2, log[-3000:]
