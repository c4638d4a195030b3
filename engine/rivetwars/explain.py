"""What ``/info`` and the rules summary say about Rivet Wars' units and terrain, drawn from the
roster (``data/rivet-wars/roster.json``, or a mission's own roster) so they never disagree."""

from __future__ import annotations

from engine.core import squaregrid
from engine.core.info import count, word

from . import data
from .board import seg_label, seg_of_square, squares_of

# What each terrain token does (docs/rules/rivet-wars.md: "Nur Infanterie kann einen Bunker
# betreten ..."); a token acts on the whole segment it lies in.
TOKENS = {
    "en": {
        "bunker": "Bunker: infantry only; counts as walkway; infantry inside get Reinforced "
        "Defence (-1 die against them).",
        "objective": "Strategic objective: infantry only; counts as walkway.",
        "wire": "Barbed wire: infantry may not enter; any other unit entering destroys it.",
        "tanktrap": "Tank traps: infantry only.",
        "minefield": "Minefield: each non-infantry unit entering is attacked with two dice.",
        "walkway": "Walkway (planks): Runner units get their extra movement here.",
        "mud": "Open mud.",
    },
    "de": {
        "bunker": "Bunker: nur Infanterie; gilt als Laufrost; Infanterie darin hat verstärkte "
        "Verteidigung (-1 Würfel gegen sie).",
        "objective": "Strategisches Ziel: nur Infanterie; gilt als Laufrost.",
        "wire": "Stacheldraht: Infanterie darf nicht hinein; jede andere Einheit, die "
        "hineinzieht, zerstört ihn.",
        "tanktrap": "Panzersperre: nur Infanterie.",
        "minefield": "Minenfeld: jede Einheit außer Infanterie, die hineinzieht, wird mit zwei "
        "Würfeln angegriffen.",
        "walkway": "Laufrost: Einheiten mit Läufer bekommen hier ihre zusätzliche Bewegung.",
        "mud": "Offener Schlamm.",
    },
}

WORDS = {
    "en": {
        "class": "Class",
        "cost": "Cost {points}",
        "rivets": " + {rivets}",
        "move": "Movement",
        "armour": "Armour",
        "hp": "Hit points {left}/{hp}",
        "weapon": "{name}: {attacks}, dice against {classes}: {dice}; range ground "
        "{ground}, air {air}",
        "abilities": "Abilities",
        "plugins": "Plug-ins",
        "segment": "Segment",
        "plugin": "Plug-in (goes into a socket of an own unit)",
        "hp_bonus": "+{n} hit points for its host",
    },
    "de": {
        "class": "Klasse",
        "cost": "Kosten {points}",
        "rivets": " + {rivets}",
        "move": "Bewegung",
        "armour": "Panzerung",
        "hp": "Lebenspunkte {left}/{hp}",
        "weapon": "{name}: {attacks}, Würfel gegen {classes}: {dice}; Reichweite "
        "Boden {ground}, Luft {air}",
        "abilities": "Fähigkeiten",
        "plugins": "Aufstecker",
        "segment": "Segment",
        "plugin": "Aufstecker (kommt in einen Sockel einer eigenen Einheit)",
        "hp_bonus": "+{n} Lebenspunkte für ihren Träger",
    },
}
ARMOUR_DE = {
    "infantry": "Infanterie",
    "light": "leicht",
    "medium": "mittel",
    "heavy": "schwer",
    "air": "Luft",
}
CLASS_DE = {
    "infantry": "Infanterie",
    "cavalry": "Kavallerie",
    "vehicle": "Fahrzeug",
    "artillery": "Artillerie",
}


def _say(lang: str, key: str, **params) -> str:
    return (WORDS.get(lang) or WORDS["en"])[key].format(**params)


def type_name(spec: dict, lang: str) -> str:
    return str(spec.get("name_de") or spec["name"]) if lang == "de" else str(spec["name"])


def _armour(index: int, lang: str) -> str:
    name = data.ARMOUR_NAMES[index - 1] if 1 <= index <= len(data.ARMOUR_NAMES) else str(index)
    return ARMOUR_DE.get(name, name) if lang == "de" else name


