"""Building Pocket Tactics positions in a few lines and playing commands with fixed dice."""

from __future__ import annotations

from engine.core import hexgrid
from engine.core.commands import parse_command
from engine.core.dice import fixed
from engine.core.game import apply_action
from engine.registry import get_ruleset

RS = get_ruleset("pocket-tactics")
CENTRE = hexgrid.parse_label("0808")
NORTH_HOME, SOUTH_HOME = "0805", "0811"


def disc(radius: int = 3, tiles: dict | None = None) -> dict:
    """Grass tiles within ``radius`` of 0808, a village at each home (0805 north, 0811 south)."""
    m = {hexgrid.label(h): {"terrain": "grass"} for h in hexgrid.within(CENTRE, radius)}
    m[NORTH_HOME] = {"terrain": "grass", "feature": "village"}
    m[SOUTH_HOME] = {"terrain": "grass", "feature": "village"}
    for lab, tile in (tiles or {}).items():
        if tile is None:
            m.pop(lab, None)
        else:
            m[lab] = tile if isinstance(tile, dict) else {"terrain": tile}
    return m


def scenario(
    units: dict, active: str = "north", tiles: dict | None = None, radius: int = 3, **extra
) -> dict:
    data = {
        "factions": {"north": "clans", "south": "horde"},
        "order": ["north", "south"],
        "map": disc(radius, tiles),
        "homes": {"north": NORTH_HOME, "south": SOUTH_HOME},
        "units": {u: ({"at": v} if isinstance(v, str) else v) for u, v in units.items()},
        "phase": "play",
        "active": active,
    }
    data.update(extra)
    return data


def position(
    units: dict, active: str = "north", tiles: dict | None = None, radius: int = 3, **extra
) -> dict:
    sc = RS.scenario_from_data(scenario(units, active, tiles, radius, **extra), "test")
    state, _ = RS.setup(sc, fixed([]))
    return state


def act(state: dict, command: str, dice=(), side: str | None = None):
    """Apply a typed command for the awaited side; every supplied die must be used."""
    action = parse_command(command)
    action["side"] = side or state["awaiting"][0]
    d = fixed(dice)
    new, events = apply_action(RS, state, action, d)
    assert d.source.remaining == 0, f"{d.source.remaining} fixed dice unused"
    return new, events


def of(events: list, kind: str) -> list:
    return [e for e in events if e["type"] == kind]


def legal(state: dict, side: str | None = None) -> list[str]:
    from engine.core.commands import format_command

    return [format_command(a) for a in RS.legal_actions(state, side or state["awaiting"][0])]
