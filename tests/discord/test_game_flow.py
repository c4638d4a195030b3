"""A whole game through Discord: /game new to victory, with autocomplete picking every move."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core import hexgrid

from .conftest import message_text, reply_text


def nearest_enemy_distance(state, side, at):
    here = hexgrid.parse_label(at)
    return min(
        hexgrid.distance(here, hexgrid.parse_label(u["at"]))
        for u in state["units"].values()
        if u["side"] != side
    )


async def play_one_step(table, player, side):
    """One decision the way a player makes it in Discord: look at the autocomplete lists,
    fire if anything can be fired at, else move a unit closer, else end the phase."""
    thread = table.thread
    info = await table.game()
    units = await player.autocomplete(thread, "fire", "unit", "")
    if units:
        unit = units[0]["value"]
        targets = await player.autocomplete(thread, "fire", "target", "", unit=unit)
        assert targets, "a unit offered for /fire has a target"
        return await player.slash(thread, "fire", unit=unit, target=targets[0]["value"])
    units = await player.autocomplete(thread, "move", "unit", "")
    for choice in units:
        unit = choice["value"]
        at = info.state["units"][unit]["at"]
        now = nearest_enemy_distance(info.state, side, at)
        destinations = await player.autocomplete(thread, "move", "to", "", unit=unit)
        closer = [
            d["value"]
            for d in destinations
            if nearest_enemy_distance(info.state, side, d["value"]) < now
        ]
        if closer:
            return await player.slash(thread, "move", unit=unit, to=closer[0])
    return await player.slash(thread, "end-phase")


async def test_complete_game_from_new_to_victory(table):
    choices = await table.alice.autocomplete(table.channel, "game new", "ruleset", "skir")
    assert {"name": "Skirmish (test fixture) (skirmish)", "value": "skirmish"} in choices
    scenarios = await table.alice.autocomplete(
        table.channel, "game new", "scenario", "", ruleset="skirmish"
    )
    assert [s["value"] for s in scenarios] == ["standard"]

    created = await table.new_game(scenario="standard")
    assert "is open in" in reply_text(created)
    thread = table.thread
    assert "Skirmish" in thread.name
    sides = await table.bob.autocomplete(thread, "game join", "side", "")
    assert [s["value"] for s in sides] == ["red", "blue"]
    await table.alice.slash(thread, "game join", side="red")
    await table.bob.slash(thread, "game join", side="blue")
    started = await table.alice.slash(thread, "game start")
    assert reply_text(started) == "Done."
    info = await table.game()
    assert info.status == "active"
    assert info.seed_hash in table.public_text(), "the seed hash is shown at the start"
    board = table.boards()[-1]
    png = await board.attachments[0].read()
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert "Red" in message_text(board) and f"<@{table.alice.id}>" in board.content

    players = {"red": table.alice, "blue": table.bob}
    for _ in range(200):
        info = await table.game()
        if info.status == "finished":
            break
        side = info.state["awaiting"][0]
        result = await play_one_step(table, players[side], side)
        assert result.ephemeral
        assert reply_text(result).startswith("Done"), reply_text(result)
    info = await table.game()
    assert info.status == "finished"
    winner = info.result["winner"]
    assert winner in ("red", "blue")
    text = table.public_text()
    assert f"Winner: {winner.title()}" in text
    final = [m for m in table.thread.history() if m.attachments and m.embeds][-1]
    assert "🎲" in message_text(final), "the last board shows the deciding die"
    assert info.seed in text, "the seed is revealed when the game ends"
    assert "🎲" in text, "every die is shown in the thread"
    # Every resolved attack was posted as a result with its die.
    results = [
        m
        for m in table.thread.history(viewer=table.dave)
        if m.embeds and m.embeds[0].title == "Result"
    ]
    assert results and all("🎲" in m.embeds[0].description for m in results)

    # The test's fixed dice are not the seed's, and /game verify says exactly that.
    verified = await table.dave.slash(thread, "game verify")
    assert verified.ephemeral and "FAILED" in reply_text(verified)
    assert "not dice from the seed" in message_text(table.thread.last_message)
    log = await table.dave.slash(thread, "game log", count=5)
    assert "fire" in reply_text(log)
    await table.dave.slash(thread, "game replay")
    posted = table.thread.last_message
    assert posted.attachments[0].filename.startswith("replay.")
    data = await posted.attachments[0].read()
    animation = Image.open(io.BytesIO(data))
    assert getattr(animation, "n_frames", 1) > 1


@pytest.mark.parametrize("dice", [[]])
async def test_seeded_dice_verify_after_the_game(table):
    """With the server's own dice, the revealed seed reproduces every die."""
    await table.started_game()
    for _ in range(40):
        info = await table.game()
        side = info.state["awaiting"][0]
        await play_one_step(table, {"red": table.alice, "blue": table.bob}[side], side)
        if any("🎲" in message_text(m) for m in table.public()):
            break
    resigned = await table.bob.slash(table.thread, "game resign")
    assert reply_text(resigned) == "Done."
    info = await table.game()
    assert info.status == "finished" and info.result["winner"] == "red"
    assert "🎲" in table.public_text()
    verified = await table.dave.slash(table.thread, "game verify")
    assert "Verified" in reply_text(verified), reply_text(verified)
    assert "Verified" in message_text(table.thread.last_message), "announced in the thread"


