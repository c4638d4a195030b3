"""SQLite storage for many games in one file (aiosqlite, WAL, ordered migrations).

The store knows tables, not rules. Its one promise that matters: an accepted action, its
events, the new snapshot, the game's version bump and its clock changes land in ONE
transaction, guarded by ``UPDATE games SET version = version + 1 WHERE id = ? AND version = ?``;
if that guard matches no row another writer got there first and nothing is written
(:class:`VersionConflict`). See ``docs/storage.md``.

All statements on the shared (writing) connection go through one :class:`asyncio.Lock`, so a
coroutine can never read another coroutine's half-finished transaction on the same connection.
A file database also has a second, read-only connection for plain SELECTs and read
transactions: with WAL it reads the last committed state while a write (and its fsync) is
under way, and it sees every commit this process has finished. A statement is one visit to a
connection's thread and a write (``Store.write``) is one visit from BEGIN IMMEDIATE to COMMIT.
Other processes are kept apart by SQLite itself (``BEGIN IMMEDIATE`` + ``busy_timeout``).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from .errors import StorageError
from .sqlite_errors import storage_errors as _storage_errors

# Ordered and append-only: a released migration is never edited, a change is a new entry.
MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """CREATE TABLE games (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            ruleset       TEXT NOT NULL,
            scenario      TEXT NOT NULL,
            scenario_json TEXT NOT NULL,
            seed          TEXT NOT NULL,
            seed_hash     TEXT NOT NULL,
            status        TEXT NOT NULL
                          CHECK (status IN ('lobby', 'active', 'paused', 'finished')),
            version       INTEGER NOT NULL DEFAULT 0,
            setup_events  TEXT NOT NULL DEFAULT '[]',
            guild_id      INTEGER,
            channel_id    INTEGER,
            thread_id     INTEGER,
            creator_id    INTEGER,
            settings_json TEXT NOT NULL DEFAULT '{}',
            result_json   TEXT,
            flag          TEXT,
            created_at    REAL NOT NULL,
            updated_at    REAL NOT NULL
        )""",
            "CREATE INDEX games_thread ON games (thread_id)",
            "CREATE INDEX games_guild ON games (guild_id, status)",
            """CREATE TABLE actions (
            game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq            INTEGER NOT NULL,
            version        INTEGER NOT NULL,
            side           TEXT NOT NULL,
            actor          TEXT NOT NULL,
            action_json    TEXT NOT NULL,
            events_json    TEXT NOT NULL,
            dice_json      TEXT NOT NULL DEFAULT '[]',
            dice_source    TEXT NOT NULL DEFAULT 'seed',
            state_hash     TEXT NOT NULL,
            turn           INTEGER,
            phase          TEXT,
            active         TEXT,
            live           INTEGER NOT NULL DEFAULT 1,
            undone_by      TEXT,
            undone_at      REAL,
            undone_version INTEGER,
            created_at     REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
            """CREATE TABLE snapshots (
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version    INTEGER NOT NULL,
            state_json TEXT NOT NULL,
            state_hash TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, version)
        )""",
            """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            side    TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            PRIMARY KEY (game_id, side, user_id)
        )""",
            """CREATE TABLE guild_config (
            guild_id        INTEGER PRIMARY KEY,
            referee_role_id INTEGER,
            locale          TEXT
        )""",
            """CREATE TABLE clocks (
            game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            side             TEXT NOT NULL,
            remaining        REAL,
            started_at       REAL,
            last_reminder_at REAL,
            PRIMARY KEY (game_id, side)
        )""",
            """CREATE TABLE posts (
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind       TEXT NOT NULL,
            channel_id INTEGER,
            message_id INTEGER NOT NULL UNIQUE,
            version    INTEGER NOT NULL,
            created_at REAL NOT NULL
        )""",
            "CREATE INDEX posts_game ON posts (game_id, kind)",
        ],
    ),
    # The human line for an action, written with the state it was played on (unit names and
    # positions as they were then), so logs and summaries need no replay.
    (2, ["ALTER TABLE actions ADD COLUMN label TEXT"]),
    # /flare marks, kept with the game so a restart between the flare and the next turn post
    # does not lose them.
    (
        3,
        [
            """CREATE TABLE flares (
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            label      TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, label)
        )"""
        ],
    ),
    # Small facts about the deployment rather than a game, e.g. the hash of the command tree
    # last pushed to Discord per target, so a restart with the same tree does not sync again.
    (
        4,
        [
            """CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )"""
        ],
    ),
    # Caps on open games per member and per server (/umpire config); NULL: the default.
    (
        5,
        [
            "ALTER TABLE guild_config ADD COLUMN max_open_per_user INTEGER",
            "ALTER TABLE guild_config ADD COLUMN max_open_per_guild INTEGER",
        ],
    ),
    # The board at turn N reads one turn's actions and the live action a checkpoint follows:
    # without these, each read walked every action of the game (30,000 actions: 3x the time
    # of 300).
    (
        6,
        [
            "CREATE INDEX actions_turn ON actions (game_id, turn, seq)",
            "CREATE INDEX actions_version ON actions (game_id, version)",
        ],
    ),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]
# Recent versions' states are kept so an undo (the state at the undone action's version - 1)
# rarely needs a replay; older ones are deleted in the same transaction.
SNAPSHOTS_KEPT = 16
# Every CHECKPOINT_EVERY-th version's state is kept for good (a checkpoint), so the board at
# turn N replays at most that many actions from the nearest one instead of the whole log.
CHECKPOINT_EVERY = 100


