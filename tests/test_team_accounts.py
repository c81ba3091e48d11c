"""Team mode with accounts and real workers: a learner's mock is graded by a Celery worker in
that learner's own store (the job names the store), and the report page shows it."""

from __future__ import annotations

import re

import team as _team
from starlette.testclient import TestClient
from team import wait_for
from test_team_jobs import ANSWER, grading_worker, llm  # noqa: F401  (llm: a fixture)

from torchdojo.practice.mock import MockConfig

team, redis_server = _team.team, _team.redis_server  # fixtures


def test_a_learners_mock_is_graded_by_a_worker_in_the_learners_store(team, llm):  # noqa: F811
    from sqlalchemy import select

    from torchdojo.store.models import MockItemRow, MockRow
    from torchdojo.web.app import create_app

    t = team(accounts=True, grader="llm", llm_base_url=llm.base_url, llm_model="fake")
    app = create_app(t.settings)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        ann = app.state.accounts.create_user("ann@example.org", "correct horse battery", "learner")
        d = app.state.learners.get(ann).dojo
        m = d.mocks.start(MockConfig(level="junior", use_judge=False, follow_ups=False, seed=3))
        answered = [i.position for i in m.items if i.kind == "question"][:2]
        for p in answered:
            d.mocks.save_answer(m.id, p, ANSWER)
        assert d.mocks.finish(m.id).status == "grading"
        assert c.post("/login", data={"email": "ann@example.org", "password": "correct horse battery"},
                      follow_redirects=False).status_code == 303
        page = c.get(f"/mock/{m.id}/report?later=1")  # submits the learner's grading job
        assert page.status_code == 200 and 'data-status="grading"' in page.text
        assert llm.requests == 0
        grading_worker(t, llm)

        def graded():
            with d.sessions() as s:
                return s.get(MockRow, m.id).status == "graded"
        wait_for("the worker to grade the learner's mock", graded, on_fail=t.logs)
        with d.sessions() as s:
            rows = {r.position: r for r in s.scalars(select(MockItemRow).where(MockItemRow.mock_id == m.id))}
        assert all(rows[p].graded_at is not None and rows[p].score is not None for p in answered)
        assert llm.requests == len(answered)
        report = c.get(f"/mock/{m.id}/report?later=1").text
        assert 'data-status="graded"' in report
        # the server's own store has no mock at all: the job went to the learner's
        with t.sessions() as s:
            assert s.scalar(select(MockRow.id)) is None
        assert re.search(rf"grade_mock:{m.id}@learner_1\] succeeded", "\n".join(
            w.log.read_text(errors="replace") for w in t.workers if w.log.exists()))


def test_a_practice_answer_is_stored_at_once_and_graded_by_a_worker(team, llm):  # noqa: F811
    """Team mode: the web stores the answer (a scorecard waiting for the machine), queues only its
    id and answers 202 at once; a worker grades it; the page gets the feedback by server-sent events."""
    from torchdojo.web.app import create_app

    t = team(accounts=True, grader="llm", llm_base_url=llm.base_url, llm_model="fake")
    app = create_app(t.settings)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        ann = app.state.accounts.create_user("ann@example.org", "correct horse battery", "learner")
        c.post("/login", data={"email": "ann@example.org", "password": "correct horse battery"})
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', c.get("/").text).group(1)
        d = app.state.learners.get(ann).dojo
        entry = next(e for e in d.bank if e.meta.type == "concept")
        r = c.post(f"/questions/{entry.id}/answer", data={"answer": ANSWER, "csrf_token": csrf},
                   headers={"HX-Request": "true"})
        assert r.status_code == 202, r.text
        sid = int(re.search(r'data-events="/scorecards/(\d+)/events"', r.text).group(1))
        sc = d.scorecards.get(sid)
        assert sc.machine_pending and sc.answer == ANSWER and all(ln.proposal is None for ln in sc.lines)
        assert llm.requests == 0  # the web grades nothing
        # accepting the machine's proposals before they exist is refused, not a silent no-op
        assert c.post(f"/scorecards/{sid}/accept", data={"csrf_token": csrf}).status_code == 409
        # an answer to an own card takes the same path (no HTMX: the card's page, 202, with the banner)
        own = d.own_cards.create("What does torch.no_grad() do?", "Turns off graph recording.",
                                 ["no graph is recorded inside it", "saves memory at inference"])
        r = c.post(f"/cards/own/{own.id}/answer", data={"answer": ANSWER, "csrf_token": csrf})
        assert r.status_code == 202 and 'data-events="/scorecards/' in r.text
        own_sid = int(re.search(r'data-events="/scorecards/(\d+)/events"', r.text).group(1))
        grading_worker(t, llm)
        body = c.get(f"/scorecards/{sid}/events").text  # ends once the feedback is sent
        verdict = body.split("event: verdict\n", 1)[1]
        assert 'id="practice-score"' in verdict and "data-score=" in verdict
        sc = d.scorecards.get(sid)
        assert not sc.machine_pending and sc.machine_score is not None and sc.feedback
        assert any(ln.proposal is not None for ln in sc.lines)
        own_body = c.get(f"/scorecards/{own_sid}/events").text
        assert "event: verdict" in own_body and not d.scorecards.get(own_sid).machine_pending
        assert llm.requests == 2
        # a second delivery of the job proposes nothing again
        from torchdojo.grading.feedback import Feedback

        assert d.scorecards.propose(sid, Feedback.model_validate_json(sc.feedback)) is False
        assert c.get("/scorecards/999999/events").status_code == 404
