"""``/game ...`` (lobby, status, pictures, log, rules, verify) and ``/umpire config``."""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands

from engine import registry
from engine.core.commands import format_command
from engine.core.errors import OptionalRuleError, ScenarioError
from engine.core.ruleset import MAX_OPTIONAL_RULES_TEXT, OFF
from engine.core.scenario_io import MAX_DOCUMENT_BYTES, MAX_NAME_LENGTH, safe_label
from service.games import DISCORD_ATTACHMENT_LIMIT as ATTACHMENT_LIMIT
from service.games import ReplayTooBig, ReplayUnreadable

from .common import (
    MAX_EMBED_TEXT,
    Guard,
    Refusal,
    UmpireCog,
    clip,
    describe_action,
    event_lines,
    mention_list,
    png_file,
    result_reason,
    ruleset_of,
    send,
    side_title,
)
from .i18n import locale_of, t
from .limits import Text

log = logging.getLogger("umpire.discord")

HOUR = 3600
# Time controls offered by /game new: (start allowance, increment per turn, cap, reminder every).
TIME_CONTROLS = {
    "live": None,
    "daily": (24 * HOUR, 24 * HOUR, 72 * HOUR, 12 * HOUR),
    "slow": (72 * HOUR, 12 * HOUR, 120 * HOUR, 24 * HOUR),
}


def playable_rulesets() -> list:
    """Every registered game that loads; a game under construction that fails to import is
    left out instead of breaking the bot."""
    found = []
    for name in list(registry.RULESETS):
        try:
            found.append(registry.get_ruleset(name))
        except ImportError as error:  # still being written, or its module is missing
            log.info("ruleset %s is not available: %s", name, error)
        except Exception:
            log.warning("ruleset %s fails to load", name, exc_info=True)
    return found


def clock_settings(time_control: str, on_timeout: str) -> dict:
    control = TIME_CONTROLS.get(time_control)
    if control is None:
        return {}
    initial, increment, cap, remind = control
    return {
        "clock": {
            "initial": initial,
            "increment": increment,
            "cap": cap,
            "on_timeout": on_timeout,
            "remind_every": remind,
        }
    }


def _chunks(lines: list[str], limit: int) -> list[str]:
    """Bulleted lines joined into texts of at most ``limit`` characters, split between lines
    (a line longer than the limit is clipped)."""
    parts: list[str] = []
    current = ""
    for line in lines:
        item = clip("• " + line, limit)
        if current and len(current) + 1 + len(item) > limit:
            parts.append(current)
            current = ""
        current = f"{current}\n{item}" if current else item
    if current:
        parts.append(current)
    return parts


