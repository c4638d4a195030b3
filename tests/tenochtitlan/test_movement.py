"""Movement: costs, friends and enemies, stacking, ZOC, disorganisation, roads, media, limits."""

import pytest

from engine.core.errors import RuleError

from .helpers import act, build, destinations, grid_map, legal, of_type

# A land strip (column 02) between lake columns; a canoe in column 03 at row r exerts ZOC on
# 02(r-1) and 02(r).
STRIP = ["L.L"] * 8


def strip(*, terrain=STRIP, roads=None, **units):
    spec_map = grid_map(*terrain)
    if roads:
        spec_map["roads"] = roads
    return build({"map": spec_map, "units": units})


def inf(at, **kw):
    return {"type": "sp-infantry", "at": at, **kw}


def test_movement_factor_and_terrain_costs():
    terrain = list(STRIP)
    terrain[2] = "LhL"  # hills at 0203 cost 2
    state = strip(terrain=terrain, i=inf("0201"))
    assert destinations(state, "i") == {"0202", "0203"}  # 1, then 1+2 = 3 = MF
    state = strip(i=inf("0201"))
    assert destinations(state, "i") == {"0202", "0203", "0204"}


def test_friends_may_be_passed_and_a_move_may_stop_on_one_that_then_moves_on():
    # "Am Ende der Bewegungsphase darf sich nur eine Einheit auf jedem Feld befinden": the rule
    # binds the end of the phase, so two units may swap places.
    state = strip(i=inf("0201"), f=inf("0202"), j=inf("0208"))
    assert {"0202", "0204"} <= destinations(state, "i")
    state, _ = act(state, "spanish", "/move unit:i to:0202")
    assert state["units"]["i"]["at"] == state["units"]["f"]["at"] == "0202"
    assert (state["phase"], state["awaiting"]) == ("movement", ["spanish"])
    # The phase cannot end while 0202 holds two, and f must move on before anyone else moves.
    assert not legal(state, "spanish", "end-phase")
    assert {a["unit"] for a in legal(state, "spanish", "move")} == {"f"}
    with pytest.raises(
        RuleError,
        match="0202 holds Spanish Infantry i and Spanish Infantry f; "
        "Spanish Infantry f must move on",
    ):
        act(state, "spanish", "/end-phase")
    with pytest.raises(RuleError, match="at the end of the movement phase: 0202 holds"):
        act(state, "spanish", "/move unit:j to:0207")
    state, _ = act(state, "spanish", "/move unit:f to:0201")  # the swap
    assert (state["units"]["i"]["at"], state["units"]["f"]["at"]) == ("0202", "0201")
    assert legal(state, "spanish", "end-phase")


def test_two_units_on_a_hex_are_announced_shown_and_kept_from_other_phases():
    import io

    from PIL import Image

    import renderer
    from engine.core.dice import fixed
    from engine.core.game import apply_action

    from .helpers import RULES

    state = strip(i=inf("0201"), f=inf("0202"))
    state, events = act(state, "spanish", "/move unit:i to:0202")
    (note,) = of_type(events, "must_move_on")
    assert (note["unit"], note["at"]) == ("f", "0202")
    assert "must move on before the movement phase ends" in RULES.describe_event(state, note)
    # The referee cannot carry two units on a hex into another phase.
    with pytest.raises(RuleError, match="0202 holds .* move one with ref-place"):
        apply_action(
            RULES, state, {"side": "referee", "type": "ref-phase", "phase": "combat"}, fixed([])
        )
    # The picture draws both counters side by side in the hex and outlines it.
    scene = RULES.scene(state, events, None)
    assert [m["at"] for m in scene["markers"] if m["kind"] == "highlight"] == ["0202"]
    assert any("0202 holds" in n for n in scene["notes"])
    img = Image.open(io.BytesIO(renderer.render_png(scene))).convert("RGB")
    x, y = renderer.cell_center(scene["grid"], "0202")
    cell = renderer.layout_for(scene["grid"]).cell

    def reddish(x0, x1, y0, y1):
        box = [
            img.getpixel((px, py))
            for px in range(round(x + x0 * cell), round(x + x1 * cell))
            for py in range(round(y + y0 * cell), round(y + y1 * cell))
        ]
        return sum(1 for p in box if p[0] > 150 and p[1] < 110 and p[2] < 110) / len(box)

    # Two small Spanish counters side by side in the upper half (a single counter would be
    # drawn big and centred, covering the lower half too).
    assert reddish(-0.6, -0.1, -0.55, -0.1) > 0.3 and reddish(0.1, 0.6, -0.55, -0.1) > 0.3
    assert reddish(-0.3, 0.3, 0.15, 0.45) < 0.1


