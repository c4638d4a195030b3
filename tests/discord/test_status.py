"""/game status as a newcomer reads it (issue 15 audit)."""

from __future__ import annotations

import pytest

from .conftest import reply_text


@pytest.mark.parametrize("dice", [[]])
async def test_german_status_names_the_side_to_act_once(table, german):
    """Tactical Table War's German header calls its active side "Am Zug", the words of the
    status's own line: the status said "Am Zug: Rot" twice."""
    await table.alice.slash(table.channel, "game new", ruleset="tactical-table-war")
    await table.alice.slash(table.thread, "game join", side="red")
    await table.bob.slash(table.thread, "game join", side="blue")
    await table.alice.slash(table.thread, "game start")
    status = reply_text(await table.bob.slash(table.thread, "game status"))
    assert status.count("Am Zug: Rot") == 1, status
    assert "Runde: 1 / 12" in status and "Blau: <@" in status, status
