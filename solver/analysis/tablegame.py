"""A game at a table of people and bots, one question at a time: the studio's seats (SPEC,
`/api/games`). The terminal seat (`play --human`) asks the same questions (``human.question``).

The true state lives in ``TableGame.state`` and nowhere else. What a seat is sent is built by
``seat_view`` from that seat's ``Observation`` (its own hand, the public cards, the board, the
counters), the question it must answer now and the public facts of whose turn it is and how the
game ended: never from the state itself, so no other hand or set-aside card can reach a seat.

A game is a function of its record: the mission's and catalog's texts, players, seed, game,
the policy of the other seats and the people's seats, and the people's answers. The bots decide
with their own streams, deterministically, and a seat's advice ranks the choices with a copy of
its stream (``game/advice.py``), so the game is rebuilt exactly from its record after a restart.
The record (``ID.json``: the answers as action codes) and the game's log (``ID.jsonl``, format 2)
are written after every answer, in the games folder; nothing else is kept.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from solver.analysis.human import Question, question, seat_name
from solver.core.codes import PolicyId
from solver.core.errors import InputError, KakapoError
from solver.game.actions import Action, Phase
from solver.game.advice import ranked_actions
from solver.game.engine import log_events
from solver.game.roster import make_policy
from solver.game.search import DEFAULT_SAMPLES
from solver.game.seeds import game_seeds
from solver.game.state import GameState, Observation, deal, decision_card
from solver.io.catalog import load_catalog
from solver.io.gamelog import write_log
from solver.io.missionfile import load_mission
from solver.io.missionwrite import board_rows
from solver.io.records import catalog_text, mission_text

RECORD_FORMAT = 1


class AnswerError(ValueError):
    """An answer the question does not accept (said why; the question stays)."""


@dataclass
class TableGame:
    """One game of the studio: its record, its true state, and the question waiting, if any."""

    record: dict
    folder: Path
    state: GameState = field(init=False)
    pending: Question | None = field(default=None, init=False)
    pending_seat: int = field(default=-1, init=False)
    lock: threading.RLock = field(default_factory=threading.RLock, init=False, repr=False)

    def __post_init__(self) -> None:
        r = self.record
        self.catalog = load_catalog(f"game {r['id']} (its piece catalog)", r["pieces_text"])
        self.mission = load_mission(f"game {r['id']} (its mission)", self.catalog, text=r["mission_text"],
                                    mission_id=r["mission"])
        self.humans = tuple(sorted(r["human"]))
        samples = r.get("samples") or DEFAULT_SAMPLES
        self.bot = make_policy(r["policy"], samples)
        self.advisors = {s: make_policy(r["policy"], samples) for s in self.humans}
        self.state = deal(self.mission, self.catalog, r["players"], int(game_seeds(r["seed"], r["game"], 1)[0]))
        self._replaying = list(r["answers"])
        self.advance()

    # ------------------------------------------------------------ starting, saving, loading
    @classmethod
    def start(cls, folder: Path, mission, catalog, players: int, human: list[int], policy: str, seed: int,
              game: int, samples: int | None = None) -> TableGame:
        game_id = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
        record = {"format": RECORD_FORMAT, "id": game_id, "mission": mission.id, "name": mission.name,
                  "mission_text": mission_text(mission), "pieces_text": catalog_text(catalog), "players": players,
                  "human": sorted(set(human)), "policy": policy, "seed": seed, "game": game,
                  "samples": samples if policy == PolicyId.SEARCH.label else None,
                  "tokens": {str(s): secrets.token_urlsafe(18) for s in sorted(set(human))},
                  "answers": [], "created": time.strftime("%Y-%m-%dT%H:%M:%S")}
        folder.mkdir(parents=True, exist_ok=True)
        g = cls(record, folder)
        g.save()
        return g

    @classmethod
    def load(cls, path: Path) -> TableGame:
        """The game a record file holds, rebuilt by playing its answers again (InputError when the
        file is not a game record, or an answer is not legal where it stands)."""
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
                raise ValueError("not a game record of this version")
            return cls(record, path.parent)
        except InputError:
            raise
        except (KakapoError, OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise InputError(str(path), f"this game cannot be read again: {e}",
                             "leave it, or delete it (its log, ID.jsonl, keeps the rounds played)", None) from None

    @property
    def id(self) -> str:
        return self.record["id"]

    def record_path(self) -> Path:
        return self.folder / f"{self.id}.json"

    def log_path(self) -> Path:
        return self.folder / f"{self.id}.jsonl"

    def save(self) -> None:
        tmp = self.record_path().with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.record), encoding="utf-8")
        os.replace(tmp, self.record_path())  # never half a record
        write_log(self.log_path(), self.log())

    def log(self) -> list[dict]:
        r = self.record
        meta = {"seed": r["seed"], "game": r["game"], "policy": r["policy"]}
        if r["policy"] == PolicyId.SEARCH.label:
            meta["samples"] = r.get("samples") or DEFAULT_SAMPLES
        return log_events(self.state, {**meta, "human": list(self.humans)})

    def token_ok(self, seat: int, token: str | None) -> bool:
        expected = self.record["tokens"].get(str(seat))
        return bool(expected and token) and hmac.compare_digest(expected.encode(), str(token).encode())

    # ------------------------------------------------------------ playing
    def advance(self) -> None:
        """Play on until a person must decide (a question waits) or the game is over: the bots
        act, a person's forced moves are played for them, and a game read again from its record
        takes the person's recorded answers."""
        st = self.state
        while not st.is_over():
            seat = st.current_player()
            obs = st.observation(seat)
            if seat not in self.humans:
                st.apply(self.bot.act(obs, st.seat_rngs[seat]))
            elif len(obs.legal) == 1:
                st.apply(obs.legal[0])
            elif self._replaying:
                doc = self._replaying.pop(0)
                action = Action.from_code(int(doc.get("action", -1)))
                if action not in obs.legal or doc.get("seat") != seat:
                    raise InputError(f"game {self.id}", f"its record's answer {doc} is not legal where it stands "
                                     f"(round {st.round}, seat {seat})", "the record was edited: delete it", None)
                st.apply(action)
            else:  # the advice ranks with a copy of the seat's stream: asking moves nothing
                self.pending = question(obs, ranked_actions(self.advisors[seat], obs, st.seat_rngs[seat]))
                self.pending_seat = seat
                return

    def answer(self, seat: int, choice: int | None = None, cells: list[str] | None = None) -> None:
        """A person's answer: a choice's number (from 1) or a placement's cells. AnswerError when
        the seat has no question or the answer is not one."""
        with self.lock:
            q = self.pending
            if q is None or self.pending_seat != seat:
                raise AnswerError("it is not this seat's turn to decide" if self.result() is None
                                  else "the game is over")
            if (choice is None) == (cells is None):
                raise AnswerError("answer with a choice's number or with cells, not both")
            if choice is not None:
                if not 1 <= choice <= len(q.choices):
                    raise AnswerError(f"there is no choice {choice}: answer a number from 1 to {len(q.choices)}")
                action = q.actions[choice - 1]
            else:
                try:
                    action = q.by_cells(cells or [])
                except ValueError as e:
                    raise AnswerError(str(e)) from None
            self.record["answers"].append({"seat": seat, "action": action.code})
            self.pending, self.pending_seat = None, -1
            self.state.apply(action)
            self.advance()
            self.save()

    def result(self) -> dict | None:
        if not self.state.is_over():
            return None
        return self.log()[-1]

    def summary(self) -> dict:
        return {"id": self.id, "mission": self.record["mission"], "name": self.record["name"],
                "players": self.record["players"], "human": list(self.humans), "policy": self.record["policy"],
                "seed": self.record["seed"], "game": self.record["game"], "created": self.record.get("created"),
                "round": self.state.round, "result": (self.result() or {}).get("result"),
                "waiting_for": self.pending_seat if self.pending is not None else None}

    def view(self, seat: int) -> dict:
        """What seat ``seat`` is sent: ``seat_view`` of its own observation."""
        with self.lock:
            st = self.state
            q = self.pending if self.pending_seat == seat else None
            return seat_view(st.observation(seat), q, st.current_player(), self.result(), self.summary())


