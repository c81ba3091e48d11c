"""The store never corrupts, and only this user's browser can drive the local server.

Real parts throughout: SQLite files, `torchdojo serve` child processes, Chromium, the CLI.
"""

from __future__ import annotations

import html
import random
import re
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from conftest import TORCHDOJO, Server, free_port
from sqlalchemy import select, text

from torchdojo.core import Dojo
from torchdojo.practice.flashcards import CardChangedError, CardStateError
from torchdojo.store.models import ReviewLogRow

_ACTION = re.compile(r'<form class="ratings" method="post" action="/review/([^"]+)"')
_SEEN = re.compile(r'name="seen" value="([^"]*)"')


def _rate_loop(base: str, cards: list[str], stop: float, use_seen: bool, statuses: list[int],
               errors: list[str]) -> None:
    """A tab that keeps revealing and rating the same few cards (what two tabs on one queue
    head do), sending the state it saw (``use_seen``) or not."""
    rng = random.Random()
    with httpx.Client(base_url=base, timeout=60) as c:
        while time.monotonic() < stop:
            try:
                cid = rng.choice(cards)
                back = c.get(f"/review/{cid}/answer")
                statuses.append(back.status_code)
                s = _SEEN.search(back.text)
                form = {"rating": rng.choice(["again", "hard", "good", "easy"])}
                if use_seen and s:
                    form["seen"] = html.unescape(s.group(1))
                r = c.post(f"/review/{cid}", data=form, headers={"HX-Request": "true"})
                statuses.append(r.status_code)
            except httpx.TransportError as e:  # a refused connection is a failure too
                errors.append(repr(e))


