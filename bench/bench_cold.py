"""What drawing a new map layer and new counters costs (a picture worker's "cold" work), and
whether pictures kept their pixels. CPU time of this process; run it from the root of each tree
compared, alternately (the scenes are the same in both: bench_render.py's 90 positions of the
five games and the 40x30 example); for a tree without this script, copy it into its bench/.

    python bench/bench_cold.py layers      # every map and close-up layer the positions draw
    python bench/bench_cold.py counters    # every distinct counter sprite they draw
    python bench/bench_cold.py first       # the 40x30 example's first picture, by part
    python bench/bench_cold.py stream      # a stream of turn pictures: what its new parts cost
    python bench/bench_cold.py pixels OUT.json            # hashes of decoded pictures
    python bench/bench_cold.py compare BASE.json OUT.json # which of them differ
"""

from __future__ import annotations

import gc
import hashlib
import io
import json
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import renderer  # noqa: E402
from renderer import render as core  # noqa: E402
from renderer import sprites  # noqa: E402
from tests.renderer import scenes  # noqa: E402

POSITIONS = Path("/tmp/bench_cold_positions.pickle")  # the engine is the same in both trees


def positions() -> list:
    if POSITIONS.exists():
        return pickle.loads(POSITIONS.read_bytes())
    import bench_render

    found = bench_render.game_positions()
    POSITIONS.write_bytes(pickle.dumps(found))
    return found


def _recorded(module, name: str, scenes_: list, key=lambda args: args) -> list:
    """The distinct arguments ``module.name`` is called with while the scenes are drawn."""
    seen: dict = {}
    real = getattr(module, name)

    def record(*args):
        seen.setdefault(key(args), args)
        return real(*args)

    setattr(module, name, record)
    try:
        renderer.clear_cache()
        for scene in scenes_:
            renderer.render_image(scene)
    finally:
        setattr(module, name, real)
    return list(seen.values())


def _rounds(work, rounds: int = 3) -> list[float]:
    """CPU ms of ``work`` after an untimed first round (fonts, masks and sizes met once)."""
    out = []
    for r in range(rounds + 1):
        renderer.clear_cache()
        gc.collect()
        c0 = time.process_time()
        work()
        if r:
            out.append((time.process_time() - c0) * 1000)
    return out


def layers() -> None:
    everything = positions() + [scenes.large_hex_scene()]
    # a map layer by its key, a close-up's layer by its window's scene
    jobs = _recorded(core, "_build_static", everything, lambda a: (core.static_key(*a), id(a[0])))
    ms = _rounds(lambda: [core._build_static(scene, lay) for scene, lay in jobs])
    print(f"{len(jobs)} layers: {' '.join(f'{m:.0f}' for m in ms)} ms CPU per round")


def counters() -> None:
    everything = positions() + [scenes.large_hex_scene()]
    jobs = _recorded(sprites, "_draw_counter", everything)
    ms = _rounds(lambda: [sprites._draw_counter(*args) for args in jobs])
    print(f"{len(jobs)} counters: {' '.join(f'{m:.0f}' for m in ms)} ms CPU per round")


