"""Custom input: the user picks a case's parameters; trusted code builds the inputs.

The user never sends tensors or code to the trusted process: they send a JSON object of the
parameters that the challenge's own ``tests.make_inputs(**params, seed=...)`` takes (the same
ones its cases use, e.g. ``{"n": 4, "d": 5, "scale": 3.0, "dim": -1}`` or ``{"values": [[1, 2,
3]], "dim": -1}``). :func:`input_spec` derives what is allowed from the challenge's cases:

- a parameter is allowed only if some case uses it (or it is ``seed``); parameters that
  ``make_inputs`` requires must be given;
- ints: between ``min(0, smallest used)`` and the largest any case uses (sizes never exceed the
  biggest test); floats: finite, at most ``FLOAT_FACTOR`` x the largest magnitude used (and at
  least 10); booleans: booleans; strings: one of the values the cases use (a dtype, a mode);
- lists: no deeper than the cases nest them; a list holding floats is data (``values``): at most
  ``MAX_LEAVES`` numbers; a list of ints may be sizes (``shape``): no more numbers than the cases
  use, each between ``min(0, smallest)`` and the largest used; dicts: the keys the cases use, each
  value checked like a parameter (``hp.lr``);
- the whole input text is at most ``MAX_TEXT`` characters.

After ``make_inputs`` the tensors built may hold at most as many elements as the biggest case's
inputs (``MAX_NUMEL`` at least), so running the reference on it costs about what a test costs.
Every refusal is a :class:`CustomInputError` naming the field.
"""

from __future__ import annotations

import inspect
import json
import math
from dataclasses import dataclass, field
from typing import Any

MAX_TEXT = 20_000
MAX_LEAVES = 4096
MAX_DEPTH = 5
MAX_STR = 64
MAX_NUMEL = 4096
FLOAT_FACTOR = 10.0
SEED_MAX = 2**31 - 1


