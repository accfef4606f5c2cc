"""CP-SAT model of one deal played with open hands: card play, skills, selection and the puzzle.

A deal is clearable iff some legal card play selects, by some round, a set of pieces
that can all lie on the board at once (pre-placed ones included) while at least
``clear`` birds are scanned. Placement legality is monotone (an arrangement legal as
a whole stays legal when built piece by piece in any order), so the model asks for
the selected set and one arrangement of it, not for the order of placements.

Sections: card play (who plays what in which round, must-follow, decision card,
who starts next), selection (forced piece of the decision card, skills), the puzzle
(shared with the mission solver through ``cpsat.add_placement_model``), then reading
a solution back as rounds. Pieces that are selected but not part of the scan
("filler") must still fit somewhere; that is checked after the solve
(``plan.place_fillers``) and a set for which it fails is cut off and solved again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.codes import Skill
from solver.game.state import GameState
from solver.puzzle.cpsat import Candidates, add_placement_model


@dataclass
class RoundChoice:
    """One round as the solution plays it: cards per player, the lead card, skill and selection."""

    start: int
    lead: Card
    cards: dict[int, list[Card]]  # player -> cards played this round
    decision: Card
    skill: Skill
    pieces: list[Card]  # selected pieces (0, 1 or 2)


class DealModel:
    """Variables and constraints of one deal; ``rounds_of(value)`` reads a solution.

    From the middle of a round (``openhand/midround.py``): ``prefix``, the cards of the first round
    revealed already (the lead first); ``pending``, pieces selected and not placed yet (they come
    to the board whatever the cards do). ``puzzle=False`` leaves the puzzle out: a model of the
    card play and the selections alone. ``rules=True`` puts each seat's must-follow (per colour)
    and its leading rule under a literal of its own (``follow``, ``leads``), to be fixed true,
    or left out to ask what the cards could do without that rule."""

    def __init__(self, state: GameState, cand: Candidates | None, min_pieces: int | None = None,
                 prefix: tuple[Card, ...] = (), pending: tuple[Card, ...] = (), puzzle: bool = True,
                 rules: bool = False):
        self.state = state
        self.pending = tuple(pending)
        mission = state.mission
        self.mission = mission
        self.model = model = cp_model.CpModel()
        spec = state.spec
        n = spec.players
        per_round = spec.cards_per_round
        wild_ok, shift_ok = Skill.WILD_COLOR in spec.skill_kinds, Skill.SHIFT_CHANGE in spec.skill_kinds
        R = spec.rounds
        self.R = R
        hands = [list(h) for h in state.hands]
        holder = {c: p for p, h in enumerate(hands) for c in h}
        self.holder = holder
        cards = sorted(holder)
        self.cards = cards
        by_colour = {k: [c for c in cards if c.colour == k] for k in Colour}
        pre = {p.card for p in mission.placed} | set(pending)

        def rule(lit, constraint):
            if lit is not None:
                constraint.only_enforce_if(lit)

        # ------------------------------------------------------------ card play
        act = [model.new_constant(1)] + [model.new_bool_var(f"active{r}") for r in range(1, max(1, R))]
        for r in range(1, R):
            model.add_implication(act[r], act[r - 1])
        x = {(c, r): model.new_bool_var(f"play_{c}_{r}") for c in cards for r in range(R)}
        lead = {(c, r): model.new_bool_var(f"lead_{c}_{r}") for c in cards for r in range(R)}
        win = {(c, r): model.new_bool_var(f"win_{c}_{r}") for c in cards for r in range(R)}
        for c in cards:
            model.add(sum(x[c, r] for r in range(R)) <= 1)
        for r in range(R):
            for seat in range(n):
                model.add(sum(x[c, r] for c in hands[seat]) == per_round * act[r])
            model.add(sum(lead[c, r] for c in cards) == act[r])
            model.add(sum(win[c, r] for c in cards) == act[r])
            for c in cards:
                model.add_implication(lead[c, r], x[c, r])
                model.add_implication(win[c, r], x[c, r])
        for c in prefix if R else ():  # the first round's cards revealed already
            model.add(x[c, 0] == 1)
        if prefix and R:
            model.add(lead[prefix[0], 0] == 1)
        self.follow = {(p, k): model.new_bool_var(f"follow_{p}_{k.long}") if rules else None
                       for p in range(n) for k in Colour}
        self.leads = {p: model.new_bool_var(f"leads_{p}") if rules else None for p in range(n)}

        def starts(p, r):
            """1 if player p starts round r (linear): the start player, then the holder of the last decision card."""
            if r == 0:
                return 1 if p == state.start_player else 0
            return sum(win[c, r - 1] for c in hands[p])

        for r in range(R):
            for c in cards:
                s = starts(holder[c], r)
                if isinstance(s, int):
                    if not s:
                        rule(self.leads[holder[c]], model.add(lead[c, r] == 0))
                else:
                    rule(self.leads[holder[c]], model.add(lead[c, r] <= s))

        def lead_colour(k, r):
            return sum(lead[c, r] for c in by_colour[k])

        def trump(k, r):
            if r == 0:
                return 1 if k == spec.trump_round_one else 0
            return sum(win[c, r - 1] for c in by_colour[k])

        def played_before(c, r):
            return sum(x[c, q] for q in range(r))

        # Must follow: a player holding cards of the lead colour plays min(per_round, held) of them.
        for r in range(R):
            for seat in range(n):
                for k in Colour:
                    mine = [c for c in hands[seat] if c.colour == k]
                    if not mine:
                        continue
                    plays_k = sum(x[c, r] for c in mine)
                    lc = lead_colour(k, r)
                    lit = self.follow[seat, k]
                    for i, c in enumerate(mine):
                        rule(lit, model.add(plays_k >= lc - played_before(c, r)))
                        if per_round == 2:
                            for c2 in mine[i + 1:]:
                                rule(lit, model.add(plays_k >= 2 * lc - 2 * played_before(c, r)
                                                    - 2 * played_before(c2, r)))

        # Decision card: the highest of its colour in the trick; trump, or else of the lead colour
        # with no trump revealed.
        any_played = {}
        for r in range(R):
            for k in Colour:
                v = any_played[k, r] = model.new_bool_var(f"any_{k.long}_{r}")
                for c in by_colour[k]:
                    model.add_implication(x[c, r], v)
            for c in cards:
                for c2 in by_colour[c.colour]:
                    if c2.value > c.value:
                        model.add_bool_or([win[c, r].negated(), x[c2, r].negated()])
                k = c.colour
                model.add(win[c, r] - trump(k, r) <= lead_colour(k, r))
                for j in Colour:
                    if j != k:
                        model.add(win[c, r] + trump(j, r) + any_played[j, r] <= 2)

        # ------------------------------------------------------------ selection and skills
        def win_value(v, r):
            return sum(win[c, r] for c in cards if c.value == v)

        def win_colour(k, r):
            return sum(win[c, r] for c in by_colour[k])

        ds = [model.new_bool_var(f"double_scan_{r}") for r in range(R)]
        wild = {(k, r): (model.new_bool_var(f"wild_{k.long}_{r}") if wild_ok else model.new_constant(0))
                for k in Colour for r in range(R)}
        up = [model.new_bool_var(f"shift_up_{r}") if shift_ok else model.new_constant(0) for r in range(R)]
        down = [model.new_bool_var(f"shift_down_{r}") if shift_ok else model.new_constant(0) for r in range(R)]
        skill_used = []
        for r in range(R):
            replace = sum(wild[k, r] for k in Colour) + up[r] + down[r]
            model.add(ds[r] + replace <= act[r])
            skill_used.append(ds[r] + replace)
            for k in Colour:
                model.add(wild[k, r] + win_colour(k, r) <= 1)  # wild colour: another colour
            model.add(up[r] + win_value(8, r) <= 1)
            model.add(down[r] + win_value(1, r) <= 1)
            for c in cards:  # double scan: every revealed card of the lead colour
                for k in Colour:
                    if k != c.colour:
                        model.add(ds[r] + x[c, r] + lead_colour(k, r) <= 2)
        model.add(sum(skill_used) <= spec.skills)

        sel: dict[tuple[Card, int], list] = {(p, r): [] for p in ALL_CARDS for r in range(R)}
        self.sel_parts: dict[tuple[Card, int], list[tuple[Skill, Any]]] = {}
        for r in range(R):
            replace = sum(wild[k, r] for k in Colour) + up[r] + down[r]
            for p in ALL_CARDS:
                used_before = (1 if p in pre else 0) + sum(sum(sel[p, q]) for q in range(r))
                parts = []
                if p in holder:  # the decision card's own piece, unless replaced or used
                    d = model.new_bool_var(f"sel_{p}_{r}")
                    model.add(d <= win[p, r])
                    model.add(d + replace <= 1)
                    model.add(d + used_before <= 1)
                    model.add(d >= win[p, r] - replace - used_before)
                    parts.append((Skill.NONE, d))
                    low = model.new_bool_var(f"low_{p}_{r}")  # double scan: the lowest revealed card
                    model.add(low <= ds[r])
                    model.add_implication(low, x[p, r])
                    for c2 in by_colour[p.colour]:
                        if c2.value < p.value:
                            model.add_bool_or([low.negated(), x[c2, r].negated()])
                    parts.append((Skill.DOUBLE_SCAN, low))
                if wild_ok:
                    w = model.new_bool_var(f"wild_{p}_{r}")  # wild colour: same value, this colour
                    model.add(w <= wild[p.colour, r])
                    model.add(w <= win_value(p.value, r))
                    model.add(w >= wild[p.colour, r] + win_value(p.value, r) - 1)
                    parts.append((Skill.WILD_COLOR, w))
                for step, var in ((-1, up[r]), (1, down[r])) if shift_ok else ():  # shift change: from value -/+ 1
                    src = Card(p.colour, p.value + step) if 1 <= p.value + step <= 8 else None
                    if src is None or src not in holder:
                        continue
                    s = model.new_bool_var(f"shift_{p}_{r}_{step}")
                    model.add(s <= var)
                    model.add(s <= win[src, r])
                    model.add(s >= var + win[src, r] - 1)
                    parts.append((Skill.SHIFT_CHANGE, s))
                if not parts:
                    continue
                total = sum(v for _, v in parts)
                model.add(total + used_before <= 1)  # a skill may only select an unused piece
                sel[p, r] = [v for _, v in parts]
                self.sel_parts[p, r] = parts
            # double scan selects exactly one lowest card
            lows = [v for p in ALL_CARDS for kind, v in self.sel_parts.get((p, r), ()) if kind == Skill.DOUBLE_SCAN]
            model.add(sum(lows) == ds[r])

        self.selected = {p: sum(sum(sel[p, r]) for r in range(R)) + (1 if p in pending else 0) for p in ALL_CARDS}

        # ------------------------------------------------------------ the puzzle
        self.puzzle = add_placement_model(model, mission, cand, available=self.selected) if puzzle and cand else None
        if min_pieces:  # redundant, for the search: no solution has fewer pieces
            model.add(sum(self.selected.values()) >= min_pieces)

        self.act, self.x, self.lead, self.win = act, x, lead, win
        self.ds, self.wild, self.up, self.down = ds, wild, up, down
        self.skill_used = skill_used

    def rules(self, leave_out: tuple = ()) -> list:
        """The rule literals to fix true (``rules=True``), but those in ``leave_out``: ``("leads", seat)``,
        ``("follow", seat, colour)`` or ``("follow", seat)`` (every colour)."""
        out = []
        for p, lit in self.leads.items():
            if lit is not None and ("leads", p) not in leave_out:
                out.append(lit)
        for (p, k), lit in self.follow.items():
            if lit is not None and ("follow", p) not in leave_out and ("follow", p, k) not in leave_out:
                out.append(lit)
        return out

    # ------------------------------------------------------------ cuts
    def forbid_selection(self, selected: set[Card]) -> None:
        """No solution may end with exactly this selected set (its fillers do not fit)."""
        lits = []
        for p in ALL_CARDS:
            if isinstance(self.selected[p], int):
                continue
            b = self.model.new_bool_var(f"cut_{p}")
            if p in selected:
                self.model.add(self.selected[p] == 0).only_enforce_if(b)
            else:
                self.model.add(self.selected[p] == 1).only_enforce_if(b)
            lits.append(b)
        self.model.add_bool_or(lits)

    # ------------------------------------------------------------ reading a solution
    def rounds_of(self, value) -> list[RoundChoice]:
        out = []
        start = self.state.start_player
        for r in range(self.R):
            if not value(self.act[r]):
                break
            lead = next(c for c in self.cards if value(self.lead[c, r]))
            played: dict[int, list[Card]] = {p: [] for p in range(self.state.players)}
            for c in self.cards:
                if value(self.x[c, r]):
                    played[self.holder[c]].append(c)
            decision = next(c for c in self.cards if value(self.win[c, r]))
            skill = Skill.NONE
            if value(self.ds[r]):
                skill = Skill.DOUBLE_SCAN
            elif any(value(self.wild[k, r]) for k in Colour):
                skill = Skill.WILD_COLOR
            elif value(self.up[r]) or value(self.down[r]):
                skill = Skill.SHIFT_CHANGE
            pieces = [p for p in ALL_CARDS for _, v in self.sel_parts.get((p, r), ()) if value(v)]
            out.append(RoundChoice(start, lead, played, decision, skill, pieces))
            start = self.holder[decision]
        return out
