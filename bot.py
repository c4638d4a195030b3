"""Umpire's entry point.

    python bot.py                 Discord bot if DISCORD_TOKEN is set, else the local table
    python bot.py local [...]     the local table (hot-seat, --script, --autoplay)
    python bot.py commands        print the application command tree as JSON, offline
    python bot.py verify [...]    replay a finished game with its revealed seed, check every die
    python bot.py migrate-db --from DB --to DB [--replace-target]
                                  copy every game to another database (SQLite -> PostgreSQL)
"""
from __future__ import annotations

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
    if command == "migrate-db":
        from service.migrate_db import main as migrate_main
        return migrate_main(argv[1:])
    if command == "commands":
        from cogs.runtime import print_command_tree
        return print_command_tree()
    if command in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    from service.config import load_settings
    settings = load_settings()
    if not settings.token:
        print("No DISCORD_TOKEN is configured (environment or .env), so Umpire starts the "
              "local table in this terminal instead. Type /help for commands.", flush=True)
        from service.table import main as table_main
        return table_main(argv)
    from cogs.runtime import run_bot
    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
