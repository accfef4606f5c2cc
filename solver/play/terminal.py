"""The human seat: a person plays one or more seats of a game in the terminal (`play --human`).

``HumanSeat`` is a policy like any other: it is handed the seat's observation and nothing else,
so the person sees what that seat may see (its hand, the public cards, the board, the counters,
the round) and never another hand. Each decision is one question: a line beginning with ``? ``,
then its choices as lines ``N) ...`` numbered from 1, best first by the seat's advisor (the
policy of the other seats, ``game/advice.py``; the question itself is ``play/question.py``'s).
The answer is a choice's number; a placement may also be given by its cells (``c3 c4 d4``), any
legal placement. A wrong answer is said why
(a line beginning with ``! ``) and the question is asked again.

Plain mode (standard input not a terminal) is for scripts and tests: nothing but the lines the
person must see, no colour, and every line flushed before an answer is read. In a terminal the
board is drawn in colour and the placements offered are drawn on small boards; Enter takes 1.
End of input and Ctrl-C end the game (``GameAbandoned``); the caller keeps the log of the
rounds finished.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import TextIO

from solver.core.board import COLUMNS, SIZE, cell
from solver.core.errors import KakapoError
from solver.core.rules import Board, Placement, cells_of, grow, mask_of
from solver.game.actions import Action, Phase
from solver.game.advice import ranked_actions
from solver.game.rng import SplitMix64
from solver.game.state import Observation
from solver.play.question import (
    GENERAL_HELP,
    HOW_TO_ANSWER,
    Question,
    forced_text,
    new_pieces,
    question,
    seat_name,
)
from solver.view.render import LEGEND, draw, shape_strip, use_colour

BOARDS_SHOWN = 4  # of the placements offered, those drawn on small boards in a terminal


class GameAbandoned(KakapoError):
    """The person ended the game: end of input or Ctrl-C."""


@dataclass
class Console:
    """Questions and answers on a text stream pair (``plain``: for scripts, see the module docstring)."""

    stdin: TextIO
    stdout: TextIO
    plain: bool
    colour: bool = False

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self) -> str:
        if not self.plain:
            self.stdout.write("> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise GameAbandoned("end of input")
        return line.strip()

    def ask(self, question: str, choices: list[str], other=None, help_text: str = "") -> int | object:
        """The number (0-based) of the choice answered; ``other(text)`` may turn any other answer
        into a value (or a message saying what is wrong with it, as a str in a ValueError); ``?`` or
        ``help`` prints ``help_text`` (lines beginning with ``# ``) and asks again."""
        while True:
            enter = "" if self.plain else "; Enter takes 1"
            self.say(f"? {question} (choices best first; ? for help{enter}) [1-{len(choices)}]")
            for k, text in enumerate(choices, start=1):
                self.say(f"{k}) {text}")
            answer = self.read()
            if answer.lower() in ("?", "help"):
                for line in (help_text or GENERAL_HELP).splitlines():
                    self.say(f"# {line}")
                for line in HOW_TO_ANSWER.splitlines():
                    self.say(f"# {line}")
                continue
            if answer == "" and not self.plain:
                answer = "1"
            if answer.isdigit():
                k = int(answer)
                if 1 <= k <= len(choices):
                    return k - 1
                self.say(f"! there is no choice {k}: answer a number from 1 to {len(choices)}")
                continue
            if other is not None and answer:
                try:
                    return other(answer)
                except ValueError as e:
                    self.say(f"! {e}")
                    continue
            hint = " or the cells of a placement (c3 c4 d4)" if other is not None else ""
            self.say(f"! {answer!r} is not a choice: answer a number from 1 to {len(choices)}{hint}")


@dataclass
class HumanSeat:
    """A seat played by a person; ``advisor``: the policy that orders the choices (best first)."""

    console: Console
    advisor: object
    name: str = "human"
    _shown: tuple = field(default=(), repr=False)  # the moment whose board was last drawn

    def act(self, obs: Observation, rng: SplitMix64) -> Action:
        self._show(obs)
        if len(obs.legal) == 1:  # nothing to decide: played for the seat, and said so
            only = obs.legal[0]
            self.console.say(f"= round {obs.round}, you (player {obs.seat}): {forced_text(obs, only)}")
            return only
        ranked = ranked_actions(self.advisor, obs, rng)
        if obs.phase == Phase.REVEAL:
            return self._reveal(obs, ranked)
        if obs.phase == Phase.SELECT:
            return self._select(obs, ranked)
        return self._place(obs, ranked)

    # ------------------------------------------------------------ what the seat sees
    def _show(self, obs: Observation) -> None:
        moment = (obs.round, len(obs.board.pieces))
        if moment != self._shown:
            first = not self._shown
            self._shown = moment
            self.console.say(draw(obs.board, self.console.colour, new=new_pieces(obs.board)))
            if first:
                self.console.say(f"legend: {LEGEND}")
        needed = obs.mission.clear
        scanned = obs.board.scanned()
        self.console.say(f"round {obs.round} of {obs.spec.rounds}, trump {obs.trump}; skill counters left "
                         f"{obs.skills_left}; scanned {len(scanned)} of {needed} bird(s) needed"
                         + (f" ({', '.join(scanned)})" if scanned else ""))
        self.console.say(f"your hand (player {obs.seat}): {' '.join(map(str, obs.hand)) or '-'}")
        if obs.trick:
            self.console.say("this round: " + ", ".join(f"{seat_name(p, obs.seat)} {c}" for p, c in obs.trick))

    # ------------------------------------------------------------ the three decisions
    def _reveal(self, obs: Observation, ranked: list[Action]) -> Action:
        q = question(obs, ranked)
        if not self.console.plain:
            cards = [a.card for a in q.actions if a.card is not None]
            self.console.say(shape_strip([(f"{k}) {c}", obs.catalog[c]) for k, c in enumerate(cards, start=1)],
                                         self.console.colour, colours=[c.colour for c in cards]))
        return self._ask(q)

    def _select(self, obs: Observation, ranked: list[Action]) -> Action:
        q = question(obs, ranked)
        if not self.console.plain:
            pieces = sorted({c for a in ranked for c in obs.options[a.index].pieces})
            self.console.say(shape_strip([(str(c), obs.catalog[c]) for c in pieces], self.console.colour,
                                         colours=[c.colour for c in pieces]))
        return self._ask(q)

    def _place(self, obs: Observation, ranked: list[Action]) -> Action:
        q = question(obs, ranked)
        if not self.console.plain:
            self.console.say(small_boards(obs.board, list(q.placements[:BOARDS_SHOWN]), self.console.colour))
        return self._ask(q)

    def _ask(self, q: Question) -> Action:
        other = None if q.kind != "place" else (lambda text: q.by_cells(re.split(r"[\s,]+", text)))
        k = self.console.ask(q.prompt, list(q.choices), other, help_text=q.help)
        return q.actions[k] if isinstance(k, int) else k  # type: ignore[return-value]


def small_boards(board: Board, placements: list[Placement], colour: bool) -> str:
    """The region around each placement, side by side, the placement's cells marked with its number."""
    if not placements:
        return ""
    area = 0
    for p in placements:
        area |= grow(grow(mask_of(p.cells)))
    # whole pieces and birds that the region touches, so that no preview shows a piece cut off
    wholes = [mask_of(q.cells) for q in board.pieces.values()] + [b.mask for b in board.mission.birds]
    grown = True
    while grown:
        grown = False
        for w in wholes:
            if w & area and w & ~area:
                area |= w
                grown = True
    rows = sorted({c // SIZE for c in cells_of(area)})
    cols = sorted({c % SIZE for c in cells_of(area)})
    r0, r1, c0, c1 = rows[0], rows[-1], cols[0], cols[-1]
    full = draw(board, False, new=new_pieces(board)).splitlines()[1:]
    blocks = []
    for k, p in enumerate(placements, start=1):
        lines = [f"{k})".ljust(4) + "".join(f" {COLUMNS[c]} " for c in range(c0, c1 + 1))]
        for r in range(r0, r1 + 1):
            row = full[r][4:]
            parts = []
            for c in range(c0, c1 + 1):
                text = row[3 * c: 3 * c + 3]
                if cell(r, c) in p.cells:
                    text = f"[{p.card.colour.letter}]"
                parts.append(text)
            lines.append(f"{r + 1:>3} " + "".join(parts))
        blocks.append(lines)
    width = max(len(line) for b in blocks for line in b) + 2
    out = []
    for start in range(0, len(blocks), 2):
        group = blocks[start:start + 2]
        for i in range(max(len(b) for b in group)):
            out.append("".join((b[i] if i < len(b) else "").ljust(width) for b in group).rstrip())
        out.append("")
    return "\n".join(out)


def console_for(stdin=None, stdout=None) -> Console:
    """Plain mode unless standard input is a terminal."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    plain = not (hasattr(stdin, "isatty") and stdin.isatty())
    return Console(stdin, stdout, plain, colour=not plain and use_colour(stdout))
