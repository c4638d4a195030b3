"""What a picture worker runs: the board's scene built from the state and drawn, a scene drawn,
the allocator's free memory given back.

A module of its own, apart from the pool (:mod:`service.pictures`): a worker imports the module
of each function it is sent, and of its own process class, and the pool's module imports
asyncio, which with ssl was 5.6 MB more in every worker, none of it used there.
"""

from __future__ import annotations

import ctypes
import importlib
import multiprocessing.context
import os
import sys
import threading
import time
import types
from typing import Any

# Only one process is started at a time while the main module is hidden (see _LeanProcess).
_HIDE_MAIN = threading.Lock()


class _LeanProcess(multiprocessing.context.SpawnProcess):
    """A picture worker that does not run the parent's main script again.

    A spawned child normally imports the parent's ``__main__`` (for functions defined there):
    for a bot started through a script that imports discord.py, the cogs and the service at
    the top, that was about 26 MB more in every worker, none of it used. Workers run only
    module-level functions of this module (not of :mod:`service.pictures`, which imports
    asyncio) and import the renderer and the rulesets they are asked for, so the main module
    is hidden while the child is launched (that is when its name and path are read)."""

    @staticmethod
    def _Popen(process_obj):
        with _HIDE_MAIN:
            main = sys.modules["__main__"]
            sys.modules["__main__"] = types.ModuleType("__main__")
            try:
                return multiprocessing.context.SpawnProcess._Popen(process_obj)
            finally:
                sys.modules["__main__"] = main


class _LeanSpawnContext(multiprocessing.context.SpawnContext):
    Process = _LeanProcess


def _warm_worker(parent_pid: int | None = None) -> None:
    # Import once per worker, not on its first picture.
    import renderer  # noqa: F401

    if parent_pid is not None:
        threading.Thread(
            target=_exit_with_parent, args=(parent_pid,), name="exit-with-parent", daemon=True
        ).start()


PARENT_CHECK_EVERY = 1.0


def _exit_with_parent(parent_pid: int) -> None:
    """A worker whose bot died without shutting it down (killed, out of memory) would wait on
    its queue for ever, holding its caches; it is adopted by another process then, so its
    parent's id changes, and it leaves."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_EVERY)
    os._exit(0)


def _give_back_memory() -> bool:
    """Return the memory the C allocator keeps after freeing (glibc's ``malloc_trim``): after
    a stream of pictures a worker holds 45-70 MB that it freed, kept for the next picture.
    Giving it back costs the next picture its page faults (13-25 ms per picture when done after
    each one), so the pool asks for it only when a worker has been idle a while. False where
    the C library has no such call."""
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the C library the interpreter runs on
    except (OSError, AttributeError):
        return False
    return bool(trim(0))


def _render(scene: dict) -> bytes:
    import renderer

    return renderer.render_png(scene)


FLARE_COLOR = "#ff8c00"

# Rulesets by "module:Class", one instance per process (a worker builds scenes too).
_RULESETS: dict[str, Any] = {}


def ruleset_path(ruleset) -> str:
    """What names a ruleset across a process boundary (fixture games registered at run time
    included): its class."""
    kind = type(ruleset)
    return f"{kind.__module__}:{kind.__qualname__}"


def _ruleset(path: str):
    found = _RULESETS.get(path)
    if found is None:
        module, _, name = path.partition(":")
        found = _RULESETS[path] = getattr(importlib.import_module(module), name)()
    return found


def scene_of(ruleset, state: dict, events: list[dict], viewer, flares=(), lang: str = "en") -> dict:
    """The board's scene in the reader's language: ``events`` are those ``viewer`` may see;
    ``flares`` are cell labels to mark."""
    scene = ruleset.scene(state, events, viewer, lang=lang)
    if flares:
        scene = dict(scene)
        scene["markers"] = list(scene.get("markers") or []) + [
            {"at": str(at), "kind": "flare", "color": FLARE_COLOR} for at in flares
        ]
    return scene


def _board(path: str, state: dict, events: list[dict], viewer, flares, lang: str) -> bytes:
    import renderer

    return renderer.render_png(scene_of(_ruleset(path), state, events, viewer, flares, lang))
