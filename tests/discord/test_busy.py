"""A bot saturated with work answers a new command at once with "busy, try again in a moment",
in the player's language, and changes nothing."""

from __future__ import annotations

import pytest

from service.games import PicturePool

from .conftest import reply_text


async def saturate(table):
    # No room for a single picture: every new action would wait for one, so it is refused.
    table.service.pictures = PicturePool(workers=0, limit=0)


async def test_a_saturated_bot_refuses_a_move_politely_and_changes_nothing(table):
    info = await table.started_game()
    await saturate(table)
    result = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    text = reply_text(result)
    assert result.ephemeral
    assert "very busy right now, try again in a moment" in text and "Nothing was changed" in text
    after = await table.game()
    assert after.version == info.version and after.state == info.state
    table.service.pictures = PicturePool(workers=0)
    result = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    assert reply_text(result).startswith("Done"), reply_text(result)


@pytest.mark.usefixtures("german")
async def test_the_busy_answer_is_german_for_a_german_client(table):
    await table.started_game()
    await saturate(table)
    result = await table.alice.slash(table.thread, "act", action="/move unit:r1 to:0201")
    assert "sehr beschäftigt" in reply_text(result) and "nichts geändert" in reply_text(result)
