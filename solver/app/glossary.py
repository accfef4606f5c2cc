"""The words of the ladder and the simulated players in plain language, said once: the studio's
glossary page (`GET /glossary`) and `GET /api/rules` read it, and docs/policies.md's "Glossary"
section says the same (tests/studio/test_studio_words.py checks that they agree)."""

from __future__ import annotations

from solver.app.documents import Doc
from solver.core.stats import TOO_WIDE

# (anchor, term, what it means): the order is the glossary's
GLOSSARY: tuple[tuple[str, str, str], ...] = (
    ("clear-rate", "clear rate",
     "The share of games a table wins (scans the birds the mission asks for before the rounds run out)."),
    ("interval", "interval (95 %)",
     "The range the true clear rate very likely lies in, given how many games were played: more games, a "
     "narrower range."),
    ("rung", "rung",
     "One table of simulated players of a given strength, playing the same deals as every other rung."),
    ("ladder", "ladder",
     "The rungs from the weakest to the strongest (greedy, heuristic, planner, then search-2 up to search-64) "
     "and the open-hand ceiling above them: how the clear rate grows as the table plays better."),
    ("shortfall", "shortfall",
     "The mission's difficulty in one number, from 0 to 1: the share of the winnable deals that a rung picked "
     "at random fails to win. 0: every table wins every deal that can be won; 0.3: about 3 winnable deals in "
     "10 are lost."),
    ("open-hands", "open hands",
     "A team that sees every hand and the cards set aside. It cheats, so it is no real table: it only shows "
     "which deals can be won at all."),
    ("ceiling", "open-hand ceiling",
     "The share of deals the open-hands team wins: the most any table could win, whatever it does."),
    ("greedy", "greedy",
     "The weakest real table: plays its cards at random and puts each piece where it helps most right now."),
    ("heuristic", "heuristic",
     "A careful beginner: each card and piece chosen for what helps the birds now, avoiding dead ends."),
    ("planner", "planner",
     "The heuristic steered toward the ways the whole board can be finished (it knows the puzzle's answers, "
     "not the hidden cards)."),
    ("search", "search-N",
     "The planner trying each move ahead: it guesses the hidden cards N times and plays each guess to the end. "
     "More guesses: stronger and slower (search-64 is the top rung)."),
    ("random", "random",
     "Any legal choice at random: a table that does not try."),
    ("table", "table",
     "The people who play together, known by their names: every game that names them is theirs."),
    ("level", "plays like",
     "The bot of the ladder whose results on the same deals are most like a table's; while few games are "
     "played, several bots fit, and each game narrows them."),
    ("luck", "follows the cards dealt",
     "A table whose wins and losses follow the deal as a bot's do wins the deals the bots win. One that follows "
     "them less makes some mistakes or mixes strong and weak players: what it should expect leans more on how "
     "hard each mission is."),
    ("too-few", "too few games to say yet",
     f"Said where the range a figure very likely lies in spans more than {round(100 * TOO_WIDE)} points "
     f"(from 20 % to {20 + round(100 * TOO_WIDE) + 5} %, say): the games played cannot tell yet, and each "
     "game played narrows it."),
    ("next", "what to play next",
     "The next missions of the campaign after the furthest one a table cleared (at most three steps on, and "
     "those it left behind), the one nearest a 60 % chance to clear first: never a jump to the hardest."),
    ("brier", "Brier score",
     "How far the predictions were off, on average: the square of (chance predicted - result), the result 1 "
     "for cleared and 0 for not. 0 is perfect; always saying 50 % gets 0.25. Lower is better."),
    ("reliability", "reliability chart",
     "The games in groups given about the same chance, each drawn at the chance predicted (across) and the "
     "share cleared (up). When the predictions come true as often as they say, the dots lie on the dashed "
     "line."),
    ("learned", "what the games say",
     "A mission's clear rate from every table's games: the share cleared, pulled toward what the bots "
     "expected of those tables, the less so the more games."),
)


def glossary_doc() -> list[Doc]:
    """The glossary as JSON rows: ``{"id", "term", "text"}``."""
    return [{"id": anchor, "term": term, "text": text} for anchor, term, text in GLOSSARY]


def glossary_markdown() -> str:
    """The glossary as docs/policies.md writes it: one ``- **term**: text`` line a term."""
    return "\n".join(f"- **{term}**: {text}" for _, term, text in GLOSSARY)
