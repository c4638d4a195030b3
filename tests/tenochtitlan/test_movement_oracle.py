"""Completeness of movement: in real game positions, the destinations legal_actions offers equal
those of a slow, independent search written straight from the rulebook's movement clauses."""
import heapq

import pytest

from engine.core import hexgrid
from engine.core.dice import seeded
from engine.core.game import _Chooser, apply_action, new_game
from engine.tenochtitlan.data import cards_by_id, packaged_map, terrain_chart, unit_types

from .helpers import RULES, legal

BOARD = packaged_map("standard")
CHART = terrain_chart()
TYPES = unit_types()


def oracle(state, uid):
    """Every hex the unit may end on, by exhaustive search over (hex, half points, may go on)."""
    unit = state["units"][uid]
    t = TYPES[unit["type"]]
    kind = t["class"]
    card = cards_by_id()[state["card"]]
    points = t["movement"]
    special = card.get("special") or {}
    if special.get("kind") == "movement_bonus" and kind in special["classes"]:
        points += special["bonus"]
    by_hex = {u["at"]: u for u in state["units"].values()}
    enemy_zoc = set()
    for other in state["units"].values():
        if other["side"] != unit["side"] and not other["disorganised"]:
            enemy_zoc |= {hexgrid.label(n) for n in hexgrid.neighbours(hexgrid.parse_label(other["at"]))}
    water = kind in ("canoe", "brigantine")
    roads = set()
    for road in BOARD.roads:
        for a, b in zip(road, road[1:]):
            roads |= {(a, b), (b, a)}

    def enter(here, there):
        """(half points, may continue) to step here -> there, or None if forbidden."""
        if there not in BOARD.grid.by_label:
            return None
        occupant = by_hex.get(there)
        if occupant and occupant["side"] != unit["side"]:
            return None
        terrain = CHART["types"][BOARD.terrain[BOARD.idx(there)]]
        medium = terrain["medium"]
        if water:
            if medium == "land":
                return None
            if medium == "crossing":
                if kind == "canoe":
                    return 2, True
                if terrain.get("bridge"):
                    return None
                friend = by_hex.get(there)
                if not (friend and friend["side"] == unit["side"]
                        and TYPES[friend["type"]]["class"] not in ("canoe", "brigantine")):
                    return None          # only where a friendly land unit stands
                return 2 * CHART["brigantine_causeway_cost"], True
            return 2, True
        if medium == "water":
            return None
        in_zoc = there in enemy_zoc
        if (here, there) in roads and not in_zoc:
            return 1, True
        return 2 * terrain["cost"], not (in_zoc or terrain["stop"])

    start = unit["at"]
    best = {(start, True): 0}
    queue = [(0, start, True)]
    ends = set()
    while queue:
        cost, here, go_on = heapq.heappop(queue)
        if here != start:
            ends.add(here)
        if not go_on:
            continue
        for n in hexgrid.neighbours(hexgrid.parse_label(here)):
            there = hexgrid.label(n)
            step = enter(here, there)
            if step is None:
                continue
            if not water and here == start and start in enemy_zoc and there in enemy_zoc:
                continue              # never straight from one enemy ZOC hex into another
            new = cost + step[0]
            if new > 2 * points or best.get((there, step[1]), 1 << 30) <= new:
                continue
            best[(there, step[1])] = new
            heapq.heappush(queue, (new, there, step[1]))
    ends = {h for h in ends if h not in by_hex}
    if water:
        ends = {h for h in ends if BOARD.medium[BOARD.idx(h)] == "water"}
    return ends


@pytest.mark.parametrize("seed", [4])
def test_offered_moves_equal_an_independent_search(seed):
    state, _ = new_game(RULES, RULES.load_scenario("historical"), seed)
    chooser = _Chooser(seed)
    checked = 0
    for step in range(1, 160):
        if state["result"]:
            break
        side = RULES.awaiting(state)[0]
        actions = RULES.legal_actions(state, side)
        if state["phase"] == "movement" and not state.get("pending") and len(state["moved"]) < \
                cards_by_id()[state["card"]]["move"]:
            for uid, unit in state["units"].items():
                if unit["side"] != side or unit["disorganised"] or uid in state["moved"]:
                    continue
                offered = {a["to"] for a in legal(state, side, "move") if a["unit"] == uid}
                assert offered == oracle(state, uid), (uid, unit["at"])
                checked += 1
        state, _ = apply_action(RULES, state, chooser.pick(actions), seeded(seed, step))
    assert checked > 50
