"""`kakapo review LOG`: where a logged game was won or lost, round by round.

For the start of each round:
- ``open_hand``: could a team that sees every hand still clear the deal from there (the ceiling's
  deal solver on the moment, ``openhand.deal.from_moment``): ``clearable``, ``not_clearable`` or
  ``undecided`` within the budget. A game that was cleared is its own witness for every round.
  From a moment that cannot be cleared no later moment can, and a moment the game reached from a
  clearable one was reachable from every earlier one; so the rounds are decided by bisection, and
  a round's answer may be implied by another's (``how`` says which).
- ``search_rate``: the share of ``playouts`` continuations in which the search player, in every
  seat and deciding from its seat's observation only, clears the game from there; the
  continuations are played on the true deal (the hidden cards stay as dealt; only the players'
  random streams differ, drawn from ``--seed``). With 0 samples the player is the planner, which
  draws no random numbers: every continuation is the same game.
- ``costliest``: of the round's decisions (each card, the selection, each placement) where the
  search player would have chosen otherwise, the one whose choice lost the most: the search
  player's clear rate after its alternative minus after the move played, on the same streams.

``lost_at`` is the first round from whose start the deal cannot be cleared with open hands;
``lost_in`` the round whose decisions lost it (the one before ``lost_at`` when that one was
clearable, or the last round when the game was lost with the deal still clearable at its start).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

import numpy as np

from solver.core.board import all_positions
from solver.core.codes import Result
from solver.core.rules import Board, Mission, Placement
from solver.game.actions import Action, ActionKind
from solver.game.fast.policies import reset_memory
from solver.game.fast.search import new_search_memory, search_decide, search_play_on
from solver.game.fast.state import fast_observation, fast_state, spec_array
from solver.game.planner import planner_library
from solver.game.resume import replay, start_of_log
from solver.game.seeds import game_seeds
from solver.game.state import GameState
from solver.game.tables import build_tables
from solver.io.gamelog import GameLog
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, UNDECIDED, DealSolver, from_moment
from solver.view.svgboard import board_svg

REVIEW_SAMPLES = 8  # the search player's look-ahead deals a decision, in the review
REVIEW_PLAYOUTS = 24  # continuations per moment


@dataclass
class Decision:
    """A decision of the game next to the search player's alternative, with the clear rate after each."""

    round: int
    player: int
    kind: str  # card, selection, placement
    played: str
    alternative: str
    rate_played: float
    rate_alternative: float

    @property
    def cost(self) -> float:
        return self.rate_alternative - self.rate_played

    def to_json(self) -> dict:
        return {"decision": self.kind, "player": self.player, "played": self.played,
                "alternative": self.alternative, "rate_played": round(self.rate_played, 4),
                "rate_alternative": round(self.rate_alternative, 4), "cost": round(self.cost, 4)}


@dataclass
class RoundReview:
    round: int
    start_player: int
    open_hand: str = UNDECIDED
    how: str = ""  # solved (s), the game itself, implied by round R
    search_rate: float = 0.0
    costliest: Decision | None = None
    board: Board | None = field(default=None, repr=False)  # at the start of the round

    def to_json(self) -> dict:
        return {"round": self.round, "open_hand": self.open_hand, "open_hand_how": self.how,
                "search_rate": round(self.search_rate, 4),
                "costliest": None if self.costliest is None else self.costliest.to_json()}


@dataclass
class Review:
    mission: Mission
    log: GameLog
    players: int
    result: str
    rounds: list[RoundReview]
    lost_at: int | None
    lost_in: int | None
    samples: int
    playouts: int
    seed: int
    seconds: float
    final: Board

    def to_json(self) -> dict:
        return {"mission": self.mission.id, "players": self.players, "result": self.result,
                "rounds": [r.to_json() for r in self.rounds], "lost_at": self.lost_at, "lost_in": self.lost_in,
                "samples": self.samples, "player": "planner" if self.samples == 0 else "search",
                "playouts": self.playouts, "seed": self.seed,
                "seconds": round(self.seconds, 2)}