def test_a_move_stops_on_a_friend_only_if_that_friend_can_still_move_on():
    # A disorganised friend, a friend that has moved, or no move left on the card (sp-council
    # allows 2; j has moved) would leave two units on the hex at the end of the phase.
    for friend in (inf("0202", disorganised=True), inf("0202", moved=True)):
        state = strip(i=inf("0201"), f=friend)
        assert "0202" not in destinations(state, "i") and "0203" in destinations(state, "i")
        with pytest.raises(RuleError, match="A unit may stop on a friend only if"):
            act(state, "spanish", "/move unit:i to:0202")
    limited = build(
        {
            "map": grid_map(*STRIP),
            "card": "sp-council",
            "units": {"i": inf("0201"), "f": inf("0202"), "j": inf("0208", moved=True)},
        }
    )
    assert "0202" not in destinations(limited, "i") and "0203" in destinations(limited, "i")
    # A friend may in turn stop on a further friend that can move on: i onto f, f onto g, g on.
    boxed = list(STRIP)
    boxed[4] = "LLL"  # the strip ends at 0204
    chain = strip(terrain=boxed, i=inf("0201"), f=inf("0202"), g=inf("0203"))
    chain, _ = act(chain, "spanish", "/move unit:i to:0202")
    assert destinations(chain, "f") == {"0201", "0203", "0204"}
    chain, _ = act(chain, "spanish", "/move unit:f to:0203")
    assert not legal(chain, "spanish", "end-phase")
    assert destinations(chain, "g") == {"0201", "0204"}  # not onto i, which has moved
    chain, _ = act(chain, "spanish", "/move unit:g to:0204")
    assert legal(chain, "spanish", "end-phase")


def test_enemies_block_movement():
    # A disorganised canoe has no ZOC, so only its hex blocks the way.
    terrain = list(STRIP)
    state = strip(
        terrain=terrain,
        i=inf("0201"),
        w={"type": "az-warriors", "at": "0203", "disorganised": True},
    )
    assert destinations(state, "i") == {"0202"}


def test_entering_enemy_zoc_ends_the_move():
    free = strip(i=inf("0201"))
    assert "0204" in destinations(free, "i")
    state = strip(i=inf("0201"), c={"type": "az-canoe", "at": "0304"})  # ZOC on 0203, 0204
    assert destinations(state, "i") == {"0202", "0203"}


def test_no_move_directly_from_zoc_to_zoc():
    state = strip(i=inf("0203"), c={"type": "az-canoe", "at": "0304"})
    assert "0204" not in destinations(state, "i")
    assert destinations(state, "i") == {"0202", "0201"}
    with pytest.raises(RuleError):
        act(state, "spanish", "/move unit:i to:0204")


def test_units_may_leave_a_zoc_next_turn():
    state = strip(i=inf("0203"), c={"type": "az-canoe", "at": "0304"})
    state, events = act(state, "spanish", "/move unit:i to:0201")
    assert state["units"]["i"]["at"] == "0201" and of_type(events, "moved")


def test_disorganised_units_cannot_move():
    state = strip(i=inf("0201", disorganised=True), j=inf("0208"))
    assert destinations(state, "i") == set()
    with pytest.raises(RuleError, match="disorganised"):
        act(state, "spanish", "/move unit:i to:0202")


def test_disorganised_units_have_no_zoc():
    state = strip(i=inf("0201"), c={"type": "az-canoe", "at": "0304", "disorganised": True})
    assert "0204" in destinations(state, "i")


ROAD = [["0201", "0202", "0203", "0204", "0205", "0206", "0207", "0208"]]


def test_roads_cost_half_a_point_per_hex():
    state = strip(roads=ROAD, i=inf("0201"))
    assert "0207" in destinations(state, "i")  # 6 road hexes for 3 points
    assert "0208" not in destinations(state, "i")


