"""What players read and see: describe, event lines with dice, header, scene, picture, summary, view."""

import io
import json

from PIL import Image

import renderer
from engine.core.game import new_game

from .helpers import RULES, act, build, grid_map

OPEN = ["........"] * 8


def u(kind, at, **kw):
    return {"type": kind, "at": at, **kw}


def test_describe_names_units_with_side_and_hex():
    state = build(
        {
            "units": {
                "sp-cavalry-2": u("sp-cavalry", "0207"),
                "az-warriors-3": u("az-warriors", "0208"),
            }
        }
    )
    assert RULES.describe(state, "unit", "sp-cavalry-2") == "Spanish Cavalry 2 at 0207"
    assert RULES.describe(state, "target", "az-warriors-3") == "Aztec Warriors 3 at 0208"
    assert RULES.describe(state, "to", "0312") == "0312 (Chapultepec Springs)"


def test_attack_event_line_shows_the_dice_and_thresholds():
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "combat",
            "units": {
                "i": u("sp-infantry", "0404"),
                "w": u("az-warriors", "0405"),
                "x": u("sp-infantry", "0101"),
            },
        }
    )
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    lines = [RULES.describe_event(state, e) for e in events]
    assert (
        "Spanish Infantry i attacks Aztec Warriors w at 0405: 3+⚀1=4 vs defence 4 "
        "(retreat at 5, eliminated at 6): no effect." in lines
    )


def test_header_shows_turn_of_24_phase_active_and_card_limits():
    state = build(
        {
            "map": grid_map(*OPEN),
            "turn": 3,
            "card": "sp-santiago",
            "units": {"i": u("sp-infantry", "0404"), "w": u("az-warriors", "0808")},
        }
    )
    header = RULES.header(state)
    assert (
        header["Turn"] == "3 / 24"
        and header["Phase"] == "Movement"
        and header["Active"] == "Spanish"
    )
    assert header["Card"] == "Santiago!: move 4, attack 3; +1 to attacks with cavalry"
    assert header["Used"] == "moved 0/4, attacked 0/3"


def test_scene_pieces_objectives_and_last_moves():
    state = build(
        {
            "units": {
                "i": u("sp-infantry", "1119"),
                "w": u("az-warriors", "1208", disorganised=True),
                "x": u("sp-infantry", "0101"),
            }
        }
    )
    state, events = act(state, "spanish", "/move unit:i to:1218")
    scene = RULES.scene(state, events, None)
    json.dumps(scene)
    pieces = {p["id"]: p for p in scene["pieces"]}
    assert (
        pieces["i"]["values"] == "3-6-3"
        and pieces["i"]["at"] == "1218"
        and not pieces["i"]["flipped"]
    )
    assert pieces["w"]["flipped"]
    assert {"path": ["1119", "1218"], "color": "#a3241c", "kind": "move"} in scene["arrows"]
    objectives = {o["name"]: o for o in scene["objectives"]}
    assert objectives["Sacred Precinct"]["owner"] == "aztec"
    kinds = {line["kind"] for line in scene["lines"]}
    assert {"causeway", "bridge", "road", "aqueduct"} <= kinds
    icons = {c.get("icon") for c in scene["cells"]}
    assert {"fort", "village", "temple", "market", "spring"} <= icons
    assert ["Turn", "1 / 24"] in scene["header"]


def test_attack_arrow_carries_the_dice_text():
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "combat",
            "units": {
                "i": u("sp-infantry", "0404"),
                "w": u("az-warriors", "0405"),
                "x": u("sp-infantry", "0101"),
            },
        }
    )
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    (arrow,) = [a for a in RULES.scene(state, events, None)["arrows"] if a["kind"] == "attack"]
    assert arrow["path"] == ["0404", "0405"] and arrow["text"] == "3+⚀1=4 vs 4: none"


def close(pixel, colour, tolerance=8):
    return max(abs(a - b) for a, b in zip(pixel, colour)) <= tolerance


def test_picture_shows_units_where_they_stand():
    state = build(
        {"units": {"i": u("sp-infantry", "0303"), "w": u("az-warriors", "0106", disorganised=True)}}
    )
    scene = RULES.scene(state, [], None)
    img = Image.open(io.BytesIO(renderer.render_png(scene))).convert("RGB")
    cell = renderer.layout_for(scene["grid"]).cell
    x, y = renderer.cell_center(scene["grid"], "0303")
    # the counter's left edge (its centre holds the factors)
    assert close(img.getpixel((int(x - 0.4 * cell), int(y))), (163, 36, 28))  # Spanish red
    x, y = renderer.cell_center(scene["grid"], "0106")
    flipped = img.getpixel((int(x - 0.4 * cell), int(y)))
    assert not close(flipped, (23, 64, 90))  # not the Aztec face
    x, y = renderer.cell_center(scene["grid"], "0108")
    assert close(img.getpixel((int(x - 0.5 * cell), int(y))), (185, 201, 138))  # empty clear hex


def test_rules_summary_in_english_and_german():
    assert "Defensive fire" in RULES.rules_summary("en") or "defensive fire" in RULES.rules_summary(
        "en"
    )
    assert "Defensivfeuer" in RULES.rules_summary("de")


def test_view_hides_the_order_of_the_decks():
    state = new_game(RULES, RULES.load_scenario("historical"), 5)[0]
    view = RULES.view(state, "aztec")
    assert view["decks"] == {
        "spanish": len(state["decks"]["spanish"]),
        "aztec": len(state["decks"]["aztec"]),
    }
    assert RULES.view(state, None)["units"] == state["units"]
