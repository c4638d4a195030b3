"""Rendering benchmark: a turn's picture against its floor, measured in the same run.

floor = copy the cached static layer as an RGB picture + encode the PNG with the picture's
settings (mapped onto the map's cached 256-colour palette, compress_level 3), no drawing. Since
kept layers are in their own colours (2026-11-23, fifth pass), the layer is turned into RGB once
before the runs, so the floor is what encoding the map as a picture costs, as before; "indexed
floor" is printed beside it: copying the kept layer and writing it as it is (no colours to map),
the least any PNG of the map could cost. picture floor = the same
for the finished picture itself (copy + encode, no drawing): on big maps a close-up of the
turn makes the picture 45-60% taller than the map layer, so this is what encoding the posted
picture costs at least. warm = render_png of a scene whose map layer and palette are cached.
cold = the first picture of a map (static layer drawn, palette chosen, counters drawn).
Pillow floor = the floor written by Pillow's PNG writer (zlib level 3), as pictures were
before renderer/png.py (2026-11-23, third pass): the floor fell with the writer.
"octree" = the floor and the warm picture as they were before the per-map palette (256
colours chosen for each picture), for comparison. Times are the median of several runs,
interleaved so machine noise hits all alike; CPU ms are this process's CPU time (what the
picture costs a worker, whatever the load), wall ms the clock.

    python bench/bench_render.py            # table
    python bench/bench_render.py --levels   # also PNG compression levels on real boards
    python bench/bench_render.py --encoders # also the PNG writers and deflates on real boards
    python bench/bench_render.py --mix      # also a worker's CPU per picture over the games
    python bench/bench_render.py --parts    # also a warm picture of the largest map by step
    python bench/bench_render.py --images   # also write the example pictures to docs/images/
    python bench/bench_render.py --record   # also write the table into docs/performance.md
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import renderer  # noqa: E402
from renderer import render as core  # noqa: E402
from tests.renderer import scenes  # noqa: E402


def skirmish_scene() -> dict:
    from engine.core.dice import fixed
    from tests.fixtures.skirmish import Skirmish

    rules = Skirmish()
    state, _ = rules.setup(rules.load_scenario("standard"), fixed([]))
    return rules.scene(state, [{"type": "moved", "from": "0103", "to": "0102"}], None)


def game_examples(seed: int = 4) -> dict[str, bytes]:
    """Each real game's public picture three quarters into an autoplayed game, with that turn's
    moves and attacks (the README and docs show these)."""
    from engine import registry
    from engine.core.game import autoplay

    pictures = {}
    for name in registry.available():
        rules = registry.get_ruleset(name)
        scenario = rules.load_scenario(rules.default_scenario)
        _, log = autoplay(rules, scenario, seed)
        frames: list = []

        def keep(index, side, action, events, state, frames=frames):
            frames.append((state, events))

        autoplay(rules, scenario, seed, on_action=keep)
        # three quarters in, or later if the map still has no units then (Pocket Tactics
        # spends its first actions building the map)
        index = len(log) * 3 // 4
        while index < len(frames) - 1 and not rules.scene(frames[index][0], [], None).get("pieces"):
            index += 1
        frames = frames[: index + 1]
        state = frames[-1][0]
        turn_events = [
            e
            for st, ev in frames
            if st.get("turn") == state.get("turn") and st.get("active") == state.get("active")
            for e in ev
        ]
        pictures[name] = renderer.render_png(rules.scene(state, turn_events, None))
    return pictures


def indexed_encode(kept) -> bytes:
    """A kept map layer written as it is: its own colours, no mapping."""
    from renderer import png

    return png.encode_indexed(kept)


def pillow_encode(img, palette) -> bytes:
    """The floor's encoding as it was before renderer/png.py: Pillow's PNG writer."""
    import io

    from PIL import Image

    out = io.BytesIO()
    img.quantize(palette=palette, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=core.PNG_COMPRESS_LEVEL
    )
    return out.getvalue()


def measure(name: str, scene: dict, runs: int = 9) -> dict:
    renderer.clear_cache()
    t0, c0 = time.perf_counter(), time.process_time()
    png = renderer.render_png(scene)
    cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    lay = renderer.layout_for(scene["grid"], None, core.footer_lines(scene))
    kept = core.STATIC.get(core.static_key(scene, lay), lambda: None)
    layer = kept.convert("RGB")
    picture = renderer.render_image(scene)
    palette = core.map_palette(scene, picture)
    times: dict[str, list[float]] = {
        k: []
        for k in (
            "warm",
            "floor",
            "picture_floor",
            "octree",
            "before",
            "warm_cpu",
            "floor_cpu",
            "picture_floor_cpu",
            "pillow_floor",
            "pillow_floor_cpu",
            "indexed_floor",
            "indexed_floor_cpu",
        )
    }

    def timed(key, work, cpu_key=None):
        t0, c0 = time.perf_counter(), time.process_time()
        work()
        times[key].append(time.perf_counter() - t0)
        if cpu_key:
            times[cpu_key].append(time.process_time() - c0)

    for _ in range(runs):
        timed("warm", lambda: renderer.render_png(scene), "warm_cpu")
        timed("floor", lambda: core.encode_png(layer.copy(), palette), "floor_cpu")
        timed(
            "picture_floor", lambda: core.encode_png(picture.copy(), palette), "picture_floor_cpu"
        )
        timed("pillow_floor", lambda: pillow_encode(layer.copy(), palette), "pillow_floor_cpu")
        timed("indexed_floor", lambda: indexed_encode(kept.copy()), "indexed_floor_cpu")
    # The old way apart: choosing colours per picture leaves the allocator in another state,
    # which made the floor measured after it about 9 ms dearer (page faults), not the picture.
    for _ in range(runs):
        timed("before", lambda: core.encode_png(renderer.render_image(scene)))
        timed("octree", lambda: core.encode_png(layer.copy()))
    m = {k: statistics.median(v) for k, v in times.items()}
    return {
        "name": name,
        "size": f"{picture.width}x{picture.height}",
        "map": f"{lay.width}x{lay.height}",
        "pieces": len(scene.get("pieces", [])),
        **m,
        "ratio": m["warm"] / m["floor"],
        "picture_ratio": m["warm"] / m["picture_floor"],
        "cpu_ratio": m["warm_cpu"] / m["floor_cpu"],
        "cold": cold,
        "cold_cpu": cold_cpu,
        "cold_ratio": cold / m["floor"],
        "cold_cpu_ratio": cold_cpu / m["floor_cpu"],
        "kib": len(png) / 1024,
    }


def game_positions(seeds=(4, 7, 11), fractions=(0.3, 0.6, 0.9), langs=("en", "de")) -> list:
    """Board scenes of every game: autoplayed with each seed, at each fraction of the game, in
    each language, with that action's events (as a bot posts them)."""
    from engine import registry
    from engine.core.game import autoplay
    from service.pictures import scene_of

    out = []
    for name in registry.available():
        rules = registry.get_ruleset(name)
        scenario = rules.load_scenario(rules.default_scenario)
        for seed in seeds:
            frames: list = []
            autoplay(
                rules,
                scenario,
                seed,
                on_action=lambda i, s, a, e, st, frames=frames: frames.append((st, e)),
            )
            for fraction in fractions:
                state, events = frames[int(len(frames) * fraction)]
                for lang in langs:
                    out.append(scene_of(rules, state, events, None, (), lang))
    return out


