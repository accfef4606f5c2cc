"""A game of the studio's table as it lives in memory (``LiveGame``): its state, its locks, and
whether a worker thinks for it; and what every part of the table says of games (their ids, their
logs' text, a game recorded from its sheet)."""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field

from solver.app.documents import Doc
from solver.play.tablegame import TableGame

RECORDED = "recorded"  # the policy column of a game played with the printed cards, recorded from its sheet


def new_game_id() -> str:
    """A new game's id: when it started, and 32 random bits (no two games of a folder share one)."""
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}"


def log_text(events: list[Doc]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


@dataclass
class LiveGame:
    """A game in memory: its state (None when it cannot be rebuilt: ``problem`` says why), and
    whether a worker is thinking for it. ``lock`` is held by whatever changes the game (a move is
    stored while it is held); ``view_lock`` only while the game in memory changes or is read, so
    that a seat's view never waits for a write."""

    id: str
    game: TableGame | None
    problem: str | None = None
    thinking: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    view_lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    changed: threading.Condition = field(init=False, repr=False)
    log_written: bool = False
    last_move_at: float = 0.0
    recorded: str | None = None  # a game played with the printed cards: its log (nothing to play)

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)

    def over(self) -> bool:
        return self.recorded is not None or (self.game is not None and self.game.state.is_over())

