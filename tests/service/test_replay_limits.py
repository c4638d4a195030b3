"""Heavy work through the service (issue 8): a long game's replay is drawn frame by frame within
a memory ceiling and the attachment limit, one heavy job per game at a time, and a finished
game's replay is cached."""

from __future__ import annotations

import asyncio
import io
import threading

import pytest
from PIL import Image

from engine import registry
from engine.core.game import autoplay
from service.games import GameBusy

SEED = "long-2"  # Tenochtitlan autoplays 331 actions with this seed
MEMORY_CEILING = 200 * 1024 * 1024


class PeakRss:
    """The process's resident memory, sampled every few milliseconds while it runs: pictures
    live in Pillow's own C allocations, which tracemalloc does not see."""

    def __init__(self):
        self.peak = self.start = _rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, _rss())

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss())

    @property
    def growth(self) -> int:
        return self.peak - self.start


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


async def _long_finished_game(svc):
    rules = registry.get_ruleset("tenochtitlan")
    _, actions = autoplay(rules, rules.load_scenario(rules.default_scenario), SEED)
    assert len(actions) > 300
    info = await svc.create_game("tenochtitlan", seed=SEED)
    await svc.start_game(info.id)
    for action in actions:
        await svc.act(info.id, action, actor="table")
    info = await svc.get_game(info.id)
    assert info.status == "finished"
    return info, len(actions)


async def test_a_long_replay_stays_under_the_memory_ceiling_and_the_size_limit(svc):
    info, count = await _long_finished_game(svc)
    limit = 2 * 1024 * 1024
    with PeakRss() as memory:
        data = await svc.render_animation(info.id, max_bytes=limit)
    print(
        f"replay of {count} actions: {len(data)} bytes, resident memory grew by "
        f"{memory.growth / 2**20:.1f} MiB"
    )
    assert memory.growth < MEMORY_CEILING
    assert len(data) <= limit
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames >= 2
    # Finished: the log cannot change, so the same picture comes from the cache.
    assert await svc.render_animation(info.id, max_bytes=limit) is data


async def test_heavy_work_runs_once_per_game_at_a_time(svc, game):
    await svc.act(
        game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"}, actor="table"
    )
    # The first replay is held inside its drawing (in its worker thread) until released, so
    # the test never races a short replay, whatever the machine's load or the backend.
    real = svc._renderer()
    drawing, release = threading.Event(), threading.Event()

    class HeldRenderer:
        def __getattr__(self, name):
            return getattr(real, name)

        def render_animation(self, *args, **kwargs):
            drawing.set()
            release.wait(60)
            return real.render_animation(*args, **kwargs)

    svc._renderer = lambda: HeldRenderer()
    first = asyncio.ensure_future(svc.render_animation(game.id))
    for _ in range(3000):
        if drawing.is_set() or first.done():
            break
        await asyncio.sleep(0.01)
    assert drawing.is_set(), "the first replay never started drawing"
    try:
        with pytest.raises(GameBusy):
            await svc.render_animation(game.id)
    finally:
        release.set()
    assert (await first)[:6] in (b"GIF89a", b"GIF87a")
    # Every kind of heavy work asks for the same slot (held here, so the test does not race
    # the short replay above).
    async with svc.heavy(game.id):
        with pytest.raises(GameBusy):
            await svc.verify(game.id)
        with pytest.raises(GameBusy):
            await svc.render_turn(game.id, 1)
        with pytest.raises(GameBusy):
            await svc.render_animation(game.id)
    report = await svc.verify(game.id)  # free again
    assert report.ok
