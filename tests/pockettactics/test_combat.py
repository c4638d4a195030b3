"""Combat: the worked example, bonus and re-roll phases, comparison, ranged attacks, water."""

import pytest

from engine.core.errors import RuleError

from .helpers import act, legal, of, position


def test_worked_example_from_the_rulebook():
    # attacker OFF 2 DEF 2 rolls OFF 6,1 DEF 3,1; defender OFF 1 DEF 2 rolls OFF 3 DEF 4,2
    state = position({"spearman": "0808", "slinger": "0809"})
    state, events = act(state, "/attack unit:spearman target:slinger", dice=[6, 1, 3, 1, 3, 4, 2])
    combat = of(events, "combat")[0]
    assert combat["attack"] == {"off": [6, 1], "def": [4, 2], "hit": True, "why": "6 beats 4"}
    assert combat["counter"] == {
        "off": [3],
        "def": [3, 1],
        "hit": False,
        "why": "3 ties 3; DEF 1 left over",
    }
    assert state["units"]["slinger"]["status"] == "captured"
    assert state["units"]["slinger"]["by"] == "north"
    assert state["units"]["spearman"]["status"] == "map"
    rolls = [(e["purpose"], e["value"]) for e in of(events, "roll")]
    assert rolls == [
        ("spearman OFF", 6),
        ("spearman OFF", 1),
        ("spearman DEF", 3),
        ("spearman DEF", 1),
        ("slinger OFF", 3),
        ("slinger DEF", 4),
        ("slinger DEF", 2),
    ]


def test_worked_example_as_pending_combat_from_a_scenario():
    state = position(
        {"spearman": "0808", "slinger": "0809"},
        phase="bonus",
        combat={
            "attacker": "spearman",
            "defender": "slinger",
            "kind": "melee",
            "dice": {
                "attacker": {"off": [6, 1], "def": [3, 1]},
                "defender": {"off": [3], "def": [4, 2]},
            },
            "bonuses": {"attacker": [], "defender": [{"kind": "def", "value": 1}]},
        },
    )
    assert state["awaiting"] == ["south"] and state["phase"] == "bonus"
    state, events = act(state, "/pass")
    combat = of(events, "combat")[0]
    assert combat["attack"]["hit"] and not combat["counter"]["hit"]


def test_both_units_can_fall():
    state = position({"spearman": "0808", "lizard": "0809"})
    # spearman OFF 5,1 DEF 2,1 ; lizard OFF 4,1 DEF 3,3 (+1 OFF bonus left unused by passing)
    state, _ = act(state, "/attack unit:spearman target:lizard", dice=[5, 1, 2, 1, 4, 1, 3, 3])
    assert state["phase"] == "bonus" and state["awaiting"] == ["south"]
    state, events = act(state, "/pass")
    assert {e["unit"] for e in of(events, "captured")} == {"spearman", "lizard"}
    assert state["units"]["spearman"]["by"] == "south" and state["units"]["lizard"]["by"] == "north"


def test_all_ties_with_equal_dice_fail_and_spare_off_die_hits():
    state = position({"champion": "0808", "slinger": "0809"})
    # champion OFF 4,4,2 vs slinger DEF 4,4 -> the spare 2 hits; slinger OFF 3 vs DEF 3,3 -> miss
    state, _ = act(state, "/attack unit:champion target:slinger", dice=[4, 4, 2, 3, 3, 3, 4, 4])
    assert state["awaiting"] == ["north"]  # champion has +1 OFF: attacker decides first
    state, events = act(state, "/pass")
    combat = of(events, "combat")[0]
    assert combat["attack"]["hit"] and not combat["counter"]["hit"]
    assert combat["attack"]["why"] == "4 ties 4; 4 ties 4; OFF 2 left over"
    assert combat["counter"]["why"] == "3 ties 3; DEF 3 left over"


