"""``/ref ...``: corrections by the game's referee (its creator, or the server's referee role).

Every referee action goes through the service's log (``side: "referee"``), so replay and
``/game verify`` see it, and is announced in the thread.
"""

from __future__ import annotations

import discord
from discord import app_commands

from engine.core.names import AmbiguousName
from service.errors import StaleVersion
from service.games import UndoNeedsConsent
from service.names import resolve_names

from .buttons import ConsentButton, consent_view
from .common import (
    Guard,
    Refusal,
    UmpireCog,
    clip,
    describe_action,
    describe_value,
    mention_list,
    ruleset_of,
    send,
    side_title,
)
from .i18n import locale_of, t
from .limits import Text


class RefereeCog(UmpireCog):
    ref = app_commands.Group(
        name="ref", description="Referee tools for the game in this thread", guild_only=True
    )

    async def _referee_game(self, interaction: discord.Interaction):
        here = await self.presenter.game_here(interaction)
        await self.presenter.require_referee(interaction, here.info)
        return here

    async def _announce(self, interaction: discord.Interaction, info, key: str, **params) -> None:
        public = await self.presenter.public_lang(interaction.guild_id)
        await self.presenter.announce(
            info, "⚖️ " + t(public, key, referee=f"<@{interaction.user.id}>", **params)
        )

    async def _edit(self, interaction: discord.Interaction, action: dict, key: str, **params):
        here = await self._referee_game(interaction)
        try:
            # A referee names units as players do: id, counter, name or a clear beginning.
            action = await resolve_names(self.service, here.info.id, {**action, "side": "referee"})
        except AmbiguousName as error:
            raise Refusal(
                "ambiguous_name",
                option=error.option,
                typed=error.typed,
                candidates="; ".join(error.legal),
            ) from None
        outcome = await self.service.act(
            here.info.id, action, actor=f"referee:{interaction.user.id}"
        )
        posted = await self.presenter.after_change(
            self._announce(interaction, outcome.game, key, **params),
            self.presenter.post_board(outcome.game),
        )
        await send(interaction, t(locale_of(interaction), "ok" if posted else "ok_post_failed"))

    @ref.command(name="undo", description="Take back the last action (it stays in the audit log)")
    async def undo(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction, context="/ref undo"):
            here = await self._referee_game(interaction)
            try:
                # Two referees' /ref undo in one instant take back one action, not two.
                info = await self.service.undo(
                    here.info.id,
                    actor=f"referee:{interaction.user.id}",
                    referee=True,
                    expected_version=here.info.version,
                )
            except UndoNeedsConsent as needed:
                await self._ask_consent(interaction, here, needed)
                return
            except StaleVersion:
                current = await self.service.get_game(here.info.id)
                raise Refusal(
                    "stale_command", link=await self.presenter.board_link(current)
                ) from None
            posted = await self.presenter.after_change(
                self._announce(interaction, info, "ref_undo"), self.presenter.post_board(info)
            )
            await send(interaction, t(locale_of(interaction), "ok" if posted else "ok_post_failed"))

    async def _ask_consent(
        self, interaction: discord.Interaction, here, needed: UndoNeedsConsent
    ) -> None:
        """A referee who plays asks the other side, in public, to agree to an undo."""
        ruleset = here.ruleset
        public = await self.presenter.public_lang(interaction.guild_id)
        own = ", ".join(side_title(ruleset, s, public) for s in needed.own_sides)
        others = ", ".join(side_title(ruleset, s, public) for s in needed.other_sides)
        state = await self.service.shared_view(here.info.id, None)
        action = needed.label or describe_action(ruleset, state, needed.action)
        seats = await self.service.seats(here.info.id)
        asked = [uid for side in needed.other_sides for uid in seats.get(side, [])]
        channel = await self.presenter.thread_of(here.info)
        if channel is not None:
            # Only the players who can agree are pinged.
            await channel.send(
                clip(
                    t(
                        public,
                        "undo_consent_request",
                        referee=f"<@{interaction.user.id}>",
                        sides=own,
                        action=action,
                        others=others,
                        dice=", ".join(str(d) for d in needed.dice),
                    )
                    + ("\n" + mention_list(asked) if asked else "")
                ),
                view=consent_view(here.info.id, here.info.version, interaction.user.id, public),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(uid) for uid in asked]
                ),
            )
        await send(interaction, t(locale_of(interaction), "undo_consent_needed", sides=own))

    @ref.command(name="place", description="Put a unit on a cell")
    @app_commands.describe(unit="Unit id", to="Cell label, e.g. 0507")
    async def place(self, interaction: discord.Interaction, unit: Text, to: Text) -> None:
        async with Guard(interaction, context=f"/ref place {unit} {to}"):
            await self._edit(
                interaction,
                {"type": "ref-place", "unit": unit, "to": to},
                "ref_place",
                unit=unit,
                to=to,
            )

    @ref.command(name="remove", description="Take a unit off the board")
    @app_commands.describe(unit="Unit id")
    async def remove(self, interaction: discord.Interaction, unit: Text) -> None:
        async with Guard(interaction, context=f"/ref remove {unit}"):
            await self._edit(
                interaction, {"type": "ref-remove", "unit": unit}, "ref_remove", unit=unit
            )

    @ref.command(name="phase", description="Set the phase (and optionally the active side)")
    @app_commands.describe(phase="Phase name", side="The side whose turn it becomes")
    async def phase(
        self, interaction: discord.Interaction, phase: Text, side: Text | None = None
    ) -> None:
        async with Guard(interaction, context=f"/ref phase {phase} {side}"):
            action = {"type": "ref-phase", "phase": phase}
            if side:
                action["value"] = side
            await self._edit(interaction, action, "ref_phase", phase=phase, side=side or "—")

    @ref.command(name="seat", description="Seat a member on a side")
    @app_commands.describe(member="Who", side="Which side")
    async def seat(
        self, interaction: discord.Interaction, member: discord.Member, side: Text
    ) -> None:
        async with Guard(interaction, context=f"/ref seat {member.id} {side}"):
            here = await self._referee_game(interaction)
            await self.service.seat(here.info.id, side, member.id)
            await self._announce(
                interaction,
                here.info,
                "ref_seat",
                user=member.mention,
                side=side_title(here.ruleset, side),
            )
            await send(interaction, t(locale_of(interaction), "ok"))

    @ref.command(name="kick", description="Remove a member from every seat of this game")
    @app_commands.describe(member="Who")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        async with Guard(interaction, context=f"/ref kick {member.id}"):
            here = await self._referee_game(interaction)
            sides = await self.service.sides_of(here.info.id, member.id)
            if not sides:
                raise Refusal("member_not_seated", user=member.mention)
            await self.service.unseat(here.info.id, member.id)
            await self._announce(interaction, here.info, "ref_kick", user=member.mention)
            await send(interaction, t(locale_of(interaction), "ok"))

    @ref.command(name="pause", description="Pause (clocks stop, no moves) or resume the game")
    @app_commands.describe(paused="True to pause, False to resume")
    async def pause(self, interaction: discord.Interaction, paused: bool = True) -> None:
        async with Guard(interaction, context=f"/ref pause {paused}"):
            here = await self._referee_game(interaction)
            info = await self.service.pause(here.info.id, paused=paused)
            await self._announce(interaction, info, "ref_paused" if paused else "ref_resumed")
            if not paused:
                await self.presenter.post_board(info, mention=True)
            await send(interaction, t(locale_of(interaction), "ok"))

    @ref.command(name="clock", description="Set a side's remaining time in hours")
    @app_commands.describe(side="Which side", hours="Time left, in hours")
    async def clock(
        self,
        interaction: discord.Interaction,
        side: Text,
        hours: app_commands.Range[float, 0, 10000],
    ) -> None:
        async with Guard(interaction, context=f"/ref clock {side} {hours}"):
            here = await self._referee_game(interaction)
            await self.service.set_clock(here.info.id, side, hours * 3600)
            await self._announce(
                interaction,
                here.info,
                "ref_clock",
                side=side_title(here.ruleset, side),
                hours=hours,
            )
            await send(interaction, t(locale_of(interaction), "ok"))

    async def _rules_of_thread(self, interaction: discord.Interaction):
        """The ruleset of the game in this thread, or None; autocomplete offers nothing rather
        than failing when there is no game or its rules cannot be loaded."""
        try:
            info = await self.service.find_by_thread(interaction.channel_id)
            return ruleset_of(info) if info is not None else None
        except Exception:
            return None

    @phase.autocomplete("phase")
    async def phase_complete(self, interaction: discord.Interaction, current: str):
        game_rules = await self._rules_of_thread(interaction)
        if game_rules is None:
            return []
        return [
            app_commands.Choice(name=phase, value=phase)
            for phase in game_rules.phases
            if current.lower() in phase.lower()
        ][:25]

    @seat.autocomplete("side")
    @phase.autocomplete("side")
    @clock.autocomplete("side")
    async def side_complete(self, interaction: discord.Interaction, current: str):
        game_rules = await self._rules_of_thread(interaction)
        if game_rules is None:
            return []
        return [
            app_commands.Choice(name=side_title(game_rules, s), value=s)
            for s in game_rules.sides
            if current.lower() in s.lower()
        ][:25]

    @place.autocomplete("unit")
    @remove.autocomplete("unit")
    async def unit_complete(self, interaction: discord.Interaction, current: str):
        """Unit ids from the public view (a referee edits what everyone sees)."""
        try:
            info = await self.service.find_by_thread(interaction.channel_id)
            if info is None:
                return []
            game_rules = ruleset_of(info)
            view = await self.service.shared_view(info.id, None)
        except Exception:
            return []
        units = view.get("units")
        if not isinstance(units, dict):
            return []
        choices = []
        for unit_id in units:
            label = describe_value(game_rules, view, "unit", unit_id)
            if current.lower() in label.lower() or current.lower() in unit_id.lower():
                choices.append(app_commands.Choice(name=label[:100], value=unit_id[:100]))
        return choices[:25]


async def setup(bot) -> None:
    await bot.add_cog(RefereeCog(bot))
    bot.add_dynamic_items(ConsentButton)
