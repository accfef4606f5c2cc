"""Reading TOML files with errors that point at a line of the user's file."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .errors import InputError


class TomlSource:
    """The parsed data and the raw lines, so that errors can name a line."""

    def __init__(self, path: str | Path, kind: str):
        self.path = str(path)
        p = Path(path)
        if not p.exists():
            raise InputError(self.path, f"{kind} file not found", "check the path")
        if p.is_dir():
            raise InputError(self.path, f"expected a {kind} file (.toml) but this is a folder", "give a .toml file")
        try:
            self.text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise InputError(self.path, f"not UTF-8 text ({e.reason})", "save the file as UTF-8") from None
        except OSError as e:
            raise InputError(self.path, f"cannot read the file ({e.strerror})", "check the path and permissions") from None
        self.lines = self.text.splitlines()
        try:
            self.data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as e:
            msg = str(e)
            m = re.search(r"line (\d+)", msg)
            line = int(m.group(1)) if m else None
            msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", msg)
            raise InputError(self.path, f"malformed TOML: {msg}",
                             "fix the TOML syntax (quotes, '=' between key and value, [table] headers)", line) from None

    def error(self, problem: str, fix: str = "", line: int | None = None) -> InputError:
        return InputError(self.path, problem, fix, line)

    def line_of(self, pattern: str, start: int = 1, stop: int | None = None) -> int | None:
        """1-based number of the first line at or after ``start`` matching the regex."""
        rx = re.compile(pattern)
        end = len(self.lines) if stop is None else min(stop, len(self.lines))
        for i in range(start - 1, end):
            if rx.search(self.lines[i]):
                return i + 1
        return None

    def key_line(self, key: str, start: int = 1, stop: int | None = None) -> int | None:
        return self.line_of(rf"""^\s*["']?{re.escape(key)}["']?\s*=""", start, stop)

    def table_line(self, name: str) -> int | None:
        return self.line_of(rf"^\s*\[\s*{re.escape(name)}\s*\]")

    def array_table_lines(self, name: str) -> list[int]:
        rx = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
        return [i + 1 for i, l in enumerate(self.lines) if rx.search(l)]
