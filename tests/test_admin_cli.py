"""``torchdojo admin``: the first admin, invitations, the user list, disabling, migrating every
learner store — through the real CLI (Typer's runner, the password typed at the prompt)."""

from __future__ import annotations

import re

from conftest import BANK
from typer.testing import CliRunner

from torchdojo.cli.main import app

PASSWORD = "correct horse battery"


def run(monkeypatch, url, *args, input=None):
    monkeypatch.setenv("TORCHDOJO_DATABASE_URL", url)
    monkeypatch.setenv("TORCHDOJO_BANK_DIR", str(BANK))
    monkeypatch.delenv("TORCHDOJO_ADMIN_PASSWORD", raising=False)
    return CliRunner().invoke(app, ["admin", *args], input=input)


def test_admin_commands(monkeypatch, tmp_path):
    from torchdojo.store.db import open_database
    from torchdojo.team.accounts import Accounts

    url = f"sqlite:///{tmp_path / 'srv.db'}"
    r = run(monkeypatch, url, "create-admin", "Root@Example.org", input=f"{PASSWORD}\n{PASSWORD}\n")
    assert r.exit_code == 0, r.output
    assert "root@example.org created" in r.output and PASSWORD not in r.output  # never echoed
    again = run(monkeypatch, url, "create-admin", "root@example.org", input=f"{PASSWORD}\n{PASSWORD}\n")
    assert again.exit_code == 3 and "already has an account" in again.output
    short = run(monkeypatch, url, "create-admin", "two@example.org", input="short\nshort\n")
    assert short.exit_code == 1 and "10 to 1024" in short.output

    r = run(monkeypatch, url, "invite", "ann@example.org", "--cohort", "fall", "--base-url", "https://dojo.example")
    assert r.exit_code == 0, r.output
    token = re.search(r"https://dojo\.example/signup/([A-Za-z0-9_-]+)", r.output).group(1)
    acc = Accounts(open_database(url))
    ann = acc.sign_up(token, PASSWORD, "Ann")
    bad = run(monkeypatch, url, "invite", "bob@example.org", "--role", "superuser")
    assert bad.exit_code == 1 and "role must be one of" in bad.output

    listed = run(monkeypatch, url, "users")
    assert listed.exit_code == 0 and "root@example.org" in listed.output and "ann@example.org" in listed.output
    assert "fall" in run(monkeypatch, url, "users", "--cohort", "fall").output
    assert "root@example.org" not in run(monkeypatch, url, "users", "--cohort", "fall").output

    m = run(monkeypatch, url, "migrate")
    assert m.exit_code == 0 and "2 learner store(s)" in m.output
    assert (tmp_path / "learners" / f"{ann.id}.db").exists()

    d = run(monkeypatch, url, "disable", "ann@example.org")
    assert d.exit_code == 0
    import pytest

    from torchdojo.team.accounts import AccountError

    with pytest.raises(AccountError):
        acc.authenticate("ann@example.org", PASSWORD)
    assert run(monkeypatch, url, "disable", "nobody@example.org").exit_code == 1
