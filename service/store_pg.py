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
from collections.abc import Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from . import store as _shared
from .errors import CommitUncertain, StorageError
from .pg_errors import connection_closed as _connection_closed
from .pg_errors import storage_error as _storage_error
from .pg_errors import storage_errors as _storage_errors
from .storage import parse_database, redacted, to_postgres
from .store import Step, StepMissed, Store, _dict, _dicts, _Done

# pg_advisory_lock key for migrations: any constant that other applications on the same
# database are unlikely to use ("umpire" in ASCII).
_MIGRATION_LOCK = 0x756D70697265

_translated: dict[str, str] = {}


def _pg(sql: str) -> str:
    text = _translated.get(sql)
    if text is None:
        text = _translated[sql] = to_postgres(sql)
    return text


def _rowcount(status: str) -> int:
    """asyncpg reports "UPDATE 1", "INSERT 0 1", "DELETE 3": the last number is the count."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgTransaction:
    """What ``PgStore.transaction()`` yields: the same calls as the SQLite one."""

    def __init__(self, connection: asyncpg.Connection, name: str):
        self._connection = connection
        self._name = name

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> _Done:
        with _storage_errors(self._name):
            status = await self._connection.execute(_pg(sql), *tuple(params))
        return _Done(_rowcount(status), None)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()):
        with _storage_errors(self._name):
            return await self._connection.fetchrow(_pg(sql), *tuple(params))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list:
        with _storage_errors(self._name):
            return list(await self._connection.fetch(_pg(sql), *tuple(params)))


_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def _connection_lost(error: BaseException) -> bool:
    """A broken connection (as opposed to a refusal the server answered, such as a
    serialization failure, after which the write certainly did not land)."""
    current: BaseException | None = error
    for _ in range(5):
        if current is None:
            return False
        if isinstance(
            current, (OSError, TimeoutError, asyncpg.PostgresConnectionError)
        ) or _connection_closed(current):
            return True
        if getattr(current, "sqlstate", None) in ("57P01", "57P02"):
            return True
        if not isinstance(current, asyncpg.InterfaceError):
            return False
        current = current.__context__
    return False


class PgStore(Store):
    """One PostgreSQL database reached through a small connection pool."""

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool = pool
        self.url = url
        self.path = redacted(url)  # what messages show; never the password
        self._lock = asyncio.Lock()  # unused by this backend; kept for the shared interface

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 10_000,
        min_size: int = 1,
        max_size: int = 5,
        read_only: bool = False,
    ) -> PgStore:
        """Connect and migrate. At most ``max_size`` connections per process: docs/scaling.md
        counts on 5 (16 processes stay under the server's default max_connections of 100).
        ``synchronous`` and ``busy_timeout_ms`` exist for the shared
        interface: PostgreSQL commits durably (``synchronous_commit`` is the server's) and
        waits for row locks by itself."""
        url = parse_database(path).target
        # A read-only open (verify) asks the server to refuse every write in its sessions.
        settings = {"default_transaction_read_only": "on"} if read_only else None
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                command_timeout=60,
                server_settings=settings,
            )
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            # One line for the operator, never the password (``redacted``).
            raise (
                _storage_error(redacted(url), error)
                or StorageError(
                    redacted(url),
                    f"the server cannot be reached or refused the connection "
                    f"({type(error).__name__})",
                    "Check that PostgreSQL runs, the URL, the user and the password.",
                )
            ) from None
        store = cls(pool, url)
        try:
            with _storage_errors(store.path):
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
    # Every way in wraps the server's and the network's failures into StorageError, as the
    # SQLite store does: the bot answers politely, the local table and verify print one line.
    @asynccontextmanager
    async def transaction(self):
        async with self._session(readonly=False) as db:
            yield db

    @asynccontextmanager
    async def reading(self):
        async with self._session(readonly=True) as db:
            yield db

    @asynccontextmanager
    async def _session(self, *, readonly: bool):
        """A pooled connection in one transaction. Failures of the pool, BEGIN, COMMIT or
        ROLLBACK become StorageError; the caller's own exception leaves as it was raised (the
        statements it ran converted theirs already)."""
        raised_inside: BaseException | None = None
        committing = False
        options = {"isolation": "repeatable_read", "readonly": True} if readonly else {}
        try:
            async with self._pool.acquire() as connection:
                async with connection.transaction(**options):
                    try:
                        yield _PgTransaction(connection, self.path)
                    except BaseException as error:
                        raised_inside = error
                        raise
                    committing = not readonly  # leaving this block sends COMMIT
        except _DRIVER_ERRORS as error:
            converted = None if error is raised_inside else _storage_error(self.path, error)
            if converted is None:
                raise
            if committing and _connection_lost(error):
                # The server may have committed before the connection broke: say so, rather
                # than "nothing was saved".
                raise CommitUncertain(
                    self.path,
                    "the connection broke while the server was committing a write, "
                    "so it may or may not have been saved",
                    "Check that PostgreSQL runs and "
                    "is reachable; the game's version shows whether the write landed (the "
                    "version guard keeps the game consistent either way).",
                ) from error
            raise converted from error

    async def write(self, steps: list[Step]) -> list[_Done]:
        """The statements one by one in one transaction (the server is a round trip away
        either way; SQLite's store runs them in one visit to its thread)."""
        done = []
        async with self.transaction() as db:
            for index, step in enumerate(steps):
                result = await db.execute(step.sql, step.params)
                if step.must_change and result.rowcount != 1:
                    raise StepMissed(index)
                done.append(result)
        return done

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
                await connection.execute(
                    _pg(
                        "CREATE TABLE IF NOT EXISTS schema_version ("
                        "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL "
                        "DEFAULT CURRENT_TIMESTAMP)"
                    )
                )
                current = await connection.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_version"
                )
                if current > _shared.SCHEMA_VERSION:
                    raise StorageError(
                        self.path,
                        f"it has schema version {current}, newer "
                        f"than this program ({_shared.SCHEMA_VERSION})",
                        "Upgrade Umpire.",
                    )
                # Looked up at call time: the one list the SQLite store applies too.
                for number, statements in _shared.MIGRATIONS:
                    if number <= current:
                        continue
                    async with connection.transaction():
                        for statement in statements:
                            await connection.execute(_pg(statement))
                        await connection.execute(
                            "INSERT INTO schema_version (version) VALUES ($1)", number
                        )
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        return await self.schema_version()

    # ----- what SQLite does with lastrowid -----------------------------------------------
    async def insert_game(self, fields: dict, state_json: str, state_hash: str) -> int:
        columns = ", ".join(fields)
        marks = ", ".join("?" for _ in fields)
        async with self.transaction() as db:
            row = await db.fetchone(
                f"INSERT INTO games ({columns}) VALUES ({marks}) RETURNING id",
                tuple(fields.values()),
            )
            game_id = row[0]
            await db.execute(
                "INSERT INTO snapshots (game_id, version, state_json, state_hash, "
                "created_at) VALUES (?, 0, ?, ?, ?)",
                (game_id, state_json, state_hash, fields["created_at"]),
            )
        return game_id
