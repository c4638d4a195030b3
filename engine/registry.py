"""Which games exist. Rulesets are imported lazily so one broken game cannot stop the others."""

from __future__ import annotations

import importlib

from .core.errors import UmpireError
from .core.ruleset import Ruleset

# game name -> "module:Class"
RULESETS: dict[str, str] = {
    "tenochtitlan": "engine.tenochtitlan.rules:Tenochtitlan",
    "rivet-wars": "engine.rivetwars.rules:RivetWars",
    "pocket-tactics": "engine.pockettactics.rules:PocketTactics",
    "tactical-table-war": "engine.tactical_table_war.rules:TacticalTableWar",
    "siege": "engine.siege.rules:Siege",
}

_cache: dict[str, Ruleset] = {}


class UnknownGame(UmpireError):
    pass


def available() -> list[str]:
    """Games whose module imports (a game still under construction is simply not offered)."""
    names = []
    for name in RULESETS:
        try:
            get_ruleset(name)
        except (ImportError, AttributeError):
            continue
        names.append(name)
    return names


def get_ruleset(name: str) -> Ruleset:
    if name not in RULESETS:
        raise UnknownGame(f"Unknown game {name!r}. Games: {', '.join(RULESETS)}.")
    if name not in _cache:
        module_name, _, class_name = RULESETS[name].partition(":")
        module = importlib.import_module(module_name)
        _cache[name] = getattr(module, class_name)()
    return _cache[name]


def register(name: str, target: str) -> None:
    """Add a game (``"module:Class"``); tests use this for fixture games."""
    RULESETS[name] = target
    _cache.pop(name, None)
