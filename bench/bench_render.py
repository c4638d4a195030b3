"""Rendering benchmark: a turn's picture against its floor, measured in the same run.

floor = copy the cached static layer + encode the PNG with the picture's settings (mapped onto
the map's cached 256-colour palette, compress_level 3), no drawing. warm = render_png of a
scene whose map layer and palette are cached. cold = the first picture of a map (static layer
drawn and palette chosen too). "octree" = the floor and the warm picture as they were before
the per-map palette (256 colours chosen for each picture), for comparison. Times are the median of several runs,
interleaved so machine noise hits all alike.

    python bench/bench_render.py            # table
    python bench/bench_render.py --images   # also write the example pictures to docs/images/
"""

from __future__ import annotations

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


def measure(name: str, scene: dict, runs: int = 9) -> dict:
    renderer.clear_cache()
    t0 = time.perf_counter()
    png = renderer.render_png(scene)
    cold = time.perf_counter() - t0
    lay = renderer.layout_for(scene["grid"], None, core.footer_lines(scene))
    layer = core.STATIC.get(core.static_key(scene, lay), lambda: None)
    picture = renderer.render_image(scene)
    palette = core.map_palette(scene, picture)
    warm, floor, octree, before = [], [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        renderer.render_png(scene)
        warm.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        core.encode_png(renderer.render_image(scene))
        before.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        core.encode_png(layer.copy(), palette)
        floor.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        core.encode_png(layer.copy())
        octree.append(time.perf_counter() - t0)
    w, f = statistics.median(warm), statistics.median(floor)
    return {
        "name": name,
        "size": f"{lay.width}x{lay.height}",
        "pieces": len(scene.get("pieces", [])),
        "floor": f,
        "octree": statistics.median(octree),
        "before": statistics.median(before),
        "warm": w,
        "ratio": w / f,
        "cold": cold,
        "cold_ratio": cold / f,
        "kib": len(png) / 1024,
    }


def main() -> None:
    cases = [
        ("skirmish 6x5 hex", skirmish_scene()),
        ("example 12x9 hex", scenes.showcase_hex_scene()),
        ("square 12x12", scenes.square_scene()),
        ("large 40x30 hex", scenes.large_hex_scene()),
    ]
    rows = [measure(name, scene) for name, scene in cases]
    print(
        f"{'scene':<18} {'picture':>10} {'pieces':>6} {'floor ms':>9} {'octree ms':>9} {'warm ms':>8} "
        f"{'octree warm':>11} {'warm/floor':>10} {'cold ms':>8} {'cold/floor':>10} {'PNG KiB':>8}"
    )
    for r in rows:
        print(
            f"{r['name']:<18} {r['size']:>10} {r['pieces']:>6} {r['floor'] * 1000:>9.1f} "
            f"{r['octree'] * 1000:>9.1f} {r['warm'] * 1000:>8.1f} {r['before'] * 1000:>11.1f} "
            f"{r['ratio']:>10.2f} {r['cold'] * 1000:>8.1f} {r['cold_ratio']:>10.2f} {r['kib']:>8.0f}"
        )
    big = rows[-1]
    print(
        f"\nlargest map PNG: {big['kib']:.0f} KiB (target < 400 KiB); "
        f"warm/floor {big['ratio']:.2f}x (target <= 1.2x), cold/floor {big['cold_ratio']:.2f}x "
        "(target <= 2x)"
    )
    t0 = time.perf_counter()
    gif = renderer.render_animation(
        [scenes.large_hex_scene(pieces=60 + i, seed=i, map_key="bench/anim") for i in range(6)]
    )
    print(
        f"replay GIF, 6 frames of the large map: {(time.perf_counter() - t0) * 1000:.0f} ms, "
        f"{len(gif) / 1024:.0f} KiB"
    )
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
