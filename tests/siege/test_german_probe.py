"""No refusal of SIEGE reaches a German player in English (issue 15).

The shared probe (``tests/german_probe.py``) plays seeded random games of every SIEGE scenario
and tries plausible wrong commands at every step. Random play seldom reaches SIEGE's rarer
commands (a ladder pushed off, a pot of oil poured, a ram driven, a panic chosen), so a second
probe here plays the command kinds it has played least first, with the optional rules on, from
every scenario and from positions built for the rarest commands, and checks every refusal it
meets: it has a German template, and its German text (reason and what is legal instead)
carries no English sentence.
"""

from __future__ import annotations

import collections
import random

import pytest

from cogs.i18n import RULE_MESSAGES, rule_text
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game
from tests.discord.test_german_replies import english_sentences
from tests.german_probe import _wrong_actions, english_refusals

from .helpers import RULES, build

SCENARIOS = [s.name for s in RULES.scenarios()]
TEMPLATES = {**RULE_MESSAGES["de"], **RULES.translations["de"]}


def test_the_shared_probe_finds_no_english_refusal_in_any_siege_scenario():
    assert english_refusals(RULES, SCENARIOS, seeds=(1,), steps=30) == {}


def _rare_first(state: dict, seed: int, steps: int) -> list[tuple[str, RuleError]]:
    """Play ``steps`` actions from ``state``, each of the command kind played least so far,
    trying the probe's wrong commands at every step: the refusals met, as (kind, error)."""
    rng = random.Random(seed)
    earlier: list[dict] = []
    played: collections.Counter = collections.Counter()
    met = []
    for step in range(steps):
        if RULES.result(state):
            break
        side = RULES.awaiting(state)[0]
        legal = RULES.legal_actions(state, side)
        if not legal:
            break
        for wrong in _wrong_actions(state, legal, earlier, rng, RULES):
            try:
                apply_action(RULES, state, wrong, seeded(seed, step))
            except RuleError as error:
                met.append((str(wrong.get("type")), error))
        fewest = min(played[a["type"]] for a in legal)
        action = rng.choice([a for a in legal if played[a["type"]] == fewest])
        played[action["type"]] += 1
        if action["type"] not in {a["type"] for a in earlier} or rng.random() < 0.1:
            earlier.append(action)
        state, _ = apply_action(RULES, state, action, seeded(seed, step))
    return met


def _not_german(met: list[tuple[str, RuleError]]) -> dict[str, str]:
    """Refusals a German reader would get (partly) in English: English text -> its command."""
    out = {}
    for kind, error in met:
        german = rule_text(error, "de")
        if error.key not in TEMPLATES or english_sentences(german):
            out[str(error)[:160]] = kind
    return out


@pytest.mark.parametrize("scenario_name", SCENARIOS)
def test_rare_commands_of_every_scenario_are_refused_in_german(scenario_name):
    scenario = dict(RULES.load_scenario(scenario_name))
    scenario["options"] = {**scenario.get("options", {}), "panic": True}
    state, _ = new_game(RULES, scenario, 2)
    met = _rare_first(state, 2, 50)
    assert len({kind for kind, _ in met}) >= 6  # the probe reached beyond shooting and moving
    assert _not_german(met) == {}


# Positions for the commands no packaged scenario reaches quickly (pots of oil and shields are
# in no scenario; ladders are pushed and engines emplaced only late in a game).
BYSTANDERS = {"zb": ("peasant", "besieger", "2201"), "zd": ("peasant", "defender", "2220")}
POSITIONS = {
    "pour": lambda: build(
        {
            **BYSTANDERS,
            "d": ("man-at-arms", "defender", "0704"),
            "b": ("peasant", "besieger", "0703"),
            "w": ("peasant", "besieger", "0804"),
        },
        first="defender",
        phase="melee",
        oil={"pot": {"carrier": "d"}},
    ),
    "lift": lambda: build(
        {
            **BYSTANDERS,
            "d": ("man-at-arms", "besieger", "0219"),
            "e": ("peasant", "besieger", "0419"),
        },
        phase="move",
        shields={"s": {"at": "0219"}},
    ),
    "push": lambda: build(
        {
            "k": ("knight", "besieger", "0703"),
            "p": ("peasant", "defender", "0704"),
            "far": ("peasant", "besieger", "2220"),
        },
        phase="melee",
        active="defender",
        ladders={"l1": {"at": "0703", "faces": "0704"}},
    ),
    "shift": lambda: build(
        {
            "a": ("man-at-arms", "besieger", "0818"),
            "b": ("man-at-arms", "besieger", "0718"),
            "far": ("peasant", "defender", "2201"),
        },
        phase="move",
        ladders={"l": {"at": "0817", "faces": "0816"}},
    ),
    "unharness": lambda: build(
        {"p": ("peasant", "besieger", "0919"), "far": ("peasant", "defender", "2201")},
        phase="move",
        horses={"team": {"side": "besieger", "cells": ["0819", "0719"]}},
        wagons={"w": {"side": "besieger", "cells": ["0619", "0519"], "animal": "team"}},
    ),
    "emplace": lambda: build(
        {
            "t": ("technician", "besieger", "0619"),
            "p": ("peasant", "besieger", "0520"),
            "d": ("man-at-arms", "defender", "0119"),
        },
        engines={"b1": {"kind": "ballista", "side": "besieger", "at": "0519"}},
        prepare={"engines": ["b1"]},
    ),
}


