"""The one object cogs and buttons go through: find the game of a thread, decide who may act,
apply through the service, and post what happened (action lines, dice, the board).

Kept off the gateway's critical path: everything here awaits the service, which runs the
database in aiosqlite's thread and rendering in ``asyncio.to_thread``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import discord

from engine.core.names import AmbiguousName
from renderer.layout import SceneError
from service.errors import StaleVersion
from service.lru import Lru
from service.names import act_by_names
from service.replay import SERVICE_ACTIONS

from .buttons import Decision, board_view, is_decision
from .common import (
    MAX_EMBED_TEXT,
    GameHere,
    Refusal,
    clip,
    decision_label,
    describe_action,
    event_lines,
    flow_line,
    format_secrets,
    mention_list,
    png_file,
    result_reason,
    ruleset_of,
    same_id,
    secrets_of,
    send,
    side_title,
    user_actor,
)
from .i18n import locale_of, normalise_locale, t

log = logging.getLogger("umpire.discord")

CURRENT_POSTS_KEPT = 4000  # channel, message, version of the newest board per game


class Presenter:
    def __init__(self, bot: discord.Client, service, settings):
        self.bot = bot
        self.service = service
        self.settings = settings
        # The latest board post per game, so new versions can refresh its buttons and stale
        # clicks can point at it. Rebuilt as boards are posted; after a restart an old board's
        # click is still refused (its version is old) and points at the thread instead.
        # Bounded: a game dropped here is found again in the posts the service recorded.
        self.current_post: Lru[Any, tuple[int, int, int]] = Lru(CURRENT_POSTS_KEPT)

    # ----- lookups --------------------------------------------------------------------------
    async def game_here(self, interaction: discord.Interaction) -> GameHere:
        info = await self.service.find_by_thread(interaction.channel_id)
        if info is None:
            raise Refusal("no_game_here")
        return GameHere(info, ruleset_of(info))

    async def public_lang(self, guild_id: int | None) -> str:
        if guild_id is not None:
            try:
                config = await self.service.guild_config(guild_id)
            except Exception:
                log.exception("guild_config failed")
                config = None
            locale = _field(config, "locale")
            if locale:
                return normalise_locale(locale)
            guild = self.bot.get_guild(guild_id)
            if guild is not None:
                return normalise_locale(str(guild.preferred_locale))
        return "en"

    async def thread_of(self, info) -> discord.abc.Messageable | None:
        channel_id = info.thread_id or info.channel_id
        if channel_id is None:
            return None
        channel = self.bot.get_channel(int(channel_id))
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(int(channel_id))
            except discord.HTTPException:
                log.warning("cannot reach channel %s of game %s", channel_id, info.id)
                return None
        return channel

    async def latest_board(self, info) -> tuple[int, int, int] | None:
        """(channel id, message id) of the game's newest board post: remembered, or after a
        restart read from the posts the service recorded."""
        post = self.current_post.get(info.id)
        if post is None:
            try:
                posts = await self.service.posts(info.id, "turn")
            except Exception:
                log.exception("posts failed for game %s", info.id)
                posts = []
            if posts:
                last = max(posts, key=lambda p: (p["version"], p["message_id"]))
                post = (int(last["channel_id"]), int(last["message_id"]), int(last["version"]))
                self.current_post[info.id] = post
        return post

    async def board_link(self, info, *, look_up: bool = True) -> str:
        # look_up=False: a caller that read the newest posts itself (the reminder pass, for
        # all games at once) wants no query for a game that has none.
        post = await self.latest_board(info) if look_up else self.current_post.get(info.id)
        # A board older than the game is not "the current one": its successor is still being
        # posted (someone acted a moment ago), so point at the thread where it will appear.
        if post and info.guild_id and post[2] >= info.version:
            return f"https://discord.com/channels/{info.guild_id}/{post[0]}/{post[1]}"
        target = info.thread_id or info.channel_id
        return f"<#{target}>" if target else f"#{info.id}"

    async def is_referee(self, interaction: discord.Interaction, info) -> bool:
        user = interaction.user
        if same_id(info.creator_id, user.id):
            return True
        roles = {str(role.id) for role in getattr(user, "roles", [])}
        names = {role.name for role in getattr(user, "roles", [])}
        if interaction.guild_id is not None:
            config = await self.service.guild_config(interaction.guild_id)
            role_id = _field(config, "referee_role_id")
            if role_id is not None and str(role_id) in roles:
                return True
        configured = self.settings.referee_role if self.settings else None
        return bool(configured) and (configured in roles or configured in names)

    async def require_referee(self, interaction: discord.Interaction, info) -> None:
        if not await self.is_referee(interaction, info):
            raise Refusal("not_referee")

    async def acting_side(
        self,
        interaction: discord.Interaction,
        here: GameHere,
        action_type: str | None = None,
        options: dict | None = None,
        wanted: str | None = None,
    ) -> str:
        """The side the caller acts for now: one they are seated on and the game awaits
        (``wanted``: only that one, for a decision button that belongs to a side).
        With team play several users share a side; with hot-seat one user holds several."""
        info, ruleset = here.info, here.ruleset
        mine = await self.service.sides_of(info.id, interaction.user.id)
        if not mine:
            raise Refusal("not_seated")
        if info.status != "active":
            raise Refusal("not_running", status=info.status)
        awaited = ruleset.awaiting(info.state)
        candidates = [side for side in mine if side in awaited and wanted in (None, side)]
        if not candidates:
            seats = await self.service.seats(info.id)
            lang = locale_of(interaction)
            waiting = (
                ", ".join(
                    f"{side_title(ruleset, s, lang)} {mention_list(seats.get(s, []))}".strip()
                    for s in awaited
                )
                or "—"
            )
            raise Refusal("not_your_turn", waiting=waiting)
        if len(candidates) > 1 and action_type:
            wanted = dict(options or {}, type=action_type)
            for side in candidates:
                legal = await self.service.legal_actions(info.id, side)
                if any(all(a.get(k) == v for k, v in wanted.items()) for a in legal):
                    return side
        return candidates[0]

    async def after_change(self, *steps) -> bool:
        """Run posting steps once the game has already changed. A failure here (Discord down,
        a picture that cannot be drawn) is logged and reported as a failed post, never as
        "nothing changed"; the game itself is safely stored."""
        ok = True
        for step in steps:
            try:
                await step
            except Exception:
                log.exception("posting to the thread failed after a change")
                ok = False
        return ok

    # ----- acting ---------------------------------------------------------------------------
    async def play(
        self,
        interaction: discord.Interaction,
        action_type: str,
        options: dict,
        expected_version: int | None = None,
        here: GameHere | None = None,
        side: str | None = None,
    ) -> None:
        """Apply one action for the caller and post it. The interaction is already deferred.
        A saturated bot refuses at once ("busy, try again in a moment"), before any work."""
        async with self.service.command():
            await self._play(interaction, action_type, options, expected_version, here, side)

    async def _play(
        self,
        interaction: discord.Interaction,
        action_type: str,
        options: dict,
        expected_version: int | None,
        here: GameHere | None,
        side: str | None,
    ) -> None:
        lang = locale_of(interaction)
        if action_type in SERVICE_ACTIONS:
            raise Refusal("service_only", command=action_type)
        here = here or await self.game_here(interaction)
        command_version = None
        if expected_version is None:
            # A command carries no board version: the one it was read at stands in, so two
            # commands sent in the same instant (two team-mates' /end-phase) never both apply,
            # the second to a position only the first was meant for.
            command_version = expected_version = here.info.version
        side = await self.acting_side(interaction, here, action_type, options, wanted=side)
        # Type and side last: no option, whatever its name, can replace them.
        action = {**options, "type": action_type, "side": side}
        try:
            changes = await self.service.changes_since(here.info.id, side, lang)
        except Exception:
            log.exception("changes_since failed")
            changes = []
        before = await self.service.shared_view(here.info.id, None)  # labels for public posts
        try:
            # Typed names (a counter's label, a unit's name, a clear beginning) are resolved
            # only when the ids as given are refused; a standing refusal says why and offers a
            # few commands worth trying, the same unit's first.
            outcome = await act_by_names(
                self.service,
                here.info.id,
                action,
                actor=user_actor(interaction.user),
                expected_version=expected_version,
            )
        except AmbiguousName as error:
            raise Refusal(
                "ambiguous_name",
                option=error.option,
                typed=error.typed,
                candidates="; ".join(error.legal),
            ) from None
        except StaleVersion:
            if command_version is None:
                raise
            current = await self.service.get_game(here.info.id)
            raise Refusal("stale_command", link=await self.board_link(current)) from None
        action = outcome.action
        posted = await self.after_change(
            self.publish(outcome, before, interaction.user, here.ruleset)
        )
        mine = event_lines(here.ruleset, outcome.game.state, outcome.events, side, lang)
        private = [line for line in mine if line.startswith("🔒")]
        text = t(lang, "done", action=describe_action(here.ruleset, before, action, lang))
        if private:
            text += "\n" + t(lang, "only_you") + "\n" + "\n".join(private)
        if changes:
            text += "\n" + t(lang, "since_last") + "\n" + "\n".join(f"• {c}" for c in changes[-10:])
        if not posted:
            text += "\n" + t(lang, "post_failed")
        await send(interaction, clip(text), ephemeral=True)

    async def publish(self, outcome, before: dict, user, ruleset) -> None:
        """Post an applied action to the game's thread; a new board when the turn or phase
        moved or the game ended, else refresh the current board's buttons."""
        info = outcome.game
        channel = await self.thread_of(info)
        if channel is None:
            return
        lang = await self.public_lang(info.guild_id)
        public_state = await self.service.shared_view(info.id, None)
        lines = event_lines(ruleset, public_state, outcome.events, None, lang)
        flow = await self.flow(info, ruleset, before, public_state, outcome, lang)
        if flow:
            lines.append(flow)
        who = f"<@{user.id}>" if user is not None else ""
        head = (
            f"**{side_title(ruleset, outcome.action.get('side'), lang)}** {who}: "
            f"{describe_action(ruleset, before, outcome.action, lang)}"
        )
        text = clip("\n".join([head, *lines]))
        state = info.state
        moved_on = (
            outcome.turn_ended
            or outcome.game_over
            or any(
                before.get(key) != state.get(key) for key in ("turn", "phase", "active", "awaiting")
            )
        )
        # The new board's picture is drawn by a worker while this post goes to Discord (a
        # round trip of its own) and the board post is put together: the command waits for
        # the longer of them, not for both one after the other.
        picture = self._start_picture(info, lang) if moved_on else None
        try:
            has_dice = any(e.get("type") == "roll" for e in outcome.events)
            if has_dice:
                embed = discord.Embed(
                    title=t(lang, "result"),
                    description=clip(text, MAX_EMBED_TEXT),
                    colour=discord.Colour.dark_red(),
                )
                await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
            else:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            if moved_on:
                # Ping only when the game starts waiting for someone else, not on every phase.
                new_people = any(
                    before.get(key) != state.get(key) for key in ("active", "awaiting")
                )
                await self.post_board(
                    info, lang=lang, mention=new_people, happened=[head, *lines], picture=picture
                )
            else:
                await self.refresh_buttons(info, lang)
        finally:
            _drop_unused(picture)

    async def flow(
        self, info, ruleset, before: dict, after: dict, outcome, lang: str
    ) -> str | None:
        """The one line announcing a new round, phase or side to act, and why."""
        try:
            pending = after.get("pending") if isinstance(after.get("pending"), dict) else None
            owed = {}
            if pending and info.status == "active" and pending.get("side") in ruleset.sides:
                owed[pending["side"]] = await self.service.legal_actions(info.id, pending["side"])
            return flow_line(ruleset, before, after, outcome.events, outcome.action, lang, owed)
        except Exception:  # the move is made; a missing announcement must not hide it
            log.exception("announcing the change of game %s failed", info.id)
            return None

    async def post_board(
        self,
        info,
        *,
        lang: str | None = None,
        mention: bool = False,
        note: str | None = None,
        happened: list[str] | None = None,
        keep_flares: bool = False,
        picture: asyncio.Task | None = None,
    ) -> discord.Message | None:
        """The turn post: header facts, who is awaited, what just happened (dice included),
        the public picture, and buttons.

        /flare marks (stored with the game, so they survive a restart) are drawn on every
        picture until a turn post has shown them; then they are cleared. ``keep_flares``: a
        picture asked for outside the game's progress (/flare itself, /game board).
        ``picture``: its drawing, started already by ``_start_picture`` in ``lang``."""
        try:
            return await self._post_board(info, lang, mention, note, happened, keep_flares, picture)
        finally:
            _drop_unused(picture)

    def _start_picture(self, info, lang: str) -> asyncio.Task:
        """The public picture of ``info``'s game with its flares, drawing from now on (a
        worker draws it while the caller does its other work); ``post_board`` awaits it."""
        return asyncio.create_task(self._board_picture(info, lang))

    async def _board_picture(self, info, lang: str) -> tuple[bytes, tuple]:
        """(the PNG, the flares drawn on it)."""
        flares = tuple(await self.service.flares(info.id))
        try:
            return await self.service.render(info.id, viewer=None, flares=flares, lang=lang), flares
        except SceneError:
            if not flares:
                raise
            # A flare stored before cells were checked must not stop every post for good.
            log.warning("game %s: flares %s cannot be drawn; dropped", info.id, flares)
            await self.service.clear_flares(info.id, flares)
            return await self.service.render(info.id, viewer=None, lang=lang), ()

    async def _post_board(
        self, info, lang, mention, note, happened, keep_flares, picture
    ) -> discord.Message | None:
        channel = await self.thread_of(info)
        if channel is None:
            return None
        lang = lang or await self.public_lang(info.guild_id)
        if picture is None:
            # drawn while the rest of the post (header, seats, decision buttons) is made
            picture = self._start_picture(info, lang)
        ruleset = ruleset_of(info)
        public_state = await self.service.shared_view(info.id, None)
        embed = discord.Embed(
            title=f"{ruleset.title} — #{info.id}", colour=discord.Colour.blurple()
        )
        try:
            header = ruleset.localised_header(public_state, lang)
        except Exception:
            log.exception("header failed for game %s", info.id)
            header = {}
        for key, value in list(header.items())[:20]:
            embed.add_field(
                name=clip(str(key), 250), value=clip(str(value) or "—", 1000), inline=True
            )
        seats = await self.service.seats(info.id)
        awaited = ruleset.awaiting(info.state) if info.status == "active" else []
        content = None
        result = info.result or info.state.get("result")
        if result:
            winner = result.get("winner")
            embed.description = t(
                lang,
                "game_over",
                winner=side_title(ruleset, winner, lang) if winner else t(lang, "nobody"),
                reason=result_reason(ruleset, info.state, result, lang),
            )
            if info.seed:
                embed.description += "\n" + t(lang, "seed_revealed", seed=info.seed)
        elif awaited:
            people = " ".join(mention_list(seats.get(s, [])) for s in awaited).strip()
            embed.description = t(
                lang, "waiting_for", sides=", ".join(side_title(ruleset, s, lang) for s in awaited)
            )
            if mention and people:
                content = t(lang, "your_move", people=people)
        elif info.status == "paused":
            embed.description = t(lang, "paused")
        if note:
            embed.description = (embed.description or "") + "\n" + note
        if happened:
            embed.description = clip(
                (embed.description or "") + "\n\n" + "\n".join(happened), MAX_EMBED_TEXT
            )
        embed.set_footer(text=t(lang, "version_footer", version=info.version))
        embed.set_image(url="attachment://board.png")
        view = (
            None
            if result
            else board_view(info.id, info.version, lang, await self.decisions(info, ruleset, lang))
        )
        png, flares = await picture
        kwargs = {"view": view} if view is not None else {}
        message = await channel.send(
            content,
            embed=embed,
            file=png_file(png),
            **kwargs,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        if flares and not keep_flares:
            try:
                await self.service.clear_flares(info.id, flares)
            except Exception:
                log.exception("clearing the flares of game %s failed", info.id)
        known = self.current_post.get(info.id)
        if known is None or known[2] <= info.version:
            self.current_post[info.id] = (message.channel.id, message.id, info.version)
        if mention and awaited:
            await self.turn_notices(info, ruleset, awaited, seats, message)
        try:
            await self.service.record_post(
                info.id, "turn", message.channel.id, message.id, info.version
            )
        except Exception:
            log.exception("record_post failed for game %s", info.id)
        return message

    async def turn_notices(
        self, info, ruleset, awaited: list[str], seats: dict, message: discord.Message
    ) -> None:
        """A direct message to each player of an awaited side who opted in (/game notify).
        A player whose DMs are closed is skipped quietly: the thread has the ping too."""
        wanted = (info.settings or {}).get("notify") or {}
        if not wanted:
            return
        link = message.jump_url if info.guild_id else ""
        for side in awaited:
            for user_id in seats.get(side, []):
                lang = wanted.get(str(user_id))
                if lang is None:
                    continue
                try:
                    user = self.bot.get_user(int(user_id)) or await self.bot.fetch_user(
                        int(user_id)
                    )
                    await user.send(
                        t(
                            lang,
                            "turn_notice",
                            side=ruleset.side_title(side, lang),
                            title=ruleset.title,
                            id=info.id,
                            link=link,
                        ),
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                except discord.HTTPException:
                    log.info("turn notice to %s for game %s not delivered", user_id, info.id)

    async def refresh_buttons(self, info, lang: str) -> None:
        """Keep the current board's buttons at the game's version, so End phase on the live
        board works after a move while older boards stay refused."""
        post = await self.latest_board(info)
        if not post:
            return
        channel = self.bot.get_channel(post[0])
        if channel is None:
            return
        decisions = await self.decisions(info, ruleset_of(info), lang)
        view = board_view(info.id, info.version, lang, decisions)
        try:
            # The footer names the version the buttons act on: it moves with them.
            message = await channel.fetch_message(post[1])
            embeds = list(message.embeds)
            if embeds:
                embeds[0].set_footer(text=t(lang, "version_footer", version=info.version))
                await message.edit(embeds=embeds, view=view)
            else:
                await message.edit(view=view)
        except discord.HTTPException:
            log.warning("could not refresh buttons of game %s", info.id, exc_info=True)
            return
        self.current_post[info.id] = (post[0], post[1], info.version)
        try:
            await self.service.record_post(info.id, "turn", post[0], post[1], info.version)
        except Exception:
            log.exception("record_post failed for game %s", info.id)

    async def decisions(self, info, ruleset, lang: str = "en") -> list[Decision]:
        """The awaited sides whose next step is a decision, with their choices labelled for a
        public post. A side whose choices would name its hidden information (a card in its
        hand) gets none: it acts through commands, whose replies only it sees. A plain
        "end the phase" is left out: the board's own End phase button does that."""
        if info.status != "active" or (info.result or info.state.get("result")):
            return []
        found = []
        try:
            public = None
            for side in ruleset.awaiting(info.state):
                legal = [
                    a
                    for a in await self.service.legal_actions(info.id, side)
                    if set(a) != {"type", "side"} or a["type"] != "end-phase"
                ]
                if not is_decision(legal):
                    continue
                if public is None:
                    public = await self.service.shared_view(info.id, None)
                mine = await self.service.shared_view(info.id, side)
                secret = json.dumps(secrets_of(public, mine), ensure_ascii=False)
                if any(
                    json.dumps(str(value), ensure_ascii=False) in secret
                    for action in legal
                    for key, value in action.items()
                    if key not in ("type", "side")
                ):
                    continue
                found.append(
                    Decision(
                        side,
                        side_title(ruleset, side, lang),
                        [(a, decision_label(ruleset, public, a, lang)) for a in legal],
                    )
                )
        except Exception:  # the board goes out with its standard buttons regardless
            log.exception("working out the decision buttons of game %s failed", info.id)
            return []
        return found

    async def announce(self, info, text: str) -> None:
        channel = await self.thread_of(info)
        if channel is not None:
            await channel.send(clip(text), allowed_mentions=discord.AllowedMentions.none())

    # ----- what a player may see alone -----------------------------------------------------
    async def my_options(
        self, interaction: discord.Interaction, here: GameHere, stale_version: int | None = None
    ) -> None:
        lang = locale_of(interaction)
        info, ruleset = here.info, here.ruleset
        mine = await self.service.sides_of(info.id, interaction.user.id)
        if not mine:
            raise Refusal("not_seated")
        public_view = await self.service.shared_view(info.id, None)
        parts: list[str] = []
        if stale_version is not None and stale_version != info.version:
            parts.append(t(lang, "stale_pointer", link=await self.board_link(info)))
        files = []
        for side in mine:
            view = await self.service.shared_view(info.id, side)
            parts.append(f"__**{side_title(ruleset, side, lang)}**__")
            secrets = secrets_of(public_view, view)
            if secrets:
                parts.append(
                    t(lang, "only_you")
                    + "\n"
                    + format_secrets(secrets, ruleset=ruleset, view=view, side=side)
                )
            legal = (
                await self.service.legal_actions(info.id, side) if info.status == "active" else []
            )
            if legal:
                shown = [f"• {describe_action(ruleset, view, a, lang)}" for a in legal[:20]]
                if len(legal) > 20:
                    shown.append(t(lang, "more", count=len(legal) - 20))
                parts.append(t(lang, "legal_now") + "\n" + "\n".join(shown))
            else:
                parts.append(t(lang, "nothing_now"))
            try:
                changes = await self.service.changes_since(info.id, side, lang)
            except Exception:
                log.exception("changes_since failed")
                changes = []
            if changes:
                parts.append(
                    t(lang, "since_last") + "\n" + "\n".join(f"• {c}" for c in changes[-10:])
                )
            if len(files) < 2 and info.status in ("active", "paused"):
                png = await self.service.render(info.id, viewer=side, lang=lang)
                files.append(png_file(png, f"{side}.png"))
        extra = {"files": files} if files else {}
        await send(interaction, clip("\n".join(parts)), ephemeral=True, **extra)


def _drop_unused(picture: asyncio.Task | None) -> None:
    """A picture started for a post that failed or returned early is not drawn for nothing
    (nobody awaits it now): cancelled, and its outcome taken so asyncio does not report it."""
    if picture is None:
        return
    if not picture.done():
        picture.cancel()
    picture.add_done_callback(_outcome_taken)


def _outcome_taken(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()


def _field(obj, name: str):
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)
