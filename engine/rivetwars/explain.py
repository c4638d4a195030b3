"""What ``/info`` and the rules summary say about Rivet Wars' units and terrain, drawn from the
roster (``data/rivet-wars/roster.json``, or a mission's own roster) so they never disagree."""

from __future__ import annotations

import re

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

TOKEN_NAMES_DE = {
    "bunker": "Bunker",
    "objective": "Ziel",
    "wire": "Stacheldraht",
    "tanktrap": "Panzersperre",
    "minefield": "Minenfeld",
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


# The rulebook's names of the abilities ("LÄUFER (+X)", "RASEN (X)", "PANZERSCHRECK (X)").
ABILITIES_DE = {
    "movement_bonus": "Bewegungsbonus",
    "runner": "Läufer",
    "tank_shock": "Panzerschreck",
    "precision": "Präzision",
    "rush": "Rasen",
    "range_ground": "Reichweitenbonus (Boden)",
    "range_air": "Reichweitenbonus (Luft)",
    "sniper": "Scharfschütze",
    "quick_advance": "Schneller Vorstoß",
    "reinforced_defence": "verstärkte Verteidigung",
    "gas_immune": "immun gegen Gas",
}


def ability_name(name: str, lang: str) -> str:
    if lang == "de":
        return ABILITIES_DE.get(name, name.replace("_", " "))
    return name.replace("_", " ")


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
        ability_name(a["name"], lang) + (f" {a['x']}" if a.get("x") is not None else "")
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


# ----- German narration (the rulebook's words: Runde, Aufstellung, Siegpunkte, Nieten) ----------
NARRATION_DE = {
    "mission_order": "Die Mission legt die Reihenfolge fest: {order}.",
    "rolled": "{side} würfelt {value}",
    "initiative": "Initiative: {rolls}; {first} beginnt.",
    "initiative_tie": "Initiative unentschieden mit {value}; neu gewürfelt.",
    "attack": "{by} greift {target} an ({kind}): Würfel [{dice}]{precision} -> {result}.",
    "hit": "Treffer, 1 Schaden",
    "miss": "daneben",
    "attack_declared": "{unit} greift {aim} mit {weapon} an.",
    "regrouped": "{unit} gruppiert sich nach {to} um{swap}.",
    "swap": " und tauscht mit {swapped}",
    "turn_started": "Runde {turn} beginnt.",
    "side_started": "{side} ist am Zug.",
    "phase_started": "{side}: Phase {phase}.",
    "eliminated": "{unit} ist ausgeschaltet.",
    "vp": "{side} +{vp} Siegpunkte ({why}), insgesamt {total}.",
    "moved": "{unit} zieht nach {segment}{to}.",
    "retreated": "{unit} wird nach {segment} zurückgedrängt.",
    "deployed": "{side} stellt {unit} in {segment} auf.",
    "plugged": "{side} steckt {unit} auf {host}.",
    "deviation_none": "Abweichung ({why}): keine Karte zu ziehen, bleibt auf {from_}.",
    "deviation": "Abweichung ({why}): Karte {card} zeigt {direction}: {from_} -> {to}.",
    "off_map": "vom Brett",
    "gas_placed": "{unit} legt eine Gaswolke auf {at}.",
    "gas_drift": "Die Gaswolke treibt von {from_} nach {to}.",
    "gas_removed": "Die Gaswolke auf {at} verzieht sich.",
    "flag_placed": "{side} übernimmt das Ziel {at} (Flagge).",
    "flag_removed": "Die Flagge von {side} auf {at} wird eingeholt.",
    "captured": "{side} hält das Ziel {at}.",
    "played": "{side} spielt {card}{target}.",
    "played_on": " auf {target}",
    "discarded": "{side} wirft eine Action!-Karte ab.",
    "cards_drawn_action": "{side} zieht {count} Action!-Karte(n).",
    "cards_drawn_secret": "{side} zieht {count} Geheimmission(en).",
    "card_drawn": "Du ziehst {card}.",
    "reveal": "{side} deckt die erfüllte Geheimmission {card} auf.",
    "wire_destroyed": "{unit} walzt den Stacheldraht in {at} nieder.",
    "tank_shock": "{unit} fährt in {at}: Panzerschock mit {dice} Würfeln.",
    "no_retreat": "{unit} kann nirgends zurückweichen und geht verloren.",
    "paradrop": "Fallschirmjäger von {side} springen über {at} ab.",
    "paradrop_lost": "Ein Fallschirmjäger geht verloren: {why}.",
    "resources": "{side} hat {points} Aufstellungspunkte und {rivets} Nieten{infantry}{free}.",
    "infantry_points": ", {n} Punkte nur für Infanterie",
    "free_units": ", {n} freie Infanterie",
    "points_lost": "{side} verliert {points} nicht ausgegebene Aufstellungspunkte.",
    "attack_lost": "Der Angriff geht verloren: {why}.",
    "reaction_window": "{side} darf auf den Angriff auf {at} mit einer Reaktionskarte antworten "
    "(/play eine Reaktionskarte oder /pass).",
    "passed": "{side} spielt keine Reaktionskarte.",
    "covered": "{unit} geht in Deckung: verstärkte Verteidigung (-1) bis zum Ende dieser Phase.",
    "repaired": "{unit} wird repariert.",
    "tied": "Gleichstand bei den Siegpunkten: gespielt wird, bis eine Runde mit einem Führenden "
    "endet.",
    "game_over": "Partie vorbei: {winner} gewinnt ({reason}).",
    "nobody": "Niemand",
    "escalation_bonus": "Eskalation: {side} erhält {bonus}.",
}
# Sides whose German title is a plural noun ("Alliierte"): the verb after them agrees
# ("Alliierte sind am Zug", "Bismark ist am Zug").
PLURAL_SIDES = frozenset({"allies"})
PLURAL_VERBS_DE = {
    "ist": "sind",
    "hat": "haben",
    "würfelt": "würfeln",
    "beginnt": "beginnen",
    "stellt": "stellen",
    "steckt": "stecken",
    "übernimmt": "übernehmen",
    "hält": "halten",
    "spielt": "spielen",
    "wirft": "werfen",
    "zieht": "ziehen",
    "deckt": "decken",
    "verliert": "verlieren",
    "darf": "dürfen",
    "gewinnt": "gewinnen",
    "erhält": "erhalten",
}


def agree_de(template: str, name: str) -> str:
    """``template`` with the verb right after ``{name}`` in the plural."""
    return re.sub(
        r"\{" + name + r"\} (\w+)",
        lambda m: "{" + name + "} " + PLURAL_VERBS_DE.get(m[1], m[1]),
        template,
    )


NARRATION_DE_PLURAL = {key: agree_de(text, "side") for key, text in NARRATION_DE.items()}
PHRASES_DE = (
    (r"^end of round$", "Rundenende"),
    (r"^objective (\S+)$", r"Ziel \1"),
    (r"^secret mission (.+)$", r"Geheimmission \1"),
    (r"^loot (\S+)$", r"Beute \1"),
    (r"^barrage deviated off the map$", "Sperrfeuer vom Brett abgewichen"),
    (r"^deviated off the map$", "vom Brett abgewichen"),
    (r"^drifted off the map$", "vom Brett abgetrieben"),
    (r"^no unit left in the box$", "keine Einheit mehr in der Schachtel"),
    (r"^no segment it may enter after (\d+) draws$", r"kein betretbares Segment nach \1 Karten"),
    (r"^no unit in (\S+)$", r"keine Einheit in \1"),
    (r"^(\S+) cannot be harmed by (\S+)$", r"\1 kann von \2 nicht verletzt werden"),
    (r"^reached (\d+) victory points$", r"\1 Siegpunkte erreicht"),
    (
        r"^ended the round ahead on victory points \((\d+) to (\d+)\)$",
        r"Runde mit mehr Siegpunkten beendet (\1 zu \2)",
    ),
    (
        r"^round limit (\d+): tied on victory points$",
        r"Rundenlimit \1: Gleichstand bei Siegpunkten",
    ),
    (
        r"^round limit (\d+): more victory points$",
        r"Rundenlimit \1: mehr Siegpunkte",
    ),
    (r"^round limit (\d+): ", r"Rundenlimit \1: "),
    (r"^gas drift$", "Gaswolke treibt"),
    (r"^barrage$", "Sperrfeuer"),
    (r"^paratrooper$", "Fallschirmjäger"),
    (r"^area$", "Flächenangriff"),
    (r"^single$", "Einzelangriff"),
    (r"^mine$", "Minenfeld"),
    (r"^ground$", "Boden"),
    (r"^air$", "Luft"),
    (r"^point$", "1 Aufstellungspunkt"),
    (r"^rivet$", "1 Niete"),
    (r"^points3$", "3 Aufstellungspunkte"),
    (r"^free3$", "3 freie Infanterie"),
    (r"^initiative Allies$", "Initiative Alliierte"),
    (r"^initiative Bismark$", "Initiative Bismark"),
    (r"^minefield (\S+) vs (\S+)$", r"Minenfeld \1 gegen \2"),
    (r"^minefield (\S+)$", r"Minenfeld \1"),
    (r"^(.+) vs (\S+)$", r"\1 gegen \2"),
    (r"^reshuffle (\S+) discards$", r"Ablagestapel \1 neu mischen"),
)
_PHRASES_DE = tuple((re.compile(p), r) for p, r in PHRASES_DE)


def phrase_de(text: str) -> str:
    for pattern, replacement in _PHRASES_DE:
        text = pattern.sub(replacement, text)
    return text


def roll_purpose(event: dict, lang: str) -> str:
    purpose = str(event.get("purpose", ""))
    return phrase_de(purpose) if lang == "de" else purpose


def narrate_de(ruleset, state: dict, event: dict, phase_titles: dict) -> str | None:
    """An event in German (English: ``present.describe_event``)."""
    t = event.get("type")
    say = NARRATION_DE_PLURAL if event.get("side") in PLURAL_SIDES else NARRATION_DE
    title = lambda s: ruleset.side_title(s, "de")  # noqa: E731
    side = title(event.get("side")) if event.get("side") else ""
    cards = data.cards()
    from .present import named_units

    event = named_units(state, event, "de")
    if t == "initiative":
        if event.get("reason") == "mission":
            return say["mission_order"].format(order=", ".join(title(s) for s in event["order"]))
        rolls = ", ".join(
            (NARRATION_DE_PLURAL if s in PLURAL_SIDES else NARRATION_DE)["rolled"].format(
                side=title(s), value=v
            )
            for s, v in event.get("rolls", {}).items()
        )
        first = event["order"][0]
        template = say[t] if first not in PLURAL_SIDES else agree_de(say[t], "first")
        return template.format(rolls=rolls, first=title(first))
    if t == "initiative_tie":
        return say[t].format(value=event["value"])
    if t == "attack":
        return say[t].format(
            by=phrase_de(str(event["by"])),
            target=event["target"],
            kind=phrase_de(str(event["kind"])),
            dice=" ".join(str(v) for v in event["dice"]),
            precision=f" +{event['precision']}" if event.get("precision") else "",
            result=say["hit" if event["hit"] else "miss"],
        )
    if t == "attack_declared":
        aim = event.get("target") or event["at"]
        return say[t].format(unit=event["unit"], aim=aim, weapon=event["weapon"])
    if t == "regrouped":
        swap = say["swap"].format(swapped=event["swapped"]) if event.get("swapped") else ""
        return say[t].format(unit=event["unit"], to=event["to"], swap=swap)
    if t == "turn_started":
        return say[t].format(turn=event["turn"])
    if t == "phase_started":
        phase = ruleset.term(phase_titles.get(event["phase"], event["phase"]), "de")
        return say[t].format(side=side, phase=phase)
    if t in ("side_started", "discarded", "passed"):
        return say[t].format(side=side)
    if t in ("eliminated", "no_retreat", "covered", "repaired"):
        return say[t].format(unit=event["unit"])
    if t == "vp":
        return say[t].format(
            side=side, vp=event["vp"], why=phrase_de(str(event["why"])), total=event["total"]
        )
    if t in ("moved", "retreated"):
        square = f" ({event['to']})" if event.get("to") not in (None, event["segment"]) else ""
        return say[t].format(unit=event["unit"], segment=event["segment"], to=square)
    if t == "deployed":
        return say[t].format(side=side, unit=event["unit"], segment=event["segment"])
    if t == "plugged":
        spec = ruleset_roster(state).get(event["unit"], {})
        name = type_name(spec, "de") if spec else event["unit"]
        return say[t].format(side=side, unit=name, host=event["host"])
    if t == "deviation":
        why = phrase_de(str(event["why"]))
        if event.get("card") is None:
            return say["deviation_none"].format(why=why, from_=event["from"])
        return say[t].format(
            why=why,
            card=event["card"],
            direction=event["direction"],
            from_=event["from"],
            to=event["to"] or say["off_map"],
        )
    if t in ("gas_placed", "wire_destroyed"):
        return say[t].format(unit=event["unit"], at=event["at"])
    if t == "gas_drift":
        return say[t].format(from_=event["from"], to=event["to"] or say["off_map"])
    if t in ("gas_removed",):
        return say[t].format(at=event["at"])
    if t in ("flag_placed", "flag_removed", "captured", "paradrop", "reaction_window"):
        return say[t].format(side=side, at=event["at"])
    if t == "played":
        card = cards["action"][event["card"]]
        target = event.get("unit") or event.get("to") or ""
        on = say["played_on"].format(target=target) if target else ""
        return say[t].format(side=side, card=card["name"], target=on)
    if t == "cards_drawn":
        key = "cards_drawn_action" if event["deck"] == "action" else "cards_drawn_secret"
        return say[key].format(side=side, count=event["count"])
    if t == "card_drawn":
        return say[t].format(card=cards[event["deck"]][event["card"]]["name"])
    if t == "reveal":
        card = cards["secret"].get(event["card"])
        return say[t].format(side=side, card=card["name"] if card else event["card"])
    if t == "tank_shock":
        return say[t].format(unit=event["unit"], at=event["at"], dice=event["dice"])
    if t in ("paradrop_lost", "attack_lost"):
        why = event.get("why", "drifted off the map")
        return say[t].format(why=phrase_de(str(why)))
    if t == "resources":
        infantry = (
            say["infantry_points"].format(n=event["infantry_points"])
            if event.get("infantry_points")
            else ""
        )
        free = say["free_units"].format(n=event["free_units"]) if event.get("free_units") else ""
        return say[t].format(
            side=side, points=event["points"], rivets=event["rivets"], infantry=infantry, free=free
        )
    if t == "points_lost":
        return say[t].format(side=side, points=event["points"])
    if t == "tied":
        return say[t]
    if t == "game_over":
        winner = title(event["winner"]) if event.get("winner") else say["nobody"]
        template = say[t] if event.get("winner") not in PLURAL_SIDES else agree_de(say[t], "winner")
        return template.format(winner=winner, reason=phrase_de(str(event["reason"])))
    if t == "escalation_bonus":
        return say[t].format(side=side, bonus=phrase_de(str(event["bonus"])))
    return None


def ruleset_roster(state: dict) -> dict:
    from .rules import roster

    return roster(state)
