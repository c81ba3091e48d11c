"""Answer out loud on the practise form: ``POST /questions/{entry_id}/speech`` takes a recording
(multipart field ``audio``; whatever the browser's MediaRecorder makes, or any file FFmpeg
reads), transcribes it in the speech worker (:class:`torchdojo.speech.worker.SpeechProcess`,
``app.state.speech``: this process never imports the engine) and answers JSON: ``text`` (for
the answer box, to be corrected before grading) and ``transcript`` (the word timings, sent back
with the answer so delivery feedback can be computed). The recording is deleted after
transcription unless ``TORCHDOJO_SPEECH_KEEP_RECORDINGS`` is set (then kept in
``<data dir>/recordings``). Bad input: 4xx with ``error`` naming the upload; a recogniser
failure: 503 (the browser keeps the recording for a retry).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, HTTPException, Request, UploadFile
from fastapi.responses import JSONResponse

from torchdojo.speech import SpeechError
from torchdojo.web.routes.deps import DbId, Position, dojo

router = APIRouter()

#: Largest upload, in bytes (5 minutes of Opus is ~2 MB; of 16-bit 48 kHz WAV ~29 MB).
MAX_UPLOAD_BYTES = 64 * 1024 * 1024
#: Seconds one transcription may take (the model's first load included).
TRANSCRIBE_TIMEOUT = 300.0
_lock = threading.Lock()


def speech_process(request: Request):
    """The app's speech worker client, created on first use (the worker starts on the first recording)."""
    with _lock:
        proc = getattr(request.app.state, "speech", None)
        if proc is None:
            from torchdojo.speech.worker import SpeechProcess

            proc = request.app.state.speech = SpeechProcess(dojo(request).settings)
        return proc


def recordings_dir(request: Request) -> Path:
    """Where kept recordings go: ``recordings/`` beside the SQLite database (or in the cache directory)."""
    url = dojo(request).settings.database_url
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):]).parent / "recordings"
    return dojo(request).settings.cache_dir / "recordings"


@router.post("/questions/{entry_id}/speech")
def transcribe(request: Request, entry_id: str, audio: Annotated[UploadFile, File()]) -> JSONResponse:
    """Transcribe one recorded answer (see the module doc)."""
    from torchdojo.web.routes.question import _entry

    entry = _entry(request, entry_id)
    return _transcribe_upload(request, audio, entry.id if entry.id in dojo(request).bank.entries else None,
                              entry.id.replace(":", "-"))


@router.post("/mock/{mock_id}/{pos}/speech")
def transcribe_mock_item(request: Request, mock_id: DbId, pos: Position,
                         audio: Annotated[UploadFile, File()]) -> JSONResponse:
    """Answer a mock interview's prose item out loud (a mock started with *answer out loud*): the
    same transcription, under the interview's timer. 409 when the interview has ended (time up or
    finished) or the item is locked (model answer revealed first); 422 for a coding item."""
    from torchdojo.practice.mock import MockError

    d = dojo(request)
    try:
        m = d.mocks.get(mock_id)
    except MockError:
        return JSONResponse({"error": f"There is no mock interview #{mock_id}."}, status_code=404)
    if not 1 <= pos <= len(m.items):
        return JSONResponse({"error": f"Mock interview #{mock_id} has {len(m.items)} items; there is no item {pos}."},
                            status_code=404)
    item = m.items[pos - 1]
    if m.status != "active" or m.remaining_seconds() <= 0:
        return JSONResponse({"error": "This interview has ended: the recording was not transcribed."}, status_code=409)
    if item.kind != "question":
        return JSONResponse({"error": "Coding items are answered in code, not out loud."}, status_code=422)
    if item.revealed_before_answer:
        return JSONResponse({"error": "This item is locked: the model answer was shown before you answered."},
                            status_code=409)
    return _transcribe_upload(request, audio, item.ref_id if item.ref_id in d.bank.entries else None,
                              f"mock{mock_id}-{pos}")


def _transcribe_upload(request: Request, audio: UploadFile, entry_id: str | None, stem: str) -> JSONResponse:
    """Store the upload in a temporary file (413 over :data:`MAX_UPLOAD_BYTES`), transcribe it in
    the speech worker (``entry_id``'s terms first in the prompt), keep it as ``<stem>-<time>`` when
    recordings are kept, else delete it. JSON as the module doc says; 413/422/503 with ``error``."""
    d = dojo(request)
    name = f"the recording{f' {audio.filename!r}' if audio.filename and audio.filename != 'blob' else ''}"
    tmp = tempfile.NamedTemporaryFile(prefix="torchdojo-speech-", suffix=Path(audio.filename or "").suffix[:10],
                                      delete=False)
    try:
        with tmp:
            size = 0
            while chunk := audio.file.read(1 << 20):
                size += len(chunk)
                if size > MAX_UPLOAD_BYTES:
                    raise HTTPException(413, f"{name} is over {MAX_UPLOAD_BYTES >> 20} MB: record a shorter answer")
                tmp.write(chunk)
        # What is plainly not a recording is refused here, before the worker (and its model) starts.
        if size == 0:
            return JSONResponse({"error": f"{name} is empty (0 bytes): record or choose the answer again",
                                 "kind": "empty"}, status_code=422)
        import filetype

        kind = filetype.guess(tmp.name)
        if kind is None or not kind.mime.startswith(("audio/", "video/")):
            return JSONResponse({"error": f"{name} is not audio that can be read: not a recording in a known format "
                                 "(wav, webm, ogg, mp3, m4a, flac, …)", "kind": "not-audio"}, status_code=422)
        try:
            t = speech_process(request).transcribe(tmp.name, name=name, entry_id=entry_id, timeout=TRANSCRIBE_TIMEOUT)
        except SpeechError as e:
            status = 503 if e.kind == "engine" else 413 if e.kind == "too-long" else 422
            return JSONResponse({"error": str(e), "kind": e.kind}, status_code=status)
        if d.settings.speech_keep_recordings:
            dest = recordings_dir(request)
            dest.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            shutil.move(tmp.name, dest / f"{stem}-{stamp}{Path(tmp.name).suffix or '.audio'}")
        return JSONResponse({"text": t.text, "raw_text": t.raw_text, "engine": t.engine, "duration": t.duration,
                             "transcript": t.model_dump_json()})
    finally:
        Path(tmp.name).unlink(missing_ok=True)
