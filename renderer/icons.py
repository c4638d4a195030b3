"""Terrain icons drawn with Pillow primitives (no image files): ``ICONS[name](draw, cx, cy, r)``.

Each icon fits in a box of half-width ``r`` around ``(cx, cy)``; dark ink with a light rim so it
reads on any terrain fill. They go into the cached static layer, so their cost is paid once.
"""

from __future__ import annotations

import math
from collections.abc import Callable

INK = "#2a2622"
LIGHT = "#f4efe2"


def _w(r: float) -> int:
    return max(1, round(r / 7))


def _poly(draw, pts, fill, r):
    draw.polygon(pts, fill=fill)
    draw.line(list(pts) + [pts[0]], fill=INK, width=_w(r))


def fort(draw, cx, cy, r):
    # a star fort: square with four bastions
    a = r * 0.62
    pts = []
    for i in range(4):
        ang = math.pi / 2 * i - math.pi / 4
        pts.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
        mid = ang + math.pi / 4
        pts.append((cx + a * math.cos(mid), cy + a * math.sin(mid)))
    _poly(draw, pts, "#8a7b63", r)
    draw.rectangle((cx - r * 0.25, cy - r * 0.25, cx + r * 0.25, cy + r * 0.25), fill=LIGHT)


def _house(draw, x, y, w, h, r, fill="#b5533c"):
    _poly(
        draw,
        [(x, y + h), (x, y + h * 0.45), (x + w / 2, y), (x + w, y + h * 0.45), (x + w, y + h)],
        fill,
        r,
    )


def village(draw, cx, cy, r):
    _house(draw, cx - r, cy - r * 0.3, r * 0.9, r * 1.1, r)
    _house(draw, cx + r * 0.05, cy - r * 0.8, r * 0.95, r * 1.2, r, "#c96f4a")


def city(draw, cx, cy, r):
    for dx, h, fill in ((-0.95, 1.1, "#9a8f7d"), (-0.3, 1.7, "#b8ad98"), (0.35, 1.35, "#8d8170")):
        x0 = cx + dx * r
        _poly(
            draw,
            [
                (x0, cy + r * 0.8),
                (x0, cy + r * 0.8 - h * r),
                (x0 + r * 0.6, cy + r * 0.8 - h * r),
                (x0 + r * 0.6, cy + r * 0.8),
            ],
            fill,
            r,
        )


def hill(draw, cx, cy, r):
    pts = [(cx - r, cy + r * 0.6)]
    for i in range(1, 12):
        t = i / 12
        pts.append((cx - r + 2 * r * t, cy + r * 0.6 - math.sin(math.pi * t) * r * 1.2))
    pts.append((cx + r, cy + r * 0.6))
    _poly(draw, pts, "#a07c4f", r)


def building(draw, cx, cy, r):
    _poly(
        draw,
        [
            (cx - r * 0.8, cy - r * 0.8),
            (cx + r * 0.8, cy - r * 0.8),
            (cx + r * 0.8, cy + r * 0.8),
            (cx - r * 0.8, cy + r * 0.8),
        ],
        "#8f8a80",
        r,
    )
    for i in (-1, 1):
        for j in (-1, 1):
            x, y = cx + i * r * 0.35, cy + j * r * 0.35
            draw.rectangle((x - r * 0.15, y - r * 0.15, x + r * 0.15, y + r * 0.15), fill=LIGHT)


def temple(draw, cx, cy, r):
    # a stepped pyramid with a shrine on top
    for i, half in enumerate((1.0, 0.72, 0.45)):
        y1 = cy + r * 0.8 - i * r * 0.45
        _poly(
            draw,
            [
                (cx - half * r, y1),
                (cx - half * r, y1 - r * 0.45),
                (cx + half * r, y1 - r * 0.45),
                (cx + half * r, y1),
            ],
            "#c9a66b",
            r,
        )
    draw.rectangle((cx - r * 0.2, cy - r * 0.95, cx + r * 0.2, cy - r * 0.55), fill="#8c2f1b")


