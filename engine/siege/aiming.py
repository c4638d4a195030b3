"""The optional rule "aiming" (Richtig zielen): misses that hit a friend, and archers' skills.

Errare humanum est: with the rule on, a shot may go at an enemy standing next to a friend of
the shooter (it "annulliert also die Regel, die besagt, daß Schüsse gegen feindliche Figuren
angrenzend zu eigenen Figuren verboten sind", 1.44 and 2.43); when such a shot misses (no
result on the fire table), a second die on the miss table (``data/siege/miss.json``), modified
like the shot, decides whether a friend beside the target on its level is wounded instead,
chosen by lot among several, never one the shooter's line cannot reach.

Skills (Fähigkeit der Schützen): the scenario gives each archer or crossbowman a number from
−3 to +3 (``skills``), summing to zero per side for bows (long and short together) and for
crossbows; fixed for the game and added to every roll of that shooter, the miss roll included.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from engine.core.dice import Dice
from engine.core.ruleset import OptionalRule

from . import data, days, figures, riders
from .data import need

RULE = OptionalRule(
    "aiming",
    "Aiming",
    "Shots at enemies beside your own figures are allowed, but a miss may wound the friend; "
    "archers' skills from -3 to +3 are added to their rolls.",
)
MAX_SKILL = 3


def on(state: dict) -> bool:
    return bool((state.get("options") or {}).get(RULE.name))


@functools.lru_cache(maxsize=1)
def miss_table() -> dict:
    return days.rows_table(
        "miss.json",
        lambda v: v in (None, "wound"),
        "effect",
        'must be null (nothing happens) or "wound" (a friend beside the target is wounded)',
    )


def bow_group(weapon: str) -> str:
    """Skills sum to zero for long and short bows together, and for crossbows."""
    return "crossbows" if weapon == "crossbow" else "bows"


def normalise_skills(raw: Any, figs: dict, file: str) -> dict[str, int]:
    """Scenario key ``skills``: figure id -> −3..+3 for figures with a bow or crossbow."""
    need(isinstance(raw, dict), file, "skills", "must be an object: figure id -> -3..3")
    sums: dict[tuple[str, str], int] = {}
    out: dict[str, int] = {}
    for fid, value in raw.items():
        entry = f"skills.{fid}"
        need(fid in figs, file, entry, "no such figure in this scenario")
        weapon = data.figure_types()[figs[fid]["type"]]["weapon"]
        need(weapon is not None, file, entry, "only archers and crossbowmen have a skill")
        need(
            isinstance(value, int) and not isinstance(value, bool) and -3 <= value <= MAX_SKILL,
            file,
            entry,
            f"must be a whole number from -{MAX_SKILL} to +{MAX_SKILL}",
        )
        key = (figs[fid]["side"], bow_group(weapon))
        sums[key] = sums.get(key, 0) + value
        out[fid] = value
    for (side, group), total in sorted(sums.items()):
        need(
            total == 0,
            file,
            "skills",
            f"the {side}s' {group} must sum to 0 (they sum to {total:+d}): "
            "'Die Summe der zugeteilten Ziffern muß 0 betragen'",
        )
    return out


def skill(state: dict, fid: str) -> int:
    """What the rule adds to every roll of this shooter (0 with the rule off)."""
    if not on(state):
        return 0
    return int((state.get("skills") or {}).get(fid, 0))


def after_shot(
    state: dict,
    shooter_id: str,
    target_id: str,
    shot: dict,
    dice: Dice,
    events: list[dict],
    level_of: Callable[[dict], int],
    line_open: Callable[[str], bool],
) -> None:
    """A miss against a target beside friends of the shooter on its level: the miss roll."""
    if not on(state) or shot["letter"] != "-":
        return
    shooter, target = state["figures"][shooter_id], state["figures"][target_id]
    board_distance = _distance(state)
    level = level_of(target)
    # A rider takes both cells of his horse (3.3): beside either of them is beside him.
    target_cells = riders.cells_of(state, target)
    friends = [
        fid
        for fid, f in sorted(state["figures"].items())
        if f["side"] == shooter["side"]
        and fid != shooter_id
        and not f["dead"]
        and min(board_distance(c, t) for c in riders.cells_of(state, f) for t in target_cells) == 1
        and level_of(f) == level
    ]
    # "Falls die Schußlinie durch ein Hindernis blockiert wird, kann die Figur natürlich nicht
    # getroffen werden."
    reachable = [fid for fid in friends if line_open(fid)]
    if not reachable:
        return
    table = miss_table()
    bonus = shot["modifier"] + skill(state, shooter_id)
    roll = dice.roll(f"{shooter['name']}'s miss near {target['name']}", events, sides=table["die"])
    modified = min(max(roll + bonus, 1), table["die"])
    row = days.lookup(table, modified)
    hit, outcome = None, None
    if row["effect"] == "wound":
        if len(reachable) > 1:
            lot = dice.roll(
                "lot: which friend is hit", events, sides=len(reachable), among=list(reachable)
            )
            hit = reachable[lot - 1]
        else:
            hit = reachable[0]
        outcome = figures.apply_effect(state["figures"][hit], "wound", state["half"])
    text = (
        f"{shooter['name']} missed beside {', '.join(state['figures'][f]['name'] for f in reachable)}: "
        f"miss roll d10 {roll}{bonus:+d}={roll + bonus} -> {row['title']}"
        + (f"; {state['figures'][hit]['name']} {outcome}" if hit else "")
    )
    events.append(
        {
            "type": "miss_roll",
            "unit": shooter_id,
            "target": target_id,
            "beside": reachable,
            "roll": roll,
            "modified": roll + bonus,
            "hit": hit,
            "outcome": outcome,
            "text": text,
        }
    )


def _distance(state: dict):
    board = data.board(state["map"])
    return board.distance
