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


def note(path: str) -> None:
    """Adds this process's id as a line to ``path`` (stands in for the idle worker's trim)."""
    with open(path, "a") as out:
        out.write(f"{os.getpid()}\n")


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def freed_then_given_back() -> tuple[float, float]:
    """RSS (MB) after freeing ~100 MB of 1 KB blocks (the last block kept, so the heap's top
    stays in use, as a worker's caches keep it), and after the pool's own trim."""
    from service.pictures import _give_back_memory

    blocks = [bytearray(1000) for _ in range(100_000)]
    last = blocks[-1]
    del blocks
    freed = _rss_mb()
    _give_back_memory()
    given_back = _rss_mb()
    del last
    return freed, given_back


def _minor_faults() -> int:
    return int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[7])


def page_faults_of_big_pictures() -> tuple[int, int]:
    """Page faults of the first picture of the largest test map (with its map layer, about 25
    MB of pictures allocated and freed) and of the three pictures after it together."""
    import renderer
    from tests.renderer import scenes

    scene = scenes.large_hex_scene()
    counts = []
    for times in (1, 3):
        before = _minor_faults()
        for _ in range(times):
            renderer.render_png(scene)
        counts.append(_minor_faults() - before)
    return counts[0], counts[1]


def modules_loaded(names: tuple[str, ...]) -> dict[str, bool]:
    """Which of ``names`` this process has imported."""
    import sys

    return {name: name in sys.modules for name in names}


def fail(label: str) -> str:
    raise ValueError(f"no picture for {label}")


class _Unpicklable(Exception):
    def __init__(self):
        super().__init__("a lock inside")
        self.lock = __import__("threading").Lock()


def fail_unpicklably() -> str:
    raise _Unpicklable()


def environment(name: str) -> str | None:
    return os.environ.get(name)


def rss_after_big_pictures_freed(megabytes: int = 24, pictures: int = 3) -> tuple[float, float]:
    """RSS (MB) before and after drawing ``pictures`` big transient buffers one after another
    and freeing each (the allocator's usual habit: keep the second and later ones)."""
    before = _rss_mb()
    for _ in range(pictures):
        buffer = bytearray(megabytes << 20)
        buffer[:: 1 << 12] = b"\x01" * len(buffer[:: 1 << 12])  # every page touched
        del buffer
    return before, _rss_mb()