class Continuations:
    """The search player's clear rate from a moment (``rate``) and its choice at one (``prefers``),
    on the Numba engine with the mission's tables built once."""

    def __init__(self, mission: Mission, catalog, state: GameState, samples: int, playouts: int, seed: int):
        self.T = build_tables(mission, catalog, planner_library(mission, catalog))
        self.samples = samples
        self.seeds = game_seeds(seed, 0, playouts)
        self.decide_seed = int(game_seeds(seed, 1, 1)[0])
        self.memory = new_search_memory(spec_array(state.spec), samples, self.T)

    def rate(self, state: GameState) -> float:
        if state.is_over():
            return 1.0 if state.outcome == Result.CLEARED else 0.0
        results = np.zeros(len(self.seeds), np.int64)
        search_play_on(fast_state(state), self.samples, self.T, self.seeds, results)
        return float(np.mean(results == int(Result.CLEARED)))

    def prefers(self, state: GameState) -> Action:
        """The search player's action for the seat to act (from its observation only)."""
        reset_memory(self.memory.base)
        obs = state.observation(state.current_player())
        rs = np.array([self.decide_seed], np.uint64)
        return Action.from_code(int(search_decide(fast_observation(obs), self.memory, self.T, rs)))


def review_game(log: GameLog, mission: Mission, catalog, time_limit: float, samples: int = REVIEW_SAMPLES,
                playouts: int = REVIEW_PLAYOUTS, seed: int = 1,
                progress: Callable[[str], None] | None = None) -> Review:
    """The review of a logged game (the module docstring); the log is checked by the rules first."""
    t0 = time.perf_counter()
    say = progress or (lambda _text: None)
    final = replay(log, mission, catalog)  # every move checked; InputError names the line
    state = start_of_log(log, mission, catalog)
    n = final.rounds_played()
    starts: list[GameState] = []
    moves = list(final.moves)
    cont = Continuations(mission, catalog, state, samples, playouts, seed)
    reviews: list[RoundReview] = []
    at = 0
    for record in final.history:
        starts.append(state.clone())
        rr = RoundReview(record.round, record.start_player, board=state.board.copy())
        say(f"review: round {record.round} of {n}: the search player from here")
        rr.search_rate = cont.rate(state)
        count = len(record.plays) + 1 + len(record.placements)
        for action in moves[at:at + count]:
            rr.costliest = _costlier(rr.costliest, _weigh(state, action, cont))
            state.apply(action)
        at += count
        reviews.append(rr)
    if not final.is_over():  # a game still in play: the round to come too
        starts.append(state.clone())
        rr = RoundReview(state.round, state.leader, board=state.board.copy())
        say(f"review: round {state.round} (to come): the search player from here")
        rr.search_rate = cont.rate(state)
        reviews.append(rr)
    _open_hands(final, starts, reviews, catalog, time_limit, say)
    lost_at = next((r.round for r in reviews if r.open_hand == NOT_CLEARABLE), None)
    lost_in = None
    if final.is_over() and final.result() != "cleared":
        if lost_at is None:
            lost_in = n if reviews and reviews[-1].open_hand == CLEARABLE else None
        elif lost_at > 1 and reviews[lost_at - 2].open_hand == CLEARABLE:
            lost_in = lost_at - 1
    return Review(mission, log, final.players, final.result() or "in_play", reviews, lost_at, lost_in, samples,
                  playouts, seed, time.perf_counter() - t0, final.board.copy())


def _weigh(state: GameState, action: Action, cont: Continuations) -> Decision | None:
    """The decision next to the search player's alternative, or None where it would do the same."""
    preferred = cont.prefers(state)
    if preferred == action:
        return None
    played, alternative = state.clone(), state.clone()
    played.apply(action)
    alternative.apply(preferred)
    return Decision(state.round, state.current_player(), _kind(action), describe(state, action),
                    describe(state, preferred), cont.rate(played), cont.rate(alternative))


def _costlier(a: Decision | None, b: Decision | None) -> Decision | None:
    if b is None or b.cost <= 0:
        return a
    return b if a is None or b.cost > a.cost else a


def _kind(action: Action) -> str:
    return {ActionKind.REVEAL: "card", ActionKind.SELECT: "selection", ActionKind.PLACE: "placement"}[action.kind]


