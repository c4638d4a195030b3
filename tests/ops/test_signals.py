"""Stop signals end a running Umpire promptly and close its database (the bot is PID 1 in the
container, where SIGTERM has no default action), and the image's bot refuses to start without
a token instead of falling back to the local table.

The bot test runs the real entry point (``bot.main``) in a child process with only the network
replaced: login opens the database and installs the cogs exactly as in production (setup_hook)
but skips Discord's REST API, and the gateway connection waits forever as a connected one would.
"Closed cleanly" is observed from outside: SQLite removes the ``-wal`` file when the last
connection closes normally, and keeps it when the process is killed (the control case).
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_NETWORK_BOT = """
import asyncio, sys
import discord
from discord import app_commands

async def login(self, token):
    self.loop = asyncio.get_running_loop()
    await self.setup_hook()            # opens the database, loads the cogs, syncs (faked below)
    print("ready", flush=True)

async def connect(self, *, reconnect=True):
    await asyncio.Event().wait()       # a gateway connection that never drops

async def sync(self, *, guild=None):
    return []

for cls in (discord.Client, discord.AutoShardedClient):   # sharded or not
    cls.login = login
    cls.connect = connect
app_commands.CommandTree.sync = sync
import bot
sys.exit(bot.main([]))
"""


def start(code: str, tmp_path: Path, *args: str, env_extra: dict | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UMPIRE_", "DISCORD_"))}
    env.update({"UMPIRE_DB": str(tmp_path / "umpire.sqlite3"), "PYTHONUNBUFFERED": "1"})
    env.update(env_extra or {})
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, *args]
    return subprocess.Popen(
        command,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_line(process, word: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        if word in line:
            return
    process.kill()
    raise AssertionError(
        f"no {word!r} from the child; it said {seen} / {process.stderr.read()[-2000:]}"
    )


def start_bot(tmp_path):
    process = start(FAKE_NETWORK_BOT, tmp_path, env_extra={"DISCORD_TOKEN": "fake-token"})
    wait_for_line(process, "ready")
    wal = tmp_path / "umpire.sqlite3-wal"
    assert wal.exists()  # the database is open (WAL mode) while the bot runs
    return process, wal


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name
)
def test_a_stop_signal_closes_the_gateway_and_the_database_within_seconds(tmp_path, signum):
    process, wal = start_bot(tmp_path)
    sent = time.monotonic()
    process.send_signal(signum)
    try:
        code = process.wait(timeout=8)
    finally:
        process.kill()
    elapsed = time.monotonic() - sent
    err = process.stderr.read()
    assert code == 0, err[-2000:]
    assert elapsed < 5, elapsed
    assert f"received {signum.name}: closing the gateway and the database" in err
    assert "Traceback" not in err
    assert not wal.exists()  # the last connection was closed normally


def test_control_a_killed_bot_leaves_its_wal_behind(tmp_path):
    process, wal = start_bot(tmp_path)
    process.kill()
    process.wait(timeout=8)
    assert wal.exists()


def test_sigterm_ends_the_local_table_and_keeps_the_game(tmp_path):
    process = start(
        "",
        tmp_path,
        str(ROOT / "bot.py"),
        "local",
        "--seed",
        "1",
        "--db",
        str(tmp_path / "table.sqlite3"),
        "--out",
        str(tmp_path / "out"),
    )
    wait_for_line(process, "Type /help")
    time.sleep(0.3)  # let it reach the prompt
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=8)
    finally:
        process.kill()
    err = process.stderr.read()
    assert code == 130, err
    assert "Interrupted; everything played so far is saved in" in err
    assert "Traceback" not in err
    assert (tmp_path / "table.sqlite3").exists()
    assert not (tmp_path / "table.sqlite3-wal").exists()


def test_without_a_token_the_image_refuses_to_start_instead_of_opening_the_table(tmp_path):
    process = start("", tmp_path, str(ROOT / "bot.py"), env_extra={"UMPIRE_REQUIRE_TOKEN": "1"})
    out, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "Cannot start: no DISCORD_TOKEN is configured" in err
    assert "local table in this terminal instead" not in out
    assert not (tmp_path / "umpire.sqlite3").exists()


def test_the_dockerfile_requires_a_token():
    assert "UMPIRE_REQUIRE_TOKEN=1" in (ROOT / "Dockerfile").read_text()


def test_a_database_that_cannot_be_opened_stops_the_bot_with_one_line(tmp_path):
    (tmp_path / "volume").write_text("a regular file where the data directory should be")
    process = start(
        FAKE_NETWORK_BOT,
        tmp_path,
        env_extra={
            "DISCORD_TOKEN": "fake-token",
            "UMPIRE_DB": str(tmp_path / "volume" / "umpire.sqlite3"),
        },
    )
    out, err = process.communicate(timeout=60)
    assert process.returncode == 1, err[-2000:]
    assert "ready" not in out
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"Cannot start: Database {tmp_path / 'volume' / 'umpire.sqlite3'}: ")
    assert "cannot be opened" in last and "Traceback" not in err


def test_a_postgresql_server_that_cannot_be_reached_stops_the_bot_with_one_line(tmp_path):
    url = f"postgresql://umpire:s3cret@/umpire?host={tmp_path}&port=1"  # nobody listens
    process = start(
        FAKE_NETWORK_BOT, tmp_path, env_extra={"DISCORD_TOKEN": "fake-token", "UMPIRE_DB": url}
    )
    out, err = process.communicate(timeout=60)
    assert process.returncode == 1, err[-2000:]
    assert "ready" not in out
    last = err.strip().splitlines()[-1]
    assert last.startswith("Cannot start: Database postgresql://umpire:***@"), last
    assert "cannot be reached" in last and "s3cret" not in err and "Traceback" not in err
