"""Export and backup against real SQLite files: full JSON backup and restore (exact round trip,
all or nothing), the review log CSV for FSRS tools, the Anki package, and the CLI faces."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import BANK
from sqlalchemy import inspect
from typer.testing import CliRunner

from torchdojo.core import Dojo
from torchdojo.practice.export import DECK_NAME, ExportError, stable_id
from torchdojo.practice.mock import MockConfig
from torchdojo.settings import Settings
from torchdojo.store import backup
from torchdojo.store.backup import BackupError, NotEmptyError
from torchdojo.store.db import head_revision
from torchdojo.store.models import (
    Base,
    ChallengeProgressRow,
    NoteRow,
    OwnCardRow,
    SubmissionRow,
    UserSettingRow,
)
from torchdojo.web.markdown import render

T0 = datetime(2026, 3, 2, 9, 15, 30, 123456, tzinfo=UTC)


def _dojo(tmp_path: Path, name: str) -> Dojo:
    return Dojo(Settings(bank_dir=BANK, database_url=f"sqlite:///{tmp_path / name / 'torchdojo.db'}"))


def seed(d: Dojo) -> None:
    """Realistic study data in every user table, through the core where it is easy."""
    fc = d.flashcards
    ids = [e.id for e in d.bank][:4]
    t = T0
    for i, cid in enumerate(ids):  # several reviews per card, some lapses, odd durations
        for j, rating in enumerate(["good", "again", "good", "easy"][: 2 + i % 3]):
            t += timedelta(days=j * 1.7 + 0.013, seconds=i)
            fc.review(cid, rating, now=t, duration_ms=None if j == 1 else 4321 + 17 * i)
    entry = d.bank.entries[ids[0]]
    kp = entry.meta.key_points[0].id
    fc.add_key_point_cards(entry.id, [kp], now=t)
    fc.review(f"{entry.id}#{kp}", "hard", now=t + timedelta(hours=1), duration_ms=999)
    mock = d.mocks.start(MockConfig(level="junior", use_judge=False, seed=7, minutes=20), now=T0)
    item_id = _first_item_id(d, mock.id)
    parent = d.scorecards.create(ids[0], "A view shares storage; reshape may copy.", None, context="mock",
                                 mock_item_id=item_id, now=T0)
    d.scorecards.create(ids[0], "Follow-up answer ünïcode ✓", None, context="mock", parent_id=parent,
                        prompt="And when is it contiguous?", now=T0 + timedelta(minutes=3))
    d.scorecards.set_mark(parent, 0, "1", now=T0 + timedelta(minutes=4))
    d.interviews.start([ids[1], ids[2]], candidate="Ada", interviewer="Grace", now=T0 + timedelta(days=1))
    with d.sessions.begin() as s:
        s.add(SubmissionRow(challenge_id="layer-norm", mode="submit", code="def f(x):\n    return x\n",
                            verdict="Wrong Answer", report=json.dumps({"tests": [1, 2]}), backend="unsafe-local",
                            created_at=T0 + timedelta(seconds=5)))
        s.add(ChallengeProgressRow(challenge_id="layer-norm", hints_shown=2, gave_up_at=None))
        s.add(NoteRow(card_id=ids[0], text="Remember: .view needs contiguous memory", bookmarked=True, updated_at=T0))
        s.add(OwnCardRow(front="What does `torch.no_grad()` do?", back="Turns off **graph recording**.",
                         key_points=json.dumps(["no graph is recorded", "saves memory"]), topic="autograd",
                         level="junior", created_at=T0, updated_at=T0 + timedelta(seconds=1)))
        s.add(UserSettingRow(key="desired_retention", value="0.9", updated_at=T0))


def _first_item_id(d: Dojo, mock_id: int) -> int:
    from sqlalchemy import select

    from torchdojo.store.models import MockItemRow

    with d.sessions() as s:
        return s.scalar(select(MockItemRow.id).where(MockItemRow.mock_id == mock_id).order_by(MockItemRow.position))


def all_rows(d: Dojo) -> dict[str, list[tuple]]:
    """Every row of every table as SQLite stores it (raw, through sqlite3), in primary-key order."""
    path = d.settings.database_url.removeprefix("sqlite:///")
    con = sqlite3.connect(path)
    try:
        out = {}
        for t in Base.metadata.sorted_tables:
            pk = ", ".join(c.name for c in t.primary_key.columns)
            out[t.name] = con.execute(f"SELECT * FROM {t.name} ORDER BY {pk}").fetchall()
        return out
    finally:
        con.close()


@pytest.fixture
def seeded(tmp_path: Path) -> Dojo:
    d = _dojo(tmp_path, "source")
    seed(d)
    return d


def _without_time(text: str) -> str:
    doc = json.loads(text)
    doc.pop("exported_at")
    return json.dumps(doc)


# -- backup and restore ------------------------------------------------------------------------
def test_every_table_is_backed_up_or_explicitly_excluded(seeded):
    # The team server's own tables (accounts, sessions: migration 0009) are not a learner's study
    # data: the server's operator backs them up with the database; a learner's store has none.
    from torchdojo.store.team_models import TeamBase

    team = {t.name for t in TeamBase.metadata.sorted_tables}
    tables = set(inspect(seeded.sessions.engine).get_table_names()) - {"alembic_version"} - team
    saved = {t.name for t in backup.backup_tables()}
    assert tables == saved | set(backup.EXCLUDED_TABLES), "a table is neither backed up nor in EXCLUDED_TABLES"
    assert {t.name for t in Base.metadata.sorted_tables} == saved | set(backup.EXCLUDED_TABLES)
    doc = json.loads(seeded.data.backup_json())
    assert set(doc["tables"]) == saved
    empty = [n for n, rows in doc["tables"].items() if not rows]
    assert empty == [], f"the seed left tables empty, so their round trip is untested: {empty}"


def test_backup_restore_round_trip_is_exact(seeded, tmp_path):
    text = seeded.data.backup_json(now=T0)
    doc = json.loads(text)
    assert doc["format"] == "torchdojo-backup" and doc["version"] == 1
    assert doc["schema_revision"] == head_revision() and doc["exported_at"] == "2026-03-02T09:15:30.123456+00:00"
    card = doc["tables"]["cards"][0]
    assert list(card) == [c.name for c in Base.metadata.tables["cards"].columns]  # every column, in order
    assert card["due"].endswith("+00:00")

    target = _dojo(tmp_path, "target")
    result = target.data.restore(text)
    assert result.problems == []  # every card equals the replay of its log
    assert target.flashcards.check(repair=False) == []
    assert result.report.rows["review_logs"] == len(doc["tables"]["review_logs"]) and result.report.deleted == 0
    assert all_rows(target) == all_rows(seeded)  # every row of every table, as stored
    again = target.data.backup_json(now=T0 + timedelta(days=3))
    assert again != text and _without_time(again) == _without_time(text)
    assert again.replace("2026-03-05T09:15:30.123456", "2026-03-02T09:15:30.123456") == text  # byte for byte

    # ids are kept and new rows get fresh ones (no collision with restored ids)
    before = max(r[0] for r in all_rows(target)["review_logs"])
    target.flashcards.review(doc["tables"]["cards"][0]["question_id"], "good", now=T0 + timedelta(days=30))
    assert max(r[0] for r in all_rows(target)["review_logs"]) == before + 1


def test_a_backup_of_an_older_schema_restores_with_the_added_columns_filled(seeded, tmp_path):
    """A backup made before migrations 0007 and 0008 (no ``mock_items.speech``, no submission job
    columns) restores: the columns are filled as the migrations fill them. The same file claiming
    the current schema is refused."""
    doc = json.loads(seeded.data.backup_json(now=T0))
    assert doc["tables"]["mock_items"], "the seed has no mock item"
    for row in doc["tables"]["mock_items"]:
        assert row.pop("speech") is None
    assert doc["tables"]["submissions"], "the seed has no submission"
    for row in doc["tables"]["submissions"]:  # what migration 0008 added (judged in the request: done)
        assert row.pop("status") == "done" and row.pop("attempts") == 0
        assert all(row.pop(k) is None for k in ("job_id", "worker", "error", "started_at", "finished_at"))
    current = json.dumps(doc)
    with pytest.raises(BackupError, match=r"table (mock_items|submissions), row 0, column '(speech|status)': missing"):
        _dojo(tmp_path, "strict").data.restore(current)
    doc["schema_revision"] = "0006"
    target = _dojo(tmp_path, "target")
    assert target.data.restore(json.dumps(doc)).problems == []
    assert all_rows(target) == all_rows(seeded)


def test_restore_refuses_a_database_with_data_unless_replace(seeded, tmp_path):
    text = seeded.data.backup_json()
    other = _dojo(tmp_path, "other")
    other.flashcards.review(next(iter(other.bank)).id, "again", now=T0)
    before = all_rows(other)
    with pytest.raises(NotEmptyError, match="already holds 2 row"):
        other.data.restore(text)
    assert all_rows(other) == before
    result = other.data.restore(text, replace=True)
    assert result.report.deleted == 2 and result.problems == []
    assert all_rows(other) == all_rows(seeded)


def _break(text: str, fn) -> str:
    doc = json.loads(text)
    fn(doc)
    return json.dumps(doc, indent=1)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["tables"]["cards"][0].pop("stability"),
     r"table cards, row 0, column 'stability': missing"),
    (lambda d: d["tables"]["review_logs"][3].update(rating="3"),
     r"table review_logs, row 3, column 'rating': expected an integer, got a string"),
    (lambda d: d["tables"]["mocks"][0].update(started_at="yesterday"),
     r"table mocks, row 0, column 'started_at': not an ISO 8601 datetime"),
    (lambda d: d["tables"]["notes"][0].update(updated_at="2026-01-01T00:00:00"),
     r"table notes, row 0, column 'updated_at': .*no time zone"),
    (lambda d: d["tables"]["cards"][1].update(flavour="vanilla"),
     r"table cards, row 1, column 'flavour': unknown column"),
    (lambda d: d["tables"].update(bookmarks=[]), r"unknown table 'bookmarks'"),
    (lambda d: d["tables"].pop("notes"), r"table 'notes' is missing"),
    (lambda d: d.update(version=99), r"version: 99 is not a version"),
    (lambda d: d.update(format="anki"), r"format: 'anki' is not a torchdojo backup"),
    (lambda d: d["tables"]["cards"][0].update(suspended=None), r"table cards, row 0, column 'suspended': null"),
    (lambda d: d["tables"]["review_logs"][0].update(question_id="no-such-card"),
     r"table review_logs, row 0, column 'question_id': refers to cards.question_id 'no-such-card'"),
    (lambda d: d["tables"]["review_logs"].append(dict(d["tables"]["review_logs"][0])),
     r"table review_logs, row \d+, column 'id': duplicate key"),
    (lambda d: d["tables"]["cards"][0].update(question_id="x" * 81), r"81 characters, at most 80"),
])
def test_corrupt_backups_are_refused_with_where_and_nothing_changes(seeded, tmp_path, mutate, message):
    bad = _break(seeded.data.backup_json(), mutate)
    target = _dojo(tmp_path, "target")
    target.flashcards.review(next(iter(target.bank)).id, "good", now=T0)
    before = all_rows(target)
    for replace in (False, True):  # even with replace, a bad file deletes nothing
        with pytest.raises(BackupError, match=message):
            target.data.restore(bad, replace=replace)
        assert all_rows(target) == before


def test_bad_json_names_the_line(seeded, tmp_path):
    lines = seeded.data.backup_json().splitlines()
    lines[7] = lines[7][:-3]  # cut a row short
    target = _dojo(tmp_path, "target")
    with pytest.raises(BackupError, match=r"not valid JSON: line 8, column \d+"):
        target.data.restore("\n".join(lines))
    with pytest.raises(BackupError, match="not UTF-8"):
        target.data.restore(b"\xff\xfe{}")
    with pytest.raises(BackupError, match="holds an array"):
        target.data.restore("[]")
    assert all(rows == [] for rows in all_rows(target).values())


def test_self_referencing_rows_restore_parents_first(seeded, tmp_path):
    """A follow-up scorecard listed before the scorecard it follows up still restores (the rows
    are written parents first), and a cycle is refused by name."""
    def swap(doc):
        doc["tables"]["scorecards"].reverse()
    text = _break(seeded.data.backup_json(), swap)
    target = _dojo(tmp_path, "target")
    target.data.restore(text)
    assert all_rows(target) == all_rows(seeded)

    def cycle(doc):
        a, b = doc["tables"]["scorecards"][:2]
        a["parent_id"], b["parent_id"] = b["id"], a["id"]
    with pytest.raises(BackupError, match="table scorecards, row 0, column 'parent_id': .*cycle"):
        _dojo(tmp_path, "t2").data.restore(_break(seeded.data.backup_json(), cycle))


# -- review log CSV ------------------------------------------------------------------------------
def test_review_csv_has_the_fsrs_optimizer_columns_and_one_row_per_review(seeded):
    text = seeded.data.reviews_csv()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0] == "card_id,review_time,review_rating,review_state,review_duration,torchdojo_card_id"
    logs = seeded.flashcards.history()
    assert len(rows) == len(logs)
    by_id = {}
    for r in rows:
        by_id.setdefault(r["torchdojo_card_id"], r["card_id"])
    assert sorted(int(v) for v in by_id.values()) == list(range(1, len(by_id) + 1))  # one integer per card
    first = rows[0]
    assert first["review_time"] == str(int((T0 + timedelta(days=0.013)).timestamp() * 1000))  # ms since epoch, UTC
    assert first["review_state"] == "0"  # New before its first review
    states = [r["review_state"] for r in rows if r["torchdojo_card_id"] == first["torchdojo_card_id"]]
    assert states[0] == "0" and all(s in {"1", "2", "3"} for s in states[1:])
    assert {r["review_duration"] for r in rows} >= {"", "4321"}
    assert all(r["review_rating"] in {"1", "2", "3", "4"} for r in rows)


# -- Anki ----------------------------------------------------------------------------------------
def _open_apkg(data: bytes, tmp_path: Path) -> sqlite3.Connection:
    z = zipfile.ZipFile(io.BytesIO(data))
    assert "collection.anki2" in z.namelist()
    path = tmp_path / "collection.anki2"
    path.write_bytes(z.read("collection.anki2"))
    return sqlite3.connect(path)


def test_anki_package_is_a_valid_collection(seeded, tmp_path):
    data, n = seeded.data.anki_package(render, topics=["autograd"], levels=["junior", "mid"], own=True)
    con = _open_apkg(data, tmp_path)
    entries = [e for e in seeded.bank if "autograd" in e.meta.topics and e.meta.level in ("junior", "mid")]
    assert n == len(entries) + 1 and con.execute("SELECT count(*) FROM notes").fetchone()[0] == n
    assert con.execute("SELECT count(*) FROM cards").fetchone()[0] == n
    models_json, decks_json = con.execute("SELECT models, decks FROM col").fetchone()
    models, decks = json.loads(models_json), json.loads(decks_json)
    assert str(stable_id("torchdojo note type v1")) in models
    deck = decks[str(stable_id("torchdojo deck"))]
    assert deck["name"] == DECK_NAME
    e = entries[0]
    flds, tags, guid = con.execute("SELECT flds, tags, guid FROM notes WHERE flds LIKE ?",
                                   (f"%\x1f{e.id}",)).fetchone()
    question, answer, level, topics, entry_id = flds.split("\x1f")
    assert entry_id == e.id and level == e.meta.level
    assert "Autograd" in topics and "level::" + e.meta.level in tags and "topic::autograd" in tags
    assert "<p>" in answer and "Key points" in answer
    assert all(render(f"- {k.text}").strip()[4:-6].strip() in answer for k in e.meta.key_points)
    import genanki

    assert guid == genanki.guid_for("torchdojo", e.id)  # stable: a re-import updates the note
    own = con.execute("SELECT flds, tags FROM notes WHERE tags LIKE '% own %'").fetchone()
    assert own and "<strong>graph recording</strong>" in own[0] and "saves memory" in own[0]
    # every note's card sits in the torchdojo deck
    assert {r[0] for r in con.execute("SELECT DISTINCT did FROM cards")} == {stable_id("torchdojo deck")}


def test_anki_package_of_everything_and_unknown_filters(seeded, tmp_path):
    data, n = seeded.data.anki_package(render)
    assert n == len(seeded.bank)
    assert _open_apkg(data, tmp_path).execute("SELECT count(*) FROM notes").fetchone()[0] == len(seeded.bank)
    with pytest.raises(ExportError, match="topic: unknown topic 'cooking'"):
        seeded.data.anki_package(render, topics=["cooking"])
    with pytest.raises(ExportError, match="level: unknown level 'staff'"):
        seeded.data.anki_package(render, levels=["staff"])


# -- CLI -----------------------------------------------------------------------------------------
def _cli(db_url: str, *args: str, input: str | None = None):
    from torchdojo.cli.main import app

    return CliRunner().invoke(app, list(args), input=input,
                              env={"TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK)})


def test_cli_backup_restore_export(seeded, tmp_path):
    src = seeded.settings.database_url
    out = tmp_path / "b.json"
    r = _cli(src, "backup", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "Wrote" in r.output and json.loads(out.read_text())["format"] == "torchdojo-backup"

    dst = f"sqlite:///{tmp_path / 'cli' / 'torchdojo.db'}"
    r = _cli(dst, "restore", str(out))
    assert r.exit_code == 0, r.output
    assert "Restored" in r.output and "every card equals" in r.output
    # non-empty: refused without --replace; --replace asks first
    r = _cli(dst, "restore", str(out))
    assert r.exit_code == 1 and "already holds" in r.output
    r = _cli(dst, "restore", str(out), "--replace", input="n\n")
    assert r.exit_code == 1 and "Nothing changed" in r.output
    r = _cli(dst, "restore", str(out), "--replace", "--yes")
    assert r.exit_code == 0 and "deleted" in r.output, r.output

    bad = tmp_path / "bad.json"
    bad.write_text(out.read_text().replace('"rating": 3', '"rating": "three"', 1))
    r = _cli(dst, "restore", str(bad), "--replace", "--yes")
    assert r.exit_code == 1 and "bad.json" in r.output and "column 'rating'" in r.output
    r = _cli(dst, "restore", str(tmp_path / "missing.json"))
    assert r.exit_code != 0 and "missing.json" in r.output

    csv_out = tmp_path / "reviews.csv"
    r = _cli(src, "export", "reviews", "-o", str(csv_out))
    assert r.exit_code == 0 and csv_out.read_text().startswith("card_id,review_time"), r.output
    apkg = tmp_path / "deck.apkg"
    r = _cli(src, "export", "anki", "--topic", "autograd", "--level", "junior", "--own", "-o", str(apkg))
    assert r.exit_code == 0, r.output
    assert zipfile.is_zipfile(apkg) and "notes" in r.output
    r = _cli(src, "export", "anki", "--topic", "cooking", "-o", str(apkg))
    assert r.exit_code == 1 and "topic" in r.output and "cooking" in r.output


# -- web -----------------------------------------------------------------------------------------
@pytest.fixture
def seeded_server(seeded):
    from conftest import Server

    srv = Server(seeded.settings.database_url)
    srv.start()
    yield srv
    srv.stop()


def test_web_downloads_and_restore(seeded_server, seeded, tmp_path):
    import httpx
    from conftest import Server

    base = seeded_server.url
    page = httpx.get(base + "/data")
    assert page.status_code == 200 and 'href="/data/backup.json"' in page.text and 'href="/data"' in page.text
    r = httpx.get(base + "/data/backup.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"].startswith('attachment; filename="torchdojo-backup-')
    text = r.text
    assert _without_time(text) == _without_time(seeded.data.backup_json())
    r = httpx.get(base + "/data/reviews.csv")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert r.text.count("\n") == 1 + len(seeded.flashcards.history())
    r = httpx.get(base + "/data/deck.apkg", params={"topic": ["autograd", "tensors"], "level": "junior", "own": "true"})
    assert r.status_code == 200 and zipfile.is_zipfile(io.BytesIO(r.content))
    r = httpx.get(base + "/data/deck.apkg", params={"topic": "cooking"})
    assert r.status_code == 400 and "unknown topic" in r.text

    # restore into a second server with an empty database
    target = Server(f"sqlite:///{tmp_path / 'web-target' / 'torchdojo.db'}")
    target.start()
    try:
        up = target.url + "/data/restore"
        bad = text.replace('"rating": 3', '"rating": "x"', 1)
        r = httpx.post(up, files={"file": ("bad.json", bad.encode(), "application/json")})
        assert r.status_code == 400 and "bad.json" in r.text and "column &#39;rating&#39;" in r.text
        r = httpx.post(up, files={"file": ("b.json", b"{not json", "application/json")})
        assert r.status_code == 400 and "line 1, column 2" in r.text
        # the cross-origin guard covers the upload
        r = httpx.post(up, files={"file": ("b.json", text.encode(), "application/json")},
                       headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403
        r = httpx.post(up, files={"file": ("b.json", text.encode(), "application/json")})
        assert r.status_code == 200 and "Restored" in r.text and "Every card equals" in r.text, r.text[-2000:]
        again = httpx.get(target.url + "/data/backup.json").text
        assert _without_time(again) == _without_time(text)
        # a database with data: replaced only with the box ticked
        r = httpx.post(up, files={"file": ("b.json", text.encode(), "application/json")})
        assert r.status_code == 409 and "already holds" in r.text
        r = httpx.post(up, files={"file": ("b.json", text.encode(), "application/json")}, data={"replace": "true"})
        assert r.status_code == 200 and "deleted first" in r.text
    finally:
        target.stop()
    d = _dojo(tmp_path, "web-target")
    assert all_rows(d) == all_rows(seeded)
