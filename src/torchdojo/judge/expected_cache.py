"""Expected outputs on disk: computed once per challenge version, reused by every process.

Grading a submission needs each test's inputs and the reference's outputs on them. Computing
them runs the reference in the trusted process (0.1-1 s per challenge, more on a busy machine);
a cold ``torchdojo challenge submit`` and the web app's first verdict after a restart paid it
every time (issue 17). Now they are stored in ``<cache_dir>/<challenge id>/<key>.bin``:

- **key**: SHA-256 of everything the values depend on — the cache format, the installed torch
  version, the challenge's ``reference.py``, ``harness.py`` and ``tests.py`` sources, the judge's
  ``testing.py`` (``vjp``), the case's name, parameters and seed. Editing any of these makes a
  new key; the old file is simply never read again (:func:`prune` removes keys of other versions
  of a challenge when a new one is written).
- **format**: the judge's own wire format (:mod:`torchdojo.judge.wire`: a JSON header and
  safetensors), never pickle. A file that is missing, truncated, unreadable or of another
  format is a cache miss: the values are computed again and the file rewritten.
- **what is cached**: only values that survive the round trip exactly (tensors keep dtype and
  shape; JSON values must compare equal *and* keep their types: a tuple would come back as a
  list, an int dict key as a string, NaN is not equal to itself — such values are not cached,
  they are recomputed each time, which is always correct).
- **writes** are atomic (a temporary file in the same folder, then ``os.replace``): a reader
  never sees half a file, and two processes writing the same key write the same bytes.

The cache holds the trusted side's data only (expected outputs are never sent to the sandbox);
its folder is the user's own (``Settings.cache_dir``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from torchdojo.judge import wire

FORMAT = "torchdojo-expected-v1"


@functools.cache
def _testing_source() -> str:
    from torchdojo.judge import testing

    return Path(testing.__file__).read_text(encoding="utf-8")


def key(challenge, name: str, params: dict[str, Any], seed: int) -> str:
    """The cache key (64 hex digits) of one case of ``challenge`` (a :class:`Challenge`)."""
    import torch

    parts = [FORMAT, torch.__version__, challenge.id, challenge.reference_source, challenge.harness_source,
             challenge.tests_source, _testing_source(), name, repr(sorted(params.items())), seed]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _same(a: Any, b: Any) -> bool:
    """Equal with the same types all the way down (so JSON gave back exactly what was stored)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def load(folder: Path, k: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(inputs, expected) stored under key ``k``, or None (missing or unreadable: a miss)."""
    try:
        data = (folder / f"{k}.bin").read_bytes()
        header, tensors = wire.decode(data)
    except Exception:  # noqa: BLE001 - missing, truncated, another format: a miss, recomputed
        return None
    if header.get("format") != FORMAT or not isinstance(header.get("inputs"), dict) or not isinstance(
            header.get("expected"), dict):
        return None
    return (wire.join_values(header["inputs"], tensors, "in/"), wire.join_values(header["expected"], tensors, "out/"))


def store(folder: Path, k: str, inputs: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Store (inputs, expected) under ``k`` if they survive the round trip exactly; atomic.
    Returns whether it was stored. Never raises for a value it cannot store or a disk error."""
    try:
        ijs, its = wire.split_values(inputs, "in/")
        ejs, ets = wire.split_values(expected, "out/")
        header = {"format": FORMAT, "inputs": ijs, "expected": ejs}
        if not _same(json.loads(json.dumps(header, allow_nan=False)), header):
            return False
        data = wire.encode(header, {**its, **ets})
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".bin")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / f"{k}.bin")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return True
    except Exception:  # noqa: BLE001 - a value the format cannot hold, a full disk: not cached
        return False


def prune(folder: Path, keep: set[str]) -> None:
    """Remove the cached cases of ``folder`` (one challenge) whose key is not in ``keep``."""
    try:
        for p in folder.glob("*.bin"):
            if p.stem not in keep:
                p.unlink(missing_ok=True)
    except OSError:
        pass
