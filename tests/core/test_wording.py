"""The wording pass (issue 15): possessives of side names ending in s, articles before vowels,
no square named twice, aqueduct hexes named for the aqueduct."""

from __future__ import annotations

import pytest

from cogs.i18n import t
from engine.core.errors import RuleError
from engine.core.names import possessive, with_article
from engine.registry import get_ruleset


def test_possessives_and_articles():
    assert possessive("Allies") == "Allies'" and possessive("Aztec") == "Aztec's"
    assert with_article("objective") == "an objective" and with_article("bunker") == "a bunker"
    assert t("en", "timeout_referee", side="Allies").startswith("⌛ Allies' clock ran out.")
    assert "Defenders'" in t("en", "undone_by", user="x", side="Defenders")


def test_not_your_turn_for_a_side_ending_in_s():
    rivet = get_ruleset("rivet-wars")
    assert "It is not Allies' turn" in str(rivet.not_your_turn("allies", ["bismark"]))


def test_rivet_wars_moves_name_the_square_once_and_infantry_only_terrain_reads_well():
    from tests.rivetwars.util import RS, make, unit

    line = RS.describe_event({}, {"type": "moved", "unit": "r", "segment": "A9", "to": "A9"})
    assert line == "r moves to A9."
    state = make(
        phase="move", units=[unit("wolverine", "C5", id="w")], terrain={"objective": ["C7"]}
    )
    with pytest.raises(RuleError, match="only infantry may enter an objective"):
        RS.apply(state, {"type": "move", "side": "allies", "unit": "w", "to": "C7"}, None)


def test_aqueduct_hexes_are_named_for_the_aqueduct():
    from engine.tenochtitlan.data import packaged_map
    from engine.tenochtitlan.present import place_name

    board = packaged_map("standard")
    names = {place_name(board, i) for i in board.aqueduct}
    assert "Aqueduct" in names and "Clear" not in names
