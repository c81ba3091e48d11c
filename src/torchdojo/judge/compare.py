"""Trusted comparison of a submission's outputs with the reference's (parent side only).

Tensors: same shape, same dtype, NaN/Inf in the same places, then values within
``torch.testing.assert_close`` tolerances (dtype-based defaults: float32 rtol 1.3e-6 /
atol 1e-5, float64 rtol 1e-7 / atol 1e-7, …; a challenge may override them). A mismatch
reports the index and both values of the largest error, never the whole expected tensor.
JSON values: exact for ints, strings, booleans and nesting; floats with rel 1e-6, abs 1e-9.

Source: https://pytorch.org/docs/stable/testing.html (torch.testing.assert_close)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Mismatch:
    """Why an output differs. ``index``/``expected``/``got`` locate the largest error."""

    output: str
    kind: str  # missing | type | shape | dtype | nonfinite | value
    message: str
    index: tuple[int, ...] | None = None
    expected: Any = None
    got: Any = None
    max_diff: float | None = None  # value mismatches: the largest absolute difference
    n_bad: int | None = None  # ... how many elements are outside the tolerance
    numel: int | None = None  # ... out of how many

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def _scalar(t) -> Any:
    v = t.item()
    return v if not isinstance(v, float) or math.isfinite(v) else str(v)


def compare_tensor(name: str, exp, got, rtol: float | None, atol: float | None) -> Mismatch | None:
    import torch

    if not isinstance(got, torch.Tensor):
        return Mismatch(name, "type", f"'{name}' should be a tensor, got {type(got).__name__}")
    if got.shape != exp.shape:
        return Mismatch(name, "shape", f"'{name}' has shape {tuple(got.shape)}, expected {tuple(exp.shape)}")
    if got.dtype != exp.dtype:
        return Mismatch(name, "dtype", f"'{name}' has dtype {got.dtype}, expected {exp.dtype}")
    if exp.numel() == 0:
        return None
    if exp.is_floating_point() or exp.is_complex():
        for what, fn in (("NaN", torch.isnan), ("+/-Inf", torch.isinf)):
            bad = fn(got) != fn(exp)
            if bad.any():
                idx = tuple(int(i) for i in bad.nonzero()[0])
                return Mismatch(name, "nonfinite", f"'{name}' has {what} where the reference does not "
                                f"(or misses one it has), first at index {list(idx)}", idx,
                                _scalar(exp[idx]), _scalar(got[idx]))
    kw = {} if rtol is None and atol is None else {"rtol": rtol or 0.0, "atol": atol or 0.0}
    try:
        torch.testing.assert_close(got, exp, equal_nan=True, **kw)
        return None
    except AssertionError as e:
        diff = (got.double() - exp.double()).abs() if not exp.is_complex() else (got - exp).abs().double()
        diff = torch.nan_to_num(diff, nan=0.0, posinf=0.0)
        flat = int(diff.argmax())
        idx = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), exp.shape))
        found = re.search(r"Mismatched elements: [^\n]*", str(e))
        n_bad = found.group(0) + "." if found else ""
        counts = re.search(r"Mismatched elements: (\d+) / (\d+)", str(e))
        return Mismatch(name, "value", f"'{name}' differs from the reference. {n_bad} Largest absolute error "
                        f"{float(diff.flatten()[flat]):.3g} at index {list(idx)}.", idx,
                        _scalar(exp[idx]), _scalar(got[idx]), float(diff.flatten()[flat]),
                        int(counts.group(1)) if counts else None, int(counts.group(2)) if counts else exp.numel())


def compare_json(name: str, exp: Any, got: Any, path: str = "") -> Mismatch | None:
    where = f"'{name}'{path}"
    if isinstance(exp, bool) or isinstance(got, bool):
        ok = type(exp) is type(got) and exp == got
    elif isinstance(exp, (int, float)) and isinstance(got, (int, float)):
        if isinstance(exp, int) and isinstance(got, int):
            ok = exp == got
        else:
            ok = math.isclose(float(exp), float(got), rel_tol=1e-6, abs_tol=1e-9) or (
                math.isnan(float(exp)) and math.isnan(float(got)))
    elif isinstance(exp, list) and isinstance(got, list):
        if len(exp) != len(got):
            return Mismatch(name, "shape", f"{where} has length {len(got)}, expected {len(exp)}")
        for i, (e, g) in enumerate(zip(exp, got, strict=True)):
            m = compare_json(name, e, g, f"{path}[{i}]")
            if m:
                return m
        return None
    elif isinstance(exp, dict) and isinstance(got, dict):
        if set(exp) != set(got):
            return Mismatch(name, "shape", f"{where} has keys {sorted(got)}, expected {sorted(exp)}")
        for k in exp:
            m = compare_json(name, exp[k], got[k], f"{path}[{k!r}]")
            if m:
                return m
        return None
    else:
        ok = type(exp) is type(got) and exp == got
    if ok:
        return None
    return Mismatch(name, "value", f"{where} is {got!r:.80}, expected {exp!r:.80}", expected=exp, got=got)


def compare_outputs(expected: dict[str, Any], got: dict[str, Any], rtol: float | None = None,
                    atol: float | None = None) -> Mismatch | None:
    """The first mismatch between two output dicts (in the reference's key order), or None."""
    import torch

    for name, exp in expected.items():
        if name not in got:
            return Mismatch(name, "missing", f"output '{name}' is missing")
        m = (compare_tensor(name, exp, got[name], rtol, atol) if isinstance(exp, torch.Tensor)
             else compare_json(name, exp, got[name]))
        if m:
            return m
    return None
