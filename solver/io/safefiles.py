"""Writing into a folder that other people's programs may also write into (the studio's ``--dir``):
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
from pathlib import Path

PRIVATE = 0o700


class UnsafeTarget(OSError):
    """The name is taken by a symbolic link or something else than a plain file."""


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
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeTarget(errno.EINVAL, "not a plain file", str(folder / name))
        if st.st_size > limit:
            raise UnsafeTarget(errno.EFBIG, f"over {limit} bytes", str(folder / name))
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit + 1)[:limit]
    finally:
        os.close(fd)
