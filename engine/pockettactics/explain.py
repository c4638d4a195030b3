"""What ``/info`` and the rules summary say about Pocket Tactics' units and tiles, drawn from
``data/pocket-tactics/factions.json`` and ``terrain.json`` so they never disagree."""

from __future__ import annotations

import re

from engine.core.info import count, word

from .present import PICTURE_WORDS

WORDS = {
    "en": {
        "faction": "Faction",
        "kinds": "Kinds",
        "dice": "OFF {off} · DEF {defence} · {points}",
        "bonus": "Bonus {value} on {kind}",
        "against": " against {attacks}",
        "only": " only",
        "attacks": "Close combat: {attacks}",
        "fast": "Fast: {n}",
        "flying": "Flying: {n}",
        "ranged": "Ranged: range {n}",
        "preferred": "Preferred terrain (one re-roll): {names}",
        "bane": "Bane of {kind}: +1 OFF against them",
        "special": "Special: {name}",
        "status_reserve": "In reserve.",
        "status_captured": "Captured by {side}.",
        "blessed": "Blessed: +{n} in its next combat.",
        "feature_on": "{feature} on {terrain}",
        "hazard_drown": "Hazard: a unit moving in rolls a die; 1-3 drowns it.",
        "hazard_def-test": "Hazard: a unit moving in needs a 5 on its DEF dice, or it is defeated.",
        "hazard_off-test": "Hazard: a unit moving in needs a 5 on its OFF dice, or its action "
        "fails.",
        "no_jump_in": "No unit may land here by a jump.",
        "flyers_only": "Only flying units may enter.",
        "tile_bonus": "A unit standing here: {bonus}",
        "home": "Home feature of {side}.",
    },
    "de": {
        "faction": "Fraktion",
        "kinds": "Typen",
        "dice": "OFF {off} · DEF {defence} · {points}",
        "bonus": "Bonus {value} auf {kind}",
        "against": " gegen {attacks}",
        "only": " allein",
        "attacks": "Nahkampf: {attacks}",
        "fast": "Schnell: {n}",
        "flying": "Fliegend: {n}",
        "ranged": "Fernkampf: Reichweite {n}",
        "preferred": "Bevorzugtes Gelände (ein Neuwurf): {names}",
        "bane": "Fluch der Art {kind}: +1 OFF gegen sie",
        "special": "Besonderheit: {name}",
        "status_reserve": "In der Reserve.",
        "status_captured": "Gefangen von {side}.",
        "blessed": "Gesegnet: +{n} im nächsten Kampf.",
        "feature_on": "{feature} auf {terrain}",
        "hazard_drown": "Gefahr: eine Einheit, die hineinzieht, würfelt; bei 1-3 ertrinkt sie.",
        "hazard_def-test": "Gefahr: eine Einheit, die hineinzieht, braucht eine 5 auf ihren "
        "DEF-Würfeln, sonst ist sie besiegt.",
        "hazard_off-test": "Gefahr: eine Einheit, die hineinzieht, braucht eine 5 auf ihren "
        "OFF-Würfeln, sonst misslingt ihre Aktion.",
        "no_jump_in": "Keine Einheit darf hier nach einem Sprung landen.",
        "flyers_only": "Nur fliegende Einheiten dürfen es betreten.",
        "tile_bonus": "Eine Einheit hier: {bonus}",
        "home": "Heimatmerkmal von {side}.",
    },
}


# A unit's types and attack types as a German reader meets them: the rulebook calls the types
# "Typen" ("Mensch, Elf, Roboter usw.") and the attacks "Nahkampf", "Magie".
TYPES_DE = {
    "human": "Mensch",
    "infantry": "Infanterie",
    "hero": "Held",
    "mystic": "Mystiker",
    "dragon": "Drache",
    "goblin": "Goblin",
    "reptile": "Reptil",
    "cavalry": "Kavallerie",
    "giant": "Riese",
    "beast": "Bestie",
    "melee": "Nahkampf",
    "magic": "Magie",
    "ranged": "Fernkampf",
}


def kind_word(kind: str, lang: str) -> str:
    """A unit type or an attack type ("human", "magic") in ``lang``."""
    return TYPES_DE.get(kind, kind) if lang == "de" else kind


def _say(lang: str, key: str, **params) -> str:
    return (WORDS.get(lang) or WORDS["en"])[key].format(**params)


