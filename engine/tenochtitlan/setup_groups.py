"""The Spanish setup's three-group rule, decided exactly.

Rule: the Spanish land units stand in three groups (a group = units on connected hexes), each
group wholly within 3 hexes of its own Aztec village (three different villages), at least four
units per group, none in Tenochtitlan or on a causeway.

A placement is offered exactly when a legal final setup containing it (and every unit already
placed) still exists. The order of placements does not matter to the rule, so "a legal setup is
still reachable" is the same as "some legal final set of hexes contains the placed ones", and
``find_completion`` searches for such a set:

- a *plan* picks three different villages (only villages whose free area holds four connected
  hexes; no group could stand by the others) and assigns each connected group already placed to
  one of them (two groups with the same village must later be joined by the hexes between them);
- the groups then grow one hex at a time. Each step branches over every hex the final group
  must contain one of (a neighbour of a part that still has to be joined, any hex of an
  unfounded group's area, a neighbour of a group below four or, for spare units, of any group),
  so no legal setup is missed. A hex next to another group is never added (the two would become
  one group). Positions already refuted are remembered, and a position is cut off early when a
  group cannot reach four hexes or all groups together cannot hold the units left.

The search stops after ``NODE_BUDGET`` positions; on the standard map it never comes near (see
docs/rules/tenochtitlan.md, S5). A search that runs out of budget counts as "no completion", so
it could refuse a placement, never accept a wrong one. Every hex of a found completion is
offered without a further search, and the position itself is searched first (with
``STUCK_RETRY`` times the budget if needed), so a setup reached through offered placements
always offers the next one unless that larger search also runs out (never measured). All
searches are deterministic functions of the position, so replays decide alike.
"""

from __future__ import annotations

from itertools import combinations, product

from engine.core import hexgrid

GROUPS = 3
MIN_GROUP = 4
NODE_BUDGET = 5_000
STUCK_RETRY = 10


class _OutOfBudget(Exception):
    pass


_AREAS: dict = {}


def _eligible_areas(board):
    """(hexes a Spanish land unit may ever stand on in setup, village -> its eligible hexes,
    village -> the same hexes nearest first)."""
    if board.key not in _AREAS:
        _AREAS[board.key] = _compute_areas(board)
    return _AREAS[board.key]


def _compute_areas(board) -> tuple[frozenset, dict[int, frozenset], dict[int, tuple[int, ...]]]:
    hexes = board.grid.hexes
    areas, nearest_first = {}, {}
    for v in sorted(board.villages.values()):
        ranked = sorted(
            (hexgrid.distance(hexes[i], hexes[v]), i)
            for i in range(len(hexes))
            if hexgrid.distance(hexes[i], hexes[v]) <= 3
            and board.medium[i] == "land"
            and not board.city[i]
            and not board.causeway_of[i]
        )
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


