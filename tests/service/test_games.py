"""GameService behaviour over real databases (SQLite and PostgreSQL), with the skirmish
fixture game."""

import hashlib
import json

import pytest

from engine import registry
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import autoplay
from engine.core.state import state_hash
from service.errors import GameNotActive, GameNotFound, NotSeated, ServiceError, StaleVersion
from service.games import GameService
from service.replay import replay_rows, undo_blockers

from .backends import query

MOVE_R1 = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}
END = {"type": "end-phase"}


def end(side):
    return {**END, "side": side}


async def play_to_fire_next_to_blue(svc, game_id):
    """Red r1 walks next to blue b2 over a few turns, then it is red's fire phase."""
    path = {1: "0201", 2: "0302", 3: "0402", 4: "0503", 5: "0504"}
    for turn in range(1, 6):
        await svc.act(
            game_id, {"type": "move", "side": "red", "unit": "r1", "to": path[turn]}, actor="table"
        )
        if turn == 5:
            await svc.act(game_id, end("red"), actor="table")  # fire phase, next to b2
            return
        for step in (end("red"), end("red"), end("blue"), end("blue")):
            await svc.act(game_id, step, actor="table")


# ----- lifecycle ---------------------------------------------------------------------------
async def test_create_start_and_find(svc, clock):
    info = await svc.create_game("skirmish", creator_id=5, guild_id=1, channel_id=2, seed="abc")
    assert info.status == "lobby" and info.version == 0 and info.seed is None
    assert info.seed_hash == hashlib.sha256(b"abc").hexdigest()
    assert info.state["units"]["r1"]["at"] == "0101"
    with pytest.raises(GameNotActive, match="not started"):
        await svc.act(info.id, MOVE_R1, actor="table")
    await svc.set_thread(info.id, 99)
    assert (await svc.find_by_thread(99)).id == info.id
    assert await svc.find_by_thread(98) is None
    started = await svc.start_game(info.id)
    assert started.status == "active" and started.awaiting == ["red"]
    with pytest.raises(GameNotActive, match="already started"):
        await svc.start_game(info.id)
    with pytest.raises(GameNotFound, match="no game #999"):
        await svc.get_game(999)


async def test_a_random_seed_per_game_and_unknown_games_are_refused(svc):
    a = await svc.create_game("skirmish")
    b = await svc.create_game("skirmish")
    assert a.seed_hash != b.seed_hash
    with pytest.raises(ServiceError, match="Unknown game"):
        await svc.create_game("chess")


async def test_seed_is_revealed_only_when_the_game_ends_by_resignation(svc, game):
    assert game.seed is None
    info = await svc.resign(game.id, "red")
    assert info.status == "finished" and info.seed == "test-seed"
    assert hashlib.sha256(info.seed.encode()).hexdigest() == info.seed_hash
    assert info.result == {"winner": "blue", "reason": "Red resigned"}
    with pytest.raises(GameNotActive, match="over"):
        await svc.act(game.id, MOVE_R1, actor="table")
    record = (await svc.history(game.id))[-1]
    assert record.action == {"type": "resign", "side": "red"}
    assert (await svc.verify(game.id)).ok


async def test_seed_is_revealed_when_the_rules_end_the_game(svc, clock):
    info = await svc.start_game((await svc.create_game("skirmish", seed=11)).id)
    ruleset = registry.get_ruleset("skirmish")
    final, actions = autoplay(ruleset, ruleset.load_scenario("standard"), "11")
    for action in actions:
        out = await svc.act(info.id, action, actor="table")
    assert out.game_over and out.game.status == "finished" and out.game.seed == "11"
    assert state_hash(out.game.state) == state_hash(final)


# ----- acting ------------------------------------------------------------------------------
async def test_outcome_reports_version_seq_and_turn_change(svc, game):
    out = await svc.act(game.id, MOVE_R1, actor="table", expected_version=0)
    assert (out.version, out.seq, out.turn_ended, out.game_over) == (1, 1, False, False)
    assert out.events == [{"type": "moved", "unit": "r1", "from": "0101", "to": "0201"}]
    await svc.act(game.id, end("red"), actor="table")
    out = await svc.act(game.id, end("red"), actor="table")
    assert out.turn_ended and out.game.awaiting == ["blue"]
    with pytest.raises(StaleVersion):
        await svc.act(game.id, end("blue"), actor="table", expected_version=1)


