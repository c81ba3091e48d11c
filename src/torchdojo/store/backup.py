"""Full backup of the learner's data as one JSON document, and restore from it.

**What is saved.** Every table of :data:`torchdojo.store.models.Base.metadata` except those
named in :data:`EXCLUDED_TABLES` (with the reason): the list is derived from the models, so a
table added later is saved unless someone decides otherwise (a test fails for a table of the
database that is neither saved nor excluded). Nothing of the bank is saved: the bank is files.

**Format** (``format`` :data:`FORMAT`, ``version`` :data:`VERSION`)::

    {"format": "torchdojo-backup", "version": 1, "schema_revision": "0008",
     "exported_at": "2026-01-02T03:04:05.000000+00:00",
     "tables": {"cards": [{"question_id": "...", "state": 2, ...}, ...], ...}}

Tables are in dependency order (parents first), rows in primary-key order, each row an object
with every column in the table's column order. Values: integers and floats as JSON numbers
(floats written with Python's shortest round-tripping repr, so they read back bit for bit),
booleans as ``true``/``false``, text as strings, datetimes as ISO 8601 in UTC with microseconds
(``2026-01-02T03:04:05.123456+00:00``), ``null`` for NULL. The same data always gives the same
bytes apart from ``exported_at``.

**Restore** (:func:`restore`) first validates the whole document (format, version, every table,
row, column and value: an error names the table, the row index and the column) and only then
writes, in ONE write transaction: all rows or none. Into an empty database only, unless
``replace`` is given: then the user data is deleted first, in the same transaction. Row ids are
kept, so foreign keys hold; on PostgreSQL each id sequence is moved past the largest id restored.

This module is storage only: it imports neither the bank, the practice layer nor the faces.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from alembic.runtime.migration import MigrationContext
from sqlalchemy import Boolean, Float, Integer, String, Table, Text, func, select, text
from sqlalchemy.orm import Session

from torchdojo.store.db import Sessions, head_revision
from torchdojo.store.models import Base, UTCDateTime

FORMAT = "torchdojo-backup"
VERSION = 1
#: Tables of the models deliberately left out of a backup, with the reason. Empty today: every
#: table holds the learner's own data. (``alembic_version`` is not a model; the backup records
#: the revision in ``schema_revision`` instead.)
EXCLUDED_TABLES: dict[str, str] = {}
#: Largest backup accepted by the web upload (bytes). A year of daily study is well under 50 MB.
MAX_BACKUP_BYTES = 256 * 1024 * 1024


class BackupError(ValueError):
    """The backup file cannot be restored: the message says where (line, or table, row index and
    column) and what is wrong. Nothing was written."""


class NotEmptyError(BackupError):
    """The target database already holds user data and ``replace`` was not given."""


@dataclass(frozen=True)
class RestoreReport:
    """What a restore wrote: rows per table (in restore order) and rows deleted first (replace)."""

    rows: dict[str, int]
    deleted: int

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def backup_tables() -> list[Table]:
    """The tables a backup holds, parents before children (``Base.metadata.sorted_tables``
    minus :data:`EXCLUDED_TABLES`)."""
    return [t for t in Base.metadata.sorted_tables if t.name not in EXCLUDED_TABLES]


# -- values ----------------------------------------------------------------------------------
def _kind(col) -> str:
    t = col.type
    if isinstance(t, UTCDateTime):
        return "datetime"
    if isinstance(t, Boolean):
        return "boolean"
    if isinstance(t, Integer):
        return "integer"
    if isinstance(t, Float):
        return "float"
    if isinstance(t, String | Text):
        return "text"
    raise TypeError(f"column {col.table.name}.{col.name}: type {t!r} has no backup encoding; add one here")


def _encode(value, kind: str):
    if value is None:
        return None
    if kind == "datetime":
        return value.astimezone(UTC).isoformat(timespec="microseconds")
    if kind == "float":
        return float(value)
    if kind == "boolean":
        return bool(value)
    return value


def _decode(value, col, kind: str, where: str):
    """The Python value of a JSON value for ``col``; raises :class:`BackupError` naming ``where``."""
    if value is None:
        if not col.nullable:
            raise BackupError(f"{where}: null, but the column cannot be empty")
        return None
    if kind == "datetime":
        if not isinstance(value, str):
            raise BackupError(f"{where}: expected an ISO 8601 datetime string, got {_json_type(value)}")
        try:
            dt = datetime.fromisoformat(value)
        except ValueError:
            raise BackupError(f"{where}: not an ISO 8601 datetime: {value[:40]!r}") from None
        if dt.tzinfo is None:
            raise BackupError(f"{where}: datetime {value!r} has no time zone (write it in UTC, e.g. +00:00)")
        return dt.astimezone(UTC)
    if kind == "boolean":
        if not isinstance(value, bool):
            raise BackupError(f"{where}: expected true or false, got {_json_type(value)}")
        return value
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            raise BackupError(f"{where}: expected an integer, got {_json_type(value)}")
        if not -(2**63) <= value < 2**63:
            raise BackupError(f"{where}: integer {value} out of the 64-bit range")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BackupError(f"{where}: expected a number, got {_json_type(value)}")
        if not math.isfinite(value):
            raise BackupError(f"{where}: not a finite number")
        return float(value)
    # text
    if not isinstance(value, str):
        raise BackupError(f"{where}: expected a string, got {_json_type(value)}")
    limit = getattr(col.type, "length", None)
    if limit is not None and len(value) > limit:
        raise BackupError(f"{where}: {len(value)} characters, at most {limit}")
    return value


def _json_type(value) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number"}.get(type(value), type(value).__name__)


# -- backup ----------------------------------------------------------------------------------
def dump(sessions: Sessions, now: datetime | None = None) -> dict:
    """Every row of every backed-up table, as the document described in the module docstring
    (a dict ready for :func:`json.dumps`), read in one transaction (a consistent snapshot).

    ``now``: the export time recorded (UTC; default: the current time)."""
    now = now or datetime.now(UTC)
    tables: dict[str, list[dict]] = {}
    with sessions() as s:
        revision = MigrationContext.configure(s.connection()).get_current_revision()
        for t in backup_tables():
            cols = [(c.name, _kind(c)) for c in t.columns]
            pk = list(t.primary_key.columns)
            rows = s.execute(select(t).order_by(*pk)).mappings()
            tables[t.name] = [{name: _encode(r[name], kind) for name, kind in cols} for r in rows]
    return {"format": FORMAT, "version": VERSION, "schema_revision": revision,
            "exported_at": now.astimezone(UTC).isoformat(timespec="microseconds"), "tables": tables}


def dumps(sessions: Sessions, now: datetime | None = None) -> str:
    """:func:`dump` as JSON text (UTF-8, one row per line, deterministic: the same data gives
    the same text apart from ``exported_at``)."""
    doc = dump(sessions, now)
    head = {k: v for k, v in doc.items() if k != "tables"}
    out = ["{"]
    out += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    out.append('  "tables": {')
    names = list(doc["tables"])
    for i, name in enumerate(names):
        rows = doc["tables"][name]
        tail = "," if i < len(names) - 1 else ""
        if not rows:
            out.append(f"    {json.dumps(name)}: []{tail}")
            continue
        out.append(f"    {json.dumps(name)}: [")
        out += [f"      {json.dumps(r, ensure_ascii=False, allow_nan=False)}{',' if j < len(rows) - 1 else ''}"
                for j, r in enumerate(rows)]
        out.append(f"    ]{tail}")
    out += ["  }", "}", ""]
    return "\n".join(out)


# -- restore ---------------------------------------------------------------------------------
def parse(data: str | bytes) -> dict:
    """The backup document in ``data`` (JSON text), with its format and version checked.
    Raises :class:`BackupError` with the line and column of a JSON syntax error."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BackupError(f"not UTF-8 text (byte {e.start}): a torchdojo backup is a JSON file") from None
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as e:
        raise BackupError(f"not valid JSON: line {e.lineno}, column {e.colno}: {e.msg}") from None
    if not isinstance(doc, dict):
        raise BackupError(f"not a torchdojo backup: the file holds {_json_type(doc)}, not an object")
    if doc.get("format") != FORMAT:
        raise BackupError(f"format: {doc.get('format')!r} is not a torchdojo backup (expected {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise BackupError(f"version: {doc.get('version')!r} is not a version this torchdojo reads "
                          f"(it reads version {VERSION}); restore it with the torchdojo that wrote it")
    if not isinstance(doc.get("tables"), dict):
        raise BackupError("tables: missing, or not an object of table name → rows")
    return doc


