"""Issue 8 through the command tree: referee and service actions, limits on expensive and
spammy commands, length caps, and the last-resort error handler."""

from __future__ import annotations

import io
import logging

import discord
import pytest
from PIL import Image

from cogs import common
from cogs.limits import COOLDOWNS
from service.games import DISCORD_ATTACHMENT_LIMIT, ReplayTooBig

from .conftest import message_text, reply_text, slash_together

AGREE = "Agree to take it back"


async def _fired(table):
    """A started game where red (alice, also the game's creator and so a referee) has just
    fired with a die at b1."""
    info = await table.started_game()
    await table.alice.slash(table.thread, "ref place", unit="b1", to="0201")
    await table.alice.slash(table.thread, "end-phase")
    fired = await table.alice.slash(table.thread, "fire", unit="r1", target="b1")
    assert reply_text(fired).startswith("Done"), reply_text(fired)
    return info


# ----- referee and service actions --------------------------------------------------------


async def test_ref_phase_refuses_an_unknown_phase_and_lists_the_games_phases(table):
    info = await table.started_game()
    before = (await table.game()).state
    refused = await table.alice.slash(table.thread, "ref phase", phase="bogus")
    text = reply_text(refused)
    assert refused.ephemeral and "bogus" in text and "move" in text and "fire" in text, text
    after = await table.game()
    assert after.state == before and after.version == info.version, "nothing changed"
    offered = await table.alice.autocomplete(table.thread, "ref phase", "phase", "")
    assert [c["value"] for c in offered] == ["move", "fire"]
    assert reply_text(await table.alice.slash(table.thread, "ref phase", phase="fire")) == "Done."
    assert (await table.game()).state["phase"] == "fire"


async def test_act_cannot_forfeit_or_resign_and_no_play_command_offers_them(table):
    info = await table.started_game()
    for typed in ("/forfeit", "/resign"):
        refused = await table.alice.slash(table.thread, "act", action=typed)
        assert refused.ephemeral and "/game resign" in reply_text(refused), reply_text(refused)
    after = await table.game()
    assert after.status == "active" and after.version == info.version
    assert not after.state.get("result")
    names = {command.name for command in table.bot.tree.get_commands()}
    assert "forfeit" not in names and "resign" not in names
    offered = await table.alice.autocomplete(table.thread, "act", "action", "")
    assert offered and not any(c["value"].startswith(("/forfeit", "/resign")) for c in offered)


async def test_seated_referee_needs_the_other_sides_consent_to_rewind_dice(table):
    info = await _fired(table)
    fired = await table.game()
    asked = await table.alice.slash(table.thread, "ref undo")
    assert asked.ephemeral and "agreement" in reply_text(asked), reply_text(asked)
    assert (await table.game()).version == fired.version, "nothing was undone yet"
    request = table.thread.last_message
    assert "wants to take back" in message_text(request) and "6" in message_text(request)
    assert f"<@{table.bob.id}>" in request.content, "the player who can agree is pinged"
    assert f"<@{table.alice.id}>" in request.content
    pings = [
        r.json["allowed_mentions"]
        for r in table.env.http_requests
        if r.method == "POST"
        and isinstance(r.json, dict)
        and "wants to take back" in (r.json.get("content") or "")
    ]
    assert [sorted(map(int, p.get("users", []))) for p in pings] == [[table.bob.id]]
    assert not any(p.get("parse") for p in pings)
    # Neither the referee nor a player of the referee's own side can agree.
    self_agree = await table.alice.click(request, label=AGREE)
    assert self_agree.ephemeral and "Only a player of Blue" in reply_text(self_agree)
    agreed = await table.bob.click(request, label=AGREE)
    assert reply_text(agreed) == "Done.", reply_text(agreed)
    after = await table.game()
    assert after.version == fired.version + 1 and "b1" in after.state["units"]
    assert "with the agreement of" in table.public_text()
    # The request is void once used.
    again = await table.bob.click(request, label=AGREE)
    assert "out of date" in reply_text(again)
    history = await table.service.history(info.id, include_undone=True)
    undone = [r for r in history if not r.live]
    assert undone[-1].undone_by == f"referee:{table.alice.id};agreed:user:{table.bob.id}"


