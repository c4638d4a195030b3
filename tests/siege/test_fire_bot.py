"""Oil and the siege shield through the Discord layer under SimCord: a scenario file of one's
own attached to /game new, the new actions offered by /act's autocomplete, accepted or refused
with the reason."""

from __future__ import annotations

import json

from tests.discord.conftest import clock, db_path, dice, german, message_text, reply_text, table  # noqa: F401

SCENARIO = {
    "name": "oil-and-shield",
    "first": "defender",
    "phase": "move",
    "figures": {
        "d": {"type": "man-at-arms", "side": "defender", "at": "0704", "name": "Dietrich"},
        "b": {"type": "peasant", "side": "besieger", "at": "0703", "name": "Bauer"},
        "s": {"type": "man-at-arms", "side": "besieger", "at": "1019", "name": "Sigurd"},
    },
    "oil": {"pot": {"at": "0704"}},
    "shields": {"mantlet": {"carrier": "s"}},
}


async def test_oil_and_the_shield_are_offered_and_played_through_the_bot(table):  # noqa: F811
    created = await table.alice.slash(
        table.channel,
        "game new",
        ruleset="siege",
        scenario_file=("oil.json", json.dumps(SCENARIO).encode()),
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    offered = await table.bob.autocomplete(table.thread, "act", "action", "/lift")
    assert any("/lift unit:d item:pot" in str(c) for c in offered), offered
    for action in ("/lift unit:d item:pot", "/end-phase", "/end-phase"):
        result = await table.bob.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    refused = await table.bob.slash(table.thread, "act", action="/pour unit:d at:0604")
    assert "/pour unit:d at:0703" in reply_text(refused), reply_text(refused)
    poured = await table.bob.slash(table.thread, "act", action="/pour unit:d at:0703")
    assert reply_text(poured).startswith("Done"), reply_text(poured)
    assert (await table.game()).state["oil"] == {}
