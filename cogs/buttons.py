"""The turn post's buttons. Their custom_id carries the game id and the version the board
showed (``umpire:end:12:34``), so they keep working after a restart (registered as dynamic
items in ``setup_hook``) and a click on an old board is refused instead of applied to a game
that has moved on (the service checks ``expected_version``)."""
from __future__ import annotations

import re

import discord

from .common import GameHere, Guard, Refusal, player_message, ruleset_of, send
from .i18n import locale_of, t

KINDS = ("end", "undo", "opts")


def board_view(game_id, version: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for kind in KINDS:
        view.add_item(BoardButton(kind, game_id, version, lang))
    return view


class BoardButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"umpire:(?P<kind>end|undo|opts):(?P<game>\d+):(?P<version>\d+)"):
    STYLES = {"end": discord.ButtonStyle.primary, "undo": discord.ButtonStyle.secondary,
              "opts": discord.ButtonStyle.success}

    def __init__(self, kind: str, game_id, version: int, lang: str = "en"):
        super().__init__(discord.ui.Button(
            label=t(lang, f"button_{kind}"), style=self.STYLES[kind],
            custom_id=f"umpire:{kind}:{game_id}:{version}"))
        self.kind, self.game_id, self.version = kind, int(game_id), int(version)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]):
        return cls(match["kind"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter = interaction.client.presenter
        async with Guard(interaction, context=f"button {self.kind} game {self.game_id} "
                                              f"v{self.version}"):
            info = await presenter.service.get_game(self.game_id)
            here = GameHere(info, ruleset_of(info))
            if self.kind == "opts":
                await presenter.my_options(interaction, here, stale_version=self.version)
                return
            if info.version != self.version:
                raise Refusal("stale_pointer", link=await presenter.board_link(info))
            if self.kind == "end":
                await presenter.play(interaction, "end-phase", {}, expected_version=self.version,
                                     here=here)
            else:
                await undo_for_player(interaction, presenter, here)


async def undo_for_player(interaction: discord.Interaction, presenter, here) -> None:
    """A player's undo: the service allows it only for their own last action in the same
    phase before any die or hidden information; otherwise they are told to ask a referee."""
    lang = locale_of(interaction)
    info, ruleset = here.info, here.ruleset
    sides = await presenter.service.sides_of(info.id, interaction.user.id)
    if not sides:
        raise Refusal("not_seated")
    last_error = None
    for side in sides:
        try:
            after = await presenter.service.undo(info.id, actor=f"user:{interaction.user.id}",
                                                 side=side)
        except Exception as error:  # try the user's other seats before explaining
            if player_message(error, lang) is None:
                raise
            last_error = error
            continue
        public = await presenter.public_lang(info.guild_id)
        posted = await presenter.after_change(
            presenter.announce(after, t(public, "undone_by", user=f"<@{interaction.user.id}>",
                                        side=ruleset.side_titles.get(side, side))),
            presenter.refresh_buttons(after, public))
        text = t(lang, "undo_ok")
        await send(interaction, text if posted else text + "\n" + t(lang, "post_failed"),
                   ephemeral=True)
        return
    public = await presenter.public_lang(info.guild_id)
    await presenter.announce(info, t(public, "undo_requested", user=f"<@{interaction.user.id}>"))
    raise Refusal("undo_refused", why=str(last_error))