async def test_only_seated_players_act_for_a_side(svc, game):
    await svc.seat(game.id, "red", 10)
    await svc.seat(game.id, "red", 11)  # team play: two players on one side
    await svc.seat(game.id, "blue", 20)
    assert await svc.seats(game.id) == {"red": [10, 11], "blue": [20]}
    assert await svc.sides_of(game.id, 11) == ["red"]
    with pytest.raises(NotSeated, match="You play Blue, not Red"):
        await svc.act(game.id, MOVE_R1, actor="user:20")
    with pytest.raises(NotSeated, match="no seat"):
        await svc.act(game.id, MOVE_R1, actor="user:30")
    await svc.act(game.id, MOVE_R1, actor="user:11")
    await svc.unseat(game.id, 11)
    assert await svc.sides_of(game.id, 11) == []
    with pytest.raises(ServiceError, match="sides: red, blue"):
        await svc.seat(game.id, "green", 1)


async def test_a_player_cannot_act_as_the_referee(svc, game):
    await svc.seat(game.id, "red", 10)
    before = await svc.get_game(game.id)
    for action in (
        {"type": "ref-remove", "side": "referee", "unit": "b1"},
        {"type": "ref-phase", "side": "referee", "phase": "fire"},
    ):
        with pytest.raises(NotSeated, match="Only a referee"):
            await svc.act(game.id, action, actor="user:10")
    after = await svc.get_game(game.id)
    assert after.version == before.version and "b1" in after.state["units"]


async def test_view_hides_the_other_sides_secret(svc, game):
    assert (await svc.view(game.id, "red"))["secret"] == {"red": "quixotic-jester"}
    assert (await svc.view(game.id, "blue"))["secret"] == {}
    assert (await svc.view(game.id, None))["secret"] == {}


async def test_legal_actions_come_from_the_ruleset_and_are_empty_when_not_playing(svc):
    info = await svc.create_game("skirmish", seed="x")
    assert await svc.legal_actions(info.id, "red") == []
    await svc.start_game(info.id)
    legal = await svc.legal_actions(info.id, "red")
    assert MOVE_R1 in legal and await svc.legal_actions(info.id, "blue") == []


async def test_referee_edits_are_logged_actions_and_work_while_paused(svc, game):
    await svc.pause(game.id)
    with pytest.raises(GameNotActive, match="paused"):
        await svc.act(game.id, MOVE_R1, actor="table")
    out = await svc.act(
        game.id,
        {"type": "ref-place", "side": "referee", "unit": "b1", "to": "0303"},
        actor="referee:1",
    )
    assert out.events[0]["what"] == "place"
    info = await svc.pause(game.id, paused=False)
    assert info.status == "active" and info.state["units"]["b1"]["at"] == "0303"
    assert (await svc.history(game.id))[0].actor == "referee:1"
    assert (await svc.verify(game.id)).ok


# ----- undo --------------------------------------------------------------------------------
async def test_a_player_undoes_their_own_last_move_in_the_same_phase(svc, game):
    await svc.act(game.id, MOVE_R1, actor="table")
    info = await svc.undo(game.id, actor="table", side="red")
    assert info.state["units"]["r1"]["at"] == "0101" and info.version == 2
    assert await svc.history(game.id) == []
    audit = await svc.history(game.id, include_undone=True)
    assert len(audit) == 1 and not audit[0].live and audit[0].undone_by == "table"
    with pytest.raises(ServiceError, match="nothing to undo"):
        await svc.undo(game.id, actor="table", side="red")


async def test_a_player_cannot_undo_the_other_sides_or_an_earlier_phase(svc, game):
    await svc.act(game.id, MOVE_R1, actor="table")
    with pytest.raises(ServiceError, match="your own side's last action"):
        await svc.undo(game.id, actor="table", side="blue")
    await svc.seat(game.id, "blue", 20)
    with pytest.raises(NotSeated):
        await svc.undo(game.id, actor="user:20")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(
        game.id, {"type": "move", "side": "blue", "unit": "b1", "to": "0505"}, actor="table"
    )
    await svc.act(game.id, end("blue"), actor="table")  # blue now in its fire phase
    with pytest.raises(ServiceError, match="earlier phase"):
        await svc.undo(game.id, actor="table", side="blue")


