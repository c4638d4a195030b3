"""The siege tower (rulebook 2.4) and the one place where figures stand on two layers.

A figure's position is its cell plus a *layer*: ``"ground"`` (the default: where the cell's
terrain puts it; in a tower cell that is *inside* the tower, its lower level) or ``"top"`` (on
the tower's platform, 2.4: "Figuren, die sich im Inneren (niedrigere Höhenstufe) des Turms
befinden, werden unter den Spielstein gelegt; Figuren, die sich auf der Spitze des Turms
befinden, werden auf den Spielstein gelegt"). One living figure per position (2.46: three
inside and three on top, one per cell and layer). The figure dict carries ``"layer": "top"``
only when it is on a platform, so every position without a tower reads as before; part 2's
stacking exceptions (riders, rams) add layers or positions here rather than reshaping callers.

A tower is ``{"side", "cells": [three labels], "towards": label}``: ``towards`` is the
neighbour of ``cells[0]`` that "forward" points to (2.41: "nur in gerader Linie - nach vorne
oder nach hinten").
"""

from __future__ import annotations

import functools
import heapq

from engine.core import hexgrid

from . import data, figures, movement
from .board import BATTLEMENTS, Board
from .data import need

GROUND, TOP = "ground", "top"
Position = tuple[str, str]


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    file = "siege-tower.json"
    raw = data.read_json(data.DATA_DIR / file, file)
    for key in (
        "points_per_round",
        "crew",
        "enter",
        "climb",
        "between_cells",
        "top_to_parapet",
        "top_level",
        "shooting_radius",
    ):
        need(
            isinstance(raw.get(key), int) and raw[key] >= 1,
            file,
            key,
            "must be a whole number >= 1",
        )
    need(
        raw.get("cover_top") in data.COVERS and raw.get("cover_inside") in data.COVERS,
        file,
        "cover_top",
        f"covers must be one of {', '.join(data.COVERS)}",
    )
    need(raw.get("melee") in data.MELEE_SIGNS, file, "melee", "must be +, 0 or -")
    rolls = raw.get("rolls_over")
    need(
        isinstance(rolls, dict)
        and rolls
        and all(
            k in data.terrain()["kinds"] and isinstance(v, int) and v >= 1 for k, v in rolls.items()
        ),
        file,
        "rolls_over",
        "must map terrain kinds to the points a step costs the tower",
    )
    return raw


def layer(fig: dict) -> str:
    return fig.get("layer", GROUND)


def position(fig: dict) -> Position:
    return fig["at"], layer(fig)


def cells_of(state: dict) -> dict[str, str]:
    """Cell -> the id of the siege tower standing on it."""
    return {cell: tid for tid, t in state.get("towers", {}).items() for cell in t["cells"]}


def where(state: dict, fig: dict) -> str | None:
    """ "inside" or "top" for a figure in a siege tower, else None."""
    if fig["at"] not in cells_of(state):
        return None
    return "top" if layer(fig) == TOP else "inside"


def heading(board: Board, tower: dict) -> tuple[int, int]:
    # A tower rolled back to the map's edge faces a cell off the map ("0019"), which is no
    # label a player could type (parse_label refuses column 00); its direction still counts.
    text = tower["towards"]
    a, b = (
        board.cell(tower["cells"][0]).hex,
        hexgrid.from_offset(int(text[:2]) - 1, int(text[2:]) - 1),
    )
    return b[0] - a[0], b[1] - a[1]


def validate(board: Board, towers: object, file: str) -> dict:
    """Scenario entry ``towers``: id -> {side, cells, towards}."""
    need(
        isinstance(towers, dict),
        file,
        "towers",
        "must be an object: tower id -> {side, cells, towards}",
    )
    out: dict[str, dict] = {}
    taken: set[str] = set()
    assert isinstance(towers, dict)
    for tid, t in towers.items():
        entry = f"towers.{tid}"
        need(
            isinstance(t, dict) and set(t) == {"side", "cells", "towards"},
            file,
            entry,
            "must be an object with side, cells (three cells) and towards (the neighbour of the first cell "
            "that forward points to)",
        )
        need(
            t["side"] in ("besieger", "defender"),
            file,
            f"{entry}.side",
            "must be besieger or defender",
        )
        cells = t["cells"]
        need(
            isinstance(cells, list)
            and len(cells) == 3
            and all(isinstance(c, str) and c in board for c in cells)
            and len(set(cells)) == 3,
            file,
            f"{entry}.cells",
            "must be three different cells of the map",
        )
        need(
            all(board.cell(c).kind in spec()["rolls_over"] for c in cells),
            file,
            f"{entry}.cells",
            f"a siege tower stands only on {' or '.join(spec()['rolls_over'])} (2.41)",
        )
        need(
            all(any(board.distance(c, o) == 1 for o in cells if o != c) for c in cells),
            file,
            f"{entry}.cells",
            "the three cells must hang together",
        )
        need(not taken & set(cells), file, f"{entry}.cells", "another siege tower stands there")
        need(
            isinstance(t["towards"], str)
            and t["towards"] in board
            and board.distance(cells[0], t["towards"]) == 1,
            file,
            f"{entry}.towards",
            "must be a neighbour of the first cell",
        )
        taken |= set(cells)
        out[tid] = {"side": t["side"], "cells": list(cells), "towards": t["towards"]}
    return out


