"""Whole games: autoplay ends for many seeds with the map built from the bag; replay is exact;
legal_actions and apply agree."""

import pytest

from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, autoplay, replay
from engine.core.state import state_hash

from .helpers import RS


@pytest.mark.parametrize("seed", range(80))
def test_autoplay_finishes_with_the_map_built_from_the_bag(seed):
    sc = RS.load_scenario("standard")
    placed = []
    state, actions = autoplay(
        RS,
        sc,
        seed,
        max_actions=5000,
        on_action=lambda i, s, a, e, st: placed.extend(x for x in e if x["type"] == "tile_placed"),
    )
    result = state["result"]
    assert (
        result["winner"] in ("north", "south")
        or result["reason"] == "Neither player can activate or deploy a unit"
    )
    assert len(placed) == 12 and placed[0]["at"] == "0808"  # 2 x 6 tiles from the bag
    assert sum(1 for a in actions if a["type"] == "tile") == 12


@pytest.mark.parametrize("name", ["big-battle", "core-sets", "river-crossing", "skirmish"])
def test_autoplay_other_scenarios(name):
    for seed in range(5):
        state, _ = autoplay(RS, RS.load_scenario(name), f"{name}-{seed}", max_actions=5000)
        assert state["result"]


def test_same_seed_same_final_hash_and_replay():
    sc = RS.load_scenario("standard")
    first, actions = autoplay(RS, sc, "same")
    second, _ = autoplay(RS, sc, "same")
    assert state_hash(first) == state_hash(second)
    replayed, _ = replay(RS, sc, "same", actions)
    assert state_hash(replayed) == state_hash(first)
    other, _ = autoplay(RS, sc, "different")
    assert state_hash(other) != state_hash(first)


def _mutations(action: dict) -> list[dict]:
    out = []
    for key in action:
        if key in ("type", "side"):
            continue
        for value in ("0101", "nobody", "off9", "9", "1515", "0808", "troll", "spearman"):
            if value != action[key]:
                out.append(dict(action, **{key: value}))
    out.append(dict(action, type="move" if action["type"] != "move" else "attack"))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_agree_with_apply(seed):
    """Every listed action applies; every mutated action that is not listed is refused unchanged."""
    sc = RS.load_scenario("standard" if seed % 2 else "skirmish")
    state, _ = RS.setup(sc, seeded(seed, 0))
    step = 0
    while not state["result"] and step < 400:
        step += 1
        side = state["awaiting"][0]
        legal = RS.legal_actions(state, side)
        assert legal, f"no legal action in phase {state['phase']}"
        before = state_hash(state)
        for action in legal[:: max(1, len(legal) // 10)]:
            apply_action(RS, state, action, seeded(seed, step))
        for action in legal[:: max(1, len(legal) // 4)]:
            for wrong in _mutations(action):
                if wrong in legal:
                    continue
                with pytest.raises(RuleError):
                    apply_action(RS, state, wrong, seeded(seed, step))
        other_side = "north" if side == "south" else "south"
        with pytest.raises(RuleError):
            apply_action(RS, state, dict(legal[0], side=other_side), seeded(seed, step))
        assert state_hash(state) == before
        choice = legal[(step * 7 + seed) % len(legal)]
        state, _ = apply_action(RS, state, choice, seeded(seed, step))
    assert state["result"]
