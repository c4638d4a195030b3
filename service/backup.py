"""``python bot.py backup PATH [--db DB] [--force]``: a consistent copy of the database while
the bot runs, with SQLite's online backup API (the image has no ``sqlite3`` command).

A PostgreSQL database (``postgresql://…``) is copied into a SQLite file at PATH: every table,
read in one REPEATABLE READ transaction (one consistent state while the bot writes), written by
the same code as ``migrate-db`` and checked the same way (row counts, every game's log replays
to its stored snapshot). ``python bot.py migrate-db --from PATH --to postgresql://…`` restores
it. ``pg_dump`` remains the server's own tool for very large databases.

The source is opened read-only, so a backup never changes or migrates it. The copy is written
to a temporary file next to PATH, checked with ``PRAGMA integrity_check`` and only then renamed
to PATH, so PATH is either the old file or a complete copy, never half of one. An existing PATH
is kept unless ``--force`` is given.

Exit codes: 0 copied; 1 the copy failed (the message says why); 2 bad arguments or PATH exists.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

from .errors import StorageError
from .sqlite_errors import storage_error
from .storage import BadDatabaseSetting, Database, parse_database

COPIED, FAILED, USAGE = 0, 1, 2
PAGES_PER_STEP = 1024  # the bot may write between steps; each step holds the read lock briefly


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bot.py backup", description="Copy the database safely while the bot runs."
    )
    p.add_argument("path", help="the file to write the copy to")
    p.add_argument(
        "--db",
        default=None,
        help="the database to copy: a SQLite file, sqlite:///FILE or "
        "postgresql://… (default: UMPIRE_DB, as the bot uses it)",
    )
    p.add_argument("--force", action="store_true", help="replace PATH if it exists")
    return p


def backup(source: Path, target: Path, *, force: bool = False) -> int:
    """Copy ``source`` to ``target``; returns the number of pages copied. Raises
    :class:`StorageError` (source or target unusable) or :class:`FileExistsError`."""
    if not source.is_file():
        raise StorageError(
            str(source),
            "there is no such file",
            "Check --db or UMPIRE_DB; a backup never creates the database.",
        )
    if target.is_dir():
        raise StorageError(
            str(target),
            "it is a directory",
            "Name the file to write, e.g. backups/umpire-2026-01-31.sqlite3.",
        )
    if target.exists() and not force:
        raise FileExistsError(target)
    if target.resolve() == source.resolve():
        raise StorageError(
            str(target), "it is the database itself", "Write the copy to another file."
        )
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
    except OSError as error:
        raise StorageError(
            str(target),
            f"the copy cannot be written there ({error.strerror})",
            "Choose a directory that exists and that you may write in.",
        ) from None
    os.close(handle)
    try:
        try:
            src = sqlite3.connect(f"file:{quote(str(source.resolve()))}?mode=ro", uri=True)
        except sqlite3.Error as error:
            raise _storage(source, error) from error
        try:
            dst = sqlite3.connect(temporary)
            try:
                try:
                    src.backup(dst, pages=PAGES_PER_STEP)
                except sqlite3.Error as error:
                    # A read failure names the database, a write failure the copy.
                    raise _storage(
                        source if _is_source_problem(error) else target, error
                    ) from error
                check = dst.execute("PRAGMA integrity_check").fetchone()[0]
                pages = dst.execute("PRAGMA page_count").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        if check != "ok":
            raise StorageError(
                str(source),
                f"the copy fails SQLite's integrity check ({check})",
                "The database itself may be damaged; keep it and older backups.",
            )
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return int(pages)


def _check_target(target: Path, force: bool) -> None:
    if target.is_dir():
        raise StorageError(
            str(target),
            "it is a directory",
            "Name the file to write, e.g. backups/umpire-2026-01-31.sqlite3.",
        )
    if target.exists() and not force:
        raise FileExistsError(target)


async def backup_postgres(url: str, target: Path, *, force: bool = False) -> dict[str, int]:
    """Copy the PostgreSQL database at ``url`` into a new SQLite file ``target``; returns the
    rows copied per table. Raises :class:`StorageError` (source or target unusable, or the copy
    does not check out) or :class:`FileExistsError`."""
    from .migrate_db import copy_stores
    from .storage import open_store
    from .store import Store

    _check_target(target, force)
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
    except OSError as error:
        raise StorageError(
            str(target),
            f"the copy cannot be written there ({error.strerror})",
            "Choose a directory that exists and that you may write in.",
        ) from None
    os.close(handle)
    try:
        # Read-only: the source is never migrated or written, another schema version refused.
        source = await open_store(url, read_only=True)
        try:
            copy = await Store.open(temporary)
            try:
                report = await copy_stores(source, copy)
            finally:
                await copy.close()
        finally:
            await source.close()
        if not report.ok:
            raise StorageError(
                parse_database(url).display(),
                "the copy does not check out (" + "; ".join(report.problems[:3]) + ")",
                "Keep the database and older backups; run python bot.py verify on the games named.",
            )
        _single_file(temporary)
        os.replace(temporary, target)
    except BaseException:
        _remove_partial(temporary)
        raise
    return report.counts


def _single_file(path: str) -> None:
    """The copy is one self-contained file, like the SQLite backup: no write-ahead log next to
    it (the bot switches it back to WAL when it opens the file)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA journal_mode = DELETE").fetchall()
    finally:
        connection.close()


def _remove_partial(temporary: str) -> None:
    """A copy that failed leaves nothing behind (a command-line tool: blocking is fine)."""
    for leftover in (temporary, f"{temporary}-wal", f"{temporary}-shm"):
        Path(leftover).unlink(missing_ok=True)


def _is_source_problem(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code in (
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
    )


def _storage(path: Path, error: BaseException) -> StorageError:
    return storage_error(str(path), error) or StorageError(
        str(path), f"SQLite reported: {error}", "Check the file and try again."
    )


def main(argv: list[str] | None = None, *, default_db: str | None = None) -> int:
    try:
        args = build_parser().parse_args(list(argv or []))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        database = parse_database(args.db or default_db or "umpire.sqlite3")
    except BadDatabaseSetting as error:
        print(f"--db: {error}", file=sys.stderr)
        return USAGE
    target = Path(args.path)
    if database.is_postgres:
        return _main_postgres(database, target, args.force)
    source = Path(database.target)
    try:
        pages = backup(source, target, force=args.force)
    except FileExistsError:
        print(f"{target} exists; pass --force to replace it.", file=sys.stderr)
        return USAGE
    except StorageError as error:
        print(f"Backup failed: {error}", file=sys.stderr)
        return FAILED
    print(f"Copied {source} to {target} ({pages} pages, integrity checked).")
    return COPIED


def _main_postgres(database: Database, target: Path, force: bool) -> int:
    try:
        counts = asyncio.run(backup_postgres(database.target, target, force=force))
    except FileExistsError:
        print(f"{target} exists; pass --force to replace it.", file=sys.stderr)
        return USAGE
    except StorageError as error:
        print(f"Backup failed: {error}", file=sys.stderr)
        return FAILED
    rows = ", ".join(f"{n} {table}" for table, n in counts.items())
    print(
        f"Copied {database.display()} to {target} as a SQLite file ({rows}; row counts and "
        f"every game's replay checked). Restore with: python bot.py migrate-db --from "
        f"{target} --to postgresql://…"
    )
    return COPIED
