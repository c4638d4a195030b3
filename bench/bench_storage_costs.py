"""Per-action costs of the service on SQLite, the inputs of docs/scaling.md's paper estimate.

For one autoplayed game of each ruleset, every action goes through ``GameService.act`` on a
real SQLite file (``synchronous=FULL``, as the bot runs it). Printed per game:

- wall time of ``act`` (median and 90th percentile), and how much of it was the storage
  transaction (``Store.commit_change``) versus loading, rules and bookkeeping;
- bytes: the average action row (action, events, dice, label and the fixed columns as SQLite
  stores them, measured by the file's growth), the state snapshot, the scenario copy in the
  game row, and the whole file per game;
- the board picture (``GameService.render``) of the final position, first (map layer drawn)
  and warm (as for every later post), and how many actions ended a turn (a new board post).

Short on purpose (about a minute); run it alone on a quiet machine for steadier numbers:

    .venv/bin/python bench/bench_storage_costs.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry
from engine.core.dice import SeededSource
from service.games import GameService

GAMES = [("tenochtitlan", ""), ("rivet-wars", ""), ("pocket-tactics", "")]


def file_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


async def play(name: str, scenario: str, workdir: Path) -> dict:
    path = workdir / f"{name}.sqlite3"
    svc = await GameService.open(path)
    store = svc.store
    await store.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    size_empty = file_bytes(path)  # schema only: a fixed cost per database, not per game
    commit_times: list[float] = []
    original = store.commit_change

    async def timed_commit(*args, **kwargs):
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            commit_times.append(time.perf_counter() - start)

    store.commit_change = timed_commit
    ruleset = registry.get_ruleset(name)
    info = await svc.create_game(name, scenario, seed=f"bench-{name}")
    info = await svc.start_game(info.id)
    await store.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    size_after_start = file_bytes(path)
    chooser = SeededSource(f"bench:{name}", 0)
    act_times: list[float] = []
    turn_posts = 0  # outcomes after which the bot posts a new board picture
    state = info.state
    while not ruleset.result(state) and len(act_times) < 2000:
        side = ruleset.awaiting(state)[0]
        legal = ruleset.legal_actions(state, side)
        action = legal[chooser.draw(len(legal)) - 1]
        start = time.perf_counter()
        outcome = await svc.act(info.id, action, actor="bench")
        act_times.append(time.perf_counter() - start)
        turn_posts += outcome.turn_ended or outcome.game_over
        state = outcome.game.state
    await store.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    size_at_end = file_bytes(path)
    sizes = await store.fetchone(
        "SELECT COUNT(*) AS n, AVG(LENGTH(action_json)) AS action, "
        "AVG(LENGTH(events_json)) AS events, AVG(LENGTH(dice_json)) AS dice, "
        "AVG(LENGTH(label)) AS label FROM actions WHERE game_id = ?",
        (info.id,),
    )
    snap = await store.fetchone(
        "SELECT AVG(LENGTH(state_json)) AS state, COUNT(*) AS kept "
        "FROM snapshots WHERE game_id = ?",
        (info.id,),
    )
    game_row = await store.fetchone(
        "SELECT LENGTH(scenario_json) AS scenario FROM games WHERE id = ?", (info.id,)
    )
    start = time.perf_counter()
    png = await svc.render(info.id)
    render_s = time.perf_counter() - start
    warm = []
    for _ in range(5):  # the map layer is cached now, as for every post but the first
        start = time.perf_counter()
        await svc.render(info.id)
        warm.append(time.perf_counter() - start)
    await svc.close()
    ordered = sorted(act_times)
    return {
        "game": name,
        "actions": len(act_times),
        "act_median_ms": statistics.median(act_times) * 1000,
        "act_p90_ms": ordered[int(len(ordered) * 0.9)] * 1000,
        "commit_median_ms": statistics.median(commit_times) * 1000,
        "act_total_s": sum(act_times),
        "commit_total_s": sum(commit_times),
        "row_payload_b": sum(sizes[k] or 0 for k in ("action", "events", "dice", "label")),
        "file_per_action_b": (size_at_end - size_after_start) / max(1, len(act_times)),
        "state_b": snap["state"],
        "snapshots_kept": snap["kept"],
        "scenario_b": game_row["scenario"],
        "file_b": size_at_end - size_empty,
        "render_ms": render_s * 1000,
        "png_b": len(png),
        "turn_posts": turn_posts,
        "warm_render_ms": statistics.median(warm) * 1000,
    }


async def main() -> None:
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, scenario in GAMES:
            r = await play(name, scenario, Path(tmp))
            print(
                f"{r['game']}: {r['actions']} actions; act median {r['act_median_ms']:.1f} ms, "
                f"p90 {r['act_p90_ms']:.1f} ms, total {r['act_total_s']:.2f} s of which "
                f"commit {r['commit_total_s']:.2f} s (median {r['commit_median_ms']:.1f} ms)"
            )
            print(
                f"    action row payload {r['row_payload_b']:.0f} B, file growth per action "
                f"{r['file_per_action_b']:.0f} B; state snapshot {r['state_b']:.0f} B "
                f"(x{r['snapshots_kept']} kept); scenario copy {r['scenario_b']} B; "
                f"the game's share of the file {r['file_b']} B"
            )
            print(
                f"    board picture: first {r['render_ms']:.0f} ms, then median "
                f"{r['warm_render_ms']:.0f} ms, {r['png_b']} B; {r['turn_posts']} turn posts "
                f"(one per {r['actions'] / max(1, r['turn_posts']):.1f} actions)"
            )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    asyncio.run(main())
