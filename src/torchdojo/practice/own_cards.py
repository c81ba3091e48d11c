"""Cards the learner writes: front and back in Markdown, optional key points, topic and level.

An own card lives in the ``own_cards`` table; its flashcard id is ``own:<id>`` (see
:func:`own_card_id`). It is scheduled exactly like a bank card (one ``cards`` row once first
reviewed, its review log in ``review_logs``), so :class:`torchdojo.practice.flashcards.Flashcards`
looks own-card ids up here (:func:`entry_of`) and reviews, previews and checks them as it does
bank cards. In the review queue, new own cards come **before** new bank cards, oldest first (by
creation time): you wrote them because you want to learn them; they count towards the daily
new-card limit like any new card.

Key points (at most :data:`MAX_KEY_POINTS`, each at most :data:`MAX_KEY_POINT_CHARS` characters)
let an answer to the card be graded like an answer to a bank entry: :meth:`OwnCard.as_entry`
builds an :class:`~torchdojo.bank.loader.Entry` whose key points have ids ``kp1`` … ``kpN``
(weight 2 each). A card without key points is self-rated only.

Deleting an own card deletes its ``cards`` row, its review log and its note in the same
transaction, so the integrity invariant (card state == replay of its log) holds for what is left.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.bank.loader import Entry
from torchdojo.bank.schema import FrontMatter, KeyPoint
from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.store.models import CardRow, NoteRow, OwnCardRow, ReviewLogRow

#: Card ids of own cards start with this.
OWN_PREFIX = "own:"
#: Longest front, back and key point (characters); most key points on one card.
MAX_FRONT_CHARS = 2_000
MAX_BACK_CHARS = 20_000
MAX_KEY_POINTS = 12
MAX_KEY_POINT_CHARS = 300


class OwnCardError(ValueError):
    """An own card's field is invalid. ``field`` names it (front, back, key_points, topic, level)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class UnknownOwnCardError(KeyError):
    """No own card has this id (or the id is not ``own:<number>``)."""

    def __str__(self) -> str:
        return f"no own card with id '{self.args[0]}'"


def own_card_id(row_id: int) -> str:
    """The flashcard id of own card ``row_id``: ``own:<row_id>``."""
    return f"{OWN_PREFIX}{row_id}"


def parse_own_id(card_id: str) -> int | None:
    """``"own:12"`` → 12; ``"12"`` → 12 (a bare number is accepted); anything else → None."""
    raw = card_id[len(OWN_PREFIX):] if card_id.startswith(OWN_PREFIX) else card_id
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


def is_own_id(card_id: str) -> bool:
    """Whether ``card_id`` names an own card (``own:<number>``)."""
    return card_id.startswith(OWN_PREFIX)


@dataclass(frozen=True)
class OwnCard:
    """One own card. Times are UTC; ``key_points`` are plain strings (ids kp1…kpN by position)."""

    id: int
    front: str
    back: str
    key_points: tuple[str, ...]
    topic: str | None
    level: str | None
    created_at: datetime
    updated_at: datetime

    @property
    def card_id(self) -> str:
        return own_card_id(self.id)

    @property
    def title(self) -> str:
        """The first line of the front (for lists)."""
        first = next((ln.strip() for ln in self.front.splitlines() if ln.strip()), "")
        return first[:200]

    def as_entry(self) -> Entry:
        """An :class:`Entry` view of this card for the review page and the answer grader: title =
        front, body = back, key points ``kp1``… (weight 2), no misconceptions or follow-ups,
        type ``own``. Built without validation (the bank's rules for entries do not apply)."""
        kps = [KeyPoint.model_construct(id=f"kp{n}", text=t, weight=2, phrasings=[], contradictions=[])
               for n, t in enumerate(self.key_points, 1)]
        meta = FrontMatter.model_construct(
            id=self.card_id, title=self.front, level=self.level or "", type="own",
            topics=[self.topic] if self.topic else [], coverage=[],
            short_answer=self.back[:700] if self.back else self.front[:700], key_points=kps, misconceptions=[],
            common_mistakes=[], follow_ups=[], related=[], sources=[], design_rubric=None, behavioral_rubric=None)
        return Entry(path=Path(f"own/{self.id}"), meta=meta, body=self.back, blocks=(), body_line=1)


def _row_to_card(r: OwnCardRow) -> OwnCard:
    return OwnCard(r.id, r.front, r.back, tuple(json.loads(r.key_points or "[]")), r.topic, r.level,
                   r.created_at, r.updated_at)