def test_bonus_phase_alternates_starting_with_attacker_and_caps_at_six():
    # lizard (+1 OFF card, +1 OFF bane of beast) attacks the eagle (no bonus) in a forest (+1 DEF)
    state = position(
        {"lizard": "0808", "eagle": "0809"},
        active="south",
        tiles={"0809": {"terrain": "grass", "feature": "forest"}},
    )
    state, events = act(state, "/attack unit:lizard target:eagle", dice=[6, 3, 2, 2, 1, 4])
    assert state["awaiting"] == ["south"]
    assert "/bonus die:off1 value:1" not in legal(state)  # a 6 cannot be raised
    state, events = act(state, "/bonus die:off2 value:1")
    assert of(events, "bonus")[0]["to"] == 4
    assert state["awaiting"] == ["north"]  # the defender's turn now
    state, events = act(state, "/bonus die:def1 value:1")  # forest: 4 -> 5
    assert state["awaiting"] == ["south"]
    state, events = act(state, "/bonus die:off2 value:1")  # 4 -> 5
    combat = of(events, "combat")[0]
    assert (
        combat["attack"]["off"] == [6, 5]
        and combat["attack"]["def"] == [5]
        and combat["attack"]["hit"]
    )


def test_a_passing_player_lets_the_other_continue():
    state = position(
        {"lizard": "0808", "eagle": "0809"},
        active="south",
        tiles={"0809": {"terrain": "grass", "feature": "forest"}},
    )
    state, _ = act(state, "/attack unit:lizard target:eagle", dice=[3, 3, 2, 2, 1, 4])
    state, _ = act(state, "/pass")
    assert state["awaiting"] == ["north"]
    state, _ = act(state, "/pass")
    assert state["phase"] == "play" and state["active"] == "north"


def test_a_player_who_passed_may_answer_when_the_other_changes_the_dice():
    # "wechseln sich die Spieler mit den einzelnen Bonis ab": passing declines one turn, not the
    # rest of the phase; the phase ends when both pass in a row (or nobody has anything left)
    state = position(
        {"lizard": "0808", "eagle": "0809"},
        active="south",
        tiles={"0809": {"terrain": "grass", "feature": "forest"}},
    )
    state, _ = act(state, "/attack unit:lizard target:eagle", dice=[6, 3, 2, 2, 1, 4])
    state, _ = act(state, "/pass")  # south passes at first
    assert state["awaiting"] == ["north"]
    state, _ = act(state, "/bonus die:def1 value:1")  # forest: the eagle's DEF 4 -> 5
    assert state["phase"] == "bonus" and state["awaiting"] == ["south"]
    assert "/bonus die:off2 value:1" in legal(state)
    state, _ = act(state, "/bonus die:off2 value:1")  # 3 -> 4
    state, events = act(state, "/bonus die:off2 value:1")  # north has nothing left: 4 -> 5
    combat = of(events, "combat")[0]
    assert combat["attack"]["off"] == [6, 5] and combat["attack"]["def"] == [5]


def test_the_reroll_phase_ends_when_both_pass_in_a_row():
    # the spearman has two re-rolls, the slinger two (goblin, troll): north passes, south
    # re-rolls, north may answer; north and south then pass in a row and the combat is resolved
    state = position(
        {
            "spearman": "0808",
            "archer": "0807",
            "rider": "0708",
            "slinger": "0809",
            "goblin": "0910",
            "troll": "0810",
        }
    )
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 3, 4, 2])
    assert state["combat"]["rerolls"] == {"attacker": 2, "defender": 2}
    assert state["phase"] == "reroll" and state["awaiting"] == ["north"]
    state, _ = act(state, "/pass")
    state, _ = act(state, "/reroll die:def2", dice=[5])
    assert state["awaiting"] == ["north"] and state["combat"]["rerolls"]["attacker"] == 2
    state, _ = act(state, "/pass")
    assert state["awaiting"] == ["south"] and state["combat"]["rerolls"]["defender"] == 1
    state, events = act(state, "/pass")
    assert of(events, "combat") and state["phase"] == "play"


