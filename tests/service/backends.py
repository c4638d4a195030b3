"""Looking at a test database from the outside: a separate connection with the backend's
own driver (sqlite3 or asyncpg), never through the store under test."""

from __future__ import annotations

import sqlite3

from service.storage import parse_database, to_postgres


def is_postgres(db) -> bool:
    return parse_database(db).is_postgres


async def query(db, sql: str, params=()) -> list[tuple]:
    """Run one statement (written in SQLite's SQL, translated for PostgreSQL), commit, and
    return its rows as tuples."""
    database = parse_database(db)
    if not database.is_postgres:
        with sqlite3.connect(database.target) as connection:
            return [tuple(r) for r in connection.execute(sql, tuple(params)).fetchall()]
    import asyncpg

    connection = await asyncpg.connect(database.target)
    try:
        return [tuple(r) for r in await connection.fetch(to_postgres(sql), *params)]
    finally:
        await connection.close()


async def dump(db, tables) -> dict:
    """Every row of every table, in insertion order."""
    return {t: await query(db, f"SELECT * FROM {t} ORDER BY rowid") for t in tables}
