"""Database checks that need no practice logic: SQLite's own integrity check and the schema
revision (``torchdojo doctor`` adds the flashcard replay check on top, see
:meth:`torchdojo.practice.flashcards.Flashcards.check`).

Source: SQLite ``PRAGMA integrity_check`` (https://sqlite.org/pragma.html#pragma_integrity_check).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from torchdojo.store.db import current_revision, head_revision


@dataclass(frozen=True)
class Finding:
    """One result of a check: ``ok`` False means a problem, described in ``detail``."""

    check: str
    ok: bool
    detail: str


def check_engine(engine: Engine) -> list[Finding]:
    """SQLite integrity (skipped on other databases, with a finding that says so) and whether the schema is at the newest
    migration. Never writes."""
    out: list[Finding] = []
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            rows = [r[0] for r in conn.exec_driver_sql("PRAGMA integrity_check").fetchall()]
        ok = rows == ["ok"]
        out.append(Finding("sqlite integrity", ok, "ok" if ok else "; ".join(rows[:20])))
    else:
        out.append(Finding("sqlite integrity", True, f"skipped: the database is {engine.dialect.name}, not SQLite "
                           "(PostgreSQL checks its own pages; pg_amcheck verifies them)"))
    cur, head = current_revision(engine), head_revision()
    out.append(Finding("schema revision", cur == head,
                       f"at {cur} (newest)" if cur == head else f"at {cur}, newest is {head}: start torchdojo once to migrate"))
    return out
