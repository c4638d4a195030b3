"""``/auto-setup`` (issue 15): a side's remaining forces placed legally at random from the
action's own dice, so a game with it replays to the same position."""

from __future__ import annotations

import pytest

from engine import registry
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game, replay
from engine.core.state import state_hash

GAMES = ("tenochtitlan", "rivet-wars", "pocket-tactics")


def set_up_by_auto_setup(game: str, seed: str = "auto"):
    """Every setup step taken by /auto-setup, other steps by the first legal action, until
    play begins. Returns the ruleset, the scenario, the actions and the final state."""
    ruleset = registry.get_ruleset(game)
    scenario = ruleset.load_packaged("")
    state, _ = new_game(ruleset, scenario, seed)
    actions: list[dict] = []
    autos = 0
    while len(actions) < 200:
        side = ruleset.awaiting(state)[0]
        if ruleset.setup_actions(state, side):
            action = {"type": "auto-setup", "side": side}
            autos += 1
        elif autos and state["phase"] not in ruleset.setup_phases:
            break
        else:
            action = ruleset.legal_actions(state, side)[0]
        state, _ = apply_action(ruleset, state, action, seeded(seed, len(actions) + 1))
        actions.append(action)
    return ruleset, scenario, actions, state


@pytest.mark.parametrize("game", GAMES)
def test_auto_setup_reaches_play_and_replays_to_the_same_position(game):
    ruleset, scenario, actions, state = set_up_by_auto_setup(game)
    assert any(a["type"] == "auto-setup" for a in actions)
    assert state["phase"] not in ruleset.setup_phases and not state.get("result")
    rebuilt, _ = replay(ruleset, scenario, "auto", actions)
    assert state_hash(rebuilt) == state_hash(state)


def test_auto_setup_places_every_remaining_unit_of_the_side_legally():
    ruleset = registry.get_ruleset("tenochtitlan")
    state, _ = new_game(ruleset, ruleset.load_packaged("standard"), "auto")
    side = ruleset.awaiting(state)[0]
    to_place = {a["unit"] for a in ruleset.setup_actions(state, side)}
    after, events = apply_action(
        ruleset, state, {"type": "auto-setup", "side": side}, seeded("auto", 1)
    )
    placed = {e["unit"] for e in events if e["type"] == "placed"}
    assert placed == to_place and all(u in after["units"] for u in placed)
    assert not ruleset.setup_actions(after, side)
    # Another seed gives another, equally legal, deployment.
    other, _ = apply_action(
        ruleset, state, {"type": "auto-setup", "side": side}, seeded("other", 1)
    )
    assert {u: other["units"][u]["at"] for u in placed} != {
        u: after["units"][u]["at"] for u in placed
    }


def test_auto_setup_is_refused_once_play_has_begun_and_with_options():
    ruleset, _, _, state = set_up_by_auto_setup("tenochtitlan")
    side = ruleset.awaiting(state)[0]
    with pytest.raises(RuleError, match="nothing to place now"):
        apply_action(ruleset, state, {"type": "auto-setup", "side": side}, seeded("auto", 99))
    fresh, _ = new_game(ruleset, ruleset.load_packaged("standard"), "auto")
    with pytest.raises(RuleError, match="takes no options"):
        apply_action(
            ruleset,
            fresh,
            {"type": "auto-setup", "side": ruleset.awaiting(fresh)[0], "unit": "az-bowmen-1"},
            seeded("auto", 1),
        )
