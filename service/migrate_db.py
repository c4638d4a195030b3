"""``python bot.py migrate-db --from SOURCE --to TARGET [--replace-target]``: copy every game
(actions, snapshots, seats, clocks, posts, flares) and every server's settings from one
database to another, typically from the SQLite file to PostgreSQL, then check the copy.

The copy is one transaction on the target: it lands completely or not at all. The source is
read in one read transaction, so a copy taken while the bot runs is still consistent (stop the
bot anyway, or games played meanwhile are not in the copy). The check counts the rows of every
table on both sides and replays every game's live log on the target to its stored snapshot
hash. Exit codes: 0 copied and checked, 1 copied but the check found problems, 2 refused or
failed (nothing written).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field

from engine import registry
from engine.core.state import state_hash

from .replay import replay_rows
from .storage import BadDatabaseSetting, open_store, parse_database

# Parents before children (foreign keys); tables added by later migrations that are not
# listed here are copied after these, in name order.
COPY_ORDER = ("games", "actions", "snapshots", "seats", "guild_config", "clocks", "posts", "flares")
NOT_COPIED = {"schema_version"}


class MigrationRefused(Exception):
    pass


@dataclass
class MigrationReport:
    counts: dict[str, int] = field(default_factory=dict)
    checked_games: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def _tables(store) -> list[str]:
    if parse_database(getattr(store, "url", None) or store.path).is_postgres:
        rows = await store.fetchall(
            "SELECT table_name AS name FROM information_schema.tables "
            "WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE'"
        )
    else:
        rows = await store.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    names = {r["name"] for r in rows} - NOT_COPIED
    return [t for t in COPY_ORDER if t in names] + sorted(names - set(COPY_ORDER))


async def _count(store, table: str) -> int:
    row = await store.fetchone(f"SELECT COUNT(*) AS n FROM {table}")
    return int(row["n"]) if row else 0


async def copy_database(
    source_setting: str, target_setting: str, *, replace_target: bool = False
) -> MigrationReport:
    source = await open_store(source_setting)
    try:
        target = await open_store(target_setting)
        try:
            return await copy_stores(source, target, replace_target)
        finally:
            await target.close()
    finally:
        await source.close()


async def copy_stores(source, target, replace_target: bool = False) -> MigrationReport:
    """Copy every table from one open store to another in one transaction, then check it
    (also the backup of a PostgreSQL database into a SQLite file)."""
    if await source.schema_version() != await target.schema_version():
        raise MigrationRefused(
            "The two databases have different schema versions; run the "
            "same Umpire version against both."
        )
    tables = await _tables(source)
    missing = [t for t in tables if t not in await _tables(target)]
    if missing:
        raise MigrationRefused(f"The target lacks the tables {', '.join(missing)}.")
    occupied = {t: n for t in tables if (n := await _count(target, t))}
    if occupied and not replace_target:
        listing = ", ".join(f"{n} rows in {t}" for t, n in occupied.items())
        raise MigrationRefused(
            f"The target is not empty ({listing}). Nothing was copied; pass "
            "--replace-target to delete its contents and copy anyway."
        )
    # Read everything from one committed state of the source.
    data: dict[str, list[dict]] = {}
    async with source.reading() as db:
        for table in tables:
            rows = await db.fetchall(f"SELECT * FROM {table} ORDER BY rowid")
            data[table] = [{k: r[k] for k in r.keys() if k != "rowid"} for r in rows]
    async with target.transaction() as db:
        for table in reversed(tables):
            await db.execute(f"DELETE FROM {table}")
        for table in tables:
            for row in data[table]:  # in the source's order, so ORDER BY rowid still holds
                columns = ", ".join(row)
                marks = ", ".join("?" for _ in row)
                await db.execute(
                    f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(row.values())
                )
        if hasattr(target, "url"):
            # Explicit ids do not move PostgreSQL's sequence; the next new game must not
            # collide with a copied one.
            await db.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), "
                "COALESCE((SELECT MAX(id) FROM games), 0) + 1, false)"
            )
    report = MigrationReport(counts={t: len(rows) for t, rows in data.items()})
    for table in tables:
        copied = await _count(target, table)
        if copied != len(data[table]):
            report.problems.append(
                f"{table}: {len(data[table])} rows in the source, {copied} in the target."
            )
    await _check_games(target, report)
    return report


async def _check_games(target, report: MigrationReport) -> None:
    """Every game's live log, replayed on the target, gives its stored snapshot."""
    for game in await target.games():
        row, actions, snapshot = await target.game_log(game["id"])
        live = [a for a in actions if a["live"]]
        name = f"Game #{row['id']} ({row['ruleset']})"
        try:
            ruleset = registry.get_ruleset(row["ruleset"])
            replayed_log = await asyncio.to_thread(
                replay_rows, ruleset, json.loads(row["scenario_json"]), row["seed"], live
            )
            state = replayed_log.state
        except Exception as exc:  # a game this program cannot replay is reported, not fatal
            report.problems.append(f"{name}: cannot be replayed ({exc}).")
            continue
        replayed = state_hash(state)
        if snapshot is None or snapshot["state_hash"] != replayed:
            report.problems.append(
                f"{name}: the log replays to {replayed[:12]}, the stored "
                f"snapshot is {snapshot['state_hash'][:12] if snapshot else 'missing'}."
            )
        elif live and live[-1]["state_hash"] != replayed:
            report.problems.append(
                f"{name}: the log replays to {replayed[:12]}, its last "
                f"action recorded {live[-1]['state_hash'][:12]}."
            )
        report.checked_games += 1


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bot.py migrate-db",
        description="Copy every game and setting from one database to another and check it.",
    )
    p.add_argument(
        "--from",
        dest="source",
        required=True,
        help="the database to copy: a SQLite file, sqlite:///FILE or postgresql://…",
    )
    p.add_argument(
        "--to",
        dest="target",
        required=True,
        help="the database to fill, e.g. postgresql://user:password@host/umpire",
    )
    p.add_argument(
        "--replace-target",
        action="store_true",
        help="delete everything in the target first (otherwise a non-empty target is refused)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(list(argv or []))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        source, target = parse_database(args.source), parse_database(args.target)
    except BadDatabaseSetting as exc:
        print(exc, file=sys.stderr)
        return 2
    if not source.is_postgres and source.target != ":memory:":
        from pathlib import Path

        if not Path(source.target).is_file():
            print(f"No database file {source.target!r}.", file=sys.stderr)
            return 2
    if source == target:
        print("--from and --to name the same database.", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(
            copy_database(args.source, args.target, replace_target=args.replace_target)
        )
    except MigrationRefused as exc:
        print(exc, file=sys.stderr)
        return 2
    except Exception as exc:  # the drivers' own errors: refused login, unknown database...
        print(
            f"Copy failed ({type(exc).__name__}: {exc}). The copy is one transaction on the "
            "target: no game was copied.",
            file=sys.stderr,
        )
        return 2
    counts = ", ".join(f"{n} {t}" for t, n in report.counts.items())
    print(f"Copied from {source.display()} to {target.display()}: {counts}.")
    if report.ok:
        print(
            f"Checked: every table has the same number of rows, and all "
            f"{report.checked_games} games replay to their stored snapshots."
        )
        return 0
    print("The copy was written but does not check out:")
    for problem in report.problems:
        print(f"  {problem}")
    return 1
