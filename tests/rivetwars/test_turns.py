from engine.core.dice import fixed
from engine.rivetwars import data
from tests.rivetwars.util import RS, act, legal, make, of, unit

ACTION = sorted(data.cards()["action"])
SECRET = sorted(data.cards()["secret"])
M3 = {"mission": "mission-3", "terrain": {}}


def test_initiative_is_rolled_and_ties_are_rolled_again():
    scenario = RS.build_scenario(
        {"mission": "mission-3", "decks": {"action": ACTION, "secret": SECRET}}
    )
    dice = fixed([3, 3, 2, 5])
    state, events = RS.setup(scenario, dice)
    assert [e["value"] for e in of(events, "roll")] == [3, 3, 2, 5]
    assert of(events, "initiative_tie") and state["order"] == ["bismark", "allies"]
    assert state["active"] == "bismark"


def test_each_round_starts_with_a_new_initiative_roll():
    state = make(
        **M3,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        decks={"action": ACTION, "secret": SECRET},
    )
    state, events = act(state, "end-phase", dice=[6, 1])
    assert (
        state["turn"] == 2
        and state["order"] == ["allies", "bismark"]
        and state["active"] == "allies"
    )
    state = make(
        **M3,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        decks={"action": ACTION, "secret": SECRET},
    )
    state, _ = act(state, "end-phase", dice=[2, 4])
    assert state["order"] == ["bismark", "allies"] and state["active"] == "bismark"


def test_the_second_side_of_a_round_follows_without_rolling():
    state = make(
        **M3,
        phase="move",
        active="allies",
        order=["allies", "bismark"],
        decks={"action": ACTION, "secret": SECRET},
    )
    state, events = act(state, "end-phase")
    assert state["active"] == "bismark" and state["turn"] == 1 and not of(events, "roll")


def test_card_phase_discard_one_then_draw_one():
    state = make(
        **M3,
        phase="card",
        hands={"allies": ["ac01", "ac02", "ac03"]},
        decks={"action": ["ac10", "ac11"], "secret": ["sm01", "sm02", "sm03"]},
    )
    assert {a["card"] for a in legal(state, "discard")} == {"ac01", "ac02", "ac03"}
    state, events = act(state, "discard", card="ac01")
    assert state["hands"]["allies"] == ["ac02", "ac03", "ac10"]
    assert state["decks"]["action_discard"] == ["ac01"]
    assert state["secrets"]["allies"] == ["sm01", "sm02"] and state["phase"] == "deploy"


def test_full_hand_draws_no_action_card_and_secret_missions_fill_to_two():
    state = make(
        **M3,
        phase="card",
        hands={"allies": ["ac01", "ac02", "ac03"]},
        secrets={"allies": ["sm05"]},
        decks={"action": ["ac10"], "secret": ["sm01", "sm02"]},
    )
    state, _ = act(state, "end-phase")
    assert state["hands"]["allies"] == ["ac01", "ac02", "ac03"]
    assert state["secrets"]["allies"] == ["sm05", "sm01"]


def test_no_action_card_on_the_games_very_first_turn():
    scenario = RS.build_scenario(
        {"mission": "mission-3", "first": "allies", "decks": {"action": ACTION, "secret": SECRET}}
    )
    state, _ = RS.setup(scenario, fixed([]))
    assert state["hands"]["allies"] == [] and state["secrets"]["allies"] == SECRET[:2]
    for _ in range(3):
        state, _ = act(state, "end-phase")  # deploy, combat, move
    assert state["active"] == "bismark" and state["phase"] == "deploy"
    assert state["hands"]["bismark"] == [ACTION[0]] and state["secrets"]["bismark"] == SECRET[2:4]


def test_mission_1_draws_no_cards():
    state = make(phase="card", decks={"action": ACTION, "secret": SECRET})
    state, _ = act(state, "end-phase")
    assert state["hands"]["allies"] == [] and state["secrets"]["allies"] == []
    assert state["decks"]["action"] == ACTION


def test_deployment_spends_points_and_rivets_unspent_points_are_lost_rivets_kept():
    state = make(
        phase="deploy",
        resources={"allies": {"points": 5, "rivets": 1}, "bismark": {"points": 4, "rivets": 0}},
        rivets={"allies": 1},
    )
    assert state["points"]["allies"] == 5 and state["rivets"]["allies"] == 2
    state, events = act(state, "deploy", unit="hammer", to="C11")
    assert state["points"]["allies"] == 2 and state["rivets"]["allies"] == 1
    assert state["units"]["hammer-1"]["at"] == "C11"
    state, _ = act(state, "deploy", unit="rifleman", to="C11")
    assert state["units"]["rifleman-1"]["at"] == "D11"  # next free square of the segment
    state, events = act(state, "end-phase")
    assert of(events, "points_lost")[0]["points"] == 1
    assert (
        state["points"]["allies"] == 0
        and state["rivets"]["allies"] == 1
        and state["phase"] == "combat"
    )


