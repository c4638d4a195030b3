"""Stopping cleanly on SIGTERM, SIGINT and SIGHUP.

In the container the bot is PID 1, and the kernel gives PID 1 no default action for SIGTERM:
without a handler ``docker stop`` waits its 10 s and then kills the process. Here every stop
signal closes the gateway and the database (the caller's ``stop``), then the process returns
normally within a few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import TypeVar

log = logging.getLogger("umpire")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# How long closing may take before the process gives up waiting (docker stop allows 10 s).
STOP_GRACE_SECONDS = 5.0

T = TypeVar("T")


async def run_until_signalled(
    main: Awaitable[T],
    stop: Callable[[], Awaitable[object]],
    *,
    signals=STOP_SIGNALS,
    grace: float = STOP_GRACE_SECONDS,
) -> T | None:
    """Run ``main`` until it returns or a stop signal arrives. On a signal: await ``stop()``
    (at most ``grace`` seconds), then cancel ``main`` if it is still running and return None.
    Must be called in the main thread's event loop (signal handlers live there)."""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(main)
    stopping = asyncio.Event()
    received: list[int] = []

    def on_signal(signum: int) -> None:
        if received:
            log.warning("received %s again; still closing", signal.Signals(signum).name)
            return
        received.append(signum)
        stopping.set()

    installed = []
    for signum in signals:
        loop.add_signal_handler(signum, on_signal, signum)
        installed.append(signum)
    waiter = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            return task.result()
        log.info(
            "received %s: closing the gateway and the database", signal.Signals(received[0]).name
        )
        try:
            await asyncio.wait_for(stop(), grace)
        except TimeoutError:
            log.warning("closing took longer than %s s; exiting anyway", grace)
        except Exception:
            log.exception("closing failed; exiting anyway")
        if not task.done():
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        log.info("stopped")
        return None
    finally:
        waiter.cancel()
        for signum in installed:
            loop.remove_signal_handler(signum)


def settle_long_lived_objects() -> int:
    """Once a bot process is set up, its modules, classes, functions, command tree and
    translations live as long as the process: moved out of the cyclic garbage collector's
    sight (``gc.freeze``), so each full collection walks only what came later (states, views,
    commands in progress). A full collection holds the event loop while it runs: 27-34 ms
    with 1,000 games loaded before, 2-5 ms after (docs/performance.md). Objects frozen here
    are never collected, so this is done once, at the start, not by a test's many bots.
    Returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
