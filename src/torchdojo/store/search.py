"""Search over the bank: BM25 (SQLite FTS5) fused with dense retrieval (MiniLM), typo-tolerant.

People type keywords, natural questions ("why does my loss become nan after a few hundred
steps"), pasted error messages with their own shapes and numbers, typos ("zero grda"), other
words than the entry uses ("share the embedding matrix with the output layer") and API names.
One path answers all of them:

1. **Lexical** (:class:`SearchIndex`, this module, no torch): an in-memory FTS5 index (porter
   stemmer over unicode61) with columns title 10, short answer 5, key points 3, key-point
   phrasings 2 (the bank's own paraphrases of every point: its synonyms), body 1 (bm25 weights).
   The query is cut into words (:func:`analyse`): numbers, shapes (``64x7200``), device
   indices and hex addresses are dropped (an error message matches by its stable part), stop
   words are dropped, and every remaining word is an OR'ed prefix term, so an entry matching
   more (and rarer) words ranks higher and a long question still finds something. A word the
   bank never uses is corrected to the nearest bank word (optimal string alignment distance 1,
   or 2 from 7 letters, via rapidfuzz; ties go to the more frequent word), and the corrected
   query is offered as "did you mean".
2. **Dense** (optional, :mod:`torchdojo.store.dense`): the query's MiniLM embedding against
   embeddings of every entry's title, short answer and key points, precomputed and
   cached by digest; computed in the grader's worker process, so the web process never imports
   torch. When the model is loading or busy, the lexical ranking answers alone.
3. **Fusion**: reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009,
   https://doi.org/10.1145/1571941.1572114), ``Σ w / (k + rank)`` with ``k = 60``.

The figures (recall@k, MRR, zero-result share per kind of query, latency) are measured by
``bench/search.py`` on a query set written apart from this code (``bench/search_frozen``), next
to BM25 alone and the former all-words search.

Cost is linear in the text: matching and bm25 are FTS5's; the snippet is cut here
(:func:`make_snippet`, one regex pass over at most the fields up to the first hit), not by
FTS5's ``snippet()``, whose cost grows with the square of the number of hits in a column
(3.6 s for one 1 MB body, measured). Entries are capped in size by the bank validator.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import OSA

from torchdojo.bank.loader import Bank

#: Private-use characters mark highlights in snippets; the faces turn them into markup.
HL_START, HL_END = "\ue000", "\ue001"

#: A dense ranker: query text → [(entry id, cosine)] best first, or None when unavailable now.
DenseRanker = Callable[[str], "Sequence[tuple[str, float]] | None"]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)  # what FTS5's unicode61 keeps as one token
#: Tokens that carry no meaning in a pasted error: numbers, shapes, indices, addresses.
_NOISE = re.compile(r"^(?:\d+(?:x\d+)*|0x[0-9a-f]+|\d+[a-z]{1,3}|[a-z])$")
#: Words too common in questions to help (English function words and question words).
STOP_WORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between
both but by can cannot could did do does doing done down during each either else even ever every few for
from further get gets getting got had has have having he her here hers him his how however i if in into is
it its itself just let lets like me might more most much must my myself need needs no nor not now of off
often on once one only or other our ours out over own per please same shall she should so some such than
that the their theirs them then there these they this those through thus to too under until up upon us
use used uses using very via vs want was we well were what whats when where whether which while who whom
whose why will with within without would yes yet you your yours yourself
""".split())

RRF_K = 60


class Hit:
    """One search result: entry id, fused score (higher is better) and a highlighted snippet
    (cut on first use: a page shows 50 of possibly hundreds of hits)."""

    __slots__ = ("entry_id", "score", "_fields", "_words", "_snippet")

    def __init__(self, entry_id: str, score: float, fields: tuple[str, ...] = (), words: Sequence[str] = (),
                 snippet: str | None = None) -> None:
        self.entry_id, self.score = entry_id, score
        self._fields, self._words, self._snippet = fields, list(words), snippet

    @property
    def snippet(self) -> str:
        if self._snippet is None:
            self._snippet = make_snippet(self._fields, self._words) if self._fields else ""
        return self._snippet

    def __repr__(self) -> str:
        return f"Hit({self.entry_id!r}, {self.score:.4f})"