def bonus_text(bonuses: list, lang: str) -> str:
    parts = []
    for b in bonuses or []:
        text = _say(lang, "bonus", value=f"+{b['value']}", kind=str(b["kind"]).upper())
        if b.get("only_kind"):
            text += _say(lang, "only")
        if b.get("attack"):
            text += _say(lang, "against", attacks="/".join(kind_word(a, lang) for a in b["attack"]))
        parts.append(text)
    return "; ".join(parts)


def tile_title(cat, kind: str, lang: str = "en") -> str:
    """A terrain or feature by its title in ``lang`` (the rulebook's "Grasland", "Spukruinen")."""
    title = str(cat.tile(kind).get("title", kind))
    return PICTURE_WORDS.get(lang, {}).get(title, title)


def type_lines(cat, spec: dict, lang: str) -> list[str]:
    """A unit card: kinds, dice, bonuses, movement, range, preferred terrain, specials."""
    lines = [
        f"{_say(lang, 'kinds')}: {', '.join(kind_word(k, lang) for k in spec.get('types', []))}",
        _say(
            lang,
            "dice",
            off=count(lang, spec["off"], "die"),
            defence=count(lang, spec["def"], "die"),
            points=count(lang, spec["points"], "point"),
        ),
    ]
    if spec.get("bonus"):
        lines.append(bonus_text(spec["bonus"], lang))
    if spec.get("attacks") and spec["attacks"] != ["melee"]:
        lines.append(
            _say(lang, "attacks", attacks=", ".join(kind_word(a, lang) for a in spec["attacks"]))
        )
    for key in ("fast", "flying"):
        if spec.get(key):
            lines.append(_say(lang, key, n=count(lang, spec[key], "bonus move")))
    if spec.get("ranged"):
        lines.append(_say(lang, "ranged", n=spec["ranged"]))
    if spec.get("preferred"):
        names = ", ".join(tile_title(cat, p, lang) for p in spec["preferred"])
        lines.append(_say(lang, "preferred", names=names))
    if spec.get("bane"):
        lines.append(_say(lang, "bane", kind=kind_word(spec["bane"], lang)))
    if spec.get("special"):
        lines.append(_say(lang, "special", name=spec["special"]))
    return lines


def unit_facts(ruleset, cat, state: dict, uid: str, lang: str) -> list[str]:
    unit = state.get("units", {}).get(uid)
    if not unit or unit.get("type") not in cat.units:
        return []
    spec = cat.units[unit["type"]]
    lines = [f"{word(lang, 'type')}: {spec['title']}", *type_lines(cat, spec, lang)]
    if unit.get("status") == "reserve":
        lines.append(_say(lang, "status_reserve"))
    elif unit.get("status") == "captured":
        lines.append(_say(lang, "status_captured", side=ruleset.side_title(unit.get("by"), lang)))
    if unit.get("blessing"):
        lines.append(_say(lang, "blessed", n=unit["blessing"]))
    return lines


def tile_lines(cat, kind: str, lang: str) -> list[str]:
    """What a terrain or a feature does."""
    spec = cat.tile(kind)
    lines = []
    if spec.get("hazard"):
        lines.append(_say(lang, "hazard_" + spec["hazard"]))
    if spec.get("stops"):
        lines.append(word(lang, "stops"))
    if spec.get("no_jump_in"):
        lines.append(_say(lang, "no_jump_in"))
    if spec.get("flyers_only"):
        lines.append(_say(lang, "flyers_only"))
    if spec.get("blocks_sight"):
        lines.append(word(lang, "blocks_sight"))
    if spec.get("bonus"):
        lines.append(_say(lang, "tile_bonus", bonus=bonus_text(spec["bonus"], lang)))
    return lines


def cell_facts(ruleset, cat, state: dict, cell: str, lang: str) -> list[str]:
    tile = state.get("tiles", {}).get(cell)
    if not tile:
        return []
    terrain = tile_title(cat, tile["terrain"], lang)
    if tile.get("feature"):
        feature = tile_title(cat, tile["feature"], lang)
        shown = _say(lang, "feature_on", feature=feature, terrain=terrain)
    else:
        shown = terrain
    lines = [f"{word(lang, 'terrain')}: {shown}"]
    lines += tile_lines(cat, tile.get("feature") or tile["terrain"], lang)
    owner = state.get("control", {}).get(cell)
    if owner:
        lines.append(f"{word(lang, 'controlled_by')}: {ruleset.side_title(owner, lang)}")
    for side, home in (state.get("homes") or {}).items():
        if home == cell:
            lines.append(_say(lang, "home", side=ruleset.side_title(side, lang)))
    return lines


