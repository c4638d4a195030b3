"""Dice, command grammar, phases and the shared driver, tested on the fixture game."""

from __future__ import annotations

import collections

import pytest

from engine import registry
from engine.core import commands
from engine.core import dice as dice_mod
from engine.core.errors import CommandSyntaxError, DiceExhausted, NotYourTurn, RuleError
from engine.core.game import apply_action, autoplay, new_game, replay
from engine.core.phases import TurnCycle
from engine.core.state import canonical_json, state_hash

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")


@pytest.fixture
def skirmish():
    return registry.get_ruleset("skirmish")


def test_seeded_dice_are_reproducible_per_action_and_roughly_uniform():
    a = dice_mod.seeded("secret", 3)
    b = dice_mod.seeded("secret", 3)
    assert [a.roll("x") for _ in range(50)] == [b.roll("x") for _ in range(50)]
    other = dice_mod.seeded("secret", 4)
    assert [other.roll("x") for _ in range(50)] != [
        dice_mod.seeded("secret", 3).roll("x") for _ in range(50)
    ]
    stream = dice_mod.seeded("s", 1)
    counts = collections.Counter(stream.roll("u") for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values())


def test_every_roll_is_an_event_saying_what_it_was_for():
    d = dice_mod.fixed([4, 2])
    events: list[dict] = []
    assert d.roll("cavalry attacks 0507", events) == 4
    assert events == [{"type": "roll", "purpose": "cavalry attacks 0507", "sides": 6, "value": 4}]
    assert d.rolled[0]["value"] == 4


def test_fixed_dice_refuse_to_run_out_or_show_impossible_faces():
    d = dice_mod.fixed([6])
    d.roll("a")
    with pytest.raises(DiceExhausted):
        d.roll("b")
    with pytest.raises(DiceExhausted):
        dice_mod.fixed([7]).roll("c")


def test_shuffle_logs_one_event_without_revealing_the_order():
    d = dice_mod.seeded("s", 0)
    events: list[dict] = []
    deck = d.shuffle(list(range(10)), "aztec deck", events)
    assert sorted(deck) == list(range(10))
    assert events == [{"type": "shuffle", "purpose": "aztec deck", "count": 10}]
    assert len(d.rolled) == 9 and all(r["hidden"] for r in d.rolled)


def test_command_grammar_round_trips_and_explains_mistakes():
    action = commands.parse_command('/play card:"Aqueduct cut" unit:sp-1')
    assert action == {"type": "play", "card": "Aqueduct cut", "unit": "sp-1"}
    assert commands.parse_command(commands.format_command(action)) == action
    assert commands.parse_command("/END-PHASE") == {"type": "end-phase"}
    # A name typed unquoted, as the board shows it (issue 15 audit: "/info unit:Cav 1" was
    # refused with "Options are written name:value; '1' is not.")
    assert commands.parse_command("/move unit:Spanish Cavalry 1 to:0507") == {
        "type": "move",
        "unit": "Spanish Cavalry 1",
        "to": "0507",
    }
    for bad, why in [
        ("move unit:a", "starts with '/'"),
        ("/move unit:", "has no value"),
        ("/move unit", "name:value"),
        ("/move unit:a unit:b", "twice"),
        ("/", "Empty"),
        ('/move unit:"a', "Cannot read"),
        ("/move side:x", "reserved"),
    ]:
        with pytest.raises(CommandSyntaxError, match=why):
            commands.parse_command(bad)


def test_turn_cycle_walks_phases_sides_turns_and_reactive_phases():
    cycle = TurnCycle(
        phases=("move", "defensive-fire", "combat"),
        sides=("a", "b"),
        reactive_phases=frozenset({"defensive-fire"}),
        last_turn=2,
    )
    state: dict = {}
    cycle.start(state)
    seen = [(state["turn"], state["active"], state["phase"], state["awaiting"][0])]
    entered = []
    while not state.get("turn_limit_reached"):
        cycle.advance(state, on_enter=lambda s, phase, ev: entered.append(phase))
        if not state.get("turn_limit_reached"):
            seen.append((state["turn"], state["active"], state["phase"], state["awaiting"][0]))
    assert seen[:4] == [
        (1, "a", "move", "a"),
        (1, "a", "defensive-fire", "b"),
        (1, "a", "combat", "a"),
        (1, "b", "move", "b"),
    ]
    assert seen[-1] == (2, "b", "combat", "b")
    assert len(seen) == 12 and len(entered) == 11
    assert state["awaiting"] == []


def test_turn_cycle_follows_initiative_order_from_state():
    cycle = TurnCycle(phases=("p",), sides=("a", "b"))
    state = {"order": ["b", "a"]}
    cycle.start(state)
    assert state["active"] == "b"

    def reroll(s, events):
        s["order"] = ["a", "b"]

    cycle.advance(state, on_round_end=reroll)
    assert state["active"] == "a"
    cycle.advance(state, on_round_end=reroll)
    assert (state["turn"], state["active"]) == (2, "a")


