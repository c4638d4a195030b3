"""A bot killed without shutting its picture pool down must not leave its workers running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The "bot": starts a pool, has a worker draw something, writes the worker's pid, then dies
# the way a killed process does (no shutdown, no atexit), or waits to be killed with -9.
BOT = textwrap.dedent(
    """
    import asyncio, os, sys
    sys.path.insert(0, {root!r})
    from service.pictures import PicturePool
    from tests.service import picture_tasks

    async def main():
        pool = PicturePool(workers=1)
        pid = await pool.run(picture_tasks.whose, key=1)
        with open({out!r}, "w") as out:
            out.write(str(pid))
        if {wait_for_kill!r}:
            await asyncio.sleep(600)
        os._exit(1)

    asyncio.run(main())
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie awaiting its new parent's wait() is gone as far as memory goes.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
@pytest.mark.parametrize("death", ["exit", "kill -9"])
def test_picture_workers_leave_when_their_bot_dies_without_shutting_them_down(tmp_path, death):
    out = tmp_path / "worker.pid"
    script = tmp_path / "bot.py"
    script.write_text(BOT.format(root=str(ROOT), out=str(out), wait_for_kill=death == "kill -9"))
    # The worker inherits no pipe of ours to hold open, so the bot's end is its own.
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not out.exists() or not out.read_text():
            assert bot.poll() is None and time.monotonic() < deadline, "the bot drew nothing"
            time.sleep(0.05)
        worker = int(out.read_text().rpartition("@")[2])
        if death == "kill -9":
            bot.kill()
        bot.wait(timeout=120)
    finally:
        if bot.poll() is None:
            bot.kill()
    try:
        deadline = time.monotonic() + 30
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), "the picture worker outlived its bot"
    finally:
        if _alive(worker):
            os.kill(worker, signal.SIGKILL)
