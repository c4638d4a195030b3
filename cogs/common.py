"""What every cog shares: error handling, finding the game of a thread, seats and sides,
turning events into lines, and posting boards.

Public messages (the thread) never carry hidden information: they are built from
``service.view(game, None)`` and skip events marked ``"private"``. Anything a side may see
alone goes to that player in an ephemeral reply.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from engine.core.errors import RuleError, UmpireError
from engine.core.ruleset import Ruleset
from engine.registry import get_ruleset
from service.errors import (
    CommitUncertain,
    GameNotActive,
    GameNotFound,
    NotSeated,
    ServiceError,
    StaleVersion,
    StorageError,
)
from service.games import GameBusy, Overloaded, describe_event
from service.replay import SERVICE_ACTIONS

from .i18n import locale_of, rule_text, t
from .limits import refund_cooldown

log = logging.getLogger("umpire.discord")

MAX_MESSAGE = 1900  # leave room under Discord's 2000-character limit
MAX_EMBED_TEXT = 3900  # embed descriptions may hold 4096


class UmpireCog(commands.Cog):
    """What every Umpire cog holds: the bot, its presenter (posting) and the game service."""

    def __init__(self, bot):
        self.bot = bot

    @property
    def presenter(self):
        return self.bot.presenter

    @property
    def service(self):
        return self.bot.presenter.service


class Refusal(Exception):
    """A player-caused refusal decided in the cogs (not seated, not a referee, no game here).
    ``key`` names a message in :mod:`cogs.i18n`; it is rendered in the player's language."""

    def __init__(self, key: str, **params: Any):
        self.key, self.params = key, params
        super().__init__(key)


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def user_actor(user: discord.abc.Snowflake) -> str:
    return f"user:{user.id}"


def same_id(a: Any, b: Any) -> bool:
    return a is not None and b is not None and str(a) == str(b)


