"""Isolation between learners (team accounts): every route, tried with another learner's ids.

Learner A fills their store with one of everything (cards reviewed and suspended, an own card,
notes, a mock with answers, an interview with scorecards, a practice scorecard, a submission,
study settings, a challenge hint). Learner B, signed in, then requests **every route of the app**
(enumerated from the app itself, so a route added later is tried too) with A's ids: GET and
POST, with B's valid CSRF token. Checks: no response shows A's marker text; every id-addressed
GET answers 404 (B has no such row); and A's whole store is byte-for-byte as it was (A's backup
before and after). Runs on SQLite and on a real PostgreSQL server (schemas + ``SET LOCAL
search_path`` on pooled connections: a leak between learners would show here).
"""

from __future__ import annotations

import json
import re

import accounts_app as _acc
from accounts_app import PASSWORD, sign_in
from fastapi.routing import APIRoute
from starlette.testclient import TestClient

from torchdojo.practice.mock import MockConfig

app, server_url = _acc.app, _acc.server_url  # fixtures

MARK = "ZEBRA-SECRET-OF-A"


def fill_store(d) -> dict[str, str]:
    """One of everything in learner A's store; returns the ids to attack with."""
    from torchdojo.jobs import team_judge as tj

    entries = [e for e in d.bank]
    prose = next(e for e in entries if e.meta.type == "concept")
    d.flashcards.review(prose.id, "good")
    other = next(e for e in entries if e.meta.type == "concept" and e.id != prose.id)
    d.flashcards.review(other.id, "again")
    d.flashcards.suspend(other.id)
    own = d.own_cards.create(f"{MARK} own front", f"{MARK} own back", [f"{MARK} point"])
    d.notes.save(prose.id, f"{MARK} note")
    mock = d.mocks.start(MockConfig(level="junior", use_judge=False, follow_ups=False, seed=1))
    d.mocks.save_answer(mock.id, 0, f"{MARK} mock answer")
    iid = d.interviews.start([prose.id, other.id], candidate=f"{MARK} candidate", interviewer="A")
    sc = d.scorecards.create(prose.id, f"{MARK} practice answer", None)
    ch = sorted(d.challenges)[0]
    sub = tj.store_pending(d.sessions, ch, f"# {MARK} code\n", "submit")
    d.judge.reveal_hint(ch)
    d.flashcards.save_settings({"desired_retention": 0.85})
    with d.sessions() as s:
        from torchdojo.store.models import ScorecardRow

        isc = s.query(ScorecardRow).filter(ScorecardRow.interview_id == iid).first().id
    return {"mock_id": str(mock.id), "pos": "0", "interview_id": str(iid), "scorecard_id": str(isc),
            "sid": str(sc), "submission_id": str(sub), "card_id": str(own.id), "entry_id": prose.id,
            "challenge_id": ch, "position": "0"}


def api_routes(routes):
    """Every APIRoute, also those of included routers (FastAPI ≥ 0.16x keeps them wrapped)."""
    for r in routes:
        if isinstance(r, APIRoute):
            yield r
        elif hasattr(r, "original_router"):
            yield from api_routes(r.original_router.routes)


def attack(app, b, csrf, ids, owned) -> int:
    """Every route with A's ids, as client ``b``; returns the number of requests made."""
    tried = 0
    # GETs first (B has no rows yet: every id of A's is a 404), then every other method, then
    # the GETs again (B now has rows of their own, made by those requests: never A's)
    for phase in ("GET", "other", "GET again"):
        for route in api_routes(app.routes):
            params = re.findall(r"{(\w+)}", route.path)
            unknown = [p for p in params if p not in ids]
            assert not unknown, f"{route.path}: add an id for {unknown} to fill_store (every route is tried)"
            path = route.path
            for p in params:
                path = path.replace("{" + p + "}", ids[p])
            for method in sorted(route.methods - {"HEAD"}):
                if path == "/logout" or (method == "GET") != phase.startswith("GET"):
                    continue
                if method == "GET":
                    r = b.get(path, headers={"accept": "text/html"}, follow_redirects=False)
                else:
                    form = {"csrf_token": csrf, "answer": "b", "text": "b", "card_id": ids["entry_id"],
                            "rating": "good", "front": "b front", "code": "x = 1", "mark": "met"}
                    r = b.request(method, path, data=form, follow_redirects=False)
                tried += 1
                assert r.status_code < 500, f"{method} {path}: {r.status_code} {r.text[:300]}"
                assert MARK not in r.text, f"{method} {path} showed learner A's data to another user"
                if phase == "GET" and any(p in owned for p in params):
                    assert r.status_code in (403, 404), f"GET {path}: {r.status_code} (no such row for this user)"
                    if "learner_id" not in params:
                        assert r.status_code == 404, f"GET {path}: {r.status_code}"
    return tried


