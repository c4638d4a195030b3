"""The lobby for newcomers (issue 15): leave a seat before the start, cancel an unstarted game
(creator or referee), and a rematch of a finished game with the same seats."""

from __future__ import annotations

from .conftest import reply_text


async def test_a_player_leaves_a_seat_before_the_start_but_not_after(table):
    await table.new_game()
    await table.alice.slash(table.thread, "game join", side="red")
    await table.bob.slash(table.thread, "game join", side="blue")
    left = await table.bob.slash(table.thread, "game leave")
    assert reply_text(left).startswith("You left Blue"), reply_text(left)
    info = await table.game()
    assert (await table.service.seats(info.id))["blue"] == []
    assert f"<@{table.bob.id}> leaves Blue." in table.public_text()
    refused = await table.alice.slash(table.thread, "game start")
    assert "Nobody plays Blue" in reply_text(refused), reply_text(refused)
    await table.bob.slash(table.thread, "game join", side="blue")
    await table.alice.slash(table.thread, "game start")
    late = await table.bob.slash(table.thread, "game leave")
    assert "/game resign" in reply_text(late), reply_text(late)
    assert (await table.service.seats(info.id))["blue"] == [table.bob.id]
    stranger = await table.carol.slash(table.thread, "game leave")
    assert "no seat" in reply_text(stranger), reply_text(stranger)


async def test_only_the_creator_or_a_referee_cancels_a_lobby(table):
    await table.new_game()
    await table.alice.slash(table.thread, "game join", side="red")
    await table.bob.slash(table.thread, "game join", side="blue")
    refused = await table.bob.slash(table.thread, "game cancel")
    assert "Only a referee" in reply_text(refused), reply_text(refused)
    assert (await table.game()).status == "lobby"
    done = await table.alice.slash(table.thread, "game cancel")
    assert reply_text(done).startswith("Done"), reply_text(done)
    info = await table.game()
    assert info.status == "finished" and info.result == {"winner": None, "reason": "cancelled"}
    assert "cancelled this game before it started" in table.public_text()
    # It no longer counts as an open game, and cannot be started or joined.
    assert await table.service.open_games(guild_id=table.guild.id) == 0
    start = await table.alice.slash(table.thread, "game start")
    assert "finished" in reply_text(start), reply_text(start)
    assert (await table.game()).status == "finished"


async def test_a_started_game_cannot_be_cancelled(table):
    await table.started_game()
    refused = await table.alice.slash(table.thread, "game cancel")
    assert "/game resign" in reply_text(refused), reply_text(refused)
    assert (await table.game()).status == "active"


async def test_a_rematch_opens_the_same_game_with_the_same_seats(table):
    first = await table.started_game()
    early = await table.alice.slash(table.thread, "game rematch")
    assert "once this game is over" in reply_text(early), reply_text(early)
    await table.bob.slash(table.thread, "game resign")
    outsider = await table.carol.slash(table.thread, "game rematch")
    assert "Only the game's players" in reply_text(outsider), reply_text(outsider)
    old_thread = table.thread
    done = await table.bob.slash(old_thread, "game rematch")
    assert "is open in" in reply_text(done), reply_text(done)
    games = await table.service.list_games(guild_id=table.guild.id)
    new = games[-1]
    assert new.id != first.id and new.status == "lobby"
    assert (new.ruleset, new.scenario, new.settings) == (
        first.ruleset,
        first.scenario,
        first.settings,
    )
    assert await table.service.seats(new.id) == {"red": [table.alice.id], "blue": [table.bob.id]}
    assert new.thread_id and new.thread_id != first.thread_id
    assert new.seed_hash != first.seed_hash


async def test_help_explains_the_flow_and_the_games_commands_with_real_examples(table):
    outside = await table.alice.slash(table.channel, "help")
    text = reply_text(outside)
    assert "/game new" in text and "/game join" in text and "/game rematch" in text, text
    assert "no game in this channel" in text, text
    await table.started_game()
    inside = reply_text(await table.alice.slash(table.thread, "help"))
    assert "Its commands:" in inside and "`/move` — Move a unit one hex" in inside, inside
    assert "You could type now:" in inside and "`/move unit:r1 to:" in inside, inside
    assert "`/info unit:… cell:…` — Explain one unit or one cell" in inside, inside
    info = await table.game()
    legal = {
        f"/move unit:{a['unit']} to:{a['to']}"
        for a in await table.service.legal_actions(info.id, "red")
        if a["type"] == "move"
    }
    shown = inside.split("You could type now:")[1]
    assert any(f"`{command}`" in shown for command in legal), shown
    waiting = reply_text(await table.bob.slash(table.thread, "help"))
    assert "the game waits for Red" in waiting and "You could type now" not in waiting, waiting


async def test_help_speaks_german(table, german):
    await table.started_game()
    text = reply_text(await table.alice.slash(table.thread, "help"))
    assert "So läuft eine Partie" in text and "Ihre Befehle:" in text
    assert "Eine Einheit ein Feld bewegen" in text and "Du könntest jetzt tippen:" in text, text
    assert "`/info unit:… cell:…` — Eine Einheit oder ein Feld erklären" in text, text


def dms(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


async def test_players_who_opt_in_get_a_direct_message_when_it_is_their_turn(table):
    await table.started_game()
    refused = await table.carol.slash(table.thread, "game notify", on=True)
    assert "no seat" in reply_text(refused), reply_text(refused)
    done = await table.bob.slash(table.thread, "game notify", on=True)
    assert "direct message" in reply_text(done), reply_text(done)
    await table.alice.slash(table.thread, "end-phase")  # Red's fire phase: still Red
    assert dms(table.bob) == []
    await table.alice.slash(table.thread, "end-phase")  # Blue to act
    notices = dms(table.bob)
    assert len(notices) == 1 and "Blue is to act" in notices[0], notices
    assert dms(table.alice) == [], "alice did not opt in"
    await table.bob.slash(table.thread, "game notify", on=False)
    await table.bob.slash(table.thread, "end-phase")
    await table.bob.slash(table.thread, "end-phase")  # back to Red, then Blue again
    await table.alice.slash(table.thread, "end-phase")
    await table.alice.slash(table.thread, "end-phase")
    assert len(dms(table.bob)) == 1, "opted out"


async def test_game_export_attaches_the_page_and_the_json_log(table):
    info = await table.started_game()
    await table.alice.slash(table.thread, "end-phase")
    result = await table.bob.slash(table.thread, "game export")
    message = result.followups[-1].message if result.followups else result.response.message
    names = sorted(a.filename for a in message.attachments)
    assert names == [f"umpire-game-{info.id}.html", f"umpire-game-{info.id}.json"], names
    assert "boards: 2, actions: 1" in reply_text(result), reply_text(result)
