"""Who may act, when, and what happens to clicks that race, come late or survive a restart."""

from __future__ import annotations

import logging

from .conftest import click_together, message_text, reply_text


async def test_autocomplete_lists_only_legal_options_with_labels(table):
    await table.started_game()
    thread = table.thread
    units = await table.alice.autocomplete(thread, "move", "unit", "")
    assert units == [
        {"name": "Red r1 at 0101", "value": "r1"},
        {"name": "Red r2 at 0102", "value": "r2"},
    ]
    typed = await table.alice.autocomplete(thread, "move", "unit", "r2")
    assert [c["value"] for c in typed] == ["r2"]
    # Destinations depend on the unit already chosen, and exclude occupied hexes.
    destinations = {
        c["value"] for c in await table.alice.autocomplete(thread, "move", "to", "", unit="r1")
    }
    info = await table.game()
    legal = {
        a["to"]
        for a in await table.service.legal_actions(info.id, "red")
        if a["type"] == "move" and a["unit"] == "r1"
    }
    assert destinations == legal and "0102" not in destinations
    # Nothing to fire at yet, and nothing at all for the side that is not to move.
    assert await table.alice.autocomplete(thread, "fire", "unit", "") == []
    # Out of turn, one entry says whose turn it is (issue 15).
    assert await table.bob.autocomplete(thread, "move", "unit", "") == [
        {"name": "Not your turn: the game waits for Red", "value": "?"}
    ]
    # /act offers every legal action, labelled by the ruleset.
    actions = await table.alice.autocomplete(thread, "act", "action", "r1")
    assert actions and all("r1" in c["name"] for c in actions)
    assert {"name": "/end-phase", "value": "/end-phase"} in await table.alice.autocomplete(
        thread, "act", "action", "end"
    )


async def test_act_takes_any_legal_action_by_its_command_line(table):
    await table.started_game()
    done = await table.alice.slash(table.thread, "act", action="/move unit:r1 to:0201")
    assert reply_text(done).startswith("Done"), reply_text(done)
    info = await table.game()
    assert info.state["units"]["r1"]["at"] == "0201"
    garbled = await table.alice.slash(table.thread, "act", action="move r1")
    assert "cannot read" in reply_text(garbled)


async def test_out_of_turn_wrong_side_and_spectators_are_refused(table):
    info = await table.started_game()
    thread = table.thread
    early = await table.bob.slash(thread, "move", unit="b1", to="0505")
    assert early.ephemeral
    assert "not your turn" in reply_text(early) and "Red" in reply_text(early)
    assert f"<@{table.alice.id}>" in reply_text(early)
    # Bob cannot move Red's unit either: he plays Blue, and it is Red's turn.
    wrong = await table.bob.slash(thread, "move", unit="r1", to="0201")
    assert "not your turn" in reply_text(wrong)
    spectator = await table.dave.slash(thread, "move", unit="r1", to="0201")
    assert spectator.ephemeral and "no seat" in reply_text(spectator)
    # Red's own illegal move says why and what is legal.
    illegal = await table.alice.slash(thread, "move", unit="r1", to="0505")
    assert illegal.ephemeral and "Not allowed" in reply_text(illegal)
    assert "Legal:" in reply_text(illegal)
    after = await table.game()
    assert after.version == info.version and after.state == info.state


async def test_team_play_any_player_of_the_side_may_act(table):
    await table.started_game(also=[(table.carol, "red")])
    late = await table.dave.slash(table.thread, "game join", side="red")
    assert "only a referee can seat" in reply_text(late)
    seated = await table.alice.slash(table.thread, "ref seat", member=table.dave, side="blue")
    assert reply_text(seated) == "Done."
    assert table.dave.id in (await table.service.seats((await table.game()).id))["blue"]
    done = await table.carol.slash(table.thread, "move", unit="r2", to="0202")
    assert reply_text(done).startswith("Done"), reply_text(done)
    assert (await table.game()).state["units"]["r2"]["at"] == "0202"


async def test_two_players_clicking_at_once_apply_once(table):
    await table.started_game(also=[(table.carol, "red")])
    before = await table.game()
    board = table.boards()[-1]
    first, second = await click_together(
        table.env, [(table.alice, board, "End phase"), (table.carol, board, "End phase")]
    )
    texts = sorted([reply_text(first), reply_text(second)])
    assert any(text.startswith("Done") for text in texts), texts
    assert any("out of date" in text for text in texts), texts
    assert first.ephemeral and second.ephemeral
    after = await table.game()
    assert after.version == before.version + 1
    assert after.state["phase"] == "fire" and after.state["active"] == "red"
    history = await table.service.history(after.id)
    assert [r.action["type"] for r in history] == ["end-phase"]