class CustomInputError(ValueError):
    """A custom input the judge will not build; ``field`` names the offending parameter."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}" if field_name else message)
        self.field, self.message = field_name, message


@dataclass
class ParamSpec:
    name: str
    kinds: set[str] = field(default_factory=set)  # int, float, bool, str, list, dict, tuple, NoneType
    lo: float = 0
    hi: float = 0
    choices: set[str] = field(default_factory=set)
    fields: dict[str, ParamSpec] = field(default_factory=dict)  # dicts: one spec per key the cases use
    # lists: the deepest nesting and most leaves a case uses; whether every leaf is a number (data)
    depth: int = 0
    leaves: int = 0
    data: bool = False  # some leaf is a float: numbers are data, not sizes
    leaf_lo: float = 0
    leaf_hi: float = 0
    required: bool = False

    def observe(self, v: Any) -> None:
        k = _kind(v)
        self.kinds.add(k)
        if k in ("int", "float"):
            self.lo, self.hi = min(self.lo, v), max(self.hi, abs(v) if k == "float" else v)
        elif k == "str":
            self.choices.add(v)
        elif k == "dict":
            for key, x in v.items():
                self.fields.setdefault(key, ParamSpec(f"{self.name}.{key}")).observe(x)
        elif k in ("list", "tuple"):
            leaves = _leaves(v)
            self.depth, self.leaves = max(self.depth, _depth(v)), max(self.leaves, len(leaves))
            self.data = self.data or any(isinstance(x, float) for x in leaves)
            ints = [x for x in leaves if isinstance(x, int) and not isinstance(x, bool)]
            if ints:
                self.leaf_lo, self.leaf_hi = min(self.leaf_lo, *ints), max(self.leaf_hi, *ints)

    def finish(self) -> None:
        if "float" in self.kinds:
            self.hi = max(10.0, self.hi * FLOAT_FACTOR)
            self.lo = -self.hi
        elif "int" in self.kinds:
            self.lo, self.hi = min(0, self.lo), max(1, self.hi)
        for f in self.fields.values():
            f.finish()

    def max_leaves(self) -> int:
        """Data lists (floats) may hold up to MAX_LEAVES numbers; lists of ints may be sizes
        (a shape), so they hold no more numbers, no larger, than the cases use."""
        return MAX_LEAVES if self.data else self.leaves

    def describe(self, optional_note: bool = True) -> str:
        """How the form explains this parameter: ``int 0–16``, ``float |x| ≤ 1e+05``, ``"float32" | "float64"``."""
        parts = []
        for k in sorted(self.kinds):
            if k == "int":
                parts.append(f"int {int(self.lo)}–{int(self.hi)}")
            elif k == "float":
                parts.append(f"float |x| ≤ {self.hi:g}" if "int" not in self.kinds else f"number |x| ≤ {self.hi:g}")
            elif k == "str":
                parts.append(" | ".join(json.dumps(c) for c in sorted(self.choices)))
            elif k in ("list", "tuple"):
                parts.append(f"list (≤ {self.max_leaves()} numbers)" if self.data else
                             f"list of ≤ {self.leaves} ints from {int(min(0, self.leaf_lo))} to {int(self.leaf_hi)}")
            elif k == "dict":
                parts.append("object with keys " + ", ".join(sorted(self.fields)))
            elif k == "NoneType":
                parts.append("null")
            else:
                parts.append(k)
        note = "" if self.required or not optional_note else " (optional)"
        return " or ".join(dict.fromkeys(parts)) + note


def _kind(v: Any) -> str:
    return "bool" if isinstance(v, bool) else type(v).__name__


def _walk(v: Any) -> tuple[int, list[Any]]:
    """(nesting depth, leaves) of a nested list, without recursion (user input may nest deeply)."""
    depth, leaves, stack = 0, [], [(v, 0)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, (list, tuple)):
            depth = max(depth, d + 1)
            stack.extend((item, d + 1) for item in reversed(x))
        else:
            leaves.append(x)
    return depth, leaves


def _leaves(v: Any) -> list[Any]:
    return _walk(v)[1]


def _depth(v: Any) -> int:
    return _walk(v)[0]


def input_spec(tests) -> dict[str, ParamSpec]:
    """What a custom input may set, from the challenge's cases and ``make_inputs``'s signature."""
    specs: dict[str, ParamSpec] = {}
    for c in tests.cases():
        for name, v in c.params.items():
            specs.setdefault(name, ParamSpec(name)).observe(v)
    for s in specs.values():
        s.finish()
    try:
        sig = inspect.signature(tests.make_inputs)
        for name, p in sig.parameters.items():
            if name not in specs or p.kind is p.VAR_KEYWORD:
                continue
            if p.default is inspect.Parameter.empty:
                specs[name].required = True
            elif isinstance(p.default, str) and "str" in specs[name].kinds:
                specs[name].choices.add(p.default)  # the default ("float64") is a value too
    except (TypeError, ValueError):
        pass
    return specs


def example_input(tests) -> dict[str, Any]:
    """The first public case's parameters (what the form starts with)."""
    cases = list(tests.cases())
    first = next((c for c in cases if c.public), cases[0] if cases else None)
    return dict(first.params) if first else {}


def _check_list(s: ParamSpec, v: list) -> None:
    depth, leaves = _walk(v)
    if depth > min(MAX_DEPTH, max(s.depth, 1)):
        raise CustomInputError(s.name, f"nested deeper than {min(MAX_DEPTH, max(s.depth, 1))} levels (as the tests use it)")
    if len(leaves) > s.max_leaves():
        raise CustomInputError(s.name, f"holds more than {s.max_leaves()} values"
                                       + ("" if s.data else " (as many as the tests use: these numbers may be sizes)"))
    for x in leaves:
        if x is None or isinstance(x, bool) or isinstance(x, str) and len(x) <= MAX_STR:
            continue  # None: "not given" inside a list (JSON null), as a case may use it
        if isinstance(x, int):
            lo, hi = (-2**53, 2**53) if s.data else (min(0, s.leaf_lo), s.leaf_hi)
            if not lo <= x <= hi:
                raise CustomInputError(s.name, f"holds {x}; its integers must be from {int(lo)} to {int(hi)}")
            continue
        if isinstance(x, float):
            if not s.data:
                raise CustomInputError(s.name, "must hold integers (as the tests use it), not floats")
            if math.isfinite(x) and abs(x) > 1e30:
                raise CustomInputError(s.name, "numbers must be at most 1e30 in magnitude")
            continue
        raise CustomInputError(s.name, f"must hold numbers, booleans, null or short strings, not {type(x).__name__}")


