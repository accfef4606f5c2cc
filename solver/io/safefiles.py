"""Reading and writing the files a user names or a folder holds: nothing read before it is known
to be a regular file within its size limit, nothing written through a symbolic link, never half a
file.

Reading (``read_regular``, ``read_input``, ``read_plain_file``): the file is opened without
blocking (``O_NONBLOCK``: a FIFO or a device in its place is refused at once, never waited on),
checked on the open descriptor (``fstat``: a regular file, at most the limit) and at most
limit + 1 bytes are read.

Writing an output (``replacing``, ``write_output``: ``--log``, ``--png``, ``--results``, the
files of ``--out``): the text is written whole into a randomly named file created exclusively
beside the target (``O_EXCL | O_NOFOLLOW``: a name planted in advance is refused, never written
through), then renamed over the target. A symbolic link, a FIFO, a device or anything but a plain
file at the target is refused (``UnsafeTarget``), never replaced.

Writing into a folder that other people's programs may also write into (the studio's ``--dir``):
never through a symbolic link, never outside the folder, never half a file.

A file is first written whole under a random name, created exclusively (``O_EXCL``, no link
followed) in a private folder of ours (mode 0700), then moved to its name by a directory
operation relative to the open folder (``rename`` or ``link`` with ``dir_fd``), which replaces
or refuses the name itself and never follows a link planted there. A symbolic link (or anything
but a plain file) already at the name is refused with the reason; with ``overwrite=False`` an
existing name is refused even if it appears between the check and the move (``link`` fails
then, it does not replace).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from solver.core.errors import InputError

PRIVATE = 0o700
MEGABYTE = 1_000_000
# the one size limit of a file a person gives (a mission, a catalog, a game log) or a body that
# carries one: such files are a few kilobytes; anything over this is refused unread
MAX_FILE_BYTES = 1 * MEGABYTE


def megabytes(size: int) -> str:
    """A size limit as messages say it: "1 MB"."""
    return f"{size // MEGABYTE} MB"


class UnsafeTarget(OSError):
    """The name is taken by a symbolic link or something else than a plain file."""


class NotRegular(UnsafeTarget):
    """A FIFO, a device, a socket (anything but a regular file or a folder): refused unread."""


class TooLarge(UnsafeTarget):
    """A regular file over the size limit: refused unread."""

    def __init__(self, size: int, limit: int, filename: str):
        super().__init__(errno.EFBIG, f"{size} bytes, over the limit of {limit}", filename)
        self.size, self.limit = size, limit


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _read_open(fd: int, limit: int, shown: str) -> bytes:
    """The bytes of the open ``fd`` if it is a regular file of at most ``limit`` bytes (checked on
    the descriptor before reading; at most ``limit`` + 1 bytes are read, so a file that grows
    meanwhile is refused too)."""
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", shown)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegular(errno.EINVAL, f"not a plain file: {kind_of(st.st_mode)}, refused unread", shown)
    if st.st_size > limit:
        raise TooLarge(st.st_size, limit, shown)
    chunks, got = [], 0
    while got <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    if got > limit:
        raise TooLarge(got, limit, shown)
    return b"".join(chunks)


def read_regular(path: str | Path, limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of the file at ``path`` if it is a regular file of at most ``limit`` bytes, opened
    without blocking (a FIFO or a device is refused at once, unread). FileNotFoundError,
    IsADirectoryError, NotRegular, TooLarge, UnsafeTarget (a link, with ``follow_links=False``) or
    OSError otherwise."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow_links:
            raise UnsafeTarget(errno.ELOOP, "a symbolic link (not followed)", str(path)) from None
        raise
    try:
        return _read_open(fd, limit, str(path))
    finally:
        os.close(fd)


def read_input(path: str | Path, limit: int, kind: str, fix: str, *, missing: str | None = None,
               too_large: str | None = None) -> bytes:
    """``read_regular`` for a file a user gave: InputError naming the file, the problem and the fix
    (``missing``: the words when it is not there; ``too_large``: what such a file usually is)."""
    shown = str(path)
    try:
        return read_regular(path, limit)
    except FileNotFoundError:
        raise InputError(shown, missing or f"{kind} not found", fix) from None
    except IsADirectoryError:
        raise InputError(shown, f"expected a {kind} but this is a folder", fix) from None
    except TooLarge as e:
        raise InputError(shown, f"the file has {e.size} bytes, over the limit of {limit}" +
                         (f"; {too_large}" if too_large else ""), f"check that this is a {kind}") from None
    except NotRegular as e:
        raise InputError(shown, f"{e.strerror}; a {kind} is a regular file", fix) from None
    except OSError as e:
        raise InputError(shown, f"cannot read the file ({e.strerror or e})", "check the path and permissions") \
            from None


def read_input_text(path: str | Path, limit: int, kind: str, fix: str, *, missing: str | None = None,
                    too_large: str | None = None, bad_text: str = "save it as UTF-8 text") -> str:
    """``read_input`` decoded as UTF-8 (InputError naming the file when it is not)."""
    raw = read_input(path, limit, kind, fix, missing=missing, too_large=too_large)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(str(path), f"cannot read the file as UTF-8 text ({e.reason})", bad_text) from None


# ---------------------------------------------------------------- outputs
def check_output(path: str | Path) -> None:
    """Refuse (UnsafeTarget) an output path taken by a symbolic link, a FIFO, a device or anything
    but a plain file: none of them is ever written through or replaced."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeTarget(errno.ELOOP, "a symbolic link is at this name (nothing is written through a link)",
                           str(path))
    if stat.S_ISDIR(st.st_mode):
        raise UnsafeTarget(errno.EISDIR, "a folder is at this name", str(path))
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeTarget(errno.EEXIST, f"{kind_of(st.st_mode)} is at this name: it is never replaced", str(path))


