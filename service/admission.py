"""How many player commands the bot works on at once, learnt from how long they take.

A fixed bound is right for one machine at one moment only: on two idle cores a bound of 12
refused commands the bot had room for, while on a crowded machine the same 12 made every
accepted command wait its way to most of a second. Little's law ties the three together
(commands in progress = commands finished per second x time each takes), so the bound is
steered by the time commands take (additive increase, multiplicative decrease, as TCP steers
its window):

- a command that took longer than ``target`` seconds lowers the bound by a tenth, once per
  wave (commands started before the last lowering were admitted under the old bound and say
  nothing about the new one);
- a command finished within ``target`` while the bound was what limited the bot (it started
  with at least half the bound in progress) raises it by about one per bound's worth of such
  commands;
- an idle or lightly used bot leaves the bound as it is, so a burst after a quiet hour meets
  the bound the bot last proved, not one grown on nothing.

Between ``floor`` and ``ceiling`` whatever happens: nothing queues without limit. The floor
is the fixed bound the bot had before (12): the time a command takes in the real bot includes
its messages to Discord (a round trip to Discord's servers, often longer than ``target`` on
its own), which no bound on this process can shorten, so slow commands never push the bound
below what a bot on any machine was known to carry; the bound only grows where commands
demonstrably finish within ``target`` while it was what held the bot back.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# The latency promised to an accepted command (issue 13: p99 under 250 ms at 100/s).
TARGET_SECONDS = 0.25
FLOOR = 12
START = 12
CEILING = 48


class Admission:
    def __init__(
        self,
        *,
        target: float = TARGET_SECONDS,
        floor: int = FLOOR,
        start: int = START,
        ceiling: int = CEILING,
        now: Callable[[], float] = time.monotonic,
    ):
        self.target, self.floor, self.ceiling = target, floor, ceiling
        self._limit = float(min(max(start, floor), ceiling))
        self._now = now
        self._lowered_at = float("-inf")
        self.in_progress = 0

    @property
    def limit(self) -> int:
        return int(self._limit)

    @property
    def full(self) -> bool:
        return self.in_progress >= self.limit

    def start(self) -> tuple[float, bool]:
        """A command was admitted: its ticket for :meth:`finish`."""
        bound_mattered = self.in_progress * 2 >= self.limit
        self.in_progress += 1
        return self._now(), bound_mattered

    def finish(self, ticket: tuple[float, bool]) -> None:
        started, bound_mattered = ticket
        self.in_progress -= 1
        now = self._now()
        if now - started > self.target:
            if started >= self._lowered_at:
                self._limit = max(float(self.floor), self._limit * 0.9)
                self._lowered_at = now
        elif bound_mattered:
            self._limit = min(float(self.ceiling), self._limit + 1.0 / self._limit)
