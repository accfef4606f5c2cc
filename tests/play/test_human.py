"""The human seat (docs/reference.md, "Playing a seat yourself"): `play --human SEAT` in plain mode, driven by
scripts."""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.core.cards import Card
from solver.game.engine import play_game
from solver.game.resume import replay
from solver.game.roster import make_policy
from solver.game.seeds import game_seeds
from solver.io.gamelog import read_log
from solver.play import terminal as human
from tests.helpers.games import lines, mission_of
from tests.helpers.paths import ROOT
from tests.helpers.referee import referee

QUESTION = re.compile(r"^\? (.*) \[1-(\d+)\]$")
CHOICE = re.compile(r"^(\d+)\) (.*)$")


class Player:
    """Standard input that answers the last question printed: wrong answers first, then choices
    drawn at random (placements by their cells now and then)."""

    def __init__(self, out: io.StringIO, seed: int, stop_after: int | None = None, best: bool = False):
        self.out, self.rng, self.stop_after, self.best = out, random.Random(seed), stop_after, best
        self.asked = 0
        self.wrong: list[tuple[str, str]] = []  # (answer, the line that answered it)
        self.seen = 0

    def isatty(self):
        return False

    def readline(self):
        text = self.out.getvalue().splitlines()
        if self.wrong and self.wrong[-1][1] is None:  # what was said to the last wrong answer
            self.wrong[-1] = (self.wrong[-1][0], next(x for x in text[self.seen:] if x.startswith("! ")))
        self.seen = len(text)
        q = max(i for i, x in enumerate(text) if x.startswith("? "))
        kind, n = QUESTION.match(text[q]).groups()
        choices = [CHOICE.match(x).group(2) for x in text[q + 1:]]
        assert len(choices) == int(n) and all(CHOICE.match(x) for x in text[q + 1:])
        self.asked += 1
        if self.stop_after is not None and self.asked > self.stop_after:
            return ""  # end of input
        if self.asked in (1, 3):
            answer = {1: "0", 3: "seven"}[self.asked]
            self.wrong.append((answer, None))
            return answer + "\n"
        if "where does" in kind and not self.best:
            if not any(w[0] == "a1 l12 c3" for w in self.wrong):
                self.wrong.append(("a1 l12 c3", None))
                return "a1 l12 c3\n"
            if self.rng.random() < 0.5:  # by its cells, written in another order
                cells = choices[self.rng.randrange(len(choices))].split("  (")[0].split()
                return ", ".join(reversed(cells)) + "\n"
        return "1\n" if self.best else f"{self.rng.randrange(len(choices)) + 1}\n"


def play_scripted(monkeypatch, tmp_path, args, seed=0, stop_after=None, best=False):
    out = io.StringIO()
    player = Player(out, seed, stop_after, best)
    monkeypatch.setattr(human, "console_for", lambda: human.Console(player, out, plain=True))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    return result, out.getvalue(), player


@pytest.mark.parametrize("mission,players,seats,seed", [("b05", 2, "0", 1), ("p11", 3, "1", 2), ("p01", 4, "0,2", 3)])
def test_scripted_games_are_legal_and_logged(monkeypatch, tmp_path, catalog, mission, players, seats, seed):
    result, out, player = play_scripted(monkeypatch, tmp_path, ["play", mission, "--players", players,
                                                                "--human", seats, "--seed", seed], seed)
    assert result.exit_code in (0, 1), result.output
    log = tmp_path / f"{mission}-game-1.jsonl"  # the default log, in the current folder
    events = lines(log)
    m = mission_of(mission, catalog)
    referee(events, m, catalog)
    assert events[-1]["result"] == ("cleared" if result.exit_code == 0 else events[-1]["result"])
    assert events[0]["human"] == [int(s) for s in seats.split(",")] and events[0]["policy"] == "planner"
    assert replay(read_log(log), m, catalog).result() == events[-1]["result"]
    # every wrong answer was said why, and asked again
    assert [w for w, _ in player.wrong][:2] == ["0", "seven"] and all(said for _, said in player.wrong)
    assert "there is no choice 0" in player.wrong[0][1] and "'seven' is not a choice" in player.wrong[1][1]
    shape = [s for w, s in player.wrong if w == "a1 l12 c3"]
    assert not shape or "is not the shape of" in shape[0]
    # the person sees only the seats named: no other hand, ever
    hands = events[0]["hands"]
    mine = {c for k in map(int, seats.split(",")) for c in hands[k]}
    for line in out.splitlines():
        if line.startswith("your hand"):
            assert {Card.parse(c).__str__() for c in line.split(": ")[1].split()} <= mine
    assert "holds" not in out and "set aside" not in out
    # every card offered was a legal card of the hand then shown
    shown = None
    for i, line in enumerate(out.splitlines()):
        if line.startswith("your hand"):
            shown = set(line.split(": ")[1].split())
        if line.startswith("? ") and "which card" in line:
            offered = [CHOICE.match(x).group(2).split("  piece ")[0] for x in out.splitlines()[i + 1:]
                       if CHOICE.match(x)]
            k = int(QUESTION.match(line).group(2))
            assert set(offered[:k]) <= shown


