"""Picture worker processes: what they carry besides the renderer."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_picture_worker_does_not_run_the_bot_s_main_script_again(tmp_path):
    # A bot started through a script that imports everything at its top (discord.py, the
    # cogs, the service) would otherwise load all of it again in every picture worker.
    marker = tmp_path / "ran.txt"
    script = tmp_path / "main_script.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import asyncio, io, sys
            sys.path.insert(0, {str(ROOT)!r})
            with open({str(marker)!r}, "a") as f:
                f.write("top of the main script ran\\n")

            async def main():
                from PIL import Image
                from service.pictures import PicturePool
                from tests.renderer import scenes

                pool = PicturePool(workers=1)
                try:
                    png = await pool.render(scenes.showcase_hex_scene())
                finally:
                    pool.shutdown()
                print("picture", Image.open(io.BytesIO(png)).size)

            if __name__ == "__main__":
                asyncio.run(main())
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "picture (" in done.stdout
    assert marker.read_text().count("top of the main script ran") == 1


async def test_a_picture_worker_draws_a_board_without_loading_asyncio():
    # The pool's module imports asyncio (with ssl, about 6 MB); a worker imports the module of
    # each function it runs, and needs neither to build and draw a board.
    from PIL import Image

    from engine import registry
    from engine.core.game import new_game
    from service.pictures import PicturePool

    from . import picture_tasks

    rules = registry.get_ruleset("pocket-tactics")
    state, _ = new_game(rules, rules.load_scenario(rules.default_scenario), 5)
    pool = PicturePool(workers=1)
    try:
        png = await pool.board(rules, state, [], None)
        loaded = await pool.run(picture_tasks.modules_loaded, ("asyncio", "ssl", "renderer"))
    finally:
        pool.shutdown()
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert loaded == {"asyncio": False, "ssl": False, "renderer": True}
