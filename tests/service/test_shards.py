"""Several bot processes on one database: background work (reminders, clock timeouts) is
claimed in the database, so two service instances racing over the same games, or a restarted
one, send each reminder once and handle each timeout once; a sharded process only looks at the
games of its own shards."""

import asyncio

from service.config import parse_shards
from service.games import GameService
from service.storage import open_store

GAMES = 12


def clock_settings(**overrides):
    clock = {
        "initial": 3600,
        "increment": 0,
        "cap": None,
        "on_timeout": "referee",
        "remind_every": 900,
    }
    clock.update(overrides)
    return {"clock": clock}


async def open_two(db_path, clock):
    """Two services, two connections, one file: what two processes on one database see."""
    first = await GameService.open(db_path, clock=clock)
    second = await GameService.open(db_path, clock=clock)
    return first, second


async def started_games(svc, count=GAMES, guild_ids=None, **overrides):
    ids = []
    for n in range(count):
        guild_id = guild_ids[n] if guild_ids else None
        info = await svc.create_game(
            "skirmish", seed=f"s{n}", guild_id=guild_id, settings=clock_settings(**overrides)
        )
        ids.append((await svc.start_game(info.id)).id)
    return ids


async def test_two_services_racing_send_each_reminder_exactly_once(db_path, clock):
    first, second = await open_two(db_path, clock)
    try:
        games = await started_games(first)
        clock.advance(900)
        a, b = await asyncio.gather(first.due_reminders(), second.due_reminders())
        sent = [(info.id, side) for info, side in a + b]
        assert sorted(sent) == [(game, "red") for game in games]
        # The next interval: again exactly one reminder per game, whoever sends it.
        clock.advance(900)
        a, b = await asyncio.gather(second.due_reminders(), first.due_reminders())
        assert sorted(info.id for info, _ in a + b) == games
    finally:
        await first.close()
        await second.close()