class _Search:
    """One search for a legal final setup containing the placed hexes."""

    def __init__(self, board, taken: frozenset, total: int, budget: int):
        self.adjacent = board.grid.adjacent
        _, self.areas, self.nearest = _eligible_areas(board)
        self.board = board
        self.taken = taken
        self.total = total
        self.budget = budget
        self.nodes = 0
        self.refuted: set = set()

    def run(self, placed: frozenset) -> frozenset | None:
        comps = groups_of(self.board, placed)
        # A village can only take a group if its free area holds four connected hexes; leaving
        # the others out of every plan loses nothing and keeps a map with many small villages
        # from spending the budget on plans that can never grow.
        villages = [
            v
            for v in sorted(self.areas)
            if any(len(c) >= MIN_GROUP for c in self._components(self.areas[v] - self.taken))
        ]
        if len(villages) < GROUPS or self._merge_bound(comps) > self.total - len(placed):
            return None
        options = [[v for v in villages if c <= self.areas[v]] for c in comps]
        for chosen in product(*options):
            used = sorted(set(chosen))
            if len(used) > GROUPS:
                continue
            for extra in combinations([v for v in villages if v not in used], GROUPS - len(used)):
                plan: dict[int, frozenset] = {v: frozenset() for v in (*used, *extra)}
                for c, v in zip(comps, chosen):
                    plan[v] = plan[v] | c
                found = self._grow(tuple(sorted(plan.items())))
                if found is not None:
                    return found
        return None

    def _merge_bound(self, comps: list, groups: int = GROUPS) -> int:
        """A quick lower bound on the units needed to merge ``comps`` down to ``groups`` groups:
        the gaps (straight distance less one) joined smallest first until that many remain; the
        last gap used must be bridged whatever the grouping (the cut argument of ``_join_cost``)."""
        if len(comps) <= groups:
            return 0
        hexes = self.board.grid.hexes
        gaps = sorted(
            (min(hexgrid.distance(hexes[x], hexes[y]) for x in a for y in b) - 1, i, j)
            for i, a in enumerate(comps)
            for j, b in enumerate(comps)
            if i < j
        )
        root = list(range(len(comps)))

        def find(x: int) -> int:
            while root[x] != x:
                x = root[x]
            return x

        count, worst = len(comps), 0
        for gap, i, j in gaps:
            if count <= groups:
                break
            ri, rj = find(i), find(j)
            if ri != rj:
                root[ri] = rj
                count -= 1
                worst = gap
        return worst

    def _allowed(self, plan, v) -> frozenset:
        """Hexes group ``v`` may still take: its area, free, not in or next to another group."""
        blocked = set(self.taken)
        for w, g in plan:
            if w != v:
                blocked |= g
                for h in g:
                    blocked.update(self.adjacent[h])
            else:
                blocked |= g
        return self.areas[v] - blocked

    def _region(self, group: frozenset, allowed: frozenset) -> set:
        """Hexes the group could grow onto through allowed hexes (connected to it)."""
        adjacent = self.adjacent
        seen = {n for h in group for n in adjacent[h] if n in allowed}
        stack = list(seen)
        while stack:
            for n in adjacent[stack.pop()]:
                if n in allowed and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return seen

    def _join_cost(self, parts: list[set], allowed: frozenset) -> int | None:
        """A lower bound on the hexes that must be added to join ``parts`` into one group (None:
        they can never be joined). Between two parts lie at least their ``gap`` hexes; joining
        all parts must cross every split of them into two sides, so it needs at least the
        largest gap in a tree of parts built from the smallest gaps (any path may run through
        a third part, so the largest gap between two parts would overstate it)."""
        gaps = []
        for a, first in enumerate(parts[:-1]):
            others = {
                b: {n for h in p for n in self.adjacent[h]} for b, p in enumerate(parts) if b > a
            }
            frontier = {n for h in first for n in self.adjacent[h] if n in allowed}
            seen = set(frontier)
            steps = 1
            while frontier and others:
                for b in [b for b, rim in others.items() if frontier & rim]:
                    gaps.append((steps, a, b))
                    del others[b]
                frontier = {
                    n for h in frontier for n in self.adjacent[h] if n in allowed and n not in seen
                }
                seen |= frontier
                steps += 1
        root = list(range(len(parts)))

        def find(x: int) -> int:
            while root[x] != x:
                x = root[x]
            return x

        joined, worst = 1, 0
        for gap, a, b in sorted(gaps):
            ra, rb = find(a), find(b)
            if ra != rb:
                root[ra] = rb
                joined += 1
                worst = gap
        return worst if joined == len(parts) else None

    def _distances(self, sources: set, allowed: frozenset) -> dict[int, int]:
        """Steps from ``sources`` to each allowed hex (only orders the search, never prunes)."""
        out: dict[int, int] = {}
        frontier = {n for h in sources for n in self.adjacent[h] if n in allowed}
        steps = 1
        while frontier:
            for h in frontier:
                out[h] = steps
            frontier = {
                n for h in frontier for n in self.adjacent[h] if n in allowed and n not in out
            }
            steps += 1
        return out

    def _components(self, hexes) -> list[set]:
        left, out = set(hexes), []
        while left:
            seed = left.pop()
            comp, stack = {seed}, [seed]
            while stack:
                x = stack.pop()
                for n in self.adjacent[x]:
                    if n in left:
                        left.discard(n)
                        comp.add(n)
                        stack.append(n)
            out.append(comp)
        return out

    def _grow(self, plan: tuple) -> frozenset | None:
        if plan in self.refuted:
            return None
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        size = sum(len(g) for _, g in plan)
        # Cheapest refutations first: the groups below four, and the straight gaps between the
        # parts of a group, need more units than are left.
        if (
            sum(
                max(MIN_GROUP - len(g), self._merge_bound(self._components(g), 1) if g else 0)
                for _, g in plan
            )
            > self.total - size
        ):
            return self._refute(plan)
        room: set = set()
        branches: list[tuple[int, list[int]]] = []  # (village, hexes) to try, first need first
        split = unfounded = short = None
        joins: dict[int, int] = {}  # group in parts -> fewest hexes that could join them
        for v, g in plan:
            allowed = self._allowed(plan, v)
            if g:
                parts = self._components(g)
                region = self._region(g, allowed)
                if len(parts) > 1:
                    # Every part must reach the others through hexes the group may take.
                    first = parts[0]
                    cost = self._join_cost(parts, allowed)
                    if cost is None:
                        return self._refute(plan)
                    joins[v] = cost
                    if split is None:
                        toward = self._distances(set().union(*parts[1:]), allowed)
                        split = (
                            v,
                            sorted(
                                (n for h in first for n in self.adjacent[h] if n in allowed),
                                key=lambda n: (toward.get(n, 99), n),
                            ),
                        )
                if len(g) + len(region) < MIN_GROUP:
                    return self._refute(plan)
                if len(g) < MIN_GROUP and short is None:
                    short = (v, sorted({n for h in g for n in self.adjacent[h] if n in allowed}))
                room |= region
            else:
                big = [c for c in self._components(allowed) if len(c) >= MIN_GROUP]
                if not big:
                    return self._refute(plan)
                region = set().union(*big)
                if unfounded is None:
                    unfounded = (v, [h for h in self.nearest[v] if h in region])
                room |= region
        left = self.total - size
        # A group in parts needs at least one more hex to join them.
        need = sum(max(MIN_GROUP - len(g), joins.get(v, 0)) for v, g in plan)
        if need > left or len(room) < left:
            return self._refute(plan)
        if left == 0:
            # Every group is whole (need counted the joins) and has four or more.
            return frozenset().union(*(g for _, g in plan))
        if split is not None:
            branches = [split]
        elif unfounded is not None:
            branches = [unfounded]
        elif short is not None:
            branches = [short]
        else:
            for v, g in plan:
                allowed = self._allowed(plan, v)
                branches.append(
                    (v, sorted({n for h in g for n in self.adjacent[h] if n in allowed}))
                )
        for v, hexes in branches:
            for h in hexes:
                grown = tuple((w, g | {h}) if w == v else (w, g) for w, g in plan)
                found = self._grow(grown)
                if found is not None:
                    return found
        return self._refute(plan)

    def _refute(self, plan) -> frozenset | None:
        """Remember that ``plan`` cannot be completed; answers "no completion" (None)."""
        self.refuted.add(plan)
        return None


