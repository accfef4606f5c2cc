"""The command line in this process (click's runner), and logs of games its bots play."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from solver.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def bot_logs(folder: Path, mission: str, policy: str, games: int, seed: int = 9, players: int | None = None):
    out = []
    for i in range(games):
        path = folder / f"{mission}-{policy}-{i}.jsonl"
        extra = ["--players", players] if players else []
        res = run("play", mission, "--policy", policy, "--seed", seed, "--game", i, "--log", path, *extra)
        assert res.exit_code in (0, 1), res.output
        out.append(path)
    return out

