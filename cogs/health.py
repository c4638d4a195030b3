"""The container health check: ``python -m cogs.health``.

Healthy means the bot's event loop is alive (the reminder loop touched the heartbeat file
recently, so the gateway is not blocked) and the database opens and answers. Exit 0 or 1.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path
from urllib.parse import quote

HEARTBEAT_ENV = "UMPIRE_HEARTBEAT"
MAX_SILENCE_SECONDS = 300


def heartbeat_path() -> Path | None:
    value = os.environ.get(HEARTBEAT_ENV, "").strip()
    return Path(value) if value else None


def beat() -> None:
    """Called by the running bot once a minute."""
    path = heartbeat_path()
    if path is not None:
        path.write_text(str(time.time()))


def check(database: str, heartbeat: Path | None, now: float | None = None) -> list[str]:
    problems = []
    now = time.time() if now is None else now
    if heartbeat is not None:
        try:
            age = now - heartbeat.stat().st_mtime
        except OSError:
            problems.append(f"no heartbeat file at {heartbeat}")
        else:
            if age > MAX_SILENCE_SECONDS:
                problems.append(f"no heartbeat for {int(age)} s")
    from service.storage import BadDatabaseSetting, parse_database

    try:
        setting = parse_database(database)
    except BadDatabaseSetting as error:
        return [*problems, str(error)]
    if setting.is_postgres:
        problem = _check_postgres(setting.target)
        return problems + ([f"database {setting.display()}: {problem}"] if problem else [])
    try:
        # Quoted: a "?", "#" or "%" in the path would otherwise end or alter it inside the URI.
        target = quote(str(Path(setting.target).resolve()))
        connection = sqlite3.connect(f"file:{target}?mode=ro", uri=True, timeout=5)
        try:
            connection.execute("SELECT COUNT(*) FROM games").fetchone()
        finally:
            connection.close()
    except sqlite3.Error as error:
        problems.append(f"database {database}: {error}")
    return problems


def _check_postgres(url: str) -> str | None:
    """The server answers and holds Umpire's tables; the problem in words, or None."""
    import asyncio

    import asyncpg

    async def ask() -> None:
        connection = await asyncpg.connect(url, timeout=5)
        try:
            await connection.fetchval("SELECT COUNT(*) FROM games", timeout=5)
        finally:
            await connection.close()

    try:
        asyncio.run(ask())
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        return f"{type(error).__name__}: {error}"
    return None


def main() -> int:
    database = os.environ.get("UMPIRE_DB", "umpire.sqlite3")
    problems = check(database, heartbeat_path())
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
