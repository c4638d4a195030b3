"""Cards: one draw per turn, reshuffle, limits, special rules, returning eliminated units."""

import pytest

from engine.core import hexgrid
from engine.core.errors import RuleError

from .helpers import act, build, destinations, grid_map, legal, of_type

OPEN = ["........"] * 8


def u(kind, at, **kw):
    return {"type": kind, "at": at, **kw}


def end_of_spanish_turn(**extra):
    """Spanish rally phase with one unit to rally, so the test decides when the turn ends."""
    spec = {
        "map": grid_map(*OPEN),
        "phase": "rally",
        "card": "sp-caution",
        "units": {"i": u("sp-infantry", "0101", disorganised=True), "w": u("az-warriors", "0808")},
    }
    spec.update(extra)
    return build(spec)


def test_each_player_draws_one_card_at_the_start_of_the_turn():
    state = end_of_spanish_turn(decks={"aztec": ["az-canoes", "az-drums"], "spanish": ["sp-night"]})
    state, events = act(state, "spanish", "/end-phase")
    drawn = of_type(events, "card_drawn")
    assert drawn == [{"type": "card_drawn", "side": "aztec", "card": "az-canoes"}]
    assert state["card"] == "az-canoes" and state["decks"]["aztec"] == ["az-drums"]
    assert state["discards"]["spanish"] == ["sp-caution"]  # the played card is discarded


def test_deck_is_reshuffled_when_all_cards_were_drawn():
    state = end_of_spanish_turn(
        decks={"aztec": [], "spanish": ["sp-night"]},
        discards={"aztec": ["az-canoes", "az-drums", "az-hunger"]},
    )
    state, events = act(state, "spanish", "/end-phase", dice=[1, 1])
    assert of_type(events, "reshuffled") and of_type(events, "shuffle")
    assert state["card"] in {"az-canoes", "az-drums", "az-hunger"}
    assert len(state["decks"]["aztec"]) == 2 and state["discards"]["aztec"] == []


def test_movement_bonus_card():
    strip = grid_map(*(["L.L"] * 8))
    plain = build({"map": strip, "card": "sp-caution", "units": {"c": u("sp-cavalry", "0201")}})
    sweep = build({"map": strip, "card": "sp-cavalry", "units": {"c": u("sp-cavalry", "0201")}})
    assert max(destinations(plain, "c")) == "0206"
    assert max(destinations(sweep, "c")) == "0207"


def test_attack_bonus_only_for_the_listed_unit_classes():
    units = {
        "c": u("sp-cavalry", "0404"),
        "i": u("sp-infantry", "0202"),
        "w": u("az-eagle", "0405"),
        "v": u("az-eagle", "0203"),
    }
    hills = list(OPEN)
    hills[4] = "...h...."  # the eagle at 0405 defends at 5+1
    state = build(
        {"map": grid_map(*hills), "phase": "combat", "card": "sp-santiago", "units": units}
    )
    state, events = act(
        state, "spanish", "/attack unit:c target:w", dice=[1]
    )  # 4+1+1 = 6: no effect
    assert of_type(events, "attack")[0]["bonus"] == 1
    state, events = act(state, "spanish", "/attack unit:i target:v", dice=[1])
    assert of_type(events, "attack")[0]["bonus"] == 0


def test_special_rule_tied_to_the_aqueduct_needs_control_of_an_aqueduct_hex():
    m = grid_map(*OPEN, aqueduct=["0101", "0102"])
    units = {"i": u("sp-infantry", "0404"), "w": u("az-eagle", "0405")}
    cut = build(
        {
            "map": m,
            "phase": "combat",
            "card": "sp-aqueduct",
            "units": units,
            "control": {"0102": "spanish"},
        }
    )
    _, events = act(cut, "spanish", "/attack unit:i target:w", dice=[1])
    assert of_type(events, "attack")[0]["bonus"] == 1
    held = build({"map": m, "phase": "combat", "card": "sp-aqueduct", "units": units})
    _, events = act(held, "spanish", "/attack unit:i target:w", dice=[1])
    assert of_type(events, "attack")[0]["bonus"] == 0


def test_mandatory_attack_card_forbids_ending_combat_without_an_attack():
    units = {
        "i": u("sp-infantry", "0404"),
        "j": u("sp-infantry", "0202"),
        "w": u("az-eagle", "0405"),
        "v": u("az-eagle", "0203"),
    }
    state = build({"map": grid_map(*OPEN), "phase": "combat", "card": "sp-assault", "units": units})
    assert not legal(state, "spanish", "end-phase")
    with pytest.raises(RuleError, match="demands an attack"):
        act(state, "spanish", "/end-phase")
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    assert legal(state, "spanish", "end-phase")
    free = build({"map": grid_map(*OPEN), "phase": "combat", "card": "sp-caution", "units": units})
    assert legal(free, "spanish", "end-phase")


