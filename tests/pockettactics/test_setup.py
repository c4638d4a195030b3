"""Setup: factions, roll-off, army points, the tile bag, features, map building, starting units."""

import pytest

from engine.core import hexgrid
from engine.core.dice import fixed
from engine.core.errors import RuleError

from .helpers import RS, act, legal, of


def fresh(**data):
    state, events = RS.setup(RS.scenario_from_data(data, "test"), fixed([]))
    return state


def test_factions_then_roll_off_decides_order():
    state = fresh()
    assert state["phase"] == "faction" and state["awaiting"] == ["north"]
    state, _ = act(state, "/faction faction:horde")
    assert "/faction faction:horde" not in legal(state)  # the two players differ
    state, events = act(state, "/faction faction:clans", dice=[3, 3, 2, 5])  # a tie is rolled again
    assert state["order"] == ["south", "north"]
    assert of(events, "order")[0] == {"type": "order", "first": "south", "north": 2, "south": 5}
    assert state["phase"] == "army" and state["awaiting"] == ["south"]


def test_army_building_respects_points():
    state = fresh(
        factions={"north": "clans", "south": "horde"}, order=["north", "south"], points=22
    )
    assert "/done" not in legal(state)  # at least one unit
    state, _ = act(state, "/recruit unit:champion")  # 14 points
    assert sorted(legal(state)) == ["/done", "/recruit unit:eagle", "/recruit unit:spearman"]
    with pytest.raises(RuleError):
        act(state, "/recruit unit:archer")  # 9 > 8 left
    state, _ = act(state, "/done")
    assert state["awaiting"] == ["south"]
    tiny = fresh(factions={"north": "clans", "south": "horde"}, order=["north", "south"], points=5)
    assert legal(tiny) == ["/done"]  # nothing fits 5 points
    assert state["units"]["champion"] == {
        "side": "north",
        "type": "champion",
        "status": "reserve",
        "at": None,
        "by": None,
        "blessing": 0,
    }


def test_tile_bag_central_feature_and_map_building():
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["south", "north"],
        armies={"north": ["spearman"], "south": ["goblin"]},
        tiles_per_player=2,
    )
    assert state["phase"] == "tiles" and state["awaiting"] == ["south"]
    state, _ = act(state, "/tile tile:water")
    assert state["awaiting"] == ["north"]
    state, _ = act(state, "/tile tile:grass")
    state, _ = act(state, "/tile tile:sand")
    state, events = act(
        state, "/tile tile:marsh", dice=[1, 1, 1]
    )  # Fisher-Yates of 4 tiles: 3 draws
    assert of(events, "shuffle")[0]["count"] == 4
    # pool in player order (south's water, sand, then north's grass, marsh), every draw picks index 0
    assert state["bag"] == ["sand", "grass", "marsh", "water"]
    assert state["phase"] == "features" and state["awaiting"] == ["south"]
    state, events = act(state, "/central tile:random", dice=[3])
    assert state["central"] == list(RS.cat.features)[2]
    state, _ = act(state, "/feature tile:forest")
    assert "/feature tile:forest" in legal(state)  # the text never asks the features to differ
    # the first tile goes to the centre with the central feature, then "Alle Spieler würfeln um zu
    # sehen, wer anfängt": a second roll-off (north 5, south 2) sets the order for building the map
    state, events = act(state, "/feature tile:forest", dice=[5, 2])
    assert state["tiles"]["0808"] == {"terrain": "sand", "feature": state["central"]}
    assert of(events, "order")[0] == {
        "type": "order",
        "first": "north",
        "north": 5,
        "south": 2,
        "for": "map building",
    }
    assert state["order"] == ["north", "south"]
    assert state["drawn"] == "grass" and state["phase"] == "map" and state["awaiting"] == ["north"]
    spots = sorted(c.split(":")[1] for c in legal(state))
    assert spots == sorted(
        hexgrid.label(h) for h in hexgrid.neighbours(hexgrid.parse_label("0808"))
    )
    state, _ = act(state, "/place to:0809")
    assert state["awaiting"] == ["south"] and state["drawn"] == "marsh"
    with pytest.raises(RuleError):
        act(state, "/place to:0811")  # not next to the map
    state, _ = act(state, "/place to:0810")
    state, _ = act(state, "/place to:0807")
    # the map's order also places the own features: north first
    assert state["phase"] == "home" and state["awaiting"] == ["north"]
    assert state["own_features"] == {"south": "forest", "north": "forest"}


