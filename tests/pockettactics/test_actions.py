"""Turn actions besides moving and attacking: deploy, reserve, specials; and victory."""

import pytest

from engine.core.errors import RuleError

from .helpers import RS, act, legal, of, position


def test_deploy_from_reserve_next_to_a_controlled_feature():
    state = position({"spearman": "0808", "archer": "reserve", "goblin": "0810"})
    spots = sorted(c.split("to:")[1] for c in legal(state) if c.startswith("/deploy unit:archer"))
    assert spots == ["0706", "0806", "0906"]  # the tiles around the north home 0805
    state, events = act(state, "/deploy unit:archer to:0806")
    assert state["units"]["archer"] == {
        "side": "north",
        "type": "archer",
        "status": "map",
        "at": "0806",
        "by": None,
        "blessing": 0,
    }
    assert state["active"] == "south"


def test_deploy_only_next_to_features_you_control_and_ignores_hazards():
    state = position(
        {"spearman": "0808", "archer": "reserve", "goblin": "0810"},
        control={"0805": None},
        tiles={"0806": "water"},
    )
    assert not [c for c in legal(state) if c.startswith("/deploy")]
    with pytest.raises(RuleError, match="not next to a feature you control"):
        act(state, "/deploy unit:archer to:0809")
    state = position(
        {"spearman": "0808", "archer": "reserve", "goblin": "0810"}, tiles={"0806": "water"}
    )
    state, events = act(state, "/deploy unit:archer to:0806")
    assert state["units"]["archer"]["at"] == "0806" and not of(events, "roll")


def test_captured_units_cannot_be_deployed():
    state = position({"spearman": "0808", "archer": "captured", "goblin": "0810"})
    assert state["units"]["archer"]["by"] == "south"
    assert not [c for c in legal(state) if "archer" in c]


def test_return_to_reserve_from_a_feature_loses_control():
    state = position({"spearman": "0805", "goblin": "0810"})
    assert "/reserve unit:spearman" in legal(state)
    state, events = act(state, "/reserve unit:spearman")
    assert state["units"]["spearman"]["status"] == "reserve" and state["control"]["0805"] is None
    assert of(events, "control")[0]["side"] is None


def test_return_to_reserve_through_a_feature_held_by_an_ally():
    state = position({"spearman": "0805", "archer": "0806", "rider": "0808", "goblin": "0810"})
    assert "/reserve unit:archer to:0805" in legal(state)
    assert not [c for c in legal(state) if c.startswith("/reserve unit:rider")]
    state, _ = act(state, "/reserve unit:archer to:0805")
    assert state["units"]["archer"]["status"] == "reserve" and state["control"]["0805"] == "north"
    with pytest.raises(RuleError, match="rider does not stand on a feature"):
        act(position({"rider": "0808", "goblin": "0810"}), "/reserve unit:rider")
    with pytest.raises(RuleError, match="0809 is not an occupied feature next to rider"):
        act(position({"rider": "0808", "goblin": "0810"}), "/reserve unit:rider to:0809")


def test_no_return_to_reserve_through_a_feature_an_enemy_occupies():
    # "eine Figur 'in' ein besetztes Merkmal ziehen": a move never enters an enemy's tile (that is
    # close combat), so the occupied feature is one your own unit stands on, not south's village
    state = position({"rider": "0810", "spearman": "0805", "goblin": "0811"})
    assert "/reserve unit:rider to:0811" not in legal(state)
    with pytest.raises(RuleError, match="0811 is held by the enemy goblin"):
        act(state, "/reserve unit:rider to:0811")
    assert state["units"]["rider"]["status"] == "map"


def test_a_flyer_takes_its_bonus_moves_when_activated_to_go_to_the_reserve():
    # flyers take bonus moves "wenn sie aktiviert werden": going "in" an occupied feature activates
    # the eagle (flying 2) too, so from 0808 it flies 0807 -> 0806 and steps into north's home
    # 0805, which the spearman occupies; the rider (fast, bonus moves only "zum Bewegen") cannot
    state = position({"eagle": "0808", "spearman": "0805", "goblin": "0811"})
    assert "/reserve unit:eagle to:0805" in legal(state)
    fast = position({"rider": "0808", "spearman": "0805", "goblin": "0811"})
    assert "/reserve unit:rider to:0805" not in legal(fast)
    with pytest.raises(RuleError, match="0805 is not an occupied feature next to rider"):
        act(fast, "/reserve unit:rider to:0805")
    state, events = act(state, "/reserve unit:eagle to:0805")
    (event,) = of(events, "to_reserve")
    assert len(event["path"]) == 4 and event["path"][0] == "0808" and event["path"][-1] == "0805"
    assert state["units"]["eagle"]["status"] == "reserve" and state["control"]["0805"] == "north"
    assert "flying 0808 →" in RS.describe_event(state, event)
    # beyond its bonus moves plus the step (0809 is 4 tiles from 0805) it cannot
    far = position({"eagle": "0809", "spearman": "0805", "goblin": "0811"})
    assert "/reserve unit:eagle to:0805" not in legal(far)
    with pytest.raises(RuleError, match="0805 is not an occupied feature eagle can reach"):
        act(far, "/reserve unit:eagle to:0805")
    # it never lands on the way, so water it flies over does not drown it (no die is rolled)
    wet = position(
        {"eagle": "0808", "spearman": "0805", "goblin": "0811"},
        tiles={"0807": "water", "0806": "water"},
    )
    wet, events = act(wet, "/reserve unit:eagle to:0805")
    assert of(events, "to_reserve")[0]["path"] == ["0808", "0807", "0806", "0805"]
    assert wet["units"]["eagle"]["status"] == "reserve"


