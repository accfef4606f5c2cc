"""A game at a table of people and bots, one question at a time: the studio's seats
(`/api/games`). The terminal seat (`play --human`) asks the same questions (``play/question.py``).

The true state lives in ``TableGame.state`` and nowhere else. What a seat is sent is built from
that seat's observation only (``play/seatview.py``): never from the state itself.

A game is its setup (``TableSetup``: what is played, by whom, on which deal) and its moves, every
action of every seat in order (``Move``), with the bots' random streams where they stand: the
state is rebuilt by dealing again and applying the moves, each checked against the rules. No
I/O here: the studio keeps setups and moves in its database and decides who thinks where.

The thinking itself (a bot's decision, the advice that orders a person's choices) is asked by a
``ThinkRequest`` and answered by ``play/thinker.py``, in any process.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.codes import PolicyId
from solver.core.errors import InputError, KakapoError
from solver.game.actions import Action, ActionKind
from solver.game.engine import log_events
from solver.game.roster import make_policy
from solver.game.search import DEFAULT_SAMPLES
from solver.game.seeds import game_seeds
from solver.game.state import GameState, deal
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.play.question import Question, question
from solver.play.seatview import seat_view

PERSON, BOT, FORCED = "person", "bot", "forced"  # who made a move: a person, a bot, or the rules (one legal move)
MAX_NAME = 40


class AnswerError(ValueError):
    """An answer the question does not accept (said why; the question stays)."""


class StaleAnswer(AnswerError):
    """An answer to a question that is no longer the one asked (answered already, or never asked)."""


class BrokenGame(KakapoError):
    """A game that cannot be rebuilt from its moves (damaged, or refused by this version's rules)."""


@dataclass(frozen=True)
class TableSetup:
    """What a game is played on and by whom, fixed when it starts. ``known_deal``: the host chose
    the seed (anyone who knows it knows the hands); otherwise it came from the system's randomness."""

    id: str
    mission_id: str
    name: str
    mission_text: str
    pieces_text: str
    players: int
    humans: tuple[int, ...]
    policy: str
    samples: int | None
    seed: int
    game: int
    known_deal: bool
    names: tuple[tuple[int, str], ...] = ()
    created: str = ""

    def name_of(self, seat: int) -> str:
        return dict(self.names).get(seat) or f"player {seat}"

    def bot_label(self) -> str:
        return policy_label(self.policy, self.samples)

    def game_seed(self) -> int:
        return int(game_seeds(self.seed, self.game, 1)[0])


@dataclass(frozen=True)
class Move:
    seat: int
    action: int  # Action.code
    by: str  # PERSON, BOT or FORCED


@dataclass(frozen=True)
class Handover:
    """Someone left the table or came back: from move ``move + 1`` on, ``seat`` is played by a bot
    (``policy``, ``samples``) or, ``to_bot`` False, by a person again (on a new link)."""

    move: int
    seat: int
    to_bot: bool
    policy: str | None = None
    samples: int | None = None


def bot_name(label: str) -> str:
    """How a log's ``names`` calls a seat a bot played (its ``human`` seats are the people's)."""
    return f"bot ({label})"


def policy_label(policy: str, samples: int | None) -> str:
    return f"search-{samples or DEFAULT_SAMPLES}" if policy == PolicyId.SEARCH.label else policy


@dataclass
class TableGame:
    """One game: its setup, its true state rebuilt from its moves, and the question waiting."""

    setup: TableSetup
    moves: list[Move] = field(default_factory=list)
    streams: list[int] | None = None  # every seat's random stream where it stands (None: as dealt)
    play_forced: dict[int, bool] = field(default_factory=dict)  # a person's forced moves played for them
    handovers: list[Handover] = field(default_factory=list)  # seats handed to a bot or back, in order
    state: GameState = field(init=False)
    pending: Question | None = field(default=None, init=False)
    pending_seat: int = field(default=-1, init=False)

    def __post_init__(self) -> None:
        s = self.setup
        try:
            self.catalog = load_catalog(f"game {s.id} (its piece catalog)", s.pieces_text)
            self.mission = load_mission(f"game {s.id} (its mission)", self.catalog, text=s.mission_text,
                                        mission_id=s.mission_id)
            self.state = deal(self.mission, self.catalog, s.players, s.game_seed())
        except InputError as e:
            raise BrokenGame(f"its mission or catalog no longer reads: {e.problem}") from None
        moves, self.moves = list(self.moves), []
        self.move_rounds: list[int] = []  # the round each move was made in
        for k, m in enumerate(moves, start=1):
            if self.state.is_over():
                raise BrokenGame(f"move {k} comes after the end of the game")
            seat = self.state.current_player()
            if m.seat != seat or Action.from_code(m.action) not in self.state.legal_actions():
                raise BrokenGame(f"move {k} ({m.by} at seat {m.seat}) is not legal where it stands "
                                 f"(round {self.state.round}, seat {seat} to act)")
            self.move_rounds.append(self.state.round)
            self.state.apply(Action.from_code(m.action))
            self.moves.append(m)
        if self.streams is not None:
            if len(self.streams) != s.players:
                raise BrokenGame("its random streams do not match its table")
            for rng, value in zip(self.state.seat_rngs, self.streams, strict=True):
                rng.state = int(value)

    # ------------------------------------------------------------ what happens next
    @property
    def id(self) -> str:
        return self.setup.id

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play now (the setup's, less those handed to a bot, plus those given back)."""
        return tuple(s for s in range(self.setup.players) if self.controller(s)[0])

    def controller(self, seat: int) -> tuple[bool, str, int | None]:
        """Who plays ``seat`` now: (a person?, the bot's policy, its samples)."""
        person, policy, samples = seat in self.setup.humans, self.setup.policy, self.setup.samples
        for h in self.handovers:
            if h.seat == seat:
                person = not h.to_bot
                if h.to_bot:
                    policy, samples = h.policy or policy, h.samples
        return person, policy, samples

    def hand_over(self, seat: int, to_bot: bool, policy: str | None = None, samples: int | None = None) -> Handover:
        """The seat to a bot or back to a person, from the next move on (not stored: the caller
        stores it, then ``adopt_handover``)."""
        if not 0 <= seat < self.setup.players:
            raise AnswerError(f"there is no seat {seat} at this table of {self.setup.players}")
        if self.state.is_over():
            raise AnswerError("the game is over")
        person = self.controller(seat)[0]
        if to_bot and not person:
            raise AnswerError(f"seat {seat} is played by a bot already")
        if not to_bot and person:
            raise AnswerError(f"seat {seat} is played by a person already")
        return Handover(len(self.moves), seat, to_bot, policy if to_bot else None, samples if to_bot else None)

    def adopt_handover(self, h: Handover) -> None:
        self.handovers.append(h)
        if self.pending_seat == h.seat:
            self.pending, self.pending_seat = None, -1

    def forced_for(self, seat: int) -> bool:
        """Whether a person's forced moves are played for them: their own choice, else only when
        they are the one person at the table (no other person could read anything in it)."""
        return self.play_forced.get(seat, len(self.humans) == 1)

    def need(self) -> tuple[str, int] | None:
        """What the game waits for: ("bot", seat) a bot's decision, ("forced", seat) a person's only
        legal move to play for them, ("advice", seat) the ordering of a person's choices, ("person",
        seat) the person's answer; None once the game is over."""
        st = self.state
        if st.is_over():
            return None
        seat = st.current_player()
        if seat not in self.humans:
            return (BOT, seat)
        if len(st.legal_actions()) == 1 and self.forced_for(seat):
            return (FORCED, seat)
        return (PERSON, seat) if self.pending is not None else ("advice", seat)

    def apply(self, seat: int, action: Action, by: str, stream: int | None = None) -> None:
        """Apply a move of ``seat`` (checked: its turn, a legal action); ``stream``: the seat's random
        stream after a bot's decision."""
        self.adopt(self.next_state(seat, action, stream), Move(seat, action.code, by))

    def next_state(self, seat: int, action: Action, stream: int | None = None) -> GameState:
        """The state after a move of ``seat`` (checked: its turn, a legal action), on a copy: this
        game is unchanged until ``adopt`` (so that a move is stored before anyone sees it)."""
        st = self.state
        if st.is_over() or st.current_player() != seat or action not in st.legal_actions():
            raise AnswerError(f"{action} is not a legal move of seat {seat} now")
        after = st.clone()
        after.apply(action)
        if stream is not None:
            after.seat_rngs[seat].state = int(stream)
        return after

    def adopt(self, after: GameState, move: Move) -> None:
        self.move_rounds.append(self.state.round)
        self.state = after
        self.moves.append(move)
        self.pending, self.pending_seat = None, -1

    def ask(self, seat: int, ranked_codes: list[int]) -> Question:
        """The person's question, its choices in the advised order."""
        obs = self.state.observation(seat)
        ranked = [Action.from_code(c) for c in ranked_codes]
        if sorted(a.code for a in ranked) != sorted(a.code for a in obs.legal):
            raise AnswerError("the advice does not list this seat's legal moves")
        self.pending, self.pending_seat = question(obs, ranked), seat
        return self.pending

    def think_request(self, kind: str, seat: int) -> ThinkRequest:
        """What a worker needs to decide for the bot in ``seat`` (``kind`` BOT) or to order the
        choices of the person there ("advice")."""
        _, policy, samples = self.controller(seat)
        handed = (kind == BOT and seat in self.setup.humans) or policy != self.setup.policy \
            or samples != self.setup.samples
        return ThinkRequest("decide" if kind == BOT else "advice", seat, self.setup,
                            tuple(m.action for m in self.moves), tuple(self.streams_now()),
                            policy if handed else None, samples if handed else None)

    def question_id(self) -> int:
        """The id of the question asked now: the number of the move it decides (new for each)."""
        return len(self.moves) + 1

    def answer(self, seat: int, choice: int | None = None, cells: list[str] | None = None,
               question_id: int | None = None) -> Action:
        """A person's answer as an action (not applied): a choice's number (from 1) or a placement's
        cells. StaleAnswer when ``question_id`` is not the question asked now; AnswerError when the
        seat has no question or the answer is not one."""
        q = self.pending
        if question_id is not None and (q is None or self.pending_seat != seat or question_id != self.question_id()):
            raise StaleAnswer(f"question {question_id} is not the one asked now"
                              + (f" (question {self.question_id()} is)" if q is not None and self.pending_seat == seat
                                 else ""))
        if q is None or self.pending_seat != seat:
            raise AnswerError("it is not this seat's turn to decide" if self.result() is None else "the game is over")
        if (choice is None) == (cells is None):
            raise AnswerError("answer with a choice's number or with cells, not both")
        if choice is not None:
            if not 1 <= choice <= len(q.choices):
                raise AnswerError(f"there is no choice {choice}: answer a number from 1 to {len(q.choices)}")
            return q.actions[choice - 1]
        try:
            return q.by_cells(cells or [])
        except ValueError as e:
            raise AnswerError(str(e)) from None

    # ------------------------------------------------------------ what it says
    def streams_now(self, state: GameState | None = None) -> list[int]:
        return [rng.state for rng in (state or self.state).seat_rngs]

    def log(self, state: GameState | None = None, moves: list[Move] | None = None) -> list[dict]:
        """The game's log (of ``state`` after ``moves``: by default this game's own). Once someone
        has left the table (or come back), the setup line names who played each seat (``seats``:
        the people and bots in turn, from which move), and a move made by a bot in a person's seat,
        or by a person in a bot's, says ``"by"``."""
        s = self.setup
        state = state or self.state
        moves = self.moves if moves is None else moves
        meta: dict = {"seed": s.seed, "game": s.game, "policy": s.policy}
        if s.policy == PolicyId.SEARCH.label:
            meta["samples"] = s.samples or DEFAULT_SAMPLES
        names = self.logged_names()
        if names:
            meta["names"] = names
        events = log_events(state, {**meta, "human": list(s.humans)})
        if self.handovers:  # else "human" and "policy" say who played each seat
            events[0]["seats"] = self.seats_played()
            rounds_of = self.move_rounds + [self.state.round] * (len(moves) - len(self.move_rounds))  # a move ahead
            _mark_who_played(events, moves, rounds_of, s.humans)
        return events

    def logged_names(self) -> dict[str, str]:
        """Who played each seat, as the log's ``names`` says it: the people by the names the host
        gave them (a person left unnamed: no entry), each bot seat labelled ``bot (POLICY)``."""
        s = self.setup
        named = dict(s.names)
        out = {}
        for seat in range(s.players):
            if seat in s.humans:
                if named.get(seat):
                    out[str(seat)] = named[seat]
            else:
                out[str(seat)] = bot_name(s.bot_label())
        return out

    def seats_played(self) -> list[dict]:
        """Who played each seat, in turn: [{"seat", "name", "played_by": [{"by", "policy",
        "from_move"}, ...]}] (``from_move``: the first move, from 1, made under that hand)."""
        out = []
        for seat in range(self.setup.players):
            person = seat in self.setup.humans
            turns: list[dict] = [{"by": PERSON if person else BOT, "policy": None if person else self.setup.bot_label(),
                                  "from_move": 1}]
            for h in self.handovers:
                if h.seat == seat:
                    label = policy_label(h.policy or self.setup.policy, h.samples) if h.to_bot else None
                    turns.append({"by": BOT if h.to_bot else PERSON, "policy": label,
                                  "from_move": h.move + 1})
            out.append({"seat": seat, "name": self.setup.name_of(seat), "played_by": turns})
        return out

    def result(self) -> dict | None:
        if not self.state.is_over():
            return None
        return self.log()[-1]

    def players_json(self) -> list[dict]:
        """Who plays each seat now; ``handed``: not whom the game started with (someone left, or
        came back to a seat a bot played)."""
        s = self.setup
        out = []
        for k in range(s.players):
            person, policy, samples = self.controller(k)
            out.append({"seat": k, "name": s.name_of(k), "bot": not person,
                        "policy": None if person else policy_label(policy, samples),
                        "handed": person != (k in s.humans)})
        return out

    def view(self, seat: int, thinking: bool = False) -> dict:
        """What seat ``seat`` is sent: ``seat_view`` of its own observation."""
        st = self.state
        q = self.pending if self.pending_seat == seat else None
        doc = seat_view(st.observation(seat), q, st.current_player(), self.result(), self.public_summary())
        doc["players"] = self.players_json()
        doc["thinking"] = thinking
        doc["play_forced"] = self.forced_for(seat)
        if q is not None:
            doc["question"]["id"] = self.question_id()
        return doc

    def public_summary(self) -> dict:
        """What anyone at the table may know of the game: no seed and nothing else of the deal
        before the end (the seed and game number, which rebuild the deal, once it is over)."""
        s = self.setup
        over = self.state.is_over()
        doc = {"id": s.id, "mission": s.mission_id, "name": s.name, "players": s.players, "human": list(s.humans),
               "names": {str(k): v for k, v in s.names}, "policy": s.policy, "samples": s.samples,
               "created": s.created, "known_deal": s.known_deal, "round": self.state.round,
               "result": (self.result() or {}).get("result"),
               "waiting_for": None if over or self.state.current_player() not in self.humans
               else self.state.current_player(), "seats": self.players_json()}
        if over:
            doc.update({"seed": s.seed, "game": s.game})
        return doc


@dataclass(frozen=True)
class ThinkRequest:
    """A bot's decision (``kind`` "decide") or a person's advice ("advice") at one moment of a
    game: everything the answer depends on, so that a worker process can give it."""

    kind: str
    seat: int
    setup: TableSetup
    moves: tuple[int, ...]  # action codes, in order
    streams: tuple[int, ...]
    policy: str | None = None  # the deciding bot's (None: the table's), for a seat handed to a bot
    samples: int | None = None


def replay_record(record: dict) -> tuple[TableSetup, list[Move], list[int], dict[str, str]]:
    """A game record of the studio's earlier versions (``games/ID.json``, format 1: the people's
    answers only) as a setup, every move, the streams and the seat tokens, by playing the bots
    again as that version did. BrokenGame when it cannot be."""
    try:
        humans = tuple(sorted(int(s) for s in record["human"]))
        setup = TableSetup(str(record["id"]), str(record["mission"]), str(record.get("name") or record["mission"]),
                           str(record["mission_text"]), str(record["pieces_text"]), int(record["players"]), humans,
                           str(record["policy"]), record.get("samples"), int(record["seed"]), int(record["game"]),
                           True, (), str(record.get("created") or ""))
        tokens = {str(k): str(v) for k, v in dict(record["tokens"]).items()}
        answers = list(record["answers"])
        g = TableGame(setup)
    except BrokenGame:
        raise
    except (KakapoError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise BrokenGame(f"not a game record this version reads ({type(e).__name__})") from None
    bot = make_policy(setup.policy, setup.samples or DEFAULT_SAMPLES)
    while True:
        st = g.state
        if st.is_over():
            break
        seat = st.current_player()
        obs = st.observation(seat)
        if seat not in humans:
            rng = st.seat_rngs[seat]
            g.apply(seat, bot.act(obs, rng), BOT, rng.state)
        elif len(obs.legal) == 1:
            g.apply(seat, obs.legal[0], FORCED)
        elif answers:
            doc = answers.pop(0)
            try:
                action = Action.from_code(int(doc.get("action", -1)))
            except (ValueError, TypeError, AttributeError):
                raise BrokenGame(f"its answer {str(doc)[:60]} is not an action") from None
            if action not in obs.legal or doc.get("seat") != seat:
                raise BrokenGame(f"its answer {str(doc)[:60]} is not legal where it stands (round {st.round}, "
                                 f"seat {seat})")
            g.apply(seat, action, PERSON)
        else:
            break
    return setup, g.moves, g.streams_now(), tokens


def _mark_who_played(events: list[dict], moves: list[Move], rounds_of: list[int], humans: tuple[int, ...]) -> None:
    """``"by"`` on the plays and placements (and ``"skill_by"`` on the round) a bot made in a
    person's seat, or a person in a bot's: a round's moves in order are its plays, its choice and
    its placements in order."""
    rounds = {e["round"]: e for e in events if e.get("event") == "round"}
    seen: dict[tuple[int, ActionKind], int] = {}
    for m, rnd in zip(moves, rounds_of, strict=False):
        kind = Action.from_code(m.action).kind
        k = seen.get((rnd, kind), 0)
        seen[(rnd, kind)] = k + 1
        e = rounds.get(rnd)
        if e is None or not ((m.by == BOT and m.seat in humans) or (m.by == PERSON and m.seat not in humans)):
            continue
        if kind == ActionKind.REVEAL and k < len(e["plays"]):
            e["plays"][k]["by"] = m.by
        elif kind == ActionKind.PLACE and k < len(e["placements"]):
            e["placements"][k]["by"] = m.by
        elif kind == ActionKind.SELECT:
            e["skill_by"] = m.by
