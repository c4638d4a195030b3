"""Rivet Wars geometry: map tiles of 3x3 segments, each segment 2x2 squares.

Squares use the core square labels (``C4``). A segment is named by its top-left square, so the
segments of a board are ``A1, C1, E1, ...`` in the first segment row and ``A3, C3, ...`` in the
second; every command that names a place for movement, deployment or attacks uses these names.
Inside, a segment is ``(sx, sy)`` counted from 0, y growing southwards.

Range counts segments, crossing at most one diagonal: the distance is ``dx + dy`` minus one
when both differ (one diagonal step saves one), so ``(2, 2)`` away is 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.core import squaregrid

Seg = tuple[int, int]

TILE_SEGMENTS = 3
SEGMENT_SQUARES = 2
# Deviation diagram directions as (right, forward) steps seen from the player drawing the card.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "F": (0, 1),
    "FR": (1, 1),
    "R": (1, 0),
    "BR": (1, -1),
    "B": (0, -1),
    "BL": (-1, -1),
    "L": (-1, 0),
    "FL": (-1, 1),
}


@lru_cache(maxsize=4096)
def seg_label(seg: Seg) -> str:
    return squaregrid.label((seg[0] * SEGMENT_SQUARES, seg[1] * SEGMENT_SQUARES))


def seg_of_square(square: squaregrid.Square) -> Seg:
    return square[0] // SEGMENT_SQUARES, square[1] // SEGMENT_SQUARES


def squares_of(seg: Seg) -> list[squaregrid.Square]:
    """The four squares of a segment in reading order."""
    x, y = seg[0] * SEGMENT_SQUARES, seg[1] * SEGMENT_SQUARES
    return [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]


def seg_range(a: Seg, b: Seg) -> int:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dx + dy - min(1, dx, dy)


def deviation_step(direction: str, facing_north: bool) -> tuple[int, int]:
    """Board step (dx, dy) for a card direction seen by a player facing north (Allies, who hold
    the southern edge) or south (the Bismark)."""
    right, forward = DIRECTIONS[direction]
    if facing_north:
        return right, -forward
    return -right, forward


@dataclass(frozen=True)
class Board:
    tiles: str  # "5A 3B 2B / 9A 8A 7A"
    seg_cols: int
    seg_rows: int
    walkways: frozenset  # squares with planks

    @property
    def columns(self) -> int:
        return self.seg_cols * SEGMENT_SQUARES

    @property
    def rows(self) -> int:
        return self.seg_rows * SEGMENT_SQUARES

    def on_board(self, seg: Seg) -> bool:
        return 0 <= seg[0] < self.seg_cols and 0 <= seg[1] < self.seg_rows

    def segments(self) -> list[Seg]:
        return [(x, y) for y in range(self.seg_rows) for x in range(self.seg_cols)]

    def labels(self) -> list[str]:
        return [seg_label(s) for s in self.segments()]

    def parse_seg(self, text: str) -> Seg | None:
        return _parse_seg(self, text)

    def _parse_seg_uncached(self, text: str) -> Seg | None:
        """The segment named ``text`` (its top-left square), or None if that names none here."""
        try:
            x, y = squaregrid.parse_label(text)
        except squaregrid.BadSquare:
            return None
        if x % SEGMENT_SQUARES or y % SEGMENT_SQUARES:
            return None
        seg = (x // SEGMENT_SQUARES, y // SEGMENT_SQUARES)
        return seg if self.on_board(seg) and seg_label(seg) == str(text).strip().upper() else None

    def parse_square(self, text: str) -> squaregrid.Square | None:
        try:
            sq = squaregrid.parse_label(text)
        except squaregrid.BadSquare:
            return None
        if not (0 <= sq[0] < self.columns and 0 <= sq[1] < self.rows):
            return None
        return sq if squaregrid.label(sq) == str(text).strip().upper() else None

    def neighbours(self, seg: Seg) -> list[Seg]:
        return [n for n in squaregrid.neighbours8(seg) if self.on_board(n)]


@lru_cache(maxsize=8192)
def _parse_seg(board: Board, text: str) -> Seg | None:
    return board._parse_seg_uncached(text)


def parse_tile_grid(text: str) -> list[list[str]]:
    rows = [r.split() for r in text.split("/")]
    if not rows or any(not r for r in rows) or len({len(r) for r in rows}) != 1:
        raise ValueError(f"tile grid {text!r} must be rows of equal length separated by '/'")
    return [[t.upper() for t in r] for r in rows]


@lru_cache(maxsize=64)
def build_board(tiles: str, tile_faces: tuple) -> Board:
    """``tile_faces``: ((face, (row strings...)), ...) from the tile data."""
    faces = dict(tile_faces)
    grid = parse_tile_grid(tiles)
    walk = set()
    size = TILE_SEGMENTS * SEGMENT_SQUARES
    for ty, row in enumerate(grid):
        for tx, face in enumerate(row):
            for y, line in enumerate(faces[face]):
                for x, ch in enumerate(line):
                    if ch == "#":
                        walk.add((tx * size + x, ty * size + y))
    return Board(tiles, len(grid[0]) * TILE_SEGMENTS, len(grid) * TILE_SEGMENTS, frozenset(walk))