def backup_of(d) -> dict:
    doc = json.loads(d.data.backup_json())
    doc.pop("exported_at", None)
    return doc


#: Id-addressed GET routes whose row B does not have: 404. (Entry and challenge ids are the
#: bank's, shared by all: B sees their own state of them.)
OWNED = ("mock_id", "interview_id", "scorecard_id", "sid", "submission_id", "card_id", "peer_id")


def test_a_learner_never_reads_or_changes_another_learners_data(app):
    acc = app.state.accounts
    a = acc.create_user("a@example.org", PASSWORD, "learner", cohort="c")
    acc.create_user("b@example.org", PASSWORD, "learner", cohort="c")
    da = app.state.learners.get(a).dojo
    ids = fill_store(da)
    ids["token"] = acc.invite(None, "z@example.org")[1]
    ids["learner_id"] = str(a.id)
    # a peer mock of A's with a partner of the cohort who is not B (server-wide row: B gets 404)
    from torchdojo.web.routes.peer import peer_mocks_of

    p = acc.create_user("p@example.org", PASSWORD, "learner", name="Pat", cohort="c")
    peer = peer_mocks_of(app).start(a, p.id, "junior", count=1)
    da.interviews.set_overall(peer.a_interview_id, None, f"{MARK} peer notes")
    ids["peer_id"] = str(peer.id)
    before = backup_of(da)
    assert MARK in json.dumps(before)
    owner, _ = sign_in(app, "a@example.org")
    assert MARK in owner.get(f"/cards/own/{ids['card_id']}").text  # A sees A's own card: the marker is findable

    b, csrf = sign_in(app, "b@example.org")
    tried = attack(app, b, csrf, ids, OWNED)
    assert tried > 60
    # a coach of another cohort: A's learner page and scorecards are as absent as A's rows
    acc.create_user("coach@example.org", PASSWORD, "coach", cohort="elsewhere")
    coach, coach_csrf = sign_in(app, "coach@example.org")
    attack(app, coach, coach_csrf, ids, (*OWNED, "learner_id"))
    # B's own exports hold nothing of A's
    for path in ("/data/backup.json", "/data/reviews.csv", "/stats", "/cards", "/mock", "/interview", "/peer"):
        assert MARK not in b.get(path).text, path
    # and A's store is exactly as it was, A's peer mock too
    assert backup_of(da) == before
    from torchdojo.web.routes.peer import peer_mocks_of as _pm

    assert _pm(app).get(int(ids["peer_id"]), a).stage == "a-asks"


def test_learner_stores_are_separate_databases(app):
    """The store of each learner is its own schema (PostgreSQL) or file (SQLite): same ids, other rows."""
    acc = app.state.accounts
    a = acc.create_user("a2@example.org", PASSWORD, "learner")
    b = acc.create_user("b2@example.org", PASSWORD, "learner")
    da, db = app.state.learners.get(a).dojo, app.state.learners.get(b).dojo
    ca = da.own_cards.create("alpha front")
    cb = db.own_cards.create("beta front")
    assert ca.id == cb.id == 1  # each store numbers its own rows
    ca_, cb_ = TestClient(app, base_url="http://127.0.0.1"), TestClient(app, base_url="http://127.0.0.1")
    for c, email in ((ca_, "a2@example.org"), (cb_, "b2@example.org")):
        c.post("/login", data={"email": email, "password": PASSWORD})
    # interleaved requests on the pooled connections: each sees only its own card 1
    for _ in range(5):
        assert "alpha front" in ca_.get("/cards/own/1").text
        assert "beta front" in cb_.get("/cards/own/1").text
    assert "alpha" not in cb_.get("/cards/own/1").text
    # the server's own tables are not in a learner store
    with da.sessions() as s:
        from sqlalchemy import inspect

        assert "users" not in inspect(s.connection()).get_table_names()


def test_learner_views_share_the_bank_index_and_judge_of_the_process(app):
    """A learner's Dojo view reads their store only but shares the heavy parts: one search index
    (BM25 over the bank), one grader, one judge backend per process — not one per learner."""
    acc = app.state.accounts
    a = acc.create_user("a3@example.org", PASSWORD, "learner")
    b = acc.create_user("b3@example.org", PASSWORD, "learner")
    da, db = app.state.learners.get(a).dojo, app.state.learners.get(b).dojo
    base = app.state.dojo
    assert da.index is db.index is base.index
    assert da.bank is db.bank is base.bank
    assert da.judge is not db.judge and da.judge.sessions is da.sessions and db.judge.sessions is db.sessions
    assert da.judge.challenges is base.judge.challenges
    assert da.sessions is not db.sessions is not base.sessions