def test_a_unit_on_a_feature_may_leave_through_a_neighbouring_one_and_keep_its_own():
    # the spearman holds the village at 0808 and stands next to north's occupied home 0807:
    # going into its own feature gives 0808 up, stepping into 0807 keeps it
    tiles = {
        "0807": {"terrain": "grass", "feature": "forest"},
        "0808": {"terrain": "grass", "feature": "village"},
    }
    state = position(
        {"spearman": "0808", "archer": "0807", "goblin": "0811"},
        tiles=tiles,
        homes={"north": "0807", "south": "0811"},
        control={"0808": "north"},
    )
    assert {"/reserve unit:spearman", "/reserve unit:spearman to:0807"} <= set(legal(state))
    own, _ = act(state, "/reserve unit:spearman")
    assert own["control"]["0808"] is None
    through, _ = act(state, "/reserve unit:spearman to:0807")
    assert through["control"]["0808"] == "north"


def test_teleport_needs_an_off_test():
    state = position({"shaman": "0807", "spearman": "0806"}, active="south")
    assert "/special unit:shaman to:0711" in legal(state)  # next to the south home 0811
    failed, events = act(state, "/special unit:shaman to:0711", dice=[4])
    assert failed["units"]["shaman"]["at"] == "0807" and of(events, "action_failed")
    moved, events = act(state, "/special unit:shaman to:0711", dice=[5])
    assert moved["units"]["shaman"]["at"] == "0711"


def test_victory_when_one_player_controls_every_feature():
    state = position({"spearman": "0810", "goblin": "0806"})
    state, events = act(state, "/move unit:spearman to:0811")
    assert state["result"] == {"winner": "north", "reason": "North controls every feature"}
    assert state["awaiting"] == []


def test_a_position_where_one_player_holds_every_feature_is_already_won():
    state = position({"spearman": "0807", "goblin": "0810"}, control={"0811": "north"})
    assert state["result"] == {"winner": "north", "reason": "North controls every feature"}
    assert state["awaiting"] == []


def test_victory_when_the_opponent_can_neither_activate_nor_deploy():
    # south's last unit falls; its reserve is empty: north wins at once
    state = position({"spearman": "0808", "slinger": "0809", "goblin": "captured"})
    state, events = act(state, "/attack unit:spearman target:slinger", dice=[6, 1, 3, 1, 3, 4, 2])
    assert state["result"]["winner"] == "north"
    assert "South can neither activate nor deploy" in state["result"]["reason"]


def test_a_reserve_without_a_controlled_feature_cannot_deploy():
    # south has only a reserve unit and has lost its home: it can neither activate nor deploy,
    # so the position is decided as soon as it is set up, before anybody moves
    state = position(
        {"spearman": "0807", "goblin": "reserve"},
        control={"0811": "north"},
        tiles={"0808": {"terrain": "grass", "feature": "village"}},
    )
    assert state["result"] == {
        "winner": "north",
        "reason": "South can neither activate nor deploy a unit",
    }
    assert state["awaiting"] == []


def test_a_player_who_strands_itself_loses_at_once():
    # north's only unit goes into its own feature: the feature is lost, north can no longer deploy,
    # and south wins the moment the action ends (south does not need a turn first)
    state = position({"spearman": "0805", "goblin": "0810", "slinger": "0811"})
    state, events = act(state, "/reserve unit:spearman")
    assert state["result"] == {
        "winner": "south",
        "reason": "North can neither activate nor deploy a unit",
    }
    assert not of(events, "turn_started") and state["awaiting"] == []


