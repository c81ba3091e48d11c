"""The offline answer grader with the real all-MiniLM-L6-v2 model and the real bank.

Answers here are written for these tests (the labelled benchmark set lives in bench/grader_eval
and is not used by tests, so it stays an honest measurement).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from torchdojo.bank.loader import load_bank
from torchdojo.grading.opposites import reversed_terms
from torchdojo.grading.text import clauses, negation_count, sentences, units, words

BANK = load_bank(Path(__file__).resolve().parents[1] / "bank")


@pytest.fixture(scope="module")
def grader():
    from torchdojo.grading.rubric import EmbeddingGrader

    g = EmbeddingGrader()
    g.warm_up()
    return g


def _spans_ok(fb, answer: str) -> None:
    for k in fb.key_points:
        if k.evidence is not None:
            assert answer[k.evidence.start:k.evidence.end] == k.evidence.text
    for m in fb.misconceptions:
        assert m.evidence is not None and answer[m.evidence.start:m.evidence.end] == m.evidence.text


# -- text pieces (no model) -------------------------------------------------------------------
def test_units_keep_exact_spans_and_split_clauses():
    a = "Gradients are accumulated, not overwritten - so zero them. x.T is a view (no copy); reshape may copy."
    us = units(a)
    assert all(a[u.start:u.end] == u.text for u in us)
    assert "not overwritten" in [u.text for u in us]
    assert len(sentences(a)) == 3  # the ';' ends a sentence too
    assert [c.text for c in clauses("step() does not compute gradients; it reads p.grad.")] == [
        "step() does not compute gradients", "it reads p.grad."]


def test_negation_cues():
    assert negation_count("backward does not overwrite .grad") == 1
    assert negation_count("it doesn't copy and never will") == 2
    assert negation_count("skip parameters whose p.grad is None") == 0  # Python's None
    assert negation_count("none of them are leaves") == 1
    assert negation_count("it raises 'element 0 of tensors does not require grad'") == 0  # a quoted message
    assert negation_count("it doesn't, and 'x' isn't") == 2


def test_opposite_words():
    assert reversed_terms(words("gradients are accumulated in .grad"), words("backward overwrites .grad")) == (
        "accumulated", "overwrites")
    # both words said: a contrast, not a reversal
    assert reversed_terms(words("gradients are accumulated"), words("they are accumulated, not overwritten")) is None


# -- grading ------------------------------------------------------------------------------------
def test_strong_answer_scores_high_with_evidence(grader):
    e = BANK.get("what-is-autograd")
    a = ("Autograd is reverse-mode automatic differentiation. While the forward pass runs it records every "
         "operation on tensors that require grad as grad_fn nodes in a graph. Calling backward() walks that "
         "graph from the loss back to the inputs with the chain rule, so one pass gives the gradient for "
         "every input. requires_grad is set per tensor and spreads: an op's output requires grad if any "
         "input does. Gradients land in .grad of leaf tensors such as parameters and are added to what is "
         "already there, which is why we zero them every step.")
    fb = grader.grade(e, a)
    assert fb.band >= 2 and fb.score >= 60, fb.summary
    assert len(fb.hit) >= 4
    assert not fb.misconceptions and "keyword-stuffing" not in fb.flags
    _spans_ok(fb, a)
    assert all(k.evidence is not None for k in fb.hit)


def test_key_point_texts_of_entries_score_excellent(grader):
    """The rubric's own key points, said back, are an excellent answer for most entries."""
    sample = [e for e in sorted(BANK, key=lambda e: e.id) if e.meta.type == "concept"][::15][:12]
    scores = [grader.grade(e, " ".join(k.text for k in e.meta.key_points)).score for e in sample]
    assert sum(s >= 75 for s in scores) >= 0.75 * len(scores), scores


def test_empty_answer(grader):
    fb = grader.grade(BANK.get("what-is-autograd"), "   ")
    assert fb.score == 0 and fb.flags == ["empty"] and not fb.uncertain
    assert fb.follow_up  # still aimed at the most important point


def test_keyword_stuffing_is_capped(grader):
    e = BANK.get("what-is-autograd")
    a = "autograd, requires_grad, grad_fn, leaf, chain rule, reverse-mode, backward, graph, .grad, accumulate"
    fb = grader.grade(e, a)
    assert "keyword-stuffing" in fb.flags and fb.score <= 10


def test_off_topic_scores_zero(grader):
    e = BANK.get("what-is-autograd")
    a = ("For image classification I like to start from a pretrained ResNet, resize the photos to 224 pixels, "
         "and use random crops and flips as augmentation. Then I fine-tune with a small learning rate.")
    fb = grader.grade(e, a)
    assert "off-topic" in fb.flags and fb.score == 0