def test_roads_ignore_terrain_that_stops_movement():
    terrain = list(STRIP)
    terrain[2] = "LwL"  # marsh at 0203 stops movement off the road
    off_road = strip(terrain=terrain, i=inf("0201"))
    assert destinations(off_road, "i") == {"0202", "0203"}
    on_road = strip(terrain=terrain, roads=ROAD, i=inf("0201"))
    assert "0207" in destinations(on_road, "i")


def test_road_bonus_lost_when_entering_enemy_zoc():
    state = strip(roads=ROAD, i=inf("0201"), c={"type": "az-canoe", "at": "0305"})  # ZOC 0204/0205
    # 0202 and 0203 by road (1 point), 0204 in ZOC costs a full point and stops the move.
    assert destinations(state, "i") == {"0202", "0203", "0204"}


def test_one_move_per_unit_and_card_move_limit():
    state = build(
        {
            "map": grid_map(*["........"] * 6),
            "card": "sp-council",  # move 2
            "units": {
                "a": inf("0101"),
                "b": inf("0301"),
                "c": inf("0501"),
                "w": {"type": "az-warriors", "at": "0806"},
            },
        }
    )
    state, _ = act(state, "spanish", "/move unit:a to:0102")
    with pytest.raises(RuleError, match="already moved"):
        act(state, "spanish", "/move unit:a to:0103")
    state, _ = act(state, "spanish", "/move unit:b to:0302")
    # The card's limit of two units is used up: no unit may move any more.
    assert legal(state, "spanish", "move") == []
    # Nothing left to decide in the Spanish movement phase, so the game moved on.
    assert (state["active"], state["phase"]) != ("spanish", "movement")


def test_no_half_hexes_off_the_map():
    state = strip(i=inf("0201"))
    with pytest.raises(RuleError):
        act(state, "spanish", "/move unit:i to:0209")
    with pytest.raises(RuleError):
        act(state, "spanish", "/move unit:i to:0901")


def test_land_units_stay_on_land():
    state = strip(i=inf("0201"))
    assert all(lab[:2] == "02" for lab in destinations(state, "i"))
    with pytest.raises(RuleError):
        act(state, "spanish", "/move unit:i to:0101")


# Water map: lake on both sides of a causeway (column 03) with a bridge at 0303.
WATER = ["LL=LL", "LL=LL", "LLbLL", "LL=LL", "LL=LL", "..v.."]


def water(**units):
    m = grid_map(
        *WATER,
        causeways={"c": {"hexes": ["0301", "0302", "0303", "0304", "0305"], "village": "V"}},
        villages={"V": "0306"},
    )
    active = (
        "aztec"
        if any(u["type"].startswith("az") for u in units.values() if u.pop("mover", False))
        else "spanish"
    )
    return build({"map": m, "units": units, "active": active})


def test_water_units_stay_on_water_but_canoes_cross_causeways_and_bridges():
    state = water(c={"type": "az-canoe", "at": "0202", "mover": True})
    dest = destinations(state, "c")
    assert {"0402", "0403", "0404"} <= dest  # across the causeway/bridge
    assert not dest & {"0301", "0302", "0303", "0304", "0305"}  # never stopping on it
    assert not dest & {"0106", "0206", "0306"}  # never on land


def test_canoes_and_brigantines_ignore_zoc():
    state = water(
        c={"type": "az-canoe", "at": "0102", "mover": True}, i={"type": "sp-infantry", "at": "0302"}
    )
    # 0202 is in the infantry's ZOC; the canoe goes on through it.
    assert "0201" in destinations(state, "c") and "0104" in destinations(state, "c")
    assert {"0402", "0401"} & destinations(state, "c")


def test_brigantines_never_cross_bridges_and_need_a_friend_to_cross_a_causeway():
    alone = water(b={"type": "sp-brigantine", "at": "0203"})
    assert all(lab[:2] in ("01", "02") for lab in destinations(alone, "b"))
    # A friend on the bridge 0303 opens nothing: brigantines never cross bridges.
    bridge = water(
        b={"type": "sp-brigantine", "at": "0203"}, i={"type": "sp-infantry", "at": "0303"}
    )
    assert all(lab[:2] in ("01", "02") for lab in destinations(bridge, "b"))
    helped = water(
        b={"type": "sp-brigantine", "at": "0203"}, i={"type": "sp-infantry", "at": "0305"}
    )
    crossed = {lab for lab in destinations(helped, "b") if lab[:2] in ("04", "05")}
    assert crossed and "0405" in crossed


