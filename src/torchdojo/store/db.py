"""Open the database and bring its schema up to date with Alembic.

:func:`open_database` is the one entry point: it creates the folder of a SQLite file,
applies every pending migration (``alembic upgrade head``) under a lock and returns a session
factory (:class:`Sessions`).

Transactions (the store's concurrency contract, see ``docs/architecture.md``):

- ``with sessions() as s:`` reads. On SQLite it is a deferred transaction: in WAL mode readers
  never block the writer and always see one consistent snapshot.
- ``with sessions.begin() as s:`` is a *write* transaction, and every read-modify-write in the
  core goes through it. On SQLite it starts with ``BEGIN IMMEDIATE``: the write lock is taken
  before the first read, so two processes (or threads) updating the same row run one after
  the other and the second reads what the first wrote — no lost update, no mixed row (pysqlite
  on its own only begins a transaction at the first INSERT/UPDATE, after the reads). On
  PostgreSQL the same guarantee comes from a transaction-scoped advisory lock,
  ``pg_advisory_xact_lock(PG_WRITE_LOCK)``, taken as the transaction's first statement (held
  until COMMIT/ROLLBACK) in READ COMMITTED, where every later statement sees what the previous
  writer committed: one writer at a time per database, exactly as ``BEGIN IMMEDIATE``. Row
  locks alone (``SELECT … FOR UPDATE``) would not do: several read-modify-writes decide on rows
  that do not exist yet (a card's first rating, today's new-card count, "the latest review" of
  undo). The rows read for update are still locked with ``with_for_update=True`` (a no-op on
  SQLite), so a session that bypasses :meth:`Sessions.begin` cannot lose an update either.
  Reading sessions run in REPEATABLE READ on PostgreSQL: one snapshot per transaction, as
  SQLite's deferred ``BEGIN`` gives in WAL mode.
- Migrations run under a lock (a file lock beside a SQLite file, a session advisory lock,
  ``pg_advisory_lock(PG_MIGRATION_LOCK)``, on PostgreSQL), so any number of processes may start
  at once on a fresh data directory or database: one applies the migrations, the others wait
  and then find the schema at head.

Source: SQLAlchemy, "Serializable isolation / Savepoints / Transactional DDL" for pysqlite
(https://docs.sqlalchemy.org/en/20/dialects/sqlite.html#pysqlite-serializable);
SQLite, "Transaction" (https://sqlite.org/lang_transaction.html); PostgreSQL, "Advisory Locks"
(https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS) and "Transaction
Isolation" (https://www.postgresql.org/docs/current/transaction-iso.html).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from filelock import FileLock
from sqlalchemy import Engine, Integer, create_engine, event, make_url, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
#: How long a writer waits for another writer's lock before SQLite (or PostgreSQL: lock_timeout) gives up (ms). Generous:
#: on a busy machine a migration or a grading commit can hold the lock for seconds.
BUSY_TIMEOUT_MS = 60_000
#: Key of the PostgreSQL advisory lock taken while migrating (any constant; "tdojo" in ASCII).
PG_MIGRATION_LOCK = 0x74646F6A6F
#: Key of the PostgreSQL advisory lock every write transaction takes (see the module docstring).
PG_WRITE_LOCK = 0x74646F6A6F + 1


class DatabaseError(RuntimeError):
    """The database could not be opened or migrated; the message says where and what to do."""


def _sqlite_connect(dbapi_conn, _record) -> None:
    # The driver must not begin transactions itself: the "begin" listener below does, so a
    # write transaction can be BEGIN IMMEDIATE (see the module docstring).
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer: web + CLI at once
    cur.close()


def _sqlite_begin(conn) -> None:
    immediate = conn.get_execution_options().get("torchdojo_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _pg_begin(conn) -> None:
    # psycopg begins the transaction itself at the first statement; a write transaction's first
    # statement is the write lock, so it serialises writers as BEGIN IMMEDIATE does on SQLite.
    opts = conn.get_execution_options()
    schema = opts.get("torchdojo_schema")
    if schema is not None:  # a learner store (torchdojo.store.learners): its schema alone, this transaction only
        conn.exec_driver_sql(f'SET LOCAL search_path TO "{schema}"')
    if opts.get("torchdojo_write", False):  # one writer at a time per store (learners never wait on each other)
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_WRITE_LOCK if schema is None else _store_lock(schema)})")


def _store_lock(schema: str) -> int:
    """The advisory-lock key of a learner store's writers: a stable 62-bit number from its name."""
    import hashlib

    return int(hashlib.sha256(schema.encode()).hexdigest()[:15], 16) + 2**62 - 2**60


#: SQLSTATE classes / codes of a server that is not answering: 08 connection exception,
#: 57P01-57P03 (admin / crash shutdown, "cannot connect now": starting or stopping).
_PG_UNAVAILABLE = ("08", "57P01", "57P02", "57P03")