def test_stated_misconception_is_detected_and_capped(grader):
    e = BANK.get("what-is-autograd")
    a = ("Autograd records the operations into a graph as the forward runs and backward applies the chain rule. "
         "backward() replaces the old gradient in .grad with the new one.")
    fb = grader.grade(e, a)
    assert any("replaces" in m.claim for m in fb.misconceptions)
    assert fb.score <= 45
    _spans_ok(fb, a)


def test_negated_point_is_contradicted(grader):
    e = BANK.get("what-is-autograd")
    a = "Autograd does not record the operations on tensors while the forward code runs."
    fb = grader.grade(e, a)
    kp = next(k for k in fb.key_points if k.id == "records-ops")
    assert kp.status == "contradicted", (kp.similarity, kp.why)
    assert fb.follow_up_targets == "records-ops" and fb.follow_up  # the follow-up aims at the contradiction
    _spans_ok(fb, a)


def test_follow_up_comes_from_the_entry_when_one_probes_the_gap(grader):
    e = BANK.get("what-is-autograd")
    a = ("Autograd records each operation into a graph while the forward runs; requires_grad is per tensor "
         "and spreads to outputs; gradients accumulate in .grad of leaves.")
    fb = grader.grade(e, a)
    target = next(k for k in e.meta.key_points if k.id == fb.follow_up_targets)
    probing = [f.text for f in e.meta.follow_ups if target.id in f.probes and f.text]
    if probing:
        assert fb.follow_up in probing
    else:
        assert target.text.rstrip(".") in fb.follow_up


def test_behavioral_answer_gets_star_checks(grader):
    e = BANK.get("behavioral-complexity-vs-latency-tradeoff")
    a = ("At my last job our recommendation model was too slow: a bigger transformer gained accuracy but "
         "took 90 ms per request against a 40 ms latency budget. My task was to decide what to ship. "
         "I benchmarked the large model, a distilled smaller model and a quantized version on our serving "
         "hardware, and I measured accuracy and p99 latency side by side. I chose the distilled model and "
         "explained the trade-off to product. As a result we kept 80% of the accuracy gain at 30 ms p99, "
         "and an A/B test confirmed it.")
    fb = grader.grade(e, a)
    names = {c.name: c.ok for c in fb.checks}
    assert names["STAR: situation"] and names["STAR: action"] and names["result quantified"]
    assert names["ownership stated"]
    assert "off-topic" not in fb.flags
    weak = grader.grade(e, "We just worked hard as a team on the model and things got faster eventually.")
    assert {c.name: c.ok for c in weak.checks}["result quantified"] is False
    assert weak.score < fb.score


def test_system_design_answer_gets_rubric_checks(grader):
    e = next(x for x in BANK if x.meta.type == "system-design")
    fb = grader.grade(e, e.meta.short_answer)
    assert any(c.name.startswith("components:") for c in fb.checks)
    assert any(c.name.startswith("failure modes:") for c in fb.checks)


def test_feedback_is_json_round_trippable(grader):
    from torchdojo.grading.feedback import Feedback

    e = BANK.get("what-is-autograd")
    fb = grader.grade(e, "Autograd builds a graph during the forward pass and backward uses the chain rule.")
    assert Feedback.model_validate_json(fb.model_dump_json()) == fb
    assert 0 <= fb.score <= 100 and 0.0 <= fb.confidence <= 1.0


def test_a_stray_negation_in_a_right_answer_contradicts_nothing(grader):
    """'never', 'rather than', 'whereas' and quoted error text belong to correct answers too."""
    e = BANK.get("what-is-autograd")
    a = ("Autograd records every operation on tensors that require grad while the forward runs, rather than "
         "parsing the source. backward() walks that graph in reverse with the chain rule; you never get "
         "'element 0 of tensors does not require grad' unless nothing in the graph requires grad. Gradients "
         "are added into .grad of leaves, whereas intermediates keep none, so we zero them every step.")
    fb = grader.grade(e, a)
    assert not [k.id for k in fb.key_points if k.status == "contradicted"], fb.summary
    assert fb.band >= 2


def test_key_point_results_say_when_they_are_uncertain(grader):
    e = BANK.get("what-is-autograd")
    fb = grader.grade(e, "Autograd records operations into a graph and backward uses the chain rule.")
    assert all(isinstance(k.uncertain, bool) for k in fb.key_points)
    assert all("hit from" in k.why for k in fb.key_points if k.status != "contradicted")
