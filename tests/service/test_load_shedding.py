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
        svc, game, slow_renderer):
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
