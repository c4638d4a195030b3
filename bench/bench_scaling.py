"""The figures of docs/scaling.md: PostgreSQL beside SQLite in one run, two processes beside one.

Starts a throwaway PostgreSQL cluster (``tests/service/pgcluster.py``) with production
durability (fsync and full-page writes on, ``synchronous_commit`` on) in the same directory
as the SQLite file, so both commit to the same disk. Sets up live games as
``bench/bench_load.py`` does (templates played through the service, copied row for row), then
copies that database to PostgreSQL with ``migrate-db`` (which replays every game to check the
copy). Every run starts from that same position, on a fresh copy.

1. **The player mix** (``bench_load``'s ``Load``: autocomplete, ``/act`` and ``/game board``
   through the cogs' presenter, pictures in worker processes, the reminder pass), at one fixed
   rate, on SQLite and then on PostgreSQL.
2. **Action throughput** with no pictures: worker processes, each its own ``GameService``,
   each with a few concurrent clients acting on random live games as fast as they are
   answered (read the game, its legal actions, ``act`` with the version seen). One process
   beside two on disjoint games beside two on the same games (where one of two racing actions
   is told the game moved on), on both backends.
3. **Size**: the same games' bytes on each backend.

Each figure is printed beside its reference from the same run, with the load average: the
machine is shared, so compare within a run, not across runs.

    .venv/bin/python bench/bench_scaling.py --quick        # under two minutes
    .venv/bin/python bench/bench_scaling.py --games 1000 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


# ----- a worker process: closed-loop actions on its games ------------------------------------
async def worker(setting: str, games: list[int], seconds: float, clients: int, seed: int) -> dict:
    from service.errors import StaleVersion
    from service.games import GameService
    from service.pictures import Overloaded

    service = await GameService.open(setting)
    rng = random.Random(seed)
    counts = {"landed": 0, "stale": 0, "other": 0}
    latency: list[float] = []
    playing = list(games)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        while time.perf_counter() < deadline and playing:
            game_id = rng.choice(playing)
            start = time.perf_counter()
            info = await service.get_game(game_id)
            if info.result or info.status != "active" or not info.awaiting:
                if game_id in playing:
                    playing.remove(game_id)
                continue
            choices = await service.legal_actions(game_id, info.awaiting[0])
            if not choices:
                if game_id in playing:
                    playing.remove(game_id)
                continue
            try:
                await service.act(
                    game_id, rng.choice(choices), actor="bench", expected_version=info.version
                )
            except StaleVersion:
                counts["stale"] += 1
            except (Overloaded, Exception) as error:  # counted, and shown once
                if counts["other"] == 0:
                    print(f"refused: {error!r}", file=sys.stderr)
                counts["other"] += 1
            else:
                counts["landed"] += 1
                latency.append(time.perf_counter() - start)

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu
    await service.close()
    latency.sort()
    return {
        **counts,
        "wall": wall,
        "cpu": cpu,
        "p50": latency[len(latency) // 2] if latency else float("nan"),
        "p99": latency[min(len(latency) - 1, int(0.99 * len(latency)))]
        if latency
        else float("nan"),
    }


async def run_workers(
    setting: str, game_sets: list[list[int]], seconds: float, clients: int
) -> dict:
    """Start one worker process per game set, release them together, add up their counts."""
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(SCRIPT),
            "--worker",
            setting,
            json.dumps(games),
            str(seconds),
            str(clients),
            str(index + 1),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for index, games in enumerate(game_sets)
    ]
    for child in children:
        line = await asyncio.wait_for(child.stdout.readline(), timeout=120)
        if line.strip() != b"ready":
            raise RuntimeError(
                f"worker did not start: {line!r} {(await child.stderr.read()).decode()[-2000:]}"
            )
    load = os.getloadavg()[0]
    for child in children:
        child.stdin.write(b"go\n")
        await child.stdin.drain()
    reports = []
    for child in children:
        out, err = await asyncio.wait_for(child.communicate(), timeout=seconds + 120)
        if child.returncode != 0:
            raise RuntimeError(f"worker failed: {err.decode()[-2000:]}")
        if err.strip():
            print("   ", err.decode().strip().splitlines()[-1], file=sys.stderr)
        reports.append(json.loads(out.decode().strip().splitlines()[-1]))
    wall = max(r["wall"] for r in reports)
    total = {k: sum(r[k] for r in reports) for k in ("landed", "stale", "other", "cpu")}
    return {
        **total,
        "wall": wall,
        "per_second": total["landed"] / wall,
        "load": load,
        "p50": max(r["p50"] for r in reports),
        "p99": max(r["p99"] for r in reports),
        "cpu_ms": 1000 * total["cpu"] / max(1, total["landed"]),
    }


# ----- the player mix, as bench_load runs it -------------------------------------------------
async def run_mix(
    setting: str, ids: list[int], templates: list[int], rate: float, seconds: float
) -> dict:
    from bench_load import DAY, Load, cpu_seconds, lag_probe, pct, reminder_loop

    from cogs.reminders import ReminderCog
    from service.games import GameService

    shift = [0.0]
    service = await GameService.open(setting, clock=lambda: time.time() + shift[0])
    load = Load(service, ids, seed=1)
    reminders = ReminderCog(load.bot)
    await asyncio.gather(
        *(service.render(t) for t in templates for _ in range(max(1, service.pictures.workers)))
    )
    shift[0] = DAY + 60  # every clock's reminder is due
    stop = asyncio.Event()
    lags: list[float] = []
    passes: list[float] = []
    background = [
        asyncio.create_task(lag_probe(stop, lags)),
        asyncio.create_task(reminder_loop(reminders.run_once, stop, passes, 5.0)),
    ]
    loadavg = os.getloadavg()[0]
    cpu_before = cpu_seconds()
    started = time.perf_counter()
    await load.run(rate, seconds)
    wall = time.perf_counter() - started
    cpu_after = cpu_seconds()
    stop.set()
    await asyncio.gather(*background)
    await service.close()
    done = sum(load.outcomes.values())
    return {
        "load": loadavg,
        "wall": wall,
        "done": done,
        "outcomes": dict(load.outcomes),
        "accepted_per_second": load.outcomes["accepted"] / wall,
        "p50": pct(load.latency, 0.5) * 1000,
        "p99": pct(load.latency, 0.99) * 1000,
        "autocomplete_p99": pct(load.complete_latency, 0.99) * 1000,
        "lag_p99": pct(lags, 0.99) * 1000,
        "reminder_pass_max": max(passes or [float("nan")]) * 1000,
        "bot_cpu_ms": 1000 * (cpu_after[0] - cpu_before[0]) / max(1, done),
    }


def server_cpu(cluster) -> float:
    """CPU seconds used so far by the PostgreSQL server: the postmaster, the backends it has
    reaped (its children's times) and the live ones."""
    ticks = os.sysconf("SC_CLK_TCK")

    def stat(pid: int) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    fields = stat(postmaster)
    total = sum(int(f) for f in fields[11:15]) / ticks
    try:
        children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
    except OSError:
        children = []
    for pid in children:
        try:
            fields = stat(int(pid))
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


# ----- sizes ---------------------------------------------------------------------------------
def sqlite_bytes(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    finally:
        db.close()
    return (pages - free) * size


async def postgres_bytes(url: str) -> int:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute("VACUUM ANALYZE")
        return int(
            await connection.fetchval(
                "SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
        )
    finally:
        await connection.close()


# ----- the run -------------------------------------------------------------------------------
async def main(args) -> None:
    from bench_load import build_templates, clone_games

    from service.migrate_db import copy_database
    from tests.service.pgcluster import Cluster, find_bindir

    bindir = find_bindir()
    if bindir is None:
        sys.exit("No PostgreSQL server binaries (initdb, pg_ctl) found.")
    base = Path(tempfile.mkdtemp(prefix="umpire-scaling-"))
    os.chmod(base, 0o711)  # the server runs as the postgres user under root
    cluster = Cluster(bindir, base=base)
    cluster.start(durable=True)
    try:
        await measure(args, base, cluster, build_templates, clone_games, copy_database)
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


async def measure(args, base, cluster, build_templates, clone_games, copy_database) -> None:
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start; "
        f"PostgreSQL {cluster.bindir.parent.name} (fsync on) and SQLite (synchronous=FULL) "
        f"in {base}"
    )
    t0 = time.perf_counter()
    pristine = base / "pristine.sqlite3"
    templates = await build_templates(pristine, args.templates)
    ids = clone_games(pristine, templates, args.games)
    copies = [0]

    async def fresh(backend: str) -> str:
        copies[0] += 1
        if backend == "sqlite":
            path = base / f"run{copies[0]}.sqlite3"
            shutil.copy(pristine, path)
            return str(path)
        url = await cluster.new_database()
        report = await copy_database(str(pristine), url)
        if not report.ok:
            raise RuntimeError(f"copy to PostgreSQL failed its check: {report.problems[:3]}")
        return url

    built = time.perf_counter()
    first_pg = await fresh("postgresql")
    print(
        f"setup: {len(ids)} live games ({len(templates)} templates) in {built - t0:.0f} s; "
        f"one copy to PostgreSQL (with its check) {time.perf_counter() - built:.0f} s"
    )
    sizes = (sqlite_bytes(pristine), await postgres_bytes(first_pg))
    print(
        f"\nsize of the same {len(ids)} live games: SQLite {sizes[0] / len(ids) / 1024:.1f} KB"
        f" per game, PostgreSQL {sizes[1] / len(ids) / 1024:.1f} KB per game "
        f"(tables, indexes and TOAST after VACUUM)"
    )

    print(
        f"\n1. the player mix at {args.rate:g} commands/s for {args.seconds:g} s "
        "(autocomplete + /act or /game board, pictures, reminder pass)"
    )
    mixes = {}
    for backend in ("sqlite", "postgresql"):
        setting = str(pristine.with_name("mix.sqlite3")) if backend == "sqlite" else first_pg
        if backend == "sqlite":
            shutil.copy(pristine, setting)
        mixes[backend] = m = await run_mix(setting, ids, templates, args.rate, args.seconds)
        print(
            f"  {backend:<10} load {m['load']:.2f}: accepted {m['accepted_per_second']:.1f}/s"
            f" ({m['outcomes']}), p50 {m['p50']:.0f} ms, p99 {m['p99']:.0f} ms, "
            f"autocomplete p99 {m['autocomplete_p99']:.0f} ms, loop lag p99 "
            f"{m['lag_p99']:.0f} ms, reminder pass max {m['reminder_pass_max']:.0f} ms, "
            f"bot CPU {m['bot_cpu_ms']:.1f} ms/command"
        )

    print(
        f"\n2. actions as fast as answered, no pictures: {args.clients} clients per process, "
        f"{args.throughput_seconds:g} s"
    )
    half = len(ids) // 2
    runs = [
        ("one process", lambda: [ids]),
        ("two processes, disjoint games", lambda: [ids[:half], ids[half:]]),
        ("two processes, the same games", lambda: [ids, ids]),
    ]
    results = {}
    for backend in ("sqlite", "postgresql"):
        for name, sets in runs:
            setting = await fresh(backend)
            before = server_cpu(cluster)
            r = results[backend, name] = await run_workers(
                setting, sets(), args.throughput_seconds, args.clients
            )
            server = (server_cpu(cluster) - before) if backend == "postgresql" else 0.0
            one = results[backend, "one process"]["per_second"]
            print(
                f"  {backend:<10} {name:<30} load {r['load']:.2f}: {r['per_second']:6.1f} "
                f"actions/s ({r['per_second'] / one:.2f}x one process), moved-on "
                f"{r['stale']}, other refusals {r['other']}, p50 {r['p50'] * 1000:.1f} ms, "
                f"p99 {r['p99'] * 1000:.1f} ms, CPU {r['cpu_ms']:.1f} ms per action "
                f"(workers busy {r['cpu'] / r['wall']:.2f} cores"
                + (
                    f"; PostgreSQL server {1000 * server / max(1, r['landed']):.1f} ms per "
                    f"action, {server / r['wall']:.2f} cores)"
                    if backend == "postgresql"
                    else ")"
                )
            )
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--templates", type=int, default=2, help="per ruleset")
    parser.add_argument("--rate", type=float, default=20.0, help="player mix, commands/s")
    parser.add_argument("--seconds", type=float, default=30.0, help="player mix duration")
    parser.add_argument("--throughput-seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=8, help="concurrent, per process")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="100 games, 10 commands/s for 10 s, 6 s per throughput run: under two minutes",
    )
    parser.add_argument(
        "--worker",
        nargs=5,
        metavar=("DB", "GAMES", "SECONDS", "CLIENTS", "SEED"),
        help=argparse.SUPPRESS,
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.templates, args.rate, args.seconds = 100, 1, 10.0, 10.0
        args.throughput_seconds = 6.0
    return args


if __name__ == "__main__":
    arguments = parse()
    if arguments.worker:
        db, games, seconds, clients, seed = arguments.worker
        print(
            json.dumps(
                asyncio.run(worker(db, json.loads(games), float(seconds), int(clients), int(seed)))
            ),
            flush=True,
        )
    else:
        asyncio.run(main(arguments))
