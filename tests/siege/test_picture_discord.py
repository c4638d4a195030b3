"""SIEGE's picture in the reader's language through the bot under SimCord: a German server's
turn post carries the German picture of the long siege, an English server the English one."""

from __future__ import annotations

import io

import discord
from PIL import Image

import renderer
from engine import registry
from tests.discord.conftest import clock, db_path, dice, reply_text, table  # noqa: F401


async def _long_siege(table):  # noqa: F811
    created = await table.alice.slash(
        table.channel, "game new", ruleset="siege", scenario="long-siege"
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    result = await table.alice.slash(table.thread, "game start")
    assert table.boards(), reply_text(result)
    return await table.game()


async def test_a_german_server_posts_siege_s_picture_in_german(table):  # noqa: F811
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    info = await _long_siege(table)
    posted = await table.boards()[-1].attachments[0].read()
    assert posted == await table.service.render(info.id, viewer=None, lang="de")
    assert posted != await table.service.render(info.id, viewer=None, lang="en")
    # what that picture says: the German header, legend and key, drawn into the PNG
    scene = registry.get_ruleset("siege").scene(info.state, [], None, lang="de")
    _, rec = renderer.render_with_layout(scene)
    shown = " ".join(text for _, text, _ in rec.texts)
    assert "Belagerer" in shown and "Zugbrücke" in shown and "Maschinen" in shown
    assert Image.open(io.BytesIO(posted)).format == "PNG"


async def test_an_english_server_posts_siege_s_picture_in_english(table):  # noqa: F811
    info = await _long_siege(table)
    posted = await table.boards()[-1].attachments[0].read()
    assert posted == await table.service.render(info.id, viewer=None, lang="en")