def mix(pictures: int = 240, seed: int = 5) -> None:
    """What a picture worker spends in a mix like a busy bot's: pictures of 90 positions of
    the five games in a seeded random order, caches as they come (many maps, so map layers
    are drawn often), CPU per picture and where it went."""
    import random

    positions = game_positions()
    rng = random.Random(seed)
    order = [rng.randrange(len(positions)) for _ in range(pictures)]
    spent = {
        "_build_static": 0.0,
        "_layer_palette": 0.0,
        "_picture_palette": 0.0,
        "encode_png": 0.0,
    }
    real = {name: getattr(core, name) for name in spent}

    def timed(name):
        def run(*args, **kwargs):
            c0 = time.process_time()
            try:
                return real[name](*args, **kwargs)
            finally:
                spent[name] += time.process_time() - c0

        return run

    renderer.clear_cache()
    for name in spent:
        setattr(core, name, timed(name))
    try:
        c0 = time.process_time()
        for i in order:
            renderer.render_png(positions[i])
        total = time.process_time() - c0
    finally:
        for name, function in real.items():
            setattr(core, name, function)
    info = renderer.cache_info()
    print(
        f"\nmix: {pictures} pictures of {len(positions)} positions: {total / pictures * 1000:.1f} ms "
        f"CPU per picture (map layers {spent['_build_static'] / pictures * 1000:.1f}, palettes "
        f"{(spent['_layer_palette'] + spent['_picture_palette']) / pictures * 1000:.1f}, encoding "
        f"{spent['encode_png'] / pictures * 1000:.1f}); map layers drawn "
        f"{info['static_builds']}, reused {info['static_hits']}"
    )


