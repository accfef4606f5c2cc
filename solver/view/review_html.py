"""`kakapo review --html`: the review of a game as a page, a board per round and the better
move of the costliest decision drawn dashed."""

from __future__ import annotations

from html import escape

from solver.analysis.review_story import pct
from solver.analysis.review_types import Decision, Review
from solver.core.board import all_positions
from solver.core.rules import Placement
from solver.game.actions import ActionKind
from solver.view.review_text import RESULT_WORDS, round_story, seat_line, yardstick_legend
from solver.view.svgboard import board_svg


def _ghost(d: Decision, catalog) -> list[Placement]:
    """The better placement of a placement decision, to draw on the board."""
    a = d.best_action
    if a is None or a.kind != ActionKind.PLACE or a.card is None:
        return []
    return [Placement(a.card, all_positions(catalog[a.card])[a.index])]


def review_html(rv: Review) -> str:
    """A page: the story and the seats at the top, then per round the cards played by whom, the
    pieces with their owner, the board, and the costliest decision with the better move drawn."""
    m = rv.mission
    catalog = rv.catalog
    seats = "".join(f"<li>{escape(seat_line(rv, s))}</li>" for s in rv.seats)
    sections = []
    previous: set = {x.card for x in m.placed}
    for r in rv.rounds:
        lines = round_story(rv, r)
        items = "".join(f"<li>{escape(line.strip())}</li>" for line in lines[1:])
        tiles = []
        after = None
        if r.record is not None:
            nxt = next((x.board for x in rv.rounds if x.round == r.round + 1), None)
            after = nxt if nxt is not None else rv.final
        board = after if after is not None else r.board
        assert board is not None
        new = [p for k, p in board.pieces.items() if k not in previous]
        previous = set(board.pieces)
        caption = f"after round {r.round}" if after is not None else f"round {r.round}: the board"
        tiles.append(f"<figure>{board_svg(board, cell=16, new=new, title=caption)}"
                     f"<figcaption>{escape(caption)}</figcaption></figure>")
        c = r.costliest
        if c is not None and c.board is not None:
            ghost = _ghost(c, catalog) if catalog is not None else []
            label = (f"the costliest decision: {rv.who(c.seat, True)} {c.played} ({pct(c.rate_played)}); "
                     f"better: {c.best} ({pct(c.rate_best)})" + (", dashed" if ghost else ""))
            tiles.append(f"<figure>{board_svg(c.board, cell=16, ghost=ghost, title=label)}"
                         f"<figcaption>{escape(label)}</figcaption></figure>")
        sections.append(f'<section class="{r.open_hand}"><h2>{escape(lines[0])}</h2><ul>{items}</ul>'
                        f'<div class="tiles">{"".join(tiles)}</div></section>')
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Review: {escape(m.name)} ({escape(m.id)})</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 1100px; }}
section {{ border-top: 1px solid #ddd; padding: .4em 0; }}
section h2 {{ font-size: 15px; margin: .3em 0; }}
section.not_clearable h2 {{ color: #b00020; }}
.story {{ font-size: 16px; font-weight: bold; }}
.legend {{ color: #555; font-size: 13px; }}
.tiles {{ display: flex; flex-wrap: wrap; gap: 18px; }}
figure {{ margin: 0; max-width: 220px; }} figcaption {{ font-size: 12px; }}
ul {{ margin: .2em 0; }}
</style></head><body>
<h1>{escape(m.name)} ({escape(m.id)}): {rv.players} players, {escape(RESULT_WORDS.get(rv.result, rv.result))}</h1>
<p class="story">{escape(rv.story)}</p>
<ul class="seats">{seats}</ul>
<p class="legend">{escape(yardstick_legend(rv))}</p>
{"".join(sections)}
<p><small>Log: {escape(rv.log.path)}; seed {rv.seed}; {rv.seconds:.1f} s.</small></p>
</body></html>
"""