def rules_reference(cat, lang: str) -> list[tuple[str, list[str]]]:
    """/rules: each faction's unit cards, then every terrain and feature with its effects."""
    units = []
    for faction in cat.factions.values():
        for spec in faction["units"].values():
            card = "; ".join(type_lines(cat, spec, lang))
            units.append(f"**{spec['title']}** ({faction['title']}): {card}")
    terrain = []
    for kind in (*cat.terrains, *cat.features):
        effects = [e.rstrip(".") for e in tile_lines(cat, kind, lang)]
        title = tile_title(cat, kind, lang)
        terrain.append(f"**{title}**" + (f": {' · '.join(effects)}" if effects else ""))
    return [(word(lang, "units"), units), (word(lang, "terrain_table"), terrain)]


# ----- German narration -------------------------------------------------------------------------
NARRATION_DE = {
    "order": "Auswurf{what}: Nord {north} : Süd {south} — {first} beginnt.",
    "order_for": " für {what}",
    "faction_chosen": "{side} spielt {faction}.",
    "recruited": "{side} rekrutiert {unit}.",
    "tile_chosen": "{side} legt {terrain} in den Beutel.",
    "shuffle": "Gemischt: {purpose} ({count} Plättchen).",
    "drawn": "Aus dem Beutel gezogen: {terrain}.",
    "central_chosen": "Zentrales Merkmal: {feature}.",
    "feature_chosen": "{side} wählt {feature} als eigenes Merkmal.",
    "tile_placed": "{terrain}{feature} auf {at} gelegt.",
    "tile_feature": " mit {feature}",
    "feature_placed": "{side} legt {feature} auf {at}.",
    "deployed": "{unit} auf {to} stationiert.",
    "moved": "{unit} zieht {path}.",
    "advanced": "{unit} rückt vor: {path}.",
    "to_reserve": "{unit} kehrt von {from_} in die Reserve zurück{via}.",
    "via_feature": " durch das Merkmal auf {via}",
    "via_flight": ", fliegt {path} und in das Merkmal auf {via}",
    "blessed": "{unit} segnet {other} (+1 auf einen Würfel im nächsten Kampf).",
    "teleported": "{unit} teleportiert sich: {from_} → {to}.",
    "test": "{unit}: {kind}-5+-Test ({why}): {dice} — {result}.",
    "passed": "bestanden",
    "failed": "nicht bestanden",
    "no_dice": "keine Würfel",
    "hazard": "{unit} Wassertest auf {at}: {die} — {result}.",
    "safe": "sicher",
    "fails": "misslungen",
    "captured": "{unit} ist {reason} und wird von {by} gefangen genommen.",
    "action_failed": "{unit}: Aktion misslungen ({why}).",
    "attack_declared": "{unit} greift {target} an ({kind}, {from_} → {to}).",
    "no_counter": "{unit} erreicht den Angreifer nicht und würfelt keine OFF-Würfel.",
    "combat_rolled": "{attacker} OFF {a_off} DEF {a_def} gegen {defender} OFF {d_off} DEF {d_def}.",
    "bonus": "{unit}: +{value} ({source}) auf {die}: {from_} → {to}.",
    "reroll": "{unit} würfelt {die} neu: {from_} → {to}.",
    "pass": "{side} passt ({step}).",
    "combat": "{attacker} gegen {defender}: Angriff {attack}; Konter {counter}",
    "hit": "Treffer",
    "miss": "daneben",
    "control": "Das Merkmal auf {at} hält jetzt {who}.",
    "nobody": "niemand",
    "tile_discarded": "Kein Platz mehr am Tisch: {terrain} wird beiseitegelegt.",
    "army_done": "{side} hat fertig rekrutiert.",
    "start_done": "{side} stellt keine weiteren Starteinheiten auf.",
    "roll_off_tie": "Auswurf unentschieden mit {value}; es wird neu gewürfelt.",
    "turn_started": "Zug {turn}: {side}.",
    "game_started": "Starteinheiten stehen; {side} beginnt.",
    "game_over": "Partie vorbei: {reason}.",
    "melee": "Nahkampf",
    "magic": "Magie",
    "ranged": "Fernkampf",
}
# The engine's own phrases inside events (a test's reason, a duel's comparison, a bonus's
# source), most specific first.
PHRASES_DE = (
    (r"no OFF dice", "keine OFF-Würfel"),
    (r"OFF (\d+) left over", r"OFF \1 übrig"),
    (r"DEF ([\d,]+) left over", r"DEF \1 übrig"),
    (r"(\d+) is beaten by (\d+)", r"\1 unterliegt \2"),
    (r"(\d+) beats (\d+)", r"\1 schlägt \2"),
    (r"(\d+) ties (\d+)", r"\1 gleich \2"),
    (r"OFF test at (\d+) failed", r"OFF-Test auf \1 misslungen"),
    (r"hazard at (\d+)", r"Gefahr auf \1"),
    (r"water test failed", "Wassertest misslungen"),
    (r"attacker out of its range", "Angreifer außer Reichweite"),
    (r"water test at (\d+)", r"Wassertest auf \1"),
    (r"water test before attacking (\S+)", r"Wassertest vor dem Angriff auf \1"),
    (r"re-roll (OFF|DEF) (\d)", r"Neuwurf \1 \2"),
    (r"re-roll (\S+)", r"Neuwurf \1"),
    (r"(OFF|DEF) 5\+ test", r"\1-5+-Test"),
    (r"random central feature", "zufälliges zentrales Merkmal"),
    (r"roll-off \(map building\)", "Auswurf (Kartenbau)"),
    (r"roll-off", "Auswurf"),
    (r"map building", "Kartenbau"),
    (r"bane of (\S+)", r"Fluch gegen \1"),
    (r"\bnorth\b", "Nord"),
    (r"\bsouth\b", "Süd"),
    (r"^teleport$", "Teleport"),
    (r"^card$", "Karte"),
    (r"^blessing$", "Segen"),
    (r"^drowned$", "ertrunken"),
    (r"^hazard$", "einer Gefahr erlegen"),
    (r"^defeated$", "besiegt"),
    (r"(North|South) controls every feature", r"\1 kontrolliert jedes Merkmal"),
    (
        r"Neither player can activate or deploy a unit",
        "Keiner kann eine Einheit aktivieren oder stationieren",
    ),
    (
        r"(North|South) can neither activate nor deploy a unit",
        r"\1 kann weder eine Einheit "
        "aktivieren noch stationieren",
    ),
    (r"\bNorth\b", "Nord"),
    (r"\bSouth\b", "Süd"),
    (r"tile bag", "Plättchenbeutel"),
    (r"\bbag\b", "Beutel"),
)
_PHRASES_DE = tuple((re.compile(p), r) for p, r in PHRASES_DE)