def test_rerolls_from_support_and_preferred_terrain():
    # spearman on highland (preferred) with two adjacent allies: 3 re-rolls; slinger none
    state = position(
        {"spearman": "0808", "archer": "0807", "rider": "0708", "slinger": "0809"},
        tiles={"0808": {"terrain": "grass", "feature": "highland"}},
    )
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 3, 4, 2])
    assert state["combat"]["rerolls"] == {"attacker": 3, "defender": 0}
    assert state["phase"] == "bonus"  # highland gives +1 OFF
    state, _ = act(state, "/pass")
    assert state["phase"] == "reroll" and state["awaiting"] == ["north"]
    state, events = act(state, "/reroll die:off1", dice=[6])
    assert of(events, "reroll")[0] == {
        "type": "reroll",
        "side": "north",
        "unit": "spearman",
        "die": "off1",
        "from": 1,
        "to": 6,
    }
    assert state["combat"]["rerolls"]["attacker"] == 2
    state, events = act(state, "/pass")
    assert of(events, "combat")[0]["attack"]["hit"]


def test_reroll_turns_alternate():
    # the spearman has two re-rolls (archer, rider adjacent), the slinger one (goblin adjacent):
    # after each re-roll the other player chooses, even while the first still has re-rolls left
    state = position(
        {"spearman": "0808", "archer": "0807", "rider": "0708", "slinger": "0809", "goblin": "0910"}
    )
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 3, 4, 2])
    assert state["combat"]["rerolls"] == {"attacker": 2, "defender": 1}
    assert state["phase"] == "reroll" and state["awaiting"] == ["north"]
    state, _ = act(state, "/reroll die:off2", dice=[2])
    assert state["awaiting"] == ["south"]
    state, _ = act(state, "/reroll die:def2", dice=[1])
    assert state["awaiting"] == ["north"]
    state, events = act(state, "/reroll die:off1", dice=[1])
    assert of(events, "combat")


def test_ranged_attack_target_out_of_its_range_rolls_no_off():
    state = position({"archer": "0806", "troll": "0808"})
    state, events = act(state, "/fire unit:archer target:troll", dice=[1, 1, 1, 1, 1])
    assert of(events, "no_counter")
    state, events = act(state, "/pass")  # the archer's +1 OFF stays unused
    assert of(events, "combat")[0]["counter"]["off"] == []
    assert state["units"]["archer"]["at"] == "0806"


def test_ranged_target_within_its_own_range_shoots_back():
    state = position({"archer": "0806", "slinger": "0808"})
    state, events = act(state, "/fire unit:archer target:slinger", dice=[1, 1, 6, 3, 3])
    state, events = act(state, "/pass")
    assert of(events, "combat")[0]["counter"] == {
        "off": [6],
        "def": [1],
        "hit": True,
        "why": "6 beats 1",
    }


def test_ranged_range_limit():
    state = position({"archer": "0805", "troll": "0808"})  # 3 tiles: archer reaches 1+2
    assert "/fire unit:archer target:troll" in legal(state)
    state = position({"archer": "0805", "troll": "0809"})  # 4 tiles
    assert "/fire unit:archer target:troll" not in legal(state)
    with pytest.raises(RuleError, match="4 tiles away; archer reaches 3"):
        act(state, "/fire unit:archer target:troll")


def test_line_of_sight_blocked_by_feature_enemy_and_empty_space():
    clear = position({"archer": "0806", "troll": "0808"})
    assert "/fire unit:archer target:troll" in legal(clear)
    forest = position(
        {"archer": "0806", "troll": "0808"},
        tiles={"0807": {"terrain": "grass", "feature": "forest"}},
    )
    assert "/fire unit:archer target:troll" not in legal(forest)
    lake = position(
        {"archer": "0806", "troll": "0808"}, tiles={"0807": {"terrain": "grass", "feature": "lake"}}
    )
    assert "/fire unit:archer target:troll" in legal(lake)  # water does not block
    enemy = position({"archer": "0806", "goblin": "0807", "troll": "0808"})
    assert "/fire unit:archer target:troll" not in legal(enemy)
    friend = position({"archer": "0806", "spearman": "0807", "troll": "0808"})
    assert "/fire unit:archer target:troll" in legal(friend)
    hole = position({"archer": "0806", "troll": "0808"}, tiles={"0807": None})
    assert "/fire unit:archer target:troll" not in legal(hole)


