"""Loading and validating the Rivet Wars data files and scenario files.

The only file I/O of the game. Everything returned is plain data; every problem raises
``ScenarioError(file, entry, problem)``.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

from engine.core import squaregrid
from engine.core.errors import ScenarioError
from engine.core.paths import data_dir
from engine.core.scenario_io import check_schema, parse_document

from .board import build_board, parse_tile_grid, seg_of_square

SIDES = ("allies", "bismark")
DATA_DIR = data_dir("rivet-wars")
TERRAIN_KINDS = ("bunker", "objective", "wire", "tanktrap", "minefield")
TOKENS_IN_BOX = 6
GAS_MARKERS = 5
PHASES = ("card", "deploy", "combat", "move")
CARD_TIMINGS = ("deploy", "combat", "move", "any", "reaction")
REACTION_EFFECTS = ("take-cover",)
CLASSES = ("infantry", "cavalry", "vehicle", "artillery")
ARMOUR_NAMES = ("infantry", "light", "medium", "heavy", "air")
ABILITIES = (
    "movement_bonus",
    "runner",
    "tank_shock",
    "precision",
    "rush",
    "range_ground",
    "range_air",
    "sniper",
    "quick_advance",
    "reinforced_defence",
    "gas_immune",
)
MISSION_KEYS = (
    "title",
    "title_de",
    "tiles",
    "resources",
    "cards",
    "victory",
    "first",
    "start_on_objectives",
    "round_vp",
    "objective_vp",
    "infantry_points",
    "escalation",
    "paratroopers",
    "terrain",
    "deploy",
    "territory",
    "round_limit",
    "suggested",
)
POSITION_KEYS = (
    "units",
    "turn",
    "active",
    "phase",
    "order",
    "hands",
    "secrets",
    "vp",
    "rivets",
    "points",
    "flags",
    "clouds",
    "decks",
    "heroes_used",
    "first_turn",
    "escalation_vp",
    "spent",
    "no_move",
)


def _read(path: Path, name: str) -> dict:
    """A packaged data file (ours, so a problem here is a packaging fault, reported the same way)."""
    try:
        raw = path.read_bytes()
    except OSError:
        raise ScenarioError(name, "file", "not found") from None
    return parse_document(raw, name)


@lru_cache(maxsize=1)
def tiles() -> dict:
    data = _read(DATA_DIR / "tiles.json", "tiles.json")
    check_schema(data, "rivet-wars-tiles", "tiles.json")
    faces = data.get("tiles", {})
    for face, rows in faces.items():
        if len(rows) != 6 or any(len(r) != 6 or set(r) - {"#", "."} for r in rows):
            raise ScenarioError("tiles.json", face, "a tile face is 6 rows of 6 '#'/'.' characters")
    return faces


@lru_cache(maxsize=1)
def tile_faces() -> tuple:
    return tuple((k, tuple(v)) for k, v in sorted(tiles().items()))


@lru_cache(maxsize=1)
def base_roster() -> dict:
    data = _read(DATA_DIR / "roster.json", "roster.json")
    check_schema(data, "rivet-wars-roster", "roster.json")
    units = data.get("units", {})
    for key, spec in units.items():
        validate_unit_type("roster.json", key, spec)
    return units


@lru_cache(maxsize=1)
def cards() -> dict:
    data = _read(DATA_DIR / "cards.json", "cards.json")
    check_schema(data, "rivet-wars-cards", "cards.json")
    for card in data["action_cards"]:
        if card.get("deviation") not in ("F", "FR", "R", "BR", "B", "BL", "L", "FL"):
            raise ScenarioError(
                "cards.json", card.get("id", "?"), "deviation must be F, FR, R, BR, B, BL, L or FL"
            )
        if card.get("when") not in CARD_TIMINGS:
            raise ScenarioError(
                "cards.json", card.get("id", "?"), f"when must be one of {', '.join(CARD_TIMINGS)}"
            )
        if (card.get("when") == "reaction") != (card.get("effect") in REACTION_EFFECTS):
            raise ScenarioError(
                "cards.json",
                card.get("id", "?"),
                f"only {', '.join(REACTION_EFFECTS)} is played as a reaction, and always so",
            )
    return {
        "action": {c["id"]: c for c in data["action_cards"]},
        "secret": {c["id"]: c for c in data["secret_missions"]},
        "priority": {s: [tuple(p) for p in data["target_priority"][s]] for s in SIDES},
    }


def validate_unit_type(file: str, key: str, spec: dict) -> None:
    entry = f"unit {key}"
    if not isinstance(spec, dict):
        raise ScenarioError(file, entry, "must be an object")
    if spec.get("side") not in SIDES:
        raise ScenarioError(file, entry, f"side must be one of {', '.join(SIDES)}")
    if spec.get("class") not in CLASSES:
        raise ScenarioError(file, entry, f"class must be one of {', '.join(CLASSES)}")
    numbers = ["count", "cost", "rivets", "loot"] + (
        [] if spec.get("plugin") else ["move", "armour", "hp", "sockets"]
    )
    for field in numbers:
        if not isinstance(spec.get(field), int) or spec[field] < 0:
            raise ScenarioError(file, entry, f"{field} must be a whole number >= 0")
    if not spec.get("plugin") and not 1 <= spec["armour"] <= 5:
        raise ScenarioError(
            file, entry, "armour must be 1..5 (infantry, light, medium, heavy, air)"
        )
    for weapon in spec.get("weapons", []):
        if not isinstance(weapon.get("id"), str) or not isinstance(weapon.get("attacks"), int):
            raise ScenarioError(file, entry, "each weapon needs an id and a number of attacks")
        dice = weapon.get("dice")
        if (
            not isinstance(dice, list)
            or len(dice) != 5
            or not all(isinstance(d, int) and d >= 0 for d in dice)
        ):
            raise ScenarioError(
                file, entry, f"weapon {weapon['id']}: dice must list 5 numbers (armour 1..5)"
            )
        for rng in ("ground", "air"):
            if not isinstance(weapon.get(rng), int) or weapon[rng] < 0:
                raise ScenarioError(
                    file, entry, f"weapon {weapon['id']}: {rng} range must be a number >= 0"
                )
    for ability in spec.get("abilities", []):
        if ability.get("name") not in ABILITIES:
            raise ScenarioError(
                file, entry, f"lists an unknown ability; known: {', '.join(ABILITIES)}"
            )


def mission_names() -> list[str]:
    return [f"mission-{n}" for n in range(1, 11)]


def _seg_list(file, entry, board, values):
    out = []
    if not isinstance(values, list):
        raise ScenarioError(file, entry, "must be a list of segment names such as C3")
    for value in values:
        seg = board.parse_seg(str(value))
        if seg is None:
            raise ScenarioError(
                file,
                entry,
                "lists a name that is not a segment of this map (segments are "
                "named by their top-left square: A1, C1, ..., A3, ...)",
            )
        out.append(str(value).upper())
    return out


def load(name: str) -> dict:
    """A packaged mission by name (callers from outside check the name first, see
    ``Ruleset.load_packaged``)."""
    name = name or "mission-1"
    if name not in mission_names():
        raise ScenarioError(
            name[:64], "scenario", f"unknown scenario; known: {', '.join(mission_names())}"
        )
    file = f"data/rivet-wars/missions/{name}.json"
    return from_document(_read(DATA_DIR / "missions" / f"{name}.json", file), file)


def from_document(document: dict, file: str) -> dict:
    """A scenario document: structure by ``data/schemas/rivet-wars.schema.json``, then meaning."""
    check_schema(document, "rivet-wars", file)
    return build(document, file)


def build(raw: dict, file: str = "<scenario>") -> dict:
    """Merge a scenario (optionally based on a packaged mission) and validate it."""
    raw = copy.deepcopy(raw)
    base_name = raw.get("mission")
    if base_name is not None:
        if base_name not in mission_names():
            raise ScenarioError(
                file, "mission", f"unknown mission; known: {', '.join(mission_names())}"
            )
        base = _read(DATA_DIR / "missions" / f"{base_name}.json", f"{base_name}.json")
        base.pop("_comment", None)
        merged = {**base, **{k: v for k, v in raw.items() if k != "mission"}}
        if "suggested" not in raw and ("deploy" in raw or "roster" in raw):
            # the mission's suggestion was made for its own segments and units
            merged.pop("suggested", None)
        merged.setdefault("name", base_name)
        if "name" not in raw:
            merged["name"] = base_name
    else:
        merged = raw
    merged.pop("_comment", None)
    known = set(MISSION_KEYS) | set(POSITION_KEYS) | {"name", "roster"}
    for key in merged:
        if key not in known:
            raise ScenarioError(file, key, f"unknown entry; known: {', '.join(sorted(known))}")
    if not isinstance(merged.get("name"), str) or not merged["name"]:
        raise ScenarioError(file, "name", "a scenario needs a name")
    try:
        grid = parse_tile_grid(str(merged.get("tiles", "")))
    except ValueError as exc:
        raise ScenarioError(file, "tiles", str(exc)) from None
    faces = tiles()
    numbers = []
    for row in grid:
        for face in row:
            if face not in faces:
                raise ScenarioError(file, "tiles", "names an unknown tile face; faces are 1A..9B")
            numbers.append(face[:-1])
    if len(numbers) != len(set(numbers)):
        raise ScenarioError(file, "tiles", "a double-sided tile can be used only once (one face)")
    board = build_board(merged["tiles"], tile_faces())

    roster = copy.deepcopy(base_roster())
    for key, spec in (merged.get("roster") or {}).items():
        full = {**roster.get(key, {}), **spec}
        full.setdefault("weapons", [])
        full.setdefault("abilities", [])
        validate_unit_type(file, key, full)
        roster[key] = full

    res = merged.get("resources")
    if not isinstance(res, dict) or set(res) != set(SIDES):
        raise ScenarioError(file, "resources", "give points and rivets for allies and bismark")
    for side in SIDES:
        for field in ("points", "rivets"):
            if not isinstance(res[side].get(field), int) or res[side][field] < 0:
                raise ScenarioError(
                    file, f"resources.{side}.{field}", "must be a whole number >= 0"
                )
    victory = merged.get("victory")
    if not isinstance(victory, dict) or any(
        not isinstance(victory.get(s), int) or victory[s] < 1 for s in SIDES
    ):
        raise ScenarioError(
            file,
            "victory",
            'give the victory points each side needs, e.g. {"allies": 6, "bismark": 6}',
        )
    terrain = merged.get("terrain") or {}
    for kind, segs in terrain.items():
        if kind not in TERRAIN_KINDS:
            raise ScenarioError(
                file, f"terrain.{kind}", f"unknown terrain; known: {', '.join(TERRAIN_KINDS)}"
            )
        terrain[kind] = _seg_list(file, f"terrain.{kind}", board, segs)
        if len(terrain[kind]) > TOKENS_IN_BOX:
            raise ScenarioError(
                file, f"terrain.{kind}", f"the box holds only {TOKENS_IN_BOX} tokens of each kind"
            )
    merged["terrain"] = terrain
    deploy = merged.get("deploy") or {}
    for side in SIDES:
        deploy[side] = _seg_list(file, f"deploy.{side}", board, deploy.get(side, []))
    merged["deploy"] = deploy
    territory = merged.get("territory") or {}
    owner = {}
    for side in SIDES:
        spec = territory.get(side, {})
        rows = spec.get("rows", [])
        if any(not isinstance(r, int) or not 1 <= r <= board.seg_rows for r in rows):
            raise ScenarioError(
                file, f"territory.{side}.rows", f"segment rows are 1..{board.seg_rows}"
            )
        for seg in board.segments():
            if seg[1] + 1 in rows:
                owner[_label(seg)] = side
        for label in _seg_list(file, f"territory.{side}.segments", board, spec.get("segments", [])):
            owner[label] = side
    merged["territory_of"] = owner
    for side in SIDES:
        for label in deploy[side]:
            if owner.get(label) != side:
                raise ScenarioError(file, f"deploy.{side}", f"{label} is not in {side} territory")
    suggested = merged.get("suggested") or {}
    for side, pairs in suggested.items():
        if side not in SIDES:
            raise ScenarioError(file, f"suggested.{side}", "must be allies or bismark")
        for i, pair in enumerate(pairs):
            entry = f"suggested.{side}.{i}"
            spec = roster.get(pair[0])
            if spec is None or spec["side"] != side or spec.get("plugin"):
                raise ScenarioError(
                    file, entry, f"names no unit type of {side} (plug-ins go on units)"
                )
            if pair[1].upper() not in deploy[side]:
                raise ScenarioError(file, entry, f"is not a deployment segment of {side}")
        suggested[side] = [[pair[0], pair[1].upper()] for pair in pairs]
    for key in ("round_limit", "infantry_points"):
        if key in merged and (not isinstance(merged[key], int) or merged[key] < 0):
            raise ScenarioError(file, key, "must be a whole number >= 0")
    if merged.get("first") not in (None, *SIDES):
        raise ScenarioError(file, "first", "must be allies or bismark")
    cards_cfg = merged.get("cards", {"action": True, "secret": True})
    merged["cards"] = {
        "action": bool(cards_cfg.get("action", True)),
        "secret": bool(cards_cfg.get("secret", True)),
    }
    merged["objective_vp"] = merged.get("objective_vp") or {s: 1 for s in SIDES}
    merged["round_vp"] = merged.get("round_vp") or {}
    para = merged.get("paratroopers")
    if para is not None:
        if (
            para.get("side") not in SIDES
            or para.get("unit") not in roster
            or not isinstance(para.get("count"), int)
        ):
            raise ScenarioError(file, "paratroopers", "needs side, unit (a unit type) and count")
    start = merged.get("start_on_objectives")
    if start is not None and (start.get("side") not in SIDES or start.get("unit") not in roster):
        raise ScenarioError(file, "start_on_objectives", "needs side and unit (a unit type)")
    merged["roster"] = {k: v for k, v in roster.items() if base_roster().get(k) != v}
    _validate_position(file, merged, board, roster)
    return merged


def _label(seg):
    from .board import seg_label

    return seg_label(seg)


def _validate_position(file, scn, board, roster):
    card_data = cards()
    units = scn.get("units")
    if units is not None:
        if not isinstance(units, list):
            raise ScenarioError(file, "units", "must be a list of units")
        seen_squares, ids = set(), set()
        for i, unit in enumerate(units):
            entry = f"units[{i}]"
            if not isinstance(unit, dict):
                raise ScenarioError(file, entry, "must be an object with type, side and at")
            spec = roster.get(unit.get("type"))
            if spec is None or spec.get("plugin"):
                raise ScenarioError(
                    file,
                    entry,
                    "unknown unit type; types: "
                    f"{', '.join(k for k, v in sorted(roster.items()) if not v.get('plugin'))}",
                )
            side = unit.get("side", spec["side"])
            if side != spec["side"]:
                raise ScenarioError(file, entry, f"{unit['type']} belongs to {spec['side']}")
            sq = board.parse_square(str(unit.get("at", "")))
            if sq is None:
                raise ScenarioError(
                    file,
                    entry,
                    f"at is not a square of this {board.columns}x{board.rows} map (e.g. C4)",
                )
            if sq in seen_squares:
                raise ScenarioError(file, entry, f"square {unit['at']} already holds a unit")
            seen_squares.add(sq)
            for plug in unit.get("plugins", []):
                pspec = roster.get(plug)
                if not pspec or not pspec.get("plugin") or pspec["side"] != side:
                    raise ScenarioError(
                        file, entry, f"lists a plug-in that is not a plug-in of {side}"
                    )
            if len(unit.get("plugins", [])) > spec.get("sockets", 0):
                raise ScenarioError(
                    file, entry, f"{unit['type']} has only {spec.get('sockets', 0)} socket(s)"
                )
            damage = unit.get("damage", 0)
            if not isinstance(damage, int) or damage < 0:
                raise ScenarioError(file, entry, "damage must be a whole number >= 0")
            if "id" in unit:
                if unit["id"] in ids:
                    raise ScenarioError(file, entry, "the id is used twice")
                ids.add(unit["id"])
    if scn.get("phase") not in (None, *PHASES):
        raise ScenarioError(file, "phase", f"must be one of {', '.join(PHASES)}")
    for key in ("active",):
        if scn.get(key) not in (None, *SIDES):
            raise ScenarioError(file, key, "must be allies or bismark")
    if scn.get("order") is not None and sorted(scn["order"]) != sorted(SIDES):
        raise ScenarioError(file, "order", "must list allies and bismark once each")
    for key, deck in (("hands", "action"), ("secrets", "secret")):
        for side, ids in (scn.get(key) or {}).items():
            if side not in SIDES:
                raise ScenarioError(file, f"{key}.{side}", "unknown side")
            for cid in ids:
                if cid not in card_data[deck]:
                    raise ScenarioError(file, f"{key}.{side}", "lists an unknown card")
            if len(ids) > (3 if key == "hands" else 2):
                raise ScenarioError(
                    file, f"{key}.{side}", "hand limit is 3 action cards / 2 secret missions"
                )
    for key in ("vp", "rivets", "points", "escalation_vp"):
        for side, value in (scn.get(key) or {}).items():
            if side not in SIDES or not isinstance(value, int) or value < 0:
                raise ScenarioError(
                    file, f"{key}.{side}", "must be a side with a whole number >= 0"
                )
    for label, side in (scn.get("flags") or {}).items():
        if label not in scn["terrain"].get("objective", []) or side not in SIDES:
            raise ScenarioError(
                file, f"flags.{label}", "flags stand on objective segments and belong to a side"
            )
    if len(scn.get("clouds") or []) > GAS_MARKERS:
        raise ScenarioError(file, "clouds", f"the box holds only {GAS_MARKERS} gas markers")
    for i, cloud in enumerate(scn.get("clouds") or []):
        if board.parse_seg(str(cloud.get("at", ""))) is None or cloud.get("owner") not in SIDES:
            raise ScenarioError(
                file, f"clouds[{i}]", "a cloud needs at (a segment) and owner (a side)"
            )
        dice = cloud.get("dice")
        if not isinstance(dice, list) or len(dice) != 5:
            raise ScenarioError(file, f"clouds[{i}]", "dice must list 5 numbers (armour 1..5)")
    for deck, ids in (scn.get("decks") or {}).items():
        if deck not in ("action", "secret"):
            raise ScenarioError(file, f"decks.{deck}", "decks are action and secret")
        for cid in ids:
            if cid not in card_data[deck]:
                raise ScenarioError(file, f"decks.{deck}", "lists an unknown card")
    if "turn" in scn and (not isinstance(scn["turn"], int) or scn["turn"] < 1):
        raise ScenarioError(file, "turn", "must be a round number >= 1")
    ids = {u.get("id") for u in (scn.get("units") or []) if isinstance(u, dict)}
    for key in ("spent", "no_move"):
        for uid in scn.get(key) or []:
            if uid not in ids:
                raise ScenarioError(
                    file, key, "lists an id that is not the id of a unit in 'units'"
                )
    for key in ("heroes_used",):
        for t in scn.get(key) or []:
            if t not in roster:
                raise ScenarioError(file, key, "lists an unknown unit type")


def square_segment_label(text: str) -> str:
    return _label(seg_of_square(squaregrid.parse_label(text)))
