"""The card browser (Anki's "Browse"): every card, filtered, sorted and paged.

Cards listed: every bank entry (reviewed or new), every key-point card that exists (a ``cards``
row ``<entry>#<key point>`` whose entry and key point the bank still has) and every own card.

Each card's **state** is one of :data:`STATES`: ``suspended`` when suspended, else ``buried``
while buried (``buried_until`` later than now), else its FSRS state (``new`` for a card never
reviewed, ``learning``, ``review``, ``relearning``). The state filter matches that one state.

**Lapses** (Anki's term): how many times the card was rated Again while in the Review state.
They are counted from the review log, in the order recorded, with the state before each
review taken from the replay of that log through the scheduler (only cards with at least one
Again are replayed). **Reviews**: the number of entries in its log. **Retrievability**: FSRS's
probability of recall at ``now`` (None for new cards). Sorting puts cards without a value
(new cards have no due date, stability, …) last whatever the order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from fsrs import Card, Rating, State
from sqlalchemy import select

from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.practice.flashcards import KP_SEP, CardStateError, Flashcards, UnknownEntryError, _to_card
from torchdojo.practice.own_cards import OWN_PREFIX
from torchdojo.practice.own_cards import entries as own_entries
from torchdojo.store.models import CardRow, NoteRow, ReviewLogRow

#: Cards on one page of the browser.
PAGE_SIZE = 50
STATES: tuple[str, ...] = ("new", "learning", "review", "relearning", "suspended", "buried")
SORTS: tuple[str, ...] = ("due", "stability", "difficulty", "lapses", "reviews", "retrievability", "id")
ORDERS: tuple[str, ...] = ("asc", "desc")
#: Longest text filter (characters).
MAX_QUERY_CHARS = 200


class CardQueryError(ValueError):
    """A browser filter value is invalid; ``field`` names the parameter."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class CardQuery:
    """What to list: ``q`` text in the title/front or id (case-insensitive), ``topic`` slug,
    ``level``, ``state`` (one of :data:`STATES`), only ``bookmarked``, only ``own`` cards; sorted
    by ``sort`` (one of :data:`SORTS`) in ``order``; 1-based ``page`` of :data:`PAGE_SIZE`."""

    q: str = ""
    topic: str | None = None
    level: str | None = None
    state: str | None = None
    bookmarked: bool = False
    own: bool = False
    sort: str = "due"
    order: str = "asc"
    page: int = 1

    def params(self, **change) -> dict[str, str]:
        """The non-default fields as query parameters (with ``change`` applied): for links."""
        q = replace(self, **change)
        out = {"q": q.q, "topic": q.topic or "", "level": q.level or "", "state": q.state or "",
               "bookmarked": "1" if q.bookmarked else "", "own": "1" if q.own else "",
               "sort": q.sort if q.sort != "due" else "", "order": q.order if q.order != "asc" else "",
               "page": str(q.page) if q.page != 1 else ""}
        return {k: v for k, v in out.items() if v}


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}


def _flag(name: str, value: str | None) -> bool:
    v = (value or "").strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise CardQueryError(name, f"'{value}' is not a yes/no value; use 1 or 0")


def parse_query(params: Mapping[str, str | None]) -> CardQuery:
    """A :class:`CardQuery` from string parameters (a web query string, CLI options); empty
    values mean "any". Raises :class:`CardQueryError` naming the first invalid parameter."""
    def get(k: str) -> str:
        return (params.get(k) or "").strip()

    q = get("q")
    if len(q) > MAX_QUERY_CHARS:
        raise CardQueryError("q", f"the text filter is {len(q)} characters; at most {MAX_QUERY_CHARS}")
    topic, level, state = get("topic") or None, get("level") or None, get("state") or None
    if topic is not None and topic not in TOPICS:
        raise CardQueryError("topic", f"unknown topic '{topic}'; use one of: {', '.join(TOPICS)}")
    if level is not None and level not in LEVELS:
        raise CardQueryError("level", f"unknown level '{level}'; use one of: {', '.join(LEVELS)}")
    if state is not None and state not in STATES:
        raise CardQueryError("state", f"unknown state '{state}'; use one of: {', '.join(STATES)}")
    sort, order = get("sort") or "due", get("order") or "asc"
    if sort not in SORTS:
        raise CardQueryError("sort", f"cannot sort by '{sort}'; use one of: {', '.join(SORTS)}")
    if order not in ORDERS:
        raise CardQueryError("order", f"unknown order '{order}'; use asc or desc")
    raw_page = get("page") or "1"
    if not raw_page.isascii() or not raw_page.isdigit() or len(raw_page) > 9 or int(raw_page) < 1:
        raise CardQueryError("page", f"'{raw_page}' is not a page number (1, 2, …)")
    return CardQuery(q, topic, level, state, _flag("bookmarked", params.get("bookmarked")),
                     _flag("own", params.get("own")), sort, order, int(raw_page))


@dataclass(frozen=True)
class CardInfo:
    """One row of the browser. ``kind``: bank | key point | own. Times UTC; ``stability`` in
    days; ``difficulty`` in [1, 10]; ``retrievability`` in [0, 1] at the browser's ``now``."""

    card_id: str
    kind: str
    title: str
    topics: tuple[str, ...]
    level: str | None
    state: str
    due: datetime | None = None
    stability: float | None = None
    difficulty: float | None = None
    retrievability: float | None = None
    lapses: int = 0
    reviews: int = 0
    bookmarked: bool = False
    has_note: bool = False
    key_point: str | None = None


