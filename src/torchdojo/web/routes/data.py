"""Export and backup: download the full backup, the review log CSV and an Anki deck; restore a
backup from an upload (the POST passes the cross-origin check of ``web/security.py`` like every
state-changing request). Thin: the work is :class:`torchdojo.practice.export.StudyData`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.practice.export import ExportError
from torchdojo.store.backup import MAX_BACKUP_BYTES, BackupError, NotEmptyError
from torchdojo.web import markdown
from torchdojo.web.app import templates
from torchdojo.web.routes.deps import dojo

router = APIRouter()


def _page(request: Request, status_code: int = 200, **ctx) -> HTMLResponse:
    d = dojo(request)
    counts = d.data.counts()
    return templates.TemplateResponse(request, "data.html", {
        "counts": counts, "total": sum(counts.values()), "topics": TOPICS, "levels": LEVELS,
        "error": None, "restored": None, **ctx}, status_code=status_code)


def _attachment(body: bytes | str, media_type: str, name: str) -> Response:
    return Response(body, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


@router.get("/data", response_class=HTMLResponse)
def data_page(request: Request):
    """The export and backup page."""
    return _page(request)


@router.get("/data/backup.json")
def download_backup(request: Request) -> Response:
    """The full backup of the study data (JSON, see ``torchdojo.store.backup``)."""
    return _attachment(dojo(request).data.backup_json(), "application/json",
                       f"torchdojo-backup-{_stamp()}.json")


@router.get("/data/reviews.csv")
def download_reviews(request: Request) -> Response:
    """The review log in the columns FSRS optimizers read."""
    return _attachment(dojo(request).data.reviews_csv(), "text/csv; charset=utf-8", "torchdojo-reviews.csv")


@router.get("/data/deck.apkg")
def download_anki(request: Request, topic: Annotated[list[str], Query(max_length=40)] = [],  # noqa: B006
                  level: Annotated[list[str], Query(max_length=10)] = [],  # noqa: B006
                  own: bool = False) -> Response:
    """An Anki deck of the chosen topics and levels (none chosen: all); ``own`` adds own cards."""
    try:
        data, _n = dojo(request).data.anki_package(markdown.render, topics=topic, levels=level, own=own,
                                                   css=markdown.pygments_css())
    except ExportError as e:
        return _page(request, 400, error=str(e))
    return _attachment(data, "application/octet-stream", "torchdojo.apkg")


@router.post("/data/restore", response_class=HTMLResponse)
def restore(request: Request, file: Annotated[UploadFile, File(description="a torchdojo backup (JSON)")],
            replace: Annotated[bool, Form()] = False):
    """Restore an uploaded backup: 400 for a file that is not a valid backup, 409 when the
    database holds data and Replace is not ticked, 413 for a file over the size limit; nothing
    is written in any of these cases."""
    data = file.file.read(MAX_BACKUP_BYTES + 1)
    name = file.filename or "the file"
    if len(data) > MAX_BACKUP_BYTES:
        return _page(request, 413, error=f"{name}: larger than {MAX_BACKUP_BYTES // 2**20} MiB; "
                                         "restore it with `torchdojo restore` instead. Nothing changed.")
    try:
        result = dojo(request).data.restore(data, replace=replace)
    except NotEmptyError as e:
        return _page(request, 409, error=f"{name}: {e}. Nothing changed.")
    except BackupError as e:
        return _page(request, 400, error=f"{name}: {e}. Nothing changed.")
    d = dojo(request)
    d.damaged_cards = d.flashcards.damaged()
    return _page(request, restored=result, filename=name)
