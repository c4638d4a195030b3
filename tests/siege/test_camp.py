"""The camp (rulebook 3.1-3.2): its terrain, shots over it and its picture.

Sight rules are checked on our small lane maps (tests/siege/maps/camp-*.json: a line along a
column crosses only that column), the rest through commands on the packaged camp map."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from engine.core.errors import RuleError, ScenarioError
from engine.core.game import autoplay, replay
from engine.core.state import state_hash
from engine.siege import data, sight
from engine.siege.scenarios import normalise
from renderer import render_png
from tests.discord.conftest import clock, db_path, dice, reply_text, table  # noqa: F401

from .helpers import RULES, act, build, legal, of

MAPS = Path(__file__).resolve().parent / "maps"
LONGBOW = data.fire()["weapons"]["longbow"]["bands"]
FAR = {"far": ("peasant", "defender", "2401")}


def _board(name: str = "camp-sight"):
    return data.load_board(MAPS / f"{name}.json", name)


def _look(shooter, target, living=None, board=None, **kw):
    return sight.look(board or _board(), living or {}, shooter, target, bands=LONGBOW, **kw)


def test_a_thicket_lets_shots_through_with_light_cover_and_covers_a_figure_in_it():
    through = _look("0101", "0105")
    assert through.possible and through.cover == "light"
    assert "0103" in through.reasons[-2] and "(3.21)" in through.reasons[-2]
    inside = _look("0101", "0103")
    assert inside.possible and inside.cover == "light"
    assert any("in a thicket: light cover (3.21)" in r for r in inside.reasons)
    assert _look("0601", "0605").cover == "none"  # the same line over open ground


def test_a_tree_between_blocks_but_a_figure_in_a_tree_can_be_hit():
    through = _look("0201", "0205")
    assert not through.possible and "0203: a tree stands between" in through.reasons[-1]
    into = _look("0201", "0203")
    assert into.possible and into.cover == "medium"
    out_of = _look("0203", "0205")  # from a tree: no tree *between* the two cells
    assert out_of.possible


def test_tents_take_shots_in_but_not_through_until_burnt():
    through = _look("0301", "0305")
    assert not through.possible and "(3.24)" in through.reasons[-1]
    into = _look("0301", "0303")
    assert into.possible and into.cover == "light"
    assert _look("0303", "0305").possible  # out of a tent: its own tent is not "through"
    burnt = _look("0401", "0405")  # column 04: the same tent burnt down
    assert burnt.possible and burnt.cover == "none"
    on_ashes = _look("0401", "0403")
    assert on_ashes.possible and on_ashes.cover == "none"


def test_trenches_let_shots_through_past_figures_in_them_and_give_heavy_cover():
    # At short range a figure in the line blocks (1.42), but not one in a trench (3.25).
    living = {"0503": "Digger"}
    through = _look("0501", "0505", living)
    assert through.band == "short" and through.possible and through.cover == "none"
    assert "do not hinder the shot (3.25)" in through.reasons[-2]
    blocked = _look("0601", "0605", {"0603": "Walker"})
    assert not blocked.possible
    into = _look("0501", "0503")
    assert into.possible and into.cover == "heavy"


def test_over_the_slope_edge_the_lower_figure_must_stand_at_least_as_far_from_it():
    # Column 08: hilltop 0801-0804, slope 0805, plain from 0806; the edge lies after 0804.
    hidden = _look("0801", "0806")  # 3 from the edge up there, 2 below: no shot
    assert not hidden.possible
    assert (
        "0804: the slope edge hides 0806: it stands 2 from the edge, closer than 0801 (3)"
        in (hidden.reasons[-1])
    )
    assert not _look("0806", "0801").possible  # and not upwards either
    seen = _look("0801", "0807")  # 3 and 3
    assert seen.possible and seen.cover == "none"
    assert _look("0807", "0801").possible
    near = _look("0803", "0806")  # 1 and 2
    assert near.possible


def test_a_lower_figure_on_the_slope_and_the_upper_one_shoot_at_each_other():
    down = _look("0801", "0805")
    assert down.possible and "stands on a slope: both may shoot (3.23)" in " ".join(down.reasons)
    assert _look("0805", "0801").possible


def test_a_figure_on_the_slope_edge_has_light_cover_when_the_line_crosses_it():
    top_of_edge = _look("0808", "0804")
    assert top_of_edge.possible and top_of_edge.cover == "light"
    assert any("on the slope edge: light cover (3.23)" in r for r in top_of_edge.reasons)
    below_edge = _look("0801", "0805")
    assert below_edge.cover == "light"
    # No edge crossed: a slope cell alone gives no cover and does not block.
    lone = _look("1101", "1103")
    assert lone.possible and lone.cover == "none"
    on_lone = _look("1106", "1102")
    assert on_lone.possible and on_lone.cover == "none"


def test_slope_cells_do_not_block_but_the_hilltop_between_two_lower_figures_does():
    assert _look("1101", "1104").possible  # over the lone slope cell 1102
    over_hill = _look("1001", "1005")
    assert not over_hill.possible and "1003: the top of the hill" in over_hill.reasons[-1]


def test_range_counts_the_slope_cell_but_not_the_parapet():
    assert _look("0805", "0809").distance == 4
    castle = data.load_board(MAPS / "example-1-45.json", "example-1-45")
    from_parapet = sight.look(castle, {}, "0504", "0507", bands=LONGBOW)
    assert from_parapet.from_wall and from_parapet.distance == 2  # 3 cells, counted from the wall


def test_a_line_along_a_hexside_passes_on_its_open_side():
    sides = _board("camp-sides")
    assert _look("0103", "0303", board=sides).possible  # tree on one side, open ground on the other
    both = _look("0503", "0703", board=sides)
    assert not both.possible and "blocked on both sides" in both.reasons[-1]
    thicket = _look("0903", "1103", board=sides)
    assert (
        thicket.possible and thicket.cover == "light" and "thicket in 1003" in thicket.reasons[-2]
    )


def test_from_the_top_of_a_siege_tower_trees_still_block_thickets_and_slopes_give_no_cover():
    board = _board()
    top = {"towers": {"0101": "t", "0201": "t", "0301": "t"}, "shooter_top": True}
    tree = sight.look(board, {}, "0201", "0205", bands=LONGBOW, **top)
    assert not tree.possible and "tree" in tree.reasons[-1]
    thicket = sight.look(board, {}, "0101", "0105", bands=LONGBOW, **top)
    assert thicket.possible and thicket.cover == "none"
    in_thicket = sight.look(board, {}, "0101", "0103", bands=LONGBOW, **top)
    assert in_thicket.possible and in_thicket.cover == "none"
    assert any("(2.43)" in r for r in in_thicket.reasons)
    on_slope = sight.look(
        board, {}, "0801", "0805", bands=LONGBOW, towers={"0801": "t"}, shooter_top=True
    )
    assert on_slope.possible and on_slope.cover == "none"
    # A tent is a lower obstacle from the platform (reading C6).
    assert sight.look(board, {}, "0301", "0305", bands=LONGBOW, **top).possible


# ----- through the game, on the packaged camp map -------------------------------------------


def camp(figs: dict, **extra) -> dict:
    return build({**figs, **FAR}, map="camp", **extra)


def test_a_scenario_chooses_the_camp_map_and_its_terrain_table():
    state = camp({"a": ("archer", "besieger", "0406")})
    board = RULES.board(state)
    kinds = {board.cell(c).kind for c in board.labels()}
    assert {"open", "thicket", "tree", "slope", "hilltop", "tent", "trench"} <= kinds
    with pytest.raises(ScenarioError, match="unknown map; known: castle, camp"):
        normalise(
            {
                "map": "swamp",
                "figures": {"x": {"type": "knight", "side": "besieger", "at": "0101"}},
            },
            "f.json",
            "f",
        )
    with pytest.raises(ScenarioError, match="burnt_tents"):
        camp({"a": ("archer", "besieger", "0406")}, burnt_tents=["0406"])  # not a tent


def test_shots_into_and_through_tents_through_the_game_and_burnt_tents_let_them_pass():
    figs = {"a": ("archer", "besieger", "0406"), "t": ("man-at-arms", "defender", "0410")}
    state = camp(figs)
    assert not [x for x in legal(state, "besieger", "shoot") if x["target"] == "t"]
    with pytest.raises(RuleError, match="A cannot shoot at T: 0408: a tent"):
        act(state, "besieger", "/shoot unit:a target:t", dice=[9])
    assert "0408: a tent" in RULES.los(state, "0406", "0410")
    in_tent = camp({"a": ("archer", "besieger", "0406"), "t": ("man-at-arms", "defender", "0408")})
    _, events = act(in_tent, "besieger", "/shoot unit:a target:t", dice=[9])
    assert of(events, "shot")[0]["cover"] == "light"
    burnt = camp(figs, burnt_tents=["0408"])
    _, events = act(burnt, "besieger", "/shoot unit:a target:t", dice=[9])
    assert of(events, "shot")[0]["cover"] == "none"


def test_a_figure_in_a_trench_has_heavy_cover_through_the_game():
    state = camp(
        {"a": ("archer", "defender", "0313"), "t": ("man-at-arms", "besieger", "0317")},
        first="defender",
    )
    _, events = act(state, "defender", "/shoot unit:a target:t", dice=[9])
    assert of(events, "shot")[0]["cover"] == "heavy"


@pytest.mark.parametrize(
    ("start", "goal", "cost"),
    [
        ("0711", "0712", 2),  # thicket
        ("0309", "0310", 2),  # tree
        ("0407", "0408", 2),  # tent
        ("0316", "0317", 1),  # trench
        ("1808", "1807", 2),  # slope
        ("1807", "1806", 1),  # top of the hill
    ],
)
def test_movement_costs_of_the_camp_terrain(start, goal, cost):
    state = camp({"m": ("man-at-arms", "besieger", start)}, phase="move")
    _, events = act(state, "besieger", f"/move unit:m to:{goal}")
    assert of(events, "moved")[0]["cost"] == cost


def test_a_defender_in_a_trench_fights_on_favourable_terrain():
    state = camp(
        {"k": ("knight", "besieger", "0318"), "d": ("man-at-arms", "defender", "0317")},
        phase="melee",
    )
    state, _ = act(state, "besieger", "/attack unit:k target:d")
    _, events = act(state, "besieger", "/fight", dice=[5])
    melee = of(events, "melee")[0]
    assert "defender on 0317 trench (+): -1" in melee["text"]


def test_los_on_the_camp_explains_the_slope_edge():
    state = camp({"a": ("archer", "defender", "1805"), "t": ("man-at-arms", "besieger", "1809")})
    text = RULES.los(state, "1805", "1809")
    assert text.startswith("Shot possible from 1805 to 1809")
    assert "slope edge at 1806" in text and "(3.23)" in text
    scene = RULES.los_scene(state, "1805", "1809")
    assert scene["map_key"].startswith("siege/camp")
    assert Image.open(io.BytesIO(render_png(scene))).size[0] > 400


def test_the_camp_picture_has_its_terrain_key_and_the_slope_edge():
    state = camp({"a": ("archer", "besieger", "0406")}, burnt_tents=["0908"])
    scene = RULES.scene(state, [], None)
    key = " | ".join(k["text"] for k in scene["terrain_key"])
    for title in ("thicket 2pt light", "tree 2pt medium", "tent 2pt light", "trench 1pt heavy"):
        assert title in key
    assert "burnt tent" in key and "slope" in key
    assert any(e["color"] == "#6b4a1f" for e in scene["edges"])
    assert "slope edge" in scene["notes"][0] and "battlements" not in " ".join(scene["notes"])
    assert "Bridge" not in RULES.header(state)  # no drawbridge on the camp
    fills = {c["at"]: c["fill"] for c in scene["cells"]}
    assert fills["0908"] == data.terrain()["kinds"]["burnt-tent"]["fill"]
    image = Image.open(io.BytesIO(render_png(scene)))
    assert image.size[0] > 400 and image.size[1] > 400


CAMP_SKIRMISH = {
    "map": "camp",
    "last_turn": 6,
    "burnt_tents": ["0908"],
    "figures": {
        "k": {"type": "knight", "side": "besieger", "at": "1213"},
        "a": {"type": "archer", "side": "besieger", "at": "1216"},
        "c": {"type": "crossbowman", "side": "besieger", "at": "0716"},
        "s": {"type": "sergeant", "side": "defender", "at": "1207"},
        "b": {"type": "archer", "side": "defender", "at": "1805"},
        "p": {"type": "peasant", "side": "defender", "at": "0909"},
    },
}


def test_autoplay_on_the_camp_map_finishes_and_replays():
    # Checked as a scenario file of one's own is: schema first, then meaning.
    scenario = RULES.scenario_from_document(CAMP_SKIRMISH, "camp-skirmish.json")
    assert scenario["map"] == "camp" and ["0908", "burnt-tent"] in scenario["counters"]
    state, actions = autoplay(RULES, scenario, 4)
    assert state["result"]
    replayed, _ = replay(RULES, scenario, 4, actions)
    assert state_hash(replayed) == state_hash(state)


async def test_a_camp_scenario_file_through_the_bot_with_los_over_a_tent(table):  # noqa: F811
    """Under SimCord: a scenario file choosing the camp opens a game; /los explains the tent."""
    document = {
        "name": "camp-duel",
        "map": "camp",
        "figures": {
            "a": {"type": "archer", "side": "besieger", "at": "0406"},
            "t": {"type": "man-at-arms", "side": "defender", "at": "0410"},
        },
    }
    created = await table.alice.slash(
        table.channel,
        "game new",
        ruleset="siege",
        scenario_file=("camp-duel.json", json.dumps(document).encode()),
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    assert (await table.game()).state["map"] == "camp"
    text = reply_text(await table.bob.slash(table.thread, "los", **{"from": "0406", "to": "0410"}))
    assert text.startswith("No shot from 0406 to 0410") and "0408: a tent" in text
    refused = reply_text(
        await table.alice.slash(table.thread, "act", action="/shoot unit:a target:t")
    )
    assert "0408: a tent" in refused, refused
