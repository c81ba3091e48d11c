"""Only this user's browser can drive the local server.

One ASGI middleware (:class:`LocalGuard`), in front of every route:

1. **Host allow-list** (against DNS rebinding: a page on ``attacker.example`` that re-resolves
   to 127.0.0.1 sends ``Host: attacker.example``): the request's host name must be one of
   :attr:`Settings.allowed_hosts` (default: the bound host, ``localhost``, ``127.0.0.1``,
   ``::1``). Anything else gets **400** with a message naming the setting.
2. **Cross-origin request refusal** for every state-changing method (POST, PUT, PATCH,
   DELETE): when the browser says where the request comes from, it must be this origin.
   ``Sec-Fetch-Site`` must be ``same-origin`` or ``none`` (typed into the address bar); without
   that header, an ``Origin`` header must equal ``http(s)://<Host>``. Otherwise **403**.
   Requests with neither header come from non-browser clients (curl, the tests), which a
   hostile web page cannot make. This is the check Go 1.25 adopted as
   ``net/http.CrossOriginProtection``; every browser in support sends ``Sec-Fetch-Site``
   (Chrome 76, Firefox 90, Safari 16.4) and an ``Origin`` on POST. It was chosen over a CSRF
   token because the local app has no login or cookie to bind a token to, and because another
   local port is *same-site* to a browser (cookies are shared across ports), so the classic
   double-submit cookie would be forgeable from ``http://127.0.0.1:<other port>``; the header
   check refuses that page (its requests are ``same-site``, not ``same-origin``). Team mode,
   with accounts and session cookies, adds tokens on top.
3. **Response headers** on every answer: a Content-Security-Policy with no inline or
   ``eval`` script (``script-src 'self'``; styles may be inline: CodeMirror injects its theme
   and the pages use ``style`` attributes for bar widths), ``frame-ancestors 'none'`` and
   ``X-Frame-Options: DENY`` (no clickjacking), ``X-Content-Type-Options: nosniff``,
   ``Referrer-Policy: same-origin``, ``Cross-Origin-Opener-Policy`` and
   ``Cross-Origin-Resource-Policy: same-origin`` (other sites cannot embed our responses).

Sources: Fetch Metadata (https://www.w3.org/TR/fetch-metadata/); OWASP CSRF Prevention Cheat
Sheet, "Fetch Metadata headers"; https://pkg.go.dev/net/http#CrossOriginProtection.
"""

from __future__ import annotations

import json

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def split_host(host: str) -> str:
    """The host name of a Host header value, without port; IPv6 brackets removed, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class LocalGuard:
    """ASGI middleware: Host allow-list, cross-origin refusal, security headers (see module doc)."""

    def __init__(self, app, allowed_hosts: list[str]) -> None:
        self.app = app
        self.allowed = {split_host(h) for h in allowed_hosts if h}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if split_host(host) not in self.allowed:
            await _refuse(send, 400, f"Host '{host}' is not allowed. This local server answers only "
                          f"{', '.join(sorted(self.allowed))}; set TORCHDOJO_ALLOWED_HOSTS to add a name.")
            return
        if scope["method"] not in SAFE_METHODS:
            site, origin = headers.get("sec-fetch-site"), headers.get("origin")
            scheme = scope.get("scheme", "http")
            if site is not None:
                refused = site not in ("same-origin", "none")
            else:
                refused = origin is not None and origin.lower() != f"{scheme}://{host}".lower()
            if refused:
                await _refuse(send, 403, "Cross-origin request refused: only pages of this torchdojo server "
                              f"may change your data (Sec-Fetch-Site: {site}, Origin: {origin}).")
                return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in SECURITY_HEADERS if k not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse(send, status: int, detail: str, headers: list[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *SECURITY_HEADERS, *headers]})
    await send({"type": "http.response.body", "body": body})
