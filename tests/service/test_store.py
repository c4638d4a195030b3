"""Storage against real databases (a SQLite file and a PostgreSQL server, every test that
takes ``db_path`` runs on both): migrations, one transaction per action, nothing written for
refused actions, the version guard against concurrent writers, reads that agree."""

import asyncio
import json

import pytest

from engine.core.errors import RuleError
from engine.core.state import state_hash
from service.errors import StaleVersion, StorageError
from service.games import GameService
from service.storage import BadDatabaseSetting, open_store, parse_database, redacted
from service.store import SCHEMA_VERSION, Step, Store, VersionConflict

from .backends import dump as dump_tables
from .backends import is_postgres, query

TABLES = ("games", "actions", "snapshots", "seats", "guild_config", "clocks", "posts", "flares")


async def dump(db) -> dict:
    """Every row of every table, read through another connection."""
    return await dump_tables(db, TABLES)


async def test_new_database_is_migrated_to_the_latest_schema(db_path):
    store = await open_store(db_path)
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    if is_postgres(db_path):
        names = {
            r[0]
            for r in await query(
                db_path,
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
            )
        }
    else:
        assert (await query(db_path, "PRAGMA journal_mode"))[0][0] == "wal"
        names = {
            r[0] for r in await query(db_path, "SELECT name FROM sqlite_master WHERE type='table'")
        }
    assert set(TABLES) | {"schema_version"} <= names
    assert (await query(db_path, "SELECT COUNT(*) FROM schema_version"))[0][0] == SCHEMA_VERSION