def test_flyers_ignore_blocking_features_and_units_but_not_empty_space():
    forest = {"0807": {"terrain": "grass", "feature": "forest"}}
    state = position({"archer": "0806", "goblin": "0807", "wyvern": "0808"}, tiles=forest)
    assert "/fire unit:archer target:wyvern" in legal(state)  # the target flies
    state = position({"archer": "0806", "wyvern": "0808"}, tiles={"0807": None})
    assert "/fire unit:archer target:wyvern" not in legal(state)


def test_line_along_a_hexside_blocks_only_if_both_sides_block():
    # the line 0808 -> 0907 runs exactly along the side shared by 0807 and 0908
    from engine.core import hexgrid

    line = hexgrid.sight_line(hexgrid.parse_label("0808"), hexgrid.parse_label("0907"))
    assert [tuple(sorted(hexgrid.label(h) for h in pair)) for pair in line.edges] == [
        ("0807", "0908")
    ]
    f = {"terrain": "grass", "feature": "forest"}
    one = position({"archer": "0808", "troll": "0907"}, tiles={"0807": f})
    both = position({"archer": "0808", "troll": "0907"}, tiles={"0807": f, "0908": f})
    assert "/fire unit:archer target:troll" in legal(one)
    assert "/fire unit:archer target:troll" not in legal(both)


def test_a_shot_needs_one_clear_shortest_route_not_a_clear_centre_line():
    # "Zählen Sie die kürzeste Route entlang der Fliesenkanten": the archer at 0805 and the goblin
    # at 1007 are 3 tiles apart; the routes of 3 steps run 0906 or 0806, then 0907 or 1006. The
    # forest at 0906 lies on the centre line but 0805-0806-0907-1007 is an equally short clear route.
    f = {"terrain": "grass", "feature": "forest"}
    state = position({"archer": "0805", "goblin": "1007"}, tiles={"0906": f})
    assert "/fire unit:archer target:goblin" in legal(state)
    state, events = act(state, "/fire unit:archer target:goblin", dice=[6, 1, 1])
    assert of(events, "no_counter")  # the goblin cannot reach 3 tiles
    state, events = act(state, "/pass")  # the archer's village bonus goes unused
    assert of(events, "combat")[0]["attack"]["hit"]
    walled = position({"archer": "0805", "goblin": "1007"}, tiles={"0906": f, "0806": f})
    assert "/fire unit:archer target:goblin" not in legal(walled)  # every shortest route blocked
    with pytest.raises(RuleError, match="no clear shortest route"):
        act(walled, "/fire unit:archer target:goblin")
    enemy = position({"archer": "0805", "slinger": "0907", "goblin": "1007"}, tiles={"0906": f})
    assert "/fire unit:archer target:goblin" not in legal(
        enemy
    )  # the other route has an enemy on it
    friend = position({"archer": "0805", "spearman": "0907", "goblin": "1007"}, tiles={"0906": f})
    assert "/fire unit:archer target:goblin" in legal(friend)
    # a longer way around does not count: the route must be a shortest one
    around = position({"archer": "0805", "goblin": "1007"}, tiles={"0906": f, "0907": f, "1006": f})
    assert "/fire unit:archer target:goblin" not in legal(around)


def test_melee_winner_advances_onto_the_tile():
    state = position({"spearman": "0808", "slinger": "0809"})
    state, events = act(state, "/attack unit:spearman target:slinger", dice=[6, 1, 3, 1, 3, 4, 2])
    assert state["units"]["spearman"]["at"] == "0809"
    assert any(e.get("advance") for e in of(events, "moved"))


