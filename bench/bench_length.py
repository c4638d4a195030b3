"""Costs against a game's length: the same operations at 300, 1,000 and 5,000 logged actions.

No packaged game lasts 5,000 actions, so the game is the test fixture ruleset (``skirmish``:
two units a side, move then fire phase) with its turn limit lifted, played through the service
on a real SQLite file by moves and phase ends (8 actions a turn). At each length, the best of
several runs (other processes only ever slow a run down):

- act (a move), the /act autocomplete (through ``cogs.play.PlayCog``), the turn picture
  (``GameService.render``), "changes since" the side last acted, a referee undo: these should
  be flat (target: within 1.5x from 300 to 5,000);
- the board at a turn in the middle of the game (``render_turn``): flat too, it replays at
  most ``CHECKPOINT_EVERY`` actions from the nearest checkpoint;
- ``verify``: replays the whole log by design (linear);
- the replay animation (``GameService.render_animation``): at most ``MAX_REPLAY_FRAMES``
  frames whatever the length, and the memory it adds to the process at its peak.

    .venv/bin/python bench/bench_length.py            # 300, 1000, 5000
    .venv/bin/python bench/bench_length.py --quick     # 100, 300, 1000
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import record  # noqa: E402
from bench_load import THREAD_BASE, Counters, FakeBot, FakeInteraction  # noqa: E402
from PIL import Image  # noqa: E402

import tests.fixtures.skirmish as skirmish  # noqa: E402
from engine import registry  # noqa: E402
from engine.core.dice import SeededSource  # noqa: E402
from engine.core.phases import TurnCycle  # noqa: E402
from service import store as store_module  # noqa: E402
from service.games import MAX_REPLAY_FRAMES, GameService  # noqa: E402

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
# The fixture's last turn is 10; an endless game gives logs of any length.
skirmish.CYCLE = TurnCycle(
    phases=skirmish.CYCLE.phases, sides=skirmish.CYCLE.sides, last_turn=10**9
)
RED, BLUE = 1001, 1002
ACTIONS_A_TURN = 8  # the fixture's turn: each side moves its two units and ends two phases


async def grow(service: GameService, game_id: int, target: int, chooser: SeededSource) -> None:
    """Play moves (never fire: the game must not end) and phase ends until ``target`` live
    actions are logged."""
    ruleset = registry.get_ruleset("skirmish")
    info = await service.get_game(game_id)
    state, count = info.state, len(await service.history(game_id))
    while count < target:
        side = ruleset.awaiting(state)[0]
        legal = [a for a in ruleset.legal_actions(state, side) if a["type"] != "fire"]
        moves = [a for a in legal if a["type"] == "move"]
        action = moves[chooser.draw(len(moves)) - 1] if moves else legal[0]
        state = (await service.act(game_id, action, actor="bench")).game.state
        count += 1


async def timed(make, runs: int = 7) -> float:
    """The best of ``runs``: other processes on the machine only ever slow a run down."""
    values = []
    for _ in range(runs):
        start = time.perf_counter()
        await make()
        values.append(time.perf_counter() - start)
    return min(values)


async def measure(service: GameService, cog, game_id: int) -> dict[str, float]:
    ruleset = registry.get_ruleset("skirmish")
    out = {}

    async def a_move_and_its_undo():
        info = await service.get_game(game_id)
        side = ruleset.awaiting(info.state)[0]
        legal = [a for a in ruleset.legal_actions(info.state, side) if a["type"] != "fire"]
        # a move where the phase has one (any length may end in a phase without)
        move = next((a for a in legal if a["type"] == "move"), legal[0])
        start = time.perf_counter()
        await service.act(game_id, move, actor="bench")
        acted = time.perf_counter() - start
        start = time.perf_counter()
        await service.undo(game_id, actor="referee", referee=True)
        return acted, time.perf_counter() - start

    pairs = [await a_move_and_its_undo() for _ in range(7)]
    out["act"] = min(p[0] for p in pairs)
    out["referee undo"] = min(p[1] for p in pairs)
    info = await service.get_game(game_id)
    user = RED if ruleset.awaiting(info.state)[0] == "red" else BLUE
    interaction = FakeInteraction(cog.bot, user, THREAD_BASE + game_id)
    out["autocomplete"] = await timed(lambda: cog.act_complete(interaction, ""))
    out["turn picture"] = await timed(lambda: service.render(game_id))
    out["changes since"] = await timed(lambda: service.changes_since(game_id, "blue"))
    middle = max(1, info.state["turn"] // 2)
    out["board at turn N/2"] = await timed(lambda: service.render_turn(game_id, middle), runs=3)
    out["verify"] = await timed(lambda: service.verify(game_id), runs=3)
    out["replay animation"] = await timed(lambda: service.render_animation(game_id), runs=2)
    return out


def _peak_rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1))


def _reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")


async def replay_footprint(service: GameService, game_id: int) -> tuple[int, int, float, int]:
    """The replay's frames, its size in KiB, how far it raised the process's peak RSS (MB; the
    peak is reset first, Linux's ``/proc/self/clear_refs``, so it is this replay's own) and how
    many logged actions it applied to get its frames' states."""
    import service.games as games

    applied = 0
    real_apply = games.apply_logged

    def counting_apply(*args, **kwargs):
        nonlocal applied
        applied += 1
        return real_apply(*args, **kwargs)

    games.apply_logged = counting_apply
    try:
        _reset_peak_rss()
        before = _peak_rss_kib()
        data = await service.render_animation(game_id)
        grown = max(0.0, (_peak_rss_kib() - before) / 1024)
    finally:
        games.apply_logged = real_apply
    with Image.open(io.BytesIO(data)) as gif:
        frames = gif.n_frames
    return frames, len(data) // 1024, grown, applied


