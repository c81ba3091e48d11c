"""Coverage of an outside catalogue of interview questions by the bank.

The catalogue is a CSV with at least the columns ``id``, ``question`` and ``topic`` (the
project's ``shared/coverage/questions.csv``). A row is covered when some entry lists its id
in ``coverage``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from torchdojo.bank.loader import Bank


class CatalogueError(ValueError):
    """The catalogue file is missing, unreadable or lacks a required column."""


@dataclass
class TopicCoverage:
    topic: str
    total: int = 0
    covered: int = 0
    uncovered: list[str] = field(default_factory=list)


@dataclass
class CoverageReport:
    topics: dict[str, TopicCoverage]
    unknown_ids: dict[str, list[str]]  # entry id -> coverage ids absent from the catalogue

    @property
    def total(self) -> int:
        return sum(t.total for t in self.topics.values())

    @property
    def covered(self) -> int:
        return sum(t.covered for t in self.topics.values())

    @property
    def uncovered(self) -> list[str]:
        return sorted(i for t in self.topics.values() for i in t.uncovered)


def read_catalogue(path: Path) -> list[dict[str, str]]:
    """Rows of the catalogue. Raises :class:`CatalogueError` naming the file and the problem."""
    try:
        with path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise CatalogueError(f"{path}: cannot read the catalogue: {e.strerror}") from e
    missing = {"id", "question", "topic"} - set(rows[0] if rows else {})
    if missing:
        raise CatalogueError(f"{path}:1: the header lacks column(s) {sorted(missing)}")
    return rows


def coverage(bank: Bank, rows: list[dict[str, str]]) -> CoverageReport:
    claimed: dict[str, list[str]] = {}
    for e in bank:
        for cid in e.meta.coverage:
            claimed.setdefault(cid, []).append(e.id)
    topics: dict[str, TopicCoverage] = {}
    ids = set()
    for row in rows:
        ids.add(row["id"])
        t = topics.setdefault(row["topic"], TopicCoverage(row["topic"]))
        t.total += 1
        if row["id"] in claimed:
            t.covered += 1
        else:
            t.uncovered.append(row["id"])
    unknown = {}
    for e in bank:
        bad = [c for c in e.meta.coverage if c not in ids]
        if bad:
            unknown[e.id] = bad
    return CoverageReport(topics=topics, unknown_ids=unknown)
