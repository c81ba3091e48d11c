"""Benchmark the offline answer grader against the labelled set in ``bench/grader_eval``.

    python bench/grader.py            # figures on the dev half, the held-out half and all
    python bench/grader.py --tune     # grid-search thresholds on the DEV half only, print them
    python bench/grader.py --llm      # the LLM judge instead (TORCHDOJO_LLM_BASE_URL, _MODEL, _API_KEY)

Reports accuracy and quadratic weighted kappa over the four bands (0 wrong, 1 weak,
2 adequate, 3 excellent), the confusion matrix, figures per kind of answer, how many
negation/misconception answers got band 3 (target: none), the share marked uncertain, and
latency per answer with the model loaded, side by side with encoding every sentence and clause
of the same answers (a ratio: this machine is shared and noisy).

Folds: entries are split by a stable hash of their id into *dev* (thresholds were calibrated
there) and *held-out* (never used for calibration); the held-out figures are the honest ones.
QWK: Cohen (1968), weighted kappa with weights (i-j)^2/(k-1)^2.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from torchdojo.bank.loader import load_bank  # noqa: E402
from torchdojo.grading.rubric import DEFAULT, EmbeddingGrader, Params, score  # noqa: E402
from torchdojo.grading.text import units, words  # noqa: E402
from torchdojo.practice.scorecards import qwk  # noqa: E402  (one QWK: the bench and the agreement page)


def fold(entry_id: str) -> str:
    return "dev" if hashlib.sha256(entry_id.encode()).digest()[0] % 2 == 0 else "held-out"


def _acc(pairs) -> float:
    return sum(a == b for a, b in pairs) / len(pairs) if pairs else float("nan")


def metrics(rows: list[tuple[dict, object]]) -> dict:
    y = [r["score"] for r, _ in rows]
    p = [fb.band for _, fb in rows]
    conf = [(a, b) for (r, fb), a, b in zip(rows, y, p, strict=True) if not fb.uncertain]
    unc = [(a, b) for (r, fb), a, b in zip(rows, y, p, strict=True) if fb.uncertain]
    right = [fb.band for r, fb in rows if r["kind"] in ("strong", "paraphrase")]
    flawed = [fb.band for r, fb in rows if r["kind"] in ("negation", "misconception")]
    return {
        "n": len(rows),
        "acc": _acc(list(zip(y, p, strict=True))),
        "qwk": qwk(y, p),
        "within1": sum(abs(a - b) <= 1 for a, b in zip(y, p, strict=True)) / max(1, len(rows)),
        "uncertain": sum(fb.uncertain for _, fb in rows) / max(1, len(rows)),
        "acc_confident": _acc(conf),
        "acc_uncertain": _acc(unc),
        "flawed_as_3": sum(b == 3 for b in flawed),
        "flawed_as_23": sum(b >= 2 for b in flawed),
        "n_flawed": len(flawed),
        "right_as_0": sum(b == 0 for b in right),
        "n_right": len(right),
    }


def confusion(rows) -> np.ndarray:
    c = np.zeros((4, 4), dtype=int)
    for r, fb in rows:
        c[r["score"], fb.band] += 1
    return c


@dataclass(frozen=True)
class Band:
    """A prediction with no grader behind it (the length baseline): what :func:`metrics` reads."""

    band: int
    uncertain: bool = False


def n_words(text: str) -> int:
    return len(words(text))


def fit_length(rows: list[dict]) -> tuple[int, int, int]:
    """The answer-length baseline: thresholds t1 <= t2 <= t3 on the word count (band = how many
    of them the answer reaches), the best accuracy + QWK over ``rows`` (the dev fold)."""
    if not rows:
        return (10**9,) * 3
    n = np.array([n_words(r["answer"]) for r in rows])
    y = [r["score"] for r in rows]
    cands = sorted(set(np.quantile(n, np.linspace(0, 1, 41)).round().astype(int).tolist()) | {int(n.max()) + 1})
    best, best_t = -9.0, (cands[-1],) * 3
    for t in itertools.combinations_with_replacement(cands, 3):
        p = ((n[:, None] >= np.array(t)[None, :]).sum(1)).tolist()
        obj = qwk(y, p) + _acc(list(zip(y, p, strict=True)))
        if obj > best:
            best, best_t = obj, t
    return best_t


def length_band(text: str, t: tuple[int, int, int]) -> int:
    k = n_words(text)
    return sum(k >= x for x in t)


def fmt(m: dict, base: dict | None = None) -> str:
    """One answer-level line; with ``base`` (the length baseline on the same answers) beside."""
    def two(key: str, f: str = ".3f") -> str:
        v = format(m[key], f)
        return f"{v} (length {format(base[key], f)})" if base else v
    return (f"accuracy {two('acc')}   QWK {two('qwk')}   within ±1 {two('within1')}   "
            f"uncertain {m['uncertain']:.1%} (accuracy confident {m['acc_confident']:.3f} vs "
            f"uncertain {m['acc_uncertain']:.3f})\n"
            f"   strong/paraphrase in band 0: {m['right_as_0']} of {m['n_right']}"
            + (f" (length {base['right_as_0']})" if base else "")
            + f"   negation/misconception in band 3: {m['flawed_as_3']}, in bands 2-3: {m['flawed_as_23']}"
            f" of {m['n_flawed']}" + (f" (length {base['flawed_as_3']}, {base['flawed_as_23']})" if base else ""))


KINDS = ("strong", "paraphrase", "spoken", "partial", "misconception", "negation", "keyword-stuffing",
         "off-topic", "verbose-vague")


def show(title: str, rows, length: list | None = None) -> None:
    """Figures for ``rows`` (label row, Feedback); ``length``: the baseline's rows for the same answers."""
    m = metrics(rows)
    base = metrics(length) if length else None
    print(f"\n== {title}: {m['n']} answers")
    print("   " + fmt(m, base))
    c = confusion(rows)
    print("   confusion (rows: label 0-3, columns: predicted band 0-3)")
    for i in range(4):
        print(f"     {i}: " + " ".join(f"{v:4d}" for v in c[i]))
    by = defaultdict(list)
    for n, (r, _) in enumerate(rows):
        by[r["kind"]].append(n)
    print(f"   {'kind':18s} {'n':>3s} {'acc':>6s} {'length':>6s} {'unc':>5s} {'labels':>14s} {'predicted':>22s}")
    for kind in [*KINDS, *sorted(set(by) - set(KINDS))]:
        ns = by.get(kind, [])
        if not ns:
            continue
        rs = [rows[n] for n in ns]
        acc = sum(r["score"] == fb.band for r, fb in rs) / len(rs)
        lacc = sum(length[n][0]["score"] == length[n][1].band for n in ns) / len(ns) if length else float("nan")
        unc = sum(fb.uncertain for _, fb in rs) / len(rs)
        lab = Counter(r["score"] for r, _ in rs)
        pred = Counter(fb.band for _, fb in rs)
        print(f"   {kind:18s} {len(rs):3d} {acc:6.2f} {lacc:6.2f} {unc:5.2f} {dict(sorted(lab.items()))!s:>14s} "
              f"{dict(sorted(pred.items()))!s:>22s}")
    show_marks(rows)