async def test_reopening_does_not_reapply_migrations_and_keeps_data(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    game = await svc.create_game("skirmish", seed="x")
    await svc.close()
    svc = await GameService.open(db_path, clock=clock)
    assert (await svc.get_game(game.id)).seed_hash == game.seed_hash
    assert await svc.store.schema_version() == SCHEMA_VERSION
    await svc.close()


async def test_a_file_from_a_newer_program_is_refused(db_path):
    await query(
        db_path, "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)"
    )
    await query(
        db_path,
        "INSERT INTO schema_version (version, applied_at) VALUES (?, 'later')",
        (SCHEMA_VERSION + 1,),
    )
    with pytest.raises(StorageError, match="newer than this program"):
        await open_store(db_path)


async def test_each_accepted_action_writes_action_events_and_snapshot_together(svc, game, db_path):
    out = await svc.act(
        game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"}, actor="table"
    )
    rows = await dump(db_path)
    assert len(rows["actions"]) == 1
    [(events_json, action_version, action_hash)] = await query(
        db_path, "SELECT events_json, version, state_hash FROM actions"
    )
    snap = await query(
        db_path, "SELECT version, state_json, state_hash FROM snapshots ORDER BY version"
    )
    [(version,)] = await query(db_path, "SELECT version FROM games")
    assert json.loads(events_json) == out.events
    assert action_version == version == out.version == 1
    assert [s[0] for s in snap] == [0, 1]  # the latest is the cache
    assert json.loads(snap[-1][1])["units"]["r1"]["at"] == "0201"
    assert snap[-1][2] == action_hash


async def test_a_refused_action_writes_nothing(svc, game, db_path):
    before = await dump(db_path)
    with pytest.raises(RuleError, match="cannot take to:0505 now"):
        await svc.act(
            game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0505"}, actor="table"
        )
    with pytest.raises(RuleError, match="not Blue's turn"):
        await svc.act(game.id, {"type": "end-phase", "side": "blue"}, actor="table")
    assert await dump(db_path) == before


async def test_a_failure_inside_the_transaction_leaves_the_game_as_it_was(
    db_path, clock, monkeypatch
):
    svc = await GameService.open(db_path, clock=clock)
    info = await svc.create_game("skirmish", seed="x", settings={"clock": {"initial": 100}})
    await svc.start_game(info.id)
    await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")  # to fire
    before = await dump(db_path)

    def broken(game_id, clock_row):
        # A clock row the database refuses (no side): it fails after the version bump, the
        # action and the snapshot were already written in the same transaction.
        return Step("INSERT INTO clocks (game_id, side) VALUES (?, NULL)", (game_id,))

    # The clock rows are written last in the action's transaction.
    monkeypatch.setattr(Store, "_clock_step", staticmethod(broken))
    with pytest.raises(Exception, match="(?i)null"):
        await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    monkeypatch.undo()
    assert await dump(db_path) == before
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
    first, second = await open_store(db_path), await open_store(db_path)
    action = {
        "seq": 1,
        "side": "red",
        "actor": "table",
        "action_json": "{}",
        "events_json": "[]",
        "state_hash": "h",
    }
    results = await asyncio.gather(
        first.commit_change(info.id, 0, now=1.0, state_json="{}", state_hash="h", action=action),
        second.commit_change(
            info.id, 0, now=1.0, state_json="{}", state_hash="h", action={**action, "seq": 2}
        ),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["VersionConflict", "int"]
    assert len(await first.actions(info.id)) == 1
    await first.close()
    await second.close()


async def test_concurrent_acts_with_the_same_expected_version_land_once(svc, game):
    moves = [
        {"type": "move", "side": "red", "unit": "r1", "to": "0201"},
        {"type": "move", "side": "red", "unit": "r2", "to": "0202"},
    ]
    results = await asyncio.gather(
        *(svc.act(game.id, m, actor="table", expected_version=0) for m in moves),
        return_exceptions=True,
    )
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
    await b.get_game(info.id)  # b has the version-0 state cached
    await a.act(info.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"}, actor="table")
    # b re-reads the version before applying, so it builds on a's move, not on its cache.
    out = await b.act(
        info.id, {"type": "move", "side": "red", "unit": "r2", "to": "0202"}, actor="table"
    )
    assert out.version == 2 and out.game.state["units"]["r1"]["at"] == "0201"
    with pytest.raises(StaleVersion):
        await a.act(
            info.id, {"type": "end-phase", "side": "red"}, actor="table", expected_version=1
        )
    await a.close()
    await b.close()


async def test_many_games_live_in_one_file(svc):
    ids = []
    for n in range(3):
        info = await svc.create_game("skirmish", seed=f"s{n}", guild_id=7 if n else 8)
        await svc.start_game(info.id)
        ids.append(info.id)
    await svc.act(
        ids[1], {"type": "move", "side": "red", "unit": "r1", "to": "0201"}, actor="table"
    )
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
        old = await open_store(db_path)
        assert await old.schema_version() == 1
        await old.insert_game(
            {
                "ruleset": "skirmish",
                "scenario": "standard",
                "scenario_json": "{}",
                "seed": "s",
                "seed_hash": "h",
                "status": "lobby",
                "created_at": 1.0,
                "updated_at": 1.0,
            },
            "{}",
            "h",
        )
        await old.close()
    finally:
        store_module.MIGRATIONS = original
    new = await open_store(db_path)
    assert await new.schema_version() == SCHEMA_VERSION
    assert (await new.game(1))["seed"] == "s"
    assert await new.fetchall("SELECT label FROM actions") == []  # migration 2's column
    await new.close()


async def test_commits_work_even_if_nothing_is_garbage_collected(tmp_path, clock):
    """Every cursor the store opens is closed explicitly. If one were left to the garbage
    collector (event-loop harnesses can keep them alive), SQLite would refuse the next COMMIT
    with "SQL statements in progress"."""
    svc = await GameService.open(tmp_path / "umpire.sqlite3", clock=clock)
    kept = []

    class KeepingCursors:
        """The store's SQLite connection, holding on to every cursor it hands out."""

        def __init__(self, connection):
            self._connection = connection

        def execute(self, *args):
            cursor = self._connection.execute(*args)
            kept.append(cursor)
            return cursor

        def __getattr__(self, name):
            return getattr(self._connection, name)

    svc.store._db._connection = KeepingCursors(svc.store._db._connection)
    info = await svc.start_game((await svc.create_game("skirmish", seed="x")).id)
    await svc.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    await svc.undo(info.id, actor="referee:1", referee=True)
    assert len(kept) > 10
    await svc.close()


async def test_a_commit_between_reads_never_pairs_a_version_with_another_state(db_path, clock):
    """Two processes on one database: while A loads a game, B commits an action right after
    A's first read. A must return a version and the state of that same version."""
    a = await GameService.open(db_path, clock=clock)
    b = await GameService.open(db_path, clock=clock)
    try:
        info = await b.start_game((await b.create_game("skirmish", seed="x")).id)
        await b.act(
            info.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"}, actor="table"
        )
        store = a.store
        fired = []

        def after_first_read(name):
            original = getattr(store, name)

            async def read(*args, **kwargs):
                result = await original(*args, **kwargs)
                if not fired:
                    fired.append(name)
                    await b.act(
                        info.id,
                        {"type": "move", "side": "red", "unit": "r2", "to": "0202"},
                        actor="table",
                    )
                return result

            return read

        for name in (
            "game",
            "load_game",
            "game_log",
            "snapshot",
            "snapshot_at",
            "actions",
            "fetchone",
            "fetchall",
        ):
            setattr(store, name, after_first_read(name))
        seen = await a.get_game(info.id)
        assert fired, "the game was loaded without reading the store"
        logged = {r.version: r.state_hash for r in await b.history(info.id)}
        assert state_hash(seen.state) == logged[seen.version]
    finally:
        await a.close()
        await b.close()


async def test_discord_ids_need_64_bits_and_keep_them(svc):
    snowflake = 2**63 - 1  # the largest id a signed 64-bit column can hold
    info = await svc.create_game(
        "skirmish", seed="x", guild_id=snowflake, channel_id=snowflake, creator_id=snowflake
    )
    await svc.seat(info.id, "red", snowflake)
    await svc.record_post(info.id, "turn", snowflake, snowflake - 1, 0)
    again = await svc.get_game(info.id)
    assert (again.guild_id, again.channel_id, again.creator_id) == (snowflake,) * 3
    assert await svc.sides_of(info.id, snowflake) == ["red"]
    assert (await svc.post(snowflake - 1))["channel_id"] == snowflake


@pytest.mark.parametrize(
    "setting, backend, target",
    [
        ("umpire.sqlite3", "sqlite", "umpire.sqlite3"),
        ("/var/lib/umpire/u.db", "sqlite", "/var/lib/umpire/u.db"),
        ("sqlite:///relative.db", "sqlite", "relative.db"),
        ("sqlite:////var/lib/u.db", "sqlite", "/var/lib/u.db"),
        (
            "postgresql://u:secret@db:5432/umpire",
            "postgresql",
            "postgresql://u:secret@db:5432/umpire",
        ),
        ("postgres://u@db/umpire", "postgresql", "postgres://u@db/umpire"),
    ],
)
def test_the_database_setting_picks_the_backend(setting, backend, target):
    database = parse_database(setting)
    assert (database.backend, database.target) == (backend, target)


@pytest.mark.parametrize(
    "setting", ["", "   ", "mysql://u@h/db", "sqlite://relative.db", "sqlite:///"]
)
def test_a_database_setting_that_names_nothing_usable_is_explained(setting):
    with pytest.raises(BadDatabaseSetting):
        parse_database(setting)


def test_passwords_never_reach_messages():
    shown = parse_database("postgresql://umpire:s3cret@db.example:5432/umpire").display()
    assert "s3cret" not in shown and shown == "postgresql://umpire:***@db.example:5432/umpire"
    assert redacted("postgresql://umpire@db/umpire") == "postgresql://umpire@db/umpire"


def test_sqlite_sql_is_translated_for_postgresql():
    from service.storage import to_postgres

    table = to_postgres(
        "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER, "
        "x REAL, s TEXT DEFAULT 'a?b')"
    )
    assert table == (
        "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, n BIGINT, x DOUBLE PRECISION, "
        "s TEXT DEFAULT 'a?b',\n    rowid BIGSERIAL NOT NULL\n)"
    )
    assert to_postgres("ALTER TABLE t ADD COLUMN m INTEGER") == "ALTER TABLE t ADD COLUMN m BIGINT"
    assert (
        to_postgres("SELECT * FROM t WHERE n = ? AND s = '?' AND x = ?")
        == "SELECT * FROM t WHERE n = $1 AND s = '?' AND x = $2"
    )
    assert (
        to_postgres("INSERT OR IGNORE INTO seats (a, b) VALUES (?, ?)")
        == "INSERT INTO seats (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING"
    )
    # Only table definitions change their types: a value that says INTEGER stays as it is.
    assert to_postgres("SELECT 'INTEGER' AS kind") == "SELECT 'INTEGER' AS kind"


async def test_a_migration_written_for_sqlite_runs_on_both_backends(db_path, monkeypatch):
    """How another branch's migration is ported: appended in SQLite's SQL, nothing else."""
    from service import store as store_module

    migration = (
        SCHEMA_VERSION + 1,
        [
            "CREATE TABLE probe_notes (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "ALTER TABLE guild_config ADD COLUMN probe_limit INTEGER",
        ],
    )
    monkeypatch.setattr(store_module, "MIGRATIONS", [*store_module.MIGRATIONS, migration])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", migration[0])
    store = await open_store(db_path)
    try:
        assert await store.schema_version() == migration[0]
        upsert = (
            "INSERT INTO probe_notes (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )
        await store.execute(upsert, ("tree", "a"))
        await store.execute(upsert, ("tree", "b"))
        assert await store.fetchall("SELECT key, value FROM probe_notes") == [
            {"key": "tree", "value": "b"}
        ]
        await store.set_guild_config(2**62, probe_limit=2**40)
        assert (await store.guild_config(2**62))["probe_limit"] == 2**40
    finally:
        await store.close()


async def test_processes_starting_together_apply_each_migration_once(pg_url):
    """Several bot processes may start at once on one fresh PostgreSQL database."""
    stores = await asyncio.gather(*(open_store(pg_url) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
        assert await query(pg_url, "SELECT version FROM schema_version ORDER BY version") == [
            (n,) for n in range(1, SCHEMA_VERSION + 1)
        ]
    finally:
        for store in stores:
            await store.close()


async def test_the_sqlite_store_refuses_a_postgresql_url_instead_of_making_a_file(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    for url in ("postgresql://umpire@/umpire?host=/tmp", "postgres://u@db/umpire"):
        with pytest.raises(ValueError, match="open_store"):
            await Store.open(url)
    assert list(tmp_path.iterdir()) == []
