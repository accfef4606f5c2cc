"""Serving the studio: take the folder (one studio a folder), bind the port (a port in use is an
input error naming it), print the start line, serve with uvicorn until Ctrl-C or SIGTERM, and end
every worker with it. Off loopback the start line carries the host token."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

import uvicorn

from solver.core.errors import InputError
from solver.studio.app import create_app
from solver.studio.security import WILDCARDS, is_loopback, local_addresses
from solver.studio.store import Busy, FolderLock


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as e:
        sock.close()
        what = f"port {port} is in use" if e.errno in (98, 48, 10048) else f"cannot listen on {host}:{port} ({e})"
        raise InputError("--port", what, "choose another --port, or --port 0 for a free one") from None
    sock.listen(128)
    sock.set_inheritable(False)
    return sock


def serve(host: str, port: int, directory: str, pieces: str | None, workers: int, open_browser: bool,
          say: Callable[[str], None] = print, warn: Callable[[str], None] | None = None) -> None:
    if not os.path.isdir(directory):
        raise InputError(directory, "--dir is not a folder", "give an existing folder (default: the current one)")
    sock = bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    lock = FolderLock(Path(directory))
    try:
        lock.acquire(url)
    except Busy as e:
        sock.close()
        raise InputError(directory, f"another kakapo studio serves this folder already: {e}",
                         "use that one, or stop it first (one studio a folder keeps its games whole)") from None
    except OSError as e:
        sock.close()
        raise InputError(directory, f"cannot keep the studio's state in this folder: {e.strerror or e}",
                         "give a folder you may write in") from None
    token = None if is_loopback(host) else secrets.token_urlsafe(24)
    try:
        app = create_app(directory, pieces, workers, host_token=token)
    except BaseException:
        lock.release()
        sock.close()
        raise
    app.allow(shown, port)
    if token is not None:
        lan = local_addresses() if host in WILDCARDS else [shown]
        if lan:  # the seats' links must work from the table's phones, not only from this machine
            app.state.ctx.share_base = f"http://{lan[0]}:{port}"
        if warn is not None:
            where = f"http://{lan[0]}:{port}/?token={token}" if lan else f"{url}?token={token}"
            warn(f"warning: the studio listens on {host}: anyone who can reach this machine on that network can "
                 "reach it. Only the host's link (the one above, with its token; here "
                 f"{where}) opens the editor, lists and starts games, saves missions in {directory} and runs jobs: "
                 "keep it to yourself. A seat's link lets whoever holds it see and play that seat only (its hand, "
                 "never another). Anyone else is refused (403).")
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
                            access_log=False)
    server = uvicorn.Server(config)
    say(f"kakapo studio: {url}" + (f"?token={token}" if token else ""))
    sys.stdout.flush()
    if open_browser and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform == "darwin"
                         or os.name == "nt"):
        opened = f"http://127.0.0.1:{port}/?token={token}" if token and host in WILDCARDS else \
            url + (f"?token={token}" if token else "")
        threading.Timer(0.5, lambda: webbrowser.open(opened)).start()
    previous = signal.signal(signal.SIGTERM, _stopped)  # uvicorn raises the signal again once it has stopped
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, Stopped):
        pass  # Ctrl-C or SIGTERM: a normal end (exit 0)
    finally:
        app.state.ctx.close()
        sock.close()
        lock.release()
        signal.signal(signal.SIGTERM, previous)


class Stopped(Exception):
    """SIGTERM, once the server has stopped."""


def _stopped(_signum: int, _frame: object) -> None:
    raise Stopped