def find_completion(board, placed, taken, left: int, budget: int = NODE_BUDGET) -> frozenset | None:
    """A legal final set of Spanish land hexes containing ``placed``, avoiding ``taken``, with
    ``left`` more units; None if there is none (or the search ran out of ``budget``)."""
    eligible = eligible_hexes(board)
    return _find(board, frozenset(placed), frozenset(taken) & eligible, left, budget)


_FOUND: dict = {}
_OFFERED: dict = {}
CACHE_LIMIT = 4096


def _remember(cache: dict, key, value):
    # Positions repeat while one setup is played (legal_actions, then apply); a plain bounded
    # memo of a pure function keeps replays deterministic.
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _find(board, placed: frozenset, taken: frozenset, left: int, budget: int) -> frozenset | None:
    key = (board.key, placed, taken, left, budget)
    if key in _FOUND:
        return _FOUND[key]
    if not placed <= eligible_hexes(board) or left < 0:
        return _remember(_FOUND, key, None)
    try:
        found = _Search(board, taken, len(placed) + left, budget).run(placed)
    except _OutOfBudget:
        found = None
    return _remember(_FOUND, key, found)


def offered_hexes(board, placed, taken, left: int) -> list[int]:
    """Eligible free hexes where one more Spanish land unit may stand, ``left`` units still to
    place after it: exactly those from which a legal setup can still be completed."""
    return sorted(
        _offered(board, frozenset(placed), frozenset(taken) & eligible_hexes(board), left)
    )


def _offered(board, placed: frozenset, taken: frozenset, left: int) -> frozenset:
    key = (board.key, placed, taken, left)
    if key not in _OFFERED:
        _remember(_OFFERED, key, _compute_offered(board, placed, taken, left))
    return _OFFERED[key]


def _compute_offered(board, placed: frozenset, taken: frozenset, left: int) -> frozenset:
    eligible = eligible_hexes(board)
    adjacent = board.grid.adjacent
    known: set = set()
    witnesses: list[frozenset] = []

    def learn(found: frozenset) -> None:
        # Every hex of a legal completion is itself a placement from which it stays reachable.
        known.update(found - placed)
        witnesses.append(found)

    here = _find(board, placed, taken, left + 1, NODE_BUDGET)
    if here is None:
        # The position was reached through an offered placement, so a completion exists; give
        # its search far more room before concluding that no placement can be offered.
        here = _find(board, placed, taken, left + 1, NODE_BUDGET * STUCK_RETRY)
    if here is not None:
        learn(here)
    out = set()
    for i in sorted(eligible - placed - taken):
        if i in known:
            out.add(i)
            continue
        # Cheap first: a known completion with one unplaced hex moved to i.
        near = adjacent[i]
        swapped = next(
            (
                w - {x} | {i}
                for w in witnesses[:1] + witnesses[-1:]
                if any(n in w for n in near)
                for x in sorted(w - placed)
                if legal_setup(board, w - {x} | {i})
            ),
            None,
        )
        found = (
            swapped if swapped is not None else _find(board, placed | {i}, taken, left, NODE_BUDGET)
        )
        if found is not None:
            out.add(i)
            learn(found)
    return frozenset(out)


def completable(board, placed, taken, left: int) -> bool:
    """Whether a legal setup can be completed from Spanish land units on ``placed`` hexes, other
    occupied hexes ``taken`` and ``left`` land units still to place."""
    return find_completion(board, placed, taken, left) is not None


def legal_setup(board, placed) -> bool:
    """A finished setup obeys the rule: exactly three groups, four or more units each, each
    within the eligible hexes of its own village (three different villages)."""
    _, areas, _ = _eligible_areas(board)
    groups = groups_of(board, placed)
    if len(groups) != GROUPS or any(len(g) < MIN_GROUP for g in groups):
        return False
    options = [[v for v, area in areas.items() if g <= area] for g in groups]
    return any(len(set(chosen)) == GROUPS for chosen in product(*options))
