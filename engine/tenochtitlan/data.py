"""Loading and validating the Tenochtitlan data files (map, terrain chart, units, cards).

The one place this game reads files. Everything is validated on load and a problem raises
``ScenarioError(file, entry, problem)``. Maps are compiled once into flat per-hex tables
(indices of :class:`~engine.core.hexgrid.HexMap`) because movement and line-of-sight searches
run for every ``legal_actions`` call.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import hexgrid
from engine.core.errors import ScenarioError
from engine.core.hexgrid import UNREACHABLE
from engine.core.paths import data_dir
from engine.core.scenario_io import check_schema, parse_document

DATA_DIR = data_dir("tenochtitlan")
SIDES = ("spanish", "aztec")
CLASSES = (
    "infantry",
    "cavalry",
    "artillery",
    "arquebusiers",
    "crossbowmen",
    "bowmen",
    "brigantine",
    "canoe",
)
WATER_CLASSES = frozenset({"brigantine", "canoe"})
SPECIAL_KINDS = (
    "attack_bonus",
    "movement_bonus",
    "return_unit",
    "mandatory_attack",
    "no_defensive_fire",
)
RETURN_PLACES = ("default", "city", "village")
MEDIA = ("land", "water", "crossing")
# The legend of the packaged map; inline scenario maps may omit theirs and use this one.
DEFAULT_LEGEND = {
    ".": "clear",
    "h": "hills",
    "w": "marsh",
    "L": "lake",
    "k": "canal",
    "c": "city",
    "P": "precinct",
    "M": "market",
    "D": "dock",
    "=": "causeway",
    "b": "bridge",
    "B": "city-bridge",
    "v": "village",
    "s": "springs",
}


def _read_json(path: Path, label: str) -> dict:
    """A packaged data or scenario file (ours; a problem is a packaging fault, reported alike)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(label, "file", f"cannot be read: {exc.strerror or exc}") from None
    return parse_document(raw, label)


