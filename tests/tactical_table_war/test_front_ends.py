"""The game through the local table and through Discord (SimCord), with no game-specific code
in either."""

from __future__ import annotations

import io
import json

import pytest

from engine import registry
from engine.core.game import autoplay
from engine.core.state import state_hash
from service import table as local_table
from tests.discord.conftest import clock, db_path, dice, message_text, reply_text, table  # noqa: F401

NAME = "tactical-table-war"


def test_the_local_table_autoplays_the_prepared_battlefield_to_the_end(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    code = local_table.main(
        [
            "--game",
            NAME,
            "--scenario",
            "prepared-battlefield",
            "--seed",
            "11",
            "--autoplay",
            "--db",
            str(tmp_path / "t.db"),
        ],
        stdout=out,
        stderr=err,
    )
    assert code == 0, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    over = lines[-1]
    assert over["type"] == "game_over"
    ruleset = registry.get_ruleset(NAME)
    final, actions = autoplay(ruleset, ruleset.load_scenario("prepared-battlefield"), 11)
    assert over["state_hash"] == state_hash(final) and over["actions"] == len(actions)


@pytest.mark.parametrize("dice", [[]])
async def test_discord_opens_and_plays_the_game_with_no_game_specific_code(table):  # noqa: F811
    ruleset = registry.get_ruleset(NAME)
    created = await table.alice.slash(
        table.channel, "game new", ruleset=NAME, scenario="prepared-battlefield"
    )
    assert "is open in" in reply_text(created), reply_text(created)
    for side in ruleset.sides:
        await table.alice.slash(table.thread, "game join", side=side)
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    for step in range(24):
        choices = await table.alice.autocomplete(table.thread, "act", "action", "")
        assert choices, f"nothing offered at step {step}"
        # Prefer real moves over ending phases, so both sides act and the board changes.
        real = [c for c in choices if "end-phase" not in c["value"]] or choices
        result = await table.alice.slash(
            table.thread, "act", action=real[step % len(real)]["value"]
        )
        assert reply_text(result).startswith("Done"), reply_text(result)
    board = table.boards()[-1]
    assert ruleset.title in message_text(board)
    assert board.attachments[0].filename == "board.png"


@pytest.mark.parametrize("dice", [[]])
async def test_discord_plays_the_prepared_battlefield_through_to_its_result(table):  # noqa: F811
    """A newcomer's whole game: only what /act offers, every eighth pick a real action and
    otherwise ending the phase, until the game is over and its result is posted."""
    ruleset = registry.get_ruleset(NAME)
    await table.alice.slash(
        table.channel, "game new", ruleset=NAME, scenario="prepared-battlefield"
    )
    for side in ruleset.sides:
        await table.alice.slash(table.thread, "game join", side=side)
    await table.alice.slash(table.thread, "game start")
    for step in range(600):
        info = await table.game()
        if info.status != "active":
            break
        choices = [
            c["value"] for c in await table.alice.autocomplete(table.thread, "act", "action", "")
        ]
        real = [c for c in choices if "end-phase" not in c]
        ending = [c for c in choices if "end-phase" in c]
        pick = real[step % len(real)] if real and (step % 8 == 0 or not ending) else ending[0]
        result = await table.alice.slash(table.thread, "act", action=pick)
        assert reply_text(result).startswith("Done"), (pick, reply_text(result))
    info = await table.game()
    assert info.status == "finished" and info.result, info
    assert "Game over. Winner:" in table.public_text()
