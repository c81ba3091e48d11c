"""Accounts (team mode): invitation sign-up, log-in, sessions, CSRF tokens, roles, rate limits,
and each learner's data in a store of their own — on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import accounts_app as _acc
import pytest
from accounts_app import PASSWORD, csrf_of, sign_in
from starlette.testclient import TestClient

from torchdojo.team.accounts import AccountError, Accounts

app, server_url = _acc.app, _acc.server_url  # fixtures


def client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1")


def make_user(app, email: str, role: str = "learner", cohort: str = "c1"):
    return app.state.accounts.create_user(email, PASSWORD, role, name=email.split("@")[0], cohort=cohort)


def test_invitation_sign_up_log_in_and_out(app):
    make_user(app, "admin@example.org", "admin", "")
    anon = client(app)
    r = anon.get("/review", headers={"accept": "text/html"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=%2Freview"
    assert anon.get("/cards", headers={"accept": "application/json"}).status_code == 401
    assert anon.get("/healthz").status_code == 200 and anon.get("/login").status_code == 200

    c, csrf = sign_in(app, "admin@example.org")
    r = c.post("/invitations", data={"email": "Ann@Example.org", "role": "learner", "cohort": "fall",
                                     "csrf_token": csrf})
    assert r.status_code == 201
    token = re.search(r"/signup/([A-Za-z0-9_-]+)", r.text).group(1)
    # the token is not stored: only its digest
    with app.state.dojo.sessions() as s:
        from torchdojo.store.team_models import InvitationRow

        assert all(token not in row.token_hash for row in s.query(InvitationRow))

    new = client(app)
    page = new.get(f"/signup/{token}")
    assert page.status_code == 200 and "ann@example.org" in page.text and "fall" in page.text
    r = new.post(f"/signup/{token}", data={"name": "Ann", "password": "short", "password2": "short"})
    assert r.status_code == 400 and "10 to 1024" in r.text
    r = new.post(f"/signup/{token}", data={"name": "Ann", "password": PASSWORD, "password2": PASSWORD},
                 follow_redirects=False)
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert new.get("/review").status_code == 200
    # used once
    again = client(app).post(f"/signup/{token}", data={"password": PASSWORD, "password2": PASSWORD})
    assert again.status_code == 410
    assert client(app).get("/signup/not-a-token").status_code == 404

    ann = app.state.accounts.users(role="learner")[0]
    assert (ann.email, ann.role, ann.cohort, ann.name) == ("ann@example.org", "learner", "fall", "Ann")
    # log out ends the session on the server: the old cookie is refused afterwards
    old = dict(new.cookies)
    csrf_ann = csrf_of(new.get("/").text)
    assert new.post("/logout", data={"csrf_token": csrf_ann}, follow_redirects=False).status_code == 303
    replay = client(app)
    replay.cookies.update(old)
    assert replay.get("/review", headers={"accept": "text/html"}, follow_redirects=False).status_code == 303


def test_wrong_credentials_say_the_same_and_are_rate_limited(app):
    make_user(app, "bob@example.org")
    c = client(app)
    unknown = c.post("/login", data={"email": "nobody@example.org", "password": PASSWORD})
    wrong = c.post("/login", data={"email": "bob@example.org", "password": "not the password"})
    assert unknown.status_code == wrong.status_code == 401
    assert "wrong e-mail address or password" in unknown.text and "wrong e-mail address or password" in wrong.text
    for _ in range(9):
        c.post("/login", data={"email": "bob@example.org", "password": "still not it"})
    # the account's window is used up: even the right password waits, with Retry-After
    r = c.post("/login", data={"email": "bob@example.org", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    # another account from the same client still signs in (per-client limit is higher)
    make_user(app, "cy@example.org")
    assert c.post("/login", data={"email": "cy@example.org", "password": PASSWORD},
                  follow_redirects=False).status_code == 303


def test_state_changing_requests_need_the_sessions_csrf_token(app):
    make_user(app, "dee@example.org")
    c, csrf = sign_in(app, "dee@example.org")
    form = {"front": "What does torch.no_grad do?", "back": "Disables graph recording."}
    assert c.post("/cards/new", data=form).status_code == 403  # form without the token
    assert c.post("/cards/new", data={**form, "csrf_token": "x" * len(csrf)}).status_code == 403
    assert c.post("/cards/new", data=form, headers={"X-CSRF-Token": "nope"}).status_code == 403
    other, other_csrf = sign_in(app, "dee@example.org")  # another session: another token
    assert other_csrf != csrf
    assert c.post("/cards/new", data={**form, "csrf_token": other_csrf}).status_code == 403
    # multipart (the backup restore form) without the token
    r = c.post("/data/restore", files={"file": ("b.json", b"{}", "application/json")})
    assert r.status_code == 403
    with app.state.learner_stores.sessions("learner_1")() as s:
        from torchdojo.store.models import OwnCardRow

        assert s.query(OwnCardRow).count() == 0  # nothing refused was written
    ok = c.post("/cards/new", data={**form, "csrf_token": csrf}, follow_redirects=False)
    assert ok.status_code in (200, 303)
    ok2 = c.post("/cards/new", data={**form, "front": "Second card"}, headers={"X-CSRF-Token": csrf},
                 follow_redirects=False)
    assert ok2.status_code in (200, 303)
    with app.state.learner_stores.sessions("learner_1")() as s:
        assert s.query(OwnCardRow).count() == 2


def test_roles_learner_coach_admin(app):
    make_user(app, "lea@example.org", "learner", "fall")
    make_user(app, "coach@example.org", "coach", "fall")
    learner, lcsrf = sign_in(app, "lea@example.org")
    assert learner.get("/admin/users").status_code == 403
    assert learner.post("/invitations", data={"email": "x@example.org", "csrf_token": lcsrf}).status_code == 403
    coach, ccsrf = sign_in(app, "coach@example.org")
    assert coach.get("/admin/users").status_code == 403
    r = coach.post("/invitations", data={"email": "new@example.org", "role": "learner", "csrf_token": ccsrf})
    assert r.status_code == 201  # to the coach's own cohort
    r = coach.post("/invitations", data={"email": "boss@example.org", "role": "admin", "csrf_token": ccsrf})
    assert r.status_code == 403
    r = coach.post("/invitations", data={"email": "n2@example.org", "role": "learner", "cohort": "spring",
                                         "csrf_token": ccsrf})
    assert r.status_code == 403


def test_accounts_core_rules(server_url):
    from torchdojo.store.db import open_database

    acc = Accounts(open_database(server_url))
    admin = acc.create_user("root@example.org", PASSWORD, "admin")
    with pytest.raises(AccountError) as e:
        acc.create_user("ROOT@example.org", PASSWORD, "learner")
    assert e.value.status == 409
    with pytest.raises(AccountError):
        acc.create_user("not an address", PASSWORD, "learner")
    with pytest.raises(AccountError):
        acc.create_user("x@example.org", PASSWORD, "superuser")
    now = datetime.now(UTC)
    _id, token = acc.invite(admin, "late@example.org", days=1, now=now - timedelta(days=2))
    with pytest.raises(AccountError) as e:
        acc.sign_up(token, PASSWORD)
    assert e.value.status == 410
    # an expired session is not a session; a disabled user's sessions end
    user = acc.create_user("ed@example.org", PASSWORD, "learner")
    tok, _ = acc.open_session(user, now=now - timedelta(days=30))
    assert acc.session(tok) is None
    tok, _ = acc.open_session(user)
    assert acc.session(tok).user.email == "ed@example.org"
    acc.disable(user.id)
    assert acc.session(tok) is None
    with pytest.raises(AccountError):
        acc.authenticate("ed@example.org", PASSWORD)
    # the hash is argon2id, never the password
    from sqlalchemy import select

    from torchdojo.store.team_models import UserRow

    with acc.sessions() as s:
        h = s.scalar(select(UserRow.password_hash).where(UserRow.email == "root@example.org"))
    assert h.startswith("$argon2id$") and PASSWORD not in h


def test_code_runs_are_rate_limited_per_user(app):
    """Run, Submit and custom input count against the user's submission limit (30 a minute):
    over it, a 429 with Retry-After and nothing is stored or run; another user is not affected."""
    make_user(app, "fay@example.org")
    make_user(app, "gus@example.org")
    c, csrf = sign_in(app, "fay@example.org")
    fay = app.state.accounts.users()[0]
    for _ in range(30):  # the limit used up (counted by the real limiter the route uses)
        app.state.rate_limits.hit("submit", str(fay.id))
    ch = sorted(app.state.dojo.challenges)[0]
    r = c.post(f"/challenges/{ch}/judge", data={"code": "x = 1", "mode": "run", "csrf_token": csrf},
               headers={"HX-Request": "true"})
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
    assert "Too many runs" in r.text
    with app.state.learner_stores.sessions(fay.store)() as s:
        from torchdojo.store.models import SubmissionRow

        assert s.query(SubmissionRow).count() == 0
    g, gcsrf = sign_in(app, "gus@example.org")
    gus = app.state.accounts.users()[1]
    app.state.rate_limits.hit("submit", str(gus.id))  # one of gus's thirty: not over
    from torchdojo.team.ratelimit import RateLimited

    with pytest.raises(RateLimited):
        app.state.rate_limits.check("submit", str(fay.id))
    app.state.rate_limits.check("submit", str(gus.id))