def crew(state: dict, tid: str) -> list[str]:
    """Figures of the tower's side inside it that are able to push (2.41)."""
    tower = state["towers"][tid]
    return [
        fid
        for fid, f in sorted(state["figures"].items())
        if f["at"] in tower["cells"]
        and layer(f) == GROUND
        and f["side"] == tower["side"]
        and figures.can_act(f)
    ]


def shifted(board: Board, cells: list[str], vector: tuple[int, int], k: int) -> list[str] | None:
    out = []
    for c in cells:
        q, r = board.cell(c).hex
        lab = hexgrid.label((q + k * vector[0], r + k * vector[1]))
        if lab not in board:
            return None
        out.append(lab)
    return out


def tower_moves(
    board: Board, state: dict, tid: str, blocked: set[str]
) -> dict[str, tuple[list[str], int]]:
    """2.41: where the tower may go this round: straight forward or back, each step costing the
    dearest of the three cells entered, within the round's points, only over flat ground or
    filled moat, never onto a figure, a ladder or another tower. New first cell -> (cells, cost)."""
    tower = state["towers"][tid]
    vector = heading(board, tower)
    rolls = spec()["rolls_over"]
    out: dict[str, tuple[list[str], int]] = {}
    for direction in (1, -1):
        cost = 0
        for k in range(1, spec()["points_per_round"] + 1):
            cells = shifted(board, tower["cells"], vector, direction * k)
            if cells is None:
                break
            entered = [c for c in cells if c not in tower["cells"]] or cells
            if any(board.cell(c).kind not in rolls or c in blocked for c in cells):
                break
            cost += max(rolls[board.cell(c).kind] for c in entered)
            if cost > spec()["points_per_round"]:
                break
            out[cells[0]] = (cells, cost)
    return out


def _turned(offset: tuple[int, int], steps: int) -> tuple[int, int]:
    """An axial offset turned by ``steps`` sixths of a circle, in the order of
    :data:`engine.core.hexgrid.DIRECTIONS`."""
    q, r = offset
    for _ in range(steps % 6):
        q, r = q + r, -q
    return q, r


def placements(
    board: Board, state: dict, tid: str, blocked: set[str]
) -> dict[tuple[str, str], list[str]]:
    """2.41: "Zu Beginn des Angriffs kann der Angreifer den Belagerungsturm an einem beliebigen
    Kartenrand auf die Karte setzen, nachdem er ihn so ausgerichtet hat, wie er es wünscht":
    every (first cell, forward neighbour) where the tower's shape, turned to face that way,
    lies on cells it may stand on with at least one cell at the map's edge. -> its cells."""
    tower = state["towers"][tid]
    origin = board.cell(tower["cells"][0]).hex
    shape = [
        (board.cell(c).hex[0] - origin[0], board.cell(c).hex[1] - origin[1]) for c in tower["cells"]
    ]
    facing = hexgrid.DIRECTIONS.index(heading(board, tower))
    rolls = spec()["rolls_over"]
    out: dict[tuple[str, str], list[str]] = {}
    for first in board.labels():
        q, r = board.cell(first).hex
        for k, (dq, dr) in enumerate(hexgrid.DIRECTIONS):
            towards = hexgrid.label((q + dq, r + dr))
            if towards not in board:
                continue
            cells = []
            for offset in shape:
                oq, orr = _turned(offset, k - facing)
                cells.append(hexgrid.label((q + oq, r + orr)))
            if not all(
                c in board and board.cell(c).kind in rolls and c not in blocked for c in cells
            ):
                continue
            if all(len(board.neighbours(c)) == 6 for c in cells):
                continue
            out[(first, towards)] = cells
    return out


