"""Storage against a real SQLite file: migrations, one transaction per action, nothing written
for refused actions, the version guard against concurrent writers."""
import asyncio
import json
import sqlite3

import pytest

from engine.core.errors import RuleError
from service.errors import StaleVersion, StorageError
from service.games import GameService
from service.store import SCHEMA_VERSION, Store, VersionConflict

TABLES = ("games", "actions", "snapshots", "seats", "guild_config", "clocks", "posts",
          "flares")


def dump(path) -> dict:
    """Every row of every table, read with the plain sqlite3 module (another connection)."""
    with sqlite3.connect(path) as db:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


async def test_new_file_is_migrated_to_the_latest_schema_in_wal_mode(db_path):
    store = await Store.open(db_path)
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert set(TABLES) | {"schema_version"} <= names
        assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == SCHEMA_VERSION


async def test_reopening_does_not_reapply_migrations_and_keeps_data(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    game = await svc.create_game("skirmish", seed="x")
    await svc.close()
    svc = await GameService.open(db_path, clock=clock)
    assert (await svc.get_game(game.id)).seed_hash == game.seed_hash
    assert await svc.store.schema_version() == SCHEMA_VERSION
    await svc.close()


async def test_a_file_from_a_newer_program_is_refused(db_path):
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)")
        db.execute("INSERT INTO schema_version VALUES (?, 'later')", (SCHEMA_VERSION + 1,))
    with pytest.raises(StorageError, match="newer than this program"):
        await Store.open(db_path)


async def test_each_accepted_action_writes_action_events_and_snapshot_together(svc, game, db_path):
    out = await svc.act(game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"},
                        actor="table")
    rows = dump(db_path)
    assert len(rows["actions"]) == 1
    with sqlite3.connect(db_path) as db:
        db.row_factory = sqlite3.Row
        action = db.execute("SELECT * FROM actions").fetchone()
        snap = db.execute("SELECT * FROM snapshots ORDER BY version").fetchall()
        version = db.execute("SELECT version FROM games").fetchone()[0]
    assert json.loads(action["events_json"]) == out.events
    assert action["version"] == version == out.version == 1
    assert [s["version"] for s in snap] == [0, 1]      # the latest is the cache
    assert json.loads(snap[-1]["state_json"])["units"]["r1"]["at"] == "0201"
    assert snap[-1]["state_hash"] == action["state_hash"]


async def test_a_refused_action_writes_nothing(svc, game, db_path):
    before = dump(db_path)
    with pytest.raises(RuleError, match="not legal"):
        await svc.act(game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0505"},
                      actor="table")
    with pytest.raises(RuleError, match="not Blue's turn"):
        await svc.act(game.id, {"type": "end-phase", "side": "blue"}, actor="table")
    assert dump(db_path) == before


async def test_a_failure_inside_the_transaction_leaves_the_game_as_it_was(db_path, clock,
                                                                        monkeypatch):
    svc = await GameService.open(db_path, clock=clock)
    info = await svc.create_game("skirmish", seed="x", settings={"clock": {"initial": 100}})
    await svc.start_game(info.id)
    await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")   # to fire
    before = dump(db_path)

    async def broken(db, game_id, clock_row):
        raise OSError("disk full")
    # The clock rows are written last in the action's transaction.
    monkeypatch.setattr(Store, "_put_clock", staticmethod(broken))
    with pytest.raises(OSError):
        await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    monkeypatch.undo()
    assert dump(db_path) == before
    await svc.close()
    svc = await GameService.open(db_path, clock=clock)
    again = await svc.get_game(info.id)
    assert again.version == 1 and again.state["phase"] == "fire" and again.awaiting == ["red"]
    await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    await svc.close()


