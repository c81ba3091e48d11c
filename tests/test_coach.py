"""The coach's dashboard (team mode): a cohort's progress from each learner's own store, the
heat map, inactive learners, assignments with completion, comments on scorecards; and who may
see what (a coach: own cohort only; a learner: none of it). SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import accounts_app as _acc
import pytest
from accounts_app import PASSWORD, sign_in

from torchdojo.team.cohort import Cohort, CohortError

app, server_url = _acc.app, _acc.server_url  # fixtures


def people(app):
    acc = app.state.accounts
    return (acc.create_user("coach@example.org", PASSWORD, "coach", name="Coach", cohort="fall"),
            acc.create_user("ann@example.org", PASSWORD, "learner", name="Ann", cohort="fall"),
            acc.create_user("ben@example.org", PASSWORD, "learner", name="Ben", cohort="fall"),
            acc.create_user("zed@example.org", PASSWORD, "learner", name="Zed", cohort="spring"),
            acc.create_user("other@example.org", PASSWORD, "coach", name="Other", cohort="spring"))


def test_the_coach_sees_the_cohorts_practice(app):
    coach, ann, ben, zed, _other = people(app)
    da = app.state.learners.get(ann).dojo
    junior = [e for e in da.bank if e.meta.level == "junior"]
    topic = junior[0].meta.topics[0]
    cell = [e for e in junior if topic in e.meta.topics]
    for e in cell:  # Ann studies every junior entry of one topic
        da.flashcards.review(e.id, "good")
    sc = da.scorecards.create(cell[0].id, "Ann's answer about it", None)
    view = Cohort(app.state.accounts, lambda u: app.state.learners.get(u).dojo)

    progress = {p.user.email: p for p in view.progress(coach, "fall")}
    assert set(progress) == {"ann@example.org", "ben@example.org"}  # Zed is in another cohort
    assert progress["ann@example.org"].reviews_7d == len(cell) and not progress["ann@example.org"].inactive
    assert progress["ben@example.org"].inactive and progress["ben@example.org"].last_practice is None
    heat = {(c.topic, c.level): c for c in view.heat_map(coach, "fall")}
    # Ann studied all of the cell, Ben none: the cohort's mean share is one half
    assert heat[(topic, "junior")].studied == pytest.approx(0.5)
    assert 0.9 <= heat[(topic, "junior")].retrievability <= 1.0  # reviewed just now
    assert all(c.studied == 0 for k, c in heat.items() if k[1] != "junior" and not any(
        k[0] in e.meta.topics and e.meta.level == k[1] for e in cell))

    c, csrf = sign_in(app, "coach@example.org")
    page = c.get("/coach")
    assert page.status_code == 200 and "Ann" in page.text and "Ben" in page.text and "Zed" not in page.text
    assert re.search(r'id="inactive">.*Ben', page.text, re.S)
    lp = c.get(f"/coach/learners/{ann.id}")
    assert lp.status_code == 200 and cell[0].meta.title.split("`")[0][:20] in lp.text
    # comment on Ann's scorecard; Ann sees it on hers
    r = c.post(f"/coach/learners/{ann.id}/scorecards/{sc}/comments", data={"text": "Name the tensor's dtype too.",
                                                                          "csrf_token": csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert "Name the tensor" in c.get(f"/coach/learners/{ann.id}/scorecards/{sc}").text
    a, _ = sign_in(app, "ann@example.org")
    assert "Name the tensor" in a.get(f"/scorecards/{sc}").text
    assert c.post(f"/coach/learners/{ann.id}/scorecards/9999/comments",
                  data={"text": "x", "csrf_token": csrf}).status_code == 404


def test_assignments_and_their_completion(app):
    coach, ann, ben, _zed, _other = people(app)
    c, csrf = sign_in(app, "coach@example.org")
    entries = [e.id for e in app.state.dojo.bank][:2]
    due = (datetime.now(UTC) + timedelta(days=3)).date().isoformat()
    r = c.post("/coach/assignments", data={"cohort": "fall", "kind": "questions", "title": "Autograd basics",
                                           "items": "\n".join(entries), "due": due, "csrf_token": csrf},
               follow_redirects=False)
    assert r.status_code == 303
    bad = c.post("/coach/assignments", data={"cohort": "fall", "kind": "questions", "title": "x",
                                             "items": "no-such-entry", "due": due, "csrf_token": csrf})
    assert bad.status_code == 400 and "unknown id" in bad.text
    past = c.post("/coach/assignments", data={"cohort": "fall", "kind": "mock", "title": "x", "level": "mid",
                                              "due": "2020-01-01", "csrf_token": csrf})
    assert past.status_code == 400
    assert c.post("/coach/assignments", data={"cohort": "spring", "kind": "mock", "title": "x", "level": "mid",
                                              "due": due, "csrf_token": csrf}).status_code == 403
    da = app.state.learners.get(ann).dojo
    for e in entries:
        da.flashcards.review(e, "good")
    page = c.get("/coach").text
    assert "Autograd basics" in page and re.search(r"Autograd basics</td>\s*<td>1 / 2</td>", page)
    a, _ = sign_in(app, "ann@example.org")
    mine = a.get("/assignments").text
    assert "Autograd basics" in mine and "✓ done" in mine
    b, _ = sign_in(app, "ben@example.org")
    assert "not yet" in b.get("/assignments").text


def test_who_may_see_a_cohort(app):
    coach, ann, _ben, zed, other = people(app)
    view = Cohort(app.state.accounts, lambda u: app.state.learners.get(u).dojo)
    with pytest.raises(CohortError) as e:
        view.progress(other, "fall")
    assert e.value.status == 403
    with pytest.raises(CohortError) as e:
        view.learner(coach, zed.id)  # another cohort's learner: as if absent
    assert e.value.status == 404
    with pytest.raises(CohortError) as e:
        view.progress(ann, "fall")
    assert e.value.status == 403
    learner, _ = sign_in(app, "ann@example.org")
    for path in ("/coach", f"/coach/learners/{ann.id}", f"/coach/learners/{ann.id}/scorecards/1"):
        assert learner.get(path).status_code == 403, path
    c, _ = sign_in(app, "coach@example.org")
    assert c.get(f"/coach/learners/{zed.id}").status_code == 404
    assert c.get("/coach?cohort=spring").status_code == 403
    admin = app.state.accounts.create_user("root@example.org", PASSWORD, "admin")
    assert set(view.cohorts(admin)) == {"fall", "spring"}
    r, _ = sign_in(app, "root@example.org")
    assert "Zed" in r.get("/coach?cohort=spring").text