def describe(state: GameState, action: Action) -> str:
    """An action in words, at the moment it is taken."""
    if action.kind == ActionKind.REVEAL:
        return str(action.card)
    if action.kind == ActionKind.SELECT:
        o = state.options[action.index]
        pieces = ", then ".join(map(str, o.pieces)) or "nothing (the piece is on the board)"
        return f"{o.skill.json.replace('_', ' ')}: {pieces}" if o.skill else pieces
    assert action.card is not None
    placed = Placement(action.card, all_positions(state.catalog[action.card])[action.index])
    return f"{action.card} at {' '.join(placed.cell_names())}"


def _open_hands(final: GameState, starts: list[GameState], reviews: list[RoundReview], catalog, time_limit: float,
                say) -> None:
    """Each round's open-hand answer, by bisection over the monotone answers (module docstring)."""
    n = len(reviews)
    if final.result() == "cleared":
        for r in reviews:
            r.open_hand, r.how = CLEARABLE, "the game itself"
        return
    decided: dict[int, str] = {}

    def decide(r: int) -> str:
        say(f"review: round {r} of {n}: the deal with open hands from here")
        mission, start = from_moment(starts[r - 1])
        answer = DealSolver(mission, catalog, final.players, time_limit).decide_state(start)
        decided[r] = answer.result
        reviews[r - 1].how = f"{answer.how}, {answer.seconds:.1f} s"
        return answer.result

    def between(lo: int, hi: int) -> None:  # lo clearable (or 0), hi not clearable (or n + 1)
        if hi - lo <= 1:
            return
        mid = (lo + hi) // 2
        answer = decide(mid)
        if answer == CLEARABLE:
            between(mid, hi)
        elif answer == NOT_CLEARABLE:
            between(lo, mid)
        else:
            between(lo, mid)
            between(mid, hi)

    if final.is_over():
        between(0, n + 1)  # the game was lost: after its last round it cannot be cleared
    elif decide(n) == CLEARABLE:  # still in play: nothing is known of where it goes
        pass
    else:
        between(0, n)
    yes = max((r for r, a in decided.items() if a == CLEARABLE), default=0)
    no = min((r for r, a in decided.items() if a == NOT_CLEARABLE), default=n + 1)
    for rr in reviews:
        if rr.round in decided:
            rr.open_hand = decided[rr.round]
        elif rr.round <= yes:
            rr.open_hand, rr.how = CLEARABLE, f"implied by round {yes}"
        elif rr.round >= no:
            rr.open_hand, rr.how = NOT_CLEARABLE, f"implied by round {no}"


def player_name(rv: Review) -> str:
    """The yardstick's player: the search player, or the planner itself with 0 samples."""
    return "planner" if rv.samples == 0 else "search player"


def yardstick_legend(rv: Review) -> str:
    """What the rate column means, in one paragraph (text and page say the same)."""
    if rv.samples == 0:
        how = ("the planner (--samples 0: the search player without look-ahead) in every seat, each seat deciding "
               "from its own view (its hand and the cards on the table); the planner draws no random numbers, so "
               f"its {rv.playouts} continuations of a moment are one game, and the rate is 0 % or 100 %")
    else:
        how = (f"the search player ({rv.samples} look-ahead deals a decision) in every seat, each seat deciding from "
               f"its own view (its hand and the cards on the table) over {rv.playouts} continuations that differ only "
               "in the players' random choices")
    return (f"{player_name(rv)}: how often {how} clears the game from that moment. The continuations are played on "
            "the true deal: the cards no seat could see stay as they were dealt, so the rate is that of this deal, "
            "not of the mission. Open hands: whether a team that sees every hand could still clear this deal.")


