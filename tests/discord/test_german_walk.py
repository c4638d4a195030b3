"""A German newcomer's first game in every ruleset through Discord (issue 15 "Done when": German
Discord replies carry no English): a German server and German clients open, join, start, ask
for help and the status, set up with /auto-setup, play the actions /act offers, read the rules;
every reply and every public post is read. Game data (unit names, card titles) may stay as the
game wrote it. SIEGE joins this list when its German header and side names land."""

from __future__ import annotations

import re

import discord
import pytest

from engine import registry
from engine.tenochtitlan.data import cards_by_id

from .conftest import reply_text
from .test_german_replies import english_sentences

GERMAN_GAMES = ["tenochtitlan", "rivet-wars", "pocket-tactics", "tactical-table-war", "siege"]
STEPS = 24
# Side names that a German reader reads as they are (a ship's name).
SAME_IN_GERMAN = {"Bismark"}


@pytest.mark.parametrize("dice", [[]])
@pytest.mark.parametrize("game", GERMAN_GAMES)
async def test_a_german_newcomers_first_game_reads_german(table, german, game):
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    ruleset = registry.get_ruleset(game)
    first, second = ruleset.sides[:2]
    replies: list[str] = []

    async def say(person, command, **options):
        where = table.channel if command == "game new" else table.thread
        result = await person.slash(where, command, **options)
        replies.append(reply_text(result))
        return result

    await say(table.alice, "game new", ruleset=game)
    await say(table.alice, "game join", side=first)
    await say(table.bob, "game join", side=second)
    await say(table.alice, "game start")
    await say(table.alice, "help")
    await say(table.bob, "game status")
    acted = 0
    for step in range(STEPS):
        info = await table.game()
        if info.status != "active":
            break
        side = info.awaiting[0]
        person, other = (table.alice, table.bob) if side == first else (table.bob, table.alice)
        if step == 0:
            waiting = await other.autocomplete(table.thread, "act", "action", "")
            replies += [c["name"] for c in waiting]
        if ruleset.setup_actions(await table.service.view(info.id, side), side):
            await say(person, "auto-setup")
            continue
        choices = await person.autocomplete(table.thread, "act", "action", "")
        replies += [c["name"] for c in choices[:5]]
        result = await say(person, "act", action=choices[(step * 7) % len(choices)]["value"])
        assert reply_text(result).startswith("Ausgeführt"), reply_text(result)
        acted += 1
    await say(table.alice, "game status")
    await say(table.alice, "game rules")
    text = "\n".join(replies) + "\n" + table.public_text()
    for card in cards_by_id().values():  # Tenochtitlan's card titles are game data
        text = text.replace(card["title"], "«card»")
    for scenario in ruleset.scenarios():  # so are scenario titles ("Death from the Sky!")
        text = text.replace(scenario.title, "«scenario»")
    assert acted >= 5 and "Am Zug" in text
    assert not english_sentences(text), english_sentences(text)
    # A lone English word is no sentence for the detector: the sides' English names
    # ("Besiegers", "South") must not reach a German reader either. Unit names that hold one
    # ("Spanish Cavalry 1", "Tlaxcalan Allies") are game data.
    for side in ruleset.sides:
        english = ruleset.side_title(side)
        if english not in SAME_IN_GERMAN:
            assert ruleset.side_title(side, "de") != english, english
            assert not _alone(text, english), (english, _alone(text, english)[:5])


def _alone(text: str, word: str) -> list[str]:
    """Lines where ``word`` stands as a word of its own, not inside a capitalised name."""
    return [line for line in text.splitlines() if _stands_alone(line, word)]


def _stands_alone(line: str, word: str) -> bool:
    for found in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", line):
        before, after = line[: found.start()], line[found.end() :]
        if re.search(r"[A-Z][\w'-]* $", before) or re.match(r" [A-Z]", after):
            continue
        return True
    return False
