"""What ``/info`` adds for Tactical Table War: a unit's numbers as the rules use them now
(training, forges and a manned building included) and a hex's landscape and what stands on it."""

from __future__ import annotations

import re

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


def _title(spec: dict, kind: str, lang: str) -> str:
    """A unit type's, landscape's or building's name: the data's title, or the expansion's
    German word for a German reader."""
    if lang == "de" and kind in NAMES_DE:
        return NAMES_DE[kind]
    return str(spec.get("title", kind))


def _say(lang: str, key: str, **params) -> str:
    return (WORDS.get(lang) or WORDS["en"])[key].format(**params)


def unit_facts(ruleset, cat: Catalogue, state: dict, uid: str, lang: str) -> list[str]:
    unit = state.get("units", {}).get(uid)
    if not unit:
        return []
    spec = cat.types[unit["type"]]
    # A recruit is stored at the simple level but has had no training at all.
    level = "untrained" if unit["type"] == "recruit" else unit.get("level", "simple")
    level_word = _say(lang, level)
    values = stats(cat, state, uid)
    lines = [
        f"{word(lang, 'type')}: {_title(spec, unit['type'], lang)} ({level_word})",
        " · ".join(f"{word(lang, key)} {values[key]}" for key in ("strength", "speed", "range")),
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
    lines = [f"{word(lang, 'terrain')}: {_title(spec, land, lang)}"]
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
                title=_title(spec, kind, lang),
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
        line = f"**{_title(spec, kind, lang)}** ({spec['short']}): {numbers}"
        bonus = cat.advanced.get(kind)
        if bonus:
            shown = ", ".join(f"{word(lang, k)} +{v}" for k, v in bonus.items())
            line += f"; {_say(lang, 'advanced_bonus', bonus=shown)}"
        units.append(line)
    terrain = []
    for land, spec in cat.landscapes.items():
        effects = []
        if not spec["passable"]:
            effects.append(word(lang, "impassable").rstrip("."))
        if spec["terrain_advantage"]:
            effects.append(f"{word(lang, 'defence_bonus')} +{spec['terrain_advantage']}")
        title = _title(spec, land, lang)
        terrain.append(f"**{title}**" + (f": {' · '.join(effects)}" if effects else ""))
    buildings = [
        f"**{_title(spec, kind, lang)}**: {_say(lang, 'withstands', n=spec['withstands'])}"
        for kind, spec in (*cat.kinds.items(), *cat.engines.items())
    ]
    return [
        (word(lang, "units"), units),
        (word(lang, "terrain_table"), terrain),
        (_say(lang, "buildings"), buildings),
    ]


# The expansion's German words ("Vorbereitungsphase", "Bauphase", "Schatzwürfel", "Festung",
# "Tribock", "Balliste"); the sides' colours are ours (the text names none).
TRANSLATIONS_DE = {
    "Red": "Rot",
    "Blue": "Blau",
    "Turn": "Runde",
    "Phase": "Phase",
    "Active": "Am Zug",
    "Treasury": "Schatzkammer",
    "Catapult": "Katapult",
    "Preparation": "Vorbereitungsphase",
    "Movement": "Bewegungsphase",
    "Recruitment": "Rekrutierungsphase",
    "Building": "Bauphase",
    "Attack": "Angriffsphase",
    "preparation": "Vorbereitungsphase",
    "movement": "Bewegungsphase",
    "recruitment": "Rekrutierungsphase",
    "building": "Bauphase",
    "attack": "Angriffsphase",
    # refusals (keys of RuleError)
    "tactical-table-war.not_yours": "{unit!r} ist keine deiner Einheiten.",
    "tactical-table-war.works_in": "{unit} arbeitet im Gebäude auf {cell} und kann nicht "
    "angreifen.",
    "tactical-table-war.building_no_attack": "{unit} baut auf {cell} und kann erst angreifen, "
    "wenn der Bau fertig ist.",
    "tactical-table-war.already_attacked": "{unit} hat in dieser Phase schon angegriffen.",
    "tactical-table-war.guarded": "{target} wird vom Siedler geschützt, der mit ihm baut: "
    "zuerst den Siedler angreifen.",
    "tactical-table-war.no_route": "Keine Angriffsroute von höchstens {reach} Feldern führt "
    "von {cell} zu {target} (Routen dürfen in einem neutralen Gebäude enden, aber nicht "
    "hindurchführen, und nicht über die feindliche Burgmauer).",
    "tactical-table-war.recruit_cost": "Rekrutieren kostet {cost} Schatzwürfel; deine "
    "Schatzkammer hat {has}.",
    "tactical-table-war.build_cost": "Das Gebäude kostet {cost} Schatzwürfel; deine "
    "Schatzkammer hat {has}.",
    "tactical-table-war.supply_used": "Alle Plättchen dieses Gebäudes aus dem Vorrat sind "
    "gebaut; zuerst muss eines zerstört werden.",
    "tactical-table-war.needs_adjacent": "Das Gebäude braucht mindestens ein angrenzendes "
    "passendes Landschaftsplättchen.",
    "tactical-table-war.already_moved": "{unit} hat sich in dieser Phase schon bewegt.",
    "tactical-table-war.building_stays": "{unit} baut auf {cell} und bleibt dort, bis der Bau "
    "fertig ist.",
    "tactical-table-war.speed_zero": "{unit} kann sich nicht bewegen (Geschwindigkeit 0).",
    "tactical-table-war.ref_not_free": "{cell!r} ist kein freies Feld der Karte.",
    "tactical-table-war.ref_impassable": "{cell} ist {landscape}: dort kann keine Einheit stehen.",
    "tactical-table-war.unexplored": "{cell} ist kein erkundetes Feld der Karte: Einheiten "
    "ziehen nur über erkundete Landschaft, erkundet wird neben jedem Weg einer Einheit.",
    "tactical-table-war.impassable": "Keine Einheit betritt {cell} ({land}).",
    "tactical-table-war.enemy_castle": "{cell} ist die feindliche Burg; keine Einheit betritt sie.",
    "tactical-table-war.enemy_there": "Auf {cell} steht der Feind {enemy}; kein Feld eines "
    "Feindes wird betreten.",
    "tactical-table-war.too_far": "{unit} braucht {need} Schritte bis {cell} und hat "
    "Geschwindigkeit {speed}.",
    "tactical-table-war.no_way": "Feindliche Einheiten, Seen oder die feindliche Burg "
    "versperren {unit} jeden Weg nach {cell}.",
    "tactical-table-war.cannot_reach": "{unit} (Geschwindigkeit {speed}) erreicht {cell} in "
    "dieser Phase nicht: eine Einheit je Feld, nie durch feindliche Einheiten, Seen oder die "
    "feindliche Burg.",
}
NAMES_DE = {
    # unit types, landscapes, buildings
    "recruit": "Rekrut",
    "sword": "Schwertkämpfer",
    "bow": "Bogenschütze",
    "shoe": "Reiter",
    "settler": "Siedler",
    "plain": "Ebene",
    "forest": "Wald",
    "hill": "Hügel",
    "lake": "See",
    "quarry": "Steinbruch",
    "lumber-camp": "Holzfällerlager",
    "forge": "Schmiede",
    "fortress": "Festung",
    "trebuchet": "Tribock",
    "catapult": "Katapult",
    "ballista": "Balliste",
    "outpost": "Vorposten",
    "castle": "Burg",
    "simple": "einfache",
    "advanced": "erweiterte",
}
# Landscape titles a refusal names ("No unit enters 0305 (Lake)") in German.
for _land, _land_title in (
    ("plain", "Plain"),
    ("forest", "Forest"),
    ("hill", "Hill"),
    ("lake", "Lake"),
):
    TRANSLATIONS_DE.setdefault(_land_title, NAMES_DE[_land])
NARRATION_DE = {
    "combat": "{attacker} ({strength}+⚄{attack_die}={attack}) gegen {defender} "
    "({defender_strength}+{terrain_advantage}+⚄{defence_die}-{weakening}={defence}): {outcome}",
    "outcome_killed": "getötet",
    "outcome_tie": "Gleichstand: der Verteidiger stirbt, darf aber zurückschlagen",
    "outcome_held": "gehalten",
    "moved": "{unit} zieht {path}",
    "treasure": "{side} erhält {dice} Schatzwürfel ({sources})",
    "built": "{kind} auf {at} gebaut",
    "eliminated": "{unit} auf {at} ausgeschaltet",
    "building_attacked": "{attacker} trifft {kind} auf {to}",
    "destroyed": " — zerstört",
    "game_over": "Partie vorbei: {reason}",
    "construction_started": "{settler} beginnt auf {at} mit {kind} über {crew}",
    "construction_abandoned": "{kind} auf {at} wird aufgegeben",
    "trained": "{unit} schließt die Ausbildung ab: {level} Ausbildung als {as_}",
    "ballista": "Balliste {attacker} legt Schwächungswürfel {dice} auf {defender}",
    "scatter": "Katapult {attacker} streut auf {to}: Schwächungswürfel {dice}, mit /weaken zu "
    "verteilen",
    "recruited": "{side} rekrutiert {unit} auf {at}",
    "training_started": "{unit} beginnt die Ausbildung ({as_}, {cost} Schatzwürfel); sie endet "
    "in der nächsten Vorbereitungsphase der eigenen Seite",
    "weakening_removed": "Die Schwächungswürfel auf {unit} werden entfernt",
    "explored": "erkundet: {tiles}",
    "occupied": "{unit} besetzt {kind} auf {at}",
    "left": "{unit} verlässt das Gebäude auf {at}",
    "weakened": "{unit} bekommt einen Schwächungswürfel mit {die}",
    "looted": "Der Leichenfledder-Würfel von {side} bringt einen Schatzwürfel",
    "counter": "Zählerwürfel auf {at}: {value}",
    "conquered": "{unit} erobert {kind} auf {at}",
    "roll_attack": "Angriffswürfel",
    "roll_defence": "Verteidigungswürfel",
    "roll_landscape": "Landschaft",
}
_REASONS_DE = (
    (
        re.compile(r"turn limit: score red (\d+), blue (\d+)"),
        "Rundenlimit: Punkte Rot {0}, Blau {1}",
    ),
    (
        re.compile(r"(Red|Blue) has no unit left and cannot recruit"),
        "{0} hat keine Einheit mehr und kann nicht rekrutieren",
    ),
    (re.compile(r"(Red|Blue)'s castle is destroyed"), "die Burg von {0} ist zerstört"),
)


def _de(name) -> str:
    return NAMES_DE.get(str(name), str(name))


def _source_de(source: str) -> str:
    """A treasure source ("castle 2", "capture point 0505") in German."""
    head, _, tail = str(source).rpartition(" ")
    if not head:
        return _de(source)
    return f"{NAMES_DE.get(head, 'Eroberungspunkt' if head == 'capture point' else head)} {tail}"


def reason_de(reason: str) -> str:
    for pattern, template in _REASONS_DE:
        found = pattern.fullmatch(reason)
        if found:
            return template.format(*(TRANSLATIONS_DE.get(g, g) for g in found.groups()))
    return reason


def roll_purpose(event: dict, lang: str) -> str:
    purpose = str(event.get("purpose", ""))
    if lang == "de" and f"roll_{purpose}" in NARRATION_DE:
        return NARRATION_DE[f"roll_{purpose}"]
    return purpose


def named_units(cat: Catalogue, state: dict | None, event: dict, lang: str) -> dict:
    """``event`` with the units it speaks of named as their labels name them: type and id
    ("Rekrut red-7"), the id being what tells two counters of a type apart on the board. A unit
    no longer on the board keeps its id."""
    units = (state or {}).get("units", {})
    named = dict(event)
    for key in ("unit", "attacker", "defender", "settler"):
        uid = named.get(key)
        if isinstance(uid, str) and uid in units:
            kind = units[uid]["type"]
            title = _de(kind) if lang == "de" else cat.types[kind]["title"]
            named[key] = f"{title} {uid}"
    return named


def narrate_de(ruleset, event: dict, state: dict | None = None) -> str | None:
    """An event in the expansion's German (English: ``describe_event``)."""
    event = named_units(ruleset.cat, state, event, "de")
    kind = event.get("type")
    say = NARRATION_DE
    side = lambda s: ruleset.side_title(s, "de")  # noqa: E731
    if kind == "combat":
        fields = {**event, "outcome": say.get(f"outcome_{event['outcome']}", event["outcome"])}
        return say["combat"].format(**fields)
    if kind == "moved":
        return say[kind].format(unit=event["unit"], path="→".join(event["path"]))
    if kind == "treasure":
        return say[kind].format(
            side=side(event["side"]),
            dice=event["dice"],
            sources=", ".join(_source_de(x) for x in event["sources"]),
        )
    if kind in ("built", "construction_abandoned", "occupied", "conquered"):
        return say[kind].format(kind=_de(event["kind"]), at=event["at"], unit=event.get("unit", ""))
    if kind in ("eliminated", "left"):
        return say[kind].format(unit=event["unit"], at=event["at"])
    if kind == "building_attacked":
        text = say[kind].format(attacker=event["attacker"], kind=_de(event["kind"]), to=event["to"])
        return text + (say["destroyed"] if event["destroyed"] else "")
    if kind == "game_over":
        return say[kind].format(reason=reason_de(str(event["reason"])))
    if kind == "construction_started":
        return say[kind].format(
            settler=event["settler"], kind=_de(event["kind"]), crew=event["crew"], at=event["at"]
        )
    if kind == "trained":
        return say[kind].format(unit=event["unit"], level=_de(event["level"]), as_=_de(event["as"]))
    if kind in ("ballista", "scatter"):
        return say[kind].format(
            attacker=event["attacker"],
            defender=event.get("defender", ""),
            to=event.get("to", ""),
            dice=", ".join(map(str, event["dice"])),
        )
    if kind == "recruited":
        return say[kind].format(side=side(event["side"]), unit=event["unit"], at=event["at"])
    if kind == "training_started":
        what = "erweiterte Ausbildung" if event["as"] == "advanced" else _de(event["as"])
        return say[kind].format(unit=event["unit"], as_=what, cost=event["cost"])
    if kind == "weakening_removed":
        return say[kind].format(unit=event["unit"])
    if kind == "explored":
        return say[kind].format(
            tiles=", ".join(f"{lab} {_de(land)}" for lab, land in event["tiles"])
        )
    if kind == "weakened":
        return say[kind].format(unit=event["unit"], die=event["die"])
    if kind == "looted":
        return say[kind].format(side=side(event["side"]))
    if kind in ("counter_placed", "counter_raised"):
        return say["counter"].format(at=event["at"], value=event["value"])
    return None


def label_de(ruleset, cat: Catalogue, state: dict, key: str, value: str) -> str:
    """An option's label in German ("Rot Schwertkämpfer (erweitert) red-1 auf 0204")."""
    if key in ("unit", "target") and value in state["units"]:
        unit = state["units"][value]
        plus = " (erweitert)" if unit["level"] == "advanced" else ""
        side = ruleset.side_title(unit["side"], "de")
        return f"{side} {_de(unit['type'])}{plus} {value} auf {unit['at']}"
    if key == "target" and value in state["buildings"]:
        return f"{_de(state['buildings'][value]['kind'])} auf {value}"
    if key == "target" and value in state["outposts"]:
        side = ruleset.side_title(state["outposts"][value]["side"], "de")
        return f"Vorposten von {side} auf {value}"
    if key == "target" and value in state["castles"].values():
        return f"Burg auf {value}"
    if key == "as" and value == "advanced":
        return "erweiterte Ausbildung"
    if key in ("kind", "build", "as", "to") and value in NAMES_DE:
        return NAMES_DE[value]
    return value