def type_lines(spec: dict, lang: str) -> list[str]:
    """A unit type's card: class, cost, movement, armour, weapons, abilities."""
    klass = CLASS_DE.get(spec["class"], spec["class"]) if lang == "de" else spec["class"]
    cost = _say(lang, "cost", points=count(lang, spec["cost"], "point"))
    if spec.get("rivets"):
        cost += _say(lang, "rivets", rivets=count(lang, spec["rivets"], "rivet"))
    if spec.get("plugin"):
        # A plug-in rides in a socket of another unit: it has no movement or armour of its own.
        first = f"{_say(lang, 'plugin')} · {cost}"
        if spec.get("hp_bonus"):
            first += " · " + _say(lang, "hp_bonus", n=spec["hp_bonus"])
    else:
        first = (
            f"{_say(lang, 'class')}: {klass} · {cost} · {_say(lang, 'move')} {spec['move']} · "
            f"{_say(lang, 'armour')} {_armour(spec['armour'], lang)}"
        )
    lines = [first]
    classes = "/".join(_armour(i, lang) for i in range(1, len(data.ARMOUR_NAMES) + 1))
    for weapon in spec.get("weapons", []):
        lines.append(
            _say(
                lang,
                "weapon",
                name=weapon.get("id", "?"),
                attacks=count(lang, weapon.get("attacks", 1), "attack"),
                classes=classes,
                dice="/".join(str(d) for d in weapon.get("dice", [])),
                ground=weapon.get("ground", 0),
                air=weapon.get("air", 0),
            )
        )
    abilities = [
        f"{a['name'].replace('_', ' ')}" + (f" {a['x']}" if a.get("x") is not None else "")
        for a in spec.get("abilities", [])
    ]
    if abilities:
        lines.append(f"{_say(lang, 'abilities')}: {', '.join(abilities)}")
    return lines


def unit_facts(ruleset, roster: dict, state: dict, uid: str, lang: str) -> list[str]:
    unit = state.get("units", {}).get(uid)
    if not unit or unit.get("type") not in roster:
        return []
    spec = roster[unit["type"]]
    hp = ruleset.hp(state, uid)
    lines = [f"{word(lang, 'type')}: {type_name(spec, lang)}", *type_lines(spec, lang)]
    lines.append(_say(lang, "hp", left=hp - unit.get("damage", 0), hp=hp))
    if unit.get("plugins"):
        names = ", ".join(type_name(roster[p], lang) for p in unit["plugins"] if p in roster)
        lines.append(f"{_say(lang, 'plugins')}: {names}")
    return lines


def cell_facts(board, state: dict, cell: str, lang: str) -> list[str]:
    try:
        square = squaregrid.parse_label(cell)
    except squaregrid.BadSquare:
        return []
    words = TOKENS.get(lang) or TOKENS["en"]
    segment = seg_of_square(square)
    lines = [f"{_say(lang, 'segment')}: {seg_label(segment)}"]
    lines.append(words["walkway" if square in board.walkways else "mud"])
    # A token acts on the whole segment it lies in (docs/rules/rivet-wars.md).
    terrain = state.get("terrain", {})
    kinds = [k for sq in squares_of(segment) for k in terrain.get(squaregrid.label(sq), [])]
    for kind in dict.fromkeys(kinds):
        if kind in words:
            lines.append(words[kind])
    return lines


def rules_reference(ruleset, roster: dict, lang: str) -> list[tuple[str, list[str]]]:
    """/rules: every unit card of the roster and what each terrain does."""
    units = []
    for spec in roster.values():
        side = ruleset.side_title(spec["side"], lang)
        card = "; ".join(type_lines(spec, lang))
        units.append(f"**{type_name(spec, lang)}** ({spec.get('short', '')}, {side}): {card}")
    words = TOKENS.get(lang) or TOKENS["en"]
    terrain = [words[k] for k in ("walkway", "mud", *data.TERRAIN_KINDS) if k in words]
    return [(word(lang, "units"), units), (word(lang, "terrain_table"), terrain)]
