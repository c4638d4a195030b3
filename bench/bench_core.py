"""Engine benchmarks, each beside a reference measured in the same run (ratios count, the
machine is noisy). Run: python bench/bench_core.py  (networkx is a bench-only dependency)."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import hexgrid as hg  # noqa: E402


def timed(fn, repeat=7, number=50):
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def compare(ours, reference, rounds=15, number=40):
    """Interleaved rounds, best of each: other load on the machine slows rounds, never speeds
    them up, so the minimum of alternating rounds is the fairest ratio on a noisy machine."""
    best_ours = best_ref = float("inf")
    for _ in range(rounds):
        best_ours = min(best_ours, timed(ours, repeat=1, number=number))
        best_ref = min(best_ref, timed(reference, repeat=1, number=number))
    return best_ours, best_ref


def bench_reachable():
    import networkx as nx

    grid = hg.HexMap.rectangle(40, 30)
    rng = random.Random(1)
    cost = tuple(rng.choice((1, 1, 1, 2, 3)) for _ in range(len(grid)))
    start = grid.idx("2015")
    enemies = {grid.idx(label) for label in ("2311", "1719", "2618")}
    zoc = {n for e in enemies for n in grid.adjacent[e]}
    road = [grid.idx(f"{c:02d}15") for c in range(10, 30)]
    links = set()
    for a, b in zip(road, road[1:]):
        if b in grid.adjacent[a]:
            links |= {(a, b), (b, a)}

    links = frozenset(links)  # fixed for the map, as games hold them

    def ours():
        return hg.reachable(grid, start, 6, cost, enemy=enemies, enemy_zoc=zoc, road_links=links)

    graph = nx.DiGraph()
    for a in range(len(grid)):
        for b in grid.adjacent[a]:
            if b in enemies:
                continue
            weight = 1 if (a, b) in links and b not in zoc else 2 * cost[b]
            graph.add_edge(a, b, weight=weight)

    def reference():
        # Same costs; networkx cannot stop at ZOC on its own, so it gets the easier problem.
        return nx.single_source_dijkstra_path_length(graph, start, cutoff=12, weight="weight")

    ours_t, ref_t = compare(ours, reference)
    return {
        "reachable, 40x30 map, 6 MP (ours)": ours_t,
        "networkx Dijkstra, same map": ref_t,
        "speed-up vs networkx": ref_t / ours_t,
    }


def bench_sight_line():
    rng = random.Random(2)
    pairs = []
    while len(pairs) < 400:
        a = (rng.randint(0, 30), rng.randint(-10, 20))
        b = (a[0] + rng.randint(-10, 10), a[1] + rng.randint(-10, 10))
        if 2 <= hg.distance(a, b) <= 10:
            pairs.append((a, b))

    def run():
        for a, b in pairs:
            hg.sight_line(a, b)

    per_pair = timed(run, repeat=5, number=3) / len(pairs)
    return {"exact sight line per pair, range 2-10": per_pair}


def bench_games():
    from engine import registry
    from engine.core.dice import seeded
    from engine.core.game import apply_action, autoplay, new_game

    rows = {}
    for name in registry.available():
        ruleset = registry.get_ruleset(name)
        scenario = ruleset.load_scenario(ruleset.default_scenario)
        start = time.perf_counter()
        final, actions = autoplay(ruleset, scenario, 11)
        whole = time.perf_counter() - start
        # A mid-game position: replay half the autoplayed game.
        state, _ = new_game(ruleset, scenario, 11)
        for i, action in enumerate(actions[: len(actions) // 2], start=1):
            state, _ = apply_action(ruleset, state, action, seeded(11, i))
        side = ruleset.awaiting(state)[0]
        legal_t = timed(lambda: ruleset.legal_actions(state, side), repeat=5, number=5)
        legal = ruleset.legal_actions(state, side)
        probe = legal[len(legal) // 2]
        apply_t = timed(
            lambda: apply_action(ruleset, state, probe, seeded(11, 10**6)), repeat=5, number=5
        )
        rows[f"{name}: legal_actions mid-game ({len(legal)} actions)"] = legal_t
        rows[f"{name}: apply one action"] = apply_t
        rows[
            f"{name}: whole autoplayed game ({len(actions)} actions, {final.get('turn')} turns)"
        ] = whole
    return rows


def main():
    results = {}
    results.update(bench_reachable())
    results.update(bench_sight_line())
    results.update(bench_games())
    width = max(map(len, results))
    for key, value in results.items():
        shown = (
            f"{value:8.2f}x"
            if "speed-up" in key
            else (f"{value * 1e3:9.3f} ms" if value < 10 else f"{value:9.1f} s")
        )
        print(f"{key:<{width}}  {shown}")


if __name__ == "__main__":
    main()
