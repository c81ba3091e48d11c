"""The learner's note (Markdown) and bookmark on any card: a bank entry, a key-point card
(``<entry>#<key point>``) or an own card (``own:<id>``). One ``notes`` row per card; a row whose
text is empty and whose bookmark is off is deleted, so "no row" means "no note, not bookmarked".

Card ids are checked by the caller's ``exists`` function (the flashcards' lookup), so a note
can never be attached to a card that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.store.models import NoteRow

#: Longest note, in characters.
MAX_NOTE_CHARS = 20_000


class NoteError(ValueError):
    """A note cannot be saved (too long); the message says why."""


class UnknownCardError(KeyError):
    """No card has this id."""

    def __str__(self) -> str:
        return f"no card with id '{self.args[0]}'"


@dataclass(frozen=True)
class Note:
    """A card's note and bookmark; ``updated_at`` UTC."""

    card_id: str
    text: str
    bookmarked: bool
    updated_at: datetime | None


class Notes:
    """Save, clear and read notes; toggle bookmarks."""

    def __init__(self, sessions: sessionmaker[Session], exists: Callable[[str], bool]) -> None:
        self.sessions = sessions
        self.exists = exists

    def _check(self, card_id: str) -> None:
        if not self.exists(card_id):
            raise UnknownCardError(card_id)

    def get(self, card_id: str) -> Note:
        """The note of ``card_id`` (empty and not bookmarked when it has none)."""
        with self.sessions() as s:
            row = s.get(NoteRow, card_id)
            if row is None:
                return Note(card_id, "", False, None)
            return Note(card_id, row.text, row.bookmarked, row.updated_at)

    def save(self, card_id: str, text: str, now: datetime | None = None) -> Note:
        """Replace the note's text (an empty text clears it). Raises :class:`NoteError` when over
        :data:`MAX_NOTE_CHARS` characters (nothing is changed), :class:`UnknownCardError`."""
        self._check(card_id)
        text = (text or "").replace("\r\n", "\n")
        if len(text) > MAX_NOTE_CHARS:
            raise NoteError(f"note: {len(text):,} characters; at most {MAX_NOTE_CHARS:,} (nothing was saved)")
        return self._write(card_id, now, text=text.strip())

    def clear(self, card_id: str, now: datetime | None = None) -> Note:
        """Empty the note (the bookmark stays)."""
        self._check(card_id)
        return self._write(card_id, now, text="")

    def toggle_bookmark(self, card_id: str, now: datetime | None = None) -> Note:
        """Bookmark the card, or remove its bookmark; returns the new state."""
        self._check(card_id)
        return self._write(card_id, now, toggle=True)

    def _write(self, card_id: str, now: datetime | None, text: str | None = None, toggle: bool = False) -> Note:
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(NoteRow, card_id, with_for_update=True)
            if row is None:
                row = NoteRow(card_id=card_id, text="", bookmarked=False, updated_at=now)
                s.add(row)
            if text is not None:
                row.text = text
            if toggle:
                row.bookmarked = not row.bookmarked
            row.updated_at = now
            note = Note(card_id, row.text, row.bookmarked, now)
            if not row.text and not row.bookmarked:
                if row in s.new:
                    s.expunge(row)
                else:
                    s.delete(row)
        return note

    def all(self) -> dict[str, Note]:
        """Every card that has a note or a bookmark, by card id."""
        with self.sessions() as s:
            return {r.card_id: Note(r.card_id, r.text, r.bookmarked, r.updated_at) for r in s.scalars(select(NoteRow))}