async def send(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> discord.Message | None:
    """Answer an interaction whether or not it was deferred already."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        return None
    return await interaction.followup.send(content, ephemeral=ephemeral, wait=True, **kwargs)


class Guard:
    """``async with Guard(interaction):`` around a command body.

    Defers first, ephemerally (the body may touch the database or render), turns player-caused errors into a
    short ephemeral message saying why, and anything unexpected into a logged error with
    context plus a polite apology. The service applies an action in one transaction, so an
    exception anywhere leaves the game as it was.
    """

    def __init__(self, interaction: discord.Interaction, *, defer: bool = True, context: str = ""):
        self.interaction = interaction
        self.defer = defer
        self.context = context

    async def __aenter__(self) -> Guard:
        if self.defer and not self.interaction.response.is_done():
            # Always ephemeral: the first follow-up inherits the deferral's visibility, so a
            # public deferral would make a refusal public. Public results go to the channel.
            await self.interaction.response.defer(ephemeral=True, thinking=True)
        return self

    async def __aexit__(self, kind, error, traceback) -> bool:
        if error is None or not isinstance(error, Exception):
            return False
        lang = locale_of(self.interaction)
        message = player_message(error, lang)
        if message is not None:
            refund_cooldown(self.interaction)
        if message is None:
            interaction = self.interaction
            command = getattr(interaction.command, "qualified_name", None) or (
                interaction.data or {}
            ).get("custom_id")
            log.error(
                "unexpected error in %s (user %s, channel %s, guild %s)%s",
                command,
                interaction.user.id if interaction.user else None,
                interaction.channel_id,
                interaction.guild_id,
                f" [{self.context}]" if self.context else "",
                exc_info=(kind, error, traceback),
            )
            message = t(lang, "oops")
        try:
            await send(self.interaction, clip(message), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not deliver an error message", exc_info=True)
        return True


def player_message(error: Exception, lang: str) -> str | None:
    """The text for an error the player caused, or None for a bug."""
    if isinstance(error, Refusal):
        return t(lang, error.key, **error.params)
    if isinstance(error, discord.Forbidden):
        # Not the player's fault, but theirs to fix with the server's admins: say what is missing.
        log.warning("Discord refused an action for lack of permissions: %s", error.text)
        return t(lang, "missing_permissions", why=error.text or str(error))
    if isinstance(error, CommitUncertain):
        log.error("storage failure: %s", error)
        return t(lang, "storage_uncertain")
    if isinstance(error, StorageError):
        # The operator's one line (file, problem, advice) goes to the log, no traceback; the
        # player learns nothing was changed, without the server's paths.
        log.error("storage failure: %s", error)
        return t(lang, "storage_failed")
    if isinstance(error, Overloaded):
        return t(lang, "busy_load")
    if isinstance(error, GameBusy):
        if error.overall:
            return t(lang, "busy_overall")
        return t(lang, "busy_game", id=error.game_id)
    if isinstance(error, StaleVersion):
        return t(lang, "stale", expected=error.expected, current=error.current)
    if isinstance(error, GameNotActive):
        return t(lang, "not_active", why=str(error))
    if isinstance(error, GameNotFound):
        return t(lang, "no_game_id", why=str(error))
    if isinstance(error, NotSeated):
        return t(lang, "not_seated_side", why=str(error))
    if isinstance(error, RuleError):
        return t(lang, "illegal", why=rule_text(error, lang))
    if isinstance(error, (ServiceError, UmpireError)):
        return t(lang, "refused", why=str(error))
    return None


# ----- events and labels -----------------------------------------------------------------------


def _describes_events(ruleset: Ruleset) -> bool:
    return type(ruleset).describe_event is not Ruleset.describe_event


def event_lines(
    ruleset: Ruleset,
    state: dict,
    events: Iterable[dict],
    side: str | None = None,
    lang: str = "en",
) -> list[str]:
    """Human lines for events as ``side`` may see them (None: the public), in ``lang`` where
    the game narrates in it.

    Every die is shown. Events private to another side are skipped. A ruleset that does not
    describe events at all still gets a plain rendering so nothing happens silently; one that
    does and returns None for an event means "leave it out".
    """
    lines = []
    own_words = _describes_events(ruleset)
    for event in events:
        owner = event.get("private")
        if owner is not None and owner != side:
            continue
        prefix = "🔒 " if owner is not None else ""
        if event.get("type") == "roll":
            sides = event.get("sides", 6)
            die = "" if sides == 6 else f" (d{sides})"
            try:
                purpose = ruleset.roll_purpose(state, event, lang)
            except Exception:  # a presentation bug must not lose the die
                log.exception("roll_purpose failed for %s", event)
                purpose = str(event.get("purpose", "die"))
            lines.append(f"{prefix}🎲 {purpose}: **{event.get('value')}**{die}")
            continue
        text = None
        try:
            text = ruleset.narrate(state, event, lang)
        except Exception:  # a presentation bug must not lose the post
            log.exception("describe_event failed for %s", event)
        if text is None and event.get("type") in SERVICE_ACTIONS:
            # a resignation or a loss on time: the service's event, told in the reader's words
            text = describe_event(ruleset, state, event, lang)
        if text is None and not own_words:
            details = ", ".join(
                f"{k} {v}"
                for k, v in event.items()
                if k not in ("type", "private") and not isinstance(v, (dict, list))
            )
            text = f"{event.get('type')}: {details}" if details else str(event.get("type"))
        if text:
            lines.append(prefix + text)
    return lines


def describe_action(ruleset: Ruleset, state: dict, action: dict, lang: str = "en") -> str:
    try:
        if lang != "en":
            return ruleset.action_label(state, action, lang)
        return ruleset.describe_action(state, action)
    except Exception:
        log.exception("describe_action failed for %s", action)
        from engine.core.commands import format_command

        return format_command(action)


def decision_label(ruleset: Ruleset, state: dict, action: dict, lang: str) -> str:
    """A decision's choice as the button shows it: the game's own sentence, else the
    command's description in the reader's language with the options' labels, never command
    syntax ("Retreat a unit: Spanish Cavalry 1 at 0507, 0608")."""
    try:
        sentence = ruleset.describe_choice(state, action, lang)
    except Exception:
        log.exception("describe_choice failed for %s", action)
        sentence = None
    if sentence:
        return sentence
    from .i18n import DE_TEXT

    command = next((c for c in ruleset.commands if c.name == action.get("type")), None)
    what = str(action.get("type"))
    if command is not None:
        what = command.description_i18n.get(lang) or (
            DE_TEXT.get(command.description, command.description)
            if lang == "de"
            else command.description
        )
    values = [
        describe_value(ruleset, state, key, value, lang)
        for key, value in action.items()
        if key not in ("type", "side")
    ]
    return f"{what}: {', '.join(values)}" if values else what


def describe_value(ruleset: Ruleset, state: dict, key: str, value: str, lang: str = "en") -> str:
    try:
        if lang != "en":
            return ruleset.label(state, key, value, lang)
        return ruleset.describe(state, key, value)
    except Exception:
        log.exception("describe failed for %s=%s", key, value)
        return value


def side_title(ruleset: Ruleset, side: str | None, lang: str = "en") -> str:
    return ruleset.side_title(side, lang)


def secrets_of(public: dict, mine: dict) -> dict:
    """What a side's view shows that the public view does not: its hidden information,
    found generically by comparing the two views key by key."""
    return {key: value for key, value in mine.items() if public.get(key) != value}


def format_secrets(
    secrets: dict,
    limit: int = 900,
    *,
    ruleset: Ruleset | None = None,
    view: dict | None = None,
    side: str | None = None,
) -> str:
    """A side's secrets for its owner: per-side entries narrowed to that side (the others'
    are empty in its view anyway), ids named the way the game names them ("Barrage (ac12)")."""
    lines = []
    for key, value in secrets.items():
        if (
            ruleset is not None
            and side is not None
            and isinstance(value, dict)
            and side in value
            and set(value) <= set(ruleset.sides)
        ):
            value = value[side]
        if isinstance(value, str):
            shown = _secret_label(ruleset, view, key, value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            shown = ", ".join(_secret_label(ruleset, view, key, v) for v in value) or "—"
        else:
            shown = json.dumps(value, ensure_ascii=False)
        lines.append(f"**{key}**: {clip(shown, 300)}")
    return clip("\n".join(lines), limit)


def _secret_label(ruleset: Ruleset | None, view: dict | None, key: str, value: str) -> str:
    """The ruleset's own name for a secret id; the key it is kept under first, then the usual
    kinds of secret. Quiet on failure: a game that cannot describe it just shows the id."""
    if ruleset is None or view is None:
        return value
    for kind in (key, "card", "unit"):
        try:
            label = ruleset.describe(view, kind, value)
        except Exception:  # noqa: S112 - quiet by design: the id is shown instead
            continue
        if isinstance(label, str) and label and label != value:
            return label
    return value


@dataclass
class GameHere:
    info: Any
    ruleset: Ruleset


def mention_list(user_ids: Iterable[Any]) -> str:
    return " ".join(f"<@{uid}>" for uid in user_ids)


def png_file(data: bytes, name: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def ruleset_of(info) -> Ruleset:
    return get_ruleset(info.ruleset)


# ----- what changed in the game's flow -----------------------------------------------------------

TURN_FIELDS = ("Turn", "Round")


def headline(ruleset: Ruleset, state: dict, lang: str) -> tuple[str, str]:
    """The game's own word for its turn counter ("Turn", "Round") and its name of the current
    phase, both as its turn post shows them to a reader of ``lang``."""
    try:
        fields = ruleset.header(state)
    except Exception:
        log.exception("header failed while announcing a change")
        fields = {}
    word = next((key for key in TURN_FIELDS if key in fields), "Turn")
    # SIEGE calls its phases steps ("Step: 2 movement"); its phase id ("move") is no name.
    key = next((key for key in ("Phase", "Step") if fields.get(key)), None)
    if key is None:
        return ruleset.term(word, lang), ruleset.term(str(state.get("phase")), lang)
    # A game may word a header value as a whole ("2 Bewegung"), which no single term knows.
    try:
        local = ruleset.localised_header(state, lang) if lang != "en" else fields
    except Exception:
        log.exception("localised header failed while announcing a change")
        local = {}
    # The localised header keeps the header's order, so the phase is found by its place.
    values = list(local.values()) if len(local) == len(fields) else []
    phase = values[list(fields).index(key)] if values else ruleset.term(str(fields[key]), lang)
    return ruleset.term(word, lang), str(phase)


def result_reason(ruleset: Ruleset, state: dict, result: dict, lang: str) -> str:
    """Why the game ended, in ``lang``: the service's own endings (a side resigned or ran out
    of time, worded in English by the replay) and the game's own (its ``result_reason``)."""
    reason = str(result.get("reason") or "")
    if lang == "en":
        return reason
    for side in ruleset.sides:
        title = ruleset.side_titles.get(side, side)
        for key, english in (
            ("ended_by_resign", f"{title} resigned"),
            ("ended_by_time", f"{title} ran out of time"),
        ):
            if reason == english:
                return t(lang, key, side=ruleset.side_title(side, lang))
    try:
        return ruleset.result_reason({**state, "result": result}, lang)
    except Exception:  # the engine's English still says why
        log.exception("result_reason failed")
        return reason


