"""Limits every command passes before it does any work, and the last-resort error handler.

``UmpireTree`` is the bot's command tree. Its ``interaction_check`` runs before any command
or autocomplete callback: it refuses an option longer than Discord would ever send for it
(a hostile client can send 6,000 characters where the client offers 100) and enforces the
per-user cooldowns of the commands that post pictures or open threads. Its ``on_error`` catches
whatever the cogs' guards did not: logged with context, a polite private reply in the user's
language.

Cooldowns use the bot's injectable ``clock`` (the harness's fake time), never the wall clock
directly.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import discord
from discord import app_commands

from .i18n import locale_of, t

log = logging.getLogger("umpire.discord")

# Every string option of every command is at most this long: Discord's own limit for a
# choice's value, which is what autocomplete offers (ids, cell labels, /act commands).
MAX_OPTION_LENGTH = 100

# Seconds a member waits between two uses of a command that posts pictures or opens threads,
# or (/game verify) replays a whole log and posts its report publicly: without a wait, one member
# could keep the heavy-work slots busy for everyone and fill the thread with reports.
COOLDOWNS: dict[str, float] = {
    "game new": 30.0,
    "game board": 10.0,
    "game replay": 60.0,
    "game verify": 60.0,
    "flare": 10.0,
}

# The annotation of a free-text option: Discord's client enforces the length, the tree again.
Text = app_commands.Range[str, 1, MAX_OPTION_LENGTH]

_COOLDOWN_KEY = "umpire_cooldown"
_STRING = discord.AppCommandOptionType.string.value


def long_options(
    options: list[dict] | None, limit: int = MAX_OPTION_LENGTH
) -> list[tuple[str, int]]:
    """(name, length) of every string option over ``limit``, subcommands included."""
    found = []
    for option in options or []:
        if not isinstance(option, dict):
            continue
        value = option.get("value")
        if option.get("type") == _STRING and isinstance(value, str) and len(value) > limit:
            found.append((str(option.get("name", "?"))[:32], len(value)))
        found += long_options(option.get("options"), limit)
    return found


def command_name(data: dict[str, Any]) -> str:
    """The qualified name ("game new") of an application command interaction's data."""
    parts = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        parts.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return " ".join(parts)


class Cooldowns:
    """When each member may use each limited command again."""

    def __init__(self, durations: dict[str, float] | None = None):
        self.durations = dict(COOLDOWNS if durations is None else durations)
        self._ready_at: dict[tuple[str, int], float] = {}

    def take(self, command: str, user_id: int, now: float) -> float:
        """0 if ``command`` may run now (and the wait starts), else the seconds left."""
        duration = self.durations.get(command)
        if not duration:
            return 0.0
        key = (command, int(user_id))
        ready = self._ready_at.get(key, 0.0)
        if now < ready:
            return ready - now
        self._ready_at[key] = now + duration
        if len(self._ready_at) > 10_000:  # forget waits that are over
            self._ready_at = {k: v for k, v in self._ready_at.items() if v > now}
        return 0.0

    def give_back(self, command: str, user_id: int) -> None:
        """The command was refused before it did anything: its use does not count."""
        self._ready_at.pop((command, int(user_id)), None)


def refund_cooldown(interaction: discord.Interaction) -> None:
    """Called by the cogs' guard when a command was refused for a reason of the player's (a
    typo, not their turn): the refusal changed nothing, so it does not start a wait."""
    taken = interaction.extras.pop(_COOLDOWN_KEY, None)
    tree = getattr(interaction.client, "tree", None)
    if taken is not None and isinstance(tree, UmpireTree):
        tree.cooldowns.give_back(*taken)


async def _reply(interaction: discord.Interaction, text: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException:
        log.warning("could not deliver a refusal", exc_info=True)


class UmpireTree(app_commands.CommandTree):
    def __init__(self, client: discord.Client, **kwargs: Any):
        super().__init__(client, **kwargs)
        self.cooldowns = Cooldowns()

    def _now(self) -> float:
        clock = getattr(self.client, "clock", None)
        if clock is None:
            import time

            return time.time()
        return float(clock())

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        data: dict[str, Any] = dict(interaction.data or {})
        too_long = long_options(data.get("options"))
        if too_long:
            if interaction.type is discord.InteractionType.autocomplete:
                return False  # no answer at all: the client shows no suggestions
            name, length = too_long[0]
            await _reply(
                interaction,
                t(
                    locale_of(interaction),
                    "too_long",
                    option=name,
                    length=length,
                    limit=MAX_OPTION_LENGTH,
                ),
            )
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True
        command = command_name(data)
        if command in self.cooldowns.durations and interaction.user is not None:
            wait = self.cooldowns.take(command, interaction.user.id, self._now())
            if wait > 0:
                await _reply(
                    interaction,
                    t(locale_of(interaction), "cooldown", command=command, seconds=math.ceil(wait)),
                )
                return False
            interaction.extras[_COOLDOWN_KEY] = (command, interaction.user.id)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        """Whatever escaped the cogs' guards: a conversion discord.py refused, a check, a bug.
        Logged with who, where and what; the user gets a private, polite answer."""
        lang = locale_of(interaction)
        command = getattr(interaction.command, "qualified_name", None)
        if isinstance(error, (app_commands.TransformerError, app_commands.CheckFailure)):
            log.info(
                "refused /%s for user %s: %s", command, getattr(interaction.user, "id", None), error
            )
            refund_cooldown(interaction)
            text = t(lang, "bad_input")
        else:
            original = getattr(error, "original", error)
            log.error(
                "unhandled error in /%s (user %s, channel %s, guild %s, options %s)",
                command,
                getattr(interaction.user, "id", None),
                interaction.channel_id,
                interaction.guild_id,
                _options_for_log(interaction),
                exc_info=(type(original), original, original.__traceback__),
            )
            text = t(lang, "oops")
        await _reply(interaction, text)


def _options_for_log(interaction: discord.Interaction) -> str:
    """The options as typed, clipped (a log line is no place for 6,000 characters)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("options"))[:300]
