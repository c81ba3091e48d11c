"""Rate limits of a team server, on the ``limits`` library (moving windows).

Storage: Redis (the broker's server) in team mode, so every web process counts together;
memory otherwise (one process). What is limited (:data:`RULES`):

- ``login``: failed log-in attempts per e-mail address (10 per 15 minutes) and per client
  address (50 per 15 minutes): password guessing is slowed for one account and across accounts.
- ``submit``: code submissions (Run and Submit) per user (30 per minute).

A limit hit is :class:`RateLimited` with the seconds until the window lets one more through
(the web answers 429 with ``Retry-After``).

Source: https://limits.readthedocs.io; OWASP Authentication cheat sheet ("Account lockout").
"""

from __future__ import annotations

import math
import time

from limits import parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

RULES = {
    "login-account": parse("10/15 minutes"),
    "login-client": parse("50/15 minutes"),
    "submit": parse("30/minute"),
}


class RateLimited(Exception):
    """Too many requests: ``retry_after`` seconds (int ≥ 1) until one more is allowed."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many {what}: retry in {retry_after} s")
        self.what, self.retry_after = what, retry_after


class RateLimits:
    """The server's limits (``storage_uri``: ``redis://…`` or None for memory)."""

    def __init__(self, storage_uri: str | None = None) -> None:
        self.storage = storage_from_string(storage_uri or "memory://")
        self.limiter = MovingWindowRateLimiter(self.storage)

    def check(self, rule: str, key: str) -> None:
        """Raise :class:`RateLimited` if ``key`` has used up ``rule`` (nothing is counted)."""
        item = RULES[rule]
        if not self.limiter.test(item, key):
            raise RateLimited(_what(rule), self._retry_after(item, key))

    def hit(self, rule: str, key: str) -> None:
        """Count one request of ``key`` against ``rule``; raise :class:`RateLimited` if it is over."""
        item = RULES[rule]
        if not self.limiter.hit(item, key):
            raise RateLimited(_what(rule), self._retry_after(item, key))

    def reset(self, rule: str, key: str) -> None:
        """Forget ``key``'s count under ``rule`` (e.g. after a successful log-in)."""
        self.limiter.clear(RULES[rule], key)

    def _retry_after(self, item, key: str) -> int:
        reset_at, _remaining = self.limiter.get_window_stats(item, key)
        return max(1, math.ceil(reset_at - time.time()))


def _what(rule: str) -> str:
    return "log-in attempts" if rule.startswith("login") else "submissions"
