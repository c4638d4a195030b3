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
import itertools
import logging
import os
import queue
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from .errors import ServiceError
from .picture_work import (
    BOOT,
    _board,
    _give_back_memory,
    _render,
    message,
    read_message,
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


# UMPIRE_PICTURE_MEMORY=lean: a worker's biggest transient pictures (a large map's copy:
# Pillow's blocks of 16 MB) are kept apart from the heap and handed back as soon as they are
# freed, in huge pages. By default glibc keeps 40-70 MB of a busy worker's freed memory for
# the next picture. With a fixed threshold in 4 KB pages each picture faulted its memory in
# again (13-17 ms a picture); in huge pages, for blocks of 8 MB and more, measured: 24-56 MB
# less at the peak of two workers for 0.5-2.6 ms more CPU a picture (docs/performance.md,
# "Pictures, fourth pass: workers"), so it is the operator's choice, off by default. Only
# where the system gives huge pages on request and glibc (2.35 on) can ask for them (else a
# fixed threshold would fault every picture in); an operator's own GLIBC_TUNABLES stays.
MEMORY_SETTING = "UMPIRE_PICTURE_MEMORY"
WORKER_MALLOC_TUNABLES = "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=8388608"
# By default a worker's allocator keeps up to 48 MB freed at the top of its heap (a large map's
# picture and its copies: about 25 MB) and serves blocks under 32 MB from the heap. Left to
# itself, glibc gives the top back when more than twice its last mmap threshold is free:
# with map layers kept in one byte a pixel a worker's heap is small, each large picture sat on
# its top and was given back and faulted in again, picture after picture (measured: 60 times the
# page faults, 1.5 ms more CPU a picture, docs/performance.md "Pictures, fifth pass").
WORKER_DEFAULT_TUNABLES = (
    "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=50331648"
)
HUGE_PAGES_SETTING = "/sys/kernel/mm/transparent_hugepage/enabled"


def _huge_pages_on_request(setting_path: str = HUGE_PAGES_SETTING) -> bool:
    """Transparent huge pages given to memory that asks (``[always]`` or ``[madvise]``)."""
    try:
        with open(setting_path, encoding="ascii") as setting:
            chosen = setting.read().partition("[")[2].partition("]")[0]
    except OSError:
        return False
    return chosen in ("always", "madvise")


def _glibc_version() -> tuple[int, int] | None:
    try:
        name, _, version = (os.confstr("CS_GNU_LIBC_VERSION") or "").partition(" ")
        major, minor = version.split(".")[:2]
        return (int(major), int(minor)) if name == "glibc" else None
    except (AttributeError, ValueError, OSError):
        return None


_THIS_SYSTEM: Any = object()


def worker_environment(
    environ=None, glibc: Any = _THIS_SYSTEM, huge_pages: Any = _THIS_SYSTEM
) -> dict[str, str]:
    """The environment a picture worker starts with: the bot's, plus the allocator's settings
    above (the lean ones when ``UMPIRE_PICTURE_MEMORY=lean`` asks for them and they can work,
    else the default ones where glibc reads them: 2.26 on) (``glibc``: its version, None for
    another C library; ``huge_pages``: whether the system gives them on request; both read
    from this system unless given). An operator's own GLIBC_TUNABLES stay. ValueError for any
    other setting."""
    env = dict(os.environ if environ is None else environ)
    wanted = env.get(MEMORY_SETTING, "").strip().lower()
    if wanted not in ("", "default", "lean"):
        raise ValueError(
            f"{MEMORY_SETTING} must be 'lean' or 'default', not {env[MEMORY_SETTING]!r}"
        )
    if "GLIBC_TUNABLES" in env:
        return env
    glibc = _glibc_version() if glibc is _THIS_SYSTEM else glibc
    if glibc is None or glibc < (2, 26):
        return env
    if wanted == "lean":
        huge_pages = _huge_pages_on_request() if huge_pages is _THIS_SYSTEM else huge_pages
        if glibc >= (2, 35) and huge_pages:
            env["GLIBC_TUNABLES"] = WORKER_MALLOC_TUNABLES
            return env
    env["GLIBC_TUNABLES"] = WORKER_DEFAULT_TUNABLES
    return env


class WorkerDied(RuntimeError):
    """A picture worker's process ended (killed for memory, say) before it answered."""


class RemoteTraceback(Exception):
    """Where in the worker a picture failed (the ``__cause__`` of the exception raised)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class _Worker:
    """One picture worker: a plain child process (``picture_work.serve``) that reads pickled
    calls from one pipe and answers on another, in order.

    Not multiprocessing's spawn: that starts a resource tracker process next to the workers
    (13 MB) and loads its machinery into every worker. The pipes' ends are not inherited by
    any other child, so when the bot dies however it dies, the worker reads the end of its
    calls and leaves. Two threads per worker move the bytes, so a large state or PNG never
    holds the event loop."""

    def __init__(self, env: dict[str, str] | None = None):
        calls_read, calls_write = os.pipe()
        answers_read, answers_write = os.pipe()
        try:
            # Not the bot's stdin; stdout and stderr shared, as a spawned process's were.
            self.process = subprocess.Popen(  # noqa: S603 - our interpreter, our code
                [
                    sys.executable,
                    # the bot's -O, -X and warning options, as multiprocessing passes them
                    *subprocess._args_from_interpreter_flags(),  # type: ignore[attr-defined]
                    "-c",
                    BOOT,
                    str(calls_read),
                    str(answers_write),
                ],
                stdin=subprocess.DEVNULL,
                pass_fds=(calls_read, answers_write),
                env=env,
            )
        except BaseException:
            for fd in (calls_read, calls_write, answers_read, answers_write):
                os.close(fd)
            raise
        os.close(calls_read)
        os.close(answers_write)
        self._calls = os.fdopen(calls_write, "wb", buffering=0)
        self._answers = os.fdopen(answers_read, "rb")
        self._lock = threading.Lock()
        self._pending: dict[int, Future] = {}
        self._numbers = itertools.count()
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self.closed = False
        self.broken = False
        self._outbox.put((None, list(sys.path)))
        pid = self.process.pid
        threading.Thread(target=self._send, name=f"picture-worker-{pid}-calls", daemon=True).start()
        threading.Thread(
            target=self._receive, name=f"picture-worker-{pid}-answers", daemon=True
        ).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def submit(self, function: Callable, *args) -> Future:
        """``function(*args)`` in the worker; a Future of its result. A worker shut down or
        dead raises WorkerDied (a RuntimeError) at once. The call is pickled by the sending
        thread, not the caller's (the event loop)."""
        future: Future = Future()
        with self._lock:
            if self.closed or self.broken:
                raise WorkerDied("the picture worker has stopped")
            number = next(self._numbers)
            self._pending[number] = future
            self._outbox.put((number, (function, args)))
        return future

    def _send(self) -> None:
        try:
            while (item := self._outbox.get()) is not None:
                number, call = item
                if number is None:  # the module path, first
                    self._calls.write(message(call))
                    continue
                with self._lock:
                    future = self._pending.get(number)
                    if future is None or future.cancelled():
                        self._pending.pop(number, None)
                        continue  # cancelled before it was sent: never drawn
                try:
                    payload = message((number, *call))
                except Exception as exc:  # e.g. an argument that cannot be pickled
                    with self._lock:  # whoever takes it from pending answers it
                        still_ours = self._pending.pop(number, None) is future
                    if still_ours and future.set_running_or_notify_cancel():
                        future.set_exception(exc)
                    continue
                self._calls.write(payload)
        except OSError:  # the worker is gone: _receive sees its end and fails the calls
            pass
        finally:
            try:
                self._calls.close()  # the worker reads the end of its calls and leaves
            except OSError:
                pass

    def _receive(self) -> None:
        try:
            while True:
                answer = read_message(self._answers)
                with self._lock:
                    future = self._pending.pop(answer[0], None)
                if future is None or not future.set_running_or_notify_cancel():
                    continue  # cancelled while the worker drew it
                if answer[1]:
                    future.set_result(answer[2])
                else:
                    exc = answer[2]
                    exc.__cause__ = RemoteTraceback(answer[3])
                    future.set_exception(exc)
        except (EOFError, OSError):
            pass
        except Exception:  # an answer that could not be read: the stream is lost
            log.exception("picture worker %d: unreadable answer", self.pid)
        with self._lock:
            self.broken = True
            pending, self._pending = list(self._pending.values()), {}
        for future in pending:
            if future.set_running_or_notify_cancel():
                future.set_exception(WorkerDied("the picture worker's process ended"))
        self._outbox.put(None)
        self._answers.close()
        self.process.wait()  # no zombie left behind

    def shutdown(self, wait: bool = False, cancel_futures: bool = True) -> None:
        """No more calls; the worker leaves after the picture it is drawing. Calls still
        waiting are cancelled (``cancel_futures``)."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            pending = list(self._pending.values()) if cancel_futures else []
        for future in pending:
            future.cancel()
        self._outbox.put(None)
        if wait:
            self.process.wait()


class PicturePool:
    """``await pool.render(scene)`` -> PNG bytes. A worker process starts on its first picture.

    Each worker is a process with its own queue (``_Worker``), so a picture can be sent to a
    chosen worker."""

    def __init__(self, workers: int | None = None, limit: int = DEFAULT_LIMIT):
        self.workers = default_workers() if workers is None else int(workers)
        # read once, so a wrong setting is refused when the bot starts, not at a picture
        self._worker_env = worker_environment() if self.workers > 0 else None
        self.limit = int(limit)
        self.in_flight = 0
        # pictures sent to each worker and not yet back (waiting or being drawn)
        self.waiting = [0] * max(0, self.workers)
        self._executors: list[_Worker | None] = [None] * max(0, self.workers)
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

    def _executor(self, index: int) -> _Worker:
        with self._start_lock:
            executor = self._executors[index]
            if executor is None:
                # A new process, not a fork: the bot process has database and executor
                # threads that a forked child must not inherit half-locked.
                executor = self._executors[index] = _Worker(self._worker_env)
                if self._watcher is None and not self._stop_watching.is_set():
                    self._watcher = threading.Thread(
                        target=self._watch_for_quiet_workers,
                        name="picture-workers-idle-watch",
                        daemon=True,
                    )
                    self._watcher.start()
            return executor

    def _replace(self, index: int, broken: _Worker) -> None:
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
            index = self.choose(key)
            executor = self._executor(index)
            self.waiting[index] += 1
            self._sent[index] += 1
            try:
                return await asyncio.wrap_future(executor.submit(function, *args))
            except WorkerDied:
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
