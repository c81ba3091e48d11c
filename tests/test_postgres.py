"""The store on a real PostgreSQL, side by side with SQLite.

The most important store and practice tests run on both databases (``url`` is parametrised:
a SQLite file, or a fresh database on the session's private PostgreSQL server from
``tests/pg.py``); the concurrency tests run on PostgreSQL with real processes: two
``torchdojo serve`` processes and several plain Python processes rating the same cards at once,
and many processes migrating one fresh database at once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from conftest import BANK, TORCHDOJO, Server
from sqlalchemy import inspect, select, text
from test_store import all_tables

from torchdojo.core import Dojo
from torchdojo.practice.flashcards import CardChangedError
from torchdojo.practice.mock import MockConfig
from torchdojo.settings import Settings
from torchdojo.store.db import current_revision, head_revision, make_engine, migrate
from torchdojo.store.doctor import check_engine
from torchdojo.store.models import MockItemRow, ReviewLogRow

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CH = BANK / "challenges" / "stable-softmax"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path: Path) -> str:
    """A fresh, empty database of either kind (not migrated yet)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'user' / 'torchdojo.db'}"
    return request.getfixturevalue("pg_url")


def _dojo(url: str) -> Dojo:
    return Dojo(Settings(bank_dir=BANK, database_url=url))


# -- schema ------------------------------------------------------------------------------------
def test_migrations_from_empty_to_head_match_the_models_and_pass_doctor(url):
    engine = make_engine(url)
    assert current_revision(engine) is None
    migrate(engine, url)
    migrate(engine, url)  # idempotent
    assert current_revision(engine) == head_revision()
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), all_tables()) == []  # practice + team server
    assert set(inspect(engine).get_table_names()) == set(all_tables().tables) | {"alembic_version"}
    findings = {f.check: f for f in check_engine(engine)}
    assert all(f.ok for f in findings.values()), findings
    assert findings["schema revision"].detail == f"at {head_revision()} (newest)"
    if engine.dialect.name == "postgresql":
        assert findings["sqlite integrity"].detail.startswith("skipped: the database is postgresql")
    else:
        assert findings["sqlite integrity"].detail == "ok"
    # server defaults hold on this database too (booleans, text, integers)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO cards (question_id, state, due, created_at) VALUES ('x', 1, :t, :t)"),
                     {"t": NOW.replace(tzinfo=None)})
        conn.execute(text("INSERT INTO challenge_progress (challenge_id) VALUES ('c')"))
        assert conn.execute(text("SELECT suspended FROM cards")).scalar() in (False, 0)
        assert conn.execute(text("SELECT hints_shown FROM challenge_progress")).scalar() == 0
    engine.dispose()


def test_doctor_on_postgresql_skips_the_sqlite_check_and_runs_the_rest(pg_url):
    d = _dojo(pg_url)
    cid = d.flashcards.queue(now=NOW)[0]
    d.flashcards.review(cid, "good", now=NOW)
    with d.sessions.begin() as s:  # a lost update: the card no longer equals its log
        s.execute(text("UPDATE cards SET stability = stability * 7 WHERE question_id = :i"), {"i": cid})
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": pg_url, "TORCHDOJO_BANK_DIR": str(BANK)}
    dry = subprocess.run([TORCHDOJO, "doctor", "--dry-run"], env=env, capture_output=True, text=True, timeout=300)
    assert dry.returncode == 1 and cid in dry.stdout, dry.stdout + dry.stderr
    fix = subprocess.run([TORCHDOJO, "doctor"], env=env, capture_output=True, text=True, timeout=300)
    out = fix.stdout + fix.stderr
    assert fix.returncode == 0 and "repaired" in out, out
    assert "sqlite integrity: skipped: the database is postgresql" in out
    assert "schema revision: at " + head_revision() + " (newest)" in out
    assert _dojo(pg_url).flashcards.check(repair=False) == []


