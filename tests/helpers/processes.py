"""The processes a command leaves behind: read from /proc, so that a test sees every child."""

from __future__ import annotations

from pathlib import Path


def children_of(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    out, todo = set(), [pid]
    while todo:
        for c in children_of(todo.pop()):
            out.add(c)
            todo.append(c)
    return out
