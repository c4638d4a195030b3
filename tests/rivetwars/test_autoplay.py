"""Every mission plays to its end under random legal play, and legal_actions agrees with apply."""

import random

import pytest

from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, autoplay, new_game, replay
from engine.core.state import state_hash
from tests.rivetwars.util import RS

MISSIONS = [f"mission-{n}" for n in range(1, 11)]


@pytest.mark.parametrize("mission", MISSIONS)
def test_autoplay_finishes_every_mission(mission):
    # random play switches the round-limit house rule on, so every game ends by round 20 at the latest
    scenario = {**RS.load_scenario(mission), "round_limit": 20}
    for seed in (11, 12, 13):
        state, actions = autoplay(RS, scenario, f"{mission}:{seed}")
        assert state["result"] and state["awaiting"] == []
        assert state["turn"] <= 20


def test_replay_reproduces_an_autoplayed_game():
    scenario = RS.load_scenario("mission-9")
    state, actions = autoplay(RS, scenario, 77)
    replayed, _ = replay(RS, scenario, 77, actions)
    assert state_hash(replayed) == state_hash(state)


@pytest.mark.parametrize("mission", ["mission-4", "mission-8", "mission-9", "mission-10"])
def test_legal_actions_agree_with_apply(mission):
    rng = random.Random(mission)
    scenario = RS.load_scenario(mission)
    state, _ = new_game(RS, scenario, 5)
    for step in range(1, 250):
        if state["result"]:
            break
        side = RS.awaiting(state)[0]
        legal = RS.legal_actions(state, side)
        assert legal
        for probe in rng.sample(legal, min(3, len(legal))):
            apply_action(RS, state, probe, seeded(5, step))
        bad = dict(rng.choice(legal))
        for wrong in (
            {**bad, "to": "Z99"},
            {**bad, "unit": "nobody"},
            {**bad, "type": "fly"},
            {**bad, "side": RS.sides[1 - RS.sides.index(side)]},
        ):
            if wrong not in legal:
                with pytest.raises(RuleError):
                    apply_action(RS, state, wrong, seeded(5, step))
        state, _ = apply_action(RS, state, rng.choice(legal), seeded(5, step))
