"""Units, their training and their values after forges and buildings.

A unit is ``{"side", "type", "level", "at", "weak": [pips], "training": None | {"type",
"level"}, "moved": bool, "attacked": bool}``; ``type`` is ``recruit`` (no training yet) or one
of the four training symbols (sword, bow, shoe, settler), ``level`` ``simple`` or ``advanced``.
"""

from __future__ import annotations

from .data import TRAININGS, Catalogue

ECONOMIC = ("quarry", "lumber-camp", "forge")  # occupants work there and cannot attack
ENGINES = ("catapult", "ballista")
FORGE_BY_CREW = {"bow": "weapon", "sword": "armour", "shoe": "hoof", "settler": "tool"}


def simple_trained(unit: dict) -> bool:
    return unit["type"] in TRAININGS and unit["level"] == "simple"


def crew_fits(cat: Catalogue, kind: str, unit: dict) -> bool:
    """Whether ``unit`` may occupy a building of ``kind`` by moving in (not by conquest)."""
    spec = cat.kinds.get(kind) or cat.engines[kind]
    crew = spec["crew"]
    if crew == "any":
        return True
    if crew == "simple":
        return simple_trained(unit)
    return unit["type"] == crew


def building_of(state: dict, uid: str) -> str | None:
    """The hex of the building ``uid`` occupies, if any."""
    at = state["units"][uid]["at"]
    b = state["buildings"].get(at)
    return at if b and b["occupant"] == uid else None


def works(cat: Catalogue, state: dict, lab: str) -> bool:
    """A building works only while occupied, and (for war buildings) by a fitting crew: the
    expansion's fortress taken by a unit without the bow symbol "bleibt ... ohne Funktion"."""
    b = state["buildings"].get(lab)
    if not b or not b["occupant"]:
        return False
    return crew_fits(cat, b["kind"], state["units"][b["occupant"]])


def forge_bonuses(cat: Catalogue, state: dict, side: str) -> set[str]:
    """The kinds of forge (weapon, armour, hoof, tool) ``side`` has working now."""
    found = set()
    for lab, b in state["buildings"].items():
        if b["kind"] == "forge" and works(cat, state, lab):
            crew = state["units"][b["occupant"]]
            if crew["side"] == side:
                found.add(FORGE_BY_CREW[crew["type"]])
    return found


def stats(cat: Catalogue, state: dict, uid: str) -> dict:
    """Range, speed and strength of a unit as the rules use them now."""
    unit = state["units"][uid]
    spec = cat.types[unit["type"]]
    values = {key: spec[key] for key in ("range", "speed", "strength")}
    if unit["level"] == "advanced":
        for key, bonus in cat.advanced.get(unit["type"], {}).items():
            values[key] += bonus
    forges = forge_bonuses(cat, state, unit["side"])
    if "weapon" in forges and unit["type"] == "bow":
        values["range"] += 1
    if "armour" in forges and unit["type"] == "sword":
        values["strength"] += 2
    if "hoof" in forges and unit["type"] == "shoe":
        values["speed"] += 1
    lab = building_of(state, uid)
    if lab and works(cat, state, lab):
        b = state["buildings"][lab]
        if b["kind"] == "fortress":
            values = {"range": b["range"], "speed": 0, "strength": b["strength"]}
        elif b["kind"] == "trebuchet":
            values["range"], values["speed"] = cat.kinds["trebuchet"]["range"], 0
        elif b["kind"] in ENGINES:
            values["range"], values["speed"] = (
                cat.engines[b["kind"]]["range"],
                cat.engines[b["kind"]]["speed"],
            )
    return values


def label(cat: Catalogue, state: dict, uid: str) -> str:
    unit = state["units"][uid]
    title = cat.types[unit["type"]]["title"]
    plus = " (advanced)" if unit["level"] == "advanced" else ""
    return f"{unit['side'].title()} {title}{plus} {uid} at {unit['at']}"
