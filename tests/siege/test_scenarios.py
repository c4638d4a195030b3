"""SIEGE scenarios 3-5 (our stand-ins, data/siege/scenarios/): offered by /game new and the
local table, set up as their descriptions promise, and scenario 4 (the long siege) played
through the bot from /game new: the besiegers' bombardment before the assault, the ram at the
wall, into the next round."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from engine import registry
from engine.core.game import new_game
from service import table as local_table
from tests.discord.conftest import clock, db_path, message_text, reply_text, table  # noqa: F401

from .helpers import RULES, act

NEW = ("camp-raid", "long-siege", "normans-gauls")


@pytest.fixture
def dice():
    """The service's fixed dice: every roll a 10 (then the seeded dice)."""
    return [10] * 40


@pytest.fixture
def siege_registered():
    assert "siege" in registry.available()
    return registry.get_ruleset("siege")


async def test_game_new_offers_scenarios_3_to_5(siege_registered, table):  # noqa: F811
    offered = await table.alice.autocomplete(
        table.channel, "game new", "scenario", "", ruleset="siege"
    )
    values = [c["value"] for c in offered]
    assert set(NEW) <= set(values), values
    names = {c["value"]: c["name"] for c in offered}
    assert "The long siege" in names["long-siege"]
    assert "Raid on the camp" in names["camp-raid"]
    assert "Normans against Gauls" in names["normans-gauls"]


