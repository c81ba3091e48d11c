"""What a listener notices about a spoken answer, from the transcript's word timings alone.

:func:`delivery` is pure (no engine, no clock): speaking rate, filler words, the longest pause,
the time to the first key point and whether the first 20 seconds state the answer.

The comfortable rate, 120–160 words a minute for an explanation, is a rule of thumb from speaking
coaches, not a measured standard (the bank's own "in 20 seconds" guidance assumes about 150).
Whisper tends to leave out "um" and "uh", so the filler count is a lower bound.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from torchdojo.speech.transcript import Transcript

#: Words a minute an explanation is comfortable to follow at (a rule of thumb; see the module doc).
COMFORTABLE_WPM = (120, 160)
#: Filler words and phrases (lower case). "like" and "so" also have real uses: counted anyway.
FILLERS = ("um", "uh", "er", "erm", "uhm", "hmm", "like", "you know", "basically", "sort of", "kind of", "i mean",
           "actually", "literally")
#: The part of an answer that should state it, in seconds.
FIRST_SECONDS = 20.0
#: A pause (seconds between words) a listener notices.
LONG_PAUSE = 2.0


class Delivery(BaseModel):
    """Delivery feedback for one spoken answer. Times in seconds from the start of the recording;
    rates per minute of speaking (first word to last word). None: not known (no key point found,
    or too few words to say)."""

    duration: float
    speaking_seconds: float
    words: int
    wpm: float | None
    wpm_range: tuple[int, int] = COMFORTABLE_WPM
    pace: str  # "slow", "comfortable", "fast" or "unknown"
    fillers: dict[str, int]
    filler_count: int
    fillers_per_minute: float | None
    longest_pause: float
    longest_pause_after: str | None
    time_to_first_word: float | None
    time_to_first_key_point: float | None
    first_key_point: str | None
    states_answer_early: bool | None
    notes: list[str]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9_']+", text.lower())


def count_fillers(text: str) -> dict[str, int]:
    """Filler words and phrases in ``text`` (case-insensitive, whole words): phrase → count (only those > 0)."""
    low = " " + " ".join(_words(text)) + " "
    return {f: n for f in FILLERS if (n := low.count(f" {f} "))}


def _time_of_char(transcript: Transcript, text: str, offset: int) -> float | None:
    """The start time of the word at character ``offset`` of ``text`` (the graded answer: the
    transcript, maybe edited): the n-th word of ``text`` is taken to be the n-th of the transcript,
    scaled when the edit changed the word count."""
    if not transcript.words:
        return None
    before = len(text[:offset].split())
    total = max(1, len(text.split()))
    i = min(len(transcript.words) - 1, round(before * len(transcript.words) / total))
    return transcript.words[i].start


def _first_key_point(transcript: Transcript, text: str, feedback, key_points) -> tuple[float | None, str | None]:
    """(seconds, key point text) of the first key point made: from the grader's evidence spans
    when ``feedback`` has them, else the first sentence that matches a key point's words."""
    found: list[tuple[float, str]] = []
    if feedback is not None and not getattr(feedback, "error", None):
        for k in feedback.key_points:
            if k.status == "hit" and k.evidence is not None:
                t = _time_of_char(transcript, text, k.evidence.start)
                if t is not None:
                    found.append((t, k.text))
        if found or any(k.status == "hit" for k in feedback.key_points):
            return min(found) if found else (None, None)
    if key_points:
        from rapidfuzz import fuzz

        pos = 0
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            start = text.find(sentence, pos)
            pos = max(pos, start)
            for kp in key_points:
                if fuzz.token_set_ratio(sentence.lower(), kp.lower()) >= 70:
                    t = _time_of_char(transcript, text, start)
                    if t is not None:
                        return t, kp
    return None, None


def delivery(transcript: Transcript, text: str | None = None, feedback=None, key_points: list[str] | None = None,
             wpm_range: tuple[int, int] = COMFORTABLE_WPM) -> Delivery:
    """Delivery feedback for ``transcript``. ``text``: the answer as graded (the transcript after
    the candidate's corrections; default the transcript's text); ``feedback``: its
    :class:`~torchdojo.grading.feedback.Feedback` (its evidence spans time the first key point);
    ``key_points``: the entry's key point texts, used when there is no feedback."""
    text = transcript.text if text is None else text
    words = transcript.words
    n = len(words)
    speaking = (words[-1].end - words[0].start) if n else 0.0
    minutes = speaking / 60.0
    wpm = round(n / minutes, 1) if n >= 5 and minutes > 0 else None
    pace = "unknown" if wpm is None else "slow" if wpm < wpm_range[0] else "fast" if wpm > wpm_range[1] else "comfortable"
    fillers = count_fillers(" ".join(w.text for w in words))
    fcount = sum(fillers.values())
    fpm = round(fcount / minutes, 1) if minutes > 0 and n >= 5 else None
    longest, after = 0.0, None
    for a, b in zip(words, words[1:], strict=False):
        if b.start - a.end > longest:
            longest, after = round(b.start - a.end, 2), a.text
    t_kp, kp = _first_key_point(transcript, text, feedback, key_points)
    early = None if (feedback is None and not key_points) else (t_kp is not None and t_kp <= FIRST_SECONDS)
    notes: list[str] = []
    if pace == "slow":
        notes.append(f"{wpm:.0f} words a minute is slow for an explanation ({wpm_range[0]}–{wpm_range[1]} is comfortable).")
    elif pace == "fast":
        notes.append(f"{wpm:.0f} words a minute is fast: listeners follow {wpm_range[0]}–{wpm_range[1]} more easily.")
    if fpm is not None and fpm >= 4:
        notes.append(f"{fpm:.0f} filler words a minute ({', '.join(sorted(fillers, key=fillers.get, reverse=True)[:3])}): "
                     "a short silence sounds more confident.")
    if longest >= LONG_PAUSE:
        notes.append(f"A {longest:.1f} s silence after “{after}”.")
    if early is False:
        notes.append("No key point in the first 20 seconds: lead with the answer, then explain.")
    return Delivery(duration=transcript.duration, speaking_seconds=round(speaking, 2), words=n, wpm=wpm,
                    wpm_range=wpm_range, pace=pace, fillers=fillers, filler_count=fcount, fillers_per_minute=fpm,
                    longest_pause=longest, longest_pause_after=after,
                    time_to_first_word=words[0].start if n else None,
                    time_to_first_key_point=None if t_kp is None else round(t_kp, 2), first_key_point=kp,
                    states_answer_early=early, notes=notes)