def phrase_de(text: str) -> str:
    for pattern, replacement in _PHRASES_DE:
        text = pattern.sub(replacement, text)
    return text


_UNIT_FIRST = re.compile(r"^(\S+) ")
_DIE_REF = re.compile(r"\b(off|def)(\d)\b")
_SIDE_ID = re.compile(r": (north|south)$")


def die_name(ref) -> str:
    """A die as a player reads it: "off1" -> "OFF 1"."""
    return _DIE_REF.sub(lambda m: f"{m[1].upper()} {m[2]}", str(ref))


def roll_purpose(event: dict, lang: str, name=None) -> str:
    """A die's purpose as a player reads it: the unit it is for by its name ("Goblin Slinger
    re-roll OFF 1"), in ``lang``. ``name`` gives a unit id's name (None keeps ids)."""
    purpose = str(event.get("purpose", ""))
    if name is not None:
        purpose = _UNIT_FIRST.sub(lambda m: name(m[1]) + " ", purpose, count=1)
    purpose = _DIE_REF.sub(lambda m: f"{m[1].upper()} {m[2]}", purpose)
    purpose = _SIDE_ID.sub(lambda m: ": " + m[1].title(), purpose)  # "roll-off: North"
    return phrase_de(purpose) if lang == "de" else purpose


