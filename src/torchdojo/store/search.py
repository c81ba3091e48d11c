"""Full-text search over the bank with SQLite FTS5 (explicitly SQLite-specific).

The index is derived data: it is built in memory from the loaded bank at start-up (a few
milliseconds for hundreds of entries), so it works whatever database holds user progress.
Ranking is FTS5's bm25 with column weights: title 10, short answer 5, key points 3, body 1.
User input is never passed to FTS5 as query syntax: each word becomes a quoted prefix term.

Cost is linear in the text: matching and bm25 are FTS5's (linear); the snippet is cut here
(:func:`make_snippet`, one regex pass over at most the fields up to the first hit), not by
FTS5's ``snippet()``, whose cost grows with the square of the number of hits in a column
(3.6 s for one 1 MB body, measured). Entries are capped in size by the bank validator.
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


def query_words(text: str) -> list[str]:
    """The words of a query, as :func:`to_fts_query` reads them."""
    return [w for w in (w.strip(".") for w in _WORD.findall(text)) if w]


def make_snippet(fields: tuple[str, ...], words: list[str], width: int = 160) -> str:
    """About ``width`` characters around the first hit of any query word (fields searched in
    order: title, short answer, key points, body), hits wrapped in :data:`HL_START`/:data:`HL_END`.

    A word matches as a prefix of a word in the text; words of 5 or more letters also match
    without their last two letters, so "gradients" highlights "gradient" as the porter stemmer
    matched it. One regex scan: linear in the text before the hit."""
    stems = sorted({(w[:-2] if len(w) >= 5 else w).lower() for w in words}, key=len, reverse=True)
    if not stems:
        return ""
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in stems) + r")\w*", re.IGNORECASE)
    for text in fields:
        m = pattern.search(text)
        if m:
            break
    else:
        text, m = fields[0], None
    start = 0 if m is None or len(text) <= width else max(0, m.start() - width // 3)
    end = min(len(text), start + width)
    if start > 0:  # cut at word boundaries
        sp = text.find(" ", start)
        start = sp + 1 if 0 <= sp < (m.start() if m else end) else start
    if end < len(text):
        sp = text.rfind(" ", start, end)
        end = sp if sp > (m.end() if m else start) else end
    window = text[start:end].replace("\n", " ")
    window = pattern.sub(lambda h: f"{HL_START}{h.group(0)}{HL_END}", window)
    return ("… " if start > 0 else "") + window + (" …" if end < len(text) else "")


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
        self._fields = {
            e.id: (e.meta.title, e.meta.short_answer, "\n".join(k.text for k in e.meta.key_points), e.body)
            for e in bank
        }
        self._db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?)",
                             [(i, *fields) for i, fields in self._fields.items()])
        self._db.commit()

    def search(self, text: str, limit: int = 50) -> list[Hit]:
        """Entries matching every word of ``text`` (prefixes allowed), best first."""
        query = to_fts_query(text)
        if query is None:
            return []
        sql = (
            "SELECT id, bm25(entries, 0.0, 10.0, 5.0, 3.0, 1.0) AS score "
            "FROM entries WHERE entries MATCH ? ORDER BY score LIMIT ?"
        )
        with self._lock:
            rows = self._db.execute(sql, (query, limit)).fetchall()
        words = query_words(text)
        return [Hit(entry_id=r[0], score=r[1], snippet=make_snippet(self._fields[r[0]], words)) for r in rows]