@pytest.mark.parametrize("command", sorted(POSITIONS))
def test_the_rarest_commands_are_refused_in_german(command):
    state = POSITIONS[command]()
    side = RULES.awaiting(state)[0]
    # Every wrong variant of the command itself first, then a few rounds of play from there.
    these = [a for a in RULES.legal_actions(state, side) if a["type"] == command]
    met = []
    for wrong in _wrong_actions(state, these, [], random.Random(3), RULES):
        with pytest.raises(RuleError) as refused:
            apply_action(RULES, state, wrong, seeded(3, 0))
        met.append((command, refused.value))
    assert len(met) >= 3
    met += _rare_first(state, 3, 12)
    assert _not_german(met) == {}


def test_a_riderless_horse_in_the_line_is_named_a_horse_in_german():
    state = build(
        {"a": ("archer", "besieger", "0119"), "d": ("man-at-arms", "defender", "0519")},
        horses={"h": {"side": "defender", "cells": ["0319", "0219"]}},
    )
    with pytest.raises(RuleError) as refused:
        shot = {"type": "shoot", "side": "besieger", "unit": "a", "target": "d"}
        apply_action(RULES, state, shot, seeded(1, 0))
    assert "figure horse h" in str(refused.value)
    assert "die Figur Pferd h (Höhe 2)" in rule_text(refused.value, "de")


def test_los_words_every_reason_in_german_also_a_wall_inside_another_reason():
    state = build(BYSTANDERS)
    english = RULES.los(state, "0107", "0716")
    german = RULES.los(state, "0107", "0716", "de")
    assert "the line runs along the side of 0311/0410 and grazes a wall: 0410: parapet" in english
    assert german.startswith("Kein Schuss von 0107 nach 0716: Entfernung 12, Deckung keine.")
    assert (
        "- die Linie läuft an der Kante 0311/0410 entlang und streift eine Mauer: 0410: "
        "Brustwehr (Höhe 2) verdeckt 0107" in german
    )
    walled = RULES.los(state, "0101", "1216", "de")
    assert "- 1216: hinter einer Mauer ohne Öffnung: volle Deckung, kein Schuss (1.56)" in walled
    assert not english_sentences(german + "\n" + walled)


def test_a_refusals_hints_name_kind_state_and_place_in_the_readers_language():
    state = build(
        {
            "arch": ("archer", "besieger", "0119"),
            "top": ("archer", "besieger", "0619", "wounded", "top"),
            "foe": ("peasant", "defender", "0319"),
        },
        towers={"t": {"side": "besieger", "cells": ["0619", "0719", "0819"], "towards": "0618"}},
    )
    shot = {"type": "shoot", "side": "besieger", "unit": "top", "target": "foe"}
    assert RULES.action_label(state, shot, "en") == (
        "/shoot unit:Top (archer, wounded) at 0619 (on top of the siege tower) "
        "target:Foe (peasant, healthy) at 0319"
    )
    assert RULES.action_label(state, shot, "de") == (
        "/shoot unit:Top (Bogenschütze, verwundet) auf 0619 (oben auf dem Belagerungsturm) "
        "target:Foe (Bauer, unverletzt) auf 0319"
    )
    hints = RULES.legal_hints(state, [shot])
    assert hints == [RULES.action_label(state, shot, "en")]
    assert hints.localised["de"] == [RULES.action_label(state, shot, "de")]
