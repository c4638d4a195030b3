"""A saturated bot refuses new work at once instead of queueing it without limit, and what it
refuses changes nothing."""

import asyncio
import sys
import threading
import types

import pytest

from service.games import Overloaded, PicturePool

MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}


@pytest.fixture
def slow_renderer(monkeypatch):
    """A stand-in renderer whose pictures wait until the test lets them finish."""
    release = threading.Event()
    started = []

    def render_png(scene):
        started.append(scene)
        release.wait(30)
        return b"picture"

    fake = types.ModuleType("renderer")
    fake.render_png = render_png
    monkeypatch.setitem(sys.modules, "renderer", fake)
    yield release
    release.set()


async def test_a_full_picture_pool_refuses_pictures_and_actions_and_changes_nothing(
    svc, game, slow_renderer
):
    svc.pictures = PicturePool(workers=0, limit=2)
    first = asyncio.create_task(svc.render(game.id))
    while svc.pictures.in_flight < 1:
        await asyncio.sleep(0.01)
    # Half the pool is kept for the boards of actions already accepted: a new action is
    # refused now, before it is applied.
    with pytest.raises(Overloaded, match="busy"):
        await svc.act(game.id, MOVE, actor="table")
    second = asyncio.create_task(svc.render(game.id))
    while svc.pictures.in_flight < 2:
        await asyncio.sleep(0.01)
    # The bound: a third picture is not queued behind the two, it is refused.
    with pytest.raises(Overloaded):
        await svc.render(game.id)
    assert svc.pictures.in_flight == 2
    after = await svc.get_game(game.id)
    assert after.version == game.version and after.state == game.state
    assert await svc.history(game.id, include_undone=True) == []

    slow_renderer.set()
    assert await first == await second == b"picture"
    assert svc.pictures.in_flight == 0
    outcome = await svc.act(game.id, MOVE, actor="table")
    assert outcome.version == game.version + 1


async def test_games_beyond_the_state_cache_are_read_again_and_stay_right(svc):
    from service.games import GameService

    small = GameService(svc.store, clock=svc._clock, cache_games=2)
    games = [
        await small.start_game((await small.create_game("skirmish", seed=f"s{i}")).id)
        for i in range(4)
    ]
    for info in games:
        await small.act(info.id, MOVE, actor="table")
    for info in games:
        again = await small.get_game(info.id)
        assert again.version == info.version + 1
        assert again.state["units"]["r1"]["at"] == "0201"
        assert (await small.verify(info.id)).ok


def test_the_bounded_cache_keeps_what_is_in_use_and_drops_the_least_recent():
    from service.lru import Lru

    cache = Lru(2, keep=lambda value: value == "held")
    cache["a"], cache["b"] = "held", "free"
    cache.get("a")
    cache["c"] = "free"  # over the limit: "b" is the least recently used one
    assert "b" not in cache and "a" in cache and "c" in cache
    cache["d"] = "free"  # "a" is the oldest now but in use: "c" goes instead
    assert "a" in cache and "c" not in cache and len(cache) == 2


def test_the_bounded_cache_can_bound_the_bytes_it_keeps_too():
    from service.lru import Lru

    cache = Lru(10, weigh=len, max_bytes=10)
    cache["a"], cache["b"] = "aaaa", "bbbb"
    cache.get("a")
    cache["c"] = "cccc"  # 12 bytes: the least recently used one goes
    assert "b" not in cache and cache.bytes == 8 and len(cache) == 2
    cache["a"] = "a"  # replaced: its old size no longer counts
    assert cache.bytes == 5
    cache.pop("c")
    assert cache.bytes == 1
    cache["d"] = "d" * 11  # alone over the bound: kept by nobody
    assert "d" not in cache and cache.bytes <= 10


async def test_commands_wait_out_a_picture_queue_long_before_the_pool_is_half_full(
    svc, game, slow_renderer
):
    # One drawing thread (no worker processes) and room for 24: three pictures keep it busy,
    # so a fourth command would only post its board behind them. Refused, nothing changed.
    svc.pictures = PicturePool(workers=0, limit=24)
    drawing = [asyncio.create_task(svc.render(game.id)) for _ in range(3)]
    while svc.pictures.in_flight < 3:
        await asyncio.sleep(0.01)
    assert svc.pictures.in_flight * 2 < svc.pictures.limit and svc.overloaded
    with pytest.raises(Overloaded, match="busy"):
        async with svc.command():
            await svc.act(game.id, MOVE, actor="table")
    assert (await svc.get_game(game.id)).version == game.version
    slow_renderer.set()
    await asyncio.gather(*drawing)
    assert not svc.overloaded
    assert (await svc.act(game.id, MOVE, actor="table")).version == game.version + 1
