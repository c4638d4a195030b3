"""Movement (rulebook 1.6): costs from the terrain table, which cells connect, stacking.

``connects(board, a, b)`` is the one answer to "may a figure step from a to b" (ignoring who
stands there); melee asks it too, because one may not attack into a cell one could not enter
(1.74). Part 2 adds ladders, the siege tower, breaches and horses here as further connections.
"""

from __future__ import annotations

import heapq

from . import data
from .board import BATTLEMENTS, BUILDING_DOORS, SLITS, Board

UNREACHABLE = 1 << 20


def effective_kind(board: Board, label: str, bridge_up: bool) -> str:
    """The drawbridge's cells are moat when it is raised; the gate is then shut."""
    kind = board.cell(label).kind
    if bridge_up and label in board.drawbridge.get("cells", ()):
        return "moat"
    if bridge_up and label == board.drawbridge.get("gate"):
        return "wall"
    return kind


def connects(board: Board, a: str, b: str, bridge_up: bool = False) -> bool:
    """Whether the castle's structure lets a figure on foot step from ``a`` to neighbour ``b``."""
    ca, cb = board.cell(a), board.cell(b)
    ka, kb = effective_kind(board, a, bridge_up), effective_kind(board, b, bridge_up)
    kinds = data.terrain()["kinds"]
    if kinds[kb]["cost"] is None:
        return False
    same_building = ca.building is not None and ca.building == cb.building
    # Towers and the keep are entered and left only through their doors (1.61 (2)); slits
    # only from inside their building.
    if cb.building and not same_building:
        return kb in BUILDING_DOORS and ca.inside
    if ca.building and not same_building:
        return ka in BUILDING_DOORS and cb.inside
    if same_building:
        return True
    # 2.33: a broken wall is entered from every side an intact wall does not block, and leads
    # onto the parapets beside it.
    if "breach" in (ka, kb):
        other = kb if ka == "breach" else ka
        return other not in ("wall",) and other not in BUILDING_DOORS
    # Parapets: from inside by stairs or along the wall walk; from outside only by ladder or
    # siege tower (1.61 (3); those arrive with section 2 and the ladder rules).
    if kb in BATTLEMENTS or ka in BATTLEMENTS:
        other = ka if kb in BATTLEMENTS else kb
        return other in BATTLEMENTS or other == "stairs"
    if ca.inside != cb.inside:
        return {ka, kb} == {"gate", "bridge"}
    return True


def enter_cost(board: Board, a: str, b: str, dead_here: int, bridge_up: bool = False) -> int:
    """Movement points to step from ``a`` into ``b`` (``UNREACHABLE`` when impossible)."""
    if not connects(board, a, b, bridge_up):
        return UNREACHABLE
    table = data.terrain()
    kind = table["kinds"][effective_kind(board, b, bridge_up)]
    cost = kind["cost"]
    if (
        effective_kind(board, b, bridge_up) == "moat"
        and effective_kind(board, a, bridge_up) != "moat"
    ):
        cost = kind.get("cost_from_outside_moat", cost)
    if (
        effective_kind(board, a, bridge_up) == "breach"
        and effective_kind(board, b, bridge_up) in BATTLEMENTS
    ):
        cost = table["kinds"]["breach"].get("cost_onto_wall", cost)
    dead = table["dead_figures"]
    if dead_here >= dead["impassable_at"]:
        return UNREACHABLE
    if dead_here >= dead["extra_cost_at"]:
        cost += 1
    return cost


def steps(board: Board, bridge_up: bool) -> dict[str, tuple[tuple[str, int], ...]]:
    """Per cell, the neighbours a figure may step to and their cost before dead figures; the
    structure is fixed per drawbridge position, so this is built once per map and position."""
    key = ("steps", bridge_up)
    table = board.derived.get(key)
    if table is None:
        table = {}
        for here in board.labels():
            row = []
            for nxt in board.neighbours(here):
                cost = enter_cost(board, here, nxt, 0, bridge_up)
                if cost < UNREACHABLE:
                    row.append((nxt, cost))
            table[here] = tuple(row)
        board.derived[key] = table
    return table


LADDER_CLIMB = 3  # 1.93: climbing a ladder, or crossing its cell
LADDER_TO_PARAPET = 4  # 1.1 / 1.93: from the top of a ladder onto the parapet it leans on


def ladder_step(ladders: dict[str, str], here: str, nxt: str, cost: int | None) -> int | None:
    """The cost of one step once raised ladders (cell -> parapet it leans on) are standing.

    Entering a ladder's cell is climbing it (3 points, also from the parapet above); from the
    ladder the figure steps onto its parapet for 4. ``cost`` is the step's cost without ladders
    (``None``: no step)."""
    if nxt in ladders and (cost is not None or ladders[nxt] == here):
        return LADDER_CLIMB
    if here in ladders and ladders[here] == nxt:
        return LADDER_TO_PARAPET
    return cost


def reachable(
    board: Board,
    start: str,
    points: int,
    enemies: set[str],
    friends: set[str],
    dead_count: dict[str, int],
    bridge_up: bool = False,
    ladders: dict[str, str] | None = None,
) -> tuple[dict[str, int], dict[str, str]]:
    """Cells a figure can end its move on with their cost, and each cell's predecessor.

    Never through living enemies (stunned ones too, 1.61 (1)); through friends but not ending on
    them (1.62). ``ladders``: raised ladders, cell -> the parapet each leans on.
    """
    best = {start: 0}
    parent: dict[str, str] = {}
    frontier = [(0, start)]
    table = steps(board, bridge_up)
    dead = data.terrain()["dead_figures"]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if cost > best.get(here, UNREACHABLE):
            continue
        row: list[tuple[str, int]] | tuple[tuple[str, int], ...] = table[here]
        if ladders and (here in ladders or any(n in ladders for n in board.neighbours(here))):
            known = dict(row)
            laddered: list[tuple[str, int]] = []
            for n in board.neighbours(here):
                with_ladder = ladder_step(ladders, here, n, known.get(n))
                if with_ladder is not None:
                    laddered.append((n, with_ladder))
            row = laddered
        for nxt, step in row:
            if nxt in enemies:
                continue
            if dead_count and nxt in dead_count:
                if dead_count[nxt] >= dead["impassable_at"]:
                    continue
                if dead_count[nxt] >= dead["extra_cost_at"]:
                    step += 1
            total = cost + step
            if total <= points and total < best.get(nxt, UNREACHABLE):
                best[nxt] = total
                parent[nxt] = here
                heapq.heappush(frontier, (total, nxt))
    ends = {c: v for c, v in best.items() if c != start and c not in friends}
    return ends, parent


def path_to(parent: dict[str, str], start: str, goal: str) -> list[str]:
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


__all__ = ["SLITS", "connects", "effective_kind", "enter_cost", "path_to", "reachable"]
