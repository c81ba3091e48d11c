"""The fallback recogniser: CMU PocketSphinx with the US-English model its wheel bundles.

Used where faster-whisper cannot load (:func:`torchdojo.speech.engine.load_engine`), or when
``TORCHDOJO_SPEECH_ENGINE=pocketsphinx``. Far less accurate than Whisper (a 2010s HMM recogniser:
expect many misheard words, and no punctuation), so every transcript says which engine made it
and the candidate corrects the text before it is graded. Voice activity: PocketSphinx's own
WebRTC-style :class:`pocketsphinx.Segmenter`; only the speech it finds is decoded (the decoder
alone "hears" words in silence), and nothing found → ``no-speech``. Spoken forms are mapped to
code names as for Whisper; there is no prompt. Audio is decoded by PyAV (any format FFmpeg reads).

Source: https://pocketsphinx.readthedocs.io (Decoder, Segmenter; 10 ms frames).
"""

from __future__ import annotations

import time
from pathlib import Path

from torchdojo.speech.transcript import SpeechError, Transcript, Word, finish
from torchdojo.speech.vocab import Vocabulary

ENGINE_NAME = "pocketsphinx:en-us"
SAMPLE_RATE = 16_000
#: PocketSphinx's frame rate (frames per second): segment times are in frames.
FRAMES_PER_SECOND = 100
_NOT_WORDS = {"<s>", "</s>", "<sil>", "[NOISE]", "[SPEECH]", "<unk>"}


class SphinxEngine:
    """PocketSphinx, loaded on first use (about half a second). Same interface as
    :class:`torchdojo.speech.engine.WhisperEngine`: :meth:`load`, :meth:`transcribe`."""

    name = ENGINE_NAME

    def __init__(self, vocabulary: Vocabulary | None = None, max_seconds: float = 300.0) -> None:
        self.vocabulary = vocabulary
        self.max_seconds = max_seconds
        self._decoder = None
        #: seconds the last load took
        self.load_seconds: float | None = None
        #: why the preferred engine was not used (set by load_engine), or None
        self.fallback_reason: str | None = None

    def load(self) -> None:
        """Load the acoustic and language models. Raises :class:`SpeechError` (``engine``)."""
        if self._decoder is not None:
            return
        t0 = time.perf_counter()
        try:
            from pocketsphinx import Decoder

            self._decoder = Decoder(samprate=SAMPLE_RATE, loglevel="FATAL")
        except Exception as e:
            raise SpeechError("engine", f"the fallback recogniser did not load: {type(e).__name__}: {e}") from None
        self.load_seconds = time.perf_counter() - t0

    def transcribe(self, source: str | Path | bytes, name: str = "the recording", entry=None,
                   prompt: bool = True) -> Transcript:
        """Transcribe ``source`` (see :class:`WhisperEngine.transcribe`; ``entry`` and ``prompt``
        are accepted and unused: PocketSphinx takes no prompt). Raises :class:`SpeechError`."""
        from pocketsphinx import Segmenter

        from torchdojo.speech.engine import decode

        samples, seconds = decode(source, name, self.max_seconds)
        self.load()
        pcm = (samples.clip(-1, 1) * 32767).astype("<i2").tobytes()
        t0 = time.perf_counter()
        words: list[Word] = []
        try:
            for seg in Segmenter(sample_rate=SAMPLE_RATE).segment(_Reader(pcm)):
                d = self._decoder
                d.start_utt()
                d.process_raw(seg.pcm, full_utt=True)
                d.end_utt()
                for s in d.seg():
                    w = s.word.split("(")[0]  # "the(2)": an alternative pronunciation
                    if w and w not in _NOT_WORDS:
                        words.append(Word(text=w, start=round(seg.start_time + s.start_frame / FRAMES_PER_SECOND, 3),
                                          end=round(seg.start_time + (s.end_frame + 1) / FRAMES_PER_SECOND, 3)))
        except Exception as e:
            raise SpeechError("engine", f"transcribing {name} failed: {type(e).__name__}: {e}") from None
        return finish(words, name, seconds, self.vocabulary, self.name, "en", t0)


class _Reader:
    """A ``read(n)`` view of PCM bytes (what :meth:`Segmenter.segment` reads from)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def read(self, n: int) -> bytes:
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out
