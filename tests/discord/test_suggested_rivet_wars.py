"""Rivet Wars mission 1 suggests a first deployment (issue 15): the lobby points to /suggested,
and the side to deploy takes it in one command; the game then goes on."""

from __future__ import annotations

from .conftest import reply_text


async def test_the_side_to_deploy_takes_the_missions_suggestion_in_one_command(table):
    await table.alice.slash(table.channel, "game new", ruleset="rivet-wars", scenario="mission-1")
    assert "/suggested" in table.public_text()
    await table.alice.slash(table.thread, "game join", side="allies")
    await table.bob.slash(table.thread, "game join", side="bismark")
    await table.alice.slash(table.thread, "game start")
    first = (await table.game()).state["active"]
    player = table.alice if first == "allies" else table.bob
    result = await player.slash(table.thread, "suggested")
    assert reply_text(result).startswith("Done"), reply_text(result)
    state = (await table.game()).state
    assert sorted(u["type"] for u in state["units"].values()) == sorted(
        pair[0] for pair in state["suggested"][first]
    )
    ended = await player.slash(table.thread, "end-phase")
    assert reply_text(ended).startswith("Done"), reply_text(ended)
    assert (await table.game()).state["phase"] != "deploy"
