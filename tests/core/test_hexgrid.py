"""Hex geometry: labels, neighbours, distance, exact sight lines, movement."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import hexgrid as hg

hexes = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


def test_labels_round_trip_and_reject_garbage():
    for col in range(30):
        for row in range(30):
            h = hg.from_offset(col, row)
            assert hg.to_offset(h) == (col, row)
            assert hg.parse_label(hg.label(h)) == h
    for bad in ("507", "05a7", "0007", "0500", "", "12345"):
        with pytest.raises(hg.BadLabel):
            hg.parse_label(bad)


def test_even_columns_sit_half_a_hex_lower():
    # 0101's neighbours in column 02 are 0201 (down-right) only; 0202 is two away.
    assert hg.distance(hg.parse_label("0101"), hg.parse_label("0201")) == 1
    assert hg.distance(hg.parse_label("0101"), hg.parse_label("0202")) == 2
    # 0201's neighbours in column 03 are 0301 and 0302.
    assert hg.distance(hg.parse_label("0201"), hg.parse_label("0302")) == 1
    x1, y1 = hg.pixel_center(hg.parse_label("0101"), 10)
    x2, y2 = hg.pixel_center(hg.parse_label("0201"), 10)
    assert x2 > x1 and y2 == pytest.approx(y1 + 10 * math.sqrt(3) / 2)


@given(hexes, hexes)
def test_distance_is_a_metric_matching_neighbour_steps(a, b):
    assert hg.distance(a, b) == hg.distance(b, a)
    assert (hg.distance(a, b) == 0) == (a == b)
    for n in hg.neighbours(a):
        assert hg.distance(a, n) == 1
        assert abs(hg.distance(n, b) - hg.distance(a, b)) <= 1


def _crosses_by_sampling(a, b, h, samples=4000):
    """Brute force: does the centre line pass through the interior of hex h?"""
    ax, ay = hg.pixel_center(a, 1.0)
    bx, by = hg.pixel_center(b, 1.0)
    cx, cy = hg.pixel_center(h, 1.0)
    inside = 0
    for i in range(1, samples):
        t = i / samples
        x, y = ax + (bx - ax) * t - cx, ay + (by - ay) * t - cy
        # Flat-topped hex of circumradius 1, shrunk a hair so boundary points do not count.
        r = 0.999
        if abs(y) < r * math.sqrt(3) / 2 and math.sqrt(3) * abs(x) + abs(y) < r * math.sqrt(3):
            inside += 1
    return inside > 0


@pytest.mark.parametrize(
    "target",
    [
        hg.label(h)
        for h in hg.within(hg.parse_label("0606"), 5)
        if hg.distance(h, hg.parse_label("0606")) >= 2
    ][::3],
)
def test_sight_line_crossed_hexes_match_brute_force(target):
    a, b = hg.parse_label("0606"), hg.parse_label(target)
    line = hg.sight_line(a, b)
    edge_hexes = {h for pair in line.edges for h in pair}
    for h in hg.within(a, 6):
        if h in (a, b):
            continue
        expected = _crosses_by_sampling(a, b, h)
        assert (h in line.crossed) == (expected and h not in edge_hexes), (target, hg.label(h))


def test_line_along_a_hexside_is_reported_as_an_edge_pair_not_crossed():
    a = (0, 0)
    b = (1, 1)  # the line runs along the side shared by (1, 0) and (0, 1)
    line = hg.sight_line(a, b)
    assert line.crossed == ()
    assert line.edges == (((0, 1), (1, 0)),)
    one = {(1, 0)}
    both = {(1, 0), (0, 1)}
    assert hg.line_clear(a, b, one.__contains__, edge_rule="both")
    assert not hg.line_clear(a, b, one.__contains__, edge_rule="either")
    assert not hg.line_clear(a, b, both.__contains__, edge_rule="both")


def test_line_of_sight_blocked_by_a_crossed_hex_only():
    a, b = hg.parse_label("0101"), hg.parse_label("0104")
    assert not hg.line_clear(a, b, {hg.parse_label("0102")}.__contains__)
    assert hg.line_clear(a, b, {hg.parse_label("0202")}.__contains__)
    # Adjacent hexes always see each other; the ends never block.
    assert hg.line_clear(a, hg.parse_label("0102"), lambda h: True)


GRID = hg.HexMap.rectangle(10, 10)


def _reach(start, points, **kw):
    cost = kw.pop("cost", [1] * len(GRID))
    ends, _ = hg.reachable(GRID, GRID.idx(start), points, cost, **kw)
    return {GRID.labels[i]: c for i, c in ends.items()}


def test_reachable_counts_terrain_costs_in_half_points():
    cost = [1] * len(GRID)
    cost[GRID.idx("0506")] = 2
    reach = _reach("0505", 2, cost=cost)
    assert reach["0506"] == 4  # two points to enter the rough hex
    assert "0507" not in reach  # three points via the rough hex, or around: 3 steps
    assert reach["0504"] == 2


def test_enemy_hexes_block_and_friends_can_be_passed_but_not_ended_on():
    enemy = {GRID.idx("0506")}
    friends = {GRID.idx("0504")}
    reach = _reach("0505", 2, enemy=enemy, friends=friends)
    assert "0506" not in reach and "0504" not in reach
    assert "0503" in reach  # through the friend


def test_entering_enemy_zoc_stops_and_zoc_to_zoc_is_forbidden():
    zoc = {GRID.idx(h) for h in ("0506", "0606")}
    reach = _reach("0505", 4, enemy_zoc=zoc)
    assert "0506" in reach
    assert "0507" in reach  # reachable around, not through the ZOC hex
    stuck = _reach("0506", 3, enemy_zoc=zoc)
    # Not straight from one ZOC hex into the next (cost 2); only by stepping out first.
    assert stuck["0606"] == 4
    assert _reach("0506", 3, enemy_zoc=zoc, ignore_zoc=True)["0606"] == 2


def test_roads_give_two_hexes_per_point_and_ignore_stopping_terrain():
    road = ["0501", "0502", "0503", "0504", "0505"]
    links = set()
    for x, y in zip(road, road[1:]):
        links |= {(GRID.idx(x), GRID.idx(y)), (GRID.idx(y), GRID.idx(x))}
    stops = {GRID.idx("0503")}
    reach = _reach("0501", 2, road_links=links, stops=stops)
    assert reach["0505"] == 4  # four road hexes for two points, through a stop hex
    off_road = _reach("0501", 2, stops=stops)
    assert "0504" not in off_road  # the stop hex ends the move off the road
    # A road step into enemy ZOC costs full terrain and stops.
    zoc = {GRID.idx("0503")}
    reach_zoc = _reach("0501", 2, road_links=links, enemy_zoc=zoc)
    assert reach_zoc["0503"] == 3 and "0504" not in reach_zoc
