"""Slow turns: reminders that mention only the awaited players, and clocks that run out.

The service decides what is due (once per interval, marked in the database, so a restart does
not repeat a reminder); this loop only posts.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import tasks

from .common import UmpireCog, mention_list, ruleset_of, side_title
from .game import format_duration
from .health import beat
from .i18n import t

log = logging.getLogger("umpire.discord")

CHECK_EVERY_SECONDS = 60


class ReminderCog(UmpireCog):
    async def cog_load(self) -> None:
        self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @tasks.loop(seconds=CHECK_EVERY_SECONDS)
    async def tick(self) -> None:
        try:
            beat()
        except OSError:
            log.warning("cannot write the heartbeat file", exc_info=True)
        try:
            await self.run_once()
        except Exception:
            # One bad game must not stop reminders for every other game.
            log.exception("reminder pass failed")

    @tick.before_loop
    async def before_tick(self) -> None:
        await self.bot.wait_until_ready()

    async def run_once(self) -> None:
        # One read of each server's settings for the pass (and of each game's row for the
        # timeouts).
        async with self.bot.presenter.service.same_reads():
            await self._run_once()

    async def _run_once(self) -> None:
        presenter = self.bot.presenter
        service = presenter.service
        # Everything a reminder says comes with it, read for all due games at once.
        for due in await service.reminders():
            if not due.people:
                continue
            if due.board is not None and presenter.current_post.get(due.id) is None:
                presenter.current_post[due.id] = due.board
            ruleset = ruleset_of(due)
            lang = await presenter.public_lang(due.guild_id)
            text = t(
                lang,
                "reminder",
                people=mention_list(due.people),
                side=side_title(ruleset, due.side, lang),
                time=format_duration(due.left) if due.left is not None else "—",
                link=await presenter.board_link(due, look_up=False),
            )
            channel = await presenter.thread_of(due)
            if channel is not None:
                await channel.send(
                    text,
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(int(uid)) for uid in due.people],
                        roles=False,
                        everyone=False,
                    ),
                )
        for info, side, what in await service.check_timeouts():
            ruleset = ruleset_of(info)
            lang = await presenter.public_lang(info.guild_id)
            key = "timeout_forfeit" if what == "forfeit" else "timeout_referee"
            text = t(lang, key, side=side_title(ruleset, side, lang))
            if what != "forfeit" and info.creator_id:
                text += " " + f"<@{info.creator_id}>"
            channel = await presenter.thread_of(info)
            if channel is not None:
                await channel.send(
                    text,
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(int(info.creator_id))] if info.creator_id else False,
                        roles=False,
                        everyone=False,
                    ),
                )
            if what == "forfeit":
                await presenter.post_board(info, lang=lang)


async def setup(bot) -> None:
    await bot.add_cog(ReminderCog(bot))
