"""Benchmark answer-out-loud transcription on synthetic speech (not a test; figures go in docs/speech.md).

    python bench/speech.py            # 100 bank short answers (default)
    python bench/speech.py --n 20     # fewer

Each answer (an entry's ``short_answer``, entries in id order) is synthesised by two Debian
text-to-speech engines, espeak-ng (en-us, 150 wpm) and flite (voice kal), and transcribed by the
real engine (:class:`torchdojo.speech.engine.WhisperEngine`, tiny.en int8, 2 threads) in three
conditions: clean with the vocabulary prompt, clean without it, and with white noise added at
10 dB SNR (numpy) with the prompt. Reports: word error rate (jiwer; both sides lower-cased,
punctuation and ``_``/``.`` in identifiers read as spaces), recall of PyTorch terms (identifiers in
the reference found in the transcript after the spoken-form mapping), real-time factor
(transcription seconds / audio seconds), model load time, and the embedding grader's band
agreement between the typed answer and its transcript (espeak-ng, clean, prompt).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from torchdojo.bank.loader import load_bank  # noqa: E402
from torchdojo.speech.engine import SAMPLE_RATE, WhisperEngine, decode  # noqa: E402
from torchdojo.speech.vocab import IDENT_RE, Vocabulary  # noqa: E402


def norm(text: str) -> str:
    text = re.sub(r"[_.]", " ", text.lower())
    text = re.sub(r"[^a-z0-9' ]+", " ", text)
    return re.sub(r"\s+", " ", text).strip()


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


def report(res: dict, n: int, load: float) -> None:
    """Print the table so far (after every 10 answers: a long run can be stopped and still read)."""
    import jiwer

    print(f"answers: {n}; model load: {load:.2f} s")
    print(f"{'tts':10} {'audio':6} {'prompt':6} {'WER':>6} {'term recall':>12} {'RTF':>6}")
    for (tts, c, p), r in res.items():
        wer = jiwer.wer(r["ref"], r["hyp"])
        recall = r["found"] / r["terms"] if r["terms"] else float("nan")
        rtf = r["secs"] / r["audio"] if r["audio"] else float("nan")
        print(f"{tts:10} {c:6} {'yes' if p else 'no':6} {wer:6.1%} {recall:12.1%} {rtf:6.3f}  ({r['terms']} terms)")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--no-grade", action="store_true", help="skip the grader's band agreement")
    args = ap.parse_args()

    bank = load_bank(ROOT / "bank")
    vocab = Vocabulary.from_bank(bank)
    entries = sorted((e for e in bank if e.meta.short_answer), key=lambda e: e.id)[: args.n]
    eng = WhisperEngine(vocab, threads=2, max_seconds=600)
    t0 = time.perf_counter()
    eng.load()
    load = time.perf_counter() - t0
    conds = [("clean", True), ("clean", False), ("noisy", True)]
    res: dict = {(tts, c, p): {"ref": [], "hyp": [], "terms": 0, "found": 0, "audio": 0.0, "secs": 0.0}
                 for tts in ("espeak-ng", "flite") for c, p in conds}
    spoken: dict[str, str] = {}
    tmp = Path(tempfile.mkdtemp(prefix="bench-speech-"))
    for i, e in enumerate(entries):
        ref = e.meta.short_answer
        terms = {t for t in IDENT_RE.findall(ref) if len(t) > 2}
        for tts in ("espeak-ng", "flite"):
            clean = tmp / f"{i}-{tts}.wav"
            synth(tts, ref, clean)
            loud = tmp / f"{i}-{tts}-noisy.wav"
            noisy(clean, loud, seed=i)
            for c, p in conds:
                t1 = time.perf_counter()
                try:
                    tr = eng.transcribe(clean if c == "clean" else loud, entry=e, prompt=p)
                    hyp, dur = tr.text, tr.duration
                except Exception as x:  # no speech heard etc.: an empty hypothesis
                    hyp, dur = "", 0.0
                    print(f"  {e.id} {tts} {c}: {x}", file=sys.stderr)
                r = res[(tts, c, p)]
                r["secs"] += time.perf_counter() - t1
                r["audio"] += dur
                r["ref"].append(norm(ref))
                r["hyp"].append(norm(hyp) or "<empty>")
                r["terms"] += len(terms)
                r["found"] += sum(1 for t in terms if norm(t) in norm(hyp))
                if tts == "espeak-ng" and c == "clean" and p:
                    spoken[e.id] = hyp
        print(f"{i + 1}/{len(entries)}", file=sys.stderr, flush=True)
        if (i + 1) % 10 == 0 or i + 1 == len(entries):
            report(res, i + 1, load)
    if not args.no_grade:
        from torchdojo.grading import make_grader
        from torchdojo.settings import Settings

        grader = make_grader(Settings(bank_dir=ROOT / "bank"))
        same = 0
        for e in entries:
            a = grader.grade(e, e.meta.short_answer).band
            b = grader.grade(e, spoken.get(e.id, "")).band
            same += a == b
        print(f"grader band agreement typed vs spoken (espeak-ng, clean, prompt): {same}/{len(entries)} "
              f"= {same / len(entries):.0%}")


if __name__ == "__main__":
    main()
