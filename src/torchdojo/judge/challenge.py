"""Coding challenges as folders: ``bank/challenges/<id>/``.

A challenge folder holds:

- ``challenge.yaml`` — metadata, limits and rules (validated by :class:`ChallengeMeta`);
- ``statement.md`` — the problem as the candidate reads it;
- ``starter.py`` — the code the candidate starts from (for debugging challenges: the broken code);
- ``reference.py`` — the reference solution (trusted: never enters the sandbox);
- ``harness.py`` — ``run(sol, inputs) -> dict`` that exercises a solution module and returns its
  outputs (tensors or JSON values). It runs in the sandbox with the candidate's module and in
  the trusted parent with the reference, so it must not contain expected values;
- ``tests.py`` — trusted, parent-only: ``cases()`` returning :class:`torchdojo.judge.testing.Case`
  objects and ``make_inputs(**params, seed=...)``; optionally ``check(inputs, got)`` for
  invariants and ``max_numel(inputs)`` for a memory rule;
- ``wrong/*.py`` — known-wrong solutions, each starting with ``# expect: <Verdict>``;
- optional ``hints.md`` — progressive hints separated by a Markdown rule (a line ``---``),
  revealed one at a time; optional ``editorial.md`` — the reference explained, shown after an
  Accepted submission or after the user gives up (the gating is :class:`JudgeService`'s).
"""

from __future__ import annotations

import re
import types
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from torchdojo.bank.schema import Slug
from torchdojo.bank.taxonomy import Level
from torchdojo.judge.verdicts import Verdict


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Limits(_Strict):
    """Per-job limits: CPU seconds, wall seconds, memory in MiB, captured output in KiB."""

    cpu_seconds: float = Field(default=10.0, gt=0, le=120)
    wall_seconds: float = Field(default=20.0, gt=0, le=300)
    memory_mb: int = Field(default=1024, ge=64, le=8192)
    output_kb: int = Field(default=256, ge=1, le=65536)


class Rules(_Strict):
    """What a solution may not use. ``banned_calls``: dotted Python names (``torch.softmax``,
    ``torch.Tensor.softmax``, ``torch.nn.functional.softmax``) checked statically and at run
    time; ``banned_ops``: ATen operator packets (``aten._softmax``) checked at run time;
    ``banned_imports``: top-level modules; ``banned_constructs``: ``for``, ``while``."""

    banned_calls: list[str] = Field(default_factory=list)
    banned_ops: list[str] = Field(default_factory=list)
    banned_imports: list[str] = Field(default_factory=list)
    banned_constructs: list[Literal["for", "while", "comprehension"]] = Field(default_factory=list)
    why: str = ""


class Tolerance(_Strict):
    """Override ``torch.testing.assert_close``'s dtype-based defaults (None keeps them)."""

    rtol: float | None = None
    atol: float | None = None


class Speed(_Strict):
    """Speed rule: the solution's CPU time on ``case`` at most ``max_ratio`` x the reference's."""

    case: str
    max_ratio: float = Field(gt=1.0)
    repeat: int = Field(default=3, ge=1, le=50)


class ChallengeMeta(_Strict):
    id: Slug
    title: str
    level: Level
    kind: Literal["implement", "debug", "algorithm"]
    topics: list[str] = Field(min_length=1)
    related: list[Slug] = Field(default_factory=list)
    limits: Limits = Limits()
    rules: Rules = Rules()
    tolerance: Tolerance = Tolerance()
    speed: Speed | None = None
    complexity: str | None = None  # e.g. "O(n) time, O(k) extra memory", stated and measured in tests


class ChallengeError(ValueError):
    """A challenge folder is incomplete or invalid; the message names the file and field."""


