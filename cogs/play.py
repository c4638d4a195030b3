"""Play commands, built from the rulesets' declared commands instead of written per game.

Every standard command name from docs/architecture.md gets a slash command; so does any other
command a registered ruleset declares (unless the name is taken by the bot). Options are the
union of what the rulesets declare for that name, every one a string with autocomplete fed by
``legal_actions`` for the caller's side, filtered by the options already typed and labelled by
``ruleset.describe``. ``/act`` offers every legal action as one choice, so any ruleset-specific
action works even without its own command.
"""

from __future__ import annotations

import inspect
import io
import logging
from dataclasses import dataclass, field

import discord
from discord import app_commands

from engine.core.commands import format_command, parse_command
from engine.core.errors import CommandSyntaxError
from engine.core.names import AmbiguousName, resolve_action
from engine.core.ruleset import INFO
from renderer.layout import SceneError
from service.lru import Lru
from service.replay import SERVICE_ACTIONS

from .buttons import undo_for_player
from .common import (
    Guard,
    Refusal,
    UmpireCog,
    clip,
    describe_action,
    describe_value,
    ruleset_of,
    send,
)
from .game import playable_rulesets
from .i18n import DE_TEXT, locale_of, rule_text, t
from .limits import MAX_OPTION_LENGTH

log = logging.getLogger("umpire.discord")

# Names a ruleset's command may not take: the bot's own commands, and the actions only the
# service applies (resigning has /game resign, losing on time is the clock's).
RESERVED = {"game", "ref", "umpire", "act", "undo", "flare", "help", *SERVICE_ACTIONS}
MAX_CHOICES = 25
# The /act autocomplete's (command, label) lists, per game, version, side and language: a
# player typing asks again at every keystroke, and describing every legal action was most of
# an answer's work. A version never comes back, so an entry never goes stale; it is only
# dropped when not used for a while.
ACT_LABELS_KEPT = 256

# The standard names (docs/architecture.md) and the options they take when no ruleset declares
# them: (option, description, required).
STANDARD: dict[str, tuple[str, tuple[tuple[str, str, bool], ...]]] = {
    "move": ("Move a unit", (("unit", "Your unit", True), ("to", "Destination", True))),
    "attack": (
        "Attack an enemy unit",
        (
            ("unit", "Your attacking unit", True),
            ("target", "The enemy unit", True),
            ("with", "A second unit joining the attack", False),
        ),
    ),
    "fire": (
        "Fire at an enemy unit",
        (("unit", "Your firing unit", True), ("target", "The enemy unit", True)),
    ),
    "end-phase": ("End the current phase", ()),
    "deploy": (
        "Deploy a unit",
        (("unit", "The unit to deploy", True), ("to", "Where it enters", True)),
    ),
    "rally": ("Rally a unit", (("unit", "The unit to rally", True),)),
    "retreat": (
        "Retreat a unit",
        (("unit", "The retreating unit", True), ("to", "Where it retreats to", True)),
    ),
    "advance": (
        "Advance after combat",
        (("unit", "The advancing unit", True), ("to", "Where it advances to", True)),
    ),
    "place": (
        "Place a tile or piece",
        (("tile", "What to place", False), ("hex", "Where to place it", False)),
    ),
    "play": (
        "Play a card",
        (
            ("card", "The card", True),
            ("choice", "Your choice", False),
            ("target", "Its target", False),
        ),
    ),
    "discard": ("Discard a card", (("card", "The card", True),)),
    "draw": ("Draw a card", ()),
    "reserve": ("Put a unit into reserve", (("unit", "The unit", True),)),
    "pass": ("Pass", ()),
    "auto-setup": ("Place your remaining units legally at random", ()),
    "suggested": ("Place your remaining units as the scenario suggests", ()),
}


