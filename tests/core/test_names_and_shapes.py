"""Value types: colours, cards, cells, shapes and their orientations."""

import pytest

from solver.core.board import A1, L12, Shape, all_positions, cell_name, neighbours, parse_cell
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.errors import ParseError


@pytest.mark.parametrize("text", ["purple-8", "purple8", "p8", "P-8", "PURPLE-8", " p 8 "])
def test_card_names_accepted(text):
    assert Card.parse(text) == Card(Colour.PURPLE, 8)
    assert str(Card.parse(text)) == "purple-8"


@pytest.mark.parametrize("text", ["purple-9", "x3", "red", "r0", "", "8p"])
def test_bad_card_names_rejected(text):
    with pytest.raises(ParseError):
        Card.parse(text)


def test_forty_cards_with_compact_indices():


    """RULES.md §2."""
    assert len(ALL_CARDS) == 40
    assert [c.index for c in ALL_CARDS] == list(range(40))
    assert all(Card.from_index(c.index) == c for c in ALL_CARDS)


def test_cell_names_top_left_to_bottom_right():


    """RULES.md §1."""
    assert cell_name(A1) == "a1" and parse_cell("a1") == 0
    assert cell_name(L12) == "l12" and parse_cell("L12") == 143
    assert parse_cell("c10") == 9 * 12 + 2
    for bad in ("m1", "a13", "a0", "z", "11"):
        with pytest.raises(ParseError):
            parse_cell(bad)


def test_neighbours_share_an_edge_and_stay_on_board():
    assert sorted(map(cell_name, neighbours(A1))) == ["a2", "b1"]
    assert len(neighbours(parse_cell("f6"))) == 4


@pytest.mark.parametrize("shape,count", [("#", 1), ("##", 2), ("##/##", 1), ("###/.#.", 4),
                                         ("###/#..", 8), (".##/##./.#.", 8), (".#./###/.#.", 1),
                                         ("#../###/..#", 4)])
def test_orientations_remove_duplicates(shape, count):
    """RULES.md §2."""
    assert len(Shape.parse(shape).orientations()) == count


def test_shape_parse_accepts_newlines_and_slashes():
    assert Shape.parse("\n  ##\n  #.\n") == Shape.parse("##/#.")


@pytest.mark.parametrize("bad", ["#.#", "", "..", "#x#", "#./.#"])
def test_shape_parse_rejects_bad_shapes(bad):
    with pytest.raises(ParseError):
        Shape.parse(bad)


def test_positions_are_inside_board_and_distinct():
    pos = all_positions(Shape.parse("####"))
    assert len(pos) == 2 * 12 * 9
    assert len(set(pos)) == len(pos)
    assert all(all(0 <= c < 144 for c in p) for p in pos)


def test_default_catalog_matches_the_rules_sizes(catalog):


    """RULES.md §2."""
    sizes = {1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}
    for card in ALL_CARDS:
        assert catalog[card].size == sizes[card.value]
    # shapes differ between colours where the size allows (sizes 4 and 5)
    for value in (5, 6, 7, 8):
        shapes = {catalog[Card(c, value)].orientations() for c in Colour}
        assert len(shapes) == 5
