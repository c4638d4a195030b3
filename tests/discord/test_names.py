"""Discord play commands take the names players read (issue 15): the same resolution as the
local table, ambiguity refused with the candidates in the player's language."""

from __future__ import annotations

import pytest

from .conftest import reply_text


async def tenochtitlan(table):
    await table.alice.slash(table.channel, "game new", ruleset="tenochtitlan", scenario="standard")
    await table.alice.slash(table.thread, "game join", side="aztec")
    await table.bob.slash(table.thread, "game join", side="spanish")
    await table.alice.slash(table.thread, "game start")
    info = await table.game()
    assert info.awaiting == ["aztec"] and info.state["phase"] == "setup"
    return info


@pytest.mark.parametrize("dice", [[]])
async def test_a_unit_named_by_its_label_in_lower_case_is_placed(table):
    await tenochtitlan(table)
    done = await table.alice.slash(table.thread, "place", unit="aztec bowmen 1", to="0508")
    assert reply_text(done).startswith("Done"), reply_text(done)
    records = await table.service.history((await table.game()).id)
    assert records[-1].action["unit"] == "az-bowmen-1"


@pytest.mark.parametrize("dice", [[]])
async def test_an_ambiguous_name_is_refused_with_candidates_and_changes_nothing(table):
    before = await tenochtitlan(table)
    refused = await table.alice.slash(table.thread, "place", unit="bowmen", to="0508")
    text = reply_text(refused)
    assert "could mean more than one thing" in text and "az-bowmen-2" in text, text
    assert (await table.game()).version == before.version


@pytest.mark.parametrize("dice", [[]])
async def test_the_ambiguity_refusal_speaks_german(table, german):
    before = await tenochtitlan(table)
    refused = await table.alice.slash(table.thread, "place", unit="bowmen", to="0508")
    text = reply_text(refused)
    assert "passt auf mehreres" in text and "az-bowmen-2" in text, text
    assert "could mean" not in text
    assert (await table.game()).version == before.version


@pytest.mark.parametrize("dice", [[]])
async def test_auto_setup_places_the_callers_side_and_the_log_replays(table):
    await tenochtitlan(table)
    done = await table.alice.slash(table.thread, "auto-setup")
    assert reply_text(done).startswith("Done"), reply_text(done)
    info = await table.game()
    assert info.awaiting == ["spanish"]
    refused = await table.alice.slash(table.thread, "auto-setup")
    assert "not your turn" in reply_text(refused).lower(), reply_text(refused)
    await table.bob.slash(table.thread, "auto-setup")
    info = await table.game()
    assert info.state["phase"] != "setup"
    records = await table.service.history(info.id)
    assert [r.action["type"] for r in records] == ["auto-setup", "auto-setup"]
    # The placements came from the server's dice and are in the log: once the seed is
    # revealed, /game verify replays them.
    await table.alice.slash(table.thread, "game resign")
    verified = await table.dave.slash(table.thread, "game verify")
    assert "Verified" in reply_text(verified), reply_text(verified)


@pytest.mark.parametrize("dice", [[]])
async def test_a_scenario_that_needs_setting_up_points_to_auto_setup_and_ready_ones(table):
    await table.alice.slash(table.channel, "game new", ruleset="tenochtitlan", scenario="standard")
    lobby = table.public_text()
    assert "/auto-setup" in lobby
    assert "/game new ruleset:tenochtitlan scenario:historical" in lobby


@pytest.mark.parametrize("dice", [[]])
async def test_a_ready_scenario_opens_without_the_setup_hint(table, german):
    await table.alice.slash(
        table.channel, "game new", ruleset="tenochtitlan", scenario="historical"
    )
    lobby = table.public_text()
    assert "/auto-setup" not in lobby and "Szenario historical" in lobby, lobby


@pytest.mark.parametrize("dice", [[]])
async def test_a_referee_removes_a_unit_named_by_its_label(table):
    await tenochtitlan(table)
    await table.alice.slash(table.thread, "auto-setup")
    assert "az-bowmen-1" in (await table.game()).state["units"]
    removed = await table.alice.slash(table.thread, "ref remove", unit="aztec bowmen 1")
    assert not reply_text(removed).startswith(("Not", "That")), reply_text(removed)
    assert "az-bowmen-1" not in (await table.game()).state["units"]


@pytest.mark.parametrize("dice", [[]])
async def test_autocomplete_fits_the_next_option_to_a_unit_typed_by_name(table):
    await tenochtitlan(table)
    by_id = await table.alice.autocomplete(table.thread, "place", "to", "", unit="az-bowmen-1")
    by_name = await table.alice.autocomplete(table.thread, "place", "to", "", unit="aztec bowmen 1")
    assert by_id and by_name == by_id
