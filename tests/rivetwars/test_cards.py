"""Action cards, secret missions, and hidden information."""

import json

import pytest

from engine.core.game import autoplay
from engine.rivetwars import data
from tests.rivetwars.util import RS, act, legal, make, of, unit

M3 = {"mission": "mission-3", "terrain": {}}
CARDS = data.cards()["action"]


def card_of(effect):
    return min(c for c, spec in CARDS.items() if spec["effect"] == effect)


def test_cards_are_played_only_in_their_phase():
    state = make(**M3, hands={"allies": [card_of("reinforcements")]})
    assert not legal(state, "play")  # combat phase: reinforcements is a deployment card
    state = make(
        **M3, phase="deploy", hands={"allies": [card_of("reinforcements"), card_of("supply-drop")]}
    )
    assert {a["card"] for a in legal(state, "play")} == {
        card_of("reinforcements"),
        card_of("supply-drop"),
    }


def test_reinforcements_and_supply_drop_add_points_and_rivets():
    state = make(
        **M3, phase="deploy", hands={"allies": [card_of("reinforcements"), card_of("supply-drop")]}
    )
    points, rivets = state["points"]["allies"], state["rivets"]["allies"]
    state, events = act(state, "play", card=card_of("reinforcements"))
    state, _ = act(state, "play", card=card_of("supply-drop"))
    assert state["points"]["allies"] == points + 2 and state["rivets"]["allies"] == rivets + 1
    assert state["hands"]["allies"] == [] and len(state["decks"]["action_discard"]) == 2


def test_forced_march_gives_one_more_movement_point():
    state = make(
        **M3,
        phase="move",
        hands={"allies": [card_of("forced-march")]},
        units=[unit("wolverine", "A9", id="r")],
    )
    state, _ = act(state, "play", card=card_of("forced-march"), unit="r")
    state, _ = act(state, "move", unit="r", to="A7")
    state, _ = act(state, "move", unit="r", to="A5")
    assert not legal(state, "move")


def test_barrage_deviates_and_attacks_every_unit_with_two_dice():
    card = card_of("barrage")  # the top card of the deck decides the deviation
    state = make(
        **M3,
        hands={"allies": [card]},
        decks={"action": ["ac01"], "secret": []},
        units=[
            unit("rifleman", "A11"),
            unit("panzerfaust", "E5", id="p1"),
            unit("panzerfaust", "E3", id="p2"),
        ],
    )
    assert {a.get("to") for a in legal(state, "play")} == {"E3", "E5"}
    state, events = act(state, "play", card=card, to="E5", dice=[5, 1])
    assert (
        of(events, "deviation")[0]["to"] == "E3"
        and "p2" not in state["units"]
        and "p1" in state["units"]
    )


def test_field_repairs_removes_one_damage():
    state = make(
        **M3,
        hands={"allies": [card_of("field-repairs")]},
        units=[unit("wolverine", "A9", id="w", damage=2)],
    )
    state, _ = act(state, "play", card=card_of("field-repairs"), unit="w")
    assert state["units"]["w"]["damage"] == 1


def test_steady_aim_gives_precision_for_the_phase():
    state = make(
        **M3,
        hands={"allies": [card_of("steady-aim")]},
        units=[unit("rifleman", "E9", id="r"), unit("panzerfaust", "E5", id="p")],
    )
    state, _ = act(state, "play", card=card_of("steady-aim"), unit="r")
    state, events = act(state, "attack", dice=[4, 1], unit="r", to="E5")
    assert "p" not in state["units"]


def test_dig_in_lasts_until_the_owners_next_turn():
    state = make(
        **M3,
        phase="move",
        hands={"allies": [card_of("dig-in")]},
        order=["allies", "bismark"],
        units=[unit("rifleman", "E9", id="r"), unit("panzerfaust", "E7", id="p")],
    )
    state, _ = act(state, "play", card=card_of("dig-in"), unit="r")
    state, _ = act(state, "end-phase")
    state, _ = act(state, "end-phase")  # Bismark deployment -> combat
    state, events = act(state, "attack", dice=[1], unit="p", to="E9")  # 2 dice - 1
    assert len(of(events, "attack")[0]["dice"]) == 1