# ---------------------------------------------------------------- what a seat is sent
def seat_view(obs: Observation, q: Question | None, to_act: int, result: dict | None, game: dict) -> dict:
    """A seat's document (SPEC: seat, round, hand, question, result, and what the page draws),
    built from the seat's observation only."""
    me = obs.seat
    m = obs.mission
    in_charge = None
    if obs.phase in (Phase.SELECT, Phase.PLACE) or (obs.trick and len(obs.trick) == obs.spec.players):
        in_charge = decision_card(obs.trick, obs.trump)[0]
    moves = []
    for r in obs.history:
        moves += _round_moves(r.round, r.plays, r.in_charge, r.skill, r.pieces, r.placements, me)
    skill = obs.options[obs.option].skill if obs.option >= 0 else None  # this round's, once chosen
    moves += _round_moves(obs.round, obs.trick, in_charge, skill, (), obs.placed, me)
    return {
        "game": game["id"], "seat": me, "players": obs.spec.players, "human": game["human"],
        "policy": game["policy"],
        "mission": {"id": m.id, "name": m.name, "mode": m.mode, "clear": "all" if m.clear_all else m.clear,
                    "needed": m.clear, "rounds": obs.spec.rounds, "board": board_rows(m),
                    "placed": [p.to_json() for p in m.placed]},
        "round": obs.round, "rounds": obs.spec.rounds, "trump": str(obs.trump),
        "lead": None if obs.lead is None else str(obs.lead), "start_player": obs.start_player,
        "hand": [str(c) for c in obs.hand], "hand_sizes": list(obs.hand_sizes),
        "trick": [{"player": p, "card": str(c)} for p, c in obs.trick],
        "in_charge": in_charge, "to_act": None if to_act < 0 else to_act,
        "skills_left": obs.skills_left, "scanned": obs.board.scanned(),
        "pieces": [p.to_json() for p in obs.board.pieces.values()],
        "moves": moves,
        "question": None if q is None else question_json(q),
        "result": result,
    }


