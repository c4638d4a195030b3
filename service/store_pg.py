"""PostgreSQL storage (asyncpg): the same methods and guarantees as :class:`service.store.Store`.

Every query of the SQLite store is reused as written and translated once by
:func:`service.storage.to_postgres`; only what SQLite and PostgreSQL do differently lives here:
a connection pool instead of one connection, asyncpg's transactions, the catalogue lookup of the
schema version, ``RETURNING id`` instead of ``lastrowid``, and migrations under an advisory lock
so that several bot processes starting at once apply each migration exactly once.

Isolation: writes run in READ COMMITTED transactions; the version guard ``UPDATE games … WHERE
id = $1 AND version = $2`` takes the game row's lock, so of two concurrent writers the second
waits, re-checks the guard against the committed row, matches nothing and writes nothing.
Reads that must agree run in one statement (:meth:`load_game`) or in one REPEATABLE READ
read-only transaction (:meth:`reading`).
"""
from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterable
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import asyncpg

from . import store as _shared
from .errors import StorageError
from .storage import parse_database, redacted, to_postgres
from .store import Store, _dict, _dicts, _Done

# pg_advisory_lock key for migrations: any constant that other applications on the same
# database are unlikely to use ("umpire" in ASCII).
_MIGRATION_LOCK = 0x756D70697265

_translated: dict[str, str] = {}


def _pg(sql: str) -> str:
    text = _translated.get(sql)
    if text is None:
        text = _translated[sql] = to_postgres(sql)
    return text


# What PostgreSQL's failures mean for whoever runs the bot, by asyncpg's error classes (the
# SQLSTATE classes 25006, 53, 08, 57 and XX001/XX002); anything else (a constraint, a syntax
# error) is a programming error and stays as it is. Like SQLite's (service/sqlite_errors.py):
# one line naming the database and what to do; a failed transaction is rolled back whole.
_STORAGE_PROBLEMS: tuple[tuple[tuple[type[BaseException], ...], str, str], ...] = (
    ((asyncpg.ReadOnlySQLTransactionError,),
     "it refuses writes (read-only: default_transaction_read_only, or a standby server)",
     "Point UMPIRE_DB at the primary server, or turn read-only off for the bot's database, "
     "then try again."),
    ((asyncpg.DiskFullError,),
     "the server's disk is full",
     "Free space on the database server's disk, then try again; nothing already saved was "
     "lost."),
    ((asyncpg.InsufficientResourcesError,),
     "the server is out of resources (memory or connections)",
     "Check the database server's memory and max_connections, then try again."),
    ((asyncpg.DataCorruptedError, asyncpg.IndexCorruptedError),
     "the server reports damaged data",
     "Restore the database from a backup (see docs/storage.md)."),
    # Socket failures only (refused, reset, a name that does not resolve): another OSError
    # raised inside a transaction's body is not the server's and stays as it is.
    ((asyncpg.PostgresConnectionError, ConnectionError, socket.gaierror),
     "the connection to the server was lost or could not be made",
     "Check that PostgreSQL runs and can be reached; the bot reconnects by itself."),
    ((asyncpg.OperatorInterventionError,),
     "the server stopped the work (it is shutting down, restarting or cancelled the query)",
     "Wait for the database server to be back, then try again."),
    ((TimeoutError,),
     "the server did not answer in time",
     "Check the database server's load and network, then try again."),
)


def _connection_gone(error: BaseException) -> bool:
    """asyncpg's own words when the session under a transaction was lost (the server ended
    it): the proxy was handed back to the pool, or the connection is closed. Other interface
    errors (a driver misuse, a bad parameter) are programming errors."""
    text = str(error)
    return type(error) is asyncpg.InterfaceError and (
        "connection is closed" in text or "released back to the pool" in text)


@contextmanager
def _storage_errors(where: str):
    """Turn the storage failures above into a StorageError naming ``where``. A lost connection
    often surfaces as the driver's complaint while cleaning up (rolling back or releasing a
    connection that is gone), so the exceptions it arose from are looked at too."""
    try:
        yield
    except Exception as error:
        seen: BaseException | None = error
        for _ in range(6):
            if seen is None:
                break
            for kinds, problem, advice in _STORAGE_PROBLEMS:
                if isinstance(seen, kinds) or (_connection_gone(seen) and
                                               asyncpg.PostgresConnectionError in kinds):
                    raise StorageError(where, f"{problem} ({type(seen).__name__})",
                                       advice) from None
            seen = seen.__cause__ or seen.__context__
        raise


