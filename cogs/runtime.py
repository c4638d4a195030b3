"""Building and running the Discord bot.

``create_bot()`` returns a fully configured :class:`commands.Bot`; settings (token, database
path, development guild) come from the environment or ``.env`` (``service.config``). The
GameService opens in ``setup_hook``, so a harness can build the bot, attach it to a fake
gateway, and get exactly what production runs.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from typing import Callable, Iterable

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


class UmpireBot(commands.Bot):
    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.time,
                 dice_override: Iterable[int] | None = None, sync_commands: bool = True,
                 open_service: bool = True):
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, tree_cls=UmpireTree,
                         allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.clock = clock
        self.dice_override = dice_override
        self.sync_commands = sync_commands
        self.open_service = open_service
        self.presenter = Presenter(self, None, settings)
        self._cogs_installed = False

    async def install(self) -> None:
        """Cogs, play commands, translator and persistent buttons: everything but the
        database and the gateway (also used by ``python bot.py commands``)."""
        if self._cogs_installed:
            return
        await self.tree.set_translator(UmpireTranslator())
        for module in COG_MODULES:
            if module == "cogs.reminders" and not self.open_service:
                continue   # the reminder loop needs the database
            await self.load_extension(module)
        self.add_dynamic_items(BoardButton, DecisionButton, DecisionMenu)
        self._cogs_installed = True

    async def setup_hook(self) -> None:
        if self.open_service:
            from service.games import GameService
            self.presenter.service = await GameService.open(
                self.settings.database, clock=self.clock, dice_override=self.dice_override)
        await self.install()
        if self.sync_commands:
            await self.sync_tree()

    async def sync_tree(self) -> None:
        guild_id = self.settings.dev_guild
        if guild_id:
            # A development guild sees changes at once; global commands take up to an hour.
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.close_service()

    async def close_service(self) -> None:
        service, self.presenter.service = self.presenter.service, None
        if service is not None:
            await service.close()


def create_bot(*, clock: Callable[[], float] = time.time,
               dice_override: Iterable[int] | None = None,
               settings: Settings | None = None) -> UmpireBot:
    """The bot as production runs it; settings (database path included) from the environment.
    ``clock`` and ``dice_override`` are for harnesses (fake time, fixed dice)."""
    return UmpireBot(settings or load_settings(), clock=clock, dice_override=dice_override)


def run_bot(settings: Settings) -> int:
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = UmpireBot(settings)
    bot.run(settings.token, log_handler=None)
    return 0


async def command_tree_payload() -> list[dict]:
    """The global command tree exactly as ``tree.sync()`` would send it, translations
    included, built without a database or a connection."""
    settings = Settings(token=None, database=":memory:", dev_guild=None, referee_role=None)
    bot = UmpireBot(settings, sync_commands=False, open_service=False)
    try:
        await bot.install()
        tree = bot.tree
        translator = tree.translator
        return [await command.get_translated_payload(tree, translator)
                for command in tree._get_all_commands(guild=None)]
    finally:
        await bot.close()


def print_command_tree() -> int:
    payload = asyncio.run(command_tree_payload())
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
