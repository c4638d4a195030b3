"""The siege sheet (rulebook 4.12-4.14, 4.21): the damage of every wall, tower and keep cell.

``state["siege_sheet"]`` maps a cell to ``{"step": 1..4, "ranged_day": day or None}``: the
damage steps of 4.13 ("leicht beschädigt", "beschädigt", "schwer beschädigt", "zerstört"; names
in ``data/siege/destruction.json``) and the day a ranged engine last broke a step off it (4.13:
"Bei der Zerstörung aus der Distanz ist der Schaden ... auf einen Zerstörungsschritt pro Tag
begrenzt"). Until the last step a damaged cell keeps every effect on melee, movement and cover
(4.13), so the map does not change; at the last step a broken-wall counter of section 2 is laid
on it (4.14) and a figure standing there is hurt.
"""

from __future__ import annotations

import functools

from . import data, figures
from .board import Board
from .data import need

FILE = "destruction.json"
RESULTS = ("-", "C", "D")


@functools.lru_cache(maxsize=1)
def table() -> dict:
    raw = data.read_json(data.DATA_DIR / FILE, FILE)
    steps = raw.get("steps")
    need(
        isinstance(steps, list) and len(steps) == 4 and all(isinstance(s, str) for s in steps),
        FILE,
        "steps",
        "must name the four damage steps (4.13)",
    )
    columns = raw.get("table")
    need(isinstance(columns, dict) and columns, FILE, "table", "must map points to a column")
    assert isinstance(columns, dict)
    for key, row in columns.items():
        need(
            key.isdigit() and int(key) >= 1,
            FILE,
            f"table.{key}",
            "columns are destruction points 1, 2, 3 ...",
        )
        need(
            isinstance(row, list) and len(row) == 10 and all(r in RESULTS for r in row),
            FILE,
            f"table.{key}",
            f"must give ten results (d10 1-10), each one of {', '.join(RESULTS)}",
        )
    need(
        sorted(int(k) for k in columns) == list(range(1, len(columns) + 1)),
        FILE,
        "table",
        "columns must run 1, 2, 3 ... without gaps",
    )
    for key in ("engine_damage",):
        need(
            isinstance(raw.get(key), int) and raw[key] >= 1,
            FILE,
            key,
            "must be a whole number >= 1",
        )
    rounds = raw.get("round_walls")
    need(
        isinstance(rounds, dict)
        and isinstance(rounds.get("buildings"), list)
        and isinstance(rounds.get("modifier"), int),
        FILE,
        "round_walls",
        "must give buildings (a list) and modifier (a whole number)",
    )
    kinds = data.terrain()["kinds"]
    targets = raw.get("targets")
    need(
        isinstance(targets, list) and targets and all(t in kinds for t in targets),
        FILE,
        "targets",
        "must list terrain kinds of terrain.json",
    )
    need(
        raw.get("figure_on_destroyed") in ("stun", "wound", "kill"),
        FILE,
        "figure_on_destroyed",
        "must be stun, wound or kill",
    )
    return raw


def result(points: int, roll: int) -> str:
    """The destruction table: total points (above the last column: the last) and the
    modified d10 (below 1 reads as 1, above 10 as 10)."""
    columns = table()["table"]
    column = columns[str(min(max(points, 1), len(columns)))]
    return column[min(max(roll, 1), 10) - 1]


def step_name(step: int) -> str:
    return table()["steps"][step - 1]


def step(state: dict, cell: str) -> int:
    return state.get("siege_sheet", {}).get(cell, {}).get("step", 0)


def family(board: Board, cell: str) -> str | None:
    building = board.cell(cell).building
    return building.split("@")[0] if building else None


def gate_walls(board: Board) -> set[str]:
    """4.21: "Die beiden Mauerfelder, die die Zugbrücke umgeben": the target cells beside the
    drawbridge, bombarded as parapets."""
    targets = set(table()["targets"])
    return {
        n
        for cell in board.drawbridge.get("cells", [])
        for n in board.neighbours(cell)
        if board.cell(n).kind in targets
    }


def modifier(board: Board, cell: str) -> int:
    """4.21: the die is lowered for the round walls of towers and keep (not the gate walls)."""
    rounds = table()["round_walls"]
    if cell in gate_walls(board) or family(board, cell) not in rounds["buildings"]:
        return 0
    return rounds["modifier"]


def targets(board: Board) -> list[str]:
    """Cells an engine may bombard (4.21: "Brustwehr, Turm oder Burgfriedfelder"): wall,
    tower and keep cells on a face of their wall, i.e. beside a cell that is none of them."""
    kinds = set(table()["targets"])
    return [
        lab
        for lab in board.labels()
        if board.cell(lab).kind in kinds
        and any(board.cell(n).kind not in kinds for n in board.neighbours(lab))
    ]


def keep_blocked(board: Board, state: dict, cell: str) -> bool:
    """4.21: "Die Mauern des Burgfrieds können nur dann zerstört werden, wenn mindestens eines
    der drei umliegenden Burgfriedfelder vorher beschädigt worden ist" (E4): a keep cell's last
    step waits until a neighbouring keep cell is damaged."""
    if family(board, cell) != "keep" or step(state, cell) < 3:
        return False
    return not any(
        family(board, n) == "keep" and step(state, n) >= 1 for n in board.neighbours(cell)
    )


def damage(state: dict, cell: str, ranged: bool, events: list) -> None:
    """One damage step on ``cell``; at the last the wall breaks (4.14)."""
    sheet = state.setdefault("siege_sheet", {})
    entry = sheet.setdefault(cell, {"step": 0, "ranged_day": None})
    entry["step"] += 1
    if ranged:
        entry["ranged_day"] = state.get("day", 1)
    events.append(
        {
            "type": "wall_damaged",
            "at": cell,
            "step": entry["step"],
            "name": step_name(entry["step"]),
        }
    )
    if entry["step"] < len(table()["steps"]):
        return
    # 4.14: a destroyed cell gets a broken-wall counter (section 2); a figure on it is hurt.
    victim = next(
        (fid for fid, f in sorted(state["figures"].items()) if f["at"] == cell and not f["dead"]),
        None,
    )
    state["counters"].append([cell, "breach"])
    events.append({"type": "counter_placed", "kind": "breach", "at": cell})
    if victim is not None:
        f = state["figures"][victim]
        effect = table()["figure_on_destroyed"]
        outcome = figures.apply_effect(f, effect, state["half"])
        events.append(
            {
                "type": "figure_hit",
                "unit": victim,
                "effect": effect,
                "letter": "-",
                "outcome": outcome,
                "at": cell,
            }
        )