def test_deployment_only_into_own_deployment_segments():
    state = make(phase="deploy")
    assert {a["to"] for a in legal(state, "deploy")} == {"C11", "I11", "O11"}
    assert {a["unit"] for a in legal(state, "deploy")} == {
        "rifleman",
        "rocket-bike",
    }  # 4 points, 0 rivets


def test_no_deployment_where_the_unit_could_not_move():
    units = [unit("panzerfaust", "I11")] + [
        unit("rifleman", sq) for sq in ("O11", "P11", "O12", "P12")
    ]
    state = make(phase="deploy", terrain={"bunker": ["C11"]}, units=units)
    deploys = {(a["unit"], a["to"]) for a in legal(state, "deploy")}
    assert ("rifleman", "C11") in deploys and (
        "rocket-bike",
        "C11",
    ) not in deploys  # bunker: infantry only
    assert not any(
        to in ("I11", "O11") for _, to in deploys
    )  # enemy there / segment full (4 units)


def test_a_hero_is_deployed_once_per_game():
    res = {"allies": {"points": 9, "rivets": 3}, "bismark": {"points": 4, "rivets": 0}}
    state = make(phase="deploy", resources=res)
    state, _ = act(state, "deploy", unit="parman", to="C11")
    assert "parman" in state["heroes_used"] and not [
        a for a in legal(state, "deploy") if a["unit"] == "parman"
    ]
    gone = make(phase="deploy", resources=res, heroes_used=["parman"])  # eliminated earlier
    assert not [a for a in legal(gone, "deploy") if a["unit"] == "parman"]


def test_a_heros_two_versions_are_never_on_the_board_together():
    roster = {
        "parman": {"hero_group": "parman"},
        "parman-general": {
            "side": "allies",
            "name": "Parman (plug-in)",
            "class": "infantry",
            "count": 1,
            "hero": True,
            "plugin": True,
            "hero_group": "parman",
            "cost": 1,
            "rivets": 0,
            "loot": 2,
            "weapons": [],
            "abilities": [],
        },
    }
    res = {"allies": {"points": 9, "rivets": 3}, "bismark": {"points": 4, "rivets": 0}}
    both = make(
        phase="deploy",
        resources=res,
        roster=roster,
        units=[unit("parman", "A9"), unit("wolverine", "C9")],
    )
    assert not [a for a in legal(both, "deploy") if a["unit"] == "parman-general"]
    later = make(
        phase="deploy",
        resources=res,
        roster=roster,
        heroes_used=["parman"],
        units=[unit("wolverine", "C9")],
    )
    assert {
        "type": "deploy",
        "side": "allies",
        "unit": "parman-general",
        "to": "wolverine-1",
    } in legal(later, "deploy")


def test_plug_ins_go_into_a_free_socket_of_an_own_unit_in_own_territory():
    res = {"allies": {"points": 9, "rivets": 3}, "bismark": {"points": 4, "rivets": 0}}
    state = make(
        phase="deploy",
        resources=res,
        units=[
            unit("wolverine", "C9", id="home"),
            unit("ostrich", "E5", id="front"),
            unit("rifleman", "A9", id="rifle"),
        ],
    )
    hosts = {a["to"] for a in legal(state, "deploy") if a["unit"] == "patston"}
    assert hosts == {"home"}  # the ostrich stands in no-man's-land, riflemen have no socket
    state, events = act(state, "deploy", unit="patston", to="home")
    assert state["units"]["home"]["plugins"] == ["patston"]
    assert not [
        a for a in legal(state, "deploy") if a["unit"] == "hacksaw"
    ]  # the only socket is taken
    assert RS.hp(state, "home") == 5  # the general adds his hit point to the fused unit


def test_deployment_refusals_say_why():
    import pytest

    from engine.core.errors import RuleError

    state = make(phase="deploy", terrain={"bunker": ["C11"]})
    for opts, words in (
        ({"unit": "rifleman", "to": "E11"}, "not one of your deployment segments"),
        ({"unit": "hammer", "to": "I11"}, "costs 3 points and 1 rivets"),
        ({"unit": "rocket-bike", "to": "C11"}, "only infantry may enter a bunker"),
        ({"unit": "panzerfaust", "to": "I11"}, "not one of your unit types"),
    ):
        with pytest.raises(RuleError, match=words):
            act(state, "deploy", **opts)
