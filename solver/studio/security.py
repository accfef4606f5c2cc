"""The studio's security rules, as Jupyter keeps a server safe:

- a request whose ``Host`` is not the served host and port is refused (403), so that a page on
  another site cannot reach the studio through DNS rebinding;
- a request that changes anything (POST, PUT, PATCH, DELETE) with an ``Origin`` other than the
  studio's own is refused (403), so that another site's page cannot make a visitor's browser
  write files or start jobs;
- a body over the size of a file a person gives (1 MB) is refused (413), read no further than that;
- every answer forbids framing (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``), sniffing
  and referrers (a seat's link holds its token);
- off loopback, a host token (``host_token``): the start line's link ``/?token=T`` opens the page,
  which keeps the token for its tab (sessionStorage, never a cookie: cookies ignore ports, so
  every other service on this machine would receive it) and sends ``Authorization: token T``;
  any other request is refused (403) unless it is a seat's own (the seat's pages and API, which
  check the seat's token themselves) or a job followed with its own token, or the page and the
  static files it needs. Cookies carry nothing here. Handlers learn whether the request carries
  the host's authority from ``scope["state"]["host"]``;
- every answer but the page's static files says ``Cache-Control: no-store`` (hands, tokens and
  logs never land in a browser's disk cache), and none says how long the server took.

One ASGI middleware, ahead of routing, answering with the API's JSON error document.
"""

from __future__ import annotations

import hmac
import json
import re
import socket
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solver.io.safefiles import MAX_FILE_BYTES, megabytes

LARGE_BODIES = {"/api/games/import": 20_000_000,  # a pooled file of thousands of games (the host's only)
                "/api/packs": 8_000_000}  # a pack of missions (io/packs.MAX_PACK_BYTES)
CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")
WILDCARDS = ("0.0.0.0", "::", "[::]")
HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin")]
API_CSP = b"default-src 'none'; frame-ancestors 'none'"
# what needs no host token: the page and its files (the glossary too), and what checks a token of its own
OPEN_PATHS = re.compile(r"^/(|favicon\.ico|static/[^/]+|api/status|glossary)$")
SEAT_PATHS = re.compile(r"^/api/games/[^/]+/(seats/\d+(/settings)?|log|review)$")
JOB_PATHS = re.compile(r"^/api/jobs/[^/]+(/events)?$")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.startswith("127.")


def local_addresses() -> list[str]:
    """This machine's own addresses on its networks (the first: the one its default route uses),
    found without sending anything."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # a documentation address: a UDP connect sends no packet
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            addr = str(info[4][0])
            found.append(f"[{addr}]" if ":" in addr else addr)
    except OSError:
        pass
    return list(dict.fromkeys(a for a in found if a and not a.startswith("127.") and a != "[::1]"))


def error_body(message: str, fix: str = "") -> bytes:
    return json.dumps({"error": {"message": message, "fix": fix}}).encode()


class Guard:
    """The rules above; ``hosts`` are the ``host:port`` values this server answers to (set once the
    port is bound, ``allow``); ``host_token`` is set when it listens beyond loopback."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_FILE_BYTES, host_token: str | None = None):
        self.app = app
        self.max_body = max_body
        self.hosts: set[str] = set()
        self.host_token = host_token
        self.state: Any = None  # the application's state (its context), for the server and tests

    def allow(self, host: str, port: int) -> None:
        names = {host}
        if is_loopback(host) or host in WILDCARDS:
            names |= {"127.0.0.1", "localhost", "[::1]"}
        if host in WILDCARDS:  # every address of this machine: the table's phones use one of them
            names |= set(local_addresses())
        if ":" in host and not host.startswith("["):
            names.add(f"[{host}]")
        self.hosts = {f"{n}:{port}" for n in names}

    def carries_host_token(self, headers: dict[str, str]) -> bool:
        """Whether the request says ``Authorization: token T`` with the host's token (a cookie never
        counts: any other service on this machine's ports would receive it too)."""
        if self.host_token is None:
            return True
        auth = headers.get("authorization", "")
        if not auth.lower().startswith("token "):
            return False
        return hmac.compare_digest(auth[6:].strip().encode("utf-8", "replace"), self.host_token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        send = _with_headers(send)
        host = headers.get("host", "")
        if self.hosts and host.lower() not in self.hosts:
            return await _refuse(send, 403, f"this studio does not answer to the host {host[:80]!r}",
                                 "open the address `kakapo studio` printed")
        if scope["method"] in CHANGING:
            origin = headers.get("origin")
            if origin is not None and origin.lower() not in {f"http://{h}" for h in (self.hosts or {host.lower()})}:
                return await _refuse(send, 403, f"requests from {origin[:80]!r} may not change anything here",
                                     "use the studio's own page")
        path = scope["path"]
        host_ok = self.carries_host_token(headers)
        if not host_ok and not (OPEN_PATHS.match(path) or SEAT_PATHS.match(path)
                                or (JOB_PATHS.match(path) and scope["method"] == "GET")):
            return await _refuse(send, 403, "this studio listens beyond this machine: this needs the host's link "
                                 "(or Authorization: token T)", "open the link `kakapo studio` printed, with its "
                                 "?token=; a seat's link opens that seat only")
        scope.setdefault("state", {})["host"] = host_ok
        length = headers.get("content-length")
        limit = LARGE_BODIES.get(path, self.max_body) if host_ok else self.max_body
        if length is not None and (not length.isdigit() or int(length) > limit):
            return await _refuse(send, 413, f"the request body is over {megabytes(limit)}",
                                 "send a mission of a few kilobytes")
        # the body, read whole before the application sees it (at most max_body + one chunk)
        body, more, too_big = [], True, False
        size = 0
        first = None
        if scope["method"] in CHANGING or length is not None:
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    first = message
                    break
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    too_big = True
                    break
                body.append(chunk)
                more = message.get("more_body", False)
            if too_big:
                return await _refuse(send, 413, f"the request body is over {megabytes(limit)}",
                                     "send a mission of a few kilobytes")
        whole = b"".join(body)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if first is not None and not replayed:
                replayed = True
                return first
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _with_headers(send: Send) -> Send:
    """``send`` adding the headers every answer carries (a page's own CSP is kept; others get one
    that forbids everything, framing included)."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {k.lower() for k, _ in headers}
            headers += [h for h in HEADERS if h[0] not in names]
            if b"content-security-policy" not in names:
                headers.append((b"content-security-policy", API_CSP))
            if b"cache-control" not in names:
                headers.append((b"cache-control", b"no-store"))
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


async def _refuse(send: Send, status: int, message: str, fix: str) -> None:
    body = error_body(message, fix)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