def answer_commands(legal: list[dict]) -> str:
    """The commands that answer a decision, typeable: "/retreat unit:… to:… or /pass"."""
    shapes: dict[str, list[str]] = {}
    for action in legal:
        keys = shapes.setdefault(str(action.get("type")), [])
        for key in action:
            if key not in ("type", "side") and key not in keys:
                keys.append(key)
    return " | ".join(
        " ".join([f"/{kind}", *(f"{key}:…" for key in keys)]) for kind, keys in shapes.items()
    )


def flow_line(
    ruleset: Ruleset,
    before: dict,
    after: dict,
    events: list[dict],
    action: dict,
    lang: str,
    owed: dict[str, list[dict]] | None = None,
) -> str | None:
    """One line when the round, the phase or the side to act changed, saying why: the dice
    that decided it (initiative), a decision owed (with the commands that answer it), a phase
    ended by a player, or what the last action used up. None when nothing of that changed."""
    if not flow_changed(before, after):
        return None
    turn_changed = before.get("turn") != after.get("turn")
    phase_changed = before.get("phase") != after.get("phase")
    awaited_after = list(after.get("awaiting") or [after.get("active")])
    parts = []
    word, phase = headline(ruleset, after, lang) if turn_changed or phase_changed else ("", "")
    if turn_changed:
        parts.append(t(lang, "flow_turn", word=word, turn=after.get("turn")))
    if phase_changed:
        parts.append(t(lang, "flow_phase", phase=phase))
    sides = ", ".join(ruleset.side_title(s, lang) for s in awaited_after if s) or "—"
    parts.append(t(lang, "flow_to_act", sides=sides))
    why = flow_reason(ruleset, before, after, events, action, lang, owed)
    return "➡️ " + " · ".join(parts) + f" ({why})"


