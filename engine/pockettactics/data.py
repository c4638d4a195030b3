"""Loading and validating Pocket Tactics data (factions, terrain) and scenario files.

The rulebook has no unit or tile cards; ``data/pocket-tactics/*.json`` holds our own authored
values. Everything is checked on load so a group editing the files gets an error naming the
file, the entry and the problem instead of a crash in the middle of a game.
"""

from __future__ import annotations

from pathlib import Path

from engine.core import hexgrid
from engine.core.errors import ScenarioError
from engine.core.paths import data_dir
from engine.core.scenario_io import check_schema, parse_document

DATA_DIR = data_dir("pocket-tactics")
SCENARIO_DIR = DATA_DIR / "scenarios"

SIDES = ("north", "south")
COLUMNS = ROWS = 15
CENTRE = "0808"
HAZARDS = (None, "drown", "def-test", "off-test")
SPECIALS = (None, "bless", "teleport")
BONUS_KINDS = ("off", "def", "any")
# the attack types a combat can have: close combat is declared melee or magic, ranged is its own
ATTACK_TYPES = ("melee", "magic", "ranged")
CLOSE_ATTACKS = ("melee", "magic")
PHASES = ("faction", "army", "tiles", "features", "map", "home", "start", "play", "bonus", "reroll")


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def read_json(path: Path) -> dict:
    """A packaged data or scenario file (ours; a problem is a packaging fault, reported alike)."""
    try:
        raw = path.read_bytes()
    except OSError:
        raise ScenarioError(str(path), "file", "not found") from None
    return parse_document(raw, str(path))


def valid_label(text) -> bool:
    if not isinstance(text, str):
        return False
    try:
        hexgrid.parse_label(text)
    except hexgrid.BadLabel:
        return False
    return 1 <= int(text[:2]) <= COLUMNS and 1 <= int(text[2:]) <= ROWS


class Catalogue:
    """Factions, unit types, terrains and features, validated."""

    def __init__(self, factions: dict, terrains: dict, features: dict):
        self.factions = factions
        self.terrains = terrains
        self.features = features
        self.units: dict[str, dict] = {}
        for fid, faction in factions.items():
            for uid, spec in faction["units"].items():
                self.units[uid] = dict(spec, faction=fid, id=uid)

    def tile(self, kind: str) -> dict:
        return self.features.get(kind) or self.terrains[kind]

    @classmethod
    def load(cls, directory: Path = DATA_DIR) -> Catalogue:
        fpath, tpath = directory / "factions.json", directory / "terrain.json"
        fdata, tdata = read_json(fpath), read_json(tpath)
        check_schema(fdata, "pocket-tactics-factions", str(fpath))
        check_schema(tdata, "pocket-tactics-terrain", str(tpath))
        terrains = _check_tiles(str(tpath), tdata.get("terrains"), "terrains", feature=False)
        features = _check_tiles(str(tpath), tdata.get("features"), "features", feature=True)
        clash = set(terrains) & set(features)
        if clash:
            raise ScenarioError(
                str(tpath), "features", f"ids also used by terrains: {sorted(clash)}"
            )
        kinds = set(terrains) | set(features)
        factions = fdata.get("factions")
        if not isinstance(factions, dict) or len(factions) < 2:
            raise ScenarioError(str(fpath), "factions", "need an object with at least two factions")
        seen: dict[str, str] = {}
        out = {}
        for fid, faction in factions.items():
            entry = f"factions.{fid}"
            if not isinstance(faction, dict) or not isinstance(faction.get("units"), dict):
                raise ScenarioError(str(fpath), entry, "needs title, color and units")
            if not str(faction.get("color", "")).startswith("#") or len(faction["color"]) != 7:
                raise ScenarioError(str(fpath), entry + ".color", "must be #rrggbb")
            units = {}
            for uid, spec in faction["units"].items():
                units[uid] = _check_unit(str(fpath), f"{entry}.units.{uid}", spec, kinds)
                if uid in seen:
                    raise ScenarioError(
                        str(fpath),
                        f"{entry}.units.{uid}",
                        f"unit id already used by faction {seen[uid]}",
                    )
                seen[uid] = fid
            if len(units) < 6:
                raise ScenarioError(str(fpath), entry, "a faction needs six units")
            out[fid] = {
                "title": str(faction.get("title", fid)),
                "color": faction["color"],
                "units": units,
            }
        return cls(out, terrains, features)