async def test_a_referee_without_a_seat_rewinds_dice_alone(table):
    await _fired(table)
    role = table.guild.create_role("Umpires")
    admin = table.guild.add_member(
        table.env.create_user("erin"),
        roles=[
            table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        ],
    )
    referee = table.guild.add_member(table.env.create_user("frank"), roles=[role])
    await admin.slash(table.channel, "umpire config", referee_role=role)
    before = await table.game()
    undone = await referee.slash(table.thread, "ref undo")
    assert reply_text(undone) == "Done.", reply_text(undone)
    assert (await table.game()).version == before.version + 1


async def test_game_log_shows_undone_rolls_and_who_undid_them(table):
    await _fired(table)
    await table.alice.slash(table.thread, "ref undo")
    request = table.thread.last_message
    await table.bob.click(request, label=AGREE)
    shown = await table.dave.slash(table.thread, "game log")
    text = reply_text(shown)
    assert "~~" in text and "🎲" in text, text
    assert (
        "undone by" in text and f"<@{table.alice.id}>" in text and f"<@{table.bob.id}>" in text
    ), text


# ----- limits on expensive and spammy commands ----------------------------------------------


async def test_flare_only_from_the_games_players_and_referees(table):
    info = await table.started_game()
    refused = await table.dave.slash(table.thread, "flare", hex="0303")
    assert refused.ephemeral and "players and referees" in reply_text(refused)
    assert await table.service.flares(info.id) == []
    allowed = await table.bob.slash(table.thread, "flare", hex="0303")
    assert "Flare at 0303" in reply_text(allowed)


async def test_cooldowns_answer_privately_with_the_wait_and_use_the_bots_clock(table):
    await table.started_game()
    first = await table.dave.slash(table.thread, "game board")
    assert "posted" in reply_text(first).lower(), reply_text(first)
    posts = len(table.thread.history(viewer=table.bob))
    second = await table.dave.slash(table.thread, "game board")
    text = reply_text(second)
    assert second.ephemeral and f"again in {int(COOLDOWNS['game board'])} s" in text, text
    assert len(table.thread.history(viewer=table.bob)) == posts
    # Per member: someone else may still ask.
    assert "posted" in reply_text(await table.carol.slash(table.thread, "game board")).lower()
    table.clock.advance(COOLDOWNS["game board"] - 3)
    assert "again in 3 s" in reply_text(await table.dave.slash(table.thread, "game board"))
    table.clock.advance(3)
    assert "posted" in reply_text(await table.dave.slash(table.thread, "game board")).lower()


@pytest.mark.parametrize(
    "command, options",
    [
        ("game new", {"ruleset": "skirmish"}),
        ("game board", {}),
        ("game replay", {}),
        ("game verify", {}),
        ("flare", {"hex": "0303"}),
    ],
)
async def test_every_limited_command_makes_its_user_wait(table, command, options):
    info = await table.started_game()
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    if command == "game verify":  # only a finished game's seed is public
        await table.service.resign(info.id, "blue")
    where = table.channel if command == "game new" else table.thread
    first = await table.bob.slash(where, command, **options)
    assert "again in" not in reply_text(first), reply_text(first)
    posts = len(table.thread.history(viewer=table.dave)), len(table.channel.threads)
    second = await table.bob.slash(where, command, **options)
    text = reply_text(second)
    assert second.ephemeral and f"again in {int(COOLDOWNS[command])} s" in text, text
    assert (len(table.thread.history(viewer=table.dave)), len(table.channel.threads)) == posts
    assert set(COOLDOWNS) == {"game new", "game board", "game replay", "game verify", "flare"}


async def test_a_refused_command_does_not_start_the_wait(table):
    await table.alice.slash(table.channel, "game new", ruleset="no-such-game")
    retry = await table.alice.slash(table.channel, "game new", ruleset="skirmish")
    assert "Opened" in reply_text(retry) or "#" in reply_text(retry), reply_text(retry)
    assert table.channel.threads, "the second try opened a game"
    again = await table.alice.slash(table.channel, "game new", ruleset="skirmish")
    assert "again in" in reply_text(again)