class _ActChoices:
    """The /act choices of one game version, side and language: every legal action's command,
    and the labels of the first MAX_CHOICES at once, of the others when typed text is to be
    matched against them. The first keystroke (nothing typed yet) shows 25 and counts the
    rest, so it describes 25 actions, not all (Tenochtitlan offers hundreds). Neither the view
    nor the actions are kept: the labels still missing are made from the same version's view
    and actions, read again when first needed (``label_all``)."""

    def __init__(self, ruleset, view: dict, legal: list[dict], lang: str):
        self.lang = lang
        self.values: list[str] = []
        self.labels: list[str | None] = []
        for action, value in self._offered(legal):
            self.values.append(value)
            self.labels.append(
                describe_action(ruleset, view, action, lang)
                if len(self.labels) < MAX_CHOICES
                else None
            )
        self.complete = len(self.values) <= MAX_CHOICES

    @staticmethod
    def _offered(legal: list[dict]):
        for action in legal:
            if action.get("type") in SERVICE_ACTIONS:
                continue
            value = format_command(action)
            if len(value) <= 100:
                yield action, value

    def label_all(self, ruleset, view: dict, legal: list[dict]) -> None:
        """``view`` and ``legal``: of the version these choices belong to."""
        for index, (action, _) in enumerate(self._offered(legal)):
            if self.labels[index] is None:
                self.labels[index] = describe_action(ruleset, view, action, self.lang)
        self.complete = True


@dataclass
class PlayOption:
    name: str
    description: str
    required: bool


@dataclass
class PlayCommand:
    name: str
    description: str
    options: dict[str, PlayOption] = field(default_factory=dict)
    description_i18n: dict[str, str] = field(default_factory=dict)


def collect_commands(rulesets=None) -> list[PlayCommand]:
    """The standard commands plus every registered ruleset's declared commands.

    A name nobody declares keeps its standard options. A declared name takes the union of the
    options its declarations list; an option is required only if every declaration of that
    command lists it as required (so no game is asked for an option it does not use)."""
    declarations: dict[str, list] = {}
    for ruleset in playable_rulesets() if rulesets is None else rulesets:
        for declared in ruleset.commands:
            if declared.name not in RESERVED and _valid_name(declared.name):
                declarations.setdefault(declared.name, []).append(declared)
    found: dict[str, PlayCommand] = {}
    for name, (description, options) in STANDARD.items():
        if name not in declarations:
            command = found[name] = PlayCommand(name, description)
            for option, text, required in options:
                command.options[option] = PlayOption(option, text, required)
    for name, declared_list in declarations.items():
        standard_description = STANDARD.get(name, ("",))[0]
        first = declared_list[0]
        # A standard name keeps its standard description so its translation applies.
        command = found[name] = PlayCommand(name, standard_description or first.description)
        for declared in declared_list:
            for lang, text in declared.description_i18n.items():
                command.description_i18n.setdefault(lang, text)
            for option in declared.options:
                if option.name not in command.options:
                    command.options[option.name] = PlayOption(option.name, option.description, True)
        for option in command.options.values():
            option.required = all(
                any(o.name == option.name and o.required for o in declared.options)
                for declared in declared_list
            )
    return list(found.values())


def collect_queries(rulesets=None, taken: set[str] | None = None) -> list[PlayCommand]:
    """Every registered ruleset's declared queries (read-only questions such as ``/los``),
    options united as for commands; a name the bot or a play command already uses is left out
    (the ruleset's players still have it on the local table)."""
    taken = RESERVED | (taken or set())
    found: dict[str, PlayCommand] = {}
    declared_by: dict[str, list] = {}
    for ruleset in playable_rulesets() if rulesets is None else rulesets:
        for declared in ruleset.all_queries():
            if declared.name in taken or not _valid_name(declared.name):
                continue
            declared_by.setdefault(declared.name, []).append(declared)
            command = found.setdefault(
                declared.name, PlayCommand(declared.name, declared.description)
            )
            for lang, text in declared.description_i18n.items():
                command.description_i18n.setdefault(lang, text)
            for option in declared.options:
                command.options.setdefault(
                    option.name, PlayOption(option.name, option.description, True)
                )
    for name, command in found.items():
        for option in command.options.values():
            option.required = all(
                any(o.name == option.name and o.required for o in d.options)
                for d in declared_by[name]
            )
    return list(found.values())


def _resolved(ruleset, view: dict, command_name: str, filled: dict, legal: list[dict]) -> dict:
    """Options already typed, with names (a counter's label, a unit's name) turned into ids so
    the next option's choices fit them; a name that fits several things narrows nothing."""
    if not filled:
        return filled
    try:
        action = resolve_action(ruleset, view, {"type": command_name, **filled}, legal)
    except AmbiguousName:
        return {}
    action.pop("type", None)
    return action


