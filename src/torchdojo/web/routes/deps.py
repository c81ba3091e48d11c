"""Small helpers the page modules share: the Dojo of the request and query filters."""

from __future__ import annotations

from fastapi import Request

from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.core import Dojo
from torchdojo.practice.flashcards import Filters


def dojo(request: Request) -> Dojo:
    return request.app.state.dojo


def filters(level: str | None = None, topic: str | None = None, type: str | None = None) -> Filters:
    """Filters from query parameters; unknown or empty values mean 'any'."""
    return Filters(
        level=level if level in LEVELS else None,
        topic=topic if topic in TOPICS else None,
        type=type if type in QUESTION_TYPES else None,
    )


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"
