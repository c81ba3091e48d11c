"""Peer mock interviews (team mode): pair up, A interviews B in interviewer mode, swap, B
interviews A, and both learners' stores hold both scorecards — through the web pages, on SQLite
and on a real PostgreSQL server. Only the two participants see or act on a peer mock (404 for
anyone else); a partner comes from one's own cohort."""

from __future__ import annotations

import re

import accounts_app as _acc
import pytest
from accounts_app import PASSWORD, sign_in
from conftest import BANK
from sqlalchemy import inspect, select

from torchdojo.practice.interviews import InterviewError
from torchdojo.practice.scorecards import MARKS
from torchdojo.settings import Settings
from torchdojo.store.models import ScorecardRow
from torchdojo.store.team_models import PeerMockRow
from torchdojo.web.app import create_app
from torchdojo.web.routes.peer import peer_mocks_of

app, server_url = _acc.app, _acc.server_url  # fixtures


def users(app):
    acc = app.state.accounts
    a = acc.create_user("ann@example.org", PASSWORD, "learner", name="Ann", cohort="fall")
    b = acc.create_user("bo@example.org", PASSWORD, "learner", name="Bo", cohort="fall")
    c = acc.create_user("cy@example.org", PASSWORD, "learner", name="Cy", cohort="fall")
    d = acc.create_user("di@example.org", PASSWORD, "learner", name="Di", cohort="spring")
    return a, b, c, d


def run_interview(app, client, csrf, user, interview_id, rec, tag):
    """The interviewer marks every line in the browser (alternating keys, a note on each line),
    sets notes per question and the overall recommendation, then finishes. Returns what was
    marked: {(entry id, position): (mark, note)}."""
    d = app.state.learners.get(user).dojo
    iv = d.interviews.get(interview_id)
    assert not iv.final and iv.questions
    marked = {}
    for q in iv.questions:
        for ln in q.card.lines:
            key = "2" if (ln.position + q.position) % 2 else "1"
            note = f"{tag} note {q.position}.{ln.position}"
            r = client.post(f"/interview/{interview_id}/card/{q.card.id}/line/{ln.position}",
                            data={"mark": key, "note": note, "csrf_token": csrf}, follow_redirects=False)
            assert r.status_code == 303, r.text
            marked[(q.entry.id, ln.position)] = (MARKS[ln.kind][int(key) - 1], note)
        r = client.post(f"/interview/{interview_id}/card/{q.card.id}/notes",
                        data={"notes": f"{tag} on question {q.position}", "csrf_token": csrf}, follow_redirects=False)
        assert r.status_code == 303
    r = client.post(f"/interview/{interview_id}/overall",
                    data={"recommendation": rec, "notes": f"{tag} overall", "csrf_token": csrf},
                    follow_redirects=False)
    assert r.status_code == 303
    assert client.post(f"/interview/{interview_id}/finish", data={"csrf_token": csrf},
                       follow_redirects=False).status_code == 303
    return marked


def copies_of(app, user, reviewer):
    """(interview rows, scorecard rows) with ``reviewer`` in ``user``'s store."""
    d = app.state.learners.get(user).dojo
    with d.sessions() as s:
        cards = list(s.scalars(select(ScorecardRow).where(ScorecardRow.reviewer == reviewer)
                               .order_by(ScorecardRow.id)))
        ivs = sorted({c.interview_id for c in cards})
    return ivs, cards


def check_received(app, candidate, copy_id, marked, rec, tag):
    """``candidate``'s store holds the interview ``copy_id``: final, reviewer peer, with exactly
    the marks, notes and recommendation the interviewer set."""
    d = app.state.learners.get(candidate).dojo
    got = d.interviews.get(copy_id)
    assert got.final and got.recommendation == rec and got.notes == f"{tag} overall"
    assert sorted(q.entry.id for q in got.questions) == sorted({e for e, _ in marked})
    for q in got.questions:
        c = q.card
        assert (c.context, c.reviewer, c.status, c.recommendation) == ("interview", "peer", "final", rec)
        assert c.notes == f"{tag} on question {q.position}"
        for ln in c.lines:
            assert (ln.mark, ln.note) == marked[(c.entry_id, ln.position)]
            assert ln.marked_by == "peer"
        assert c.score is not None and c.band is not None
    return got