@dataclass
class Challenge:
    path: Path
    meta: ChallengeMeta
    statement: str
    starter: str
    reference_source: str
    harness_source: str
    tests_source: str
    wrong: dict[str, tuple[Verdict, str]] = field(default_factory=dict)  # name -> (expected verdict, code)
    hints: list[str] = field(default_factory=list)  # Markdown, in the order they are revealed
    editorial: str | None = None  # Markdown

    @property
    def id(self) -> str:
        return self.meta.id

    @cached_property
    def tests(self) -> types.ModuleType:
        """The trusted tests module (imports torch: only the judge process touches this)."""
        return _module(f"torchdojo_challenge_tests.{self.id}", self.tests_source, self.path / "tests.py")

    @cached_property
    def harness(self) -> types.ModuleType:
        return _module(f"torchdojo_challenge_harness.{self.id}", self.harness_source, self.path / "harness.py")

    @cached_property
    def reference(self) -> types.ModuleType:
        return _module(f"torchdojo_challenge_reference.{self.id}", self.reference_source, self.path / "reference.py")


def _module(name: str, source: str, path: Path) -> types.ModuleType:
    mod = types.ModuleType(name)
    mod.__file__ = str(path)
    exec(compile(source, str(path), "exec"), mod.__dict__)
    return mod


#: A Markdown thematic break on its own line (``---``, ``***``, ``___``): what separates hints.
HINT_RULE = re.compile(r"^[ ]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$", re.MULTILINE)


def split_hints(text: str) -> list[str]:
    """The hints of a ``hints.md``: the parts between rules, stripped, empty parts dropped."""
    return [h.strip() for h in HINT_RULE.split(text)[::2] if h.strip()]


REQUIRED = ("challenge.yaml", "statement.md", "starter.py", "reference.py", "harness.py", "tests.py")


def load_challenge(folder: Path) -> Challenge:
    """Load and validate one challenge folder. Raises :class:`ChallengeError`."""
    missing = [f for f in REQUIRED if not (folder / f).is_file()]
    if missing:
        raise ChallengeError(f"{folder}: missing file(s) {', '.join(missing)}")
    meta_path = folder / "challenge.yaml"
    try:
        data = yaml.safe_load(meta_path.read_text(encoding="utf-8"))
        meta = ChallengeMeta.model_validate(data)
    except yaml.YAMLError as e:
        raise ChallengeError(f"{meta_path}: invalid YAML: {e}") from e
    except ValidationError as e:
        err = e.errors()[0]
        raise ChallengeError(f"{meta_path}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from e
    if meta.id != folder.name:
        raise ChallengeError(f"{meta_path}: id '{meta.id}' must equal the folder name '{folder.name}'")
    wrong: dict[str, tuple[Verdict, str]] = {}
    for p in sorted((folder / "wrong").glob("*.py")):
        code = p.read_text(encoding="utf-8")
        first = code.splitlines()[0] if code else ""
        if not first.startswith("# expect:"):
            raise ChallengeError(f"{p}:1: a known-wrong solution starts with '# expect: <Verdict>'")
        try:
            wrong[p.stem] = (Verdict(first.removeprefix("# expect:").strip()), code)
        except ValueError as e:
            raise ChallengeError(f"{p}:1: unknown verdict; use one of {[v.value for v in Verdict]}") from e
    read = lambda f: (folder / f).read_text(encoding="utf-8")  # noqa: E731
    hints = split_hints(read("hints.md")) if (folder / "hints.md").is_file() else []
    editorial = read("editorial.md").strip() or None if (folder / "editorial.md").is_file() else None
    if (folder / "hints.md").is_file() and not hints:
        raise ChallengeError(f"{folder / 'hints.md'}: no hints (separate hints with a line '---')")
    return Challenge(folder, meta, read("statement.md"), read("starter.py"), read("reference.py"),
                     read("harness.py"), read("tests.py"), wrong, hints, editorial)


def load_challenges(root: Path) -> tuple[dict[str, Challenge], list[str]]:
    """All challenges under ``root`` (``bank/challenges``) and the problems of those that failed."""
    found, problems = {}, []
    for folder in sorted(p for p in root.glob("*") if p.is_dir()) if root.is_dir() else []:
        try:
            ch = load_challenge(folder)
            found[ch.id] = ch
        except ChallengeError as e:
            problems.append(str(e))
    return found, problems