def test_a_draw_when_neither_player_can_act():
    # both last units fall in the same combat and both reserves are empty: neither player can act
    state = position({"spearman": "0808", "lizard": "0809"})
    state, _ = act(state, "/attack unit:spearman target:lizard", dice=[5, 1, 2, 1, 4, 1, 3, 3])
    state, events = act(state, "/pass")
    assert state["result"] == {
        "winner": None,
        "reason": "Neither player can activate or deploy a unit",
    }
    assert of(events, "game_over")


def test_bad_commands_say_what_is_wrong_and_what_is_legal():
    state = position({"spearman": "0808", "goblin": "0810"})
    with pytest.raises(RuleError, match="no unit 'dragon'"):
        act(state, "/move unit:dragon to:0809")
    with pytest.raises(RuleError, match="goblin is not your unit"):
        act(state, "/move unit:goblin to:0809")
    with pytest.raises(
        RuleError,
        match="Clan Spearman needs 3 steps to reach 0805 and has 1 this move. Legal: 0708",
    ):
        act(state, "/move unit:spearman to:0805")
    with pytest.raises(RuleError, match=r"/bonus is not possible now. Legal: /move"):
        act(state, "/bonus die:off1 value:1")


def test_teleport_arrival_meets_the_hazard():
    # 0711 (next to south's village) is lava: after the OFF test (6) the shaman takes the DEF test (2) and burns
    state = position({"shaman": "0807", "spearman": "0806"}, active="south", tiles={"0711": "lava"})
    state, events = act(state, "/special unit:shaman to:0711", dice=[6, 2])
    assert (
        state["units"]["shaman"]["status"] == "captured"
        and state["units"]["shaman"]["by"] == "north"
    )
    assert [t["kind"] for t in of(events, "test")] == ["off", "def"]


def test_special_ability_refusals_say_why():
    state = position({"druid": "0807", "spearman": "0808", "rider": "0706", "goblin": "0811"})
    with pytest.raises(RuleError, match="spearman has no special ability"):
        act(state, "/special unit:spearman with:druid")
    with pytest.raises(RuleError, match="'rider' is not an ally next to druid"):
        act(state, "/special unit:druid with:rider")
    with pytest.raises(RuleError, match="druid blesses an adjacent ally"):
        act(state, "/special unit:druid to:0806")
    blessed, _ = act(state, "/special unit:druid with:spearman")
    blessed, _ = act(blessed, "/move unit:goblin to:0810")
    with pytest.raises(RuleError, match="spearman is already blessed"):
        act(blessed, "/special unit:druid with:spearman")
    shaman = position({"shaman": "0807", "spearman": "0806"}, active="south")
    with pytest.raises(
        RuleError, match="teleports only to a free tile next to a feature you control"
    ) as info:
        act(shaman, "/special unit:shaman to:0808")
    assert "0711" in info.value.legal


@pytest.mark.parametrize(
    "tiles, to, english, german",
    [
        (
            {},
            "0805",
            "Clan Spearman needs 3 steps to reach 0805 and has 1 this move.",
            "Clan Spearman braucht 3 Schritte bis 0805 und hat in diesem Zug 1.",
        ),
        (
            {"0807": {"terrain": "grass", "feature": "crag"}},
            "0807",
            "Only flyers enter 0807; Clan Spearman does not fly.",
            "Nur fliegende Einheiten betreten 0807; Clan Spearman fliegt nicht.",
        ),
    ],
)
def test_a_refused_move_says_why_in_the_games_terms(tiles, to, english, german):
    # Issue 15: the reason in the game's terms (steps needed and had), named as on the board.
    from cogs.i18n import rule_text

    state = position({"spearman": "0808", "goblin": "0810"}, tiles=tiles)
    with pytest.raises(RuleError) as refused:
        act(state, f"/move unit:spearman to:{to}")
    assert str(refused.value).startswith(english)
    assert rule_text(refused.value, "de").startswith(german)


def test_a_move_every_way_of_which_stopping_terrain_ends_says_so():
    from cogs.i18n import rule_text
    from engine.pockettactics.rules import _neighbour_labels

    # The spearman's only way out of 0808 is the forest at 0807, which ends a move on entry.
    gone = {lab: None for lab in _neighbour_labels("0808") if lab != "0807"}
    tiles = {**gone, "0807": {"terrain": "grass", "feature": "forest"}}
    state = position({"spearman": "0808", "goblin": "0811"}, tiles=tiles)
    with pytest.raises(RuleError) as refused:
        act(state, "/move unit:spearman to:0806")
    assert str(refused.value).startswith(
        "Clan Spearman cannot reach 0806: every way there crosses a tile that stops it"
    )
    assert rule_text(refused.value, "de").startswith(
        "Clan Spearman kann 0806 nicht erreichen: jeder Weg dorthin führt über ein Plättchen"
    )
