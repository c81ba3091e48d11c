"""Shared by the tests of team mode with accounts: the web app with accounts on a fresh server
database (a SQLite file, or a database on the private PostgreSQL server: both, by parameter),
and signing in through the real log-in form."""

from __future__ import annotations

import re

import pytest
from conftest import BANK
from starlette.testclient import TestClient

PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def server_url(request, tmp_path) -> str:
    """A fresh server database: a SQLite file, or one on the private PostgreSQL server."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return f"sqlite:///{tmp_path / 'server' / 'torchdojo.db'}"


@pytest.fixture
def app(server_url):
    """The web app with accounts over ``server_url``, its lifespan running (jobs layer, grader)."""
    from torchdojo.settings import Settings
    from torchdojo.web.app import create_app

    app = create_app(Settings(bank_dir=BANK, database_url=server_url, accounts=True, judge_prestart=False,
                              search_dense=False))
    with TestClient(app, base_url="http://127.0.0.1"):
        yield app


def csrf_of(page: str) -> str:
    """The CSRF token a signed-in page carries."""
    m = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert m, "a signed-in page carries its CSRF token"
    return m.group(1)


def sign_in(app, email: str, password: str = PASSWORD) -> tuple[TestClient, str]:
    """A client signed in as ``email`` through ``POST /login``, and its session's CSRF token."""
    c = TestClient(app, base_url="http://127.0.0.1")
    r = c.post("/login", data={"email": email, "password": password, "next": "/"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return c, csrf_of(c.get("/").text)