def parts(pictures: int = 30) -> None:
    """Where a warm picture of the largest map spends its CPU, step by step (each step's
    time includes the steps it calls: the close-up's own map is inside "add_close_up", and
    labels put back under leaders inside "_attack_labels")."""
    from renderer import closeup, png

    scene = scenes.large_hex_scene()
    steps = {
        core: (
            "_header",
            "_objectives",
            "_arrow",
            "_repaste_labels_under",
            "_repaste_names_under",
            "_markers",
            "_pieces",
            "_attack_labels",
            "_footer",
            "_render_close_up",
            "_build_static",
            "encode_png",
        ),
        closeup: ("plan", "add_close_up"),
        png: ("encode_indexed",),
    }
    spent = {name: 0.0 for names in steps.values() for name in names}
    real = {
        (module, name): getattr(module, name) for module, names in steps.items() for name in names
    }

    def timed(function, name):
        def run(*args, **kwargs):
            c0 = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - c0

        return run

    for _ in range(3):
        renderer.render_png(scene)
    for (module, name), function in real.items():
        setattr(module, name, timed(function, name))
    try:
        c0 = time.process_time()
        for _ in range(pictures):
            renderer.render_png(scene)
        total = time.process_time() - c0
    finally:
        for (module, name), function in real.items():
            setattr(module, name, function)
    print(
        f"\nlargest map, warm, CPU per picture by step ({pictures} pictures): {total / pictures * 1000:.1f} ms"
    )
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {name:<22} {seconds / pictures * 1000:6.2f} ms")


def compression_levels(levels=(1, 2, 3, 6, 9), runs: int = 5) -> None:
    """Each real game's picture three quarters in, and the largest example, written at each
    PNG level: time against size (Discord's limit is 10 MB; phone data is what counts)."""
    import io

    from PIL import Image

    boards = {name: Image.open(io.BytesIO(png)) for name, png in game_examples().items()}
    boards["large 40x30 hex"] = Image.open(
        io.BytesIO(renderer.render_png(scenes.large_hex_scene()))
    )
    print(f"\n{'PNG level':<24}" + "".join(f"{level:>16}" for level in levels))
    for name, board in boards.items():
        board.load()
        cells = []
        for level in levels:
            spent = []
            for _ in range(runs):
                out = io.BytesIO()
                t0 = time.process_time()
                board.save(out, format="PNG", compress_level=level)
                spent.append(time.process_time() - t0)
            cells.append(
                f"{statistics.median(spent) * 1000:6.1f} ms {len(out.getvalue()) / 1024:4.0f} KiB"
            )
        print(
            f"{name + ' ' + 'x'.join(map(str, board.size)):<24}"
            + "".join(f"{c:>16}" for c in cells)
        )


def _deflaters() -> list[tuple[str, object, int]]:
    """Each deflate candidate installed: the standard library's zlib, zlib-ng (the
    dependency), python-isal (measured, not a dependency), at the levels worth comparing."""
    import importlib
    import zlib

    found: list[tuple[str, object, int]] = [(f"zlib {level}", zlib, level) for level in (1, 3)]
    for label, module, levels in (
        ("zlib-ng", "zlib_ng.zlib_ng", (2, 3, 4)),
        ("isal", "isal.isal_zlib", (1, 2)),
    ):
        try:
            lib = importlib.import_module(module)
        except ImportError:
            continue
        found += [(f"{label} {level}", lib, level) for level in levels]
    return found


