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
    assert "replay exactly from the revealed seed" in message_text(table.thread.last_message) \
        or "FAILED" in message_text(table.thread.last_message), reply_text(late)


async def test_referee_seating_is_announced(table):
    await table.started_game()
    seated = await table.alice.slash(table.thread, "ref seat", member=table.dave, side="blue")
    assert reply_text(seated) == "Done."
    announced = message_text(table.thread.last_message)
    assert "seated" in announced and f"<@{table.dave.id}>" in announced \
        and f"<@{table.alice.id}>" in announced, announced


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
    assert posted != await table.service.render(info.id, viewer=None), \
        "turn 1's board, not today's"
