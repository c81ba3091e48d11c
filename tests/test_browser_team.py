"""Team mode in a real browser (Playwright + Debian's chromium) against a real ``torchdojo serve``
with accounts on a real PostgreSQL: the admin invites a coach from the terminal, the coach signs
up and invites a learner from the cohort page, the learner signs up and practises (htmx ratings
carry the CSRF token), and the coach sees it on the cohort dashboard."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from conftest import TORCHDOJO, Server
from playwright.sync_api import expect

PASSWORD = "correct horse battery"


@pytest.fixture
def team_server(pg_url):
    srv = Server(pg_url, env={"TORCHDOJO_ACCOUNTS": "1", "TORCHDOJO_SEARCH_DENSE": "0"}, ready_path="/healthz")
    srv.start(timeout=120)
    yield srv
    srv.stop()


def admin_cli(srv: Server, *args: str) -> str:
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": srv.db_url, "TORCHDOJO_BANK_DIR": str(srv.bank_dir),
           "TORCHDOJO_ADMIN_PASSWORD": PASSWORD, "COLUMNS": "200"}
    out = subprocess.run([TORCHDOJO, "admin", *args], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def sign_up(page, link: str, name: str) -> None:
    page.goto(link)
    expect(page.locator("h1")).to_have_text("Sign up")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Password (10 characters or more)").fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator("form.account .who")).to_have_text(name)


def test_invite_sign_up_practise_and_the_coach_sees_it(team_server, browser):
    srv = team_server
    admin_cli(srv, "create-admin", "admin@example.org")
    out = admin_cli(srv, "invite", "coach@example.org", "--role", "coach", "--cohort", "fall",
                    "--base-url", srv.url)
    coach_link = re.search(r"(http://\S+/signup/\S+)", out).group(1)

    coach = browser.new_context().new_page()
    sign_up(coach, coach_link, "Coach Carla")
    coach.goto(srv.url + "/coach")
    expect(coach.locator("h1")).to_contain_text("fall")
    coach.get_by_label("E-mail").fill("lee@example.org")
    coach.get_by_role("button", name="Invite").click()
    learner_link = coach.locator(".invite-link").inner_text().strip()
    assert "/signup/" in learner_link

    learner = browser.new_context().new_page()
    anon = learner.context.new_page()
    anon.goto(srv.url + "/stats")
    expect(anon.locator("h1")).to_have_text("Log in")  # no session yet: sent to the sign-in page
    anon.close()
    sign_up(learner, learner_link, "Lee")
    learner.goto(srv.url + "/review")
    for _ in range(2):  # reveal with the keyboard, rate with a click (htmx POST: the CSRF header)
        first = learner.locator("#card").get_attribute("data-entry")
        learner.keyboard.press(" ")
        expect(learner.locator(".card-back")).to_be_visible()
        learner.get_by_role("button", name=re.compile("^Easy")).click()
        expect(learner.locator(".flash")).to_have_text("Saved: Easy")
        expect(learner.locator("#card")).not_to_have_attribute("data-entry", first)
    expect(learner.locator("#reviewed-today")).to_have_text("2")

    coach.goto(srv.url + "/coach")
    row = coach.locator("#learners tr", has_text="Lee")
    expect(row.locator("td").nth(1)).to_have_text("2")  # reviews in the last 7 days
    expect(coach.locator("#inactive")).to_have_count(0)  # nobody inactive: Lee practised today
    studied = [float(v) for v in coach.locator("#heat td[data-studied]").evaluate_all(
        "cells => cells.map(c => c.dataset.studied)")]
    assert any(v > 0 for v in studied)

    # the learner's log-out button is a plain form: its CSRF field is added by the page's script
    learner.get_by_role("button", name="Log out").click()
    expect(learner.locator("h1")).to_have_text("Log in")
    learner.goto(srv.url + "/review")
    expect(learner.locator("h1")).to_have_text("Log in")