async def test_the_long_siege_plays_from_game_new_through_the_bombardment_into_the_second_day(
    siege_registered,
    table,  # noqa: F811
):
    created = await table.alice.slash(
        table.channel, "game new", ruleset="siege", scenario="long-siege"
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    assert reply_text(await table.alice.slash(table.thread, "game start")) == "Done."
    offered = [
        c["value"]
        for c in await table.alice.autocomplete(
            table.thread, "act", "action", "/aim engine:great-onager at:06"
        )
    ]
    assert "/aim engine:great-onager at:0616" in offered, offered[:5]
    for action in (
        "/fill at:0817",
        "/fill at:1617",
        "/place tower:belfry at:1620 towards:1619",
        "/aim engine:great-onager at:0616",
        "/aim engine:west-catapult at:0616",
        "/aim engine:east-catapult at:0616",
        "/bombard at:0616",  # 10 on five points: one step
        "/end-phase",  # the assault begins with the besiegers' movement
        "/drive engine:iron-ram to:0617",  # its front at the wall
        "/end-phase",
        "/end-phase",
        "/batter engine:iron-ram",  # 10 - 1 (already hit) on nine points: one more step
    ):
        result = await table.alice.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    state = (await table.game()).state
    assert state["siege_sheet"]["0616"]["step"] == 2
    assert state["engines"]["iron-ram"]["cells"] == ["0617", "0618", "0619"]
    # The day's bombardment is over: no engine is aimed again during the assault.
    refused = await table.alice.slash(
        table.thread, "act", action="/aim engine:great-onager at:0716"
    )
    assert not reply_text(refused).startswith("Done")
    await table.alice.slash(table.thread, "act", action="/end-phase")
    for _ in range(4):  # the garrison's four steps, in which it does nothing
        result = await table.bob.slash(table.thread, "act", action="/end-phase")
        assert reply_text(result).startswith("Done"), reply_text(result)
    info = await table.game()
    assert info.status == "active" and info.state["turn"] == 2
    board = table.boards()[-1]
    assert "1 of 3, round 2 of 5" in message_text(board), message_text(board)
    assert "Walls 0616 damaged" in message_text(board)
    assert Image.open(io.BytesIO(await board.attachments[0].read())).size[0] > 400
    # Through the rest of the first day (5.4) to the second morning: the besiegers lay the
    # filled moat anew and their engines bombard again before the day's assault.
    for _ in range(40):
        info = await table.game()
        if info.state["day"] == 2:
            break
        player = table.alice if info.state["active"] == "besieger" else table.bob
        result = await player.slash(table.thread, "act", action="/end-phase")
        assert reply_text(result).startswith("Done"), reply_text(result)
    state = (await table.game()).state
    assert (state["day"], state["turn"], state["phase"]) == (2, 6, "prepare")
    text = table.public_text()
    assert "Day 1 ends." in text and "Day 2 of 3 begins." in text
    # The morning says why the round opens with the besiegers' work, and which commands.
    assert "Before the assault the besiegers may lay 2 filled-moat counter(s) anew (/fill)" in text
    assert "work their engines (/aim" in text
    # The ram stands at the wall on its filled moat: that counter is not taken off (D2).
    assert ["0617", "filled-moat"] in state["counters"]
    for action in ("/fill at:0817", "/aim engine:great-onager at:0716"):
        result = await table.alice.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Done"), (action, reply_text(result))
    status = reply_text(await table.alice.slash(table.thread, "game status"))
    assert "Day: 2 of 3, round 1 of 5" in status, status


def run_table(argv, tmp_path, script_lines):
    path = tmp_path / "script.txt"
    path.write_text("\n".join(script_lines) + "\n")
    out, err = io.StringIO(), io.StringIO()
    code = local_table.main([*argv, "--script", str(path)], stdout=out, stderr=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


@pytest.mark.parametrize("name", NEW)
def test_the_local_table_starts_each_new_scenario(siege_registered, name, tmp_path):
    code, lines = run_table(
        ["--game", "siege", "--scenario", name, "--seed", "1", "--db", str(tmp_path / "t.db")],
        tmp_path,
        ["/state", "/options"],
    )
    assert code == 0
    shown, options = lines
    assert shown["ok"] and shown["state"]["scenario"] == name
    assert options["ok"] and options["options"]


def test_the_long_siege_on_the_local_table_by_typed_commands(siege_registered, tmp_path):
    """A stranger's first rounds of scenario 4 typed on the table: the bombardment before the
    assault, a refused engine command with its reason, then both sides' steps into round 3."""
    script = [
        "/fill at:0817",
        "/aim engine:great-onager at:0616",
        "/aim engine:west-catapult at:0616",
        "/bombard at:0616",
        "/aim engine:east-catapult at:0916",
        "/end-phase",  # the laid catapult rolls for 0916, the assault begins
        "/aim engine:great-onager at:0716",
        *["/end-phase"] * 16,
    ]
    code, lines = run_table(
        [
            "--game",
            "siege",
            "--scenario",
            "long-siege",
            "--seed",
            "3",
            "--db",
            str(tmp_path / "t.db"),
        ],
        tmp_path,
        script,
    )
    assert code == 0
    bombard, rolled_at_end = lines[3], lines[5]
    assert bombard["ok"] and [e["at"] for e in bombard["events"] if e["type"] == "bombarded"] == [
        "0616"
    ]
    assert [e["at"] for e in rolled_at_end["events"] if e["type"] == "bombarded"] == ["0916"]
    refused = lines[6]
    assert not refused["ok"] and "only before the day's assault" in refused["error"], refused
    assert all(obj["ok"] for obj in lines[7:]), next(o for o in lines[7:] if not o["ok"])
    assert lines[-1]["turn"] == 3 and not lines[-1]["game_over"]


def test_the_camp_raid_raiders_move_first_and_the_loaded_ballista_answers(siege_registered):
    """Scenario 3: the garrison (defenders) raids the camp on the camp map; the camp's
    ballista is loaded and manned, so it bolts at a raider in the camp's first step."""
    state, _ = new_game(RULES, RULES.load_scenario("camp-raid"), 1)
    assert state["map"] == "camp" and (state["active"], state["phase"]) == ("defender", "fire1")
    assert "ready to shoot; crew Huon, Martin" in RULES.header(state)["Engines"]
    for _ in range(4):
        state, _ = act(state, "defender", "/end-phase")
    state, events = act(
        state, "besieger", "/bolt engine:trench-ballista target:konrad", dice=[8]
    )  # 8 + 2 at short range, no cover: A
    assert [e["outcome"] for e in events if e["type"] == "shot"] == ["dead"]
    assert "0/3 markers" in RULES.header(state)["Engines"]


def test_scenario_5_sets_the_named_shooters_of_the_aiming_example_on_their_sides(
    siege_registered,
):
    state, _ = new_game(RULES, RULES.load_scenario("normans-gauls"), 1)
    shooters = {
        (f["name"], f["type"], f["side"])
        for f in state["figures"].values()
        if f["type"] in ("crossbowman", "archer")
    }
    assert shooters == {
        ("Alric", "crossbowman", "besieger"),
        ("Edric", "crossbowman", "besieger"),
        ("Emlyn", "crossbowman", "defender"),
        ("Gawain", "crossbowman", "defender"),
        ("Aylwin", "archer", "defender"),
        ("Bran", "archer", "defender"),
        ("Gwyn", "archer", "defender"),
        ("Idris", "archer", "defender"),
    }


def test_players_give_their_own_skills_before_the_game_in_a_scenario_file(
    siege_registered, tmp_path
):
    """ "teilen die Spieler jedem Schützen eine Ziffer von -3 bis +3 zu": before the game, in
    the scenario the game starts from (a file of one's own here, `/game new scenario_file:` in
    Discord); fixed from then on, added to the shooter's roll, and refused when a side's
    crossbows do not sum to 0."""
    from engine.siege.data import DATA_DIR

    document = json.loads(
        (DATA_DIR / "scenarios" / "normans-gauls.json").read_text(encoding="utf-8")
    )
    document["skills"].update(alric=-3, edric=3)
    mine = tmp_path / "ours.json"
    mine.write_text(json.dumps(document))
    script = ["/fill at:1417", "/fill at:0617", "/shoot unit:alric target:aylwin", "/state"]
    code, lines = run_table(
        ["--game", "siege", "--scenario", str(mine), "--dice", "7", "--db", str(tmp_path / "t.db")],
        tmp_path,
        script,
    )
    assert code == 0 and all(obj["ok"] for obj in lines), lines
    shot = next(e for e in lines[2]["events"] if e["type"] == "shot")
    assert "7+1-3 skill=5" in json.dumps(shot), shot
    assert lines[3]["state"]["skills"]["alric"] == -3
    document["skills"].update(alric=3, edric=3)
    mine.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()
    code = local_table.main(
        ["--game", "siege", "--scenario", str(mine), "--db", str(tmp_path / "u.db")],
        stdout=out,
        stderr=err,
    )
    assert code == 2 and "the besiegers' crossbows must sum to 0 (they sum to +6)" in err.getvalue()


def test_the_long_siege_on_the_local_table_into_the_second_day(siege_registered, tmp_path):
    """Scenario 4 typed on the table through its first day: the night takes the filled moat
    off, the morning says what the besiegers may do, and they fill and bombard again before
    day 2's assault."""
    script = [
        "/end-phase",  # no bombardment on the first morning
        *["/end-phase"] * 40,  # five rounds of eight steps
        "/fill at:0817",
        "/aim engine:great-onager at:0716",
        "/bombard at:0716",
        "/end-phase",
        "/state",
    ]
    code, lines = run_table(
        [
            "--game",
            "siege",
            "--scenario",
            "long-siege",
            "--seed",
            "3",
            "--db",
            str(tmp_path / "t.db"),
        ],
        tmp_path,
        script,
    )
    assert code == 0 and all(obj["ok"] for obj in lines), next(o for o in lines if not o["ok"])
    night = lines[40]["events"]
    ended = next(e for e in night if e["type"] == "day_ended")
    assert (ended["day"], ended["moat_removed"]) == (1, ["0617"])
    morning = next(e for e in night if e["type"] == "day_started")
    assert (morning["day"], morning["of"]) == (2, 3)
    assert morning["prepare"]["filled_moat"] == 1 and "aim" in morning["prepare"]["engines"]
    assert (lines[40]["turn"], lines[40]["phase"]) == (6, "prepare")
    assert [e["at"] for e in lines[43]["events"] if e["type"] == "bombarded"] == ["0716"]
    state = lines[-1]["state"]
    assert (state["day"], state["turn"], state["phase"]) == (2, 6, "fire1")
    assert ["0817", "filled-moat"] in state["counters"]


def test_scenario_5_without_its_aiming_rule_on_the_local_table(siege_registered, tmp_path):
    """The optional rules are switchable per game: scenario 5 plays with aiming unless the
    group leaves it out; then the skills count for nothing."""
    code, lines = run_table(
        [
            "--game",
            "siege",
            "--scenario",
            "normans-gauls",
            "--option",
            "no-aiming",
            "--dice",
            "7",
            "--db",
            str(tmp_path / "t.db"),
        ],
        tmp_path,
        ["/fill at:1417", "/fill at:0617", "/shoot unit:alric target:aylwin", "/state"],
    )
    assert code == 0 and all(obj["ok"] for obj in lines), lines
    assert lines[-1]["state"]["options"] == {"panic": False, "aiming": False}
    shot = next(e for e in lines[2]["events"] if e["type"] == "shot")
    assert "skill" not in shot["text"] and "d10 7+1=8" in shot["text"], shot["text"]


async def test_game_new_leaves_out_scenario_5s_aiming_with_no_aiming(
    siege_registered,
    table,  # noqa: F811
):
    offered = await table.alice.autocomplete(
        table.channel, "game new", "rules", "panic, no-ai", ruleset="siege"
    )
    assert [c["value"] for c in offered] == ["panic, no-aiming"]
    created = await table.alice.slash(
        table.channel, "game new", ruleset="siege", scenario="normans-gauls", rules="no-aiming"
    )
    assert "is open in" in reply_text(created), reply_text(created)
    assert (await table.game()).state["options"] == {"panic": False, "aiming": False}
    status = reply_text(await table.alice.slash(table.thread, "game status"))
    assert "Optional rules: Aiming" not in status
