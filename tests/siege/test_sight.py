"""Sight and cover over heights (rulebook 1.4, 1.5), including the worked examples 1.45 and 1.46
reproduced on maps we authored for them (tests/siege/maps/)."""

from __future__ import annotations

from pathlib import Path

from engine.core import hexgrid
from engine.siege import data, sight
from engine.siege.board import centre, segment_cells

MAPS = Path(__file__).resolve().parent / "maps"
LONGBOW = data.fire()["weapons"]["longbow"]["bands"]


def _board(name):
    return data.load_board(MAPS / f"{name}.json", name)


def _can(board, shooter, target, living=None, bridge_up=False, bands=LONGBOW):
    return sight.look(board, living or {}, shooter, target, bands=bands, bridge_up=bridge_up)


# Figures of the 1.45 example: A on the keep, B on the parapet, the others outside.
A, B, C, D, E, F, G = "0602", "0504", "0605", "0607", "0806", "0907", "0608"


def test_example_1_45_from_the_keep():
    board = _board("example-1-45")
    assert _can(board, A, G).possible and _can(board, A, D).possible
    c = _can(board, A, C)
    assert not c.possible and "closer than 0602" in c.reasons[-1]  # C 1 from the wall, A 2
    for near_tower in (E, F):
        result = _can(board, A, near_tower)
        assert not result.possible and "arrow slit (tower)" in result.reasons[-1]


def test_example_1_45_from_the_parapet_and_back():
    board = _board("example-1-45")
    for target in (C, D, E):
        assert _can(board, B, target).possible, target
    f = _can(board, B, F)
    assert not f.possible and "grazes" in f.reasons[-1]
    for shooter in (C, D, G, E):
        back = _can(board, shooter, B)
        assert back.possible and back.cover == "heavy", shooter


def test_example_1_45_figure_behind_the_tower_slit_only_from_its_straight_line():
    board = _board("example-1-45")
    slit = "0805"
    shooters = [x for x in (C, D, E, F, G) if _can(board, x, slit).possible]
    assert shooters == [E]
    assert _can(board, E, slit).cover == "heavy"
    assert "straight line" in _can(board, D, slit).reasons[-1]


def test_example_1_45_enemy_on_the_parapet_has_no_cover_from_the_keep():
    board = _board("example-1-45")
    shot = _can(board, A, B)
    assert shot.possible and shot.cover == "none"


def test_example_1_45_own_figure_d_hides_g_from_a_and_b():
    board = _board("example-1-45")
    living = {D: "D"}
    assert not _can(board, A, G, living).possible
    assert not _can(board, B, G, living).possible
    assert _can(board, A, G).possible and _can(board, B, G).possible


# Figures of the 1.46 example: A on a parapet, E behind a tower slit, C and D in the moat,
# B outside, two cells from the moat.
A46, E46, C46, D46, B46 = "0302", "0602", "0404", "0604", "0407"


def test_example_1_46_shots_into_the_moat():
    board = _board("example-1-46")
    for shooter in (A46, E46):
        for target in (B46, C46, D46):
            assert _can(board, shooter, target).possible, (shooter, target)
    for moat in (C46, D46):
        refused = _can(board, B46, moat)
        assert not refused.possible and "edge" in refused.reasons[-1]
        assert not _can(board, moat, B46).possible
        assert not _can(board, moat, E46).possible


def test_moat_gives_no_cover_and_moat_figures_do_not_block_ground_lines():
    board = _board("example-1-46")
    assert _can(board, A46, C46).cover == "none"
    # Figures in the moat stand below the ground: a shot between two outside cells across the
    # moat passes over them.
    castle = data.board()
    found = None
    for a in ("0101", "0102", "0201"):
        for b in castle.labels():
            line = [
                hexgrid.label(h)
                for h in hexgrid.sight_line(hexgrid.parse_label(a), hexgrid.parse_label(b)).crossed
            ]
            kinds = {castle.cell(x).kind for x in line if x in castle}
            if castle.cell(b).kind == "open" and "moat" in kinds and kinds <= {"moat", "open"}:
                found = (a, b, [x for x in line if castle.cell(x).kind == "moat"])
                break
        if found:
            break
    assert found
    a, b, moat = found
    # bands=None: range is not judged, so figures that block are never shot over.
    assert _can(castle, a, b, {x: "x" for x in moat}, bands=None).possible
    ground = [
        hexgrid.label(h)
        for h in hexgrid.sight_line(hexgrid.parse_label(a), hexgrid.parse_label(b)).crossed
        if castle.cell(hexgrid.label(h)).kind == "open"
    ]
    assert ground and not _can(castle, a, b, {ground[0]: "x"}, bands=None).possible


def test_a_line_crossing_a_higher_building_is_blocked_and_explained():
    board = data.board()
    text = sight.explain(board, {}, "1112", "1106", bands=LONGBOW)
    assert text.startswith("No shot from 1112 to 1106")
    assert "keep" in text and "(1.41)" in text