def test_pair_up_swap_and_both_learners_keep_both_scorecards(app):
    a, b, c, d = users(app)
    ca, csrf_a = sign_in(app, "ann@example.org")
    cb, csrf_b = sign_in(app, "bo@example.org")

    page = ca.get("/peer")
    assert page.status_code == 200 and 'href="/peer"' in page.text  # the nav link, signed in
    assert ">Bo<" in page.text and ">Cy<" in page.text and ">Di<" not in page.text  # own cohort only
    r = ca.post("/peer", data={"partner": str(b.id), "level": "junior", "count": "2", "csrf_token": csrf_a},
                follow_redirects=False)
    assert r.status_code == 303, r.text
    peer_id = int(re.match(r"/peer/(\d+)\?msg=started", r.headers["location"]).group(1))

    pm = peer_mocks_of(app).get(peer_id, a)
    assert pm.stage == "a-asks" and len(pm.a_asks) == len(pm.b_asks) == 2
    assert not set(pm.a_asks) & set(pm.b_asks)  # two disjoint kits
    page_a = ca.get(f"/peer/{peer_id}").text
    assert "You ask now" in page_a and f'href="/interview/{pm.a_interview_id}"' in page_a
    assert 'id="swap"' not in page_a
    page_b = cb.get(f"/peer/{peer_id}").text
    assert "Ann asks now" in page_b and 'id="my-sheet"' not in page_b
    assert cb.get("/peer").status_code == 200 and f'href="/peer/{peer_id}"' in cb.get("/peer").text

    # A's interview is in A's store (B has no such interview: 404 for B)
    assert app.state.learners.get(a).dojo.interviews.get(pm.a_interview_id).candidate == "Bo"
    assert cb.get(f"/interview/{pm.a_interview_id}").status_code == 404
    # no swap before A's half is final
    assert cb.post(f"/peer/{peer_id}/swap", data={"csrf_token": csrf_b}).status_code == 409
    assert ca.post(f"/peer/{peer_id}/finish", data={"csrf_token": csrf_a}).status_code == 409

    marked_a = run_interview(app, ca, csrf_a, a, pm.a_interview_id, "yes", "ANN")
    # the finished half reaches B as soon as a page is shown, before the swap
    page_b = cb.get(f"/peer/{peer_id}").text
    pm = peer_mocks_of(app).get(peer_id, b)
    assert pm.a_copy_id is not None and f'href="/interview/{pm.a_copy_id}"' in page_b and 'id="swap"' in page_b
    r = cb.post(f"/peer/{peer_id}/swap", data={"csrf_token": csrf_b}, follow_redirects=False)
    assert r.status_code == 303
    assert ca.post(f"/peer/{peer_id}/swap", data={"csrf_token": csrf_a}).status_code == 409  # once
    pm = peer_mocks_of(app).get(peer_id, b)
    assert pm.stage == "b-asks" and pm.b_interview_id is not None
    assert "You ask now" in cb.get(f"/peer/{peer_id}").text
    assert "Bo asks now" in ca.get(f"/peer/{peer_id}").text
    assert app.state.learners.get(b).dojo.interviews.get(pm.b_interview_id).entry_ids == pm.b_asks

    marked_b = run_interview(app, cb, csrf_b, b, pm.b_interview_id, "strong-no", "BO")
    r = ca.post(f"/peer/{peer_id}/finish", data={"csrf_token": csrf_a}, follow_redirects=False)
    assert r.status_code == 303
    pm = peer_mocks_of(app).get(peer_id, a)
    assert pm.stage == "done" and pm.finished_at is not None and pm.b_copy_id is not None
    assert cb.post(f"/peer/{peer_id}/finish", data={"csrf_token": csrf_b}).status_code == 409

    # each store holds both: the scorecards its owner marked, and the ones they received
    for owner, own_id, copy_id, given, got, rec_given, rec_got, tag_given, tag_got, kit_given in (
            (a, pm.a_interview_id, pm.b_copy_id, marked_a, marked_b, "yes", "strong-no", "ANN", "BO", pm.a_asks),
            (b, pm.b_interview_id, pm.a_copy_id, marked_b, marked_a, "strong-no", "yes", "BO", "ANN", pm.b_asks)):
        ivs, cards = copies_of(app, owner, "interviewer")
        assert ivs == [own_id] and sorted(x.entry_id for x in cards) == sorted(kit_given)
        mine = app.state.learners.get(owner).dojo.interviews.get(own_id)
        assert mine.final and mine.recommendation == rec_given and mine.notes == f"{tag_given} overall"
        for q in mine.questions:
            for ln in q.card.lines:
                assert (ln.mark, ln.note) == given[(q.entry.id, ln.position)]
        ivs, cards = copies_of(app, owner, "peer")
        assert ivs == [copy_id] and len(cards) == len(kit_given)
        check_received(app, owner, copy_id, got, rec_got, tag_got)
    # the finished page links both scorecards, each in the viewer's own store
    done_a = ca.get(f"/peer/{peer_id}").text
    assert f'id="given-link">interview #{pm.a_interview_id}' in done_a
    assert f'id="received-link">interview #{pm.b_copy_id}' in done_a
    assert "strong-no" in ca.get(f"/interview/{pm.b_copy_id}").text
    done_b = cb.get(f"/peer/{peer_id}").text
    assert f'id="received-link">interview #{pm.a_copy_id}' in done_b
    # showing the pages again copies nothing twice
    peer_mocks_of(app).refresh(peer_id, a)
    assert len(copies_of(app, a, "peer")[1]) == len(pm.b_asks)
    assert len(copies_of(app, b, "peer")[1]) == len(pm.a_asks)


