"""Slow turns with a fake clock: only the awaited side's clock runs, increments up to a cap,
reminders once per interval for the awaited side only, timeouts to the referee or forfeited."""

import pytest

from service.errors import GameNotActive, ServiceError
from service.games import GameService


def settings(**overrides):
    clock = {
        "initial": 3600,
        "increment": 600,
        "cap": 3900,
        "on_timeout": "referee",
        "remind_every": 900,
    }
    clock.update(overrides)
    return {"clock": clock}


async def started(svc, **overrides):
    info = await svc.create_game("skirmish", seed="s", settings=settings(**overrides))
    return await svc.start_game(info.id)


def end(side):
    return {"type": "end-phase", "side": side}


async def hand_over(svc, game_id, side):
    """Both phases of ``side``'s player-turn, so the other side is awaited."""
    await svc.act(game_id, end(side), actor="table")
    await svc.act(game_id, end(side), actor="table")


async def test_only_the_awaited_side_s_clock_runs_and_increments_stop_at_the_cap(svc, clock):
    game = await started(svc)
    assert await svc.clocks(game.id) == {"red": 3600, "blue": 3600}
    clock.advance(100)
    assert await svc.clocks(game.id) == {"red": 3500, "blue": 3600}
    await svc.act(game.id, end("red"), actor="table")  # still red: the clock keeps running
    clock.advance(100)
    await svc.act(game.id, end("red"), actor="table")  # blue's turn now
    assert await svc.clocks(game.id) == {"red": 3900, "blue": 3600}  # 3400 + 600, capped
    clock.advance(50)
    assert await svc.clocks(game.id) == {"red": 3900, "blue": 3550}


async def test_no_time_control_means_no_clocks(svc, game, clock):
    clock.advance(10_000)
    assert await svc.clocks(game.id) == {}
    assert await svc.check_timeouts() == []
    assert await svc.due_reminders() == []


async def test_reminders_name_only_the_awaited_side_once_per_interval(svc, clock):
    game = await started(svc)
    clock.advance(899)
    assert await svc.due_reminders() == []
    clock.advance(1)
    due = await svc.due_reminders()
    assert [(info.id, side) for info, side in due] == [(game.id, "red")]
    assert await svc.due_reminders() == []  # never twice in one interval
    clock.advance(899)
    assert await svc.due_reminders() == []
    clock.advance(1)
    assert [side for _, side in await svc.due_reminders()] == ["red"]
    await hand_over(svc, game.id, "red")
    clock.advance(900)
    assert [side for _, side in await svc.due_reminders()] == ["blue"]


async def test_reminders_without_a_time_limit(svc, clock):
    info = await svc.create_game("skirmish", settings={"clock": {"remind_every": 60}})
    await svc.start_game(info.id)
    assert await svc.clocks(info.id) == {}
    clock.advance(60)
    assert [side for _, side in await svc.due_reminders()] == ["red"]
    clock.advance(10**6)
    assert await svc.check_timeouts() == []


async def test_a_timeout_goes_to_the_referee_and_the_clocks_stop(svc, clock):
    game = await started(svc, initial=100, increment=0, cap=None)
    clock.advance(99)
    assert await svc.check_timeouts() == []
    clock.advance(2)
    [(info, side, what)] = await svc.check_timeouts()
    assert (info.id, side, what) == (game.id, "red", "referee")
    assert info.status == "paused" and info.flag == "timeout:red"
    assert await svc.check_timeouts() == []
    with pytest.raises(GameNotActive, match="clock ran out"):
        await svc.act(game.id, end("red"), actor="table")
    clock.advance(5000)
    assert await svc.clocks(game.id) == {"red": 0, "blue": 100}
    assert await svc.due_reminders() == []
    resumed = await svc.pause(game.id, paused=False)
    assert resumed.status == "active" and resumed.flag is None
    assert await svc.clocks(game.id) == {"red": 100, "blue": 100}  # no increment: initial again
    await svc.act(game.id, end("red"), actor="table")


async def test_a_referee_can_set_a_clock(svc, clock):
    game = await started(svc)
    assert (await svc.set_clock(game.id, "blue", 42))["blue"] == 42
    with pytest.raises(ServiceError, match="Unknown side"):
        await svc.set_clock(game.id, "green", 1)


async def test_a_timeout_can_forfeit_the_game(svc, clock):
    game = await started(svc, initial=100, on_timeout="forfeit")
    clock.advance(100)
    [(info, side, what)] = await svc.check_timeouts()
    assert (side, what) == ("red", "forfeit")
    assert info.status == "finished" and info.result["winner"] == "blue"
    assert info.seed == "s"
    assert (await svc.history(game.id))[-1].action == {"type": "forfeit", "side": "red"}
    assert (await svc.verify(game.id)).ok
    assert await svc.check_timeouts() == []


async def test_acting_after_the_clock_ran_out_is_refused_even_before_the_check(svc, clock):
    game = await started(svc, initial=100)
    clock.advance(150)
    with pytest.raises(GameNotActive, match="clock has run out"):
        await svc.act(game.id, end("red"), actor="table")
    info = await svc.get_game(game.id)
    assert info.status == "paused" and info.flag == "timeout:red" and info.version == 0


async def test_a_referee_pause_stops_every_clock(svc, clock):
    game = await started(svc)
    clock.advance(100)
    paused = await svc.pause(game.id)
    assert paused.status == "paused"
    clock.advance(10_000)
    assert await svc.clocks(game.id) == {"red": 3500, "blue": 3600}
    assert await svc.check_timeouts() == []
    await svc.pause(game.id, paused=False)
    clock.advance(10)
    assert await svc.clocks(game.id) == {"red": 3490, "blue": 3600}


async def test_clocks_survive_a_restart(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    game = await started(svc)
    clock.advance(100)
    await hand_over(svc, game.id, "red")
    await svc.close()
    clock.advance(30)
    svc = await GameService.open(db_path, clock=clock)
    assert await svc.clocks(game.id) == {"red": 3900, "blue": 3570}
    await svc.close()


async def test_an_undo_hands_the_clock_back_without_an_increment(svc, clock):
    game = await started(svc)
    clock.advance(100)
    await hand_over(svc, game.id, "red")
    clock.advance(50)
    await svc.undo(game.id, actor="referee:1", referee=True)
    assert await svc.clocks(game.id) == {"red": 3900, "blue": 3550}
    clock.advance(10)
    assert await svc.clocks(game.id) == {"red": 3890, "blue": 3550}


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"initial": -1}, "initial"),
        ({"initial": "3d"}, "initial"),
        ({"on_timeout": "explode"}, "on_timeout"),
        ({"initial": 100, "cap": 50}, "cap"),
    ],
)
async def test_bad_clock_settings_are_explained(svc, bad, message):
    with pytest.raises(ServiceError, match=message):
        await svc.create_game("skirmish", settings={"clock": bad})
