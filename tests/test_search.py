"""SQLite FTS5 search: ranked, prefix-matching, safe with any input, combined with filters."""

from __future__ import annotations

from torchdojo.practice.flashcards import Filters
from torchdojo.store.search import HL_START, to_fts_query


def test_query_is_quoted_prefix_terms():
    assert to_fts_query('view() vs "reshape"') == '"view"* "vs"* "reshape"*'
    assert to_fts_query("  ;;; ") is None


def test_title_match_ranks_first_and_snippet_highlights(dojo):
    hits = dojo.index.search("contiguous reshape")
    assert hits and hits[0].entry_id == "view-reshape-contiguous"
    assert HL_START in hits[0].snippet


def test_hostile_and_empty_queries_do_not_raise(dojo):
    for q in ['"', "NEAR(", "a OR", "*", "title:x", "')--", "\x00", "ü" * 500]:
        assert isinstance(dojo.index.search(q), list)
    assert dojo.browse("", Filters()) and len(dojo.browse("", Filters())) == len(dojo.bank)


def test_filters_combine_with_search(dojo):
    all_hits = dojo.browse("gradient")
    juniors = dojo.browse("gradient", Filters(level="junior"))
    assert juniors and len(juniors) < len(all_hits)
    assert all(e.meta.level == "junior" for e, _ in juniors)
    assert all(e.meta.type == "coding" for e, _ in dojo.browse("", Filters(type="coding")))
