"""The refusals the shared engine gives around a game's own rules (a command without its unit,
/auto-setup and /suggested at the wrong moment, a referee's edit of no unit) read in the
player's language, and a missing option is named as missing, never as a unit called 'None'."""

from __future__ import annotations

import pytest

from cogs.i18n import rule_text
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game
from engine.registry import get_ruleset
from tests.discord.test_german_replies import english_sentences

RULES = get_ruleset("rivet-wars")


def refused(ruleset, state, action) -> RuleError:
    with pytest.raises(RuleError) as caught:
        apply_action(ruleset, state, action, seeded(5, 1))
    return caught.value


def first_deployment():
    state, _ = new_game(RULES, RULES.load_scenario("mission-1"), 5)
    return state, state["active"]


@pytest.mark.parametrize(
    "game, scenario",
    [("rivet-wars", "mission-1"), ("tactical-table-war", None), ("pocket-tactics", "skirmish")],
)
def test_a_command_without_its_unit_says_the_option_is_missing(game, scenario):
    ruleset = get_ruleset(game)
    scenario = scenario or ruleset.scenarios()[0].name
    state, _ = new_game(ruleset, ruleset.load_scenario(scenario), 5)
    side = ruleset.awaiting(state)[0]
    kinds = {a["type"] for a in ruleset.legal_actions(state, side) if "unit" in a}
    kind = sorted(kinds)[0]
    error = refused(ruleset, state, {"type": kind, "side": side})
    # (Pocket Tactics words it itself: "/move needs unit: and to:")
    assert str(error).startswith(f"/{kind} needs unit:"), str(error)
    german = rule_text(error, "de")
    assert german.startswith(f"/{kind} braucht unit:") and "None" not in german, german


def test_auto_setup_and_suggested_refusals_read_german():
    state, side = first_deployment()
    error = refused(RULES, state, {"type": "auto-setup", "side": side, "unit": "x"})
    assert rule_text(error, "de") == "/auto-setup hat keine Optionen; angegeben: unit."
    state, _ = apply_action(RULES, state, {"type": "auto-setup", "side": side}, seeded(5, 1))
    while RULES.awaiting(state)[0] != side or state["phase"] == "deploy":
        acting = RULES.awaiting(state)[0]
        state, _ = apply_action(RULES, state, {"type": "end-phase", "side": acting}, seeded(5, 2))
    error = refused(RULES, state, {"type": "auto-setup", "side": side})
    german = rule_text(error, "de")
    title = RULES.side_title(side, "de")
    assert german.startswith(f"Für {title} gibt es jetzt nichts aufzustellen"), german
    assert not english_sentences(german), german


def test_the_core_referee_edit_of_no_unit_reads_german():
    from engine import registry

    registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
    skirmish = registry.get_ruleset("skirmish")
    state, _ = new_game(skirmish, skirmish.load_scenario("standard"), 1)
    error = refused(skirmish, state, {"type": "ref-remove", "side": "referee", "unit": "nobody"})
    assert rule_text(error, "de").startswith("Es gibt keine Einheit 'nobody'.")


def test_suggested_with_nothing_left_to_place_reads_german():
    from engine import registry

    registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
    base = type(registry.get_ruleset("skirmish"))

    class Suggesting(base):  # a scenario whose one suggestion has been placed already
        def suggested_actions(self, state, side):
            return [{"type": "move", "side": side, "unit": "r1", "to": "0606"}]

    rules = Suggesting()
    state, _ = new_game(rules, rules.load_scenario("standard"), 1)
    error = refused(rules, state, {"type": "suggested", "side": "red"})
    assert str(error) == "Red has nothing left to place as the scenario suggests."
    assert rule_text(error, "de") == (
        "Für Red bleibt nichts mehr so aufzustellen, wie das Szenario vorschlägt."
    )


@pytest.mark.parametrize("game", ["rivet-wars", "siege"])
def test_an_option_the_command_does_not_have_is_named_as_unknown(game):
    ruleset = get_ruleset(game)
    state, _ = new_game(ruleset, ruleset.load_scenario(ruleset.scenarios()[0].name), 5)
    side = ruleset.awaiting(state)[0]
    before = dict(state)
    error = refused(ruleset, state, {"type": "end-phase", "side": side, "foo": "bar"})
    assert str(error).startswith("/end-phase has no option foo."), str(error)
    text = rule_text(error, "de")
    assert text.startswith("/end-phase hat keine Option foo."), text
    assert not english_sentences(text)
    assert state == before
