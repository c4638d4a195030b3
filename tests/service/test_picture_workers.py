"""Picture worker processes: what they carry besides the renderer."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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


def _children() -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            found.update(int(pid) for pid in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def _gone(pids, seconds: float = 60.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if not any(_running(pid) for pid in pids):
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
async def test_a_pool_starts_its_workers_and_no_other_process_and_shutdown_ends_them():
    # multiprocessing started a resource tracker process beside the workers (13 MB).
    from service.pictures import PicturePool

    from . import picture_tasks

    before = _children()
    pool = PicturePool(workers=2)
    try:
        workers = {
            int((await pool.run(picture_tasks.whose, key=n)).rpartition("@")[2]) for n in (0, 1)
        }
        started = _children() - before
        loaded = await pool.run(picture_tasks.modules_loaded, ("multiprocessing",), key=0)
    finally:
        pool.shutdown()
    assert len(workers) == 2 and started == workers
    assert loaded == {"multiprocessing": False}
    assert await _gone(workers), "a picture worker outlived its pool's shutdown"


async def test_a_picture_that_fails_in_a_worker_raises_its_error_and_the_worker_carries_on():
    from service.pictures import PicturePool

    from . import picture_tasks

    pool = PicturePool(workers=1)
    try:
        worker = await pool.run(picture_tasks.whose, key=1)
        with pytest.raises(ValueError, match="no picture for turn 7") as failed:
            await pool.run(picture_tasks.fail, "turn 7", key=1)
        # where it failed, for the log
        assert "in fail" in str(failed.value.__cause__)
        # an error that cannot cross the pipe still arrives, in words
        with pytest.raises(RuntimeError, match="a lock inside"):
            await pool.run(picture_tasks.fail_unpicklably, key=1)
        assert await pool.run(picture_tasks.whose, key=1) == worker
        assert pool.in_flight == 0 and pool.waiting == [0]
    finally:
        pool.shutdown()


async def test_a_picture_given_up_by_its_command_does_not_answer_another(tmp_path):
    from service.pictures import PicturePool

    from . import picture_tasks

    gate = str(tmp_path / "go")
    pool = PicturePool(workers=1)
    try:
        first = asyncio.create_task(pool.run(picture_tasks.whose_after, gate, "first", key=1))
        given_up = asyncio.create_task(pool.run(picture_tasks.whose_after, gate, "given up", key=1))
        for _ in range(6000):
            if pool.waiting == [2]:
                break
            await asyncio.sleep(0.01)
        given_up.cancel()
        third = asyncio.create_task(pool.run(picture_tasks.whose, "third", key=1))
        Path(gate).touch()
        assert (await first).startswith("first@")
        assert (await third).startswith("third@")
        with pytest.raises(asyncio.CancelledError):
            await given_up
        assert pool.in_flight == 0 and pool.waiting == [0]
    finally:
        pool.shutdown()


def test_lean_workers_ask_glibc_for_huge_pages_only_when_asked_and_where_it_works():
    from service.pictures import (
        WORKER_DEFAULT_TUNABLES,
        WORKER_MALLOC_TUNABLES,
        worker_environment,
    )

    bot = {"PATH": "/usr/bin", "UMPIRE_DB": "games.sqlite3"}
    lean = {**bot, "UMPIRE_PICTURE_MEMORY": "lean"}
    default = {**bot, "GLIBC_TUNABLES": WORKER_DEFAULT_TUNABLES}
    # off by default (it costs a worker CPU): the default settings instead
    assert worker_environment(bot, glibc=(2, 36), huge_pages=True) == default
    assert worker_environment(
        {**bot, "UMPIRE_PICTURE_MEMORY": "default"}, glibc=(2, 36), huge_pages=True
    ) == {**default, "UMPIRE_PICTURE_MEMORY": "default"}
    asked = worker_environment(lean, glibc=(2, 36), huge_pages=True)
    assert asked == {**lean, "GLIBC_TUNABLES": WORKER_MALLOC_TUNABLES}
    # glibc before 2.35 cannot ask: a fixed threshold alone would fault every picture in
    for glibc, huge_pages in (((2, 31), True), ((2, 36), False)):
        kept = worker_environment(lean, glibc=glibc, huge_pages=huge_pages)
        assert kept["GLIBC_TUNABLES"] == WORKER_DEFAULT_TUNABLES
    # glibc before 2.26 reads no tunables; another C library has none
    for glibc in ((2, 17), None):
        assert worker_environment(lean, glibc=glibc, huge_pages=True) == lean
        assert worker_environment(bot, glibc=glibc, huge_pages=True) == bot
    # the operator's own settings are theirs
    own = {**lean, "GLIBC_TUNABLES": "glibc.malloc.arena_max=1"}
    assert worker_environment(own, glibc=(2, 36), huge_pages=True) == own
    assert bot == {"PATH": "/usr/bin", "UMPIRE_DB": "games.sqlite3"}


async def test_a_worker_draws_one_big_picture_after_another_without_faulting_its_memory_in_again(
    monkeypatch,
):
    from service.pictures import PicturePool, worker_environment

    from . import picture_tasks

    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    monkeypatch.delenv("UMPIRE_PICTURE_MEMORY", raising=False)
    if "GLIBC_TUNABLES" not in worker_environment():
        pytest.skip("this machine's C library reads no allocator settings")
    pool = PicturePool(workers=1)
    try:
        first, later = await pool.run(picture_tasks.page_faults_of_big_pictures, key=1)
    finally:
        pool.shutdown()
    # the first picture faults its layer and pictures in (about 10,000 pages); the later ones
    # reuse the same memory (with glibc's own habits: 4,000 pages faulted in again here, and in
    # a mix of maps every large picture's)
    assert first > 3000 and later < first / 10, (first, later)


def test_a_wrong_picture_memory_setting_is_refused_when_the_pool_is_made(monkeypatch):
    from service.pictures import PicturePool

    monkeypatch.setenv("UMPIRE_PICTURE_MEMORY", "tiny")
    with pytest.raises(ValueError, match="UMPIRE_PICTURE_MEMORY must be 'lean' or 'default'"):
        PicturePool(workers=1)
    PicturePool(workers=0).shutdown()  # no workers, nothing to set


def test_the_huge_page_setting_is_read_from_the_bracketed_choice(tmp_path):
    from service.pictures import _huge_pages_on_request

    setting = tmp_path / "enabled"
    for text, given in (
        ("always [madvise] never\n", True),
        ("[always] madvise never\n", True),
        ("always madvise [never]\n", False),
    ):
        setting.write_text(text)
        assert _huge_pages_on_request(str(setting)) is given
    assert _huge_pages_on_request(str(tmp_path / "missing")) is False


async def test_a_lean_worker_gives_a_big_picture_s_memory_back_as_soon_as_it_is_freed(
    monkeypatch,
):
    from service.pictures import PicturePool, worker_environment

    from . import picture_tasks

    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    monkeypatch.setenv("UMPIRE_PICTURE_MEMORY", "lean")
    tunables = worker_environment().get("GLIBC_TUNABLES")
    pool = PicturePool(workers=1)
    try:
        seen = await pool.run(picture_tasks.environment, "GLIBC_TUNABLES", key=1)
        if tunables is None or "mmap_threshold" not in tunables:
            pytest.skip("this machine's workers keep glibc's own habits")
        before, after = await pool.run(picture_tasks.rss_after_big_pictures_freed, key=1)
    finally:
        pool.shutdown()
    assert seen == tunables
    assert after - before < 8, (before, after)


async def test_a_picture_whose_arguments_cannot_cross_fails_alone():
    import threading

    from service.pictures import PicturePool

    from . import picture_tasks

    pool = PicturePool(workers=1)
    try:
        worker = await pool.run(picture_tasks.whose, key=1)
        with pytest.raises(TypeError, match="pickle"):
            await pool.run(picture_tasks.whose, threading.Lock(), key=1)
        assert await pool.run(picture_tasks.whose, key=1) == worker
        assert pool.in_flight == 0 and pool.waiting == [0]
    finally:
        pool.shutdown()
