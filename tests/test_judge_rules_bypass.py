"""Issue 17, item 4: the rules hold. Each known way around a banned-call rule or the result's
integrity is a hostile submission here, run in the real sandbox (and one without it), and must
be a Rule Violation; ordinary code using the same library features must stay Accepted.

Layers (docs/judge.md, "Rules that hold"):
- static (``rules.check_source``): introspection names and modules in every challenge; in a
  challenge with banned calls also torch's escape hatches from its modes and names or code built
  at run time;
- the run-time guard (``runtime.install_guard``, an audit hook): frames, gc, ctypes,
  /proc/<pid>/mem, patching classes and functions the submission did not define;
- the nonce: every frame of a result is signed with a per-job value only the runtime knows.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from torchdojo.judge.challenge import load_challenge
from torchdojo.judge.grade import Grader
from torchdojo.judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "fixtures" / "challenges" / "probe"  # no banned calls: only the guard and the nonce apply
SOFTMAX = ROOT / "bank" / "challenges" / "stable-softmax"  # bans torch.softmax & co. and their ATen ops
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")


@pytest.fixture(scope="module")
def backend():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root; CI runs as root")
    from torchdojo.judge.sandbox.backend import SandboxBackend

    b = SandboxBackend(slots=2)
    yield b
    b.close()


def probe(backend, body: str, prelude: str = ""):
    code = textwrap.dedent(prelude) + "\ndef solve(x):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    return Grader(load_challenge(PROBE), backend).grade(code, "run")


def softmax_submission(backend, code: str):
    return Grader(load_challenge(SOFTMAX), backend).grade(textwrap.dedent(code), "submit")


def assert_rule_violation(rep, *words: str) -> None:
    text = rep.message + " " + " ".join(t.message for t in rep.tests)
    assert rep.verdict == Verdict.RULE_VIOLATION, (rep.verdict, text[:800])
    for w in words:
        assert w in text, (w, text[:800])


# -- the attack of the issue, and static refusals (challenges with banned calls) ------------------------

FORGE = '''
import os, sys, torch
from torchdojo.judge import wire


def softmax(x, dim=-1):
    frame = sys._getframe(1)
    while frame is not None and "out" not in frame.f_locals:
        frame = frame.f_back
    banned = getattr(torch, "soft" + "max")
    return banned(x, dim)


def log_softmax(x, dim=-1):
    return softmax(x, dim).log()
'''


def test_the_issues_stack_walking_forgery_is_refused(backend):
    assert_rule_violation(softmax_submission(backend, FORGE), "_getframe", "torchdojo")


@pytest.mark.parametrize("code, word", [
    ('import torch\ndef softmax(x, dim=-1):\n    return getattr(torch, "soft" + "max")(x, dim)\n', "getattr"),
    ("import torch\ndef softmax(x, dim=-1):\n    m = torch.overrides._get_current_function_mode_stack()\n"
     "    return torch.softmax(x, dim)\n", "_get_current_function_mode_stack"),
    ("import torch\ndef softmax(x, dim=-1):\n    with torch._C.DisableTorchFunction():\n"
     "        return x.exp() / x.exp().sum(dim, keepdim=True)\n", "DisableTorchFunction"),
    ("import torch\ndef softmax(x, dim=-1):\n    f = softmax.__closure__\n    return x\n", "__closure__"),
    ('import torch\ndef softmax(x, dim=-1):\n    return eval("torch.soft" + "max")(x, dim)\n', "eval"),
    ('import torch\ndef softmax(x, dim=-1):\n    exec(compile("import sys", "/usr/lib/python3/inspect.py", "exec"))\n'
     '    return x\n', "compile"),
    ("import torch\nimport gc\ndef softmax(x, dim=-1):\n    return x\n", "gc"),
    ('import torch\ndef softmax(x, dim=-1):\n    return vars(torch)["soft" + "max"](x, dim)\n', "vars"),
])
def test_static_refusals_in_a_challenge_with_banned_calls(code, word):
    from torchdojo.judge.rules import check_source

    ch = load_challenge(SOFTMAX)
    findings = check_source(code + "\nlog_softmax = softmax\n", ch.meta.rules, traced=True)
    assert any(word in f.message for f in findings), findings


def test_ordinary_code_is_not_refused_statically():
    from torchdojo.judge.rules import check_source

    ch = load_challenge(SOFTMAX)
    code = textwrap.dedent('''
        import collections, math, sys, typing
        import torch
        import torch.nn as nn

        Pair = collections.namedtuple("Pair", "a b")
        sys.setrecursionlimit(2000)


        class Norm(nn.Module):
            def forward(self, x):
                return x / x.sum(-1, keepdim=True)


        def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
            m = Norm().eval()
            shape = getattr(x, "shape")
            z = (x - x.amax(dim, keepdim=True)).exp()
            return z / z.sum(dim, keepdim=True) if len(shape) else z


        def log_softmax(x, dim=-1):
            return softmax(x, dim).log()
    ''')
    assert check_source(code, ch.meta.rules, traced=True) == []


# -- the run-time guard: dynamic routes that no static check can see (a challenge without rules) --------

@root_only
@pytest.mark.parametrize("body, prelude, word", [
    ('f = getattr(sys, "_get" + "frame")(0)\nreturn x * 2', "import sys\n", "sys._getframe"),
    ('try:\n    1 / 0\nexcept ZeroDivisionError:\n    tb = sys.exc_info()[2]\n'
     'f = getattr(tb, "tb_" + "fra" + "me")\nreturn x * 2', "import sys\n", "tb_frame"),
    ('objs = getattr(sys.modules["g" + "c"], "get_" + "objects")()\nreturn x * 2', "import sys\n",
     "gc.get_objects"),
    ('m = sys.modules["c" + "types"]\nm.string_at(id(x), 8)\nreturn x * 2', "import sys\n", "ctypes"),
    ('open("/proc/self/" + "mem", "rb")\nreturn x * 2', "", "/proc/self/mem"),
    ('tr = sys.modules["trace" + "back"]\ntr.extract_stack()\nreturn x * 2', "import sys\n", "sys._getframe"),
])
def test_the_guard_refuses_introspection_at_run_time(backend, body, prelude, word):
    assert_rule_violation(probe(backend, body, prelude), word)


@root_only
def test_the_guard_holds_even_when_the_submission_catches_the_refusal(backend):
    rep = probe(backend, 'try:\n    getattr(sys, "_get" + "frame")(0)\nexcept PermissionError:\n    pass\n'
                         "return x * 2", "import sys\n")
    assert_rule_violation(rep, "sys._getframe")


@root_only
def test_a_well_formed_result_written_without_the_nonce_is_refused(backend):
    """No introspection at all: build the runtime's own frames and write them to every fd."""
    body = '''
        wire = sys.modules["torch" + "dojo.judge.wire"]
        data = wire.frame(wire.encode({"case": 0, "name": "example", "status": "ok", "json": {}, "calls": [],
                                       "ops": []}, {"out/0/y": x * 2}))
        data += wire.frame(wire.encode({"end": True, "status": "ok"}))
        for fd in range(3, 64):
            try:
                os.write(fd, data)
            except OSError:
                pass
        os._exit(0)
    '''
    assert_rule_violation(probe(backend, body, "import os, sys\n"), "did not write")