async def test_a_restarted_process_does_not_repeat_a_reminder(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    games = await started_games(svc, count=2)
    clock.advance(900)
    assert sorted(info.id for info, _ in await svc.due_reminders()) == games
    await svc.close()
    restarted = await GameService.open(db_path, clock=clock)
    try:
        assert await restarted.due_reminders() == []
        clock.advance(900)
        assert sorted(info.id for info, _ in await restarted.due_reminders()) == games
    finally:
        await restarted.close()


async def test_a_stale_reading_cannot_claim_a_reminder_after_the_turn_moved_on(svc, clock):
    [game] = await started_games(svc, count=1)
    clock.advance(900)
    [reading] = [c for c in await svc.store.clocks_to_check() if c["side"] == "red"]
    await svc.act(game, {"type": "end-phase", "side": "red"}, actor="table")
    await svc.act(game, {"type": "end-phase", "side": "red"}, actor="table")  # blue's turn
    assert not await svc.store.claim_reminder(
        game, "red", reading["started_at"], reading["last_reminder_at"], clock()
    )


async def test_two_services_racing_forfeit_a_timed_out_game_once(db_path, clock):
    first, second = await open_two(db_path, clock)
    try:
        games = await started_games(first, initial=100, on_timeout="forfeit")
        clock.advance(101)
        a, b = await asyncio.gather(first.check_timeouts(), second.check_timeouts())
        handled = sorted((info.id, side, what) for info, side, what in a + b)
        assert handled == [(game, "red", "forfeit") for game in games]
        for game in games:
            log = await first.history(game)
            assert [r.action["type"] for r in log].count("forfeit") == 1
            assert (await first.get_game(game)).status == "finished"
        assert await first.check_timeouts() == [] and await second.check_timeouts() == []
    finally:
        await first.close()
        await second.close()


async def test_two_services_racing_call_the_referee_once_per_timeout(db_path, clock):
    first, second = await open_two(db_path, clock)
    try:
        games = await started_games(first, initial=100, on_timeout="referee")
        clock.advance(101)
        a, b = await asyncio.gather(second.check_timeouts(), first.check_timeouts())
        handled = sorted((info.id, side, what) for info, side, what in a + b)
        assert handled == [(game, "red", "referee") for game in games]
        for game in games:
            info = await first.get_game(game)
            assert (info.status, info.flag) == ("paused", "timeout:red")
    finally:
        await first.close()
        await second.close()


def guild_on_shard(shard, count, n=0):
    """A server id that Discord routes to ``shard`` of ``count``."""
    return ((1000 + n * count + shard) << 22) | 12345


async def test_each_process_reminds_only_the_games_of_its_own_shards(db_path, clock):
    first, second = await open_two(db_path, clock)
    try:
        guilds = [guild_on_shard(shard, 4, n) for n, shard in enumerate([0, 1, 2, 3, 1])]
        games = await started_games(first, count=len(guilds), guild_ids=guilds)
        dm_game = (await started_games(first, count=1))[0]  # no server: shard 0
        first.shard_plan = parse_shards("0-1/4")
        second.shard_plan = parse_shards("2-3/4")
        clock.advance(900)
        a = sorted(info.id for info, _ in await first.due_reminders())
        b = sorted(info.id for info, _ in await second.due_reminders())
        assert a == sorted([games[0], games[1], games[4], dm_game])
        assert b == [games[2], games[3]]
        clock.advance(3600)
        assert sorted(info.id for info, _, _ in await second.check_timeouts()) == b
        assert sorted(info.id for info, _, _ in await first.check_timeouts()) == a
    finally:
        await first.close()
        await second.close()


async def test_meta_values_are_upserted_and_survive_a_reopen(db_path):
    store = await open_store(db_path)
    try:
        assert await store.get_meta("command_tree:global") is None
        await store.set_meta("command_tree:global", "abc")
        await store.set_meta("command_tree:global", "def")
        await store.set_meta("command_tree:guild:42", "xyz")
    finally:
        await store.close()
    store = await open_store(db_path)
    try:
        assert await store.get_meta("command_tree:global") == "def"
        assert await store.get_meta("command_tree:guild:42") == "xyz"
        assert await store.schema_version() >= 4
    finally:
        await store.close()


def test_shard_specs_name_ranges_single_shards_and_lists():
    from service.config import ShardPlan, shard_of

    assert parse_shards("0-3/8") == ShardPlan((0, 1, 2, 3), 8)
    assert parse_shards("2/8") == ShardPlan((2,), 8)
    assert parse_shards("0,2,5/8") == ShardPlan((0, 2, 5), 8)
    assert parse_shards(" 6-7,0-1 / 8 ") == ShardPlan((0, 1, 6, 7), 8)
    assert parse_shards("") is None
    assert shard_of(None, 8) == 0 and shard_of(guild_on_shard(5, 8), 8) == 5
    plan = parse_shards("5/8")
    assert plan.owns(guild_on_shard(5, 8, 3)) and not plan.owns(guild_on_shard(4, 8))
    assert not plan.owns(None), "DMs belong to shard 0"


async def test_processes_opening_a_new_database_together_migrate_it_once(db_path):
    from service.store import SCHEMA_VERSION

    stores = await asyncio.gather(*(open_store(db_path) for _ in range(4)))
    try:
        rows = await stores[0].fetchall("SELECT version FROM schema_version ORDER BY version")
        assert [r["version"] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
    finally:
        for store in stores:
            await store.close()


CHILD = """
import asyncio, json, sys
from engine import registry
registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
from service.games import GameService

async def main(path, now):
    svc = await GameService.open(path, clock=lambda: now)
    try:
        reminded = [info.id for info, side in await svc.due_reminders()]
        forfeited = [info.id for info, side, what in await svc.check_timeouts()]
    finally:
        await svc.close()
    print(json.dumps({"reminded": reminded, "forfeited": forfeited}))

asyncio.run(main(sys.argv[1], float(sys.argv[2])))
"""


async def test_separate_processes_share_the_background_work_without_doubles(db_path, clock):
    import json
    import sys
    from pathlib import Path

    svc = await GameService.open(db_path, clock=clock)
    try:
        games = await started_games(svc, count=30, initial=1000, on_timeout="forfeit")
    finally:
        await svc.close()
    clock.advance(1001)  # a reminder is due and the clock ran out, in every game
    root = Path(__file__).resolve().parents[2]
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            CHILD,
            str(db_path),
            repr(clock()),
            cwd=root,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(3)
    ]
    results = []
    for child in children:
        out, err = await asyncio.wait_for(child.communicate(), timeout=120)
        assert child.returncode == 0, err.decode()
        results.append(json.loads(out))
    assert sorted(g for r in results for g in r["reminded"]) == games
    assert sorted(g for r in results for g in r["forfeited"]) == games
    svc = await GameService.open(db_path, clock=clock)
    try:
        for game in games:
            log = await svc.history(game)
            assert [r.action["type"] for r in log] == ["forfeit"]
    finally:
        await svc.close()


def test_which_process_syncs_the_command_tree():
    from service.config import Settings

    def settings(shards, sync=None):
        return Settings(
            token=None,
            database="x",
            dev_guild=None,
            referee_role=None,
            shards=parse_shards(shards),
            sync=sync,
        )

    assert settings("").syncs_commands, "a lone process syncs"
    assert settings("0-1/4").syncs_commands and not settings("2-3/4").syncs_commands
    assert settings("2-3/4", sync=True).syncs_commands
    assert not settings("0-1/4", sync=False).syncs_commands
