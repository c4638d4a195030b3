"""What ``/info`` and the rules summary say about Pocket Tactics' units and tiles, drawn from
``data/pocket-tactics/factions.json`` and ``terrain.json`` so they never disagree."""

from __future__ import annotations

from engine.core.info import count, word

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
        "hazard_def-test": "Hazard: a unit moving in needs a 5 on its DEF dice, or it is "
        "defeated.",
        "hazard_off-test": "Hazard: a unit moving in needs a 5 on its OFF dice, or its action "
        "fails.",
        "no_jump_in": "No unit may land here by a jump.",
        "flyers_only": "Only flying units may enter.",
        "tile_bonus": "A unit standing here: {bonus}",
        "home": "Home feature of {side}.",
    },
    "de": {
        "faction": "Fraktion",
        "kinds": "Arten",
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


def _say(lang: str, key: str, **params) -> str:
    return (WORDS.get(lang) or WORDS["en"])[key].format(**params)


def bonus_text(bonuses: list, lang: str) -> str:
    parts = []
    for b in bonuses or []:
        text = _say(lang, "bonus", value=f"+{b['value']}", kind=str(b["kind"]).upper())
        if b.get("only_kind"):
            text += _say(lang, "only")
        if b.get("attack"):
            text += _say(lang, "against", attacks="/".join(b["attack"]))
        parts.append(text)
    return "; ".join(parts)


def tile_title(cat, kind: str) -> str:
    return str(cat.tile(kind).get("title", kind))


def type_lines(cat, spec: dict, lang: str) -> list[str]:
    """A unit card: kinds, dice, bonuses, movement, range, preferred terrain, specials."""
    lines = [
        f"{_say(lang, 'kinds')}: {', '.join(spec.get('types', []))}",
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
        lines.append(_say(lang, "attacks", attacks=", ".join(spec["attacks"])))
    for key in ("fast", "flying"):
        if spec.get(key):
            lines.append(_say(lang, key, n=count(lang, spec[key], "bonus move")))
    if spec.get("ranged"):
        lines.append(_say(lang, "ranged", n=spec["ranged"]))
    if spec.get("preferred"):
        names = ", ".join(tile_title(cat, p) for p in spec["preferred"])
        lines.append(_say(lang, "preferred", names=names))
    if spec.get("bane"):
        lines.append(_say(lang, "bane", kind=spec["bane"]))
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
    terrain = tile_title(cat, tile["terrain"])
    if tile.get("feature"):
        shown = _say(lang, "feature_on", feature=tile_title(cat, tile["feature"]), terrain=terrain)
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
        title = tile_title(cat, kind)
        terrain.append(f"**{title}**" + (f": {' · '.join(effects)}" if effects else ""))
    return [(word(lang, "units"), units), (word(lang, "terrain_table"), terrain)]