# -- flashcards --------------------------------------------------------------------------------
def test_rating_reschedules_and_writes_the_review_log(url):
    d = _dojo(url)
    entry_id = d.flashcards.queue(now=NOW)[0]
    preview = d.flashcards.preview(entry_id, now=NOW)
    st = d.flashcards.review(entry_id, "easy", now=NOW, duration_ms=4200)
    assert not st.is_new and st.due == NOW + preview["easy"]
    assert entry_id not in d.flashcards.queue(now=NOW)
    d2 = _dojo(url)  # an app restart sees the same state and log
    st2 = d2.flashcards.status(entry_id, now=NOW)
    assert (st2.due, st2.stability, st2.difficulty) == (st.due, st.stability, st.difficulty)
    (log,) = d2.flashcards.history()
    assert (log.question_id, log.rating, log.duration_ms, log.reviewed_at) == (entry_id, 4, 4200, NOW)
    d2.flashcards.review(entry_id, "again", now=st.due + timedelta(days=1))
    assert d2.flashcards.undo() is not None and len(d2.flashcards.history()) == 1
    assert d2.flashcards.check(repair=False) == []


def test_a_rating_names_the_state_it_was_given_for(url):
    d = _dojo(url)
    cid = d.flashcards.queue(now=NOW)[0]
    seen = d.flashcards.status(cid, NOW).version
    assert seen == "new"
    d.flashcards.review(cid, "good", now=NOW, seen=seen)  # the first tab
    with pytest.raises(CardChangedError, match="rated elsewhere"):
        d.flashcards.review(cid, "again", now=NOW + timedelta(seconds=1), seen=seen)  # the second tab
    assert len(d.flashcards.history([cid])) == 1
    assert d.flashcards.check(repair=False) == []


# -- mock interviews, judge, backup ----------------------------------------------------------
def test_mock_autosave_is_committed(url):
    d = _dojo(url)
    m = d.mocks.start(MockConfig(level="junior", minutes=20, use_judge=False, seed=2), now=NOW)
    d.mocks.save_answer(m.id, 0, "first draft", now=NOW + timedelta(seconds=5))
    d.mocks.save_answer(m.id, 0, "a view shares storage ✓\nreshape may copy", now=NOW + timedelta(seconds=9))
    got = _dojo(url).mocks.get(m.id, now=NOW + timedelta(seconds=10))
    assert got.items[0].answer == "a view shares storage ✓\nreshape may copy"
    with _dojo(url).sessions() as s:
        row = s.scalars(select(MockItemRow).where(MockItemRow.mock_id == m.id, MockItemRow.position == 0)).one()
        assert row.answer_saved_at == NOW + timedelta(seconds=9)


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")
def test_a_judge_submission_is_stored_and_listed(url):
    d = _dojo(url)
    sid, rep = d.judge.submit("stable-softmax", (CH / "reference.py").read_text())
    try:
        assert rep.verdict.value == "Accepted" and sid is not None
        sid2, rep2 = d.judge.submit("stable-softmax", "def f(:\n", mode="run")
        assert rep2.verdict.value != "Accepted" and sid2 > sid
        listed = _dojo(url).judge.history("stable-softmax")
        assert [(r.id, r.verdict, r.mode) for r in listed] == [(sid2, rep2.verdict.value, "run"),
                                                                (sid, "Accepted", "submit")]
        assert json.loads(listed[1].report)["verdict"] == "Accepted"
    finally:
        d.judge.close()


def test_backup_moves_between_sqlite_and_postgresql_exactly(tmp_path: Path, pg_url):
    from test_backup import T0, seed

    src = _dojo(f"sqlite:///{tmp_path / 'src' / 'torchdojo.db'}")
    seed(src)
    doc = src.data.backup_json(now=T0)
    pg = _dojo(pg_url)
    assert pg.data.restore(doc).problems == []
    assert pg.data.backup_json(now=T0) == doc  # byte for byte
    back = _dojo(f"sqlite:///{tmp_path / 'back' / 'torchdojo.db'}")
    back.data.restore(pg.data.backup_json(now=T0))
    assert back.data.backup_json(now=T0) == doc
    before = len(pg.flashcards.history())  # a new row after a restore gets a fresh id (sequence moved on)
    pg.flashcards.review(json.loads(doc)["tables"]["cards"][0]["question_id"], "good", now=T0 + timedelta(days=30))
    ids = [r.id for r in pg.flashcards.history()]
    assert len(ids) == before + 1 and len(set(ids)) == len(ids)


