"""Serving the studio: take the folder (one studio a folder), bind the port (a port in use is an
input error naming it), print the start line, serve with uvicorn until Ctrl-C or SIGTERM, and end
every worker with it (within 5 seconds, whatever a request is doing).

Off loopback the start line carries the host token, at an address a phone on that network can
open (never 0.0.0.0), and the terminal draws it as a QR code. The browser is never started with
the token on its command line (every local user can read that): it opens a 0600 file in the
studio's private folder that forwards to the page, as Jupyter does."""

from __future__ import annotations

import contextlib
import html
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
from solver.studio.database import Busy, FolderLock, state_folder
from solver.studio.links import terminal_qr
from solver.studio.security import WILDCARDS, is_loopback, local_addresses
from solver.studio.turns import BOT_PACE

STOP_SECONDS = 4.5  # after SIGTERM or Ctrl-C, the studio is gone within this, whatever it was doing


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


def serve(host: str, port: int, directory: str, pieces: str | None, *, workers: int, open_browser: bool,
          say: Callable[[str], None] = print, warn: Callable[[str], None] | None = None,
          bot_pace: float | None = None) -> None:
    folder = Path(directory).resolve()  # once, here: a relative or default --dir means the same folder throughout
    if not folder.is_dir():
        raise InputError(directory, "--dir is not a folder", "give an existing folder (default: the current one)")
    sock = bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    lock = FolderLock(folder)
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
        app = create_app(folder, pieces, workers, host_token=token,
                         bot_pace=BOT_PACE if bot_pace is None else bot_pace)
    except BaseException:
        lock.release()
        sock.close()
        raise
    app.allow(shown, port)
    start_line = url
    if token is not None:
        lan = local_addresses() if host in WILDCARDS else [shown]
        where = lan[0] if lan else "127.0.0.1"  # no network found: only this machine can open it
        start_line = f"http://{where}:{port}/?token={token}"
        app.state.ctx.share_base = f"http://{where}:{port}"  # the seats' links must work from the phones
        app.state.ctx.host_link = start_line
        if warn is not None:
            warn(f"warning: the studio listens on {host}: anyone who can reach this machine on that network can "
                 "reach it. Only the host's link (the one above, with its token) opens the editor, lists and starts "
                 f"games, saves missions in {folder} and runs jobs: keep it to yourself. A seat's link lets "
                 "whoever holds it see and play that seat only (its hand, never another). Anyone else is refused "
                 "(403)." + ("" if lan else " No network address of this machine was found: the links name "
                             "127.0.0.1, which only this machine can open."))
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
                            access_log=False)
    server = _Server(config)
    opener: Path | None = None
    opening: threading.Timer | None = None
    previous = signal.signal(signal.SIGTERM, _stopped)  # uvicorn raises the signal again once it has stopped
    try:  # from here on, whatever happens, the forwarding page, the lock and the port go with the studio
        say(f"kakapo studio: {start_line}")
        if token is not None and warn is not None:
            warn("the host's link, to open on a phone or a tablet (scan it):\n" + terminal_qr(start_line))
        sys.stdout.flush()
        if open_browser and has_display():
            local = f"http://127.0.0.1:{port}/" if host in WILDCARDS else url
            opener = browser_file(folder, local, token) if token else None
            target = opener.as_uri() if opener is not None else local
            opening = threading.Timer(0.5, lambda: webbrowser.open(target))
            opening.daemon = True
            opening.start()
        server.run(sockets=[sock])
        if not server.started and not server.asked_to_stop:  # its start failed (the messages above say why)
            raise InputError(url, "the studio could not start", "see the messages above")
    except (KeyboardInterrupt, Stopped):
        pass  # Ctrl-C or SIGTERM: a normal end (exit 0)
    finally:
        if opening is not None:
            opening.cancel()
        _deadline()
        try:
            app.state.ctx.close()
        finally:
            sock.close()
            lock.release()
            if opener is not None:
                with contextlib.suppress(OSError):
                    opener.unlink()
            signal.signal(signal.SIGTERM, previous)


def has_display() -> bool:
    """Whether a browser can be shown here: a display (X11, Wayland), or macOS or Windows."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform == "darwin"
                or os.name == "nt")


def browser_file(directory: Path, url: str, token: str) -> Path:
    """A page in the studio's private folder (0600) that forwards the browser to ``url`` with the
    token: opened by its path, so that no command line ever holds the token. The path is absolute
    (a file URI needs one, whatever ``--dir`` was given as)."""
    target = f"{url}?token={token}"
    text = ("<!doctype html><html><head><meta charset=\"utf-8\"><title>kakapo studio</title>"
            f'<meta http-equiv="refresh" content="0;url={html.escape(target, quote=True)}">'
            "</head><body><p>Opening the kakapo studio: "
            f'<a href="{html.escape(target, quote=True)}">the studio</a></p></body></html>')
    path = state_folder(directory.resolve()) / f"open-{os.getpid()}.html"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


_DEADLINE: list[threading.Timer] = []


def _deadline() -> None:
    """From the first stop signal on, the studio has STOP_SECONDS to end (a request stuck in a
    thread, reading a FIFO say, cannot hold it)."""
    if not _DEADLINE:
        timer = threading.Timer(STOP_SECONDS, _hard_exit)
        timer.daemon = True
        timer.start()
        _DEADLINE.append(timer)


class _Server(uvicorn.Server):
    asked_to_stop = False

    def handle_exit(self, sig: int, frame: object) -> None:
        self.asked_to_stop = True
        _deadline()
        super().handle_exit(sig, frame)  # type: ignore[arg-type]


class Stopped(Exception):
    """SIGTERM, once the server has stopped."""


def _stopped(_signum: int, _frame: object) -> None:
    raise Stopped


def _hard_exit() -> None:
    """The studio did not end in time (a request stuck in a thread): end it now, its workers too."""
    with contextlib.suppress(Exception):
        sys.stderr.write("kakapo studio: stopped (a request was still running)\n")
        sys.stderr.flush()
    os._exit(0)  # the workers watch this process: they end with it
