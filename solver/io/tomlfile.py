"""Reading TOML files with errors that point at a line of the user's file."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from solver.core.errors import InputError
from solver.io.safefiles import MAX_FILE_BYTES, megabytes, read_input

MAX_NESTING = 8  # a mission nests [[placed]] cells lists two deep; a catalog none
_KEY = re.compile(r"""^\s*["']?([A-Za-z0-9_-]+)["']?\s*=""")


_TOKENS = re.compile(r'"""|\'\'\'|\\.|["\'#\[\]{}\n=,.]', re.S)
_QUOTES = ('"""', "\'\'\'", '"', "'")


def _code_tokens(text: str):
    """(token, line) for the brackets, '=', ',' and '.' outside strings and comments, and every
    new line: one linear pass over the special characters only."""
    line = 1
    quote = None
    comment = False
    for m in _TOKENS.finditer(text):
        tok = m.group()
        if tok == "\n":
            line += 1
            comment = False
            yield tok, line
        elif comment:
            continue
        elif quote:
            if tok == quote:
                quote = None
        elif tok == "#":
            comment = True
        elif tok in _QUOTES:
            quote = tok
        else:
            yield tok, line


def nesting_depth(text: str, limit: int | None = None) -> tuple[int, int | None]:
    """Deepest [ ] / { } nesting of values outside strings and comments, and the line where it is
    reached."""
    depth = best = 0
    best_line = None
    for tok, line in _code_tokens(text):
        if tok in "[{":
            depth += 1
            if depth > best:
                best, best_line = depth, line
                if limit is not None and best > limit:
                    break  # too deep already: no need to read on
        elif tok in "]}":
            depth = max(0, depth - 1)
    return best, best_line


def deepest_path(data, limit: int) -> list[str]:
    """The keys down to the deepest table or array in ``data`` (iterative: no recursion on hostile
    input), stopping once it is deeper than ``limit``."""
    best: list[str] = []
    stack: list[tuple[object, list[str]]] = [(data, [])]
    while stack:
        node, path = stack.pop()
        if len(path) > len(best):
            best = path
            if len(best) > limit:
                break
        if isinstance(node, dict):
            stack.extend((v, [*path, str(k)]) for k, v in node.items() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend((v, [*path, f"[{i}]"]) for i, v in enumerate(node) if isinstance(v, dict | list))
    return best


def deepest_key(text: str, limit: int) -> tuple[int, int | None]:
    """The most dots in one key or table header outside strings and comments, and its line (before
    the parser: TOML parsers take quadratic time on very long dotted keys). Dots in values
    (numbers) do not count: after '=' a line holds a value, except the keys of an inline table."""
    best, best_line = 0, None
    stack: list[str] = []  # open [ (array or header) and { (inline table)
    at_key = True  # where a key (or a header) may be written
    dots = 0
    for tok, line in _code_tokens(text):
        if tok == "\n":
            if not stack or stack[-1] == "header":
                stack.clear()
                at_key, dots = True, 0
        elif tok == "[":
            stack.append("header" if at_key and (not stack or stack[-1] == "header") else "array")
            at_key = at_key and stack[-1] == "header"
        elif tok == "{":
            stack.append("{")
            at_key, dots = True, 0
        elif tok in "]}":
            if stack:
                stack.pop()
        elif tok == "=":
            at_key = False
        elif tok == ",":
            at_key = bool(stack) and stack[-1] == "{"
            dots = 0
        elif tok == "." and at_key:
            dots += 1
            if dots > best:
                best, best_line = dots, line
                if best > limit:
                    break
    return best, best_line


class TomlSource:
    """The parsed data and the raw lines, so that errors can name a line."""

    def __init__(self, path: str | Path, kind: str, text: str | None = None):
        """Read and check ``path``; with ``text``, that text instead of the file (``path`` then only
        names where it came from, e.g. the log that recorded a mission)."""
        self.path = str(path)
        if text is not None:
            if len(text.encode("utf-8")) > MAX_FILE_BYTES:
                raise InputError(self.path, f"the {kind} is over {megabytes(MAX_FILE_BYTES)}; no {kind} is that large",
                                 f"check that this is a {kind}")
            self._parse(text, kind)
            return
        hint = ", or give a bundled mission's id such as b01 or p15" if kind == "mission" else ""
        # never more than MAX_FILE_BYTES + 1 bytes, and nothing of a FIFO or a device: checked before reading
        raw = read_input(path, MAX_FILE_BYTES, f"{kind} file", f"check the path{hint}",
                         missing=f"{kind} file not found", too_large=f"no {kind} is over {megabytes(MAX_FILE_BYTES)}")
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(self.path, f"not UTF-8 text ({e.reason})", "save the file as UTF-8") from None
        self._parse(decoded, kind)

    def _parse(self, text: str, kind: str) -> None:
        self.text = text
        self.lines = self.text.splitlines()
        depth, line = nesting_depth(self.text, MAX_NESTING)
        if depth > MAX_NESTING:
            raise InputError(self.path, f"brackets nested more than {MAX_NESTING} deep; no {kind} needs that",
                             "remove the extra [ ] or { } nesting", line)
        dots, line = deepest_key(self.text, MAX_NESTING)
        if dots >= MAX_NESTING:
            raise InputError(self.path, f"keys nested more than {MAX_NESTING} deep (a dotted key or a table "
                             f"header); no {kind} needs that", "remove the extra levels of tables and dotted keys",
                             line)
        try:
            self.data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as e:
            msg = str(e)
            m = re.search(r"line (\d+)", msg)
            line = int(m.group(1)) if m else None
            msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", msg)
            raise InputError(self.path, f"malformed TOML: {msg}",
                             "fix the TOML syntax (quotes, '=' between key and value, [table] headers)", line) from None
        except (RecursionError, ValueError, OverflowError, MemoryError) as e:  # any other parser failure
            raise InputError(self.path, f"cannot read this TOML ({type(e).__name__})",
                             "fix the TOML syntax; a mission needs no deep nesting or huge values",
                             self.longest_line()) from None
        self._key_lines: dict[str, int] | None = None
        keys = deepest_path(self.data, MAX_NESTING)
        if len(keys) > MAX_NESTING:  # dotted keys and [a.b.c] headers nest without brackets
            raise InputError(self.path, f"keys nested more than {MAX_NESTING} deep ({'.'.join(keys[:3])}...); "
                             f"no {kind} needs that", "remove the extra levels of tables and dotted keys",
                             self.top_key_line(keys[0]) or self.longest_line())

    def error(self, problem: str, fix: str = "", line: int | None = None, cells: tuple = ()) -> InputError:
        return InputError(self.path, problem, fix, line, cells)

    def line_of(self, pattern: str, start: int = 1, stop: int | None = None) -> int | None:
        """1-based number of the first line at or after ``start`` matching the regex."""
        rx = re.compile(pattern)
        end = len(self.lines) if stop is None else min(stop, len(self.lines))
        for i in range(start - 1, end):
            if rx.search(self.lines[i]):
                return i + 1
        return None

    def key_line(self, key: str, start: int = 1, stop: int | None = None) -> int | None:
        if start == 1 and stop is None:  # the common question, answered from one pass over the file
            if self._key_lines is None:
                self._key_lines = {}
                for i, text in enumerate(self.lines):
                    m = _KEY.match(text)
                    if m:
                        self._key_lines.setdefault(m.group(1), i + 1)
            return self._key_lines.get(key)
        return self.line_of(rf"""^\s*["']?{re.escape(key)}["']?\s*=""", start, stop)

    def top_key_line(self, key: str) -> int | None:
        """The first line that names ``key`` at the start of a key, a dotted key or a table header."""
        k = re.escape(key)
        return self.line_of(rf"""^\s*(\[\[?\s*)?["']?{k}["']?\s*[.=\]]""")

    def longest_line(self) -> int:
        """Where a parser failure without a line most likely is: the longest line."""
        return max(range(len(self.lines)), key=lambda i: len(self.lines[i]), default=0) + 1

    def table_line(self, name: str) -> int | None:
        return self.line_of(rf"^\s*\[\s*{re.escape(name)}\s*\]")

    def array_table_lines(self, name: str) -> list[int]:
        rx = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
        return [i + 1 for i, text in enumerate(self.lines) if rx.search(text)]
