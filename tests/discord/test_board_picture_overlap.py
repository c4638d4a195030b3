"""The board's picture is drawn while the rest of its turn's posts are made: a command that
ends a phase waits for the longer of the picture and its messages, not for both in turn."""

from __future__ import annotations

import asyncio
import io

import discord
from PIL import Image

from .conftest import message_text


async def test_the_board_is_drawing_while_the_turn_s_announcement_is_on_its_way(table, monkeypatch):
    await table.started_game()
    thread = table.thread
    service = table.service
    asked = asyncio.Event()
    render = service.render

    async def watched(game_id, *args, **kwargs):
        asked.set()
        return await render(game_id, *args, **kwargs)

    send = discord.Thread.send
    seen_by_announcement = []

    async def slow_send(channel, *args, **kwargs):
        if not kwargs.get("file"):
            # The announcement's trip to Discord: before this change the picture was only
            # asked for once it was back, so this waited in vain (the timeout guards a hang,
            # it measures nothing).
            try:
                await asyncio.wait_for(asked.wait(), 30)
            except TimeoutError:
                pass
            seen_by_announcement.append(asked.is_set())
        return await send(channel, *args, **kwargs)

    monkeypatch.setattr(service, "render", watched)
    monkeypatch.setattr(discord.Thread, "send", slow_send)
    before = len(list(thread.history(viewer=table.dave)))
    await table.alice.slash(thread, "end-phase")
    after = list(thread.history(viewer=table.dave))
    announcement, board = after[before:]
    assert "Red ended the phase" in message_text(announcement) and not announcement.attachments
    assert [a.filename for a in board.attachments] == ["board.png"]  # posted after it, as before
    assert seen_by_announcement == [True]
    png = await board.attachments[0].read()
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert png == await render((await table.game()).id)  # the picture as asked for alone
