"""Board pictures drawn in worker processes, with a bound on how many may wait.

Drawing and PNG encoding are most of a busy bot's CPU, and in threads they share one core
under the GIL with the event loop. Here a scene (plain data) goes to a worker process and PNG
bytes come back, so both cores draw and the event loop stays free; for the board, the state
goes instead and the worker builds the scene too (``PicturePool.board``). Each worker keeps
its own renderer caches (map layers, palettes, counter sprites) and rulesets for its
lifetime.

Each worker has its own queue. The boards of one game, scenario and language (a ``key``; all
the pictures of one game in one language) go to the same worker while its queue is not much
longer than the others': a map layer, its palette and the sprites are then drawn and kept by
one worker instead of by every worker, so each worker's caches see only part of the maps.
(Keyed by game instead, games sharing a map would still make every worker draw and keep it:
measured, most of the layers that are reused belong to maps many games share.) A worker that
dies is replaced; the pictures it had are drawn in the bot's process instead, as before.

At most ``limit`` pictures are in flight (drawing or waiting for a worker): one more is
refused at once with :class:`Overloaded` instead of joining a queue that only grows.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .errors import ServiceError
from .picture_work import (
    _board,
    _give_back_memory,
    _LeanSpawnContext,
    _render,
    _warm_worker,
    ruleset_path,
)
from .picture_work import scene_of as scene_of

log = logging.getLogger("umpire.service")

DEFAULT_LIMIT = 24


class Overloaded(ServiceError):
    """The bot has more work waiting than it can finish soon: refused before anything changed."""

    def __init__(self, what: str = "pictures"):
        self.what = what
        super().__init__(
            "The bot is very busy right now; nothing was changed. Try again in a moment."
        )


def default_workers() -> int:
    """``UMPIRE_PICTURE_WORKERS`` (0: draw in threads of the bot's process), else one worker
    per core, at most four."""
    text = os.environ.get("UMPIRE_PICTURE_WORKERS", "").strip()
    if text:
        try:
            return max(0, int(text))
        except ValueError:
            raise ValueError(
                f"UMPIRE_PICTURE_WORKERS must be a whole number, not {text!r}"
            ) from None
    return max(1, min(4, os.cpu_count() or 1))


# A picture goes to its home worker (see board_key) unless that worker already has this many
# more pictures waiting or being drawn than the least busy one: then to the least busy one, so
# one busy game (or an unlucky share of games) never makes the others wait.
SPILL_AFTER = 2
# A worker that has drawn nothing for this long gives back the memory its allocator kept
# (once per quiet spell): a busy worker never pays for it, an idle bot does not sit on it.
IDLE_TRIM_AFTER = 2.0


def board_key(path: str, state: dict, lang: str) -> str:
    """What sends a board to its worker: the game, its scenario and the reader's language, which
    decide its map layer (the map of a Pocket Tactics or Tactical Table War game changes as it
    is played, and stays with its scenario's worker)."""
    scenario = state.get("scenario")
    return f"{path}|{scenario if isinstance(scenario, str) else ''}|{lang}"


def home_worker(key, workers: int) -> int:
    """The worker a key's pictures go to: the same in every process and every run (a game id
    spreads evenly; any other key by its checksum)."""
    if isinstance(key, int):
        return key % workers
    return zlib.crc32(str(key).encode("utf-8", "surrogatepass")) % workers


def _log_trim_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a picture worker could not give memory back: %r", future.exception())


class PicturePool:
    """``await pool.render(scene)`` -> PNG bytes. A worker process starts on its first picture.

    Each worker is a one-process executor of its own, so a picture can be sent to a chosen
    worker (a ``ProcessPoolExecutor`` of several processes hands work to whichever is free)."""

    def __init__(self, workers: int | None = None, limit: int = DEFAULT_LIMIT):
        self.workers = default_workers() if workers is None else int(workers)
        self.limit = int(limit)
        self.in_flight = 0
        # pictures sent to each worker and not yet back (waiting or being drawn)
        self.waiting = [0] * max(0, self.workers)
        self._executors: list[ProcessPoolExecutor | None] = [None] * max(0, self.workers)
        self._start_lock = threading.Lock()
        # pictures ever sent to each worker (a quiet spell is one without a new picture), and
        # the count at the worker's last trim
        self._sent = [0] * max(0, self.workers)
        self._trimmed_at = [0] * max(0, self.workers)
        self.idle_after = IDLE_TRIM_AFTER
        self.idle_task: Callable[[], object] = _give_back_memory
        self._quiet_since = [0.0] * max(0, self.workers)
        self._stop_watching = threading.Event()
        self._watcher: threading.Thread | None = None

    @property
    def backlog(self) -> float:
        """In-flight pictures as a share of the limit (0 idle, 1 full)."""
        return self.in_flight / self.limit if self.limit else 1.0

    def choose(self, key=None) -> int:
        """The worker for a picture of ``key`` now: its home worker, unless that one has
        ``SPILL_AFTER`` more pictures waiting than the least busy (then that one); without a
        key, the least busy."""
        least = min(range(self.workers), key=self.waiting.__getitem__)
        if key is None:
            return least
        home = home_worker(key, self.workers)
        if self.waiting[home] - self.waiting[least] >= SPILL_AFTER:
            return least
        return home

    def _executor(self, index: int) -> ProcessPoolExecutor:
        with self._start_lock:
            executor = self._executors[index]
            if executor is None:
                # spawn: the bot process has database and executor threads that a forked
                # child must not inherit half-locked.
                executor = self._executors[index] = ProcessPoolExecutor(
                    1,
                    mp_context=_LeanSpawnContext(),
                    initializer=_warm_worker,
                    initargs=(os.getpid(),),
                )
                if self._watcher is None and not self._stop_watching.is_set():
                    self._watcher = threading.Thread(
                        target=self._watch_for_quiet_workers,
                        name="picture-workers-idle-watch",
                        daemon=True,
                    )
                    self._watcher.start()
            return executor

    def _replace(self, index: int, broken: ProcessPoolExecutor) -> None:
        """Drop a worker whose process died; its next picture starts a new one. Every picture
        that was waiting for it sees the same break: only the first one replaces it."""
        with self._start_lock:
            if self._executors[index] is not broken:
                return
            self._executors[index] = None
        log.error(
            "picture worker %d died (%d pictures were waiting for it); starting a new one",
            index,
            self.waiting[index],
        )
        broken.shutdown(wait=False, cancel_futures=True)

    async def run(
        self, function: Callable[..., bytes], *args, in_process: bool = True, key=None
    ) -> bytes:
        """Run ``function(*args)`` on a worker (without workers, or ``in_process=False``: in a
        thread) under the bound; pictures with the same ``key`` go to the same worker while
        it keeps up (see ``choose``). On a worker, ``function`` and its arguments cross a
        process boundary: a module-level function and plain data."""
        if self.in_flight >= self.limit:
            raise Overloaded()
        self.in_flight += 1
        try:
            if self.workers <= 0 or not in_process:
                return await asyncio.to_thread(function, *args)
            loop = asyncio.get_running_loop()
            index = self.choose(key)
            executor = self._executor(index)
            self.waiting[index] += 1
            self._sent[index] += 1
            try:
                return await loop.run_in_executor(executor, function, *args)
            except BrokenProcessPool:
                # The worker died (killed for memory, say): a new one for the next picture,
                # and this picture drawn here so the player still gets it.
                self._replace(index, executor)
                return await asyncio.to_thread(function, *args)
            finally:
                self.waiting[index] -= 1
                if self.waiting[index] == 0:
                    self._quiet_since[index] = time.monotonic()
        finally:
            self.in_flight -= 1

    def _watch_for_quiet_workers(self) -> None:
        """The watcher thread: every so often, a worker that has drawn nothing for
        ``idle_after`` seconds since its last picture is asked to give memory back, once per
        quiet spell. A thread, not the event loop's timers: a timer per picture would be
        thousands of callbacks on a busy loop (and held every simulated test's settling)."""
        while not self._stop_watching.wait(max(0.01, self.idle_after / 2)):
            now = time.monotonic()
            for index, executor in enumerate(self._executors):
                sent = self._sent[index]
                if (
                    executor is None
                    or self.waiting[index]
                    or self._trimmed_at[index] == sent
                    or now - self._quiet_since[index] < self.idle_after
                ):
                    continue
                self._trimmed_at[index] = sent
                try:
                    future = executor.submit(self.idle_task)
                except RuntimeError:  # shut down or broken meanwhile: nothing to trim
                    continue
                future.add_done_callback(_log_trim_failure)

    async def render(self, scene: dict, key=None) -> bytes:
        """A scene's picture; without a ``key``, scenes of one map and language go to the same
        worker."""
        if key is None:
            key = f"{scene.get('map_key')}|{scene.get('lang') or 'en'}"
        return await self.run(_render, scene, key=key)

    async def board(
        self,
        ruleset,
        state: dict,
        events: list[dict],
        viewer,
        flares=(),
        lang: str = "en",
        key=None,
    ) -> bytes:
        """The board's picture, its scene built on the worker too: the state is smaller to send
        than the scene, and building it is the bot's CPU no more. Without a ``key``, boards go
        by :func:`board_key`."""
        path = ruleset_path(ruleset)
        if key is None:
            key = board_key(path, state, lang)
        return await self.run(_board, path, state, events, viewer, tuple(flares), lang, key=key)

    def shutdown(self) -> None:
        self._stop_watching.set()
        with self._start_lock:
            executors = [e for e in self._executors if e is not None]
            self._executors = [None] * len(self._executors)
        for executor in executors:
            executor.shutdown(wait=False, cancel_futures=True)