@contextlib.contextmanager
def replacing(path: str | Path, *, binary: bool = False, newline: str | None = None) -> Iterator[IO[Any]]:
    """A file object whose content replaces ``path`` whole once the block ends without an error
    (else nothing changes): written into a randomly named file created exclusively beside it
    (never through a link), then renamed. UnsafeTarget when a link, a FIFO, a device or a folder
    is at ``path``."""
    path = Path(path)
    check_output(path)
    folder = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY | os.O_DIRECTORY)
    tmp = f".{path.name[:80]}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                     0o666, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8",
                           newline=None if binary else newline) as f:
                yield f
                f.flush()
                os.fsync(f.fileno())
            check_output(path)  # once more, just before the name is taken
            os.rename(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise
    finally:
        os.close(folder)


def save_figure(fig: Any, path: str | Path) -> None:
    """A matplotlib figure saved as ``path`` (its format from the name), whole or not at all."""
    with replacing(path, binary=True) as f:
        fig.savefig(f, format=Path(path).suffix.lstrip(".").lower() or "png")


def append_line(path: str | Path, line: str) -> None:
    """``line`` added at the end of the plain file ``path`` (created if missing), never through a
    link and never into a FIFO or a device (UnsafeTarget)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                 | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(errno.EINVAL, f"{kind_of(st.st_mode)} is at this name: nothing is written into it",
                             str(path))
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def write_output(path: str | Path, data: bytes | str) -> Path:
    """``data`` as the file ``path``, whole or not at all (``replacing``)."""
    with replacing(path, binary=isinstance(data, bytes)) as f:
        f.write(data)
    return Path(path)


class TargetExists(FileExistsError):
    """The name is taken and overwriting was not asked for."""


def private_folder(path: Path) -> Path:
    """``path`` as a folder of ours that only we may enter (created if missing); UnsafeTarget when a
    link, a file or another user's folder is in the way."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, PRIVATE)
    os.close(_open_private(path))
    return path


def _open_folder(folder: Path) -> int:
    try:
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except NotADirectoryError:
        raise UnsafeTarget(errno.ENOTDIR, "not a folder (a link or a file is in the way)", str(folder)) from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UnsafeTarget(errno.ELOOP, "a symbolic link is in the way of a folder", str(folder)) from None
        raise


def _open_private(folder: Path) -> int:
    """The open private folder: ours, no link, mode 0700 (set through the open descriptor)."""
    fd = _open_folder(folder)
    st = os.fstat(fd)
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        os.close(fd)
        raise UnsafeTarget(errno.EPERM, "this folder belongs to another user", str(folder))
    if stat.S_IMODE(st.st_mode) != PRIVATE:
        os.fchmod(fd, PRIVATE)
    return fd


def write_file(folder: Path, name: str, data: bytes, *, scratch: Path, overwrite: bool = False,
               mode: int = 0o644) -> Path:
    """Write ``data`` as ``folder/name`` (a plain name, no separator) with ``mode``, whole or not at
    all; ``scratch`` is a private folder on the same file system for the temporary file.
    TargetExists, UnsafeTarget or OSError when it cannot."""
    if not name or "/" in name or "\0" in name or name in (".", ".."):
        raise UnsafeTarget(errno.EINVAL, "not a plain file name", name)
    target = _open_folder(folder)
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(scratch, PRIVATE)
        scratch_fd = _open_private(scratch)
    except BaseException:
        os.close(target)
        raise
    tmp = f"tmp-{secrets.token_hex(8)}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=scratch_fd)
        try:
            with os.fdopen(fd, "wb", closefd=False) as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
        _check_target(target, name, overwrite, folder)
        if overwrite:
            os.rename(tmp, name, src_dir_fd=scratch_fd, dst_dir_fd=target)
        else:
            try:
                os.link(tmp, name, src_dir_fd=scratch_fd, dst_dir_fd=target, follow_symlinks=False)
            except FileExistsError:
                raise TargetExists(errno.EEXIST, "exists already", name) from None
        return folder / name
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=scratch_fd)
        os.close(scratch_fd)
        os.close(target)


def _check_target(folder_fd: int, name: str, overwrite: bool, folder: Path) -> None:
    try:
        st = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeTarget(errno.ELOOP, "a symbolic link is in the way (nothing is written through a link)",
                           str(folder / name))
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeTarget(errno.EEXIST, "something other than a plain file is in the way", str(folder / name))
    if not overwrite:
        raise TargetExists(errno.EEXIST, "exists already", str(folder / name))


def read_plain_file(folder: Path, name: str, limit: int) -> bytes:
    """The bytes of ``folder/name`` if it is a plain file (not a link) of at most ``limit`` bytes;
    UnsafeTarget, FileNotFoundError or OSError otherwise."""
    target = _open_folder(folder)
    try:
        # O_NONBLOCK: a FIFO (or a device) in the file's place is refused below, not waited on
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=target)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UnsafeTarget(errno.ELOOP, "a symbolic link (not followed)", str(folder / name)) from None
        raise
    finally:
        os.close(target)
    try:
        return _read_open(fd, limit, str(folder / name))
    finally:
        os.close(fd)
