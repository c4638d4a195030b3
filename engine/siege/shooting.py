"""Bow and crossbow shots (rulebook 1.3): range band and shooter state give a modifier to the
d10, the modified die and the target's cover give a result letter (data/siege/fire.json), the
letter's meaning (data/siege/results.json) changes the target. Every shot event carries the
whole arithmetic as text so a player can check it at a glance."""

from __future__ import annotations

from engine.core.dice import Dice

from . import data, figures
from .sight import Sight


def modifier(weapon: str, band: str, wounded: bool) -> int:
    return data.fire()["modifiers"][weapon][band]["wounded" if wounded else "healthy"]


def table_letter(cover: str, modified: int) -> str:
    if modified < 1:
        return "-"
    return data.fire()["table"][cover][min(modified, 10) - 1]


def resolve(
    shooter_id: str,
    shooter: dict,
    target_id: str,
    target: dict,
    sight: Sight,
    dice: Dice,
    events: list,
    half: int,
    skill: int = 0,
) -> dict:
    """Roll and apply one shot whose sight line ``sight`` was already found possible.
    ``skill``: the shooter's skill (optional rule "aiming"), added to the die."""
    weapon = figures.weapon(shooter)
    if weapon is None or sight.band is None:
        raise ValueError("a shot needs a missile weapon and a range band")  # callers check both
    mod = modifier(weapon, sight.band, shooter["wounded"])
    roll = dice.roll(f"{shooter['name']} shoots at {target['name']}", events, sides=10)
    modified = roll + mod + skill
    letter = table_letter(sight.cover, modified)
    if letter == "-":
        outcome, meaning = "no effect", "no effect"
    else:
        spec = data.results()[letter]
        effect = (
            spec["effect"] if spec["side"] == "defender" and spec["effect"] != "retreat" else None
        )
        meaning = spec["title"]
        outcome = figures.apply_effect(target, effect, half) if effect else "no effect"
    text = (
        f"{shooter['name']} ({weapon}, {'wounded' if shooter['wounded'] else 'healthy'}) "
        f"{shooter['at']}->{target['at']} {target['name']}: range {sight.distance} {sight.band} "
        f"({mod:+d}), cover {sight.cover}; d10 {roll}{mod:+d}"
        + (f"{skill:+d} skill" if skill else "")
        + f"={modified} -> "
        f"{letter if letter != '-' else 'no result'}: {meaning}; {target['name']} {outcome}"
    )
    event = {
        "type": "shot",
        "unit": shooter_id,
        "target": target_id,
        "from": shooter["at"],
        "to": target["at"],
        "weapon": weapon,
        "range": sight.distance,
        "band": sight.band,
        "modifier": mod,
        **({"skill": skill} if skill else {}),
        "cover": sight.cover,
        "roll": roll,
        "modified": modified,
        "letter": letter,
        "outcome": outcome,
        "text": text,
    }
    events.append(event)
    return event