def unavailable(exc: BaseException) -> bool:
    """True when ``exc`` says the database is not answering right now (stopped, restarting,
    unreachable, the connection dropped, or SQLite's file locked past the busy timeout): the same
    operation may succeed later, so a face answers 503 "retry" and a worker retries the job.
    False for any other error (a bug, a constraint): those must not be retried blindly."""
    from sqlalchemy import exc as sa_exc

    if not isinstance(exc, sa_exc.DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if not isinstance(exc, sa_exc.OperationalError | sa_exc.InterfaceError):
        return False
    orig = exc.orig
    state = getattr(orig, "sqlstate", None)
    if type(orig).__module__.startswith("psycopg"):  # no SQLSTATE: the connection itself failed
        return state is None or state.startswith(_PG_UNAVAILABLE)
    msg = str(orig).lower()  # sqlite3
    return "locked" in msg or "unable to open" in msg or "disk i/o" in msg


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and for ``:memory:``)."""
    if not url.startswith("sqlite:///"):
        return None
    path = url.removeprefix("sqlite:///")
    return None if path in ("", ":memory:") else Path(path)


class _UncastInteger(Integer):
    """PostgreSQL: an INTEGER whose bound values carry no ``::INTEGER`` cast (see make_engine)."""

    render_bind_cast = False


def postgres_url(url: str) -> str | None:
    """``url`` with the psycopg 3 driver when it names PostgreSQL (``postgresql://``,
    ``postgres://`` or ``postgresql+psycopg://``), else None."""
    u = make_url(url)
    if u.get_backend_name() not in ("postgresql", "postgres"):
        return None
    if u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+psycopg")
    return u.render_as_string(hide_password=False)


def safe_url(url: str) -> str:
    """``url`` with any password masked (for messages and logs)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy can parse: shown as given, so the user sees what is wrong
        return url


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url`` with torchdojo's transaction set-up (module docstring).

    SQLite: the file's folder is created. PostgreSQL (``postgresql://`` is taken to mean psycopg
    3): raises :class:`DatabaseError` when the driver is not installed."""
    if url.startswith("sqlite:"):
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    pg = postgres_url(url)
    if pg is not None:
        try:
            import psycopg  # noqa: F401  (the team extra: only a PostgreSQL URL needs it)
        except ImportError as e:
            raise DatabaseError("a PostgreSQL database needs the psycopg driver: pip install 'torchdojo[team]'") from e
        # Readers get one snapshot per transaction; Sessions.write_engine switches to READ COMMITTED.
        # lock_timeout: a writer waits for the write (or migration) lock as long as SQLite's
        # busy timeout, then fails with an error instead of hanging.
        engine = create_engine(pg, pool_pre_ping=True, isolation_level="REPEATABLE READ",
                               connect_args={"options": f"-c lock_timeout={BUSY_TIMEOUT_MS}"})
        # Integers are sent as psycopg types them (int2/int4/int8/numeric by value), not cast to
        # INTEGER in the SQL: an id from a URL beyond int4 (/scorecards/1000000000000) then finds
        # nothing, as on SQLite, instead of failing with "integer out of range".
        engine.dialect.colspecs = {**engine.dialect.colspecs, Integer: _UncastInteger}
        event.listen(engine, "begin", _pg_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


class Sessions(sessionmaker):
    """A session factory whose ``begin()`` opens a *write* transaction (``BEGIN IMMEDIATE`` on
    SQLite, the write advisory lock on PostgreSQL); calling it (``sessions()``) opens a session
    for reading."""

    def __init__(self, engine: Engine, **kw) -> None:
        super().__init__(engine, **kw)
        self.engine = engine
        opts = {"torchdojo_write": True}
        if engine.dialect.name == "postgresql":
            opts["isolation_level"] = "READ COMMITTED"
        self.write_engine = engine.execution_options(**opts)

    @contextmanager
    def begin(self) -> Iterator[Session]:  # type: ignore[override]
        """A write transaction: the write lock is taken on entry (so a time read inside the
        block is later than every write committed before it), committed on exit, rolled back
        on an exception."""
        with self(bind=self.write_engine) as s, s.begin():
            s.connection()  # BEGIN IMMEDIATE / the advisory lock now, not at the first query
            yield s


def _alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    """The newest migration's revision id."""
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: not migrated at all)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def migration_lock(engine: Engine, url: str) -> Iterator[None]:
    """Hold the lock that serialises migrations across processes (a no-op for in-memory SQLite)."""
    path = sqlite_path(url)
    if path is not None:
        with FileLock(str(path) + ".migrate.lock", timeout=BUSY_TIMEOUT_MS / 1000):
            yield
    elif engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": PG_MIGRATION_LOCK})
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": PG_MIGRATION_LOCK})
                conn.commit()
    else:
        yield


def migrate(engine: Engine, url: str | None = None) -> None:
    """Apply all pending Alembic migrations to ``engine``'s database, under :func:`migration_lock`."""
    cfg = _alembic_config()
    with migration_lock(engine, url or engine.url.render_as_string(hide_password=False)):
        if current_revision(engine) == head_revision():
            return  # the common case: another process (or an earlier start) already migrated
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


def open_database(url: str) -> Sessions:
    """Engine for ``url``, migrated to the latest schema; returns a session factory.

    Raises :class:`DatabaseError` when the database cannot be opened or migrated.
    """
    try:
        engine = make_engine(url)
        migrate(engine, url)
    except DatabaseError:
        raise
    except Exception as e:  # report any driver/migration failure with the URL and a next step
        if url.startswith("sqlite:"):
            hint = "Check the path is writable or set TORCHDOJO_DATABASE_URL to another location."
        else:
            hint = ("Check the server is running and TORCHDOJO_DATABASE_URL (e.g. "
                    "postgresql+psycopg://user:password@host:5432/torchdojo) names a database you may create tables in.")
        raise DatabaseError(f"cannot open or migrate the database at {safe_url(url)}: {e}. {hint}") from e
    return Sessions(engine, expire_on_commit=False)
