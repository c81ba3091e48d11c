"""Search quality and latency: recall@1/5/10, MRR and zero-result share per kind of query.

    .venv/bin/python bench/search.py                         # the dev set (tuning data)
    .venv/bin/python bench/search.py --set bench/search_frozen/queries.yaml   # the frozen set

A query set is YAML: a list of ``{q, kind, relevant: [ids, best first]}``; kinds: keyword,
question, typo, error, vocabulary, api. ``recall@k`` here is the share of queries with at least
one relevant entry in the first k results (one query has one information need; most have one
right entry); MRR uses the first relevant entry's rank (0 if not in the first 50).

Rankers, side by side on the same queries: ``all-words`` (the search before issue 14: every
word required, prefix terms, bm25), ``bm25`` (the new lexical half alone: OR, stop words, noise
removal, typo correction), ``dense`` (MiniLM alone) and ``hybrid`` (what the faces use).
Latency: the hybrid search as the web app runs it (dense half in the grader's worker process,
over its pipe), p50/p95 over every query after a warm-up, next to the lexical half alone in the
same run (this machine is shared: read the ratio).

The frozen set (``bench/search_frozen/``) was written by someone who never saw the code; its
digest is checked by the tests. Tune only on the dev set (``bench/search_queries/dev.yaml``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

KINDS = ("keyword", "question", "typo", "error", "vocabulary", "api")


def load_queries(path: Path, bank_ids: set[str]) -> list[dict]:
    items = yaml.safe_load(path.read_text())
    out = []
    for n, it in enumerate(items, 1):
        if not isinstance(it, dict) or not isinstance(it.get("q"), str) or it.get("kind") not in KINDS:
            raise SystemExit(f"{path}: item {n}: needs q (text) and kind (one of {', '.join(KINDS)})")
        rel = it.get("relevant") or []
        missing = [r for r in rel if r not in bank_ids]
        if not rel or missing:
            raise SystemExit(f"{path}: item {n} ({it['q']!r}): relevant ids not in the bank: {missing or 'none given'}")
        out.append(it)
    return out


def all_words(index, text: str) -> list[str]:
    """The former search: every word a required prefix term (before issue 14)."""
    import re

    words = [w.strip(".") for w in re.findall(r"[\w.]+", text)]
    words = [w for w in words if w]
    if not words:
        return []
    q = " ".join('"' + w.replace('"', '""') + '"*' for w in words)
    sql = ("SELECT id FROM entries WHERE entries MATCH ? "
           "ORDER BY bm25(entries, 0.0, 10.0, 5.0, 3.0, 0.0, 1.0) LIMIT 50")
    try:
        return [r[0] for r in index._db.execute(sql, (q,)).fetchall()]
    except Exception:
        return []


def score(queries: list[dict], ranked: list[list[str]]) -> dict[str, dict[str, float]]:
    """Per kind and overall: n, recall@1/5/10, MRR, zero-result share."""
    rows: dict[str, list[tuple[int | None, bool]]] = {}
    for q, ids in zip(queries, ranked, strict=True):
        rel = set(q["relevant"])
        rank = next((r for r, i in enumerate(ids[:50], 1) if i in rel), None)
        for key in (q["kind"], "all"):
            rows.setdefault(key, []).append((rank, not ids))
    out = {}
    for key, rs in rows.items():
        n = len(rs)
        out[key] = {
            "n": n,
            "r@1": sum(1 for r, _ in rs if r and r <= 1) / n,
            "r@5": sum(1 for r, _ in rs if r and r <= 5) / n,
            "r@10": sum(1 for r, _ in rs if r and r <= 10) / n,
            "mrr": sum(1 / r for r, _ in rs if r) / n,
            "zero": sum(1 for _, z in rs if z) / n,
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", type=Path, default=ROOT / "bench" / "search_queries" / "dev.yaml")
    ap.add_argument("--no-latency", action="store_true", help="skip the worker latency run")
    ap.add_argument("--misses", action="store_true", help="print the hybrid ranker's misses at 5")
    args = ap.parse_args()

    from torchdojo.bank.loader import load_bank
    from torchdojo.grading.model import Encoder
    from torchdojo.settings import Settings
    from torchdojo.store.dense import DenseIndex
    from torchdojo.store.search import SearchIndex

    settings = Settings()
    bank = load_bank(settings.bank_dir)
    queries = load_queries(args.set, {e.id for e in bank})
    index = SearchIndex(bank)
    enc = Encoder()
    t0 = time.perf_counter()
    dense_index = DenseIndex.build(bank, enc.encode, settings.cache_dir)
    print(f"dense index: {len(dense_index.matrix)} texts, ready in {time.perf_counter() - t0:.1f} s "
          f"(model load + embeddings, or the cache)")
    qvecs = enc.encode([q["q"] for q in queries])

    def dense_of(n):
        return lambda _text: dense_index.rank(qvecs[n])

    results = {
        "all-words": [all_words(index, q["q"]) for q in queries],
        "bm25": [[h.entry_id for h in index.search(q["q"])] for q in queries],
        "dense": [[i for i, c in dense_index.rank(qvecs[n])[:50] if c >= index.DENSE_FLOOR]
                  for n in range(len(queries))],
        "hybrid": [[h.entry_id for h in index.search(q["q"], dense=dense_of(n))] for n, q in enumerate(queries)],
    }
    print(f"\n{args.set} — {len(queries)} queries")
    header = f"{'kind':<11}{'n':>4}  " + "  ".join(f"{name:>28}" for name in results)
    print(header)
    print(f"{'':<17}" + "  ".join(f"{'r@1  r@5  r@10  MRR  zero':>28}" for _ in results))
    scores = {name: score(queries, ranked) for name, ranked in results.items()}
    for kind in (*KINDS, "all"):
        if kind not in scores["hybrid"]:
            continue
        n = scores["hybrid"][kind]["n"]
        cells = []
        for name in results:
            s = scores[name][kind]
            cells.append(f"{s['r@1']:.2f} {s['r@5']:.2f} {s['r@10']:.2f} {s['mrr']:.2f} {s['zero']:.2f}")
        print(f"{kind:<11}{n:>4}  " + "  ".join(f"{c:>28}" for c in cells))

    if args.misses:
        print("\nhybrid misses at 5:")
        for q, ids in zip(queries, results["hybrid"], strict=True):
            if not set(q["relevant"]) & set(ids[:5]):
                print(f"  [{q['kind']}] {q['q']!r} want {q['relevant'][0]} got {ids[:3]}")

    if not args.no_latency:
        from torchdojo.grading.worker import GraderProcess

        with tempfile.TemporaryDirectory():
            proc = GraderProcess(settings, bank)
            proc.start()
            if not proc.wait_ready(300) or not proc.dense_ready(300):
                print(f"worker not ready: {proc.status}")
                return 1
            for q in queries[:10]:  # warm-up
                index.search(q["q"], dense=proc.dense_search)
            hybrid, lexical = [], []
            for q in queries:
                t = time.perf_counter()
                res = index.query(q["q"], dense=proc.dense_search)
                hybrid.append((time.perf_counter() - t) * 1000)
                if res.mode != "hybrid":
                    print(f"warning: answered lexically ({q['q']!r})")
                t = time.perf_counter()
                index.query(q["q"])
                lexical.append((time.perf_counter() - t) * 1000)
            proc.close()

        def pct(xs, p):
            return statistics.quantiles(xs, n=100)[p - 1]

        print(f"\nlatency, warm, {len(queries)} queries: hybrid p50 {statistics.median(hybrid):.1f} ms, "
              f"p95 {pct(hybrid, 95):.1f} ms; lexical alone p50 {statistics.median(lexical):.1f} ms, "
              f"p95 {pct(lexical, 95):.1f} ms; ratio of p95 {pct(hybrid, 95) / pct(lexical, 95):.1f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
