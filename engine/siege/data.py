"""SIEGE's data files under ``data/siege/``: read once, validated, errors naming file and entry.

Every table the rules consult (terrain, figures, results, fire, melee) and the maps live here as
data; part 2 adds its files (camp map, engines, healing...) beside them.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from engine.core import hexgrid
from engine.core.errors import ScenarioError
from engine.core.paths import data_dir

from .board import Board

DATA_DIR = data_dir("siege")
COVERS = ("none", "light", "medium", "heavy", "full")
MELEE_SIGNS = ("+", "0", "-")
LETTERS = ("A", "B", "C", "D", "E", "F")
BANDS = ("short", "medium", "long")
STATES = ("healthy", "wounded")


def read_json(path: Path, label: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(label, "file", f"cannot be read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(label, f"line {exc.lineno}", f"is not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ScenarioError(label, "top level", "must be a JSON object")
    return data


def need(cond: object, file: str, entry: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(file, entry, problem)


@functools.lru_cache(maxsize=1)
def terrain() -> dict:
    file = "terrain.json"
    data = read_json(DATA_DIR / file, file)
    kinds: Any = data.get("kinds")
    need(isinstance(kinds, dict) and kinds, file, "kinds", "must be an object of terrain kinds")
    chars = set()
    for kind, spec in kinds.items():
        entry = f"kinds.{kind}"
        need(isinstance(spec, dict), file, entry, "must be an object")
        need(
            isinstance(spec.get("char"), str)
            and len(spec["char"]) == 1
            and spec["char"] not in chars,
            file,
            entry + ".char",
            "must be one character, different for every kind",
        )
        chars.add(spec["char"])
        need(spec.get("level") in (0, 1, 2, 3), file, entry + ".level", "must be 0, 1, 2 or 3")
        need(
            spec.get("height") is None or isinstance(spec.get("height"), int),
            file,
            entry + ".height",
            "must be a whole number or null",
        )
        need(
            spec.get("cost") is None or (isinstance(spec.get("cost"), int) and spec["cost"] >= 1),
            file,
            entry + ".cost",
            "must be a whole number >= 1 or null (impassable)",
        )
        need(
            spec.get("cover") in COVERS,
            file,
            entry + ".cover",
            f"must be one of {', '.join(COVERS)}",
        )
        need(spec.get("melee") in MELEE_SIGNS, file, entry + ".melee", "must be '+', '0' or '-'")
        need(isinstance(spec.get("inside"), bool), file, entry + ".inside", "must be true or false")
        need(
            spec.get("building") in (None, "tower", "keep"),
            file,
            entry + ".building",
            "must be tower, keep or absent",
        )
        need(
            spec.get("elevation", 0) in (0, 1, 2),
            file,
            entry + ".elevation",
            "must be 0 (plain), 1 (slope) or 2 (hilltop), or absent",
        )
        need(
            spec.get("mounted") in (None, "impassable", "cross-only"),
            file,
            entry + ".mounted",
            "must be impassable, cross-only or absent",
        )
    shifts = data.get("melee_shifts", {})
    for who in ("defender", "attacker"):
        table = shifts.get(who)
        need(
            isinstance(table, dict) and all(isinstance(table.get(s), int) for s in MELEE_SIGNS),
            file,
            f"melee_shifts.{who}",
            "must give a whole number for '+', '0' and '-'",
        )
    need(
        isinstance(shifts.get("several_attackers"), int),
        file,
        "melee_shifts.several_attackers",
        "must be a whole number",
    )
    dead = data.get("dead_figures", {})
    for key in ("extra_cost_at", "impassable_at"):
        need(
            isinstance(dead.get(key), int) and dead[key] >= 1,
            file,
            f"dead_figures.{key}",
            "must be a whole number >= 1",
        )
    return data


@functools.lru_cache(maxsize=1)
def figure_types() -> dict:
    file = "figures.json"
    data = read_json(DATA_DIR / file, file)
    types: Any = data.get("types")
    need(isinstance(types, dict) and types, file, "types", "must be an object of figure types")
    weapons = fire()["weapons"]
    for name, spec in types.items():
        for state in STATES:
            values = spec.get(state)
            need(
                isinstance(values, dict),
                file,
                f"types.{name}.{state}",
                "must give move, attack, defence",
            )
            for key in ("move", "attack", "defence"):
                need(
                    isinstance(values.get(key), int) and values[key] >= 0,
                    file,
                    f"types.{name}.{state}.{key}",
                    "must be a whole number >= 0",
                )
        need(
            spec.get("weapon") is None or spec["weapon"] in weapons,
            file,
            f"types.{name}.weapon",
            f"must be null or one of {', '.join(weapons)}",
        )
    return types


@functools.lru_cache(maxsize=1)
def results() -> dict:
    file = "results.json"
    data = read_json(DATA_DIR / file, file)
    table: Any = data.get("results", {})
    for letter in LETTERS:
        spec = table.get(letter)
        entry = f"results.{letter}"
        need(isinstance(spec, dict), file, entry, "every letter A-F needs a meaning")
        need(
            spec.get("side") in ("attacker", "defender"),
            file,
            entry + ".side",
            "attacker or defender",
        )
        need(
            spec.get("effect") in ("kill", "wound", "stun", "retreat"),
            file,
            entry + ".effect",
            "kill, wound, stun or retreat",
        )
        need(spec.get("who") in ("one", "all"), file, entry + ".who", "one or all")
    return table


def _letters_ok(row, length: int) -> bool:
    return (
        isinstance(row, list) and len(row) == length and all(x == "-" or x in LETTERS for x in row)
    )


@functools.lru_cache(maxsize=1)
def fire() -> dict:
    file = "fire.json"
    data = read_json(DATA_DIR / file, file)
    weapons: Any = data.get("weapons")
    need(isinstance(weapons, dict) and weapons, file, "weapons", "must be an object")
    for name, spec in weapons.items():
        bands = spec.get("bands", {})
        need(
            all(isinstance(bands.get(b), int) for b in BANDS)
            and 1 <= bands["short"] < bands["medium"] < bands["long"],
            file,
            f"weapons.{name}.bands",
            "must give increasing whole numbers for short, medium and long",
        )
        need(
            isinstance(spec.get("steps"), list)
            and set(spec["steps"]) <= {"fire1", "fire2"}
            and spec["steps"],
            file,
            f"weapons.{name}.steps",
            "must list fire1 and/or fire2",
        )
        for band in BANDS:
            for state in STATES:
                value = data.get("modifiers", {}).get(name, {}).get(band, {}).get(state)
                need(
                    isinstance(value, int),
                    file,
                    f"modifiers.{name}.{band}.{state}",
                    "must be a whole number",
                )
    for cover in COVERS[:-1]:
        need(
            _letters_ok(data.get("table", {}).get(cover), 10),
            file,
            f"table.{cover}",
            "must list ten entries ('-' or A-F) for the d10",
        )
    return data


@functools.lru_cache(maxsize=1)
def melee() -> dict:
    file = "melee.json"
    data = read_json(DATA_DIR / file, file)
    columns: Any = data.get("columns")
    need(
        isinstance(columns, list) and "1-1" in columns,
        file,
        "columns",
        "must list the odds columns including 1-1",
    )
    for kind in ("foot", "mounted"):
        for column in columns:
            need(
                _letters_ok(data.get("tables", {}).get(kind, {}).get(column), 10),
                file,
                f"tables.{kind}.{column}",
                "must list ten entries ('-' or A-F) for the d10",
            )
    return data


def load_board(path: Path, label: str) -> Board:
    data = read_json(path, label)
    rows: Any = data.get("rows")
    need(isinstance(rows, list) and rows, label, "rows", "must be a list of strings")
    openings = data.get("openings")
    need(
        openings is None or isinstance(openings, dict),
        label,
        "openings",
        "must map slit cells to lists of cells",
    )
    board = Board(
        str(data.get("name", path.stem)),
        rows,
        terrain()["kinds"],
        label,
        data.get("drawbridge"),
        openings,
    )
    bridge = board.drawbridge
    if bridge:
        for key in ("gate", "winch"):
            need(
                str(bridge.get(key)) in board,
                label,
                f"drawbridge.{key}",
                "must be a cell of the map",
            )
        need(
            isinstance(bridge.get("cells"), list) and all(c in board for c in bridge["cells"]),
            label,
            "drawbridge.cells",
            "must list cells of the map",
        )
    return board


MAPS = ("castle", "camp")


@functools.lru_cache(maxsize=4)
def board(name: str = "castle") -> Board:
    if name not in MAPS:
        raise ScenarioError(
            f"map-{name[:24]}.json", "map", f"unknown map; known: {', '.join(MAPS)}"
        )
    return load_board(DATA_DIR / f"map-{name}.json", f"map-{name}.json")


@functools.lru_cache(maxsize=64)
def board_with(name: str, counters: tuple[tuple[str, str], ...]) -> Board:
    """The map with counters laid on it (section 2: filled moat, broken walls): ``counters`` are
    sorted (cell, kind) pairs. The variant is a whole map again, so sight, movement and melee
    ask it exactly as they ask the plain map."""
    base = board(name)
    if not counters:
        return base
    kinds = terrain()["kinds"]
    rows = [
        list(row) for row in read_json(DATA_DIR / f"map-{name}.json", f"map-{name}.json")["rows"]
    ]
    for cell, kind in counters:
        col, row = hexgrid.to_offset(hexgrid.parse_label(cell))
        rows[row][col] = kinds[kind]["char"]
    variant = Board(
        base.name, ["".join(r) for r in rows], kinds, f"map-{name}.json", base.drawbridge
    )
    variant.counters = counters
    return variant
