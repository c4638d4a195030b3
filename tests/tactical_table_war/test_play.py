"""The game as a whole: autoplay, scenarios, data, the picture."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from engine.core.dice import fixed, seeded
from engine.core.errors import RuleError, ScenarioError
from engine.core.game import autoplay, replay
from engine.core.state import state_hash
from engine.tactical_table_war import data as ttw_data
from engine.tactical_table_war.board import distance

from .helpers import RS, of, play, position


@pytest.mark.parametrize("scenario", ["prepared-battlefield", "free-play"])
def test_autoplay_finishes_and_replays_for_many_seeds(scenario):
    data = dict(RS.load_scenario(scenario), last_turn=4)
    for seed in range(6):
        state, actions = autoplay(RS, data, seed)
        assert state["result"] and state["result"]["reason"]
        if seed == 0:
            replayed, _ = replay(RS, data, seed, actions)
            assert state_hash(replayed) == state_hash(state)


def test_the_prepared_battlefield_has_four_capture_points_and_a_central_fortress_at_fixed_distances():
    for seed in (1, 2):
        state, _ = RS.setup(RS.load_scenario("prepared-battlefield"), seeded(seed, 0))
        points = sorted(state["capture_points"])
        assert len(points) == 4
        fortress = [lab for lab, b in state["buildings"].items() if b["kind"] == "fortress"]
        assert fortress == ["0705"] and state["buildings"]["0705"]["occupant"] is None
        red, blue = state["castles"]["red"], state["castles"]["blue"]
        assert sorted(min(distance(p, red), distance(p, blue)) for p in points) == [4, 4, 4, 4]
        assert {distance(p, "0705") for p in points} == {3}
        assert distance(red, "0705") == distance(blue, "0705")
    # ...while the rest of the landscape differs from seed to seed.
    a, _ = RS.setup(RS.load_scenario("prepared-battlefield"), fixed([1] * 200))
    b, _ = RS.setup(RS.load_scenario("prepared-battlefield"), fixed([3] * 200))
    assert a["tiles"] != b["tiles"] and a["tiles"]["0705"] == b["tiles"]["0705"] == "hill"


def test_capture_points_yield_treasure_to_the_side_standing_on_them():
    state = position(
        [("r1", "red", "sword", "0503"), ("b1", "blue", "sword", "0806")],
        phase="attack",
        active="blue",
        capture_points=["0503", "0507"],
    )
    state, events = play(state, "blue", "/end-phase")
    assert of(events, "treasure")[0]["dice"] == 3 and state["capture_points"]["0503"] == "red"


def test_data_must_agree_with_the_numbers_the_expansion_fixes(monkeypatch):
    original = ttw_data.read_json

    def tampered(path):
        loaded = original(path)
        if path.name == "buildings.json":
            loaded["engines"]["catapult"]["range"] = 6
        return loaded

    monkeypatch.setattr(ttw_data, "read_json", tampered)
    with pytest.raises(ScenarioError, match="engines.catapult.range: must be 5"):
        ttw_data.Catalogue.load()


def test_every_data_file_says_it_is_our_approximation():
    for path in sorted(ttw_data.DATA_DIR.rglob("*.json")):
        comment = json.loads(path.read_text(encoding="utf-8")).get("_comment", "")
        assert "authored approximation" in comment, path


def test_the_expansions_supply_is_fifteen_double_sided_tiles_and_four_engine_tiles():
    assert len(RS.cat.supply) == 15 and all(len(set(pair)) == 2 for pair in RS.cat.supply)
    assert len(RS.cat.engine_supply) == 4


def test_scenario_errors_name_the_entry():
    from .helpers import scenario

    bad = scenario([("r1", "red", "bow", "0303"), ("r2", "red", "bow", "0303")])
    with pytest.raises(ScenarioError, match=r"units\[1\].at"):
        RS.scenario_from_data(bad, "t")
    with pytest.raises(ScenarioError, match="no such scenario"):
        RS.load_scenario("../../etc/passwd")


def test_picture_shows_units_buildings_and_attack_routes():
    renderer = pytest.importorskip("renderer")
    state = position(
        [
            ("r1", "red", "bow", "0303"),
            {"id": "b1", "side": "blue", "type": "sword", "at": "0503", "weakening": [2]},
            ("b2", "blue", "settler", "0606"),
        ],
        prebuilt=[{"kind": "quarry", "at": "0606", "counter": 4}],
    )
    state, events = play(state, "red", "/attack unit:r1 target:b1", [1, 6])
    scene = RS.scene(state, events, None)
    assert {p["id"]: p.get("badge") for p in scene["pieces"]} == {"r1": None, "b1": "3", "b2": None}
    assert [o["name"] for o in scene["objectives"]] == ["Castle 0/6", "Castle 0/6", "Quarry 0/6 c4"]
    assert scene["arrows"][0]["kind"] == "attack" and scene["arrows"][0]["path"] == ["0303", "0503"]
    image = Image.open(io.BytesIO(renderer.render_png(scene)))
    assert image.format == "PNG" and image.size[0] > 200


def test_a_construction_is_named_under_its_hex_and_hides_no_hex_label():
    renderer = pytest.importorskip("renderer")
    state = position(
        [
            ("r1", "red", "settler", "0404"),
            ("r2", "red", "shoe", "0404"),
            ("b1", "blue", "sword", "0806"),
        ],
        constructions=[{"kind": "catapult", "settler": "r1", "crew": "r2"}],
    )
    scene = RS.scene(state, [], None)
    assert [o["name"] for o in scene["objectives"] if o["at"] == "0404"] == ["Catapult (building)"]
    _, record = renderer.render_with_layout(scene)
    covered = [
        (label, pid)
        for label, box in record.cell_labels.items()
        for pid, counter in record.counters
        if min(box[2], counter[2]) - max(box[0], counter[0]) > 1
        and min(box[3], counter[3]) - max(box[1], counter[1]) > 1
    ]
    assert not covered and not scene["markers"]


def _ref(state, **action):
    from engine.core.dice import NoDice
    from engine.core.game import apply_action

    return apply_action(RS, state, {"side": "referee", **action}, NoDice())


def test_referee_edits_keep_buildings_and_constructions_consistent():
    from engine.core.errors import RuleError

    state = position(
        [
            ("r1", "red", "settler", "0303"),
            ("r2", "red", "bow", "0101"),
            ("b1", "blue", "sword", "0806"),
        ],
        prebuilt=[{"kind": "quarry", "at": "0303", "counter": 2}],
    )
    moved, _ = _ref(state, type="ref-place", unit="r1", to="0404")
    assert moved["buildings"]["0303"]["occupant"] is None and moved["units"]["r1"]["at"] == "0404"
    back, _ = _ref(moved, type="ref-place", unit="r1", to="0303")
    assert back["buildings"]["0303"]["occupant"] == "r1"
    removed, _ = _ref(state, type="ref-remove", unit="r1")
    assert "r1" not in removed["units"] and removed["buildings"]["0303"] == {
        **state["buildings"]["0303"],
        "occupant": None,
    }
    assert RS.legal_actions(removed, "red")  # still a sound state
    with pytest.raises(RuleError):
        _ref(state, type="ref-place", unit="r1", to="0806")  # occupied
    with pytest.raises(RuleError):
        _ref(state, type="ref-phase", phase="nap")
    prepared, events = _ref(state, type="ref-phase", phase="preparation", value="blue")
    assert (
        prepared["phase"] == "movement" and prepared["active"] == "blue" and of(events, "treasure")
    )


def test_hostile_scenario_files_are_refused_with_a_scenario_error():
    import random

    from .helpers import scenario

    rng = random.Random(4)
    junk = [None, 0, -1, 10**9, "x" * 300, [], {}, [1, 2], {"a": 1}, "0303", True]
    base = scenario(
        [
            ("r1", "red", "bow", "0303"),
            ("b1", "blue", "sword", "0603"),
            ("r2", "red", "settler", "0303"),
        ],
        prebuilt=[{"kind": "quarry", "at": "0505"}],
        outposts=[{"side": "red", "at": "0202"}],
        fortress_values={"red": {"range": 5, "strength": 10}},
        constructions=[{"kind": "fortress", "settler": "r2", "crew": "r1"}],
    )
    cases = []
    for key in list(base):
        for _ in range(4):
            cases.append({**base, key: rng.choice(junk)})
    for listed in ("units", "prebuilt", "outposts", "constructions"):
        for field in list(base[listed][0]) + [
            "weakening",
            "level",
            "damage",
            "counter",
            "training",
        ]:
            for _ in range(3):
                entry = {**base[listed][0], field: rng.choice(junk)}
                cases.append({**base, listed: [entry] + base[listed][1:]})
    for bad in cases:
        try:
            checked = RS.scenario_from_data(bad, "t")
        except ScenarioError:
            continue
        RS.setup(checked, fixed([1] * 200))  # what passes must set up


def test_a_scenario_can_hold_constructions_and_training_in_progress():
    state = position(
        [
            ("r1", "red", "settler", "0303"),
            ("r2", "red", "bow", "0303"),
            {
                "id": "r3",
                "side": "red",
                "type": "recruit",
                "at": "0202",
                "training": {"type": "shoe", "level": "simple"},
            },
            ("b1", "blue", "sword", "0806"),
        ],
        constructions=[{"kind": "fortress", "settler": "r1", "crew": "r2"}],
        phase="attack",
        active="blue",
    )
    assert (
        state["constructions"]["0303"]["crew"] == "r2"
        and state["units"]["r3"]["training"]["type"] == "shoe"
    )
    state, _ = play(state, "blue", "/end-phase")  # red's preparation finishes both
    assert (
        state["buildings"]["0303"]["kind"] == "fortress" and state["units"]["r3"]["type"] == "shoe"
    )
    from .helpers import scenario

    with pytest.raises(ScenarioError, match="no other unit stands on"):
        RS.scenario_from_data(
            scenario([("r1", "red", "settler", "0303"), ("r2", "red", "bow", "0303")]), "t"
        )
    with pytest.raises(ScenarioError, match=r"constructions\[0\].crew"):
        RS.scenario_from_data(
            scenario(
                [("r1", "red", "settler", "0303"), ("r2", "red", "sword", "0303")],
                constructions=[{"kind": "fortress", "settler": "r1", "crew": "r2"}],
            ),
            "t",
        )
    with pytest.raises(ScenarioError, match=r"units\[0\].training"):
        RS.scenario_from_data(
            scenario(
                [
                    {
                        "id": "r1",
                        "side": "red",
                        "type": "bow",
                        "at": "0303",
                        "training": {"type": "sword", "level": "simple"},
                    }
                ]
            ),
            "t",
        )


def test_events_and_options_read_as_words():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0303")],
        outposts=[{"side": "blue", "at": "0202"}],
    )
    assert RS.describe(state, "target", "b1") == "Blue Swordsman b1 at 0303"
    assert RS.describe(state, "target", "0202") == "the blue outpost at 0202"
    _, events = play(state, "red", "/attack unit:r1 target:b1", [4, 3])
    lines = [RS.describe_event(state, e) for e in events]
    assert "Swordsman r1 (5+⚄4=9) vs Swordsman b1 (5+0+⚄3-0=8): killed" in lines
    assert "Swordsman b1 eliminated at 0303" in lines


def test_the_landscape_is_explored_as_units_move():
    from .helpers import scenario

    data = scenario(
        [("r1", "red", "shoe", "0204"), ("b1", "blue", "sword", "0804")],
        phase="movement",
        tiles={},
        explore=True,
    )
    data["fixed_tiles"] = {}
    state, events = RS.setup(RS.scenario_from_data(data, "t"), fixed([1] * 200))
    assert "0504" not in state["tiles"] and "0304" in state["tiles"]  # two hexes around r1
    assert not [a for a in RS.legal_actions(state, "red") if a.get("to") == "0604"]
    state, events = play(state, "red", "/move unit:r1 to:0404", [3] * 20)
    explored = dict(of(events, "explored")[0]["tiles"])
    assert "0504" in explored and state["tiles"]["0504"] == "forest"  # face 3 is forest
    assert len(of(events, "roll")) == len(explored)
    everything = RS.setup(RS.scenario_from_data({**data, "explore": False}, "t"), fixed([1] * 200))[
        0
    ]
    assert len(everything["tiles"]) == 9 * 7


def test_scenario_files_are_checked_against_the_schema_before_their_meaning():
    doc = json.loads((ttw_data.SCENARIO_DIR / "free-play.json").read_text(encoding="utf-8"))
    assert RS.load_document(json.dumps(doc).encode(), "mine.json")["name"] == "free-play"
    for bad, entry in [
        (
            {**doc, "units": [{"id": "r1", "side": "red", "type": "dragon", "at": "0303"}]},
            "/units/0/type",
        ),
        ({**doc, "columns": 13.0}, "/columns"),
        ({**doc, "castles": {"red": "0105"}}, "/castles"),
        ({**doc, "cheat": True}, "/cheat"),
    ]:
        with pytest.raises(ScenarioError) as info:
            RS.load_document(json.dumps(bad).encode(), "mine.json")
        assert (info.value.file, info.value.entry) == ("mine.json", entry), str(info.value)
    # a name from Discord never becomes a path
    for name in (
        "../tactical-table-war/scenarios/free-play.json",
        str(ttw_data.SCENARIO_DIR / "free-play.json"),
    ):
        with pytest.raises(ScenarioError):
            RS.load_packaged(name)


def test_every_game_event_a_player_should_read_has_a_line():
    """The local table and Discord print the ruleset's lines: a recruit, a training ordered or
    a landscape explored must not pass in silence."""
    silent = {"roll", "phase_started", "phase_ended", "side_started", "turn_started", "turn_limit"}
    seen: dict = {}
    for scenario in ("prepared-battlefield", "free-play"):
        data = dict(RS.load_scenario(scenario), last_turn=6)
        for seed in range(4):
            autoplay(
                RS,
                data,
                seed,
                on_action=lambda i, side, action, events, state: [
                    seen.setdefault(e["type"], (state, e)) for e in events
                ],
            )
    assert {"recruited", "training_started", "explored", "weakening_removed", "combat"} <= set(seen)
    mute = sorted(
        kind
        for kind, (state, e) in seen.items()
        if kind not in silent and not RS.describe_event(state, e)
    )
    assert not mute
    state, e = seen["scatter"] if "scatter" in seen else seen["ballista"]
    assert "[" not in RS.describe_event(state, e)


@pytest.mark.parametrize(
    "tiles, units, to, english, german",
    [
        (
            {},
            [],
            "0207",
            "r1 needs 4 steps to reach 0207 and has speed 2.",
            "r1 braucht 4 Schritte bis 0207 und hat Geschwindigkeit 2.",
        ),
        (
            {"0304": "lake"},
            [],
            "0304",
            "No unit enters 0304 (Lake).",
            "Keine Einheit betritt 0304 (See).",
        ),
        (
            {},
            [("b2", "blue", "sword", "0303")],
            "0303",
            "0303 holds the enemy b2; no unit enters an enemy's hex.",
            "Auf 0303 steht der Feind b2; kein Feld eines Feindes wird betreten.",
        ),
        (
            {},
            [],
            "0904",
            "0904 is the enemy castle; no unit enters it.",
            "0904 ist die feindliche Burg; keine Einheit betritt sie.",
        ),
        (
            {"0202": "lake", "0302": "lake", "0303": "lake", "0204": "lake", "0304": "lake"},
            [("b2", "blue", "sword", "0103"), ("b3", "blue", "sword", "0104")],
            "0205",
            "Enemy units, lakes or the enemy castle bar every way r1 could take to 0205.",
            "Feindliche Einheiten, Seen oder die feindliche Burg versperren r1 jeden Weg nach "
            "0205.",
        ),
    ],
)
def test_a_refused_move_says_why_in_the_games_terms(tiles, units, to, english, german):
    # Issue 15: the reason (steps needed and speed, a lake, an enemy there), not the rules list.
    from cogs.i18n import rule_text

    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0806"), *units],
        phase="movement",
        tiles=tiles,
    )
    with pytest.raises(RuleError) as refused:
        play(state, "red", f"/move unit:r1 to:{to}")
    assert str(refused.value).startswith(english)
    assert rule_text(refused.value, "de").startswith(german)