class VersionConflict(Exception):
    """The guarded version bump matched no row: another writer changed the game first."""

    def __init__(self, game_id: int, expected: int, current: int | None):
        self.game_id, self.expected, self.current = game_id, expected, current
        super().__init__(f"game {game_id}: expected version {expected}, found {current}")


def _connect_target(path: str, read_only: bool) -> tuple[str, bool]:
    """What to pass to ``connect`` (and whether it is a URI); creates the directory of a new
    writable file. A few file-system calls at open time, before any game is served."""
    if read_only:
        if not Path(path).is_file():
            raise StorageError(
                path, "there is no such file", "Check the path; a read-only open never creates one."
            )
        return f"file:{quote(str(Path(path).resolve()))}?mode=ro", True
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    return path, False


async def _enable_wal(db: aiosqlite.Connection, attempts: int = 100) -> None:
    """WAL mode is a property of the file, set once. Switching to it needs a moment alone with
    the file, and SQLite answers "locked" at once (no busy wait) when several processes open a
    new database together, so the switch is retried briefly."""
    for attempt in range(attempts):
        async with db.execute("PRAGMA journal_mode") as cursor:
            row = await cursor.fetchone()
        if row is not None and str(row[0]).lower() == "wal":
            return
        try:
            await _run(db, "PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == attempts - 1:
                raise
            await asyncio.sleep(0.02)


def _dict(row) -> dict | None:
    """A row as a dict. PostgreSQL tables carry a ``rowid`` column standing in for SQLite's
    implicit one (see ``service.storage.to_postgres``); it is not data and is left out."""
    if row is None:
        return None
    return _dicts([row])[0]


def _dicts(rows) -> list[dict]:
    return [{key: row[key] for key in row.keys() if key != "rowid"} for row in rows]


# The game row, its snapshot at the row's version and the state hash of its last live action,
# in one statement, so all three come from the same committed state (two statements could pair
# version v with the snapshot of v+1 committed in between by another process).
_LOAD_GAME = (
    "SELECT g.*, s.version AS snapshot_version, s.state_json AS snapshot_state_json, "
    "s.state_hash AS snapshot_state_hash, s.created_at AS snapshot_created_at, "
    "(SELECT a.state_hash FROM actions a WHERE a.game_id = g.id AND a.live = 1 "
    "ORDER BY a.seq DESC LIMIT 1) AS last_live_hash "
    "FROM games g LEFT JOIN snapshots s ON s.game_id = g.id AND s.version = g.version "
    "WHERE g.id = ?"
)


def _split_loaded(row: dict | None) -> tuple[dict | None, dict | None, str | None]:
    if row is None:
        return None, None, None
    snapshot = {
        key[len("snapshot_") :]: row.pop(key) for key in list(row) if key.startswith("snapshot_")
    }
    live_hash = row.pop("last_live_hash")
    if snapshot["version"] is None:
        return row, None, live_hash
    snapshot["game_id"] = row["id"]
    return row, snapshot, live_hash


@dataclass(frozen=True)
class _Done:
    rowcount: int
    lastrowid: int | None


def _one_statement(db: aiosqlite.Connection, sql: str, params: tuple, fetch: str):
    """Runs on the connection's thread: the statement, its rows and the closing of its cursor
    in one visit. Every visit is a hand-over between the event loop and that thread (a queue,
    a wake-up, the GIL), which under load cost more than the statements themselves."""
    cursor = db._conn.execute(sql, params)
    try:
        if fetch == "one":
            rows = cursor.fetchone()
        elif cursor.description is not None:
            # Drained even when nobody reads the rows: an unfinished statement (a PRAGMA's
            # answer) would make SQLite refuse the next COMMIT ("SQL statements in progress").
            rows = cursor.fetchall()
        else:
            rows = None
        return rows, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


async def _statement(db: aiosqlite.Connection, sql: str, params: Iterable[Any], fetch: str):
    """``(rows, rowcount, lastrowid)`` of one statement, in one visit to the database thread
    (aiosqlite's own ``execute`` + ``fetch`` + ``close`` are three)."""
    return await db._execute(_one_statement, db, sql, tuple(params), fetch)


async def _run(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> _Done:
    """Execute one statement; its cursor is closed before this returns."""
    _, rowcount, lastrowid = await _statement(db, sql, params, "all")
    return _Done(rowcount, lastrowid)


@dataclass(frozen=True)
class Step:
    """One statement of a write (:meth:`Store.write`). ``must_change``: it has to change
    exactly one row, else the whole write is undone and :class:`StepMissed` raised."""

    sql: str
    params: tuple = ()
    must_change: bool = False


class StepMissed(Exception):
    """A ``must_change`` step of a write changed no row (or several); nothing was written."""

    def __init__(self, index: int):
        self.index = index
        super().__init__(f"write step {index} changed no single row")


def _write_steps(db: aiosqlite.Connection, steps: list[Step]) -> list[_Done]:
    """Runs on the connection's thread: one whole transaction, from BEGIN IMMEDIATE to the
    durable COMMIT, in a single visit (a write of six statements was eighteen visits)."""
    conn = db._conn
    conn.execute("BEGIN IMMEDIATE").close()
    try:
        done = []
        for index, step in enumerate(steps):
            cursor = conn.execute(step.sql, step.params)
            try:
                if cursor.description is not None:
                    cursor.fetchall()
                if step.must_change and cursor.rowcount != 1:
                    raise StepMissed(index)
                done.append(_Done(cursor.rowcount, cursor.lastrowid))
            finally:
                cursor.close()
        conn.execute("COMMIT").close()
        return done
    except BaseException:
        # SQLite may have rolled back on its own (a full disk); a failing rollback must not
        # hide the error that caused it.
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK").close()
            except sqlite3.Error:
                pass
        raise


# Reminder claims per UPDATE statement: 4 parameters each, far below SQLite's and asyncpg's
# limits on parameters.
CLAIMS_PER_STATEMENT = 200


class _Transaction:
    """What ``Store.transaction()`` yields: statements whose cursors are always closed."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> _Done:
        return await _run(self._db, sql, params)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()):
        return (await _statement(self._db, sql, params, "one"))[0]

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list:
        return list((await _statement(self._db, sql, params, "all"))[0] or ())


class Store:
    """One SQLite file, opened once per process. Use :meth:`open`, then :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: str):
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        # A second connection (its own thread) for plain reads of a file database: with WAL a
        # reader never waits for a writer, so a command's reads no longer queue behind other
        # commands' durable COMMITs (an fsync each, milliseconds). Each read is one statement
        # that starts after every COMMIT this process has finished, so it sees them all.
        self._reader: aiosqlite.Connection | None = None
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 10_000,
        read_only: bool = False,
    ) -> Store:
        """Open (creating if needed) and migrate. ``synchronous="FULL"`` makes every commit
        durable across power loss; ``NORMAL`` (the local table) still survives a killed process.

        ``read_only=True`` (verify, backup) opens an existing file with SQLite's ``mode=ro``:
        nothing is created, migrated or written, and a file of another schema version is
        refused rather than upgraded. Failures raise :class:`StorageError`."""
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        path = str(path)
        if path.lower().startswith(("postgresql:", "postgres:")):
            # A URL here is a caller's mistake (use service.storage.open_store); as a path it
            # would become a SQLite file named like the URL.
            raise ValueError(
                "Store.open opens SQLite files; open a PostgreSQL URL with "
                "service.storage.open_store"
            )
        with _storage_errors(path):
            target, uri = _connect_target(path, read_only)
            # isolation_level=None: we write BEGIN/COMMIT ourselves, nothing is implicit.
            db = await aiosqlite.connect(target, isolation_level=None, uri=uri)
        db.row_factory = aiosqlite.Row
        store = cls(db, path)
        try:
            with _storage_errors(path):
                await _run(db, f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                if read_only:
                    await store._check_readable_schema()
                else:
                    await _enable_wal(db)
                    await _run(db, f"PRAGMA synchronous = {synchronous}")
                    await _run(db, "PRAGMA foreign_keys = ON")
                    await store.migrate()
                    if path != ":memory:":  # a second connection would see another database
                        await store._open_reader(target, busy_timeout_ms)
        except BaseException:
            await store.close()
            raise
        return store

    async def _open_reader(self, target: str, busy_timeout_ms: int) -> None:
        reader = await aiosqlite.connect(target, isolation_level=None)
        reader.row_factory = aiosqlite.Row
        try:
            await _run(reader, f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await _run(reader, "PRAGMA query_only = ON")  # a write sent here is a bug: refused
        except BaseException:
            await reader.close()
            raise
        self._reader = reader

    async def _check_readable_schema(self) -> None:
        current = await self.schema_version()
        if current == 0:
            raise StorageError(
                self.path, "it is not an Umpire database (no schema version)", "Check the path."
            )
        if current != SCHEMA_VERSION:
            newer = current > SCHEMA_VERSION
            raise StorageError(
                self.path,
                f"it has schema version {current}, this program reads {SCHEMA_VERSION}",
                "Upgrade Umpire."
                if newer
                else "Let the bot (or the local table) open it once to upgrade it, or use the "
                "Umpire version that wrote it; a read-only open never changes the file.",
            )

    async def close(self) -> None:
        if self._reader is not None:
            async with self._read_lock:
                await self._reader.close()
        async with self._lock:
            await self._db.close()

    def _for(self, sql: str) -> tuple[aiosqlite.Connection, asyncio.Lock]:
        """The connection (and its lock) for one statement outside a transaction: a SELECT
        goes to the reader, anything else (a PRAGMA, a write) to the writer."""
        if self._reader is not None and sql.lstrip()[:6].upper() == "SELECT":
            return self._reader, self._read_lock
        return self._db, self._lock

    # ----- low level ---------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self):
        """``async with store.transaction() as db:`` — all or nothing, writers serialised."""
        async with self._lock:
            with _storage_errors(self.path):
                await _run(self._db, "BEGIN IMMEDIATE")
            try:
                with _storage_errors(self.path):
                    yield _Transaction(self._db)
                    await _run(self._db, "COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        """Roll back after a failure. SQLite may already have rolled back on its own (a full
        disk, an I/O error), and a rollback that fails must not hide the error that caused it;
        what matters is that the shared connection is out of the transaction."""
        if not self._db.in_transaction:
            return
        try:
            await _run(self._db, "ROLLBACK")
        except sqlite3.Error:
            pass

    @asynccontextmanager
    async def reading(self):
        """``async with store.reading() as db:`` — several reads that all see one committed
        state (a deferred transaction holds WAL's read snapshot from its first read)."""
        db, lock = (self._reader, self._read_lock) if self._reader else (self._db, self._lock)
        async with lock:
            await _run(db, "BEGIN")
            try:
                yield _Transaction(db)
            finally:
                await _run(db, "COMMIT")

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[dict]:
        db, lock = self._for(sql)
        async with lock:
            with _storage_errors(self.path):
                return _dicts((await _statement(db, sql, params, "all"))[0] or ())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> dict | None:
        db, lock = self._for(sql)
        async with lock:
            with _storage_errors(self.path):
                return _dict((await _statement(db, sql, params, "one"))[0])

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One statement in its own transaction; returns the number of rows changed."""
        return (await self.write([Step(sql, tuple(params))]))[0].rowcount

    async def write(self, steps: list[Step]) -> list[_Done]:
        """Several statements in one transaction, all or nothing, made durable before this
        returns; SQLite runs all of it in one visit to the database thread."""
        async with self._lock:
            with _storage_errors(self.path):
                return await self._db._execute(_write_steps, self._db, list(steps))

    # ----- migrations --------------------------------------------------------------------
    async def schema_version(self) -> int:
        row = await self.fetchone(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        )
        if row is None:
            return 0
        row = await self.fetchone("SELECT MAX(version) AS v FROM schema_version")
        return int(row["v"] or 0) if row else 0

    async def migrate(self) -> int:
        """Apply every migration newer than the file, each in its own transaction."""
        async with self.transaction() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL "
                "DEFAULT CURRENT_TIMESTAMP)"
            )
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(
                self.path,
                f"it has schema version {current}, newer than this program ({SCHEMA_VERSION})",
                "Upgrade Umpire.",
            )
        for number, statements in MIGRATIONS:
            if number <= current:
                continue
            async with self.transaction() as db:
                # Another process opening the same database at the same moment may have
                # applied it meanwhile; the write lock is ours now, so this answer holds.
                row = await db.fetchone("SELECT MAX(version) FROM schema_version")
                if row[0] is not None and row[0] >= number:
                    continue
                for statement in statements:
                    await db.execute(statement)
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        return await self.schema_version()

    # ----- games -------------------------------------------------------------------------
    async def insert_game(self, fields: dict, state_json: str, state_hash: str) -> int:
        """A new game row and its version-0 snapshot, together."""
        columns = ", ".join(fields)
        marks = ", ".join("?" for _ in fields)
        async with self.transaction() as db:
            cursor = await db.execute(
                f"INSERT INTO games ({columns}) VALUES ({marks})", tuple(fields.values())
            )
            game_id = cursor.lastrowid
            await db.execute(
                "INSERT INTO snapshots (game_id, version, state_json, state_hash, "
                "created_at) VALUES (?, 0, ?, ?, ?)",
                (game_id, state_json, state_hash, fields["created_at"]),
            )
        return game_id

    async def game(self, game_id: int) -> dict | None:
        return await self.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))

    async def load_game(self, game_id: int) -> tuple[dict | None, dict | None, str | None]:
        """``(game row, snapshot at the row's version or None, state hash of the last live
        action or None)``, read together in one statement."""
        return _split_loaded(await self.fetchone(_LOAD_GAME, (game_id,)))

    async def game_log(self, game_id: int) -> tuple[dict | None, list[dict], dict | None]:
        """``(game row, every action in seq order, latest snapshot)`` from one read
        transaction, so an audit never compares a log with a snapshot written after it."""
        async with self.reading() as db:
            row = _dict(await db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,)))
            actions = _dicts(
                await db.fetchall(
                    "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
                )
            )
            snapshot = _dict(
                await db.fetchone(
                    "SELECT * FROM snapshots WHERE game_id = ? ORDER BY version DESC LIMIT 1",
                    (game_id,),
                )
            )
        return row, actions, snapshot

    async def games(
        self, guild_id: int | None = None, status: str | None = None, thread_id: int | None = None
    ) -> list[dict]:
        where, params = [], []
        for column, value in (("guild_id", guild_id), ("status", status), ("thread_id", thread_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        sql = "SELECT * FROM games" + (" WHERE " + " AND ".join(where) if where else "")
        return await self.fetchall(sql + " ORDER BY id", params)

    async def game_in_thread(self, thread_id: int) -> tuple[dict | None, list[dict]]:
        """The newest game in a thread and its seats (side, user_id, as ``seats``) from one
        statement: a command and an autocomplete look for both, and each statement is a
        trip to the database's thread and a wait behind other commands' statements."""
        rows = await self.fetchall(
            "SELECT g.*, s.side AS seat_side, s.user_id AS seat_user FROM games g "
            "LEFT JOIN seats s ON s.game_id = g.id "
            "WHERE g.id = (SELECT MAX(id) FROM games WHERE thread_id = ?) ORDER BY s.rowid",
            (thread_id,),
        )
        if not rows:
            return None, []
        game = {k: v for k, v in rows[0].items() if k not in ("seat_side", "seat_user")}
        seats = [
            {"side": r["seat_side"], "user_id": r["seat_user"]}
            for r in rows
            if r["seat_side"] is not None
        ]
        return game, seats

    async def count_open_games(
        self,
        statuses: tuple[str, ...],
        *,
        guild_id: int | None = None,
        creator_id: int | None = None,
    ) -> int:
        marks = ", ".join("?" for _ in statuses)
        where: list[str] = [f"status IN ({marks})"]
        params: list[Any] = list(statuses)
        for column, value in (("guild_id", guild_id), ("creator_id", creator_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        row = await self.fetchone(
            "SELECT COUNT(*) AS n FROM games WHERE " + " AND ".join(where), params
        )
        return int(row["n"]) if row else 0

    async def update_game(self, game_id: int, **fields) -> None:
        """Fields that are not game state (thread, status of a pause, flag, settings)."""
        sets = ", ".join(f"{k} = ?" for k in fields)
        await self.execute(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))

    # ----- the log -----------------------------------------------------------------------
    async def commit_change(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: float,
        state_json: str,
        state_hash: str,
        game_fields: dict | None = None,
        action: dict | None = None,
        undo_seq: int | None = None,
        undone_by: str | None = None,
        clocks: list[dict] | None = None,
    ) -> int:
        """Write one change of game state atomically and return the new version.

        ``action``: a new action row (without ``game_id``/``version``); ``undo_seq``: the
        action taken back. Either way: version bump (guarded), snapshot replaced, game fields
        and clock rows written. Raises :class:`VersionConflict` and writes nothing if the game
        is no longer at ``expected_version``.
        """
        new_version = expected_version + 1
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        for key, value in (game_fields or {}).items():
            sets.append(f"{key} = ?")
            params.append(value)
        steps = [
            Step(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game_id, expected_version),
                must_change=True,
            )
        ]
        if action is not None:
            row = {**action, "game_id": game_id, "version": new_version, "created_at": now}
            columns = ", ".join(row)
            steps.append(
                Step(
                    f"INSERT INTO actions ({columns}) VALUES ({', '.join('?' for _ in row)})",
                    tuple(row.values()),
                )
            )
        undo_step = None
        if undo_seq is not None:
            undo_step = len(steps)
            steps.append(
                Step(
                    "UPDATE actions SET live = 0, undone_by = ?, undone_at = ?, "
                    "undone_version = ? WHERE game_id = ? AND seq = ? AND live = 1",
                    (undone_by, now, new_version, game_id, undo_seq),
                    must_change=True,
                )
            )
        steps.append(
            Step(
                "DELETE FROM snapshots WHERE game_id = ? AND version <= ? "
                "AND (version % ? <> 0 OR version = 0)",
                (game_id, new_version - SNAPSHOTS_KEPT, CHECKPOINT_EVERY),
            )
        )
        steps.append(
            Step(
                "INSERT INTO snapshots (game_id, version, state_json, state_hash, "
                "created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, new_version, state_json, state_hash, now),
            )
        )
        steps += [self._clock_step(game_id, clock) for clock in clocks or ()]
        try:
            await self.write(steps)
        except StepMissed as missed:
            if missed.index == undo_step:
                raise VersionConflict(game_id, expected_version, None) from None
            current = await self.fetchone("SELECT version FROM games WHERE id = ?", (game_id,))
            raise VersionConflict(
                game_id, expected_version, current["version"] if current else None
            ) from None
        return new_version

    async def actions(self, game_id: int, include_undone: bool = True) -> list[dict]:
        sql = "SELECT * FROM actions WHERE game_id = ?"
        if not include_undone:
            sql += " AND live = 1"
        return await self.fetchall(sql + " ORDER BY seq", (game_id,))

    # The tails of a log: each walks the (game_id, seq) key backwards from the newest action
    # and stops, so its cost follows what it returns, not the game's length.
    async def last_live_actions(self, game_id: int, count: int) -> list[dict]:
        """The newest ``count`` live actions, oldest first."""
        rows = await self.fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND live = 1 ORDER BY seq DESC LIMIT ?",
            (game_id, int(count)),
        )
        return rows[::-1]

    async def live_actions_after(self, game_id: int, seq: int) -> list[dict]:
        return await self.fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND live = 1 AND seq > ? ORDER BY seq",
            (game_id, int(seq)),
        )

    async def live_actions_since_side(self, game_id: int, side: str) -> list[dict]:
        """The live actions after ``side``'s newest live one (all of them if it has none), in
        one statement: "what changed since you last acted" is one read per command."""
        return await self.fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND live = 1 AND seq > COALESCE(("
            "SELECT seq FROM actions WHERE game_id = ? AND live = 1 AND side = ? "
            "ORDER BY seq DESC LIMIT 1), 0) ORDER BY seq",
            (game_id, game_id, side),
        )

    async def last_live_seq_of(self, game_id: int, side: str) -> int:
        """The newest live action of ``side`` (0: none yet)."""
        row = await self.fetchone(
            "SELECT seq FROM actions WHERE game_id = ? AND live = 1 "
            "AND side = ? ORDER BY seq DESC LIMIT 1",
            (game_id, side),
        )
        return int(row["seq"]) if row else 0

    async def last_turn_actions(self, game_id: int) -> list[dict]:
        """The live actions of the newest player-turn: the trailing run with the same
        ``turn`` and ``active`` as the newest live action."""
        last = await self.last_live_actions(game_id, 1)
        if not last:
            return []
        turn, active = last[0]["turn"], last[0]["active"]
        before = await self.fetchone(
            "SELECT seq FROM actions WHERE game_id = ? AND live = 1 AND "
            "(COALESCE(turn, -1) <> ? OR COALESCE(active, '') <> ?) "
            "ORDER BY seq DESC LIMIT 1",
            (game_id, -1 if turn is None else int(turn), active or ""),
        )
        return await self.live_actions_after(game_id, int(before["seq"]) if before else 0)

    async def live_actions_of_turn(self, game_id: int, turn: int) -> list[dict]:
        return await self.fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND live = 1 AND turn = ? ORDER BY seq",
            (game_id, int(turn)),
        )

    async def live_turns(self, game_id: int) -> list[int]:
        rows = await self.fetchall(
            "SELECT DISTINCT turn FROM actions WHERE game_id = ? "
            "AND live = 1 AND turn IS NOT NULL ORDER BY turn",
            (game_id,),
        )
        return [int(r["turn"]) for r in rows]

    async def live_actions_between(self, game_id: int, after_seq: int, upto_seq: int) -> list[dict]:
        return await self.fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND live = 1 "
            "AND seq > ? AND seq <= ? ORDER BY seq",
            (game_id, int(after_seq), int(upto_seq)),
        )

    async def live_action_index(self, game_id: int) -> list[tuple[int, int | None, int]]:
        """(seq, turn, version) of every live action, oldest first: three numbers an action,
        what a replay plans its frames by without holding the actions themselves."""
        rows = await self.fetchall(
            "SELECT seq, turn, version FROM actions WHERE game_id = ? AND live = 1 ORDER BY seq",
            (game_id,),
        )
        return [(int(r["seq"]), r["turn"], int(r["version"])) for r in rows]

    async def actions_live_at(
        self, game_id: int, version: int, after_seq: int, upto_seq: int
    ) -> list[dict]:
        """The actions with ``after_seq < seq <= upto_seq`` that were live when the game was at
        ``version`` or later (live now, or taken back after it), oldest first. An action's row
        never changes but for being taken back, so a reader that noted which actions were live
        when it started finds them all again, and few more."""
        return await self.fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? AND seq <= ? "
            "AND (live = 1 OR undone_version > ?) ORDER BY seq",
            (game_id, int(after_seq), int(upto_seq), int(version)),
        )

    async def newest_live_action_upto(self, game_id: int, version: int) -> dict | None:
        """The newest live action taken at or before ``version``."""
        return await self.fetchone(
            # each action has a version of its own, growing with its seq: newest by version is
            # newest by seq, and the (game_id, version) index finds it without walking the
            # newer actions
            "SELECT * FROM actions WHERE game_id = ? AND live = 1 "
            "AND version <= ? ORDER BY version DESC LIMIT 1",
            (game_id, int(version)),
        )

    async def checkpoints_upto(self, game_id: int, version: int, count: int = 3) -> list[dict]:
        """The newest ``count`` kept states at or before ``version``, newest first."""
        return await self.fetchall(
            "SELECT * FROM snapshots WHERE game_id = ? AND version <= ? "
            "ORDER BY version DESC LIMIT ?",
            (game_id, int(version), int(count)),
        )

    async def max_seq(self, game_id: int) -> int:
        row = await self.fetchone("SELECT MAX(seq) AS m FROM actions WHERE game_id = ?", (game_id,))
        return int(row["m"] or 0) if row else 0

    async def snapshot(self, game_id: int) -> dict | None:
        return await self.fetchone(
            "SELECT * FROM snapshots WHERE game_id = ? ORDER BY version DESC LIMIT 1", (game_id,)
        )

    async def snapshot_at(self, game_id: int, version: int) -> dict | None:
        return await self.fetchone(
            "SELECT * FROM snapshots WHERE game_id = ? AND version = ?", (game_id, version)
        )

    async def repair_snapshot(
        self, game_id: int, version: int, state_json: str, state_hash: str, now: float
    ) -> None:
        """Replace the cache after a replay, only if the game is still at ``version``."""
        async with self.transaction() as db:
            row = await db.fetchone("SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None or row[0] != version:
                return
            await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            await db.execute(
                "INSERT INTO snapshots (game_id, version, state_json, state_hash, "
                "created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, state_json, state_hash, now),
            )

    # ----- seats -------------------------------------------------------------------------
    async def seat(self, game_id: int, side: str, user_id: int) -> None:
        await self.execute(
            "INSERT OR IGNORE INTO seats (game_id, side, user_id) VALUES (?, ?, ?)",
            (game_id, side, user_id),
        )

    async def unseat(self, game_id: int, user_id: int) -> int:
        return await self.execute(
            "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )

    async def games_by_ids(self, ids: list[int]) -> list[dict]:
        if not ids:
            return []
        return await self.fetchall(
            "SELECT * FROM games WHERE id IN (" + ", ".join("?" for _ in ids) + ")",
            [int(i) for i in ids],
        )

    async def seats_of_games(self, ids: list[int]) -> list[dict]:
        """Every seat of these games, each game's in the order :meth:`seats` gives."""
        if not ids:
            return []
        return await self.fetchall(
            "SELECT game_id, side, user_id FROM seats WHERE game_id IN ("
            + ", ".join("?" for _ in ids)
            + ") ORDER BY game_id, rowid",
            [int(i) for i in ids],
        )

    async def seats(self, game_id: int) -> list[dict]:
        return await self.fetchall(
            "SELECT side, user_id FROM seats WHERE game_id = ? ORDER BY rowid", (game_id,)
        )

    # ----- guild config ------------------------------------------------------------------
    async def set_guild_config(self, guild_id: int, **fields) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR IGNORE INTO guild_config (guild_id) VALUES (?)", (guild_id,)
            )
            for key, value in fields.items():
                await db.execute(
                    f"UPDATE guild_config SET {key} = ? WHERE guild_id = ?", (value, guild_id)
                )

    async def guild_config(self, guild_id: int) -> dict | None:
        return await self.fetchone("SELECT * FROM guild_config WHERE guild_id = ?", (guild_id,))

    # ----- clocks ------------------------------------------------------------------------
    @staticmethod
    def _clock_step(game_id: int, clock: dict) -> Step:
        return Step(
            "INSERT INTO clocks (game_id, side, remaining, started_at, last_reminder_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, side) DO UPDATE SET "
            "remaining = excluded.remaining, started_at = excluded.started_at, "
            "last_reminder_at = excluded.last_reminder_at",
            (
                game_id,
                clock["side"],
                clock.get("remaining"),
                clock.get("started_at"),
                clock.get("last_reminder_at"),
            ),
        )

    async def put_clocks(
        self, game_id: int, clocks: list[dict], game_fields: dict | None = None
    ) -> None:
        steps = [self._clock_step(game_id, clock) for clock in clocks]
        if game_fields:
            sets = ", ".join(f"{k} = ?" for k in game_fields)
            steps.append(
                Step(f"UPDATE games SET {sets} WHERE id = ?", (*game_fields.values(), game_id))
            )
        await self.write(steps)

    async def clocks(self, game_id: int) -> list[dict]:
        return await self.fetchall(
            "SELECT * FROM clocks WHERE game_id = ? ORDER BY rowid", (game_id,)
        )

    async def running_clocks(self) -> list[dict]:
        """Clocks that are ticking in games that are being played."""
        return await self.fetchall(
            "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id "
            "WHERE games.status = 'active' AND clocks.started_at IS NOT NULL "
            "ORDER BY clocks.game_id, clocks.rowid"
        )

    async def clocks_to_check(
        self, shard_ids: Iterable[int] | None = None, shard_count: int | None = None
    ) -> list[dict]:
        """Every running clock of an active game, with the columns of its game the reminder
        and timeout passes need (``ruleset``, ``guild_id``, ``channel_id``, ``thread_id``,
        ``settings_json``, ``version``), in ONE query however many games there are.

        With ``shard_ids``/``shard_count`` only games whose server's shard
        (``(guild_id >> 22) % shard_count``, Discord's formula; no server means shard 0) is in
        ``shard_ids``: a process checks only the games it answers for.
        """
        sql = (
            "SELECT clocks.game_id, clocks.side, clocks.remaining, clocks.started_at, "
            "clocks.last_reminder_at, games.ruleset, games.guild_id, games.channel_id, "
            "games.thread_id, games.settings_json, games.version "
            "FROM clocks JOIN games ON games.id = clocks.game_id "
            "WHERE games.status = 'active' AND clocks.started_at IS NOT NULL"
        )
        params: list[Any] = []
        if shard_ids is not None:
            ids = [int(i) for i in shard_ids]
            if not ids or not shard_count:
                return []
            sql += (
                " AND ((COALESCE(games.guild_id, 0) >> 22) % ?) IN ("
                + ", ".join("?" for _ in ids)
                + ")"
            )
            params = [int(shard_count), *ids]
        return await self.fetchall(sql + " ORDER BY clocks.game_id, clocks.side", params)

    async def claim_reminder(
        self, game_id: int, side: str, started_at: float, last_reminder_at: float | None, now: float
    ) -> bool:
        """Take the right to send one reminder; True for exactly one caller.

        Optimistic claim, the same on every backend and across processes: set
        ``last_reminder_at = now`` only if the clock row still shows the ``started_at`` and
        ``last_reminder_at`` the caller read (``IS NULL`` when it read None). Whoever's UPDATE
        changes the row sends the reminder; a second process (or a restarted one) that read the
        same row changes nothing and gets False. A turn that moved on changed ``started_at``,
        so a stale reading cannot claim either. PostgreSQL: the same statement (row lock on
        UPDATE, re-check of the WHERE after a concurrent commit under READ COMMITTED).
        """
        return (
            await self.claim_reminders([(game_id, side, started_at, last_reminder_at)], now)
        ) == [True]

    async def claim_reminders(
        self, claims: list[tuple[int, str, float, float | None]], now: float
    ) -> list[bool]:
        """:meth:`claim_reminder` for many (game_id, side, started_at, last_reminder_at) at
        once, in one transaction (one commit, not one per reminder); each claim is decided
        alone, exactly as if made by itself.

        The claims of different clocks touch different rows, so they go in a few statements
        of many claims each (``UPDATE ... RETURNING`` says which rows changed): a pass of 500
        reminders waits for the database a few times, not 500 times behind the commands that
        share the connection. A second claim of a clock already claimed in this batch is
        decided after it, on its own."""
        won = [False] * len(claims)
        first: dict[tuple[int, str], int] = {}
        again: list[int] = []
        for index, (game_id, side, _, _) in enumerate(claims):
            if (game_id, side) in first:
                again.append(index)
            else:
                first[(game_id, side)] = index
        batch = list(first.values())
        async with self.transaction() as db:
            for start in range(0, len(batch), CLAIMS_PER_STATEMENT):
                conditions = []
                params: list[Any] = [now]
                for index in batch[start : start + CLAIMS_PER_STATEMENT]:
                    game_id, side, started_at, last_reminder_at = claims[index]
                    condition = "(game_id = ? AND side = ? AND started_at = ? AND "
                    params += [game_id, side, started_at]
                    if last_reminder_at is None:
                        condition += "last_reminder_at IS NULL)"
                    else:
                        condition += "last_reminder_at = ?)"
                        params.append(last_reminder_at)
                    conditions.append(condition)
                changed = await db.fetchall(
                    "UPDATE clocks SET last_reminder_at = ? WHERE "
                    + " OR ".join(conditions)
                    + " RETURNING game_id, side",
                    params,
                )
                for row in changed:
                    won[first[(row["game_id"], row["side"])]] = True
            for index in again:
                game_id, side, started_at, last_reminder_at = claims[index]
                sql = (
                    "UPDATE clocks SET last_reminder_at = ? WHERE game_id = ? AND side = ? "
                    "AND started_at = ? AND "
                )
                params = [now, game_id, side, started_at]
                if last_reminder_at is None:
                    sql += "last_reminder_at IS NULL"
                else:
                    sql += "last_reminder_at = ?"
                    params.append(last_reminder_at)
                won[index] = (await db.execute(sql, params)).rowcount == 1
        return won

    async def pause_for_timeout(
        self, game_id: int, expected_version: int, clocks: list[dict], game_fields: dict
    ) -> bool:
        """Pause an active game whose clock ran out, and write its stopped clocks, only if it
        is still active at ``expected_version``; True for exactly one caller.

        The guard ``UPDATE games SET ... WHERE id = ? AND version = ? AND status = 'active'``
        is the claim: a second process (or a restarted one) that saw the same timeout finds
        the game paused and writes nothing, so the referee is called once. The version is
        not raised (a pause is not a change of game state), as with a referee's pause.
        """
        sets = ", ".join(f"{k} = ?" for k in game_fields)
        steps = [
            Step(
                f"UPDATE games SET {sets} WHERE id = ? AND version = ? AND status = 'active'",
                (*game_fields.values(), game_id, expected_version),
                must_change=True,
            )
        ]
        try:
            await self.write(steps + [self._clock_step(game_id, clock) for clock in clocks])
        except StepMissed:
            return False
        return True

    # ----- posts -------------------------------------------------------------------------
    async def record_post(
        self,
        game_id: int,
        kind: str,
        channel_id: int | None,
        message_id: int,
        version: int,
        now: float,
    ) -> None:
        await self.execute(
            "INSERT INTO posts (game_id, kind, channel_id, message_id, version, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET "
            "game_id = excluded.game_id, kind = excluded.kind, channel_id = excluded.channel_id, "
            "version = excluded.version",
            (game_id, kind, channel_id, message_id, version, now),
        )

    async def posts(self, game_id: int, kind: str | None = None) -> list[dict]:
        if kind is None:
            return await self.fetchall(
                "SELECT * FROM posts WHERE game_id = ? ORDER BY rowid", (game_id,)
            )
        return await self.fetchall(
            "SELECT * FROM posts WHERE game_id = ? AND kind = ? ORDER BY rowid", (game_id, kind)
        )

    async def newest_posts(self, ids: list[int], kind: str) -> dict[int, dict]:
        """Each of these games' newest post of ``kind`` (highest version, then message id), in
        one query: {game_id: post row}; games without one are left out."""
        if not ids:
            return {}
        rows = await self.fetchall(
            "SELECT * FROM posts WHERE kind = ? AND game_id IN ("
            + ", ".join("?" for _ in ids)
            + ") ORDER BY game_id, version, message_id",
            [kind, *(int(i) for i in ids)],
        )
        return {row["game_id"]: row for row in rows}

    async def post(self, message_id: int) -> dict | None:
        return await self.fetchone("SELECT * FROM posts WHERE message_id = ?", (message_id,))

    # ----- meta --------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        row = await self.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return row["value"] if row is not None else None

    async def set_meta(self, key: str, value: str) -> None:
        """Insert or replace one value (portable upsert: SQLite 3.24+ and PostgreSQL)."""
        await self.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO "
            "UPDATE SET value = excluded.value",
            (key, value),
        )

    async def add_flare(self, game_id: int, label: str, now: float) -> None:
        await self.execute(
            "INSERT INTO flares (game_id, label, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, label) DO NOTHING",
            (game_id, label, now),
        )

    async def flares(self, game_id: int) -> list[str]:
        rows = await self.fetchall(
            "SELECT label FROM flares WHERE game_id = ? ORDER BY created_at, rowid", (game_id,)
        )
        return [r["label"] for r in rows]

    async def clear_flares(self, game_id: int, labels: Iterable[str]) -> None:
        for label in labels:
            await self.execute(
                "DELETE FROM flares WHERE game_id = ? AND label = ?", (game_id, label)
            )


def dumps(value: Any) -> str:
    """Compact JSON keeping key order (actions read back as typed; hashes use canonical JSON)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
