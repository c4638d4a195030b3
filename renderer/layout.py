"""Where things go on the picture: a pure function of the scene's grid and the cell size.

The picture is a header band (fixed height for a given grid and cell size) above the map. The
map's position therefore never depends on the header's contents, so tests and games can find
any cell with :func:`cell_center` from the grid alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from engine.core import hexgrid, squaregrid

SQRT3 = math.sqrt(3)
MIN_WIDTH = 480  # room for the header on tiny maps
PREVIEW_WIDTH = 480  # about how wide Discord shows a picture on a phone before a tap
TARGET_WIDTH = 1500  # default pictures are about this wide (Discord shrinks them anyway)
# Coordinate rulers along the map's edges (column numbers above and below, row numbers on both
# sides, as on printed wargame maps and chess boards) are sized so their digits are this tall
# in the phone preview: any cell's label is read off them without zooming, however small the
# cells are.
RULER_PREVIEW_PX = 10
DIGIT_HEIGHT = 0.73  # height of a bold digit (DejaVu Sans Bold) per pixel of font size
DIGIT_WIDTH = 0.70  # advance of a bold digit per pixel of font size


CENTRES_KEPT = 4096  # cell centres kept per layout (the largest maps have 1,200 cells)


class SceneError(ValueError):
    """A scene the renderer cannot draw; the message names the key, the entry and the problem."""


@lru_cache(maxsize=8192)
def _cell_of(kind: str, label: str) -> tuple[tuple[int, int], int, int]:
    """A cell label's grid coordinates and offset column and row. A picture parses the same
    labels as the one before (cells, pieces, arrows): kept, not parsed again. A label that
    does not parse raises each time (nothing is kept for it)."""
    if kind == "hex":
        h = hexgrid.parse_label(label)
        col, row = hexgrid.to_offset(h)
        return h, col, row
    col, row = squaregrid.parse_label(label)
    return (col, row), col, row


@lru_cache(maxsize=64)
def _hex_corner_offsets(s: int) -> tuple[tuple[float, float], ...]:
    """A hex's corners from its centre (the same floats as computing them per hex: a map
    layer asks for every hex's corners twice)."""
    return tuple((s * math.cos(math.pi / 3 * i), s * math.sin(math.pi / 3 * i)) for i in range(6))


