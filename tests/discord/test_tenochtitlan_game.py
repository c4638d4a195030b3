"""A complete Siege of Tenochtitlan game through the bot (issue 5): `/game new` with
autocomplete, both sides seated, `/game start`, then every action the game awaits taken with
`/act` and a value the bot's own autocomplete offered, on the server's seeded dice, until the
game ends. Afterwards the winner is announced, the seed revealed, `/game verify` agrees and the
stored state is exactly the engine's replay of the stored log."""

from __future__ import annotations

import random
import time

import pytest

from engine import registry
from engine.core.game import replay
from engine.core.state import state_hash

from .conftest import message_text, reply_text

MAX_ACTIONS = 600  # random play ends at turn 24 after roughly 170-280 actions


def pick(choices: list[dict], rng: random.Random) -> str:
    """A player's pick from the /act list: mostly any offered action, sometimes ending the
    phase when the list offers it (else random play wanders for a long time)."""
    finishing = [c["value"] for c in choices if c["value"].startswith(("/end-phase", "/pass"))]
    if finishing and rng.random() < 0.3:
        return finishing[0]
    return rng.choice(choices)["value"]


@pytest.mark.parametrize("dice", [[]])  # the server's own seeded dice only
async def test_complete_siege_of_tenochtitlan_from_new_to_victory(table):
    started_at = time.perf_counter()
    offered = await table.alice.autocomplete(table.channel, "game new", "ruleset", "tenoch")
    assert [c["value"] for c in offered] == ["tenochtitlan"]
    scenarios = [
        c["value"]
        for c in await table.alice.autocomplete(
            table.channel, "game new", "scenario", "", ruleset="tenochtitlan"
        )
    ]
    assert "standard" in scenarios
    await table.alice.slash(table.channel, "game new", ruleset="tenochtitlan", scenario="standard")
    thread = table.thread
    sides = [c["value"] for c in await table.alice.autocomplete(thread, "game join", "side", "")]
    assert sides == ["spanish", "aztec"]
    await table.alice.slash(thread, "game join", side="spanish")
    await table.bob.slash(thread, "game join", side="aztec")
    started = await table.alice.slash(thread, "game start")
    assert reply_text(started) == "Done.", reply_text(started)
    info = await table.game()
    assert info.status == "active" and info.seed is None
    assert info.seed_hash in table.public_text()

    players = {"spanish": table.alice, "aztec": table.bob}
    rng = random.Random(1521)
    played = 0
    while info.status == "active":
        assert played < MAX_ACTIONS, f"no result after {played} actions (turn {info.state['turn']})"
        side = info.state["awaiting"][0]
        player = players[side]
        choices = await player.autocomplete(thread, "act", "action", "")
        assert choices, f"the bot offers {side} nothing in phase {info.state['phase']}"
        done = await player.slash(thread, "act", action=pick(choices, rng))
        assert done.ephemeral and reply_text(done).startswith("Done"), reply_text(done)
        played += 1
        info = await table.game()
    elapsed = time.perf_counter() - started_at

    assert info.status == "finished"
    winner = info.result["winner"]
    assert winner in ("spanish", "aztec")
    final = [m for m in thread.history(viewer=table.dave) if m.embeds and m.attachments][-1]
    title = registry.get_ruleset("tenochtitlan").side_titles[winner]
    assert f"Winner: {title}" in message_text(final), message_text(final)
    assert info.seed and info.seed in message_text(final), "the final post reveals the seed"
    assert not final.components, "a finished game's board has no buttons"

    verified = await table.dave.slash(thread, "game verify")
    assert "Verified" in reply_text(verified), reply_text(verified)
    assert "Verified" in message_text(thread.last_message)

    # The stored state is exactly what the engine computes from the stored log and the seed.
    ruleset = registry.get_ruleset("tenochtitlan")
    records = await table.service.history(info.id)
    assert len(records) == played
    rebuilt, _ = replay(
        ruleset,
        ruleset.load_scenario(info.scenario),
        info.seed,
        [r.action for r in records],
        dice_indices=[r.seq for r in records],
    )
    assert rebuilt == info.state
    assert state_hash(rebuilt) == records[-1].state_hash
    print(
        f"\nTenochtitlan through the bot: {played} actions, turn {info.state['turn']}, "
        f"winner {winner}, {elapsed:.1f} s"
    )
