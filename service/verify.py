"""``python bot.py verify --db PATH --game ID [--seed SEED] [--seed-hash HASH]``: replay a
stored game with its seed and confirm every die, every event and the final state hash.

Exit codes (also in ``docs/storage.md``):

    0  everything matches
    1  mismatch: a die, an event, a state, the seed's hash, or a gap in the log
    2  bad arguments
    3  cannot read: no such file, not an Umpire database (or another schema version), damaged,
       locked, no such game, or a game whose rules this program does not have

Players check a finished game with the seed revealed in the thread (``--seed``) and the hash
posted when it started (``--seed-hash``): the seed must hash to the value posted at the start,
the database must hold that same hash, and replaying the log with the seed must give exactly
the dice that were rolled. The log must be complete: every action number and every game
version accounted for, so an action (an undone re-roll, say) deleted from the database fails.

The database is opened read-only (SQLite ``mode=ro``) and never migrated: checking a game never
changes the file, even one written by another Umpire version (that is refused instead).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from engine import registry
from engine.core.errors import UmpireError

from .errors import StorageError
from .replay import seed_hash, verify_log
from .storage import BadDatabaseSetting, open_store, parse_database

OK, MISMATCH, USAGE, CANNOT_READ = 0, 1, 2, 3


class CannotRead(Exception):
    """The game cannot be checked at all (as opposed to: checked, and it does not match)."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bot.py verify",
        description="Replay a game's log with its seed and check every die. Exit 0: all "
        "matches; 1: mismatch; 2: bad arguments; 3: the database or game cannot "
        "be read.",
    )
    p.add_argument(
        "--db",
        required=True,
        help="the database, opened read-only: a SQLite file, sqlite:///FILE or postgresql://...",
    )
    p.add_argument("--game", required=True, help="the game id (#N in the thread)")
    p.add_argument(
        "--seed",
        default=None,
        help="the revealed seed to check (default: the seed stored in the database)",
    )
    p.add_argument(
        "--seed-hash", default=None, help="the seed hash posted in the thread when the game started"
    )
    return p


def log_gaps(rows: list[dict], game_version: int) -> list[str]:
    """What is missing from a game's action log. Every change of a game's state is an action
    (a new ``seq``, its ``version``) or an undo (its ``undone_version``), and versions grow by
    one per change, so a complete log numbers its actions 1..n and accounts for every version
    1..``game_version`` exactly once."""
    problems = []
    seqs = [int(r["seq"]) for r in rows]
    missing = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))
    if missing:
        problems.append(f"The log is incomplete: action(s) {_numbers(missing)} are missing.")
    seen: dict[int, str] = {}
    for row in rows:
        marks = [(row["version"], f"action #{row['seq']}")]
        if row.get("undone_version") is not None:
            marks.append((row["undone_version"], f"the undo of action #{row['seq']}"))
            if row["undone_version"] <= row["version"]:
                problems.append(f"Action #{row['seq']} is marked undone before it was played.")
        for version, what in marks:
            version = int(version)
            if version in seen:
                problems.append(f"Version {version} is claimed twice ({seen[version]} and {what}).")
            seen[version] = what
    absent = sorted(set(range(1, int(game_version) + 1)) - set(seen))
    if absent:
        problems.append(
            f"The log is incomplete: no action or undo produced version(s) "
            f"{_numbers(absent)} of the game (the game is at version "
            f"{game_version}); rows were deleted."
        )
    beyond = sorted(v for v in seen if v > int(game_version))
    if beyond:
        problems.append(
            f"The log has version(s) {_numbers(beyond)}, beyond the game's version {game_version}."
        )
    return problems


def undone_rolls(rows: list[dict]) -> list[str]:
    """Every action that rolled dice and was taken back, with who took it back: a re-roll by
    undo is legal for a referee, and the report shows each one."""
    lines = []
    for row in rows:
        if row.get("live", 1) or row.get("undone_version") is None:
            continue
        events = json.loads(row["events_json"])
        rolls = [e.get("value") for e in events if e.get("type") == "roll"]
        if not rolls:
            continue
        kind = json.loads(row["action_json"]).get("type")
        lines.append(
            f"Action #{row['seq']} ({row['side']}: {kind}) rolled {rolls} and was "
            f"undone by {row.get('undone_by') or 'unknown'} (version "
            f"{row['undone_version']})."
        )
    return lines


