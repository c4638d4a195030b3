"""The Spanish setup's three-group rule, offered so that a setup can never get stuck.

Rule: the Spanish land units stand in three groups (a group = units on connected hexes), each
group wholly within 3 hexes of its own Aztec village (three different villages), at least four
units per group, none in Tenochtitlan or on a causeway.

Why placements cannot get stuck. A placement is offered only if the setup can still be
*completed* from the position it creates, and "can be completed" is decided by actually
completing it with a deterministic procedure, ``complete``: for some *plan* (which village each
existing group belongs to, and which villages the groups still to be founded will use) a fixed
step rule (``_next_hex``) places the remaining units one by one and ends in a legal setup. The
step rule looks only at the current position and the plan. So if ``complete`` succeeds from a
position P with plan p and its first step is hex h, then from P + h the same plan (with h added to
its group) runs the remaining steps of that same run and succeeds too: h is offered at P. By
induction every position reached through offered placements has an offered placement until all
units stand, and the last one leaves a legal setup. (A position the procedure cannot complete
may in rare cases still have had a completion by cleverer play; refusing it is the price of the
guarantee.) The start position is checked when a scenario is loaded (``completable``).
"""
from __future__ import annotations

from itertools import combinations, product

from engine.core import hexgrid

GROUPS = 3
MIN_GROUP = 4


_AREAS: dict = {}


def _eligible_areas(board):
    """(hexes a Spanish land unit may ever stand on in setup, village -> its eligible hexes,
    village -> the same hexes nearest first)."""
    if board.key not in _AREAS:
        _AREAS[board.key] = _compute_areas(board)
    return _AREAS[board.key]


def _compute_areas(board) -> tuple[frozenset, dict[int, frozenset]]:
    hexes = board.grid.hexes
    areas, nearest_first = {}, {}
    for v in sorted(board.villages.values()):
        ranked = sorted((hexgrid.distance(hexes[i], hexes[v]), i) for i in range(len(hexes))
                        if hexgrid.distance(hexes[i], hexes[v]) <= 3 and board.medium[i] == "land"
                        and not board.city[i] and not board.causeway_of[i])
        areas[v] = frozenset(i for _, i in ranked)
        nearest_first[v] = tuple(i for _, i in ranked)
    eligible = frozenset().union(*areas.values()) if areas else frozenset()
    return eligible, areas, nearest_first


def eligible_hexes(board) -> frozenset:
    return _eligible_areas(board)[0]


def groups_of(board, placed) -> list[frozenset]:
    """Connected groups of hexes, in a fixed order (by their lowest hex)."""
    remaining = set(placed)
    out = []
    adjacent = board.grid.adjacent
    while remaining:
        seed = min(remaining)
        remaining.discard(seed)
        group, stack = {seed}, [seed]
        while stack:
            x = stack.pop()
            for n in adjacent[x]:
                if n in remaining:
                    remaining.discard(n)
                    group.add(n)
                    stack.append(n)
        out.append(frozenset(group))
    return sorted(out, key=min)


def _plans(groups: list[frozenset], areas: dict[int, frozenset]):
    """Every plan: a village for each existing group (distinct, containing it) plus villages for
    the groups still to be founded. Yields dicts village -> hexes (empty = not founded yet)."""
    options = [[v for v, area in areas.items() if g <= area] for g in groups]
    for chosen in product(*options):
        if len(set(chosen)) != len(chosen):
            continue
        rest = [v for v in areas if v not in chosen]
        for extra in combinations(rest, GROUPS - len(groups)):
            plan = {v: set(g) for v, g in zip(chosen, groups)}
            plan.update({v: set() for v in extra})
            yield plan


def _next_hex(board, nearest_first, plan: dict[int, set], taken: set, spanish: set):
    """The step rule: (village, hex) of the next placement, or None if this plan is stuck.
    Founds missing groups first, then fills the smallest group below four, then puts spare units
    into the first group with room; always the free hex nearest its village (then lowest index)
    that touches its own group and no other group."""
    adjacent = board.grid.adjacent
    order = sorted(plan)
    unfounded = [v for v in order if not plan[v]]
    short = sorted((len(plan[v]), v) for v in order if plan[v] and len(plan[v]) < MIN_GROUP)
    if unfounded:
        candidates = unfounded[:1]
    elif short:
        candidates = [short[0][1]]
    else:
        candidates = order
    for v in candidates:
        group = plan[v]
        for h in nearest_first[v]:
            if h in taken:
                continue
            near_own = False
            near_other = False
            for n in adjacent[h]:
                if n in group:
                    near_own = True
                elif n in spanish:
                    near_other = True
                    break
            if not near_other and (near_own or not group):
                return v, h
    return None


def _run(board, nearest_first, plan, taken: set, spanish: set, left: int) -> bool:
    taken, spanish = set(taken), set(spanish)
    while True:
        if left == 0:
            return all(len(g) >= MIN_GROUP for g in plan.values())
        step = _next_hex(board, nearest_first, plan, taken, spanish)
        if step is None:
            return False
        v, h = step
        plan[v].add(h)
        taken.add(h)
        spanish.add(h)
        left -= 1


def offered_hexes(board, placed, taken, left: int) -> list[int]:
    """Eligible free hexes where one more Spanish land unit may stand, ``left`` units still to
    place after it: those from which ``complete`` still finishes a legal setup."""
    eligible, areas, nearest_first = _eligible_areas(board)
    if len(areas) < GROUPS:
        return []
    groups = groups_of(board, placed)
    occupied = set(taken) | set(placed)
    adjacent = board.grid.adjacent
    out = []
    for i in sorted(eligible - occupied):
        touching = [g for g in groups if any(n in g for n in adjacent[i])]
        merged = frozenset({i}).union(*touching)
        after = sorted([g for g in groups if g not in touching] + [merged], key=min)
        if _completable(board, areas, nearest_first, after, occupied | {i}, set(placed) | {i}, left):
            out.append(i)
    return out


def _completable(board, areas, nearest_first, groups, occupied, spanish, left) -> bool:
    if len(groups) > GROUPS:
        return False
    if sum(max(0, MIN_GROUP - len(g)) for g in groups) + MIN_GROUP * (GROUPS - len(groups)) > left:
        return False
    return any(_run(board, nearest_first, plan, occupied, spanish, left) for plan in _plans(groups, areas))


def completable(board, placed, taken, left: int) -> bool:
    """Whether ``complete`` finishes a legal setup from Spanish land units on ``placed`` hexes,
    other occupied hexes ``taken`` and ``left`` land units still to place."""
    _, areas, nearest_first = _eligible_areas(board)
    if len(areas) < GROUPS:
        return False
    return _completable(board, areas, nearest_first, groups_of(board, placed),
                        set(taken) | set(placed), set(placed), left)


def legal_setup(board, placed) -> bool:
    """A finished setup obeys the rule: exactly three groups, four or more units each, each
    within the eligible hexes of its own village."""
    _, areas, _ = _eligible_areas(board)
    groups = groups_of(board, placed)
    if len(groups) != GROUPS or any(len(g) < MIN_GROUP for g in groups):
        return False
    return any(True for _ in _plans(groups, areas))
