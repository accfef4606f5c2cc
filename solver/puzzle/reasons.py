"""Why a mission cannot be cleared: proven reasons, the most specific first (`kakapo solve`'s `reasons`).

Each reason is checked, not guessed: geometry (a bird on the edge or facing another bird), a
coloured side already covered by the wrong colour, a marked cell that no usable piece of its
colour can cover (with the pieces that would fit and why they cannot be used), then the piece
budget of the rounds or the pieces left out (the puzzle is solvable without that limit), and
otherwise a minimal set of birds that cannot be scanned together (deletion: drop a bird while
the rest stays impossible).
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.board import all_positions, cell_name
from solver.core.cards import ALL_CARDS
from solver.core.codes import Reason
from solver.core.rules import Board, Mission, blocked_reason, cells_of, mask_of
from solver.core.spec import GameSpec, out_of_game
from solver.puzzle.cpsat import candidate_placements, solve


def reason(code: Reason, message: str, birds=(), cells=()) -> dict:
    return {"code": code.value, "birds": sorted(birds), "cells": [cell_name(c) for c in sorted(cells)],
            "message": message}


def dead_birds(mission: Mission, catalog, players: int, exclude=(),
               excluded_words: str = "is excluded") -> dict[str, dict]:
    """The birds of the mission (its pieces placed before play on the board) that can never be
    scanned, each with its proven reason: geometry, a coloured side covered by another colour, or a cell around it
    that no usable piece can cover (``excluded_words``: how a piece of ``exclude`` is said)."""
    out: dict[str, dict] = {}
    board = Board.start(mission)
    gone = set(out_of_game(players))
    excluded = set(exclude)
    marks = mission.mark_map

    for b in mission.birds:
        why = blocked_reason(mission, b)
        if why:
            code = Reason.BIRD_ON_EDGE if "edge" in why else Reason.BIRD_TOUCHING
            out[b.letter] = reason(code, f"bird {b.letter} can never be scanned: {why}", [b.letter])
        elif not board.can_still_be_scanned(b):
            bad = [c for c in cells_of(b.ring) if c in marks and board.occupied >> c & 1
                   and not board.colour_masks[marks[c]] >> c & 1]
            names = ", ".join(cell_name(c) for c in bad)
            out[b.letter] = reason(Reason.SIDE_SPOILED, f"bird {b.letter} can never be scanned: its coloured side at "
                                   f"{names} is already covered by a piece of another colour", [b.letter], bad)

    cand = candidate_placements(mission, catalog, tuple(excluded | gone))
    for b in mission.birds:
        if b.letter in out:
            continue
        for c in cells_of(b.ring):
            if board.occupied >> c & 1:
                continue
            colour = marks.get(c)
            usable = [card for card in cand.pieces if (colour is None or card.colour == colour)
                      and any(m >> c & 1 for m in cand.placements[card])]
            if usable:
                continue
            side = f"its {colour.name.lower()} side at {cell_name(c)}" if colour is not None else \
                f"the cell {cell_name(c)} next to it"
            fits = [card for card in ALL_CARDS if (colour is None or card.colour == colour)
                    and any(c in cells and board.is_legal_mask(int(card.colour), mask_of(cells))
                            for cells in all_positions(catalog[card]))]
            unusable = []
            for card in fits:
                if card in gone:
                    unusable.append(f"{card} is out of the game with {players} players")
                elif card in excluded:
                    unusable.append(f"{card} {excluded_words}")
                elif board.is_used(card):
                    unusable.append(f"{card} is already on the board")
            detail = ("; the pieces that would fit cannot be used: " + ", ".join(unusable)) if unusable else \
                "; no piece of that colour fits there" if colour is not None else "; no piece fits there"
            out[b.letter] = reason(Reason.SIDE_UNCOVERABLE if colour is not None else Reason.CELL_UNCOVERABLE,
                                   f"bird {b.letter} can never be scanned: no usable piece can cover {side}{detail}",
                                   [b.letter], [c])
            break
    return out


def explain(mission: Mission, catalog, players: int, exclude=(), max_pieces: int | None = None,
            time_limit: float = 20.0) -> list[dict]:
    """Reasons why no legal set of at most ``max_pieces`` new pieces scans ``clear`` birds."""
    excluded = set(exclude)
    gone = set(out_of_game(players))
    found = dead_birds(mission, catalog, players, exclude)
    out: list[dict] = list(found.values())
    dead = set(found)

    live = [b.letter for b in mission.birds if b.letter not in dead]
    if len(live) < mission.clear:
        out.append(reason(Reason.TOO_FEW_BIRDS, f"only {len(live)} of {len(mission.birds)} bird(s) can be scanned "
                          f"({', '.join(live) or 'none'}); the mission needs {mission.clear}", live))
        return out

    free = solve(mission, catalog, exclude=tuple(excluded), players=players, budget=False, time_limit=time_limit)
    if free.status == "solvable":
        budget = GameSpec.of(mission, players, hands_last=False).piece_budget
        source = (f"--max-pieces {max_pieces}" if max_pieces is not None and max_pieces < budget
                  else f"{mission.rounds} rounds with {mission.skills} skill counter(s) select at most "
                       f"{budget} new pieces")
        out.append(reason(Reason.PIECE_BUDGET, f"it needs at least {free.pieces_used} new pieces but {source}",
                          free.scanned))
        return out
    if excluded or gone:
        everything = solve(mission, catalog, players=max(mission.player_counts()), budget=False,
                           time_limit=time_limit)
        if everything.status == "solvable":
            missing = sorted({str(p.card) for p in everything.placements} & {str(c) for c in excluded | gone})
            out.append(reason(Reason.PIECES_UNAVAILABLE, "it could be cleared with pieces this game cannot use: "
                              + ", ".join(missing) + (f" (out of the game with {players} players)" if gone else ""),
                              everything.scanned))
            return out

    if free.status != "unsolvable":
        return out  # undecided within the time: say only what is proven
    # every live bird is needed: a minimal subset of them is the most specific answer
    core = minimal_conflict(mission, catalog, live, excluded, players, time_limit) if mission.clear >= len(live) \
        else None
    if core:
        out.append(reason(Reason.BIRDS_CONFLICT,
                          f"birds {', '.join(core)} cannot all be scanned together (any fewer of "
                          "them can): the pieces their sides need collide or break the placement rules", core))
    else:
        out.append(reason(Reason.BIRDS_CONFLICT, f"no {mission.clear} of the birds {', '.join(live)} can be scanned "
                          "together: the pieces their sides need collide or break the placement rules", live))
    return out


def minimal_conflict(mission: Mission, catalog, live: list[str], excluded, players: int,
                     time_limit: float) -> list[str] | None:
    """A minimal set of birds that cannot be scanned together (None if not proven in time)."""

    def impossible(letters) -> bool | None:
        m = replace(mission, clear=len(letters))
        r = solve(m, catalog, exclude=tuple(excluded), players=players, budget=False, require=letters,
                  time_limit=time_limit)
        return None if r.status == "unknown" else r.status == "unsolvable"

    core = list(live)
    if impossible(core) is not True:
        return None  # the birds can be scanned together; the mission asks for more than them
    for letter in list(core):
        rest = [x for x in core if x != letter]
        if rest and impossible(rest) is True:
            core = rest
    return core