@root_only
def test_ordinary_library_use_passes_the_guard(backend):
    prelude = '''
        import collections, dataclasses, enum, typing, warnings
        import torch

        Pair = collections.namedtuple("Pair", "a b")
        Color = enum.Enum("Color", "RED GREEN")
        T = typing.TypeVar("T")


        @dataclasses.dataclass
        class Box:
            v: int = 1


        class Mine:
            pass
    '''
    body = '''
        Mine.extra = 3  # its own class: allowed
        warnings.warn("a warning")
        p = Pair(1, 2)
        try:
            raise ValueError("caught")
        except ValueError as e:
            _ = str(e)
        print("hello from the submission")
        return x * (p.a + p.b - Mine.extra + Box().v + 1)
    '''
    rep = probe(backend, body, prelude)
    assert rep.verdict == Verdict.ACCEPTED, (rep.verdict, rep.message, [t.message for t in rep.tests])


def test_the_unsafe_local_backend_has_the_same_guard():
    from torchdojo.judge.execution import LocalUnsafeBackend

    rep = probe(LocalUnsafeBackend(), 'f = getattr(sys, "_get" + "frame")(0)\nreturn x * 2', "import sys\n")
    assert_rule_violation(rep, "sys._getframe")
    ok = probe(LocalUnsafeBackend(), "return x * 2")
    assert ok.verdict == Verdict.ACCEPTED, ok.message


@root_only
@pytest.mark.parametrize("prelude, body, word", [
    # a spy on the encoder would read the nonce from the next frame the runtime writes
    ("import json\n_dumps = json.dumps\n", "json.dumps = lambda *a, **k: _dumps(*a, **k)\nreturn x * 2", "json.dumps"),
    # an emptied trace: the runtime sorts the names it recorded
    ("import builtins\n", "builtins.sorted = lambda *a, **k: []\nreturn x * 2", "builtins.sorted"),
    ("import sys\n", 'w = sys.modules["torch" + "dojo.judge.wire"]\nw.encode = w.encode\nw.frame = print\nreturn x * 2',
     "wire.frame"),
    ("import threading, time\n", "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\nreturn x * 2",
     "starting a thread"),
])
def test_changing_what_the_runtime_uses_after_the_submission_is_refused(backend, prelude, body, word):
    assert_rule_violation(probe(backend, body, prelude), word)