@pytest.mark.parametrize(
    "goal,units,extra,done",
    [
        ("breakthrough", [unit("rifleman", "A1")], {}, True),
        ("breakthrough", [unit("rifleman", "A7")], {}, False),
        ("no-mans-land", [unit("rifleman", "A5"), unit("rifleman", "C7")], {}, True),
        ("no-mans-land", [unit("rifleman", "A5")], {}, False),
        (
            "standard-bearer",
            [],
            {"terrain": {"objective": ["E5", "I5"]}, "flags": {"E5": "allies", "I5": "allies"}},
            True,
        ),
        (
            "wide-front",
            [unit("rifleman", s) for s in ("A9", "C9", "E9", "G9", "I9", "K9")],
            {},
            True,
        ),
        ("wide-front", [unit("rifleman", s) for s in ("A9", "C9", "E9", "G9", "I9")], {}, False),
    ],
)
def test_positional_secret_missions_score_at_the_end_of_the_turn(goal, units, extra, done):
    card = min(c for c, spec in data.cards()["secret"].items() if spec["goal"] == goal)
    scenario = {
        **M3,
        **extra,
        "phase": "move",
        "order": ["allies", "bismark"],
        "secrets": {"allies": [card]},
        "units": units,
    }
    state = make(**scenario)
    state, events = act(state, "end-phase")
    vp = data.cards()["secret"][card]["vp"]
    objectives = sum(e["vp"] for e in of(events, "captured"))
    assert (state["vp"]["allies"] - objectives == vp) == done
    assert (card in state["decks"]["secret_discard"]) == done and bool(of(events, "reveal")) == done


def test_kill_secret_missions_count_this_turns_eliminations():
    headhunter, attrition, scrap = (
        min(c for c, s in data.cards()["secret"].items() if s["goal"] == g)
        for g in ("headhunter", "attrition", "scrap-metal")
    )
    state = make(
        **M3,
        secrets={"allies": [headhunter, scrap]},
        order=["allies", "bismark"],
        units=[
            unit("wolverine", "E9", id="w"),
            unit("koenig", "E5", id="k", damage=1),
            unit("dragoon", "I9", id="d", damage=1),
        ],
    )
    state, _ = act(state, "attack", dice=[5, 1], unit="w", to="E5")
    state, _ = act(state, "attack", dice=[6, 1], unit="w", to="I9")
    state, _ = act(state, "end-phase")
    state, events = act(state, "end-phase")
    assert {e["card"] for e in of(events, "reveal")} == {headhunter, scrap}
    assert state["vp"]["allies"] == 2 + 1 + 2 + 1  # loot 2 + 1, headhunter 2, scrap metal 1
    state = make(
        **M3,
        secrets={"allies": [attrition]},
        units=[
            unit("wolverine", "E9", id="w"),
            unit("panzerfaust", "E5"),
            unit("panzerfaust", "I9"),
        ],
    )
    state, _ = act(state, "attack", dice=[5, 1], unit="w", to="E5")
    state, _ = act(state, "attack", dice=[5, 1], unit="w", to="I9")
    state, _ = act(state, "end-phase")
    state, events = act(state, "end-phase")
    assert of(events, "reveal") and state["vp"]["allies"] == 1


def test_view_hides_other_sides_hands_secret_missions_and_deck_order():
    state = make(
        **M3,
        hands={"allies": ["ac01"], "bismark": ["ac02", "ac03"]},
        secrets={"allies": ["sm01"], "bismark": ["sm02"]},
    )
    seen = RS.view(state, "allies")
    assert seen["hands"] == {"allies": ["ac01"], "bismark": []} and seen["secrets"]["bismark"] == []
    assert (
        seen["hand_counts"] == {"allies": 1, "bismark": 2} and seen["secret_counts"]["bismark"] == 1
    )
    assert isinstance(seen["decks"]["action"], int)
    public = json.dumps(RS.view(state, None))
    for secret in ("ac01", "ac02", "ac03", "sm01", "sm02"):
        assert secret not in public
    notes = " ".join(RS.scene(state, [], "bismark")["notes"])
    assert data.cards()["action"]["ac02"]["name"] in notes and "sm01" not in notes
    assert data.cards()["secret"]["sm01"]["name"] not in " ".join(
        RS.scene(state, [], None)["notes"]
    )


def test_drawn_cards_travel_only_in_private_events():
    seen_private = []

    def check(index, side, action, events, state):
        for e in events:
            if e["type"] == "card_drawn":
                assert e.get("private") == e["side"]
                seen_private.append(e)
            elif "private" not in e:
                assert e["type"] != "card_drawn"

    autoplay(RS, RS.load_scenario("mission-3"), 5, on_action=check)
    assert seen_private


def test_a_reaction_card_is_played_in_the_opponents_combat_phase_before_the_dice():
    cover = card_of("take-cover")
    state = make(
        **M3,
        active="bismark",
        hands={"allies": [cover]},
        units=[
            unit("panzerfaust", "E3", id="p"),
            unit("rifleman", "E5", id="r"),
            unit("rifleman", "F5", id="r2"),
        ],
    )
    assert not [
        a for a in legal(state, "play", side="allies") if a["card"] == cover
    ]  # not the Allies' turn
    state, events = act(state, "attack", unit="p", to="E5")  # paused before any die is rolled
    assert (
        state["awaiting"] == ["allies"] and of(events, "reaction_window") and not of(events, "roll")
    )
    assert {(a["type"], a.get("unit")) for a in legal(state, side="allies")} == {
        ("pass", None),
        ("play", "r"),
        ("play", "r2"),
    }
    state, events = act(state, "play", side="allies", card=cover, unit="r", dice=[6])
    assert of(events, "covered") and len(of(events, "attack")[0]["dice"]) == 1  # 2 dice - 1
    assert state["awaiting"] == ["bismark"] and cover in state["decks"]["action_discard"]
    # a card with another timing cannot be played as a reaction, nor the reaction card in your own turn
    own = make(**M3, hands={"allies": [cover]}, units=[unit("rifleman", "E5")])
    assert not legal(own, "play")