def test_card_returns_an_eliminated_unit_next_to_a_good_order_friend_outside_enemy_zoc():
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "draw",
            "active": "spanish",
            "decks": {"spanish": ["sp-reinforce"], "aztec": ["az-drums"]},
            "eliminated": {"tx": "tlaxcalan", "cav": "sp-cavalry"},
            "units": {
                "i": u("sp-infantry", "0404"),
                "d": u("sp-infantry", "0101", disorganised=True),
                "w": u("az-warriors", "0606"),
            },
        }
    )
    assert state["card"] == "sp-reinforce" and state["phase"] == "draw"
    places = legal(state, "spanish", "place")
    assert {a["unit"] for a in places} == {"tx"}  # only infantry-class units return
    here = hexgrid.parse_label("0404")
    zoc = {hexgrid.label(n) for n in hexgrid.neighbours(hexgrid.parse_label("0606"))}
    expected = {hexgrid.label(n) for n in hexgrid.neighbours(here)} - zoc
    assert {a["to"] for a in places} == expected
    with pytest.raises(RuleError, match="next to a friendly unit in good order"):
        act(state, "spanish", "/place unit:tx to:0102")  # next to the disorganised unit only
    with pytest.raises(RuleError, match="returns only infantry"):
        act(state, "spanish", f"/place unit:cav to:{sorted(expected)[0]}")
    target = sorted(expected)[0]
    state, events = act(state, "spanish", f"/place unit:tx to:{target}")
    assert state["units"]["tx"]["at"] == target and "tx" not in state["eliminated"]
    assert of_type(events, "returned") and state["phase"] == "movement"


def test_returning_a_unit_may_be_declined():
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "draw",
            "decks": {"spanish": ["sp-reinforce"], "aztec": ["az-drums"]},
            "eliminated": {"tx": "tlaxcalan"},
            "units": {"i": u("sp-infantry", "0404"), "w": u("az-warriors", "0808")},
        }
    )
    state, _ = act(state, "spanish", "/end-phase")
    assert state["phase"] == "movement" and "tx" in state["eliminated"]


def test_card_may_name_where_the_unit_returns():
    m = grid_map("cccc....", *(["........"] * 7))
    state = build(
        {
            "map": m,
            "phase": "draw",
            "active": "aztec",
            "decks": {"aztec": ["az-levy"], "spanish": ["sp-night"]},
            "eliminated": {"w2": "az-warriors"},
            "units": {"w": u("az-warriors", "0808"), "i": u("sp-infantry", "0102")},
        }
    )
    # City hexes 0101..0401, minus the Spanish infantry's ZOC (0101, 0201 are next to 0102).
    assert {a["to"] for a in legal(state, "aztec", "place")} == {"0301", "0401"}


def test_chapultepec_springs_count_as_part_of_the_aqueduct():
    units = {
        "i": u("sp-infantry", "0208"),
        "w": u("az-eagle", "0209"),
        "s": u("sp-infantry", "0312"),
    }
    state = build({"phase": "combat", "card": "sp-aqueduct", "units": units})
    assert state["control"]["0312"] == "spanish"  # the infantry stands on the springs
    _, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    assert of_type(events, "attack")[0]["bonus"] == 1


def test_the_card_just_played_is_reshuffled_with_the_others():
    # The Spanish draw their last card; at their next draw the deck is empty and every Spanish card
    # played so far, the last one included, is shuffled into the new deck.
    state = end_of_spanish_turn(
        decks={"spanish": ["sp-night"], "aztec": ["az-drums", "az-canoes"]},
        discards={"spanish": ["sp-council"]},
    )
    drawn = []
    for _ in range(20):
        side = state["awaiting"][0]
        state, events = act(state, side, "/end-phase", dice=[1] * 6)
        drawn += [e["card"] for e in of_type(events, "card_drawn") if e["side"] == "spanish"]
        if len(drawn) == 2:
            break
    assert drawn[0] == "sp-night"
    assert of_type(events, "reshuffled") and drawn[1] in {"sp-council", "sp-caution", "sp-night"}
    assert sorted(state["decks"]["spanish"] + [state["card"]]) == [
        "sp-caution",
        "sp-council",
        "sp-night",
    ]
