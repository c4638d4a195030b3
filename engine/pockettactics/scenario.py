"""Scenario files for Pocket Tactics: validation into plain data the ruleset's ``setup`` reads.

A scenario may stop anywhere between "nothing chosen yet" (the default game) and "the middle
of a combat with dice on the table". Every key is optional; what is missing is played out.
The format is documented in ``docs/scenarios/pocket-tactics.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from engine.core.errors import ScenarioError

from .data import PHASES, SIDES, Catalogue, other, valid_label

MAP_PHASES = ("faction", "army", "tiles", "features", "map", "home")
KNOWN_KEYS = {
    "_comment",
    "name",
    "title",
    "description",
    "points",
    "tiles_per_player",
    "start_units",
    "factions",
    "order",
    "armies",
    "units",
    "map",
    "homes",
    "control",
    "phase",
    "active",
    "turn",
    "combat",
    "tile_choices",
    "bag",
    "drawn",
    "central",
    "own_features",
    "start",
}


def validate(cat: Catalogue, data: dict, file: str) -> dict:
    def fail(entry: str, problem: str) -> NoReturn:
        raise ScenarioError(file, entry, problem)

    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        fail(unknown[0], f"unknown key; known keys: {', '.join(sorted(KNOWN_KEYS - {'_comment'}))}")
    out: dict = {
        "name": str(data.get("name", "custom")),
        "title": str(data.get("title", data.get("name", "Custom"))),
        "description": str(data.get("description", "")),
    }
    for key, default, low, high in (
        ("points", 50, 1, 500),
        ("tiles_per_player", 6, 1, 20),
        ("start_units", 3, 0, 6),
    ):
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            fail(key, f"must be a whole number {low}-{high}")
        out[key] = value

    phase = data.get("phase")
    if phase is not None and phase not in PHASES:
        fail("phase", f"unknown phase; phases: {', '.join(PHASES)}")
    out["phase"] = phase

    factions = data.get("factions", {})
    if not isinstance(factions, dict) or set(factions) - set(SIDES):
        fail("factions", f"an object side -> faction id, sides {SIDES}")
    for side, fid in factions.items():
        if fid not in cat.factions:
            fail(f"factions.{side}", f"unknown faction; known: {', '.join(cat.factions)}")
    if len(factions) == 2 and factions["north"] == factions["south"]:
        fail("factions", "the two players need different factions")
    out["factions"] = {s: factions.get(s) for s in SIDES}
    complete_factions = all(out["factions"].values())

    order = data.get("order")
    if order is not None and (not isinstance(order, list) or sorted(order) != sorted(SIDES)):
        fail("order", f"a list of both sides, first player first, e.g. {list(SIDES)}")
    out["order"] = order

    # ----- units ---------------------------------------------------------------------------
    units: dict[str, dict] = {}
    faction_of_side = {f: s for s, f in out["factions"].items() if f}
    armies = data.get("armies")
    if armies is not None:
        if not complete_factions:
            fail("armies", "armies need both factions chosen (key 'factions')")
        if not isinstance(armies, dict) or set(armies) != set(SIDES):
            fail("armies", "an object with a list of unit ids for each side")
        for side, types in armies.items():
            if not isinstance(types, list):
                fail(f"armies.{side}", "must be a list of unit ids")
            for uid in types:
                spec = cat.units.get(uid)
                if spec is None or spec["faction"] != out["factions"][side]:
                    fail(
                        f"armies.{side}",
                        f"lists a unit that is not a unit of faction {out['factions'][side]}; "
                        f"known: {', '.join(cat.factions[out['factions'][side]]['units'])}",
                    )
                if uid in units:
                    fail(f"armies.{side}", "lists a unit twice")
                units[uid] = {
                    "side": side,
                    "type": uid,
                    "status": "reserve",
                    "at": None,
                    "by": None,
                    "blessing": 0,
                }
            cost = sum(cat.units[u]["points"] for u in types)
            if cost > out["points"]:
                fail(
                    f"armies.{side}", f"costs {cost} points, more than the {out['points']} allowed"
                )
    raw_units = data.get("units")
    if raw_units is not None:
        if not complete_factions:
            fail("units", "units need both factions chosen (key 'factions')")
        if not isinstance(raw_units, dict):
            fail("units", "an object unit id -> {at, blessing}")
        for uid, entry in raw_units.items():
            where = f"units.{uid}"
            spec = cat.units.get(uid)
            if spec is None or spec["faction"] not in faction_of_side:
                fail(
                    where,
                    "not a unit of the chosen factions; unit ids are the unit names in factions.json",
                )
            if not isinstance(entry, dict):
                fail(where, 'must be an object like {"at": "0807"}')
            side = faction_of_side[spec["faction"]]
            at = entry.get("at", "reserve")
            unit = {
                "side": side,
                "type": uid,
                "status": "map",
                "at": at,
                "by": None,
                "blessing": entry.get("blessing", 0),
            }
            if at in ("reserve", "captured"):
                unit["status"], unit["at"] = at, None
                if at == "captured":
                    unit["by"] = entry.get("by", other(side))
                    if unit["by"] not in SIDES or unit["by"] == side:
                        fail(
                            where + ".by", "the side holding the captured unit must be the opponent"
                        )
            elif not valid_label(at):
                fail(where + ".at", "write a hex label 0101-1515, 'reserve' or 'captured'")
            if unit["blessing"] not in (0, 1):
                fail(where + ".blessing", "0 or 1")
            units[uid] = unit
    out["units"] = units if (armies is not None or raw_units is not None) else None

    # ----- map -----------------------------------------------------------------------------
    tiles = data.get("map")
    out["map"] = None
    if tiles is not None:
        if not isinstance(tiles, dict) or not tiles:
            fail("map", "an object label -> {terrain, feature}")
        out["map"] = {}
        for lab, tile in tiles.items():
            where = f"map.{lab}"
            if not valid_label(lab):
                fail(where, "not a hex label 0101-1515")
            if isinstance(tile, str):
                tile = {"terrain": tile}
            if not isinstance(tile, dict) or tile.get("terrain") not in cat.terrains:
                fail(where, f"needs a terrain of {', '.join(cat.terrains)}")
            feature = tile.get("feature")
            if feature is not None and feature not in cat.features:
                fail(where + ".feature", f"unknown feature; known: {', '.join(cat.features)}")
            out["map"][lab] = {"terrain": tile["terrain"], "feature": feature}
    homes = data.get("homes")
    if homes is not None:
        if out["map"] is None or not isinstance(homes, dict) or set(homes) - set(SIDES):
            fail("homes", "an object side -> label of that player's own feature (needs 'map')")
        for side, lab in homes.items():
            if lab not in out["map"] or not out["map"][lab]["feature"]:
                fail(f"homes.{side}", "is not a feature tile of the map")
    out["homes"] = dict(homes or {})
    building = phase in MAP_PHASES
    if out["map"] is not None and not building and len(out["homes"]) != 2:
        fail("homes", "a finished map names each player's own feature (homes.north, homes.south)")
    control = data.get("control")
    out["control"] = None
    if out["map"] is not None:
        out["control"] = {lab: None for lab, t in out["map"].items() if t["feature"]}
        for side, lab in out["homes"].items():
            out["control"][lab] = side
        if control is not None:
            if not isinstance(control, dict):
                fail("control", "an object feature label -> side or null")
            for lab, side in control.items():
                if lab not in out["control"]:
                    fail(f"control.{lab}", "not a feature tile of the map")
                if side is not None and side not in SIDES:
                    fail(f"control.{lab}", f"a side {SIDES} or null")
                out["control"][lab] = side
    if units and out["map"] is not None:
        taken: dict[str, str] = {}
        for uid, unit in units.items():
            if unit["status"] != "map":
                continue
            if unit["at"] not in out["map"]:
                fail(f"units.{uid}.at", f"{unit['at']} is not a tile of the map")
            if unit["at"] in taken:
                fail(
                    f"units.{uid}.at",
                    f"{unit['at']} already holds {taken[unit['at']]}; one unit per tile",
                )
            taken[unit["at"]] = uid
    elif units and any(u["status"] == "map" for u in units.values()):
        fail("units", "units on the map need a map (key 'map')")

    # ----- map building in progress ----------------------------------------------------------
    out["tile_choices"] = data.get("tile_choices")
    if out["tile_choices"] is not None:
        tc = out["tile_choices"]
        if (
            not isinstance(tc, dict)
            or set(tc) - set(SIDES)
            or any(
                not isinstance(v, list) or any(t not in cat.terrains for t in v)
                for v in tc.values()
            )
        ):
            fail("tile_choices", f"side -> list of terrain ids ({', '.join(cat.terrains)})")
        out["tile_choices"] = {s: list(tc.get(s, [])) for s in SIDES}
    for key in ("bag",):
        value = data.get(key)
        if value is not None and (
            not isinstance(value, list) or any(t not in cat.terrains for t in value)
        ):
            fail(key, f"a list of terrain ids ({', '.join(cat.terrains)})")
        out[key] = value
    drawn = data.get("drawn")
    if drawn is not None and drawn not in cat.terrains:
        fail("drawn", f"a terrain id ({', '.join(cat.terrains)})")
    out["drawn"] = drawn
    central = data.get("central")
    if central is not None and central not in cat.features:
        fail("central", f"a feature id ({', '.join(cat.features)})")
    out["central"] = central
    own = data.get("own_features", {})
    if (
        not isinstance(own, dict)
        or set(own) - set(SIDES)
        or any(f not in cat.features for f in own.values())
    ):
        fail("own_features", f"side -> feature id ({', '.join(cat.features)})")
    out["own_features"] = {s: own.get(s) for s in SIDES}

    if phase in ("features", "map") and not (out["bag"] or drawn or out["map"]):
        fail("bag", f"phase {phase} needs the tiles still in the bag (or a map)")
    if phase in ("home", "start") and out["map"] is None:
        fail("map", f"phase {phase} needs the map")
    if (
        phase in ("army", "tiles", "features", "map", "home", "start", "play", "bonus", "reroll")
        and not complete_factions
    ):
        fail("factions", f"phase {phase} needs both factions")

    # ----- turn, starting placement, combat ----------------------------------------------------
    active = data.get("active")
    if active is not None and active not in SIDES:
        fail("active", f"one of {SIDES}")
    out["active"] = active
    turn = data.get("turn", 1)
    if not isinstance(turn, int) or turn < 1:
        fail("turn", "a whole number from 1")
    out["turn"] = turn
    if phase in ("play", "bonus", "reroll"):
        if out["map"] is None or out["units"] is None:
            fail("phase", f"phase {phase} needs 'map' and 'units' (or 'armies')")
        if active is None:
            fail("active", f"phase {phase} needs the active side")
    start = data.get("start")
    if start is not None and (
        not isinstance(start, dict) or set(start) - {"placed", "done", "next", "last"}
    ):
        fail("start", "an object with placed {side: n}, done [sides], next side, last side")
    out["start"] = start
    combat = data.get("combat")
    if phase in ("bonus", "reroll") and combat is None:
        fail("combat", f"phase {phase} needs the pending combat")
    if combat is not None:
        if phase not in ("bonus", "reroll"):
            fail("combat", "a pending combat needs phase 'bonus' or 'reroll'")
        out["combat"] = _check_combat(cat, combat, units, active, fail)
    else:
        out["combat"] = None
    return out


def _check_combat(cat, combat, units, active, fail: Callable[[str, str], NoReturn]) -> dict:
    if not isinstance(combat, dict):
        fail("combat", "an object")
    att, dfd = combat.get("attacker"), combat.get("defender")
    for role, uid in (("attacker", att), ("defender", dfd)):
        if uid not in units or units[uid]["status"] != "map":
            fail(f"combat.{role}", "is not a unit on the map")
    if units[att]["side"] != active or units[dfd]["side"] == active:
        fail("combat", "the attacker belongs to the active side, the defender to the other")
    kind = combat.get("kind", "melee")
    if kind not in ("melee", "magic", "ranged"):
        fail("combat.kind", "melee, magic or ranged")
    spec = cat.units[units[att]["type"]]
    if kind != "ranged" and kind not in spec["attacks"]:
        fail(
            "combat.kind",
            f"{att} does not know {kind} attacks; its card lists {', '.join(spec['attacks'])}",
        )
    if kind == "ranged" and not spec["ranged"]:
        fail("combat.kind", f"{att} has no ranged attack")
    dice = combat.get("dice")
    out_dice: dict[str, dict[str, list[int]]] = {}
    for role, uid in (("attacker", att), ("defender", dfd)):
        rd = (dice or {}).get(role)
        if not isinstance(rd, dict):
            fail(f"combat.dice.{role}", "an object {off: [..], def: [..]}")
        out_dice[role] = {}
        for k in ("off", "def"):
            values = rd.get(k, [])
            if (
                not isinstance(values, list)
                or len(values) > 3
                or any(not isinstance(v, int) or not 1 <= v <= 6 for v in values)
            ):
                fail(f"combat.dice.{role}.{k}", "up to three values 1-6")
            out_dice[role][k] = list(values)
    out = {
        "attacker": att,
        "defender": dfd,
        "kind": kind,
        "dice": out_dice,
        "water_tested": bool(combat.get("water_tested", False)),
    }
    for key in ("bonuses", "rerolls"):
        if key in combat:
            value = combat[key]
            if not isinstance(value, dict) or set(value) != {"attacker", "defender"}:
                fail(f"combat.{key}", "an object with attacker and defender")
            out[key] = value
    for role in ("attacker", "defender"):
        for b in out.get("bonuses", {}).get(role, []):
            if (
                not isinstance(b, dict)
                or b.get("kind") not in ("off", "def", "any")
                or not isinstance(b.get("value"), int)
            ):
                fail(f"combat.bonuses.{role}", "each bonus is {kind: off|def|any, value: n}")
        r = out.get("rerolls", {}).get(role, 0)
        if not isinstance(r, int) or r < 0:
            fail(f"combat.rerolls.{role}", "a whole number from 0")
    passed = combat.get("passed", [])
    if not isinstance(passed, list) or set(passed) - {"attacker", "defender"}:
        fail("combat.passed", "a list of roles (attacker, defender)")
    out["passed"] = passed
    nxt = combat.get("next", "attacker")
    if nxt not in ("attacker", "defender"):
        fail("combat.next", "attacker or defender")
    out["next"] = nxt
    return out
