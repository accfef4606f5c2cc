"""The studio's refusals: an answer other than 200 with the API's JSON error document
(``{"error": {"message", "fix"}}``), rendered by app.py, never a traceback."""

from __future__ import annotations

from solver.core.errors import InputError


class StudioError(Exception):
    def __init__(self, status: int, message: str, fix: str = "", line: int | None = None,
                 more: dict[str, object] | None = None):
        super().__init__(message)
        self.status, self.message, self.fix, self.line = status, message, fix, line
        self.more = more or {}  # other keys of the error document (e.g. the game a conflict is about)


def refused(e: InputError) -> StudioError:
    """A broken mission or log as a 422, its line named as `validate` and `review` name it."""
    where = f"line {e.line}: " if e.line else ""
    return StudioError(422, f"{where}{e.problem}", e.fix)
