"""Loading and validating the Tactical Table War data and scenario files.

We do not have the base game; ``data/tactical-table-war/*.json`` holds our authored
approximation of it, plus the numbers the expansion fixes. Those fixed numbers are checked
here too, so an edit that contradicts the expansion's text is refused on load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.core import hexgrid
from engine.core.errors import ScenarioError
from engine.core.paths import data_dir

DATA_DIR = data_dir("tactical-table-war")
SCENARIO_DIR = DATA_DIR / "scenarios"

SIDES = ("red", "blue")
PHASES = ("preparation", "movement", "recruitment", "building", "attack")
TRAININGS = ("sword", "bow", "shoe", "settler")
UNIT_TYPES = ("recruit",) + TRAININGS
MAX_SIDE = 20  # largest map edge a scenario may ask for
MAX_UNITS = 60  # per scenario, so a hostile file cannot make legal_actions explode


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def read_json(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise ScenarioError(str(path), "file", "not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(str(path), "file", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(str(path), "file", "the top level must be a JSON object")
    return data


def _need(cond: bool, file: str, entry: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(file, entry, problem)


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Catalogue:
    """Unit types, landscapes and buildings, validated against what the expansion fixes."""

    def __init__(self, units: dict, tiles: dict, buildings: dict):
        self.units = units
        self.tiles = tiles
        self.buildings = buildings
        self.types: dict = units["types"]
        self.advanced: dict = units["advanced"]
        self.costs: dict = units["costs"]
        self.landscapes: dict = tiles["landscapes"]
        self.kinds: dict = buildings["kinds"]
        self.engines: dict = buildings["engines"]
        self.fortress: dict = buildings["fortress_values"]
        self.supply: list = buildings["supply"]
        self.engine_supply: list = buildings["engine_supply"]
        self.castle: dict = buildings["castle"]
        self.capture_point: dict = buildings["capture_point"]
        self.outpost: dict = buildings["outpost"]
        self.looting: dict = buildings["looting"]

    @classmethod
    def load(cls) -> Catalogue:
        units = read_json(DATA_DIR / "units.json")
        tiles = read_json(DATA_DIR / "tiles.json")
        buildings = read_json(DATA_DIR / "buildings.json")
        cls._check_units(units, "units.json")
        cls._check_tiles(tiles, "tiles.json")
        cls._check_buildings(buildings, "buildings.json")
        return cls(units, tiles, buildings)

    @staticmethod
    def _check_units(data: Any, file: str) -> None:
        types = data.get("types")
        _need(
            isinstance(types, dict) and set(types) == set(UNIT_TYPES),
            file,
            "types",
            f"must name exactly {', '.join(UNIT_TYPES)}",
        )
        for name, spec in types.items():
            for key in ("range", "speed", "strength"):
                _need(
                    _int(spec.get(key)) and 0 <= spec[key] <= 10,
                    file,
                    f"types.{name}.{key}",
                    "must be a whole number 0..10",
                )
        _need(isinstance(data.get("advanced"), dict), file, "advanced", "must be an object")
        for name, bonus in data["advanced"].items():
            _need(
                name in TRAININGS and name != "settler",
                file,
                f"advanced.{name}",
                "only sword, bow and shoe training can be advanced",
            )
            _need(
                isinstance(bonus, dict)
                and all(k in ("range", "speed", "strength") and _int(v) for k, v in bonus.items()),
                file,
                f"advanced.{name}",
                "must give whole-number range/speed/strength bonuses",
            )
        costs = data.get("costs")
        _need(
            isinstance(costs, dict)
            and all(
                _int(costs.get(k)) and costs[k] >= 0
                for k in ("recruit", "simple_training", "advanced_training")
            ),
            file,
            "costs",
            "needs whole-number recruit, simple_training, advanced_training",
        )

    @staticmethod
    def _check_tiles(data: Any, file: str) -> None:
        lands = data.get("landscapes")
        _need(
            isinstance(lands, dict) and {"plain", "forest", "hill"} <= set(lands),
            file,
            "landscapes",
            "needs at least plain, forest and hill (the expansion names the last two)",
        )
        faces: list[int] = []
        for name, spec in lands.items():
            _need(
                _int(spec.get("terrain_advantage")) and 0 <= spec["terrain_advantage"] <= 6,
                file,
                f"landscapes.{name}.terrain_advantage",
                "must be a whole number 0..6",
            )
            _need(
                isinstance(spec.get("passable"), bool),
                file,
                f"landscapes.{name}.passable",
                "must be true or false",
            )
            _need(
                isinstance(spec.get("faces"), list) and all(_int(f) for f in spec["faces"]),
                file,
                f"landscapes.{name}.faces",
                "must list die faces",
            )
            faces += spec["faces"]
        _need(
            sorted(faces) == [1, 2, 3, 4, 5, 6],
            file,
            "landscapes",
            "the faces must share out 1..6 exactly once (one die decides a random tile)",
        )

    @staticmethod
    def _check_buildings(data: Any, file: str) -> None:
        kinds, engines = data.get("kinds", {}), data.get("engines", {})
        _need(
            set(kinds) == {"quarry", "lumber-camp", "forge", "fortress", "trebuchet"},
            file,
            "kinds",
            "must be the expansion's quarry, lumber-camp, forge, fortress, trebuchet",
        )
        _need(
            set(engines) == {"catapult", "ballista"},
            file,
            "engines",
            "must be catapult and ballista",
        )
        # The numbers the expansion's text fixes; the base game must agree with them.
        fixed = {
            ("kinds", "quarry", "cost"): 2,
            ("kinds", "lumber-camp", "cost"): 2,
            ("kinds", "forge", "cost"): 2,
            ("kinds", "fortress", "withstands"): 6,
            ("kinds", "trebuchet", "withstands"): 6,
            ("kinds", "trebuchet", "range"): 10,
            ("kinds", "trebuchet", "speed"): 0,
            ("kinds", "trebuchet", "building_damage"): 2,
            ("kinds", "fortress", "speed"): 0,
            ("engines", "catapult", "range"): 5,
            ("engines", "catapult", "speed"): 2,
            ("engines", "catapult", "withstands"): 3,
            ("engines", "ballista", "range"): 5,
            ("engines", "ballista", "speed"): 2,
            ("engines", "ballista", "withstands"): 3,
            ("fortress_values", None, "points"): 15,
            ("fortress_values", None, "max_range"): 7,
            ("fortress_values", None, "default_range"): 5,
            ("fortress_values", None, "default_strength"): 10,
        }
        for (group, name, key), value in fixed.items():
            spec = data.get(group, {})
            spec = spec.get(name, {}) if name else spec
            where = ".".join(p for p in (group, name, key) if p)
            _need(spec.get(key) == value, file, where, f"must be {value}, as the expansion says")
        for name in ("quarry", "lumber-camp", "forge"):
            _need(
                kinds[name].get("withstands") == 6,
                file,
                f"kinds.{name}.withstands",
                "must be 6 (the expansion: every building withstands six attacks)",
            )
        supply = data.get("supply")
        _need(
            isinstance(supply, list) and len(supply) == 15,
            file,
            "supply",
            "the expansion has exactly 15 building tiles",
        )
        for i, pair in enumerate(supply):
            _need(
                isinstance(pair, list)
                and len(pair) == 2
                and pair[0] != pair[1]
                and all(p in kinds for p in pair),
                file,
                f"supply[{i}]",
                "each tile is double-sided: two different building kinds",
            )
        engine_supply = data.get("engine_supply")
        _need(
            isinstance(engine_supply, list) and len(engine_supply) == 4,
            file,
            "engine_supply",
            "the expansion has exactly 4 catapult/ballista tiles",
        )
        for i, pair in enumerate(engine_supply):
            _need(
                isinstance(pair, list) and sorted(pair) == ["ballista", "catapult"],
                file,
                f"engine_supply[{i}]",
                "each engine tile is a catapult on one side, a ballista on the other",
            )
        _need(
            data.get("castle", {}).get("withstands") == 6,
            file,
            "castle.withstands",
            "must be 6 (the expansion: the fortress withstands six attacks 'wie jedes andere Gebäude')",
        )
        for key in ("castle", "capture_point", "outpost"):
            _need(
                _int(data.get(key, {}).get("treasure")),
                file,
                f"{key}.treasure",
                "must be a whole number",
            )
        outpost = data["outpost"]
        _need(
            all(
                _int(outpost.get(k)) and outpost[k] >= 0 for k in ("cost", "withstands", "per_side")
            ),
            file,
            "outpost",
            "needs whole-number cost, withstands and per_side",
        )
        _need(
            _int(data.get("looting", {}).get("kills_per_die"))
            and data["looting"]["kills_per_die"] > 0,
            file,
            "looting.kills_per_die",
            "must be a whole number above 0",
        )


def valid_label(text, columns: int, rows: int) -> bool:
    if not isinstance(text, str):
        return False
    try:
        hexgrid.parse_label(text)
    except hexgrid.BadLabel:
        return False
    return 1 <= int(text[:2]) <= columns and 1 <= int(text[2:]) <= rows


def check_scenario(cat: Catalogue, data: Any, source: str) -> dict:
    """Validate a scenario's meaning; returns it unchanged. Errors name file, entry, problem."""

    def need(cond, entry, problem):
        _need(cond, source, entry, problem)

    for key in ("name", "title", "description"):
        need(
            isinstance(data.get(key), str) and 0 < len(data[key]) <= 200,
            key,
            "must be text (1..200 characters)",
        )
    cols, rows = data.get("columns"), data.get("rows")
    need(
        _int(cols) and 5 <= cols <= MAX_SIDE and _int(rows) and 5 <= rows <= MAX_SIDE,
        "columns/rows",
        f"must be whole numbers 5..{MAX_SIDE}",
    )
    need(_int(data.get("last_turn")) and 1 <= data["last_turn"] <= 99, "last_turn", "must be 1..99")
    need(isinstance(data.get("explore", True), bool), "explore", "must be true or false")
    castles = data.get("castles")
    need(
        isinstance(castles, dict) and set(castles) == set(SIDES),
        "castles",
        "must give a hex for red and blue",
    )
    for side, lab in castles.items():
        need(valid_label(lab, cols, rows), f"castles.{side}", "is not a hex of the map")
    need(castles["red"] != castles["blue"], "castles", "the two castles need different hexes")
    fixed = data.get("fixed_tiles", {})
    need(isinstance(fixed, dict), "fixed_tiles", "must be an object hex -> landscape")
    for lab, land in fixed.items():
        need(valid_label(lab, cols, rows), f"fixed_tiles.{lab}", "not a hex of the map")
        need(
            land in cat.landscapes,
            f"fixed_tiles.{lab}",
            f"must be one of {', '.join(cat.landscapes)}",
        )
    points = data.get("capture_points", [])
    need(
        isinstance(points, list)
        and all(valid_label(p, cols, rows) for p in points)
        and len(set(points)) == len(points),
        "capture_points",
        "must list distinct hexes of the map",
    )
    need(
        not set(points) & set(castles.values()),
        "capture_points",
        "a capture point cannot be a castle",
    )
    taken = set(castles.values()) | set(points)
    need(isinstance(data.get("prebuilt", []), list), "prebuilt", "must be a list")
    for i, b in enumerate(data.get("prebuilt", [])):
        need(
            isinstance(b, dict)
            and isinstance(b.get("kind"), str)
            and (b["kind"] in cat.kinds or b["kind"] in cat.engines),
            f"prebuilt[{i}].kind",
            "unknown building",
        )
        need(
            valid_label(b.get("at"), cols, rows) and b["at"] not in taken,
            f"prebuilt[{i}].at",
            "must be a free hex (not a castle, capture point or other building)",
        )
        taken.add(b["at"])
        for key in ("damage", "counter"):
            if key in b:
                need(_int(b[key]) and 0 <= b[key] <= 6, f"prebuilt[{i}].{key}", "must be 0..6")
    treasury = data.get("treasury", {})
    need(
        isinstance(treasury, dict)
        and set(treasury) == set(SIDES)
        and all(_int(v) and 0 <= v <= 99 for v in treasury.values()),
        "treasury",
        "must give 0..99 treasure dice for red and blue",
    )
    damage = data.get("castle_damage", {})
    need(
        isinstance(damage, dict)
        and set(damage) <= set(SIDES)
        and all(_int(v) and 0 <= v <= 6 for v in damage.values()),
        "castle_damage",
        "must give 0..6 attacks withstood for red and/or blue",
    )
    outposts = data.get("outposts", [])
    need(isinstance(outposts, list), "outposts", "must be a list")
    for i, o in enumerate(outposts):
        need(
            isinstance(o, dict) and o.get("side") in SIDES,
            f"outposts[{i}].side",
            "must be red or blue",
        )
        need(
            valid_label(o.get("at"), cols, rows) and o["at"] not in taken,
            f"outposts[{i}].at",
            "must be a free hex (not a castle, capture point or building)",
        )
        taken.add(o["at"])
        need(
            _int(o.get("damage", 0)) and 0 <= o.get("damage", 0) <= 6,
            f"outposts[{i}].damage",
            "must be 0..6",
        )
    looting = data.get("looting", {})
    need(
        isinstance(looting, dict)
        and set(looting) <= set(SIDES)
        and all(_int(v) and 0 <= v < 6 for v in looting.values()),
        "looting",
        "must give 0..5 for red and/or blue",
    )
    fv = data.get("fortress_values", {})
    need(isinstance(fv, dict) and set(fv) <= set(SIDES), "fortress_values", "keys must be red/blue")
    for side, v in fv.items():
        need(
            isinstance(v, dict) and _int(v.get("range")) and _int(v.get("strength")),
            f"fortress_values.{side}",
            "needs whole-number range and strength",
        )
        need(
            0 <= v["range"] <= cat.fortress["max_range"],
            f"fortress_values.{side}.range",
            f"must be 0..{cat.fortress['max_range']} (the expansion's maximum range)",
        )
        need(
            v["range"] + v["strength"] == cat.fortress["points"] and v["strength"] >= 0,
            f"fortress_values.{side}",
            f"range + strength must be the expansion's {cat.fortress['points']} points",
        )
    units = data.get("units")
    need(
        isinstance(units, list) and 0 < len(units) <= MAX_UNITS,
        "units",
        f"must list 1..{MAX_UNITS} units",
    )
    constructions = data.get("constructions", [])
    need(
        isinstance(constructions, list)
        and all(
            isinstance(c, dict)
            and isinstance(c.get("settler"), str)
            and isinstance(c.get("crew"), str)
            for c in constructions
        ),
        "constructions",
        "must list objects with a settler and a crew unit id",
    )
    # A settler building on its crew is the one case of two units on one hex.
    pairs = {frozenset((c["settler"], c["crew"])) for c in constructions}
    seen_ids: set = set()
    seen_at: dict = {}
    for i, u in enumerate(units):
        entry = f"units[{i}]"
        need(isinstance(u, dict), entry, "must be an object")
        need(
            isinstance(u.get("id"), str)
            and 0 < len(u["id"]) <= 24
            and u["id"].replace("-", "").isalnum()
            and u["id"] not in seen_ids,
            f"{entry}.id",
            "needs a unique id of letters, digits and '-'",
        )
        seen_ids.add(u["id"])
        need(u.get("side") in SIDES, f"{entry}.side", "must be red or blue")
        need(
            u.get("type") in UNIT_TYPES, f"{entry}.type", f"must be one of {', '.join(UNIT_TYPES)}"
        )
        need(
            u.get("level", "simple") in ("simple", "advanced"),
            f"{entry}.level",
            "must be simple or advanced",
        )
        need(
            u.get("level", "simple") == "simple" or u["type"] in cat.advanced,
            f"{entry}.level",
            "only sword, bow and shoe units can be advanced",
        )
        need(
            valid_label(u.get("at"), cols, rows)
            and (u["at"] not in seen_at or frozenset((seen_at[u["at"]], u["id"])) in pairs),
            f"{entry}.at",
            "must be a hex of the map no other unit stands on (except a construction's pair)",
        )
        seen_at.setdefault(u["at"], u["id"])
        training = u.get("training")
        if training is not None:
            need(
                isinstance(training, dict)
                and training.get("type") in TRAININGS
                and training.get("level") in ("simple", "advanced"),
                f"{entry}.training",
                "must be {type: sword/bow/shoe/settler, level: simple/advanced}",
            )
            if u["type"] == "recruit":
                need(
                    training["level"] == "simple",
                    f"{entry}.training",
                    "a recruit is trained simply first",
                )
            else:
                need(
                    training == {"type": u["type"], "level": "advanced"}
                    and u.get("level", "simple") == "simple"
                    and u["type"] in cat.advanced,
                    f"{entry}.training",
                    "a trained unit can only be training to the advanced level of its own symbol",
                )
        weak = u.get("weakening", [])
        need(
            isinstance(weak, list)
            and len(weak) <= 12
            and all(_int(w) and 1 <= w <= 6 for w in weak),
            f"{entry}.weakening",
            "must list die faces 1..6",
        )
    by_id: dict[str, Any] = {u["id"]: u for u in units}
    crew_for = {"fortress": "bow", "trebuchet": "sword", "catapult": "shoe", "ballista": "shoe"}
    for i, c in enumerate(constructions):
        entry = f"constructions[{i}]"
        need(
            isinstance(c.get("kind"), str) and c["kind"] in crew_for,
            f"{entry}.kind",
            f"must be one of {', '.join(crew_for)}",
        )
        settler: Any = by_id.get(c["settler"])
        crew: Any = by_id.get(c["crew"])
        need(
            settler is not None and settler["type"] == "settler",
            f"{entry}.settler",
            "must name a settler unit",
        )
        need(
            crew is not None
            and crew["type"] == crew_for[c["kind"]]
            and crew.get("level", "simple") == "simple",
            f"{entry}.crew",
            f"must name a simple {crew_for[c['kind']]} unit",
        )
        need(
            settler["side"] == crew["side"]
            and settler["at"] == crew["at"]
            and settler["at"] not in taken,
            f"{entry}",
            "settler and crew must be of one side on one hex without a castle, capture point or building",
        )
        taken.add(settler["at"])
    for key in ("active", "phase"):
        if key in data:
            allowed = SIDES if key == "active" else PHASES[1:]
            need(data[key] in allowed, key, f"must be one of {', '.join(allowed)}")
    return data
