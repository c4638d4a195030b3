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
           # optional "first_column"/"first_row" (from 1) draw only a window of a larger label
           # space, e.g. {"kind": "hex", "first_column": 6, "first_row": 5, "columns": 6,
           # "rows": 5} for a map that grew around 0808 (Pocket Tactics); "rulers": false
           # leaves out the coordinate rulers (the close-up of a turn, whose labels read)
           or {"kind": "square", "columns": 18, "rows": 12},     # square labels A1..
      "title": "Siege of Tenochtitlan",
      "lang": "en",                         # the language of the scene's words ("de": German);
                                            # the static layer is cached per map_key and lang
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
           # (damage, hit points; "badge_color" for other meanings, e.g. range); slot: position
           # when several pieces share a cell (0..3)
      "markers": [{"at": "0507", "kind": "gas", "color": "#9acd32", "text": "2"}],
           # kinds: gas, flag, flare, smoke, fire, control, ladder, breach, highlight
      "arrows": [{"path": ["0505", "0506", "0507"], "color": "#c0392b", "kind": "move"},
                 {"path": ["0509", "0507"], "color": "#000000", "kind": "attack",
                  "text": "3+⚄5=8 vs 4: eliminated"}],
      "header": [["Turn", "3 / 24"], ["Phase", "Combat"], ["Active", "Spanish"],
                 ["Card", "Aqueduct cut: move 3, attack 2"]],
      "legend": [{"color": "#c0392b", "text": "Spanish"}, {"color": "#2e86c1", "text": "Aztec"}],
      "notes": ["Aztec hand: 3 cards"],      # short lines printed under the header
      "labels": [{"at": "0507", "text": "gas: 5 2 hit", "color": "#5b7f12"}],
           # free dice labels at a cell (placed like attack labels, with a leader line)
      "terrain_key": [{"color": "#6fa8c9", "text": "Lake"}],   # a line of swatches under the map
      "losses": [{"color": "#a3241c", "text": "Spanish lost:", "units": ["Inf 2", "Cav 1"]}],
           # one line per side under the map: the units it lost as small chips in its colour
    }

Optional additions and how the renderer reads the keys above (nothing here renames a key):

- ``cells[].strong_label``: the cell's label is printed bold and larger (Rivet Wars marks the
  square that names its segment). ``cells[].icon_color``: the colour of a ``deploy`` icon
  (each side's deployment zone in its own colour).
- ``pieces[].subtitle``: a second line under the title on a lone counter (Rivet Wars'
  plug-ins, ``+Sturm``); like titles it is shrunk to fit, not cut.
- ``pieces[].badge_color``: the badge's disc colour when it means something else than damage
  (Tenochtitlan: a white disc with the range of ranged units).
- ``terrain_key`` and ``losses`` add a band under the map (one line for the key, one per
  ``losses`` entry, always drawn even when empty so the picture keeps its size); the map's
  position does not move, so :func:`renderer.cell_center` still needs only the grid.
- ``cells`` omitted altogether: every cell of the grid is drawn in a plain default fill.
  ``cells[].text`` is printed at the bottom of the cell; an objective on that cell reprints
  it above its outline.
- Widths (``lines[].width``, ``edges[].width``, ``regions[].width``) are pixels at a 40 px
  cell and scale with the picture's cell size.
- ``lines[].kind``: ``road`` (default, plain strip), ``causeway`` and ``walkway`` (dark
  border), ``bridge`` (heavier border), ``aqueduct`` (thin blue centre line).
- ``regions[].width`` (default 3): outline thickness; Rivet Wars' 2x2 segments are regions
  (or ``edges``) drawn thicker than the faint square grid. ``regions[].label`` is printed at
  the region's top-left corner, in the outline colour.
- ``objectives[].color``: the controller's colour (white when absent = nobody); drawn as an
  inset outline of the cell, which counters never cover. ``name`` is printed when the cell
  has no ``text``.
- ``pieces[].symbol`` (optional): a small unit symbol between title and factors: infantry,
  cavalry, recon, armor, artillery, engineer, hq, boat, ship, hero (unknown names draw none).
  ``text_color`` defaults to black or white, whichever contrasts with ``color``. A cell with
  one piece shows a big counter; with two to four, quarter-size counters placed by ``slot``
  (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right; free slots fill pieces without
  one); more than four show the first four and a red "+N".
- ``pieces[].joined`` (optional): the other cell of a counter lying across a hexside (a horse);
  a bar in the counter's colour joins the two cells under the counters.
- ``markers[].color`` defaults per kind; ``text`` is a small number/word on the marker (gas
  rounds left, ...). ``gas`` and ``smoke`` are translucent clouds under the counters;
  ``highlight`` outlines the cell; ``flare`` is a bright ring (``/flare``); the others are
  small icons in the cell's corners, above the counters.
- ``arrows[].kind``: ``move`` (default; drawn along the path, under the counters, ending at
  the counter's edge) or ``attack`` (straight from first to last cell, over the counters;
  ``text`` goes in a white label near its middle, moved where it hides no counter, name or
  other label, then as few cell labels as possible, with a leader line; arrows of a combined
  attack with the same text and target share one label).
- The header band has room for the title (legend at its right) and four lines: header pairs
  and notes wrap at spaces (a pair's label stays with its value's first word), each note
  starts a line; when they need more lines the text gets smaller instead of being cut. The
  title shrinks to make room for the legend; a legend too wide for the title's line gets a
  line of its own, so every side is always named. Its height depends on the grid only, so
  :func:`renderer.cell_center` needs no other key.
- A close-up of the turn's action is added under the map (above the terrain key and losses)
  when the map's counters are too small for their factors to read at a phone's width and
  the scene has ``arrows`` or ``labels`` (``renderer/closeup.py``); nothing in the scene asks
  for it.
- ``markers[]`` of kind ``highlight`` also print the cell's label, even on a cell the map does
  not have yet (Pocket Tactics' places for the next tile).

Bad scenes raise :class:`renderer.SceneError` naming the key, the entry and the problem.
"""

from __future__ import annotations

REQUIRED_KEYS = ("map_key", "grid")
