"""Serving the studio: bind the port (a port in use is an input error naming it), print the one
line SPEC asks for, serve with uvicorn until Ctrl-C or SIGTERM, and end every worker with it."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import webbrowser

import uvicorn

from solver.core.errors import InputError
from solver.studio.app import create_app
from solver.studio.security import LOOPBACK_NAMES, WILDCARDS, local_addresses


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
          say=print, warn=None) -> None:
    if not os.path.isdir(directory):
        raise InputError(directory, "--dir is not a folder", "give an existing folder (default: the current one)")
    sock = bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    app = create_app(directory, pieces, workers)
    app.allow(shown, port)
    if host not in LOOPBACK_NAMES and not host.startswith("127."):
        lan = local_addresses() if host in WILDCARDS else [shown]
        if lan:  # the seats' links must work from the table's phones, not only from this machine
            app.state.ctx.share_base = f"http://{lan[0]}:{port}"
        if warn is not None:
            where = f" (for example at http://{lan[0]}:{port}/)" if lan else ""
            warn(f"warning: the studio listens on {host}: anyone who can reach this machine on that network"
                 f"{where} can open the page, edit and save missions in {directory} and start games; a "
                 "seat's link is still needed to see or play that seat")
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
                            access_log=False)
    server = uvicorn.Server(config)
    say(f"kakapo studio: {url}")
    sys.stdout.flush()
    if open_browser and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform == "darwin"
                         or os.name == "nt"):
        threading.Timer(0.5, lambda: webbrowser.open(url)).start()
    previous = signal.signal(signal.SIGTERM, _stopped)  # uvicorn raises the signal again once it has stopped
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, Stopped):
        pass  # Ctrl-C or SIGTERM: a normal end (exit 0)
    finally:
        app.state.ctx.close()
        sock.close()
        signal.signal(signal.SIGTERM, previous)


class Stopped(Exception):
    """SIGTERM, once the server has stopped."""


def _stopped(_signum, _frame):
    raise Stopped
