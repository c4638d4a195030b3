"""The service reads only the end of a game's log for the turn picture, "what changed since you
last acted" and an undo, so their cost does not grow with the game; what they return is the
same as reading the whole log would give, undone actions included."""

import pytest

MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}


def end(side):
    return {"type": "end-phase", "side": side}


async def test_the_last_turn_and_the_actions_since_a_side_last_acted(svc, game):
    store = svc.store
    await svc.act(game.id, MOVE, actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(game.id, end("red"), actor="table")  # blue's turn begins
    await svc.act(
        game.id, {"type": "move", "side": "blue", "unit": "b1", "to": "0505"}, actor="table"
    )
    await svc.act(
        game.id, {"type": "move", "side": "blue", "unit": "b2", "to": "0504"}, actor="table"
    )
    await svc.undo(game.id, actor="referee", referee=True)  # b2's move is taken back
    tail = await store.last_turn_actions(game.id)
    assert [(r["seq"], r["side"]) for r in tail] == [(4, "blue")]
    assert [r["seq"] for r in await store.last_live_actions(game.id, 2)] == [3, 4]
    assert await store.last_live_seq_of(game.id, "red") == 3
    assert await store.last_live_seq_of(game.id, "blue") == 4
    assert await store.last_live_seq_of(game.id, "green") == 0
    lines = await svc.changes_since(game.id, "red")
    assert len(lines) == 1 and "b1" in lines[0] and "b2" not in "".join(lines)


async def test_a_referee_undo_after_the_snapshots_are_pruned_still_replays_right(svc, game):
    from service.store import SNAPSHOTS_KEPT

    for _ in range(SNAPSHOTS_KEPT // 4 + 2):
        for side in ("red", "red", "blue", "blue"):
            await svc.act(game.id, end(side), actor="table")
    await svc.act(game.id, MOVE, actor="table")
    before_move = (await svc.history(game.id))[-2]
    # Drop every snapshot but the newest: the state before the move must come from a replay.
    await svc.store.execute(
        "DELETE FROM snapshots WHERE game_id = ? AND version < ?",
        (game.id, before_move.version + 1),
    )
    info = await svc.undo(game.id, actor="referee", referee=True)
    assert info.state["units"]["r1"]["at"] == "0101"
    assert info.version == before_move.version + 2
    assert (await svc.verify(game.id)).ok


@pytest.mark.parametrize("count", [1, 3])
async def test_undo_with_few_actions(svc, game, count):
    for side in ("red", "red", "blue")[:count]:
        await svc.act(game.id, end(side), actor="table")
    info = await svc.undo(game.id, actor="referee", referee=True)
    assert info.version == game.version + count + 1
    assert len(await svc.history(game.id)) == count - 1


async def test_what_changed_since_a_side_last_acted_is_one_read(svc, game, monkeypatch):
    await svc.act(game.id, MOVE, actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(game.id, end("red"), actor="table")  # blue's turn begins
    await svc.act(
        game.id, {"type": "move", "side": "blue", "unit": "b1", "to": "0505"}, actor="table"
    )
    await svc.get_game(game.id)  # the game and its state in memory: only the log is read
    reads = []
    for name in ("fetchall", "fetchone"):
        original = getattr(svc.store, name)

        def counted(*args, _original=original, **kwargs):
            reads.append(args[0])
            return _original(*args, **kwargs)

        monkeypatch.setattr(svc.store, name, counted)
    async with svc.same_reads():
        lines = await svc.changes_since(game.id, "red")
    assert len(lines) == 1 and "b1" in lines[0]
    assert len([sql for sql in reads if "FROM actions" in sql]) == 1
    assert await svc.changes_since(game.id, "green") != []  # never acted: everything