def test_only_the_two_participants_see_or_act_on_a_peer_mock(app):
    a, b, c, d = users(app)
    pm = peer_mocks_of(app).start(a, b.id, "junior", count=1)
    outsider, csrf_c = sign_in(app, "cy@example.org")
    for method, path in (("GET", f"/peer/{pm.id}"), ("POST", f"/peer/{pm.id}/swap"),
                         ("POST", f"/peer/{pm.id}/finish"), ("GET", "/peer/999999"),
                         ("POST", "/peer/999999/swap")):
        r = outsider.request(method, path, data={"csrf_token": csrf_c} if method == "POST" else None)
        assert r.status_code == 404, f"{method} {path}: {r.status_code}"
        assert "Ann" not in r.text and "Bo" not in r.text
    assert f"/peer/{pm.id}" not in outsider.get("/peer").text
    # a finished half is not made visible to the outsider either
    da = app.state.learners.get(a).dojo
    for q in da.interviews.get(pm.a_interview_id).questions:
        for ln in q.card.lines:
            da.interviews.mark(pm.a_interview_id, q.card.id, ln.position, "1")
    da.interviews.finalize(pm.a_interview_id)
    assert outsider.post(f"/peer/{pm.id}/swap", data={"csrf_token": csrf_c}).status_code == 404
    assert peer_mocks_of(app).get(pm.id, a).stage == "a-asks"
    assert copies_of(app, c, "peer") == ([], [])
    # the participants' actions go through; the CSRF token is required as everywhere
    cb, csrf_b = sign_in(app, "bo@example.org")
    assert cb.post(f"/peer/{pm.id}/swap").status_code == 403
    assert cb.post(f"/peer/{pm.id}/swap", data={"csrf_token": csrf_b}, follow_redirects=False).status_code == 303