def encoders(runs: int = 3) -> None:
    """PNG writers on real boards: Pillow's (``save``, level 3, what pictures used before
    renderer/png.py) against renderer/png.py with each deflate installed. Per board: CPU ms
    of writing the 256-colour picture (rows, deflate, chunks; the quantising before it is
    the same for all) and KiB; then the sums over the mix's 90 positions (one picture each)."""
    import io

    from PIL import Image

    from renderer import png

    def pillow(indexed):
        out = io.BytesIO()
        indexed.save(out, format="PNG", compress_level=core.PNG_COMPRESS_LEVEL)
        return out.getvalue()

    candidates = [("Pillow 3", pillow)] + [
        (name, lambda indexed, lib=lib, level=level: png.encode_indexed(indexed, lib, level))
        for name, lib, level in _deflaters()
    ]

    def indexed_of(scene):
        picture = renderer.render_image(scene)
        return picture.quantize(palette=core.map_palette(scene, picture), dither=Image.Dither.NONE)

    def row(indexed) -> list[tuple[float, int]]:
        cells: dict[str, list[float]] = {name: [] for name, _ in candidates}
        sizes = {}
        for _ in range(runs):  # interleaved, best of the rounds
            for name, write in candidates:
                c0 = time.process_time()
                data = write(indexed)
                cells[name].append(time.process_time() - c0)
                sizes[name] = len(data)
        return [(min(cells[name]), sizes[name]) for name, _ in candidates]

    boards = {name: Image.open(io.BytesIO(data)) for name, data in game_examples().items()}
    boards["large 40x30 hex"] = indexed_of(scenes.large_hex_scene())
    print(f"\n{'PNG writer':<24}" + "".join(f"{name:>17}" for name, _ in candidates))
    for name, board in boards.items():
        board.load()
        print(
            f"{name + ' ' + 'x'.join(map(str, board.size)):<24}"
            + "".join(f"{t * 1000:6.1f} ms {b / 1024:4.0f} KiB" for t, b in row(board))
        )
    totals = [[0.0, 0] for _ in candidates]
    positions = game_positions()
    for scene in positions:
        for total, (t, b) in zip(totals, row(indexed_of(scene))):
            total[0] += t
            total[1] += b
    print(
        f"{f'mix, {len(positions)} positions':<24}"
        + "".join(
            f"{t / len(positions) * 1000:6.1f} ms {b / len(positions) / 1024:4.0f} KiB"
            for t, b in totals
        )
    )


def record_figures(rows: list[dict], load_before: float) -> None:
    """The table and the largest map's ratios, written into docs/performance.md."""
    import record

    big = rows[-1]
    body = "\n\n".join(
        (
            "### Pictures: warm and cold against the encode floor (`bench/bench_render.py`)",
            record.where_and_when(load_before),
            "Wall ms, the median of 9 interleaved runs (cold: the first picture of a map in the "
            "process). Floor: the map layer copied and encoded as a picture is (mapped onto its "
            "palette, written by `renderer/png.py`), no drawing; picture floor: the same for the "
            "finished picture, which a close-up of the turn makes taller than the map on big "
            "maps.",
            record.table(
                (
                    "scene",
                    "picture (map)",
                    "pieces",
                    "floor",
                    "picture floor",
                    "warm",
                    "cold",
                    "warm/floor",
                    "warm/picture floor",
                    "cold/floor",
                    "PNG",
                ),
                [
                    (
                        r["name"],
                        f"{r['size']} ({r['map']})",
                        r["pieces"],
                        f"{r['floor'] * 1000:.1f} ms",
                        f"{r['picture_floor'] * 1000:.1f} ms",
                        f"{r['warm'] * 1000:.1f} ms",
                        f"{r['cold'] * 1000:.0f} ms",
                        f"{r['ratio']:.2f}x",
                        f"{r['picture_ratio']:.2f}x",
                        f"{r['cold_ratio']:.1f}x",
                        f"{r['kib']:.0f} KiB",
                    )
                    for r in rows
                ],
            ),
            record.table(
                ("largest map", "measured", "target", "met"),
                [
                    ("warm / floor", f"{big['ratio']:.2f}x", "<= 1.2x", _within(big["ratio"], 1.2)),
                    (
                        "warm / picture floor",
                        f"{big['picture_ratio']:.2f}x",
                        "(<= 1.2x, the same target against the posted picture's floor)",
                        _within(big["picture_ratio"], 1.2),
                    ),
                    (
                        "cold / floor",
                        f"{big['cold_ratio']:.1f}x",
                        "<= 2x",
                        _within(big["cold_ratio"], 2.0),
                    ),
                ],
            ),
        )
    )
    record.record("bench_render", body)