def test_two_servers_rating_the_same_cards_never_corrupt_them(tmp_path: Path, settings):
    """Two server processes on one SQLite file, four threads each (half of them sending the
    state they saw, half not), all rating the queue head for a bounded time; afterwards every
    card equals the replay of its review log and no request got a 5xx."""
    url = settings.database_url
    cards = Dojo(settings).flashcards.queue()[:5]
    servers = [Server(url) for _ in range(2)]
    for s in servers:
        s.start(timeout=120)
    statuses: list[int] = []
    errors: list[str] = []
    try:
        stop = time.monotonic() + 12
        threads = [threading.Thread(target=_rate_loop, args=(srv.url, cards, stop, i % 2 == 0, statuses, errors))
                   for srv in servers for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        for s in servers:
            s.stop()
    assert not errors, errors[:3]
    assert statuses and all(c < 500 for c in statuses), sorted(set(statuses))
    d = Dojo(settings)
    with d.sessions() as s:
        reviews = s.scalar(text("SELECT count(*) FROM review_logs"))
        contested = s.scalar(text("SELECT count(*) FROM (SELECT question_id FROM review_logs GROUP BY question_id HAVING count(*) > 3)"))
    posts = len(statuses) // 2  # each round is one reveal (GET) and one rating (POST)
    print(f"\n{posts} ratings posted by 8 threads on 2 servers: {reviews} applied, {posts - reviews} refused "
          f"(rated elsewhere since they were shown), {sum(c >= 500 for c in statuses)} server errors")
    assert reviews > 20 and contested >= 3, (reviews, contested)  # the threads really raced
    assert d.flashcards.check(repair=False) == []


def test_a_rating_for_a_state_not_seen_is_refused(dojo):
    now = datetime(2026, 3, 1, tzinfo=UTC)
    cid = dojo.flashcards.queue(now=now)[0]
    seen = dojo.flashcards.status(cid, now).version
    assert seen == "new"
    dojo.flashcards.review(cid, "good", now=now, seen=seen)  # the first tab
    with pytest.raises(CardChangedError, match="rated elsewhere"):
        dojo.flashcards.review(cid, "again", now=now + timedelta(seconds=1), seen=seen)  # the second tab
    assert len(dojo.flashcards.history([cid])) == 1
    assert dojo.flashcards.check(repair=False) == []


def test_ten_processes_start_at_once_on_a_fresh_data_directory(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'fresh' / 'torchdojo.db'}"
    code = ("import sys; from torchdojo.store.db import open_database; s = open_database(sys.argv[1]); "
            "from sqlalchemy import text\nwith s() as x: x.execute(text('SELECT count(*) FROM cards')).scalar()")
    procs = [subprocess.Popen([sys.executable, "-c", code, url], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True) for _ in range(10)]
    outs = [(p.wait(300), p.stdout.read()) for p in procs]
    assert [rc for rc, _ in outs] == [0] * 10, [o for rc, o in outs if rc]


def test_doctor_rebuilds_a_corrupted_card_from_its_log(settings, tmp_path: Path):
    d = Dojo(settings)
    t = datetime(2026, 2, 1, tzinfo=UTC)
    ids = d.flashcards.queue(now=t)[:3]
    for i, cid in enumerate(ids):
        d.flashcards.review(cid, "good", now=t + timedelta(minutes=i))
        d.flashcards.review(cid, "again", now=t + timedelta(days=3, minutes=i))
    broken, drifted = ids[0], ids[1]
    with d.sessions.begin() as s:  # the impossible state seen in the field, and a lost update
        s.execute(text("UPDATE cards SET state = 3, step = NULL WHERE question_id = :i"), {"i": broken})
        s.execute(text("UPDATE cards SET stability = stability * 7 WHERE question_id = :i"), {"i": drifted})
    with pytest.raises(CardStateError, match="torchdojo doctor"):
        d.flashcards.preview(broken)
    assert Dojo(settings).damaged_cards == [broken]  # the cheap check at start finds it
    env = {"TORCHDOJO_DATABASE_URL": settings.database_url, "PATH": str(Path(sys.executable).parent)}
    dry = subprocess.run([TORCHDOJO, "doctor", "--dry-run"], env=env, capture_output=True, text=True, timeout=300)
    assert dry.returncode == 1 and broken in dry.stdout and drifted in dry.stdout, dry.stdout + dry.stderr
    fix = subprocess.run([TORCHDOJO, "doctor"], env=env, capture_output=True, text=True, timeout=300)
    assert fix.returncode == 0 and fix.stdout.count("repaired") == 2, fix.stdout + fix.stderr
    assert "sqlite integrity: ok" in fix.stdout
    d2 = Dojo(settings)
    assert d2.flashcards.check(repair=False) == [] and d2.damaged_cards == []
    d2.flashcards.review(broken, "good", now=t + timedelta(days=4))  # schedulable again
    with d2.sessions() as s:
        assert len(list(s.scalars(select(ReviewLogRow).where(ReviewLogRow.question_id == broken)))) == 3


def test_a_damaged_card_is_a_message_not_a_500(server, dojo):
    cid = dojo.flashcards.queue()[0]
    dojo.flashcards.review(cid, "again")
    with dojo.sessions.begin() as s:
        s.execute(text("UPDATE cards SET step = NULL WHERE question_id = :i"), {"i": cid})
    r = httpx.get(f"{server.url}/review/{cid}/answer")
    assert r.status_code == 409 and "torchdojo doctor" in r.text
    r = httpx.post(f"{server.url}/review/{cid}", data={"rating": "good"})
    assert r.status_code == 409 and "torchdojo doctor" in r.text


def test_forged_host_and_cross_origin_posts_are_refused(server):
    r = httpx.get(server.url + "/", headers={"Host": "attacker.example"})
    assert r.status_code == 400 and "TORCHDOJO_ALLOWED_HOSTS" in r.text
    r = httpx.get(server.url.replace("127.0.0.1", "localhost") + "/")
    assert r.status_code == 200
    for h in ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"):
        assert h in r.headers
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert "unsafe-inline" not in r.headers["content-security-policy"].split("script-src")[1].split(";")[0]
    hostile = [{"Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"},
               {"Origin": f"http://127.0.0.1:{free_port()}", "Sec-Fetch-Site": "same-site"},
               {"Origin": "http://evil.test"}]
    for headers in hostile:
        r = httpx.post(server.url + "/mock", data={"level": "junior", "minutes": "10"}, headers=headers)
        assert r.status_code == 403 and "Cross-origin" in r.text, headers
    same = httpx.post(server.url + "/mock", data={"level": "junior", "minutes": "10"},
                      headers={"Origin": server.url, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code in (200, 303), same.text[:300]  # the control: the app's own page may post


def test_bad_ids_and_overlong_answers_get_a_4xx_with_a_message(server):
    big = "9" * 25
    for path in (f"/mock/{big}", f"/mock/{big}/0", f"/mock/1/{big}", f"/submissions/{big}", f"/mock/{big}/report"):
        r = httpx.get(server.url + path)
        assert 400 <= r.status_code < 500, (path, r.status_code)
    r = httpx.post(server.url + f"/submissions/{big}/rejudge")
    assert 400 <= r.status_code < 500
    start = httpx.post(server.url + "/mock", data={"level": "junior", "minutes": "10"})
    mock_id = re.search(r"/mock/(\d+)", str(start.headers.get("location", "")) + start.text).group(1)
    long = "x" * 100_001
    for action, form in (("1/flag", {"flagged": "1", "answer": long}), ("1/reveal", {"answer": long, "confirm": "1"}),
                         ("finish", {"answer": long, "pos": "1", "confirm": "1"}), ("1/answer", {"answer": long})):
        r = httpx.post(f"{server.url}/mock/{mock_id}/{action}", data=form)
        assert r.status_code == 422 and "100,000" in r.text, (action, r.status_code)


class _Evil(BaseHTTPRequestHandler):
    target = ""

    def do_GET(self):  # noqa: N802
        body = (f'<form id="f" method="post" action="{self.target}"><input name="rating" value="easy"></form>'
                '<script>document.getElementById("f").submit()</script>').encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


@pytest.mark.browser
def test_a_page_on_another_local_port_cannot_rate_cards(server, browser, dojo):
    cid = dojo.flashcards.queue()[0]
    _Evil.target = f"{server.url}/review/{cid}"
    evil = ThreadingHTTPServer(("127.0.0.1", 0), _Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        page.wait_for_url(re.compile(re.escape(server.url)), timeout=30_000)  # the form was submitted
        page.wait_for_load_state()
        assert "Cross-origin request refused" in page.content()
        page.close()
    finally:
        evil.shutdown()
    assert dojo.flashcards.history([cid]) == []


@pytest.mark.browser
def test_pages_run_under_the_content_security_policy(server, browser, dojo):
    """No page needs inline script: Chromium reports no CSP violation on any of them, and the
    scripted parts (HTMX search, the editor, the review shortcuts) still work."""
    page = browser.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    ch = next(iter(dojo.challenges))
    for path in ("/", "/questions", "/questions/view-reshape-contiguous", "/review", f"/challenges/{ch}", "/mock"):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
    page.goto(f"{server.url}/challenges/{ch}")
    page.wait_for_selector(".cm-editor", timeout=30_000)  # CodeMirror mounted from the external script
    page.goto(server.url + "/questions")
    page.fill("#q", "retain_graph")
    page.wait_for_selector("#results a[href='/questions/retain-graph-multiple-backward']", timeout=30_000)
    assert violations == []
    page.close()


@pytest.mark.terminal
@pytest.mark.parametrize("args", [["search", "[/foo]"], ["show", "[/x]"], ["challenge", "start", "[/x]"],
                                  ["answer", "[/x]"], ["search", "[bold]x[/bold] [/"]])
def test_rich_markup_in_cli_arguments_is_printed_literally(args, tmp_path: Path, db_url: str):
    env = {"TORCHDOJO_DATABASE_URL": db_url, "PATH": str(Path(sys.executable).parent), "COLUMNS": "200"}
    r = subprocess.run([TORCHDOJO, *args], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    out = r.stdout + r.stderr
    assert "Traceback" not in out and r.returncode in (0, 1, 2), out
    assert args[-1].split()[0] in out or r.returncode == 0, out