def _valid_name(name: str) -> bool:
    return 1 <= len(name) <= 32 and all(c.islower() or c.isdigit() or c in "-_" for c in name)


def _param_name(option: str) -> str:
    """A Python name for an option (``with`` is a keyword); renamed back for Discord."""
    return (
        option + "_"
        if not option.isidentifier()
        or option in ("with", "from", "in", "as", "is", "for", "if", "type")
        else option.replace("-", "_")
    )


class PlayCog(UmpireCog):
    def __init__(self, bot):
        super().__init__(bot)
        self.play_commands: list[app_commands.Command] = []
        self.query_commands: list[app_commands.Command] = []
        self._act_labels: Lru[tuple, _ActChoices] = Lru(ACT_LABELS_KEPT)

    # ----- building the commands -----------------------------------------------------------
    def build(self, specs: list[PlayCommand]) -> list[app_commands.Command]:
        built = []
        for spec in specs:
            built.append(self._build_one(spec))
        self.play_commands = built
        return built

    def build_queries(self, specs: list[PlayCommand]) -> list[app_commands.Command]:
        built = [self._build_one(spec, query=True) for spec in specs]
        self.query_commands = built
        return built

    def _build_one(self, spec: PlayCommand, query: bool = False) -> app_commands.Command:
        options = sorted(spec.options.values(), key=lambda o: not o.required)
        renames = {_param_name(o.name): o.name for o in options}

        async def callback(interaction: discord.Interaction, **values) -> None:
            typed = {
                renames[k]: str(v).strip()
                for k, v in values.items()
                if v is not None and str(v).strip()
            }
            async with Guard(interaction, context=f"/{spec.name} {typed}"):
                if query:
                    await self.answer_query(interaction, spec.name, typed)
                else:
                    await self.presenter.play(interaction, spec.name, typed)

        parameters = [
            inspect.Parameter(
                "interaction",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            )
        ]
        # Discord's client then refuses longer text itself; the tree checks it again.
        text = app_commands.Range[str, 1, MAX_OPTION_LENGTH]
        for option in options:
            parameters.append(
                inspect.Parameter(
                    _param_name(option.name),
                    inspect.Parameter.KEYWORD_ONLY,
                    annotation=text if option.required else (text | None),
                    default=inspect.Parameter.empty if option.required else None,
                )
            )
        callback.__signature__ = inspect.Signature(parameters)
        callback.__name__ = callback.__qualname__ = "play_" + spec.name.replace("-", "_")
        # The public decorators, applied by hand because the parameters are built at runtime.
        app_commands.describe(
            **{_param_name(o.name): clip(o.description or o.name, 100) for o in options}
        )(callback)
        app_commands.rename(
            **{param: option for param, option in renames.items() if param != option}
        )(callback)
        app_commands.guild_only()(callback)
        description = app_commands.locale_str(
            clip(spec.description or spec.name, 100),
            i18n={lang: clip(text, 100) for lang, text in spec.description_i18n.items()},
        )
        command = app_commands.Command(name=spec.name, description=description, callback=callback)
        if not query:  # a query's options are free (any cell), not drawn from legal actions
            for option in options:
                command.autocomplete(_param_name(option.name))(
                    self._completer(spec.name, option.name)
                )
        elif spec.name == INFO.name:  # /info: what the asker can see on the board
            for option in options:
                command.autocomplete(_param_name(option.name))(self._info_completer(option.name))
        return command

    def _info_completer(self, option_name: str):
        async def complete(interaction: discord.Interaction, current: str):
            return await self.complete_info(interaction, option_name, current)

        return complete

    async def complete_info(
        self, interaction: discord.Interaction, option_name: str, current: str
    ) -> list[app_commands.Choice[str]]:
        """Units and cells for /info, as the asker's side sees them (a spectator: the public
        view); nothing while the bot is saturated."""
        try:
            if self.service.overloaded:
                return []
            async with self.service.same_reads():
                info = await self.service.find_by_thread(interaction.channel_id)
                if info is None or info.status not in ("active", "paused", "finished"):
                    return []
                ruleset = ruleset_of(info)
                sides = await self.service.sides_of(info.id, interaction.user.id)
                viewer = sides[0] if sides else None
                view = await self.service.shared_view(info.id, viewer)
            found = ruleset.info_choices(
                view, viewer, option_name, (current or "")[:100], locale_of(interaction)
            )
            return [
                app_commands.Choice(name=clip(label, 100), value=value)
                for value, label in found[:MAX_CHOICES]
                if len(value) <= 100
            ]
        except Exception:
            log.exception("autocomplete of /info %s failed", option_name)
            return []

    async def answer_query(
        self, interaction: discord.Interaction, name: str, typed: dict[str, str]
    ) -> None:
        """A read-only question about the game in this thread (``/los``): anyone who can see
        the thread may ask, at any time; the answer is computed from what the asker's side may
        see (a spectator's view otherwise), shown to the asker only, and changes nothing."""
        here = await self.presenter.game_here(interaction)
        if not any(q.name == name for q in here.ruleset.all_queries()):
            raise Refusal("refused", why=f"{here.ruleset.title} has no /{name}.")
        sides = await self.service.sides_of(here.info.id, interaction.user.id)
        text, png = await self.service.ask(
            here.info.id,
            name,
            typed,
            viewer=sides[0] if sides else None,
            lang=locale_of(interaction),
        )
        if png is None:
            await send(interaction, clip(text, 2000))
            return
        await send(
            interaction,
            clip(text, 2000),
            file=discord.File(io.BytesIO(png), filename=f"{name}.png"),
        )

    def _completer(self, command_name: str, option_name: str):
        async def complete(interaction: discord.Interaction, current: str):
            return await self.complete_option(interaction, command_name, option_name, current)

        return complete

    # ----- autocomplete ----------------------------------------------------------------------
    async def _caller_legal(self, interaction: discord.Interaction):
        """(ruleset, view, legal actions) for the caller's awaited sides; None if nothing (also
        while the bot is saturated: Discord drops a late answer anyway, and the command itself
        will say it is busy)."""
        if self.service.overloaded:
            return None
        async with self.service.same_reads():
            return await self._caller_legal_now(interaction)

    async def _caller_to_act(self, interaction: discord.Interaction):
        """(game, ruleset, the caller's sides the game waits for) in this thread's active game,
        or None. Called inside ``same_reads``."""
        info = await self.service.find_by_thread(interaction.channel_id)
        if info is None or info.status != "active":
            return None
        ruleset = ruleset_of(info)
        sides = await self.service.sides_of(info.id, interaction.user.id)
        awaited = ruleset.awaiting(info.state)
        return info, ruleset, [side for side in sides if side in awaited]

    async def _caller_legal_now(self, interaction: discord.Interaction):
        found = await self._caller_to_act(interaction)
        if found is None:
            return None
        info, ruleset, sides = found
        results = []
        for side in sides:
            view = await self.service.shared_view(info.id, side)
            legal = await self.service.legal_actions(info.id, side)
            results.append((side, view, legal))
        return info, ruleset, results

    def _whose_turn(self, interaction: discord.Interaction, info, ruleset) -> app_commands.Choice:
        """The one entry autocomplete offers out of turn: whose turn it is."""
        lang = locale_of(interaction)
        sides = ", ".join(ruleset.side_title(s, lang) for s in ruleset.awaiting(info.state))
        return app_commands.Choice(
            name=clip(t(lang, "autocomplete_wait", sides=sides or "—"), 100), value="?"
        )

    async def complete_option(
        self, interaction: discord.Interaction, command_name: str, option_name: str, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            found = await self._caller_legal(interaction)
            if not found:
                return []
            info, ruleset, per_side = found
            if not per_side:
                return [self._whose_turn(interaction, info, ruleset)]
            filled = {
                key.rstrip("_"): str(value)
                for key, value in interaction.namespace
                if value not in (None, "") and key.rstrip("_") != option_name
            }
            needle = (current or "").lower()
            lang = locale_of(interaction)
            choices: dict[str, str] = {}
            for side, view, legal in per_side:
                wanted = _resolved(ruleset, view, command_name, filled, legal)
                for action in legal:
                    if (
                        action.get("type") != command_name
                        or option_name not in action
                        or command_name in SERVICE_ACTIONS
                    ):
                        continue
                    if any(action.get(k) != v for k, v in wanted.items()):
                        continue
                    value = action[option_name]
                    if value in choices:
                        continue
                    label = describe_value(ruleset, view, option_name, value, lang)
                    if needle and needle not in label.lower() and needle not in value.lower():
                        continue
                    choices[value] = label
            return [
                app_commands.Choice(name=clip(label, 100), value=value)
                for value, label in list(choices.items())[:MAX_CHOICES]
                if len(value) <= 100
            ]
        except Exception:
            log.exception("autocomplete of /%s %s failed", command_name, option_name)
            return []

    # ----- /help ------------------------------------------------------------------------------
    @app_commands.command(name="help", description="How a game flows and this game's commands")
    @app_commands.guild_only()
    async def help_(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction, context="/help"):
            lang = locale_of(interaction)
            parts = [t(lang, "help_flow")]
            info = (
                await self.service.find_by_thread(interaction.channel_id)
                if interaction.channel_id
                else None
            )
            if info is not None:
                parts.append(await self._game_help(interaction, info, lang))
            else:
                parts.append(t(lang, "help_no_game"))
            await send(interaction, clip("\n\n".join(parts)))

    async def _game_help(self, interaction: discord.Interaction, info, lang: str) -> str:
        """This game's commands in the reader's language, with examples taken from the
        caller's own legal actions now (never another side's: they could show its secrets)."""
        ruleset = ruleset_of(info)
        lines = [
            t(
                lang,
                "help_game",
                title=ruleset.title,
                id=info.id,
                status=t(lang, "status_" + info.status),
            )
        ]
        for command in ruleset.commands:
            if command.name in SERVICE_ACTIONS:
                continue
            text = command.description_i18n.get(lang) or (
                DE_TEXT.get(command.description, command.description)
                if lang == "de"
                else command.description
            )
            lines.append(f"• `/{command.name}` — {text}")
        lines.append(t(lang, "help_questions"))
        for question in ruleset.all_queries():
            text = question.description_i18n.get(lang) or (
                DE_TEXT.get(question.description, question.description)
                if lang == "de"
                else question.description
            )
            options = " ".join(f"{o.name}:…" for o in question.options)
            lines.append(f"• `/{question.name} {options}` — {text}")
        examples: dict[str, str] = {}
        if info.status == "active":
            for side in await self.service.sides_of(info.id, interaction.user.id):
                for action in await self.service.legal_actions(info.id, side):
                    if action.get("type") not in SERVICE_ACTIONS:
                        examples.setdefault(str(action.get("type")), format_command(action))
        if examples:
            lines.append(
                t(lang, "help_examples")
                + " "
                + ", ".join(f"`{e}`" for e in list(examples.values())[:6])
            )
        elif info.status == "active":
            awaited = ", ".join(ruleset.side_title(s, lang) for s in ruleset.awaiting(info.state))
            lines.append(t(lang, "autocomplete_wait", sides=awaited or "—"))
        return "\n".join(lines)

    # ----- /act, /undo, /flare -----------------------------------------------------------------
    @app_commands.command(name="act", description="Take any legal action (pick from the list)")
    @app_commands.describe(action="The action, e.g. /move unit:sp-cavalry-1 to:0507")
    @app_commands.guild_only()
    async def act(
        self,
        interaction: discord.Interaction,
        action: app_commands.Range[str, 1, MAX_OPTION_LENGTH],
    ) -> None:
        async with Guard(interaction, context=f"/act {action}"):
            if action.strip() == "?":
                # The out-of-turn entry of autocomplete: say again whose turn it is.
                await self.presenter.acting_side(
                    interaction, await self.presenter.game_here(interaction)
                )
            try:
                parsed = parse_command(action)
            except CommandSyntaxError as error:
                why = rule_text(error, locale_of(interaction))
                raise Refusal("bad_syntax", why=why) from None
            kind = parsed.pop("type")
            await self.presenter.play(interaction, kind, parsed)

    async def _act_entries(self, interaction: discord.Interaction, typed: str = ""):
        """(game, ruleset, [_ActChoices per awaited side of the caller]), kept per game
        version (see ACT_LABELS_KEPT), every label made when ``typed`` text is to be matched
        (or several sides' choices merged); None if nothing (also while the bot is
        saturated, as ``_caller_legal``)."""
        if self.service.overloaded:
            return None
        async with self.service.same_reads():
            found = await self._caller_to_act(interaction)
            if found is None:
                return None
            info, ruleset, sides = found
            lang = locale_of(interaction)
            per_side = []
            for side in sides:
                key = (info.id, info.version, side, lang)
                entries = self._act_labels.get(key)
                if entries is None:
                    view = await self.service.shared_view(info.id, side)
                    legal = await self.service.legal_actions(info.id, side)
                    entries = self._act_labels[key] = _ActChoices(ruleset, view, legal, lang)
                if not entries.complete and (typed or len(sides) > 1):
                    # within the same reads: the view and actions of info.version
                    entries.label_all(
                        ruleset,
                        await self.service.shared_view(info.id, side),
                        await self.service.legal_actions(info.id, side),
                    )
                per_side.append(entries)
            return info, ruleset, per_side

    @act.autocomplete("action")
    async def act_complete(self, interaction: discord.Interaction, current: str):
        try:
            needle = (current or "").lower()
            found = await self._act_entries(interaction, needle)
            if not found:
                return []
            info, ruleset, per_side = found
            if not per_side:
                return [self._whose_turn(interaction, info, ruleset)]
            choices = []
            seen = set()
            matching = 0
            for entries in per_side:
                for index, value in enumerate(entries.values):
                    if value in seen:
                        continue
                    label = entries.labels[index]
                    if (
                        needle
                        and needle not in value.lower()
                        and needle not in (label or "").lower()
                    ):
                        continue
                    seen.add(value)
                    matching += 1
                    if len(choices) < MAX_CHOICES:
                        choices.append(
                            app_commands.Choice(name=clip(label or value, 100), value=value)
                        )
            if matching > MAX_CHOICES:
                # Discord shows 25 choices: the last one also says how many more there are and
                # how to narrow them. It stays a real action (its label follows the hint), so
                # picking it does what it says.
                last = choices[-1]
                hint = t(locale_of(interaction), "act_more", count=matching - MAX_CHOICES)
                choices[-1] = app_commands.Choice(
                    name=clip(f"{hint} · {last.name}", 100), value=last.value
                )
            return choices
        except Exception:
            log.exception("autocomplete of /act failed")
            return []

    @app_commands.command(
        name="undo", description="Take back your last action (same phase, before any die or secret)"
    )
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        async with Guard(interaction, context="/undo"):
            here = await self.presenter.game_here(interaction)
            await undo_for_player(
                interaction, self.presenter, here, expected_version=here.info.version
            )

    @app_commands.command(name="flare", description="Mark a hex on the next picture")
    @app_commands.describe(hex="The cell to mark, e.g. 0507 or C4")
    @app_commands.guild_only()
    async def flare(
        self, interaction: discord.Interaction, hex: app_commands.Range[str, 1, MAX_OPTION_LENGTH]
    ) -> None:
        async with Guard(interaction, context=f"/flare {hex}"):
            lang = locale_of(interaction)
            here = await self.presenter.game_here(interaction)
            # Marks go on the players' next turn post: only people of the game may add them.
            if not await self.service.sides_of(
                here.info.id, interaction.user.id
            ) and not await self.presenter.is_referee(interaction, here.info):
                raise Refusal("flare_not_allowed")
            label = hex.strip().upper()
            if not label or len(label) > 8 or not label.isalnum():
                raise Refusal("bad_hex", hex=hex)
            try:
                # A stored flare is drawn on every picture until a turn post shows it: one
                # the board cannot draw would make every post fail, so try it first.
                await self.service.render(here.info.id, viewer=None, flares=(label,))
            except SceneError:
                raise Refusal("flare_off_map", hex=label) from None
            await self.service.add_flare(here.info.id, label)
            await self.presenter.post_board(
                here.info,
                keep_flares=True,
                note=t(lang, "flare", hex=label, user=f"<@{interaction.user.id}>"),
            )
            await send(interaction, t(lang, "flare_done", hex=label))


async def setup(bot) -> None:
    cog = PlayCog(bot)
    await bot.add_cog(cog)
    played = collect_commands()
    for command in cog.build(played):
        bot.tree.add_command(command)
    for command in cog.build_queries(collect_queries(taken={c.name for c in played})):
        bot.tree.add_command(command)