def test_apply_action_refuses_out_of_turn_and_non_text_options(skirmish):
    state, _ = new_game(skirmish, skirmish.load_scenario("standard"), "seed")
    with pytest.raises(NotYourTurn, match="waits for Red"):
        apply_action(skirmish, state, {"type": "end-phase", "side": "blue"}, dice_mod.NoDice())
    with pytest.raises(RuleError, match="must be text"):
        apply_action(
            skirmish,
            state,
            {"type": "move", "side": "red", "unit": "r1", "to": 102},
            dice_mod.NoDice(),
        )
    with pytest.raises(RuleError, match="Legal: /move"):
        apply_action(
            skirmish,
            state,
            {"type": "move", "side": "red", "unit": "r1", "to": "0505"},
            dice_mod.NoDice(),
        )
    before = canonical_json(state)
    with pytest.raises(RuleError):
        apply_action(
            skirmish,
            state,
            {"type": "fire", "side": "red", "unit": "r1", "target": "b1"},
            dice_mod.NoDice(),
        )
    assert canonical_json(state) == before


def test_autoplay_is_deterministic_and_replays_to_the_same_hash(skirmish):
    scenario = skirmish.load_scenario("standard")
    final_a, log_a = autoplay(skirmish, scenario, 7)
    final_b, log_b = autoplay(skirmish, scenario, 7)
    assert log_a == log_b and state_hash(final_a) == state_hash(final_b)
    replayed, _ = replay(skirmish, scenario, 7, log_a)
    assert state_hash(replayed) == state_hash(final_a)
    other, _ = autoplay(skirmish, scenario, 8)
    assert state_hash(other) != state_hash(final_a)


def test_referee_edits_are_actions_outside_turn_order(skirmish):
    state, _ = new_game(skirmish, skirmish.load_scenario("standard"), "seed")
    moved, events = apply_action(
        skirmish,
        state,
        {"type": "ref-place", "side": "referee", "unit": "b1", "to": "0303"},
        dice_mod.NoDice(),
    )
    assert moved["units"]["b1"]["at"] == "0303" and events[0]["what"] == "place"
    gone, _ = apply_action(
        skirmish, moved, {"type": "ref-remove", "side": "referee", "unit": "b1"}, dice_mod.NoDice()
    )
    assert "b1" not in gone["units"]
    with pytest.raises(RuleError, match="referee actions"):
        apply_action(skirmish, state, {"type": "move", "side": "referee"}, dice_mod.NoDice())


def test_a_cloned_state_shares_nothing_the_rules_could_change():
    from engine.core.state import clone

    original = {
        "units": [{"id": "a1", "at": "0101", "tags": ["elite"]}],
        "turn": 3,
        "result": None,
        "odd": {(1, 2)},
    }
    copy_ = clone(original)
    assert copy_ == original
    copy_["units"][0]["tags"].append("shaken")
    copy_["units"][0]["at"] = "0202"
    copy_["odd"].add((3, 4))
    assert original == {
        "units": [{"id": "a1", "at": "0101", "tags": ["elite"]}],
        "turn": 3,
        "result": None,
        "odd": {(1, 2)},
    }


def test_a_frozen_state_reads_like_the_state_refuses_changes_and_copies_back_to_plain_data():
    import copy
    import pickle

    from engine.core.state import canonical_json, clone, freeze, state_hash

    state = {"turn": 3, "units": {"r1": {"at": "0101", "tags": ["elite"]}}, "log": [[1, 2]]}
    frozen = freeze(state)
    assert frozen == state and isinstance(frozen, dict) and isinstance(frozen["log"], list)
    assert state_hash(frozen) == state_hash(state)
    assert canonical_json(frozen) == canonical_json(state)
    for change in (
        lambda: frozen.__setitem__("turn", 4),
        lambda: frozen["units"].pop("r1"),
        lambda: frozen["units"]["r1"]["tags"].append("tired"),
        lambda: frozen["log"][0].extend([3]),
        lambda: frozen.update(turn=4),
    ):
        with pytest.raises(TypeError):
            change()
    assert frozen == state
    assert freeze(frozen) is frozen  # frozen already: shared, not copied again
    for plain in (clone(frozen), copy.deepcopy(frozen), pickle.loads(pickle.dumps(frozen))):
        plain["units"]["r1"]["tags"].append("tired")  # a changeable copy, changing nothing kept
        assert frozen["units"]["r1"]["tags"] == ["elite"]


def test_a_view_frozen_like_its_state_shares_the_parts_it_did_not_hide():
    from engine.core.state import clone, freeze, freeze_like

    state = freeze(
        {
            "units": {"r1": {"at": "0101"}, "b1": {"at": "0203"}},
            "hands": {"red": ["c1", "c2"], "blue": ["c3"]},
            "log": [[1, 2], [3]],
            "turn": 2,
        }
    )
    view = clone(state)
    view["hands"]["blue"] = []  # hidden from red
    view["log"][1] = [3, 4]
    shown = freeze_like(view, state)
    assert shown == view and shown == freeze(view)
    assert shown["units"] is state["units"]  # unchanged: the state's own frozen part
    assert shown["hands"]["red"] is state["hands"]["red"]
    assert shown["log"][0] is state["log"][0]
    assert shown["hands"]["blue"] == [] and state["hands"]["blue"] == ["c3"]
    assert shown["log"][1] == [3, 4] and state["log"][1] == [3]
    with pytest.raises(TypeError):
        shown["hands"]["blue"].append("c9")  # read-only like everything frozen
    with pytest.raises(TypeError):
        shown["turn"] = 3
    # nothing to share with: the same as freeze
    assert freeze_like({"a": [1]}, None) == freeze({"a": [1]})
    assert freeze_like([[1], [2]], freeze([[1]])) == [[1], [2]]
