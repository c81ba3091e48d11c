"""What a transcription returns (:class:`Transcript`) and why it can fail (:class:`SpeechError`).

Times are seconds from the start of the recording. Pure data: no engine imported here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Why audio could not be transcribed: ``empty`` (no bytes), ``not-audio`` (no container or no
#: audio stream the decoder reads), ``unsupported-codec`` (an audio stream it cannot decode),
#: ``too-long`` (over the length cap), ``no-speech`` (the voice-activity filter heard nobody),
#: ``engine`` (the recogniser failed; the recording is kept for a retry).
SpeechErrorKind = Literal["empty", "not-audio", "unsupported-codec", "too-long", "no-speech", "engine"]


class SpeechError(ValueError):
    """Audio that cannot be transcribed. ``kind`` is a :data:`SpeechErrorKind`; the message names
    the file (or upload) and says what to do."""

    def __init__(self, kind: SpeechErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Word(BaseModel):
    """One recognised word: ``start`` and ``end`` in seconds, ``text`` as recognised (no leading space)."""

    model_config = ConfigDict(frozen=True)
    text: str = Field(max_length=200)
    start: float = Field(ge=0)
    end: float = Field(ge=0)


class Transcript(BaseModel):
    """A transcription. ``raw_text`` is what the engine heard; ``text`` the same with spoken forms
    mapped to code names (what is graded). ``duration`` is the recording's length in seconds;
    ``engine`` names the recogniser (e.g. ``faster-whisper:tiny.en``); ``language`` an ISO 639-1 code."""

    text: str = Field(max_length=100_000)
    raw_text: str = Field(default="", max_length=100_000)
    words: list[Word] = Field(default_factory=list, max_length=20_000)
    duration: float = Field(ge=0)
    engine: str = Field(max_length=100)
    language: str = Field(default="en", max_length=10)
    #: seconds the recogniser took (model load excluded)
    seconds: float | None = None


def finish(words: list[Word], name: str, seconds: float, vocabulary, engine: str, language: str,
           started: float, raw: str | None = None) -> Transcript:
    """The transcript of ``words`` (what a recogniser heard in ``name``, ``seconds`` long): the
    spoken forms mapped to code names by ``vocabulary`` (None: as heard); ``started`` is the
    ``time.perf_counter()`` when recognition began; ``raw``: the text as the recogniser spelled it
    (default: the words joined by spaces). Raises :class:`SpeechError` (``no-speech``)
    when nothing was heard — never an invented text."""
    import time

    raw = (" ".join(w.text for w in words) if raw is None else raw).strip()
    if not raw:
        raise SpeechError("no-speech", f"no speech heard in {name} ({seconds:.1f} s): speak closer to the "
                          "microphone, or check that it is the right input")
    text = vocabulary.to_code(raw) if vocabulary is not None else raw
    return Transcript(text=text, raw_text=raw, words=words, duration=round(seconds, 3), engine=engine,
                      language=language, seconds=round(time.perf_counter() - started, 3))