def test_end_of_input_keeps_the_log_and_the_game_goes_on_from_it(monkeypatch, tmp_path, catalog):
    result, _, _ = play_scripted(monkeypatch, tmp_path, ["play", "b05", "--human", "1", "--log", "mine.jsonl"],
                                   stop_after=9, best=True)
    assert result.exit_code == 130 and "Traceback" not in result.output
    assert "game ended at the end of input" in result.output and "--from mine.jsonl --human 1" in result.output
    log = read_log(tmp_path / "mine.jsonl")
    assert log.end is None and len(log.rounds_logged) >= 1
    state = replay(log, mission_of("b05", catalog), catalog)
    assert state.round == len(log.rounds_logged) + 1
    # the same command goes on from the log; the new game holds the rounds played
    result, _out, _ = play_scripted(monkeypatch, tmp_path, ["play", "--from", "mine.jsonl", "--human", "1",
                                                           "--log", "mine2.jsonl"], seed=5)
    assert result.exit_code in (0, 1)
    events = lines(tmp_path / "mine2.jsonl")
    referee(events, mission_of("b05", catalog), catalog)
    assert events[1:1 + len(log.rounds_logged)] == lines(tmp_path / "mine.jsonl")[1:]


def test_wrong_seats_and_the_open_hand_team_are_refused(tmp_path):
    for args, words in ((["--human", "2"], "'2' is not a seat"), (["--human", "0,0"], "named twice"),
                        (["--human", "x"], "is not a seat"),
                        (["--human", "0", "--policy", "open-hand"], "cannot share")):
        r = CliRunner().invoke(main, ["play", "b01", *args, "--log", str(tmp_path / "g.jsonl")])
        assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output


def test_a_log_is_never_overwritten(monkeypatch, tmp_path):
    (tmp_path / "b01-game-1.jsonl").write_text("mine\n")
    result, _, _ = play_scripted(monkeypatch, tmp_path, ["play", "b01", "--human", "0"], stop_after=3)
    assert result.exit_code == 130
    assert (tmp_path / "b01-game-1.jsonl").read_text() == "mine\n"
    assert read_log(tmp_path / "b01-game-2.jsonl").mission == "b01"


def test_ctrl_c_and_end_of_input_in_a_real_process(tmp_path):
    """The command itself, with a pipe for standard input: Ctrl-C at a question, then end of input."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, str(ROOT / "cli.py"), "play", "b01", "--human", "0", "--log", "g.jsonl"]
    p = subprocess.Popen(cmd, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    assert p.stdout is not None and p.stdin is not None
    answered = 0
    while answered < 4:
        line = p.stdout.readline()
        assert line, p.stderr.read() if p.stderr else ""
        m = QUESTION.match(line.rstrip("\n"))
        if m:
            answered += 1
            if answered < 4:
                p.stdin.write("1\n")
                p.stdin.flush()
    time.sleep(0.2)  # at the fourth question: waiting for an answer
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130 and "Traceback" not in err and "by Ctrl-C" in err
    assert read_log(tmp_path / "g.jsonl").mission == "b01"
    done = subprocess.run([*cmd[:-1], "g2.jsonl"], cwd=tmp_path, input="1\n1\n", capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 130 and "Traceback" not in done.stderr and "end of input" in done.stderr
    assert json.loads((tmp_path / "g2.jsonl").read_text().splitlines()[0])["human"] == [0]


class Keyboard:
    """A terminal's standard input: Enter at every question."""

    def __init__(self):
        self.reads = 0

    def isatty(self):
        return True

    def readline(self):
        self.reads += 1
        return "\n" if self.reads < 60 else ""


def test_in_a_terminal_enter_takes_the_first_choice_and_placements_are_drawn(monkeypatch, tmp_path, catalog):
    out = io.StringIO()
    keys = Keyboard()
    monkeypatch.setattr(human, "console_for", lambda: human.Console(keys, out, plain=False))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "b05", "--human", "0,1", "--log", "t.jsonl"])
    text = out.getvalue()
    assert result.exit_code in (0, 1, 130) and "Traceback" not in result.output
    assert "> " in text and "! " not in text  # Enter is an answer in a terminal
    if "where does" in text:
        assert "1)   a " in text or re.search(r"^1\) +[a-l] ", text, re.M)  # the small boards, numbered
        assert re.search(r"\[[rygbp]\]", text)
    events = lines(tmp_path / "t.jsonl")
    # every seat human, every answer the first choice (the advisor's): the game the planner plays alone
    if events[-1]["event"] == "end":
        seed = int(game_seeds(1, 0, 1)[0])
        alone = play_game(mission_of("b05", catalog), catalog, 2, seed, make_policy("planner"), log=True)
        assert events[1:] == alone.events[1:]


