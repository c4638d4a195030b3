"""A reminder pass claims every due reminder in one transaction; each claim is still decided on
its own, so a stale one (the turn moved on, another process reminded) loses alone."""

from tests.service.counting import count_calls


async def test_claims_in_one_batch_are_decided_one_by_one(svc, clock):
    settings = {"clock": {"initial": 3600, "remind_every": 60}}
    info = await svc.create_game("skirmish", seed="s", settings=settings)
    await svc.start_game(info.id)
    other = await svc.create_game("skirmish", seed="t", settings=settings)
    await svc.start_game(other.id)
    started = {c["game_id"]: c for c in await svc.store.running_clocks()}
    first, second = started[info.id], started[other.id]
    won = await svc.store.claim_reminders(
        [
            (info.id, first["side"], first["started_at"], None),
            (info.id, first["side"], first["started_at"], None),  # the same reminder again
            (other.id, second["side"], second["started_at"] + 1, None),  # a turn that moved on
            (other.id, second["side"], second["started_at"], None),
        ],
        clock() + 61,
    )
    assert won == [True, False, False, True]


async def test_a_pass_reminds_every_due_game_once(svc, clock):
    settings = {"clock": {"initial": 3600, "remind_every": 60}}
    games = []
    for seed in "abc":
        info = await svc.create_game("skirmish", seed=seed, settings=settings)
        games.append((await svc.start_game(info.id)).id)
    clock.advance(61)
    due = await svc.due_reminders()
    assert sorted((info.id, side) for info, side in due) == [(g, "red") for g in games]
    assert await svc.due_reminders() == []
    clock.advance(61)
    assert len(await svc.due_reminders()) == 3


async def test_a_pass_reads_every_reminded_games_row_and_seats_together(svc, clock):
    settings = {"clock": {"initial": 3600, "remind_every": 60}}
    games = []
    for index, seed in enumerate("ab"):
        info = await svc.create_game("skirmish", seed=seed, settings=settings)
        await svc.seat(info.id, "red", 100 + index)
        await svc.seat(info.id, "blue", 200 + index)
        games.append((await svc.start_game(info.id)).id)
    clock.advance(61)
    async with svc.same_reads():
        due = await svc.due_reminders()
        assert sorted(info.id for info, _ in due) == games
        for index, game_id in enumerate(games):
            assert await svc.seats(game_id) == {"red": [100 + index], "blue": [200 + index]}
        # A change by this service is seen at once, not the pass's earlier read.
        await svc.seat(games[0], "red", 300)
        assert await svc.seats(games[0]) == {"red": [100, 300], "blue": [200]}


async def _due_games(svc, clock, seeds: str) -> list[int]:
    """Started games whose red player was due for a reminder (remind_every 60 s, 61 s ago),
    each with a red and a blue player."""
    settings = {"clock": {"initial": 3600, "remind_every": 60}}
    games = []
    for index, seed in enumerate(seeds):
        info = await svc.create_game("skirmish", seed=seed, settings=settings)
        await svc.seat(info.id, "red", 1000 + index)
        await svc.seat(info.id, "blue", 2000 + index)
        games.append((await svc.start_game(info.id)).id)
    return games


async def test_a_reminder_carries_its_players_time_left_and_newest_board(svc, clock):
    [first, second] = await _due_games(svc, clock, "ab")
    await svc.seat(first, "red", 3000)
    await svc.record_post(first, "turn", 77, 501, 3)
    await svc.record_post(first, "turn", 77, 502, 4)  # the newer board
    await svc.record_post(first, "other", 77, 503, 9)  # not a board
    clock.advance(61)
    due = {r.id: r for r in await svc.reminders()}
    assert sorted(due) == [first, second]
    assert due[first].side == "red" and due[first].people == [1000, 3000]
    assert due[second].people == [1001]
    assert due[first].left == due[second].left == 3600 - 61
    assert due[first].board == (77, 502, 4)
    assert due[second].board is None
    assert due[first].ruleset == "skirmish"
    assert due[first].version == (await svc.get_game(first)).version


async def test_a_pass_reads_no_more_for_six_due_games_than_for_two(svc, clock, monkeypatch):
    reads = count_calls(monkeypatch, svc.store, "fetchall", "fetchone")

    async def reads_of_a_pass(seeds):
        games = await _due_games(svc, clock, seeds)
        for game_id in games:
            await svc.record_post(game_id, "turn", 77, 900 + game_id, 1)
        clock.advance(61)
        reads.clear()
        due = await svc.reminders()
        assert sorted(r.id for r in due) == games
        assert all(r.board is not None and r.people for r in due)
        return len(reads)

    two = await reads_of_a_pass("ab")
    # the first games run out of time and are paused: only the new ones are due next
    clock.advance(3600 * 24)
    await svc.reminders()
    await svc.check_timeouts()
    six = await reads_of_a_pass("cdefgh")
    assert six == two <= 4


async def test_claims_beyond_one_statement_s_worth_are_each_decided(svc, clock):
    settings = {"clock": {"initial": 3600, "remind_every": 60}}
    info = await svc.start_game((await svc.create_game("skirmish", seed="s", settings=settings)).id)
    [red] = [c for c in await svc.store.running_clocks() if c["game_id"] == info.id]
    # hundreds of claims of clocks that do not exist (games long gone), the real one last
    claims = [(info.id + 1 + i, "red", red["started_at"], None) for i in range(450)]
    claims.append((info.id, "red", red["started_at"], None))
    won = await svc.store.claim_reminders(claims, clock() + 61)
    assert won == [False] * 450 + [True]
    assert await svc.store.claim_reminders(claims[-1:], clock() + 62) == [False]
