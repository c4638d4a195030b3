"""The battlefield: landscape tiles on hex labels, movement paths and attack routes.

Pure geometry on the state's ``tiles`` (label -> landscape); which hexes block is decided by
the caller, which knows the rules (units, buildings, castles).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache

from engine.core import hexgrid


@lru_cache(maxsize=4096)
def neighbour_labels(lab: str) -> tuple[str, ...]:
    return tuple(hexgrid.label(h) for h in hexgrid.neighbours(hexgrid.parse_label(lab)))


@lru_cache(maxsize=65536)
def distance(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_label(a), hexgrid.parse_label(b))


def all_labels(columns: int, rows: int) -> list[str]:
    return [f"{c:02d}{r:02d}" for c in range(1, columns + 1) for r in range(1, rows + 1)]


def on_map(lab: str, columns: int, rows: int) -> bool:
    return 1 <= int(lab[:2]) <= columns and 1 <= int(lab[2:]) <= rows


def within_labels(lab: str, radius: int) -> list[str]:
    """Labels within ``radius`` of ``lab`` (off-map ones included; callers filter)."""
    out = []
    for h in hexgrid.within(hexgrid.parse_label(lab), radius):
        col, row = hexgrid.to_offset(h)
        if col >= 0 and row >= 0:
            out.append(hexgrid.label(h))
    return out


def adjacent_count(tiles: dict, lab: str, landscape: str) -> int:
    return sum(1 for n in neighbour_labels(lab) if tiles.get(n) == landscape)


def paths(
    tiles: dict, start: str, steps: int, may_pass: Callable[[str], bool]
) -> dict[str, list[str]]:
    """Every hex reachable in ``steps`` moves of one hex each, with one shortest path to it.

    ``may_pass(lab)`` says whether a unit may step onto (and beyond) ``lab``; the start is
    always allowed. Where the unit may *stop* is the caller's question.
    """
    found = {start: [start]}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if len(found[here]) - 1 >= steps:
            continue
        for n in neighbour_labels(here):
            if n in found or n not in tiles or not may_pass(n):
                continue
            found[n] = found[here] + [n]
            queue.append(n)
    return found


def route(
    tiles: dict, start: str, goal: str, reach: int, may_cross: Callable[[str], bool]
) -> list[str] | None:
    """An attack route: a chain of adjacent hexes from ``start`` to ``goal`` of at most
    ``reach`` steps whose inner hexes all satisfy ``may_cross``; ``None`` if there is none."""
    if distance(start, goal) > reach:
        return None
    found = {start: [start]}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if len(found[here]) - 1 >= reach:
            continue
        for n in neighbour_labels(here):
            if n in found or n not in tiles:
                continue
            if n == goal:
                return found[here] + [n]
            if not may_cross(n):
                continue
            found[n] = found[here] + [n]
            queue.append(n)
    return None
