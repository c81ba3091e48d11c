"""Rubric scorecards in the core: proposals, marks, the formula, caps, flashcards, agreement."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from torchdojo.grading.feedback import Feedback, KeyPointResult, MisconceptionResult, Span, failed
from torchdojo.practice.scorecards import ScorecardError, score_of

NOW = datetime(2026, 4, 1, 10, 0, tzinfo=UTC)
ENTRY = "what-is-autograd"


def _fb(dojo, statuses: dict[str, str], uncertain=False, misconception=False) -> Feedback:
    e = dojo.bank.get(ENTRY)
    kps = [KeyPointResult(id=k.id, text=k.text, weight=k.weight, status=statuses.get(k.id, "missed"),
                          evidence=Span(start=0, end=4, text="Auto") if statuses.get(k.id) == "hit" else None)
           for k in e.meta.key_points]
    mcs = [MisconceptionResult(claim=e.meta.misconceptions[0].claim, correction="c",
                               evidence=Span(start=0, end=4, text="Auto"))] if misconception else []
    return Feedback(entry_id=ENTRY, grader="test", score=50, band=2, confidence=0.9, uncertain=uncertain,
                    key_points=kps, misconceptions=mcs)


def test_proposals_marks_and_the_formula(dojo):
    e = dojo.bank.get(ENTRY)
    kps = e.meta.key_points
    fb = _fb(dojo, {k.id: "hit" for k in kps[:2]})
    sid = dojo.scorecards.create(ENTRY, "Autograd records ops", fb, now=NOW)
    sc = dojo.scorecards.get(sid)
    kp_lines = [ln for ln in sc.lines if ln.kind == "key-point"]
    assert [ln.proposal for ln in kp_lines[:2]] == ["covered", "covered"]
    assert all(ln.proposal == "missed" for ln in kp_lines[2:]) and all(ln.mark is None for ln in sc.lines)
    assert kp_lines[0].evidence == (0, 4, "Auto")
    assert [ln.proposal for ln in sc.lines if ln.kind == "misconception"] == ["not-stated"] * len(e.meta.misconceptions)
    est = sc.estimate
    total = sum(k.weight for k in kps)
    assert est == score_of(sc.lines, {ln.position: ln.proposal for ln in sc.lines})
    assert est[0] == round(100 * (kps[0].weight + kps[1].weight) / total)
    # The person changes two proposals (keys work too) and accepts the rest.
    dojo.scorecards.set_mark(sid, kp_lines[2].position, "1")  # covered
    dojo.scorecards.set_mark(sid, kp_lines[0].position, "partly")
    assert dojo.scorecards.accept_all(sid) == []
    final = dojo.scorecards.finalize(sid, now=NOW)
    want = round(100 * (0.5 * kps[0].weight + kps[1].weight + kps[2].weight) / total)
    assert final.final and final.score == want and final.confirmed
    # Key points confirmed missed become cards; the one the person overruled to covered does not.
    cards = set(dojo.flashcards.queue(now=NOW, limit=1000))
    assert f"{ENTRY}#{kps[2].id}" not in cards and all(f"{ENTRY}#{k.id}" in cards for k in kps[3:])
    assert f"{ENTRY}#{kps[0].id}" not in cards  # partly is not a miss
    with pytest.raises(ScorecardError, match="final"):
        dojo.scorecards.set_mark(sid, 0, "missed")


def test_caps_wrong_essential_point_and_stated_misconception(dojo):
    e = dojo.bank.get(ENTRY)
    sid = dojo.scorecards.create(ENTRY, "x", _fb(dojo, {k.id: "hit" for k in e.meta.key_points}), now=NOW)
    sc = dojo.scorecards.get(sid)
    marks = {ln.position: ln.proposal for ln in sc.lines}
    assert score_of(sc.lines, marks) == (100, 3)
    essential = next(ln for ln in sc.lines if ln.kind == "key-point" and ln.weight == 3)
    light = next(ln for ln in sc.lines if ln.kind == "key-point" and ln.weight < 3)
    assert score_of(sc.lines, {**marks, essential.position: "wrong"})[1] == 1
    assert score_of(sc.lines, {**marks, light.position: "wrong"}) [1] == 2
    mc = next(ln for ln in sc.lines if ln.kind == "misconception")
    s, b = score_of(sc.lines, {**marks, mc.position: "stated"})
    assert b == 1 and s <= 49


def test_uncertain_or_failed_grading_never_becomes_a_score(dojo):
    e = dojo.bank.get(ENTRY)
    unsure = dojo.scorecards.create(ENTRY, "x", _fb(dojo, {e.meta.key_points[0].id: "hit"}, uncertain=True), now=NOW)
    sc = dojo.scorecards.get(unsure)
    assert sc.estimate is None and all(ln.proposal_uncertain for ln in sc.lines)
    skipped = dojo.scorecards.finalize(unsure, skipped=True)
    assert skipped.score is None and skipped.band is None and all(ln.mark is None for ln in skipped.lines)
    broken = dojo.scorecards.create(ENTRY, "x", failed(e, "llm", "endpoint down"), now=NOW)
    sc = dojo.scorecards.get(broken)
    assert sc.grader_error == "endpoint down" and all(ln.proposal is None for ln in sc.lines)
    with pytest.raises(ScorecardError, match="mark every line"):
        dojo.scorecards.finalize(broken)
    assert dojo.scorecards.accept_all(broken) == [ln.position for ln in sc.lines]  # nothing to accept


def test_agreement_and_export_count_only_what_people_confirmed(dojo):
    e = dojo.bank.get(ENTRY)
    kps = e.meta.key_points
    sid = dojo.scorecards.create(ENTRY, "answer one", _fb(dojo, {kps[0].id: "hit"}), now=NOW)
    dojo.scorecards.set_mark(sid, 1, "covered")  # the machine said missed: a disagreement
    dojo.scorecards.accept_all(sid)
    dojo.scorecards.finalize(sid)
    other = dojo.scorecards.create(ENTRY, "answer two", _fb(dojo, {}), now=NOW)
    dojo.scorecards.finalize(other, skipped=True)  # the machine's own marks: not labels
    ag = dojo.scorecards.agreement()
    kp = ag["per_kind"]["key-point"]
    assert kp["n"] == len(kps) and kp["agree"] == len(kps) - 1
    assert kp["confusion"][("covered", "missed")] == 1
    assert ag["bands"]["n"] == 1
    rows = [json.loads(x) for x in dojo.scorecards.export_jsonl()]
    assert [r["answer"] for r in rows] == ["answer one"]
    assert rows[0]["marks"][1] == {"kind": "key-point", "ref": kps[1].id, "mark": "covered", "by": "self",
                                   "proposal": "missed", "proposal_uncertain": False, "note": None}


def test_bad_marks_are_refused_with_a_message(dojo):
    sid = dojo.scorecards.create(ENTRY, "x", None, now=NOW)
    with pytest.raises(ScorecardError, match="takes one of"):
        dojo.scorecards.set_mark(sid, 0, "excellent")
    with pytest.raises(ScorecardError, match="no line"):
        dojo.scorecards.set_mark(sid, 999, "covered")
    with pytest.raises(ScorecardError, match="no scorecard"):
        dojo.scorecards.set_mark(10**9, 0, "covered")
    with pytest.raises(ScorecardError, match="reviewer|set by"):
        dojo.scorecards.set_mark(sid, 0, "covered", by="robot")