def _pr(tp: int, fp: int, fn: int) -> str:
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    return f"precision {p:.3f} recall {r:.3f} (tp {tp}, fp {fp}, fn {fn})"


#: The per-key-point length baseline's threshold (words), fitted by :func:`fit_kp_length`.
KP_LENGTH: list[int] = []


def fit_kp_length(rows: list[dict]) -> int | None:
    """The per-key-point answer-length baseline: every point of an answer of at least ``t`` words
    is "covered", none otherwise; ``t`` the best accuracy of covered-or-not over the marked points
    of ``rows`` (the dev fold). None when no row has marks."""
    pts = [(n_words(r["answer"]), m == "covered") for r in rows for m in (r.get("marks") or {}).values()]
    if not pts:
        return None
    n = np.array([a for a, _ in pts])
    y = np.array([b for _, b in pts])
    cands = sorted(set(n.tolist()) | {int(n.max()) + 1})
    return max(cands, key=lambda t: ((n >= t) == y).mean())


def show_marks(rows) -> None:
    """Per-key-point figures where the set marks each point covered | missed | reversed, and
    misconception detection where it says ``misconception_stated``; "covered" also for the
    per-key-point length baseline (:data:`KP_LENGTH`), and "reversed" beside its base rate."""
    marked = [(r, fb) for r, fb in rows if r.get("marks")]
    if not marked:
        return
    t = KP_LENGTH[0] if KP_LENGTH else None
    base = Counter()
    cnt = Counter()
    kp_ok = {True: [], False: []}  # per key point: grader's uncertain flag -> status right?
    for r, fb in marked:
        got = {k.id: k for k in fb.key_points}
        for kid, mark in r["marks"].items():
            k = got.get(kid)
            if k is None:
                continue
            for name, want, status in (("covered", "covered", "hit"), ("reversed", "reversed", "contradicted")):
                cnt[name, mark == want, k.status == status] += 1
            if t is not None:
                base[mark == "covered", n_words(r["answer"]) >= t] += 1
            expect = {"covered": "hit", "reversed": "contradicted"}.get(mark, "missed")
            kp_ok[bool(getattr(k, "uncertain", False))].append(k.status == expect)
    print(f"   key points marked: {sum(len(r['marks']) for r, _ in marked)} in {len(marked)} answers")
    for name in ("covered", "reversed"):
        print(f"     {name:9s} " + _pr(cnt[name, True, True], cnt[name, False, True], cnt[name, True, False]))
        if name == "covered" and t is not None:
            print(f"     {'':9s} length baseline (every point covered from {t} words): "
                  + _pr(base[True, True], base[False, True], base[True, False]))
    total = sum(v for (name, _, _), v in cnt.items() if name == "reversed")
    rev = sum(v for (name, want, _), v in cnt.items() if name == "reversed" and want)
    print(f"     {'':9s} marked reversed: {rev} of {total} points ({rev / max(1, total):.1%}: the precision of "
          "calling every point reversed)")
    for u, name in ((False, "confident"), (True, "uncertain")):
        xs = kp_ok[u]
        print(f"     key-point status right when {name}: " + (f"{sum(xs) / len(xs):.3f} of {len(xs)}" if xs else "-"))
    mc = [(bool(r["misconception_stated"]), bool(fb.misconceptions)) for r, fb in marked if "misconception_stated" in r]
    if mc:
        tp = sum(a and b for a, b in mc)
        print("     misconception stated: " + _pr(tp, sum(b and not a for a, b in mc), sum(a and not b for a, b in mc)))


