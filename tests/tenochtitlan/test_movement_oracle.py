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


def oracle_all(state, uid):
    """Every hex the unit could end on, friends' hexes included, by exhaustive search over
    (hex, half points, may go on)."""
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
            enemy_zoc |= {
                hexgrid.label(n) for n in hexgrid.neighbours(hexgrid.parse_label(other["at"]))
            }
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
                if not (
                    friend
                    and friend["side"] == unit["side"]
                    and TYPES[friend["type"]]["class"] not in ("canoe", "brigantine")
                ):
                    return None  # only where a friendly land unit stands
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
                continue  # never straight from one enemy ZOC hex into another
            new = cost + step[0]
            if new > 2 * points or best.get((there, step[1]), 1 << 30) <= new:
                continue
            best[(there, step[1])] = new
            heapq.heappush(queue, (new, there, step[1]))
    if water:
        ends = {h for h in ends if BOARD.medium[BOARD.idx(h)] == "water"}
    return ends


def oracle(state, uid):
    """Destinations offered to ``uid``: an empty hex, or a friend's hex if that friend (or a chain
    of unmoved friends it could move onto) can then reach an empty hex within the card's limit;
    while a hex holds two, only its unit that has not moved may move (one unit per hex binds the
    end of the movement phase)."""
    holders = {}
    for other, u in state["units"].items():
        holders.setdefault(u["at"], []).append(other)
    stacks = [h for h, us in holders.items() if len(us) > 1]
    if stacks and not any(uid in holders[h] for h in stacks):
        return set()
    left = cards_by_id()[state["card"]]["move"] - len(state["moved"])
    start = state["units"][uid]["at"]
    vacated = set() if start in stacks else {start}

    memo = {}

    def ends_of(other):
        if other not in memo:
            memo[other] = oracle_all(state, other)
        return memo[other]

    def clears(friend, budget, seen):
        if budget < 1 or friend in state["moved"] or state["units"][friend]["disorganised"]:
            return False
        for h in ends_of(friend):
            if h not in holders or h in vacated:
                return True
        return any(
            holders[h][0] not in seen and clears(holders[h][0], budget - 1, seen | {friend})
            for h in ends_of(friend)
        )

    return {
        h
        for h in oracle_all(state, uid)
        if h not in holders or (h not in stacks and clears(holders[h][0], left - 1, {uid}))
    }


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
        if (
            state["phase"] == "movement"
            and not state.get("pending")
            and len(state["moved"]) < cards_by_id()[state["card"]]["move"]
        ):
            for uid, unit in state["units"].items():
                if unit["side"] != side or unit["disorganised"] or uid in state["moved"]:
                    continue
                offered = {a["to"] for a in legal(state, side, "move") if a["unit"] == uid}
                assert offered == oracle(state, uid), (uid, unit["at"])
                checked += 1
        state, _ = apply_action(RULES, state, chooser.pick(actions), seeded(seed, step))
    assert checked > 50


def _stacks(state):
    seen, out = {}, []
    for uid, u in state["units"].items():
        if u["at"] in seen:
            out.append(u["at"])
        seen[u["at"]] = uid
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_stacking_during_movement_never_dead_ends_and_never_outlives_the_phase(seed):
    """Play choosing a move onto a friend whenever one is offered: every stacked position still
    has a legal way on, the phase never ends stacked, and no other phase sees two units on a
    hex."""
    state, _ = new_game(RULES, RULES.load_scenario("historical"), seed)
    chooser = _Chooser(seed)
    stacked_seen = 0
    for step in range(1, 400):
        if state["result"]:
            break
        side = RULES.awaiting(state)[0]
        actions = RULES.legal_actions(state, side)
        assert actions, f"dead end at step {step}"
        stacks = _stacks(state)
        if stacks:
            assert state["phase"] == "movement" and len(stacks) == 1
            assert not [a for a in actions if a["type"] == "end-phase"]
            stacked_seen += 1
        occupied = {u["at"] for u in state["units"].values()}
        onto_friend = [a for a in actions if a["type"] == "move" and a["to"] in occupied]
        action = onto_friend[0] if onto_friend else chooser.pick(actions)
        state, _ = apply_action(RULES, state, action, seeded(seed, step))
    assert stacked_seen > 5
