"""A probe for refusals that would reach a German player in English (issue 15).

It plays seeded random games of a ruleset and, at every step, tries the wrong things a player
would plausibly type: a legal command with one option taken from another legal command (another
unit, another cell, another target), a command legal earlier in the game but not now, the other
side's command, a garbled value, a missing option. Each refusal is rendered for a German reader
(``cogs.i18n.rule_text``) and kept when that text still holds an English sentence.

Tests per game call :func:`english_refusals` and assert it finds nothing; the dictionary it
returns (English text -> an action that produced it) is what a developer fixes next.
"""

from __future__ import annotations

import random

import pytest

from cogs.i18n import rule_text
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game
from tests.discord.test_german_replies import english_sentences


def _wrong_actions(state, legal, earlier, rng, ruleset):
    """Plausible mistakes built from what was legal now and earlier."""
    values: dict[str, set[str]] = {}
    for action in legal + earlier:
        for key, value in action.items():
            if key not in ("type", "side") and isinstance(value, str):
                values.setdefault(key, set()).add(value)
    out = []
    for action in rng.sample(legal, min(4, len(legal))):
        for key, value in action.items():
            if key in ("type", "side") or not isinstance(value, str):
                continue
            others = sorted(values.get(key, set()) - {value})
            if others:
                out.append({**action, key: rng.choice(others)})
            out.append({**action, key: value + "x"})
            trimmed = dict(action)
            trimmed.pop(key)
            out.append(trimmed)
        for side in ruleset.sides:
            if side != action.get("side"):
                out.append({**action, "side": side})
    out.extend(rng.sample(earlier, min(6, len(earlier))))
    return [wrong for wrong in out if wrong not in legal]


def english_refusals(
    ruleset, scenario_names=None, seeds=(1, 2, 3), steps: int = 120
) -> dict[str, dict]:
    """English lines a German player would read in refusals, each with one action causing it."""
    found: dict[str, dict] = {}
    for scenario_name in scenario_names or [ruleset.default_scenario]:
        scenario = ruleset.load_scenario(scenario_name)
        for seed in seeds:
            rng = random.Random(seed)
            state, _ = new_game(ruleset, scenario, seed)
            earlier: list[dict] = []
            for step in range(steps):
                if ruleset.result(state):
                    break
                side = ruleset.awaiting(state)[0]
                legal = ruleset.legal_actions(state, side)
                if not legal:
                    break
                for wrong in _wrong_actions(state, legal, earlier, rng, ruleset):
                    try:
                        apply_action(ruleset, state, wrong, seeded(seed, step))
                    except RuleError as error:
                        for line in english_sentences(rule_text(error, "de")):
                            found.setdefault(line, {"scenario": scenario_name, **wrong})
                    except Exception:  # noqa: BLE001 - the laws test reports crashes
                        continue
                action = rng.choice(legal)
                seen = {a.get("type") for a in earlier}
                if action.get("type") not in seen or rng.random() < 0.05:
                    earlier.append(action)
                state, _ = apply_action(ruleset, state, action, seeded(seed, step))
    return found


def refused_in_german(ruleset, state, action) -> str:
    """What a German reader is told when ``action`` is refused in ``state`` (it must be)."""
    with pytest.raises(RuleError) as refused:
        apply_action(ruleset, state, action, seeded(1, 1))
    return rule_text(refused.value, "de")
