"""`kakapo generate`: new valid, solvable missions whose measured clear rate lies in a band.

A candidate is drawn at random (birds of a few shapes, coloured sides, sometimes a decoy,
pieces placed before play, other rounds or skills), written as TOML and read back through
the mission parser, solved (it must be solvable within what its rounds can select) and
measured with a few hundred games of the policy. Then it is steered: above the band it gets
a change that makes it harder (a coloured side, a bird, a higher ``clear``, a pre-placed
piece or a round or a skill counter less), below the band one that makes it easier, and it
is measured again; inside the band it is confirmed with more games. After a number of steps
without success the search starts from a new candidate. Every choice comes from the seed and
every budget is a count, so the same command writes the same missions.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from solver.analysis.simulate import play_games
from solver.core.board import SIZE, all_positions, cell, col_of, row_of
from solver.core.cards import ALL_CARDS, Colour
from solver.core.errors import InputError, KakapoError
from solver.core.rules import (
    Bird,
    Board,
    Mission,
    Placement,
    blocked_reason,
    mask_of,
)
from solver.core.spec import MODE_RULES, max_rounds
from solver.core.stats import wilson
from solver.game.planner import planner_library
from solver.io.missionfile import load_mission
from solver.io.missionwrite import mission_toml
from solver.io.paths import MISSIONS
from solver.io.safefiles import write_output
from solver.puzzle.cpsat import solve

BIRD_SHAPES = [
    [(0, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (1, 1)],
    [(0, 0), (0, 1), (1, 1)], [(0, 0), (0, 1), (0, 2), (1, 1)], [(0, 0), (1, 0), (2, 0), (2, 1)],
    [(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 0), (1, 0), (1, 1), (2, 1)], [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
]
NAMES = ["Morning call", "Fern gully", "Twin perches", "Moss bank", "Rimu grove", "Night shift", "Kiwi crossing",
         "Tussock ridge", "Rata bloom", "Stream bend", "Cloud forest", "Owl hour", "Beech mast", "Bellbird song",
         "Sandy cove", "Misty hollow", "Takahe meadow", "Kea lookout", "Tui chorus", "Long night", "Southern lights",
         "Fiordland", "Stewart island", "Codfish island", "Whenua hou", "Last light", "Dawn chorus",
         "Booming season", "Feeding station", "Nesting burrow", "Lek arena", "Track and bowl", "Green feathers"]
BIRDS = ["a kakapo", "two kakapo", "a takahe", "a kea", "a little spotted kiwi", "a kokako", "a whio", "a hihi",
         "a saddleback", "a rock wren", "a mohua", "a kakariki", "a fairy tern", "a yellow-eyed penguin"]
PLACES = ["the rimu grove", "the tussock ridge", "the stream bend", "the moss bank", "the fern gully",
          "the boardwalk", "the feeding station", "the old track", "the beech forest", "the cliff edge"]
STEER_GAMES = 400
CONFIRM_GAMES = 2000
MAX_STEPS = 14
MAX_CANDIDATES = 60
SOLVE_WORK = 3.0  # CP-SAT deterministic time per candidate (~5 s on a 2-core laptop)


@dataclass
class Found:
    path: Path
    mission: Mission
    clear_rate: float
    ci95: tuple[float, float]
    min_pieces: int


# ------------------------------------------------------------ candidates
def _free_spot(rng, birds, shape, edge_ok: bool):
    h = max(r for r, _ in shape) + 1
    w = max(c for _, c in shape) + 1
    lo = 0 if edge_ok else 1
    for _ in range(80):
        r0 = rng.randrange(lo, SIZE - h - lo + 1)
        c0 = rng.randrange(lo, SIZE - w - lo + 1)
        cells = frozenset(cell(r0 + r, c0 + c) for r, c in shape)
        near = {cell(row_of(x) + dr, col_of(x) + dc) for x in cells for dr in range(-2, 3) for dc in range(-2, 3)
                if 0 <= row_of(x) + dr < SIZE and 0 <= col_of(x) + dc < SIZE}
        if not any(near & b.cells for b in birds):
            return cells
    return None


def _with(m: Mission, **changes) -> Mission:
    return replace(m, **changes)


def _clear_ok(m: Mission) -> Mission:
    live = [b for b in m.birds if blocked_reason(m, b) is None]
    clear = min(m.clear, max(1, len(live)))
    return _with(m, clear=clear, clear_all=m.clear_all and clear == len(m.birds))


def random_mission(rng: random.Random, mode: str, players: int, catalog) -> Mission | None:
    birds: list[Bird] = []
    for letter in "ABCDE"[: rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])]:
        decoy = len(birds) > 0 and rng.random() < 0.1
        cells = _free_spot(rng, birds, rng.choice(BIRD_SHAPES), edge_ok=decoy)
        if cells is not None:
            birds.append(Bird(letter, cells))
    if not birds:
        return None
    m = Mission("candidate", rng.choice(NAMES), mode, len(birds), True, MODE_RULES[mode].rounds,
                MODE_RULES[mode].skills,
                tuple(birds), (), (), f"Find {rng.choice(BIRDS)} near {rng.choice(PLACES)}.")
    for _ in range(rng.choice([0, 1, 2, 3, 4])):
        m = add_mark(m, rng) or m
    live = [b for b in m.birds if blocked_reason(m, b) is None]
    if not live:
        return None
    clear = len(live) if rng.random() < 0.7 else rng.randint(1, len(live))
    m = _with(m, clear=clear, clear_all=clear == len(birds))
    if rng.random() < 0.2:
        m = _with(m, rounds=max(2, m.rounds + rng.choice([-2, -1, 1, 2])))
    m = _with(m, rounds=min(m.rounds, max_rounds(mode, players)))
    if rng.random() < 0.15:
        m = _with(m, skills=max(0, m.skills + rng.choice([-2, -1, 1, 2])))
    for _ in range(rng.choice([0] * 6 + [1, 1, 2])):  # sometimes a board mid-game
        m = add_placed(m, rng, catalog) or m
    return m


# ------------------------------------------------------------ changes that steer the difficulty
def _open_ring(m: Mission, b: Bird) -> list[int]:
    board = Board.start(m)
    marked = {c for c, _ in m.marks}
    return [c for c in range(SIZE * SIZE) if b.ring >> c & 1 and not board.occupied >> c & 1
            and c not in marked and not m.bird_mask >> c & 1]


def add_mark(m: Mission, rng) -> Mission | None:
    birds = [b for b in m.birds if blocked_reason(m, b) is None and _open_ring(m, b)]
    if not birds:
        return None
    c = rng.choice(_open_ring(m, rng.choice(birds)))
    return _with(m, marks=tuple(sorted((*m.marks, (c, rng.choice(list(Colour)))))))


def remove_mark(m: Mission, rng) -> Mission | None:
    if not m.marks:
        return None
    drop = rng.choice(m.marks)
    return _with(m, marks=tuple(x for x in m.marks if x != drop))


def add_bird(m: Mission, rng) -> Mission | None:
    if len(m.birds) >= 5:
        return None
    cells = _free_spot(rng, list(m.birds), rng.choice(BIRD_SHAPES), edge_ok=False)
    if cells is None or mask_of(cells) & Board.start(m).occupied:
        return None
    letter = next(x for x in "ABCDE" if x not in {b.letter for b in m.birds})
    birds = tuple(sorted((*m.birds, Bird(letter, cells)), key=lambda b: b.letter))
    grown = _with(m, birds=birds)
    return _with(grown, clear=m.clear + 1 if m.clear_all else m.clear, clear_all=m.clear_all)


def remove_bird(m: Mission, rng) -> Mission | None:
    if len(m.birds) <= 1:
        return None
    drop = rng.choice(m.birds)
    birds = tuple(b for b in m.birds if b is not drop)
    ring = drop.ring
    marks = tuple(x for x in m.marks if not ring >> x[0] & 1 or any(b.ring >> x[0] & 1 for b in birds))
    return _clear_ok(_with(m, birds=birds, marks=marks, clear=len(birds) if m.clear_all else m.clear))


def add_placed(m: Mission, rng, catalog) -> Mission | None:
    board = Board.start(m)
    live = [b for b in m.birds if board.can_still_be_scanned(b)]
    if not live:
        return None
    ring = 0
    for b in live:
        ring |= b.ring
    marks = m.mark_map
    for card in rng.sample(ALL_CARDS, len(ALL_CARDS)):
        if board.is_used(card):
            continue
        options = [p for p in all_positions(catalog[card]) if board.is_legal_mask(int(card.colour), mask_of(p))
                   and mask_of(p) & ring and not any(c in marks and marks[c] != card.colour for c in p)]
        if options:
            return _with(m, placed=(*m.placed, Placement(card, rng.choice(options))))
    return None


def remove_placed(m: Mission, rng) -> Mission | None:
    if not m.placed:
        return None
    drop = rng.choice(m.placed)
    return _with(m, placed=tuple(p for p in m.placed if p is not drop))


def harder(m: Mission, rng, catalog, players: int) -> Mission | None:
    moves = [lambda: add_mark(m, rng), lambda: add_mark(m, rng), lambda: add_bird(m, rng),
             lambda: remove_placed(m, rng),
             lambda: _with(m, clear=m.clear + 1, clear_all=m.clear + 1 == len(m.birds))
             if not m.clear_all and m.clear < sum(1 for b in m.birds if blocked_reason(m, b) is None) else None,
             lambda: _with(m, rounds=m.rounds - 1) if m.rounds > 2 else None,
             lambda: _with(m, skills=m.skills - 1) if m.skills > 0 else None]
    return rng.choice(moves)()


def easier(m: Mission, rng, catalog, players: int) -> Mission | None:
    moves = [lambda: remove_mark(m, rng), lambda: remove_mark(m, rng), lambda: remove_bird(m, rng),
             lambda: add_placed(m, rng, catalog),
             lambda: _with(m, clear=m.clear - 1, clear_all=False) if m.clear > 1 else None,
             lambda: _with(m, rounds=m.rounds + 1) if m.rounds < max_rounds(m.mode, players) else None,
             lambda: _with(m, skills=m.skills + 1) if m.skills < 6 else None]
    return rng.choice(moves)()


# ------------------------------------------------------------ checking and measuring
def reparse(m: Mission, catalog, folder: Path) -> Mission | None:
    """The candidate as a file, read back by the mission parser (None if the parser refuses it)."""
    path = folder / "candidate.toml"
    path.write_text(mission_toml(m), encoding="utf-8")
    try:
        return load_mission(path, catalog)
    except InputError:
        return None


def fewest_pieces(m: Mission, catalog, players: int):
    """The puzzle's optimal answer if it can be selected within the rounds, else None."""
    # a budget of CP-SAT's deterministic work, not seconds: the same candidates pass however busy the
    # machine is (a wall-clock limit made the generator's choices depend on the load)
    r = solve(m, catalog, players=players, time_limit=60, work_limit=SOLVE_WORK)
    return r if r.status == "solvable" and r.optimal and (r.pieces_used or 0) > 0 else None


