"""Sound advice in plain words: what a table plays next follows the campaign's order near what it
has cleared (never a jump to the hardest mission on a few games), a figure whose interval is too
wide says "too few games to say yet", and every figure of the Tables tab has a sentence (the
server's), with the glossary covering the new words."""

from __future__ import annotations

from solver.analysis.calibrate import NEXT_STEPS, Table, level_of, next_missions
from solver.app.glossary import GLOSSARY
from solver.core.stats import TOO_WIDE, too_wide
from solver.io.catalog import load_catalog
from solver.io.difficulty import campaign_difficulty
from solver.view.calibrate_text import TOO_FEW, next_words, plain_words
from tests.helpers.catalogs import other_catalog
from tests.helpers.tables import SPREAD, FixedLadder, game, measured

BUDDY = [f"b{k:02d}" for k in range(1, 21)]


def advice(results: list[tuple[str, bool]], catalog=None) -> list[dict]:
    games = [game(won, mission) for mission, won in results]
    for g in games:
        g.catalog = catalog  # the pieces the table plays with (None: not said)
    level = level_of(games, measured(SPREAD, len(games)), FixedLadder())  # type: ignore[arg-type]
    return next_missions(Table("t", games), level, campaign_difficulty(), 0.6)  # type: ignore[arg-type]


def test_three_easy_wins_send_a_family_on_step_by_step_never_to_the_hardest():
    nxt = advice([("b01", True), ("b02", True), ("b03", True)])
    assert {e["mission"] for e in nxt} == {"b04", "b05", "b06"}  # the next NEXT_STEPS in campaign order
    assert all(e["after"] == "b03" for e in nxt)
    gaps = [abs(e["predicted"] - 0.6) for e in nxt]
    assert gaps == sorted(gaps)


def test_the_advice_starts_at_the_beginning_and_keeps_the_missions_left_behind():
    first = advice([("b01", False), ("b02", False)])
    assert {e["mission"] for e in first} == set(BUDDY[:NEXT_STEPS]) and all(e["after"] is None for e in first)
    skipped = advice([("b01", True), ("b05", True)])
    assert {e["mission"] for e in skipped} == {"b02", "b03", "b04", "b06", "b07", "b08"}
    near_end = advice([("b19", True)] * 3)
    assert {e["mission"] for e in near_end} == set(BUDDY[:18]) | {"b20"}  # those left behind, and the last


def test_a_mission_that_does_not_fit_the_tables_pieces_is_never_suggested(tmp_path):
    ours = load_catalog(other_catalog(tmp_path))  # b09's placed red-5 is not its shape here
    nxt = {e["mission"] for e in advice([("b08", True), ("b07", True), ("b06", True)], ours)}
    assert "b09" not in nxt and {"b10", "b11", "b12"} <= nxt and not nxt & {"b13", "b20"}
    assert "b09" in {e["mission"] for e in advice([("b08", True), ("b07", True), ("b06", True)])}


def test_a_wide_interval_says_too_few_games_never_a_figure():
    nxt = advice([("b01", True), ("b02", True), ("b03", True)])
    for e in nxt:
        assert e["too_few_games"] == (e["ci95"][1] - e["ci95"][0] > TOO_WIDE)
    wide = {"mission": "b20", "players": 2, "predicted": 0.59, "ci95": [0.01, 0.97]}
    assert too_wide(wide["ci95"]) and next_words(wide) == f"b20 with 2 players: {TOO_FEW} how often you would clear it"
    narrow = {"mission": "b04", "players": 2, "predicted": 0.62, "ci95": [0.5, 0.72]}
    assert not too_wide(narrow["ci95"])
    assert next_words(narrow) == ("b04 with 2 players: expect to clear it about 62 % of the time (very likely "
                                  "between 50 % and 72 %)")


def doc_of(tables: list[dict], bins: list[dict], brier=(0.2, 0.25)) -> dict:
    return {"target": 0.6, "tables": tables, "missions": [
        {"mission": "b05", "players": 2, "games": 3, "tables": 1, "observed": 1.0, "learned": 0.8, "expected": 0.7}],
        "calibration": {"games": sum(b["games"] for b in bins), "brier": brier[0], "brier_baseline": brier[1],
                        "bins": bins, "bins_within": len(bins)}}


def table_doc(told_apart: bool, deal: str, nxt: list[dict]) -> dict:
    plausible = [{"policy": "planner", "samples": None}] if told_apart else [
        {"policy": "heuristic", "samples": None}, {"policy": "planner", "samples": None},
        {"policy": "search", "samples": 8}]
    return {"table": "Mia, Leo", "games": 3, "cleared": 3, "best": {"policy": "planner", "samples": None},
            "plausible": plausible, "told_apart": told_apart, "next": nxt,
            "level": {"deal": deal, "beyond": "as"}}


def test_every_figure_of_the_tables_tab_has_a_players_sentence():
    nxt = [{"mission": "b04", "players": 2, "predicted": 0.62, "ci95": [0.3, 0.9], "after": "b03",
            "too_few_games": True}]
    words = plain_words(doc_of([table_doc(False, "unsure", nxt)],
                               [{"predicted": 0.7, "observed": 1.0, "games": 3, "ci95": [0.44, 1.0]}]))
    t = words["tables"][0]
    assert t["level"].startswith("Plays most like the bot planner (") and "between heuristic and search-8" in t["level"]
    assert TOO_FEW in t["luck"] and "after b03, the furthest it cleared" in t["next_intro"]
    assert t["next"] == [{"mission": "b04", "text": f"b04 with 2 players: {TOO_FEW} how often you would clear it",
                          "too_few_games": True}]
    assert "off by 0.20 on average (the Brier score" in words["check"]
    assert "made the predictions better" in words["check"]
    assert "too few games to say yet" in words["diagram"]
    assert words["missions"] == [{"mission": "b05", "players": 2, "few": True}] and "(marked *)" in words[
        "missions_intro"]
    # no word of the statistician's without its sentence: the page's texts are all plain
    for text in [t["level"], t["luck"], t["beyond"], t["next_intro"], words["diagram"]]:
        assert not any(jargon in text for jargon in ("rung", "logit", "bins", "diagonal", "follows the deal"))
    told = plain_words(doc_of([table_doc(True, "follows", [])], [], brier=(None, None)))
    assert told["tables"][0]["level"].startswith("Plays like the bot planner (")
    assert told["check"] == "No finished game to check a prediction against yet." and told["diagram"] == ""
    assert "Every campaign mission" in told["tables"][0]["next_intro"]


def test_the_glossary_covers_the_tables_tabs_words():
    terms = {t for _, t, _ in GLOSSARY}
    assert {"plays like", "follows the cards dealt", TOO_FEW, "what to play next", "Brier score",
            "reliability chart", "what the games say", "table"} <= terms
    said = dict((t, x) for _, t, x in GLOSSARY)
    assert f"more than {round(100 * TOO_WIDE)} points" in said[TOO_FEW]
    assert NEXT_STEPS == 3 and "at most three steps on" in said["what to play next"]