def test_own_features_go_as_far_as_possible():
    line = {
        "0806": "grass",
        "0807": "grass",
        "0808": {"terrain": "grass", "feature": "village"},
        "0809": "grass",
        "0810": "grass",
        "0811": "water",
    }
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        armies={"north": ["spearman"], "south": ["goblin"]},
        map=line,
        phase="home",
        own_features={"north": "forest", "south": "city"},
    )
    assert legal(state) == ["/place to:0811"]  # 3 from the centre
    state, _ = act(state, "/place to:0811")
    assert state["tiles"]["0811"]["feature"] == "forest" and state["control"]["0811"] == "north"
    assert legal(state) == ["/place to:0806"]  # 2 from the centre, 5 from 0811
    state, _ = act(state, "/place to:0806")
    assert state["phase"] == "start" and state["homes"] == {"north": "0811", "south": "0806"}


def test_feature_distance_counts_tiles_along_the_map():
    # a U-shaped map: 1008 is only 2 hexes from the centre across the gap, but 8 tiles along the map;
    # the ends of the U are the farthest places, not the bend (0905, 1005: 4 hexes, 4 and 5 tiles)
    u = ["0807", "0806", "0805", "0905", "1005", "1006", "1007", "1008"]
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        armies={"north": ["spearman"], "south": ["goblin"]},
        phase="home",
        map=dict(
            {lab: "grass" for lab in u}, **{"0808": {"terrain": "grass", "feature": "village"}}
        ),
        own_features={"north": "forest", "south": "city"},
    )
    assert legal(state) == ["/place to:1008"]
    with pytest.raises(
        RuleError, match="0905 is 4 tiles from the nearest feature; the farthest tiles are 8"
    ):
        act(state, "/place to:0905")


def test_starting_units_alternate_and_last_to_place_starts():
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        map={
            "0805": {"terrain": "grass", "feature": "village"},
            "0806": "grass",
            "0807": "grass",
            "0808": "grass",
            "0809": "grass",
            "0810": "grass",
            "0811": {"terrain": "grass", "feature": "village"},
        },
        homes={"north": "0805", "south": "0811"},
        armies={"north": ["spearman", "archer", "rider", "druid"], "south": ["goblin", "troll"]},
    )
    assert state["phase"] == "start" and state["awaiting"] == ["north"]
    assert sorted(c for c in legal(state) if "spearman" in c) == [
        "/deploy unit:spearman to:0805",
        "/deploy unit:spearman to:0806",
    ]  # on or next to the own feature
    state, _ = act(state, "/deploy unit:spearman to:0805")
    assert state["awaiting"] == ["south"]
    state, _ = act(state, "/deploy unit:goblin to:0810")
    state, _ = act(state, "/deploy unit:archer to:0806")
    state, _ = act(state, "/deploy unit:troll to:0811")
    # north has no free tile left on or next to 0805: south's turn again, south has nothing left
    assert state["phase"] == "play" and state["active"] == "south"  # south placed last
    assert state["turn"] == 1


def test_at_most_three_starting_units():
    from .helpers import disc

    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        map=disc(3),
        homes={"north": "0805", "south": "0811"},
        armies={"north": ["spearman", "archer", "rider", "druid"], "south": ["goblin"]},
    )
    state, _ = act(state, "/deploy unit:spearman to:0805")
    state, _ = act(state, "/deploy unit:goblin to:0811")
    state, _ = act(state, "/deploy unit:archer to:0806")
    state, _ = act(state, "/deploy unit:rider to:0706")
    # room is left around 0805, but three are placed: play begins with north, the last to place
    assert state["phase"] == "play" and state["active"] == "north"
    assert state["units"]["druid"]["status"] == "reserve"


def test_a_player_may_stop_placing_early():
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        map={
            "0805": {"terrain": "grass", "feature": "village"},
            "0806": "grass",
            "0807": "grass",
            "0808": "grass",
            "0809": "grass",
            "0810": "grass",
            "0811": {"terrain": "grass", "feature": "village"},
        },
        homes={"north": "0805", "south": "0811"},
        armies={"north": ["spearman", "archer"], "south": ["goblin", "troll"]},
    )
    state, _ = act(state, "/deploy unit:spearman to:0805")
    state, _ = act(state, "/done")
    state, _ = act(state, "/deploy unit:archer to:0806")
    assert state["phase"] == "play" and state["active"] == "north"
    assert state["units"]["troll"]["status"] == "reserve"


