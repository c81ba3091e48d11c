"""Benchmark answer-out-loud transcription on synthetic speech (not a test; figures go in docs/speech.md).

    python bench/speech.py            # 100 bank short answers (default)
    python bench/speech.py --n 20     # fewer

Each answer (an entry's ``short_answer``, entries in id order) is first turned into what a
candidate would *say* (:func:`spoken_script`: Markdown removed, code names read as their words —
``zero_grad()`` → "zero grad", ``torch.utils.checkpoint`` → "torch utils checkpoint" — and symbols
read out: ``=`` → "equals", ``/`` → "over", ``e.g.`` → "for example"), because a reference that
keeps symbols the voice reads aloud, or drops words it says, charges the recogniser for the
text-to-speech's reading, not for its hearing. That script is synthesised by two Debian
text-to-speech engines, espeak-ng (en-us, 150 wpm) and flite (voice kal), and transcribed by the
real engine (:class:`torchdojo.speech.engine.WhisperEngine`, tiny.en int8, 2 threads) in three
conditions: clean with the vocabulary prompt, clean without it, and with white noise added at
10 dB SNR (numpy) with the prompt.

Reports:

- **word error rate** (jiwer) of the transcript against the script, both sides split into words
  the same way (code names into their words: the transcript's ``zero_grad`` and the script's
  "zero grad" are the same two words) and normalised by Whisper's English text normaliser (the
  ``whisper-normalizer`` package: the one the Whisper paper reports WER with — case, punctuation,
  spelled numbers → digits, British → American spelling);
- **recall of PyTorch terms**: the identifiers of the short answer (``IDENT_RE``, 3+ letters) whose
  words appear, in order, in the transcript after the spoken-form mapping;
- **real-time factor** (transcription seconds / audio seconds) and **model load time**;
- the embedding grader's **band agreement** between the typed answer and its transcript
  (espeak-ng, clean, prompt).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import wave
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from torchdojo.bank.loader import load_bank  # noqa: E402
from torchdojo.speech.engine import SAMPLE_RATE, WhisperEngine, decode  # noqa: E402
from torchdojo.speech.vocab import IDENT_RE, Vocabulary, _split  # noqa: E402

_SAY = [
    (r"e\.g\.", " for example "), (r"i\.e\.", " that is "), (r"\bvs\.?", " versus "), (r"\betc\.", " etcetera "),
    (r"\s*(?:→|->|⇒)\s*", " to "), (r"\s*(?:≈|~)\s*", " about "), (r"\s*≤\s*", " at most "), (r"\s*≥\s*", " at least "),
    (r"\s*(?:==|=)\s*", " equals "), (r"\s*!=\s*", " not equal to "), (r"\s*\+\s*", " plus "),
    (r"\s*[*×·]\s*", " times "), (r"\s+[−–-]\s+", " minus "),
    (r"(?<=[\w)])\s*/\s*(?=[\w(])", " over "), (r"(?<=\d)\s*[−–-]\s*(?=[\w(])", " minus "),
    (r"√", " square root of "), (r"\^", " to the power "), (r"%", " percent "), (r"&", " and "), (r"@", " at "),
]


_GREEK = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "η": "eta", "θ": "theta",
          "λ": "lambda", "μ": "mu", "σ": "sigma", "τ": "tau"}


def spoken_script(markdown: str) -> str:
    """What a candidate says for a short answer (see the module docstring): plain words, code names
    as their words, symbols read out, no Markdown."""
    text = re.sub(r"\*\*|__|`|\[|\]|[{}<>#|\\\"]", " ", markdown)
    text = re.sub(r"\(\)", "", text)
    for letter, name in _GREEK.items():
        text = text.replace(letter, f" {name} ")
    for pat, say in _SAY:
        text = re.sub(pat, say, text)
    text = re.sub(r"[()]", ", ", text)
    text = IDENT_RE.sub(lambda m: m.group(0) if m.group(0).isupper() else " ".join(_split(m.group(0))), text)
    text = re.sub(r"(?<=[a-z])_(?=[a-z])", " ", text)
    return re.sub(r"\s+", " ", text).strip(" ,")


_NORMALISER = None


def norm(text: str) -> str:
    """Both sides of the WER: code names split into their words, then Whisper's English normaliser."""
    global _NORMALISER
    if _NORMALISER is None:
        from whisper_normalizer.english import EnglishTextNormalizer

        _NORMALISER = EnglishTextNormalizer()
    text = IDENT_RE.sub(lambda m: m.group(0) if m.group(0).isupper() else " ".join(_split(m.group(0))), text)
    text = re.sub(r"(?<=\w)[_.](?=[a-zA-Z])", " ", text)
    return _NORMALISER(text)


def synth(tts: str, text: str, path: Path) -> None:
    if tts == "espeak-ng":
        cmd = ["espeak-ng", "-s", "150", "-v", "en-us", "-w", str(path), text]
    else:
        cmd = ["flite", "-voice", "kal", "-t", text, "-o", str(path)]
    subprocess.run(cmd, check=True, capture_output=True)


def noisy(path: Path, out: Path, snr_db: float = 10.0, seed: int = 0) -> None:
    samples, _ = decode(path, path.name, 3600)
    rng = np.random.default_rng(seed)
    power = float(np.mean(samples ** 2)) or 1e-8
    noise = rng.normal(0, np.sqrt(power / 10 ** (snr_db / 10)), samples.shape)
    mixed = np.clip(samples + noise, -1, 1)
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes((mixed * 32767).astype("<i2").tobytes())


