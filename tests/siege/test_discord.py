"""SIEGE through the Discord layer under SimCord, with no SIEGE code in cogs/: open a game,
seat both sides, start, and play the actions /act offers; every one is accepted and the board
picture is posted."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import registry
from tests.discord.conftest import clock, db_path, dice, german, message_text, reply_text, table  # noqa: F401

STEPS = 30


@pytest.fixture
def siege_registered():
    """SIEGE as the registry offers it to players."""
    assert "siege" in registry.available()
    return registry.get_ruleset("siege")


async def test_siege_plays_through_the_bot(siege_registered, table):  # noqa: F811
    ruleset = siege_registered
    created = await table.alice.slash(table.channel, "game new", ruleset="siege")
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    kinds = set()
    for step in range(STEPS):
        info = await table.game()
        if info.status != "active":
            break
        player = table.alice if ruleset.awaiting(info.state)[0] == "besieger" else table.bob
        choices = await player.autocomplete(table.thread, "act", "action", "")
        assert choices, f"nothing offered at step {step}"
        pick = (
            next((c for c in choices if not c["value"].startswith("/end-phase")), choices[0])
            if step % 3
            else choices[-1]
        )
        kinds.add(pick["value"].split()[0])
        result = await player.slash(table.thread, "act", action=pick["value"])
        assert reply_text(result).startswith("Done"), (pick, reply_text(result))
    assert len(kinds) >= 2
    board = table.boards()[-1]
    assert ruleset.title in message_text(board)
    assert board.attachments[0].filename == "board.png"


async def test_the_siege_tower_through_the_bot(siege_registered, table):  # noqa: F811
    """/place, /roll and /move ... level:top (an optional option) through /act under SimCord."""
    created = await table.alice.slash(table.channel, "game new", ruleset="siege", scenario="breach")
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    for action in (
        "/place tower:belfry at:1620 towards:1619",
        "/end-phase",
        "/end-phase",
        "/move unit:pons to:1620 level:top",
        "/roll tower:belfry to:1619",
    ):
        result = await table.alice.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    state = (await table.game()).state
    assert state["figures"]["pons"]["at"] == "1619" and state["figures"]["pons"]["layer"] == "top"
    assert state["towers"]["belfry"]["cells"] == ["1619", "1719", "1819"]
    refused = await table.alice.slash(
        table.thread, "act", action="/move unit:hugues to:1419 level:top"
    )
    assert not reply_text(refused).startswith("Done")
    assert (await table.game()).state["figures"]["hugues"]["at"] == "1419"


def _reply_messages(result) -> list:
    return ([result.response.message] if result.response is not None else []) + [
        f.message for f in result.followups
    ]


async def test_los_any_player_any_time_with_the_line_drawn(siege_registered, table):  # noqa: F811
    """/los is SIEGE's declared query, offered by the generic play cog: a seated player whose
    side is not to move and a spectator both get the verdict and a picture; nothing changes."""
    await table.alice.slash(table.channel, "game new", ruleset="siege")
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    before = await table.game()
    waiting = siege_registered.awaiting(before.state)[0]
    idle = table.bob if waiting == "besieger" else table.alice
    for asker in (idle, table.dave):
        result = await asker.slash(table.thread, "los", **{"from": "0816", "to": "0819"})
        text = reply_text(result)
        assert text.startswith("Shot possible from 0816 to 0819: range 2 (short), cover none."), (
            text
        )
        assert "battlement" in text
        files = [a for m in _reply_messages(result) for a in m.attachments]
        assert [a.filename for a in files] == ["los.png"]
        image = Image.open(io.BytesIO(await files[0].read()))
        assert image.size[0] > 400
    blocked = reply_text(
        await table.dave.slash(table.thread, "los", **{"from": "1112", "to": "1106"})
    )
    assert "No shot" in blocked and "1111" in blocked
    refused = reply_text(
        await table.dave.slash(table.thread, "los", **{"from": "9999", "to": "0101"})
    )
    assert "'9999' is not a cell of this map" in refused
    after = await table.game()
    assert after.version == before.version and after.state == before.state


async def test_los_outside_a_game_thread_is_refused(siege_registered, table):  # noqa: F811
    result = await table.alice.slash(table.channel, "los", **{"from": "0816", "to": "0819"})
    assert "no game" in reply_text(result).lower()


async def test_the_stand_in_scenario_1_plays_from_game_new_to_a_result(siege_registered, table):  # noqa: F811
    """`open-gate` (our stand-in for the rulebook's scenario 1, docs/rules/siege.md) from
    `/game new` to its result through the bot: each seated player takes a random legal action
    (seeded) by /act until the game is over; the final post names the winner."""
    import random

    from engine.core.commands import format_command
    from service.replay import SERVICE_ACTIONS

    ruleset = siege_registered
    await table.alice.slash(table.channel, "game new", ruleset="siege", scenario="open-gate")
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    pick = random.Random(1).choice
    for _ in range(1500):  # rounds are capped (12), so random play always ends well before
        info = await table.game()
        if info.status != "active":
            break
        side = ruleset.awaiting(info.state)[0]
        legal = [
            a
            for a in await table.service.legal_actions(info.id, side)
            if a["type"] not in SERVICE_ACTIONS
        ]
        action = format_command(pick(legal))
        result = await (table.alice if side == "besieger" else table.bob).slash(
            table.thread, "act", action=action
        )
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    info = await table.game()
    assert info.status == "finished" and info.state["result"]["winner"] in ruleset.sides
    result = info.state["result"]
    assert (
        f"Winner: {ruleset.side_titles[result['winner']]} ({result['reason']})"
        in table.public_text()
    )


async def test_los_refusals_come_in_the_askers_language(siege_registered, table, german):  # noqa: F811
    await table.alice.slash(table.channel, "game new", ruleset="siege")
    refused = reply_text(
        await table.dave.slash(table.thread, "los", **{"from": "../x", "to": "0101"})
    )
    assert refused.startswith("Nicht erlaubt:") and "ist kein Feld dieses Bretts." in refused
    elsewhere = reply_text(
        await table.dave.slash(table.channel, "los", **{"from": "0816", "to": "0819"})
    )
    assert elsewhere.startswith("In diesem Kanal läuft keine Partie")


async def test_optional_rules_at_game_new_with_autocomplete_and_in_the_status(
    siege_registered,
    table,  # noqa: F811
):
    offered = await table.alice.autocomplete(
        table.channel, "game new", "rules", "ai", ruleset="siege"
    )
    assert [c["value"] for c in offered] == ["aiming"]
    created = await table.alice.slash(table.channel, "game new", ruleset="siege", rules="Aiming")
    assert "is open in" in reply_text(created), reply_text(created)
    assert (await table.game()).state["options"] == {"panic": False, "aiming": True}
    status = reply_text(await table.alice.slash(table.thread, "game status"))
    assert "Optional rules: Aiming" in status


async def test_an_unknown_optional_rule_opens_no_game(siege_registered, table):  # noqa: F811
    before = len(await table.service.list_games())
    refused = await table.alice.slash(
        table.channel, "game new", ruleset="siege", rules="aiming, panik"
    )
    assert "SIEGE has no optional rule 'panik'" in reply_text(refused)
    assert "Its optional rules: panic, aiming" in reply_text(refused)
    long = await table.alice.slash(table.channel, "game new", ruleset="siege", rules="x" * 300)
    assert "The option `rules` is too long" in reply_text(long)  # capped before any work
    other = await table.alice.slash(
        table.channel, "game new", ruleset="tenochtitlan", rules="aiming"
    )
    assert "has no optional rule 'aiming'" in reply_text(other)
    assert len(await table.service.list_games()) == before


async def test_an_unknown_optional_rule_is_refused_in_german(
    siege_registered,
    table,  # noqa: F811
    german,  # noqa: F811
):
    refused = await table.alice.slash(table.channel, "game new", ruleset="siege", rules="panik")
    assert "SIEGE hat keine Wahlregel 'panik'" in reply_text(refused)


LONG_SIEGE = {
    "name": "two-days",
    "title": "Two days",
    "days": 2,
    "rounds_per_day": 1,
    "filled_moat": ["0817"],
    "figures": {
        "arch": {"type": "archer", "name": "Arnulf", "side": "besieger", "at": "0119"},
        "tom": {"type": "man-at-arms", "name": "Tomas", "side": "defender", "at": "0519"},
        "far": {"type": "peasant", "name": "Fritz", "side": "defender", "at": "2201"},
    },
}


@pytest.mark.parametrize("dice", [[7, 1]])  # the shot wounds (B); the healing roll: next morning
async def test_a_siege_of_two_days_through_the_bot(siege_registered, table, dice):  # noqa: F811
    import json

    created = await table.alice.slash(
        table.channel,
        "game new",
        ruleset="siege",
        scenario_file=("two-days.json", json.dumps(LONG_SIEGE).encode()),
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    status = reply_text(await table.alice.slash(table.thread, "game status"))
    assert "Day: 1 of 2, round 1 of 1" in status
    steps = ["/shoot unit:arch target:tom"] + ["/end-phase"] * 8
    for action in steps:
        info = await table.game()
        player = table.alice if info.state["active"] == "besieger" else table.bob
        result = await player.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    text = table.public_text()
    assert "Day 1 ends. Tomas rolls 1 for healing: healed next morning." in text
    assert "the besiegers lay 1 anew before the next assault" in text
    assert "Day 2 of 2 begins. Healed overnight: Tomas." in text
    offered = await table.alice.autocomplete(table.thread, "act", "action", "/fill at:0917")
    assert "/fill at:0917" in [c["value"] for c in offered]
    result = await table.alice.slash(table.thread, "act", action="/fill at:0917")
    assert reply_text(result).startswith("Done"), reply_text(result)
    state = (await table.game()).state
    assert (state["day"], state["phase"]) == (2, "fire1")
    assert not state["figures"]["tom"]["wounded"]
    status = reply_text(await table.alice.slash(table.thread, "game status"))
    assert "Day: 2 of 2, round 1 of 1" in status


async def test_a_rematch_keeps_the_optional_rules(siege_registered, table):  # noqa: F811
    await table.alice.slash(table.channel, "game new", ruleset="siege", rules="panic")
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    await table.bob.slash(table.thread, "game resign")
    done = await table.alice.slash(table.thread, "game rematch")
    assert "is open in" in reply_text(done), reply_text(done)
    games = await table.service.list_games(guild_id=table.guild.id)
    assert games[-1].state["options"] == {"panic": True, "aiming": False}


async def test_horses_through_the_bot(siege_registered, table):  # noqa: F811
    """3.3 under SimCord: a scenario file with a riderless horse attached to /game new; /act's
    autocomplete offers /mount, the mount is accepted and the board shows the mounted factors."""
    import json

    document = {
        "name": "stable",
        "phase": "move",
        "figures": {
            "hugo": {"type": "knight", "side": "besieger", "at": "0619", "name": "Hugo"},
            "guard": {"type": "peasant", "side": "defender", "at": "2201", "name": "Guard"},
        },
        "horses": {"grey": {"side": "besieger", "cells": ["0519", "0419"]}},
    }
    created = await table.alice.slash(
        table.channel,
        "game new",
        ruleset="siege",
        scenario_file=("stable.json", json.dumps(document).encode()),
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    offered = await table.alice.autocomplete(table.thread, "act", "action", "/mount")
    assert any(c["value"].startswith("/mount unit:hugo horse:grey") for c in offered), offered
    result = await table.alice.slash(table.thread, "act", action="/mount unit:Hugo horse:grey")
    assert reply_text(result).startswith("Done"), reply_text(result)
    state = (await table.game()).state
    assert state["horses"]["grey"]["rider"] == "hugo" and state["figures"]["hugo"]["at"] == "0519"
    refused = await table.alice.slash(table.thread, "act", action="/dismount unit:Hugo to:0619")
    assert "spends this whole round getting on or off a horse" in reply_text(refused)
    assert (await table.game()).state["figures"]["hugo"]["horse"] == "grey"


async def test_a_german_status_names_the_optional_rules_in_german(
    siege_registered,
    table,  # noqa: F811
    german,  # noqa: F811
):
    await table.alice.slash(table.channel, "game new", ruleset="siege", rules="aiming, panic")
    status = reply_text(await table.alice.slash(table.thread, "game status"))
    assert "Wahlregeln: Panik und Flucht, Zielen" in status, status