def market(draw, cx, cy, r):
    _poly(
        draw,
        [
            (cx - r * 0.8, cy - r * 0.1),
            (cx + r * 0.8, cy - r * 0.1),
            (cx + r * 0.8, cy + r * 0.8),
            (cx - r * 0.8, cy + r * 0.8),
        ],
        "#d9c7a0",
        r,
    )
    for i in range(4):
        x0 = cx - r + i * r * 0.5
        _poly(
            draw,
            [(x0, cy - r * 0.1), (x0 + r * 0.25, cy - r * 0.8), (x0 + r * 0.5, cy - r * 0.1)],
            "#c0392b" if i % 2 else LIGHT,
            r,
        )


def spring(draw, cx, cy, r):
    draw.ellipse(
        (cx - r, cy - r * 0.6, cx + r, cy + r * 0.6), fill="#4f9fd8", outline=INK, width=_w(r)
    )
    draw.ellipse(
        (cx - r * 0.45, cy - r * 0.25, cx + r * 0.45, cy + r * 0.25), outline=LIGHT, width=_w(r)
    )


def bunker(draw, cx, cy, r):
    draw.pieslice(
        (cx - r, cy - r * 0.7, cx + r, cy + r * 1.1),
        180,
        360,
        fill="#7d7d74",
        outline=INK,
        width=_w(r),
    )
    draw.rectangle((cx - r * 0.5, cy - r * 0.05, cx + r * 0.5, cy + r * 0.12), fill=INK)


def wire(draw, cx, cy, r):
    w = _w(r)
    draw.line([(cx - r, cy), (cx + r, cy)], fill=INK, width=w)
    for i in range(3):
        x = cx - r * 0.66 + i * r * 0.66
        draw.line([(x - r * 0.25, cy - r * 0.25), (x + r * 0.25, cy + r * 0.25)], fill=INK, width=w)
        draw.line([(x - r * 0.25, cy + r * 0.25), (x + r * 0.25, cy - r * 0.25)], fill=INK, width=w)


def tanktrap(draw, cx, cy, r):
    w = max(2, _w(r) * 2)
    draw.line([(cx - r * 0.8, cy + r * 0.7), (cx + r * 0.8, cy - r * 0.7)], fill=INK, width=w)
    draw.line([(cx - r * 0.8, cy - r * 0.7), (cx + r * 0.8, cy + r * 0.7)], fill=INK, width=w)
    draw.line([(cx, cy - r * 0.9), (cx, cy + r * 0.9)], fill="#5a5650", width=w)


def mine(draw, cx, cy, r):
    w = _w(r)
    for i in range(8):
        a = math.pi / 4 * i
        draw.line([(cx, cy), (cx + r * math.cos(a), cy + r * math.sin(a))], fill=INK, width=w)
    draw.ellipse(
        (cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), fill="#3b3b36", outline=INK
    )
    draw.ellipse((cx - r * 0.2, cy - r * 0.35, cx + r * 0.05, cy - r * 0.1), fill="#d0d0c0")


def forest(draw, cx, cy, r):
    for dx, dy, k in ((-0.5, 0.1, 0.8), (0.45, 0.0, 0.85), (0.0, -0.35, 0.9)):
        x, y = cx + dx * r, cy + dy * r
        draw.rectangle(
            (x - r * 0.07, y + r * 0.45 * k, x + r * 0.07, y + r * 0.8 * k), fill="#5b3d1e"
        )
        _poly(
            draw,
            [
                (x, y - r * 0.75 * k),
                (x + r * 0.45 * k, y + r * 0.5 * k),
                (x - r * 0.45 * k, y + r * 0.5 * k),
            ],
            "#2f6b2f",
            r,
        )


def _waves(draw, cx, cy, r, colour, rows=3):
    w = max(1, _w(r))
    for j in range(rows):
        y0 = cy - r * 0.5 + j * r * 0.5
        pts = [(cx - r + i * r / 6, y0 + math.sin(i * math.pi / 3) * r * 0.12) for i in range(13)]
        draw.line(pts, fill=colour, width=w)


def water(draw, cx, cy, r):
    _waves(draw, cx, cy, r, "#1f5f99")


def swamp(draw, cx, cy, r):
    _waves(draw, cx, cy + r * 0.3, r * 0.9, "#1f5f99", rows=2)
    w = _w(r)
    for dx in (-0.5, 0.0, 0.5):
        x = cx + dx * r
        for tilt in (-0.25, 0, 0.25):
            draw.line([(x, cy), (x + tilt * r, cy - r * 0.55)], fill="#3d6b2a", width=w)


