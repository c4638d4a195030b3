"""PostgreSQL's failures in words for whoever runs the bot, the counterpart of
:mod:`service.sqlite_errors`: which asyncpg errors are storage problems (the server is gone or
refuses connections, the disk is full, the database is read-only, a lock or a timeout) and what
to do about each. Everything else (a constraint, a bad statement, an undefined table) is a
programming error and surfaces as itself.

Messages name the database by its redacted URL (never the password) and never quote the
server's own text, which may hold values from the query.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg

from .errors import StorageError

_UNREACHABLE = (
    "the server cannot be reached, refused the connection or closed it",
    "Check that PostgreSQL runs and is reachable, and the URL, user and password; a write "
    "that was cut off is rolled back by the server (only one cut off during its commit may "
    "have landed: the game's version shows which).",
)

# By SQLSTATE: the exact code first, then its two-character class.
_PROBLEMS: dict[str, tuple[str, str]] = {
    "08": _UNREACHABLE,
    "57P01": _UNREACHABLE,  # the server (or an administrator) ended the session
    "57P02": _UNREACHABLE,  # the server crashed
    "57P03": (
        "the server is starting up or shutting down",
        "Wait for PostgreSQL to finish starting, then try again.",
    ),
    "57014": (
        "a statement took too long and was cancelled",
        "Look for long-running queries or locks held on the server, then try again; "
        "the cancelled write was rolled back.",
    ),
    "55000": (
        "the database does not accept connections now",
        "Let it accept connections again (ALTER DATABASE … ALLOW_CONNECTIONS true), "
        "then try again.",
    ),
    "55P03": (
        "a lock could not be obtained",
        "Another program holds locks on Umpire's tables; stop it, then try again.",
    ),
    "53100": (
        "the server's disk is full",
        "Free space on the server's disk, then try again; nothing already saved was lost.",
    ),
    "53200": ("the server ran out of memory", "Check the server, then try again."),
    "53300": (
        "the server has no connection slot left",
        "Raise max_connections, shrink the pools of the bot processes or put a pooler "
        "in front, then try again.",
    ),
    "53": ("the server ran out of a resource", "Check the server's log, then try again."),
    "25006": (
        "it is read-only (a standby server, or default_transaction_read_only is on)",
        "Point UMPIRE_DB (or --db) at the primary server, or make the database "
        "writable again, then try again.",
    ),
    "28": (
        "the server refused the login",
        "Check the user and password in UMPIRE_DB (or --db) and the server's pg_hba.conf.",
    ),
    "3D": (
        "there is no such database on the server",
        "Create it (createdb -O USER NAME) or correct the database name in the URL.",
    ),
    "42501": (
        "the user may not use Umpire's tables",
        "Grant the user the rights on the database (or make it the owner), then try again.",
    ),
    "40": (
        "the server rolled the write back to resolve a conflict (deadlock or "
        "serialization failure)",
        "Try again; nothing was saved.",
    ),
    "58": (
        "the server failed to read or write its files",
        "Check the server's disk and log; nothing already saved was lost.",
    ),
    "XX": (
        "the server reports internal damage",
        "Check the server's log and restore from a backup if it is damaged.",
    ),
    "F0": ("the server's configuration is broken", "Check the server's log."),
}


def connection_closed(error: BaseException) -> bool:
    """asyncpg's InterfaceError for a connection that is gone (lost mid-transaction, or given
    back to the pool because it broke): a storage problem, unlike its InterfaceErrors for
    misuse (wrong number of arguments, overlapping operations), which are bugs."""
    text = str(error)
    return isinstance(error, asyncpg.InterfaceError) and (
        "connection is closed" in text or "released back to the pool" in text
    )


def _problem(error: BaseException) -> tuple[str, str] | None:
    if connection_closed(error):
        return _UNREACHABLE
    if isinstance(error, asyncpg.PostgresError):
        code = getattr(error, "sqlstate", None) or ""
        return _PROBLEMS.get(code) or _PROBLEMS.get(code[:2])
    if isinstance(error, (OSError, TimeoutError)):  # connect failures, command_timeout
        return _UNREACHABLE
    return None


def storage_error(url: str, error: BaseException) -> StorageError | None:
    """The :class:`StorageError` for a PostgreSQL or network failure, or None when ``error``
    is not a storage problem. A failure while rolling back (asyncpg's "connection is closed")
    is judged by the error that caused the rollback."""
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 5:
        problem = _problem(current)
        if problem is not None:
            return StorageError(url, *problem)
        if not isinstance(current, asyncpg.InterfaceError):
            return None
        current, seen = current.__context__, seen + 1
    return None


@contextmanager
def storage_errors(url: str) -> Iterator[None]:
    """Turn PostgreSQL storage failures into :class:`StorageError` (one line: the database
    without its password, the problem, the advice)."""
    try:
        yield
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as error:
        converted = storage_error(url, error)
        if converted is None:
            raise
        raise converted from error