def _rowcount(status: str) -> int:
    """asyncpg reports "UPDATE 1", "INSERT 0 1", "DELETE 3": the last number is the count."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgTransaction:
    """What ``PgStore.transaction()`` yields: the same calls as the SQLite one."""

    def __init__(self, connection: asyncpg.Connection):
        self._connection = connection

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> _Done:
        status = await self._connection.execute(_pg(sql), *tuple(params))
        return _Done(_rowcount(status), None)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()):
        return await self._connection.fetchrow(_pg(sql), *tuple(params))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list:
        return list(await self._connection.fetch(_pg(sql), *tuple(params)))


class PgStore(Store):
    """One PostgreSQL database reached through a small connection pool."""

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool = pool
        self.url = url
        self.path = redacted(url)     # what messages show; never the password
        self._lock = asyncio.Lock()   # unused by this backend; kept for the shared interface

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL",
                   busy_timeout_ms: int = 10_000, min_size: int = 1,
                   max_size: int = 10, read_only: bool = False) -> PgStore:
        """Connect and migrate. ``synchronous`` and ``busy_timeout_ms`` exist for the shared
        interface: PostgreSQL commits durably (``synchronous_commit`` is the server's) and
        waits for row locks by itself."""
        url = parse_database(path).target
        # A read-only open (verify) asks the server to refuse every write in its sessions.
        settings = {"default_transaction_read_only": "on"} if read_only else None
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size,
                                             command_timeout=60, server_settings=settings)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            # One line for the operator, never the password (``redacted``).
            raise StorageError(redacted(url), f"the server cannot be reached or refused the "
                               f"connection ({type(error).__name__})",
                               "Check that PostgreSQL runs, the URL, the user and the "
                               "password.") from None
        store = cls(pool, url)
        try:
            if read_only:
                await store._check_readable_schema()
            else:
                await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    # ----- low level ---------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self):
        with _storage_errors(self.path):
            async with self._pool.acquire() as connection:
                async with connection.transaction():
                    yield _PgTransaction(connection)

    @asynccontextmanager
    async def reading(self):
        with _storage_errors(self.path):
            async with self._pool.acquire() as connection:
                async with connection.transaction(isolation="repeatable_read", readonly=True):
                    yield _PgTransaction(connection)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[dict]:
        with _storage_errors(self.path):
            return _dicts(await self._pool.fetch(_pg(sql), *tuple(params)))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> dict | None:
        with _storage_errors(self.path):
            return _dict(await self._pool.fetchrow(_pg(sql), *tuple(params)))

    # ----- migrations --------------------------------------------------------------------
    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT to_regclass('schema_version') IS NOT NULL AS present")
        if not row or not row["present"]:
            return 0
        row = await self.fetchone("SELECT MAX(version) AS v FROM schema_version")
        return int(row["v"] or 0) if row else 0

    async def migrate(self) -> int:
        """The shared migration list, translated; each migration in its own transaction with
        its ``schema_version`` row, all of them under an advisory lock held by this session."""
        async with self._pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await connection.execute(_pg(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL "
                    "DEFAULT CURRENT_TIMESTAMP)"))
                current = await connection.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_version")
                if current > _shared.SCHEMA_VERSION:
                    raise StorageError(self.path, f"it has schema version {current}, newer "
                                       f"than this program ({_shared.SCHEMA_VERSION})",
                                       "Upgrade Umpire.")
                # Looked up at call time: the one list the SQLite store applies too.
                for number, statements in _shared.MIGRATIONS:
                    if number <= current:
                        continue
                    async with connection.transaction():
                        for statement in statements:
                            await connection.execute(_pg(statement))
                        await connection.execute(
                            "INSERT INTO schema_version (version) VALUES ($1)", number)
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        return await self.schema_version()

    # ----- what SQLite does with lastrowid -----------------------------------------------
    async def insert_game(self, fields: dict, state_json: str, state_hash: str) -> int:
        columns = ", ".join(fields)
        marks = ", ".join("?" for _ in fields)
        async with self.transaction() as db:
            row = await db.fetchone(f"INSERT INTO games ({columns}) VALUES ({marks}) "
                                    "RETURNING id", tuple(fields.values()))
            game_id = row[0]
            await db.execute("INSERT INTO snapshots (game_id, version, state_json, state_hash, "
                             "created_at) VALUES (?, 0, ?, ?, ?)",
                             (game_id, state_json, state_hash, fields["created_at"]))
        return game_id