async def test_refusals_of_public_commands_stay_private(table):
    result = await table.alice.slash(table.channel, "game new", ruleset="chess")
    assert result.ephemeral, "a mistyped game name is not announced to the channel"
    assert "no game called 'chess'" in reply_text(result) and "skirmish" in reply_text(result)
    assert not table.channel.threads
    assert all("chess" not in message_text(m) for m in table.public())
    elsewhere = await table.alice.slash(table.channel, "game board")
    assert elsewhere.ephemeral and "no game in this channel" in reply_text(elsewhere)


async def test_board_after_a_turn_flares_and_rules(table):
    await table.started_game()
    thread = table.thread
    await table.alice.slash(thread, "move", unit="r1", to="0201")
    for player in (table.alice, table.alice, table.bob, table.bob):
        await player.slash(thread, "end-phase")
    await table.dave.slash(thread, "game board", turn=1)
    past = table.thread.last_message
    assert "after turn 1" in past.content
    data = await past.attachments[0].read()
    assert Image.open(io.BytesIO(data)).format == "PNG"
    table.clock.advance(60)  # past /game board's cooldown
    missing = await table.dave.slash(thread, "game board", turn=9)
    assert missing.ephemeral and "has not been played" in reply_text(missing)
    flare = await table.bob.slash(thread, "flare", hex="0303")
    assert "Flare at 0303" in reply_text(flare)
    board = table.boards()[-1]
    assert "marks 0303" in message_text(board)
    rules = await table.dave.slash(thread, "game rules")
    assert "5+" in reply_text(rules)
    listing = await table.dave.slash(table.channel, "game list")
    assert "Skirmish" in reply_text(listing) and "running" in reply_text(listing)


async def test_missing_permissions_are_explained(table):
    table.env.inject_error(
        "POST", "/channels/*/threads", status=403, code=50013, message="Missing Permissions"
    )
    result = await table.alice.slash(table.channel, "game new", ruleset="skirmish")
    assert result.ephemeral
    assert "Create Public Threads" in reply_text(result), reply_text(result)


async def test_flares_survive_a_restart_and_clear_after_the_next_turn_post(table):
    info = await table.started_game()
    thread = table.thread
    await table.bob.slash(thread, "flare", hex="0303")
    assert "marks 0303" in message_text(table.boards()[-1])
    await table.restart()

    async def posted_png():
        return await table.boards()[-1].attachments[0].read()

    async def pictures():
        game = await table.game()
        return (
            await table.service.render(game.id, flares=("0303",)),
            await table.service.render(game.id),
        )

    await table.dave.slash(thread, "game board")
    flared, plain = await pictures()
    assert flared != plain
    assert await posted_png() == flared, "after the restart the picture still shows the flare"
    # A move in the same phase posts no new board; ending the phase does, with the flare ...
    await table.alice.slash(thread, "move", unit="r1", to="0201")
    await table.alice.slash(thread, "end-phase")
    flared, plain = await pictures()
    assert await posted_png() == flared
    # ... and then the flare is gone.
    assert await table.service.flares(info.id) == []
    table.clock.advance(60)  # past /game board's cooldown
    await table.dave.slash(thread, "game board")
    assert await posted_png() == plain
