"""RULES.md: placement, adjacency and scanning, each rule with a test that names it."""

import pytest

from solver.core.board import parse_cell
from solver.core.cards import Card
from solver.core.errors import IllegalPlacement
from solver.core.rules import Board, Placement, blocked_reason, grow, halo, mask_of
from tests.helpers.missiontext import board_text, mission_text

ONE_BIRD = board_text({5: ".....r......", 6: "....bAy.....", 7: ".....g......"})  # A at f6


def P(piece, *cells):
    return Placement.parse(piece, cells)


def test_halo_is_edge_neighbours_only():
    m = mask_of([parse_cell("f6")])
    assert halo(m) == mask_of(parse_cell(c) for c in ("f5", "f7", "e6", "g6"))
    corner = mask_of([parse_cell("a1")])
    assert halo(corner) == mask_of([parse_cell("b1"), parse_cell("a2")])
    # no wrap-around between column l and column a of the next row
    assert not grow(mask_of([parse_cell("l1")])) & mask_of([parse_cell("a2")])


class TestPlacementRules:
    def board(self, load):
        return Board.start(load(mission_text(ONE_BIRD)))

    def test_rule_placement_not_on_bird(self, load, catalog):

        """RULES.md §16."""
        b = self.board(load)
        assert "bird" in b.placement_problem(P("red-2", "f6", "g6"), catalog[Card.parse("red-2")])

    def test_rule_placement_not_on_placed_scanner(self, load, catalog):

        """RULES.md §16."""
        b = self.board(load)
        b.place(P("red-2", "a1", "b1"), catalog[Card.parse("red-2")])
        assert "overlaps" in b.placement_problem(P("blue-2", "b1", "c1"))

    def test_rule_no_edge_contact_same_colour(self, load):

        """RULES.md §16."""
        b = self.board(load)
        b.place(P("red-2", "a1", "b1"))
        assert "shares an edge" in b.placement_problem(P("red-1", "c1"))
        assert "shares an edge" in b.placement_problem(P("red-1", "a2"))

    def test_rule_corners_of_same_colour_may_touch(self, load):

        """RULES.md §16."""
        b = self.board(load)
        b.place(P("red-2", "a1", "b1"))
        assert b.placement_problem(P("red-1", "c2")) is None

    def test_rule_different_colours_may_touch(self, load):

        """RULES.md §16."""
        b = self.board(load)
        b.place(P("red-2", "a1", "b1"))
        assert b.placement_problem(P("blue-1", "c1")) is None

    def test_rule_touching_birds_is_allowed(self, load):

        """RULES.md §16."""
        b = self.board(load)
        assert b.placement_problem(P("red-1", "f5")) is None

    def test_rule_piece_used_once(self, load):

        """RULES.md §15."""
        b = self.board(load)
        b.place(P("red-1", "a1"))
        assert "already" in b.placement_problem(P("red-1", "l12"))

    def test_rule_rotation_and_reflection_allowed_other_shapes_not(self, load, catalog):

        """RULES.md §2, §16."""
        b = self.board(load)
        shape = catalog[Card.parse("red-5")]  # L tetromino ###/#..
        assert b.placement_problem(P("red-5", "a1", "a2", "a3", "b3"), shape) is None  # rotated
        assert b.placement_problem(P("red-5", "a1", "b1", "c1", "c2"), shape) is None  # reflected
        assert "shape" in b.placement_problem(P("red-5", "a1", "b1", "c1", "d1"), shape)

    def test_illegal_place_raises(self, load):
        b = self.board(load)
        with pytest.raises(IllegalPlacement):
            b.place(P("red-2", "f6", "g6"))

    def test_legal_placements_respect_every_rule(self, load, catalog):
        b = self.board(load)
        b.place(P("red-2", "a1", "b1"))
        card = Card.parse("red-3")
        legal = b.legal_placements(card, catalog[card])
        assert legal and all(b.placement_problem(p, catalog[card]) is None for p in legal)
        assert not any(parse_cell("c1") in p.cells for p in legal)
        assert b.legal_placements(Card.parse("red-2"), catalog[Card.parse("red-2")]) == []


