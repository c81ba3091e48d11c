"""How the judge shows values: compact, the way ``repr(tensor)`` reads.

Two steps, so stored reports can be shown again without torch:

- :func:`summarize` (trusted parent, imports torch) turns a dict of inputs/outputs into JSON:
  a tensor becomes ``{"shape", "dtype", "values"}`` when it has at most ``limit`` elements, or
  ``{"shape", "dtype", "preview", "min", "max", "mean"}`` otherwise, where ``preview`` keeps the
  first and last ``EDGE`` items of every dimension with ``"..."`` in between (torch's own
  summarisation); other values are kept as they are (their ``repr`` cut at 400 characters).
- :func:`format_value` / :func:`format_values` / :func:`format_mismatch` (pure Python) turn that
  JSON into text: ``tensor([[0.0900, 0.2447, 0.6652]], dtype=float64)  shape=(1, 3)``, and a
  mismatch into where and how big the largest difference is. The CLI and the web app both use
  them; reports stored before ``preview`` existed (only ``min``/``max``/``mean``) still format.
"""

from __future__ import annotations

import math
from typing import Any

EDGE = 3  #: items kept at each end of a summarised dimension
FULL_LIMIT = 64  #: tensors with at most this many elements are kept whole
ELIDED = "..."


def summarize(values: dict[str, Any], limit: int = FULL_LIMIT) -> dict[str, Any]:
    """Display form of inputs/outputs (JSON-serialisable): small tensors whole, large ones as an
    edge preview plus min/max/mean; other values as they are (long ones cut)."""
    import torch

    out: dict[str, Any] = {}
    for k, v in values.items():
        if isinstance(v, torch.Tensor):
            t = v.detach().cpu()
            info: dict[str, Any] = {"shape": list(t.shape), "dtype": str(t.dtype).removeprefix("torch.")}
            if t.is_complex():
                t = torch.view_as_real(t)  # shown as (re, im) pairs
            if t.numel() <= limit:
                info["values"] = t.tolist()
            else:
                info["preview"] = _preview(t, EDGE)
                if t.is_floating_point() or t.dtype in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
                    finite = t.double()
                    finite = finite[torch.isfinite(finite)]
                    if finite.numel():
                        info.update(min=float(finite.min()), max=float(finite.max()), mean=float(finite.mean()))
            out[k] = info
        else:
            text = repr(v)
            out[k] = v if len(text) <= 400 else text[:400] + "…"
    return out


def _preview(t, edge: int) -> Any:
    if t.dim() == 0:
        return t.item()
    n = t.shape[0]
    if n > 2 * edge:
        return [_preview(t[i], edge) for i in range(edge)] + [ELIDED] + [_preview(t[i], edge) for i in range(n - edge, n)]
    return [_preview(t[i], edge) for i in range(n)]


def is_tensor_summary(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("shape"), list) and isinstance(v.get("dtype"), str)


def _leaves(data: Any) -> list[Any]:
    if isinstance(data, list):
        return [x for item in data for x in _leaves(item)]
    return [] if data == ELIDED else [data]


def _number_format(leaves: list[Any], dtype: str):
    """One format for every element (like torch): fixed with 4 decimals, or scientific when the
    magnitudes need it; integers and booleans as they are."""
    if dtype == "bool" or all(isinstance(x, bool) for x in leaves):
        return lambda x: str(x) if x != ELIDED else x
    floating = dtype.startswith(("float", "bfloat", "complex")) or any(isinstance(x, float) for x in leaves)
    if not floating:
        return lambda x: str(x)
    finite = [abs(float(x)) for x in leaves if isinstance(x, (int, float)) and math.isfinite(float(x))]
    nonzero = [x for x in finite if x != 0]
    sci = bool(nonzero) and (max(nonzero) >= 1e4 or min(nonzero) < 1e-4)

    def fmt(x: Any) -> str:
        if not isinstance(x, (int, float)):
            return str(x)
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return f"{x:.4e}" if sci else f"{x:.4f}"

    return fmt


def _nested(data: Any, fmt, width: int, indent: int) -> str:
    if not isinstance(data, list):
        return fmt(data).rjust(width) if data != ELIDED else ELIDED
    if not data:
        return "[]"
    if all(not isinstance(x, list) for x in data):
        return "[" + ", ".join(fmt(x).rjust(width) if x != ELIDED else ELIDED for x in data) + "]"
    depth = _depth(data)
    sep = "," + "\n" * (depth - 1) + " " * (indent + 1)
    return "[" + sep.join(_nested(x, fmt, width, indent + 1) if x != ELIDED else ELIDED for x in data) + "]"


def _depth(data: Any) -> int:
    return 1 + max((_depth(x) for x in data if isinstance(x, list)), default=0) if isinstance(data, list) else 0


def _g(x: float) -> str:
    return f"{x:.4g}"


def format_tensor(info: dict[str, Any]) -> str:
    """``tensor([...], dtype=float64)  shape=(2, 3)``; a large tensor shows its edges and
    ``min= max= mean=``."""
    shape, dtype = tuple(info["shape"]), info["dtype"]
    shape_s = "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
    data = info.get("values", info.get("preview"))
    head = "tensor("
    if data is None:
        body = "..."
    else:
        leaves = _leaves(data)
        fmt = _number_format(leaves, dtype)
        width = max((len(fmt(x)) for x in leaves), default=0)
        body = _nested(data, fmt, width, len(head))
    text = f"{head}{body}, dtype={dtype})  shape={shape_s}"
    if "min" in info:
        text += f"  min={_g(info['min'])} max={_g(info['max'])} mean={_g(info['mean'])}"
    return text


def format_value(v: Any) -> str:
    """A summarised value as text: tensors like ``repr(tensor)``, other values as Python reprs."""
    if is_tensor_summary(v):
        return format_tensor(v)
    return v if isinstance(v, str) and v.endswith("…") else repr(v)


def format_values(values: dict[str, Any] | None) -> str:
    """``name = value`` per line; continuation lines of a value are indented under it."""
    if not values:
        return ""
    lines = []
    for k, v in values.items():
        prefix = f"{k} = "
        text = format_value(v).replace("\n", "\n" + " " * len(prefix))
        lines.append(prefix + text)
    return "\n".join(line.rstrip() for line in "\n".join(lines).split("\n"))


def format_mismatch(m: dict[str, Any] | None) -> str:
    """Where an output differs: for values, the index and size of the largest difference, both
    values there and how many elements differ; otherwise the comparison's own message."""
    if not m:
        return ""
    if m.get("kind") == "value" and m.get("index") is not None:
        idx = list(m["index"])
        text = f"'{m.get('output')}': largest difference"
        if m.get("max_diff") is not None:
            text += f" {_g(m['max_diff'])}"
        text += f" at index {idx}: expected {_scalar(m.get('expected'))}, got {_scalar(m.get('got'))}"
        if m.get("n_bad") is not None and m.get("numel"):
            text += f"; {m['n_bad']} of {m['numel']} elements differ"
        return text
    if m.get("kind") == "nonfinite" and m.get("index") is not None:
        return (f"{m.get('message')}: expected {_scalar(m.get('expected'))}, got {_scalar(m.get('got'))}")
    return str(m.get("message", ""))


def _scalar(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.6g}"
    return repr(x) if not isinstance(x, str) else x
