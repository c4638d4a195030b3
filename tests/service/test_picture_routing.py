"""Picture workers with a queue each: the boards of one game, scenario and language go to the
same worker (its caches keep that map), spill to another when that worker falls behind, and a
worker that dies is replaced without losing a picture."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import platform

import pytest

from service.pictures import (
    SPILL_AFTER,
    Overloaded,
    PicturePool,
    board_key,
    home_worker,
    ruleset_path,
)

from . import picture_tasks


@pytest.fixture
def pool():
    pool = PicturePool(workers=2, limit=12)
    yield pool
    pool.shutdown()


def _pid(answer: str) -> int:
    return int(answer.rpartition("@")[2])


async def _until(condition, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the pool never got there")


def test_a_game_s_home_worker_is_the_same_in_every_process_and_games_spread_over_workers():
    assert [home_worker(game, 2) for game in range(1, 7)] == [1, 0, 1, 0, 1, 0]
    assert home_worker("tenochtitlan/standard", 2) == home_worker("tenochtitlan/standard", 2)
    assert {home_worker(f"pocket-tactics/map-{n}", 2) for n in range(20)} == {0, 1}


async def test_the_pictures_of_one_game_are_drawn_by_one_worker_process(pool):
    # One at a time, as a game's turns come: each game's pictures always reach the same
    # process, and the two games' homes are different processes.
    first = [_pid(await pool.run(picture_tasks.whose, "a", key=1)) for _ in range(4)]
    second = [_pid(await pool.run(picture_tasks.whose, "b", key=2)) for _ in range(4)]
    assert len(set(first)) == 1 and len(set(second)) == 1
    assert first[0] != second[0] and os.getpid() not in (first[0], second[0])
    # A scene without a game's key goes by its map.
    scene_pid = {_pid(await pool.run(picture_tasks.whose, key="some/map")) for _ in range(3)}
    worker_pid = {home_worker(1, 2): first[0], home_worker(2, 2): second[0]}
    assert scene_pid == {worker_pid[home_worker("some/map", 2)]}
    assert pool.waiting == [0, 0] and pool.in_flight == 0


async def test_boards_of_one_game_scenario_and_language_are_drawn_by_one_worker(pool):
    from .where_drawn import WhereDrawn

    worker_pid = {n: _pid(await pool.run(picture_tasks.whose, key=n)) for n in (0, 1)}
    rules = WhereDrawn()

    async def drawn_by(state: dict, lang: str) -> int:
        # This ruleset's scene names the process building it, by refusing to be built.
        with pytest.raises(RuntimeError, match="scene built in process") as refused:
            await pool.board(rules, state, [], None, (), lang)
        return int(str(refused.value).rpartition(" ")[2])

    homes = set()
    for scenario in ("standard", "mission-1", "open-gate", "breach"):
        for lang in ("en", "de"):
            home = home_worker(board_key(ruleset_path(rules), {"scenario": scenario}, lang), 2)
            homes.add(home)
            # Two games of that scenario, at different turns: the same worker, the home one.
            for turn in (3, 17):
                state = {"scenario": scenario, "turn": turn}
                assert await drawn_by(state, lang) == worker_pid[home]
    assert homes == {0, 1}
    assert pool.waiting == [0, 0] and pool.in_flight == 0


async def test_a_busy_game_s_pictures_spill_to_the_other_worker_and_others_are_not_held_up(
    pool, tmp_path
):
    gate = str(tmp_path / "go")
    home = home_worker(5, 2)
    other_game = 6  # its home is the other worker
    assert home_worker(other_game, 2) != home
    # The busy game keeps its home worker busy with SPILL_AFTER pictures...
    held = [
        asyncio.create_task(pool.run(picture_tasks.whose_after, gate, f"held {n}", key=5))
        for n in range(SPILL_AFTER)
    ]
    await _until(lambda: pool.waiting[home] == SPILL_AFTER)
    # ... so its next picture, and another game's, are drawn by the other worker meanwhile.
    spilled = await asyncio.wait_for(pool.run(picture_tasks.whose, "spilled", key=5), 60)
    other = await asyncio.wait_for(pool.run(picture_tasks.whose, "other", key=other_game), 60)
    assert _pid(spilled) == _pid(other)
    assert not any(task.done() for task in held)
    (tmp_path / "go").touch()
    held_pids = {_pid(answer) for answer in await asyncio.gather(*held)}
    assert held_pids.isdisjoint({_pid(spilled)}) and len(held_pids) == 1
    assert pool.waiting == [0, 0]


async def test_the_bound_counts_the_pictures_of_every_worker(tmp_path):
    gate = str(tmp_path / "go")
    pool = PicturePool(workers=2, limit=3)
    try:
        held = [
            asyncio.create_task(pool.run(picture_tasks.whose_after, gate, key=game))
            for game in (1, 2, 3)
        ]
        await _until(lambda: pool.in_flight == 3)
        with pytest.raises(Overloaded, match="busy"):
            await pool.run(picture_tasks.whose, key=4)
        assert pool.in_flight == 3 and sum(pool.waiting) == 3
        (tmp_path / "go").touch()
        await asyncio.gather(*held)
        assert pool.in_flight == 0 and pool.waiting == [0, 0]
    finally:
        pool.shutdown()


async def test_a_worker_that_dies_is_replaced_and_its_waiting_pictures_are_still_drawn(
    pool, tmp_path, caplog
):
    gate = str(tmp_path / "go")
    doomed_game, spared_game = 1, 2
    doomed_pid = _pid(await pool.run(picture_tasks.whose, key=doomed_game))
    spared_pid = _pid(await pool.run(picture_tasks.whose, key=spared_game))
    # The doomed worker ends itself with one more picture of its game waiting behind.
    dying = asyncio.create_task(
        pool.run(picture_tasks.die_in_a_worker, os.getpid(), gate, key=doomed_game)
    )
    waiting = asyncio.create_task(
        pool.run(picture_tasks.die_in_a_worker, os.getpid(), gate, key=doomed_game)
    )
    await _until(lambda: pool.waiting[home_worker(doomed_game, 2)] == 2)
    with caplog.at_level(logging.ERROR, logger="umpire.service"):
        (tmp_path / "go").touch()
        answers = await asyncio.wait_for(asyncio.gather(dying, waiting), 60)
    # Both pictures reach the player, drawn in the bot's process; the death is logged once.
    assert answers == [f"drawn by the bot@{os.getpid()}"] * 2
    died = home_worker(doomed_game, 2)
    assert [r.getMessage() for r in caplog.records].count(
        f"picture worker {died} died (2 pictures were waiting for it); starting a new one"
    ) == 1
    # The game's next picture goes to a new process; the other worker never stopped.
    again = _pid(await pool.run(picture_tasks.whose, key=doomed_game))
    assert again not in (doomed_pid, os.getpid())
    assert _pid(await pool.run(picture_tasks.whose, key=spared_game)) == spared_pid
    assert pool.waiting == [0, 0] and pool.in_flight == 0


async def test_a_worker_gives_memory_back_once_per_quiet_spell_and_never_while_drawing(
    pool, tmp_path
):
    gate, notes = tmp_path / "go", tmp_path / "trims"
    pool.idle_after = 0.05
    pool.idle_task = functools.partial(picture_tasks.note, str(notes))

    def trims() -> list[int]:
        return [int(line) for line in notes.read_text().split()] if notes.exists() else []

    home = home_worker(1, 2)
    # Two pictures of a game, the second drawn while the first is still waiting: no quiet
    # spell between them, so no trim until both are back.
    first = asyncio.create_task(pool.run(picture_tasks.whose_after, str(gate), key=1))
    second = asyncio.create_task(pool.run(picture_tasks.whose_after, str(gate), key=1))
    await _until(lambda: pool.waiting[home] == 2)
    await asyncio.sleep(0.3)
    assert trims() == []
    gate.touch()
    worker = {_pid(await first), _pid(await second)}
    await _until(lambda: len(trims()) == 1)
    assert set(trims()) == worker
    # A longer quiet spell is still one trim; the next picture starts a new spell.
    await asyncio.sleep(0.3)
    assert len(trims()) == 1
    await pool.run(picture_tasks.whose, key=1)
    await _until(lambda: len(trims()) == 2)
    assert set(trims()) == worker
    assert pool.waiting == [0, 0]


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="malloc_trim is glibc's (the bot's image, python:3.11-slim, has it)",
)
async def test_a_worker_s_trim_gives_freed_memory_back_to_the_system(pool):
    freed, given_back = await pool.run(picture_tasks.freed_then_given_back, key=1)
    assert freed - given_back > 50, (freed, given_back)