def test_attacking_into_water_needs_the_water_test_first():
    water = {"0809": "water"}
    state = position({"spearman": "0808", "troll": "0809"}, tiles=water)
    failed, events = act(state, "/attack unit:spearman target:troll", dice=[3])
    assert failed["units"]["spearman"]["status"] == "captured" and not of(events, "combat")
    passed, events = act(
        state, "/attack unit:spearman target:troll", dice=[4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    )
    assert of(events, "combat_rolled") and of(events, "hazard")[0]["passed"]
    assert passed["combat"]["rerolls"]["defender"] == 1  # the troll prefers water


def test_ranged_attack_into_water_failing_the_test_only_fails_the_action():
    state = position({"archer": "0806", "troll": "0808"}, tiles={"0808": "water"})
    state, events = act(state, "/fire unit:archer target:troll", dice=[2])
    assert state["units"]["archer"]["status"] == "map" and of(events, "action_failed")
    assert state["active"] == "south"


def test_attacker_preferring_water_skips_the_test():
    state = position({"troll": "0808", "spearman": "0809"}, active="south", tiles={"0809": "water"})
    state, events = act(
        state, "/attack unit:troll target:spearman", dice=[6, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    )
    assert of(events, "combat") and not of(events, "hazard")


def test_bless_adds_a_one_time_bonus():
    state = position({"druid": "0807", "spearman": "0808", "slinger": "0809", "goblin": "0911"})
    state, events = act(state, "/special unit:druid with:spearman")
    assert state["units"]["spearman"]["blessing"] == 1
    state, _ = act(state, "/move unit:goblin to:0910")
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[4, 1, 1, 1, 1, 4, 2])
    assert state["units"]["spearman"]["blessing"] == 0
    assert "/bonus die:off1 value:1" in legal(state)
    state, events = act(state, "/bonus die:off1 value:1")
    assert of(events, "bonus")[0]["source"] == "blessing"


def test_combat_without_choices_resolves_at_once_and_only_the_awaited_side_chooses():
    state = position({"spearman": "0808", "slinger": "0809"})
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 3, 4, 2])
    assert state["phase"] == "play"  # no bonus or re-roll for anyone: resolved at once
    state = position({"lizard": "0808", "eagle": "0809"}, active="south")
    state, _ = act(state, "/attack unit:lizard target:eagle", dice=[3, 3, 2, 2, 1, 4])
    with pytest.raises(RuleError):
        act(state, "/pass", side="north")


def test_melee_advance_meets_the_tiles_hazard():
    state = position({"spearman": "0808", "slinger": "0809"}, tiles={"0809": "lava"})
    # the combat (worked example dice), then the spearman's DEF 5+ test on entering the lava: 2, 3 fails
    state, events = act(
        state, "/attack unit:spearman target:slinger", dice=[6, 1, 3, 1, 3, 4, 2, 2, 3]
    )
    assert state["units"]["slinger"]["by"] == "north"
    assert (
        state["units"]["spearman"]["status"] == "captured"
        and state["units"]["spearman"]["by"] == "south"
    )


def test_melee_is_refused_when_not_adjacent():
    state = position({"spearman": "0808", "slinger": "0810"})
    with pytest.raises(RuleError, match="needs an adjacent enemy"):
        act(state, "/attack unit:spearman target:slinger")


def test_units_that_know_magic_declare_melee_or_magic():
    state = position({"druid": "0808", "spearman": "0909", "slinger": "0809"})
    attacks = sorted(c for c in legal(state) if c.startswith("/attack"))
    assert attacks == [
        "/attack unit:druid target:slinger as:magic",
        "/attack unit:druid target:slinger as:melee",
        "/attack unit:spearman target:slinger",
    ]  # the spearman knows only melee
    with pytest.raises(
        RuleError, match="druid did not declare: the attacker declares the attack type"
    ) as info:
        act(state, "/attack unit:druid target:slinger")
    assert "/attack unit:druid target:slinger as:magic" in info.value.legal
    with pytest.raises(RuleError, match="spearman knows only melee attacks; leave out as:"):
        act(state, "/attack unit:spearman target:slinger as:magic")
    with pytest.raises(RuleError, match="cannot attack as 'fire'"):
        act(state, "/attack unit:druid target:slinger as:fire")


