"""A process killed (SIGKILL) in the middle of play: on restart every committed action is
there, the database is consistent, and the game goes on. Runs on SQLite and on PostgreSQL."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from engine.core.state import state_hash
from service.games import GameService

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PLAYER = textwrap.dedent("""
    import asyncio, json, sys
    from engine import registry
    registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
    from engine.core.game import _Chooser
    from engine.core.state import state_hash
    from service.games import GameService

    async def main(path):
        svc = await GameService.open(path)
        game_number = 0
        while True:                     # game after game until killed
            game_number += 1
            seed = f"crash-{game_number}"
            info = await svc.start_game((await svc.create_game("skirmish", seed=seed)).id)
            chooser = _Chooser(seed)
            while not info.result:
                side = info.awaiting[0]
                action = chooser.pick(await svc.legal_actions(info.id, side))
                out = await svc.act(info.id, action, actor="table")
                info = out.game
                # Printed only after the commit returned: this action is durable.
                print(json.dumps([info.id, out.seq, out.version, state_hash(info.state)]),
                      flush=True)

    asyncio.run(main(sys.argv[1]))
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
async def test_killed_in_the_middle_of_play_loses_nothing_committed(db_path, clock):
    db = db_path
    committed = []
    deadline = time.monotonic() + 60
    with subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": ROOT},
    ) as child:
        try:
            while len(committed) < 120 and time.monotonic() < deadline:
                line = child.stdout.readline()
                if not line:
                    break
                committed.append(json.loads(line))
        finally:
            child.send_signal(signal.SIGKILL)  # mid-play: the child never stops on its own
            child.wait(10)
        errors = child.stderr.read()
    assert len(committed) >= 120, errors
    assert child.returncode == -signal.SIGKILL

    svc = await GameService.open(db, clock=clock)
    try:
        for game_id, seq, version, hash_ in committed:
            stored = {r.seq: r for r in await svc.history(game_id)}
            assert (
                seq in stored and stored[seq].state_hash == hash_ and stored[seq].version == version
            )
        games = await svc.list_games()
        assert len(games) >= 2  # at least one finished game and one being played
        for info in games:
            report = await svc.verify(info.id)
            assert report.ok, report.problems
            assert report.final_hash == state_hash(info.state)
        # The game that was being played when the process died goes on.
        last = games[-1]
        if last.result:  # killed right after a game ended: start another and play on
            last = await svc.start_game((await svc.create_game("skirmish", seed="after")).id)
        side = last.awaiting[0]
        action = (await svc.legal_actions(last.id, side))[0]
        out = await svc.act(last.id, action, actor="table", expected_version=last.version)
        assert out.version == last.version + 1
    finally:
        await svc.close()
