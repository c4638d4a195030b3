"""A small least-recently-used mapping for per-game things a long-running bot keeps in memory
(states, locks, the current board post): bounded, so a bot that has seen a hundred thousand
games holds only the ones in play."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """``keep(value)`` says whether an entry must stay although it is the oldest (a lock that
    is held); such entries are passed over, so the size may briefly exceed ``limit``.
    ``weigh(value)``: its size in bytes, to bound the entries' total by ``max_bytes`` as well
    as their number by ``limit``."""

    def __init__(
        self,
        limit: int,
        keep: Callable[[V], bool] | None = None,
        *,
        weigh: Callable[[V], int] | None = None,
        max_bytes: int | None = None,
    ):
        self.limit = int(limit)
        self._keep = keep
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weigh = weigh
        self.max_bytes = max_bytes
        self.bytes = 0  # the entries' total weight (0 without ``weigh``)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key) -> bool:
        return key in self._items

    def get(self, key: K, default=None):
        value = self._items.get(key, default)
        if key in self._items:
            self._items.move_to_end(key)
        return value

    def __getitem__(self, key: K) -> V:
        value = self._items[key]
        self._items.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        if self._weigh is not None:
            if key in self._items:
                self.bytes -= self._weigh(self._items[key])
            self.bytes += self._weigh(value)
        self._items[key] = value
        self._items.move_to_end(key)
        if len(self._items) > self.limit or self._over_bytes():
            self._evict()

    def pop(self, key: K, default=None):
        if self._weigh is not None and key in self._items:
            self.bytes -= self._weigh(self._items[key])
        return self._items.pop(key, default)

    def _over_bytes(self) -> bool:
        return self.max_bytes is not None and self.bytes > self.max_bytes

    def _evict(self) -> None:
        # Oldest first, without walking the whole mapping (a full cache evicts on every new
        # entry): entries that must stay are taken out and put back in front, in order.
        excess = len(self._items) - self.limit
        kept = []
        while (excess > 0 or self._over_bytes()) and self._items:
            key, value = self._items.popitem(last=False)
            if self._keep is not None and self._keep(value):
                kept.append((key, value))
                continue
            excess -= 1
            if self._weigh is not None:
                self.bytes -= self._weigh(value)
        for key, value in reversed(kept):
            self._items[key] = value
            self._items.move_to_end(key, last=False)
