"""Settings from the environment or a ``.env`` file (never from code)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: str
    dev_guild: int | None
    referee_role: str | None


def load_settings(env_file: str | Path = ".env") -> Settings:
    try:
        from dotenv import load_dotenv
        load_dotenv(env_file, override=False)
    except ImportError:  # python-dotenv is a dependency; tolerate its absence in odd setups
        pass
    guild = os.environ.get("UMPIRE_DEV_GUILD", "").strip()
    return Settings(
        token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database=os.environ.get("UMPIRE_DB", "umpire.sqlite3"),
        dev_guild=int(guild) if guild.isdigit() else None,
        referee_role=os.environ.get("UMPIRE_REFEREE_ROLE") or None,
    )