def narrate_de(ruleset, cat, state: dict, event: dict) -> str | None:
    """An event in German (English: ``describe_event``)."""
    t = event.get("type")
    say = NARRATION_DE
    n = lambda uid: ruleset._unit_name(state, uid)  # noqa: E731
    side = lambda s: ruleset.side_title(s, "de")  # noqa: E731
    title = lambda kind: tile_title(cat, kind, "de")  # noqa: E731
    if t in ("faction_chosen", "recruited", "tile_chosen", "feature_chosen", "feature_placed"):
        return say[t].format(
            side=side(event["side"]),
            faction=cat.factions.get(event.get("faction"), {}).get("title", ""),
            unit=n(event.get("unit", "")),
            terrain=title(event["terrain"]) if event.get("terrain") else "",
            feature=title(event["feature"]) if event.get("feature") else "",
            at=event.get("at", ""),
        )
    if t == "order":
        what = say["order_for"].format(what=phrase_de(event["for"])) if event.get("for") else ""
        return say[t].format(
            what=what, north=event["north"], south=event["south"], first=side(event["first"])
        )
    if t == "shuffle":
        return say[t].format(purpose=phrase_de(str(event["purpose"])), count=event["count"])
    if t == "reveal" and event.get("what") == "tile":
        return say["drawn"].format(terrain=title(event["terrain"]))
    if t == "central_chosen":
        return say[t].format(feature=title(event["feature"]))
    if t == "tile_placed":
        feature = (
            say["tile_feature"].format(feature=title(event["feature"]))
            if event.get("feature")
            else ""
        )
        return say[t].format(terrain=title(event["terrain"]), feature=feature, at=event["at"])
    if t == "deployed":
        return say[t].format(unit=n(event["unit"]), to=event["to"])
    if t == "moved":
        key = "advanced" if event.get("advance") else "moved"
        return say[key].format(unit=n(event["unit"]), path=" → ".join(event["path"]))
    if t == "to_reserve":
        via = ""
        if event.get("via", event["from"]) != event["from"]:
            via = say["via_feature"].format(via=event["via"])
        if event.get("path"):
            via = say["via_flight"].format(path=" → ".join(event["path"][:-1]), via=event["via"])
        return say[t].format(unit=n(event["unit"]), from_=event["from"], via=via)
    if t == "blessed":
        return say[t].format(unit=n(event["unit"]), other=n(event["with"]))
    if t == "teleported":
        return say[t].format(unit=n(event["unit"]), from_=event["from"], to=event["to"])
    if t == "test":
        return say[t].format(
            unit=n(event["unit"]),
            kind=event["kind"].upper(),
            why=phrase_de(str(event["why"])),
            dice=", ".join(map(str, event["dice"])) or say["no_dice"],
            result=say["passed" if event["passed"] else "failed"],
        )
    if t == "hazard":
        return say[t].format(
            unit=n(event["unit"]),
            at=event["at"],
            die=event["dice"][0],
            result=say["safe" if event["passed"] else "fails"],
        )
    if t == "captured":
        return say[t].format(
            unit=n(event["unit"]), reason=phrase_de(str(event["reason"])), by=side(event["by"])
        )
    if t == "action_failed":
        return say[t].format(unit=n(event["unit"]), why=phrase_de(str(event["why"])))
    if t == "attack_declared":
        return say[t].format(
            unit=n(event["unit"]),
            target=n(event["target"]),
            kind=say.get(event["kind"], event["kind"]),
            from_=event["from"],
            to=event["to"],
        )
    if t == "no_counter":
        return say[t].format(unit=n(event["unit"]))
    if t == "combat_rolled":
        d = event["dice"]
        return say[t].format(
            attacker=n(event["attacker"]),
            defender=n(event["defender"]),
            a_off=d["attacker"]["off"],
            a_def=d["attacker"]["def"],
            d_off=d["defender"]["off"],
            d_def=d["defender"]["def"],
        )
    if t == "bonus":
        source = str(event["source"])
        source = title(source) if source in cat.terrains or source in cat.features else source
        return say[t].format(
            unit=n(event["unit"]),
            value=event["value"],
            source=phrase_de(source),
            die=die_name(event["die"]),
            from_=event["from"],
            to=event["to"],
        )
    if t == "reroll":
        return say[t].format(
            unit=n(event["unit"]), die=die_name(event["die"]), from_=event["from"], to=event["to"]
        )
    if t == "pass":
        return say[t].format(side=side(event["side"]), step=ruleset.term(event["step"], "de"))
    if t == "combat":

        def part(p: dict) -> str:
            off = ",".join(map(str, p["off"])) or "–"
            dfn = ",".join(map(str, p["def"])) or "–"
            why = f" ({phrase_de(str(p['why']))})" if p.get("why") else ""
            return f"{off} gegen {dfn} {say['hit' if p['hit'] else 'miss']}{why}"

        return say[t].format(
            attacker=n(event["attacker"]),
            defender=n(event["defender"]),
            attack=part(event["attack"]),
            counter=part(event["counter"]),
        )
    if t == "control":
        who = side(event["side"]) if event["side"] else say["nobody"]
        return say[t].format(at=event["at"], who=who)
    if t == "tile_discarded":
        return say[t].format(terrain=title(event["terrain"]))
    if t in ("army_done", "start_done", "game_started"):
        return say[t].format(side=side(event["side"]))
    if t == "roll_off_tie":
        return say[t].format(value=event["value"])
    if t == "turn_started":
        return say[t].format(turn=event["turn"], side=side(event["side"]))
    if t == "game_over":
        return say[t].format(reason=phrase_de(str(event["reason"])))
    return None
