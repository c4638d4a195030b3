"""Every CHECKPOINT_EVERY-th state is kept, so the board at turn N starts from the nearest
checkpoint instead of replaying the game; a checkpoint whose actions were taken back since is
never used, and the picture is the same as a replay of the whole log gives."""

import json

import pytest

import service.store as store_module


async def stale_checkpoints(svc, game_id: int) -> int:
    """Kept states whose actions were taken back since: states the log no longer reaches."""
    stale = 0
    for kept in await svc.store.fetchall("SELECT * FROM snapshots WHERE game_id = ?", (game_id,)):
        base = await svc.store.newest_live_action_upto(game_id, kept["version"])
        stale += base is not None and base["state_hash"] != kept["state_hash"]
    return stale


def pieces(png: bytes) -> dict:
    return {p["id"]: p["at"] for p in json.loads(png)["pieces"]}


async def test_board_at_turn_n_from_checkpoints_matches_a_full_replay(
    svc, game, scene_renderer, monkeypatch
):
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(store_module, "SNAPSHOTS_KEPT", 2)
    from engine import registry

    ruleset = registry.get_ruleset("skirmish")
    state = game.state
    for step in range(40):
        side = ruleset.awaiting(state)[0]
        legal = [a for a in ruleset.legal_actions(state, side) if a["type"] != "fire"]
        moves = [a for a in legal if a["type"] == "move"]
        action = moves[step % len(moves)] if moves and step % 3 else legal[0]
        played = (await svc.act(game.id, action, actor="table")).game
        state = played.state
        if step in range(8, 30) and played.version % 4 == 0:
            # Taking back the action a checkpoint was just written for: that checkpoint now
            # holds a state the log no longer reaches.
            state = (await svc.undo(game.id, actor="referee", referee=True)).state
    assert await stale_checkpoints(svc, game.id) >= 2
    kept = await svc.store.fetchall("SELECT version FROM snapshots WHERE game_id = ?", (game.id,))
    versions = sorted(r["version"] for r in kept)
    newest = versions[-1]
    assert all(v % 4 == 0 or v > newest - 2 for v in versions), versions
    assert [v for v in versions if v <= newest - 2] == list(range(4, newest - 1, 4)), versions
    live = await svc.history(game.id)
    turns = sorted({r.turn for r in live})
    for turn in turns:
        last = [r for r in live if r.turn == turn][-1]
        expected = pieces(await svc.render(game.id, at_version=last.version))
        assert pieces(await svc.render_turn(game.id, turn)) == expected, turn


async def play(svc, game, steps: int, undo_at=(), undo_chance: float = 0.0) -> None:
    """Moves and phase ends, never fire (the game goes on); a referee undo after the steps in
    ``undo_at``, and after any other with ``undo_chance`` (seeded: the same game every run)."""
    import random

    from engine import registry

    ruleset = registry.get_ruleset("skirmish")
    chance = random.Random(7)
    state = (await svc.get_game(game.id)).state
    for step in range(steps):
        side = ruleset.awaiting(state)[0]
        legal = [a for a in ruleset.legal_actions(state, side) if a["type"] != "fire"]
        moves = [a for a in legal if a["type"] == "move"]
        action = moves[step % len(moves)] if moves and step % 3 else legal[0]
        state = (await svc.act(game.id, action, actor="table")).game.state
        if step in undo_at or chance.random() < undo_chance:
            state = (await svc.undo(game.id, actor="referee", referee=True)).state


