"""Real Chromium against a real server: the Export and backup page downloads a backup that parses,
and restores one from an upload."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_download_the_backup_from_the_page_and_restore_it(server, browser, tmp_path):
    from conftest import BANK

    from torchdojo.core import Dojo
    from torchdojo.settings import Settings

    page = browser.new_page(accept_downloads=True)
    page.goto(server.url + "/")
    page.get_by_role("link", name="Data", exact=True).click()
    expect(page.locator("h1")).to_have_text("Export and backup")

    # rate one card so the backup holds something, then download it
    page.goto(server.url + "/review")
    page.keyboard.press(" ")
    page.get_by_role("button", name="Good").first.click()
    expect(page.locator(".flash")).to_have_text("Saved: Good")
    page.goto(server.url + "/data")
    with page.expect_download() as dl:
        page.locator("#download-backup").click()
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    assert path.name.startswith("torchdojo-backup-") and path.suffix == ".json"
    doc = json.loads(path.read_text())
    assert doc["format"] == "torchdojo-backup" and len(doc["tables"]["review_logs"]) == 1

    # restoring into this (non-empty) database needs the box; with it ticked the data is replaced
    page.locator("#restore-file").set_input_files(str(path))
    page.locator("#restore-btn").click()
    expect(page.locator("#data-error")).to_contain_text("already holds")
    page.locator("#restore-file").set_input_files(str(path))
    page.locator("#restore-replace").check()
    page.locator("#restore-btn").click()
    expect(page.locator("#restored")).to_contain_text("Every card equals the replay of its review log")
    d = Dojo(Settings(bank_dir=BANK, database_url=server.db_url))
    assert len(d.flashcards.history()) == 1 and d.flashcards.check(repair=False) == []
    page.close()


def test_data_page_fits_a_phone(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/data")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"/data scrolls sideways by {overflow}px at 390px"
    page.close()
