"""A bounded, thread-safe LRU cache: rendering runs in worker threads, possibly several at once."""

from __future__ import annotations

import threading
from collections import OrderedDict


def image_bytes(img) -> int:
    """What a Pillow picture's pixels take: four bytes a pixel for any mode of several bands
    (Pillow keeps RGB in four), one for a single band ("P", "L")."""
    return img.width * img.height * (4 if len(img.getbands()) > 1 else 1)


class LruCache:
    """``get(key, build)`` returns the cached value or builds and keeps it.

    With ``build_once`` a key being built by one thread makes the others wait for it (map
    layers: expensive, worth drawing once); without it two threads may build the same small
    value at once and both results are equal (counter sprites: cheaper than a lock per key).
    """

    def __init__(self, limit: int, build_once: bool = False, max_bytes=None, size_of=None):
        self.limit = limit
        self.build_once = build_once
        # with max_bytes, also at most that many bytes (``size_of(value)`` each); the newest
        # value stays even when it alone is bigger
        self.max_bytes = max_bytes
        self.size_of = size_of
        self.bytes = 0
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict = {}
        self.builds = 0
        self.hits = 0

    def _lookup(self, key):
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
            return found

    def _size(self, value) -> int:
        return self.size_of(value) if self.size_of is not None else 0

    def _store(self, key, value) -> None:
        with self._lock:
            self.builds += 1
            old = self._items.get(key)
            if old is not None:
                self.bytes -= self._size(old)
            self._items[key] = value
            self.bytes += self._size(value)
            self._items.move_to_end(key)
            while len(self._items) > self.limit or (
                self.max_bytes is not None and self.bytes > self.max_bytes and len(self._items) > 1
            ):
                _, dropped = self._items.popitem(last=False)
                self.bytes -= self._size(dropped)
            self._building.pop(key, None)

    def _make_room(self, size: int) -> None:
        """Drop the oldest values until ``size`` more bytes fit: the values storing it would
        drop anyway, dropped before it is built, so their memory is free for it (a map layer
        is up to 14 MB; otherwise a worker held the whole budget and the new layer at once)."""
        with self._lock:
            while self._items and self.bytes + size > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.bytes -= self._size(dropped)

    def get(self, key, build, size: int | None = None):
        """``size``: the bytes the value will take, when known before it is built."""
        found = self._lookup(key)
        if found is not None:
            return found
        if size is not None and self.max_bytes is not None:
            self._make_room(size)
        if not self.build_once:
            value = build()
            self._store(key, value)
            return value
        with self._lock:
            key_lock = self._building.setdefault(key, threading.Lock())
        with key_lock:
            found = self._lookup(key)
            if found is not None:
                return found
            value = build()
            self._store(key, value)
            return value

    def peek(self, key):
        """What ``key`` holds, or None; counts as no hit and keeps the order (a look by another
        cache that derives from this one)."""
        with self._lock:
            return self._items.get(key)

    def put(self, key, value) -> None:
        """Replace what ``key`` holds (a value that grew, e.g. a palette with more colours)."""
        self._store(key, value)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.builds = self.hits = self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)
