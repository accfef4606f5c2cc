"""Checking fan missions: errors, warnings, solvability, fewest pieces and a difficulty estimate
placed among the other missions of the same mode measured with the same catalog (the bundled
campaign, or the campaign `kakapo campaign` measured for another catalog: io/difficulty.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.analysis.ladder import LADDER_SAMPLES, rung_games, rung_label, shortfall_of_rates
from solver.analysis.simulate import play_games
from solver.core.codes import BAND_POLICIES, PolicyId
from solver.core.stats import wilson
from solver.game.search import DEFAULT_SAMPLES
from solver.io.difficulty import (
    Campaign,
    data_digest,
    file_key,
    find_campaign,
    no_campaign_text,
    place_by_difficulty,
    place_in_campaign,
    placement_phrase,
)
from solver.io.missionfile import check_file, load_mission, warning_items
from solver.openhand.ceiling import ceiling
from solver.puzzle.cpsat import count_solutions, solve, solve_for_players
from solver.puzzle.reasons import explain

VALIDATE_COUNT_CAP = 100  # answers counted past the fewest pieces' proof: enough to say 'one' or 'many'


def mission_warnings(m, min_pieces: int | None) -> list[str]:
    """Things a designer should know that do not make the file invalid (``warning_items`` in words;
    the studio's check gives the items themselves, with their cells)."""
    out = [f"line {w['line']}: {w['message']}" if w["line"] else w["message"] for w in warning_items(m)]
    # more pieces than the rounds can select is already "unsolvable" (the solver keeps to piece_budget)
    if min_pieces is not None and min_pieces > m.rounds:
        out.append(f"it needs at least {min_pieces} pieces in {m.rounds} rounds: only double scans can do it")
    return out


def place_among(rate: float, others: list[tuple[str, float]]) -> dict:
    """Where a clear rate falls among other missions' (a higher rate is easier)."""
    return place_by_difficulty(-rate, [(mid, -r) for mid, r in others])


def validate_file(path, catalog, time_limit: float, games: int, *, seed: int, policy: str, workers: int,
                  ceiling_games: int = 0, ladder_games: int = 0, progress=None,
                  campaign: Campaign | None = None, text: str | None = None) -> dict:
    """Everything `kakapo validate` says about one file (``text``: its text read already, a file of
    a pack). ``progress(label, done, total)`` follows the games of the ladder's search rungs (the
    long part). ``campaign``: the campaign measured for the catalog
    (``io.difficulty.find_campaign``; None: looked for from the file's folder or pack), among whose
    other missions the file's figures are placed."""
    invalid = check_file(path, catalog, text)
    if invalid is not None:
        return invalid
    doc: dict[str, Any] = {"file": str(path), "mission": Path(path).stem, "valid": True, "errors": [], "warnings": [],
           "status": None, "min_pieces": None, "optimal": None, "difficulty": []}
    warnings: list[str] = []
    m = load_mission(path, catalog, warnings, text=text)
    r = solve(m, catalog, time_limit=time_limit)
    doc["status"], doc["min_pieces"], doc["optimal"] = r.status, r.pieces_used, r.optimal
    if r.status == "solvable" and r.optimal and r.pieces_used is not None:  # is there one answer, or many?
        tally = count_solutions(m, catalog, r.pieces_used, VALIDATE_COUNT_CAP, time_limit=time_limit)
        doc["solution_count"], doc["count_complete"] = tally.count, tally.complete
    doc["warnings"] = warnings + mission_warnings(m, r.pieces_used)
    if r.status == "unsolvable":
        doc["reasons"] = explain(m, catalog, m.default_players(), time_limit=max(1.0, time_limit / 3))
    if r.status != "solvable" or games <= 0:
        return doc
    if campaign is None:
        key = file_key(Path(path)) if text is None else (Path(path).stem, data_digest(text.encode("utf-8")))
        campaign = find_campaign(catalog, Path(path).parent, (), [key])
    rung = rung_label(policy, DEFAULT_SAMPLES if policy == PolicyId.SEARCH.label else None)
    for players in m.player_counts():
        fewest = solve_for_players(m, catalog, players, r, time_limit)
        band: dict[str, Any] = {}
        for pol in dict.fromkeys((policy, *BAND_POLICIES)):
            res = play_games(m, catalog, players, games, seed, pol, "numba", workers)
            cleared = int((res.results == 0).sum())
            band[pol] = {"games": games, "cleared": cleared, "clear_rate": cleared / games,
                         "ci95": list(wilson(cleared, games))}
        entry: dict[str, Any] = {"players": players, **band[policy], "policy": policy, "min_pieces": fewest.pieces_used,
                 "band": {pol: band[pol] for pol in BAND_POLICIES}}
        if ladder_games:
            entry["ladder"] = {"games": ladder_games, "rungs": []}
            for k in LADDER_SAMPLES:
                label = f"{players}p search {k}"
                n = rung_games(k, ladder_games)
                tick = (lambda d, t, lab=label: progress(lab, d, t)) if progress else None
                res = play_games(m, catalog, players, n, seed, PolicyId.SEARCH.label, "numba", workers,
                                 progress=tick, samples=k)
                cleared = int((res.results == 0).sum())
                entry["ladder"]["rungs"].append({"samples": k, "games": n, "cleared": cleared,
                                                 "clear_rate": cleared / n, "ci95": list(wilson(cleared, n))})
        if ceiling_games:
            c = ceiling(m, catalog, players, ceiling_games, seed, workers)
            entry["band"]["ceiling"] = {"games": ceiling_games, "clearable": c["clearable"],
                                        "clear_rate": c["clear_rate"], "ci95": c["ci95"], "undecided": c["undecided"]}
        if ladder_games and ceiling_games:
            rates = [entry["band"][pol]["clear_rate"] for pol in BAND_POLICIES] + \
                [r["clear_rate"] for r in entry["ladder"]["rungs"]]
            entry["shortfall"] = shortfall_of_rates(rates, entry["band"]["ceiling"]["clear_rate"])
        # among the other missions measured with the same catalog: by the policy's clear rate, and by
        # the shortfall where the ladder and the ceiling were measured (the figure `ladder` places)
        by_rate = place_in_campaign(campaign, entry["clear_rate"], m.id, m.mode, players, rung)
        if by_rate is not None and by_rate["of"]:
            entry.update(by_rate)
        placed = by_rate
        if "shortfall" in entry:
            entry["shortfall_place"] = placed = place_in_campaign(campaign, entry["shortfall"], m.id, m.mode, players)
        entry["campaign"] = None if placed is None else {**placed, "by": "shortfall" if "shortfall" in entry
                                                         else "clear_rate"}
        entry["campaign_text"] = no_campaign_text(catalog) if placed is None else placement_phrase(placed)
        doc["difficulty"].append(entry)
    return doc
