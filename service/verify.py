"""``python bot.py verify --db PATH --game ID [--seed SEED]``: replay a stored game with its seed
and confirm every die, every event and the final state hash. Exit 0 when everything matches,
1 when anything does not, 2 for bad arguments.

Players check a finished game with the seed revealed in the thread (``--seed``): the seed must
hash to the value published at the start, and replaying the log with it must give exactly the
dice that were rolled.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from engine.core.errors import UmpireError

from .errors import ServiceError
from .games import GameService
from .storage import BadDatabaseSetting, parse_database


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bot.py verify",
                                description="Replay a game's log with its seed and check every die.")
    p.add_argument("--db", required=True,
                   help="the database: a SQLite file, sqlite:///FILE or postgresql://…")
    p.add_argument("--game", required=True, help="the game id (#N in the thread)")
    p.add_argument("--seed", default=None,
                   help="the revealed seed to check (default: the seed stored in the database)")
    return p


async def _verify(db: str | Path, game_id: int, seed: str | None) -> tuple[int, list[str]]:
    svc = await GameService.open(db)
    try:
        info = await svc.get_game(game_id)
        report = await svc.verify(game_id, seed=seed)
    finally:
        await svc.close()
    lines = [f"Game #{info.id}: {info.ruleset}, scenario {info.scenario}, {info.status}, "
             f"version {info.version}.",
             f"Seed hash published at the start: {info.seed_hash}"]
    if seed is None:
        lines.append("Checked with the seed stored on the server"
                     + ("" if info.seed else " (not yet revealed to players)") + ".")
    else:
        lines.append("Checked with the seed given on the command line.")
    lines += report.lines()
    return (0 if report.ok else 1), lines


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(list(argv or []))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        database = parse_database(args.db)
    except BadDatabaseSetting as exc:
        print(exc, file=sys.stderr)
        return 2
    db: str | Path = database.target
    if not database.is_postgres:
        db = Path(database.target)
        if not db.is_file():
            print(f"No database file {str(db)!r}.", file=sys.stderr)
            return 2
    try:
        game_id = int(str(args.game).lstrip("#"))
    except ValueError:
        print(f"--game takes a game number, not {args.game!r}.", file=sys.stderr)
        return 2
    try:
        code, lines = asyncio.run(_verify(db, game_id, args.seed))
    except (ServiceError, UmpireError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return code
