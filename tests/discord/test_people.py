"""Hidden information, referees, slow turns and languages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cogs.i18n import MESSAGES, t

from .conftest import reply_text

ROOT = Path(__file__).resolve().parents[2]
SECRET = "quixotic-jester"  # Red's secret card: no hex digest or English sentence contains it


async def test_hidden_information_only_in_its_owners_ephemeral_messages(table):
    await table.started_game()
    thread = table.thread
    # Play a little so boards, results and logs are posted.
    await table.alice.slash(thread, "move", unit="r1", to="0201")
    await table.alice.slash(thread, "end-phase")
    board = table.boards()[-1]
    mine = await table.alice.click(board, label="Show my options")
    assert mine.ephemeral
    assert SECRET in reply_text(mine), "Red sees its own secret card"
    assert "Only you can see this" in reply_text(mine)
    theirs = await table.bob.click(board, label="Show my options")
    assert theirs.ephemeral and SECRET not in reply_text(theirs)
    await table.alice.slash(thread, "game status")
    await table.dave.slash(thread, "game log")
    await table.dave.slash(thread, "game board")
    # Nothing a spectator can read carries it: every public message, embed and field...
    public = table.public_text()
    assert SECRET not in public
    # ...and no non-ephemeral message body the bot sent to Discord at all.
    for request in table.env.http_requests:
        body = request.json or {}
        if (
            isinstance(body, dict)
            and not (body.get("flags", 0) & 64)
            and not ((body.get("data") or {}).get("flags", 0) & 64)
        ):
            assert SECRET not in json.dumps(body), request.path


async def test_referee_undo_place_and_pause_are_announced(table):
    await table.started_game()
    thread = table.thread
    await table.alice.slash(thread, "move", unit="r1", to="0201")
    refused = await table.bob.slash(thread, "ref undo")
    assert "Only a referee" in reply_text(refused)
    undone = await table.alice.slash(thread, "ref undo")  # alice created the game
    assert reply_text(undone) == "Done.", reply_text(undone)
    assert (await table.game()).state["units"]["r1"]["at"] == "0101"
    placed = await table.alice.slash(thread, "ref place", unit="b1", to="0303")
    assert reply_text(placed) == "Done.", reply_text(placed)
    assert (await table.game()).state["units"]["b1"]["at"] == "0303"
    await table.alice.slash(thread, "ref pause", paused=True)
    blocked = await table.alice.slash(thread, "move", unit="r1", to="0201")
    assert "not running" in reply_text(blocked) or "paused" in reply_text(blocked)
    await table.alice.slash(thread, "ref pause", paused=False)
    public = table.public_text()
    for phrase in (
        "took back the last action",
        "placed b1 on 0303",
        "paused the game",
        "resumed the game",
    ):
        assert phrase in public, phrase
    history = await table.service.history((await table.game()).id, include_undone=True)
    assert [r.live for r in history][:1] == [False], "the undone move stays in the audit log"


async def test_referee_role_from_umpire_config(table):
    await table.new_game()
    role = table.guild.create_role("Umpires")
    admin_role = table.guild.create_role(
        "Admins", permissions=__import__("discord").Permissions(manage_guild=True)
    )
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admin_role])
    referee = table.guild.add_member(table.env.create_user("frank"), roles=[role])
    denied = await table.bob.slash(table.thread, "ref kick", member=table.alice)
    assert "Only a referee" in reply_text(denied)
    saved = await admin.slash(table.channel, "umpire config", referee_role=role)
    assert "Saved" in reply_text(saved), reply_text(saved)
    await table.alice.slash(table.thread, "game join", side="red")
    kicked = await referee.slash(table.thread, "ref kick", member=table.alice)
    assert reply_text(kicked) == "Done.", reply_text(kicked)
    assert (await table.service.seats((await table.game()).id))["red"] == []
    assert "removed" in table.public_text()


async def test_reminders_mention_only_the_awaited_player_once_per_interval(table):
    await table.started_game(time_control="daily")
    table.clock.advance(13 * 3600)  # daily games remind every 12 hours
    await table.env.advance_time(61)  # the reminder loop runs once a minute
    reminders = [m for m in table.thread.history() if "⏰" in m.content]
    assert len(reminders) == 1
    assert f"<@{table.alice.id}>" in reminders[0].content
    assert f"<@{table.bob.id}>" not in reminders[0].content
    assert "h" in reminders[0].content and "left" in reminders[0].content
    await table.env.advance_time(61)
    assert len([m for m in table.thread.history() if "⏰" in m.content]) == 1, "no spam"
    table.clock.advance(12 * 3600)
    await table.env.advance_time(61)
    assert len([m for m in table.thread.history() if "⏰" in m.content]) == 2


async def test_what_changed_since_you_last_acted(table):
    await table.started_game()
    thread = table.thread
    await table.alice.slash(thread, "move", unit="r1", to="0201")
    await table.alice.slash(thread, "end-phase")
    await table.alice.slash(thread, "end-phase")
    result = await table.bob.slash(thread, "move", unit="b1", to="0505")
    text = reply_text(result)
    assert "Since you last acted" in text and "r1" in text


async def test_german_replies(table, german):
    await table.started_game()
    early = await table.bob.slash(table.thread, "move", unit="b1", to="0505")
    assert "Du bist nicht am Zug" in reply_text(early)
    done = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    assert reply_text(done).startswith("Ausgeführt")
    status = await table.dave.slash(table.thread, "game status")
    assert "läuft" in reply_text(status)


def test_every_message_exists_in_both_languages():
    assert set(MESSAGES["en"]) == set(MESSAGES["de"])
    assert t("de", "ok") == "Erledigt." and t("en", "ok") == "Done."


def test_bot_py_commands_prints_the_tree_as_json_with_german_localisations():
    out = subprocess.run(
        [sys.executable, "bot.py", "commands"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    tree = json.loads(out.stdout)
    by_name = {command["name"]: command for command in tree}
    for name in (
        "game",
        "ref",
        "umpire",
        "move",
        "attack",
        "fire",
        "end-phase",
        "deploy",
        "rally",
        "retreat",
        "advance",
        "place",
        "play",
        "discard",
        "reserve",
        "pass",
        "act",
        "undo",
        "flare",
    ):
        assert name in by_name, name
    move = by_name["move"]
    assert move["name_localizations"]["de"] == "bewegen"
    assert move["description_localizations"]["de"]
    assert all(option["autocomplete"] for option in move["options"])
    game = {sub["name"]: sub for sub in by_name["game"]["options"]}
    assert set(game) >= {
        "new",
        "join",
        "start",
        "status",
        "board",
        "log",
        "resign",
        "rules",
        "list",
        "replay",
        "verify",
    }
    assert by_name["game"]["name_localizations"]["de"] == "partie"
    ref = {sub["name"] for sub in by_name["ref"]["options"]}
    assert ref >= {"undo", "place", "remove", "phase", "seat", "kick", "pause"}
    assert by_name["attack"]["options"][2]["name"] == "with"


def test_health_check_needs_a_recent_heartbeat_and_a_database(tmp_path):
    import sqlite3
    import time

    from cogs.health import check

    database = tmp_path / "umpire.sqlite3"
    heartbeat = tmp_path / "beat"
    assert any("database" in p for p in check(str(database), None))
    connection = sqlite3.connect(database)
    connection.execute("CREATE TABLE games (id INTEGER)")
    connection.close()
    assert any("heartbeat" in p for p in check(str(database), heartbeat))
    heartbeat.write_text("now")
    assert check(str(database), heartbeat) == []
    assert any(
        "no heartbeat for" in p for p in check(str(database), heartbeat, now=time.time() + 3600)
    )
    # A path with characters that mean something in a file: URI, and the sqlite:/// form.
    odd = tmp_path / "a?b#c%41" / "umpire.sqlite3"
    odd.parent.mkdir()
    connection = sqlite3.connect(odd)
    connection.execute("CREATE TABLE games (id INTEGER)")
    connection.close()
    assert check(str(odd), heartbeat) == []
    assert check(f"sqlite:///{odd}", heartbeat) == []


@pytest.mark.parametrize("on_timeout", ["referee", "forfeit"])
async def test_a_clock_that_runs_out_goes_to_the_referee_or_forfeits(table, on_timeout):
    await table.started_game(time_control="daily", on_timeout=on_timeout)
    table.clock.advance(25 * 3600)  # daily: 24 hours to start with
    await table.env.advance_time(61)
    info = await table.game()
    text = table.public_text()
    assert "Red's clock ran out" in text
    if on_timeout == "forfeit":
        assert info.status == "finished" and info.result["winner"] == "blue"
        assert "Winner: Blue" in text
    else:
        assert info.status == "paused"
        assert f"<@{table.alice.id}>" in table.thread.last_message.content, "the referee is called"
        blocked = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
        assert "paused" in reply_text(blocked) or "not running" in reply_text(blocked)
        await table.alice.slash(table.thread, "ref pause", paused=False)
        done = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
        assert reply_text(done).startswith("Done"), reply_text(done)


def test_without_a_token_bot_py_starts_the_local_table_and_says_why(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "UMPIRE_DB": str(tmp_path / "x.db")}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert "No DISCORD_TOKEN is configured" in out.stdout
    assert "local table" in out.stdout


async def test_public_posts_follow_the_servers_language(table):
    admin_role = table.guild.create_role(
        "Admins", permissions=__import__("discord").Permissions(manage_guild=True)
    )
    admin = table.guild.add_member(table.env.create_user("erin"), roles=[admin_role])
    await admin.slash(table.channel, "umpire config", language="de")
    await table.started_game()
    board = table.boards()[-1]
    assert "Am Zug: Red" in board.embeds[0].description
    labels = [button.label for button in board.components[0].children]
    assert labels == ["Phase beenden", "Rücknahme anfragen", "Meine Optionen"]
    # A player's own replies still follow their client (English here).
    done = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    assert reply_text(done).startswith("Done")


def test_the_command_tree_obeys_discords_limits():
    """What Discord would reject with a 400 at sync: names, lengths, counts, option order."""
    import asyncio
    import re

    from cogs.runtime import command_tree_payload

    tree = asyncio.run(command_tree_payload())
    assert len(tree) <= 100
    name_ok = re.compile(r"^[-_\w]{1,32}$")

    def check(item, depth=0):
        names = [item["name"], *item.get("name_localizations", {}).values()]
        for name in names:
            assert name_ok.match(name) and name == name.lower(), name
        for text in [item["description"], *item.get("description_localizations", {}).values()]:
            assert 1 <= len(text) <= 100, text
        options = item.get("options", [])
        assert len(options) <= 25
        for lang in ("en", "de"):
            names = [
                o.get("name_localizations", {}).get(lang, o["name"]) if lang != "en" else o["name"]
                for o in options
            ]
            assert len(names) == len(set(names)), f"{item['name']}: duplicate {lang} names"
        leaves = [o for o in options if o["type"] not in (1, 2)]
        required = [o.get("required", False) for o in leaves]
        assert required == sorted(required, reverse=True), f"{item['name']}: required first"
        for option in options:
            assert len(option.get("choices", [])) <= 25
            for choice in option.get("choices", []):
                assert 1 <= len(choice["name"]) <= 100
            check(option, depth + 1)

    for command in tree:
        check(command)
    for lang in ("en", "de"):
        names = [
            c["name"] if lang == "en" else c.get("name_localizations", {}).get(lang, c["name"])
            for c in tree
        ]
        assert len(names) == len(set(names)), f"duplicate top-level {lang} names"


async def test_a_development_guild_gets_the_commands_at_once(db_path, clock, monkeypatch):
    import simcord

    from .conftest import SETTLE_SECONDS, make_bot

    guild_id = 424242424242424242
    monkeypatch.setenv("UMPIRE_DEV_GUILD", str(guild_id))
    bot = make_bot(clock)
    env = simcord.Env(bot, shard_count=1, settle_timeout=SETTLE_SECONDS)
    guild = env.create_guild(id=guild_id)
    channel = guild.create_text_channel("wargames")
    member = guild.add_member(env.create_user("alice"))
    await env.start()
    try:
        syncs = [r.path for r in env.http_requests if r.method == "PUT"]
        assert syncs == [f"/applications/{env.backend.application_id}/guilds/{guild_id}/commands"]
        result = await member.slash(channel, "game list")
        assert "No games here yet" in reply_text(result)
    finally:
        await env.shutdown()
        await bot.close_service()


async def test_referee_phase_remove_and_clock(table):
    await table.started_game(time_control="slow")
    thread = table.thread
    sides = await table.alice.autocomplete(thread, "ref phase", "side", "")
    assert [s["value"] for s in sides] == ["red", "blue"]
    units = await table.alice.autocomplete(thread, "ref remove", "unit", "b")
    assert {u["value"] for u in units} == {"b1", "b2"}
    assert (
        reply_text(await table.alice.slash(thread, "ref phase", phase="fire", side="blue"))
        == "Done."
    )
    info = await table.game()
    assert (info.state["phase"], info.state["active"]) == ("fire", "blue")
    assert reply_text(await table.alice.slash(thread, "ref remove", unit="r2")) == "Done."
    assert "r2" not in (await table.game()).state["units"]
    assert (
        reply_text(await table.alice.slash(thread, "ref clock", side="red", hours=5.0)) == "Done."
    )
    clocks = await table.service.clocks(info.id)
    assert abs(clocks["red"] - 5 * 3600) < 1
    bad = await table.alice.slash(thread, "ref place", unit="zz", to="0101")
    assert bad.ephemeral and "No unit" in reply_text(bad)
    text = table.public_text()
    for phrase in ("set the phase to fire", "removed r2", "set Red's clock to 5.0 h"):
        assert phrase in text, phrase
    status = await table.bob.slash(thread, "game status")
    assert "Clock Red: 5h" in reply_text(status), reply_text(status)
