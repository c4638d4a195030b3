"""Siege engines through the Discord layer under SimCord (no SIEGE code in cogs/): a scenario
file of one's own with an onager, a ballista and a ram; the engine commands are offered by
autocomplete and played through /act. The service's fixed dice are all 6."""

from __future__ import annotations

import json

import pytest

from engine import registry
from tests.discord.conftest import clock, db_path, dice, reply_text, table  # noqa: F401

SCENARIO = {
    "name": "engines",
    "title": "Engines at the south wall",
    "filled_moat": ["0817"],
    "figures": {
        "t": {"type": "technician", "side": "besieger", "at": "0619"},
        "p": {"type": "peasant", "side": "besieger", "at": "0520"},
        "a": {"type": "peasant", "side": "besieger", "at": "0818"},
        "b": {"type": "peasant", "side": "besieger", "at": "0819"},
        "c": {"type": "peasant", "side": "besieger", "at": "0820"},
        "d": {"type": "man-at-arms", "side": "defender", "at": "0119"},
        "k": {"type": "knight", "side": "defender", "at": "1509"},
    },
    "engines": {
        "o1": {"kind": "onager", "side": "besieger"},
        "b1": {"kind": "ballista", "side": "besieger", "at": "0519"},
        "r1": {
            "kind": "ram",
            "side": "besieger",
            "cells": ["0818", "0819", "0820"],
            "towards": "0817",
        },
    },
}


@pytest.fixture
def siege_registered():
    assert "siege" in registry.available()
    return registry.get_ruleset("siege")


async def test_engines_are_offered_and_played_through_the_bot(siege_registered, table):  # noqa: F811
    document = json.dumps(SCENARIO).encode()
    created = await table.alice.slash(
        table.channel, "game new", ruleset="siege", scenario_file=("engines.json", document)
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    offered = [
        c["value"]
        for c in await table.alice.autocomplete(
            table.thread, "act", "action", "/aim engine:o1 at:081"
        )
    ]
    assert any(v.startswith("/aim engine:o1 at:0816") for v in offered), offered[:5]
    for action in (
        "/aim engine:o1 at:0916",  # d10 6 on three points: no effect; the assault begins
        "/bolt engine:b1 target:d",  # 6 + 2 at short range, no cover: B, wounded
        "/end-phase",
        "/drive engine:r1 to:0817",
        "/end-phase",
        "/end-phase",
        "/batter engine:r1",  # 6 on nine points: D
    ):
        if action.startswith("/aim"):
            result = await table.alice.slash(table.thread, "act", action=action)
            assert reply_text(result).startswith("Done"), (action, reply_text(result))
            action = "/bombard at:0916"
        result = await table.alice.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    state = (await table.game()).state
    assert state["figures"]["d"]["wounded"] and not state["figures"]["d"]["dead"]
    assert state["engines"]["r1"]["cells"] == ["0817", "0818", "0819"]
    assert state["siege_sheet"]["0816"]["step"] == 1
    assert state["siege_sheet"]["0916"]["step"] == 0  # bombarded, no effect
    refused = await table.alice.slash(table.thread, "act", action="/batter engine:r1")
    assert not reply_text(refused).startswith("Done")
    # The refusal names the rule that stopped it (4.32), not just the legal list.
    assert "one roll every second round, the next in round 3" in reply_text(refused), reply_text(
        refused
    )
