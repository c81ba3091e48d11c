"""The torchdojo core as one object both faces (CLI and web) build and call.

:class:`Dojo` holds the loaded bank, the verification record, the search index and the user
database, and exposes the practice features over them. It never imports torch, the web or
the CLI, so the web app starts fast and either face can do what the other does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property

from torchdojo.bank.loader import Bank, Entry, load_bank
from torchdojo.bank.verify import load_record
from torchdojo.practice.flashcards import Filters, Flashcards
from torchdojo.settings import Settings
from torchdojo.store.db import open_database
from torchdojo.store.search import DenseRanker, Hit, SearchIndex, SearchResult

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verification:
    """Where an entry's examples stand: ``current`` False means they changed since they last passed."""

    torch: str
    date: str
    current: bool


class Dojo:
    """Everything a face needs: ``bank``, ``flashcards``, ``search()``, ``browse()``, ``verification()``."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.bank: Bank = load_bank(self.settings.bank_dir)
        self._record = load_record(self.settings.bank_dir)
        self.sessions = open_database(self.settings.database_url)
        #: The learner store this Dojo reads and writes (None: the database's own, single-user).
        self.store: str | None = None
        self.flashcards = Flashcards(self.sessions, self.bank, self.settings.desired_retention,
                                     self.settings.new_per_day, self.settings.max_reviews_per_day)
        self.flashcards.refresh()  # the study settings saved in the database (torchdojo config, /settings)
        #: Cards whose stored state cannot be scheduled, found by the cheap check at start.
        self.damaged_cards: list[str] = self.flashcards.damaged()
        if self.damaged_cards:
            log.warning("%d card(s) have a damaged schedule (%s); run `torchdojo doctor` to rebuild them "
                        "from their review log", len(self.damaged_cards), ", ".join(self.damaged_cards[:5]))
        self._verification = {e.id: self._verify(e) for e in self.bank}
        #: Entries whose examples passed on their current text (for the home page, computed once).
        self.verified_count = sum(1 for v in self._verification.values() if v and v.current)
        self.level_counts = {lv: sum(1 for e in self.bank if e.meta.level == lv) for lv in ("junior", "mid", "senior")}

    #: cached_property values bound to this Dojo's store (a learner view makes its own).
    _STORE_BOUND = ("own_cards", "notes", "judge", "mocks", "scorecards", "interviews", "data")

    def for_store(self, sessions, store: str | None = None) -> Dojo:
        """A view of this Dojo over another store (team mode: one learner's store, see
        :mod:`torchdojo.store.learners`): it shares the bank, the verification record, the search
        index, the settings and the judge's execution backend, and reads and writes practice data
        only through ``sessions``. Cheap (no bank load); the caller caches it per store."""
        view = object.__new__(Dojo)
        view.__dict__.update({k: v for k, v in self.__dict__.items() if k not in self._STORE_BOUND})
        view._base = self.__dict__.get("_base") or self  # what is shared (index, grader) comes from the base
        view.sessions = sessions
        view.store = store
        view.flashcards = Flashcards(sessions, self.bank, self.settings.desired_retention,
                                     self.settings.new_per_day, self.settings.max_reviews_per_day)
        view.flashcards.refresh()
        view.damaged_cards = view.flashcards.damaged()
        view.__dict__["judge"] = self.judge.for_sessions(sessions)
        return view

    @cached_property
    def own_cards(self):
        """Cards the learner wrote (:class:`torchdojo.practice.own_cards.OwnCards`), ids ``own:<n>``."""
        from torchdojo.practice.own_cards import OwnCards

        return OwnCards(self.sessions)

    @cached_property
    def notes(self):
        """Notes and bookmarks on any card (:class:`torchdojo.practice.notes.Notes`)."""
        from torchdojo.practice.flashcards import UnknownEntryError
        from torchdojo.practice.notes import Notes

        def exists(card_id: str) -> bool:
            try:
                self.flashcards.card(card_id)
                return True
            except UnknownEntryError:
                return False

        return Notes(self.sessions, exists)

    def cards(self, query=None, now=None):
        """One page of the card browser (:func:`torchdojo.practice.card_browser.list_cards`)."""
        from torchdojo.practice.card_browser import CardQuery, list_cards

        return list_cards(self.flashcards, query or CardQuery(), now)

    @cached_property
    def index(self) -> SearchIndex:
        base = self.__dict__.get("_base")
        if base is not None:  # a learner view: the one index of the Dojo it came from
            return base.index
        return SearchIndex(self.bank)

    @cached_property
    def judge(self):
        """The coding-challenge judge (its backend starts on the first submission)."""
        from torchdojo.judge.service import JudgeService

        return JudgeService(self.settings.bank_dir / "challenges", self.sessions,
                            unsafe_local=self.settings.unsafe_local_judge, slots=self.settings.judge_slots,
                            cache_dir=self.settings.cache_dir / "judge-expected")

    @cached_property
    def challenges(self) -> dict:
        """Coding challenges by id (metadata and statements only; no torch import)."""
        return self.judge.challenges

    @cached_property
    def mocks(self):
        """Mock interviews (:class:`torchdojo.practice.mock.MockInterviews`); coding items go to the judge."""
        from torchdojo.practice.mock import MockInterviews

        return MockInterviews(self.sessions, self.bank, self.flashcards, self.challenges, self.judge)

    @cached_property
    def scorecards(self):
        """Rubric scorecards (:class:`torchdojo.practice.scorecards.Scorecards`): self-review,
        follow-ups and interviewer mode mark answers here."""
        from torchdojo.practice.scorecards import Scorecards

        return Scorecards(self.sessions, self.bank, self.flashcards)

    @cached_property
    def interviews(self):
        """Interviewer mode (:class:`torchdojo.practice.interviews.Interviews`): kits, live
        scorecards, Markdown and PDF export."""
        from torchdojo.practice.interviews import Interviews

        return Interviews(self.sessions, self.bank, self.scorecards)

    @cached_property
    def data(self):
        """Export and backup (:class:`torchdojo.practice.export.StudyData`): Anki deck, review
        log CSV for FSRS tools, full JSON backup and restore."""
        from torchdojo.practice.export import StudyData

        return StudyData(self.sessions, self.bank, self.flashcards)

    @cached_property
    def grader(self):
        """The free-text answer grader the settings choose (see :mod:`torchdojo.grading`).

        The embedding grader loads its model on first use (seconds; imports torch). Faces that
        must stay responsive use :class:`torchdojo.grading.worker.GraderProcess` instead.
        """
        base = self.__dict__.get("_base")
        if base is not None:  # a learner view: one grader (one model) per process
            return base.grader
        from torchdojo.grading import make_grader

        return make_grader(self.settings)

    def stats(self, now: datetime | None = None, days: int = 30):
        """Study statistics at ``now`` (default: the current UTC time): reviews and time per
        day over ``days`` UTC days, the 30-day forecast, true retention, per topic, heat map, mock
        scores, challenges (:class:`torchdojo.practice.stats.StudyStats`). Raises
        ``ValueError`` for ``days`` outside 1–365."""
        from torchdojo.practice.stats import study_stats

        return study_stats(self.sessions, self.bank, self.flashcards.scheduler, self.challenges,
                           now or datetime.now(UTC), days=days)

    def verification(self, entry: Entry) -> Verification | None:
        """The PyTorch version the entry's examples last passed on (from ``bank/verified.json``);
        computed once at start (neither the bank nor the record changes while running)."""
        if entry.id in self._verification:
            return self._verification[entry.id]
        return self._verify(entry)

    def _verify(self, entry: Entry) -> Verification | None:
        rec = self._record.get(entry.id)
        if rec is None:
            return None
        return Verification(torch=rec["torch"], date=rec["date"], current=rec["digest"] == entry.examples_digest)

    def browse(self, query: str = "", filters: Filters = Filters(),
               dense: DenseRanker | None = None) -> list[tuple[Entry, Hit | None]]:
        """Entries matching the filters; with a query, only matches, best first (see
        :meth:`search`)."""
        if query.strip():
            return self.search(query, filters, dense)[0]
        order = {"junior": 0, "mid": 1, "senior": 2}
        entries = sorted((e for e in self.bank if filters.match(e)), key=lambda e: (order[e.meta.level], e.meta.title))
        return [(e, None) for e in entries]

    def search(self, query: str, filters: Filters = Filters(), dense: DenseRanker | None = None,
               limit: int = 1000) -> tuple[list[tuple[Entry, Hit]], SearchResult]:
        """Hybrid search (:mod:`torchdojo.store.search`): the entries matching ``query`` and the
        filters, best first, and the :class:`SearchResult` (did-you-mean, lexical or hybrid).
        ``dense``: a ranker by meaning (the web app passes its grader worker's); None: BM25 with
        typo correction alone."""
        def allowed(entry_id: str) -> bool:
            return (e := self.bank.get(entry_id)) is not None and filters.match(e)

        result = self.index.query(query, limit=limit, dense=dense, allowed=None if filters == Filters() else allowed)
        rows = [(e, h) for h in result.hits if (e := self.bank.get(h.entry_id))]
        return rows, result

    def local_dense_ranker(self) -> DenseRanker:
        """A ranker by meaning in this process (for the terminal: imports torch and loads the
        model, seconds; the first call on a new bank also computes the entry embeddings, cached
        in the cache directory). Raises :class:`torchdojo.grading.model.ModelUnavailable`."""
        from torchdojo.grading.model import Encoder
        from torchdojo.store.dense import DenseIndex

        enc = Encoder()
        index = DenseIndex.build(self.bank, enc.encode, self.settings.cache_dir)
        return lambda text: index.rank(enc.encode([text])[0])

    def doctor(self, repair: bool = True):
        """Check the database (SQLite integrity, schema revision) and every card against the
        replay of its review log; with ``repair``, rebuild differing cards from their log.
        Returns (findings, card problems): see :mod:`torchdojo.store.doctor`."""
        from torchdojo.store.doctor import check_engine

        findings = check_engine(self.sessions.engine)
        problems = self.flashcards.check(repair=repair)
        self.damaged_cards = self.flashcards.damaged()
        return findings, problems