def test_magic_passes_walls_and_uses_magic_bonuses():
    # the slinger stands in a village (+1 DEF against melee and ranged attacks, not against magic);
    # the druid has +1 DEF on its card and +1 OFF in magic attacks only
    village = {"0809": {"terrain": "grass", "feature": "village"}}
    state = position({"druid": "0808", "slinger": "0809"}, tiles=village)
    dice = [3, 3, 3, 3, 3, 3]  # druid OFF, DEF, DEF; slinger OFF, DEF, DEF
    magic, events = act(state, "/attack unit:druid target:slinger as:magic", dice=dice)
    assert of(events, "attack_declared")[0]["kind"] == "magic"
    kinds = lambda role, s: sorted(
        (b["kind"], b["value"], b["source"]) for b in s["combat"]["bonuses"][role]
    )  # noqa
    assert kinds("attacker", magic) == [("def", 1, "card"), ("off", 1, "card")]
    assert kinds("defender", magic) == []
    melee, _ = act(state, "/attack unit:druid target:slinger as:melee", dice=dice)
    assert kinds("attacker", melee) == [("def", 1, "card")]
    assert kinds("defender", melee) == [("def", 1, "village")]


def test_a_magic_winner_advances_like_a_melee_winner():
    state = position({"druid": "0808", "slinger": "0809"})
    # druid OFF 6, DEF 1,1; slinger OFF 1, DEF 2,2: the spell hits, the counter ties 1-1 and misses
    state, events = act(
        state, "/attack unit:druid target:slinger as:magic", dice=[6, 1, 1, 1, 2, 2]
    )
    state, events = act(state, "/pass")  # the druid's own bonuses stay unused
    combat = of(events, "combat")[0]
    assert combat["kind"] == "magic" and combat["attack"]["hit"] and not combat["counter"]["hit"]
    assert state["units"]["druid"]["at"] == "0809" and state["units"]["slinger"]["by"] == "north"


def test_a_bonus_never_raises_a_die_above_six():
    city = {"0809": {"terrain": "grass", "feature": "city"}}  # +2 DEF for the slinger against melee
    state = position({"spearman": "0808", "slinger": "0809"}, tiles=city)
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 1, 5, 2])
    assert state["awaiting"] == ["south"]
    state, events = act(state, "/bonus die:def1 value:2")
    assert of(events, "bonus")[0]["from"] == 5 and of(events, "bonus")[0]["to"] == 6


def test_a_flying_attacker_shoots_over_features_and_enemies():
    # from 0806 over an enemy archer in the forest at 0807 to the spearman at 0808 (2 tiles):
    # the wyvern (flying, ranged 1) may fire; the slinger (ranged 1, not flying) on the same tile may not
    forest = {"0807": {"terrain": "grass", "feature": "forest"}}
    flyer = position(
        {"wyvern": "0806", "archer": "0807", "spearman": "0808"}, active="south", tiles=forest
    )
    assert "/fire unit:wyvern target:spearman" in legal(flyer)
    walker = position(
        {"slinger": "0806", "archer": "0807", "spearman": "0808"}, active="south", tiles=forest
    )
    assert "/fire unit:slinger target:spearman" not in legal(walker)
    clear = position({"slinger": "0806", "spearman": "0808"}, active="south")
    assert "/fire unit:slinger target:spearman" in legal(clear)
    hole = position({"wyvern": "0806", "spearman": "0808"}, active="south", tiles={"0807": None})
    assert "/fire unit:wyvern target:spearman" not in legal(hole)  # empty space still blocks


