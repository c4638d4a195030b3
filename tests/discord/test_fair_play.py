"""Fair dice before the end, referee seating in public, past boards as the public saw them."""

from __future__ import annotations

from .conftest import message_text, reply_text


async def test_verify_waits_for_the_seed_to_be_revealed(table):
    info = await table.started_game()
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    posts = len(table.public())
    early = await table.carol.slash(table.thread, "game verify")
    text = reply_text(early)
    assert early.ephemeral
    assert "secret until the game ends" in text and info.seed_hash in text, text
    assert "Verified" not in text
    assert len(table.public()) == posts, "nothing is announced before the seed is revealed"
    await table.bob.slash(table.thread, "game resign")
    late = await table.dave.slash(table.thread, "game verify")
    assert "replay exactly from the revealed seed" in message_text(
        table.thread.last_message
    ) or "FAILED" in message_text(table.thread.last_message), reply_text(late)


async def test_referee_seating_is_announced(table):
    await table.started_game()
    seated = await table.alice.slash(table.thread, "ref seat", member=table.dave, side="blue")
    assert reply_text(seated) == "Done."
    announced = message_text(table.thread.last_message)
    assert (
        "seated" in announced
        and f"<@{table.dave.id}>" in announced
        and f"<@{table.alice.id}>" in announced
    ), announced


async def test_board_of_a_past_turn_is_the_public_picture_of_that_turn(table):
    info = await table.started_game()
    thread = table.thread
    await table.alice.slash(thread, "move", unit="r1", to="0201")
    for player in (table.alice, table.alice, table.bob):
        await player.slash(thread, "end-phase")
    await table.bob.slash(thread, "move", unit="b1", to="0404")
    await table.dave.slash(thread, "game board", turn=1)
    posted = await table.thread.last_message.attachments[0].read()
    assert posted == await table.service.render_turn(info.id, 1, viewer=None)
    assert posted != await table.service.render(info.id, viewer=None), "turn 1's board, not today's"


async def test_reminders_survive_a_restart_without_repeating_and_ping_only_the_awaited_team(table):
    await table.started_game(time_control="daily", also=[(table.carol, "red")])

    def reminders():
        return [m for m in table.thread.history() if "⏰" in m.content]

    table.clock.advance(13 * 3600)
    await table.env.advance_time(61)
    assert len(reminders()) == 1
    await table.restart()
    await table.env.advance_time(61)
    await table.env.advance_time(61)
    assert len(reminders()) == 1, "the reminder already sent is not sent again after a restart"
    table.clock.advance(12 * 3600)
    await table.env.advance_time(61)
    assert len(reminders()) == 2
    for message in reminders():
        assert f"<@{table.alice.id}>" in message.content
        assert f"<@{table.carol.id}>" in message.content
        assert f"<@{table.bob.id}>" not in message.content
    # Only the awaited players may be pinged, whatever the text says.
    pings = [
        request.json["allowed_mentions"]
        for request in table.env.http_requests
        if request.method == "POST"
        and isinstance(request.json, dict)
        and "⏰" in (request.json.get("content") or "")
    ]
    assert len(pings) == 2
    for allowed in pings:
        assert sorted(map(int, allowed.get("users", []))) == sorted(
            [table.alice.id, table.carol.id]
        )
        assert not allowed.get("parse")
