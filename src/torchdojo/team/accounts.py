"""Accounts of a team server: invitations, sign-up, log-in sessions, roles.

- **Sign-up is by invitation only.** An admin (``torchdojo admin invite`` or the web) or a coach
  (learners of their own cohort) invites an e-mail address with a role; the invitation's token
  (32 random bytes, URL-safe) is shown once, in the link, and only its SHA-256 is stored. A
  token is used once and expires (default 7 days).
- **Passwords** are hashed with argon2id (``argon2-cffi``'s ``PasswordHasher``) at OWASP's
  recommended configuration (m = 19 MiB, t = 2, p = 1), 10 to 1024 characters. A hash made with older parameters is re-hashed at the
  next log-in. A log-in for an unknown e-mail address verifies against a dummy hash, so both
  failures take as long and say the same thing. At most half the cores hash at once (a log-in
  storm waits for its turn instead of starving every other request of CPU).
- **Sessions** are server-side rows: the cookie holds a random token, the row its SHA-256, the
  user, an expiry (absolute, :data:`SESSION_DAYS`) and the session's CSRF token. Log-out deletes
  the row; a disabled account's sessions are deleted and refused.
- **Roles**: ``learner`` practises; ``coach`` also sees the cohort(s) they coach and comments;
  ``admin`` also invites anyone and lists users. See :func:`can_invite`.

Source: OWASP Password Storage cheat sheet ("Argon2id": m=19 MiB, t=2, p=1) and Session
Management cheat sheet; RFC 9106 (Argon2).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select

from torchdojo.store.db import Sessions
from torchdojo.store.team_models import ROLES, InvitationRow, LoginSessionRow, UserRow

#: A log-in session lasts this long (days), whatever the activity.
SESSION_DAYS = 14
#: An invitation is valid this long by default (days).
INVITE_DAYS = 7
MIN_PASSWORD, MAX_PASSWORD = 10, 1024
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s.]{1,63}$")
#: argon2id at OWASP's recommended configuration: 19 MiB, 2 iterations, 1 lane (about 20 ms on
#: this machine; argon2-cffi's default, RFC 9106's 64 MiB profile, took 120 ms and, in a bench of
#: 300 learners signing in within 30 s, held both cores for a minute).
_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
_DUMMY = _hasher.hash("torchdojo: a password nobody has")
#: Password hashes computed at once per process: argon2id takes tens of ms of CPU and 64 MiB
#: each, so a log-in storm (a cohort signing in at 9:00) must not take every core from the pages.
_HASHING = threading.BoundedSemaphore(max(1, (os.cpu_count() or 2) // 2))


def _hash(password: str) -> str:
    with _HASHING:
        return _hasher.hash(password)


def _verify(hashed: str, password: str) -> bool:
    with _HASHING:
        return _hasher.verify(hashed, password)


class AccountError(ValueError):
    """A request about accounts that cannot be done; ``status`` is the HTTP status a face
    answers with (400 bad input, 401 bad credentials, 403 not allowed, 404 unknown, 409 conflict,
    410 an invitation used or expired)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class User:
    """An account as the faces see it (no password hash)."""

    id: int
    email: str
    name: str
    role: str
    cohort: str
    created_at: datetime
    last_seen_at: datetime | None

    @property
    def store(self) -> str:
        """The learner store of this user's practice data (:mod:`torchdojo.store.learners`)."""
        from torchdojo.store.learners import store_name

        return store_name(self.id)

    @property
    def is_coach(self) -> bool:
        return self.role in ("coach", "admin")

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


@dataclass(frozen=True)
class LoginSession:
    """A signed-in session: the user and its CSRF token."""

    user: User
    csrf_token: str
    expires_at: datetime


def _user(row: UserRow) -> User:
    return User(row.id, row.email, row.name, row.role, row.cohort, row.created_at, row.last_seen_at)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _open_invitation(row: InvitationRow | None, now: datetime) -> InvitationRow:
    """``row`` if it is an invitation still open at ``now``; :class:`AccountError` 404 / 410 otherwise."""
    if row is None:
        raise AccountError("this invitation link is not valid: ask for a new one", 404)
    if row.used_at is not None:
        raise AccountError("this invitation was used already: log in instead", 410)
    if row.expires_at <= now:
        raise AccountError("this invitation has expired: ask for a new one", 410)
    return row