def _need(cond: object, file: str, entry: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(file, entry, problem)


def _typed_entries(data: dict, file: str):
    """The ``types`` object of a data file, checked, as (name, entry, entry path) triples."""
    types = data.get("types")
    if not isinstance(types, dict) or not types:
        raise ScenarioError(file, "types", "must be a non-empty object")
    for name, t in types.items():
        entry = f"types.{name}"
        _need(isinstance(t, dict), file, entry, "must be an object")
        yield name, t, entry


# ----- terrain ----------------------------------------------------------------------------------


@functools.cache
def terrain_chart() -> dict:
    file = "terrain.json"
    data = _read_json(DATA_DIR / file, file)
    check_schema(data, "tenochtitlan-terrain", file)
    for name, t, entry in _typed_entries(data, file):
        _need(
            t.get("medium") in MEDIA, file, entry + ".medium", f"must be one of {', '.join(MEDIA)}"
        )
        _need(
            isinstance(t.get("cost"), int) and t["cost"] >= 1,
            file,
            entry + ".cost",
            "must be a whole number of movement points, at least 1",
        )
        _need(
            isinstance(t.get("defence"), int) and t["defence"] >= 0,
            file,
            entry + ".defence",
            "must be a whole number >= 0",
        )
        for flag in ("stop", "no_attack", "blocks_los"):
            _need(isinstance(t.get(flag), bool), file, f"{entry}.{flag}", "must be true or false")
        _need(
            isinstance(t.get("fill", "#888888"), str)
            and str(t.get("fill", "#888888")).startswith("#"),
            file,
            entry + ".fill",
            "must be a colour like #a0b0c0",
        )
    fort = (data.get("features") or {}).get("fort")
    _need(
        isinstance(fort, dict) and isinstance(fort.get("defence"), int),
        file,
        "features.fort",
        "needs a whole-number defence",
    )
    _need(
        isinstance(data.get("brigantine_causeway_cost"), int)
        and data["brigantine_causeway_cost"] >= 1,
        file,
        "brigantine_causeway_cost",
        "must be a whole number >= 1",
    )
    return data


# ----- units ------------------------------------------------------------------------------------


@functools.cache
def unit_types() -> dict:
    file = "units.json"
    data = _read_json(DATA_DIR / file, file)
    check_schema(data, "tenochtitlan-units", file)
    for name, t, entry in _typed_entries(data, file):
        _need(t.get("side") in SIDES, file, entry + ".side", "must be spanish or aztec")
        _need(
            t.get("class") in CLASSES,
            file,
            entry + ".class",
            f"must be one of {', '.join(CLASSES)}",
        )
        for k in ("attack", "defence", "movement", "range", "count"):
            _need(
                isinstance(t.get(k), int) and t[k] >= (1 if k == "range" else 0),
                file,
                f"{entry}.{k}",
                "must be a whole number" + (" >= 1" if k == "range" else " >= 0"),
            )
        _need(
            isinstance(t.get("title"), str) and isinstance(t.get("short"), str),
            file,
            entry,
            "needs a title and a short name",
        )
    return data["types"]


# ----- cards ------------------------------------------------------------------------------------


@functools.cache
def card_decks() -> dict:
    file = "cards.json"
    data = _read_json(DATA_DIR / file, file)
    check_schema(data, "tenochtitlan-cards", file)
    seen = set()
    decks: dict[str, list[dict]] = {}
    for side in SIDES:
        deck = data.get(side)
        if not isinstance(deck, list) or not deck:
            raise ScenarioError(file, side, "must be a non-empty list of cards")
        for i, card in enumerate(deck):
            entry = f"{side}[{i}]"
            _need(isinstance(card, dict), file, entry, "must be an object")
            cid = card.get("id")
            _need(
                isinstance(cid, str) and cid and cid not in seen,
                file,
                entry + ".id",
                "must be a unique non-empty text",
            )
            seen.add(cid)
            for k in ("move", "attack"):
                _need(
                    isinstance(card.get(k), int) and card[k] >= 0,
                    file,
                    f"{cid}.{k}",
                    "must be a whole number >= 0",
                )
            special = card.get("special")
            if special is not None:
                _need(
                    isinstance(special, dict), file, f"{cid}.special", "must be an object or null"
                )
                kind = special.get("kind")
                _need(
                    kind in SPECIAL_KINDS,
                    file,
                    f"{cid}.special.kind",
                    f"unknown kind {kind!r}; the engine implements {', '.join(SPECIAL_KINDS)}",
                )
                if kind in ("attack_bonus", "movement_bonus", "return_unit"):
                    classes = special.get("classes")
                    _need(
                        isinstance(classes, list)
                        and classes
                        and all(c in CLASSES for c in classes),
                        file,
                        f"{cid}.special.classes",
                        f"must list unit classes from {', '.join(CLASSES)}",
                    )
                if kind in ("attack_bonus", "movement_bonus"):
                    _need(
                        isinstance(special.get("bonus"), int) and special["bonus"] > 0,
                        file,
                        f"{cid}.special.bonus",
                        "must be a whole number > 0",
                    )
                if kind == "return_unit":
                    _need(
                        special.get("where", "default") in RETURN_PLACES,
                        file,
                        f"{cid}.special.where",
                        f"must be one of {', '.join(RETURN_PLACES)}",
                    )
                _need(
                    special.get("requires") in (None, "aqueduct"),
                    file,
                    f"{cid}.special.requires",
                    "must be absent or 'aqueduct'",
                )
            decks.setdefault(side, []).append(card)
    return decks


@functools.cache
def cards_by_id() -> dict:
    return {c["id"]: {**c, "side": side} for side, deck in card_decks().items() for c in deck}


# ----- maps -------------------------------------------------------------------------------------


@dataclass
class Board:
    """A compiled map: flat tables indexed like ``grid.hexes``."""

    key: str
    name: str
    title: str
    columns: int
    rows: int
    grid: hexgrid.HexMap
    terrain: list[str]
    medium: list[str]
    defence: list[int]
    blocks: list[bool]
    no_attack: list[bool]
    city: list[bool]
    causeway_of: list[str | None]
    bridge: list[bool]
    fort: list[bool]
    stops: frozenset[int]
    cost_land: tuple[int, ...]
    cost_canoe: tuple[int, ...]
    cost_brigantine: list[int]  # causeway hexes UNREACHABLE here; priced per state
    brigantine_causeway_cost: int
    road_links: frozenset[tuple[int, int]]
    roads: list[list[str]]
    causeways: dict[str, dict]
    villages: dict[str, int]
    objectives: dict[str, int]
    forts: dict[str, int]
    aqueduct: list[int]
    brigantine_setup: frozenset[int]
    control_hexes: tuple[int, ...]
    spec: dict = field(repr=False, default_factory=dict)

    def idx(self, lab: str) -> int | None:
        return self.grid.by_label.get(lab)

    def label(self, i: int) -> str:
        return self.grid.labels[i]


def _hex_label(file: str, entry: str, value, board_labels) -> str:
    _need(
        isinstance(value, str) and value in board_labels,
        file,
        entry,
        "is not a hex of this map (labels are CCRR, e.g. 0507)",
    )
    return value


def compile_map(spec: dict, file: str, packaged: bool = False) -> Board:
    chart = terrain_chart()
    types = chart["types"]
    _need(
        isinstance(spec.get("columns"), int) and 2 <= spec["columns"] <= 60,
        file,
        "columns",
        "must be a whole number 2..60",
    )
    _need(
        isinstance(spec.get("rows"), int) and 2 <= spec["rows"] <= 60,
        file,
        "rows",
        "must be a whole number 2..60",
    )
    cols, rows = spec["columns"], spec["rows"]
    legend = spec.get("legend", DEFAULT_LEGEND)
    _need(
        isinstance(legend, dict) and legend, file, "legend", "must map characters to terrain types"
    )
    for ch, t in legend.items():
        _need(
            len(ch) == 1 and t in types,
            file,
            f"legend.{ch}",
            f"must map one character to a terrain type of terrain.json ({', '.join(types)})",
        )
    lines = spec.get("terrain")
    if not isinstance(lines, list) or len(lines) != rows:
        raise ScenarioError(file, "terrain", f"must be a list of {rows} strings, one per row")
    grid = hexgrid.HexMap.rectangle(cols, rows)
    n = len(grid)
    terrain = [""] * n
    for r, line in enumerate(lines):
        _need(
            isinstance(line, str) and len(line) == cols,
            file,
            f"terrain[{r}]",
            f"must be a string of {cols} characters",
        )
        for c, ch in enumerate(line):
            _need(ch in legend, file, f"terrain[{r}][{c}]", "this character is not in the legend")
            terrain[grid.index[hexgrid.from_offset(c, r)]] = legend[ch]
    labels = set(grid.labels)
    medium = [types[t]["medium"] for t in terrain]

    forts: dict[str, int] = {}
    for name, lab in (spec.get("forts") or {}).items():
        forts[name] = grid.by_label[_hex_label(file, f"forts.{name}", lab, labels)]
        _need(medium[forts[name]] != "water", file, f"forts.{name}", "a fort must be on land")
    fort = [False] * n
    for i in forts.values():
        fort[i] = True
    fort_def = chart["features"]["fort"]["defence"]
    # Terrain bonuses do not add up: a hex's bonus is the highest of its terrain and features.
    defence = [max(types[terrain[i]]["defence"], fort_def if fort[i] else 0) for i in range(n)]
    blocks = [
        types[terrain[i]]["blocks_los"]
        or (fort[i] and chart["features"]["fort"].get("blocks_los", True))
        for i in range(n)
    ]
    no_attack = [types[t]["no_attack"] for t in terrain]
    city = [bool(types[t].get("city")) for t in terrain]
    bridge = [bool(types[t].get("bridge")) for t in terrain]
    stops = frozenset(i for i in range(n) if types[terrain[i]]["stop"])
    # Tuples: the movement search builds its per-class tables once for immutable cost tables.
    cost_land = tuple(
        types[terrain[i]]["cost"] if medium[i] != "water" else UNREACHABLE for i in range(n)
    )
    cost_canoe = tuple(1 if medium[i] != "land" else UNREACHABLE for i in range(n))
    cost_brig = [1 if medium[i] == "water" else UNREACHABLE for i in range(n)]

    causeways: dict[str, dict] = {}
    causeway_of: list[str | None] = [None] * n
    villages = {}
    for name, lab in (spec.get("villages") or {}).items():
        villages[name] = grid.by_label[_hex_label(file, f"villages.{name}", lab, labels)]
        _need(
            medium[villages[name]] == "land", file, f"villages.{name}", "a village must be on land"
        )
    for name, cw in (spec.get("causeways") or {}).items():
        entry = f"causeways.{name}"
        _need(
            isinstance(cw, dict) and isinstance(cw.get("hexes"), list) and cw["hexes"],
            file,
            entry,
            "needs a non-empty list of hexes",
        )
        idxs: list[int] = []
        for k, lab in enumerate(cw["hexes"]):
            i = grid.by_label[_hex_label(file, f"{entry}.hexes[{k}]", lab, labels)]
            _need(
                bool(types[terrain[i]].get("causeway")),
                file,
                f"{entry}.hexes[{k}]",
                f"{lab} is {terrain[i]}, not causeway terrain",
            )
            _need(causeway_of[i] is None, file, f"{entry}.hexes[{k}]", f"{lab} is on two causeways")
            if idxs:
                _need(
                    i in grid.adjacent[idxs[-1]],
                    file,
                    f"{entry}.hexes[{k}]",
                    f"{lab} is not adjacent to the previous causeway hex",
                )
            causeway_of[i] = name
            idxs.append(i)
        _need(
            cw.get("village") in villages,
            file,
            f"{entry}.village",
            "must name a village of the map",
        )
        causeways[name] = {"title": cw.get("title", name), "hexes": idxs, "village": cw["village"]}
    for i in range(n):
        if types[terrain[i]].get("causeway") and causeway_of[i] is None:
            raise ScenarioError(
                file, "causeways", f"causeway hex {grid.labels[i]} belongs to no causeway"
            )
    objectives = {}
    for name, lab in (spec.get("objectives") or {}).items():
        objectives[name] = grid.by_label[_hex_label(file, f"objectives.{name}", lab, labels)]
    roads = spec.get("roads") or []
    links = set()
    for k, road in enumerate(roads):
        _need(
            isinstance(road, list) and len(road) >= 2,
            file,
            f"roads[{k}]",
            "must list at least two hexes",
        )
        prev = None
        for j, lab in enumerate(road):
            i = grid.by_label[_hex_label(file, f"roads[{k}][{j}]", lab, labels)]
            _need(medium[i] != "water", file, f"roads[{k}][{j}]", "a road cannot run over water")
            if prev is not None:
                _need(
                    i in grid.adjacent[prev],
                    file,
                    f"roads[{k}][{j}]",
                    f"{lab} is not adjacent to the previous road hex",
                )
                links.add((prev, i))
                links.add((i, prev))
            prev = i
    aqueduct = [
        grid.by_label[_hex_label(file, f"aqueduct[{k}]", lab, labels)]
        for k, lab in enumerate(spec.get("aqueduct") or [])
    ]
    setup = spec.get("brigantine_setup") or {}
    rows_from = setup.get("rows_from", 1)
    _need(isinstance(rows_from, int), file, "brigantine_setup.rows_from", "must be a row number")
    brig_setup = frozenset(
        i
        for i in range(n)
        if terrain[i] == setup.get("terrain", "lake")
        and medium[i] == "water"
        and hexgrid.to_offset(grid.hexes[i])[1] + 1 >= rows_from
    )
    control = set(objectives.values()) | set(villages.values()) | set(aqueduct)
    for cw in causeways.values():
        control |= set(cw["hexes"])
    name = spec.get("name", "custom")
    key = "tenochtitlan/" + str(name)
    if not packaged:
        # An inline map keyed by its content: one named "standard" must not reuse the packaged
        # map's cached picture layer.
        digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:10]
        key += "-" + digest
    return Board(
        key=key,
        name=str(name),
        title=str(spec.get("title", name)),
        columns=cols,
        rows=rows,
        grid=grid,
        terrain=terrain,
        medium=medium,
        defence=defence,
        blocks=blocks,
        no_attack=no_attack,
        city=city,
        causeway_of=causeway_of,
        bridge=bridge,
        fort=fort,
        stops=stops,
        cost_land=cost_land,
        cost_canoe=cost_canoe,
        cost_brigantine=cost_brig,
        brigantine_causeway_cost=chart["brigantine_causeway_cost"],
        road_links=frozenset(links),
        roads=[list(r) for r in roads],
        causeways=causeways,
        villages=villages,
        objectives=objectives,
        forts=forts,
        aqueduct=aqueduct,
        brigantine_setup=brig_setup,
        control_hexes=tuple(sorted(control)),
        spec=spec,
    )


