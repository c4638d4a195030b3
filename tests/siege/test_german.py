"""SIEGE told to a German reader (issue 15): turn posts, /game log and "since you last acted"
render events through ``narrate`` and dice through ``roll_purpose``; a German client gets
them in the rulebook's words, an English one gets the lines it always got."""

from __future__ import annotations

import random
import re

import discord
import pytest

from cogs.common import event_lines
from engine.core.dice import seeded
from tests.discord.conftest import clock, db_path, dice, german, message_text, reply_text, table  # noqa: F401
from tests.discord.test_german_replies import english_sentences

from .helpers import RULES, act, build, of

SCENARIOS = ("breach", "camp-raid", "long-siege", "normans-gauls", "open-gate")
# The shared detector knows the other games' English; these are SIEGE's own narration words.
SIEGE_ENGLISH = {
    "moves", "shoots", "points", "range", "cover", "recovers", "attack", "attacks",
    "defence", "retreats", "advances", "falls", "siege", "tower", "engine", "wall", "day",
    "ends", "begins", "healing", "horse", "wounded", "stunned", "healthy", "dead", "killed",
    "effect", "result", "is", "the", "at", "on", "of", "for", "and", "over", "game", "laid",
}  # fmt: skip


def english_lines(text: str) -> list[str]:
    siege = [
        line
        for line in text.splitlines()
        if len({w.lower() for w in re.findall(r"[A-Za-z]+", line)} & SIEGE_ENGLISH) >= 2
    ]
    return english_sentences(text) + siege


def narrated(scenario: str, lang: str, steps: int = 400) -> tuple[list[str], set[str]]:
    state, events = RULES.setup(RULES.load_scenario(scenario), seeded("narration", 0))
    rng = random.Random(15)
    lines = event_lines(RULES, state, events, None, lang)
    kinds: set[str] = set()
    for step in range(steps):
        if state.get("result"):
            break
        side = RULES.awaiting(state)[0]
        state, events = RULES.apply(
            state, rng.choice(RULES.legal_actions(state, side)), seeded("narration", step + 1)
        )
        kinds.update(e["type"] for e in events)
        lines += event_lines(RULES, state, events, side, lang)
    return lines, kinds


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_german_reader_gets_a_whole_seeded_siege_in_german(scenario):
    lines, kinds = narrated(scenario, "de")
    english, _ = narrated(scenario, "en")
    assert len(lines) == len(english) and len(kinds) >= 6, (len(lines), len(english), kinds)
    assert not english_lines("\n".join(lines)), english_lines("\n".join(lines))[:10]
    assert len(english_lines("\n".join(english))) > len(english) // 2, "the detector must work"


def test_the_long_siege_tells_days_engines_and_dice_in_german():
    text = "\n".join(narrated("long-siege", "de")[0])
    for words in ("Tag 1 endet.", "für heute auf die Mauer bei", "Heilung von", "beschießt"):
        assert words in text, words


def test_a_shot_reads_in_german_with_its_arithmetic_and_the_english_line_is_unchanged():
    state = build(
        {"a": ("archer", "besieger", "0119"), "d": ("peasant", "defender", "0419")},
        phase="fire1",
    )
    state, events = act(state, "besieger", "/shoot unit:a target:d", dice=[10])
    shot = of(events, "shot")[0]
    line = RULES.narrate(state, shot, "de")
    assert line.startswith("A (Langbogen) 0119->0419 D: Entfernung 3 kurz")
    assert f"W10 10{shot['modifier']:+d}" in line and "Deckung" in line
    assert RULES.narrate(state, shot, "en") == RULES.describe_event(state, shot) == shot["text"]
    roll = of(events, "roll")[0]
    assert RULES.roll_purpose(state, roll, "de") == "A schießt auf D"
    assert RULES.roll_purpose(state, roll, "en") == "A shoots at D"


def test_a_melee_its_result_and_the_casualty_read_in_german():
    state = build(
        {"k": ("knight", "besieger", "0119"), "b": ("bowman", "defender", "0219")}, phase="melee"
    )
    state, _ = act(state, "besieger", "/attack unit:k target:b")
    state, events = act(state, "besieger", "/fight", dice=[10])
    lines = event_lines(RULES, state, events, "besieger", "de")
    text = "\n".join(lines)
    assert "🎲 Nahkampf K gegen B: **10** (d10)" in text
    assert "K greift B an: Angriff 8 gegen Verteidigung 3: 8/3 -> 2-1" in text
    assert "W10 10 ->" in text
    assert not english_lines(text), text


