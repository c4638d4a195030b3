"""Figures: their current values and the changes of state the tables and falls cause.

A figure is ``{"type", "name", "side", "at", "wounded", "stunned", "dead", "stunned_half"}``.
Healthy and wounded are the two sides of its counter (values from ``data/siege/figures.json``);
stunned is the counter turned over and can happen to a healthy or a wounded figure.

Transitions (our reading; the rulebook's table legend is illegible, see docs/rules/siege.md):
- stun: a figure that is not stunned becomes stunned; a stunned figure stunned again is wounded
  (and stays stunned); a stunned wounded figure stunned again dies.
- wound: a healthy figure is wounded; a wounded one dies.
- kill: dead.
- fall (from the drawbridge 1.8, from a ladder 1.94): stunned; dead if already stunned or
  wounded (1.8 says so for the drawbridge in clear words).
Dead figures stay on the map (they cost movement, 1.61).
"""

from __future__ import annotations

from . import data


def values(fig: dict) -> dict:
    if fig.get("horse"):
        from . import riders  # riders reads figure types through data: no cycle at import

        return riders.mounted_values(fig)
    kind = data.figure_types()[fig["type"]]
    return kind["wounded" if fig["wounded"] else "healthy"]


def weapon(fig: dict) -> str | None:
    return data.figure_types()[fig["type"]]["weapon"]


def living(fig: dict) -> bool:
    return not fig["dead"]


def can_act(fig: dict) -> bool:
    return not fig["dead"] and not fig["stunned"]


def state_word(fig: dict) -> str:
    if fig["dead"]:
        return "dead"
    words = []
    if fig["stunned"]:
        words.append("stunned")
    words.append("wounded" if fig["wounded"] else "healthy")
    return " ".join(words)


def apply_effect(fig: dict, effect: str, half: int) -> str:
    """Change ``fig`` by ``effect`` (stun, wound, kill, fall); returns its new state word."""
    if fig["dead"]:
        return "dead"
    if effect == "kill":
        fig["dead"] = True
    elif effect == "wound":
        if fig["wounded"]:
            fig["dead"] = True
        else:
            fig["wounded"] = True
    elif effect == "stun":
        if not fig["stunned"]:
            fig["stunned"] = True
            fig["stunned_half"] = half
        elif not fig["wounded"]:
            fig["wounded"] = True
            fig["stunned_half"] = half
        else:
            fig["dead"] = True
    elif effect == "fall":
        if fig["stunned"] or fig["wounded"]:
            fig["dead"] = True
        else:
            fig["stunned"] = True
            fig["stunned_half"] = half
    else:  # pragma: no cover - data is validated
        raise ValueError(effect)
    if fig["dead"]:
        fig["stunned"] = False
    return state_word(fig)