def _star_points(cx, cy, r, inner=0.45, n=5):
    pts = []
    for i in range(2 * n):
        a = -math.pi / 2 + math.pi / n * i
        k = r if i % 2 == 0 else r * inner
        pts.append((cx + k * math.cos(a), cy + k * math.sin(a)))
    return pts


def objective(draw, cx, cy, r):
    _poly(draw, _star_points(cx, cy, r), "#f2c230", r)


def deploy(draw, cx, cy, r, colour="#1d4e89"):
    # chevrons in the deploying side's colour on a light rim, so each side finds its own zone
    w = max(2, _w(r) * 2)
    for k in (-0.45, 0.15):
        pts = [(cx - r * 0.7, cy + k * r), (cx, cy + (k + 0.45) * r), (cx + r * 0.7, cy + k * r)]
        draw.line(pts, fill=LIGHT, width=w + 2, joint="curve")
        draw.line(pts, fill=colour, width=w, joint="curve")


def ruins(draw, cx, cy, r):
    _poly(
        draw,
        [
            (cx - r, cy + r * 0.7),
            (cx - r, cy - r * 0.3),
            (cx - r * 0.6, cy - r * 0.6),
            (cx - r * 0.4, cy - r * 0.1),
            (cx - r * 0.1, cy + r * 0.1),
            (cx - r * 0.1, cy + r * 0.7),
        ],
        "#9b9486",
        r,
    )
    _poly(
        draw,
        [
            (cx + r * 0.2, cy + r * 0.7),
            (cx + r * 0.2, cy - r * 0.1),
            (cx + r * 0.5, cy - r * 0.7),
            (cx + r * 0.7, cy - r * 0.2),
            (cx + r, cy - r * 0.3),
            (cx + r, cy + r * 0.7),
        ],
        "#aaa294",
        r,
    )


def tower(draw, cx, cy, r):
    pts = [(cx - r * 0.45, cy + r), (cx - r * 0.45, cy - r * 0.7)]
    for i in range(3):
        x = cx - r * 0.45 + i * r * 0.3
        pts += [
            (x, cy - r),
            (x + r * 0.15, cy - r),
            (x + r * 0.15, cy - r * 0.7),
            (x + r * 0.3, cy - r * 0.7),
        ]
    pts += [(cx + r * 0.45, cy - r * 0.7), (cx + r * 0.45, cy - r), (cx + r * 0.45, cy + r)]
    _poly(draw, pts, "#9c8f7a", r)


def gate(draw, cx, cy, r):
    _poly(
        draw,
        [
            (cx - r, cy + r * 0.8),
            (cx - r, cy - r * 0.8),
            (cx + r, cy - r * 0.8),
            (cx + r, cy + r * 0.8),
        ],
        "#8f816b",
        r,
    )
    draw.pieslice(
        (cx - r * 0.5, cy - r * 0.3, cx + r * 0.5, cy + r * 0.5), 180, 360, fill="#3a2f24"
    )
    draw.rectangle((cx - r * 0.5, cy + r * 0.1, cx + r * 0.5, cy + r * 0.8), fill="#3a2f24")


def wall(draw, cx, cy, r):
    _poly(
        draw,
        [
            (cx - r, cy + r * 0.5),
            (cx - r, cy - r * 0.5),
            (cx + r, cy - r * 0.5),
            (cx + r, cy + r * 0.5),
        ],
        "#a4553a",
        r,
    )
    w = _w(r)
    draw.line([(cx - r, cy), (cx + r, cy)], fill=INK, width=w)
    for i in range(3):
        x = cx - r + (i + 0.5) * r * 2 / 3
        draw.line([(x, cy - r * 0.5), (x, cy)], fill=INK, width=w)
        draw.line([(x + r / 3, cy), (x + r / 3, cy + r * 0.5)], fill=INK, width=w)


COLOURED = ("deploy",)  # icons that take ``cells[].icon_color``
ICONS: dict[str, Callable] = {
    f.__name__: f
    for f in (
        fort,
        village,
        city,
        hill,
        building,
        temple,
        market,
        spring,
        bunker,
        wire,
        tanktrap,
        mine,
        forest,
        water,
        swamp,
        objective,
        deploy,
        ruins,
        tower,
        gate,
        wall,
    )
}