def _numbers(values: list[int]) -> str:
    shown = ", ".join(str(v) for v in values[:20])
    return shown + (f" (+{len(values) - 20} more)" if len(values) > 20 else "")


async def _verify(
    db: str | Path, game_id: int, seed: str | None, posted_hash: str | None
) -> tuple[int, list[str]]:
    store = await open_store(db, read_only=True)
    try:
        row = await store.game(game_id)
        if row is None:
            raise CannotRead(f"There is no game #{game_id} in {db}.")
        rows = await store.actions(game_id, include_undone=True)
        snapshot = await store.snapshot(game_id)
    finally:
        await store.close()
    try:
        ruleset = registry.get_ruleset(row["ruleset"])
    except (registry.UnknownGame, ImportError, AttributeError) as exc:
        raise CannotRead(
            f"Game #{game_id} is {row['ruleset']}, which this program cannot replay ({exc})."
        ) from None
    checked_seed = str(seed) if seed is not None else row["seed"]
    report = await asyncio.to_thread(
        verify_log,
        ruleset,
        json.loads(row["scenario_json"]),
        checked_seed,
        row["seed_hash"],
        json.loads(row["setup_events"]),
        rows,
        snapshot["state_hash"] if snapshot else None,
    )
    problems = list(report.problems)
    if posted_hash is not None:
        posted = posted_hash.strip().lower()
        if posted != row["seed_hash"]:
            problems.insert(
                0,
                f"The database's seed hash ({row['seed_hash'][:16]}…) is not the "
                f"one posted at the start ({posted[:16]}…).",
            )
        if seed_hash(checked_seed) != posted:
            problems.insert(
                0,
                f"The seed does not hash to the value posted at the start "
                f"(sha256 of the seed is {seed_hash(checked_seed)[:16]}…).",
            )
    problems += log_gaps(rows, row["version"])
    revealed = row["status"] == "finished"
    lines = [
        f"Game #{row['id']}: {row['ruleset']}, scenario {row['scenario']}, {row['status']}, "
        f"version {row['version']}, {len(rows)} logged actions.",
        f"Seed hash published at the start: {row['seed_hash']}",
    ]
    if seed is None:
        lines.append(
            "Checked with the seed stored on the server"
            + ("" if revealed else " (not yet revealed to players)")
            + "."
        )
    else:
        lines.append("Checked with the seed given on the command line.")
    if posted_hash is None:
        lines.append(
            "(Pass --seed-hash with the hash posted in the thread to check that the "
            "database holds the same one.)"
        )
    head = "OK" if not problems else "FAILED"
    lines.append(
        f"{head}: {report.actions} actions and {report.dice} dice replayed from the "
        f"seed; final state {report.final_hash}"
    )
    lines += [f"- {p}" for p in problems]
    undone = undone_rolls(rows)
    lines.append(f"Undone rolls: {len(undone)}" + (":" if undone else "."))
    lines += [f"  {line}" for line in undone]
    return (OK if not problems else MISMATCH), lines


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(list(argv or []))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        database = parse_database(args.db)
    except BadDatabaseSetting as exc:
        print(exc, file=sys.stderr)
        return USAGE
    db: str | Path = database.target if database.is_postgres else Path(database.target)
    try:
        game_id = int(str(args.game).lstrip("#"))
    except ValueError:
        print(f"--game takes a game number, not {args.game!r}.", file=sys.stderr)
        return USAGE
    try:
        code, lines = asyncio.run(_verify(db, game_id, args.seed, args.seed_hash))
    except (StorageError, CannotRead) as exc:
        print(f"Cannot read: {exc}", file=sys.stderr)
        return CANNOT_READ
    except UmpireError as exc:  # a stored scenario this program's rules cannot set up
        print(f"Cannot read: game #{game_id} cannot be set up again: {exc}", file=sys.stderr)
        return CANNOT_READ
    print("\n".join(lines))
    return code