def review_lines(rv: Review) -> list[str]:
    """The review in words."""
    m = rv.mission
    played = len(rv.rounds) - (1 if rv.result == "in_play" else 0)
    who = player_name(rv)
    out = [f"{m.name} ({m.id}), {rv.players} players: {rv.result.replace('_', ' ')} after {played} round(s) "
           f"(log {rv.log.path})",
           yardstick_legend(rv) + f" Seed {rv.seed}."]
    for r in rv.rounds:
        out.append(f"round {r.round}: open hands {r.open_hand.replace('_', ' ')} ({r.how}); {who} clears "
                   f"{100 * r.search_rate:.0f} % from here")
        c = r.costliest
        if c is not None:
            out.append(f"  costliest: P{c.player}'s {c.kind} {c.played} ({100 * c.rate_played:.0f} %); the {who} "
                       f"prefers {c.alternative} ({100 * c.rate_alternative:.0f} %)")
    if rv.result == "cleared":
        out.append("the deal was cleared")
    elif rv.result == "in_play" and rv.lost_at is None:
        last = rv.rounds[-1]
        out.append(f"the game goes on: from round {last.round} the deal is {last.open_hand.replace('_', ' ')} with "
                   "open hands")
    elif rv.lost_at == 1:
        out.append("lost from the deal: not even a team that sees every hand could clear it")
    elif rv.lost_at is not None:
        where = f"; it was lost in round {rv.lost_in}" if rv.lost_in else ""
        out.append(f"lost at round {rv.lost_at}: from its start the deal cannot be cleared, even with open hands"
                   + where)
    elif rv.lost_in is not None:
        out.append(f"lost in round {rv.lost_in}, the last: the deal was still clearable at its start")
    else:
        out.append("where it was lost is undecided within the time limit")
    return out



def review_html(rv: Review) -> str:
    """A page: the verdicts as a table and the board at the start of each round, small multiples
    (the pieces placed in the round before outlined)."""
    m = rv.mission
    rows = []
    for r in rv.rounds:
        c = r.costliest
        cost = "" if c is None else (f"P{c.player}'s {escape(c.kind)} <b>{escape(c.played)}</b> "
                                     f"({100 * c.rate_played:.0f} %); the {player_name(rv)} prefers "
                                     f"<b>{escape(c.alternative)}</b> ({100 * c.rate_alternative:.0f} %)")
        verdict = r.open_hand.replace("_", " ")
        rows.append(f'<tr class="{r.open_hand}"><td>{r.round}</td><td>{verdict}<br><small>{escape(r.how)}</small>'
                    f"</td><td>{100 * r.search_rate:.0f} %</td><td>{cost}</td></tr>")
    tiles = []
    previous: set = set()
    boards = [(f"round {r.round} ({r.open_hand.replace('_', ' ')})", r.board) for r in rv.rounds]
    if rv.result != "in_play":
        boards.append((f"end: {rv.result.replace('_', ' ')}", rv.final))
    for label, board in boards:
        assert board is not None
        new = [p for k, p in board.pieces.items() if k not in previous and k not in {x.card for x in m.placed}]
        previous = set(board.pieces)
        tiles.append(f'<figure>{board_svg(board, new=new, title=label)}<figcaption>{escape(label)}</figcaption>'
                     "</figure>")
    summary = escape(review_lines(rv)[-1])
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Review: {escape(m.name)} ({escape(m.id)})</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; vertical-align: top; }}
tr.not_clearable td:nth-child(2) {{ color: #b00020; font-weight: bold; }}
tr.clearable td:nth-child(2) {{ color: #2e7d32; }}
.tiles {{ display: flex; flex-wrap: wrap; gap: 14px; }}
figure {{ margin: 0; }} figcaption {{ font-size: 12px; text-align: center; }}
</style></head><body>
<h1>{escape(m.name)} ({escape(m.id)}): {rv.players} players, {escape(rv.result.replace('_', ' '))}</h1>
<p><b>{summary}</b></p>
<p>{escape(yardstick_legend(rv))} Costliest decision: where the {player_name(rv)} would have chosen
otherwise, the choice that lost the most.</p>
<table><tr><th>round</th><th>open hands</th><th>{player_name(rv)}</th><th>costliest decision</th></tr>
{"".join(rows)}</table>
<h2>The board at the start of each round</h2>
<div class="tiles">{"".join(tiles)}</div>
<p><small>Log: {escape(rv.log.path)}; seed {rv.seed}; {rv.seconds:.1f} s.</small></p>
</body></html>
"""
