"""The bound on commands in progress follows how long commands take (service/admission.py),
driven here by a clock the test moves: no time is measured."""

import asyncio

import pytest

from service.admission import Admission
from service.games import Overloaded

MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}


class Ticking:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def wave(admission: Admission, clock: Ticking, size: int, seconds: float) -> None:
    """``size`` commands admitted together, all finishing ``seconds`` later."""
    tickets = [admission.start() for _ in range(size)]
    clock.now += seconds
    for ticket in tickets:
        admission.finish(ticket)


def test_quick_commands_while_the_bound_holds_the_bot_back_raise_it_up_to_the_ceiling():
    clock = Ticking()
    admission = Admission(now=clock, start=12, floor=12, ceiling=20, target=0.25)
    for _ in range(3):
        wave(admission, clock, admission.limit, 0.05)
    assert admission.limit == 13
    for _ in range(50):
        wave(admission, clock, admission.limit, 0.05)
    assert admission.limit == 20


def test_a_lightly_used_bot_keeps_its_bound():
    clock = Ticking()
    admission = Admission(now=clock, start=12, floor=12, ceiling=48, target=0.25)
    for _ in range(200):
        wave(admission, clock, 2, 0.01)  # never near the bound: it says nothing about it
    assert admission.limit == 12


def test_slow_commands_lower_the_bound_once_per_wave_and_never_below_the_floor():
    clock = Ticking()
    admission = Admission(now=clock, start=40, floor=12, ceiling=48, target=0.25)
    wave(admission, clock, 30, 1.0)  # thirty slow ones admitted together: one step down
    assert admission.limit == 36
    for _ in range(100):
        wave(admission, clock, 10, 1.0)
    assert admission.limit == 12


async def test_the_service_refuses_a_command_beyond_the_bound_and_admits_again_after(svc, game):
    svc.admission = Admission(now=Ticking(), start=2, floor=2, ceiling=2)
    release, inside = asyncio.Event(), []

    async def holding():
        async with svc.command():
            async with svc.command():  # a command calling another counts once
                inside.append(1)
                await release.wait()

    holders = [asyncio.create_task(holding()) for _ in range(2)]
    while len(inside) < 2:
        await asyncio.sleep(0)
    assert svc.admission.in_progress == 2 and svc.overloaded
    with pytest.raises(Overloaded, match="busy"):
        async with svc.command():
            await svc.act(game.id, MOVE, actor="table")
    assert (await svc.get_game(game.id)).version == game.version
    release.set()
    await asyncio.gather(*holders)
    assert svc.admission.in_progress == 0
    async with svc.command():
        out = await svc.act(game.id, MOVE, actor="table")
    assert out.version == game.version + 1