def test_a_partner_comes_from_ones_own_cohort_and_bad_input_is_a_clear_4xx(app):
    a, b, c, d = users(app)
    ca, csrf = sign_in(app, "ann@example.org")
    bad = (({"partner": str(d.id)}, 400, "your cohort"),  # another cohort
           ({"partner": str(a.id)}, 400, "your cohort"),  # oneself
           ({"partner": "999999"}, 400, "your cohort"),  # nobody: the same answer
           ({"partner": "x"}, 400, "your cohort"),
           ({"partner": "9" * 20}, 400, "your cohort"),  # past int64: no overflow in the driver
           ({"partner": "-1"}, 400, "your cohort"),
           ({"partner": str(b.id), "level": "expert"}, 422, "unknown level"),
           ({"partner": str(b.id), "topics": ["no-such-topic"]}, 422, "unknown topic"),
           ({"partner": str(b.id), "count": "many"}, 422, "must be a number"),
           ({"partner": str(b.id), "count": "99"}, 422, "between 1 and"))
    for form, status, says in bad:
        r = ca.post("/peer", data={"level": "junior", **form, "csrf_token": csrf}, follow_redirects=False)
        assert r.status_code == status, (form, r.status_code, r.text[:300])
        assert says in r.text, (form, r.text[:500])
    with app.state.dojo.sessions() as s:
        assert s.scalars(select(PeerMockRow)).all() == []
    # and the cohort-less learner has no partner at all
    e = app.state.accounts.create_user("eve@example.org", PASSWORD, "learner", name="Eve")
    ce, csrf_e = sign_in(app, "eve@example.org")
    assert "You are in no cohort" in ce.get("/peer").text
    assert ce.post("/peer", data={"partner": str(a.id), "csrf_token": csrf_e}).status_code == 400
    assert peer_mocks_of(app).partners(e) == []


def test_kits_are_disjoint_and_copies_are_idempotent(app):
    a, b, _c, _d = users(app)
    da, db = app.state.learners.get(a).dojo, app.state.learners.get(b).dojo
    first = da.interviews.kit("mid", count=6, seed=3)
    second = da.interviews.kit("mid", count=6, seed=3, exclude=first)
    assert len(second) == 6 and not set(first) & set(second)
    with pytest.raises(InterviewError):  # everything left out: nothing to ask
        da.interviews.kit("junior", count=2, exclude=[e.id for e in da.bank])
    iid = da.interviews.start(first[:2], candidate="Bo", interviewer="Ann")
    with pytest.raises(InterviewError, match="not finished"):
        db.interviews.receive(da.interviews.get(iid), "k1")
    iv = da.interviews.finalize(iid)
    one, two = db.interviews.receive(iv, "k1"), db.interviews.receive(iv, "k1")
    assert one == two and len(db.interviews.list()) == 1
    assert db.interviews.receive(iv, "k2") != one  # another key, another copy


def test_peer_mocks_are_server_wide_rows_never_in_a_learner_store(app, tmp_path):
    a, b, _c, _d = users(app)
    with app.state.dojo.sessions() as s:
        assert "peer_mocks" in inspect(s.connection()).get_table_names()
    with app.state.learners.get(a).dojo.sessions() as s:
        names = inspect(s.connection()).get_table_names()
    assert "peer_mocks" not in names and "users" not in names and "interviews" in names
    # the single-user app has no peer pages
    local = create_app(Settings(bank_dir=BANK, database_url=f"sqlite:///{tmp_path / 'local.db'}",
                                judge_prestart=False, search_dense=False))
    assert not [r for r in local.routes if getattr(r, "path", "").startswith("/peer")]
    with app.state.learners.get(b).dojo.sessions() as s:
        assert "peer_mocks" not in inspect(s.connection()).get_table_names()


def test_two_swaps_at_once_swap_once(app):
    """A and B press Swap at the same moment: one swap, one copy, one second interview."""
    import threading

    a, b, _c, _d = users(app)
    pms = peer_mocks_of(app)
    pm = pms.start(a, b.id, "junior", count=2)
    da = app.state.learners.get(a).dojo
    for q in da.interviews.get(pm.a_interview_id).questions:
        da.interviews.mark(pm.a_interview_id, q.card.id, 0, "1")
    da.interviews.finalize(pm.a_interview_id)
    results, go = {}, threading.Barrier(4)

    def press(who, i):
        go.wait()
        try:
            results[(who.id, i)] = pms.swap(pm.id, who).stage
        except Exception as e:  # noqa: BLE001 - recorded and checked below
            results[(who.id, i)] = e

    threads = [threading.Thread(target=press, args=(u, i)) for u in (a, b) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    ok = [r for r in results.values() if r == "b-asks"]
    refused = [r for r in results.values() if not isinstance(r, str)]
    assert len(results) == 4 and len(ok) == 1, results
    assert all(getattr(e, "status", None) == 409 for e in refused), refused
    assert len(copies_of(app, b, "peer")[0]) == 1  # A's half copied once
    assert len(copies_of(app, b, "interviewer")[0]) == 1  # B's interview started once