def validate(doc: Mapping) -> dict[str, list[dict]]:
    """Check every table, row, column and value of a parsed backup against the models; returns
    the rows as Python values ready to insert, per table in restore order (parents first, and
    within a table that refers to itself, each row after the row it refers to).

    Raises :class:`BackupError` naming the table, the row index (0-based) and the column."""
    tables = doc["tables"]
    wanted = {t.name: t for t in backup_tables()}
    revision = doc.get("schema_revision")
    hint = "" if revision == head_revision() else (
        f" (the backup is of schema revision {revision!r}, this torchdojo's is {head_revision()!r})")
    unknown = sorted(set(tables) - set(wanted))
    if unknown:
        raise BackupError(f"tables: unknown table {unknown[0]!r}{hint}; known: {', '.join(sorted(wanted))}")
    missing = [n for n in wanted if n not in tables]
    if missing:
        raise BackupError(f"tables: table {missing[0]!r} is missing{hint}")
    out: dict[str, list[dict]] = {}
    for name, t in wanted.items():
        rows = tables[name]
        if not isinstance(rows, list):
            raise BackupError(f"table {name}: expected an array of rows, got {_json_type(rows)}")
        cols = {c.name: (c, _kind(c)) for c in t.columns}
        pk = [c.name for c in t.primary_key.columns]
        seen_keys: set[tuple] = set()
        decoded = []
        for i, row in enumerate(rows):
            where = f"table {name}, row {i}"
            if not isinstance(row, dict):
                raise BackupError(f"{where}: expected an object, got {_json_type(row)}")
            extra = [k for k in row if k not in cols]
            if extra:
                raise BackupError(f"{where}, column {extra[0]!r}: unknown column{hint}")
            # A backup of an older schema lacks the columns later migrations added: those that
            # may be empty (or have a default) are filled in as the migration would have.
            absent = [k for k in cols if k not in row and not (hint and _fillable(cols[k][0]))]
            if absent:
                raise BackupError(f"{where}, column {absent[0]!r}: missing{hint}")
            values = {k: _decode(row[k], col, kind, f"{where}, column {k!r}") if k in row else _fill(col)
                      for k, (col, kind) in cols.items()}
            key = tuple(values[k] for k in pk)
            if key in seen_keys:
                raise BackupError(f"{where}, column {pk[0]!r}: duplicate key {key if len(key) > 1 else key[0]!r}")
            seen_keys.add(key)
            decoded.append(values)
        out[name] = decoded
    _check_references(out)  # in file order, so the row index is the file's
    return {name: _parents_first(wanted[name], rows) for name, rows in out.items()}


