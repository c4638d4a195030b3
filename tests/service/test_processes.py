"""Several bot PROCESSES acting on the same games at the same moments, each from the board it
last saw (``expected_version``, as a Discord button carries it): exactly one action lands per
version, every other one is told the game moved on, and nothing is lost or doubled. Runs on
SQLite and on PostgreSQL; separate operating-system processes, not tasks of one event loop."""

import asyncio
import json
import sys
from pathlib import Path

from engine.core.state import state_hash
from service.games import GameService

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3
GAMES = 2
VERSIONS = 24  # each game is played up to this version (or its end)

PLAYER = """
import asyncio, json, random, sys
from engine import registry
registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
from engine.core.state import state_hash
from service.errors import StaleVersion
from service.games import GameService

async def main(path, games, last_version, me):
    svc = await GameService.open(path)
    rng = random.Random(me)
    print("ready", flush=True)
    sys.stdin.readline()                  # everyone starts at once
    out, playing = [], set(games)
    while playing:
        for game_id in sorted(playing):
            info = await svc.get_game(game_id)
            if info.result or info.version >= last_version:
                playing.discard(game_id)
                continue
            side = info.awaiting[0]
            # The board this process saw is version info.version; the legal moves may already
            # belong to a later one: the version check decides, never the rules.
            choices = await svc.legal_actions(game_id, side)
            if not choices:
                continue
            try:
                done = await svc.act(game_id, rng.choice(choices), actor="table",
                                     expected_version=info.version)
            except StaleVersion as moved_on:
                out.append(["stale", game_id, moved_on.expected, moved_on.current,
                            str(moved_on)])
            else:
                out.append(["landed", game_id, done.version, done.seq,
                            state_hash(done.game.state)])
    await svc.close()
    print(json.dumps(out), flush=True)

asyncio.run(main(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
"""


async def test_processes_racing_on_the_same_games_land_exactly_one_action_per_version(
    db_path, clock
):
    svc = await GameService.open(db_path, clock=clock)
    try:
        games = [
            (await svc.start_game((await svc.create_game("skirmish", seed=f"p{n}")).id)).id
            for n in range(GAMES)
        ]
    finally:
        await svc.close()
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            PLAYER,
            str(db_path),
            json.dumps(games),
            str(VERSIONS),
            str(me),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for me in range(PROCESSES)
    ]
    try:
        for child in children:
            line = await asyncio.wait_for(child.stdout.readline(), timeout=60)
            assert line.strip() == b"ready", (line, await child.stderr.read())
        for child in children:
            child.stdin.write(b"go\n")
            await child.stdin.drain()
        reports = []
        for child in children:
            out, err = await asyncio.wait_for(child.communicate(), timeout=180)
            assert child.returncode == 0, err.decode()
            reports.append(json.loads(out.decode().strip().splitlines()[-1]))
    finally:
        for child in children:
            if child.returncode is None:
                child.kill()
                await child.wait()

    landed = [entry for report in reports for entry in report if entry[0] == "landed"]
    stale = [entry for report in reports for entry in report if entry[0] == "stale"]
    # The processes really raced: some of them acted on a board that had just moved on.
    assert stale, "no process ever lost a race; the test did not test anything"
    for _, game_id, expected, current, message in stale:
        assert current is not None and current > expected and "out of date" in message
    svc = await GameService.open(db_path, clock=clock)
    try:
        for game_id in games:
            info = await svc.get_game(game_id)
            log = await svc.history(game_id)
            mine = sorted((v, seq, h) for _, g, v, seq, h in landed if g == game_id)
            # One landed action per version 1..final, none twice, none missing, and each is
            # the stored one (same sequence number, same resulting state).
            assert [v for v, _, _ in mine] == list(range(1, info.version + 1))
            assert [(r.version, r.seq, r.state_hash) for r in log] == mine
            assert mine[-1][2] == state_hash(info.state)
            report = await svc.verify(game_id)
            assert report.ok, report.problems
    finally:
        await svc.close()
