"""Paging of long lists (the questions list): one page of a sequence and where it stands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

#: Items on one page of the questions list.
PER_PAGE = 50


class PageOutOfRange(LookupError):
    """A page number past the last page; ``pages`` is how many there are (at least 1)."""

    def __init__(self, number: int, pages: int, total: int) -> None:
        self.number, self.pages, self.total = number, pages, total
        super().__init__(f"Page {number} is past the end: these {total} result(s) fill {pages} page(s).")


@dataclass(frozen=True)
class Page(Generic[T]):
    """Page ``number`` (1-based) of ``pages`` over ``total`` items, holding ``items``."""

    items: list[T]
    number: int
    pages: int
    total: int
    per_page: int

    @property
    def first(self) -> int:
        """1-based position of the first item shown (0 when there are none)."""
        return (self.number - 1) * self.per_page + 1 if self.items else 0

    @property
    def last(self) -> int:
        """1-based position of the last item shown (0 when there are none)."""
        return self.first + len(self.items) - 1 if self.items else 0


def paginate(items: Sequence[T], number: int = 1, per_page: int = PER_PAGE) -> Page[T]:
    """Page ``number`` (1-based) of ``items``, ``per_page`` a page. An empty sequence has one
    (empty) page. Raises ValueError for ``number`` < 1 or ``per_page`` < 1 and
    :class:`PageOutOfRange` for a page past the last."""
    if number < 1 or per_page < 1:
        raise ValueError(f"page and per_page start at 1 (got page {number}, per_page {per_page})")
    total = len(items)
    pages = max(1, -(-total // per_page))
    if number > pages:
        raise PageOutOfRange(number, pages, total)
    start = (number - 1) * per_page
    return Page(items=list(items[start:start + per_page]), number=number, pages=pages, total=total, per_page=per_page)
