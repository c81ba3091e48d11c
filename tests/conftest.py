"""Shared fixtures: the real bank, a real SQLite file per test, a real server process, a real browser."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from pg import pg_server, pg_url  # noqa: F401  (fixtures: a private PostgreSQL, a database per test)

ROOT = Path(__file__).resolve().parents[1]
BANK = ROOT / "bank"
CATALOGUE = ROOT.parent / "shared" / "coverage" / "questions.csv"
VENV_BIN = Path(sys.executable).parent
TORCHDOJO = str(VENV_BIN / "torchdojo")

# Every app a test starts (in this process or as `torchdojo serve`) would start the judge's server
# at start-up; only the tests about that ask for it (TORCHDOJO_JUDGE_PRESTART=1 in their env).
os.environ["TORCHDOJO_JUDGE_PRESTART"] = "0"
# Every server's grader worker would build the search's dense index of the whole bank (minutes of
# CPU); only the search tests ask for it, over a small bank (TORCHDOJO_SEARCH_DENSE=1 in their env).
os.environ["TORCHDOJO_SEARCH_DENSE"] = "0"
# Rich reads the width once, when a CLI module's console is built (whichever test imports it
# first): give every in-process CLI test the same wide terminal, so output does not wrap by chance.
os.environ["COLUMNS"] = "200"
# Expected outputs are cached per test session, never in the user's own cache.
os.environ.setdefault("TORCHDOJO_CACHE_DIR", tempfile.mkdtemp(prefix="torchdojo-test-cache-"))


@pytest.fixture
def db_url(tmp_path: Path, request) -> str:
    """A fresh SQLite file per test; with TORCHDOJO_TEST_DATABASE=postgresql a fresh database on
    the private PostgreSQL server instead (tests/pg.py), to run existing tests on PostgreSQL."""
    if os.environ.get("TORCHDOJO_TEST_DATABASE") == "postgresql":
        return request.getfixturevalue("pg_url")
    return f"sqlite:///{tmp_path / 'user' / 'torchdojo.db'}"


@pytest.fixture
def settings(db_url: str):
    from torchdojo.settings import Settings

    return Settings(bank_dir=BANK, database_url=db_url)


@pytest.fixture
def dojo(settings):
    from torchdojo.core import Dojo

    return Dojo(settings)


@pytest.fixture
def bank_copy(tmp_path: Path) -> Path:
    """A writable copy of the real bank, for tests that break files on purpose."""
    dst = tmp_path / "bank"
    shutil.copytree(BANK, dst)
    return dst


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``torchdojo serve`` as a real child process on a free port of 127.0.0.1."""

    def __init__(self, db_url: str, bank_dir: Path = BANK, env: dict[str, str] | None = None,
                 ready_path: str = "/") -> None:
        """``ready_path``: the page that answers 200 once the server is up (``/healthz`` where
        ``/`` redirects to the sign-in page: accounts)."""
        self.db_url, self.bank_dir, self.extra_env, self.ready_path = db_url, bank_dir, env or {}, ready_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> float:
        """Start and wait until the home page answers; returns the seconds that took."""
        env = {**os.environ, "TORCHDOJO_DATABASE_URL": self.db_url, "TORCHDOJO_BANK_DIR": str(self.bank_dir),
               **self.extra_env}
        t0 = time.perf_counter()
        self.proc = subprocess.Popen([TORCHDOJO, "serve", "--port", str(self.port)], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = t0 + timeout
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early: {self.proc.stdout.read()}")
            try:
                if httpx.get(self.url + self.ready_path, timeout=1.0).status_code == 200:
                    return time.perf_counter() - t0
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("server did not answer in time")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def server(db_url: str):
    srv = Server(db_url)
    srv.start()
    yield srv
    srv.stop()


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def pw():
    """The one Playwright of this test process (a second ``sync_playwright()`` started while one
    runs is refused: "using Playwright Sync API inside the asyncio loop")."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser(pw):
    b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def llm():
    """A local OpenAI-compatible endpoint (tests/fake_llm.py), stopped after the test."""
    from fake_llm import FakeLLM

    with FakeLLM() as fake:
        yield fake
