"""The picture workers under a stream of board pictures from many games, as a busy bot sends
them: what each picture costs a worker (CPU, measured from the worker processes themselves,
so the state's unpickling and the PNG's pickling count), how often a map layer had to be
drawn, and each worker's memory.

Games: ``--games`` of each of the five games, autoplayed with their own seeds (Pocket Tactics'
and Tactical Table War's maps differ per game); each request picks a game at random (seeded)
and asks for its board a few actions further on, through ``PicturePool.run`` with the key
``PicturePool.board`` uses where the pool takes one (``--key game``: each game's id).
``--in-flight`` pictures are kept waiting (closed loop), so both workers always have work. The first ``--warm`` pictures are not
counted.

    python bench/bench_workers.py                         # this tree
    python bench/bench_workers.py --against /tmp/base     # this tree and another, interleaved
    python bench/bench_workers.py --static-mb 24          # a smaller map-layer cache per worker
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

STEP = 3  # actions between two pictures of one game


def positions(games_per: int, seed: int) -> list[tuple[str, str, list]]:
    """(ruleset path, language, [(state, events), ...] from 30% of the game on) per game; kept
    in /tmp between runs (the engine is the same in the trees compared)."""
    cache = Path(f"/tmp/bench_workers_positions_{games_per}_{seed}.pickle")
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    from engine import registry
    from engine.core.game import autoplay
    from service.pictures import ruleset_path

    rng = random.Random(seed)
    out = []
    for name in registry.available():
        rules = registry.get_ruleset(name)
        scenario = rules.load_scenario(rules.default_scenario)
        for n in range(games_per):
            frames: list = []
            autoplay(
                rules,
                scenario,
                1000 * seed + n,
                on_action=lambda i, s, a, e, st, frames=frames: frames.append((st, e)),
            )
            start = int(len(frames) * 0.3)
            out.append((ruleset_path(rules), rng.choice(("en", "de")), frames[start::STEP]))
    cache.write_bytes(pickle.dumps(out))
    return out


def children() -> list[int]:
    pids = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            pids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return pids


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_of(pid: int) -> dict:
    """RSS, PSS and USS in MB."""
    found = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        parts = line.split()
        if parts and parts[0].rstrip(":") in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
            found[parts[0].rstrip(":")] = int(parts[1]) / 1024
    return {
        "rss": found["Rss"],
        "pss": found["Pss"],
        "uss": found["Private_Clean"] + found["Private_Dirty"],
    }


def rss_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def run_once(args) -> dict:
    import worker_probe

    from service.pictures import PicturePool

    games = positions(args.games, args.seed)
    rng = random.Random(args.seed)
    cursor = [0] * len(games)
    config = {
        "static_bytes": int(args.static_mb * (1 << 20)) if args.static_mb else 0,
        "close_up_bytes": int(args.close_up_mb * (1 << 20)) if args.close_up_mb else 0,
        "sprites": args.sprites,
        "sprite_bytes": int(args.sprite_mb * (1 << 20)) if args.sprite_mb else 0,
        "palettes": args.palettes,
        "palette_tables": args.palette_tables,
    }
    pool = PicturePool(workers=2, limit=64)
    keyed = "key" in inspect.signature(pool.run).parameters
    if args.idle_after is not None:
        pool.idle_after = args.idle_after
    if keyed:
        from service.pictures import board_key

    async def picture(game: int) -> None:
        path, lang, frames = games[game]
        state, events = frames[cursor[game] % len(frames)]
        cursor[game] += 1
        extra = {}
        if keyed:
            extra["key"] = board_key(path, state, lang) if args.key == "board" else game
        await pool.run(worker_probe.board, config, path, state, events, None, (), lang, **extra)

    playing = rng.sample(range(len(games)), args.active) if args.active else []

    def next_game() -> int:
        """Any game (``--active 0``), or one of the games being played now: after each of
        their pictures a game stops with a chance of 1 in 6 and another starts."""
        if not playing:
            return rng.randrange(len(games))
        slot = rng.randrange(len(playing))
        game = playing[slot]
        if rng.random() < 1 / 6:
            playing[slot] = rng.choice([g for g in range(len(games)) if g not in playing])
        return game

    async def stream(count: int) -> float:
        order = [next_game() for _ in range(count)]
        started = time.perf_counter()
        pending: set = set()
        for game in order:
            if len(pending) >= args.in_flight:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            pending.add(asyncio.ensure_future(picture(game)))
        await asyncio.gather(*pending)
        return time.perf_counter() - started

    async def counters() -> dict:
        extra = [{"key": n} for n in range(4)] if keyed else [{}] * 6
        found = {}
        for info in await asyncio.gather(*(pool.run(worker_probe.stats, **e) for e in extra)):
            found[info["pid"]] = info
        return found

    try:
        await stream(args.warm)
        before = await counters()
        workers = sorted(before)
        cpu0 = {pid: cpu_of(pid) for pid in workers}
        peak = {"sum": 0.0, **{pid: 0.0 for pid in workers}}
        stop = threading.Event()

        def sample():
            while not stop.wait(0.2):
                each = {pid: rss_of(pid) for pid in workers}
                peak["sum"] = max(peak["sum"], sum(each.values()))
                for pid, value in each.items():
                    peak[pid] = max(peak[pid], value)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        wall = await stream(args.pictures)
        stop.set()
        sampler.join()
        cpu = sum(cpu_of(pid) - cpu0[pid] for pid in workers)
        after = await counters()
        memory = {pid: memory_of(pid) for pid in workers}
        if args.idle_trim:
            for n in range(2):
                await pool.run(worker_probe.trim, **({"key": n} if keyed else {}))
            trimmed = {pid: memory_of(pid) for pid in workers}
        else:
            trimmed = None
    finally:
        pool.shutdown()

    def delta(key):
        return sum(after[p][key] - before[p][key] for p in workers if p in after)

    n = args.pictures
    return {
        "tree": str(ROOT),
        "pictures": n,
        "games": len(games),
        "wall_s": wall,
        "busy": cpu / (2 * wall),
        "pictures_per_s": n / wall,
        "cpu_ms_per_picture": cpu / n * 1000,
        "scene_ms": delta("scene") / n * 1000,
        "picture_ms": delta("picture") / n * 1000,
        "layers_per_picture": delta("static_builds") / n,
        "close_ups_per_picture": delta("close_up_builds") / n,
        "palettes_per_picture": delta("palette_builds") / n,
        "palette_tables_per_picture": (
            delta("palette_tables_built") / n
            if "palette_tables_built" in after[workers[0]]
            else None
        ),
        "sprites_per_picture": delta("sprite_builds") / n,
        "close_up_hits_per_picture": delta("close_up_hits") / n,
        "palettes_kept": [after[p]["palettes_kept"] for p in workers],
        "share": [round((after[p]["pictures"] - before[p]["pictures"]) / n, 2) for p in workers],
        "static_mb": [round(after[p]["static_bytes"] / 2**20, 1) for p in workers],
        "sprite_mb": [round(after[p].get("sprite_bytes", 0) / 2**20, 1) for p in workers],
        "peak_rss_mb": round(peak["sum"], 1),
        "memory": [memory[p] for p in workers],
        "heap": [
            (round(after[p]["heap_mb"]), round(after[p]["heap_free_mb"]))
            for p in workers
            if "heap_mb" in after[p]
        ],
        "trimmed": [trimmed[p] for p in workers] if trimmed else None,
    }


def show(result: dict) -> str:
    mem = " | ".join(f"{m['rss']:.0f}/{m['pss']:.0f}/{m['uss']:.0f}" for m in result["memory"])
    line = (
        f"{result['label']:<22} {result['cpu_ms_per_picture']:6.1f} ms CPU/picture "
        f"(scene {result['scene_ms']:.1f}, picture {result['picture_ms']:.1f}), "
        f"{result['pictures_per_s']:5.1f} pictures/s (workers busy {result['busy']:.0%}), layers drawn {result['layers_per_picture']:.3f}"
        f"/picture (close-ups {result['close_ups_per_picture']:.3f}, reused "
        f"{result['close_up_hits_per_picture']:.3f}, palettes "
        f"{result['palettes_per_picture']:.3f}"
        + (
            f" (lookup tables {result['palette_tables_per_picture']:.3f})"
            if result.get("palette_tables_per_picture") is not None
            else ""
        )
        + f", sprites {result['sprites_per_picture']:.2f}), "
        f"share {result['share']}, layers kept {result['static_mb']} MB, sprites kept "
        f"{result.get('sprite_mb')} MB, palettes kept "
        f"{result['palettes_kept']}, "
        f"peak RSS {result['peak_rss_mb']:.0f} MB, RSS/PSS/USS {mem} MB"
    )
    if result.get("heap"):
        line += ", heap (of it free) " + " | ".join(f"{a} ({b})" for a, b in result["heap"]) + " MB"
    if result.get("trimmed"):
        line += " -> trimmed " + " | ".join(
            f"{m['rss']:.0f}/{m['pss']:.0f}/{m['uss']:.0f}" for m in result["trimmed"]
        )
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games of each of the five")
    parser.add_argument("--pictures", type=int, default=400)
    parser.add_argument("--warm", type=int, default=150)
    parser.add_argument("--in-flight", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--active", type=int, default=0, help="games being played at a time (0: any game)"
    )
    parser.add_argument("--static-mb", type=float, default=0)
    parser.add_argument("--close-up-mb", type=float, default=0)
    parser.add_argument("--sprites", type=int, default=0)
    parser.add_argument("--sprite-mb", type=float, default=0)
    parser.add_argument("--palettes", type=int, default=0)
    parser.add_argument(
        "--palette-tables", type=int, help="palettes that keep their lookup table, per worker"
    )
    parser.add_argument(
        "--key",
        choices=("board", "game"),
        default="board",
        help="route as the bot does (by game, scenario and language), or by each game",
    )
    parser.add_argument("--idle-trim", action="store_true", help="trim each worker at the end")
    parser.add_argument(
        "--idle-after", type=float, help="seconds a worker waits idle before it trims"
    )
    parser.add_argument("--against", help="another tree (a reference) run in alternation")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--label", default="")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.against:
        result = asyncio.run(run_once(args))
        result["label"] = args.label or ROOT.name
        print(json.dumps(result) if args.json else show(result))
        return
    other = Path(args.against).resolve()
    for name in ("bench_workers.py", "worker_probe.py"):
        shutil.copy(ROOT / "bench" / name, other / "bench" / name)
    own = [a for a in sys.argv[1:] if a not in ("--against", args.against)]
    own = [a for i, a in enumerate(own) if not (a == "--rounds" or own[i - 1 : i] == ["--rounds"])]
    for _ in range(args.rounds):
        for tree in (other, ROOT):
            done = subprocess.run(
                [sys.executable, str(tree / "bench" / "bench_workers.py"), *own],
                cwd=tree,
                capture_output=True,
                text=True,
                timeout=900,
            )
            print(done.stdout.strip() or done.stderr[-2000:], flush=True)


if __name__ == "__main__":
    main()
