"""A refusal's "what is legal instead" reaches each reader in their language: the rules word the
hints in every language the game speaks, and the client picks the reader's (issue 15)."""

from __future__ import annotations

import pytest

from cogs.i18n import rule_text
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game
from engine.registry import get_ruleset
from tests.fixtures.skirmish import Skirmish


class GermanSkirmish(Skirmish):
    """The fixture game with German words for its cells, as a game with German labels has."""

    translations = {"de": {}}

    def describe(self, state, key, value):
        return f"{value} (field)" if key == "to" else value

    def label(self, state, key, value, lang="en"):
        if lang == "de" and key == "to":
            return f"{value} (Feld)"
        return self.describe(state, key, value)


def _refusal(game, action):
    state, _ = new_game(game, game.load_scenario("standard"), 7)
    with pytest.raises(RuleError) as caught:
        apply_action(game, state, action, seeded(7, 1))
    return caught.value


def test_a_move_not_legal_now_offers_the_legal_moves_in_the_readers_language():
    error = _refusal(GermanSkirmish(), {"type": "move", "side": "red", "unit": "r1", "to": "0505"})
    assert "/move unit:r1 to:0201 (field)" in str(error)
    german = rule_text(error, "de")
    # the value no legal move takes is named (refuse_value), then the legal moves
    assert german.startswith("/move geht jetzt nicht mit to:0505; möglich: 0201. Erlaubt: ")
    assert "/move unit:r1 to:0201 (Feld)" in german
    assert "(field)" not in german


def test_the_command_named_in_a_german_refusal_stays_the_command_players_type():
    """Pocket Tactics calls its faction step "Fraktionswahl"; the command is still /faction."""
    game = get_ruleset("pocket-tactics")
    state, _ = new_game(game, game.load_scenario(game.default_scenario), 1)
    side = game.awaiting(state)[0]
    action = {"type": "faction", "side": side, "faction": "no-such-faction"}
    with pytest.raises(RuleError) as caught:
        apply_action(game, state, action, seeded(1, 1))
    german = rule_text(caught.value, "de")
    assert german.startswith("/faction geht jetzt nicht mit faction:no-such-faction;"), german


def test_a_long_list_of_hints_is_counted_in_german_as_in_english():
    """Only the hints shown are worded in other languages; the rest are counted all the same."""
    game = GermanSkirmish()
    state, _ = new_game(game, game.load_scenario("standard"), 7)
    many = [{"type": "move", "side": "red", "unit": "r1", "to": f"{n:04d}"} for n in range(20)]
    hints = game.legal_hints(state, many)
    assert len(hints) == 20 and len(hints.localised["de"]) == 12
    german = rule_text(
        RuleError("No.", hints, key="not_legal_now", params={"command": "move"}), "de"
    )
    assert german.endswith("to:0011 (Feld) (+8 weitere)."), german