@functools.lru_cache(maxsize=1)
def packaged_map_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem[4:] for p in DATA_DIR.glob("map-*.json")))


@functools.cache
def packaged_map(name: str) -> Board:
    file = f"map-{name}.json"
    path = DATA_DIR / file
    if name not in packaged_map_names():
        # compared with the packaged list, so a name from a scenario file never becomes a path
        raise ScenarioError(
            "scenario",
            "map",
            f"no packaged map of that name; known: {', '.join(packaged_map_names())}",
        )
    spec = _read_json(path, file)
    check_schema(spec, "tenochtitlan-map", file)
    return compile_map(spec, file, packaged=True)


_inline_cache: dict[str, Board] = {}


def board_for(map_spec, file: str = "scenario") -> Board:
    """The compiled board of a state's ``map`` entry (a packaged name or an inline map)."""
    if isinstance(map_spec, str):
        if map_spec not in packaged_map_names():
            raise ScenarioError(
                file,
                "map",
                f"no packaged map of that name; known: {', '.join(packaged_map_names())}",
            )
        return packaged_map(map_spec)
    if not isinstance(map_spec, dict):
        raise ScenarioError(file, "map", "must be a packaged map name or a map object")
    key = json.dumps(map_spec, sort_keys=True)
    board = _inline_cache.get(key)
    if board is None:
        board = compile_map(map_spec, file)
        if len(_inline_cache) > 64:
            _inline_cache.clear()
        _inline_cache[key] = board
    return board
