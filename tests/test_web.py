"""The web app served by a real `torchdojo serve` process, over HTTP."""

from __future__ import annotations

import re
import subprocess
import sys

import httpx
from conftest import Server


def test_pages_answer(server):
    c = httpx.Client(base_url=server.url)
    home = c.get("/")
    assert home.status_code == 200 and "cards to study now" in home.text
    assert 'data-topic="autograd"' in home.text
    browse = c.get("/questions", params={"q": "contiguous"})
    assert browse.status_code == 200 and "/questions/view-reshape-contiguous" in browse.text
    page = c.get("/questions/view-reshape-contiguous")
    assert page.status_code == 200
    for part in ("In 20 seconds", "Key points a strong answer makes", "Misconceptions", "Common mistakes",
                 "Follow-up questions", "Verified example", '<span class="kn">import</span>'):
        assert part in page.text, part
    assert c.get("/static/vendor/htmx.min.js").status_code == 200
    assert c.get("/static-gen/pygments.css").headers["content-type"].startswith("text/css")


def test_unknown_question_is_a_helpful_404(server):
    r = httpx.get(server.url + "/questions/no-such-thing")
    assert r.status_code == 404 and "There is no question with id &#39;no-such-thing&#39;" in r.text


def test_htmx_requests_get_fragments(server):
    r = httpx.get(server.url + "/questions", params={"q": "autograd", "level": "junior"}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and "<html" not in r.text and 'id="result-count"' in r.text


def test_review_without_javascript_and_it_survives_a_restart(db_url):
    srv = Server(db_url)
    srv.start()
    try:
        c = httpx.Client(base_url=srv.url)
        first = re.search(r'data-entry="([a-z0-9-]+)"', c.get("/review").text).group(1)
        back = c.get(f"/review/{first}/answer")
        assert back.status_code == 200 and 'name="rating" value="easy"' in back.text
        r = c.post(f"/review/{first}", data={"rating": "easy", "shown_at": "0"})
        assert r.status_code == 303 and r.headers["location"].startswith("/review")
        assert f'data-entry="{first}"' not in c.get("/review").text
        assert c.post(f"/review/{first}", data={"rating": "perfect"}).status_code == 422
    finally:
        srv.stop()
    srv2 = Server(db_url)  # same database file, new process
    srv2.start()
    try:
        page = httpx.get(f"{srv2.url}/questions/{first}").text
        assert "Next review" in page and "Not studied yet" not in page
        assert f'data-entry="{first}"' not in httpx.get(srv2.url + "/review").text
    finally:
        srv2.stop()


def test_healthz_answers_json_and_starts_no_judge(server):
    r = httpx.get(server.url + "/healthz")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["ok"] is True and body["entries"] > 0
    judge = body["judge"]
    assert judge["state"] == "not started" and judge["restarts"] == 0 and judge["last_failure"] is None, judge


def test_web_app_does_not_import_torch(settings):
    code = (
        "import sys; from torchdojo.web.app import create_app; from torchdojo.settings import Settings;"
        f"app = create_app(Settings(bank_dir={str(settings.bank_dir)!r}, database_url={settings.database_url!r}));"
        "from starlette.testclient import TestClient; c = TestClient(app, base_url='http://127.0.0.1');"
        "assert c.get('/').status_code == 200 and c.get('/healthz').json()['ok'];"
        "assert 'torch' not in sys.modules, 'torch was imported'"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_bank_markup_is_escaped(server):
    # Bank Markdown is rendered with raw HTML disabled: a <script> in a body would show as text.
    from torchdojo.web.markdown import render

    assert "<script>" not in render("<script>alert(1)</script>")
