"""One storage interface, two backends: which one a database setting means, and opening it.

``UMPIRE_DB`` (and every ``--db``) is either a SQLite file (a plain path or ``sqlite:///path``)
or a PostgreSQL URL (``postgresql://user:password@host:port/database``, also ``postgres://``).
Both backends offer the same methods with the same guarantees (see ``docs/storage.md``); the
SQLite one lives in :mod:`service.store`, the PostgreSQL one in :mod:`service.store_pg`, and
both apply the one migration list in :mod:`service.store`, translated by :func:`to_postgres`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .store import Store

POSTGRES_SCHEMES = ("postgresql", "postgres")
# A setting is a path unless it clearly names a scheme; "C:\\games.db" has a one-letter scheme.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+)://")


class BadDatabaseSetting(ValueError):
    """A database setting that names neither a SQLite file nor a PostgreSQL server."""


@dataclass(frozen=True)
class Database:
    backend: str  # "sqlite" or "postgresql"
    target: str  # the SQLite path, or the PostgreSQL URL as given

    @property
    def is_postgres(self) -> bool:
        return self.backend == "postgresql"

    def display(self) -> str:
        """The setting with any password replaced, safe for logs and messages."""
        return redacted(self.target) if self.is_postgres else self.target


def parse_database(setting: str | Path) -> Database:
    text = str(setting).strip()
    if not text:
        raise BadDatabaseSetting(
            "The database setting is empty: give a SQLite file path or a postgresql:// URL."
        )
    match = _SCHEME.match(text)
    if match is None:
        return Database("sqlite", text)
    scheme = match.group(1).lower()
    if scheme in POSTGRES_SCHEMES:
        return Database("postgresql", text)
    if scheme == "sqlite":
        path = text[len("sqlite://") :]
        # sqlite:///relative.db is a relative path, sqlite:////abs.db an absolute one (the
        # SQLAlchemy convention people know); ":memory:" works as sqlite:///:memory:.
        if not path.startswith("/"):
            raise BadDatabaseSetting(f"{text!r}: write sqlite:///FILE (three slashes).")
        path = path[1:]
        if not path:
            raise BadDatabaseSetting(f"{text!r} names no file.")
        return Database("sqlite", path)
    raise BadDatabaseSetting(
        f"{redacted(text)!r}: unknown database kind {scheme!r}; use a "
        f"SQLite file path, sqlite:///FILE or postgresql://…"
    )


def redacted(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


async def open_store(setting: str | Path, *, synchronous: str = "FULL", read_only: bool = False):
    """The store for ``setting``, opened and migrated: a :class:`service.store.Store` or a
    :class:`service.store_pg.PgStore` (same methods). ``read_only`` (verify, backup): nothing
    is created, migrated or written, and another schema version is refused."""
    database = parse_database(setting)
    if database.is_postgres:
        from .store_pg import PgStore  # asyncpg is only imported by those who use it

        return await PgStore.open(database.target, read_only=read_only)
    return await Store.open(database.target, synchronous=synchronous, read_only=read_only)


# ----- the dialect layer: migrations and queries are written once, in SQLite's SQL ----------
_AUTOINCREMENT = re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", re.I)
_INTEGER = re.compile(r"\bINTEGER\b", re.I)
_REAL = re.compile(r"\bREAL\b", re.I)
_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\b", re.I)
_DDL = re.compile(r"^\s*(CREATE\s+TABLE|ALTER\s+TABLE)\b", re.I)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.I)


def to_postgres(sql: str) -> str:
    """SQLite's SQL as the store writes it, in PostgreSQL's dialect.

    - ``?`` placeholders become ``$1, $2, …`` (never inside quoted text);
    - in table definitions, ``INTEGER PRIMARY KEY AUTOINCREMENT`` becomes ``BIGSERIAL PRIMARY
      KEY``, every ``INTEGER`` a ``BIGINT`` (Discord ids are 64-bit) and ``REAL`` a ``DOUBLE
      PRECISION`` (SQLite's REAL is 8 bytes);
    - every new table gets a ``rowid BIGSERIAL`` column, PostgreSQL's stand-in for SQLite's
      implicit rowid, so ``ORDER BY rowid`` means insertion order on both (the backend hides
      that column from the rows it returns);
    - ``INSERT OR IGNORE INTO`` becomes ``INSERT INTO … ON CONFLICT DO NOTHING``.
    """
    if _DDL.match(sql):
        sql = _AUTOINCREMENT.sub("BIGSERIAL PRIMARY KEY", sql)
        sql = _INTEGER.sub("BIGINT", sql)
        sql = _REAL.sub("DOUBLE PRECISION", sql)
        if _CREATE_TABLE.match(sql):
            close = sql.rstrip().rfind(")")
            if close < 0:
                raise ValueError(f"cannot translate table definition: {sql}")
            sql = sql[:close].rstrip() + ",\n    rowid BIGSERIAL NOT NULL\n)" + sql[close + 1 :]
    if _INSERT_OR_IGNORE.match(sql):
        sql = (
            _INSERT_OR_IGNORE.sub("INSERT INTO", sql, count=1).rstrip() + " ON CONFLICT DO NOTHING"
        )
    return _numbered_placeholders(sql)


def _numbered_placeholders(sql: str) -> str:
    out, number, quoted = [], 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)