def test_brigantine_crosses_only_where_a_friendly_land_unit_stands_on_the_causeway():
    # "dürfen Dämme überqueren, aber nur dort, wo eine befreundete Landeinheit ist": the friend
    # stands on causeway hex 0301 and the brigantine crosses through it (friends may be passed).
    on = water(b={"type": "sp-brigantine", "at": "0201"}, i={"type": "sp-infantry", "at": "0301"})
    assert "0401" in destinations(on, "b")
    _, events = act(on, "spanish", "/move unit:b to:0401")
    assert of_type(events, "moved")[0]["path"][1:3] == ["0301", "0401"]
    # A friend next to the causeway hexes (in the village 0306 below 0305) opens no crossing.
    beside = water(
        b={"type": "sp-brigantine", "at": "0203"}, i={"type": "sp-infantry", "at": "0306"}
    )
    assert all(lab[:2] in ("01", "02") for lab in destinations(beside, "b"))
    with pytest.raises(RuleError):
        act(beside, "spanish", "/move unit:b to:0405")
    # Nor does an enemy on the causeway, nor a friendly boat.
    enemy = water(
        b={"type": "sp-brigantine", "at": "0201"}, w={"type": "az-warriors", "at": "0301"}
    )
    assert all(lab[:2] in ("01", "02") for lab in destinations(enemy, "b"))
    boat = water(
        b={"type": "sp-brigantine", "at": "0201"}, c={"type": "sp-brigantine", "at": "0202"}
    )
    assert all(lab[:2] in ("01", "02") for lab in destinations(boat, "b"))


def test_brigantine_causeway_crossing_costs_three_points():
    # From 0203: 0204 (1) + causeway 0305 (3) + 0405 (1) = 5 <= 6; one hex further west costs 6+.
    helped = water(
        b={"type": "sp-brigantine", "at": "0203"}, i={"type": "sp-infantry", "at": "0305"}
    )
    assert "0405" in destinations(helped, "b")
    far = water(b={"type": "sp-brigantine", "at": "0101"}, i={"type": "sp-infantry", "at": "0305"})
    # 0101 -> 0205 is 4 hexes of lake; the crossing (3) would bring it to 7 > 6.
    assert not {lab for lab in destinations(far, "b") if lab[:2] in ("04", "05")}


def test_terrain_forbidding_attack_on_entry():
    def after_move(row2):
        m = grid_map("....", row2, "....")
        state = build(
            {
                "map": m,
                "units": {
                    "i": inf("0201"),
                    "j": inf("0303"),
                    "w": {"type": "az-warriors", "at": "0203"},
                },
            }
        )
        state, _ = act(state, "spanish", "/move unit:i to:0202")
        state, _ = act(state, "spanish", "/end-phase")
        assert state["phase"] == "combat"
        return {a["unit"] for a in legal(state, "spanish", "attack")}

    assert after_move("....") == {"i", "j"}
    assert after_move(".w..") == {"j"}  # marsh at 0202: no attack in the turn it is entered


def test_canoes_and_brigantines_pass_through_enemy_zoc_down_a_one_hex_channel():
    channel = grid_map(*([".L."] * 8))
    canoe = build(
        {
            "map": channel,
            "active": "aztec",
            "card": "az-drums",
            "units": {"c": {"type": "az-canoe", "at": "0201"}, "i": inf("0303")},
        }
    )
    # 0203 and 0204 lie in the infantry's ZOC; a land unit would stop there, the canoe goes on.
    assert "0206" in destinations(canoe, "c")
    brig = build(
        {
            "map": channel,
            "units": {
                "b": {"type": "sp-brigantine", "at": "0201"},
                "w": {"type": "az-warriors", "at": "0303"},
            },
        }
    )
    assert "0207" in destinations(brig, "b")
    # Starting inside the ZOC and moving to another ZOC hex is no obstacle either.
    inside = build(
        {
            "map": channel,
            "active": "aztec",
            "card": "az-drums",
            "units": {"c": {"type": "az-canoe", "at": "0203"}, "i": inf("0303")},
        }
    )
    assert "0204" in destinations(inside, "c")


