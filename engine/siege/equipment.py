"""Special equipment of section 1: assault ladders carried by two figures (1.91).

The drawbridge's winch lives with the turn in :mod:`.rules` (it acts at the end of a round);
raised ladders are connections in :mod:`.movement` and sight exceptions in :mod:`.sight`.
Here: who carries which ladder, where a carrying pair may go, and where a ladder may be raised.
Part 2 adds the siege tower, rams and the siege shield beside these.
"""

from __future__ import annotations

import itertools

from . import movement
from .board import Board

CARRY_PENALTY = 2  # 1.91: carriers' movement is two points less


def carried_by(state: dict) -> dict[str, str]:
    """Figure id -> the ladder it carries."""
    return {
        fid: lid for lid, lad in state.get("ladders", {}).items() for fid in lad.get("carriers", [])
    }


def trailing_cost(
    board: Board,
    start: str,
    path: list[str],
    dead: dict[str, int],
    bridge_up: bool,
    ladders: dict[str, str],
) -> int | None:
    """What it costs the rear carrier to follow the front one: into the front's start cell,
    then along its path to the cell before the last (the ladder lies across the two)."""
    steps = [start] + path[:-1]
    total = 0
    for here, nxt in itertools.pairwise(steps):
        base = movement.enter_cost(board, here, nxt, dead.get(nxt, 0), bridge_up)
        cost = movement.ladder_step(
            ladders, here, nxt, None if base >= movement.UNREACHABLE else base
        )
        if cost is None:
            return None
        total += cost
    return total


def raise_spots(
    board: Board, carrier_cells: list[str], occupied: set[str], ladder_cells: set[str]
) -> list[tuple[str, str]]:
    """(cell, parapet) pairs where a carried ladder may be raised (1.91): a free outside cell
    at the foot of a parapet (never a tower: the gate towers and corner towers are towers),
    next to a cell next to one of the carriers."""
    near = set()
    for cell in carrier_cells:
        near.add(cell)
        near.update(board.neighbours(cell))
    spots = set()
    for cell in near:
        for foot in [cell, *board.neighbours(cell)]:
            spec = board.cell(foot)
            if spec.inside or spec.cost is None or foot in occupied or foot in ladder_cells:
                continue
            for wall in board.neighbours(foot):
                if board.cell(wall).kind == "parapet":
                    spots.add((foot, wall))
    return sorted(spots)