async def test_the_version_guard_lets_only_one_of_two_connections_land(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    info = await svc.create_game("skirmish", seed="x")
    await svc.start_game(info.id)
    await svc.close()
    first, second = await Store.open(db_path), await Store.open(db_path)
    action = {"seq": 1, "side": "red", "actor": "table", "action_json": "{}",
              "events_json": "[]", "state_hash": "h"}
    results = await asyncio.gather(
        first.commit_change(info.id, 0, now=1.0, state_json="{}", state_hash="h", action=action),
        second.commit_change(info.id, 0, now=1.0, state_json="{}", state_hash="h",
                             action={**action, "seq": 2}),
        return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["VersionConflict", "int"]
    assert len(await first.actions(info.id)) == 1
    await first.close()
    await second.close()


async def test_concurrent_acts_with_the_same_expected_version_land_once(svc, game):
    moves = [{"type": "move", "side": "red", "unit": "r1", "to": "0201"},
             {"type": "move", "side": "red", "unit": "r2", "to": "0202"}]
    results = await asyncio.gather(
        *(svc.act(game.id, m, actor="table", expected_version=0) for m in moves),
        return_exceptions=True)
    landed = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(landed) == 1 and len(refused) == 1
    assert isinstance(refused[0], StaleVersion)
    assert "out of date" in str(refused[0])
    assert len(await svc.history(game.id)) == 1


async def test_two_services_on_one_file_cannot_both_apply_on_the_same_state(db_path, clock):
    a = await GameService.open(db_path, clock=clock)
    info = await a.create_game("skirmish", seed="x")
    await a.start_game(info.id)
    b = await GameService.open(db_path, clock=clock)
    await b.get_game(info.id)       # b has the version-0 state cached
    await a.act(info.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"},
                actor="table")
    # b re-reads the version before applying, so it builds on a's move, not on its cache.
    out = await b.act(info.id, {"type": "move", "side": "red", "unit": "r2", "to": "0202"},
                      actor="table")
    assert out.version == 2 and out.game.state["units"]["r1"]["at"] == "0201"
    with pytest.raises(StaleVersion):
        await a.act(info.id, {"type": "end-phase", "side": "red"}, actor="table",
                    expected_version=1)
    await a.close()
    await b.close()


async def test_many_games_live_in_one_file(svc):
    ids = []
    for n in range(3):
        info = await svc.create_game("skirmish", seed=f"s{n}", guild_id=7 if n else 8)
        await svc.start_game(info.id)
        ids.append(info.id)
    await svc.act(ids[1], {"type": "move", "side": "red", "unit": "r1", "to": "0201"},
                  actor="table")
    assert [(await svc.get_game(i)).version for i in ids] == [0, 1, 0]
    assert [g.id for g in await svc.list_games(guild_id=7)] == ids[1:]
    assert [g.id for g in await svc.list_games(status="active")] == ids


async def test_version_conflict_names_both_versions():
    err = VersionConflict(3, 4, 5)
    assert "expected version 4" in str(err) and "found 5" in str(err)


async def test_a_file_at_schema_1_is_upgraded_in_place_and_keeps_its_games(db_path):
    from service import store as store_module
    first = [m for m in store_module.MIGRATIONS if m[0] == 1]
    original = store_module.MIGRATIONS
    store_module.MIGRATIONS = first
    try:
        old = await Store.open(db_path)
        assert await old.schema_version() == 1
        await old.insert_game({"ruleset": "skirmish", "scenario": "standard",
                               "scenario_json": "{}", "seed": "s", "seed_hash": "h",
                               "status": "lobby", "created_at": 1.0, "updated_at": 1.0},
                              "{}", "h")
        await old.close()
    finally:
        store_module.MIGRATIONS = original
    new = await Store.open(db_path)
    assert await new.schema_version() == SCHEMA_VERSION
    assert (await new.game(1))["seed"] == "s"
    columns = {r["name"] for r in await new.fetchall("PRAGMA table_info(actions)")}
    assert "label" in columns
    await new.close()


async def test_commits_work_even_if_nothing_is_garbage_collected(db_path, clock, monkeypatch):
    """Every cursor the store opens is closed explicitly. If one were left to the garbage
    collector (event-loop harnesses can keep them alive), SQLite would refuse the next COMMIT
    with "SQL statements in progress"."""
    import aiosqlite
    kept = []
    original = aiosqlite.Connection.execute

    async def keep_alive(self, sql, parameters=None):
        cursor = await original(self, sql, parameters)
        kept.append(cursor)
        return cursor
    monkeypatch.setattr(aiosqlite.Connection, "execute",
                        lambda self, sql, parameters=None: _ContextAwaitable(
                            keep_alive(self, sql, parameters)))
    svc = await GameService.open(db_path, clock=clock)
    info = await svc.start_game((await svc.create_game("skirmish", seed="x")).id)
    await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    await svc.undo(info.id, actor="referee:1", referee=True)
    assert len(kept) > 10
    await svc.close()


class _ContextAwaitable:
    """Like aiosqlite's execute() result: awaitable and usable with ``async with``."""

    def __init__(self, coro):
        self._coro = coro
        self._cursor = None

    def __await__(self):
        return self._coro.__await__()

    async def __aenter__(self):
        self._cursor = await self._coro
        return self._cursor

    async def __aexit__(self, *exc):
        await self._cursor.close()
