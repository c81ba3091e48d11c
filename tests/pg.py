"""A private PostgreSQL server for the tests: Debian's binaries, a tmp data directory, a Unix socket.

:class:`PostgresServer` runs ``initdb`` and ``pg_ctl start`` (as the ``postgres`` user when the
tests run as root: PostgreSQL refuses root) in a fresh tmp directory that user owns. The server
listens on no TCP address at all (``listen_addresses=''``): only on a Unix socket in that tmp
directory, named after a free port number, so any number of test processes (pytest-xdist
workers, CI jobs) run their own servers side by side. ``fsync`` is off: a crashed test server
is thrown away anyway.

Fixtures (imported by ``conftest.py``, so every test file can use them):

- ``pg_server`` (session): the running server; stopped at the end of the session, also when
  tests fail (``pg_ctl stop -m immediate``, then the tmp directory is removed).
- ``pg_url``: a fresh, empty database per test, as a ``postgresql+psycopg://`` SQLAlchemy URL.
"""

from __future__ import annotations

import glob
import itertools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

#: Where Debian's ``postgresql-NN`` packages put their binaries.
PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"


def pg_bin_dir() -> Path:
    """The ``bin`` folder of the newest PostgreSQL installed (``$TORCHDOJO_PG_BIN`` wins).

    Raises ``FileNotFoundError`` when none is installed (``scripts/setup.sh --test`` installs it)."""
    if os.environ.get("TORCHDOJO_PG_BIN"):
        return Path(os.environ["TORCHDOJO_PG_BIN"])
    found = [Path(p) for p in glob.glob(PG_BIN_GLOB) if (Path(p) / "initdb").exists()]
    if not found:
        raise FileNotFoundError(f"no PostgreSQL server binaries in {PG_BIN_GLOB}: run scripts/setup.sh --test "
                                "(installs Debian's postgresql) or set TORCHDOJO_PG_BIN")

    def version(p: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p.parent.name))

    return max(found, key=version)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A throw-away PostgreSQL cluster in its own tmp directory (see the module docstring)."""

    def __init__(self) -> None:
        self.bin = pg_bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="torchdojo-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self.log = self.root / "server.log"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self._names = itertools.count(1)
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o700)

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if r.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}\n{log}")
        return r

    def start(self) -> PostgresServer:
        """``initdb`` then ``pg_ctl start``, waiting until the server accepts connections."""
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        return self.resume()

    def resume(self) -> PostgresServer:
        """``pg_ctl start`` on the existing data directory (same port and socket), waiting until the
        server accepts connections."""
        opts = (f"-p {self.port} -k {self.socket_dir} -c listen_addresses='' -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "start", "-w", "-t", "120", "-D", str(self.data), "-l", str(self.log), "-o", opts,
                  timeout=180)
        return self

    def halt(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m mode`` (``fast``: open transactions rolled back, clients disconnected;
        ``immediate``: as a crash), keeping the data directory for :meth:`resume`."""
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "120", timeout=180)

    def restart(self, mode: str = "fast") -> None:
        """:meth:`halt` then :meth:`resume`: the same data, port and socket."""
        self.halt(mode)
        self.resume()

    def stop(self) -> None:
        """Stop the server (immediately: its data is thrown away) and remove its directory."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w", timeout=120)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """SQLAlchemy URL of ``database`` on this server (psycopg 3 over the Unix socket)."""
        return f"postgresql+psycopg://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def create_database(self) -> str:
        """A new, empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(host=str(self.socket_dir), port=self.port, user="postgres", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def pg_server():
    """The session's private PostgreSQL server (see :class:`PostgresServer`)."""
    srv = PostgresServer()
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> str:
    """A fresh, empty PostgreSQL database for this test: ``postgresql+psycopg://…`` URL."""
    return pg_server.create_database()
