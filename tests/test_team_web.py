"""The web's judge route in team mode: store + enqueue + answer at once, the verdict by
server-sent events, 429 + Retry-After when the queue is full (real Redis, a real worker)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import team as _team
from conftest import BANK, ROOT, Server
from playwright.sync_api import expect
from starlette.testclient import TestClient
from team import CHALLENGE, solution

team, redis_server = _team.team, _team.redis_server  # fixtures


def test_team_mode_queues_answers_at_once_and_streams_the_verdict(team):
    from torchdojo.web.app import create_app

    t = team(queue_max=1)
    c = TestClient(create_app(t.settings), base_url="http://127.0.0.1")
    url = f"/challenges/{CHALLENGE}/judge"
    r = c.post(url, data={"code": solution(), "mode": "submit"}, headers={"HX-Request": "true"})
    assert r.status_code == 202, r.text
    sid = int(re.search(r'data-events="/submissions/(\d+)/events"', r.text).group(1))
    assert t.row(sid).status == "pending"
    assert "waits for a judge worker" in c.get(f"/submissions/{sid}").text

    full = c.post(url, data={"code": solution(), "mode": "run"}, headers={"HX-Request": "true"})
    assert full.status_code == 429 and int(full.headers["Retry-After"]) >= 1
    assert "queue is full" in full.text
    assert len(t.rows()) == 1

    t.worker()
    body = c.get(f"/submissions/{sid}/events").text  # the stream ends once the verdict is sent
    assert "event: status\ndata: pending" in body or "event: status\ndata: judging" in body
    verdict = body.split("event: verdict\n", 1)[1]
    assert 'data-verdict="Accepted"' in verdict and f"#{sid}" in verdict
    assert t.row(sid).status == "done"
    assert 'data-verdict="Accepted"' in c.get(f"/submissions/{sid}").text

    # Without HTMX the browser is sent to the submission's page; re-judging queues a new one.
    r = c.post(url, data={"code": solution(), "mode": "run"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/submissions/{sid + 1}"
    assert c.get("/submissions/999999/events").status_code == 404


def test_the_single_user_app_imports_no_celery_and_worker_needs_a_broker(settings):
    code = (
        "import sys; from torchdojo.web.app import create_app; from torchdojo.settings import Settings;"
        f"app = create_app(Settings(bank_dir={str(settings.bank_dir)!r}, database_url={settings.database_url!r}));"
        "from starlette.testclient import TestClient; c = TestClient(app, base_url='http://127.0.0.1');"
        "assert c.get('/challenges').status_code == 200;"
        "assert not {'celery', 'kombu', 'redis'} & set(sys.modules), 'a team-mode library was imported'"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("TORCHDOJO_BROKER_URL", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([sys.executable, "-m", "torchdojo.cli.main", "worker"], capture_output=True, text=True,
                         env=env)
    assert out.returncode == 2 and "needs TORCHDOJO_BROKER_URL" in out.stderr


@pytest.mark.browser
def test_a_browser_sees_the_queued_submission_get_its_verdict(team, browser):
    # The real page: Submit answers "Queued" at once; the verdict arrives by server-sent events.
    t = team()
    srv = Server(t.settings.database_url, env={**t.env(), "PYTHONPATH": str(ROOT / "src")})
    srv.start(timeout=120)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{srv.url}/challenges/{CHALLENGE}")
        expect(page.locator(".cm-editor")).to_be_visible()
        page.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.press("Delete")
        page.keyboard.insert_text(solution())
        page.locator("#submit-btn").click()
        expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Pending", timeout=60_000)
        expect(page.locator("#verdict")).to_contain_text("Queued")
        t.worker()  # no worker until now: the page waits on its event stream
        expect(page.locator("#verdict")).to_have_attribute("data-verdict", "Accepted", timeout=240_000)
        expect(page.locator("#report")).to_contain_text("submit")
        page.close()
    finally:
        srv.stop()


def test_the_cli_queues_for_the_workers_and_prints_their_verdict(team, tmp_path):
    t = team()
    t.worker()
    sol = tmp_path / "solution.py"
    sol.write_text(solution())
    env = {**os.environ, **t.env(), "PYTHONPATH": str(ROOT / "src"), "TORCHDOJO_BANK_DIR": str(BANK)}
    out = subprocess.run([sys.executable, "-m", "torchdojo.cli.main", "challenge", "submit", CHALLENGE, str(sol)],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Queued as submission #1" in out.stdout and "Accepted" in out.stdout
    row = t.row(1)
    assert (row.status, row.verdict, row.worker is not None) == ("done", "Accepted", True)


def test_team_mode_with_accounts_judges_into_the_learners_own_store(team):
    """Accounts on (as in a real team deployment): the web stores the submission in the learner's
    store and names the store in the job; a real worker judges it there; nothing lands in the
    server's own tables; another learner cannot see it."""
    from sqlalchemy import select

    from torchdojo.store.models import SubmissionRow
    from torchdojo.web.app import create_app

    t = team(accounts=True)
    app = create_app(t.settings)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        for email in ("ann@example.org", "ben@example.org"):
            app.state.accounts.create_user(email, "correct horse battery", "learner")
        assert c.post("/login", data={"email": "ann@example.org", "password": "correct horse battery"},
                      follow_redirects=False).status_code == 303
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', c.get("/").text).group(1)
        r = c.post(f"/challenges/{CHALLENGE}/judge", data={"code": solution(), "mode": "submit", "csrf_token": csrf},
                   headers={"HX-Request": "true"})
        assert r.status_code == 202, r.text
        sid = int(re.search(r'data-events="/submissions/(\d+)/events"', r.text).group(1))
        t.worker()
        body = c.get(f"/submissions/{sid}/events").text
        assert 'data-verdict="Accepted"' in body.split("event: verdict\n", 1)[1]
        store = app.state.learner_stores.sessions("learner_1")
        with store() as s:
            row = s.get(SubmissionRow, sid)
            assert row.status == "done" and row.verdict == "Accepted" and row.attempts == 1
        assert t.rows() == []  # the server's own submissions table stays empty
        ben = TestClient(app, base_url="http://127.0.0.1")
        ben.post("/login", data={"email": "ben@example.org", "password": "correct horse battery"})
        assert ben.get(f"/submissions/{sid}").status_code == 404
        with app.state.learner_stores.sessions("learner_2")() as s:
            assert list(s.scalars(select(SubmissionRow))) == []
