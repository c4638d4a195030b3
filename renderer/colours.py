"""Colour distances as people see them, for choosing palettes that keep terrain and sides apart.

``delta_e`` is the CIE 1976 distance in CIELAB (about 2.3 is just noticeable; flat map colours
read as clearly different from about 20). ``simulate`` shows a colour as seen with a colour-vision
deficiency, using the matrices of Machado, Oliveira and Fernandes (2009) at full severity,
applied to linear RGB.
"""

from __future__ import annotations

MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal",) + tuple(MACHADO)


def _rgb(colour) -> tuple[int, int, int]:
    if isinstance(colour, str):
        text = colour.lstrip("#")
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    r, g, b = tuple(colour)[:3]
    return int(r), int(g), int(b)


def _to_linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _from_linear(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(colour, vision: str) -> tuple[int, int, int]:
    """``colour`` as seen with ``vision`` (one of :data:`VISIONS`)."""
    rgb = _rgb(colour)
    if vision == "normal":
        return rgb
    lin = [_to_linear(c) for c in rgb]
    r, g, b = (round(_from_linear(sum(m * c for m, c in zip(row, lin)))) for row in MACHADO[vision])
    return r, g, b


def lab(colour) -> tuple[float, float, float]:
    r, g, b = (_to_linear(c) for c in _rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a, b, vision: str = "normal") -> float:
    la, lb = lab(simulate(a, vision)), lab(simulate(b, vision))
    return sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5


def closest_pairs(terrain: dict, sides: dict) -> list[tuple[float, str, str, str]]:
    """(distance, terrain name, side name, vision) of every terrain/side pair, closest first."""
    out = []
    for vision in VISIONS:
        for tname, t in terrain.items():
            for sname, s in sides.items():
                out.append((delta_e(t, s, vision), tname, sname, vision))
    return sorted(out)
