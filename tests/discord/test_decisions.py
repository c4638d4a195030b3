"""Decisions as buttons (issue 4: the bonus and re-roll choices are made in Discord with
buttons, in turn): when the side the game waits for has only a few legal actions, or only
choosing ones, the post asking for them carries one button per action (a select menu for up
to 25), for every ruleset. Only a player seated on that side may click; an old post's choice
is refused; the buttons survive a restart."""

from __future__ import annotations

import json

import discord
import pytest

from engine import registry
from engine.core.state import clone
from tests.fixtures.skirmish import Skirmish

from .conftest import message_text, reply_text


def combat_scenario(bonuses: dict, rerolls: dict) -> dict:
    """Pocket Tactics: the north spearman has attacked the south slinger; the dice are on the
    table and the bonus phase begins (the rulebook's worked example, with bonuses to spend)."""
    centre = [(c, r) for c in range(5, 12) for r in range(5, 12)]
    tiles = {f"{c:02d}{r:02d}": {"terrain": "grass"} for c, r in centre}
    tiles["0805"] = {"terrain": "grass", "feature": "village"}
    tiles["0811"] = {"terrain": "grass", "feature": "village"}
    return {
        "title": "Combat choices",
        "factions": {"north": "clans", "south": "horde"},
        "order": ["north", "south"],
        "map": tiles,
        "homes": {"north": "0805", "south": "0811"},
        "units": {"spearman": {"at": "0808"}, "slinger": {"at": "0809"}},
        "phase": "bonus",
        "active": "north",
        "combat": {
            "attacker": "spearman",
            "defender": "slinger",
            "kind": "melee",
            "dice": {
                "attacker": {"off": [2, 1], "def": [3, 1]},
                "defender": {"off": [3], "def": [4, 2]},
            },
            "bonuses": bonuses,
            "rerolls": rerolls,
        },
    }


def choices_of(message) -> dict[str, str]:
    """label -> custom id of the decision buttons on a post."""
    found = {}
    for row in message.components:
        for item in getattr(row, "children", []):
            if isinstance(item, discord.Button) and (item.custom_id or "").startswith("umpire:do:"):
                found[item.label] = item.custom_id
    return found


def menu_of(message):
    for row in message.components:
        for item in getattr(row, "children", []):
            if isinstance(item, discord.SelectMenu) and item.custom_id.startswith("umpire:pick:"):
                return item
    return None


async def pocket_game(table, tmp_path, bonuses, rerolls):
    document = json.dumps(combat_scenario(bonuses, rerolls)).encode()
    created = await table.alice.slash(
        table.channel, "game new", ruleset="pocket-tactics", scenario_file=("combat.json", document)
    )
    assert "is open in" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="north")
    await table.bob.slash(table.thread, "game join", side="south")
    started = await table.alice.slash(table.thread, "game start")
    assert reply_text(started) == "Done.", reply_text(started)
    return await table.game()


@pytest.mark.parametrize("dice", [[]])
async def test_pocket_tactics_combat_choices_are_buttons_in_turn(table, tmp_path):
    info = await pocket_game(
        table,
        tmp_path,
        # only_kind: each bonus raises only dice of its kind (a card may say so)
        bonuses={
            "attacker": [{"kind": "off", "value": 1, "only_kind": True}],
            "defender": [{"kind": "def", "value": 1, "only_kind": True}],
        },
        rerolls={"attacker": 1, "defender": 1},
    )
    assert info.state["phase"] == "bonus" and info.state["awaiting"] == ["north"]
    board = table.boards()[-1]
    buttons = choices_of(board)
    # Plain sentences, not command syntax (issue 15).
    assert list(buttons) == [
        "+1 on your OFF die showing 2",
        "+1 on your OFF die showing 1",
        "Nothing now (pass)",
    ]
    assert all(f":{info.id}:{info.version}:" in custom_id for custom_id in buttons.values())
    assert "End phase" in [c.label for row in board.components for c in row.children]

    # The choice is North's: Bob (South) and a spectator are refused, privately; nothing moves.
    for outsider, why in ((table.bob, "not yours"), (table.dave, "no seat")):
        refused = await outsider.click(board, label="Nothing now (pass)")
        assert refused.ephemeral and why in reply_text(refused), reply_text(refused)
    assert (await table.game()).version == info.version

    raised = await table.alice.click(board, label="+1 on your OFF die showing 2")
    assert reply_text(raised).startswith("Done"), reply_text(raised)
    after = await table.game()
    assert after.state["combat"]["dice"]["attacker"]["off"] == [3, 1]
    assert after.state["awaiting"] == ["south"]
    # South's turn to choose, on a new post with South's dice.
    south_board = table.boards()[-1]
    assert south_board.id != board.id
    assert list(choices_of(south_board)) == [
        "+1 on your DEF die showing 4",
        "+1 on your DEF die showing 2",
        "Nothing now (pass)",
    ]
    # The old post's buttons are stale: refused with a pointer, never applied.
    stale = await table.alice.click(board, label="Nothing now (pass)")
    assert stale.ephemeral and "out of date" in reply_text(stale)
    assert (await table.game()).version == after.version

    # The buttons survive a restart.
    await table.restart()
    passed = await table.bob.click(south_board, label="Nothing now (pass)")
    assert reply_text(passed).startswith("Done"), reply_text(passed)
    state = (await table.game()).state
    assert state["phase"] == "reroll" and state["awaiting"] == ["north"]
    reroll = table.boards()[-1]
    assert list(choices_of(reroll)) == [
        "Re-roll your OFF die showing 3",
        "Re-roll your OFF die showing 1",
        "Re-roll your DEF die showing 3",
        "Re-roll your DEF die showing 1",
        "Nothing now (pass)",
    ]
    rolled = await table.alice.click(reroll, label="Re-roll your OFF die showing 1")
    assert reply_text(rolled).startswith("Done"), reply_text(rolled)
    assert "🎲" in table.public_text(), "the re-roll's die is shown"
    # South re-rolls or passes, then the combat resolves: the game is back in play.
    for _ in range(4):
        info = await table.game()
        if info.state["phase"] not in ("bonus", "reroll"):
            break
        player = {"north": table.alice, "south": table.bob}[info.state["awaiting"][0]]
        done = await player.click(table.boards()[-1], label="Nothing now (pass)")
        assert reply_text(done).startswith("Done"), reply_text(done)
    info = await table.game()
    assert info.state["phase"] == "play" and info.state["combat"] is None
    assert any(
        m.embeds and m.embeds[0].title == "Result" and "🎲" in message_text(m)
        for m in table.thread.history(viewer=table.dave)
    )