class TestScanning:
    def test_rule_scan_needs_every_outside_neighbour_and_colours(self, load):
        """RULES.md §19."""
        m = load(mission_text(ONE_BIRD))
        bird = m.bird("A")
        placements = [P("red-1", "f5"), P("yellow-1", "g6"), P("green-1", "f7")]
        board = Board.start(m)
        for p in placements:
            board.place(p)
            assert not board.is_scanned(bird)
        board.place(P("blue-1", "e6"))
        assert board.is_scanned(bird) and board.scanned() == ["A"]

    def test_rule_coloured_side_needs_its_colour(self, load):

        """RULES.md §19, §21."""
        m = load(mission_text(ONE_BIRD))
        board = Board.start(m)
        for p in [P("red-1", "f5"), P("yellow-1", "g6"), P("green-1", "f7"), P("purple-1", "e6")]:
            board.place(p)
        assert not board.is_scanned(m.bird("A"))
        assert not board.can_still_be_scanned(m.bird("A"))

    def test_uncoloured_side_takes_any_colour(self, load):
        m = load(mission_text(board_text({6: ".....A......"})))
        board = Board.start(m)
        for p in [P("red-1", "f5"), P("red-2", "g6", "h6"), P("purple-1", "f7"), P("green-1", "e6")]:
            board.place(p)
        assert board.scanned() == ["A"]

    def test_rule_bird_on_board_edge_never_scanned(self, load):

        """RULES.md §20."""
        m = load(mission_text(board_text({1: "A..........."})))
        assert blocked_reason(m, m.bird("A")) is not None
        board = Board.start(m)
        board.place(P("red-1", "b1"))
        board.place(P("blue-1", "a2"))
        assert not board.is_scanned(m.bird("A"))

    def test_rule_bird_facing_bird_never_scanned(self, load):

        """RULES.md §20."""
        m = load(mission_text(board_text({6: ".....AB....."}), clear=1))
        assert "faces bird B" in blocked_reason(m, m.bird("A"))
        board = Board.start(m)
        for p in [P("red-1", "f5"), P("red-2", "f7", "g7"), P("blue-1", "g5"), P("blue-2", "e6", "e7"),
                  P("green-1", "h6")]:
            board.place(p)
        assert board.scanned() == []

    def test_rule_one_mark_cell_faces_several_sides(self, load):

        """RULES.md §3."""
        # the mark at f6 faces bird A (e6) and bird B (g6)
        m = load(mission_text(board_text({6: "....ArB....."}), clear=2))
        assert m.mark_map[parse_cell("f6")].letter == "r"
        assert blocked_reason(m, m.bird("A")) is None and blocked_reason(m, m.bird("B")) is None

    def test_rule_clear_check_counts_birds(self, load):

        """RULES.md §18."""
        m = load(mission_text(board_text({3: "..A.........", 9: ".........B.."}), clear=1))
        board = Board.start(m)
        for p in [P("red-1", "c2"), P("blue-1", "b3"), P("green-1", "d3"), P("yellow-1", "c4")]:
            board.place(p)
        assert board.scanned() == ["A"] and board.is_cleared()

    def test_rule_preplaced_pieces_count_as_used_and_cover(self, load):

        """RULES.md §9."""
        extra = '[[placed]]\npiece = "red-1"\ncells = ["f5"]\n'
        m = load(mission_text(ONE_BIRD, extra=extra))
        board = Board.start(m)
        assert board.is_used(Card.parse("red-1"))
        assert board.colour_at(parse_cell("f5")).long == "red"

    def test_rule_preplaced_wrong_colour_on_mark_spoils_bird(self, load):

        """RULES.md §21."""
        extra = '[[placed]]\npiece = "blue-1"\ncells = ["f5"]\n'
        m = load(mission_text(ONE_BIRD, extra=extra))
        assert not Board.start(m).can_still_be_scanned(m.bird("A"))
