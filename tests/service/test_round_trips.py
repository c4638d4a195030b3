"""What one command costs, counted (never timed): trips to the database, where under load each trip
to SQLite's thread is a hand-over (a queue, a wake-up, the GIL) and a wait behind every other
command's statements, so their number, not the SQL, set the latency (docs/performance.md); and
the copies of a view, worked out once per game version."""

import asyncio

from service.games import GameService

END_PHASE = {"type": "end-phase", "side": "red"}


def count_trips(store) -> list[int]:
    """Counts every function the store hands to its SQLite connection's thread."""
    trips = [0]
    connection = store._db
    original = connection._execute

    async def counted(function, *args, **kwargs):
        trips[0] += 1
        return await original(function, *args, **kwargs)

    connection._execute = counted
    return trips


async def test_an_action_on_sqlite_is_a_handful_of_trips_to_the_database_thread(tmp_path, clock):
    # Before: 27 trips (each statement was execute + fetch + close, each write six statements
    # between BEGIN and COMMIT, each its own trip).
    svc = await GameService.open(tmp_path / "umpire.sqlite3", clock=clock)
    try:
        created = await svc.create_game("skirmish", seed="s", settings={"clock": {"initial": 600}})
        game = await svc.start_game(created.id)
        trips = count_trips(svc.store)
        async with svc.command():
            out = await svc.act(game.id, END_PHASE, actor="table")
        assert out.version == game.version + 1
        assert trips[0] <= 6
    finally:
        await svc.close()


async def test_a_write_is_one_trip_however_many_statements_it_holds(tmp_path, clock):
    svc = await GameService.open(tmp_path / "umpire.sqlite3", clock=clock)
    try:
        created = await svc.create_game("skirmish", seed="s", settings={"clock": {"initial": 600}})
        game = await svc.start_game(created.id)
        version = game.version
        trips = count_trips(svc.store)
        # A version bump, the action, two statements for snapshots and two clock rows.
        new_version = await svc.store.commit_change(
            game.id,
            version,
            now=clock(),
            state_json="{}",
            state_hash="h",
            action={
                "seq": 1,
                "side": "red",
                "actor": "table",
                "action_json": "{}",
                "events_json": "[]",
                "state_hash": "h",
            },
            clocks=[
                {"side": "red", "remaining": 500, "started_at": None},
                {"side": "blue", "remaining": 600, "started_at": clock()},
            ],
        )
        assert new_version == version + 1
        assert trips[0] == 1
        rows = await svc.store.clocks(game.id)
        assert {row["side"]: row["remaining"] for row in rows} == {"red": 500, "blue": 600}
    finally:
        await svc.close()


async def test_reads_on_a_sqlite_file_do_not_wait_for_a_write_in_progress(tmp_path, clock):
    """Plain reads use a second connection: WAL lets them read the last committed state while
    another command's transaction (and its fsync) is under way. Before, every read queued
    behind the write on the one connection."""
    svc = await GameService.open(tmp_path / "umpire.sqlite3", clock=clock)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="s")).id)
        async with svc.store.transaction() as db:
            await db.execute("UPDATE games SET flag = 'half-written' WHERE id = ?", (game.id,))
            # The guard only stops a deadlock (the old behaviour) from hanging the suite.
            row = await asyncio.wait_for(svc.store.game(game.id), 30)
            assert row["flag"] is None and row["version"] == game.version
        # Once committed, the next read sees the write.
        assert (await svc.store.game(game.id))["flag"] == "half-written"
    finally:
        await svc.close()


async def test_views_are_worked_out_once_per_version_and_each_caller_gets_its_own(
    svc, game, monkeypatch
):
    ruleset = svc._ruleset(game.ruleset)
    worked_out = []
    original = type(ruleset).view

    def counted(self, state, side):
        worked_out.append(side)
        return original(self, state, side)

    monkeypatch.setattr(type(ruleset), "view", counted)
    first = await svc.view(game.id, None)
    second = await svc.view(game.id, None)
    assert worked_out == [None]
    assert first == second and first is not second
    first["units"].clear()  # a caller changing its copy changes nobody else's
    assert (await svc.view(game.id, None))["units"] == second["units"] != {}
    await svc.view(game.id, "red")
    assert worked_out == [None, "red"]
    await svc.act(game.id, END_PHASE, actor="table")
    after = await svc.view(game.id, None)
    assert worked_out == [None, "red", None]
    assert after["phase"] != second["phase"]


async def test_an_action_after_this_service_s_own_needs_no_look_at_the_log_for_its_number(
    svc, game, monkeypatch
):
    asked = []
    original = svc.store.max_seq

    async def counted(game_id):
        asked.append(game_id)
        return await original(game_id)

    monkeypatch.setattr(svc.store, "max_seq", counted)
    await svc.act(game.id, END_PHASE, actor="table")
    await svc.act(game.id, END_PHASE, actor="table")  # numbered from the first: no read
    assert len(asked) == 1
    await svc.undo(game.id, actor="referee", referee=True)  # a new version: the log decides
    await svc.act(game.id, END_PHASE, actor="table")
    assert len(asked) == 2
    history = await svc.history(game.id, include_undone=True)
    assert [record.seq for record in history] == [1, 2, 3]
    assert (await svc.verify(game.id)).ok
