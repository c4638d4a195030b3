"""SIEGE on the local table: /los for any side at any time, with the line's picture, and the
stand-in scenario 1 played from the command line to a result."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from engine import registry
from service import table


@pytest.fixture
def siege_registered():
    """SIEGE as the registry offers it to players."""
    assert "siege" in registry.available()
    return registry.get_ruleset("siege")


def run(argv, tmp_path, script_lines=None):
    if script_lines is not None:
        path = tmp_path / "script.txt"
        path.write_text("\n".join(script_lines) + "\n")
        argv = [*argv, "--script", str(path)]
    out, err = io.StringIO(), io.StringIO()
    code = table.main(argv, stdout=out, stderr=err)
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return code, lines, err.getvalue()


def test_los_on_the_table_for_any_side_with_a_picture(siege_registered, tmp_path):
    code, lines, _ = run(
        [
            "--game",
            "siege",
            "--scenario",
            "open-gate",
            "--seed",
            "3",
            "--out",
            str(tmp_path / "out"),
        ],
        tmp_path,
        [
            "/LOS from:0816 to:0819",
            "defender /los from:1112 to:1106",
            "besieger /los from:0816",
            "/los from:../../etc/passwd to:0101",
            "/help",
        ],
    )
    assert code == 0
    possible, blocked, missing, hostile, helped = lines
    assert possible["ok"] and possible["text"].startswith("Shot possible from 0816 to 0819")
    assert Image.open(possible["picture"]).size[0] > 400
    assert blocked["ok"] and blocked["text"].startswith("No shot") and "1111" in blocked["text"]
    assert not missing["ok"] and "needs to:" in missing["error"]
    assert not hostile["ok"] and "is not a cell of this map" in hostile["error"]
    assert "/los from:… to:…" in helped["text"]
    # Questions change nothing and enter no log.
    assert len({obj["version"] for obj in lines}) == 1
    assert len({obj["state_hash"] for obj in lines}) == 1


def test_the_stand_in_scenario_1_plays_to_a_result_by_typed_commands(siege_registered, tmp_path):
    """`open-gate` (our stand-in for scenario 1) on the table: the commands a seeded autoplay
    chose, typed as '<side> /command ...' lines, bring the game to the same result."""
    from engine.core.commands import format_command
    from engine.core.game import autoplay

    ruleset = siege_registered
    scenario = ruleset.load_scenario("open-gate")
    final, actions = autoplay(ruleset, scenario, "3")
    script = [f"{a['side']} {format_command(a)}" for a in actions]
    code, lines, _ = run(
        [
            "--game",
            "siege",
            "--scenario",
            "open-gate",
            "--seed",
            "3",
            "--db",
            str(tmp_path / "t.db"),
        ],
        tmp_path,
        script,
    )
    assert code == 0 and all(obj["ok"] for obj in lines), next(o for o in lines if not o["ok"])
    assert lines[-1]["game_over"] and lines[-1]["result"] == final["result"]


def test_a_scenario_file_of_ones_own_is_checked_by_schema_then_meaning(siege_registered, tmp_path):
    """Any position from a file (here: scenario 1 at the melee step with a wounded knight);
    a structural mistake and a meaning mistake are each named, and nothing starts."""
    from engine.siege.data import DATA_DIR

    document = json.loads((DATA_DIR / "scenarios" / "open-gate.json").read_text(encoding="utf-8"))
    document.update(phase="melee", name="mine")
    document["figures"]["raimund"]["state"] = "wounded"
    good = tmp_path / "mine.json"
    good.write_text(json.dumps(document))
    code, lines, _ = run(
        ["--game", "siege", "--scenario", str(good), "--seed", "1", "--db", str(tmp_path / "t.db")],
        tmp_path,
        ["/state"],
    )
    state = lines[0]["state"]
    assert code == 0 and state["phase"] == "melee" and state["figures"]["raimund"]["wounded"]
    document["figures"]["raimund"]["at"] = 1118  # structure: not a label
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    code, _, err = run(
        ["--game", "siege", "--scenario", str(bad), "--db", str(tmp_path / "u.db")], tmp_path, []
    )
    assert code == 2 and "/figures/raimund/at: must be a text" in err
    document["figures"]["raimund"]["at"] = "1116"
    document["figures"]["raimund"]["type"] = "dragon"  # meaning: no such figure type
    bad.write_text(json.dumps(document))
    code, _, err = run(
        ["--game", "siege", "--scenario", str(bad), "--db", str(tmp_path / "v.db")], tmp_path, []
    )
    assert code == 2 and "figures.raimund.type" in err


def test_optional_rules_on_the_local_table(siege_registered, tmp_path):
    code, lines, _ = run(
        ["--game", "siege", "--scenario", "open-gate", "--seed", "3", "--option", "aiming"],
        tmp_path,
        ["/state"],
    )
    assert code == 0 and lines[0]["state"]["options"] == {"panic": False, "aiming": True}
    code, lines, err = run(["--game", "siege", "--option", "aimnig"], tmp_path, ["/state"])
    assert code == 2 and lines == []
    assert "No optional rule 'aimnig'; this game has: panic, aiming." in err
    out = io.StringIO()
    typed = iter(["/quit"])
    code = table.main(
        ["--game", "siege", "--seed", "3", "--option", "aiming", "--out", str(tmp_path / "boards")],
        stdout=out,
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    assert code == 0 and "Optional rules: Aiming." in out.getvalue()


def test_a_siege_of_two_days_on_the_local_table(siege_registered, tmp_path):
    from tests.siege.test_discord import LONG_SIEGE

    path = tmp_path / "two-days.json"
    path.write_text(json.dumps(LONG_SIEGE))
    code, lines, _ = run(
        ["--game", "siege", "--scenario", str(path), "--seed", "3", "--dice", "7,1"],
        tmp_path,
        ["besieger /shoot unit:arch target:tom"]
        + ["besieger /end-phase"] * 4
        + ["defender /end-phase"] * 4
        + ["besieger /fill at:0917", "/state"],
    )
    assert code == 0 and all(line["ok"] for line in lines), lines
    night = lines[8]
    ended = [e for e in night["events"] if e["type"] == "day_ended"][0]
    assert ended["healing"] == [
        {"unit": "tom", "roll": 1, "title": "healed next morning", "healed_on": 2}
    ]
    state = lines[-1]["state"]
    assert (state["day"], state["phase"]) == (2, "fire1") and not state["figures"]["tom"]["wounded"]


def test_horses_from_a_scenario_file_are_mounted_led_and_ridden_by_typed_commands(
    siege_registered, tmp_path
):
    """3.3 on the local table: a file with a ridden and a riderless horse; typed /mount,
    /lead and /move; a mistyped horse is refused with the reason and changes nothing."""
    document = {
        "name": "horses",
        "phase": "move",
        "figures": {
            "hugo": {"type": "knight", "side": "besieger", "at": "0519", "name": "Hugo"},
            "page": {"type": "peasant", "side": "besieger", "at": "0819", "name": "Page"},
            "otto": {"type": "knight", "side": "besieger", "at": "1619", "name": "Otto"},
            "guard": {"type": "peasant", "side": "defender", "at": "2201"},
        },
        "horses": {
            "grey": {"side": "besieger", "cells": ["0619", "0719"]},
            "bay": {"side": "besieger", "cells": ["1619", "1719"], "rider": "otto"},
        },
    }
    path = tmp_path / "horses.json"
    path.write_text(json.dumps(document))
    code, lines, _ = run(
        ["--game", "siege", "--scenario", str(path), "--seed", "1", "--db", str(tmp_path / "h.db")],
        tmp_path,
        [
            "/mount unit:Hugo horse:bay",
            "/mount unit:Hugo horse:grey",
            "/lead unit:Page horse:grey to:1019",
            "/mount unit:Page horse:bay",
            "/move unit:Otto to:1219",
            "/state",
        ],
    )
    assert code == 0
    refused, mounted, led, peasant, ridden, final = lines
    assert not refused["ok"] and "already has a rider (Otto)" in refused["error"]
    assert mounted["ok"]
    assert not led["ok"] and "already has a rider (Hugo)" in led["error"]
    assert (
        not peasant["ok"]
        and "Page cannot mount: only knights and sergeants ride" in peasant["error"]
    )
    assert ridden["ok"]
    state = final["state"]
    assert state["horses"]["grey"]["rider"] == "hugo" and state["figures"]["hugo"]["at"] == "0619"
    assert state["horses"]["bay"]["cells"][0] == "1219"