async def test_open_games_are_capped_per_member_and_per_server(table):
    admin = table.guild.add_member(
        table.env.create_user("erin"),
        roles=[
            table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        ],
    )
    saved = await admin.slash(
        table.channel, "umpire config", max_games_per_member=1, max_games_per_server=2
    )
    assert "1 per member, 2 per server" in reply_text(saved), reply_text(saved)
    await table.alice.slash(table.channel, "game new", ruleset="skirmish")
    table.clock.advance(COOLDOWNS["game new"])
    capped = await table.alice.slash(table.channel, "game new", ruleset="skirmish")
    assert capped.ephemeral and "1 open games" in reply_text(capped), reply_text(capped)
    await table.bob.slash(table.channel, "game new", ruleset="skirmish")
    full = await table.carol.slash(table.channel, "game new", ruleset="skirmish")
    assert "This server already has 2 open games" in reply_text(full), reply_text(full)
    assert len(await table.service.list_games(guild_id=table.guild.id)) == 2
    # A finished game no longer counts.
    first = (await table.service.list_games(guild_id=table.guild.id))[0]
    await table.service.start_game(first.id)
    await table.service.resign(first.id, "red")
    table.clock.advance(COOLDOWNS["game new"])
    opened = await table.carol.slash(table.channel, "game new", ruleset="skirmish")
    assert "already has" not in reply_text(opened), reply_text(opened)
    assert len(await table.service.list_games(guild_id=table.guild.id)) == 3


async def test_the_server_cap_holds_when_members_open_games_in_the_same_instant(table):
    admin = table.guild.add_member(
        table.env.create_user("erin"),
        roles=[
            table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        ],
    )
    await admin.slash(table.channel, "umpire config", max_games_per_server=1)
    results = await slash_together(
        table.env,
        [
            (member, table.channel, "game new", {"ruleset": "skirmish"})
            for member in (table.alice, table.bob, table.carol)
        ],
    )
    texts = [reply_text(r) for r in results]
    assert len(await table.service.list_games(guild_id=table.guild.id)) == 1, texts
    assert sum("already has 1 open games" in text for text in texts) == 2, texts
    assert len(table.channel.threads) == 1


async def test_config_reply_shows_the_stored_settings_when_only_the_caps_change(table):
    role = table.guild.create_role("Umpires")
    admin = table.guild.add_member(
        table.env.create_user("erin"),
        roles=[
            table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        ],
    )
    await admin.slash(table.channel, "umpire config", referee_role=role, language="de")
    saved = reply_text(await admin.slash(table.channel, "umpire config", max_games_per_member=2))
    assert f"<@&{role.id}>" in saved and "de" in saved and "2 per member" in saved, saved
    assert (await table.service.guild_config(table.guild.id))["referee_role_id"] == role.id


async def test_one_replay_at_a_time_per_game(table):
    await table.started_game()
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    results = await slash_together(
        table.env,
        [
            (table.dave, table.thread, "game replay", {}),
            (table.carol, table.thread, "game replay", {}),
        ],
    )
    texts = sorted(reply_text(r) for r in results)
    assert any("already drawing" in text for text in texts), texts
    gifs = [
        m for m in table.thread.history() if any(a.filename == "replay.gif" for a in m.attachments)
    ]
    assert len(gifs) == 1


async def test_replay_fits_the_servers_attachment_limit(table):
    info = await table.started_game()
    for _ in range(3):
        for player in (table.alice, table.alice, table.bob, table.bob):
            await player.slash(table.thread, "end-phase")
    await table.dave.slash(table.thread, "game replay")
    posted = [
        m
        for m in table.thread.history()
        if m.attachments and m.attachments[0].filename == "replay.gif"
    ][-1]
    data = await posted.attachments[0].read()
    assert len(data) <= DISCORD_ATTACHMENT_LIMIT
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames >= 2
    # A smaller limit leaves frames out (the last one, the game as it stands, stays) ...
    small = await table.service.render_animation(info.id, max_bytes=len(data) - 1)
    assert len(small) <= len(data) - 1
    thinned = Image.open(io.BytesIO(small))
    assert 1 <= thinned.n_frames < gif.n_frames
    gif.seek(gif.n_frames - 1)
    thinned.seek(thinned.n_frames - 1)
    assert gif.convert("RGB").tobytes() == thinned.convert("RGB").tobytes()
    # ... and one nothing fits in is refused cleanly, never sent too big.
    with pytest.raises(ReplayTooBig):
        await table.service.render_animation(info.id, max_bytes=1000)