async def test_a_click_on_an_old_board_is_refused_with_a_pointer(table):
    await table.started_game()
    old_board = table.boards()[-1]
    await table.alice.slash(table.thread, "end-phase")  # a new board for the fire phase
    current = table.boards()[-1]
    assert current.id != old_board.id
    assert "/end-phase" in message_text(current), "the turn post says what just happened"
    before = await table.game()
    stale = await table.alice.click(old_board, label="End phase")
    assert stale.ephemeral and "out of date" in reply_text(stale)
    assert str(current.id) in reply_text(stale), "points at the current board"
    assert (await table.game()).version == before.version
    # The current board's button works, once.
    applied = await table.alice.click(current, label="End phase")
    assert reply_text(applied).startswith("Done")
    again = await table.alice.click(current, label="End phase")
    assert "out of date" in reply_text(again)


async def test_moves_refresh_the_live_board_buttons(table):
    await table.started_game()
    board = table.boards()[-1]
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    board = [m for m in table.thread.history() if m.id == board.id][0]
    # The footer names the version the refreshed buttons act on (issue 15).
    info = await table.game()
    assert (
        board.embeds[0].footer.text == f"Version {info.version} · buttons act on this version only"
    )
    assert board.attachments and board.embeds[0].image.url == "attachment://board.png"
    result = await table.alice.click(board, label="End phase")
    assert reply_text(result).startswith("Done"), reply_text(result)


async def test_restart_mid_game_buttons_keep_working(table):
    await table.started_game()
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    board = table.boards()[-1]
    await table.restart()
    assert table.bot is not table.bots[0]
    result = await table.alice.click(board, label="End phase")
    assert reply_text(result).startswith("Done"), reply_text(result)
    info = await table.game()
    assert info.state["phase"] == "fire" and info.state["units"]["r1"]["at"] == "0201"
    # A stale click after the restart still points at the newest board, read from the
    # posts the service recorded.
    stale = await table.alice.click(board, label="End phase")
    assert str(table.boards()[-1].id) in reply_text(stale)


async def test_player_undo_before_dice_but_not_after(table):
    await table.started_game()
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    undone = await table.alice.slash(table.thread, "undo")
    assert reply_text(undone) == "Your last action was taken back.", reply_text(undone)
    assert (await table.game()).state["units"]["r1"]["at"] == "0101"
    assert "took back" in table.public_text()
    nothing = await table.bob.slash(table.thread, "undo")
    assert "undo" in reply_text(nothing).lower() or "own side" in reply_text(nothing)


async def test_unexpected_errors_apologise_log_and_change_nothing(table, monkeypatch, caplog):
    info = await table.started_game()

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(table.service, "act", broken)
    with caplog.at_level(logging.ERROR, logger="umpire.discord"):
        result = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    assert result.ephemeral and reply_text(result).startswith("Sorry")
    assert "disk on fire" not in reply_text(result)
    assert any("/move" in r.getMessage() and r.exc_info for r in caplog.records)
    monkeypatch.undo()
    assert (await table.game()).version == info.version


async def test_a_refusal_without_hints_lists_what_is_possible(table):
    await table.started_game()
    result = await table.alice.slash(table.thread, "fire", unit="r1", target="b1")
    assert result.ephemeral
    text = reply_text(result)
    assert "Not allowed" in text and "/move" in text and "/end-phase" in text, text


async def test_a_failed_post_after_an_applied_action_is_not_called_unchanged(table, caplog):
    info = await table.started_game()
    table.env.inject_error("POST", f"/channels/{table.thread.id}/messages", status=500, times=None)
    with caplog.at_level(logging.ERROR, logger="umpire.discord"):
        result = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    text = reply_text(result)
    assert text.startswith("Done") and "posting to the thread failed" in text, text
    assert (await table.game()).version == info.version + 1
    assert any("posting to the thread failed" in r.getMessage() for r in caplog.records)


async def test_two_undo_clicks_on_one_board_take_back_one_action(table):
    await table.started_game(also=[(table.carol, "red")])
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    await table.alice.slash(table.thread, "move", unit="r2", to="0202")
    before = await table.game()
    board = table.boards()[-1]
    first, second = await click_together(
        table.env, [(table.alice, board, "Undo request"), (table.carol, board, "Undo request")]
    )
    replies = sorted([reply_text(first), reply_text(second)])
    assert replies[0].startswith("That board is out of date"), replies
    assert replies[1] == "Your last action was taken back.", replies
    after = await table.game()
    assert after.version == before.version + 1
    assert after.state["units"]["r1"]["at"] == "0201", "only the last move was taken back"
    assert after.state["units"]["r2"]["at"] == "0102"
    assert [r.action["unit"] for r in await table.service.history(after.id)] == ["r1"]
    assert "asks a referee" not in table.public_text(), "a stale click asks no referee"
