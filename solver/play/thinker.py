"""The thinking at a table, anywhere: a bot's decision and the advice that orders a person's
choices, as a function of the setup, the moves and the streams only (``ThinkRequest`` in, codes out),
so that a worker process gives the same answer as this one. A worker keeps its games between
requests (``_Thinker``); ``play_here`` plays a whole game in this process (scripts and tests)."""

from __future__ import annotations

from collections import OrderedDict

from solver.core.codes import PolicyId
from solver.game.actions import Action
from solver.game.advice import ranked_actions
from solver.game.rng import SplitMix64
from solver.game.roster import make_policy
from solver.game.search import DEFAULT_SAMPLES
from solver.io.catalog import load_catalog
from solver.io.paths import mission_path
from solver.play.tablegame import BOT, FORCED, PERSON, BrokenGame, Move, TableGame, TableSetup, ThinkRequest


class _Thinker:
    """A worker's games, kept between requests (a game's state moves on by the new moves only) and
    its players (their arrays and memories are built once per game)."""

    def __init__(self, keep: int = 64):
        self.games: OrderedDict[str, tuple[TableGame, dict, object]] = OrderedDict()
        self.keep = keep  # each live game is sent to one worker (studio/thinking.py): far more than it holds

    def forget(self, game_id: str) -> None:
        self.games.pop(game_id, None)

    def game(self, r: ThinkRequest) -> TableGame:
        held = self.games.get(r.setup.id)
        if held is not None:
            g = held[0]
            done = [m.action for m in g.moves]
            if g.setup == r.setup and tuple(done) == r.moves[:len(done)]:
                for code in r.moves[len(done):]:
                    seat = g.state.current_player()
                    g.apply(seat, Action.from_code(code), BOT)
                self.games.move_to_end(r.setup.id)
                return g
        moves = []
        probe = TableGame(r.setup)
        for code in r.moves:  # the seats of the moves, as the rules give them
            seat = probe.state.current_player()
            probe.apply(seat, Action.from_code(code), BOT)
            moves.append(Move(seat, code, BOT))
        samples = r.setup.samples or DEFAULT_SAMPLES
        self.games[r.setup.id] = (probe, {}, make_policy(r.setup.policy, samples))
        while len(self.games) > self.keep:
            self.games.popitem(last=False)
        return probe

    def think(self, r: ThinkRequest) -> tuple[list[int], int]:
        g = self.game(r)
        for rng, value in zip(g.state.seat_rngs, r.streams, strict=True):
            rng.state = int(value)
        _, bots, advisor = self.games[r.setup.id]
        st = g.state
        if st.is_over() or st.current_player() != r.seat:
            raise BrokenGame(f"seat {r.seat} is not to act in game {r.setup.id}")
        obs = st.observation(r.seat)
        if r.kind == "decide":
            policy, samples = (r.policy, r.samples) if r.policy else (r.setup.policy, r.setup.samples)
            key = (policy, samples or DEFAULT_SAMPLES)
            if key not in bots:  # a game's bots share one player (their memories are per seat)
                bots[key] = make_policy(*key)
            bot = bots[key]
            rng = SplitMix64(st.seat_rngs[r.seat].state)
            action = bot.act(obs, rng)
            return [action.code], rng.state
        ranked = ranked_actions(advisor, obs, st.seat_rngs[r.seat])
        return [a.code for a in ranked], st.seat_rngs[r.seat].state


_THINKER = _Thinker()


def think(request: ThinkRequest) -> tuple[list[int], int]:
    """A bot's decision ([code], its stream after it) or a person's advice (the legal codes best
    first, the stream untouched): the same answer in any process."""
    try:
        return _THINKER.think(request)
    except BaseException:
        _THINKER.forget(request.setup.id)  # asked again, the game is built afresh
        raise


def warm_up() -> None:
    """In a fresh worker: load what a bot's first decision needs (the compiled players, from the
    kernels' cache), so that the first person at a table does not wait for it."""
    setup = TableSetup("warm-up", "b01", "warm-up", mission_path("b01").read_text(encoding="utf-8"),
                       load_catalog().text, 2, (), PolicyId.SEARCH.label, 1, 1, 0, True)
    g = TableGame(setup)
    _Thinker(keep=1).think(g.think_request(BOT, g.state.current_player()))


def forget(game_id: str) -> None:
    """A game that has ended (or left this worker): what the worker kept for it is let go."""
    _THINKER.forget(game_id)


def play_here(g: TableGame, choose) -> TableGame:
    """Play ``g`` to its end in this process: the bots and the advice think here (as a worker
    would), each person answers ``choose(question)`` (a choice's number). For scripts and tests; the
    studio thinks in worker processes instead."""
    while (need := g.need()) is not None:
        kind, seat = need
        if kind == FORCED:
            g.apply(seat, g.state.legal_actions()[0], FORCED)
            continue
        if kind == PERSON:
            assert g.pending is not None
            g.apply(seat, g.answer(seat, choose(g.pending)), PERSON)
            continue
        codes, stream = think(g.think_request(kind, seat))
        if kind == BOT:
            g.apply(seat, Action.from_code(codes[0]), BOT, stream)
        else:
            g.ask(seat, codes)
    return g
