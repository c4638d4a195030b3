"""What ``/info`` adds for Tactical Table War: a unit's numbers as the rules use them now
(training, forges and a manned building included) and a hex's landscape and what stands on it."""

from __future__ import annotations

from engine.core.info import word

from .data import Catalogue
from .units import stats

WORDS = {
    "en": {
        "advanced": "advanced training",
        "simple": "simple training",
        "untrained": "untrained",
        "weakened": "Weakened by the dice {dice}: -{total} on its defence until its side's "
        "next preparation phase.",
        "training": "In training to become {kind}.",
        "building": "Building: {title} (withstands {withstands} attacks, {damage} taken)",
        "castle": "Castle of {side} ({damage} attacks taken).",
        "outpost": "Outpost of {side}.",
        "advanced_bonus": "advanced training: {bonus}",
        "buildings": "Buildings",
        "withstands": "withstands {n} attacks",
    },
    "de": {
        "advanced": "erweiterte Ausbildung",
        "simple": "einfache Ausbildung",
        "untrained": "unausgebildet",
        "weakened": "Geschwächt durch die Würfel {dice}: -{total} auf ihre Verteidigung bis "
        "zur nächsten Vorbereitungsphase ihrer Seite.",
        "training": "In Ausbildung zu {kind}.",
        "building": "Gebäude: {title} (hält {withstands} Angriffe aus, {damage} erlitten)",
        "castle": "Burg von {side} ({damage} Angriffe erlitten).",
        "outpost": "Außenposten von {side}.",
        "advanced_bonus": "erweiterte Ausbildung: {bonus}",
        "buildings": "Gebäude",
        "withstands": "hält {n} Angriffe aus",
    },
}


def _say(lang: str, key: str, **params) -> str:
    return (WORDS.get(lang) or WORDS["en"])[key].format(**params)


def unit_facts(ruleset, cat: Catalogue, state: dict, uid: str, lang: str) -> list[str]:
    unit = state.get("units", {}).get(uid)
    if not unit:
        return []
    spec = cat.types[unit["type"]]
    level = unit.get("level") or "untrained"
    level_word = _say(lang, level) if level in ("advanced", "simple") else _say(lang, "untrained")
    values = stats(cat, state, uid)
    lines = [
        f"{word(lang, 'type')}: {spec['title']} ({level_word})",
        " · ".join(
            f"{word(lang, key)} {values[key]}" for key in ("strength", "speed", "range")
        ),
    ]
    if unit.get("weak"):
        dice = ", ".join(str(d) for d in unit["weak"])
        lines.append(_say(lang, "weakened", dice=dice, total=sum(unit["weak"])))
    if unit.get("training"):
        kind = cat.types.get(unit["training"].get("type"), {}).get("title", "?")
        lines.append(_say(lang, "training", kind=kind))
    return lines


def cell_facts(ruleset, cat: Catalogue, state: dict, cell: str, lang: str) -> list[str]:
    land = state.get("tiles", {}).get(cell)
    if land is None:
        return []
    spec = cat.landscapes[land]
    lines = [f"{word(lang, 'terrain')}: {spec['title']}"]
    if not spec["passable"]:
        lines.append(word(lang, "impassable"))
    if spec["terrain_advantage"]:
        lines.append(f"{word(lang, 'defence_bonus')} +{spec['terrain_advantage']}")
    for side, castle in state.get("castles", {}).items():
        if castle == cell:
            damage = state.get("castle_damage", {}).get(side, 0)
            lines.append(_say(lang, "castle", side=ruleset.side_title(side, lang), damage=damage))
    building = state.get("buildings", {}).get(cell)
    if building:
        kind = building.get("kind")
        spec = cat.kinds.get(kind) or cat.engines.get(kind) or {}
        lines.append(
            _say(
                lang,
                "building",
                title=spec.get("title", kind),
                withstands=spec.get("withstands", "?"),
                damage=building.get("damage", 0),
            )
        )
    outpost = state.get("outposts", {}).get(cell)
    if outpost:
        lines.append(_say(lang, "outpost", side=ruleset.side_title(outpost.get("side"), lang)))
    return lines


def rules_reference(cat: Catalogue, lang: str) -> list[tuple[str, list[str]]]:
    """/rules: unit types with their numbers, landscapes with their effects, buildings."""
    units = []
    for kind, spec in cat.types.items():
        numbers = " · ".join(f"{word(lang, k)} {spec[k]}" for k in ("strength", "speed", "range"))
        line = f"**{spec['title']}** ({spec['short']}): {numbers}"
        bonus = cat.advanced.get(kind)
        if bonus:
            shown = ", ".join(f"{word(lang, k)} +{v}" for k, v in bonus.items())
            line += f"; {_say(lang, 'advanced_bonus', bonus=shown)}"
        units.append(line)
    terrain = []
    for spec in cat.landscapes.values():
        effects = []
        if not spec["passable"]:
            effects.append(word(lang, "impassable").rstrip("."))
        if spec["terrain_advantage"]:
            effects.append(f"{word(lang, 'defence_bonus')} +{spec['terrain_advantage']}")
        terrain.append(f"**{spec['title']}**" + (f": {' · '.join(effects)}" if effects else ""))
    buildings = [
        f"**{spec['title']}**: {_say(lang, 'withstands', n=spec['withstands'])}"
        for spec in (*cat.kinds.values(), *cat.engines.values())
    ]
    return [
        (word(lang, "units"), units),
        (word(lang, "terrain_table"), terrain),
        (_say(lang, "buildings"), buildings),
    ]
