"""A harness over SimCord: the real bot (``bot.create_bot()``), real discord.py, a fake Discord
REST API and gateway in memory, a real SQLite file. Players are SimCord members who type slash
commands, pick autocomplete choices and click buttons exactly as a client would.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import discord
import pytest
import simcord
import simcord.interactions as simcord_interactions

import bot as bot_module
from engine import registry

# How long SimCord waits for the bot to go quiet after an event. A guard against hangs, not a
# speed target: some commands (an exact setup search) take seconds on a loaded 2-core machine.
SETTLE_SECONDS = 60.0

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")


class FakeClock:
    """Service time the test controls (clocks, reminders)."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Table:
    env: simcord.Env
    guild: object
    channel: object
    alice: object  # red
    bob: object  # blue
    carol: object  # red too (team play)
    dave: object  # spectator
    clock: FakeClock
    db: str
    bots: list = field(default_factory=list)

    @property
    def bot(self):
        return self.env.bot

    @property
    def service(self):
        return self.env.bot.presenter.service

    @property
    def thread(self):
        threads = self.channel.threads
        assert threads, "no game thread was opened"
        return threads[-1]

    def public(self) -> list[discord.Message]:
        """Everything a spectator can read: the channel and every thread of it."""
        messages = list(self.channel.history(viewer=self.dave))
        for thread in self.channel.threads:
            messages += thread.history(viewer=self.dave)
        return messages

    def public_text(self) -> str:
        return "\n".join(message_text(m) for m in self.public())

    def boards(self) -> list[discord.Message]:
        return [
            m
            for m in self.thread.history(viewer=self.dave)
            if m.components and any(att.filename == "board.png" for att in m.attachments)
        ]

    async def new_game(self, creator=None, **options):
        creator = creator or self.alice
        return await creator.slash(self.channel, "game new", ruleset="skirmish", **options)

    async def started_game(self, *, also=(), **options):
        """A started game: alice plays red, bob blue, plus ``also`` [(member, side)]."""
        await self.new_game(**options)
        await self.alice.slash(self.thread, "game join", side="red")
        await self.bob.slash(self.thread, "game join", side="blue")
        for member, side in also:
            await member.slash(self.thread, "game join", side=side)
        result = await self.alice.slash(self.thread, "game start")
        assert not reply_text(result).startswith(("Not", "Sorry")), reply_text(result)
        return await self.game()

    async def game(self):
        return await self.service.find_by_thread(self.thread.id)

    async def restart(self):
        """A new bot instance on the same database file, like a process restart."""
        old = self.env.bot
        new = make_bot(self.clock)
        await self.env.restart_bot(new)
        await old.close_service()
        self.bots.append(new)


def message_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def reply_text(result) -> str:
    """The text of an interaction's reply (the deferred response's follow-up, or the
    response itself)."""
    messages = []
    if result.response is not None:
        messages.append(result.response.message)
    messages += [f.message for f in result.followups]
    return "\n".join(message_text(m) for m in messages)


def make_bot(clock, dice=None):
    return bot_module.create_bot(clock=clock, dice_override=dice)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def db_path(tmp_path, monkeypatch):
    path = str(tmp_path / "umpire.sqlite3")
    monkeypatch.setenv("UMPIRE_DB", path)
    monkeypatch.delenv("UMPIRE_DEV_GUILD", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("UMPIRE_REFEREE_ROLE", raising=False)
    monkeypatch.delenv("UMPIRE_SHARDS", raising=False)
    monkeypatch.delenv("UMPIRE_SYNC", raising=False)
    return path


@pytest.fixture
def dice():
    """Fixed dice the service hands out in order (then the seeded dice)."""
    return [6] * 40


@pytest.fixture
async def table(db_path, clock, dice):
    bot = make_bot(clock, dice)
    # The bot is an AutoShardedBot; without UMPIRE_SHARDS it would ask Discord for the
    # recommended count, which the fake gateway answers with one shard.
    env = simcord.Env(bot, shard_count=1, settle_timeout=SETTLE_SECONDS)
    await env.start()
    bots = [bot]
    try:
        guild = env.create_guild()
        channel = guild.create_text_channel("wargames")
        people = [
            guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol", "dave")
        ]
        yield Table(env, guild, channel, *people, clock=clock, db=db_path, bots=bots)
    finally:
        await env.shutdown()
        for each in bots:
            await each.close_service()
    env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture
def german(monkeypatch):
    """Interactions arrive with a German client locale (SimCord always sends en-US)."""
    original = simcord_interactions.base_payload

    def payload(*args, **kwargs):
        record, data = original(*args, **kwargs)
        data["locale"] = "de"
        return record, data

    monkeypatch.setattr(simcord_interactions, "base_payload", payload)


async def click_together(env: simcord.Env, clicks: list[tuple[object, discord.Message, str]]):
    """Several members click buttons in the same instant: every INTERACTION_CREATE is
    delivered before the bot gets to run any of them (SimCord's actors would settle in
    between, which is not what "at once" means)."""
    from simcord.actors import _find_component, _visible_message
    from simcord.backend import serializers
    from simcord.enums import ComponentType, InteractionType

    records = []
    env._begin_operation("click_together")
    try:
        for actor, message, label in clicks:
            stored = _visible_message(actor, message)
            button = _find_component(
                stored.components, types=(ComponentType.BUTTON,), custom_id=None, label=label
            )
            record, payload = simcord_interactions.base_payload(
                env.backend,
                type=InteractionType.MESSAGE_COMPONENT,
                channel_id=stored.channel_id,
                guild_id=actor.guild.id,
                user_id=actor.id,
                data={"custom_id": button["custom_id"], "component_type": ComponentType.BUTTON},
            )
            payload["message"] = dict(serializers.message_payload(env.backend, stored))
            record.source_message_id = stored.id
            records.append(record)
            env.backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return [simcord.InteractionResult(env, record) for record in records]


async def slash_together(env: simcord.Env, calls: list[tuple[object, object, str, dict]]):
    """Several members send slash commands in the same instant (like ``click_together``):
    [(member, channel, "command name", options)]."""
    from simcord import actors
    from simcord.enums import AppCommandType, InteractionType

    records = []
    env._begin_operation("slash_together")
    try:
        for actor, channel, name, options in calls:
            parts = name.split()
            root = actors._resolve_visible_command(
                actor, channel.id, parts[0], AppCommandType.CHAT_INPUT
            )
            leaf, nesting = simcord_interactions.walk_to_subcommand(root, parts[1:])
            leaf_options, resolved = simcord_interactions.build_options(
                actor, name, leaf, options, channel_id=channel.id
            )
            data = {
                "id": root["id"],
                "name": root["name"],
                "type": root.get("type", AppCommandType.CHAT_INPUT),
                "options": simcord_interactions.nest_options(root, nesting, leaf_options),
            }
            if resolved:
                data["resolved"] = resolved
            record, payload = simcord_interactions.base_payload(
                env.backend,
                type=InteractionType.APPLICATION_COMMAND,
                channel_id=channel.id,
                guild_id=actor.guild.id,
                user_id=actor.id,
                data=data,
            )
            records.append(record)
            env.backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return [simcord.InteractionResult(env, record) for record in records]
