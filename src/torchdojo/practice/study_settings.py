"""The learner's study settings, stored in the user database (table ``user_settings``).

Each setting is one row, ``key`` → JSON ``value``; a setting with no row takes its default, the
``TORCHDOJO_*`` value of :class:`torchdojo.settings.Settings` (or, where Settings has none, the
value below). Settings (key, CLI name, allowed values):

- ``desired_retention`` (``desired-retention``): FSRS's target probability of recall when a card
  falls due, 0.70–0.97 (default ``TORCHDOJO_DESIRED_RETENTION``, 0.9). Lower: longer intervals,
  fewer reviews, more forgetting.
- ``new_per_day`` (``new-per-day``): new cards introduced per UTC day, 0–1000
  (``TORCHDOJO_NEW_PER_DAY``, 20).
- ``max_reviews_per_day`` (``max-reviews-per-day``): review cards shown per UTC day, 0–10000
  (``TORCHDOJO_MAX_REVIEWS_PER_DAY``, 200 as in Anki); reviews done today count against it.
- ``topics`` (``topics``): taxonomy slugs whose cards enter the queue; empty = every topic.
- ``levels`` (``levels``): a subset of junior/mid/senior; empty = every level.
- ``fsrs_parameters`` (``fsrs-parameters``): the 21 FSRS weights ``fsrs.Scheduler(parameters=…)``
  takes, each within fsrs's bounds; unset = fsrs's defaults. ``torchdojo config optimize`` (or
  the web page's "Optimise") fits them to the learner's own review log.

Validation is pydantic; :class:`StudySettingsError` names each bad field and its allowed range.
These functions only read and write rows; :meth:`torchdojo.practice.flashcards.Flashcards.save_settings`
saves *and* reschedules the cards when the scheduler changes, in one transaction.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fsrs import Scheduler
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.settings import Settings
from torchdojo.store.models import UserSettingRow

log = logging.getLogger(__name__)

#: The number of FSRS parameters (weights) fsrs 6 takes.
N_PARAMETERS = 21


@dataclass(frozen=True)
class Field_:
    """What a face shows about one setting: its label, CLI name, and the values it allows."""

    key: str
    name: str
    label: str
    allowed: str
    help: str


FIELDS: dict[str, Field_] = {f.key: f for f in (
    Field_("desired_retention", "desired-retention", "Desired retention", "a number from 0.70 to 0.97",
           "The probability of recall FSRS aims for when a card falls due. Lower: longer intervals, "
           "fewer reviews, more forgetting; higher: the opposite."),
    Field_("new_per_day", "new-per-day", "New cards per day", "a whole number from 0 to 1000",
           "New cards introduced per UTC day (key-point cards from mock interviews do not count)."),
    Field_("max_reviews_per_day", "max-reviews-per-day", "Maximum reviews per day", "a whole number from 0 to 10000",
           "Review cards shown per UTC day; reviews already done today count against it. Cards in "
           "(re)learning are never held back."),
    Field_("topics", "topics", "Topics in the queue", "topic slugs (" + ", ".join(TOPICS) + "); empty: every topic",
           "Only cards of these topics enter the queue."),
    Field_("levels", "levels", "Levels in the queue", "any of " + ", ".join(LEVELS) + "; empty: every level",
           "Only cards of these levels enter the queue."),
    Field_("fsrs_parameters", "fsrs-parameters", "FSRS parameters",
           f"{N_PARAMETERS} numbers within fsrs's bounds; empty: fsrs's defaults",
           "The FSRS model's weights. Optimise them from your own review log rather than typing them."),
)}
#: CLI names (``desired-retention``) and keys (``desired_retention``) → key.
_NAMES = {**{f.name: f.key for f in FIELDS.values()}, **{f.key: f.key for f in FIELDS.values()}}
#: The settings that define the scheduler: changing one reschedules every card.
SCHEDULER_KEYS = ("desired_retention", "fsrs_parameters")


class StudySettingsError(ValueError):
    """One or more settings were refused. ``errors`` maps each key to a message naming the
    setting and the values it allows; ``str()`` joins them."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(self.errors.values()))


class StudySettings(BaseModel):
    """The study settings in force (immutable). Build with :func:`load` or :func:`validate`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    desired_retention: float = Field(ge=0.70, le=0.97, allow_inf_nan=False)
    new_per_day: int = Field(ge=0, le=1000)
    max_reviews_per_day: int = Field(ge=0, le=10000)
    topics: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    fsrs_parameters: tuple[float, ...] | None = None

    @field_validator("topics")
    @classmethod
    def _topics(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [t for t in v if t not in TOPICS]
        if bad:
            raise ValueError(f"unknown topic {', '.join(repr(b) for b in bad)}")
        return tuple(t for t in TOPICS if t in v)  # taxonomy order, no duplicates

    @field_validator("levels")
    @classmethod
    def _levels(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [lv for lv in v if lv not in LEVELS]
        if bad:
            raise ValueError(f"unknown level {', '.join(repr(b) for b in bad)}")
        return tuple(lv for lv in LEVELS if lv in v)

    @field_validator("fsrs_parameters")
    @classmethod
    def _parameters(cls, v: tuple[float, ...] | None) -> tuple[float, ...] | None:
        if v is None or len(v) == 0:
            return None
        if len(v) != N_PARAMETERS:
            raise ValueError(f"expected {N_PARAMETERS} numbers, got {len(v)}")
        try:
            Scheduler(parameters=v)  # fsrs's own bounds check
        except ValueError as e:
            raise ValueError(" ".join(str(e).split())) from None
        return tuple(float(x) for x in v)

    def scheduler(self) -> Scheduler:
        """The FSRS scheduler these settings define (fuzzing off: intervals are reproducible)."""
        if self.fsrs_parameters is None:
            return Scheduler(desired_retention=self.desired_retention, enable_fuzzing=False)
        return Scheduler(parameters=self.fsrs_parameters, desired_retention=self.desired_retention,
                         enable_fuzzing=False)

    def display(self, key: str) -> str:
        """One setting as text (what ``torchdojo config`` prints and ``config set`` accepts)."""
        return format_value(key, getattr(self, key))


def format_value(key: str, value: Any) -> str:
    """A setting's value as text: lists comma-separated, unset parameters as "fsrs defaults"."""
    if key in ("topics", "levels"):
        return ", ".join(value) if value else "all"
    if key == "fsrs_parameters":
        return ", ".join(f"{x:.4f}" for x in value) if value else "fsrs defaults"
    return str(value)


