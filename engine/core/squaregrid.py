"""Square-grid geometry for square games (Rivet Wars). Labels are column letters and row
numbers counted from 1, e.g. ``C4``; inside, ``(x, y)`` from 0 with y growing downwards."""

from __future__ import annotations

Square = tuple[int, int]

KING_STEPS: tuple[Square, ...] = (
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class BadSquare(ValueError):
    pass


def label(sq: Square) -> str:
    x, y = sq
    return f"{_LETTERS[x]}{y + 1}"


def parse_label(text: str) -> Square:
    t = str(text).strip().upper()
    if len(t) < 2 or t[0] not in _LETTERS or not t[1:].isdigit() or int(t[1:]) < 1:
        raise BadSquare(
            f"{text!r} is not a square; write a column letter and a row number, e.g. C4."
        )
    return _LETTERS.index(t[0]), int(t[1:]) - 1


def neighbours8(sq: Square) -> list[Square]:
    x, y = sq
    return [(x + dx, y + dy) for dx, dy in KING_STEPS]


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
