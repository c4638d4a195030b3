"""Building Rivet Wars positions in a few lines and acting on them with fixed dice."""

from __future__ import annotations

from engine.core.dice import fixed, seeded
from engine.core.game import apply_action
from engine.rivetwars.rules import RivetWars

RS = RivetWars()

# A clean mission-1 board (6 segment rows x 9 segment columns, no terrain) unless a test adds some.
CLEAN = {"mission": "mission-1", "terrain": {}}


def make(**scenario) -> dict:
    """A state from scenario entries (defaults: clean mission-1 board, Allies' combat phase)."""
    raw = {**CLEAN, "phase": "combat", "active": "allies", **scenario}
    state, _ = RS.setup(RS.build_scenario(raw), seeded("test", 0))
    return state


def unit(type_, at, **extra) -> dict:
    return {"type": type_, "at": at, **extra}


def act(state, kind, dice=(), side=None, **options):
    """Apply one action with exactly these dice (every die must be used)."""
    action = {"type": kind, "side": side or RS.awaiting(state)[0], **options}
    source = fixed(list(dice))
    new, events = apply_action(RS, state, action, source)
    assert source.source.remaining == 0, f"{source.source.remaining} fixed dice unused"
    return new, events


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def legal(state, kind=None, side=None):
    side = side or RS.awaiting(state)[0]
    return [a for a in RS.legal_actions(state, side) if kind is None or a["type"] == kind]
