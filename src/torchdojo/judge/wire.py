"""The data format between the trusted parent and the sandboxed child: no pickle, ever.

A message is ``[8-byte big-endian header length][JSON header][safetensors payload]``. Tensors
travel in the safetensors payload under string keys; everything else is JSON. Decoding
validates sizes and never executes anything: a malformed or forged message raises
:class:`WireError`, whose text is short and names no number read from the message.

The child's result is a *stream* of framed messages (``[8-byte length][message]``), written
as it goes: one per test, in order (``{"case": i, ...}`` with that test's output tensors), then
``{"end": True, "status": ...}``. A job stopped half-way (time, memory, output) still shows
which tests finished: :func:`read_stream` returns the whole frames before the cut.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any

MAX_HEADER = 16 * 1024 * 1024
MAX_FRAME = 256 * 1024 * 1024  # the runner's cap on a job's whole result
FRAME = struct.Struct(">Q")


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
        raise WireError(f"the length prefix does not fit the {len(data)}-byte message")
    try:
        header = json.loads(data[8 : 8 + n])
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WireError(f"header is not JSON ({type(e).__name__})") from e
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
            raise WireError(f"tensor payload is not valid safetensors ({type(e).__name__})") from e
    return header, tensors


def frame(message: bytes) -> bytes:
    """One message of a result stream: its length, then the message."""
    return FRAME.pack(len(message)) + message


@dataclass
class Stream:
    """What :func:`read_stream` found: the tests' results in order, the end message, and why it stopped early."""

    cases: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    truncated: bool = False  # the last frame was cut short (the writer was stopped mid-write)
    error: str | None = None  # a whole frame was malformed, or out of order: not what the runtime writes

    @property
    def complete(self) -> bool:
        return self.end is not None and not self.truncated and self.error is None


def read_stream(data: bytes, nonce: str | None = None) -> Stream:
    """Decode a result stream (see the module's docstring). Never raises: a malformed frame
    stops the reading and is described in ``error``; the frames before it are kept. With
    ``nonce``, a frame whose header does not carry it was not written by the judge's runtime:
    an error, like a malformed one."""
    out = Stream()
    pos = 0
    while pos < len(data):
        if out.end is not None:
            out.error = "data after the end of the result"
            break
        if len(data) - pos < FRAME.size:
            out.truncated = True
            break
        (n,) = FRAME.unpack_from(data, pos)
        if n > MAX_FRAME:
            out.error = "a frame's length prefix is not a plausible length"
            break
        if n > len(data) - pos - FRAME.size:
            out.truncated = True
            break
        try:
            header, tensors = decode(data[pos + FRAME.size : pos + FRAME.size + n])
        except WireError as e:
            out.error = str(e)
            break
        pos += FRAME.size + n
        if nonce is not None and header.get("nonce") != nonce:
            out.error = "a frame is not signed with the job's nonce"
            break
        if header.get("end") is True:
            out.end = header
        elif header.get("case") == len(out.cases) and not isinstance(header.get("case"), bool):
            out.cases.append((header, tensors))
        else:
            out.error = "a frame is neither the next test's result nor the end"
            break
    return out


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
