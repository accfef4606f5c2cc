"""Narrow exception types. Every user-facing error carries what, where and how to fix."""

from __future__ import annotations


class KakapoError(Exception):
    """Base class of every error this package raises on purpose."""


class ParseError(KakapoError, ValueError):
    """A name (card, colour, cell) that cannot be parsed."""


class InputError(KakapoError):
    """A broken input file: names the file, the line where possible, the problem and the fix."""

    def __init__(self, path: str, problem: str, fix: str = "", line: int | None = None, cells: tuple = ()):
        self.path = str(path)
        self.problem = problem
        self.fix = fix
        self.line = line
        self.cells = tuple(cells)  # board cells (a1..l12) the problem concerns, where it concerns some
        super().__init__(self.format())

    def format(self) -> str:
        where = self.path if self.line is None else f"{self.path}, line {self.line}"
        text = f"{where}: {self.problem}"
        if self.fix:
            text += f"\n  fix: {self.fix}"
        return text

    def __reduce__(self):  # pickled whole (an answer from a worker process), not as its message
        return (InputError, (self.path, self.problem, self.fix, self.line, self.cells))

    def to_json(self) -> dict:
        out: dict = {"file": self.path, "line": self.line, "message": self.problem, "fix": self.fix}
        if self.cells:
            out["cells"] = list(self.cells)
        return out

    def all(self) -> list[InputError]:
        return [self]


class InputErrors(InputError):
    """Every independent problem found in one file (at least one), in the order of the file."""

    def __init__(self, errors: list[InputError]):
        self.errors = sorted(errors, key=lambda e: (e.line is None, e.line or 0))
        first = self.errors[0]
        super().__init__(first.path, first.problem, first.fix, first.line, first.cells)

    def format(self) -> str:
        if len(getattr(self, "errors", ())) <= 1:
            return super().format()
        return f"{len(self.errors)} problems:\n" + "\n".join(e.format() for e in self.errors)

    def all(self) -> list[InputError]:
        return list(self.errors)

    def __reduce__(self):
        return (InputErrors, (self.errors,))


class NoWorkers(KakapoError):
    """No worker was connected to the Dask scheduler for the whole worker timeout (a run on a
    cluster, ``analysis/cluster.py``): said by each front end with how to go on."""

    def __init__(self, address: str, waited: float):
        self.address, self.waited = address, waited
        super().__init__(f"no Dask worker has been connected to the scheduler at {address} for {waited:.0f} s")


class IllegalPlacement(KakapoError):
    """A placement that breaks a placement rule."""
