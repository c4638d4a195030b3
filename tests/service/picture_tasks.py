"""Module-level stand-ins for pictures, run by picture workers in tests: they name the process
that ran them, wait for the test's signal, or end their worker process."""

from __future__ import annotations

import os
import time
from pathlib import Path


def whose(label: str = "") -> str:
    return f"{label}@{os.getpid()}"


def whose_after(gate: str, label: str = "") -> str:
    """Like ``whose``, once the file ``gate`` exists (the test's signal), at most 60 s."""
    give_up = time.monotonic() + 60
    while not Path(gate).exists() and time.monotonic() < give_up:
        time.sleep(0.01)
    return whose(label)


def die_in_a_worker(bot_pid: int, gate: str) -> str:
    """Ends the worker process it runs in once ``gate`` exists; in the bot's own process (where
    the pool draws a picture whose worker died) it answers instead."""
    if os.getpid() == bot_pid:
        return whose("drawn by the bot")
    whose_after(gate)
    os._exit(3)
