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
- ``verify``: replays the whole log by design (linear).

    .venv/bin/python bench/bench_length.py            # 300, 1000, 5000
    .venv/bin/python bench/bench_length.py --quick     # 100, 300, 1000
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import THREAD_BASE, Counters, FakeBot, FakeInteraction  # noqa: E402

import tests.fixtures.skirmish as skirmish  # noqa: E402
from engine import registry  # noqa: E402
from engine.core.dice import SeededSource  # noqa: E402
from engine.core.phases import TurnCycle  # noqa: E402
from service.games import GameService  # noqa: E402

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
# The fixture's last turn is 10; an endless game gives logs of any length.
skirmish.CYCLE = TurnCycle(
    phases=skirmish.CYCLE.phases, sides=skirmish.CYCLE.sides, last_turn=10**9
)
RED, BLUE = 1001, 1002


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
        move = next(a for a in ruleset.legal_actions(info.state, side) if a["type"] == "move")
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
    return out


async def main(args) -> None:
    from cogs.play import PlayCog
    from cogs.presenter import Presenter

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
    for length in args.lengths:
        await grow(service, info.id, length, chooser)
        results[length] = await measure(service, cog, info.id)
        print(f"measured at {length} actions", file=sys.stderr)
    await service.close()
    first, last = args.lengths[0], args.lengths[-1]
    names = list(results[first])
    print("| what | " + " | ".join(f"{n} actions" for n in args.lengths) + f" | {last}/{first} |")
    print("|---|" + "---|" * (len(args.lengths) + 1))
    for name in names:
        cells = " | ".join(f"{results[n][name] * 1000:.1f} ms" for n in args.lengths)
        print(f"| {name} | {cells} | {results[last][name] / results[first][name]:.2f}x |")


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[300, 1000, 5000])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.lengths = [100, 300, 1000]
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
