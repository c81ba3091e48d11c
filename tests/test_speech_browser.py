"""Answer out loud in a real Chromium: a fake microphone fed a WAV synthesised by espeak-ng at
test time, a real server whose speech worker runs the real faster-whisper model."""

from __future__ import annotations

import re
import shutil
import subprocess

import httpx
import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
ENTRY = "what-is-autograd"
SPOKEN = ("Autograd records the operations on tensors that require grad while the forward code runs. "
          "Then backward walks that graph in reverse with the chain rule.")


@pytest.fixture(scope="module")
def wav(tmp_path_factory):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng missing (scripts/setup.sh --test)")
    path = tmp_path_factory.mktemp("mic") / "answer.wav"
    subprocess.run(["espeak-ng", "-s", "150", "-v", "en-us", "-w", str(path), SPOKEN], check=True)
    return path


@pytest.fixture(scope="module")
def mic_browser(wav, pw):
    """Chromium with a fake microphone playing ``wav`` (permission still asked: granted per context),
    launched by the test process's one Playwright (conftest's ``pw``)."""
    b = pw.chromium.launch(executable_path=CHROMIUM, args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-audio-capture={wav}%noloop"])
    yield b
    b.close()


def test_record_transcribe_correct_and_grade_with_delivery_feedback(server, mic_browser):
    ctx = mic_browser.new_context(permissions=["microphone"])
    page = ctx.new_page()
    page.goto(f"{server.url}/questions/{ENTRY}")
    expect(page.locator("#speech-controls")).to_be_visible()
    page.keyboard.press("Alt+r")  # the key starts recording, as the button does
    expect(page.locator("#speech-stop")).to_be_visible()
    expect(page.locator("#speech-status")).to_contain_text("Recording")
    expect(page.locator("#speech-elapsed")).to_have_text(re.compile(r"0:0[3-9]"), timeout=15_000)
    page.wait_for_function("document.getElementById('speech-level').value > 0.01", timeout=15_000)  # the meter moves
    page.wait_for_timeout(7_000)  # the rest of the ~9 s answer
    page.locator("#speech-stop").click()
    expect(page.locator("#speech-status")).to_contain_text("Transcribed", timeout=240_000)
    answer = page.locator("#practice-answer")
    heard = answer.input_value()
    assert "chain rule" in heard.lower() and "tensors" in heard.lower(), heard
    assert page.locator("#speech-transcript").input_value().startswith("{")
    answer.fill(heard + " Gradients are added into .grad of the leaf tensors.")  # the candidate corrects it
    page.locator("#practice-submit").click()
    expect(page.locator("#practice-score")).to_contain_text(re.compile(r"Score|uncertain"), timeout=300_000)
    expect(page.locator("#delivery-rate")).to_contain_text("words/min")
    expect(page.locator("#delivery-first")).to_contain_text("first 20 seconds")
    expect(page.locator(".your-answer")).to_contain_text("leaf tensors")
    ctx.close()


def test_microphone_refused_says_so(server, mic_browser):
    ctx = mic_browser.new_context()  # no microphone permission granted: the request is refused
    page = ctx.new_page()
    page.goto(f"{server.url}/questions/{ENTRY}")
    page.locator("#speech-record").click()
    expect(page.locator("#speech-status")).to_contain_text("Microphone permission refused")
    expect(page.locator("#speech-record")).to_be_visible()
    ctx.close()


def test_upload_errors_are_4xx_with_a_message(server, wav, tmp_path):
    url = f"{server.url}/questions/{ENTRY}/speech"
    r = httpx.post(url, files={"audio": ("notes.wav", b"not audio at all", "audio/wav")}, timeout=240)
    assert r.status_code == 422 and "notes.wav" in r.json()["error"] and r.json()["kind"] == "not-audio"
    r = httpx.post(url, files={"audio": ("empty.webm", b"", "audio/webm")}, timeout=60)
    assert r.status_code == 422 and r.json()["kind"] == "empty"
    r = httpx.post(url, files={"audio": ("a.wav", wav.read_bytes(), "audio/wav")}, timeout=60,
                   headers={"Origin": "http://evil.example"})
    assert r.status_code == 403  # the Origin guard covers the upload
    r = httpx.post(f"{server.url}/questions/no-such/speech", files={"audio": ("a.wav", b"x", "audio/wav")}, timeout=60)
    assert r.status_code == 404
    r = httpx.post(f"{server.url}/questions/{ENTRY}/answer", data={"answer": "x", "speech": "{not json"}, timeout=60)
    assert r.status_code == 422