def test_parapet_shooter_starts_at_the_battlement_and_range_counts_from_the_wall():
    board = data.board()
    shot = _can(board, "0704", "0701")
    assert shot.possible and shot.from_wall and shot.distance == 2
    assert hexgrid.distance(hexgrid.parse_label("0704"), hexgrid.parse_label("0701")) == 3


def test_slit_shoots_only_through_its_opening():
    board = data.board()
    refused = _can(board, "1208", "1213")
    assert not refused.possible and "opening" in refused.reasons[-1]


def test_figure_in_a_doorway_has_medium_cover_and_keep_entrance_full():
    board = data.board()
    door = _can(board, "0807", "0506")
    assert door.possible and door.cover == "medium"
    keep_door = _can(board, "1114", "1111")
    assert not keep_door.possible and keep_door.cover == "full"
    assert not _can(board, "1111", "1114").possible


def test_raised_drawbridge_gives_full_cover_inside_except_on_parapets():
    board = data.board()
    assert _can(board, "1119", "1115").possible
    raised = _can(board, "1119", "1115", bridge_up=True)
    assert not raised.possible and raised.cover == "full"
    assert _can(board, "0819", "0816", bridge_up=True).possible  # parapet south wall


def test_lowered_bridge_gives_the_gateway_heavy_cover_from_outside_only():
    board = data.board()
    outside = _can(board, "1119", "1116")
    assert outside.possible and outside.cover == "heavy" and "(1.57)" in outside.reasons[-2]
    assert _can(board, "1113", "1116").cover == "none"  # from the courtyard
    assert not _can(board, "1119", "1116", bridge_up=True).possible  # bridge up: the gate is shut


def test_short_range_cannot_shoot_over_figures_medium_range_can_with_light_cover():
    board = _board("example-1-46")
    shooter, target, between = "0105", "0905", "0505"
    assert not _can(board, shooter, target, {between: "x"}).possible
    tiny = {"short": 2, "medium": 9, "long": 12}
    over = _can(board, shooter, target, {between: "x"}, bands=tiny)
    assert over.possible and over.band == "medium" and over.cover == "light"


def test_exact_segment_test_agrees_with_the_core_on_every_centre_line():
    for target in hexgrid.within((0, 0), 8):
        if target == (0, 0):
            continue
        core = hexgrid.sight_line((0, 0), target)
        ours = segment_cells(centre((0, 0)), centre(target), exclude=((0, 0), target))
        assert set(core.crossed) == set(ours.crossed)
        assert sorted(map(sorted, core.edges)) == sorted(map(sorted, ours.edges))


def test_line_along_a_hexside_between_two_figures_blocks_only_when_both_are_there():
    board = _board("example-1-46")
    a, b = hexgrid.parse_label("0106"), None
    # Find a centre line on open ground that runs along one hexside.
    for target in hexgrid.within(a, 3):
        line = hexgrid.sight_line(a, target)
        if (
            line.edges
            and hexgrid.label(target) in board
            and board.cell(hexgrid.label(target)).kind == "open"
            and all(hexgrid.label(h) in board for pair in line.edges for h in pair)
            and not line.crossed
        ):
            b = target
            break
    assert b is not None
    first, second = (hexgrid.label(h) for h in hexgrid.sight_line(a, b).edges[0])
    shooter, target = hexgrid.label(a), hexgrid.label(b)
    assert _can(board, shooter, target, {first: "x"}).possible
    assert not _can(board, shooter, target, {first: "x", second: "y"}).possible


def test_through_a_door_only_at_its_level_and_only_into_or_out_of_its_building():
    board = data.board()
    inside = _can(board, "0704", "0505")  # parapet, through door 0604
    assert inside.possible and inside.cover == "medium"
    assert any("0604" in r and "(1.43)" in r for r in inside.reasons)
    assert not _can(board, "0707", "0505").possible  # courtyard: below the door's level
    past = _can(board, "0816", "1114")  # past the gate tower's door 1015
    assert not past.possible and "1015" in past.reasons[-1]


def test_from_a_doorway_the_line_starts_at_the_door():
    # 1.43: "… dann wird die Schußlinie von der Mitte der Tür ermittelt und nicht von der Mitte
    # des Feldes". Our doors are whole cells: the line starts on the side by which it leaves the
    # building, and the answer says so; range still counts from the cell.
    board = data.board()
    out = _can(board, "0506", "1012")  # courtyard door of the NW tower
    assert out.possible and out.distance == 9
    assert any("starts at the door" in r and "(1.43)" in r for r in out.reasons)
    inward = _can(board, "0506", "0505")  # into its own tower: no door side crossed
    assert not any("starts at the door" in r for r in inward.reasons)
