"""Build any SIEGE position in a few lines and play commands against it with fixed dice.

    state = build({"a": ("knight", "besieger", "1213"), "d": ("peasant", "defender", "1212")},
                  phase="melee")
    state, events = act(state, "besieger", "/attack unit:a target:d", dice=[])

Figures are ``id: (type, side, cell)``, ``(type, side, cell, state)`` or ``(type, side, cell,
state, layer)`` (layer ``"top"``: on a siege tower's platform); everything else is a
scenario key (format: docs/scenarios/siege.md). Every position is built through the scenario
loader, so a test position is exactly what a scenario file could set up.
"""

from __future__ import annotations

from engine.core.commands import parse_command
from engine.core.dice import fixed
from engine.core.game import apply_action
from engine.siege.rules import Siege
from engine.siege.scenarios import normalise

RULES = Siege()


def build(figs: dict, **extra) -> dict:
    spec = {"figures": {}, **extra}
    for fid, value in figs.items():
        kind, side, at, *rest = value
        spec["figures"][fid] = {
            "type": kind,
            "side": side,
            "at": at,
            "name": fid.capitalize(),
            **({"state": rest[0]} if rest else {}),
            **({"layer": rest[1]} if len(rest) > 1 else {}),
        }
    scenario = normalise(spec, "test", "test")
    state, _ = RULES.setup(scenario, fixed([]))
    return state


def act(state: dict, side: str, command: str, dice=()) -> tuple[dict, list[dict]]:
    action = {**parse_command(command), "side": side}
    source = fixed(dice)
    new_state, events = apply_action(RULES, state, action, source)
    assert source.source.remaining == 0, "a fixed die was not used"
    return new_state, events


def legal(state: dict, side: str, kind: str | None = None) -> list[dict]:
    return [a for a in RULES.legal_actions(state, side) if kind is None or a["type"] == kind]


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]