# ----- length caps and the last resort -------------------------------------------------------


async def test_overlong_options_are_refused_before_any_work(table):
    await table.started_game()
    games = len(await table.service.list_games())
    long = "x" * 6000
    refused = await table.alice.slash(table.channel, "game new", ruleset="skirmish", scenario=long)
    text = reply_text(refused)
    assert refused.ephemeral and "too long (6000 characters; at most 100)" in text, text
    assert len(await table.service.list_games()) == games
    # Autocomplete with an overlong value does no work and offers nothing.
    assert await table.alice.autocomplete(table.channel, "game new", "ruleset", long) == []


async def test_overlong_option_refused_in_german(table, german):
    refused = await table.alice.slash(
        table.channel, "game new", ruleset="skirmish", scenario="y" * 500
    )
    assert "zu lang" in reply_text(refused), reply_text(refused)
    assert await table.service.list_games() == []


async def test_free_text_options_declare_their_length_to_discord(table):
    """Discord's client enforces ``max_length`` itself (SimCord refuses as the client would)."""
    for command in table.bot.tree.walk_commands():
        for parameter in getattr(command, "parameters", []):
            if (
                parameter.type is discord.AppCommandOptionType.string
                and not parameter.choices
                and command.qualified_name != "game new"
            ):
                assert parameter.max_value == 100, (command.qualified_name, parameter.name)


async def test_an_error_the_guards_miss_gets_a_polite_private_reply_and_a_log_line(
    table, monkeypatch, caplog
):
    await table.started_game()

    async def broken(self):
        raise RuntimeError("guard broke")

    monkeypatch.setattr(common.Guard, "__aenter__", broken)
    with caplog.at_level(logging.ERROR, logger="umpire.discord"):
        result = await table.bob.slash(table.thread, "game status")
    assert result.ephemeral and "something went wrong" in reply_text(result), reply_text(result)
    logged = [r for r in caplog.records if "unhandled error in /game status" in r.getMessage()]
    assert logged and str(table.bob.id) in logged[0].getMessage()
    assert logged[0].exc_info and "guard broke" in str(logged[0].exc_info[1])
    assert any("guard broke" in str(e) for e in table.env.errors)  # acknowledged


async def test_an_undo_agreement_still_works_after_a_restart(table):
    await _fired(table)
    fired = await table.game()
    await table.alice.slash(table.thread, "ref undo")
    request = table.thread.last_message
    await table.restart()
    agreed = await table.bob.click(request, label=AGREE)
    assert reply_text(agreed) == "Done.", reply_text(agreed)
    assert (await table.game()).version == fired.version + 1


async def test_play_commands_are_built_with_discords_public_decorators(table):
    """Names Python cannot use (``with``, ``as``) reach Discord as the game wrote them, every
    option is described, and every play command is refused outside a server."""
    tree = table.bot.tree
    play = {
        c.name: c
        for c in tree.get_commands()
        if c.name not in ("game", "ref", "umpire", "act", "undo", "flare")
    }
    assert play, "the play commands are registered"
    for command in play.values():
        assert command.guild_only, command.name
        payload = command.to_dict(tree)
        for option in payload.get("options", []):
            assert option["description"], (command.name, option["name"])
    names = {c: [o["name"] for o in play[c].to_dict(tree).get("options", [])] for c in play}
    assert any("with" in options for options in names.values()), names
    assert any("as" in options for options in names.values()), names
    assert not any("with_" in options or "as_" in options for options in names.values())
