"""The scene: everything the renderer draws, as plain data a ruleset builds in ``Ruleset.scene``.

The renderer knows no rules. A ruleset turns (state, last events, viewer) into a scene; the
renderer turns a scene into a PNG. Hidden information must already be removed by the ruleset
(``scene(state, events, viewer)`` with the viewer's side, ``None`` for a public picture).

Format (every key optional unless marked *required*; colours are ``"#rrggbb"``)::

    {
      "map_key": "tenochtitlan/standard",   # *required*: cache key of the static layer; two
                                            # scenes with the same key must have identical
                                            # static parts (grid, cells, lines, regions)
      "grid": {"kind": "hex", "columns": 24, "rows": 18}          # *required*; hex labels CCRR
           or {"kind": "square", "columns": 18, "rows": 12},     # square labels A1..
      "title": "Siege of Tenochtitlan",
      # ---- static layer (drawn once per map_key and cached) ----
      "cells": [{"at": "0507", "fill": "#7fb069", "text": "Xoloc", "icon": "fort"}],
           # icon: one of renderer.icons.ICONS (fort, village, city, hill, building, temple,
           #       market, spring, bunker, wire, tanktrap, mine, forest, water, swamp, objective,
           #       deploy, ruins, tower, gate, wall)
           # cells not listed are not drawn (holes in a map are real gaps)
      "lines": [{"from": "0507", "to": "0508", "color": "#c2a878", "width": 6, "kind": "road"}],
           # centre-to-centre strips: roads, causeways, bridges, aqueducts, walkways
      "edges": [{"at": "0507", "to": "0508", "color": "#333333", "width": 5}],
           # a thick line on the side shared by two adjacent cells: walls, segment borders
      "regions": [{"cells": ["0101", "0102"], "outline": "#000000", "label": "Tenochtitlan"}],
      # ---- dynamic layer (drawn on a copy of the static layer every time) ----
      "objectives": [{"at": "0507", "name": "Xoloc", "owner": "spanish", "color": "#c0392b"}],
      "pieces": [{"at": "0507", "id": "sp-cav-2", "color": "#c0392b", "text_color": "#ffffff",
                  "title": "Cav 2", "values": "3-2-4", "flipped": false, "badge": "2",
                  "slot": 0}],
           # flipped: drawn as the counter's back (disorganised); badge: small corner number
           # (damage, hit points); slot: position when several pieces share a cell (0..3)
      "markers": [{"at": "0507", "kind": "gas", "color": "#9acd32", "text": "2"}],
           # kinds: gas, flag, flare, smoke, fire, control, ladder, breach, highlight
      "arrows": [{"path": ["0505", "0506", "0507"], "color": "#c0392b", "kind": "move"},
                 {"path": ["0509", "0507"], "color": "#000000", "kind": "attack",
                  "text": "3+⚄5=8 vs 4: eliminated"}],
      "header": [["Turn", "3 / 24"], ["Phase", "Combat"], ["Active", "Spanish"],
                 ["Card", "Aqueduct cut: move 3, attack 2"]],
      "legend": [{"color": "#c0392b", "text": "Spanish"}, {"color": "#2e86c1", "text": "Aztec"}],
      "notes": ["Aztec hand: 3 cards"],      # short lines printed under the header
    }
"""
from __future__ import annotations

REQUIRED_KEYS = ("map_key", "grid")
