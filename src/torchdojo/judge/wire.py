"""The data format between the trusted parent and the sandboxed child: no pickle, ever.

A message is ``[8-byte big-endian header length][JSON header][safetensors payload]``. Tensors
travel in the safetensors payload under string keys; everything else is JSON. Decoding
validates sizes and never executes anything: a malformed or forged message raises
:class:`WireError`.
"""

from __future__ import annotations

import json
import struct
from typing import Any

MAX_HEADER = 16 * 1024 * 1024


class WireError(ValueError):
    """A message could not be decoded (truncated, oversized, not JSON, bad tensor payload)."""


def encode(header: dict[str, Any], tensors: dict[str, Any] | None = None) -> bytes:
    """Frame ``header`` (JSON-able) and ``tensors`` (name -> torch.Tensor) into bytes."""
    payload = b""
    if tensors:
        from safetensors.torch import save

        payload = save({k: t.detach().contiguous().clone().cpu() for k, t in tensors.items()})
    head = json.dumps(header, allow_nan=True).encode()
    return struct.pack(">Q", len(head)) + head + payload


def decode(data: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """Inverse of :func:`encode`. Raises :class:`WireError` on anything malformed."""
    if len(data) < 8:
        raise WireError("message shorter than its length prefix")
    (n,) = struct.unpack(">Q", data[:8])
    if n > MAX_HEADER or 8 + n > len(data):
        raise WireError(f"header length {n} does not fit a {len(data)}-byte message")
    try:
        header = json.loads(data[8 : 8 + n])
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WireError(f"header is not JSON: {e}") from e
    if not isinstance(header, dict):
        raise WireError("header is not a JSON object")
    payload = data[8 + n :]
    tensors: dict[str, Any] = {}
    if payload:
        from safetensors import SafetensorError
        from safetensors.torch import load

        try:
            tensors = load(payload)
        except (SafetensorError, ValueError, RuntimeError) as e:
            raise WireError(f"tensor payload is not valid safetensors: {e}") from e
    return header, tensors


def split_values(values: dict[str, Any], prefix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a flat dict of outputs into (JSON part, tensor part keyed ``prefix + name``)."""
    import torch

    js, ts = {}, {}
    for k, v in values.items():
        if isinstance(v, torch.Tensor):
            ts[prefix + k] = v
        else:
            js[k] = v
    return js, ts


def join_values(js: dict[str, Any], tensors: dict[str, Any], prefix: str) -> dict[str, Any]:
    out = dict(js)
    out.update({k[len(prefix):]: v for k, v in tensors.items() if k.startswith(prefix)})
    return out
