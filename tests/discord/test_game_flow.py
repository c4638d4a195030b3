"""A whole game through Discord: /game new to victory, with autocomplete picking every move."""
from __future__ import annotations

import io

import pytest

from PIL import Image

from engine.core import hexgrid

from .conftest import message_text, reply_text


def nearest_enemy_distance(state, side, at):
    here = hexgrid.parse_label(at)
    return min(hexgrid.distance(here, hexgrid.parse_label(u["at"]))
               for u in state["units"].values() if u["side"] != side)


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
        closer = [d["value"] for d in destinations
                  if nearest_enemy_distance(info.state, side, d["value"]) < now]
        if closer:
            return await player.slash(thread, "move", unit=unit, to=closer[0])
    return await player.slash(thread, "end-phase")


async def test_complete_game_from_new_to_victory(table):
    choices = await table.alice.autocomplete(table.channel, "game new", "ruleset", "skir")
    assert {"name": "Skirmish (test fixture) (skirmish)", "value": "skirmish"} in choices
    scenarios = await table.alice.autocomplete(table.channel, "game new", "scenario", "",
                                               ruleset="skirmish")
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
    assert "Red" in message_text(board) and "<@%d>" % table.alice.id in board.content

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
    assert info.seed in text, "the seed is revealed when the game ends"
    assert "🎲" in text, "every die is shown in the thread"
    # Every resolved attack was posted as a result with its die.
    results = [m for m in table.thread.history(viewer=table.dave)
               if m.embeds and m.embeds[0].title == "Result"]
    assert results and all("🎲" in m.embeds[0].description for m in results)

    # The test's fixed dice are not the seed's, and /game verify says exactly that.
    verified = await table.dave.slash(thread, "game verify")
    assert "FAILED" in reply_text(verified) and "not dice from the seed" in reply_text(verified)
    log = await table.dave.slash(thread, "game log", count=5)
    assert "fire" in reply_text(log)
    replay = await table.dave.slash(thread, "game replay")
    data = await replay.followups[0].attachments[0].read() if replay.followups else \
        await replay.response.attachments[0].read()
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