async def test_many_choices_come_as_a_select_menu(table, tmp_path):
    await pocket_game(
        table,
        tmp_path,
        bonuses={
            "attacker": [{"kind": "any", "value": 1}, {"kind": "any", "value": 2}],
            "defender": [],
        },
        rerolls={"attacker": 0, "defender": 0},
    )
    board = table.boards()[-1]
    assert not choices_of(board), "nine choices do not fit in a row of buttons"
    menu = menu_of(board)
    labels = {o.label: o.value for o in menu.options}
    assert len(labels) == 9 and "Nothing now (pass)" in labels
    assert "+2 on your DEF die showing 3" in labels
    refused = await table.bob.select(
        board, [labels["Nothing now (pass)"]], custom_id=menu.custom_id
    )
    assert refused.ephemeral and "not yours" in reply_text(refused)
    chosen = await table.alice.select(
        board, [labels["+2 on your DEF die showing 3"]], custom_id=menu.custom_id
    )
    assert reply_text(chosen).startswith("Done"), reply_text(chosen)
    assert (await table.game()).state["combat"]["dice"]["attacker"]["def"] == [5, 1]


async def test_skirmish_fire_choice_is_a_button_for_the_side_that_fires(table):
    info = await table.started_game(also=[(table.carol, "red")])
    # Red starts in a corner with four moves: few enough to be offered as buttons.
    moves = [a for a in await table.service.legal_actions(info.id, "red") if a["type"] == "move"]
    assert len(moves) == 4 and len(choices_of(table.boards()[-1])) == 4
    placed = await table.alice.slash(table.thread, "ref place", unit="b1", to="0201")
    assert reply_text(placed) == "Done.", reply_text(placed)
    await table.alice.slash(table.thread, "end-phase")
    info = await table.game()
    assert info.state["phase"] == "fire"
    board = table.boards()[-1]
    buttons = choices_of(board)
    legal = [a for a in await table.service.legal_actions(info.id, "red") if a["type"] == "fire"]
    assert len(buttons) == len(legal) >= 1
    label = next(iter(buttons))
    assert label.startswith("Fire at an adjacent enemy: "), label
    refused = await table.bob.click(board, label=label)
    assert refused.ephemeral and "not yours" in reply_text(refused)
    fired = await table.carol.click(board, label=label)  # team play: any red player
    assert reply_text(fired).startswith("Done"), reply_text(fired)
    after = await table.game()
    assert after.version == info.version + 1
    assert any(
        record.action["type"] == "fire" and record.actor == f"user:{table.carol.id}"
        for record in await table.service.history(after.id)
    )


class CardSkirmish(Skirmish):
    """The skirmish with a hidden card in Red's hand that Red may play: two legal actions,
    few enough for buttons, but a button would show everyone the card."""

    name = "skirmish-cards"

    def setup(self, scenario, dice):
        state, events = super().setup(scenario, dice)
        state["secret"]["red"] = "queen-of-swords"
        return state, events

    def legal_actions(self, state, side):
        legal = super().legal_actions(state, side)
        if legal and side in state["secret"] and state["phase"] == "move":
            return [legal[0], {"type": "play", "side": side, "card": state["secret"][side]}]
        return legal

    def apply(self, state, action, dice):
        if action["type"] != "play":
            return super().apply(state, action, dice)
        if action not in self.legal_actions(state, action["side"]):
            self.refuse_unknown(state, action)
        return clone(state), [{"type": "played", "private": action["side"]}]


async def test_no_buttons_that_would_show_hidden_information(table, monkeypatch):
    monkeypatch.setitem(
        registry.RULESETS, "skirmish-cards", "tests.discord.test_decisions:CardSkirmish"
    )
    await table.alice.slash(table.channel, "game new", ruleset="skirmish-cards")
    await table.alice.slash(table.thread, "game join", side="red")
    await table.bob.slash(table.thread, "game join", side="blue")
    await table.alice.slash(table.thread, "game start")
    board = table.boards()[-1]
    assert not choices_of(board) and menu_of(board) is None
    assert "queen-of-swords" not in table.public_text()
    # Red still finds the card among its own options, privately.
    offered = await table.alice.autocomplete(table.thread, "act", "action", "")
    assert any("queen-of-swords" in c["value"] for c in offered)
