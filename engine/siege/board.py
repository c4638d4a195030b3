"""The castle map and its one height model: what stands in each cell and how high.

Sight, cover, movement and melee all ask this module, never the raw map: a cell's *level*
(where a figure in it stands: 0 moat, 1 ground, 2 walls and towers, 3 keep), its *height* (the
top of what stands in it, for sight lines; ``None`` for flat cells), the building it belongs to
(towers and the keep are entered only through their doors), and the *openings* of parapets and
arrow slits: the hexsides a figure there shoots through (a parapet's battlement faces outside
the castle; a slit opens away from its own building).

Geometry is exact integer arithmetic in a doubled copy of the frame of
:mod:`engine.core.hexgrid` (``X = 6q``, ``Y = 4r + 2q``), so hexside midpoints, where a line
from a parapet starts, are integer points too. :func:`segment_cells` generalises the core's
exact centre-to-centre test (:func:`engine.core.hexgrid.sight_line`) to any two points; the
tests check that the two agree on every centre-to-centre line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import hexgrid
from engine.core.errors import ScenarioError

Hex = hexgrid.Hex
Point = tuple[int, int]

# Corners of a hex in the doubled frame, in the order of their angle (0°, 60°, ...).
CORNERS: tuple[Point, ...] = ((4, 0), (2, 2), (-2, 2), (-4, 0), (-2, -2), (2, -2))
BUILDING_DOORS = ("tower-door", "keep-door")
SLITS = ("tower-slit", "keep-slit")
BATTLEMENTS = ("parapet", "keep-parapet")


def centre(h: Hex) -> Point:
    q, r = h
    return 6 * q, 4 * r + 2 * q


def side_midpoint(h: Hex, towards: Hex) -> Point:
    """Midpoint of the hexside ``h`` shares with its neighbour ``towards``."""
    (x1, y1), (x2, y2) = centre(h), centre(towards)
    return (x1 + x2) // 2, (y1 + y2) // 2


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


@dataclass(frozen=True)
class Crossing:
    """Cells a segment passes through (``crossed``) and hexsides it runs along (``edges``,
    pairs of cells), each ordered from the start of the segment."""

    crossed: tuple[Hex, ...]
    edges: tuple[tuple[Hex, Hex], ...]
    touched: tuple[Hex, ...] = ()  # cells whose corner alone lies on the segment


def segment_cells(p: Point, q: Point, exclude: tuple[Hex, ...] = ()) -> Crossing:
    """Exact cells crossed by the segment ``p``-``q`` (doubled frame).

    A cell is crossed when the segment meets its interior (separating-axis test: the line
    splits its corners and no hexside separates the segment from it). A segment lying on a
    hexside over a positive length is reported as an edge pair; touching a corner is neither.
    """
    dx, dy = q[0] - p[0], q[1] - p[1]
    qs = [(x // 6) for x in (p[0], q[0])]
    rs = [((y - 2 * qq) // 4) for (x, y), qq in zip((p, q), qs)]
    crossed: list[tuple[int, Hex]] = []
    along: list[tuple[int, Hex]] = []
    touched: list[tuple[int, Hex]] = []
    length2 = dx * dx + dy * dy
    # A hex whose centre is farther from the line than any of its corners can reach is skipped
    # with one cross product (most of the candidate box).
    reach = max(abs(_cross(dx, dy, ox, oy)) for ox, oy in CORNERS)
    for hq in range(min(qs) - 1, max(qs) + 2):
        for hr in range(min(rs) - 2, max(rs) + 3):
            if (hq, hr) in exclude:
                continue
            cx, cy = 6 * hq, 4 * hr + 2 * hq
            if abs(_cross(dx, dy, cx - p[0], cy - p[1])) > reach:
                continue
            corners = [(cx + ox, cy + oy) for ox, oy in CORNERS]
            sides = [_cross(dx, dy, kx - p[0], ky - p[1]) for kx, ky in corners]
            pos = sum(1 for s in sides if s > 0)
            neg = sum(1 for s in sides if s < 0)
            order = dx * (cx - p[0]) + dy * (cy - p[1])
            if pos and neg:
                if _separated(corners, p, q):
                    continue
                crossed.append((order, (hq, hr)))
            elif pos + neg == 4:
                on = [k for k, s in zip(corners, sides) if s == 0]
                t1 = dx * (on[0][0] - p[0]) + dy * (on[0][1] - p[1])
                t2 = dx * (on[1][0] - p[0]) + dy * (on[1][1] - p[1])
                if max(min(t1, t2), 0) < min(max(t1, t2), length2):
                    along.append((order, (hq, hr)))
            elif pos + neg == 5:
                vertex = next(k for k, s in zip(corners, sides) if s == 0)
                t = dx * (vertex[0] - p[0]) + dy * (vertex[1] - p[1])
                if 0 < t < length2:
                    touched.append((order, (hq, hr)))
    crossed.sort()
    along.sort()
    # A hex whose hexside partner is off the map or excluded (an end of the line) stays alone.
    edges = hexgrid.pair_hexsides([h for _, h in along], keep_unpaired=True)
    touched.sort()
    return Crossing(tuple(h for _, h in crossed), edges, tuple(h for _, h in touched))


def _separated(corners: list[Point], p: Point, q: Point) -> bool:
    """Whether some hexside has both segment ends on or outside it."""
    for i in range(6):
        ax, ay = corners[i]
        bx, by = corners[(i + 1) % 6]
        # Corners run counter-clockwise, so the inside is to the left of each side.
        if (
            _cross(bx - ax, by - ay, p[0] - ax, p[1] - ay) <= 0
            and _cross(bx - ax, by - ay, q[0] - ax, q[1] - ay) <= 0
        ):
            return True
    return False


def exit_neighbours(h: Hex, towards: Point) -> tuple[Hex, ...]:
    """The neighbour(s) across the hexside where the ray from ``h``'s centre to ``towards``
    leaves ``h``: one neighbour, or two when the ray leaves exactly through a corner."""
    cx, cy = centre(h)
    dx, dy = towards[0] - cx, towards[1] - cy
    out = hexgrid.neighbours(h)
    # Exact test: the ray passes through side (k_a, k_b) when both corners are not on the same
    # strict side of the ray and the side lies ahead.
    hits = []
    for n in out:
        a, b = _side_corners(h, n)
        sa = _cross(dx, dy, a[0] - cx, a[1] - cy)
        sb = _cross(dx, dy, b[0] - cx, b[1] - cy)
        mx, my = side_midpoint(h, n)
        ahead = dx * (mx - cx) + dy * (my - cy) > 0
        if ahead and ((sa >= 0 >= sb) or (sb >= 0 >= sa)):
            hits.append((0 if sa and sb else 1, n))
    if any(flag == 0 for flag, _ in hits):
        return tuple(n for flag, n in hits if flag == 0)
    return tuple(n for _, n in hits)


def _side_corners(h: Hex, n: Hex) -> tuple[Point, Point]:
    cx, cy = centre(h)
    mx, my = side_midpoint(h, n)
    ox, oy = mx - cx, my - cy
    best = sorted(CORNERS, key=lambda k: -(k[0] * ox + k[1] * oy))[:2]
    return (cx + best[0][0], cy + best[0][1]), (cx + best[1][0], cy + best[1][1])


@dataclass(frozen=True)
class Cell:
    label: str
    hex: Hex
    kind: str
    title: str
    level: int
    height: int | None
    cost: int | None
    cover: str
    melee: str
    inside: bool
    building: str | None = None  # building id ("tower@0405", "keep@1008") or None
    openings: frozenset[str] = field(default_factory=frozenset)  # neighbour labels


class Board:
    """A map read from data: cells by label, buildings, openings, moat edges."""

    def __init__(
        self,
        name: str,
        rows: list[str],
        kinds: dict[str, dict],
        file: str,
        drawbridge: dict | None = None,
        openings: dict | None = None,
    ):
        self.name = name
        by_char = {spec["char"]: kind for kind, spec in kinds.items()}
        raw: dict[Hex, str] = {}
        for r, row in enumerate(rows):
            if not isinstance(row, str):
                raise ScenarioError(file, f"rows[{r}]", "must be a string of terrain characters")
            for c, ch in enumerate(row):
                if ch == " ":
                    continue
                if ch not in by_char:
                    raise ScenarioError(
                        file,
                        f"rows[{r}][{c}]",
                        f"unknown terrain character {ch!r}; known: {''.join(sorted(by_char))}",
                    )
                raw[hexgrid.from_offset(c, r)] = by_char[ch]
        self.columns = max((len(r) for r in rows), default=0)
        self.rows = len(rows)
        self.grid = hexgrid.HexMap(raw)
        families = {h: kinds[k].get("building") for h, k in raw.items()}
        building_of: dict[Hex, str] = {}
        for h in sorted(raw):
            family = families[h]
            if family is None or h in building_of:
                continue
            ident = f"{family}@{hexgrid.label(h)}"
            todo = [h]
            while todo:
                x = todo.pop()
                if x in building_of:
                    continue
                building_of[x] = ident
                todo += [
                    n
                    for n in hexgrid.neighbours(x)
                    if families.get(n) == family and n not in building_of
                ]
        cells: dict[str, Cell] = {}
        for h, kind in raw.items():
            spec = kinds[kind]
            found: set[str] = set()
            if kind in BATTLEMENTS:
                found = {
                    hexgrid.label(n)
                    for n in hexgrid.neighbours(h)
                    if n in raw and not kinds[raw[n]]["inside"]
                }
            elif kind in SLITS:
                found = {
                    hexgrid.label(n)
                    for n in hexgrid.neighbours(h)
                    if n in raw
                    and building_of.get(n) != building_of[h]
                    and raw[n] not in ("wall",) + BATTLEMENTS
                }
            lab = hexgrid.label(h)
            if openings and lab in openings:
                # A slit is a narrow window: the map may say which of its sides it opens on.
                chosen = openings[lab]
                if kind not in SLITS or not isinstance(chosen, list) or not set(chosen) <= found:
                    raise ScenarioError(
                        file,
                        f"openings.{lab}",
                        f"must be a slit's list of its outward neighbours: {sorted(found)}",
                    )
                found = set(chosen)
            cells[lab] = Cell(
                lab,
                h,
                kind,
                spec["title"],
                spec["level"],
                spec["height"],
                spec["cost"],
                spec["cover"],
                spec["melee"],
                spec["inside"],
                building_of.get(h),
                frozenset(found),
            )
        self.cells = cells
        self.kinds = kinds
        self.drawbridge = drawbridge or {}
        self._neighbours = {
            lab: [hexgrid.label(n) for n in hexgrid.neighbours(c.hex) if hexgrid.label(n) in cells]
            for lab, c in cells.items()
        }
        # Derived tables (movement steps per drawbridge position), built on first use.
        self.derived: dict = {}
        self.counters: tuple[tuple[str, str], ...] = ()  # set on variants with counters

    # ----- queries ------------------------------------------------------------------------
    def __contains__(self, label: str) -> bool:
        return label in self.cells

    def cell(self, label: str) -> Cell:
        return self.cells[label]

    def neighbours(self, label: str) -> list[str]:
        return self._neighbours[label]

    def distance(self, a: str, b: str) -> int:
        return hexgrid.distance(self.cells[a].hex, self.cells[b].hex)

    def is_moat_edge(self, label: str) -> bool:
        """An outside cell at the moat's rim (1.46: outside figures shoot into the moat from
        the moat itself or from such a cell)."""
        cell = self.cells[label]
        return (
            cell.kind != "moat"
            and not cell.inside
            and any(self.cells[n].kind == "moat" for n in self.neighbours(label))
        )

    def is_building_interior(self, label: str) -> bool:
        cell = self.cells[label]
        return cell.building is not None and cell.kind not in SLITS + BUILDING_DOORS + BATTLEMENTS

    def labels(self) -> list[str]:
        return sorted(self.cells)