def test_the_reaction_pause_depends_only_on_public_facts():
    units = [unit("panzerfaust", "E3", id="p"), unit("rifleman", "E5", id="r")]
    # a hand without a reaction card still pauses (hand sizes are public), offering only /pass
    state = make(**M3, active="bismark", hands={"allies": [card_of("reinforcements")]}, units=units)
    state, _ = act(state, "attack", unit="p", to="E5")
    assert [a["type"] for a in legal(state, side="allies")] == ["pass"]
    state, events = act(state, "pass", side="allies", dice=[1, 1])  # the full two dice
    assert of(events, "passed") and len(of(events, "attack")[0]["dice"]) == 2
    # an empty hand: no pause at all
    state = make(**M3, active="bismark", units=units)
    state, events = act(state, "attack", unit="p", to="E5", dice=[1, 1])
    assert not of(events, "reaction_window") and state["awaiting"] == ["bismark"]


def test_a_barrage_pauses_for_the_defenders_reaction_after_it_deviates():
    card = card_of("barrage")
    state = make(
        **M3,
        hands={"allies": [card], "bismark": [card_of("take-cover")]},
        decks={"action": ["ac01"], "secret": []},
        units=[
            unit("rifleman", "A11"),
            unit("panzerfaust", "E5", id="p1"),
            unit("panzerfaust", "E3", id="p2"),
        ],
    )
    state, events = act(state, "play", card=card, to="E5")
    assert of(events, "deviation")[0]["to"] == "E3" and state["pending"]["segment"] == "E3"
    assert {a.get("unit") for a in legal(state, "play", side="bismark")} == {"p2"}
    state, events = act(
        state, "play", side="bismark", card=card_of("take-cover"), unit="p2", dice=[6]
    )
    assert len(of(events, "attack")[0]["dice"]) == 1 and "p2" not in state["units"]


def test_refusals_of_cards_reactions_and_attacks_say_why_and_list_what_is_legal():
    from engine.core.errors import RuleError

    def refused(state, words, **action):
        with pytest.raises(RuleError, match=words) as info:
            act(state, **action)
        assert info.value.legal  # what is legal instead
        return info.value

    state = make(
        **M3,
        hands={"allies": [card_of("reinforcements")]},
        units=[
            unit("rifleman", "E9", id="r"),
            unit("sturmpanzer", "E5", id="t"),
            unit("panzerfaust", "Q9", id="far"),
            unit("wolverine", "A9", id="w", plugins=["hacksaw"]),
        ],
    )
    refused(
        state,
        "played in your deployment phase; this is the combat phase",
        kind="play",
        card=card_of("reinforcements"),
    )
    refused(state, "not in your hand", kind="play", card=card_of("barrage"))
    refused(state, "discarded in the card phase", kind="discard", card=card_of("reinforcements"))
    refused(state, "no enemy attack to answer", kind="pass")
    refused(state, "cannot be harmed by rifle: 0 dice", kind="attack", unit="r", to="E5")
    refused(state, "Q9 is 6 segments away; r's rifle reaches 2", kind="attack", unit="r", to="Q9")
    refused(
        state, "several weapons: add choice: cannon or hacksaw", kind="attack", unit="w", to="E5"
    )
    refused(state, "no Quick Advance", kind="advance", unit="r", to="E7")
    reaction = make(
        **M3,
        active="bismark",
        hands={"allies": [card_of("take-cover"), card_of("reinforcements")]},
        units=[
            unit("panzerfaust", "E3", id="p"),
            unit("rifleman", "E5", id="r"),
            unit("rifleman", "A11", id="x"),
        ],
    )
    reaction, _ = act(reaction, "attack", unit="p", to="E5")
    refused(
        reaction,
        "not a reaction card",
        kind="play",
        side="allies",
        card=card_of("reinforcements"),
        unit="r",
    )
    refused(
        reaction,
        "in the attacked segment E5; 'x' is not one of them",
        kind="play",
        side="allies",
        card=card_of("take-cover"),
        unit="x",
    )
    err = refused(
        reaction, "waiting for Allies: /play a reaction card", kind="end-phase", side="allies"
    )
    assert "/pass" in err.legal