def first() -> None:
    """The 40x30 example drawn five times from empty caches after three small scenes: the first
    time is the first picture of the map in this process (labels' masks and sizes met once)."""
    import bench_render

    for scene in (
        bench_render.skirmish_scene(),
        scenes.showcase_hex_scene(),
        scenes.square_scene(),
    ):
        renderer.render_png(scene)
    scene = scenes.large_hex_scene()
    spent: dict = {}
    parts = (
        (core, "_build_static"),
        (sprites, "_draw_counter"),
        (sprites, "_draw_text"),
        (core, "_indexed_layer"),
        (core, "_picture_palette"),
        (core, "encode_png"),
    )
    reals = {name: getattr(module, name) for module, name in parts}

    def timed(name):
        def run(*args, **kwargs):
            c0 = time.process_time()
            try:
                return reals[name](*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - c0

        return run

    for module, name in parts:
        setattr(module, name, timed(name))
    runs = []
    try:
        for _ in range(5):
            spent.clear()
            renderer.clear_cache()
            c0 = time.process_time()
            renderer.render_png(scene)
            runs.append(((time.process_time() - c0) * 1000, dict(spent)))
    finally:
        for module, name in parts:
            setattr(module, name, reals[name])
    later = sorted(runs[1:], key=lambda run: run[0])[len(runs[1:]) // 2]
    for label, (ms, by) in (("first", runs[0]), ("median of the next four", later)):
        shown = ", ".join(f"{name} {seconds * 1000:.1f}" for name, seconds in by.items())
        print(f"40x30 picture, {label}: {ms:.0f} ms CPU ({shown})")


def stream(pictures_n: str = "300") -> None:
    """bench_workers.py's stream in this process: the boards of 12 autoplayed games of each
    game, a random game's next board each time (seeded), the first third untimed. What the
    picture's layers (map and close-up), its whole close-ups and its new counters cost."""
    import random

    import bench_workers

    try:  # where the worker's own functions live
        from service import picture_work as pictures
    except ImportError:  # a tree from before it
        from service import pictures

    games = bench_workers.positions(12, 3)
    rng, at, stream_ = random.Random(7), [0] * len(games), []
    for _ in range(int(pictures_n)):
        g = rng.randrange(len(games))
        path, lang, frames = games[g]
        state, events = frames[at[g] % len(frames)]
        at[g] += 1
        rules = pictures._ruleset(path)
        stream_.append(pictures.scene_of(rules, state, events, None, (), lang))
    spent: dict = {}

    def timed(module, name, kind=lambda *args: name):
        real = getattr(module, name)

        def run(*args):
            c0 = time.process_time()
            try:
                return real(*args)
            finally:
                entry = spent.setdefault(kind(*args), [0, 0.0])
                entry[0] += 1
                entry[1] += time.process_time() - c0

        setattr(module, name, run)
        return real

    layer_kind = lambda scene, lay: (  # noqa: E731
        "close-up layers" if scene["grid"].get("rulers") is False else "map layers"
    )
    reals = [
        (core, "_build_static", timed(core, "_build_static", layer_kind)),
        (core, "_render_close_up", timed(core, "_render_close_up", lambda *a: "whole close-ups")),
        (sprites, "_draw_counter", timed(sprites, "_draw_counter", lambda *a: "new counters")),
    ]
    try:
        renderer.clear_cache()
        warm = len(stream_) // 3
        for scene in stream_[:warm]:
            renderer.render_png(scene)
        spent.clear()
        gc.collect()
        c0 = time.process_time()
        for scene in stream_[warm:]:
            renderer.render_png(scene)
        total = time.process_time() - c0
    finally:
        for module, name, real in reals:
            setattr(module, name, real)
    import resource

    n = len(stream_) - warm
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{n} pictures: {total * 1000 / n:.1f} ms CPU each; peak RSS {peak:.0f} MB")
    for kind, (count, seconds) in sorted(spent.items()):
        print(
            f"  {kind}: {count} ({count / n:.2f} a picture), {seconds * 1000 / count:.2f} ms "
            f"each, {seconds / total:.1%} of the pictures' CPU"
        )


def pixels(out: str) -> None:
    """Hashes of the decoded PNG (indices and palette) and of the drawn picture of the examples
    and of three positions of two seeds of each game in English and German: drawn in one
    sequence with the caches as they come, and each alone after clear_cache."""
    import bench_render
    from PIL import Image

    cases = [
        ("skirmish", bench_render.skirmish_scene()),
        ("hex", scenes.showcase_hex_scene()),
        ("square", scenes.square_scene()),
        ("large", scenes.large_hex_scene()),
    ]
    cases += [(f"{name}-de", {**scene, "lang": "de"}) for name, scene in cases]
    cases += [
        (f"{scene['map_key']}-{i}-{scene.get('lang')}", scene)
        for i, scene in enumerate(bench_render.game_positions(seeds=(4, 7)))
    ]

    def decoded(png: bytes) -> str:
        image = Image.open(io.BytesIO(png))
        image.load()
        return hashlib.sha256(image.tobytes() + repr(image.getpalette()).encode()).hexdigest()

    hashes = {}
    renderer.clear_cache()
    for name, scene in cases:
        hashes["sequence:" + name] = decoded(renderer.render_png(scene))
    for name, scene in cases:
        renderer.clear_cache()
        hashes["alone:" + name] = decoded(renderer.render_png(scene))
        hashes["rgb:" + name] = hashlib.sha256(renderer.render_image(scene).tobytes()).hexdigest()
    for name, png in bench_render.game_examples().items():
        hashes["example:" + name] = decoded(png)
    Path(out).write_text(json.dumps(hashes, indent=0))
    print(f"{len(hashes)} hashes written to {out}")


def compare(base: str, new: str) -> None:
    a, b = json.loads(Path(base).read_text()), json.loads(Path(new).read_text())
    differ = [key for key in a if a[key] != b.get(key)]
    print(f"{len(a)} compared, {len(differ)} differ" + (f": {differ[:20]}" if differ else ""))


if __name__ == "__main__":
    command, *rest = sys.argv[1:] or ["layers"]
    {
        "layers": layers,
        "counters": counters,
        "first": first,
        "stream": stream,
        "pixels": pixels,
        "compare": compare,
    }[command](*rest)
