"""Tactical Table War positions in a few lines, and commands played with fixed dice."""

from __future__ import annotations

from engine.core.commands import parse_command
from engine.core.dice import fixed
from engine.core.game import apply_action
from engine.tactical_table_war.rules import TacticalTableWar

RS = TacticalTableWar()
COLS, ROWS = 9, 7
RED_CASTLE, BLUE_CASTLE = "0104", "0904"


def scenario(
    units: list, phase: str = "attack", active: str = "red", tiles: dict | None = None, **extra
) -> dict:
    """A 9x7 plain battlefield (castles at 0104 and 0904); ``units`` as (id, side, type, at) or dicts."""
    fixed_tiles = {
        f"{c:02d}{r:02d}": "plain" for c in range(1, COLS + 1) for r in range(1, ROWS + 1)
    }
    fixed_tiles.update(tiles or {})
    listed = []
    for u in units:
        if isinstance(u, tuple):
            uid, side, kind, at = u
            u = {"id": uid, "side": side, "type": kind, "at": at}
        listed.append(u)
    data = {
        "name": "test",
        "title": "Test",
        "description": "A test position.",
        "columns": COLS,
        "rows": ROWS,
        "last_turn": 12,
        "castles": {"red": RED_CASTLE, "blue": BLUE_CASTLE},
        "fixed_tiles": fixed_tiles,
        "capture_points": [],
        "prebuilt": [],
        "treasury": {"red": 0, "blue": 0},
        "units": listed,
        "phase": phase,
        "active": active,
    }
    data.update(extra)
    return data


def position(units: list, **kw) -> dict:
    sc = RS.scenario_from_data(scenario(units, **kw), "test")
    state, _ = RS.setup(sc, fixed([]))
    return state


def play(
    state: dict, side: str, command: str, dice: list[int] | None = None
) -> tuple[dict, list[dict]]:
    action = parse_command(command)
    action["side"] = side
    return apply_action(RS, state, action, fixed(dice or []))


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def end_phases(state: dict, side: str, count: int) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    for _ in range(count):
        state, more = play(state, side, "/end-phase")
        events += more
    return state, events