# -- concurrency on PostgreSQL: real processes ---------------------------------------------
def test_two_servers_rating_the_same_cards_never_corrupt_them_on_postgresql(pg_url):
    """tests/test_integrity.py's two-server test, on PostgreSQL: two ``torchdojo serve``
    processes, four threads each (half sending the state they saw), all rating the queue head
    for a bounded time; afterwards every card equals the replay of its review log, no 5xx."""
    from test_integrity import _rate_loop

    cards = _dojo(pg_url).flashcards.queue()[:5]
    servers = [Server(pg_url) for _ in range(2)]
    statuses: list[int] = []
    errors: list[str] = []
    try:
        for srv in servers:
            srv.start(timeout=120)
        stop = time.monotonic() + 12
        threads = [threading.Thread(target=_rate_loop, args=(srv.url, cards, stop, i % 2 == 0, statuses, errors))
                   for srv in servers for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        for srv in servers:
            srv.stop()
    assert not errors, errors[:3]
    assert statuses and all(c < 500 for c in statuses), sorted(set(statuses))
    d = _dojo(pg_url)
    with d.sessions() as s:
        reviews = s.scalar(text("SELECT count(*) FROM review_logs"))
        contested = s.scalar(text(
            "SELECT count(*) FROM (SELECT question_id FROM review_logs GROUP BY question_id HAVING count(*) > 3) c"))
    posts = len(statuses) // 2
    print(f"\nPostgreSQL: {posts} ratings posted by 8 threads on 2 servers: {reviews} applied, "
          f"{posts - reviews} refused (rated elsewhere since they were shown)")
    assert reviews > 20 and contested >= 3, (reviews, contested)  # the threads really raced
    assert d.flashcards.check(repair=False) == []


_RATER = """
import sys
from pathlib import Path
from torchdojo.core import Dojo
from torchdojo.settings import Settings
url, bank, cards, n = sys.argv[1], sys.argv[2], sys.argv[3].split(","), int(sys.argv[4])
d = Dojo(Settings(bank_dir=Path(bank), database_url=url))
print("ready", flush=True)
sys.stdin.readline()  # everyone starts at once
for i in range(n):
    d.flashcards.review(cards[i % len(cards)], ("again", "hard", "good", "easy")[i % 4])
print("done", flush=True)
"""


def test_processes_rating_the_same_new_cards_at_once_lose_nothing_on_postgresql(pg_url):
    """Four processes rate the same two cards (new at the start: the first ratings race to create
    the row) as fast as they can, with no ``seen`` (so none is refused): every rating is in the
    log (no lost update) and every card equals the replay of its log (no mixed row)."""
    cards = _dojo(pg_url).flashcards.queue()[:2]
    n, procs = 15, []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        for _ in range(4):
            procs.append(subprocess.Popen([sys.executable, "-c", _RATER, pg_url, str(BANK), ",".join(cards), str(n)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          text=True, env=env))
        for p in procs:
            assert p.stdout.readline().strip() == "ready", p.stdout.read()
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [(p.wait(300), p.stdout.read()) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [rc for rc, _ in outs] == [0] * 4, [o for rc, o in outs if rc]
    d = _dojo(pg_url)
    logs = d.flashcards.history()
    assert len(logs) == 4 * n and {r.question_id for r in logs} == set(cards)
    with d.sessions() as s:
        assert s.scalar(text("SELECT count(*) FROM cards")) == 2
        order = list(s.scalars(select(ReviewLogRow.reviewed_at).order_by(ReviewLogRow.id)))
    assert order == sorted(order)  # the log's order is the order the ratings were applied in
    assert d.flashcards.check(repair=False) == []


_MIGRATOR = """
import logging, sys
applied = []
class H(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Running upgrade"):
            applied.append(record.getMessage())
log = logging.getLogger("alembic.runtime.migration")
log.setLevel(logging.INFO)
log.addHandler(H())
from sqlalchemy import text
from torchdojo.store.db import open_database
s = open_database(sys.argv[1])
with s() as x:
    x.execute(text("SELECT count(*) FROM cards")).scalar()
print("applied", len(applied), flush=True)
"""


def test_many_processes_migrating_a_fresh_postgresql_database_at_once(pg_url):
    """Eight processes open one empty database at the same moment: all succeed, and exactly one
    of them applies the migrations (each once); the others wait on the advisory lock."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [subprocess.Popen([sys.executable, "-c", _MIGRATOR, pg_url], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=env) for _ in range(8)]
    outs = [(p.wait(300), p.stdout.read()) for p in procs]
    assert [rc for rc, _ in outs] == [0] * 8, [o for rc, o in outs if rc]
    counts = sorted(int(o.split("applied ")[-1].split()[0]) for _, o in outs)
    n_migrations = len(list((Path(__file__).resolve().parents[1] / "src/torchdojo/store/migrations/versions")
                            .glob("0*.py")))
    assert counts == [0] * 7 + [n_migrations], outs
    engine = make_engine(pg_url)
    assert current_revision(engine) == head_revision()
    engine.dispose()


# -- bad input -----------------------------------------------------------------------------
def test_a_postgresql_url_without_the_driver_name_means_psycopg(pg_url):
    from torchdojo.store.db import open_database

    plain = pg_url.replace("postgresql+psycopg://", "postgresql://")
    s = open_database(plain)
    assert s.engine.dialect.driver == "psycopg" and current_revision(s.engine) == head_revision()
    s.engine.dispose()


def test_an_unreachable_postgresql_server_is_a_clear_error_without_the_password(tmp_path: Path):
    from conftest import free_port

    from torchdojo.store.db import DatabaseError, open_database

    url = f"postgresql+psycopg://dojo:s3cret-pw@127.0.0.1:{free_port()}/torchdojo?connect_timeout=5"
    with pytest.raises(DatabaseError) as e:
        open_database(url)
    msg = str(e.value)
    assert "s3cret-pw" not in msg and "dojo:***@127.0.0.1" in msg
    assert "Check the server is running" in msg and "TORCHDOJO_DATABASE_URL" in msg
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": url, "TORCHDOJO_BANK_DIR": str(BANK)}
    r = subprocess.run([TORCHDOJO, "doctor"], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr and "s3cret-pw" not in r.stdout + r.stderr
    assert "Check the server is running" in r.stdout + r.stderr, r.stdout + r.stderr


def test_the_local_app_on_sqlite_never_imports_the_postgresql_driver(tmp_path: Path):
    code = ("import sys; from pathlib import Path; from torchdojo.core import Dojo; from torchdojo.settings import Settings\n"
            "d = Dojo(Settings(bank_dir=Path(sys.argv[1]), database_url=sys.argv[2]))\n"
            "d.flashcards.review(d.flashcards.queue()[0], 'good')\n"
            "import torchdojo.web.app\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg2', 'asyncpg')))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    r = subprocess.run([sys.executable, "-c", code, str(BANK), f"sqlite:///{tmp_path / 'local.db'}"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip().splitlines()[-1] == "[]", r.stdout + r.stderr


def test_ids_beyond_32_bits_find_nothing_instead_of_failing(url):
    """SQLite's integers are 64-bit, PostgreSQL's INTEGER 32: an id from a URL must still be
    "not found" (a 404), never "integer out of range" (a 500)."""
    from torchdojo.store.models import MockRow, ScorecardRow, SubmissionRow

    d = _dojo(url)
    with d.sessions() as s:
        for big in (2**31, 10**12, 10**17):  # (beyond 64 bits SQLite itself overflows)
            assert s.get(ScorecardRow, big) is None and s.get(MockRow, big) is None
            assert s.scalars(select(SubmissionRow).where(SubmissionRow.id == big)).all() == []
    if url.startswith("postgresql"):
        import httpx

        srv = Server(url)
        try:
            srv.start(timeout=120)
            for path in (f"/mock/{10**12}", f"/submissions/{10**17}"):
                assert httpx.get(srv.url + path, timeout=60).status_code == 404, path
        finally:
            srv.stop()