def test_starting_units_ignore_hazards():
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        map={
            "0805": {"terrain": "grass", "feature": "village"},
            "0806": "lava",
            "0811": {"terrain": "grass", "feature": "village"},
        },
        homes={"north": "0805", "south": "0811"},
        armies={"north": ["spearman"], "south": ["goblin"]},
    )
    state, events = act(state, "/deploy unit:spearman to:0806")
    assert state["units"]["spearman"]["at"] == "0806" and not of(events, "roll")


def test_a_drawn_tile_with_no_place_left_on_the_table_is_set_aside():
    full = {f"{c:02d}{r:02d}": "grass" for c in range(1, 16) for r in range(1, 16)}
    full["0808"] = {"terrain": "grass", "feature": "village"}
    state = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        armies={"north": ["spearman"], "south": ["goblin"]},
        phase="map",
        map=full,
        bag=["water"],
        central="village",
        own_features={"north": "forest", "south": "city"},
        tile_choices={"north": ["water"], "south": ["grass"]},
        tiles_per_player=1,
    )
    assert state["phase"] == "home" and state["drawn"] is None


def test_referee_can_place_and_remove_units():
    from engine.core.game import apply_action

    from .helpers import position

    state = position({"spearman": "0808", "goblin": "reserve"})
    state, events = apply_action(
        RS,
        state,
        {"type": "ref-place", "side": "referee", "unit": "goblin", "to": "0810"},
        fixed([]),
    )
    assert state["units"]["goblin"]["status"] == "map" and state["units"]["goblin"]["at"] == "0810"
    with pytest.raises(RuleError):
        apply_action(
            RS,
            state,
            {"type": "ref-place", "side": "referee", "unit": "goblin", "to": "0808"},
            fixed([]),
        )
    state, _ = apply_action(
        RS, state, {"type": "ref-remove", "side": "referee", "unit": "goblin"}, fixed([])
    )
    assert state["units"]["goblin"]["status"] == "reserve"


def test_setup_refusals_say_why():
    state = fresh()
    state, _ = act(state, "/faction faction:horde")
    with pytest.raises(
        RuleError, match="horde is already taken; .* our data holds one set of each faction"
    ):
        act(state, "/faction faction:horde")
    army = fresh(factions={"north": "clans", "south": "horde"}, order=["north", "south"], points=22)
    with pytest.raises(RuleError, match="An army needs at least one unit"):
        act(army, "/done")
    army, _ = act(army, "/recruit unit:champion")
    with pytest.raises(
        RuleError, match="archer costs 9 points; your army has 14 of 22, 8 left"
    ) as info:
        act(army, "/recruit unit:archer")
    assert sorted(info.value.legal) == ["eagle", "spearman"]
    with pytest.raises(RuleError, match="champion is already in your army"):
        act(army, "/recruit unit:champion")
    with pytest.raises(RuleError, match="'goblin' is not a unit of Highland Clans"):
        act(army, "/recruit unit:goblin")
    building = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        armies={"north": ["spearman"], "south": ["goblin"]},
        phase="map",
        map={"0808": {"terrain": "grass", "feature": "village"}},
        bag=["sand"],
        drawn="marsh",
        central="village",
        own_features={"north": "forest", "south": "city"},
        tile_choices={"north": ["grass"], "south": ["sand"]},
        tiles_per_player=1,
    )
    with pytest.raises(RuleError, match="0811 is not next to the map"):
        act(building, "/place to:0811")
    with pytest.raises(RuleError, match="0808 already holds a tile"):
        act(building, "/place to:0808")
    with pytest.raises(RuleError, match="/place needs to:"):
        act(building, "/place")
    start = fresh(
        factions={"north": "clans", "south": "horde"},
        order=["north", "south"],
        map={
            "0805": {"terrain": "grass", "feature": "village"},
            "0806": "grass",
            "0807": "grass",
            "0808": "grass",
            "0809": "grass",
            "0810": "grass",
            "0811": {"terrain": "grass", "feature": "village"},
        },
        homes={"north": "0805", "south": "0811"},
        armies={"north": ["spearman"], "south": ["goblin"]},
    )
    with pytest.raises(
        RuleError, match=r"Starting units go on or next to your own feature \(0805\)"
    ):
        act(start, "/deploy unit:spearman to:0808")
    with pytest.raises(RuleError, match="'goblin' is not a unit of your army"):
        act(start, "/deploy unit:goblin to:0806")
