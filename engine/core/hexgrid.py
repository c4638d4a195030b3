"""Hex geometry shared by every hex game.

Inside: axial coordinates ``(q, r)`` of flat-topped hexes. Outside (commands, pictures):
wargame labels ``CCRR`` with column and row counted from 01, e.g. ``0507``. Columns are
vertical; even-numbered columns (02, 04, ...) sit half a hex lower than odd ones.

Line of sight is exact (see ``docs/architecture.md``): a hex is *crossed* when the segment between
two hex centres passes through its interior; a segment that runs exactly along the side shared
by two hexes is reported separately as an *edge* pair so every game decides that case itself.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Corners of a flat-topped hex in the integer frame X = 3q, Y = 2r + q (an affine image of the
# real plane, so straight lines and sidedness are preserved).
_CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


class BadLabel(ValueError):
    pass


def from_offset(col: int, row: int) -> Hex:
    """0-based column/row (odd columns shifted down) -> axial."""
    return col, row - (col - (col & 1)) // 2


def to_offset(h: Hex) -> tuple[int, int]:
    q, r = h
    return q, r + (q - (q & 1)) // 2


def parse_label(label: str) -> Hex:
    """``"0507"`` -> axial. Raises :class:`BadLabel` with a reason."""
    text = str(label).strip()
    if len(text) != 4 or not text.isdigit():
        raise BadLabel(
            f"{label!r} is not a hex label; write four digits, column then row, e.g. 0507."
        )
    col, row = int(text[:2]), int(text[2:])
    if col < 1 or row < 1:
        raise BadLabel(f"{label!r}: columns and rows start at 01.")
    return from_offset(col - 1, row - 1)


def label(h: Hex) -> str:
    col, row = to_offset(h)
    return f"{col + 1:02d}{row + 1:02d}"


def neighbours(h: Hex) -> list[Hex]:
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def within(center: Hex, radius: int) -> Iterator[Hex]:
    q0, r0 = center
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield q0 + dq, r0 + dr


def pixel_center(h: Hex, size: float) -> tuple[float, float]:
    """Centre of a flat-topped hex of circumradius ``size``, with 0101 at (size, size*sqrt3/2)."""
    col, row = to_offset(h)
    x = size + col * 1.5 * size
    y = (3**0.5) * size * (row + 0.5 * (col & 1)) + (3**0.5) * size / 2
    return x, y


# ----- line of sight ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SightLine:
    """Hexes strictly between the two ends: ``crossed`` (interior crossed, nearest first) and
    ``edges`` (pairs of hexes whose shared side the line runs along, nearest first)."""

    crossed: tuple[Hex, ...]
    edges: tuple[tuple[Hex, Hex], ...]


def sight_line(a: Hex, b: Hex) -> SightLine:
    total = distance(a, b)
    if total <= 1:
        return SightLine((), ())
    ax, ay = 3 * a[0], 2 * a[1] + a[0]
    bx, by = 3 * b[0], 2 * b[1] + b[0]
    dx, dy = bx - ax, by - ay
    crossed: list[tuple[int, Hex]] = []
    along: list[tuple[int, Hex]] = []
    aq, ar = a
    bq, br = b
    # Candidates lie on some shortest path: d(a, h) + d(h, b) == d(a, b), which for the cube
    # metric means every cube coordinate lies between the ends' ones; only that box is scanned.
    for q in range(min(aq, bq), max(aq, bq) + 1):
        for r in range(min(ar, br), max(ar, br) + 1):
            dq, dr = q - aq, r - ar
            da = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
            eq, er = q - bq, r - br
            if da + ((abs(eq) + abs(er) + abs(eq + er)) >> 1) != total or da == 0 or da == total:
                continue
            hx, hy = 3 * q, 2 * r + q
            base = dx * (hy - ay) - dy * (hx - ax)
            pos = neg = zero = 0
            for cx, cy in _CORNERS:
                side = base + dx * cy - dy * cx
                if side > 0:
                    pos += 1
                elif side < 0:
                    neg += 1
                else:
                    zero += 1
            if pos and neg:
                crossed.append((da, (q, r)))
            elif zero == 2:
                along.append((da, (q, r)))
    crossed.sort()
    along.sort()
    return SightLine(tuple(h for _, h in crossed), pair_hexsides([h for _, h in along]))


def pair_hexsides(along: list[Hex], keep_unpaired: bool = False) -> tuple[tuple[Hex, Hex], ...]:
    """The hexes a line runs along, nearest first, as the pairs sharing each hexside. A hex
    whose partner is off the map (an end of the line) is kept as ``(h, h)`` on request."""
    edges: list[tuple[Hex, Hex]] = []
    pending = list(along)
    while pending:
        h = pending.pop(0)
        partner = next((o for o in pending if distance(h, o) == 1), None)
        if partner is not None:
            pending.remove(partner)
            edges.append((h, partner))
        elif keep_unpaired:
            edges.append((h, h))
    return tuple(edges)


def line_clear(a: Hex, b: Hex, blocks: Callable[[Hex], bool], edge_rule: str = "both") -> bool:
    """Whether nothing blocks the line from ``a`` to ``b``.

    ``edge_rule`` decides a line along a hexside: ``"both"`` blocks only when both hexes block,
    ``"either"`` when one does.
    """
    line = sight_line(a, b)
    if any(blocks(h) for h in line.crossed):
        return False
    for first, second in line.edges:
        hit = (
            (blocks(first) and blocks(second))
            if edge_rule == "both"
            else (blocks(first) or blocks(second))
        )
        if hit:
            return False
    return True


# ----- maps and movement ------------------------------------------------------------------------


class HexMap:
    """A finite set of hexes numbered 0..n-1 with precomputed neighbour lists (fast searches)."""

    def __init__(self, hexes: Iterable[Hex]):
        self.hexes: list[Hex] = sorted(set(hexes))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.labels: list[str] = [label(h) for h in self.hexes]
        self.by_label: dict[str, int] = {lab: i for i, lab in enumerate(self.labels)}
        self.adjacent: list[tuple[int, ...]] = [
            tuple(self.index[n] for n in neighbours(h) if n in self.index) for h in self.hexes
        ]
        self._costed: dict[int, tuple[tuple[int, ...], list]] = {}
        self._costed_lock = threading.Lock()

    def _cached(self, key_object, build):
        """Derived tables kept per immutable input object (identity-checked, bounded)."""
        entry = self._costed.get(id(key_object))
        if entry is not None and entry[0] is key_object:
            return entry[1]
        value = build()
        with self._costed_lock:
            if len(self._costed) >= 32:
                self._costed.clear()
            self._costed[id(key_object)] = (key_object, value)
        return value

    def road_adjacency(self, road_links) -> dict[int, frozenset[int]]:
        def build():
            road: dict[int, set[int]] = {}
            for a, b in road_links:
                road.setdefault(a, set()).add(b)
            return {a: frozenset(b) for a, b in road.items()}

        if isinstance(road_links, frozenset):
            return self._cached(road_links, build)
        return build()

    def stop_flags(self, stops) -> bytes:
        def build():
            flags = bytearray(len(self.hexes))
            for i in stops:
                flags[i] = 4
            return bytes(flags)

        if isinstance(stops, frozenset):
            return self._cached(stops, build)
        return build()

    def costed(self, enter_cost: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
        """Per hex, its enterable neighbours with the half-point cost of entering them.

        Computed once per cost table: terrain costs of a unit class are fixed for a map, so
        searches skip impassable hexes and cost lookups. Only immutable tables (tuples) are
        cached, keyed by identity and kept alive with the entry.
        """
        return self._cached(
            enter_cost,
            lambda: [
                tuple((n, 2 * enter_cost[n]) for n in adj if enter_cost[n] < UNREACHABLE)
                for adj in self.adjacent
            ],
        )

    def __len__(self) -> int:
        return len(self.hexes)

    def __contains__(self, item) -> bool:
        return item in self.index

    def idx(self, label_text: str) -> int:
        try:
            return self.by_label[label_text]
        except KeyError:
            raise BadLabel(f"{label_text!r} is not a hex of this map.") from None

    @classmethod
    def rectangle(cls, columns: int, rows: int) -> HexMap:
        return cls(from_offset(c, r) for c in range(columns) for r in range(rows))


UNREACHABLE = 1 << 30


class _OnDemandCosts:
    """``HexMap.costed`` for a one-off (mutable) cost table: rows built only for hexes the
    search expands, instead of for the whole map."""

    def __init__(self, grid: HexMap, enter_cost):
        self._adjacent, self._cost = grid.adjacent, enter_cost
        self._rows: dict[int, tuple[tuple[int, int], ...]] = {}

    def __getitem__(self, node: int):
        row = self._rows.get(node)
        if row is None:
            cost = self._cost
            row = self._rows[node] = tuple(
                (n, 2 * cost[n]) for n in self._adjacent[node] if cost[n] < UNREACHABLE
            )
        return row


def dijkstra(
    start: int,
    budget: int,
    step: Callable[[int, int], Iterable[tuple[int, int, bool]]],
    can_end: Callable[[int], bool] | None = None,
) -> tuple[dict[int, int], dict[int, int]]:
    """Cheapest costs from ``start`` within ``budget`` over integer nodes.

    ``step(node, cost_so_far)`` yields ``(next_node, step_cost, may_continue)``; a node entered
    with ``may_continue`` False is a dead end (ZOC, terrain that stops movement).
    Returns ``(cost, parent)``; ``can_end`` filters the returned nodes (e.g. not on a friend).
    """
    best: dict[int, int] = {start: 0}
    parent: dict[int, int] = {}
    frontier: list[tuple[int, int, bool]] = [(0, start, True)]
    stopped: set[int] = set()
    while frontier:
        cost, node, go_on = heapq.heappop(frontier)
        if cost > best.get(node, UNREACHABLE):
            continue
        if not go_on and node != start:
            continue
        for nxt, step_cost, may_continue in step(node, cost):
            new_cost = cost + step_cost
            if new_cost > budget:
                continue
            old = best.get(nxt, UNREACHABLE)
            # A cheaper arrival wins; at equal cost an arrival that may continue is better.
            if new_cost < old or (new_cost == old and may_continue and nxt in stopped):
                best[nxt] = new_cost
                parent[nxt] = node
                if may_continue:
                    stopped.discard(nxt)
                else:
                    stopped.add(nxt)
                heapq.heappush(frontier, (new_cost, nxt, may_continue))
    if can_end is not None:
        best = {n: c for n, c in best.items() if n == start or can_end(n)}
    return best, parent


def path_to(parent: dict[int, int], start: int, goal: int) -> list[int]:
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


def reachable(
    grid: HexMap,
    start: int,
    points: int,
    enter_cost: list[int],
    enemy: set[int] | frozenset[int] = frozenset(),
    friends: set[int] | frozenset[int] = frozenset(),
    enemy_zoc: set[int] | frozenset[int] = frozenset(),
    stops: set[int] | frozenset[int] = frozenset(),
    ignore_zoc: bool = False,
    road_links: set[tuple[int, int]] | frozenset = frozenset(),
) -> tuple[dict[int, int], dict[int, int]]:
    """Hexes a unit can end its move on, with their cost in *half* movement points.

    - ``enter_cost[i]``: whole points to enter hex ``i`` (``UNREACHABLE`` = impassable).
    - enemy-occupied hexes cannot be entered; friendly ones can be passed but not ended on.
    - entering an enemy ZOC hex ends the move; a unit starting in enemy ZOC may not step
      directly into another enemy ZOC hex (unless ``ignore_zoc``).
    - ``stops``: terrain that ends the move on entry (ignored when entered along a road).
    - ``road_links``: ordered pairs (a, b) of hexes joined by road; a road step costs half a
      point when it does not enter enemy ZOC (two road hexes per movement point).
    ``points`` is in whole movement points; costs returned are in half points.

    Pass ``enter_cost`` as a tuple and ``stops``/``road_links`` as frozensets when they are
    fixed for the map (a unit class's terrain costs): the derived tables are then built once.
    """
    # Step costs are small positive integers, so a bucket queue (Dial's algorithm) replaces the
    # heap; one flag byte per hex (1 enemy, 2 enemy ZOC, 4 stop) keeps the common case, an open
    # hex off the road, to one lookup. This is the hot path of every hex game's legal_actions.
    costed = (
        grid.costed(enter_cost)
        if isinstance(enter_cost, tuple)
        else _OnDemandCosts(grid, enter_cost)
    )
    size = len(grid.hexes)
    budget = points * 2
    flags = bytearray(grid.stop_flags(stops))
    if not ignore_zoc:
        for i in enemy_zoc:
            flags[i] |= 2
    for i in enemy:
        flags[i] = 1
    road = grid.road_adjacency(road_links) if road_links else None
    start_in_zoc = flags[start] & 2
    # Unreached hexes start just over budget, so "cheaper than known" also means "affordable".
    over = budget + 1
    best = [over] * size
    best[start] = 0
    dead_end = bytearray(size)  # reached, but entering it ended the move (ZOC, terrain)
    parent: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    reached = [start]
    for cost in range(budget + 1):
        for node in buckets[cost]:
            if best[node] != cost or dead_end[node]:
                continue
            road_next = road.get(node) if road else None
            if road_next:
                # Road steps first: half a point, whatever the terrain, unless into enemy ZOC.
                step_cost = cost + 1
                for nxt in road_next:
                    old = best[nxt]
                    if step_cost > old or flags[nxt] & 3:
                        continue
                    if step_cost < old or dead_end[nxt]:
                        if old == over:
                            reached.append(nxt)
                        best[nxt] = step_cost
                        parent[nxt] = node
                        buckets[step_cost].append(nxt)
                        dead_end[nxt] = 0
            leaving_zoc_start = start_in_zoc and node == start
            for nxt, step in costed[node]:
                new_cost = cost + step
                old = best[nxt]
                if new_cost > old:
                    continue
                flag = flags[nxt]
                if flag and (flag & 1 or (flag & 2 and leaving_zoc_start)):
                    continue
                if new_cost < old:
                    if old == over:
                        reached.append(nxt)
                    best[nxt] = new_cost
                    parent[nxt] = node
                    buckets[new_cost].append(nxt)
                    dead_end[nxt] = 1 if flag else 0
                elif not flag and dead_end[nxt]:
                    parent[nxt] = node
                    dead_end[nxt] = 0
    ends = {i: best[i] for i in reached if i != start and i not in friends}
    return ends, parent
