"""A reminder pass claims every due reminder in one transaction; each claim is still decided on
its own, so a stale one (the turn moved on, another process reminded) loses alone."""


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
