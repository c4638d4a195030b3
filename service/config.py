"""Settings from the environment or a ``.env`` file (never from code).

A value that is set but malformed is a :class:`ConfigError` at startup, never a silent
default: a mistyped ``UMPIRE_DEV_GUILD`` must not turn into a global command sync, and a
mistyped ``UMPIRE_SHARDS`` must not leave shards without a process or games with two.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

# Discord ids are unsigned 64-bit integers; 0 is never a real id.
SNOWFLAKE_MAX = 2**64 - 1
# Discord itself caps the shard count far below this; the cap only keeps a typo such as
# "0-99999999/100000000" from building a huge tuple.
MAX_SHARDS = 65_536
MAX_SPEC_LENGTH = 200


class ConfigError(ValueError):
    """A setting is present but unusable; the message names the variable and the fix."""


@dataclass(frozen=True)
class ShardPlan:
    """Which of ``count`` gateway shards this process runs (``ids``, sorted, unique)."""

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int | None) -> bool:
        """True if the game of this server belongs to this process (DMs go to shard 0)."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"{','.join(map(str, self.ids))}/{self.count}"


def shard_of(guild_id: int | None, count: int) -> int:
    """Discord's formula: the shard whose gateway connection receives this server's events."""
    if not guild_id:
        return 0
    return (int(guild_id) >> 22) % count


def _number(text: str, spec: str) -> int:
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise ConfigError(
            f"UMPIRE_SHARDS={spec!r}: {text!r} is not a shard number. "
            "Write e.g. 0-3/8, 2/8 or 0,2,5/8."
        )
    return int(text)


def parse_shards(spec: str) -> ShardPlan | None:
    """``"0-3/8"`` (shards 0 to 3 of 8), ``"2/8"``, ``"0,2,5/8"``, ``"0-1,6-7/8"``;
    empty means "not set" (None: one process, Discord's recommended count)."""
    spec = spec.strip()
    if not spec:
        return None
    if len(spec) > MAX_SPEC_LENGTH:
        raise ConfigError(
            f"UMPIRE_SHARDS is {len(spec)} characters long; at most {MAX_SPEC_LENGTH} are accepted."
        )
    which, slash, total = spec.replace(" ", "").partition("/")
    if not slash or not which or not total:
        raise ConfigError(
            f"UMPIRE_SHARDS={spec!r} lacks the shard count: write "
            "<shards>/<count>, e.g. 0-3/8 (this process runs shards 0 to 3 of 8)."
        )
    count = _number(total, spec)
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(
            f"UMPIRE_SHARDS={spec!r}: the shard count must be between 1 and {MAX_SHARDS}."
        )
    ids: set[int] = set()
    for part in which.split(","):
        first, dash, last = part.partition("-")
        low = _number(first, spec)
        high = _number(last, spec) if dash else low
        if low > high:
            raise ConfigError(f"UMPIRE_SHARDS={spec!r}: the range {part!r} runs backwards.")
        if high >= count:
            raise ConfigError(
                f"UMPIRE_SHARDS={spec!r}: shard {high} does not exist; with "
                f"{count} shards they are numbered 0 to {count - 1}."
            )
        overlap = ids.intersection(range(low, high + 1))
        if overlap:
            raise ConfigError(f"UMPIRE_SHARDS={spec!r} names shard {min(overlap)} twice.")
        ids.update(range(low, high + 1))
    return ShardPlan(tuple(sorted(ids)), count)


def parse_snowflake(name: str, value: str) -> int | None:
    """A Discord id from the environment; empty is None, anything else not an id is an error."""
    value = value.strip()
    if not value:
        return None
    if not re.fullmatch(r"[0-9]{1,20}", value) or not 0 < int(value) <= SNOWFLAKE_MAX:
        shown = value if len(value) <= 40 else value[:40] + "…"
        raise ConfigError(
            f"{name}={shown!r} is not a Discord id (a positive whole number such "
            "as 123456789012345678: right-click the server with developer mode on, "
            "Copy Server ID). Unset it to use global commands."
        )
    return int(value)


def parse_database_setting(value: str) -> str:
    """``UMPIRE_DB`` as given, once it names a SQLite file or a PostgreSQL server. Checked at
    start: otherwise a typo (``postgress://``, ``sqlite://x``) would only surface after the
    Discord login, as a traceback."""
    from .storage import BadDatabaseSetting, parse_database

    try:
        parse_database(value)
    except BadDatabaseSetting as error:
        raise ConfigError(f"UMPIRE_DB: {error}") from None
    return value


def parse_switch(name: str, value: str) -> bool | None:
    value = value.strip().lower()
    if not value:
        return None
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name}={value[:40]!r}: write 1 or 0.")


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: str
    dev_guild: int | None
    referee_role: str | None
    # None: one process, all shards, Discord's recommended count.
    shards: ShardPlan | None = None
    # UMPIRE_SYNC: None means "the process that runs shard 0 syncs".
    sync: bool | None = None

    @property
    def syncs_commands(self) -> bool:
        """Exactly one process of a deployment pushes the command tree to Discord."""
        if self.sync is not None:
            return self.sync
        return self.shards is None or 0 in self.shards.ids

    def owns(self, guild_id: int | None) -> bool:
        return self.shards is None or self.shards.owns(guild_id)


def load_settings(env_file: str | Path = ".env") -> Settings:
    """Raises :class:`ConfigError` for a malformed value."""
    try:
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)
    except ImportError:  # python-dotenv is a dependency; tolerate its absence in odd setups
        pass
    return Settings(
        token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database=parse_database_setting(os.environ.get("UMPIRE_DB", "umpire.sqlite3")),
        dev_guild=parse_snowflake("UMPIRE_DEV_GUILD", os.environ.get("UMPIRE_DEV_GUILD", "")),
        referee_role=os.environ.get("UMPIRE_REFEREE_ROLE") or None,
        shards=parse_shards(os.environ.get("UMPIRE_SHARDS", "")),
        sync=parse_switch("UMPIRE_SYNC", os.environ.get("UMPIRE_SYNC", "")),
    )
