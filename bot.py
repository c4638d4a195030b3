"""Umpire's entry point.

python bot.py                 Discord bot if DISCORD_TOKEN is set, else the local table
python bot.py local [...]     the local table (hot-seat, --script, --autoplay)
python bot.py commands        print the application command tree as JSON, offline
python bot.py verify [...]    replay a finished game with its revealed seed, check every die
python bot.py sync            push the command tree to Discord now (normally the bot syncs
                              by itself, only when the tree changed)
python bot.py export --db DB --game ID --out FILE.html
                              one HTML page (boards, log, seed once over) + JSON log
python bot.py backup PATH     copy the database (UMPIRE_DB or --db) safely, even while the
                              bot runs; --force replaces an existing PATH
python bot.py migrate-db --from DB --to DB [--replace-target]
                              copy every game to another database (SQLite -> PostgreSQL)
"""

from __future__ import annotations

import os
import sys


def create_bot(**overrides):
    """A fully configured bot that reads its settings (database path included) from the
    environment; used by ``main`` and by the test harness (which may pass ``clock`` and
    ``dice_override``)."""
    from cogs.runtime import create_bot as _create

    return _create(**overrides)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "local":
        from service.table import main as table_main

        return table_main(argv[1:])
    if command == "verify":
        from service.verify import main as verify_main

        return verify_main(argv[1:])
    if command == "export":
        from service.export import main as export_main

        return export_main(argv[1:])
    if command == "backup":
        from service.backup import main as backup_main
        from service.config import ConfigError, load_settings

        try:
            default_db = load_settings().database
        except ConfigError as error:
            print(f"Umpire cannot start: {error}", file=sys.stderr)
            return 2
        return backup_main(argv[1:], default_db=default_db)
    if command == "migrate-db":
        from service.migrate_db import main as migrate_main

        return migrate_main(argv[1:])
    if command == "commands":
        from cogs.runtime import print_command_tree

        return print_command_tree()
    if command in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    from service.config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"Umpire cannot start: {error}", file=sys.stderr)
        return 2
    if command == "sync":
        from cogs.runtime import sync_commands

        return sync_commands(settings)
    if not settings.token and os.environ.get("UMPIRE_REQUIRE_TOKEN", "").strip() not in ("", "0"):
        # The container sets UMPIRE_REQUIRE_TOKEN: there the local table would read an empty
        # stdin, exit at once and be restarted forever without a word.
        print(
            "Cannot start: no DISCORD_TOKEN is configured, and UMPIRE_REQUIRE_TOKEN is set "
            "(as in the Docker image), so Umpire will not fall back to the local table. Pass "
            "the bot token, e.g. docker run -e DISCORD_TOKEN=... (see README, Discord).",
            file=sys.stderr,
            flush=True,
        )
        return 2
    if not settings.token:
        print(
            "No DISCORD_TOKEN is configured (environment or .env), so Umpire starts the "
            "local table in this terminal instead. Type /help for commands.",
            flush=True,
        )
        from service.table import main as table_main

        return table_main(argv)
    from cogs.runtime import run_bot
    from service.errors import StorageError

    try:
        return run_bot(settings)
    except StorageError as error:
        # The database cannot be opened (read-only volume, full disk, foreign file): one line
        # that says what to do, not a traceback.
        print(f"Cannot start: {error}", file=sys.stderr, flush=True)
        return 1


def cli() -> None:
    """The ``umpire`` console command of an installed copy: the same as ``python bot.py``."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    cli()