def show_folds(rows, dev_title: str, held_out_title: str, length: tuple[int, int, int] | None = None) -> None:
    """:func:`show` for the dev fold, the held-out fold and all rows (a fold with no rows is
    skipped), with the answer-length baseline (thresholds ``length``) beside when given."""
    for title, f in ((dev_title, "dev"), (held_out_title, "held-out"), ("all", None)):
        sel = [x for x in rows if f is None or fold(x[0]["entry"]) == f]
        if sel:
            base = [(r, Band(length_band(r["answer"], length))) for r, _ in sel] if length else None
            show(title, sel, base)


def p50_p95(seconds: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds, of durations in seconds."""
    ms = sorted(x * 1000 for x in seconds)
    return statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]


GRID = {
    "cal": [0.0, 0.5, 1.0],
    "lo": [0.30, 0.35, 0.40],
    "hi": [0.70, 0.80],
    "rev_close": [0.5, 0.55],
    "rev_margin": [0.03, 0.06],
    "cap_contradictions": [1, 2],
    "vague_kp": [0.5, 0.55],
    "offtopic_kp": [0.5, 0.6],
}


def tune(entries, data, analyses) -> Params:
    dev = [(r, a) for r, a in zip(data, analyses, strict=True) if fold(r["entry"]) == "dev"]
    best, best_p = -1.0, DEFAULT
    keys = list(GRID)
    for values in itertools.product(*(GRID[k] for k in keys)):
        p = replace(DEFAULT, **dict(zip(keys, values, strict=True)))
        if p.hi <= p.lo:
            continue
        rows = [(r, score(entries[r["entry"]], a, p)) for r, a in dev]
        m = metrics(rows)
        obj = m["qwk"] + m["acc"] - 0.02 * m["flawed_as_23"] - 0.05 * m["right_as_0"]
        if obj > best:
            best, best_p = obj, p
    return best_p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tune", action="store_true", help="grid-search thresholds on the dev fold and print them")
    ap.add_argument("--set", default=str(ROOT / "bench/grader_eval/answers.yaml"))
    ap.add_argument("--llm", action="store_true",
                    help="benchmark the LLM judge configured by TORCHDOJO_LLM_* instead of the offline grader")
    args = ap.parse_args()

    bank = load_bank(ROOT / "bank")
    data = yaml.safe_load(Path(args.set).read_text())
    entries = {e.id: e for e in bank}
    missing = sorted({r["entry"] for r in data} - set(entries))
    if missing:
        raise SystemExit(f"the evaluation set names entries the bank does not have: {missing}")

    if args.llm:
        return bench_llm(entries, data)

    t0 = time.perf_counter()
    grader = EmbeddingGrader()
    grader.warm_up()
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for eid in sorted({r["entry"] for r in data}):
        grader._rubric(entries[eid])
    rubric_s = time.perf_counter() - t0
    print(f"model load {load_s:.1f} s; rubric embeddings for {len({r['entry'] for r in data})} entries "
          f"{rubric_s:.1f} s (once per entry, cached)")

    # latency: full grade (rubric cached) vs encoding every unit of the same answer, interleaved
    lat, enc = [], []
    analyses = []
    for r in data:
        e = entries[r["entry"]]
        texts = [u.text for u in units(r["answer"])]
        t0 = time.perf_counter()
        grader.encoder.encode(texts)
        enc.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        a = grader.analyse(e, r["answer"])
        score(e, a, grader.params)
        lat.append(time.perf_counter() - t0)
        analyses.append(a)

    if args.tune:
        p = tune(entries, data, analyses)
        print("\nbest on dev:", {k: getattr(p, k) for k in GRID})
        grader = grader.with_params(p)

    fbs = [score(entries[r["entry"]], a, grader.params) for r, a in zip(data, analyses, strict=True)]
    rows = list(zip(data, fbs, strict=True))
    t = fit_length([r for r in data if fold(r["entry"]) == "dev"])
    if (kt := fit_kp_length([r for r in data if fold(r["entry"]) == "dev"])) is not None:
        KP_LENGTH[:] = [kt]
    print(f"\nanswer-length baseline: band = thresholds reached among {t} words (best accuracy + QWK on the dev fold)")
    show_folds(rows, "dev fold (thresholds calibrated here)", "held-out fold (never used for calibration)", t)

    p50, p95 = p50_p95(lat)
    e50, _ = p50_p95(enc)
    print(f"\nlatency per answer (model loaded, rubric cached), {len(lat)} answers: p50 {p50:.1f} ms, "
          f"p95 {p95:.1f} ms; encoding every sentence and clause of the same answers (no grading) "
          f"p50 {e50:.1f} ms (ratio {p50 / e50:.2f}x: the grader sends only clauses through the model)")


def bench_llm(entries: dict, data: list[dict]) -> None:
    """The LLM judge on the same set: nothing to calibrate, so dev and held-out are both honest.
    Answers it failed to grade (unreachable endpoint, invalid reply, timeout) are counted and
    left out of the figures, with the first errors printed."""
    from torchdojo.grading.llm import LLMGrader
    from torchdojo.settings import Settings

    try:
        grader = LLMGrader.from_settings(Settings())
    except ValueError as e:
        raise SystemExit(str(e)) from None
    rows, failed, lat = [], [], []
    for r in data:
        t0 = time.perf_counter()
        fb = grader.grade(entries[r["entry"]], r["answer"])
        lat.append(time.perf_counter() - t0)
        (failed if fb.error else rows).append((r, fb))
    print(f"grader: {grader.name} at {grader.base_url}")
    print(f"not graded: {len(failed)} of {len(data)} answers")
    for r, fb in failed[:3]:
        print(f"   {r['entry']} ({r['kind']}): {fb.error}")
    show_folds(rows, "dev fold", "held-out fold", fit_length([r for r, _ in rows if fold(r["entry"]) == "dev"]))
    p50, p95 = p50_p95(lat)
    print(f"\nlatency per answer (one request each), {len(lat)} answers: p50 {p50:.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
