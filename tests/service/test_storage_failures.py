"""Storage failures against real SQLite files: each one becomes a StorageError whose one line
names the file, the problem and what to do; nothing committed is touched and the service keeps
working once the cause is gone.

What each test proves, honestly: tests may run as root, where file modes do not stop writes,
so "read-only" is produced by SQLite itself (``mode=ro`` and ``PRAGMA query_only``), which
returns the same SQLITE_READONLY a read-only file or mount gives. "Disk full" is SQLite's
SQLITE_FULL from ``PRAGMA max_page_count``, the code a full disk returns. The lock is a real
second connection holding the write lock; the corrupt file is random bytes. On PostgreSQL (a
real throwaway server), "read-only" is the server's own read-only session setting, and a lost
connection is the server ending the bot's session in the middle of a transaction.
"""

import asyncio
import io
import os
import sqlite3

import pytest

from service import table
from service.errors import StorageError
from service.games import GameService
from service.store import Store

TABLES = ("games", "actions", "snapshots", "seats", "clocks")
MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}


def dump(path) -> dict:
    with sqlite3.connect(path) as db:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


async def started_game(svc):
    info = await svc.create_game("skirmish", seed="s")
    return await svc.start_game(info.id)


def one_line(error: StorageError, path, *words):
    text = str(error)
    assert "\n" not in text and str(path) in text and "Traceback" not in text
    for word in words:
        assert word in text, text


async def test_a_database_whose_directory_is_a_regular_file_is_refused_at_open(tmp_path):
    (tmp_path / "plain").write_text("not a directory")
    path = tmp_path / "plain" / "umpire.sqlite3"
    with pytest.raises(StorageError) as caught:
        await GameService.open(path)
    one_line(caught.value, path, "cannot be opened", "UMPIRE_DB")


async def test_random_bytes_are_not_a_database_and_are_left_as_they_are(tmp_path):
    path = tmp_path / "umpire.sqlite3"
    garbage = os.urandom(64 * 1024)
    path.write_bytes(garbage)
    with pytest.raises(StorageError) as caught:
        await GameService.open(path)
    one_line(caught.value, path, "not a database", "backup")
    assert path.read_bytes() == garbage


async def test_a_damaged_page_is_reported_as_damage(tmp_path, clock):
    path = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(path, clock=clock)
    await started_game(svc)
    await svc.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    data[page:] = os.urandom(len(data) - page)  # keep the header, scramble every table
    path.write_bytes(bytes(data))
    with pytest.raises(StorageError) as caught:
        svc = await GameService.open(path, clock=clock)
        await svc.get_game(1)
    one_line(caught.value, path)
    assert ("damaged" in str(caught.value)) or ("not a database" in str(caught.value))


async def test_a_write_lock_held_by_another_program_fails_cleanly_and_writes_nothing(
    tmp_path, clock
):
    path = tmp_path / "umpire.sqlite3"
    svc = GameService(await Store.open(path, busy_timeout_ms=200), clock=clock)
    try:
        game = await started_game(svc)
        before = dump(path)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StorageError) as caught:
                await svc.act(game.id, MOVE, actor="table")
            one_line(caught.value, path, "another program holds a lock", "Stop the other")
            assert (await svc.get_game(game.id)).version == game.version
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert dump(path) == before
        out = await svc.act(game.id, MOVE, actor="table")  # the lock is gone: it works
        assert out.version == game.version + 1
    finally:
        await svc.close()


async def test_a_full_disk_rolls_the_action_back_and_the_service_recovers(tmp_path, clock):
    path = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(path, clock=clock)
    try:
        game = await started_game(svc)
        pages = (await svc.store.fetchone("PRAGMA page_count"))["page_count"]
        await svc.store.fetchone(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StorageError) as caught:
            for _ in range(200):  # a snapshot or an index page more soon does not fit
                side = game.awaiting[0]
                action = (await svc.legal_actions(game.id, side))[-1]
                await svc.act(game.id, {**action, "side": side}, actor="table")
                game = await svc.get_game(game.id)
        one_line(caught.value, path, "disk is full", "Free space")
        kept = dump(path)
        assert len(kept["actions"]) == game.version >= 1  # the failed one left no trace
        assert (await svc.get_game(game.id)).version == game.version
        await svc.store.fetchone(f"PRAGMA max_page_count = {pages * 100}")
        awaiting = (await svc.get_game(game.id)).awaiting[0]
        out = await svc.act(game.id, {"type": "end-phase", "side": awaiting}, actor="table")
        assert out.version == game.version + 1
    finally:
        await svc.close()


