"""The turn post's buttons. Their custom_id carries the game id and the version the board
showed (``umpire:end:12:34``), so they keep working after a restart (registered as dynamic
items in ``setup_hook``) and a click on an old board is refused instead of applied to a game
that has moved on (the service checks ``expected_version``)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import discord

from engine.core.state import canonical_json
from service.errors import StaleVersion

from .common import (
    GameHere,
    Guard,
    Refusal,
    clip,
    mention_list,
    player_message,
    ruleset_of,
    send,
    side_title,
)
from .i18n import locale_of, t

KINDS = ("end", "undo", "opts")

# A side is asked for a *decision* (buttons or a menu on the post, instead of commands) when
# it has only a few legal actions, or when every one of them is of a choosing kind: the combat
# choices of Pocket Tactics, a retreat or advance after combat, passing.
DECISION_KINDS = frozenset(
    {"pass", "bonus", "reroll", "retreat", "advance", "choose", "choice", "done"}
)
MAX_DECISION_BUTTONS = 5  # one action row
MAX_DECISION_MENU = 25  # Discord's limit of options in a select menu
BUTTON_LABEL = 80  # Discord's limit of a button label
MENU_LABEL = 100  # ... and of a select option's label
MAX_DECISION_ROWS = 4  # row 0 holds the board buttons; Discord allows five rows


def action_key(action: dict) -> str:
    """A short, stable name for one action (side included), for custom ids: the game and
    version in the custom id say which position it belongs to, this says which action."""
    return hashlib.sha256(canonical_json(action).encode()).hexdigest()[:16]


@dataclass
class Decision:
    """The legal actions of one awaited side, labelled for a public post."""

    side: str
    title: str
    actions: list[tuple[dict, str]]  # (action, label)


def is_decision(actions: list[dict]) -> bool:
    if not actions or len(actions) > MAX_DECISION_MENU:
        return False
    return len(actions) <= MAX_DECISION_BUTTONS or all(
        a.get("type") in DECISION_KINDS for a in actions
    )


def decision_items(
    game_id, version: int, decisions: list[Decision], lang: str
) -> list[discord.ui.Item]:
    items: list[discord.ui.Item] = []
    for row, decision in enumerate(decisions[:MAX_DECISION_ROWS], start=1):
        unique = {action_key(action): (action, label) for action, label in decision.actions}
        actions = list(unique.values())  # Discord refuses two items with one custom id
        if len(actions) <= MAX_DECISION_BUTTONS:
            for action, label in actions:
                items.append(
                    DecisionButton(
                        game_id, version, action_key(action), clip(label, BUTTON_LABEL), row=row
                    )
                )
        else:
            options = [
                discord.SelectOption(label=clip(label, MENU_LABEL), value=action_key(action))
                for action, label in actions
            ]
            items.append(
                DecisionMenu(
                    game_id,
                    version,
                    row,
                    options,
                    t(lang, "decision_placeholder", side=decision.title),
                )
            )
    return items


def board_view(game_id, version: int, lang: str, decisions: list[Decision] = ()) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for kind in KINDS:
        view.add_item(BoardButton(kind, game_id, version, lang))
    for item in decision_items(game_id, version, list(decisions), lang):
        view.add_item(item)
    return view


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"umpire:(?P<kind>end|undo|opts):(?P<game>\d+):(?P<version>\d+)",
):
    STYLES = {
        "end": discord.ButtonStyle.primary,
        "undo": discord.ButtonStyle.secondary,
        "opts": discord.ButtonStyle.success,
    }

    def __init__(self, kind: str, game_id, version: int, lang: str = "en"):
        super().__init__(
            discord.ui.Button(
                label=t(lang, f"button_{kind}"),
                style=self.STYLES[kind],
                custom_id=f"umpire:{kind}:{game_id}:{version}",
            )
        )
        self.kind, self.game_id, self.version = kind, int(game_id), int(version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(match["kind"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter = interaction.client.presenter
        async with Guard(
            interaction, context=f"button {self.kind} game {self.game_id} v{self.version}"
        ):
            info = await presenter.service.get_game(self.game_id)
            here = GameHere(info, ruleset_of(info))
            if self.kind == "opts":
                await presenter.my_options(interaction, here, stale_version=self.version)
                return
            if info.version != self.version:
                raise Refusal("stale_pointer", link=await presenter.board_link(info))
            if self.kind == "end":
                await presenter.play(
                    interaction, "end-phase", {}, expected_version=self.version, here=here
                )
            else:
                await undo_for_player(interaction, presenter, here, expected_version=self.version)


async def undo_for_player(
    interaction: discord.Interaction, presenter, here, expected_version: int | None = None
) -> None:
    """A player's undo: the service allows it only for their own last action in the same
    phase before any die or hidden information; otherwise they are told to ask a referee.

    ``expected_version`` is the version the player saw (the board's for the button, the
    game's as the command was read for /undo): if anything happened since, nothing is undone,
    so two undo clicks on one board never take back two actions."""
    lang = locale_of(interaction)
    info, ruleset = here.info, here.ruleset
    if expected_version is None:
        expected_version = info.version
    sides = await presenter.service.sides_of(info.id, interaction.user.id)
    if not sides:
        raise Refusal("not_seated")
    last_error = None
    for side in sides:
        try:
            after = await presenter.service.undo(
                info.id,
                actor=f"user:{interaction.user.id}",
                side=side,
                expected_version=expected_version,
            )
        except StaleVersion:
            # Someone acted or undid in the meantime: point at the board, ask no referee.
            current = await presenter.service.get_game(info.id)
            raise Refusal("stale_pointer", link=await presenter.board_link(current)) from None
        except Exception as error:  # try the user's other seats before explaining
            if player_message(error, lang) is None:
                raise
            last_error = error
            continue
        public = await presenter.public_lang(info.guild_id)
        posted = await presenter.after_change(
            presenter.announce(
                after,
                t(
                    public,
                    "undone_by",
                    user=f"<@{interaction.user.id}>",
                    side=ruleset.side_titles.get(side, side),
                ),
            ),
            presenter.refresh_buttons(after, public),
        )
        text = t(lang, "undo_ok")
        await send(
            interaction, text if posted else text + "\n" + t(lang, "post_failed"), ephemeral=True
        )
        return
    public = await presenter.public_lang(info.guild_id)
    await presenter.announce(info, t(public, "undo_requested", user=f"<@{interaction.user.id}>"))
    raise Refusal("undo_refused", why=str(last_error))


class DecisionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"umpire:do:(?P<game>\d+):(?P<version>\d+):(?P<key>[0-9a-f]+)",
):
    """One legal action as a button. Persistent (a dynamic item, so it works after a restart)
    and stale-safe: it applies only at the version it was posted for, and only the action
    whose key it carries, looked up again among the actions legal now."""

    def __init__(self, game_id, version: int, key: str, label: str = "?", row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                row=row,
                custom_id=f"umpire:do:{game_id}:{version}:{key}",
            )
        )
        self.game_id, self.version, self.key = int(game_id), int(version), key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(int(match["game"]), int(match["version"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await decide(interaction, self.game_id, self.version, self.key)


class DecisionMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"umpire:pick:(?P<game>\d+):(?P<version>\d+):(?P<row>\d+)",
):
    """More choices than fit in a row of buttons: a select menu, same rules as the buttons."""

    def __init__(self, game_id, version: int, row: int, options=(), placeholder: str = ""):
        super().__init__(
            discord.ui.Select(
                custom_id=f"umpire:pick:{game_id}:{version}:{row}",
                row=int(row),
                options=list(options) or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder or None,
                min_values=1,
                max_values=1,
            )
        )
        self.game_id, self.version = int(game_id), int(version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ):
        return cls(int(match["game"]), int(match["version"]), int(match["row"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        await decide(interaction, self.game_id, self.version, str(values[0]) if values else "")


async def decide(interaction: discord.Interaction, game_id: int, version: int, key: str) -> None:
    presenter = interaction.client.presenter
    async with Guard(interaction, context=f"decision {key} game {game_id} v{version}"):
        service = presenter.service
        info = await service.get_game(game_id)
        here = GameHere(info, ruleset_of(info))
        if info.version != version:
            raise Refusal("stale_pointer", link=await presenter.board_link(info))
        if info.status != "active":
            raise Refusal("not_running", status=info.status)
        awaited = here.ruleset.awaiting(info.state)
        action = None
        for side in awaited:
            for candidate in await service.legal_actions(info.id, side):
                if action_key(candidate) == key:
                    action = candidate
                    break
            if action is not None:
                break
        if action is None:  # the same version always has the same legal actions
            raise Refusal("stale_pointer", link=await presenter.board_link(info))
        mine = await service.sides_of(info.id, interaction.user.id)
        if not mine:
            raise Refusal("not_seated")
        if action["side"] not in mine:
            seats = await service.seats(info.id)
            raise Refusal(
                "not_your_decision",
                side=side_title(here.ruleset, action["side"], locale_of(interaction)),
                people=mention_list(seats.get(action["side"], [])) or "—",
            )
        options = {k: v for k, v in action.items() if k not in ("type", "side")}
        await presenter.play(
            interaction,
            action["type"],
            options,
            expected_version=version,
            here=here,
            side=action["side"],
        )


def consent_view(game_id, version: int, requester_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConsentButton(game_id, version, requester_id, lang))
    return view


class ConsentButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"umpire:agree:(?P<game>\d+):(?P<version>\d+):(?P<referee>\d+)",
):
    """A player of the other side agrees that a referee who also plays takes back the last
    action (it rolled dice). Tied to the version the request was made at: once anything
    happens in the game, the request is void."""

    def __init__(self, game_id, version: int, referee_id: int, lang: str = "en"):
        super().__init__(
            discord.ui.Button(
                label=t(lang, "undo_consent_button"),
                style=discord.ButtonStyle.danger,
                custom_id=f"umpire:agree:{game_id}:{version}:{referee_id}",
            )
        )
        self.game_id, self.version, self.referee_id = int(game_id), int(version), int(referee_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(int(match["game"]), int(match["version"]), int(match["referee"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter = interaction.client.presenter
        async with Guard(
            interaction,
            context=f"agree to undo game {self.game_id} v{self.version} referee {self.referee_id}",
        ):
            service = presenter.service
            info = await service.get_game(self.game_id)
            ruleset = ruleset_of(info)
            if info.version != self.version:
                raise Refusal("stale_pointer", link=await presenter.board_link(info))
            referee_sides = await service.sides_of(info.id, self.referee_id)
            others = [s for s in ruleset.sides if s not in referee_sides]
            mine = await service.sides_of(info.id, interaction.user.id)
            if interaction.user.id == self.referee_id or not any(s in others for s in mine):
                raise Refusal(
                    "undo_consent_not_yours",
                    others=", ".join(side_title(ruleset, s, locale_of(interaction)) for s in others)
                    or "—",
                )
            try:
                after = await service.undo(
                    info.id,
                    actor=f"referee:{self.referee_id}",
                    referee=True,
                    expected_version=self.version,
                    agreed_by=interaction.user.id,
                )
            except StaleVersion:
                current = await service.get_game(info.id)
                raise Refusal("stale_pointer", link=await presenter.board_link(current)) from None
            public = await presenter.public_lang(info.guild_id)
            posted = await presenter.after_change(
                presenter.announce(
                    after,
                    t(
                        public,
                        "undo_agreed",
                        referee=f"<@{self.referee_id}>",
                        user=f"<@{interaction.user.id}>",
                    ),
                ),
                presenter.post_board(after),
            )
            await send(interaction, t(locale_of(interaction), "ok" if posted else "ok_post_failed"))
