"""One settings object, read from ``TORCHDOJO_*`` environment variables (pydantic-settings).

No global mutable state: callers build a :class:`Settings` (or receive one) and pass it on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from platformdirs import user_cache_path, user_data_path
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

_REPO_BANK = Path(__file__).resolve().parents[2] / "bank"


def _default_bank_dir() -> Path:
    return _REPO_BANK if _REPO_BANK.is_dir() else Path.cwd() / "bank"


def _default_database_url() -> str:
    return f"sqlite:///{user_data_path('torchdojo', appauthor=False) / 'torchdojo.db'}"


class Settings(BaseSettings):
    """Settings. Environment: ``TORCHDOJO_BANK_DIR``, ``TORCHDOJO_DATABASE_URL``, …"""

    model_config = SettingsConfigDict(env_prefix="TORCHDOJO_", extra="ignore")

    bank_dir: Path = Field(default_factory=_default_bank_dir)
    #: SQLAlchemy URL. Default: SQLite in the user's XDG data directory.
    database_url: str = Field(default_factory=_default_database_url)
    #: FSRS desired retention: the target probability of recall when a card falls due (0.7–0.97).
    desired_retention: float = Field(default=0.9, ge=0.7, le=0.97)
    #: New cards introduced per day in the review queue.
    new_per_day: int = Field(default=20, ge=0, le=1000)
    #: Review cards shown per UTC day (reviews done today count against it), as Anki's limit.
    max_reviews_per_day: int = Field(default=200, ge=0, le=10000)
    #: Run code submissions WITHOUT isolation (only where the sandbox cannot run; opt-in).
    unsafe_local_judge: bool = False
    #: Concurrent judge jobs (each slot has its own uid and cgroup).
    judge_slots: int = Field(default=2, ge=1, le=32)
    #: Start the judge (its server, and torch in this process) in the background when the web
    #: app starts, so the first verdict does not wait for it.
    judge_prestart: bool = True
    #: Recomputable data (the judge's expected outputs). Default: the user's XDG cache directory.
    cache_dir: Path = Field(default_factory=lambda: user_cache_path("torchdojo", appauthor=False))
    #: Rank search results by meaning too (MiniLM embeddings in the grader's worker process,
    #: fused with BM25); off: BM25 with typo correction alone.
    search_dense: bool = True
    #: Free-text answer grader: ``embedding`` (offline, MiniLM + rubric) or ``llm`` (an
    #: OpenAI-compatible endpoint; when it fails the feedback says so, it never falls back).
    grader: Literal["embedding", "llm"] = "embedding"
    #: OpenAI-compatible endpoint for the LLM judge, e.g. ``http://localhost:11434/v1``.
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = None
    #: Seconds to wait for the LLM endpoint per answer.
    llm_timeout: float = Field(default=60.0, gt=0, le=600)
    #: Longest recording transcribed, in seconds (answer out loud; see docs/speech.md).
    speech_max_seconds: float = Field(default=300.0, gt=0, le=3600)
    #: Keep recordings after transcription (in ``<data dir>/recordings``); off: discarded.
    speech_keep_recordings: bool = False
    #: CPU threads the speech recogniser uses (0: all cores).
    speech_threads: int = Field(default=2, ge=0, le=64)
    #: The recogniser: auto (faster-whisper, PocketSphinx where it cannot load), whisper, pocketsphinx.
    speech_engine: Literal["auto", "whisper", "pocketsphinx"] = "auto"
    #: Background jobs (:mod:`torchdojo.jobs`, both backends): more runs of a task after it raised
    #: (in team mode: a judge job the judge failed on — sandbox down, database busy — with
    #: exponential backoff), before its state is ``failed`` with the error.
    jobs_max_retries: int = Field(default=2, ge=0, le=20)
    #: Team mode: the Celery broker (``redis://host:port/db``). Unset: the single-user app judges
    #: in its own process and needs no Redis or Celery (see docs/deploy.md).
    broker_url: str | None = None
    #: Seconds a job taken by a worker may stay unacknowledged before Redis gives it to another
    #: worker (the worker died without saying so). Longer than the slowest judging.
    broker_visibility_timeout: int = Field(default=3600, ge=5, le=86400)
    #: Jobs waiting in the queue beyond which submitting raises ``QueueFull`` (web: 429).
    queue_max: int = Field(default=500, ge=1, le=1_000_000)
    #: Judge jobs one ``torchdojo worker`` runs at once (0: one per CPU core).
    worker_concurrency: int = Field(default=0, ge=0, le=256)
    #: Accounts (sign-in, roles, one store per learner; see docs/deploy.md): None means on in team
    #: mode (``broker_url`` set), off for the single-user app.
    accounts: bool | None = None
    #: The session cookie's ``Secure`` flag: None sets it when the request came over HTTPS (behind
    #: a TLS-terminating proxy, run uvicorn with ``--proxy-headers``).
    cookie_secure: bool | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    #: More host names the web app answers to (comma-separated), besides the bound host,
    #: ``localhost``, ``127.0.0.1`` and ``::1``; any other Host header is refused (DNS rebinding).
    allowed_hosts: str = ""

    @property
    def accounts_enabled(self) -> bool:
        """Whether the web app has accounts (see :attr:`accounts`)."""
        return self.accounts if self.accounts is not None else bool(self.broker_url)

    def host_allow_list(self) -> list[str]:
        """Host names the web app answers to (see :mod:`torchdojo.web.security`)."""
        extra = [h.strip() for h in self.allowed_hosts.split(",") if h.strip()]
        bound = [] if self.host in ("0.0.0.0", "::", "") else [self.host]
        return ["localhost", "127.0.0.1", "::1", *bound, *extra]
