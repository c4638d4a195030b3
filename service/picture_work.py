"""What a picture worker runs: the board's scene built from the state and drawn, a scene drawn,
the allocator's free memory given back; and the worker's own loop (:func:`serve`).

A module of its own, apart from the pool (:mod:`service.pictures`): a worker imports this
module and the module of each function it is sent, and the pool's module imports asyncio,
which with ssl was 5.6 MB more in every worker, none of it used there. Nor does a worker load
multiprocessing: it is a plain child process reading pickled calls from one pipe and writing
their answers to another (see ``service.pictures._Worker``).
"""

from __future__ import annotations

import ctypes
import importlib
import os
import pickle
import signal
import struct
import traceback
from typing import Any

# Every message on a worker's pipes: its length, then a pickle of it.
HEADER = struct.Struct("!Q")


def read_message(stream) -> Any:
    """The next message on ``stream``, or raises EOFError when the other end is gone."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        raise EOFError
    (length,) = HEADER.unpack(head)
    body = stream.read(length)
    if len(body) < length:
        raise EOFError
    return pickle.loads(body)  # noqa: S301 - only the bot and its own workers write these pipes


def message(payload) -> bytes:
    """``payload`` as written on a pipe (pickled whole first: a value that cannot be pickled
    raises here, before anything half-written could break the stream)."""
    body = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


# What the pool runs to start a worker: the parent's module path first (the worker imports
# this module and whatever its calls name, as the parent finds them), then the loop.
BOOT = (
    "import os, sys\n"
    "calls = os.fdopen(int(sys.argv[1]), 'rb')\n"
    "from pickle import loads\n"
    "from struct import unpack\n"
    "sys.path[:] = loads(calls.read(unpack('!Q', calls.read(8))[0]))\n"
    "from service.picture_work import serve\n"
    "serve(calls, int(sys.argv[2]))\n"
)


def serve(calls, answers_fd: int) -> None:
    """A worker's life: for each ``(number, function, args)`` read from ``calls``, write
    ``(number, True, result)`` or ``(number, False, exception, traceback text)``. It leaves when
    ``calls`` ends: the pool shut it down, or the bot died (killed, out of memory) and the
    system closed the pipe's other end; a worker never outlives its bot."""
    # Ctrl-C in a terminal reaches the whole process group: the bot decides, the worker
    # leaves when the bot closes its pipe.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import renderer  # noqa: F401  (once per worker, not on its first picture)

    answers = os.fdopen(answers_fd, "wb")
    while True:
        try:
            number, function, args = read_message(calls)
        except EOFError:
            break
        try:
            answer = message((number, True, function(*args)))
        except Exception as exc:  # the pool raises it where the picture was asked for
            answer = _failure(number, exc)
        try:
            answers.write(answer)
            answers.flush()
        except OSError:  # BrokenPipeError: the bot is gone
            break
    os._exit(0)


def _failure(number: int, exc: Exception) -> bytes:
    text = "".join(traceback.format_exception(exc))
    try:
        return message((number, False, exc, text))
    except Exception:  # an exception that cannot cross: its words still do
        return message((number, False, RuntimeError(repr(exc)), text))


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
