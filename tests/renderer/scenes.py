"""Scenes for the renderer's tests, benchmark and example pictures (synthetic, no game rules)."""

from __future__ import annotations

import random

from engine.core import hexgrid, squaregrid

RED, BLUE, GREEN = "#c0392b", "#2e86c1", "#2e7d32"
TERRAIN = {
    "clear": "#b7cf8c",
    "forest": "#6f9a4f",
    "hill": "#c9b37e",
    "water": "#79addc",
    "city": "#c8c0b0",
    "swamp": "#8fae8a",
}


def hex_labels(columns: int, rows: int) -> list[str]:
    return [hexgrid.label(hexgrid.from_offset(c, r)) for c in range(columns) for r in range(rows)]


def large_hex_scene(
    columns: int = 40, rows: int = 30, pieces: int = 80, seed: int = 7, map_key: str | None = None
) -> dict:
    """A big map: terrain everywhere, a road, many pieces (some flipped or damaged, some
    stacked), moves and attacks with dice text."""
    rng = random.Random(seed)
    labels = hex_labels(columns, rows)
    kinds = list(TERRAIN)
    cells = []
    for lab in labels:
        kind = rng.choices(kinds, weights=(10, 4, 3, 2, 1, 1))[0]
        cell = {"at": lab, "fill": TERRAIN[kind]}
        if kind in ("forest", "hill", "city", "water", "swamp") and rng.random() < 0.35:
            cell["icon"] = {"city": "village"}.get(kind, kind)
        cells.append(cell)
    road = [hexgrid.label(hexgrid.from_offset(c, rows // 2 - (c // 6) % 2)) for c in range(columns)]
    lines = [
        {"from": a, "to": b, "color": "#c2a878", "width": 6, "kind": "road"}
        for a, b in zip(road, road[1:])
        if hexgrid.distance(hexgrid.parse_label(a), hexgrid.parse_label(b)) == 1
    ]
    spots = rng.sample(labels, pieces)
    stack = spots[:4]
    piece_list = []
    for i, at in enumerate(spots):
        side = RED if i % 2 == 0 else BLUE
        piece_list.append(
            {
                "at": at,
                "id": f"u{i}",
                "color": side,
                "text_color": "#ffffff",
                "title": f"{'Inf' if i % 3 else 'Cav'} {i}",
                "values": f"{i % 5 + 1}-{i % 4 + 2}-{i % 3 + 3}",
                "flipped": i % 7 == 3,
                "badge": "2" if i % 11 == 5 else None,
            }
        )
    for j in range(3):  # a stack of four in one hex
        piece_list.append(
            {
                "at": stack[0],
                "id": f"s{j}",
                "color": RED,
                "title": f"S{j}",
                "values": f"{j + 1}-1-4",
                "slot": j + 1,
            }
        )
    piece_list[0]["slot"] = 0
    arrows = []
    for i in range(8):
        a = hexgrid.parse_label(spots[10 + i])
        path = [hexgrid.label(a)]
        h = a
        for _ in range(3):
            h = next(
                (
                    n
                    for n in hexgrid.neighbours(h)
                    if 0 <= hexgrid.to_offset(n)[0] < columns
                    and 0 <= hexgrid.to_offset(n)[1] < rows
                    and hexgrid.label(n) not in path
                ),
                h,
            )
            path.append(hexgrid.label(h))
        arrows.append({"path": path, "color": "#222222", "kind": "move"})
    for i in range(4):
        arrows.append(
            {
                "path": [spots[20 + i], spots[30 + i]],
                "color": "#111111",
                "kind": "attack",
                "text": f"3+⚄{i + 2}={i + 5} vs 4: {'eliminated' if i % 2 else 'disorganised'}",
            }
        )
    objectives = [
        {
            "at": labels[k],
            "name": f"Obj {k}",
            "owner": "red" if k % 2 else None,
            "color": RED if k % 2 else None,
        }
        for k in range(5, len(labels), 97)
    ]
    return {
        "map_key": map_key or f"bench/large-{columns}x{rows}",
        "grid": {"kind": "hex", "columns": columns, "rows": rows},
        "title": "Large synthetic map",
        "cells": cells,
        "lines": lines,
        "pieces": piece_list,
        "objectives": objectives,
        "arrows": arrows,
        "markers": [
            {"at": spots[40], "kind": "fire"},
            {"at": spots[41], "kind": "smoke"},
            {"at": spots[42], "kind": "flare"},
        ],
        "header": [
            ["Turn", "7 / 24"],
            ["Phase", "Combat"],
            ["Active", "Red"],
            ["Card", "Night attack: move 2, attack 3"],
        ],
        "legend": [{"color": RED, "text": "Red"}, {"color": BLUE, "text": "Blue"}],
        "notes": ["Blue hand: 3 cards"],
    }


def showcase_hex_scene() -> dict:
    """A small hex map showing every feature at once (the example picture in docs/)."""
    columns, rows = 12, 9
    cells = []
    water = {"0101", "0201", "0102", "1108", "1208", "1209", "1109", "1009"}
    specials = {
        "0405": ("city", "Xoloc", "fort"),
        "0705": ("city", "Tlacopan", "temple"),
        "0303": ("forest", None, "forest"),
        "0304": ("forest", None, "forest"),
        "0907": ("hill", None, "hill"),
        "1003": ("swamp", None, "swamp"),
        "0608": ("clear", "Coyoacan", "village"),
        "1102": ("hill", None, "tower"),
    }
    for lab in hex_labels(columns, rows):
        if lab == "1201":
            continue  # a hole in the map
        kind, text, icon = specials.get(lab, ("water" if lab in water else "clear", None, None))
        if lab in water:
            icon = "water"
        cell = {"at": lab, "fill": TERRAIN[kind]}
        if text:
            cell["text"] = text
        if icon:
            cell["icon"] = icon
        cells.append(cell)
    road = ["0105", "0205", "0305", "0405", "0505", "0605", "0705"]
    causeway = ["0705", "0805", "0905", "1004"]
    lines = [
        {"from": a, "to": b, "color": "#c2a878", "width": 6, "kind": "road"}
        for a, b in zip(road, road[1:])
    ] + [
        {"from": a, "to": b, "color": "#d8c9a3", "width": 8, "kind": "causeway"}
        for a, b in zip(causeway, causeway[1:])
    ]
    edges = [
        {"at": "0705", "to": "0706", "color": "#4a3b2a", "width": 6},
        {"at": "0705", "to": "0604", "color": "#4a3b2a", "width": 6},
    ]
    pieces = [
        {
            "at": "0504",
            "id": "sp-cav-1",
            "color": RED,
            "text_color": "#ffffff",
            "title": "Cav 1",
            "values": "3-2-4",
        },
        {
            "at": "0605",
            "id": "sp-inf-2",
            "color": RED,
            "text_color": "#ffffff",
            "title": "Inf 2",
            "values": "2-3-3",
            "badge": "1",
            "symbol": "infantry",
        },
        {
            "at": "0705",
            "id": "az-war-1",
            "color": BLUE,
            "text_color": "#ffffff",
            "title": "Jaguar",
            "values": "2-2-4",
        },
        {
            "at": "0806",
            "id": "az-war-2",
            "color": BLUE,
            "text_color": "#ffffff",
            "title": "Eagle",
            "values": "2-2-4",
            "flipped": True,
        },
        {"at": "0907", "id": "tl-1", "color": GREEN, "title": "Tlax 1", "values": "1-2-3"},
        {
            "at": "0406",
            "id": "sp-art",
            "color": RED,
            "text_color": "#ffffff",
            "title": "Art",
            "values": "4-1-2",
            "slot": 0,
        },
        {
            "at": "0406",
            "id": "sp-hq",
            "color": RED,
            "text_color": "#ffffff",
            "title": "Cortés",
            "values": "5-3",
            "slot": 1,
        },
        {
            "at": "0406",
            "id": "sp-inf-4",
            "color": RED,
            "text_color": "#ffffff",
            "title": "Inf 4",
            "values": "2-3",
            "slot": 2,
            "flipped": True,
        },
        {
            "at": "1108",
            "id": "brig",
            "color": RED,
            "text_color": "#ffffff",
            "title": "Brig",
            "values": "3-2-6",
            "symbol": "ship",
        },
    ]
    return {
        "map_key": "example/showcase",
        "grid": {"kind": "hex", "columns": columns, "rows": rows},
        "title": "Siege of the Lake Cities (example)",
        "cells": cells,
        "lines": lines,
        "edges": edges,
        "regions": [{"cells": ["0705", "0706", "0805", "0806"], "outline": "#7a1f1f", "width": 4}],
        "objectives": [
            {"at": "0405", "name": "Xoloc", "owner": "red", "color": RED},
            {"at": "0705", "name": "Tlacopan", "owner": "blue", "color": BLUE},
            {"at": "0608", "name": "Coyoacan"},
        ],
        "pieces": pieces,
        "markers": [
            {"at": "0806", "kind": "smoke"},
            {"at": "0705", "kind": "ladder"},
            {"at": "0705", "kind": "breach"},
            {"at": "0504", "kind": "flag", "color": RED},
            {"at": "1003", "kind": "flare"},
            {"at": "0907", "kind": "highlight"},
        ],
        "arrows": [
            {"path": ["0202", "0303", "0403", "0504"], "color": "#222222", "kind": "move"},
            {
                "path": ["0605", "0705"],
                "color": "#111111",
                "kind": "attack",
                "text": "2+⚄5=7 vs 3: disorganised",
            },
            {
                "path": ["0907", "0806"],
                "color": "#111111",
                "kind": "attack",
                "text": "1+⚁2=3 vs 3: no effect",
            },
        ],
        "header": [
            ["Turn", "3 / 24"],
            ["Phase", "Combat"],
            ["Active", "Spanish"],
            ["Card", "Aqueduct cut: move 3, attack 2"],
        ],
        "legend": [
            {"color": RED, "text": "Spanish"},
            {"color": BLUE, "text": "Aztec"},
            {"color": GREEN, "text": "Tlaxcala"},
        ],
        "notes": ["Aztec hand: 3 cards"],
    }


def square_scene() -> dict:
    """A Rivet Wars-like board: 12x12 squares, segments of 2x2 squares outlined thickly."""
    columns, rows = 12, 12
    cells = []
    for y in range(rows):
        for x in range(columns):
            lab = squaregrid.label((x, y))
            fill = "#c9c2a5" if 4 <= y <= 7 else ("#b3c28f" if y < 4 else "#a9b98a")
            cell = {"at": lab, "fill": fill}
            if (x, y) in ((2, 2), (9, 9)):
                cell["icon"] = "bunker"
            if (x, y) in ((4, 5), (5, 5), (7, 6)):
                cell["icon"] = "wire"
            if (x, y) == (10, 6):
                cell["icon"] = "tanktrap"
            if y in (0, 11) and x < 4:
                cell["icon"] = "deploy"
            cells.append(cell)
    regions = []
    for sy in range(0, rows, 2):
        for sx in range(0, columns, 2):
            regions.append(
                {
                    "cells": [
                        squaregrid.label((sx + dx, sy + dy)) for dx in (0, 1) for dy in (0, 1)
                    ],
                    "outline": "#3a3a3a",
                    "width": 4,
                }
            )
    regions.append(
        {
            "cells": [squaregrid.label((x, y)) for x in range(columns) for y in range(4, 8)],
            "outline": "#8a1c1c",
            "width": 3,
            "label": "No man's land",
        }
    )
    return {
        "map_key": "example/rivet-square",
        "grid": {"kind": "square", "columns": columns, "rows": rows},
        "title": "Rivet Wars-like square board (example)",
        "cells": cells,
        "regions": regions,
        "lines": [{"from": "A9", "to": "F9", "color": "#8a6d3b", "width": 5, "kind": "walkway"}],
        "objectives": [
            {"at": "F6", "name": "Crater", "owner": "allies", "color": "#1f5fbf"},
            {"at": "H7", "name": "Ridge"},
        ],
        "pieces": [
            {
                "at": "C3",
                "id": "bl-1",
                "color": "#5d6d7e",
                "title": "Trooper",
                "values": "3",
                "badge": "2",
            },
            {
                "at": "D3",
                "id": "bl-2",
                "color": "#5d6d7e",
                "title": "Trooper",
                "values": "3",
                "slot": 0,
            },
            {
                "at": "D3",
                "id": "bl-3",
                "color": "#5d6d7e",
                "title": "Gunner",
                "values": "2",
                "slot": 3,
            },
            {
                "at": "F6",
                "id": "al-1",
                "color": "#1f5fbf",
                "title": "Tank",
                "values": "5",
                "badge": "4",
            },
            {
                "at": "J10",
                "id": "al-2",
                "color": "#1f5fbf",
                "title": "Sniper",
                "values": "1",
                "flipped": True,
            },
        ],
        "markers": [
            {"at": "E4", "kind": "gas", "text": "2"},
            {"at": "E5", "kind": "gas"},
            {"at": "F6", "kind": "flag", "color": "#1f5fbf"},
            {"at": "C3", "kind": "fire"},
        ],
        "arrows": [
            {"path": ["F9", "F8", "F7", "F6"], "color": "#1f5fbf", "kind": "move"},
            {"path": ["F6", "D3"], "color": "#111111", "kind": "attack", "text": "⚄⚅⚂: 2 hits"},
        ],
        "header": [["Round", "2"], ["Phase", "Combat"], ["Active", "Allies"]],
        "legend": [{"color": "#5d6d7e", "text": "Blight"}, {"color": "#1f5fbf", "text": "Allies"}],
    }
