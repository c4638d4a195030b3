"""A German client reads German (issue 15): refusals, /game status, the turn post's header and
fields, side and phase names. Game data (unit and card names) may stay as the game wrote it."""

from __future__ import annotations

import re

import discord
import pytest

from cogs.i18n import rule_text
from engine.core.commands import parse_command
from engine.core.dice import fixed, seeded
from engine.core.errors import RuleError
from engine.registry import get_ruleset
from engine.tenochtitlan.data import cards_by_id

from .conftest import message_text, reply_text

# Words that carry an English sentence and are not German words as well. A line with two of
# them (ids and command syntax such as ``to:0507`` removed first) is an English sentence.
ENGLISH_WORDS = frozenset(
    """
    the is are was were not no of and or has have had can cannot you your it its this that
    with for on at be been now there their which what when who may must only any than then
    into from by
""".split()
)
# The English field names of a turn post or status line ("Turn: 3 / 24"; "Phase" is German
# too, so its value is checked instead).
ENGLISH_LABELS = frozenset("turn round active card used waiting result winner".split())


def english_sentences(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        bare = re.sub(r"\S+:\S+|`[^`]*`|<[^>]*>|/[\w-]+", " ", line)
        words = {w.lower() for w in re.findall(r"[A-Za-z']+", bare)}
        label = re.match(r"\W*([A-Za-z]+):\s", line)
        if len(words & ENGLISH_WORDS) >= 2 or (label and label[1].lower() in ENGLISH_LABELS):
            found.append(line)
    return found


def test_the_detector_finds_english_and_passes_german():
    assert english_sentences("It is not your turn. The game waits for Spanish.")
    assert english_sentences("Turn: 1 / 24")
    assert not english_sentences("Du bist nicht am Zug. Die Partie wartet auf Spanier.")
    assert not english_sentences("Erledigt: /move unit:sp-cavalry-1 to:0507")


@pytest.mark.parametrize("dice", [[3, 4, 5, 6, 2, 1] * 10])
async def test_a_german_players_replies_in_a_short_game_carry_no_english(table, german):
    """A German server (public posts) and German clients (replies): status, refusals (not her
    turn, an illegal move), ending phases, the turn post. Card titles are game data and stay."""
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    await table.alice.slash(
        table.channel, "game new", ruleset="tenochtitlan", scenario="historical"
    )
    await table.alice.slash(table.thread, "game join", side="aztec")
    await table.bob.slash(table.thread, "game join", side="spanish")
    await table.alice.slash(table.thread, "game start")
    replies = []

    async def say(person, command, **options):
        result = await person.slash(table.thread, command, **options)
        replies.append(f"[{command}] " + reply_text(result))
        return result

    await say(table.bob, "game status")
    await say(table.alice, "end-phase")  # not her turn
    await say(table.bob, "move", unit="az-bowmen-1", to="0101")  # not his unit
    info = await table.game()
    move = next(
        a for a in await table.service.legal_actions(info.id, "spanish") if a["type"] == "move"
    )
    start = info.state["units"][move["unit"]]["at"]
    await say(table.bob, "move", unit=move["unit"], to=move["to"])  # narrated in German
    for _ in range(3):
        info = await table.game()
        side = info.awaiting[0]
        person = table.bob if side == "spanish" else table.alice
        await say(person, "end-phase")
    await say(table.alice, "game status")
    await say(table.alice, "game log")
    await say(table.alice, "info", unit=move["unit"])
    board = table.boards()[-1]
    replies.append("[board] " + message_text(board))
    text = "\n".join(replies)
    for card in cards_by_id().values():
        # a card's title is game data (its German text around the title is checked)
        text = text.replace(card["title"], "«card»")
    assert "«card»" in text and "Spanier" in text and "Bewegung" in text, text
    assert "Phase: Movement" not in text and "Phase Movement" not in text, text
    assert "gehört dir nicht" in text and "Du bist nicht am Zug" in text, text
    assert f"zieht {start} → " in text and "Seite: Spanier" in text, text
    assert "• Spanish:" not in text and "• Aztec:" not in text, text
    assert not english_sentences(text), english_sentences(text)


def refusal(ruleset_name: str, state: dict, command: str) -> RuleError:
    ruleset = get_ruleset(ruleset_name)
    action = parse_command(command)
    action.setdefault("side", ruleset.awaiting(state)[0])
    with pytest.raises(RuleError) as refused:
        ruleset.apply(state, action, fixed([]))
    return refused.value


def test_the_common_refusals_of_pocket_tactics_and_rivet_wars_read_german():
    from tests.pockettactics.helpers import position

    state = position({"spearman": "0808", "slinger": "0809"})
    refused = refusal("pocket-tactics", state, "/move unit:spearman to:0101")
    assert rule_text(refused, "en") == str(refused) and "is not a tile" in str(refused)
    assert rule_text(refused, "de").startswith("0101 ist kein Plättchen der Karte"), rule_text(
        refused, "de"
    )
    refused = refusal("pocket-tactics", state, "/fire unit:spearman target:slinger")
    assert rule_text(refused, "de") == "spearman hat keinen Fernkampfangriff."

    rivet = get_ruleset("rivet-wars")
    state, _ = rivet.setup(rivet.load_scenario(rivet.default_scenario), seeded("test", 1))
    refused = refusal("rivet-wars", state, "/move unit:nobody to:A1")
    assert rule_text(refused, "de").startswith("Es gibt keine Einheit 'nobody' auf dem Brett."), (
        rule_text(refused, "de")
    )
    header = rivet.localised_header(state, "de")
    assert {"Runde", "Phase", "Aktive Seite", "Siegpunkte", "Nieten"} <= set(header), header
    assert "Alliierte" in header["Siegpunkte"]
    assert not english_sentences("\n".join(f"{k}: {v}" for k, v in header.items()))


def test_not_your_turn_names_the_sides_in_german():
    teno = get_ruleset("tenochtitlan")
    state, _ = teno.setup(teno.load_scenario("historical"), seeded("test", 1))
    other = next(s for s in teno.sides if s not in teno.awaiting(state))
    with pytest.raises(RuleError) as refused:
        teno.apply(state, {"type": "end-phase", "side": other}, fixed([]))
    german = rule_text(refused.value, "de")
    assert "Spanier" in german or "Azteken" in german, german
    assert not english_sentences(german), german


def test_decision_buttons_read_as_german_sentences():
    from cogs.common import decision_label
    from tests.pockettactics.helpers import RS, act, position

    state = position(
        {
            "spearman": "0808",
            "archer": "0807",
            "rider": "0708",
            "slinger": "0809",
            "goblin": "0910",
            "troll": "0810",
        }
    )
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 3, 4, 2])
    state, _ = act(state, "/pass")
    labels = [decision_label(RS, state, a, "de") for a in RS.legal_actions(state, "south")]
    assert "Deinen DEF-Würfel mit der 4 neu würfeln" in labels, labels
    assert labels[-1] == "Jetzt nichts davon (passen)"
    teno = get_ruleset("tenochtitlan")
    retreat = {"type": "retreat", "side": "aztec", "unit": "az-infantry-1", "to": "0507"}
    teno_state, _ = teno.setup(teno.load_scenario("historical"), seeded("test", 1))
    label = decision_label(teno, teno_state, retreat, "de")
    assert "zurückziehen: " in label and "az-infantry-1" in label, label
    assert not any(part.startswith("/") for part in label.split()), label


async def test_a_replay_that_cannot_read_the_log_says_so_in_the_client_s_language(
    table, german, monkeypatch
):
    import service.games as games_module

    await table.started_game()
    for player in (table.alice, table.alice, table.bob, table.bob):
        await player.slash(table.thread, "end-phase")
    monkeypatch.setattr(games_module, "REPLAY_READ_TIMEOUT", 0.05)
    real_read = table.service.store.actions_live_at

    async def hanging_read(*args):
        import asyncio

        await asyncio.sleep(30)
        return await real_read(*args)

    monkeypatch.setattr(table.service.store, "actions_live_at", hanging_read)
    reply = reply_text(await table.dave.slash(table.thread, "game replay"))
    assert "Wiederholung konnte das Protokoll" in reply and not english_sentences(reply), reply
    assert "Traceback" not in reply
    assert not any(
        a.filename == "replay.gif" for m in table.thread.history() for a in m.attachments
    )
