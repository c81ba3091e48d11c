"""Hints, editorials, custom input and stdout in the core (no web): content, gating, validation."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from torchdojo.judge.challenge import load_challenge, split_hints
from torchdojo.judge.custom import MAX_LEAVES, MAX_TEXT, CustomInputError, input_spec, parse_custom_input
from torchdojo.judge.service import EditorialLocked, JudgeService
from torchdojo.store.models import SubmissionRow

ROOT = Path(__file__).resolve().parents[1]
CHALLENGES = ROOT / "bank" / "challenges"
EDITORIALS = sorted(CHALLENGES.glob("*/editorial.md"))
SOFTMAX = CHALLENGES / "stable-softmax"


# -- content ------------------------------------------------------------------------------
def test_at_least_ten_challenges_have_hints_and_an_editorial():
    with_both = [p.parent.name for p in EDITORIALS if (p.parent / "hints.md").is_file()]
    assert len(with_both) >= 10, with_both
    for name in with_both:
        ch = load_challenge(CHALLENGES / name)
        assert 2 <= len(ch.hints) <= 4, (name, len(ch.hints))
        assert ch.editorial and "```python" in ch.editorial, name


@pytest.mark.parametrize("path", EDITORIALS, ids=lambda p: p.parent.name)
def test_every_python_block_of_an_editorial_runs(path):
    """Editorials end with self-checking asserts: what they claim was run on the installed torch."""
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    assert blocks, f"{path}: no python block to check its claims"
    for i, block in enumerate(blocks):
        exec(compile(block, f"{path}#block{i}", "exec"), {"__name__": "editorial"})


def test_hints_are_split_on_markdown_rules():
    assert split_hints("one\n\n---\ntwo *b*\n- - -\nthree\n***\n") == ["one", "two *b*", "three"]
    assert split_hints("no rule, one hint\n") == ["no rule, one hint"]
    assert split_hints("a --- b\n") == ["a --- b"]  # a rule is a line of its own


# -- gating ---------------------------------------------------------------------------------
def _accept(dojo, challenge_id: str, mode: str = "submit", verdict: str = "Accepted") -> None:
    with dojo.sessions.begin() as s:
        s.add(SubmissionRow(challenge_id=challenge_id, mode=mode, code="x", verdict=verdict, report="{}",
                            backend="test", created_at=datetime.now(UTC)))


def test_hints_are_revealed_one_at_a_time_and_remembered(dojo):
    judge = dojo.judge
    total = len(judge.challenge("stable-softmax").hints)
    assert judge.hints("stable-softmax") == [] and judge.progress("stable-softmax").hints_shown == 0
    assert judge.reveal_hint("stable-softmax", seen=0) == 1
    assert judge.reveal_hint("stable-softmax", seen=0) == 1  # a double click from the same page: still one
    assert judge.hints("stable-softmax") == judge.challenge("stable-softmax").hints[:1]
    for _ in range(total + 2):
        judge.reveal_hint("stable-softmax")
    assert judge.progress("stable-softmax").hints_shown == total  # never more than there are
    assert judge.progress("layer-norm").hints_shown == 0  # per challenge


def test_editorial_opens_only_after_accepted_or_giving_up(dojo):
    judge = dojo.judge
    with pytest.raises(EditorialLocked):
        judge.editorial("stable-softmax")
    _accept(dojo, "stable-softmax", mode="run")  # public tests passing is not solving
    _accept(dojo, "stable-softmax", verdict="Wrong Answer")
    _accept(dojo, "layer-norm")  # another challenge's Accepted opens only that one
    with pytest.raises(EditorialLocked):
        judge.editorial("stable-softmax")
    assert judge.progress("stable-softmax").editorial_unlocked is False
    _accept(dojo, "stable-softmax")
    assert judge.editorial("stable-softmax").startswith("## Idea")
    assert judge.statuses() == {"stable-softmax": "solved", "layer-norm": "solved"}

    with pytest.raises(EditorialLocked):
        judge.editorial("rms-norm")
    judge.give_up("rms-norm")
    p = judge.progress("rms-norm")
    assert p.gave_up and not p.solved and p.editorial_unlocked and p.hints_shown == p.hints_total
    assert "rsqrt" in judge.editorial("rms-norm")
    assert "rms-norm" not in judge.statuses()  # giving up is not an attempt, let alone solved


def test_statuses_tell_solved_from_attempted(dojo):
    _accept(dojo, "kth-largest", mode="run", verdict="Wrong Answer")
    _accept(dojo, "pair-sum-count", verdict="Runtime Error")
    _accept(dojo, "pair-sum-count", mode="submit")
    assert dojo.judge.statuses() == {"kth-largest": "attempted", "pair-sum-count": "solved"}


# -- custom input: validation (no judging) ----------------------------------------------------
@pytest.fixture(scope="module")
def softmax_tests():
    return load_challenge(SOFTMAX).tests


@pytest.mark.parametrize(("text", "field", "words"), [
    ('{"dim": -1, "n": 17}', "n", "from 0 to 16"),
    ('{"dim": -1, "rm_rf": 1}', "rm_rf", "not a parameter"),
    ('{"values": [[1, 2]]}', "dim", "required"),
    ('{"dim": "0"}', "dim", "must be int"),
    ('{"dim": true}', "dim", "not a boolean"),
    ('{"dim": -1, "scale": 1e300}', "scale", "finite number"),
    ('{"dim": -1, "dtype": "complex128"}', "dtype", '"float32" | "float64"'),
    ('{"dim": -1, "values": "1, 2"}', "values", "list"),
    ('{"dim": -1, "values": [[{"a": 1}]]}', "values", "numbers"),
    ('{"dim": -1, "seed": -1}', "seed", "integer from 0"),
    ('[1, 2]', "input", "JSON object"),
    ('{"dim": -1,}', "input", "not valid JSON"),
])
def test_bad_custom_input_names_the_field(softmax_tests, text, field, words):
    with pytest.raises(CustomInputError) as e:
        parse_custom_input(softmax_tests, text)
    assert e.value.field == field and words in str(e.value), str(e.value)


def test_custom_input_size_caps(softmax_tests):
    with pytest.raises(CustomInputError) as e:
        parse_custom_input(softmax_tests, json.dumps({"dim": -1, "values": [[0] * (MAX_LEAVES + 1)]}))
    assert e.value.field == "values" and "more than" in e.value.message
    with pytest.raises(CustomInputError) as e:
        parse_custom_input(softmax_tests, " " * (MAX_TEXT + 1))
    assert e.value.field == "input"
    nested = {"dim": -1, "values": [[[[[[[1.0]]]]]]]}
    with pytest.raises(CustomInputError, match="deeper"):
        parse_custom_input(softmax_tests, json.dumps(nested))
    with pytest.raises(CustomInputError, match="nested too deeply"):  # json's own recursion limit: no 500
        parse_custom_input(softmax_tests, "[" * 9000 + "]" * 9000)


def test_lists_of_ints_may_be_sizes_so_they_stay_within_what_the_tests_use():
    layer_norm = load_challenge(CHALLENGES / "layer-norm").tests
    for text, words in [('{"affine": false, "shape": [100000]}', "from 0 to 17"),  # one dim larger than any test
                        ('{"affine": false, "shape": [4, 4, 4]}', "more than 2 values"),
                        ('{"affine": false, "shape": [4.5]}', "integers"),
                        ('{"affine": false, "shape": [[4]]}', "deeper than 1")]:
        with pytest.raises(CustomInputError) as e:
            parse_custom_input(layer_norm, text)
        assert e.value.field == "shape" and words in e.value.message, e.value.message
    assert parse_custom_input(layer_norm, '{"affine": true, "shape": [3, 7], "rows": 2}')[0]["shape"] == [3, 7]
    adam = load_challenge(CHALLENGES / "adam-adamw").tests  # dict parameters: each key checked like a parameter
    with pytest.raises(CustomInputError) as e:
        parse_custom_input(adam, '{"optimizer": "Adam", "steps": 2, "n": 3, "d": 2, "k": 1, "hp": {"lr": 1e9}}')
    assert e.value.field == "hp.lr"
    with pytest.raises(CustomInputError) as e:
        parse_custom_input(adam, '{"optimizer": "Adam", "steps": 2, "n": 3, "d": 2, "k": 1, "hp": {"momentum": 1}}')
    assert e.value.field == "hp.momentum"
    params, _ = parse_custom_input(adam, '{"optimizer": "Adam", "steps": 2, "n": 3, "d": 2, "k": 1, '
                                         '"hp": {"lr": 0.01, "betas": [0.8, 0.99]}}')
    assert params["hp"] == {"lr": 0.01, "betas": [0.8, 0.99]}


def test_good_custom_input_is_parsed(softmax_tests):
    params, seed = parse_custom_input(softmax_tests, '{"n": 3, "d": 4, "dim": 0, "scale": 2, "seed": 7}')
    assert params == {"n": 3, "d": 4, "dim": 0, "scale": 2.0} and seed == 7
    params, _ = parse_custom_input(softmax_tests, '{"values": [[0, -Infinity]], "dim": -1, "dtype": "float64"}')
    assert params["values"] == [[0, float("-inf")]]
    spec = input_spec(softmax_tests)
    assert spec["dim"].required and not spec["n"].required and spec["n"].hi == 16


# -- custom input and stdout through a real (unsafe local) run ------------------------------------
@pytest.fixture(scope="module")
def service():
    svc = JudgeService(CHALLENGES, None, unsafe_local=True)
    yield svc
    svc.close()


PRINTING = (SOFTMAX / "reference.py").read_text() + (
    "\n_softmax = softmax\n\ndef softmax(x, dim=-1):\n    print('rows', x.shape[0])\n    return _softmax(x, dim)\n")


def test_custom_input_runs_both_and_shows_the_difference(service):
    wrong = (SOFTMAX / "wrong" / "no_max_subtraction.py").read_text()
    rep = service.run_custom("stable-softmax", wrong, '{"values": [[1000, 1001]], "dim": -1}')
    assert rep.mode == "custom" and rep.verdict.value == "Wrong Answer"
    (t,) = rep.tests
    assert t.public and t.expected["softmax"]["values"][0] == pytest.approx([0.268941, 0.731059], abs=1e-6)
    assert t.mismatch["output"] == "softmax" and t.mismatch["index"] == (0, 0)

    rep = service.run_custom("stable-softmax", PRINTING, '{"n": 5, "d": 3, "dim": 0, "seed": 1}')
    assert rep.verdict.value == "Accepted" and rep.tests[0].stdout == "rows 5\n"
    assert rep.tests[0].inputs["x"]["shape"] == [5, 3]


def test_custom_input_the_generator_or_cap_refuses_is_a_named_error(service):
    with pytest.raises(CustomInputError) as e:  # ragged rows: torch.tensor cannot build it
        service.run_custom("stable-softmax", PRINTING, '{"values": [[1, 2], [3]], "dim": -1}')
    assert e.value.field == "input" and "do not make an input" in e.value.message
    g = service.grader("stable-softmax")
    g._numel_cap = 10
    try:
        with pytest.raises(CustomInputError, match="the limit is 10"):
            service.run_custom("stable-softmax", PRINTING, '{"n": 4, "d": 4, "dim": -1}')
    finally:
        g._numel_cap = None


def test_stdout_is_shown_for_public_tests_only(service):
    rep = service.grade("stable-softmax", PRINTING, "submit")
    assert rep.verdict.value == "Accepted"
    public = [t for t in rep.tests if t.public]
    hidden = [t for t in rep.tests if not t.public]
    assert public and all(t.stdout.startswith("rows ") for t in public)
    assert hidden and all(t.stdout == "" for t in hidden)
    assert all("stdout" not in json.dumps(t.inputs or {}) for t in hidden)


def test_every_cases_own_parameters_are_a_valid_custom_input():
    """The form's example (the first public case) and every other case pass the validation built from them."""
    from torchdojo.judge.challenge import load_challenges

    challenges, problems = load_challenges(CHALLENGES)
    assert not problems
    for ch in challenges.values():
        for case in ch.tests.cases():
            params, seed = parse_custom_input(ch.tests, json.dumps({**case.params, "seed": case.seed}))
            assert seed == case.seed and set(params) == set(case.params), (ch.id, case.name)