def normalize_email(email: str) -> str:
    """``email`` trimmed and lower-cased; raises :class:`AccountError` (400) when it is not an address."""
    e = (email or "").strip().lower()
    if not _EMAIL.match(e):
        raise AccountError(f"not an e-mail address: {email!r}")
    return e


def check_password(password: str) -> None:
    """Raise :class:`AccountError` (400) unless ``password`` has 10 to 1024 characters."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")


def check_role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    return role


def can_invite(inviter: User, role: str, cohort: str) -> bool:
    """An admin invites anyone; a coach invites learners to a cohort they coach; a learner no one."""
    if inviter.is_admin:
        return True
    return inviter.role == "coach" and role == "learner" and cohort == inviter.cohort and bool(cohort)


class Accounts:
    """Users, invitations and sessions in the server database (``sessions``: its
    :class:`~torchdojo.store.db.Sessions`)."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    # -- users -------------------------------------------------------------------------------
    def create_user(self, email: str, password: str, role: str, name: str = "", cohort: str = "",
                    now: datetime | None = None) -> User:
        """A new account (``torchdojo admin create-admin``; the web signs up by invitation).
        Raises :class:`AccountError`: 400 bad input, 409 the e-mail address has an account."""
        email, role = normalize_email(email), check_role(role)
        check_password(password)
        pw = _hash(password)
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            if s.scalar(select(UserRow.id).where(UserRow.email == email)) is not None:
                raise AccountError(f"{email} already has an account", 409)
            row = UserRow(email=email, name=name.strip()[:120], role=role, cohort=cohort.strip()[:60],
                          password_hash=pw, created_at=now)
            s.add(row)
            s.flush()
            return _user(row)

    def get(self, user_id: int) -> User | None:
        with self.sessions() as s:
            row = s.get(UserRow, user_id)
            return _user(row) if row is not None and not row.disabled else None

    def users(self, cohort: str | None = None, role: str | None = None) -> list[User]:
        """Accounts (not disabled), oldest first; only ``cohort``'s / ``role``'s when given."""
        q = select(UserRow).where(UserRow.disabled == 0).order_by(UserRow.id)
        if cohort is not None:
            q = q.where(UserRow.cohort == cohort)
        if role is not None:
            q = q.where(UserRow.role == role)
        with self.sessions() as s:
            return [_user(r) for r in s.scalars(q)]

    def count(self) -> int:
        with self.sessions() as s:
            return len(s.scalars(select(UserRow.id)).all())

    def disable(self, user_id: int) -> None:
        """Disable an account and end its sessions. Raises :class:`AccountError` (404)."""
        with self.sessions.begin() as s:
            row = s.get(UserRow, user_id, with_for_update=True)
            if row is None:
                raise AccountError(f"no user {user_id}", 404)
            row.disabled = 1
            s.execute(delete(LoginSessionRow).where(LoginSessionRow.user_id == user_id))

    # -- invitations -------------------------------------------------------------------------
    def invite(self, inviter: User | None, email: str, role: str = "learner", cohort: str = "",
               days: float = INVITE_DAYS, now: datetime | None = None) -> tuple[int, str]:
        """Invite ``email`` as ``role`` (to ``cohort``); returns (invitation id, token). The token is
        not stored: show it once (in the link ``/signup/<token>``). ``inviter`` None: the server's
        operator (``torchdojo admin invite``). Raises :class:`AccountError`: 400 bad input, 403
        the inviter may not invite that, 409 the address has an account."""
        email, role, cohort = normalize_email(email), check_role(role), (cohort or "").strip()[:60]
        if inviter is not None and not can_invite(inviter, role, cohort):
            raise AccountError("you may not invite that: a coach invites learners to their own cohort; "
                               "an admin invites anyone", 403)
        if not 0 < days <= 90:
            raise AccountError("an invitation is valid for 0 to 90 days")
        now = now or datetime.now(UTC)
        token = secrets.token_urlsafe(32)
        with self.sessions.begin() as s:
            if s.scalar(select(UserRow.id).where(UserRow.email == email)) is not None:
                raise AccountError(f"{email} already has an account", 409)
            row = InvitationRow(token_hash=_digest(token), email=email, role=role, cohort=cohort,
                                invited_by=inviter.id if inviter else None, created_at=now,
                                expires_at=now + timedelta(days=days))
            s.add(row)
            s.flush()
            return row.id, token

    def invitation(self, token: str, now: datetime | None = None) -> InvitationRow:
        """The open invitation of ``token``. Raises :class:`AccountError`: 404 unknown, 410 used or expired."""
        with self.sessions() as s:
            row = s.scalar(select(InvitationRow).where(InvitationRow.token_hash == _digest(token or "")))
        return _open_invitation(row, now or datetime.now(UTC))

    def sign_up(self, token: str, password: str, name: str = "", now: datetime | None = None) -> User:
        """Create the invited account (the invitation is used, once: two sign-ups racing on one
        token create one account). Raises :class:`AccountError` (see :meth:`invitation`; 400 a bad
        password; 409 the address has an account)."""
        check_password(password)
        pw = _hash(password)
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            inv = _open_invitation(s.scalar(select(InvitationRow).where(
                InvitationRow.token_hash == _digest(token or "")).with_for_update()), now)
            if s.scalar(select(UserRow.id).where(UserRow.email == inv.email)) is not None:
                raise AccountError(f"{inv.email} already has an account", 409)
            row = UserRow(email=inv.email, name=(name or "").strip()[:120], role=inv.role, cohort=inv.cohort,
                          password_hash=pw, created_at=now)
            s.add(row)
            s.flush()
            inv.used_at, inv.user_id = now, row.id
            return _user(row)

    # -- log-in sessions ---------------------------------------------------------------------
    def authenticate(self, email: str, password: str) -> User:
        """The user with these credentials. Raises :class:`AccountError` (401) with one message for
        an unknown address, a wrong password and a disabled account."""
        fail = AccountError("wrong e-mail address or password", 401)
        try:
            email = normalize_email(email)
        except AccountError:
            email = ""
        with self.sessions() as s:
            row = s.scalar(select(UserRow).where(UserRow.email == email)) if email else None
        try:
            _verify(row.password_hash if row is not None else _DUMMY, password or "")
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise fail from None
        if row is None or row.disabled:
            raise fail
        if _hasher.check_needs_rehash(row.password_hash):
            with self.sessions.begin() as s:
                r = s.get(UserRow, row.id, with_for_update=True)
                if r is not None:
                    r.password_hash = _hash(password)
        return _user(row)

    def open_session(self, user: User, now: datetime | None = None) -> tuple[str, LoginSession]:
        """A new session for ``user``: returns (cookie token, session). The token is not stored."""
        now = now or datetime.now(UTC)
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires = now + timedelta(days=SESSION_DAYS)
        with self.sessions.begin() as s:
            s.add(LoginSessionRow(token_hash=_digest(token), user_id=user.id, csrf_token=csrf, created_at=now,
                                  expires_at=expires))
            s.execute(delete(LoginSessionRow).where(LoginSessionRow.expires_at <= now))  # tidy: expired ones
        return token, LoginSession(user, csrf, expires)

    def session(self, token: str | None, now: datetime | None = None) -> LoginSession | None:
        """The live session of cookie ``token`` (None: no token, unknown, expired, or its user disabled)."""
        if not token or len(token) > 200:
            return None
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            row = s.get(LoginSessionRow, _digest(token))
            if row is None or row.expires_at <= now:
                return None
            user = s.get(UserRow, row.user_id)
            if user is None or user.disabled:
                return None
            return LoginSession(_user(user), row.csrf_token, row.expires_at)

    def touch(self, user_id: int, now: datetime | None = None) -> None:
        """Record that ``user_id`` was active now (at most once per five minutes is enough)."""
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(UserRow, user_id, with_for_update=True)
            if row is not None and (row.last_seen_at is None or now - row.last_seen_at > timedelta(minutes=5)):
                row.last_seen_at = now

    def close_session(self, token: str | None) -> None:
        """Log out: delete the session of ``token`` (nothing when there is none)."""
        if not token:
            return
        with self.sessions.begin() as s:
            s.execute(delete(LoginSessionRow).where(LoginSessionRow.token_hash == _digest(token)))