async def test_a_long_game_s_replay_starts_from_checkpoints_and_shows_what_the_log_says(
    svc, game, scene_renderer, monkeypatch
):
    import service.games as games_module
    import tests.fixtures.skirmish as skirmish
    from engine.core.phases import TurnCycle

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(store_module, "SNAPSHOTS_KEPT", 2)
    # a game longer than the fixture's ten turns
    monkeypatch.setattr(
        skirmish, "CYCLE", TurnCycle(phases=skirmish.CYCLE.phases, sides=skirmish.CYCLE.sides)
    )
    await play(svc, game, 120, undo_chance=0.15)
    live = await svc.history(game.id)
    turns = sorted({r.turn for r in live})
    assert len(turns) >= 12
    assert await stale_checkpoints(svc, game.id) >= 3
    by_frames = {}
    for max_frames in range(2, 9):
        by_frames[max_frames] = json.loads(
            await svc.render_animation(game.id, max_frames=max_frames)
        )
    # the same frames walked from the setup through every action, never from a checkpoint
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 10**9)
    for max_frames, frames in by_frames.items():
        walked = json.loads(await svc.render_animation(game.id, max_frames=max_frames))
        assert frames == walked, max_frames
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 4)
    applied = []
    real_apply = games_module.apply_logged

    def counting_apply(*args):
        applied.append(1)
        return real_apply(*args)

    monkeypatch.setattr(games_module, "apply_logged", counting_apply)
    frames = json.loads(await svc.render_animation(game.id, max_frames=4))
    monkeypatch.setattr(games_module, "apply_logged", real_apply)
    # the setup, every n-th turn's end and the last turn's, each as the board of that turn
    stride = -(-(len(turns) + 1) // 4)
    shown = [turn for frame, turn in enumerate([0, *turns], 0) if frame % stride == 0]
    if shown[-1] != turns[-1]:
        shown.append(turns[-1])
    assert len(frames) == len(shown)
    for frame, turn in zip(frames, shown, strict=True):
        board = json.loads(await svc.render_turn(game.id, turn))
        assert frame == board, turn
    # from the checkpoint before each frame's turn, not from the setup through every action
    assert len(applied) < len(live) / 2, (len(applied), len(live))


async def test_a_replay_walks_on_where_frames_are_close_and_matches_the_whole_log(
    svc, game, scene_renderer
):
    await play(svc, game, 30, undo_at=(5,))
    live = await svc.history(game.id)
    turns = sorted({r.turn for r in live})
    frames = json.loads(await svc.render_animation(game.id))
    assert len(frames) == len(turns) + 1
    for frame, turn in zip(frames[1:], turns, strict=True):
        assert frame == json.loads(await svc.render_turn(game.id, turn)), turn


async def test_a_replay_shows_the_log_as_it_was_when_it_started(svc, game, scene_renderer):
    import asyncio

    await play(svc, game, 30)
    fake = scene_renderer
    before = json.loads(await svc.render_animation(game.id))
    loop = asyncio.get_running_loop()

    def undo_while_drawing(scenes, **options):
        scenes = iter(scenes)
        first = next(scenes)
        # a referee takes the last action back while the replay is being drawn
        asyncio.run_coroutine_threadsafe(
            svc.undo(game.id, actor="referee", referee=True), loop
        ).result()
        return json.dumps([first, *scenes]).encode()

    fake.render_animation = undo_while_drawing
    during = json.loads(await svc.render_animation(game.id))
    assert during == before
    fake.render_animation = lambda scenes, **options: json.dumps(list(scenes)).encode()
    after = json.loads(await svc.render_animation(game.id))
    assert after != before  # the next replay shows the undo


async def test_the_board_at_turn_n_and_a_replay_read_only_what_they_show(
    tmp_path, clock, scene_renderer, monkeypatch
):
    """Every read of the log behind the board at turn N and a replay finds its rows by an
    index on what it asks for (one turn, a version, a range of seqs), never by walking the
    game's whole log, but for the replay's list of live actions (three numbers each, by
    design): their cost does not grow with the game's length. SQLite's plans: the same indexes
    exist in PostgreSQL, whose planner walks tables this small whatever their indexes."""
    import sqlite3

    from service.games import GameService

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 4)
    path = tmp_path / "plans.sqlite3"
    svc = await GameService.open(path, clock=clock)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="plans")).id)
        await play(svc, game, 40)
        asked = []
        for name in ("fetchall", "fetchone"):
            real = getattr(svc.store, name)

            async def recording(sql, params=(), real=real):
                asked.append((sql, tuple(params)))
                return await real(sql, params)

            setattr(svc.store, name, recording)
        turns = sorted({r.turn for r in await svc.history(game.id)})
        asked.clear()
        await svc.render_turn(game.id, turns[len(turns) // 2])
        await svc.render_animation(game.id, max_frames=3)
    finally:
        await svc.close()
    reads = {(sql, params) for sql, params in asked if "FROM actions" in sql}
    kinds = {sql.split("WHERE")[1].split("ORDER")[0] for sql, _ in reads}
    assert len(kinds) >= 4, kinds  # a turn's actions, a checkpoint's action, batches, the list
    with sqlite3.connect(path) as db:
        for sql, params in reads:
            plan = " ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql, params))
            if sql.startswith("SELECT seq, turn, version FROM actions"):
                continue  # the replay's list of the live actions: the whole log, by design
            assert "SEARCH actions USING" in plan and "(game_id=? AND " in plan, (sql, plan)
            # in the index's order: no sort of every row the search found
            assert "TEMP B-TREE" not in plan, (sql, plan)


async def test_a_replay_nobody_waits_for_stops_drawing(svc, game, scene_renderer):
    import asyncio
    import threading

    await play(svc, game, 40)
    two_drawn, go_on, finished = threading.Event(), threading.Event(), threading.Event()
    pulled = []

    def slow_animation(scenes, **options):
        try:
            for scene in scenes:
                pulled.append(scene)
                if len(pulled) == 2:
                    two_drawn.set()
                    go_on.wait(10)
        finally:
            finished.set()
        return b"drawn to the end"

    scene_renderer.render_animation = slow_animation
    replay = asyncio.ensure_future(svc.render_animation(game.id))
    assert await asyncio.to_thread(two_drawn.wait, 10)
    replay.cancel()
    with pytest.raises(asyncio.CancelledError):
        await replay
    go_on.set()
    assert await asyncio.to_thread(finished.wait, 10)
    turns = {r.turn for r in await svc.history(game.id)}
    assert len(turns) > 2 and len(pulled) == 2  # the setup and one turn: nothing after


async def test_a_replay_whose_read_hangs_says_so_and_leaves_no_read_behind(
    svc, game, scene_renderer, monkeypatch
):
    import asyncio

    import service.games as games_module
    from service.errors import ServiceError

    await play(svc, game, 20)
    monkeypatch.setattr(games_module, "REPLAY_READ_TIMEOUT", 0.05)
    abandoned = asyncio.Event()

    async def hanging_read(*args):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            abandoned.set()
            raise

    monkeypatch.setattr(svc.store, "actions_live_at", hanging_read)
    with pytest.raises(ServiceError, match="could not read the game's log in time"):
        await svc.render_animation(game.id)
    await asyncio.wait_for(abandoned.wait(), 5)
