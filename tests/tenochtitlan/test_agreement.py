"""legal_actions agrees with apply deep into real games (the shared law test mostly sees setup):
every offered action applies, and actions not offered are refused with a RuleError."""

import random

import pytest

from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import _Chooser, apply_action, new_game
from engine.core.state import canonical_json
from engine.tenochtitlan.data import packaged_map

from .helpers import RULES


@pytest.mark.parametrize("seed", [1, 2])
def test_offered_actions_apply_and_others_are_refused(seed):
    rng = random.Random(seed)
    state, _ = new_game(RULES, RULES.load_scenario("historical"), seed)
    chooser = _Chooser(seed)
    labels = packaged_map("standard").grid.labels
    combat_states = 0
    for step in range(1, 140):
        if state["result"]:
            break
        side = RULES.awaiting(state)[0]
        legal = RULES.legal_actions(state, side)
        frozen = canonical_json(state)
        kinds = {}
        for action in legal:
            kinds.setdefault(action["type"], []).append(action)
        for group in kinds.values():
            for action in rng.sample(group, min(3, len(group))):
                apply_action(RULES, state, action, seeded(seed, step))
        # Wrong destinations, targets and units are refused without touching the state.
        for action in rng.sample(legal, 1):
            for key in ("to", "target", "unit", "with"):
                if key in action:
                    for value in rng.sample(labels, 2) + rng.sample(sorted(state["roster"]), 2):
                        wrong = {**action, key: value}
                        if wrong not in legal:
                            with pytest.raises(RuleError):
                                apply_action(RULES, state, wrong, seeded(seed, step))
        # In the combat phase every single attack is checked, offered or not.
        if (
            state["phase"] == "combat"
            and not state.get("pending")
            and side == state["active"]
            and combat_states < 1
        ):
            combat_states += 1
            own = sorted(u for u, x in state["units"].items() if x["side"] == side)
            enemies = sorted(u for u, x in state["units"].items() if x["side"] != side)
            for unit in own:
                for target in enemies:
                    action = {"type": "attack", "side": side, "unit": unit, "target": target}
                    if action in legal:
                        apply_action(RULES, state, action, seeded(seed, step))
                    else:
                        with pytest.raises(RuleError):
                            apply_action(RULES, state, action, seeded(seed, step))
        other = "aztec" if side == "spanish" else "spanish"
        assert RULES.legal_actions(state, other) == []
        assert canonical_json(state) == frozen
        state, _ = apply_action(RULES, state, chooser.pick(legal), seeded(seed, step))
    assert combat_states == 1, "the game should have reached a combat phase"
