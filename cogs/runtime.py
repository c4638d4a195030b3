"""Building and running the Discord bot.

``create_bot()`` returns a fully configured :class:`commands.AutoShardedBot`; settings (token,
database path, development guild, shards) come from the environment or ``.env``
(``service.config``). The GameService opens in ``setup_hook``, so a harness can build the bot,
attach it to a fake gateway, and get exactly what production runs.

Several processes can share one deployment: each runs the gateway shards of
``UMPIRE_SHARDS`` and therefore receives, answers and reminds for exactly the servers of those
shards; only one of them (the one with shard 0, or ``UMPIRE_SYNC=1``) pushes the command tree,
and only when its hash differs from the one kept in the database. See ``docs/scaling.md``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
import time
from collections.abc import Callable, Iterable

import discord
from discord.ext import commands

from service.config import Settings, load_settings

from .buttons import BoardButton, DecisionButton, DecisionMenu
from .i18n import UmpireTranslator
from .limits import UmpireTree
from .presenter import Presenter

log = logging.getLogger("umpire.discord")

COG_MODULES = ("cogs.game", "cogs.play", "cogs.referee", "cogs.reminders")


def intents() -> discord.Intents:
    """Slash commands, buttons and thread posts need no privileged intent (no message
    content, no member list): guilds is enough to know channels, threads and roles."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class UmpireBot(commands.AutoShardedBot):
    """``sync_commands``: push the command tree if this process is the one that syncs and the
    tree changed; ``force_sync``: push it whatever the stored hash says (``bot.py sync``)."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        dice_override: Iterable[int] | None = None,
        sync_commands: bool = True,
        open_service: bool = True,
        force_sync: bool = False,
    ):
        shards = settings.shards
        # No UMPIRE_SHARDS: shard_count None makes discord.py ask Discord for the
        # recommended count and run every shard in this one process.
        sharding: dict = (
            {"shard_count": shards.count, "shard_ids": list(shards.ids)} if shards else {}
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=UmpireTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **sharding,
        )
        self.settings = settings
        self.force_sync = force_sync
        self.clock = clock
        self.dice_override = dice_override
        self.sync_commands = sync_commands
        self.open_service = open_service
        self.presenter = Presenter(self, None, settings)
        self._cogs_installed = False
        # The process's own bot (run_bot): its long-lived objects leave the garbage
        # collector's sight once set up (service.lifecycle.settle_long_lived_objects).
        self.settles_memory = False

    async def install(self) -> None:
        """Cogs, play commands, translator and persistent buttons: everything but the
        database and the gateway (also used by ``python bot.py commands``)."""
        if self._cogs_installed:
            return
        await self.tree.set_translator(UmpireTranslator())
        for module in COG_MODULES:
            if module == "cogs.reminders" and not self.open_service:
                continue  # the reminder loop needs the database
            await self.load_extension(module)
        self.add_dynamic_items(BoardButton, DecisionButton, DecisionMenu)
        self._cogs_installed = True

    async def setup_hook(self) -> None:
        if self.open_service:
            from service.games import GameService

            service = await GameService.open(
                self.settings.database, clock=self.clock, dice_override=self.dice_override
            )
            service.shard_plan = self.settings.shards
            self.presenter.service = service
        await self.install()
        if self.force_sync or (self.sync_commands and self.settings.syncs_commands):
            await self.sync_tree(force=self.force_sync)
        if self.settles_memory:
            from service.lifecycle import settle_long_lived_objects

            log.info(
                "%d long-lived objects set aside from garbage collection",
                settle_long_lived_objects(),
            )

    async def tree_digest(self, guild: discord.abc.Snowflake | None) -> str:
        """sha256 of exactly what ``tree.sync(guild=...)`` would send (translations included)
        and of the application it goes to."""
        translator = self.tree.translator
        payload = []
        for command in self.tree.get_commands(guild=guild):
            if translator is not None:
                payload.append(await command.get_translated_payload(self.tree, translator))
            else:
                payload.append(command.to_dict(self.tree))
        payload.sort(key=lambda item: (item.get("type", 1), item["name"]))
        text = json.dumps(
            {"application": self.application_id, "commands": payload},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_tree(self, *, force: bool = False) -> bool:
        """Push the command tree to Discord unless the database says this very tree was
        already pushed to the same target; True if it was pushed. Each target (global, or the
        development guild) keeps its own hash, so switching between them syncs once."""
        guild_id = self.settings.dev_guild
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            # A development guild sees changes at once; global commands take up to an hour.
            self.tree.copy_global_to(guild=guild)
        key = f"command_tree:guild:{guild_id}" if guild_id else "command_tree:global"
        digest = await self.tree_digest(guild)
        service = self.presenter.service
        store = service.store if service is not None else None
        if not force and store is not None and await store.get_meta(key) == digest:
            log.info("command tree unchanged since the last sync (%s); not syncing", key)
            return False
        await self.tree.sync(guild=guild)
        if store is not None:
            await store.set_meta(key, digest)
        log.info("command tree synced (%s)", key)
        return True

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.close_service()

    async def close_service(self) -> None:
        service, self.presenter.service = self.presenter.service, None
        if service is not None:
            await service.close()


def create_bot(
    *,
    clock: Callable[[], float] = time.time,
    dice_override: Iterable[int] | None = None,
    settings: Settings | None = None,
) -> UmpireBot:
    """The bot as production runs it; settings (database path included) from the environment.
    ``clock`` and ``dice_override`` are for harnesses (fake time, fixed dice)."""
    return UmpireBot(settings or load_settings(), clock=clock, dice_override=dice_override)


def run_bot(settings: Settings) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if settings.shards is not None:
        log.info("running shards %s", settings.shards)
    bot = UmpireBot(settings)
    bot.settles_memory = True
    asyncio.run(_serve(bot, settings.token))
    return 0


async def force_sync(settings: Settings) -> None:
    """Log in (no gateway connection), push the command tree, record its hash, close."""
    bot = UmpireBot(settings, force_sync=True)
    async with bot:
        await bot.login(settings.token or "")


def sync_commands(settings: Settings) -> int:
    """``python bot.py sync``: push the command tree now, whatever the stored hash says (e.g.
    after someone changed the commands in the developer portal)."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if not settings.token:
        print("python bot.py sync needs DISCORD_TOKEN (environment or .env).", file=sys.stderr)
        return 2
    asyncio.run(force_sync(settings))
    return 0


async def _serve(bot: commands.Bot, token: str) -> None:
    """``bot.run`` without its signal handling: SIGTERM/SIGINT/SIGHUP close the gateway and
    the database cleanly (the bot is PID 1 in the container, see service/lifecycle.py)."""
    from service.lifecycle import run_until_signalled

    async with bot:
        await run_until_signalled(bot.start(token), bot.close)


async def command_tree_payload() -> list[dict]:
    """The global command tree exactly as ``tree.sync()`` would send it, translations
    included, built without a database or a connection."""
    settings = Settings(token=None, database=":memory:", dev_guild=None, referee_role=None)
    bot = UmpireBot(settings, sync_commands=False, open_service=False)
    # ``async with`` prepares the client the way login would (an AutoShardedBot cannot be
    # closed otherwise) and closes it after.
    async with bot:
        await bot.install()
        tree = bot.tree
        translator = tree.translator
        return [
            await command.get_translated_payload(tree, translator)
            for command in tree._get_all_commands(guild=None)
        ]


def print_command_tree() -> int:
    payload = asyncio.run(command_tree_payload())
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