def _check_tiles(file: str, tiles, entry: str, feature: bool) -> dict:
    if not isinstance(tiles, dict) or not tiles:
        raise ScenarioError(file, entry, "need an object of tile kinds")
    out = {}
    for kind, spec in tiles.items():
        where = f"{entry}.{kind}"
        if not isinstance(spec, dict):
            raise ScenarioError(file, where, "must be an object")
        if spec.get("hazard") not in HAZARDS:
            raise ScenarioError(file, where + ".hazard", f"must be one of {HAZARDS}")
        bonus = _check_bonus(file, where, spec.get("bonus", []))
        out[kind] = {
            "title": str(spec.get("title", kind)),
            "fill": str(spec.get("fill", "#999999")),
            "icon": spec.get("icon"),
            "hazard": spec.get("hazard"),
            "stops": bool(spec.get("stops", False)),
            "no_jump_in": bool(spec.get("no_jump_in", False)),
            "flyers_only": bool(spec.get("flyers_only", False)),
            # a terrain tile never blocks sight; a feature does unless it says otherwise
            "blocks_sight": bool(spec.get("blocks_sight", True)) if feature else False,
            "bonus": bonus,
            "feature": feature,
        }
    return out


def _check_bonus(file: str, where: str, bonus) -> list:
    if not isinstance(bonus, list):
        raise ScenarioError(file, where + ".bonus", "must be a list of {kind, value}")
    for b in bonus:
        if (
            not isinstance(b, dict)
            or b.get("kind") not in BONUS_KINDS
            or not isinstance(b.get("value"), int)
            or not 1 <= b["value"] <= 5
        ):
            raise ScenarioError(file, where + ".bonus", f"{b!r}: kind off|def|any and value 1-5")
        only = b.get("attack")
        if only is not None and (
            not isinstance(only, list) or not only or set(only) - set(ATTACK_TYPES)
        ):
            raise ScenarioError(
                file, where + ".bonus", f"{b!r}: attack must list attack types of {ATTACK_TYPES}"
            )
        if not isinstance(b.get("only_kind", False), bool):
            raise ScenarioError(file, where + ".bonus", f"{b!r}: only_kind must be true or false")
    return [
        dict(
            {"kind": b["kind"], "value": b["value"]},
            **({"attack": list(b["attack"])} if b.get("attack") else {}),
            **({"only_kind": True} if b.get("only_kind") else {}),
        )
        for b in bonus
    ]


def _check_unit(file: str, where: str, spec, kinds: set) -> dict:
    if not isinstance(spec, dict):
        raise ScenarioError(file, where, "must be an object")
    out = {
        "title": str(spec.get("title", where)),
        "short": str(spec.get("short", spec.get("title", "")))[:8],
        "types": spec.get("types", []),
    }
    if not isinstance(out["types"], list) or not all(isinstance(t, str) for t in out["types"]):
        raise ScenarioError(file, where + ".types", "must be a list of words")
    for key, low, high in (
        ("off", 0, 3),
        ("def", 0, 3),
        ("fast", 0, 5),
        ("flying", 0, 5),
        ("ranged", 0, 5),
        ("points", 1, 100),
    ):
        value = spec.get(key, 0)
        if not isinstance(value, int) or not low <= value <= high:
            raise ScenarioError(file, f"{where}.{key}", f"must be a whole number {low}-{high}")
        out[key] = value
    out["bonus"] = _check_bonus(file, where, spec.get("bonus", []))
    attacks = spec.get("attacks", ["melee"])
    if (
        not isinstance(attacks, list)
        or not attacks
        or set(attacks) - set(CLOSE_ATTACKS)
        or len(set(attacks)) != len(attacks)
    ):
        raise ScenarioError(
            file, where + ".attacks", f"must list close-combat attack types of {CLOSE_ATTACKS}"
        )
    out["attacks"] = list(attacks)
    preferred = spec.get("preferred", [])
    if not isinstance(preferred, list) or any(p not in kinds for p in preferred):
        raise ScenarioError(
            file, where + ".preferred", f"must list terrain/feature ids from {sorted(kinds)}"
        )
    out["preferred"] = list(preferred)
    out["bane"] = spec.get("bane")
    if out["bane"] is not None and not isinstance(out["bane"], str):
        raise ScenarioError(file, where + ".bane", "must be a unit type word")
    if spec.get("special") not in SPECIALS:
        raise ScenarioError(file, where + ".special", f"must be one of {SPECIALS}")
    out["special"] = spec.get("special")
    return out
