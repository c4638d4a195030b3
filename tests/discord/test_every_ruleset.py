"""Every registered game works through Discord with no game-specific code: open, seat every
side, start, and take the actions /act offers, each of which must be accepted."""

from __future__ import annotations

import pytest

from engine import registry

from .conftest import message_text, reply_text

REAL_GAMES = [name for name in registry.RULESETS if name != "skirmish"]
STEPS = 20


@pytest.mark.parametrize("dice", [[]])
@pytest.mark.parametrize("game", REAL_GAMES)
async def test_a_real_game_runs_through_the_bot(table, game):
    try:
        ruleset = registry.get_ruleset(game)
    except ImportError as error:
        pytest.skip(f"{game} is not available yet: {error}")
    created = await table.alice.slash(table.channel, "game new", ruleset=game)
    assert "is open in" in reply_text(created), reply_text(created)
    for side in ruleset.sides:  # hot-seat: one player holds every side
        await table.alice.slash(table.thread, "game join", side=side)
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    for step in range(STEPS):
        info = await table.game()
        if info.status != "active":
            break
        choices = await table.alice.autocomplete(table.thread, "act", "action", "")
        assert choices, f"{game}: nothing offered at step {step}"
        pick = choices[step % len(choices)]
        result = await table.alice.slash(table.thread, "act", action=pick["value"])
        assert reply_text(result).startswith("Done"), (pick, reply_text(result))
    board = table.boards()[-1]
    assert ruleset.title in message_text(board)
    assert board.attachments[0].filename == "board.png"