def _within(ratio: float, limit: float) -> str:
    return "yes" if ratio <= limit else "**no**"


def main() -> None:
    cases = [
        ("skirmish 6x5 hex", skirmish_scene()),
        ("example 12x9 hex", scenes.showcase_hex_scene()),
        ("square 12x12", scenes.square_scene()),
        ("large 40x30 hex", scenes.large_hex_scene()),
    ]
    load_before = os.getloadavg()[0]
    rows = [measure(name, scene) for name, scene in cases]
    print(
        f"{'scene':<18} {'picture':>10} {'map':>10} {'pieces':>6} {'floor':>6} {'pic fl':>6} "
        f"{'octree':>6} {'warm':>6} {'oct w':>6} {'w/fl':>5} {'w/picfl':>7} {'cpu w/fl':>8} "
        f"{'cold':>6} {'c/fl':>5} {'cpu c/fl':>8} {'PNG KiB':>7}"
    )
    for r in rows:
        print(
            f"{r['name']:<18} {r['size']:>10} {r['map']:>10} {r['pieces']:>6} "
            f"{r['floor'] * 1000:>6.1f} {r['picture_floor'] * 1000:>6.1f} {r['octree'] * 1000:>6.1f} "
            f"{r['warm'] * 1000:>6.1f} {r['before'] * 1000:>6.1f} {r['ratio']:>5.2f} "
            f"{r['picture_ratio']:>7.2f} {r['cpu_ratio']:>8.2f} {r['cold'] * 1000:>6.0f} "
            f"{r['cold_ratio']:>5.1f} {r['cold_cpu_ratio']:>8.1f} {r['kib']:>7.0f}"
        )
    big = rows[-1]
    print(
        f"\n(wall ms unless marked cpu) largest map: PNG {big['kib']:.0f} KiB; warm "
        f"{big['warm'] * 1000:.0f} ms ({big['warm_cpu'] * 1000:.0f} ms CPU), floor "
        f"{big['floor'] * 1000:.0f} ms ({big['floor_cpu'] * 1000:.0f} ms CPU; with Pillow's PNG "
        f"writer {big['pillow_floor'] * 1000:.0f} ms, {big['pillow_floor_cpu'] * 1000:.0f} ms CPU; "
        f"the kept layer written as it is {big['indexed_floor'] * 1000:.0f} ms, "
        f"{big['indexed_floor_cpu'] * 1000:.0f} ms CPU), picture floor "
        f"{big['picture_floor'] * 1000:.0f} ms ({big['picture_floor_cpu'] * 1000:.0f} ms CPU): warm/floor {big['ratio']:.2f}x, warm/picture floor "
        f"{big['picture_ratio']:.2f}x (target <= 1.2x); cold {big['cold'] * 1000:.0f} ms "
        f"({big['cold_cpu'] * 1000:.0f} ms CPU), cold/floor {big['cold_ratio']:.1f}x (target <= 2x)"
    )
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    t0 = time.perf_counter()
    gif = renderer.render_animation(
        [scenes.large_hex_scene(pieces=60 + i, seed=i, map_key="bench/anim") for i in range(6)]
    )
    print(
        f"replay GIF, 6 frames of the large map: {(time.perf_counter() - t0) * 1000:.0f} ms, "
        f"{len(gif) / 1024:.0f} KiB"
    )
    if "--record" in sys.argv:
        record_figures(rows, load_before)
    if "--levels" in sys.argv:
        compression_levels()
    if "--encoders" in sys.argv:
        encoders()
    if "--mix" in sys.argv:
        mix()
    if "--parts" in sys.argv:
        parts()
    if "--images" in sys.argv:
        out = ROOT / "docs" / "images"
        out.mkdir(parents=True, exist_ok=True)
        (out / "example-skirmish.png").write_bytes(renderer.render_png(skirmish_scene()))
        (out / "example-hex.png").write_bytes(renderer.render_png(scenes.showcase_hex_scene()))
        (out / "example-square.png").write_bytes(renderer.render_png(scenes.square_scene()))
        (out / "example-large.png").write_bytes(renderer.render_png(scenes.large_hex_scene()))
        for name, picture in game_examples().items():
            (out / f"{name}.png").write_bytes(picture)
        print(f"pictures written to {out}")


if __name__ == "__main__":
    main()
