"""Decoded pixels of the pictures a change must leave alone, as hashes, to compare two versions.

Each PNG is decoded and its mode, indices, palette and transparency hashed (the file's bytes
may differ: only what a player sees counts). Scenes: those of tests/renderer/scenes.py and
bench_render.py's skirmish, six random 40x30 boards, 60 positions of the five games (seeds 4
and 7, 30/60/90% in, English and German), each drawn twice in one process (so cold and warm
pictures are both compared), and the five games' example pictures.

    python bench/compare_pictures.py out.json              # from a checkout's root
    python bench/compare_pictures.py new.json --against base.json
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

import renderer  # noqa: E402
from tests.renderer import scenes  # noqa: E402


def _bench_render():
    spec = importlib.util.spec_from_file_location(
        "bench_render", ROOT / "bench" / "bench_render.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def decoded_hash(png: bytes) -> str:
    picture = Image.open(io.BytesIO(png))
    picture.load()
    seen = (
        picture.mode.encode()
        + picture.tobytes()
        + bytes(picture.getpalette() or [])
        + repr(picture.info.get("transparency")).encode()
    )
    return hashlib.sha256(seen).hexdigest()[:16]


def hashes() -> dict[str, str]:
    bench = _bench_render()
    cases = [
        ("skirmish", bench.skirmish_scene()),
        ("showcase", scenes.showcase_hex_scene()),
        ("square", scenes.square_scene()),
        ("large", scenes.large_hex_scene()),
    ]
    for i in range(6):
        cases.append(
            (f"large-{i}", scenes.large_hex_scene(pieces=50 + 9 * i, seed=i, map_key="cmp/large"))
        )
    for i, scene in enumerate(bench.game_positions(seeds=(4, 7))):
        cases.append((f"position-{i}-{scene.get('lang')}", scene))
    out = {}
    renderer.clear_cache()
    for round_ in range(2):
        for name, scene in cases:
            out[f"{round_}:{name}"] = decoded_hash(renderer.render_png(scene))
    for name, png in bench.game_examples().items():
        out[f"example:{name}"] = decoded_hash(png)
    return out


def main() -> None:
    found = hashes()
    Path(sys.argv[1]).write_text(json.dumps(found, indent=0, sort_keys=True))
    print(f"{len(found)} pictures")
    if "--against" in sys.argv:
        reference = json.loads(Path(sys.argv[sys.argv.index("--against") + 1]).read_text())
        differ = sorted(k for k in reference if reference[k] != found.get(k))
        print(f"{len(differ)} of {len(reference)} differ" + (f": {differ}" if differ else ""))
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
