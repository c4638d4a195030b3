"""Sharded bot processes under SimCord: the bot runs the shards of UMPIRE_SHARDS, reminds only
for the servers of those shards, exactly one process pushes the command tree and only when the
tree changed (its hash is kept in the database); bad settings stop the start with a clear
message."""

import discord
import pytest
import simcord

import bot as bot_module
from service.config import ConfigError

from .conftest import make_bot, reply_text


def syncs(env):
    """The command-tree uploads the bot made (PUT of the command list)."""
    return [r.path for r in env.http_requests if r.method == "PUT" and "/commands" in r.path]


def changed_bot(clock):
    """A bot whose command tree differs from today's by one command (a new release)."""
    bot = make_bot(clock)

    @bot.tree.command(name="umpire-extra", description="A command the last release lacked")
    async def extra(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("extra", ephemeral=True)

    return bot


async def test_the_tree_is_synced_on_first_start_then_only_when_it_changed(table):
    assert len(syncs(table.env)) == 1, "the first start syncs"
    await table.restart()
    assert len(syncs(table.env)) == 1, "same tree, same database: no sync"
    new = changed_bot(table.clock)
    old = table.env.bot
    await table.env.restart_bot(new)
    await old.close_service()
    table.bots.append(new)
    assert len(syncs(table.env)) == 2, "a changed tree syncs again"
    result = await table.alice.slash(table.channel, "umpire-extra")
    assert reply_text(result) == "extra"
    await table.restart()  # back to today's tree: that is a change too
    assert len(syncs(table.env)) == 3
    result = await table.alice.slash(table.channel, "game list")
    assert "No games here yet" in reply_text(result)


async def start_sharded(monkeypatch, clock, shards, **env):
    monkeypatch.setenv("UMPIRE_SHARDS", shards)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    bot = make_bot(clock)
    sim = simcord.Env(bot)
    await sim.start()
    return bot, sim


async def stop(bot, sim):
    await sim.shutdown()
    await bot.close_service()


async def test_a_process_runs_its_shards_and_reminds_only_for_their_servers(
    db_path, clock, monkeypatch
):
    bot, sim = await start_sharded(monkeypatch, clock, "0-1/4")
    try:
        assert (bot.shard_count, sorted(bot.shard_ids)) == (4, [0, 1])
        assert len(syncs(sim)) == 1, "the process with shard 0 syncs"
        guild = sim.create_guild(shard_id=1)
        channel = guild.create_text_channel("wargames")
        alice, bob = (guild.add_member(sim.create_user(name)) for name in ("alice", "bob"))
        await alice.slash(channel, "game new", ruleset="skirmish", time_control="daily")
        thread = channel.threads[-1]
        await alice.slash(thread, "game join", side="red")
        await bob.slash(thread, "game join", side="blue")
        await alice.slash(thread, "game start")
        service = bot.presenter.service
        # A game of a server on shard 2: another process answers and reminds for it.
        foreign_guild = (77 << 22) * 4 + (2 << 22)
        assert (foreign_guild >> 22) % 4 == 2
        other = await service.create_game(
            "skirmish", seed="x", guild_id=foreign_guild, settings={"clock": {"remind_every": 3600}}
        )
        await service.start_game(other.id)
        clock.advance(13 * 3600)
        await sim.advance_time(61)
        reminders = [m for m in thread.history() if "⏰" in m.content]
        assert len(reminders) == 1 and f"<@{alice.id}>" in reminders[0].content
        foreign = {c["side"]: c for c in await service.store.clocks(other.id)}
        assert foreign["red"]["last_reminder_at"] is None, (
            "the other process's reminder is left for it to claim"
        )
    finally:
        await stop(bot, sim)


async def test_only_the_process_with_shard_0_syncs_unless_told(db_path, clock, monkeypatch):
    bot, sim = await start_sharded(monkeypatch, clock, "2-3/4")
    try:
        assert syncs(sim) == []
    finally:
        await stop(bot, sim)
    bot, sim = await start_sharded(monkeypatch, clock, "2-3/4", UMPIRE_SYNC="1")
    try:
        assert len(syncs(sim)) == 1
    finally:
        await stop(bot, sim)


@pytest.mark.parametrize(
    "value", ["abc", "12345678901234567890123", "-5", "0", "1e18", "4242 4242"]
)
def test_a_malformed_development_guild_is_an_error_not_a_global_sync(
    db_path, monkeypatch, capsys, value
):
    monkeypatch.setenv("UMPIRE_DEV_GUILD", value)
    with pytest.raises(ConfigError, match="UMPIRE_DEV_GUILD"):
        bot_module.create_bot()
    assert bot_module.main([]) == 2
    assert "UMPIRE_DEV_GUILD" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["4", "0-3", "4/4", "3-1/4", "0-1,1-2/4", "a/4", "0/0"])
def test_malformed_shards_stop_the_start(db_path, monkeypatch, capsys, value):
    monkeypatch.setenv("UMPIRE_SHARDS", value)
    assert bot_module.main(["sync"]) == 2
    assert "UMPIRE_SHARDS" in capsys.readouterr().err


def test_sync_without_a_token_says_what_is_missing(db_path, capsys):
    assert bot_module.main(["sync"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


async def test_bot_py_sync_pushes_the_tree_even_when_the_hash_matches(table):
    from cogs.runtime import UmpireBot
    from service.config import load_settings

    assert len(syncs(table.env)) == 1
    forced = UmpireBot(load_settings(), clock=table.clock, force_sync=True)
    old = table.env.bot
    await table.env.restart_bot(forced)
    await old.close_service()
    table.bots.append(forced)
    assert len(syncs(table.env)) == 2


async def test_each_sync_target_keeps_its_own_hash(table, monkeypatch):
    monkeypatch.setenv("UMPIRE_DEV_GUILD", str(table.guild.id))
    await table.restart()
    guild_syncs = [path for path in syncs(table.env) if "/guilds/" in path]
    assert len(guild_syncs) == 1, "the development guild had never got this tree"
    await table.restart()
    assert len(syncs(table.env)) == 2, "unchanged for the development guild too"
    result = await table.alice.slash(table.channel, "game list")
    assert "No games here yet" in reply_text(result)


def test_a_malformed_sync_switch_stops_the_start(db_path, monkeypatch, capsys):
    monkeypatch.setenv("UMPIRE_SYNC", "sometimes")
    assert bot_module.main([]) == 2
    assert "UMPIRE_SYNC" in capsys.readouterr().err


@pytest.mark.parametrize(
    "value",
    [
        "postgress://u:s3cret@db/umpire",
        "mysql://u:s3cret@db/x",
        "sqlite://relative.db",
        "sqlite:///",
        "  ",
    ],
)
def test_a_database_setting_naming_nothing_usable_stops_the_start(
    db_path, monkeypatch, capsys, tmp_path, value
):
    monkeypatch.setenv("UMPIRE_DB", value)
    with pytest.raises(ConfigError, match="UMPIRE_DB"):
        bot_module.create_bot()
    assert bot_module.main(["sync"]) == 2
    assert bot_module.main(["backup", str(tmp_path / "copy.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("UMPIRE_DB") == 2 and "s3cret" not in err
    assert not (tmp_path / "copy.sqlite3").exists()