@dataclass(frozen=True)
class SearchResult:
    """Hits best first; ``did_you_mean``: the query with its unknown words corrected (None when
    every word was known); ``mode``: "hybrid" (BM25 + dense) or "lexical" (BM25 alone)."""

    hits: list[Hit]
    did_you_mean: str | None = None
    corrections: dict[str, str] = field(default_factory=dict)
    mode: str = "lexical"


def analyse(text: str) -> list[str]:
    """The meaningful words of a query, lower-cased, in order, without duplicates: FTS5-style
    tokens minus stop words and noise (numbers, shapes like ``64x7200``, ``0x7f…``, single
    letters). ``"RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x7200 and 512x10)"``
    → ``['runtimeerror', 'mat1', 'mat2', 'shapes', 'multiplied']``."""
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        if w in STOP_WORDS or _NOISE.match(w) or len(w) > 60:
            continue
        if w not in out:
            out.append(w)
    return out


def query_words(text: str) -> list[str]:
    """The words of a query used for highlighting snippets (as :func:`analyse`)."""
    return analyse(text)


def make_snippet(fields: tuple[str, ...], words: list[str], width: int = 160) -> str:
    """About ``width`` characters around the first hit of any query word (fields searched in
    order: title, short answer, key points, body), hits wrapped in :data:`HL_START`/:data:`HL_END`.

    A word matches as a prefix of a word in the text; words of 5 or more letters also match
    without their last two letters, so "gradients" highlights "gradient" as the porter stemmer
    matched it. One regex scan: linear in the text before the hit."""
    stems = sorted({(w[:-2] if len(w) >= 5 else w).lower() for w in words}, key=len, reverse=True)
    pattern = (re.compile(r"(?<![^\W_])(?:" + "|".join(re.escape(w) for w in stems) + r")\w*", re.IGNORECASE)
               if stems else None)
    m = None
    for text in fields:
        m = pattern.search(text) if pattern else None
        if m:
            break
    else:
        text = fields[1] if len(fields) > 1 and fields[1] else fields[0]
    start = 0 if m is None or len(text) <= width else max(0, m.start() - width // 3)
    end = min(len(text), start + width)
    if start > 0:  # cut at word boundaries
        sp = text.find(" ", start)
        start = sp + 1 if 0 <= sp < (m.start() if m else end) else start
    if end < len(text):
        sp = text.rfind(" ", start, end)
        end = sp if sp > (m.end() if m else start) else end
    window = text[start:end].replace("\n", " ")
    if pattern:
        window = pattern.sub(lambda h: f"{HL_START}{h.group(0)}{HL_END}", window)
    return ("… " if start > 0 else "") + window + (" …" if end < len(text) else "")


def to_fts_query(words: Sequence[str]) -> str | None:
    """A safe FTS5 query: every word a quoted term (a prefix term from 3 letters), OR'ed.

    ``["view", "reshape"]`` → ``"view"* OR "reshape"*``. User text never reaches FTS5 as
    syntax. None when no word remains."""
    terms = ['"' + w.replace('"', '""') + '"' + ("*" if len(w) >= 3 else "") for w in words if w]
    return " OR ".join(terms) if terms else None


def rrf(rankings: Sequence[tuple[Sequence[str], float]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists, each with a weight: ``Σ w / (k + rank)``
    (rank from 1). Returns (id, fused score) best first; ties keep the first list's order."""
    score: dict[str, float] = {}
    for ids, weight in rankings:
        for rank, i in enumerate(ids, 1):
            score[i] = score.get(i, 0.0) + weight / (k + rank)
    return sorted(score.items(), key=lambda kv: -kv[1])


class SearchIndex:
    """An in-memory FTS5 index over a :class:`Bank`, plus its vocabulary for typo correction.
    Thread-safe (one lock around SQLite; queries take milliseconds)."""

    #: Weights of the two rankings in the fusion, and how deep the dense one is read (the
    #: lexical one is read whole: every entry that matches a word is a result).
    LEXICAL_WEIGHT, DENSE_WEIGHT, DEPTH = 1.0, 1.0, 100
    #: Below this cosine a dense-only result is dropped (so gibberish finds nothing).
    DENSE_FLOOR = 0.30

    def __init__(self, bank: Bank) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE entries USING fts5("
            "id UNINDEXED, title, short_answer, key_points, phrasings, body, tokenize='porter unicode61')"
        )
        self._fields: dict[str, tuple[str, str, str, str]] = {}
        rows = []
        vocab: Counter[str] = Counter()
        for e in bank:
            kps = "\n".join(k.text for k in e.meta.key_points)
            phr = "\n".join(p for k in e.meta.key_points for p in (k.phrasings or []))
            self._fields[e.id] = (e.meta.title, e.meta.short_answer, kps, e.body)
            rows.append((e.id, e.meta.title, e.meta.short_answer, kps, phr, e.body))
            for text in (e.meta.title, e.meta.short_answer, kps, phr, e.body, e.id.replace("-", " ")):
                vocab.update(_WORD.findall(text.lower()))
        self._db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)", rows)
        self._db.commit()
        self.vocabulary: Counter[str] = Counter({w: n for w, n in vocab.items() if not _NOISE.match(w)})
        self._vocab_list = list(self.vocabulary)

    # -- typo correction ----------------------------------------------------------------------
    def correct(self, word: str) -> str | None:
        """The bank word closest to ``word`` when the bank never uses ``word`` (None: known, too
        short, or nothing close). Distance: optimal string alignment (a swap of two neighbouring
        letters counts 1), at most 1, or 2 for words of 7 letters or more."""
        if word in self.vocabulary or len(word) < 4 or word.isdigit():
            return None
        limit = 2 if len(word) >= 7 else 1
        found = process.extract(word, self._vocab_list, scorer=OSA.distance, score_cutoff=limit, limit=20)
        if not found:
            return None
        return min(found, key=lambda c: (c[1], -self.vocabulary[c[0]], c[0]))[0]

    # -- ranking ------------------------------------------------------------------------------
    def lexical(self, words: Sequence[str], limit: int = 100) -> list[tuple[str, float]]:
        """BM25 over the OR of ``words``: (entry id, bm25) best first (bm25: lower is better)."""
        query = to_fts_query(words)
        if query is None:
            return []
        sql = ("SELECT id, bm25(entries, 0.0, 10.0, 5.0, 3.0, 2.0, 1.0) AS score "
               "FROM entries WHERE entries MATCH ? ORDER BY score LIMIT ?")
        with self._lock:
            return [(r[0], r[1]) for r in self._db.execute(sql, (query, limit)).fetchall()]

    def query(self, text: str, limit: int = 50, dense: DenseRanker | None = None,
              allowed: Callable[[str], bool] | None = None) -> SearchResult:
        """Search: see the module doc. ``dense`` (optional) ranks by embedding; when it is None
        or returns None the lexical ranking answers alone (``mode`` says which). ``allowed``
        (optional): only entry ids it accepts are ranked (filters apply before the cut-offs)."""
        words = analyse(text[:1000])
        corrections = {w: c for w in words if (c := self.correct(w))}
        terms = list(dict.fromkeys(t for w in words for t in (w, corrections.get(w)) if t))
        ok = (lambda i: i in self._fields) if allowed is None else (lambda i: i in self._fields and allowed(i))
        lexical = [i for i, _ in self.lexical(terms, len(self._fields)) if ok(i)]
        ranked_dense = dense(text[:1000]) if dense is not None and text.strip() else None
        if ranked_dense is None:
            fused = [(i, 1.0 / (RRF_K + r)) for r, i in enumerate(lexical, 1)]
            mode = "lexical"
        else:
            matched = set(lexical)
            kept = [i for i, cos in ranked_dense if ok(i) and (cos >= self.DENSE_FLOOR or i in matched)]
            fused = rrf([(lexical, self.LEXICAL_WEIGHT), (kept[: self.DEPTH], self.DENSE_WEIGHT)])
            mode = "hybrid"
        fused = fused[:limit]
        hl = [corrections.get(w, w) for w in words]
        hits = [Hit(i, s, self._fields[i], hl) for i, s in fused]
        did_you_mean = None
        if corrections:
            did_you_mean = _replace_words(text, corrections)
        return SearchResult(hits, did_you_mean, corrections, mode)

    def search(self, text: str, limit: int = 50, dense: DenseRanker | None = None) -> list[Hit]:
        """The hits of :meth:`query`, best first."""
        return self.query(text, limit, dense).hits


def _replace_words(text: str, corrections: dict[str, str]) -> str:
    """``text`` with each corrected word replaced (case-insensitive, whole words)."""
    def sub(m: re.Match[str]) -> str:
        return corrections.get(m.group(0).lower(), m.group(0))
    return _WORD.sub(sub, text)