def measure(m: Mission, catalog, players: int, games: int, seed: int, policy: str, workers: int, best=None):
    if policy == "planner" and best is not None:
        planner_library(m, catalog, best)
    out = play_games(m, catalog, players, games, seed, policy, "numba", workers)
    cleared = int((out.results == 0).sum())
    return cleared / games, wilson(cleared, games)


# ------------------------------------------------------------ the search
def generate(mode: str, low: float, high: float, players: int, *, policy: str, count: int, seed: int, out: Path,
             catalog, workers: int = 1, progress=None) -> list[Found]:
    rng = random.Random(seed)
    found: list[Found] = []
    seen: set = set()
    out.mkdir(parents=True, exist_ok=True)
    known = known_missions(out, catalog)
    boards = {board_key(k) for k in known}  # no board twice, up to rotation and reflection
    names, stories = {k.name for k in known}, {k.story for k in known}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for candidate in range(MAX_CANDIDATES):
            if len(found) >= count:
                break
            if progress:
                progress(candidate, len(found))
            m = random_mission(rng, mode, players, catalog)
            for _ in range(MAX_STEPS):
                m = reparse(m, catalog, folder) if m is not None else None
                if m is None:
                    break
                key = (m.birds, m.marks, m.placed, m.clear, m.rounds, m.skills)
                if key in seen or board_key(m) in boards:
                    break  # a mission already written, or a board some known mission has
                best = fewest_pieces(m, catalog, players)
                if best is None:  # unsolvable, or more pieces than the rounds can select
                    m = easier(m, rng, catalog, players)
                    continue
                rate, _ = measure(m, catalog, players, STEER_GAMES, seed, policy, workers, best)
                if low <= rate <= high:
                    rate, ci = measure(m, catalog, players, CONFIRM_GAMES, seed, policy, workers, best)
                    if low <= rate <= high:
                        seen.add(key)
                        boards.add(board_key(m))
                        path = _free_name(out, mode)
                        # drawn from the board, not from the search's stream: the candidates stay those of the seed
                        name, story = new_name_and_story(random.Random(repr(sorted(board_key(m)))), names, stories)
                        names.add(name)
                        stories.add(story)
                        named = replace(m, id=path.stem, name=name, story=story)
                        write_output(path, mission_toml(
                            named, comment=f"made by kakapo generate --mode {mode} --band {low}-{high} --players "
                            f"{players} --policy {policy} --seed {seed}; {policy} clears {rate:.1%} ({CONFIRM_GAMES} "
                            f"games, {players} players); fewest pieces {best.pieces_used}"))
                        found.append(Found(path, named, rate, ci, best.pieces_used))
                        break
                steer = harder if rate > high else easier
                m = steer(m, rng, catalog, players)
    return found