def test_a_death_its_panic_roll_and_the_rout_read_in_german():
    figs = {
        "arch": ("archer", "besieger", "0119"),
        "tom": ("man-at-arms", "defender", "0319"),
        "pea": ("peasant", "defender", "0320"),
        "sol": ("man-at-arms", "defender", "0418"),
        "far": ("peasant", "defender", "2201"),
    }
    state = build(figs, options={"panic": True})
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[9, 10])
    text = "\n".join(event_lines(RULES, state, events, "besieger", "de"))
    assert "🎲 Panik nach dem Tod von Tom: **10** (d10)" in text
    assert "Tom ist tot: Panikwurf 10 für" in text and "Flucht! 6 Figuren" in text
    assert "Pea flieht " in text and "(Flucht)" in text
    assert not english_lines(text), text


def test_boiling_oil_poured_on_a_besieger_reads_in_german():
    state = build(
        {
            "d": ("man-at-arms", "defender", "0704"),
            "b": ("peasant", "besieger", "0703"),
            "w": ("peasant", "besieger", "0804"),
            "zb": ("peasant", "besieger", "2201"),
            "zd": ("peasant", "defender", "2220"),
        },
        first="defender",
        phase="melee",
        oil={"pot": {"carrier": "d"}},
    )
    state, events = act(state, "defender", "/pour unit:d at:0703", dice=[8])
    text = "\n".join(event_lines(RULES, state, events, "defender", "de"))
    assert "🎲 D gießt siedendes Öl auf B: **8** (d10)" in text
    assert "D gießt siedendes Öl auf 0703: Spalte" in text
    assert not english_lines(text), text


def test_the_melee_column_shifts_are_told_in_german_with_their_cells_and_signs():
    # 1.72's example: 4-1, defender on '+' (-1), attackers' worst terrain '-' (-1), several
    # attackers (+1): column 3-1; a 1 is F, an attacker stunned, of the attacker's choosing.
    figs = {
        "m": ("man-at-arms", "besieger", "0704"),
        "b": ("bowman", "besieger", "0705"),
        "p": ("peasant", "defender", "0804"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:m target:p")
    state, _ = act(state, "besieger", "/attack unit:b target:p")
    state, events = act(state, "besieger", "/fight", dice=[1])
    text = "\n".join(event_lines(RULES, state, events, "besieger", "de"))
    assert (
        "M, B greifen P an: Angriff 8 gegen Verteidigung 2: 8/2 -> 4-1; Verteidiger auf 0804 "
        "(+): -1; schlechtestes Gelände der Angreifer 0705 (-): -1; mehrere Angreifer (1.72): "
        "+1; Spalte 3-1; W10 1 -> F: ein Angreifer bewusstlos"
    ) in text
    assert "M, B: ihr Besitzer wählt, wen es trifft (bewusstlos)." in text
    assert not english_lines(text), text


def test_a_melee_against_a_rider_names_the_mounted_table_in_german():
    figs = {
        "a": ("man-at-arms", "defender", "0618"),
        "b": ("man-at-arms", "defender", "0620"),
        "k": ("knight", "besieger", "0619"),
        "far": ("peasant", "defender", "2201"),
    }
    horse = {"cells": ["0619", "0519"], "side": "besieger", "rider": "k"}
    state = build(figs, phase="melee", active="defender", horses={"h": horse})
    state, _ = act(state, "defender", "/attack unit:a target:k")
    state, _ = act(state, "defender", "/attack unit:b target:k")
    state, events = act(state, "defender", "/fight", dice=[10])
    text = "\n".join(event_lines(RULES, state, events, "defender", "de"))
    assert "Spalte der Tabelle gegen Berittene" in text
    assert "mehrere Angreifer verschieben gegen Reiter nicht (1.72)" in text
    assert not english_lines(text), text


async def test_a_german_server_reads_the_siege_tower_and_moves_in_its_turn_post_and_log(
    table,  # noqa: F811
    german,  # noqa: F811
):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    await table.alice.slash(table.channel, "game new", ruleset="siege", scenario="breach")
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    for action in (
        "/place tower:belfry at:1620 towards:1619",
        "/end-phase",
        "/end-phase",
        "/move unit:pons to:1620 level:top",
        "/roll tower:belfry to:1619",
    ):
        result = await table.alice.slash(table.thread, "act", action=action)
        assert reply_text(result).startswith("Ausgeführt"), (action, reply_text(result))
    posts = "\n".join(message_text(m) for m in table.thread.history())
    log = reply_text(await table.alice.slash(table.thread, "game log"))
    tower_rolls = "Belagerungsturm belfry rollt 1620, 1720, 1820 → 1619, 1719, 1819 (1 Punkte,"
    for text in (posts, log):
        assert "Belagerungsturm belfry wird auf 1620, 1720, 1820 gestellt" in text, text
        assert "Pons zieht 1520 → 1620 → 1620 oben (4 Punkte)." in text, text
        assert tower_rolls in text, text
        assert "Siege tower" not in text and " moves " not in text, text
    # The log's narration lines (indented under each command); side titles and the header
    # are not narration.
    narration = [line for line in log.splitlines() if line.startswith("  ")]
    assert len(narration) == 3 and not english_lines("\n".join(narration)), narration
