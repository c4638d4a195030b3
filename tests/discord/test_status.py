"""/game status as a newcomer reads it (issue 15 audit)."""

from __future__ import annotations

import pytest

from .conftest import reply_text


@pytest.mark.parametrize("dice", [[]])
async def test_german_status_names_the_side_to_act_once(table, german):
    """Tactical Table War's German header calls its active side "Am Zug", the words of the
    status's own line: the status said "Am Zug: Rot" twice."""
    await table.alice.slash(table.channel, "game new", ruleset="tactical-table-war")
    await table.alice.slash(table.thread, "game join", side="red")
    await table.bob.slash(table.thread, "game join", side="blue")
    await table.alice.slash(table.thread, "game start")
    status = reply_text(await table.bob.slash(table.thread, "game status"))
    assert status.count("Am Zug: Rot") == 1, status
    assert "Runde: 1 / 12" in status and "Blau: <@" in status, status


@pytest.mark.parametrize("dice", [[]])
@pytest.mark.parametrize(
    ("game", "first", "german_line"),
    [
        ("siege", "besieger", "Partie beendet. Sieger: Verteidiger (Aufgabe: Belagerer)."),
        ("pocket-tactics", "north", "Partie beendet. Sieger: Süd (Aufgabe: Nord)."),
    ],
)
async def test_a_german_status_says_why_the_game_ended_in_german(
    table, german, game, first, german_line
):
    """After /game resign the status read "Partie beendet. Sieger: Verteidiger (Besiegers
    resigned)."; the reason is the reader's language like the rest of the line."""
    from engine import registry

    second = [s for s in registry.get_ruleset(game).sides if s != first][0]
    await table.alice.slash(table.channel, "game new", ruleset=game)
    await table.alice.slash(table.thread, "game join", side=first)
    await table.bob.slash(table.thread, "game join", side=second)
    await table.alice.slash(table.thread, "game start")
    await table.alice.slash(table.thread, "game resign")
    status = reply_text(await table.bob.slash(table.thread, "game status"))
    assert german_line in status, status


def test_siege_names_its_own_endings_in_german():
    from engine import registry

    siege = registry.get_ruleset("siege")
    for reason, german in [
        ("held out for 12 rounds", "12 Runden standgehalten"),
        ("every defender figure is dead", "alle Figuren der Verteidiger sind tot"),
        ("Gaston stands in the keep", "Gaston steht im Bergfried"),
    ]:
        state = {"result": {"winner": "defender", "reason": reason}}
        assert siege.result_reason(state, "de") == german
        assert siege.result_reason(state) == reason


@pytest.mark.parametrize("dice", [[]])
async def test_the_german_board_post_says_why_the_game_ended_in_german(table, german):
    """The public post after /game resign read "Partie beendet. Sieger: Verteidiger
    (Besiegers resigned)." on a German server; the reason is German like the rest of its
    line."""
    import discord

    from .conftest import message_text

    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admins])
    await admin.slash(table.channel, "umpire config", language="de")
    await table.alice.slash(table.channel, "game new", ruleset="siege")
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    await table.alice.slash(table.thread, "game resign")
    posts = [
        m
        for m in table.thread.history(viewer=table.dave)
        if any(att.filename == "board.png" for att in m.attachments)
    ]
    board = message_text(posts[-1])
    assert "Partie beendet. Sieger: Verteidiger (Aufgabe: Belagerer)." in board, board
    assert "resigned" not in board, board


@pytest.mark.parametrize("dice", [[]])
async def test_a_resignation_is_narrated_in_german_in_status_and_log(table, german):
    """Under "since your last action" and in /game log the resignation read "Besiegers
    resigned" to a German reader."""
    await table.alice.slash(table.channel, "game new", ruleset="siege")
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    await table.alice.slash(table.thread, "game resign")
    status = reply_text(await table.bob.slash(table.thread, "game status"))
    log = reply_text(await table.bob.slash(table.thread, "game log"))
    for text in (status, log):
        assert "resigned" not in text, text
    assert "Aufgabe: Belagerer" in status, status
    assert "Aufgabe: Belagerer" in log, log


def test_a_loss_on_time_is_narrated_in_the_readers_language():
    from engine import registry
    from service.games import describe_event
    from service.replay import end_by

    siege = registry.get_ruleset("siege")
    state = {"result": None}
    _, events = end_by(siege, state, {"type": "forfeit", "side": "defender"})
    assert describe_event(siege, state, events[0], "en") == "Defenders ran out of time"
    assert describe_event(siege, state, events[0], "de") == "Bedenkzeit abgelaufen: Verteidiger"
    _, events = end_by(siege, state, {"type": "resign", "side": "besieger"})
    assert describe_event(siege, state, events[0], "de") == "Aufgabe: Belagerer"