def validate(front: str, back: str = "", key_points: list[str] | tuple[str, ...] = (), topic: str | None = None,
             level: str | None = None) -> tuple[str, str, list[str], str | None, str | None]:
    """Normalised fields (stripped; blank key points dropped; "" topic/level → None), or raises
    :class:`OwnCardError` naming the first bad field."""
    front, back = (front or "").strip(), (back or "").strip()
    if not front:
        raise OwnCardError("front", "the front is empty: write the question")
    if len(front) > MAX_FRONT_CHARS:
        raise OwnCardError("front", f"the front is {len(front):,} characters; at most {MAX_FRONT_CHARS:,}")
    if len(back) > MAX_BACK_CHARS:
        raise OwnCardError("back", f"the back is {len(back):,} characters; at most {MAX_BACK_CHARS:,}")
    kps = [k.strip() for k in key_points if k and k.strip()]
    if len(kps) > MAX_KEY_POINTS:
        raise OwnCardError("key_points", f"{len(kps)} key points; at most {MAX_KEY_POINTS}")
    for n, k in enumerate(kps, 1):
        if len(k) > MAX_KEY_POINT_CHARS:
            raise OwnCardError("key_points", f"key point {n} is {len(k)} characters; at most {MAX_KEY_POINT_CHARS}")
    topic = (topic or "").strip() or None
    level = (level or "").strip() or None
    if topic is not None and topic not in TOPICS:
        raise OwnCardError("topic", f"unknown topic '{topic}'; use one of: {', '.join(TOPICS)}")
    if level is not None and level not in LEVELS:
        raise OwnCardError("level", f"unknown level '{level}'; use one of: {', '.join(LEVELS)}")
    return front, back, kps, topic, level


def entries(s: Session) -> dict[str, Entry]:
    """Card id → :meth:`OwnCard.as_entry` for every own card, oldest first (one query)."""
    rows = s.scalars(select(OwnCardRow).order_by(OwnCardRow.created_at, OwnCardRow.id))
    return {own_card_id(r.id): _row_to_card(r).as_entry() for r in rows}


class OwnCards:
    """Create, edit, delete and list own cards in one user database."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def create(self, front: str, back: str = "", key_points: list[str] | tuple[str, ...] = (),
               topic: str | None = None, level: str | None = None, now: datetime | None = None) -> OwnCard:
        """Save a new own card (committed before returning). Raises :class:`OwnCardError`."""
        front, back, kps, topic, level = validate(front, back, key_points, topic, level)
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = OwnCardRow(front=front, back=back, key_points=json.dumps(kps), topic=topic, level=level,
                             created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            return _row_to_card(row)

    def get(self, card_id: str | int) -> OwnCard:
        """The own card ``own:<id>`` (or its number). Raises :class:`UnknownOwnCardError`."""
        rid = card_id if isinstance(card_id, int) else parse_own_id(card_id)
        with self.sessions() as s:
            row = s.get(OwnCardRow, rid) if rid is not None else None
            if row is None:
                raise UnknownOwnCardError(str(card_id))
            return _row_to_card(row)

    def update(self, card_id: str | int, front: str, back: str = "", key_points: list[str] | tuple[str, ...] = (),
               topic: str | None = None, level: str | None = None, now: datetime | None = None) -> OwnCard:
        """Replace every field of an own card; its schedule and review log are kept. Raises
        :class:`OwnCardError`, :class:`UnknownOwnCardError`."""
        front, back, kps, topic, level = validate(front, back, key_points, topic, level)
        rid = card_id if isinstance(card_id, int) else parse_own_id(card_id)
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(OwnCardRow, rid, with_for_update=True) if rid is not None else None
            if row is None:
                raise UnknownOwnCardError(str(card_id))
            row.front, row.back, row.key_points = front, back, json.dumps(kps)
            row.topic, row.level, row.updated_at = topic, level, now
            return _row_to_card(row)

    def delete(self, card_id: str | int) -> int:
        """Delete an own card with its schedule, review log and note (one transaction). Returns
        the number of reviews deleted. Raises :class:`UnknownOwnCardError`."""
        rid = card_id if isinstance(card_id, int) else parse_own_id(card_id)
        with self.sessions.begin() as s:
            row = s.get(OwnCardRow, rid, with_for_update=True) if rid is not None else None
            if row is None:
                raise UnknownOwnCardError(str(card_id))
            cid = own_card_id(row.id)
            n = s.execute(delete(ReviewLogRow).where(ReviewLogRow.question_id == cid)).rowcount
            s.execute(delete(CardRow).where(CardRow.question_id == cid))
            s.execute(delete(NoteRow).where(NoteRow.card_id == cid))
            s.delete(row)
            return n or 0

    def list_all(self) -> list[OwnCard]:
        """Every own card, oldest first."""
        with self.sessions() as s:
            return [_row_to_card(r) for r in s.scalars(select(OwnCardRow).order_by(OwnCardRow.created_at,
                                                                                   OwnCardRow.id))]
