"""Long commands report progress (on a terminal only), without changing any number."""

import numpy as np
from click.testing import CliRunner

from solver.analysis.simulate import play_games
from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from tests.helpers.paths import ROOT


def test_play_games_reports_progress_and_the_same_games():
    catalog = load_catalog()
    m = load_mission(ROOT / "tests/missions/buddy/b04.toml", catalog)
    seen = []
    with_bar = play_games(m, catalog, 2, 3000, 5, "heuristic", "numba", 2, progress=lambda d, t: seen.append((d, t)))
    plain = play_games(m, catalog, 2, 3000, 5, "heuristic", "numba", 1)
    assert np.array_equal(with_bar.results, plain.results) and np.array_equal(with_bar.traces, plain.traces)
    assert seen[-1] == (3000, 3000) and [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) > 1


def test_no_bar_when_not_a_terminal():
    res = CliRunner().invoke(main, ["simulate", str(ROOT / "tests/missions/buddy/b01.toml"), "--games", 500])
    assert res.exit_code == 0 and "[#" not in res.output and "games/s" in res.output