def _fillable(col) -> bool:
    """Whether a column missing from an older backup can be filled in: nullable, or with a default."""
    return col.nullable or (col.default is not None and not callable(getattr(col.default, "arg", None)))


def _fill(col):
    """The value a migration gives a column it adds: its scalar default, else None."""
    return col.default.arg if col.default is not None else None


def _self_refs(t: Table) -> list[tuple[str, str]]:
    return [(fk.parent.name, fk.column.name) for fk in t.foreign_keys if fk.column.table is t]


def _parents_first(t: Table, rows: list[dict]) -> list[dict]:
    """Rows of a table that refers to itself ordered so each comes after the row it refers to
    (foreign keys are checked per statement on PostgreSQL and cannot be deferred)."""
    refs = _self_refs(t)
    if not refs:
        return rows
    done: set = set()
    out: list[dict] = []
    pending = list(enumerate(rows))
    while pending:
        later = []
        for i, r in pending:
            if all(r[c] is None or r[c] in done or r[c] == r[target] for c, target in refs):
                out.append(r)
                done.update(r[target] for _c, target in refs)
            else:
                later.append((i, r))
        if len(later) == len(pending):  # every reference exists (checked before): a cycle
            i, r = later[0]
            c, target = next((c, tg) for c, tg in refs if r[c] is not None and r[c] not in done)
            raise BackupError(f"table {t.name}, row {i}, column {c!r}: refers to {target} {r[c]!r}, "
                              "and the rows refer to each other in a cycle")
        pending = later
    return out


