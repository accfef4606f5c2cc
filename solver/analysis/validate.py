"""Checking fan missions: errors, warnings, solvability, fewest pieces and a difficulty estimate
placed among the bundled missions of the same mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.analysis.ladder import LADDER_SAMPLES, rung_games, rung_label, shortfall_of_rates
from solver.analysis.simulate import play_games
from solver.core.codes import BAND_POLICIES, PolicyId
from solver.core.errors import InputError
from solver.core.stats import wilson
from solver.game.search import DEFAULT_SAMPLES
from solver.io.difficulty import measured_for, no_campaign_text
from solver.io.missionfile import check_file, load_mission, warning_items
from solver.io.paths import MISSIONS
from solver.openhand.ceiling import ceiling
from solver.puzzle.cpsat import count_solutions, solve, solve_for_players
from solver.puzzle.reasons import explain

BUNDLED = MISSIONS
VALIDATE_COUNT_CAP = 100  # answers counted past the fewest pieces' proof: enough to say 'one' or 'many'


def mission_warnings(m, min_pieces: int | None) -> list[str]:
    """Things a designer should know that do not make the file invalid (``warning_items`` in words;
    the studio's check gives the items themselves, with their cells)."""
    out = [f"line {w['line']}: {w['message']}" if w["line"] else w["message"] for w in warning_items(m)]
    # more pieces than the rounds can select is already "unsolvable" (the solver keeps to piece_budget)
    if min_pieces is not None and min_pieces > m.rounds:
        out.append(f"it needs at least {min_pieces} pieces in {m.rounds} rounds: only double scans can do it")
    return out


def measured_campaign(catalog) -> dict:
    """The campaign measured for this catalog (io/difficulty.measured_for): the shipped table when
    it holds every bundled mission and player count, or the table `kakapo campaign` measured for
    another catalog; else {}."""
    table, source = measured_for(catalog)
    if source != "bundled":
        return table
    for path in sorted(BUNDLED.glob("*/*.toml")):
        m = load_mission(path, catalog)
        if any((m.id, players) not in table for players in m.player_counts()):
            return {}
    return table


def bundled_rates(catalog, games: int, seed: int, policy: str, workers: int,
                  samples: int = DEFAULT_SAMPLES) -> dict:
    """(mode, players) -> [(mission id, clear rate)] for the bundled missions: from the shipped
    table where it applies (the default catalog), else played here."""
    rung = rung_label(policy, samples if policy == PolicyId.SEARCH.label else None)
    table = measured_campaign(catalog)
    out: dict = {}
    if table and all(rung in row.rates for row in table.values()):
        for row in sorted(table.values(), key=lambda r: r.mission):
            out.setdefault((row.mode, row.players), []).append((row.mission, row.rates[rung]))
        return out
    for path in sorted(BUNDLED.glob("*/*.toml")):
        try:
            m = load_mission(path, catalog)
        except InputError:
            continue  # a bundled mission may not fit another catalog's shapes
        for players in m.player_counts():
            res = play_games(m, catalog, players, games, seed, policy, "numba", workers, samples=samples)
            out.setdefault((m.mode, players), []).append((m.id, float((res.results == 0).mean())))
    return out


def bundled_shortfalls(catalog) -> dict:
    """(mode, players) -> [(mission id, shortfall)] from the shipped table ({} for another catalog)."""
    out: dict = {}
    for row in sorted(measured_campaign(catalog).values(), key=lambda r: r.mission):
        out.setdefault((row.mode, row.players), []).append((row.mission, row.shortfall))
    return out


def place_among(rate: float, bundled: list[tuple[str, float]]) -> dict:
    """Where a clear rate falls among bundled missions (higher rate = easier)."""
    return place_by_difficulty(-rate, [(mid, -r) for mid, r in bundled])


def place_by_difficulty(value: float, bundled: list[tuple[str, float]]) -> dict:
    """Where a difficulty figure falls among bundled missions (higher = harder)."""
    ranked = sorted(bundled, key=lambda x: (x[1], x[0]))
    harder_than = sum(1 for _, r in ranked if r < value)
    easier = [mid for mid, r in ranked if r < value]
    harder = [mid for mid, r in ranked if r >= value]
    return {"harder_than": harder_than, "of": len(ranked),
            "between": [easier[-1] if easier else None, harder[0] if harder else None]}


def placement_phrase(entry: dict) -> str:
    """The campaign placement of place_among in words: "between b07 and b08", or past either end."""
    easier, harder = entry["between"]
    if easier and harder:
        low, high = sorted((easier, harder))  # in campaign order, even where two neighbours measure the other way
        where = f"between {low} and {high}"
    elif harder:
        where = f"easier than {harder}, the easiest"
    elif easier:
        where = f"harder than {easier}, the hardest"
    else:
        return "no bundled mission to compare with"
    return f"{where} (harder than {entry['harder_than']} of {entry['of']} bundled missions)"


def validate_file(path, catalog, time_limit: float, games: int, seed: int, policy: str, workers: int,
                  baseline=None, ceiling_games: int = 0, ladder_games: int = 0, progress=None,
                  shortfalls=None, text: str | None = None) -> dict:
    """Everything `kakapo validate` says about one file (``text``: its text read already, a file of
    a pack). ``progress(label, done, total)`` follows the games of the ladder's search rungs (the
    long part)."""
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
            if shortfalls and (m.mode, players) in shortfalls:
                entry["shortfall_place"] = place_by_difficulty(entry["shortfall"], shortfalls[(m.mode, players)])
                entry["shortfall_place"]["source"] = measured_for(catalog)[1]
            elif shortfalls is not None and measured_for(catalog)[1] is None:
                entry["shortfall_place"] = None  # never a place among figures of other shapes
                entry["campaign_text"] = no_campaign_text(catalog)
        if baseline is not None and (m.mode, players) in baseline:
            entry.update(place_among(entry["clear_rate"], baseline[(m.mode, players)]))
        doc["difficulty"].append(entry)
    return doc