def step_cost(
    board: Board, tower_of: dict[str, str], here: Position, nxt: Position, base: int | None
) -> int | None:
    """Cost of one step between positions where a siege tower is involved (2.42, 2.45);
    ``base``: the step's cost on the ground without towers (None: no such step)."""
    s = spec()
    (a, la), (b, lb) = here, nxt
    ta, tb = tower_of.get(a), tower_of.get(b)
    if (lb == TOP and tb is None) or (la == TOP and ta is None):
        return None
    if a == b:
        return s["climb"] if ta is not None and la != lb else None
    if ta is not None and ta == tb:
        return s["between_cells"] if la == lb else None
    if la == TOP:
        return (
            s["top_to_parapet"]
            if lb == GROUND and tb is None and board.cell(b).kind in BATTLEMENTS
            else None
        )
    if lb == TOP:
        return s["top_to_parapet"] if ta is None and board.cell(a).kind in BATTLEMENTS else None
    if tb is not None:
        return s["enter"] if base is not None else None
    return base


def reachable(
    board: Board,
    start: Position,
    points: int,
    enemies: set[Position],
    friends: set[Position],
    dead_count: dict[str, int],
    bridge_up: bool,
    ladders: dict[str, str],
    tower_of: dict[str, str],
) -> tuple[dict[Position, int], dict[Position, Position]]:
    """:func:`engine.siege.movement.reachable` over positions (cell, layer), for maps with a
    siege tower standing: the same rules on the ground, plus the tower's own steps."""
    table = movement.steps(board, bridge_up)
    dead = data.terrain()["dead_figures"]
    best = {start: 0}
    parent: dict[Position, Position] = {}
    frontier = [(0, start)]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if cost > best.get(here, movement.UNREACHABLE):
            continue
        cell, lay = here
        known = dict(table[cell])
        options: list[tuple[Position, int]] = []
        if cell in tower_of:
            options.append(((cell, TOP if lay == GROUND else GROUND), spec()["climb"]))
        for n in board.neighbours(cell):
            base = known.get(n)
            if lay == GROUND and cell not in tower_of:
                base = movement.ladder_step(ladders, cell, n, base)
            for target_layer in (GROUND, TOP):
                step = step_cost(board, tower_of, here, (n, target_layer), base)
                if step is not None:
                    options.append(((n, target_layer), step))
        for nxt, step in options:
            if nxt in enemies:
                continue
            if nxt[0] not in tower_of and nxt[0] in dead_count:
                if dead_count[nxt[0]] >= dead["impassable_at"]:
                    continue
                if dead_count[nxt[0]] >= dead["extra_cost_at"]:
                    step += 1
            total = cost + step
            if total <= points and total < best.get(nxt, movement.UNREACHABLE):
                best[nxt] = total
                parent[nxt] = here
                heapq.heappush(frontier, (total, nxt))
    ends = {p: v for p, v in best.items() if p != start and p not in friends}
    return ends, parent


def path_to(parent: dict[Position, Position], start: Position, goal: Position) -> list[Position]:
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


def adjacent_for_melee(
    board: Board, tower_of: dict[str, str], a: Position, d: Position
) -> bool | None:
    """2.45 for a pair of adjacent positions where a siege tower is involved: top and parapet
    fight each other, so do figures on the platform and, inside, figures and the ground beside
    the tower; never across the tower's two levels. ``None``: no tower involved."""
    (ca, la), (cd, ld) = a, d
    ta, td = tower_of.get(ca), tower_of.get(cd)
    if ta is None and td is None:
        return None
    if la == TOP or ld == TOP:
        if la == ld == TOP:
            return True
        other = cd if la == TOP else ca
        other_layer = ld if la == TOP else la
        return (
            other_layer == GROUND
            and other not in tower_of
            and board.cell(other).kind in BATTLEMENTS
        )
    # Inside the tower: against figures on the ground beside it (not parapets: those face the top).
    if ta is not None and td is not None:
        return ta == td
    other = cd if ta is not None else ca
    return board.cell(other).level == 1 and not board.cell(other).inside


__all__ = [
    "GROUND",
    "TOP",
    "adjacent_for_melee",
    "cells_of",
    "crew",
    "layer",
    "position",
    "reachable",
    "spec",
    "step_cost",
    "tower_moves",
    "validate",
    "where",
]