def _check_references(rows: dict[str, list[dict]]) -> None:
    """Every foreign key names a row of the backup (checked here so the message can say which)."""
    by_table = {t.name: t for t in backup_tables()}
    for name, t in by_table.items():
        for fk in t.foreign_keys:
            target = fk.column.table.name
            if target not in rows:
                continue
            have = {r[fk.column.name] for r in rows[target]}
            for i, r in enumerate(rows[name]):
                v = r[fk.parent.name]
                if v is not None and v not in have:
                    raise BackupError(f"table {name}, row {i}, column {fk.parent.name!r}: refers to "
                                      f"{target}.{fk.column.name} {v!r}, which the backup does not have")


def count_rows(s: Session) -> int:
    """Rows of user data in the database (all backed-up tables)."""
    return sum(s.scalar(select(func.count()).select_from(t)) or 0 for t in backup_tables())


def restore(sessions: Sessions, data: str | bytes, replace: bool = False) -> RestoreReport:
    """Restore the backup in ``data`` (JSON text) into the database.

    Validates the whole document first (:func:`parse`, :func:`validate`), then writes every row
    in one write transaction. Into a database holding user data only with ``replace=True``,
    which deletes that data first in the same transaction.

    Raises :class:`BackupError` for a file that is not a valid backup (nothing written) and
    :class:`NotEmptyError` when the database holds data and ``replace`` is False."""
    rows = validate(parse(data))
    tables = backup_tables()
    deleted = 0
    with sessions.begin() as s:
        existing = count_rows(s)
        if existing and not replace:
            raise NotEmptyError(f"the database already holds {existing} row(s) of study data; restore into an "
                                "empty database, or replace its data (--replace; the web form's Replace box)")
        if existing:
            for t in reversed(tables):
                deleted += s.execute(t.delete()).rowcount or 0
        for t in tables:
            if rows[t.name]:
                s.execute(t.insert(), rows[t.name])
        if s.get_bind().dialect.name == "postgresql":
            _reset_sequences(s, tables)
    return RestoreReport({t.name: len(rows[t.name]) for t in tables}, deleted)


def _reset_sequences(s: Session, tables: list[Table]) -> None:
    """Move each serial id sequence past the largest id restored (PostgreSQL); the next row
    inserted then gets a fresh id instead of colliding with a restored one."""
    for t in tables:
        pk = list(t.primary_key.columns)
        if len(pk) != 1 or not isinstance(pk[0].type, Integer) or pk[0].autoincrement is False:
            continue
        col = pk[0].name
        s.execute(text(
            f"SELECT setval(pg_get_serial_sequence(:t, :c), COALESCE(MAX({col}), 1), MAX({col}) IS NOT NULL) "
            f"FROM {t.name}"), {"t": t.name, "c": col})