def report(records: list[dict], load: float | None) -> None:
    """Print the table over ``records`` (one per answer × engine × condition)."""
    import jiwer

    n = len({r["id"] for r in records})
    print(f"answers: {n}; model load: {f'{load:.2f} s' if load is not None else 'not measured'}")
    print(f"{'tts':10} {'audio':6} {'prompt':6} {'WER':>6} {'term recall':>12} {'RTF':>6}")
    groups: dict = {}
    for r in records:
        groups.setdefault((r["tts"], r["cond"], r["prompt"]), []).append(r)
    for (tts, c, p), rs in groups.items():
        wer = jiwer.wer([r["ref"] for r in rs], [r["hyp"] or "<empty>" for r in rs])
        terms, found = sum(r["terms"] for r in rs), sum(r["found"] for r in rs)
        audio, secs = sum(r["audio"] for r in rs), sum(r["secs"] for r in rs)
        print(f"{tts:10} {c:6} {'yes' if p else 'no':6} {wer:6.1%} {found / max(terms, 1):12.1%} "
              f"{secs / audio if audio else float('nan'):6.3f}  ({len(rs)} answers, {terms} terms, {audio:.0f} s audio)")
    sys.stdout.flush()


def pick(bank, n: int) -> list:
    """``n`` entries with a short answer spread evenly over the bank (sorted by id, every k-th)."""
    entries = sorted((e for e in bank if e.meta.short_answer), key=lambda e: e.id)
    step = max(1, len(entries) // n)
    return entries[::step][:n]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--no-grade", action="store_true", help="skip the grader's band agreement")
    ap.add_argument("--report-only", action="store_true",
                    help="transcribe nothing: report the answers whose six transcriptions are all in --records")
    ap.add_argument("--records", type=Path, default=ROOT / "bench" / "speech_runs" / "records.jsonl",
                    help="one JSON line per transcription; a run continues where the file stops")
    args = ap.parse_args()

    bank = load_bank(ROOT / "bank")
    vocab = Vocabulary.from_bank(bank)
    entries = pick(bank, args.n)
    args.records.parent.mkdir(parents=True, exist_ok=True)
    records = [json.loads(line) for line in args.records.read_text().splitlines()] if args.records.exists() else []
    done = {(r["id"], r["tts"], r["cond"], r["prompt"]) for r in records}
    conds = [("clean", True), ("clean", False), ("noisy", True)]
    if args.report_only:
        complete = {i for i in {r["id"] for r in records}
                    if all((i, t, c, p) in done for t in ("espeak-ng", "flite") for c, p in conds)}
        entries = [e for e in entries if e.id in complete]
    eng = WhisperEngine(vocab, threads=2, max_seconds=600)
    t0 = time.perf_counter()
    eng.load()
    load = time.perf_counter() - t0
    tmp = Path(tempfile.mkdtemp(prefix="bench-speech-"))
    with args.records.open("a") as out:
        for i, e in enumerate([] if args.report_only else entries):
            ref = spoken_script(e.meta.short_answer)
            terms = {t for t in IDENT_RE.findall(e.meta.short_answer) if len(t) > 2}
            for tts in ("espeak-ng", "flite"):
                todo = [(c, p) for c, p in conds if (e.id, tts, c, p) not in done]
                if not todo:
                    continue
                clean = tmp / f"{i}-{tts}.wav"
                synth(tts, ref, clean)
                loud = tmp / f"{i}-{tts}-noisy.wav"
                noisy(clean, loud, seed=i)
                for c, p in todo:
                    t1 = time.perf_counter()
                    try:
                        tr = eng.transcribe(clean if c == "clean" else loud, entry=e, prompt=p)
                        hyp, dur = tr.text, tr.duration
                    except Exception as x:  # no speech heard etc.: an empty hypothesis
                        hyp, dur = "", 0.0
                        print(f"  {e.id} {tts} {c}: {x}", file=sys.stderr)
                    rec = {"id": e.id, "tts": tts, "cond": c, "prompt": p, "ref": norm(ref), "hyp": norm(hyp),
                           "text": hyp, "terms": len(terms),
                           "found": sum(1 for t in terms if f" {norm(t)} " in f" {norm(hyp)} "),
                           "audio": dur, "secs": time.perf_counter() - t1}
                    records.append(rec)
                    out.write(json.dumps(rec) + "\n")
                    out.flush()
            print(f"{i + 1}/{len(entries)}", file=sys.stderr, flush=True)
            if (i + 1) % 10 == 0:
                report(records, load)
    ids = {e.id for e in entries}
    records = [r for r in records if r["id"] in ids]
    report(records, load)
    if not args.no_grade:
        from torchdojo.grading import make_grader
        from torchdojo.settings import Settings

        grader = make_grader(Settings(bank_dir=ROOT / "bank"))
        typed = {e.id: grader.grade(e, e.meta.short_answer).band for e in entries}
        for tts in ("espeak-ng", "flite"):
            spoken = {r["id"]: r["text"] for r in records if r["tts"] == tts and r["cond"] == "clean" and r["prompt"]}
            bands = {e.id: grader.grade(e, spoken.get(e.id, "")).band for e in entries}
            same = sum(typed[i] == bands[i] for i in typed)
            print(f"grader band agreement typed vs spoken ({tts}, clean, prompt): {same}/{len(entries)} "
                  f"= {same / max(len(entries), 1):.0%}; typed bands {dict(Counter(typed.values()))}, "
                  f"spoken bands {dict(Counter(bands.values()))}")


if __name__ == "__main__":
    main()
