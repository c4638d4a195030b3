"""A newcomer's first game on the local table (issue 15), for every real ruleset: from the
start to the first combat, typing only names seen in messages (a unit's name, a cell's label,
a card's title), never an id; setting up with /auto-setup where the scenario needs it."""

from __future__ import annotations

import io
import random
import re

import pytest

from engine import registry
from engine.core.commands import format_command, parse_command
from service.games import GameService
from service.table import Table

# Where a label tells a piece's position or extra facts, not its name.
POSITION = re.compile(r" (?:at|in|onto|on) .*$| \(.*$")
# Commands that start or resolve a fight; the first combat is the first of them that rolls dice
# (SIEGE's /attack only forms a melee, its /fight rolls).
COMBAT = ("attack", "fire", "shoot", "fight", "strike", "scatter")


def typed_by_name(ruleset, state: dict, command: str) -> str:
    """The command as a newcomer types it: each value by the name the messages show."""
    action = parse_command(command)
    for key, value in list(action.items()):
        if key == "type":
            continue
        name = POSITION.sub("", ruleset.describe(state, key, value)).strip() or value
        action[key] = name
    return format_command(action)


NEWCOMER_GAMES = [
    ("tenochtitlan", "standard"),
    ("rivet-wars", "mission-1"),
    ("pocket-tactics", "standard"),
    ("siege", "open-gate"),
    ("tactical-table-war", "prepared-battlefield"),
]
# every game players are offered (test fixtures registered by other test modules are not)
REAL_GAMES = {g for g in registry.available() if not registry.RULESETS[g].startswith("tests.")}


def test_every_ruleset_players_are_offered_has_a_newcomer_session():
    assert REAL_GAMES - {game for game, _ in NEWCOMER_GAMES} == set()


@pytest.mark.parametrize(("game", "scenario"), NEWCOMER_GAMES)
async def test_a_newcomer_reaches_the_first_combat_typing_only_names(tmp_path, game, scenario):
    svc = await GameService.open(tmp_path / "t.db")
    try:
        info = await svc.create_game(game, scenario, seed="newcomer")
        info = await svc.start_game(info.id)
        table = Table(svc, info.id, None, io.StringIO(), io.StringIO())
        await table.setup()
        ruleset = registry.get_ruleset(game)
        rng = random.Random(15)
        typed_names = 0
        for _ in range(600):
            info = await svc.get_game(info.id)
            assert not info.result, f"{game} ended before any combat"
            side = info.awaiting[0]
            state = await svc.view(info.id, side)
            if ruleset.setup_actions(state, side):
                done = await table.execute(f"{side} /auto-setup")
                assert done["ok"], done
                continue
            options = (await table.execute(f"{side} /options"))["options"]
            fights = [o for o in options if o["command"].split()[0][1:] in COMBAT]
            moves = [o for o in options if " unit:" in o["command"]]
            pick = rng.choice(fights or (moves if moves and rng.random() < 0.8 else options))
            line = typed_by_name(ruleset, state, pick["command"])
            if line != pick["command"]:
                typed_names += 1
            for key, value in parse_command(line).items():
                # a name the newcomer read in the list of choices, not an id from elsewhere
                assert key == "type" or str(value).lower() in pick["label"].lower(), (
                    key,
                    value,
                    pick["label"],
                )
            done = await table.execute(f"{side} {line}")
            assert done["ok"], (pick["command"], line, done.get("error"))
            assert format_command(done["action"]) == pick["command"], (line, done["action"])
            if fights and any(e["type"] == "roll" for e in done["events"]):
                break
        else:
            pytest.fail(f"{game}: no combat within 600 commands")
        assert typed_names > 0
    finally:
        await svc.close()