@pytest.mark.parametrize("name,mission_id,players", [("heuristic", "p11", 3), ("planner", "b16", 2)])
def test_advice_ranks_every_choice_by_what_the_policy_judges_it(catalog, name, mission_id, players):
    """ranked_actions: every legal action once, the policy's own choice first (its stream left as it
    was), then cards by the key the card choice compares, options by their value, places by their
    score, best first; the policy's choice is a best by that measure."""
    from solver.game.actions import Phase
    from solver.game.advice import place_scores, ranked_actions
    from solver.game.engine import seat_policies
    from solver.game.state import deal

    mission = mission_of(mission_id, catalog)
    policy = make_policy(name)
    kinds = set()
    for seed in game_seeds(5, 0, 3):
        state = deal(mission, catalog, players, int(seed))
        seats = seat_policies(policy, players)
        while not state.is_over():
            seat = state.current_player()
            obs = state.observation(seat)
            rng = state.seat_rngs[seat]
            before = rng.state
            ranked = ranked_actions(policy, obs, rng)
            assert rng.state == before and sorted(ranked) == sorted(obs.legal)
            chosen = seats[seat].act(obs, rng)
            assert ranked[0] == chosen
            if obs.phase == Phase.REVEAL:
                keys = dict(zip(obs.legal, policy.card_keys(obs, [a.card for a in obs.legal]), strict=True))
            elif obs.phase == Phase.SELECT:
                keys = dict(zip(obs.legal, policy.option_values(obs, list(obs.options)), strict=True))
            else:
                keys = dict(zip(obs.legal, place_scores(policy, obs), strict=True))
            rest = [keys[a] for a in ranked[1:]]
            assert rest == sorted(rest, reverse=True), (obs.phase, rest)
            if obs.phase != Phase.PLACE:  # a placement may be chosen against its score (dead ends, fillers)
                assert keys[chosen] == max(keys.values())
            kinds.add(obs.phase)
            state.apply(chosen)
    assert kinds == {Phase.REVEAL, Phase.SELECT, Phase.PLACE}


def test_forced_moves_are_said_and_help_is_given(monkeypatch, tmp_path):
    """As the human seat is documented: a question with a single legal answer is not asked (a '= ' line says
    what was played); '?' and 'help' explain the question and ask it again; players are 'you' and
    'player N', never 'P1' (which the board uses for the piece purple-1)."""
    out = io.StringIO()
    answers = iter(["?", "help"])

    class Asker(Player):
        def readline(self):
            extra = next(answers, None)
            return extra + "\n" if extra else "1\n"

    monkeypatch.setattr(human, "console_for", lambda: human.Console(Asker(out, 0), out, plain=True))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "b05", "--human", "0", "--seed", "1"])
    assert result.exit_code in (0, 1), result.output
    text = out.getvalue().splitlines()
    questions = [x for x in text if x.startswith("? ")]
    assert questions and all(not x.endswith("[1-1]") for x in questions)
    assert all("best first" in x and "? for help" in x for x in questions)
    forced = [x for x in text if x.startswith("= ")]
    assert forced and all("you (player 0)" in x for x in forced)
    helped = [i for i, x in enumerate(text) if x.startswith("# ")]
    assert len(helped) >= 4 and text[helped[-1] + 1] == questions[0]  # asked again after the help
    assert not any(re.search(r"\bP\d\b", x) for x in text if not x[:4].strip().isdigit())  # board rows aside
    assert any(x.startswith("legend: ") for x in text)
    events = lines(tmp_path / "b05-game-1.jsonl")
    me = sum(1 for e in events[1:-1] for p in e["plays"] if p["player"] == 0)
    assert me > 0


def test_the_pieces_command_draws_the_catalog(tmp_path, catalog):
    res = CliRunner().invoke(main, ["pieces", "--json"])
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert len(doc) == 40 and [d["piece"] for d in doc] == [str(c) for c in catalog]
    for d in doc:
        shape = catalog[Card.parse(d["piece"])]
        assert d["shape"] == shape.format() and d["cells"] == len(shape.cells)
    res = CliRunner().invoke(main, ["pieces", "--png", str(tmp_path / "p.png")])
    assert res.exit_code == 0 and (tmp_path / "p.png").stat().st_size > 1000
    assert "purple-8" in res.output and "#" in res.output