async def test_dice_block_player_undo_but_a_referee_may_and_the_audit_keeps_it(svc, game):
    await play_to_fire_next_to_blue(svc, game.id)
    out = await svc.act(
        game.id, {"type": "fire", "side": "red", "unit": "r1", "target": "b2"}, actor="table"
    )
    assert any(e["type"] == "roll" for e in out.events)
    with pytest.raises(ServiceError, match="dice were rolled"):
        await svc.undo(game.id, actor="table", side="red")
    info = await svc.undo(game.id, actor="referee:1", referee=True)
    assert "b2" in info.state["units"] and "r1" not in info.state["fired"]
    undone = [r for r in await svc.history(game.id, include_undone=True) if not r.live]
    assert [(r.seq, r.undone_by) for r in undone] == [(out.seq, "referee:1")]
    # The dice of an undone action are never reused: the next fire is a new seq.
    again = await svc.act(
        game.id, {"type": "fire", "side": "red", "unit": "r1", "target": "b2"}, actor="table"
    )
    assert again.seq == out.seq + 1
    expected = seeded("test-seed", again.seq).roll("x")
    assert [e["value"] for e in again.events if e["type"] == "roll"] == [expected]
    report = await svc.verify(game.id)
    assert report.ok and report.actions == again.seq and report.dice == 2


