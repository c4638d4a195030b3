"""What one command costs, counted (never timed): trips to the database, where under load each trip
to SQLite's thread is a hand-over (a queue, a wake-up, the GIL) and a wait behind every other
command's statements, so their number, not the SQL, set the latency (docs/performance.md); and
the copies of a view, worked out once per game version."""

import asyncio
import json

import pytest

from engine import registry
from service.games import GameService
from tests.service.counting import count_calls

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


async def test_the_game_in_a_thread_comes_with_its_seats_in_one_read(svc, monkeypatch):
    older = await svc.create_game("skirmish", seed="old")
    await svc.set_thread(older.id, 77)
    await svc.seat(older.id, "red", 9)
    newer = await svc.create_game("skirmish", seed="new")  # a rematch in the same thread
    await svc.set_thread(newer.id, 77)
    for side, user in (("blue", 5), ("red", 6), ("blue", 8)):
        await svc.seat(newer.id, side, user)
    lonely = await svc.create_game("skirmish", seed="nobody seated")
    await svc.set_thread(lonely.id, 78)
    await svc.get_game(newer.id)  # its state in memory: only the thread and seats are read
    reads = count_calls(monkeypatch, svc.store, "fetchall", "fetchone")
    async with svc.same_reads():  # what an autocomplete does
        found = await svc.find_by_thread(77)
        assert found.id == newer.id and await svc.sides_of(found.id, 5) == ["blue"]
        assert await svc.seats(found.id) == {"blue": [5, 8], "red": [6]}
    assert len(reads) == 1
    async with svc.same_reads():
        seated = await svc.seats((await svc.find_by_thread(78)).id)
        assert seated == {"red": [], "blue": []}
    assert await svc.find_by_thread(79) is None


async def test_readers_share_one_read_only_view_per_version(svc, game):
    shared = await svc.shared_view(game.id, None)
    assert await svc.shared_view(game.id, None) is shared  # no copy per reader
    with pytest.raises(TypeError):
        shared["units"].clear()
    with pytest.raises(TypeError):
        shared["phase"] = "changed by a reader"
    own = await svc.view(game.id, None)  # a changeable copy for a caller who wants one
    assert own == shared
    own["units"].clear()
    assert shared["units"] != {} and (await svc.view(game.id, None))["units"] == shared["units"]
    assert json.loads(json.dumps(shared)) == shared
    await svc.act(game.id, END_PHASE, actor="table")
    after = await svc.shared_view(game.id, None)
    assert after is not shared and after["phase"] != shared["phase"]


async def test_a_kept_view_shares_what_it_does_not_hide_with_the_kept_state(svc, game):
    # The test game hides the other sides' secrets and shows the units as they are: the view
    # holds the state's own read-only units, not a second frozen copy of them.
    state = (await svc.get_game(game.id)).state
    red = await svc.shared_view(game.id, "red")
    assert red["units"] == state["units"] and red["units"] is state["units"]
    assert set(red["secret"]) <= {"red"} and red == registry.get_ruleset("skirmish").view(
        state, "red"
    )


async def test_a_game_s_state_is_handed_out_read_only_instead_of_copied_per_call(svc, game):
    from engine.core.state import clone

    one, two = await svc.get_game(game.id), await svc.get_game(game.id)
    assert one.state is two.state
    with pytest.raises(TypeError):
        one.state["turn"] = 99
    own = clone(one.state)
    own["units"].clear()  # a copy to change, changing nothing kept
    assert (await svc.get_game(game.id)).state["units"] == two.state["units"] != {}


async def test_states_beyond_the_ready_ones_come_back_from_their_text_and_never_stale(
    svc, monkeypatch
):
    import service.games as games

    monkeypatch.setattr(games, "STATES_READY", 1)
    mine = GameService(svc.store, clock=svc._clock)  # one state ready, the others as text
    first, second = [
        await mine.start_game((await mine.create_game("skirmish", seed=f"t{i}")).id)
        for i in range(2)
    ]
    played = (await mine.act(first.id, END_PHASE, actor="table")).game
    await mine.act(second.id, END_PHASE, actor="table")  # first's state is text only now
    loads = count_calls(monkeypatch, svc.store, "load_game")
    again = await mine.get_game(first.id)
    assert loads == [] and again.version == played.version and again.state == played.state
    # Another process (or service) plays on: the version moved, the kept text is not offered.
    other = GameService(svc.store, clock=svc._clock)
    await other.act(first.id, END_PHASE, actor="table")
    await mine.act(second.id, END_PHASE, actor="table")  # first's state is text only again
    loads.clear()
    moved = await mine.get_game(first.id)
    assert loads == [first.id]
    assert moved.version == played.version + 1 and moved.state["phase"] != played.state["phase"]
    assert moved.state == (await other.get_game(first.id)).state


async def test_an_action_after_this_service_s_own_needs_no_look_at_the_log_for_its_number(
    svc, game, monkeypatch
):
    asked = count_calls(monkeypatch, svc.store, "max_seq")
    await svc.act(game.id, END_PHASE, actor="table")
    await svc.act(game.id, END_PHASE, actor="table")  # numbered from the first: no read
    assert len(asked) == 1
    await svc.undo(game.id, actor="referee", referee=True)  # a new version: the log decides
    await svc.act(game.id, END_PHASE, actor="table")
    assert len(asked) == 2
    history = await svc.history(game.id, include_undone=True)
    assert [record.seq for record in history] == [1, 2, 3]
    assert (await svc.verify(game.id)).ok
