"""Full-text search over the bank with SQLite FTS5 (explicitly SQLite-specific).

The index is derived data: it is built in memory from the loaded bank at start-up (a few
milliseconds for hundreds of entries), so it works whatever database holds user progress.
Ranking is FTS5's bm25 with column weights: title 10, short answer 5, key points 3, body 1.
User input is never passed to FTS5 as query syntax: each word becomes a quoted prefix term.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from dataclasses import dataclass

from torchdojo.bank.loader import Bank

_WORD = re.compile(r"[\w.]+", re.UNICODE)
#: Private-use characters mark highlights in snippets; the faces turn them into markup.
HL_START, HL_END = "\ue000", "\ue001"


@dataclass(frozen=True)
class Hit:
    """One search result: entry id, bm25 score (lower is better) and a highlighted snippet."""

    entry_id: str
    score: float
    snippet: str


def to_fts_query(text: str) -> str | None:
    """Turn free text into a safe FTS5 query: every word a quoted prefix term, all required.

    ``"view() vs reshape"`` -> ``"view"* "vs"* "reshape"*``. Returns None when no word remains.
    """
    words = [w.strip(".") for w in _WORD.findall(text)]
    words = [w for w in words if w]
    if not words:
        return None
    return " ".join('"' + w.replace('"', '""') + '"*' for w in words)


class SearchIndex:
    """An in-memory FTS5 index over a :class:`Bank`. Thread-safe (one lock, short queries)."""

    def __init__(self, bank: Bank) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE entries USING fts5("
            "id UNINDEXED, title, short_answer, key_points, body, tokenize='porter unicode61')"
        )
        self._db.executemany(
            "INSERT INTO entries VALUES (?, ?, ?, ?, ?)",
            [
                (e.id, e.meta.title, e.meta.short_answer, "\n".join(k.text for k in e.meta.key_points), e.body)
                for e in bank
            ],
        )
        self._db.commit()

    def search(self, text: str, limit: int = 50) -> list[Hit]:
        """Entries matching every word of ``text`` (prefixes allowed), best first."""
        query = to_fts_query(text)
        if query is None:
            return []
        sql = (
            "SELECT id, bm25(entries, 0.0, 10.0, 5.0, 3.0, 1.0) AS score, "
            f"snippet(entries, -1, '{HL_START}', '{HL_END}', ' … ', 16) "
            "FROM entries WHERE entries MATCH ? ORDER BY score LIMIT ?"
        )
        with self._lock:
            rows = self._db.execute(sql, (query, limit)).fetchall()
        return [Hit(entry_id=r[0], score=r[1], snippet=r[2]) for r in rows]