@dataclass(frozen=True)
class CardPage:
    """One page of the browser: ``cards`` on it, ``total`` matching, ``page`` of ``pages``."""

    cards: list[CardInfo]
    total: int
    page: int
    pages: int
    query: CardQuery = field(default_factory=CardQuery)


def count_lapses(logs: list[ReviewLogRow], created_at: datetime, flashcards: Flashcards) -> int:
    """Times a card in the Review state was rated Again, replaying ``logs`` (in the order
    recorded) through the scheduler from a new card created at ``created_at``."""
    if not any(lg.rating == int(Rating.Again) for lg in logs):
        return 0
    card, lapses = Card(card_id=0, due=created_at), 0
    for lg in logs:
        if card.state == State.Review and lg.rating == int(Rating.Again):
            lapses += 1
        card, _ = flashcards.scheduler.review_card(card, Rating(lg.rating), lg.reviewed_at)
    return lapses


def _state(row: CardRow | None, now: datetime) -> str:
    if row is None:
        return "new"
    if row.suspended:
        return "suspended"
    if row.buried_until is not None and row.buried_until > now:
        return "buried"
    return State(row.state).name.lower() if row.state in (1, 2, 3) else "learning"


def _sort_key(sort: str):
    if sort == "id":
        return lambda c: c.card_id
    return lambda c: getattr(c, sort)


def list_cards(flashcards: Flashcards, query: CardQuery = CardQuery(), now: datetime | None = None) -> CardPage:
    """The page of cards ``query`` asks for, at ``now`` (UTC; default: the current time).
    Reads the cards, their logs and notes in one read transaction. Raises
    :class:`CardQueryError` (field ``page``) for a page past the last one."""
    now = now or datetime.now(UTC)
    with flashcards.sessions() as s:
        rows = {r.question_id: r for r in s.scalars(select(CardRow))}
        logs: dict[str, list[ReviewLogRow]] = {}
        for lg in s.scalars(select(ReviewLogRow).order_by(ReviewLogRow.id)):
            logs.setdefault(lg.question_id, []).append(lg)
        notes = {n.card_id: n for n in s.scalars(select(NoteRow))}
        own = own_entries(s)
        s.expunge_all()

    # the candidates: (card id, kind, title, topics, level, key point id)
    cands: list[tuple[str, str, str, tuple[str, ...], str | None, str | None]] = []
    if not query.own:
        for e in flashcards.bank:
            cands.append((e.id, "bank", e.meta.title, tuple(e.meta.topics), e.meta.level, None))
        for cid in rows:
            if KP_SEP in cid:
                try:
                    entry, kp = flashcards.card(cid)
                except UnknownEntryError:
                    continue
                if kp is not None:
                    cands.append((cid, "key point", f"{entry.meta.title} — {kp.text}", tuple(entry.meta.topics),
                                  entry.meta.level, kp.id))
    for cid, e in own.items():
        cands.append((cid, "own", e.meta.title, tuple(e.meta.topics), e.meta.level or None, None))

    needle = query.q.casefold()
    out: list[CardInfo] = []
    for cid, kind, title, topics, level, kp in cands:
        if needle and needle not in title.casefold() and needle not in cid.casefold():
            continue
        if query.topic and query.topic not in topics:
            continue
        if query.level and level != query.level:
            continue
        note = notes.get(cid)
        bookmarked = bool(note and note.bookmarked)
        if query.bookmarked and not bookmarked:
            continue
        row = rows.get(cid)
        state = _state(row, now)
        if query.state and state != query.state:
            continue
        info = CardInfo(cid, kind, title, topics, level, state, bookmarked=bookmarked,
                        has_note=bool(note and note.text), key_point=kp)
        if row is not None:
            own_logs = logs.get(cid, [])
            created = own_logs[0].reviewed_at if own_logs and own_logs[0].reviewed_at < row.created_at \
                else row.created_at
            try:
                r = flashcards.scheduler.get_card_retrievability(_to_card(row), now) if row.last_review else None
            except CardStateError:
                r = None
            info = replace(info, due=row.due, stability=row.stability, difficulty=row.difficulty,
                           retrievability=r if r is None or math.isfinite(r) else None,
                           lapses=count_lapses(own_logs, created, flashcards), reviews=len(own_logs))
        out.append(info)

    key = _sort_key(query.sort)
    have = [c for c in out if query.sort == "id" or getattr(c, query.sort) is not None]
    lack = [c for c in out if not (query.sort == "id" or getattr(c, query.sort) is not None)]
    have.sort(key=lambda c: (key(c), c.card_id), reverse=query.order == "desc")
    lack.sort(key=lambda c: c.card_id)
    ordered = have + lack
    total = len(ordered)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if query.page > pages:
        raise CardQueryError("page", f"page {query.page} does not exist: {total} card(s) match, "
                                     f"{pages} page(s) of {PAGE_SIZE}")
    start = (query.page - 1) * PAGE_SIZE
    return CardPage(ordered[start:start + PAGE_SIZE], total, query.page, pages, query)


__all__ = ["CardInfo", "CardPage", "CardQuery", "CardQueryError", "OWN_PREFIX", "PAGE_SIZE", "SORTS", "STATES",
           "count_lapses", "list_cards", "parse_query"]