@pytest.mark.parametrize(
    "units, command, english, german",
    [
        (
            {"i": inf("0201")},
            "/move unit:i to:0208",
            "Spanish Infantry i needs 7 movement points to reach 0208 and has 3.",
            "Spanish Infantry i braucht 7 Bewegungspunkte bis 0208 und hat 3.",
        ),
        (
            {"i": inf("0201")},
            "/move unit:i to:0101",
            "Spanish Infantry i cannot enter 0101 (Lake Texcoco): land units do not enter water.",
            "Spanish Infantry i kann 0101 (Texcoco-See) nicht betreten: Landeinheiten betreten "
            "kein Wasser.",
        ),
        (
            {"i": inf("0201")},
            "/move unit:i to:0201",
            "Spanish Infantry i already stands on 0201.",
            "Spanish Infantry i steht schon auf 0201.",
        ),
        (
            {"i": inf("0203"), "c": {"type": "az-canoe", "at": "0303"}},
            "/move unit:i to:0303",
            "0303 holds the enemy War Canoe c; no unit enters an enemy's hex.",
            "Auf 0303 steht der Feind War Canoe c; kein Feld eines Feindes wird betreten.",
        ),
        (
            {"i": inf("0201"), "c": {"type": "az-canoe", "at": "0304"}},
            "/move unit:i to:0205",
            "Entering the enemy zone of control at 0203 ends Spanish Infantry i's move before 0205.",
            "Das Betreten der feindlichen Kontrollzone auf 0203 beendet den Zug von Spanish "
            "Infantry i vor 0205.",
        ),
        (
            {
                "i": inf("0203"),
                "c": {"type": "az-canoe", "at": "0303"},
                "d": {"type": "az-canoe", "at": "0305"},
                "j": inf("0201"),  # a unit that can move keeps the phase open
            },
            "/move unit:i to:0205",
            "Spanish Infantry i stands in an enemy zone of control and may not step straight "
            "into another (0204) on the way to 0205.",
            "Spanish Infantry i steht in einer feindlichen Kontrollzone und darf nicht direkt in "
            "eine andere ziehen (0204) auf dem Weg nach 0205.",
        ),
        (
            {"i": inf("0201"), "w": {"type": "az-warriors", "at": "0204"}},
            "/move unit:i to:0206",
            "Enemy units bar every way Spanish Infantry i could take to 0206; no unit enters "
            "an enemy's hex.",
            "Feindliche Einheiten versperren Spanish Infantry i jeden Weg nach 0206; kein Feld "
            "eines Feindes wird betreten.",
        ),
    ],
)
def test_a_refused_move_gives_its_reason_in_the_games_terms(units, command, english, german):
    # Issue 15: "Rifleman 2 needs 2 movement points to reach E5 and has 1", not a list of rules.
    from cogs.i18n import rule_text

    state = strip(**units)
    with pytest.raises(RuleError) as refused:
        act(state, "spanish", command)
    assert str(refused.value).startswith(english)
    assert rule_text(refused.value, "de").startswith(german)


def test_stopping_terrain_on_the_way_is_named_as_the_reason_a_move_is_refused():
    from cogs.i18n import rule_text

    terrain = list(STRIP)
    terrain[2] = "LwL"  # marsh at 0203 ends the move on entry
    state = strip(terrain=terrain, i=inf("0201"))
    with pytest.raises(RuleError) as refused:
        act(state, "spanish", "/move unit:i to:0204")
    assert str(refused.value).startswith(
        "Entering 0203 (Marsh) ends Spanish Infantry i's move before 0204."
    )
    assert rule_text(refused.value, "de").startswith(
        "Das Betreten von 0203 (Sumpf) beendet den Zug von Spanish Infantry i vor 0204."
    )


def test_a_road_makes_half_points_which_the_refusal_counts():
    # Two road hexes per movement point: 7 road steps cost 3½ of the infantry's 3.
    state = strip(
        roads=[["0201", "0202", "0203", "0204", "0205", "0206", "0207", "0208"]], i=inf("0201")
    )
    with pytest.raises(RuleError, match=r"needs 3½ movement points to reach 0208 and has 3\."):
        act(state, "spanish", "/move unit:i to:0208")
