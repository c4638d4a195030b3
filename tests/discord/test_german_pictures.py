"""The board picture speaks the reader's language (issue 14): a German server's turn posts carry
the German picture, and a German client's own view ("Meine Optionen") is drawn in German too,
while an English server keeps the English picture for everyone reading its channel."""

from __future__ import annotations

import discord
import pytest

from .conftest import reply_text


def _attachments(result) -> list:
    messages = []
    if result.response is not None:
        messages.append(result.response.message)
    messages += [f.message for f in result.followups]
    return [att for m in messages for att in m.attachments]


async def _tenochtitlan(table):
    await table.alice.slash(
        table.channel, "game new", ruleset="tenochtitlan", scenario="historical"
    )
    await table.alice.slash(table.thread, "game join", side="aztec")
    await table.bob.slash(table.thread, "game join", side="spanish")
    result = await table.alice.slash(table.thread, "game start")
    assert table.boards(), reply_text(result)
    return await table.game()


@pytest.mark.parametrize("dice", [[3, 4, 5, 6, 2, 1] * 10])
async def test_a_german_server_posts_the_german_picture_and_a_german_client_sees_its_own(
    table, german
):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    info = await _tenochtitlan(table)

    board = table.boards()[-1]
    posted = await board.attachments[0].read()
    german_picture = await table.service.render(info.id, viewer=None, lang="de")
    assert posted == german_picture
    assert posted != await table.service.render(info.id, viewer=None, lang="en")

    mine = await table.bob.click(board, label="Meine Optionen")
    assert mine.ephemeral
    files = _attachments(mine)
    assert files, reply_text(mine)
    own = await files[0].read()
    assert own == await table.service.render(info.id, viewer="spanish", lang="de")
    assert own != await table.service.render(info.id, viewer="spanish", lang="en")


@pytest.mark.parametrize("dice", [[3, 4, 5, 6, 2, 1] * 10])
async def test_an_english_server_posts_english_while_a_german_client_views_in_german(table, german):
    info = await _tenochtitlan(table)
    board = table.boards()[-1]
    posted = await board.attachments[0].read()
    assert posted == await table.service.render(info.id, viewer=None, lang="en")

    # the buttons are the server's language; what the click answers is the reader's
    mine = await table.alice.click(board, label="Show my options")
    own = await _attachments(mine)[0].read()
    assert own == await table.service.render(info.id, viewer="aztec", lang="de")
    assert own != await table.service.render(info.id, viewer="aztec", lang="en")
