"""SQLite's failures in words for whoever runs the bot: which errors are storage problems (a
full disk, a read-only file, a lock, a damaged or foreign file) and what to do about each.
Used by ``service/store.py`` and ``python bot.py backup``."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import StorageError

# What SQLite's primary result codes mean for whoever runs the bot. Codes not listed (a
# constraint, a syntax error, "no such table") are programming errors and stay as they are.
_STORAGE_PROBLEMS: dict[int, tuple[str, str]] = {
    sqlite3.SQLITE_FULL: (
        "the disk is full (or the database reached its size limit)",
        "Free space on the disk that holds it, then try again; nothing already saved was lost.",
    ),
    sqlite3.SQLITE_READONLY: (
        "it is read-only (the file, its directory or the disk)",
        "Let the bot's user write the file and its directory (SQLite also writes the -wal and "
        "-shm files next to it), then try again.",
    ),
    sqlite3.SQLITE_PERM: (
        "access was denied",
        "Let the bot's user read and write the file and its directory, then try again.",
    ),
    sqlite3.SQLITE_CANTOPEN: (
        "it cannot be opened (its directory is missing, is not a directory, or is not accessible)",
        "Check UMPIRE_DB (or --db): the directory must exist and the bot's user must be "
        "allowed to write in it.",
    ),
    sqlite3.SQLITE_BUSY: (
        "another program holds a lock on it",
        "Stop the other program using it (a second bot on the same file, an open sqlite3 "
        "shell or a long backup), then try again.",
    ),
    sqlite3.SQLITE_LOCKED: (
        "it is locked by another connection",
        "Stop the other program using it, then try again.",
    ),
    sqlite3.SQLITE_NOTADB: (
        "it is not a database (the file holds something else)",
        "Point UMPIRE_DB (or --db) at the right file, or restore it from a backup; the file "
        "was left as it is.",
    ),
    sqlite3.SQLITE_CORRUPT: (
        "it is damaged",
        "Restore it from a backup (python bot.py backup makes one); the damaged file was left "
        "as it is.",
    ),
    sqlite3.SQLITE_IOERR: (
        "the disk failed to read or write it",
        "Check the disk and free space; nothing already saved was lost.",
    ),
}


def storage_error(path: str, error: BaseException) -> StorageError | None:
    """The :class:`StorageError` for an SQLite or file-system error, or None when ``error``
    is not a storage problem (a bug, which should surface as itself)."""
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is None:
            return None
        problem = _STORAGE_PROBLEMS.get(code & 0xFF)
        if problem is None:
            return None
        return StorageError(path, *problem)
    if isinstance(error, (NotADirectoryError, FileExistsError, PermissionError)):
        return StorageError(path, *_STORAGE_PROBLEMS[sqlite3.SQLITE_CANTOPEN])
    return None


@contextmanager
def storage_errors(path: str) -> Iterator[None]:
    """Turn storage failures into :class:`StorageError` (one line: file, problem, advice)."""
    try:
        yield
    except (sqlite3.Error, OSError) as error:
        converted = storage_error(path, error)
        if converted is None:
            raise
        raise converted from error
