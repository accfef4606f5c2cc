"""The studio's security rules (SPEC, `kakapo studio`), as Jupyter keeps a local server safe:

- a request whose ``Host`` is not the served host and port is refused (403), so that a page on
  another site cannot reach the studio through DNS rebinding;
- a request that changes anything (POST, PUT, PATCH, DELETE) with an ``Origin`` other than the
  studio's own is refused (403), so that another site's page cannot make a visitor's browser
  write files or start jobs;
- a body over 1 MB is refused (413), read no further than that.

One ASGI middleware, ahead of routing, answering with the API's JSON error document.
"""

from __future__ import annotations

import json
import socket
import time

MAX_BODY = 1_000_000
CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")
WILDCARDS = ("0.0.0.0", "::", "[::]")


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
            addr = info[4][0]
            found.append(f"[{addr}]" if ":" in addr else addr)
    except OSError:
        pass
    return list(dict.fromkeys(a for a in found if a and not a.startswith("127.") and a != "[::1]"))


def error_body(message: str, fix: str = "") -> bytes:
    return json.dumps({"error": {"message": message, "fix": fix}}).encode()


class Guard:
    """The rules above; ``hosts`` are the ``host:port`` values this server answers to (set once the
    port is bound, ``allow``)."""

    def __init__(self, app, max_body: int = MAX_BODY):
        self.app = app
        self.max_body = max_body
        self.hosts: set[str] = set()

    def allow(self, host: str, port: int) -> None:
        names = {host}
        if host in LOOPBACK_NAMES or host.startswith("127.") or host in WILDCARDS:
            names |= {"127.0.0.1", "localhost", "[::1]"}
        if host in WILDCARDS:  # every address of this machine: the table's phones use one of them
            names |= set(local_addresses())
        if ":" in host and not host.startswith("["):
            names.add(f"[{host}]")
        self.hosts = {f"{n}:{port}" for n in names}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if self.hosts and host.lower() not in self.hosts:
            return await _refuse(send, 403, f"this studio does not answer to the host {host!r}",
                                 "open the address `kakapo studio` printed")
        if scope["method"] in CHANGING:
            origin = headers.get("origin")
            if origin is not None and origin.lower() not in {f"http://{h}" for h in (self.hosts or {host.lower()})}:
                return await _refuse(send, 403, f"requests from {origin!r} may not change anything here",
                                     "use the studio's own page")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return await _refuse(send, 413, f"the request body is over {self.max_body // 1_000_000} MB",
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
                if size > self.max_body:
                    too_big = True
                    break
                body.append(chunk)
                more = message.get("more_body", False)
            if too_big:
                return await _refuse(send, 413, f"the request body is over {self.max_body // 1_000_000} MB",
                                     "send a mission of a few kilobytes")
        whole = b"".join(body)
        replayed = False

        async def replay():
            nonlocal replayed
            if first is not None and not replayed:
                replayed = True
                return first
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        t0 = time.perf_counter()

        async def timed(message):
            if message["type"] == "http.response.start":  # the server's own time, for benchmarks/bench_studio.py
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"x-process-time", f"{time.perf_counter() - t0:.6f}".encode())]}
            await send(message)

        await self.app(scope, replay, timed)


async def _refuse(send, status: int, message: str, fix: str) -> None:
    body = error_body(message, fix)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
