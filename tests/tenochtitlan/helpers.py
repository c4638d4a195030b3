"""Build any Tenochtitlan position in a few lines and play commands against it with fixed dice.

    state = build({"units": {"c": {"type": "sp-cavalry", "at": "0303"},
                             "w": {"type": "az-warriors", "at": "0304"}},
                   "phase": "combat", "card": "sp-caution"})
    state, events = act(state, "spanish", "/attack unit:c target:w", dice=[5])

``build`` takes a scenario dict (format: docs/scenarios/tenochtitlan.md) and fills test
defaults: the standard map unless ``map`` is given, phase movement with the Spanish active,
a plain card (no special rule), decks in file order (so no die is spent shuffling) and no
Spanish-collapse victory (``aztec_wins_at`` -1) unless the test sets one.
"""

from __future__ import annotations

from engine.core.commands import parse_command
from engine.core.dice import fixed
from engine.core.game import apply_action
from engine.tenochtitlan.data import card_decks
from engine.tenochtitlan.rules import Tenochtitlan
from engine.tenochtitlan.scenarios import normalise

RULES = Tenochtitlan()
DEFAULT_CARD = {"spanish": "sp-caution", "aztec": "az-drums"}


def grid_map(*rows: str, **extra) -> dict:
    """An inline map from terrain rows (legend of the standard map: '.' clear, 'h' hills,
    'w' marsh, 'L' lake, 'k' canal, 'c' city, 'P' precinct, 'M' market, 'D' dock, '=' causeway,
    'b' bridge, 'B' canal bridge, 'v' village, 's' springs)."""
    return {
        "name": extra.pop("name", "test"),
        "columns": len(rows[0]),
        "rows": len(rows),
        "terrain": list(rows),
        **extra,
    }


def build(spec: dict, dice=()) -> dict:
    spec = dict(spec)
    spec.setdefault("phase", "movement")
    spec.setdefault("active", "spanish")
    if spec["phase"] not in ("setup", "draw"):
        spec.setdefault("card", DEFAULT_CARD[spec["active"]])
    used = {spec.get("card")}
    for side, discards in spec.get("discards", {}).items():
        used |= set(discards)
    spec.setdefault(
        "decks",
        {
            side: [c["id"] for c in deck if c["id"] not in used]
            for side, deck in card_decks().items()
        },
    )
    spec.setdefault("aztec_wins_at", -1)
    scenario = normalise(spec, "test")
    state, _ = RULES.setup(scenario, fixed(dice))
    return state


def act(state: dict, side: str, command: str, dice=()):
    """Apply a typed command for ``side`` with the given dice; returns (state, events)."""
    action = parse_command(command)
    action["side"] = side
    return apply_action(RULES, state, action, fixed(dice))


def legal(state: dict, side: str, kind: str | None = None) -> list[dict]:
    return [a for a in RULES.legal_actions(state, side) if kind is None or a["type"] == kind]


def destinations(state: dict, unit: str) -> set[str]:
    side = state["units"][unit]["side"]
    return {a["to"] for a in legal(state, side, "move") if a["unit"] == unit}


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]