class GameCog(UmpireCog):
    game = app_commands.Group(
        name="game", description="Start, join and follow wargames", guild_only=True
    )

    def __init__(self, bot):
        super().__init__(bot)
        # One /game new at a time per server between counting its open games and storing the
        # new one, so members opening games in the same instant cannot pass the cap together.
        # A server's interactions all reach the one process that runs its shard.
        self._opening: dict[int, asyncio.Lock] = {}

    # ----- lobby ------------------------------------------------------------------------------
    @game.command(name="new", description="Open a new game in a thread of this channel")
    @app_commands.describe(
        ruleset="The game to play",
        scenario="The scenario (default: the game's standard one)",
        time_control="Clocks per side",
        on_timeout="What happens when a clock runs out",
        scenario_file="Your own scenario as a JSON file (instead of a name)",
        rules="Optional rules, e.g. panic, aiming; no-aiming leaves one out (default: the scenario's)",
    )
    @app_commands.choices(
        time_control=[
            app_commands.Choice(name="live (no clock)", value="live"),
            app_commands.Choice(name="daily (24h + 24h, max 72h)", value="daily"),
            app_commands.Choice(name="slow (72h + 12h, max 120h)", value="slow"),
        ],
        on_timeout=[
            app_commands.Choice(name="referee decides", value="referee"),
            app_commands.Choice(name="forfeit", value="forfeit"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        scenario: str = "",
        time_control: str = "live",
        on_timeout: str = "referee",
        scenario_file: discord.Attachment | None = None,
        rules: str = "",
    ) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            try:
                game_rules = registry.get_ruleset(ruleset)
            except Exception:
                names = ", ".join(r.name for r in playable_rulesets())
                raise Refusal("unknown_ruleset", name=clip(ruleset, 40), names=names) from None
            # A scenario from Discord is a packaged name or an attached document, never a
            # path: the name is checked against the game's own list before anything else,
            # and an attachment is read into memory only (size checked before and after).
            # Whoever runs /game new becomes the game's creator, so attaching is open to
            # anyone who may open a game; no other command takes a file later.
            names = ", ".join(game_rules.packaged_names()) or "—"
            document = None
            label = "scenario file"
            if scenario_file is not None:
                if scenario:
                    raise Refusal("scenario_name_and_file", game=game_rules.title, names=names)
                if scenario_file.size > MAX_DOCUMENT_BYTES:
                    raise Refusal("scenario_file_too_large", kib=MAX_DOCUMENT_BYTES // 1024)
                document = await scenario_file.read()
                if len(document) > MAX_DOCUMENT_BYTES:
                    raise Refusal("scenario_file_too_large", kib=MAX_DOCUMENT_BYTES // 1024)
                label = safe_label(scenario_file.filename)
            elif scenario and (
                len(scenario) > MAX_NAME_LENGTH or scenario not in game_rules.packaged_names()
            ):
                raise Refusal("unknown_scenario", game=game_rules.title, names=names)
            try:
                optional = game_rules.optional_rule_names(rules)
            except OptionalRuleError as error:
                raise Refusal(
                    "optional_rules_too_long" if error.too_long else "unknown_optional_rule",
                    name=clip(error.name, 40),
                    game=game_rules.title,
                    names=", ".join(error.known) or "—",
                    limit=MAX_OPTIONAL_RULES_TEXT,
                ) from None
            channel = interaction.channel
            parent = channel.parent if isinstance(channel, discord.Thread) else channel
            opening = self._opening.setdefault(int(interaction.guild_id or 0), asyncio.Lock())
            async with opening:
                await self._check_open_games(interaction)
                try:
                    info = await self.service.create_game(
                        game_rules.name,
                        scenario or game_rules.default_scenario,
                        creator_id=interaction.user.id,
                        guild_id=interaction.guild_id,
                        channel_id=parent.id,
                        settings=clock_settings(time_control, on_timeout),
                        document=document,
                        document_label=label,
                        optional_rules=optional,
                    )
                except ScenarioError as error:
                    raise Refusal(
                        "bad_scenario",
                        why=clip(str(error).rstrip("."), 600),
                        game=game_rules.title,
                        names=names,
                    ) from None
            thread = await self._open_thread(interaction, parent, game_rules, info, lang)
            await send(interaction, t(lang, "created", id=info.id, thread=thread.mention))

    async def _open_thread(
        self, interaction: discord.Interaction, parent, game_rules, info, lang: str, note: str = ""
    ) -> discord.Thread:
        """The game's thread with its lobby message (sides, how to join and start)."""
        thread = await parent.create_thread(
            name=clip(f"#{info.id} {game_rules.title}", 90),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,
        )
        await self.service.set_thread(info.id, thread.id)
        sides = ", ".join(f"`{s}` ({side_title(game_rules, s, lang)})" for s in game_rules.sides)
        lobby = t(
            lang,
            "lobby",
            user=f"<@{interaction.user.id}>",
            title=game_rules.title,
            scenario=info.scenario,
            sides=sides,
        )
        lobby += await self._setup_hint(lang, game_rules, info)
        if note:
            lobby += "\n" + note
        await thread.send(lobby, allowed_mentions=discord.AllowedMentions.none())
        return thread

    async def _setup_hint(self, lang: str, game_rules, info) -> str:
        """For a scenario that begins with setting up: how to do it in one command, and which
        packaged scenarios start ready to play instead."""
        if not game_rules.needs_setting_up(info.state):
            return ""
        text = "\n" + t(lang, "lobby_setup")
        if any(game_rules.suggested_actions(info.state, side) for side in game_rules.sides):
            text += " " + t(lang, "lobby_suggested")
        ready = await asyncio.to_thread(game_rules.ready_scenarios)
        if ready:
            names = ", ".join(f"`{s.name}` ({s.title})" for s in ready[:3])
            text += "\n" + t(
                lang, "lobby_ready", names=names, ruleset=game_rules.name, scenario=ready[0].name
            )
        return text

    async def _check_open_games(self, interaction: discord.Interaction) -> None:
        """A member, and a server, may hold only so many games that are not finished
        (/umpire config), so nobody can fill a server with threads and stored games."""
        config = await self.service.guild_config(interaction.guild_id)
        mine = await self.service.open_games(
            guild_id=interaction.guild_id, creator_id=interaction.user.id
        )
        if mine >= config["max_open_per_user"]:
            raise Refusal("too_many_games_user", count=mine, limit=config["max_open_per_user"])
        everyone = await self.service.open_games(guild_id=interaction.guild_id)
        if everyone >= config["max_open_per_guild"]:
            raise Refusal(
                "too_many_games_guild", count=everyone, limit=config["max_open_per_guild"]
            )

    @new.autocomplete("ruleset")
    async def new_ruleset(self, interaction: discord.Interaction, current: str):
        current = current.lower()
        return [
            app_commands.Choice(name=clip(f"{r.title} ({r.name})", 100), value=r.name)
            for r in playable_rulesets()
            if current in r.name.lower() or current in r.title.lower()
        ][:25]

    @new.autocomplete("scenario")
    async def new_scenario(self, interaction: discord.Interaction, current: str):
        try:
            game_rules = registry.get_ruleset(interaction.namespace.ruleset or "")
            scenarios = game_rules.scenarios()
        except Exception:
            return []
        current = current.lower()
        return [
            app_commands.Choice(name=clip(f"{s.title} — {s.description}", 100), value=s.name)
            for s in scenarios
            if current in s.name.lower() or current in s.title.lower()
        ][:25]

    @new.autocomplete("rules")
    async def new_rules(self, interaction: discord.Interaction, current: str):
        """The game's optional rules; a list typed so far ("panic, ai") is completed at its
        last name, keeping the names before it."""
        try:
            game_rules = registry.get_ruleset(interaction.namespace.ruleset or "")
        except Exception:
            return []
        current = current[:MAX_OPTIONAL_RULES_TEXT]
        head, _, last = current.rpartition(",")
        chosen = [w.strip() for w in head.split(",") if w.strip()]
        prefix = ", ".join(chosen + [""]) if chosen else ""
        last = last.strip().lower()
        # "no-ai" completes to the switch that leaves out a rule the scenario plays with.
        off = OFF if last.startswith(OFF) else ""
        last = last.removeprefix(off)
        return [
            app_commands.Choice(
                name=clip(f"{prefix}{off}{r.name} — {'without ' if off else ''}{r.title}", 100),
                value=clip(prefix + off + r.name, 100),
            )
            for r in game_rules.optional_rules
            if off + r.name not in chosen and last in r.name
        ][:25]

    @game.command(name="join", description="Take a seat on a side of this thread's game")
    @app_commands.describe(side="The side you will play")
    async def join(self, interaction: discord.Interaction, side: Text) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            if side not in here.ruleset.sides:
                raise Refusal("unknown_side", side=side, sides=", ".join(here.ruleset.sides))
            if here.info.status != "lobby":
                # Seats of a running game change only through a referee (/ref seat), so a
                # passer-by cannot take over a side mid-game.
                raise Refusal("join_closed")
            await self.service.seat(here.info.id, side, interaction.user.id)
            public = await self.presenter.public_lang(interaction.guild_id)
            await self.presenter.announce(
                here.info,
                t(
                    public,
                    "joined",
                    user=f"<@{interaction.user.id}>",
                    side=side_title(here.ruleset, side, lang),
                ),
            )
            await send(
                interaction, t(lang, "you_joined", side=side_title(here.ruleset, side, lang))
            )

    @join.autocomplete("side")
    async def join_side(self, interaction: discord.Interaction, current: str):
        try:
            info = await self.service.find_by_thread(interaction.channel_id)
            if info is None:
                return []
            game_rules = ruleset_of(info)
            seats = await self.service.seats(info.id)
        except Exception:
            log.exception("side autocomplete failed")
            return []
        lang = locale_of(interaction)
        return [
            app_commands.Choice(
                name=clip(
                    f"{side_title(game_rules, s, lang)} — "
                    f"{t(lang, 'seated_count', count=len(seats.get(s, [])))}",
                    100,
                ),
                value=s,
            )
            for s in game_rules.sides
            if current.lower() in s.lower()
            or current.lower() in side_title(game_rules, s, lang).lower()
        ][:25]

    @game.command(name="start", description="Start the game (creator or referee)")
    async def start(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            await self.presenter.require_referee(interaction, here.info)
            seats = await self.service.seats(here.info.id)
            empty = [
                side_title(here.ruleset, s, lang) for s in here.ruleset.sides if not seats.get(s)
            ]
            if empty:
                raise Refusal("empty_sides", sides=", ".join(empty))
            info = await self.service.start_game(here.info.id)
            public = await self.presenter.public_lang(interaction.guild_id)
            posted = await self.presenter.after_change(
                self.presenter.announce(info, t(public, "started", hash=info.seed_hash)),
                self.presenter.post_board(info, lang=public, mention=True),
            )
            await send(interaction, t(lang, "ok" if posted else "ok_post_failed"))

    @game.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            mine = await self.service.sides_of(here.info.id, interaction.user.id)
            if not mine:
                raise Refusal("not_seated")
            if here.info.status != "lobby":
                raise Refusal("leave_started")
            await self.service.unseat(here.info.id, interaction.user.id)
            public = await self.presenter.public_lang(interaction.guild_id)
            sides = ", ".join(side_title(here.ruleset, s, public) for s in mine)
            await self.presenter.announce(
                here.info, t(public, "left", user=f"<@{interaction.user.id}>", side=sides)
            )
            await send(
                interaction,
                t(
                    lang,
                    "you_left",
                    side=", ".join(side_title(here.ruleset, s, lang) for s in mine),
                ),
            )

    @game.command(
        name="cancel", description="Close a game that has not started (creator or referee)"
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            await self.presenter.require_referee(interaction, here.info)
            if here.info.status != "lobby":
                raise Refusal("cancel_started")
            info = await self.service.cancel_lobby(here.info.id)
            public = await self.presenter.public_lang(interaction.guild_id)
            await self.presenter.announce(
                info, t(public, "cancelled", user=f"<@{interaction.user.id}>")
            )
            await send(interaction, t(lang, "ok"))

    @game.command(name="rematch", description="Open the same game again with the same seats")
    async def rematch(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            seated = await self.service.sides_of(here.info.id, interaction.user.id)
            if not seated and not await self.presenter.is_referee(interaction, here.info):
                raise Refusal("rematch_not_yours")
            if here.info.status != "finished":
                raise Refusal("rematch_not_finished")
            channel = interaction.channel
            parent = channel.parent if isinstance(channel, discord.Thread) else channel
            opening = self._opening.setdefault(int(interaction.guild_id or 0), asyncio.Lock())
            async with opening:
                await self._check_open_games(interaction)
                try:
                    info = await self.service.rematch(here.info.id, creator_id=interaction.user.id)
                except ScenarioError as error:
                    raise Refusal(
                        "bad_scenario",
                        why=clip(str(error).rstrip("."), 600),
                        game=here.ruleset.title,
                        names=", ".join(here.ruleset.packaged_names()) or "—",
                    ) from None
            seats = await self.service.seats(info.id)
            people = "; ".join(
                f"{side_title(here.ruleset, s, lang)}: {mention_list(users)}"
                for s, users in seats.items()
                if users
            )
            note = t(lang, "rematch_seats", id=here.info.id, seats=people or "—")
            thread = await self._open_thread(interaction, parent, here.ruleset, info, lang, note)
            await send(interaction, t(lang, "created", id=info.id, thread=thread.mention))

    @game.command(name="notify", description="A direct message when it is your turn (on/off)")
    @app_commands.describe(on="True: message me when my side is to act; False: stop")
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            if not await self.service.sides_of(here.info.id, interaction.user.id):
                raise Refusal("not_seated")
            await self.service.set_turn_notice(
                here.info.id, interaction.user.id, lang if on else None
            )
            await send(interaction, t(lang, "notify_on" if on else "notify_off"))

    @game.command(name="export", description="The whole game as one HTML page and a JSON log")
    async def export(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            if here.info.status == "lobby":
                raise Refusal("not_running", status=here.info.status)
            from service.export import export_game

            made = await export_game(self.service, here.info.id, max_bytes=ATTACHMENT_LIMIT)
            name = f"umpire-game-{here.info.id}"
            files = [
                discord.File(io.BytesIO(made.html.encode("utf-8")), filename=f"{name}.html"),
                discord.File(io.BytesIO(made.log_json.encode("utf-8")), filename=f"{name}.json"),
            ]
            await send(
                interaction,
                t(lang, "exported", frames=made.frames, actions=made.actions),
                files=files,
            )

    # ----- following the game --------------------------------------------------------------
    @game.command(name="status", description="Where the game stands, your clock and options")
    async def status(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            info, game_rules = here.info, here.ruleset
            public_state = await self.service.shared_view(info.id, None)
            seats = await self.service.seats(info.id)
            lines = [f"**{game_rules.title}** #{info.id} — {t(lang, 'status_' + info.status)}"]
            for key, value in game_rules.localised_header(public_state, lang).items():
                lines.append(f"{key}: {value}")
            switched_on = game_rules.optional_rules_on(public_state)
            if switched_on:
                lines.append(
                    t(
                        lang,
                        "optional_rules_on",
                        rules=", ".join(game_rules.term(r.title, lang) for r in switched_on),
                    )
                )
            for side in game_rules.sides:
                lines.append(
                    f"{side_title(game_rules, side, lang)}: "
                    f"{mention_list(seats.get(side, [])) or t(lang, 'empty_seat')}"
                )
            if info.status == "active":
                awaited = game_rules.awaiting(info.state)
                waiting = t(
                    lang,
                    "waiting_for",
                    sides=", ".join(side_title(game_rules, s, lang) for s in awaited),
                )
                if waiting not in lines:  # a header may say it in the same words ("Am Zug: Rot")
                    lines.append(waiting)
            clocks = await self.service.clocks(info.id)
            for side, seconds in (clocks or {}).items():
                lines.append(
                    t(
                        lang,
                        "clock_left",
                        side=side_title(game_rules, side, lang),
                        time=format_duration(seconds),
                    )
                )
            result = info.result or info.state.get("result")
            if result:
                winner = result.get("winner")
                lines.append(
                    t(
                        lang,
                        "game_over",
                        winner=side_title(game_rules, winner, lang)
                        if winner
                        else t(lang, "nobody"),
                        reason=result_reason(game_rules, info.state, result, lang),
                    )
                )
            mine = await self.service.sides_of(info.id, interaction.user.id)
            for side in mine:
                changes = await self.service.changes_since(info.id, side, lang)
                if changes:
                    lines.append(
                        t(lang, "since_last") + " (" + side_title(game_rules, side, lang) + ")"
                    )
                    lines += [f"• {c}" for c in changes[-10:]]
            lines.append(t(lang, "board_link", link=await self.presenter.board_link(info)))
            await send(interaction, clip("\n".join(lines)))

    @game.command(name="board", description="Post the board now, or as it stood after a turn")
    @app_commands.describe(turn="Show the board as it stood after this turn")
    async def board(
        self,
        interaction: discord.Interaction,
        turn: app_commands.Range[int, 0, 10000] | None = None,
    ) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            if turn is None:
                if here.info.status == "lobby":
                    raise Refusal("not_running", status=here.info.status)
                async with self.service.command():  # busy: refused before drawing
                    await self.presenter.post_board(here.info, keep_flares=True)
                await send(interaction, t(lang, "board_posted"))
                return
            public = await self.presenter.public_lang(interaction.guild_id)
            png = await self.service.render_turn(here.info.id, turn, viewer=None, lang=public)
            await interaction.channel.send(
                t(public, "board_after", turn=turn), file=png_file(png, f"turn-{turn}.png")
            )
            await send(interaction, t(lang, "board_posted"))

    @game.command(name="log", description="Recent actions and events, every die shown")
    @app_commands.describe(count="How many actions to show (default 10)")
    async def log_(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 10
    ) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            # Undone actions are listed too, with their dice and who took them back: a roll
            # that was rewound must stay visible to everyone.
            records = await self.service.history(here.info.id, include_undone=True)
            state = await self.service.shared_view(here.info.id, None)
            lines = []
            for record in records[-count:]:
                # The stored label is English and worded for the position it was played in;
                # another reader gets the command itself (its events follow in their language).
                what = (
                    record.label or describe_action(here.ruleset, state, record.action)
                    if lang == "en"
                    else f"`{format_command(record.action)}`"
                )
                head = (
                    f"`v{record.version}` **{side_title(here.ruleset, record.side, lang)}**: {what}"
                )
                if not record.live:
                    head = t(lang, "log_undone_title", line=head)
                lines.append(head)
                lines += [
                    f"  {line}"
                    for line in event_lines(here.ruleset, state, record.events, None, lang)
                ]
                if not record.live:
                    lines.append(t(lang, "log_undone", who=who_undid(lang, record.undone_by)))
            text = "\n".join(lines) or t(lang, "log_empty")
            embed = discord.Embed(
                title=t(lang, "log_title", id=here.info.id),
                description=clip(text[-MAX_EMBED_TEXT:], MAX_EMBED_TEXT),
            )
            await send(interaction, embed=embed)

    @game.command(name="resign", description="Give up: the other side wins")
    async def resign(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            sides = await self.service.sides_of(here.info.id, interaction.user.id)
            if not sides:
                raise Refusal("not_seated")
            info = await self.service.resign(
                here.info.id, sides[0], actor=f"user:{interaction.user.id}"
            )
            public = await self.presenter.public_lang(interaction.guild_id)
            posted = await self.presenter.after_change(
                self.presenter.announce(
                    info,
                    t(
                        public,
                        "resigned",
                        user=f"<@{interaction.user.id}>",
                        side=side_title(here.ruleset, sides[0], lang),
                    ),
                ),
                self.presenter.post_board(info, lang=public),
            )
            await send(interaction, t(lang, "ok" if posted else "ok_post_failed"))

    @game.command(name="rules", description="A summary of this game's rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            summary = here.ruleset.rules_summary(lang)
            embed = discord.Embed(
                title=here.ruleset.title, description=clip(summary, MAX_EMBED_TEXT)
            )
            await send(interaction, embed=embed)
            # The units and terrain, from the game's data; one embed per part that fits.
            reference = here.ruleset.rules_reference(lang, here.info.state)
            for heading, lines in reference:
                for part in _chunks(lines, MAX_EMBED_TEXT):
                    await send(interaction, embed=discord.Embed(title=heading, description=part))

    @game.command(name="list", description="Games in this server")
    @app_commands.describe(status="Only games with this status")
    @app_commands.choices(
        status=[
            app_commands.Choice(name=s, value=s) for s in ("lobby", "active", "paused", "finished")
        ]
    )
    async def list_(self, interaction: discord.Interaction, status: str | None = None) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            infos = await self.service.list_games(guild_id=interaction.guild_id, status=status)
            lines = []
            for info in infos[-30:]:
                try:
                    title = ruleset_of(info).title
                except Exception:
                    title = info.ruleset
                where = f"<#{info.thread_id}>" if info.thread_id else ""
                lines.append(
                    f"#{info.id} {title} ({info.scenario}) — "
                    f"{t(lang, 'status_' + info.status)} {where}"
                )
            await send(interaction, clip("\n".join(lines) or t(lang, "no_games")))

    @game.command(name="replay", description="An animated picture of the game so far")
    async def replay(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            if here.info.status == "lobby":
                raise Refusal("not_running", status=here.info.status)
            limit = getattr(interaction.guild, "filesize_limit", None) or ATTACHMENT_LIMIT
            public = await self.presenter.public_lang(interaction.guild_id)
            try:
                data = await self.service.render_animation(
                    here.info.id, max_bytes=limit, lang=public
                )
            except ReplayTooBig:
                raise Refusal("replay_too_big") from None
            except ReplayUnreadable as error:
                log.warning("replay of game #%s: %s", here.info.id, error)
                raise Refusal("replay_unreadable") from None
            name = "replay.webp" if data[:4] == b"RIFF" else "replay.gif"
            await interaction.channel.send(
                t(public, "replay", id=here.info.id), file=png_file(data, name)
            )
            await send(interaction, t(lang, "ok"))

    @game.command(
        name="verify", description="Replay the log with the revealed seed and check every die"
    )
    async def verify(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            if not here.info.seed:
                # Before the seed is revealed nobody could check a "verified" claim, and the
                # final state's hash would cover hands and decks the players cannot see.
                raise Refusal("verify_not_yet", hash=here.info.seed_hash)
            report = await self.service.verify(here.info.id)
            key = "verify_ok" if report.ok else "verify_bad"
            public = await self.presenter.public_lang(interaction.guild_id)
            text = t(
                public,
                key,
                actions=report.actions,
                dice=report.dice,
                hash=str(report.final_hash)[:16],
            )
            if not report.ok:
                text += "\n" + "\n".join(f"• {p}" for p in list(report.problems)[:10])
            await self.presenter.announce(here.info, text)
            await send(
                interaction,
                t(
                    lang,
                    key,
                    actions=report.actions,
                    dice=report.dice,
                    hash=str(report.final_hash)[:16],
                ),
            )


class ConfigCog(UmpireCog):
    umpire = app_commands.Group(
        name="umpire",
        description="Server settings for Umpire",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @umpire.command(
        name="config", description="Set the referee role and the language of public posts"
    )
    @app_commands.describe(
        referee_role="Members of this role may referee every game",
        language="Language of public posts in game threads",
        max_games_per_member="Open games one member may have created",
        max_games_per_server="Open games this server may hold",
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Deutsch", value="de"),
        ]
    )
    async def config(
        self,
        interaction: discord.Interaction,
        referee_role: discord.Role | None = None,
        language: str | None = None,
        max_games_per_member: app_commands.Range[int, 1, 1000] | None = None,
        max_games_per_server: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        async with Guard(interaction):
            lang = locale_of(interaction)
            permissions = getattr(interaction.user, "guild_permissions", None)
            if permissions is None or not permissions.manage_guild:
                raise Refusal("need_manage_guild")
            service = self.bot.presenter.service
            await service.set_guild_config(
                interaction.guild_id,
                referee_role_id=referee_role.id if referee_role else None,
                locale=language,
                max_open_per_user=max_games_per_member,
                max_open_per_guild=max_games_per_server,
            )
            # The reply shows what is stored now: an option left out keeps its earlier value.
            config = await service.guild_config(interaction.guild_id)
            role_id = config.get("referee_role_id")
            await send(
                interaction,
                t(
                    lang,
                    "config_saved",
                    role=f"<@&{role_id}>" if role_id else "—",
                    language=config.get("locale") or "—",
                )
                + "\n"
                + t(
                    lang,
                    "config_limits",
                    per_user=config["max_open_per_user"],
                    per_guild=config["max_open_per_guild"],
                ),
            )


def who_undid(lang: str, undone_by: str | None) -> str:
    """``user:1`` / ``referee:1`` / ``referee:1;agreed:user:2`` as mentions."""
    if not undone_by:
        return "—"
    main, _, agreed = str(undone_by).partition(";agreed:")

    def person(actor: str) -> str:
        kind, _, rest = actor.partition(":")
        if kind in ("user", "referee") and rest.isdigit():
            return f"<@{rest}>" + (" (referee)" if kind == "referee" and not agreed else "")
        return actor or "—"

    if agreed:
        return t(lang, "referee_consent", referee=person(main), user=person(agreed))
    return person(main)


def format_duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h {rest // 60:02d}m"


async def setup(bot) -> None:
    await bot.add_cog(GameCog(bot))
    await bot.add_cog(ConfigCog(bot))