# ------------------------------------------------------------ every mission new
def _symmetries(c: int) -> list[int]:
    r, k, n = row_of(c), col_of(c), SIZE - 1
    return [cell(a, b) for a, b in ((r, k), (k, n - r), (n - r, n - k), (n - k, r),
                                    (r, n - k), (n - r, k), (k, r), (n - k, n - r))]


def board_key(m: Mission) -> frozenset:
    """The board (birds, coloured sides, pieces placed) the same for its 8 rotations and
    reflections: the smallest of their descriptions. Names, letters and counters do not count."""
    variants = []
    for t in range(8):
        birds = sorted(tuple(sorted(_symmetries(c)[t] for c in b.cells)) for b in m.birds)
        marks = sorted((_symmetries(c)[t], int(col)) for c, col in m.marks)
        placed = sorted((str(p.card), tuple(sorted(_symmetries(c)[t] for c in p.cells))) for p in m.placed)
        variants.append((tuple(birds), tuple(marks), tuple(placed)))
    return frozenset([min(variants)])


def known_missions(out: Path, catalog) -> list[Mission]:
    """The bundled campaign and the missions already in ``out`` (files that do not load are skipped)."""
    found = []
    for path in sorted(MISSIONS.glob("*/*.toml")) + sorted(out.glob("*.toml")):
        try:
            found.append(load_mission(path, catalog))
        except KakapoError:
            continue
    return found


def new_name_and_story(rng: random.Random, taken_names: set, taken_stories: set) -> tuple[str, str]:
    """A name and a story no known mission has (numbered once the lists run out)."""
    names = [n for n in NAMES if n not in taken_names] or [f"{rng.choice(NAMES)} {len(taken_names) + 1}"]
    stories = [f"Find {b} near {p}." for b in BIRDS for p in PLACES]
    stories = [t for t in stories if t not in taken_stories] or [f"Find {rng.choice(BIRDS)} once more."]
    return rng.choice(names), rng.choice(stories)


def _free_name(out: Path, mode: str) -> Path:
    prefix = "b" if mode == "buddy" else "p"
    k = 1
    while (out / f"gen-{prefix}{k:02d}.toml").exists():
        k += 1
    return out / f"gen-{prefix}{k:02d}.toml"