def flow_changed(before: dict, after: dict) -> bool:
    """Whether the round, the phase or the side to act changed in a game that goes on."""
    awaited_before = list(before.get("awaiting") or [before.get("active")])
    awaited_after = list(after.get("awaiting") or [after.get("active")])
    return not after.get("result") and (
        before.get("turn") != after.get("turn")
        or before.get("phase") != after.get("phase")
        or awaited_before != awaited_after
    )


# Rolls that decide who acts next (Rivet Wars' initiative, Pocket Tactics' roll-offs); other
# dice of the action that ended a turn (a hazard test, a re-roll) decided nothing about that.
DECIDING_ROLLS = re.compile(r"initiative|roll-off", re.I)


def _purpose(ruleset: Ruleset, state: dict, event: dict, lang: str) -> str:
    """A roll's purpose as the game names it to a reader of ``lang`` ("Initiative Alliierte")."""
    try:
        return ruleset.roll_purpose(state, event, lang)
    except Exception:  # the game's own words, untranslated, are still the right ones
        return str(event.get("purpose"))


def flow_reason(
    ruleset: Ruleset,
    before: dict,
    after: dict,
    events: list[dict],
    action: dict,
    lang: str,
    owed: dict[str, list[dict]] | None = None,
) -> str:
    """Why the game moved on (see :func:`flow_line`), for the Discord post and the table."""
    dice = [e for e in events if e.get("type") == "roll"]
    pending = after.get("pending") if isinstance(after.get("pending"), dict) else None
    if pending and pending != before.get("pending") and owed:
        side = pending.get("side")
        legal = owed.get(side) or []
        why = t(
            lang,
            "flow_owed",
            side=ruleset.side_title(side, lang),
            what=ruleset.term(str(pending.get("kind")), lang),
            commands=answer_commands(legal) or "—",
        )
    elif deciding := [e for e in dice if DECIDING_ROLLS.search(str(e.get("purpose")))]:
        dice = deciding
        why = t(
            lang,
            "flow_dice",
            dice=", ".join(
                f"{_purpose(ruleset, after, e, lang)} {e.get('value')}" for e in dice[-4:]
            ),
        )
    elif before.get("pending") and not pending:
        why = t(lang, "flow_decided", side=ruleset.side_title(action.get("side"), lang))
    elif action.get("type") == "end-phase":
        why = t(lang, "flow_ended", side=ruleset.side_title(action.get("side"), lang))
    elif skipped := [e for e in events if e.get("type") == "phase_skipped"]:
        # The game left a phase by itself (Tenochtitlan: the card's moves are used up): the
        # first phase left is the one the action finished.
        left = skipped[0]
        _, phase = headline(ruleset, {**before, "phase": left.get("phase")}, lang)
        why = t(
            lang,
            "flow_skipped",
            side=ruleset.side_title(left.get("side"), lang),
            phase=phase,
        )
    else:
        why = t(lang, "flow_after", action=f"/{action.get('type')}")
    return why
