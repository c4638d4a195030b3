import pytest

from engine.core.errors import ScenarioError
from engine.rivetwars import data
from engine.rivetwars.board import deviation_step, seg_range
from engine.rivetwars.rules import board
from tests.rivetwars.util import RS, legal, make, unit


def test_segments_are_named_by_their_top_left_square():
    b = board(make())
    assert (b.seg_cols, b.seg_rows) == (9, 6)  # 3x2 tiles of 3x3 segments
    assert (b.columns, b.rows) == (18, 12)  # each segment 2x2 squares
    assert b.labels()[:3] == ["A1", "C1", "E1"] and b.labels()[9] == "A3"
    assert b.parse_seg("C3") == (1, 1)
    assert b.parse_seg("D3") is None and b.parse_seg("C4") is None and b.parse_seg("S1") is None


def test_segments_are_adjacent_in_eight_directions():
    b = board(make())
    assert sorted(b.neighbours((1, 1))) == sorted(
        [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)]
    )
    assert sorted(b.neighbours((0, 0))) == [(0, 1), (1, 0), (1, 1)]


def test_range_counts_segments_with_at_most_one_diagonal():
    assert seg_range((0, 0), (1, 1)) == 1
    assert seg_range((0, 0), (2, 1)) == 2
    assert seg_range((0, 0), (2, 2)) == 3  # only one diagonal may be crossed
    assert seg_range((0, 0), (3, 0)) == 3


def test_rifleman_with_ground_range_two_reaches_these_segments():
    state = make(
        units=[unit("rifleman", "E5", id="r1")]
        + [
            unit("panzerfaust", at, id=f"p{i}")
            for i, at in enumerate(["I5", "G7", "I9", "I7", "A1", "K5"])
        ]
    )
    targets = {a["to"] for a in legal(state, "attack")}
    # E5 is segment (2,2): I5 two east, G7 one diagonal, I7 a diagonal and a step (2);
    # I9 and A1 need two diagonals (3), K5 is three east.
    assert targets == {"I5", "G7", "I7"}


def test_board_is_assembled_from_the_missions_tile_grid():
    b = board(make())
    tiles = data.tiles()
    # mission 1: "5A 3B 2B / 9A 8A 7A"; tile 9A is the first tile of the second row (squares A7..F12)
    for y, line in enumerate(tiles["9A"]):
        for x, ch in enumerate(line):
            assert ((x, 6 + y) in b.walkways) == (ch == "#")
    for y, line in enumerate(tiles["2B"]):
        for x, ch in enumerate(line):
            assert ((12 + x, y) in b.walkways) == (ch == "#")


def test_a_double_sided_tile_is_used_once():
    with pytest.raises(ScenarioError, match="only once"):
        RS.build_scenario({"mission": "mission-1", "tiles": "5A 5B 2B / 9A 8A 7A"})


def test_deviation_diagram_is_read_from_the_active_players_side():
    # Allies hold the southern edge and look north; the Bismark look south.
    assert deviation_step("F", True) == (0, -1) and deviation_step("F", False) == (0, 1)
    assert deviation_step("L", True) == (-1, 0) and deviation_step("L", False) == (1, 0)
    assert deviation_step("FR", True) == (1, -1) and deviation_step("FR", False) == (-1, 1)
