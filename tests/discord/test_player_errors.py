"""Errors the player caused: each is answered privately with why and what is legal instead,
and the game (or the server's list of games) is exactly as it was."""

from __future__ import annotations

import json

import discord
import pytest

from .conftest import reply_text


async def snapshot(table):
    info = await table.game()
    history = await table.service.history(info.id, include_undone=True)
    return info.version, info.state, len(history)


@pytest.mark.parametrize(
    "problem, expected",
    [
        ("entry", ["deploy.allies", "not a segment"]),
        ("garbled", ["not valid JSON"]),
    ],
)
async def test_a_broken_scenario_file_names_file_entry_and_problem_and_opens_nothing(
    table, problem, expected
):
    if problem == "entry":
        mission = json.loads(
            (__import__("pathlib").Path("data/rivet-wars/missions/mission-3.json")).read_text()
        )
        mission["deploy"]["allies"] = ["Z99"]
        document = json.dumps(mission).encode()
    else:
        document = b"{not json"
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario_file=(f"{problem}.json", document)
    )
    text = reply_text(result)
    assert result.ephemeral
    assert f"{problem}.json" in text, text
    for part in expected + ["no game was opened", "mission-1", "mission-10", "scenario_file"]:
        assert part in text, text
    assert not table.channel.threads, "no thread for a game that was never created"
    assert await table.service.list_games(guild_id=table.guild.id) == []
    assert table.public() == []


async def test_someone_elses_unit_or_a_wrong_hex_on_your_own_turn_changes_nothing(table):
    await table.started_game()
    thread = table.thread
    before = await snapshot(table)
    for options in (
        {"unit": "b1", "to": "0401"},  # Blue's unit, on Red's turn
        {"unit": "r1", "to": "0505"},  # a hex out of reach
        {"unit": "r1", "to": "ZZ99"},  # no such hex
        {"unit": "r1", "to": "0102"},
    ):  # a hex another unit holds
        result = await table.alice.slash(thread, "move", **options)
        text = reply_text(result)
        assert result.ephemeral, options
        assert text.startswith("Not allowed"), (options, text)
        assert "Legal:" in text and "r1" in text and "0201" in text, (options, text)
        assert await snapshot(table) == before, options
    # The same through /act, and an action for a side the player does not hold.
    for line in ("/move unit:b1 to:0401", "/fire unit:r1 target:b1"):
        result = await table.alice.slash(thread, "act", action=line)
        assert result.ephemeral and "Not allowed" in reply_text(result), reply_text(result)
        assert await snapshot(table) == before, line
    assert all("Not allowed" not in m.content for m in table.public())


async def test_two_players_sending_the_same_command_at_once_apply_it_once(table):
    """Team-mates both type /end-phase in the same instant: the phase ends once (the second
    command was meant for the phase the first one already ended), the other is told."""
    from .conftest import slash_together

    await table.started_game(also=[(table.carol, "red")])
    before = await table.game()
    results = await slash_together(
        table.env,
        [
            (table.alice, table.thread, "end-phase", {}),
            (table.carol, table.thread, "end-phase", {}),
        ],
    )
    texts = sorted(reply_text(r) for r in results)
    assert all(r.ephemeral for r in results)
    assert sum(text.startswith("Done") for text in texts) == 1, texts
    refused = next(text for text in texts if not text.startswith("Done"))
    assert "moved on" in refused and "nothing was done" in refused, refused
    # The winner's new board may still be on its way: then the pointer is the thread.
    assert str(table.boards()[-1].id) in refused or f"<#{table.thread.id}>" in refused, refused
    after = await table.game()
    assert after.version == before.version + 1 and after.state["phase"] == "fire"
    assert [r.action["type"] for r in await table.service.history(after.id)] == ["end-phase"]


async def test_two_referees_undoing_at_once_take_back_one_action(table):
    from .conftest import slash_together

    await table.started_game()
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    await table.alice.slash(table.thread, "move", unit="r2", to="0202")
    role = table.guild.create_role("Umpires")
    referee = table.guild.add_member(table.env.create_user("frank"), roles=[role])
    admin = table.guild.add_member(
        table.env.create_user("erin"),
        roles=[
            table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        ],
    )
    await admin.slash(table.channel, "umpire config", referee_role=role)
    before = await table.game()
    results = await slash_together(
        table.env,
        [(table.alice, table.thread, "ref undo", {}), (referee, table.thread, "ref undo", {})],
    )
    texts = sorted(reply_text(r) for r in results)
    assert texts[0] == "Done." and "moved on" in texts[1], texts
    state = (await table.game()).state
    assert state["units"]["r2"]["at"] == "0102" and state["units"]["r1"]["at"] == "0201"
    assert (await table.game()).version != before.version


async def test_a_flare_off_the_board_is_refused_and_never_breaks_the_posts(table, caplog):
    info = await table.started_game()
    boards = len(table.boards())
    refused = await table.bob.slash(table.thread, "flare", hex="ZZ99")
    assert refused.ephemeral and "not a cell of this game's board" in reply_text(refused)
    assert await table.service.flares(info.id) == []
    assert len(table.boards()) == boards
    # A flare stored before cells were checked (an older database) is dropped, not fatal.
    await table.service.add_flare(info.id, "ZZ98")
    done = await table.alice.slash(table.thread, "end-phase")
    assert reply_text(done) == "Done: /end-phase", reply_text(done)
    assert len(table.boards()) == boards + 1
    assert await table.service.flares(info.id) == []
    posted = await table.dave.slash(table.thread, "game board")
    assert reply_text(posted) == "Board posted."


async def test_an_unreadable_act_is_explained_in_the_players_language(table, german):
    await table.started_game()
    before = await snapshot(table)
    result = await table.alice.slash(table.thread, "act", action="/move unit: to:0201")
    text = reply_text(result)
    assert result.ephemeral
    assert text.startswith("Diese Aktion kann ich nicht lesen: Die Option unit hat keinen Wert."), (
        text
    )
    assert await snapshot(table) == before
