"""Dense retrieval over the bank: MiniLM embeddings of every entry's texts, cached by digest.

Each entry contributes its title, short answer and key points (the key points' phrasings, three
times as many texts, were tried: on the dev queries they changed recall@5 by at most 0.02 per kind
and MRR by 0.016, within noise, and tripled the time to build the index). An entry's score for a query is a blend of its best-matching text and its
title/short answer: ``0.5 · max(cos over all its texts) + 0.5 · max(cos(title), cos(short
answer))`` (a point that matches well counts, but an entry *about* the query ranks first).

The embedding matrix (float16, about 3 700 × 384) takes tens of seconds of CPU to compute, so
it is computed once per bank content and model and kept in the cache directory
(``<cache>/search/<digest>.npz``, written atomically); the digest covers every text, its owner
and the model's name. Only :meth:`DenseIndex.build` needs the model (it imports torch): the
grader's worker process builds it and answers queries (:mod:`torchdojo.grading.worker`), so the
web process never imports torch.

Shapes: ``matrix`` (n_texts, 384) float16, rows L2-normalised; ``owner`` (n_texts,) int32
(the entry's position in ``ids``); ``kind`` (n_texts,) int8 (0 title, 1 short answer, 2 key
point).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from torchdojo.bank.loader import Bank

MODEL_NAME = "all-MiniLM-L6-v2"
TITLE, SHORT, KEY_POINT = 0, 1, 2


def entry_texts(bank: Bank) -> tuple[list[str], list[str], list[int], list[int]]:
    """(entry ids, texts, owner of each text, kind of each text) in bank order."""
    ids, texts, owner, kind = [], [], [], []
    for n, e in enumerate(bank):
        ids.append(e.id)
        parts = [(e.meta.title, TITLE), (e.meta.short_answer, SHORT)]
        parts += [(k.text, KEY_POINT) for k in e.meta.key_points]
        for text, k in parts:
            if text and text.strip():
                texts.append(text.strip())
                owner.append(n)
                kind.append(k)
    return ids, texts, owner, kind


def digest(ids: list[str], texts: list[str], owner: list[int], kind: list[int]) -> str:
    """SHA-256 (hex, 24 chars) of the model name and every (owner id, kind, text)."""
    h = hashlib.sha256(MODEL_NAME.encode())
    for t, o, k in zip(texts, owner, kind, strict=True):
        h.update(f"\0{ids[o]}\0{k}\0{t}".encode())
    return h.hexdigest()[:24]


class DenseIndex:
    """Entry embeddings and query ranking (numpy only; see the module doc)."""

    def __init__(self, ids: list[str], matrix: np.ndarray, owner: np.ndarray, kind: np.ndarray) -> None:
        self.ids = ids
        self.matrix = matrix.astype(np.float32)
        self.owner = owner.astype(np.int64)
        self.kind = kind.astype(np.int8)
        self._head = np.isin(self.kind, (TITLE, SHORT))
        # Texts are stored entry by entry (owner is non-decreasing, every entry has a title), so a
        # per-entry max is one reduceat over the first row of each entry.
        if len(self.owner) and (np.any(np.diff(self.owner) < 0) or len(np.unique(self.owner)) != len(ids)):
            raise ValueError("dense index rows must be grouped by entry, every entry with at least one text")
        self._starts = np.flatnonzero(np.r_[True, np.diff(self.owner) != 0]) if len(self.owner) else self.owner

    @classmethod
    def build(cls, bank: Bank, encode: Callable[[list[str]], np.ndarray], cache_dir: Path | None) -> DenseIndex:
        """Load the cached matrix for this bank, or compute it with ``encode`` (texts → (n, 384)
        float32, L2-normalised rows) and cache it. A damaged cache file is recomputed."""
        ids, texts, owner, kind = entry_texts(bank)
        path = None if cache_dir is None else Path(cache_dir) / "search" / f"{digest(ids, texts, owner, kind)}.npz"
        if path is not None and path.exists():
            try:
                with np.load(path) as z:
                    matrix = z["matrix"]
                if matrix.shape == (len(texts), matrix.shape[1]):
                    return cls(ids, matrix, np.asarray(owner), np.asarray(kind))
            except (OSError, ValueError, KeyError):
                pass  # damaged: recompute
        matrix = np.asarray(encode(texts), dtype=np.float32)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    np.savez(f, matrix=matrix.astype(np.float16))
                os.replace(tmp, path)
            except OSError:
                Path(tmp).unlink(missing_ok=True)
        return cls(ids, matrix, np.asarray(owner), np.asarray(kind))

    def rank(self, query_vec: np.ndarray, k: int = 100) -> list[tuple[str, float]]:
        """Entries best first for one query embedding (384,) float32: (entry id, score), where
        the score blends the best text and the best of title/short answer (module doc)."""
        if not len(self.ids):
            return []
        cos = self.matrix @ np.asarray(query_vec, dtype=np.float32).reshape(-1)
        best = np.maximum.reduceat(cos, self._starts)
        head = np.maximum.reduceat(np.where(self._head, cos, -1.0), self._starts)
        score = 0.5 * best + 0.5 * head
        top = np.argsort(-score)[:k]
        return [(self.ids[i], float(score[i])) for i in top]