async def test_a_referee_undo_over_a_turn_boundary_replays_the_log(svc, game):
    await svc.act(game.id, MOVE_R1, actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(game.id, end("red"), actor="table")
    info = await svc.undo(game.id, actor="referee:1", referee=True)
    assert info.awaiting == ["red"] and info.state["phase"] == "fire"
    assert info.state["units"]["r1"]["at"] == "0201"


def test_undo_blockers_name_every_kind_of_information_that_was_revealed():
    assert undo_blockers([{"type": "moved"}]) == []
    assert undo_blockers([{"type": "shuffle"}]) == ["a deck was shuffled"]
    assert undo_blockers([{"type": "reveal"}]) == ["hidden information was revealed"]
    assert undo_blockers([{"type": "draw", "private": "red"}]) == [
        "a player saw hidden information"
    ]


async def test_finished_games_cannot_be_rewound(svc, game):
    await svc.act(game.id, MOVE_R1, actor="table")
    await svc.resign(game.id, "blue")
    with pytest.raises(GameNotActive, match="seed is public"):
        await svc.undo(game.id, actor="referee:1", referee=True)


# ----- the log is the truth ----------------------------------------------------------------
async def autoplayed(svc, seed="auto", limit=40):
    info = await svc.start_game((await svc.create_game("skirmish", seed=seed)).id)
    ruleset = registry.get_ruleset("skirmish")
    from engine.core.game import _Chooser

    chooser = _Chooser(seed)
    for _ in range(limit):
        if info.result:
            break
        side = info.awaiting[0]
        info = (
            await svc.act(
                info.id, chooser.pick(await svc.legal_actions(info.id, side)), actor="table"
            )
        ).game
    return info, ruleset


async def test_replaying_the_log_gives_the_snapshot(svc, db_path):
    info, ruleset = await autoplayed(svc)
    await svc.undo(info.id, actor="referee:1", referee=True)
    info = await svc.get_game(info.id)
    rows = await svc.store.actions(info.id, include_undone=False)
    replayed = replay_rows(ruleset, ruleset.load_scenario("standard"), "auto", rows)
    assert state_hash(replayed.state) == state_hash(info.state)
    stored = (
        await query(
            db_path,
            "SELECT state_hash FROM snapshots WHERE game_id = ? ORDER BY version DESC LIMIT 1",
            (info.id,),
        )
    )[0][0]
    assert stored == state_hash(info.state)


async def test_a_missing_or_wrong_snapshot_is_rebuilt_from_the_log(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    info, _ = await autoplayed(svc, limit=15)
    await svc.close()
    await query(
        db_path,
        "UPDATE snapshots SET state_json = ?, state_hash = ?",
        (json.dumps({"bogus": 1}), state_hash({"bogus": 1})),
    )
    svc = await GameService.open(db_path, clock=clock)
    assert state_hash((await svc.get_game(info.id)).state) == state_hash(info.state)
    await svc.close()
    await query(db_path, "DELETE FROM snapshots")
    svc = await GameService.open(db_path, clock=clock)
    assert state_hash((await svc.get_game(info.id)).state) == state_hash(info.state)
    await svc.close()
    assert (await query(db_path, "SELECT state_hash FROM snapshots"))[0][0] == state_hash(
        info.state
    )


async def test_verify_passes_for_an_honest_log_and_catches_a_tampered_die(svc, game, db_path):
    await play_to_fire_next_to_blue(svc, game.id)
    out = await svc.act(
        game.id, {"type": "fire", "side": "red", "unit": "r1", "target": "b2"}, actor="table"
    )
    report = await svc.verify(game.id)
    assert report.ok and report.dice == 1 and report.final_hash == state_hash(out.game.state)
    events = [dict(e) for e in out.events]
    roll = next(e for e in events if e["type"] == "roll")
    honest = roll["value"]
    roll["value"] = 6 if honest != 6 else 1
    await query(
        db_path,
        "UPDATE actions SET events_json = ? WHERE game_id = ? AND seq = ?",
        (json.dumps(events), game.id, out.seq),
    )
    report = await svc.verify(game.id)
    assert not report.ok
    assert any(
        f"#{out.seq}" in p and f"[{roll['value']}]" in p and f"[{honest}]" in p
        for p in report.problems
    ), report.problems


async def test_verify_with_a_wrong_revealed_seed_fails(svc, game):
    await play_to_fire_next_to_blue(svc, game.id)
    await svc.act(
        game.id, {"type": "fire", "side": "red", "unit": "r1", "target": "b2"}, actor="table"
    )
    report = await svc.verify(game.id, seed="not-the-seed")
    assert not report.ok and "does not match the seed hash" in report.problems[0]
    assert (await svc.verify(game.id, seed="test-seed")).ok


# ----- summaries, config, posts ------------------------------------------------------------
async def test_changes_since_a_side_last_acted(svc, game):
    assert await svc.changes_since(game.id, "red") == []
    await svc.act(game.id, MOVE_R1, actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(
        game.id, {"type": "move", "side": "blue", "unit": "b1", "to": "0505"}, actor="table"
    )
    lines = await svc.changes_since(game.id, "red")
    assert lines == ["Blue: /move unit:Blue b1 at 0605 to:0505"]
    assert len(await svc.changes_since(game.id, "blue")) == 0
    assert len(await svc.changes_since(game.id, "green")) == 4


async def test_dice_show_up_in_changes_since(svc, game):
    await play_to_fire_next_to_blue(svc, game.id)
    out = await svc.act(
        game.id, {"type": "fire", "side": "red", "unit": "r1", "target": "b2"}, actor="table"
    )
    value = next(e["value"] for e in out.events if e["type"] == "roll")
    lines = await svc.changes_since(game.id, "blue")
    assert any(f"r1 fires at b2: {value} (d6)" in line for line in lines), lines


async def test_guild_config_and_posts(svc, game):
    assert (await svc.guild_config(5))["referee_role_id"] is None
    await svc.set_guild_config(5, referee_role_id=77)
    await svc.set_guild_config(5, locale="de")
    cfg = await svc.guild_config(5)
    assert (cfg["referee_role_id"], cfg["locale"]) == (77, "de")
    await svc.record_post(game.id, "board", 1, 500, 0)
    await svc.record_post(game.id, "board", 1, 500, 3)
    assert (await svc.post(500))["version"] == 3
    assert [p["message_id"] for p in await svc.posts(game.id, "board")] == [500]
    assert await svc.post(501) is None


async def test_an_action_with_a_non_text_option_is_refused_without_a_trace(svc, game, db_path):
    with pytest.raises(RuleError, match="must be text"):
        await svc.act(
            game.id, {"type": "move", "side": "red", "unit": 1, "to": "0201"}, actor="table"
        )
    assert (await svc.get_game(game.id)).version == 0


async def test_undo_uses_recent_snapshots_and_falls_back_to_replay(svc, db_path):
    from service.store import SNAPSHOTS_KEPT

    info, ruleset = await autoplayed(svc, seed="undo", limit=SNAPSHOTS_KEPT + 10)
    kept = (await query(db_path, "SELECT COUNT(*) FROM snapshots WHERE game_id = ?", (info.id,)))[0]
    assert kept[0] == SNAPSHOTS_KEPT

    async def check():
        now = await svc.get_game(info.id)
        rows = await svc.store.actions(info.id, include_undone=False)
        expected = replay_rows(ruleset, ruleset.load_scenario("standard"), "undo", rows).state
        assert state_hash(now.state) == state_hash(expected)

    for _ in range(3):
        await svc.undo(info.id, actor="referee:1", referee=True)
        await check()
    # only the current snapshot left: must replay
    await query(
        db_path, "DELETE FROM snapshots WHERE version < (SELECT MAX(version) FROM snapshots)"
    )
    await svc.undo(info.id, actor="referee:1", referee=True)
    await check()


async def test_private_information_blocks_player_undo_and_stays_with_its_owner(svc, monkeypatch):
    monkeypatch.setitem(registry.RULESETS, "skirmish-peek", "tests.service.peek:PeekSkirmish")
    info = await svc.start_game((await svc.create_game("skirmish-peek", seed="p")).id)
    await svc.act(info.id, {"type": "peek", "side": "red"}, actor="table")
    with pytest.raises(ServiceError, match="a player saw hidden information"):
        await svc.undo(info.id, actor="table", side="red")
    assert await svc.changes_since(info.id, "blue") == ["Red: /peek"]
    assert await svc.changes_since(info.id, None) == ["Red: /peek"]  # a spectator
    assert (await svc.view(info.id, "blue"))["secret"] == {}
    await svc.undo(info.id, actor="referee:1", referee=True)  # a referee may
    assert await svc.history(info.id) == []


async def test_undo_with_an_expected_version_refuses_a_game_that_moved_on(svc, game):
    first = await svc.act(game.id, MOVE_R1, actor="table")
    second = await svc.act(
        game.id, {"type": "move", "side": "red", "unit": "r2", "to": "0202"}, actor="table"
    )
    # Asked on the board of the first move: the game is already past it, nothing is undone.
    with pytest.raises(StaleVersion) as stale:
        await svc.undo(game.id, actor="table", side="red", expected_version=first.version)
    assert (stale.value.expected, stale.value.current) == (first.version, second.version)
    assert len(await svc.history(game.id)) == 2
    info = await svc.undo(game.id, actor="table", side="red", expected_version=second.version)
    assert info.state["units"]["r2"]["at"] == "0102" and info.version == second.version + 1
    # A second click on the same board does not take back the move before it too.
    with pytest.raises(StaleVersion):
        await svc.undo(game.id, actor="table", side="red", expected_version=second.version)
    assert [r.seq for r in await svc.history(game.id)] == [first.seq]
    # Referees use it the same way; without it undo behaves as before.
    with pytest.raises(StaleVersion):
        await svc.undo(game.id, actor="referee:1", referee=True, expected_version=first.version)
    info = await svc.undo(game.id, actor="referee:1", referee=True)
    assert await svc.history(game.id) == []


async def test_flares_are_kept_with_the_game_until_cleared(db_path, clock, game):
    from service.games import GameService

    svc = await GameService.open(db_path, clock=clock)
    try:
        assert await svc.flares(game.id) == []
        await svc.add_flare(game.id, "0303")
        assert await svc.add_flare(game.id, "0404") == ["0303", "0404"]
        assert await svc.add_flare(game.id, "0303") == ["0303", "0404"], "a mark is kept once"
    finally:
        await svc.close()
    reopened = await GameService.open(db_path, clock=clock)
    try:
        assert await reopened.flares(game.id) == ["0303", "0404"]
        await reopened.clear_flares(game.id, ["0303"])
        assert await reopened.flares(game.id) == ["0404"]
        with pytest.raises(GameNotFound):
            await reopened.add_flare(999, "0101")
    finally:
        await reopened.close()