def test_dice_are_compared_highest_first_whatever_the_roll_order():
    # the spearman rolls OFF 1 then 6; the slinger DEF 2 then 4: 6 meets 4 (not 1 meets 2) and hits
    state = position({"spearman": "0808", "slinger": "0809"})
    state, events = act(state, "/attack unit:spearman target:slinger", dice=[1, 6, 5, 5, 3, 2, 4])
    combat = of(events, "combat")[0]
    assert combat["attack"] == {"off": [6, 1], "def": [4, 2], "hit": True, "why": "6 beats 4"}
    assert combat["counter"] == {"off": [3], "def": [5, 5], "hit": False, "why": "3 is beaten by 5"}


def test_a_bonus_raises_an_off_or_a_def_die_and_refusals_say_why():
    # "Jeder Bonus kann ein einzelnes Würfelergebnis (entweder OFF oder DEF) um seinen Wert nach oben
    # anpassen": the champion's +1, listed next to its OFF dice, may raise a DEF die as well; a die
    # at 6 cannot be raised; unknown dice are named
    state = position({"champion": "0808", "slinger": "0809"})
    state, _ = act(state, "/attack unit:champion target:slinger", dice=[6, 2, 2, 3, 3, 3, 4, 4])
    assert sorted(legal(state)) == [
        "/bonus die:def1 value:1",
        "/bonus die:def2 value:1",
        "/bonus die:off2 value:1",
        "/bonus die:off3 value:1",
        "/pass",
    ]
    with pytest.raises(RuleError, match="off1 already shows 6"):
        act(state, "/bonus die:off1 value:1")
    with pytest.raises(RuleError, match=r"no \+2 bonus for off2; left: \+1"):
        act(state, "/bonus die:off2 value:2")
    with pytest.raises(RuleError, match="'off4' is not one of your dice"):
        act(state, "/bonus die:off4 value:1")
    state, events = act(state, "/bonus die:def1 value:1")
    assert of(events, "bonus")[0]["from"] == 3 and of(events, "bonus")[0]["to"] == 4
    assert of(events, "bonus")[0]["source"] == "card"


def test_a_unit_card_may_limit_a_bonus_to_its_own_kind_of_die(tmp_path):
    # our cards may say only_kind: then the +1 listed next to the OFF dice raises only an OFF die
    import json
    import shutil

    from engine.core.dice import fixed
    from engine.core.game import apply_action
    from engine.pockettactics.data import DATA_DIR, Catalogue
    from engine.pockettactics.rules import PocketTactics

    from .helpers import scenario

    for name in ("factions.json", "terrain.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    factions = json.loads((tmp_path / "factions.json").read_text())
    factions["factions"]["clans"]["units"]["champion"]["bonus"] = [
        {"kind": "off", "value": 1, "only_kind": True}
    ]
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    rs = PocketTactics()
    rs.cat = Catalogue.load(tmp_path)
    state, _ = rs.setup(
        rs.scenario_from_data(scenario({"champion": "0808", "slinger": "0809"}), "test"), fixed([])
    )
    state, _ = apply_action(
        rs,
        state,
        {"type": "attack", "side": "north", "unit": "champion", "target": "slinger"},
        fixed([6, 2, 2, 3, 3, 3, 4, 4]),
    )
    bonuses = sorted(a["die"] for a in rs.legal_actions(state, "north") if a["type"] == "bonus")
    assert bonuses == ["off2", "off3"]
    with pytest.raises(RuleError, match="no bonus left for a DEF die"):
        apply_action(
            rs, state, {"type": "bonus", "side": "north", "die": "def1", "value": "1"}, fixed([])
        )


def test_close_combat_needs_a_tile_the_attacker_could_enter():
    crag = {"0809": {"terrain": "grass", "feature": "crag"}}  # flyers only
    state = position({"spearman": "0808", "wyvern": "0809"}, tiles=crag)
    assert not [c for c in legal(state) if c.startswith("/attack")]
    with pytest.raises(
        RuleError, match="spearman cannot enter 0809 \\(crag\\), so it cannot attack wyvern"
    ):
        act(state, "/attack unit:spearman target:wyvern")
    eagle = position({"eagle": "0808", "wyvern": "0809"}, tiles=crag)
    assert "/attack unit:eagle target:wyvern" in legal(eagle)