async def main(args) -> None:
    from cogs.play import PlayCog
    from cogs.presenter import Presenter

    load_before = os.getloadavg()[0]
    path = Path(tempfile.mkdtemp(prefix="umpire-length-")) / "length.sqlite3"
    service = await GameService.open(path)
    bot = FakeBot(Counters())
    bot.presenter = Presenter(bot, service, None)
    cog = PlayCog(bot)
    info = await service.create_game("skirmish", seed="length")
    await service.seat(info.id, "red", RED)
    await service.seat(info.id, "blue", BLUE)
    await service.set_thread(info.id, THREAD_BASE + info.id)
    await service.start_game(info.id)
    chooser = SeededSource("length", 0)
    await service.render(info.id)  # the map layer, once
    results = {}
    footprints = {}
    for length in args.lengths:
        await grow(service, info.id, length, chooser)
        results[length] = await measure(service, cog, info.id)
        footprints[length] = await replay_footprint(service, info.id)
        print(f"measured at {length} actions", file=sys.stderr)
    await service.close()
    first, last = args.lengths[0], args.lengths[-1]
    growth = last / first
    header = (
        "what",
        *(f"{n:,} actions" for n in args.lengths),
        f"{last:,}/{first:,}",
        "target",
        "met",
    )
    rows = []
    for length in args.lengths:
        # the replay's time per frame drawn: it grows with the actions between two frames
        # until a frame starts from a checkpoint instead (the bound below)
        results[length]["replay, per frame"] = (
            results[length]["replay animation"] / footprints[length][0]
        )
    per_frame_bound = store_module.CHECKPOINT_EVERY + ACTIONS_A_TURN
    for name in results[first]:
        ratio = results[last][name] / results[first][name]
        if name == "verify":
            # linear with a small constant: no more than the actions' growth, with room for noise
            target, met = f"linear (the actions: {growth:.1f}x)", ratio <= growth * 1.5
        elif name in ("replay animation", "replay, per frame"):
            target, met = "bounded (the next row)", None
        else:
            target, met = "flat (<= 1.5x)", ratio <= 1.5
        rows.append(
            (
                name,
                *(f"{results[n][name] * 1000:.1f} ms" for n in args.lengths),
                f"{ratio:.2f}x",
                target,
                "-" if met is None else ("yes" if met else "**no**"),
            )
        )
    frames = [footprints[n][0] for n in args.lengths]
    grown = [footprints[n][2] for n in args.lengths]
    applied_per_frame = [footprints[n][3] / footprints[n][0] for n in args.lengths]
    rows.append(
        (
            "replay: frames, actions applied a frame (average), KiB, peak RSS added",
            *(
                f"{f} frames, {a / f:.0f} actions, {k} KiB, {m:.0f} MB"
                for f, k, m, a in (footprints[n] for n in args.lengths)
            ),
            "-",
            f"at most {MAX_REPLAY_FRAMES} frames; on average at most {per_frame_bound} "
            "actions a frame (a checkpoint's distance and a turn); memory flat (<= 1.5x, or "
            "within 2 MB)",
            # RSS moves by whole pages and the allocator's arenas: 2 MB is its noise here
            "yes"
            if max(frames) <= MAX_REPLAY_FRAMES + 1
            and max(applied_per_frame) <= per_frame_bound
            and (grown[-1] <= 1.5 * grown[0] or grown[-1] - grown[0] <= 2)
            else "**no**",
        )
    )
    table = record.table(header, rows)
    print(table)
    if args.record:
        body = "\n\n".join(
            (
                "### Costs against a game's length (`bench/bench_length.py`)",
                record.where_and_when(load_before),
                "The test-fixture game (skirmish, 8 actions a turn, its turn limit lifted) "
                "played through the service on SQLite; best of 7 runs (board at turn N/2 and "
                "verify: 3, the replay: 2). The replay animation draws one frame per turn up "
                f"to {MAX_REPLAY_FRAMES} (a longer game shows every n-th turn); a frame whose "
                f"turn starts more than {store_module.CHECKPOINT_EVERY} actions beyond the "
                "frame before starts from the checkpoint before that turn. Its peak RSS is how "
                "far one replay raised the process's high-water mark.",
                table,
            )
        )
        record.record("bench_length", body)


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[300, 1000, 5000])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--record", action="store_true", help="also write the table into docs/performance.md"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.lengths = [100, 300, 1000]
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