def _round_moves(rnd, plays, in_charge, skill, pieces, placements, me) -> list[dict]:
    out = [{"round": rnd, "seat": p, "text": f"{seat_name(p, me)} revealed {c}"} for p, c in plays]
    if in_charge is not None and len(plays):
        if skill is not None and skill.json:
            out.append({"round": rnd, "seat": in_charge,
                        "text": f"{seat_name(in_charge, me)} used the skill {skill.json.replace('_', ' ')}"})
        for p in placements:
            out.append({"round": rnd, "seat": in_charge,
                        "text": f"{seat_name(in_charge, me)} placed {p.card} at {' '.join(p.cell_names())}"})
        if len(pieces) > len(placements):
            out.append({"round": rnd, "seat": in_charge, "text": f"{pieces[-1]} fits nowhere"})
    return out


def question_json(q: Question) -> dict:
    obs = q.obs
    doc = {"kind": q.kind, "prompt": q.prompt, "choices": list(q.choices), "help": q.help}
    if q.kind == "card":
        doc["cards"] = [str(a.card) for a in q.actions]
    elif q.kind == "select":
        doc["pieces"] = [[str(c) for c in obs.options[a.index].pieces] for a in q.actions]
    else:
        doc["piece"] = str(obs.piece)
        doc["placements"] = [p.cell_names() for p in q.placements]
        doc["legal_places"] = len(obs.legal)
    return doc


# ---------------------------------------------------------------- the games folder
class Table:
    """The games of one folder (``DIR/games``), kept in memory once read; thread-safe."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._games: dict[str, TableGame] = {}
        self._broken: dict[str, str] = {}
        self._lock = threading.Lock()
        self._scanned = False

    def _scan(self) -> None:
        if self._scanned:
            return
        self._scanned = True
        if not self.folder.is_dir():
            return
        for path in sorted(self.folder.glob("*.json")):
            gid = path.stem
            try:
                self._games[gid] = TableGame.load(path)
            except InputError as e:
                self._broken[gid] = e.problem

    def start(self, mission, catalog, players: int, human: list[int], policy: str, seed: int, game: int,
              samples: int | None = None) -> TableGame:
        with self._lock:
            self._scan()
            g = TableGame.start(self.folder, mission, catalog, players, human, policy, seed, game, samples)
            self._games[g.id] = g
            return g

    def get(self, game_id: str) -> TableGame | None:
        with self._lock:
            self._scan()
            return self._games.get(game_id)

    def all(self) -> list[TableGame]:
        with self._lock:
            self._scan()
            return sorted(self._games.values(), key=lambda g: g.id)