def _parse_constant(text: str) -> float:
    # JSON has no Infinity/NaN; accept Python/JS spellings inside data lists (logits of -inf).
    return {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}[text]


def parse_custom_input(tests, text: str) -> tuple[dict[str, Any], int]:
    """Validate the user's JSON object against :func:`input_spec`; returns (params, seed).
    Raises :class:`CustomInputError` naming the field."""
    if len(text) > MAX_TEXT:
        raise CustomInputError("input", f"is {len(text)} characters; the limit is {MAX_TEXT}")
    try:
        data = json.loads(text, parse_constant=_parse_constant)
    except json.JSONDecodeError as e:
        raise CustomInputError("input", f"is not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise CustomInputError("input", f"is nested too deeply (at most {MAX_DEPTH} levels)") from None
    if not isinstance(data, dict):
        raise CustomInputError("input", "must be a JSON object of parameters, e.g. {\"n\": 4}")
    specs = input_spec(tests)
    seed = data.pop("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise CustomInputError("seed", f"must be an integer from 0 to {SEED_MAX}")
    params: dict[str, Any] = {}
    for name, v in data.items():
        s = specs.get(name)
        if s is None:
            allowed = ", ".join(sorted(specs)) or "none"
            raise CustomInputError(name, f"is not a parameter of this challenge (allowed: {allowed}, seed)")
        params[name] = _check_param(s, v)
    missing = [n for n, s in specs.items() if s.required and n not in params]
    if missing:
        raise CustomInputError(missing[0], "is required")
    return params, seed


def _check_param(s: ParamSpec, v: Any) -> Any:
    k = _kind(v)
    if v is None:
        if "NoneType" in s.kinds:
            return None
        raise CustomInputError(s.name, f"must be {s.describe(False)}, not null")
    if k == "bool":
        if "bool" not in s.kinds:
            raise CustomInputError(s.name, f"must be {s.describe(False)}, not a boolean")
        return v
    if k == "int" and "int" in s.kinds:
        if not s.lo <= v <= s.hi:
            raise CustomInputError(s.name, f"must be from {int(s.lo)} to {int(s.hi)} (the largest the tests use)")
        return v
    if k in ("int", "float") and "float" in s.kinds:
        v = float(v)
        if math.isnan(v) or abs(v) > s.hi:
            raise CustomInputError(s.name, f"must be a finite number with |x| ≤ {s.hi:g}")
        return v
    if k == "str":
        if "str" not in s.kinds or v not in s.choices:
            raise CustomInputError(s.name, f"must be {s.describe(False)}")
        return v
    if k == "list" and ("list" in s.kinds or "tuple" in s.kinds):
        _check_list(s, v)
        return tuple(v) if "tuple" in s.kinds and "list" not in s.kinds else v
    if k == "dict" and "dict" in s.kinds:
        extra = sorted(set(v) - set(s.fields))
        if extra:
            raise CustomInputError(f"{s.name}.{extra[0]}", f"is not a key this challenge uses ({', '.join(sorted(s.fields))})")
        return {key: _check_param(s.fields[key], x) for key, x in v.items()}
    raise CustomInputError(s.name, f"must be {s.describe(False)}, not {'a list' if k == 'list' else k}")


def input_numel(inputs: dict[str, Any]) -> int:
    """Elements in every tensor of a built input (what the size cap counts)."""
    n = 0
    for v in inputs.values():
        if hasattr(v, "numel"):
            n += int(v.numel())
        elif isinstance(v, (list, tuple)):
            n += sum(int(x.numel()) for x in v if hasattr(x, "numel"))
    return n