def key_of(name: str) -> str:
    """The key of a setting named by its key or CLI name; raises :class:`StudySettingsError`."""
    key = _NAMES.get(name.strip().lower())
    if key is None:
        raise StudySettingsError({name: f"unknown setting '{name}': use one of {', '.join(f.name for f in FIELDS.values())}"})
    return key


def parse_text(key: str, text: str) -> Any:
    """A value typed as text (CLI or a form field) → what :func:`validate` takes: lists split on
    commas or spaces; an empty list or parameters field means "all" / "fsrs defaults"."""
    text = text.strip()
    if key in ("topics", "levels", "fsrs_parameters"):
        if text.lower() in ("", "all", "default", "defaults", "fsrs defaults"):
            return [] if key != "fsrs_parameters" else None
        parts = [p for p in text.replace(",", " ").split() if p]
        if key != "fsrs_parameters":
            return parts
        try:
            return [float(p) for p in parts]
        except ValueError:
            raise StudySettingsError({key: message(key, "not a list of numbers")}) from None
    return text


def message(key: str, problem: str) -> str:
    """"<Label> (<cli-name>): <problem>; allowed: <allowed values>"."""
    f = FIELDS[key]
    return f"{f.label} ({f.name}): {problem}; allowed: {f.allowed}"


def defaults(settings: Settings) -> StudySettings:
    """The settings that apply when the learner set nothing: the ``TORCHDOJO_*`` values."""
    return StudySettings(desired_retention=settings.desired_retention, new_per_day=settings.new_per_day,
                         max_reviews_per_day=settings.max_reviews_per_day)


def validate(values: Mapping[str, Any], base: StudySettings) -> StudySettings:
    """``base`` with ``values`` (key or CLI name → value) applied; raises
    :class:`StudySettingsError` naming every bad field and its allowed values."""
    changes: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name, value in values.items():
        try:
            changes[key_of(name)] = value
        except StudySettingsError as e:
            errors.update(e.errors)
    result = base
    try:
        result = StudySettings.model_validate({**base.model_dump(), **changes})
    except ValidationError as e:
        for err in e.errors():
            key = str(err["loc"][0]) if err["loc"] else "?"
            msg = err["msg"].removeprefix("Value error, ")
            if key in FIELDS and key not in errors:
                errors[key] = message(key, f"{msg} (got {_shown(changes.get(key, err.get('input')))})")
    if errors:
        raise StudySettingsError(errors)
    return result


def _shown(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, (list, tuple)) else str(value)
    return text if len(text) <= 80 else text[:77] + "…"


def load(s: Session, base: StudySettings) -> StudySettings:
    """The settings in force: ``base`` (the defaults) overlaid with the stored rows. A stored
    value that no longer validates (edited by hand, a topic removed) is ignored with a warning."""
    return from_rows(read_rows(s), base)


def read_rows(s: Session) -> dict[str, str]:
    """The stored rows, key → JSON text (one light query)."""
    return dict(s.execute(select(UserSettingRow.key, UserSettingRow.value)).all())


def from_rows(rows: Mapping[str, str], base: StudySettings) -> StudySettings:
    """Like :func:`load`, from rows already read."""
    out = base
    for key, raw in sorted(rows.items()):
        if key not in FIELDS:
            continue
        try:
            out = validate({key: json.loads(raw)}, out)
        except (StudySettingsError, ValueError) as e:
            log.warning("ignoring the stored study setting %s=%r: %s", key, raw, e)
    return out


def save(s: Session, values: Mapping[str, Any], base: StudySettings, now: datetime | None = None) -> StudySettings:
    """Validate ``values`` against the stored settings and write them (one row per key) in the
    caller's transaction; returns the settings now in force. A value equal to its default, for
    a setting never saved, writes no row (it keeps following its ``TORCHDOJO_*`` default).
    Raises :class:`StudySettingsError` (nothing written)."""
    now = now or datetime.now(UTC)
    current = load(s, base)
    new = validate(values, current)
    for name in values:
        key = key_of(name)
        value = getattr(new, key)
        if value == getattr(current, key) and s.get(UserSettingRow, key) is None:
            continue  # the value in force already (its default): nothing to pin
        stored = list(value) if isinstance(value, tuple) else value
        row = s.get(UserSettingRow, key)
        if row is None:
            s.add(UserSettingRow(key=key, value=json.dumps(stored), updated_at=now))
        else:
            row.value, row.updated_at = json.dumps(stored), now
    s.flush()
    return new


def reset(s: Session, names: Iterable[str] | None, base: StudySettings) -> StudySettings:
    """Delete the rows of ``names`` (None: every setting) so they take their defaults again;
    returns the settings now in force. Raises :class:`StudySettingsError` for an unknown name."""
    if names is None:
        s.execute(delete(UserSettingRow).where(UserSettingRow.key.in_(list(FIELDS))))
    else:
        keys = [key_of(n) for n in names]
        s.execute(delete(UserSettingRow).where(UserSettingRow.key.in_(keys)))
    s.flush()
    return load(s, base)
