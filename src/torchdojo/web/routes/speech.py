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
from torchdojo.web.routes.deps import dojo

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
    d = dojo(request)
    from torchdojo.web.routes.question import _entry

    entry = _entry(request, entry_id)
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
        try:
            t = speech_process(request).transcribe(tmp.name, name=name, entry_id=entry.id if entry.id in d.bank.entries
                                                   else None, timeout=TRANSCRIBE_TIMEOUT)
        except SpeechError as e:
            status = 503 if e.kind == "engine" else 413 if e.kind == "too-long" else 422
            return JSONResponse({"error": str(e), "kind": e.kind}, status_code=status)
        if d.settings.speech_keep_recordings:
            dest = recordings_dir(request)
            dest.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            shutil.move(tmp.name, dest / f"{entry.id.replace(':', '-')}-{stamp}{Path(tmp.name).suffix or '.audio'}")
        return JSONResponse({"text": t.text, "raw_text": t.raw_text, "engine": t.engine, "duration": t.duration,
                             "transcript": t.model_dump_json()})
    finally:
        Path(tmp.name).unlink(missing_ok=True)
