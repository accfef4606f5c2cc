"""The golden lost games whose losing move lost the deal in the cards (tests/golden/review/cards):
each game read, replayed and cut into the moments of a round."""

from __future__ import annotations

from solver.game.resume import replay, start_of_log
from solver.io.gamelog import read_log
from tests.helpers.games import mission_of
from tests.helpers.paths import GOLDEN

CARDS = GOLDEN / "review" / "cards"


def game(name: str, catalog):
    log = read_log(CARDS / f"{name}.jsonl")
    m = mission_of(log.mission, catalog)
    return log, m, replay(log, m, catalog), start_of_log(log, m, catalog)


def moments(name: str, catalog, rnd: int):
    """Every moment of round ``rnd`` of a golden game, and the one after its last move."""
    _, _, final, s = game(name, catalog)
    out = []
    for a in final.moves:
        if s.round == rnd and not s.is_over():
            out.append(s.clone())
        s.apply(a)
        if out and (s.round > rnd or s.is_over()):
            return [*out, s]
    return out


def words(seat: int, possessive: bool = False) -> str:
    return f"player {seat}" + ("'s" if possessive else "")

