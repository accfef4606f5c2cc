"""A decision of a seat as a person is asked it, for any front end: the terminal seat
(``terminal``) and the studio's seat page (``table``) ask the same questions.

A question is built from the seat's observation alone (``game.state.Observation``) and the
legal actions in the advised order (``game.advice``): its prompt, its choices in words (best
first), the action each stands for, and for a placement the cells of each choice; any other
legal placement is answered by its cells (``Question.by_cells``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.board import parse_cell, position_index
from solver.core.codes import Skill
from solver.core.errors import ParseError
from solver.core.rules import Board, Placement, mask_of
from solver.game.actions import Action, Phase
from solver.game.state import Observation, Option

PLACES_SHOWN = 8  # placements offered as numbered choices (any other is given by its cells)

GENERAL_HELP = "Each question is a decision of your seat; the choices are every legal answer, best first."
HOW_TO_ANSWER = ("Answer with a choice's number (1 is what the advisor, the other seats' policy, would play). "
                 "A line '= ...' is a move with a single legal answer, played for you. "
                 "Ctrl-C or end of input ends the game; the log keeps the rounds finished.")
CARD_HELP = ("Reveal a card. You must follow the colour led (the round's first card) if you can. The round's "
             "highest trump wins, else the highest card of the colour led; that card's player is in charge: "
             "they select the pieces the revealed cards offer and place them. Beside each card is the piece it "
             "would select (rows of # , / between rows).")
SELECT_HELP = ("You are in charge: choose the pieces this round places. A skill counter buys a double scan (two "
               "pieces), a wild colour (a piece of the card's value in another colour) or a shift change. Every "
               "piece selected must be placed; a piece that fits nowhere ends the game.")
PLACE_HELP = ("Place the piece: not on a bird, not on another piece, not touching a piece of its own colour along "
              "an edge. A bird is scanned when every cell around it is covered and its coloured sides by pieces of "
              "that colour. Answer a number, or the piece's cells (e.g. c3 c4 d4) for any legal place.")


@dataclass(frozen=True)
class Question:
    """One decision of a seat as a person is asked it: the prompt, the choices in words (best first
    by the advisor) with the action each stands for, and for a placement the cells of each choice
    and any other legal placement by its cells (``by_cells``). The terminal seat and the studio's
    seat page ask the same questions."""

    kind: str  # "card", "select" or "place"
    prompt: str
    choices: tuple[str, ...]
    actions: tuple[Action, ...]
    help: str
    obs: Observation = field(repr=False)
    placements: tuple[Placement, ...] = ()  # kind "place": the cells of each choice

    def by_cells(self, names) -> Action:
        """The legal placement with these cells (names like "c3"); ValueError saying why not."""
        obs = self.obs
        piece = obs.piece
        if self.kind != "place" or piece is None:
            raise ValueError("this question is not where to place a piece: answer a choice's number")
        shape = obs.catalog[piece]
        try:
            wanted = frozenset(parse_cell(str(t)) for t in names if str(t))
        except ParseError as e:
            raise ValueError(f"{e}; give a number, or the piece's cells like c3 c4 d4") from None
        index = position_index(shape)
        if wanted not in index:
            raise ValueError(f"{' '.join(Placement(piece, wanted).cell_names()) or 'no cells'} is not the shape of "
                             f"{piece} ({shape.format()}) in any rotation or reflection")
        action = {a.index: a for a in obs.legal}.get(index[wanted])
        if action is None:
            problem = obs.board.placement_problem(Placement(piece, wanted))
            raise ValueError(f"{piece} cannot go at {' '.join(Placement(piece, wanted).cell_names())}: {problem}")
        return action


def question(obs: Observation, ranked: list[Action]) -> Question:
    """The question of this decision (``ranked``: the legal actions, best first)."""
    if obs.phase == Phase.REVEAL:
        follow = f"; you must follow {obs.lead}" if obs.lead is not None and len(obs.legal) < len(obs.hand) else ""
        lead = "you lead" if not obs.trick else f"{obs.lead} was led"
        cards = [a.card for a in ranked]
        return Question("card", f"round {obs.round}, you (player {obs.seat}): which card do you reveal? "
                                f"({lead}{follow})",
                        tuple(f"{c}  piece {obs.catalog[c].format()}" for c in cards), tuple(ranked), CARD_HELP, obs)
    if obs.phase == Phase.SELECT:
        return Question("select", f"round {obs.round}, you (player {obs.seat}): you are in charge; which pieces do "
                                  f"you take? ({obs.skills_left} skill counter(s) left)",
                        tuple(option_text(obs.options[a.index], obs.board, obs.catalog) for a in ranked),
                        tuple(ranked), SELECT_HELP, obs)
    piece = obs.piece
    assert piece is not None
    shape = obs.catalog[piece]
    cells = dict(zip(obs.legal, obs.placements(), strict=True))
    shown = ranked[:PLACES_SHOWN]
    more = len(ranked) - len(shown)
    tail = f"; {more} more legal place(s): give the cells" if more > 0 else ""
    return Question("place", f"round {obs.round}, you (player {obs.seat}): where does {piece} (piece "
                             f"{shape.format()}) go? (a number, or its cells like "
                             f"{' '.join(cells[shown[0]].cell_names())}{tail})",
                    tuple(placement_text(obs.board, cells[a]) for a in shown), tuple(shown), PLACE_HELP, obs,
                    tuple(cells[a] for a in shown))


def forced_text(obs: Observation, action: Action) -> str:
    """A move with a single legal answer, in words (played for the seat)."""
    if obs.phase == Phase.REVEAL:
        return f"you reveal {action.card}, your only legal card"
    if obs.phase == Phase.SELECT:
        return f"you take {option_text(obs.options[action.index], obs.board)}, the only choice"
    cells = dict(zip(obs.legal, obs.placements(), strict=True))[action]
    return f"{obs.piece} goes at {' '.join(cells.cell_names())}, its only legal place"


# ---------------------------------------------------------------- words and small boards
def seat_name(seat: int, me: int, names: dict[int, str] | None = None) -> str:
    """A seat as the seat ``me`` reads it: "you", the seat's name when the table gave one, or "player N"."""
    return "you" if seat == me else (names or {}).get(seat) or f"player {seat}"


def new_pieces(board: Board) -> list[Placement]:
    """The pieces placed during the game (drawn in lower case, as on the final board)."""
    before = {p.card for p in board.mission.placed}
    return [p for k, p in board.pieces.items() if k not in before]


def option_text(option: Option, board: Board, catalog=None) -> str:
    pieces = ", then ".join(f"{c} (piece {catalog[c].format()})" if catalog is not None else str(c)
                            for c in option.pieces)
    if option.skill == Skill.NONE:
        return pieces or "nothing: the piece is on the board already"
    words = {Skill.DOUBLE_SCAN: "double scan", Skill.WILD_COLOR: "wild colour", Skill.SHIFT_CHANGE: "shift change"}
    return f"{words[option.skill]}: {pieces} (uses a skill counter)"


def placement_text(board: Board, p: Placement) -> str:
    """The cells, and what the placement does: the birds it scans, or the open sides it covers."""
    after = board.copy()
    after.place(p)
    new = [b for b in after.scanned() if b not in board.scanned()]
    cells = " ".join(p.cell_names())
    if new:
        return f"{cells}  (scans {', '.join(new)})"
    rings = 0
    for b in board.mission.birds:
        if not board.is_scanned(b):
            rings |= b.ring
    covered = (mask_of(p.cells) & rings & ~board.occupied).bit_count()
    return f"{cells}  (covers {covered} open side(s))" if covered else cells


