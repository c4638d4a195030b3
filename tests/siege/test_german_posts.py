"""SIEGE for a German table under SimCord (issue 15): the turn posts (header fields and their
values, side and step names, what happened), ``/game status``, ``/los`` with its reasons and
``/info`` read German from start to the first shots; figure names are game data and stay."""

from __future__ import annotations

import random
import re

import discord
import pytest

from engine.core.dice import seeded
from engine.core.game import apply_action, new_game
from tests.discord.conftest import clock, db_path, dice, german, message_text, reply_text, table  # noqa: F401
from tests.discord.test_german_replies import english_sentences

from .helpers import RULES

# English words of SIEGE's own posts that a German reader must not meet, as they would appear.
ENGLISH_FIELDS = ("Besiegers", "Defenders", "Round:", "Step:", "Active:", "Bridge:", "Walls:")


def _typed(action: dict) -> str:
    return " ".join(
        [f"/{action['type']}"]
        + [f"{k}:{v}" for k, v in action.items() if k not in ("type", "side")]
    )


@pytest.mark.asyncio
async def test_a_german_table_plays_siege_without_meeting_english(table, german):  # noqa: F811
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    replies = []

    async def say(person, command, **options):
        result = await person.slash(table.thread, command, **options)
        replies.append(f"[{command}] " + reply_text(result))
        return result

    await table.alice.slash(table.channel, "game new", ruleset="siege", scenario="open-gate")
    await say(table.alice, "game join", side="besieger")
    await say(table.bob, "game join", side="defender")
    await say(table.alice, "game start")
    await say(table.bob, "game status")
    # /los: out of an arrow slit and into one, over a parapet's battlement, from the courtyard
    # out through the tower's wall, and without a bow on the first cell.
    pairs = [("0416", "0119"), ("0119", "0416"), ("0819", "0816"), ("1114", "1118")]
    pairs += [("1215", "0819"), ("0720", "1115")]
    for start, end in pairs:
        await say(table.dave, "los", **{"from": start, "to": end})
    info = await table.game()
    await say(table.dave, "info", unit="aimery")
    await say(table.dave, "info", cell="0416")
    # Play the first rounds: the first legal shot or move of each step, then end the step.
    for _ in range(14):
        info = await table.game()
        if info.state.get("result"):
            break
        side = info.awaiting[0]
        person = table.alice if side == "besieger" else table.bob
        legal = await table.service.legal_actions(info.id, side)
        doing = [a for a in legal if a["type"] in ("shoot", "move", "attack", "fight")]
        if doing:
            await say(person, "act", action=_typed(doing[0]))
        await say(person, "end-phase")
    await say(table.alice, "end-phase")  # perhaps not her turn
    await say(table.alice, "game status")
    text = "\n".join(replies) + "\n" + table.public_text()
    assert "Belagerer" in text and "Verteidiger" in text and "Runde" in text, text
    assert "Schießscharte" in text and "Deckung" in text, text
    assert "Gelände: Schießscharte (Turm) (Höhe 2)" in text, text
    assert "Nahkampf + (eine Figur hier kämpft eine Spalte besser, 1.7)" in text, text
    assert "Art: Bogenschütze (Langbogen)" in text, text
    assert "Phase: 2 Bewegung · am Zug: Belagerer" in text, text  # a new step announced
    assert "Runde 2 beginnt · Phase: 1 Bogen und Armbrüste" in text, text
    for english in ENGLISH_FIELDS:
        assert english not in text, (english, text)
    assert not english_sentences(text), english_sentences(text)


GERMAN_FIELDS = {
    "Runde",
    "Tag",
    "Schritt",
    "Am Zug",
    "Zugbrücke",
    "Ziel",
    "Feuer",
    "Feuer legen",
    "Nahkampf",
    "Maschinen",
    "Mauern",
    "Maschinenschaden",
    "Pferde",
    "Wagen",
    "Ergebnis",
}


@pytest.mark.parametrize("scenario_name", [s.name for s in RULES.scenarios()])
def test_the_header_of_every_scenario_reads_german_through_a_game(scenario_name):
    rng = random.Random(4)
    state, _ = new_game(RULES, RULES.load_scenario(scenario_name), 4)
    for step in range(120):
        header = RULES.localised_header(state, "de")
        assert set(header) <= GERMAN_FIELDS, header
        lines = "\n".join(f"{k}: {v}" for k, v in header.items())
        assert not english_sentences(lines), lines
        assert not re.search(r"\b(Besiegers|Defenders|of|win|draw|up|down|riderless)\b", lines), (
            lines
        )
        if RULES.result(state):
            break
        side = RULES.awaiting(state)[0]
        action = rng.choice(RULES.legal_actions(state, side))
        state, _ = apply_action(RULES, state, action, seeded(4, step))
    if scenario_name == "camp-raid":
        assert RULES.localised_header(state, "de")["Ziel"].startswith("Verteidiger gewinnen")


def test_info_on_a_cell_says_what_its_melee_sign_means():
    state, _ = new_game(RULES, RULES.load_scenario("open-gate"), 5)
    slit = RULES.cell_facts(state, "0416", "en")[0]
    assert slit.endswith("melee + (a figure here fights one column better, 1.7)"), slit
    assert RULES.cell_facts(state, "0719", "en")[0].endswith("melee 0 (no effect)")