async def test_a_read_only_database_refuses_writes_cleanly(tmp_path, clock):
    path = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(path, clock=clock)
    game = await started_game(svc)
    await svc.close()
    before = dump(path)
    svc = GameService(await Store.open(path, read_only=True), clock=clock)
    try:
        assert (await svc.get_game(game.id)).version == 0  # reading works
        with pytest.raises(StorageError) as caught:
            await svc.act(game.id, MOVE, actor="table")
        one_line(caught.value, path, "read-only", "write the file and its directory")
    finally:
        await svc.close()
    assert dump(path) == before


async def test_query_only_on_the_bots_own_connection_gives_the_same_clean_refusal(tmp_path, clock):
    path = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(path, clock=clock)
    try:
        game = await started_game(svc)
        before = dump(path)
        await svc.store.fetchone("PRAGMA query_only = ON")
        with pytest.raises(StorageError, match="read-only"):
            await svc.act(game.id, MOVE, actor="table")
        assert dump(path) == before
        await svc.store.fetchone("PRAGMA query_only = OFF")
        assert (await svc.act(game.id, MOVE, actor="table")).version == 1
    finally:
        await svc.close()


def test_the_local_table_says_what_is_wrong_with_its_database_in_one_line(tmp_path):
    (tmp_path / "plain").write_text("x")
    err = io.StringIO()
    code = table.main(
        ["--game", "skirmish", "--autoplay", "--db", str(tmp_path / "plain" / "t.db")],
        stdout=io.StringIO(),
        stderr=err,
    )
    assert code == 2
    last = err.getvalue().strip().splitlines()[-1]
    assert last.startswith("Cannot start: Database ") and "cannot be opened" in last
    assert "Traceback" not in err.getvalue()


async def test_a_storage_failure_at_the_table_is_one_clear_refusal_and_the_table_goes_on(
    tmp_path, clock
):
    path = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(path, clock=clock)
    try:
        game = await started_game(svc)
        at_table = table.Table(svc, game.id, None, io.StringIO(), io.StringIO())
        await at_table.setup()
        await svc.store.fetchone("PRAGMA query_only = ON")
        refused = await at_table.execute("red /move unit:r1 to:0201")
        assert not refused["ok"] and refused["version"] == 0
        assert refused["error"].startswith(f"Database {path}: it is read-only")
        assert "\n" not in refused["error"]
        await svc.store.fetchone("PRAGMA query_only = OFF")
        assert (await at_table.execute("red /move unit:r1 to:0201"))["ok"]
    finally:
        await svc.close()


# ----- PostgreSQL: the same one-line StorageError, from a real server ---------------------------


async def _pg_started_game(url, clock):
    svc = await GameService.open(url, clock=clock)
    try:
        return await started_game(svc)
    finally:
        await svc.close()


async def test_postgres_refusing_writes_is_one_clean_line_and_changes_nothing(pg_url, clock):
    from service.storage import open_store, redacted
    from tests.service.backends import query

    game = await _pg_started_game(pg_url, clock)
    before = await query(pg_url, "SELECT version FROM games")
    # The read-only session setting is what a standby server or a read-only database gives.
    svc = GameService(await open_store(pg_url, read_only=True), clock=clock)
    try:
        assert (await svc.get_game(game.id)).version == 0  # reading works
        with pytest.raises(StorageError) as caught:
            await svc.act(game.id, MOVE, actor="table")
        one_line(caught.value, redacted(pg_url), "read-only", "primary server")
    finally:
        await svc.close()
    assert await query(pg_url, "SELECT version FROM games") == before


async def test_a_lost_postgres_connection_is_one_clean_line_and_the_service_recovers(pg_url, clock):
    from service.storage import redacted
    from tests.service.backends import query

    svc = await GameService.open(pg_url, clock=clock)
    try:
        game = await started_game(svc)
        # The server ends the bot's session in the middle of a transaction (as a restart or a
        # network cut would).
        with pytest.raises(StorageError) as caught:
            async with svc.store.transaction() as db:
                await query(
                    pg_url,
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()",
                )
                await asyncio.sleep(0.2)
                await db.execute("UPDATE games SET version = 7 WHERE id = ?", (game.id,))
        one_line(caught.value, redacted(pg_url), "cannot be reached", "closed it")
        assert (await svc.get_game(game.id)).version == 0
        # The pool opens a new session by itself: the next request works.
        assert (await svc.act(game.id, MOVE, actor="table")).version == 1
    finally:
        await svc.close()
