"""What bench/bench_workers.py runs inside the picture workers: the board as the bot asks for
it (``service.pictures._board``), timed in parts, and the worker's counters on request. A
module of its own so the workers can import it by name (their ``__main__`` is not the
benchmark's)."""

from __future__ import annotations

import os
import time

SPENT = {"scene": 0.0, "picture": 0.0, "pictures": 0}
_CONFIGURED = False


def _configure(config: dict) -> None:
    """Cache sizes for this run, set in the worker before its first picture."""
    global _CONFIGURED
    if _CONFIGURED:
        return
    _CONFIGURED = True
    from renderer import render

    if config.get("static_bytes"):
        render.STATIC.max_bytes = int(config["static_bytes"])
    if config.get("close_up_bytes"):
        render.CLOSE_UPS.max_bytes = int(config["close_up_bytes"])
    if config.get("palettes"):
        render.PALETTES.limit = int(config["palettes"])
    if config.get("palette_tables") is not None and hasattr(render, "_TABLED_PALETTES"):
        render._TABLED_PALETTES.limit = int(config["palette_tables"])
    from renderer import sprites

    if config.get("sprites"):
        sprites.SPRITES.limit = int(config["sprites"])
    if config.get("sprite_bytes"):
        sprites.SPRITES.max_bytes = int(config["sprite_bytes"])


def board(config: dict, path: str, state: dict, events: list, viewer, flares, lang: str) -> bytes:
    """``service.pictures._board``, with the scene's building and the picture timed apart."""
    _configure(config)
    import renderer

    try:  # where the worker's own functions live (not importing the pool's asyncio)
        from service import picture_work as pictures
    except ImportError:  # a tree from before it
        from service import pictures

    c0 = time.process_time()
    scene = pictures.scene_of(pictures._ruleset(path), state, events, viewer, flares, lang)
    c1 = time.process_time()
    png = renderer.render_png(scene)
    c2 = time.process_time()
    SPENT["scene"] += c1 - c0
    SPENT["picture"] += c2 - c1
    SPENT["pictures"] += 1
    return png


def stats(pause: float = 0.2) -> dict:
    """This worker's counters (the pause lets a probe reach every worker of a plain pool)."""
    import renderer

    time.sleep(pause)
    info = dict(renderer.cache_info())
    from renderer import render

    info.update(SPENT)
    info["close_up_hits"] = render.CLOSE_UPS.hits
    info["palette_hits"] = render.PALETTES.hits
    info["palettes_kept"] = len(render.PALETTES)
    info["pid"] = os.getpid()
    info.update(heap())
    return info


def heap() -> dict:
    """glibc's heap of this worker (``mallinfo2``): its size and the part that is free, kept by
    the allocator for the next picture (what ``trim`` gives back). Empty elsewhere."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks "
            "keepcost".split()
        ]

    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return {}
    mallinfo2.restype = MallInfo2
    found = mallinfo2()
    return {
        "heap_mb": (found.arena + found.hblkhd) / 2**20,
        "heap_free_mb": found.fordblks / 2**20,
    }


def trim() -> int:
    """Give the C allocator's free memory back to the system (glibc's malloc_trim)."""
    import ctypes

    return ctypes.CDLL("libc.so.6").malloc_trim(0)
