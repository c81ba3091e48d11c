"""What a grader returns for one free-text answer: :class:`Feedback` (pydantic, JSON-safe).

Every grader (the offline embedding grader, the optional LLM judge) returns this one schema,
so the faces and the mock-interview report never care which grader ran. Spans are character
offsets ``[start, end)`` into the answer text exactly as submitted.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from torchdojo.bank.loader import Entry

KeyPointStatus = Literal["hit", "missed", "contradicted"]

#: Score bands, as the evaluation set labels them: 3 excellent, 2 adequate, 1 weak, 0 wrong.
BANDS = {0: "wrong", 1: "weak", 2: "adequate", 3: "excellent"}


class Span(BaseModel):
    """A piece of the answer: ``text == answer[start:end]``."""

    model_config = ConfigDict(frozen=True)
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class KeyPointResult(BaseModel):
    """One rubric key point and whether the answer made it (``hit``), left it out (``missed``)
    or stated its opposite (``contradicted``). ``similarity`` is the best cosine similarity of
    an answer sentence to the point or one of its phrasings (embedding grader), in [-1, 1];
    ``evidence`` the sentence that shows the status; ``uncertain`` the grader's doubt about it."""

    id: str
    text: str
    weight: int = Field(ge=1, le=3)
    status: KeyPointStatus
    similarity: float | None = None
    evidence: Span | None = None
    why: str = ""
    #: the grader doubts this status (similarity near the threshold, or signals that disagree)
    uncertain: bool = False


class MisconceptionResult(BaseModel):
    """A misconception of the entry that the answer states, with the sentence that states it."""

    claim: str
    correction: str
    evidence: Span | None = None
    similarity: float | None = None


class Check(BaseModel):
    """One structural check (STAR part present, design component covered…): ``ok`` and why."""

    name: str
    ok: bool
    evidence: Span | None = None
    note: str = ""


class Feedback(BaseModel):
    """The grade of one answer to one entry.

    ``score`` 0–100; ``band`` 0–3 (see :data:`BANDS`); ``confidence`` in [0, 1];
    ``uncertain`` True when the grader does not trust its own score (show "uncertain", not the
    number). ``flags`` name answer-level problems: ``keyword-stuffing``, ``off-topic``, ``vague``,
    ``empty``, ``too-short``. ``error`` is set when grading failed (e.g. the LLM endpoint did not
    answer): then the score is not a grade and the faces must say so.
    """

    entry_id: str
    grader: str
    score: int = Field(ge=0, le=100)
    band: int = Field(ge=0, le=3)
    confidence: float = Field(ge=0.0, le=1.0)
    uncertain: bool
    key_points: list[KeyPointResult]
    misconceptions: list[MisconceptionResult] = Field(default_factory=list)
    flags: list[str] = Field(default_factory=list)
    checks: list[Check] = Field(default_factory=list)
    follow_up: str | None = None
    follow_up_targets: str | None = Field(default=None, description="id of the key point the follow-up aims at")
    summary: str = ""
    error: str | None = None

    @property
    def hit(self) -> list[KeyPointResult]:
        return [k for k in self.key_points if k.status == "hit"]

    @property
    def missed(self) -> list[KeyPointResult]:
        return [k for k in self.key_points if k.status != "hit"]


def band_of(score: int) -> int:
    """Score 0–100 → band 0–3 (0–24 wrong, 25–49 weak, 50–74 adequate, 75–100 excellent)."""
    return 0 if score < 25 else 1 if score < 50 else 2 if score < 75 else 3


class AnswerGrader(Protocol):
    """Anything that grades a free-text answer to a bank entry."""

    name: str

    def grade(self, entry: Entry, answer: str) -> Feedback: ...


def failed(entry: Entry, grader: str, error: str) -> Feedback:
    """A Feedback that says grading failed (never a made-up score): every key point missed,
    ``uncertain`` and ``error`` set."""
    return Feedback(
        entry_id=entry.id, grader=grader, score=0, band=0, confidence=0.0, uncertain=True,
        key_points=[KeyPointResult(id=k.id, text=k.text, weight=k.weight, status="missed") for k in entry.meta.key_points],
        error=error, summary=f"Not graded: {error}",
    )
