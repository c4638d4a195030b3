"""The one injectable source of randomness.

Rulesets never import :mod:`random`. They receive a :class:`Dice` and call
``dice.roll(purpose, events)``; each roll is appended to ``events`` as a ``roll`` event so every
die the game ever rolled is in the log with what it was for.

In play the server owns a secret seed per game; the dice of action number *n* are drawn from
``SHA-256(seed || n || k)`` so replaying the action log with the seed reproduces every die
without storing generator state (and a revealed seed lets players verify every roll).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Protocol

from .errors import DiceExhausted


class DieSource(Protocol):
    def draw(self, sides: int) -> int:  # pragma: no cover - protocol
        """Return a uniform integer in ``1..sides``."""


class SeededSource:
    """Deterministic, uniform dice for one action of one game."""

    def __init__(self, seed: str | bytes | int, action_index: int):
        if isinstance(seed, int):
            seed = str(seed)
        if isinstance(seed, str):
            seed = seed.encode()
        self._prefix = seed + b"|" + str(action_index).encode() + b"|"
        self._counter = 0

    def draw(self, sides: int) -> int:
        # Rejection sampling on 8-byte blocks keeps the distribution exactly uniform.
        limit = (2**64 // sides) * sides
        while True:
            block = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            value = int.from_bytes(block[:8], "big")
            if value < limit:
                return value % sides + 1


class FixedSource:
    """Dice supplied in order (tests and the local table's ``--dice``)."""

    def __init__(self, values: Iterable[int]):
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def draw(self, sides: int) -> int:
        if self._next >= len(self._values):
            raise DiceExhausted(f"no fixed die left (a d{sides} was needed)")
        value = self._values[self._next]
        self._next += 1
        if not 1 <= value <= sides:
            raise DiceExhausted(f"fixed die {value} is not a face of a d{sides}")
        return value


class Dice:
    """What rulesets roll with. Records every roll; ``rolled`` lists them in order."""

    def __init__(self, source: DieSource):
        self.source = source
        self.rolled: list[dict] = []

    def roll(self, purpose: str, events: list | None = None, sides: int = 6, **extra) -> int:
        value = self.source.draw(sides)
        record = {"type": "roll", "purpose": purpose, "sides": sides, "value": value, **extra}
        self.rolled.append(record)
        if events is not None:
            events.append(record)
        return value

    def roll_many(
        self, count: int, purpose: str, events: list | None = None, sides: int = 6, **extra
    ) -> list[int]:
        return [self.roll(purpose, events, sides, **extra) for _ in range(count)]

    def shuffle(self, items: list, purpose: str, events: list | None = None) -> list:
        """Fisher-Yates; returns a new list.

        The individual draws would reveal a hidden order (a deck), so the log gets one
        ``shuffle`` event; the draws themselves stay in ``rolled`` for verification.
        """
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.source.draw(i + 1) - 1
            self.rolled.append(
                {"type": "roll", "purpose": purpose, "sides": i + 1, "value": j + 1, "hidden": True}
            )
            result[i], result[j] = result[j], result[i]
        if events is not None:
            events.append({"type": "shuffle", "purpose": purpose, "count": len(result)})
        return result

    def choose(self, count: int, purpose: str) -> int:
        """An index below ``count`` at random, for a pick the events that follow make public
        (``/auto-setup``'s placements): kept in ``rolled`` for verification, not logged as a
        die of its own."""
        value = self.source.draw(count)
        self.rolled.append(
            {"type": "roll", "purpose": purpose, "sides": count, "value": value, "hidden": True}
        )
        return value - 1


def seeded(seed: str | bytes | int, action_index: int) -> Dice:
    return Dice(SeededSource(seed, action_index))


def fixed(values: Iterable[int]) -> Dice:
    return Dice(FixedSource(values))


class NoDice(Dice):
    """For callers that must not roll (legal_actions, views); rolling is a programming error."""

    def __init__(self):
        super().__init__(FixedSource([]))