@dataclass(frozen=True)
class Layout:
    kind: str  # "hex" or "square"
    columns: int
    rows: int
    cell: int  # hex circumradius or square side, in pixels
    width: int
    height: int
    header_height: int
    origin_x: float  # where the map's own (0, 0) sits in the picture
    origin_y: float
    title_size: int  # header font sizes, scaled with the picture
    text_size: int
    header_lines: int  # lines of header pairs and notes under the title
    first_column: int = 0  # 0-based column and row of the window's top-left cell (a map that
    first_row: int = 0  # grows anywhere in a large label space, such as Pocket Tactics)
    footer_lines: int = 0  # lines of the band under the map (terrain key, losses per side)
    ruler_size: int = 0  # font size of the coordinate rulers around the map
    # cell centres asked for so far: a picture asks for the same cells' centres many times
    # (fills, outlines, labels, counters, arrows) and layouts are shared (see _layout); not
    # part of the layout's identity
    _centres: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def ruler_band(self) -> int:
        """Height of the ruler above (and below) the map. Hex maps put odd and even columns on
        two staggered lines, like the columns themselves, so neighbouring numbers never touch."""
        return round(self.ruler_size * (2.05 if self.kind == "hex" else 1.2))

    @property
    def margin(self) -> int:
        """Air between the map and its rulers."""
        return max(8, self.cell // 3)

    @property
    def frame(self) -> tuple[float, float, float, float]:
        """The map and its margin, inside the rulers: labels drawn on the map stay in it."""
        m = self.margin
        return (
            self.origin_x - m,
            self.origin_y - m,
            self.origin_x + self.map_width + m,
            self.origin_y + self.map_height + m,
        )

    @property
    def ruler_side(self) -> int:
        """Width of the row ruler left (and right) of the map: two digits and some air."""
        return round(self.ruler_size * (2 * DIGIT_WIDTH + 0.5))

    # ---- what goes where inside a cell ------------------------------------------------------
    # Each cell has bands of its own so nothing a player must read lies under a counter: the
    # label at the top, the counter in the middle, the place name at the bottom; corner
    # markers sit beside the counter.
    @property
    def label_size(self) -> int:
        """Font size of cell labels: chosen from the cell size so a label keeps a fixed share
        of its cell (and so of the picture) at any zoom, never below 10 px."""
        return max(10, round(self.cell * (0.32 if self.kind == "hex" else 0.25)))

    @property
    def label_preview_px(self) -> float:
        """How tall a cell label's digits are in the phone preview."""
        return self.label_size * DIGIT_HEIGHT * PREVIEW_WIDTH / self.width

    @property
    def label_top(self) -> float:
        """Offset of the label's top from the cell centre (negative: above it)."""
        return -self.cell * (0.83 if self.kind == "hex" else 0.47)

    @property
    def counter_side(self) -> int:
        """Side of a lone counter: fits between the label band and the name band."""
        return round(self.cell * (0.92 if self.kind == "hex" else 0.66))

    @property
    def counter_offset(self) -> tuple[float, float]:
        """Where a lone counter's centre sits relative to the cell centre."""
        if self.kind == "hex":
            return 0.0, -self.cell * 0.05
        return self.cell * 0.1, self.cell * 0.14

    @property
    def name_y(self) -> float:
        """Centre of the place-name band under the counter, from the cell centre."""
        return self.cell * (0.64 if self.kind == "hex" else 0.4)

    @property
    def footer_height(self) -> int:
        return round(
            self.footer_lines * self.text_size * 1.5
            + (self.text_size * 0.6 if self.footer_lines else 0)
        )

    # ---- cells ----------------------------------------------------------------------------
    def parse(self, label: str, where: str = "cell") -> tuple[int, int]:
        """Label -> grid coordinates, checked against the grid's size."""
        try:
            if isinstance(label, str):
                h, col, row = _cell_of(self.kind, label)
            elif self.kind == "hex":
                h = hexgrid.parse_label(label)
                col, row = hexgrid.to_offset(h)
            else:
                col, row = squaregrid.parse_label(label)
                h = (col, row)
        except (ValueError, TypeError) as exc:
            raise SceneError(f"{where}: {exc}") from None
        if not (
            self.first_column <= col < self.first_column + self.columns
            and self.first_row <= row < self.first_row + self.rows
        ):
            raise SceneError(
                f"{where}: {label!r} is outside the {self.columns}x{self.rows} {self.kind} grid."
            )
        return h

    def center_of(self, h: tuple[int, int]) -> tuple[float, float]:
        found = self._centres.get(h)
        if found is not None:
            return found
        found = self._center_of(h)
        if len(self._centres) < CENTRES_KEPT:
            self._centres[h] = found
        return found

    def _center_of(self, h: tuple[int, int]) -> tuple[float, float]:
        if self.kind == "hex":
            x, y = hexgrid.pixel_center(h, self.cell)
            # Column parity stays absolute (even label columns sit lower), so a window only
            # translates the picture.
            x -= self.first_column * 1.5 * self.cell
            y -= self.first_row * SQRT3 * self.cell
        else:
            x = (h[0] - self.first_column + 0.5) * self.cell
            y = (h[1] - self.first_row + 0.5) * self.cell
        return self.origin_x + x, self.origin_y + y

    def center(self, label: str, where: str = "cell") -> tuple[float, float]:
        return self.center_of(self.parse(label, where))

    def corners_of(self, h: tuple[int, int]) -> list[tuple[float, float]]:
        cx, cy = self.center_of(h)
        if self.kind == "hex":
            return [(cx + dx, cy + dy) for dx, dy in _hex_corner_offsets(self.cell)]
        half = self.cell / 2
        return [
            (cx - half, cy - half),
            (cx + half, cy - half),
            (cx + half, cy + half),
            (cx - half, cy + half),
        ]

    def neighbours_of(self, h: tuple[int, int]) -> list[tuple[int, int]]:
        """Side-sharing neighbours, in the order of the sides of :meth:`corners_of`."""
        if self.kind == "hex":
            q, r = h
            # side i joins corners i and i+1 (angles 60*i, 60*(i+1) degrees, y downwards)
            return [(q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r), (q, r - 1), (q + 1, r - 1)]
        x, y = h
        return [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]

    def shared_side(self, a: tuple[int, int], b: tuple[int, int]):
        """The two end points of the side between adjacent cells ``a`` and ``b``, or None."""
        neighbours = self.neighbours_of(a)
        if b not in neighbours:
            return None
        corners = self.corners_of(a)
        i = neighbours.index(b)
        return corners[i], corners[(i + 1) % len(corners)]

    @property
    def map_width(self) -> float:
        if self.kind == "hex":
            return self.cell * (1.5 * self.columns + 0.5)
        return self.cell * self.columns

    @property
    def map_height(self) -> float:
        if self.kind == "hex":
            return SQRT3 * self.cell * (self.rows + (0.5 if self.columns > 1 else 0))
        return self.cell * self.rows


def _grid_spec(grid) -> tuple[str, int, int, int, int]:
    if not isinstance(grid, dict):
        raise SceneError("grid: expected {'kind': 'hex'|'square', 'columns': N, 'rows': N}.")
    kind = grid.get("kind")
    if kind not in ("hex", "square"):
        raise SceneError(f"grid.kind: {kind!r} is not a grid kind; use 'hex' or 'square'.")
    try:
        columns, rows = int(grid["columns"]), int(grid["rows"])
    except (KeyError, TypeError, ValueError):
        raise SceneError("grid: 'columns' and 'rows' must be whole numbers.") from None
    try:
        first_column, first_row = int(grid.get("first_column", 1)), int(grid.get("first_row", 1))
    except (TypeError, ValueError):
        raise SceneError("grid: 'first_column' and 'first_row' must be whole numbers.") from None
    limit = 99 if kind == "hex" else 26
    last_column, last_row = first_column + columns - 1, first_row + rows - 1
    if not (1 <= first_column <= last_column <= limit and 1 <= first_row <= last_row <= 99):
        raise SceneError(
            f"grid: columns {first_column}..{last_column}, rows {first_row}..{last_row} "
            f"are out of range (columns 1..{limit}, rows 1..99)."
        )
    return kind, columns, rows, first_column - 1, first_row - 1


def default_cell(kind: str, columns: int, rows: int) -> int:
    """Big cells for small maps (readable on a phone), smaller ones for big maps."""
    if kind == "hex":
        return max(24, min(56, round(TARGET_WIDTH / (1.5 * columns + 0.5))))
    return max(32, min(80, round(TARGET_WIDTH / columns)))


@lru_cache(maxsize=256)
def _layout(
    kind: str,
    columns: int,
    rows: int,
    cell: int,
    first_column: int = 0,
    first_row: int = 0,
    footer_lines: int = 0,
    rulers: bool = True,
) -> Layout:
    probe = Layout(kind, columns, rows, cell, 0, 0, 0, 0, 0, 0, 0, 0, footer_lines=footer_lines)
    margin = max(8, cell // 3)
    framed = math.ceil(probe.map_width) + 2 * margin
    # The rulers widen the picture, which shrinks it more in the preview: a few rounds find the
    # size whose digits still reach RULER_PREVIEW_PX there.
    row_pitch = SQRT3 * cell if kind == "hex" else cell
    ruler = 0
    width = max(MIN_WIDTH, framed)
    label_size = max(10, round(cell * (0.32 if kind == "hex" else 0.25)))  # Layout.label_size
    # Small maps whose cell labels already read in the preview need no rulers.
    needs_rulers = rulers and label_size * DIGIT_HEIGHT * PREVIEW_WIDTH / width < RULER_PREVIEW_PX
    for _ in range(4 if needs_rulers else 0):
        ruler = math.ceil(RULER_PREVIEW_PX / DIGIT_HEIGHT * width / PREVIEW_WIDTH)
        # row numbers stay apart vertically (ink 0.73 of the size, pitch of a row)
        ruler = min(ruler, math.floor(row_pitch * 1.1))
        side = round(ruler * (2 * DIGIT_WIDTH + 0.5))
        width = max(MIN_WIDTH, framed + 2 * side)
    band = round(ruler * (2.05 if kind == "hex" else 1.2))
    # Header text scales with the picture width: Discord shows every picture about 500 px wide.
    title_size = max(16, min(44, round(width / 34)))
    text_size = max(13, round(title_size * 0.78))
    header_lines = 4
    header_height = round(title_size * 1.5 + header_lines * text_size * 1.3 + title_size * 0.4)
    height = header_height + band + margin + math.ceil(probe.map_height) + margin + band
    origin_x = (width - probe.map_width) / 2
    origin_y = header_height + band + margin
    lay = Layout(
        kind,
        columns,
        rows,
        cell,
        width,
        height,
        header_height,
        origin_x,
        origin_y,
        title_size,
        text_size,
        header_lines,
        first_column,
        first_row,
        footer_lines,
        ruler,
    )
    # the footer sits under the map, so cell positions never depend on it
    return Layout(
        kind,
        columns,
        rows,
        cell,
        width,
        height + lay.footer_height,
        header_height,
        origin_x,
        origin_y,
        title_size,
        text_size,
        header_lines,
        first_column,
        first_row,
        footer_lines,
        ruler,
    )


def layout_for(grid: dict, size_hint: int | None = None, footer_lines: int = 0) -> Layout:
    """The layout of a picture of ``grid``; ``size_hint`` is the cell size in pixels (hex
    circumradius or square side), chosen from the grid's size when omitted. ``footer_lines``
    (see :func:`renderer.render.footer_lines`) only adds a band under the map."""
    kind, columns, rows, first_column, first_row = _grid_spec(grid)
    cell = default_cell(kind, columns, rows) if size_hint is None else int(size_hint)
    if not 12 <= cell <= 200:
        raise SceneError(f"size_hint: cell size {cell} px is out of range (12..200).")
    return _layout(
        kind,
        columns,
        rows,
        cell,
        first_column,
        first_row,
        max(0, min(6, int(footer_lines))),
        grid.get("rulers", True) is not False,
    )


def cell_center(grid: dict, label: str, size_hint: int | None = None) -> tuple[float, float]:
    """Picture pixel coordinates of the centre of cell ``label`` (``"0507"`` or ``"C4"``)."""
    return layout_for(grid, size_hint).center(label)
