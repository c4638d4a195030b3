"""Presentation of Tenochtitlan states: event lines, header, the renderer scene, rules summary.

No rules are decided here; everything is read from the state and the data.
"""

from __future__ import annotations

import re

from engine.core.names import distinguish_titles

from .data import board_for, cards_by_id, terrain_chart, unit_types

# Sides are saturated and darker than every terrain fill, so counters stand out from the lake
# and the hills also with a colour-vision deficiency (checked in tests/renderer).
COLORS = {"spanish": "#a3241c", "aztec": "#17405a"}
TEXT = {"spanish": "#ffffff", "aztec": "#ffffff"}
TLAXCALAN_COLOR = "#d68910"
PHASE_TITLES = {
    "setup": "Setup",
    "draw": "Draw card",
    "movement": "Movement",
    "defensive-fire": "Defensive fire",
    "combat": "Combat",
    "rally": "Rally",
}
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
# The picture's own words in German, in the rulebook's terms where it has them (Damm, Kanal,
# Dörfer, Angriffswert, Rückzug, eliminiert). Place names and card titles are game data.
PICTURE_WORDS = {
    "de": {
        "Tlaxcalan allies": "Tlaxcalteken (Verbündete)",
        "Decks": "Nachziehstapel",
        "Counters: attack-defence-movement; white corner disc: range": (
            "Einheiten: Angriff-Verteidigung-Bewegung; weiße Eckscheibe: Reichweite"
        ),
        "lost:": "verloren:",
        "none": "keine Wirkung",
        "retreat": "Rückzug",
        "eliminated": "eliminiert",
        "Clear": "Offenes Gelände",
        "Hills": "Hügel",
        "Marsh": "Sumpf",
        "Lake Texcoco": "Texcoco-See",
        "Canal": "Kanal",
        "City sites": "Stadtfelder",
        "Sacred Precinct": "Heiliger Bezirk",
        "Tlatelolco Market": "Tlatelolco-Markt",
        "Dock Area": "Hafen",
        "Tlacopan Gate": "Tlacopan-Tor",
        "Causeway": "Damm",
        "Aqueduct": "Aquädukt",
        "Canal bridge": "Kanalbrücke",
        "Causeway bridge": "Dammbrücke",
        "Iztapalapa causeway": "Iztapalapa-Damm",
        "Tepeyac causeway": "Tepeyac-Damm",
        "Tlacopan causeway": "Tlacopan-Damm",
        "Village": "Dorf",
        "Chapultepec Springs": "Chapultepec-Quellen",
        "move": "Bewegung",
        "attack": "Angriff",
        "holds": "hält",
        "and": "und",
        "or": "oder",
        "one": "eine",
        "until {units} moves on": "bis {units} weiterzieht",
    }
}


def word(text: str, lang: str) -> str:
    """``text`` as the picture shows it to a reader of ``lang``."""
    return PICTURE_WORDS.get(lang, {}).get(text, text)


def place_name(board, i: int) -> str:
    for name, j in board.objectives.items():
        if i == j:
            return name
    for name, j in board.villages.items():
        if i == j:
            return name
    for name, j in board.forts.items():
        if i == j:
            return name
    if board.causeway_of[i]:
        return board.causeways[board.causeway_of[i]]["title"]
    if i in board.aqueduct:  # a hex of the aqueduct is named for it, not for its terrain
        return "Aqueduct"
    return terrain_chart()["types"][board.terrain[i]]["title"]


def unit_facts(ruleset, state: dict, uid: str, lang: str) -> list[str]:
    """/info unit: the unit type's factors and class, and whether it is disorganised."""
    from engine.core.info import word

    kind = state.get("roster", {}).get(uid) or state.get("units", {}).get(uid, {}).get("type")
    t = unit_types().get(kind)
    if not t:
        return []
    numbers = " · ".join(
        f"{word(lang, key)} {t[key]}" for key in ("attack", "defence", "movement", "range")
    )
    lines = [f"{word(lang, 'type')}: {t['title']} ({ruleset.term(t['class'], lang)})", numbers]
    if t.get("tlaxcalan"):
        lines.append(ruleset.term("Tlaxcalan ally: does not count for the Aztec victory.", lang))
    if state.get("units", {}).get(uid, {}).get("disorganised"):
        lines.append(word(lang, "disorganised"))
    return lines


def cell_facts(ruleset, state: dict, cell: str, lang: str) -> list[str]:
    """/info cell: the hex's terrain from the terrain chart and what it does."""
    from engine.core.info import word

    board = board_for(state["map"])
    i = board.idx(cell)
    if i is None:
        return []
    t = terrain_chart()["types"][board.terrain[i]]
    place = place_name(board, i)
    named = f" — {place}" if place != t["title"] else ""
    lines = [f"{word(lang, 'terrain')}: {t['title']}{named}"]
    if t["medium"] == "water":
        lines.append(word(lang, "water_only"))
    else:
        lines.append(f"{word(lang, 'move_cost')} {t['cost']}")
    if board.defence[i]:
        lines.append(f"{word(lang, 'defence_bonus')} +{board.defence[i]}")
    if board.fort[i]:
        fort = terrain_chart()["features"]["fort"]["defence"]
        lines.append(word(lang, "fort", bonus=fort))
    for flag in ("stop", "no_attack"):
        if t[flag]:
            lines.append(word(lang, "stops" if flag == "stop" else "no_attack"))
    if board.blocks[i]:
        lines.append(word(lang, "blocks_sight"))
    owner = state.get("control", {}).get(cell)
    if owner:
        lines.append(f"{word(lang, 'controlled_by')}: {ruleset.side_title(owner, lang)}")
    return lines


def terrain_effects(t: dict, lang: str) -> list[str]:
    """What one kind of terrain does, from the terrain chart."""
    from engine.core.info import word

    if t["medium"] == "water":
        effects = [word(lang, "water_only")]
    else:
        effects = [f"{word(lang, 'move_cost')} {t['cost']}"]
    if t["defence"]:
        effects.append(f"{word(lang, 'defence_bonus')} +{t['defence']}")
    if t["stop"]:
        effects.append(word(lang, "stops"))
    if t["no_attack"]:
        effects.append(word(lang, "no_attack"))
    if t["blocks_los"]:
        effects.append(word(lang, "blocks_sight"))
    return effects


def rules_reference(ruleset, lang: str, state: dict | None = None) -> list[tuple[str, list[str]]]:
    """/rules: every unit type with its factors and every terrain with its effects."""
    from engine.core.info import word

    units = []
    for t in unit_types().values():
        numbers = " · ".join(
            f"{word(lang, key)} {t[key]}" for key in ("attack", "defence", "movement", "range")
        )
        side = ruleset.side_title(t["side"], lang)
        units.append(
            f"**{t['title']}** ({t['short']}, {side}, {ruleset.term(t['class'], lang)}): "
            f"{numbers}; {word(lang, 'in_scenario', count=t['count'])}"
        )
    chart = terrain_chart()
    terrain = [
        f"**{ruleset.term(t['title'], lang)}**: "
        f"{' · '.join(e.rstrip('.') for e in terrain_effects(t, lang))}"
        for t in chart["types"].values()
    ]
    terrain.append(word(lang, "fort", bonus=chart["features"]["fort"]["defence"]))
    return [(word(lang, "units"), units), (word(lang, "terrain_table"), terrain)]


CARD_WORDS = {
    "en": {
        "limits": "{title}: move {move}, attack {attack}",
        "attack_bonus": "+{bonus} to attacks with {classes}",
        "movement_bonus": "+{bonus} movement for {classes}",
        "return_unit": "return one eliminated unit ({classes}) {where}",
        "where_default": "next to a friend",
        "where_city": "in Tenochtitlan",
        "where_village": "at a village",
        "mandatory_attack": "you must attack if you can",
        "no_defensive_fire": "no enemy defensive fire",
        "aqueduct": " (if you control the aqueduct)",
    },
    "de": {
        "limits": "{title}: Bewegung {move}, Angriff {attack}",
        "attack_bonus": "+{bonus} auf Angriffe mit {classes}",
        "movement_bonus": "+{bonus} Bewegung für {classes}",
        "return_unit": "eine eliminierte Einheit ({classes}) {where} zurückbringen",
        "where_default": "neben eine eigene Einheit",
        "where_city": "in Tenochtitlan",
        "where_village": "in ein Dorf",
        "mandatory_attack": "du musst angreifen, wenn du kannst",
        "no_defensive_fire": "kein feindliches Defensivfeuer",
        "aqueduct": " (wenn du das Aquädukt kontrollierst)",
    },
}


def card_text(card: dict, lang: str = "en") -> str:
    """A card's title (game data) with its limits and special rule in ``lang``."""
    say = CARD_WORDS.get(lang) or CARD_WORDS["en"]
    text = say["limits"].format(title=card["title"], move=card["move"], attack=card["attack"])
    special = card.get("special")
    if special:
        text += "; " + special_text(special, lang)
    return text


def special_text(special: dict, lang: str = "en") -> str:
    say = CARD_WORDS.get(lang) or CARD_WORDS["en"]
    classes = ", ".join(
        CLASSES_DE.get(c, c) if lang == "de" else c for c in special.get("classes", [])
    )
    kind = special["kind"]
    if kind in ("attack_bonus", "movement_bonus"):
        text = say[kind].format(bonus=special["bonus"], classes=classes)
    elif kind == "return_unit":
        where = say["where_" + special.get("where", "default")]
        text = say[kind].format(classes=classes, where=where)
    elif kind == "mandatory_attack":
        text = say[kind]
    else:
        text = say["no_defensive_fire"]
    if special.get("requires") == "aqueduct":
        text += say["aqueduct"]
    return text


CLASSES_DE = {
    "infantry": "Infanterie",
    "cavalry": "Kavallerie",
    "artillery": "Artillerie",
    "arquebusiers": "Arkebusiere",
    "crossbowmen": "Armbrustschützen",
    "bowmen": "Bogenschützen",
    "brigantine": "Brigantinen",
    "canoe": "Kanus",
}


def unit_name(state: dict, uid: str) -> str:
    tname = state.get("roster", {}).get(uid)
    t = unit_types().get(tname)
    return f"{t['title']} {uid.rsplit('-', 1)[-1]}" if t else uid


# The game's narration, one template per event, in English and in the rulebook's German.
EVENT_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "placed": "{unit} placed at {to}.",
        "returned": "{unit} returns to play at {to}.",
        "card_drawn": "{side} draw {card}.",
        "reshuffled": "The {side} deck is reshuffled.",
        "moved": "{unit} moves {path}.",
        "must_move_on": "{unit} shares {at} with {other} and must move on before the movement "
        "phase ends (one unit per hex at its end).",
        "attack": "{who} {verb} at {at}: {sum} vs defence {defence} (retreat at {retreat}, "
        "eliminated at {eliminated}): {outcome}.",
        "attack_note": "{who} {verb} at {at}: {sum} vs defence {defence} (retreat at {retreat}, "
        "eliminated at {eliminated}): {outcome} ({note}).",
        "verb_fires": "fires at {target}",
        "verb_attacks": "attacks {target}",
        "outcome_none": "no effect",
        "outcome_retreat": "disorganised and must retreat",
        "outcome_eliminated": "eliminated",
        "evade_offered": "{unit} may retreat before combat.",
        "evaded": "{unit} retreats before combat {from_} → {to}.",
        "stood": "{unit} stands and fights.",
        "retreated": "{unit} retreats {from_} → {to}.",
        "disorganised": "{unit} is disorganised.",
        "fort_retreat_offered": "{unit} may hold the fort or retreat.",
        "held_fort": "{unit} holds the fort at {at} without retreating.",
        "eliminated": "{unit} is eliminated at {at} ({reason}).",
        "advance_offered": "{units} may advance into {to}.",
        "advanced": "{unit} advances {from_} → {to}.",
        "extra_melee": "{unit} may make one more melee attack.",
        "no_advance": "No advance into {to}.",
        "rallied": "{unit} rallies.",
        "control": "{side} take control of {where} ({at}).",
        "game_over": "Game over: {winner} win — {reason}.",
        "game_over_draw": "Game over: nobody wins — {reason}.",
        "turn_started": "Turn {turn} begins.",
        "setup_started": "{side} now set up their units.",
        "turn_limit": "Turn {turn} was the last turn.",
        "setup_done": "{side} setup complete.",
        "referee_place": "Referee: {unit} placed at {to}.",
        "referee_remove": "Referee: {unit} removed from {from_}.",
        "referee_phase": "Referee: phase set to {phase}, {side} active.",
        "decision_dropped": "The pending {kind} decision was cancelled by the referee.",
        "no_card": "{side} have no card to draw.",
        "roll_attack": "attack on {target}",
    },
    "de": {
        "placed": "{unit} wird auf {to} aufgestellt.",
        "returned": "{unit} kehrt auf {to} ins Spiel zurück.",
        "card_drawn": "{side} ziehen {card}.",
        "reshuffled": "Der Stapel der {side} wird neu gemischt.",
        "moved": "{unit} zieht {path}.",
        "must_move_on": "{unit} steht mit {other} auf {at} und muss vor dem Ende der "
        "Bewegungsphase weiterziehen (dann nur eine Einheit je Feld).",
        "attack": "{who} {verb} ({at}): {sum} gegen Verteidigung {defence} (Rückzug ab "
        "{retreat}, eliminiert ab {eliminated}): {outcome}.",
        "attack_note": "{who} {verb} ({at}): {sum} gegen Verteidigung {defence} (Rückzug ab "
        "{retreat}, eliminiert ab {eliminated}): {outcome} ({note}).",
        "verb_fires": "schießt auf {target}",
        "verb_attacks": "greift {target} an",
        "outcome_none": "keine Wirkung",
        "outcome_retreat": "desorganisiert, muss zurückweichen",
        "outcome_eliminated": "eliminiert",
        "evade_offered": "{unit} darf vor dem Kampf ausweichen.",
        "evaded": "{unit} weicht vor dem Kampf aus: {from_} → {to}.",
        "stood": "{unit} bleibt stehen und kämpft.",
        "retreated": "{unit} weicht zurück: {from_} → {to}.",
        "disorganised": "{unit} ist desorganisiert.",
        "fort_retreat_offered": "{unit} darf das Fort halten oder zurückweichen.",
        "held_fort": "{unit} hält das Fort auf {at}, ohne zurückzuweichen.",
        "eliminated": "{unit} wird auf {at} eliminiert ({reason}).",
        "advance_offered": "{units} darf nach {to} nachrücken.",
        "advanced": "{unit} rückt nach: {from_} → {to}.",
        "extra_melee": "{unit} darf noch einen Nahkampfangriff machen.",
        "no_advance": "Kein Nachrücken nach {to}.",
        "rallied": "{unit} organisiert sich neu.",
        "control": "{side} übernehmen die Kontrolle über {where} ({at}).",
        "game_over": "Partie vorbei: {winner} gewinnen — {reason}.",
        "game_over_draw": "Partie vorbei: niemand gewinnt — {reason}.",
        "turn_started": "Spielzug {turn} beginnt.",
        "setup_started": "{side} stellen jetzt ihre Einheiten auf.",
        "turn_limit": "Spielzug {turn} war der letzte.",
        "setup_done": "{side} sind aufgestellt.",
        "referee_place": "Schiedsrichter: {unit} auf {to} gesetzt.",
        "referee_remove": "Schiedsrichter: {unit} von {from_} genommen.",
        "referee_phase": "Schiedsrichter: Phase {phase}, {side} am Zug.",
        "decision_dropped": "Die offene Entscheidung ({kind}) hat der Schiedsrichter aufgehoben.",
        "no_card": "{side} haben keine Karte mehr zu ziehen.",
        "roll_attack": "Angriff auf {target}",
    },
}
# The engine's reasons (events carry them in English) as the German narration gives them.
REASONS_DE = {
    "attack": "Angriff",
    "disorganised unit forced to retreat": "desorganisierte Einheit musste zurückweichen",
    "no retreat possible": "kein Rückzug möglich",
    "ranged artillery cannot eliminate a unit in good order": "Artillerie auf Entfernung kann "
    "eine geordnete Einheit nicht eliminieren",
    "the Spanish control every objective and a causeway with its village": "die Spanier "
    "kontrollieren jedes Ziel und einen Damm samt Dorf",
}
_REASON_PATTERNS_DE = (
    (
        re.compile(r"only (\d+) Spanish units \(without Tlaxcalans\) remain on the map"),
        "nur noch {0} spanische Einheiten (ohne Tlaxcalteken) auf dem Brett",
    ),
    (
        re.compile(r"the Spanish did not win by the end of turn (\d+)"),
        "die Spanier haben bis zum Ende von Spielzug {0} nicht gewonnen",
    ),
)


def reason_text(reason: str, lang: str) -> str:
    if lang != "de":
        return reason
    if reason in REASONS_DE:
        return REASONS_DE[reason]
    for pattern, template in _REASON_PATTERNS_DE:
        found = pattern.fullmatch(reason)
        if found:
            return template.format(*found.groups())
    return reason


def roll_purpose(state: dict, event: dict, lang: str) -> str:
    purpose = str(event.get("purpose", ""))
    if purpose.startswith("attack on "):
        target = purpose[len("attack on ") :]
        say = EVENT_TEXT.get(lang, EVENT_TEXT["en"])
        return say["roll_attack"].format(target=unit_name(state, target))
    return purpose


def describe_event(ruleset, state: dict, e: dict, lang: str = "en") -> str | None:
    kind = e.get("type")
    say = EVENT_TEXT.get(lang) or EVENT_TEXT["en"]
    name = lambda uid: unit_name(state, uid)  # noqa: E731
    side = lambda s: ruleset.side_title(s, lang)  # noqa: E731
    if kind in (None, "roll", "phase_skipped", "phase_started", "shuffle"):
        return None
    if kind == "card_drawn":
        card = card_text(cards_by_id()[e["card"]], lang)
        return say[kind].format(side=side(e["side"]), card=card)
    if kind in ("reshuffled", "setup_started", "setup_done", "no_card"):
        return say[kind].format(side=side(e["side"]))
    if kind == "moved":
        return say[kind].format(unit=name(e["unit"]), path=" → ".join(e["path"]))
    if kind == "must_move_on":
        return say[kind].format(unit=name(e["unit"]), at=e["at"], other=name(e["with"]))
    if kind == "attack":
        face = DIE_FACES[e["roll"] - 1] if 1 <= e["roll"] <= 6 else str(e["roll"])
        parts = f"{e['base']}"
        if e["combined"]:
            parts += "+1"
        if e["bonus"]:
            parts += f"+{e['bonus']}"
        return say["attack_note" if e.get("note") else "attack"].format(
            who=" + ".join(name(a) for a in e["attackers"]),
            verb=say["verb_fires" if e.get("defensive") else "verb_attacks"].format(
                target=name(e["target"])
            ),
            at=e["at"],
            sum=f"{parts}+{face}{e['roll']}={e['total']}",
            defence=e["defence"],
            retreat=e["defence"] + 1,
            eliminated=e["defence"] + 2,
            outcome=say["outcome_" + e["result"]],
            note=reason_text(str(e.get("note") or ""), lang),
        )
    if kind in ("evaded", "retreated", "advanced"):
        return say[kind].format(unit=name(e["unit"]), from_=e["from"], to=e["to"])
    if kind in ("placed", "returned"):
        return say[kind].format(unit=name(e["unit"]), to=e["to"])
    if kind in (
        "evade_offered",
        "stood",
        "disorganised",
        "fort_retreat_offered",
        "extra_melee",
        "rallied",
    ):
        return say[kind].format(unit=name(e["unit"]))
    if kind == "held_fort":
        return say[kind].format(unit=name(e["unit"]), at=e["at"])
    if kind == "eliminated":
        return say[kind].format(
            unit=name(e["unit"]), at=e["at"], reason=reason_text(e["reason"], lang)
        )
    if kind == "advance_offered":
        return say[kind].format(units=", ".join(name(u) for u in e["units"]), to=e["to"])
    if kind == "no_advance":
        return say[kind].format(to=e["to"])
    if kind == "control":
        board = board_for(state["map"])
        i = board.idx(e["at"])
        where = place_name(board, i) if i is not None else e["at"]
        return say[kind].format(side=side(e["side"]), where=where, at=e["at"])
    if kind == "game_over":
        reason = reason_text(e["reason"], lang)
        if not e.get("winner"):
            return say["game_over_draw"].format(reason=reason)
        return say[kind].format(winner=side(e["winner"]), reason=reason)
    if kind in ("turn_started", "turn_limit"):
        return say[kind].format(turn=e["turn"])
    if kind == "referee":
        if e["what"] == "place":
            return say["referee_place"].format(unit=name(e["unit"]), to=e["to"])
        if e["what"] == "remove":
            return say["referee_remove"].format(unit=name(e["unit"]), from_=e["from"])
        phase = ruleset.term(PHASE_TITLES.get(e["phase"], e["phase"]), lang)
        return say["referee_phase"].format(phase=phase, side=side(e["active"]))
    if kind == "decision_dropped":
        return say[kind].format(kind=ruleset.term(e["kind"], lang))
    return None


def header(ruleset, state: dict, lang: str = "en") -> dict[str, str]:
    """The turn post's fields; German ones use the rulebook's words (Spielzug, Kartenziehen)."""
    term = lambda text: ruleset.term(text, lang)  # noqa: E731
    side = lambda s: ruleset.side_title(s, lang)  # noqa: E731
    out = {}
    if state["phase"] == "setup":
        out[term("Turn")] = term("Setup")
    else:
        out[term("Turn")] = f"{state['turn']} / {state.get('last_turn', 24)}"
    out[term("Phase")] = term(PHASE_TITLES.get(state["phase"], state["phase"]))
    out[term("Active")] = side(state["active"])
    card = cards_by_id().get(state.get("card") or "")
    out[term("Card")] = card_text(card, lang) if card else "—"
    if card and state["phase"] != "setup":
        moved, attacked = (
            f"{len(state['moved'])}/{card['move']}",
            f"{state['attacks_used']}/{card['attack']}",
        )
        out[term("Used")] = (
            f"gezogen {moved}, angegriffen {attacked}"
            if lang == "de"
            else f"moved {moved}, attacked {attacked}"
        )
    pending = state.get("pending")
    if pending:
        out[term("Waiting")] = f"{side(pending['side'])}: {term(pending['kind'])}"
    if state.get("result"):
        winner = state["result"].get("winner")
        if lang == "de":
            out[term("Result")] = f"{side(winner)} gewinnen" if winner else "Remis"
        else:
            out["Result"] = (ruleset.side_titles.get(winner, "draw") + " win") if winner else "draw"
    return out


def _static(board, lang: str = "en") -> dict:
    chart = terrain_chart()
    types = chart["types"]
    names = {}
    for name, i in board.villages.items():
        names[i] = name
    for name, i in board.objectives.items():
        names[i] = name
    for name, i in board.forts.items():
        names.setdefault(i, name)
    cells = []
    for i, lab in enumerate(board.grid.labels):
        t = types[board.terrain[i]]
        cell = {"at": lab, "fill": t.get("fill", "#999999")}
        icon = "fort" if board.fort[i] else t.get("icon")
        if icon:
            cell["icon"] = icon
        if i in names:
            cell["text"] = word(names[i], lang)
        cells.append(cell)
    lines = []
    for road in board.roads:
        for a, b in zip(road, road[1:]):
            lines.append({"from": a, "to": b, "color": "#7a5c3a", "width": 4, "kind": "road"})
    for cw in board.causeways.values():
        ends = []
        for end in (cw["hexes"][0], cw["hexes"][-1]):
            for n in board.grid.adjacent[end]:
                if board.medium[n] == "land" and board.causeway_of[n] is None:
                    ends.append((end, n))
                    break
        for a, b in zip(cw["hexes"], cw["hexes"][1:]):
            kind = "bridge" if board.bridge[a] or board.bridge[b] else "causeway"
            lines.append(
                {
                    "from": board.label(a),
                    "to": board.label(b),
                    "color": "#e8d7a8",
                    "width": 9,
                    "kind": kind,
                }
            )
        for a, b in ends:
            lines.append(
                {
                    "from": board.label(a),
                    "to": board.label(b),
                    "color": "#e8d7a8",
                    "width": 9,
                    "kind": "causeway",
                }
            )
    aq = [board.label(i) for i in board.aqueduct]
    for a, b in zip(aq, aq[1:]):
        lines.append({"from": a, "to": b, "color": "#3d7ea6", "width": 3, "kind": "aqueduct"})
    # A canal bridge carries the street across the water to the city hexes on either bank.
    for i in range(len(board.grid)):
        if board.terrain[i] == "city-bridge":
            banks = [
                n for n in board.grid.adjacent[i] if board.city[n] and board.medium[n] == "land"
            ]
            for n in banks:
                lines.append(
                    {
                        "from": board.label(i),
                        "to": board.label(n),
                        "color": "#e8d7a8",
                        "width": 7,
                        "kind": "bridge",
                    }
                )
    city = [board.label(i) for i in range(len(board.grid)) if board.city[i]]
    regions = [{"cells": city, "outline": "#5b3a1a", "label": "Tenochtitlan"}] if city else []
    return {"cells": cells, "lines": lines, "regions": regions}


_static_cache: dict[tuple[str, str], dict] = {}


def scene(ruleset, state: dict, events: list[dict], viewer, lang: str = "en") -> dict:
    board = board_for(state["map"])
    static = _static_cache.get((board.key, lang))
    if static is None:
        static = _static_cache[(board.key, lang)] = _static(board, lang)
    side_title = lambda s: ruleset.side_title(s, lang)  # noqa: E731
    types = unit_types()
    pieces = []
    sharing: dict[str, list[str]] = {}
    for uid, u in sorted(state["units"].items()):
        t = types[u["type"]]
        color = TLAXCALAN_COLOR if t.get("tlaxcalan") else COLORS[u["side"]]
        sharing.setdefault(u["at"], []).append(uid)
        pieces.append(
            {
                "at": u["at"],
                "id": uid,
                "color": color,
                "text_color": TEXT[u["side"]],
                "title": f"{t['short']} {uid.rsplit('-', 1)[-1]}",
                "values": f"{t['attack']}-{t['defence']}-{t['movement']}",
                "flipped": bool(u["disorganised"]),
            }
        )
        if t.get("range", 1) > 1:
            # ranged units: the range in a white corner disc (the factors keep their size)
            pieces[-1].update(badge=str(t["range"]), badge_color="#ffffff")
    # Two units share a hex only in the middle of the movement phase; mark the hex so players
    # see which unit still has to move on.
    markers = []
    shared_notes = []
    for lab, uids in sorted(sharing.items()):
        if len(uids) > 1:
            markers.append({"at": lab, "kind": "highlight", "color": "#d4ac0d"})
            waiting = [x for x in uids if x not in state.get("moved", [])]
            who = f" {word('and', lang)} ".join(unit_name(state, x) for x in uids)
            mover = f" {word('or', lang)} ".join(unit_name(state, x) for x in waiting)
            until = word("until {units} moves on", lang).format(units=mover or word("one", lang))
            shared_notes.append(f"{lab} {word('holds', lang)} {who} {until}")
    objectives = []
    for name, i in board.objectives.items():
        lab = board.label(i)
        owner = state["control"].get(lab)
        objectives.append(
            {
                "at": lab,
                "name": word(name, lang),
                "owner": owner,
                "color": COLORS.get(owner, "#777777"),
            }
        )
    arrows = []
    for e in events:
        kind = e.get("type")
        if kind == "moved":
            color = (
                COLORS[types[state["roster"][e["unit"]]]["side"]]
                if e["unit"] in state["roster"]
                else "#222222"
            )
            arrows.append({"path": list(e["path"]), "color": color, "kind": "move"})
        elif kind in ("retreated", "evaded", "advanced"):
            arrows.append({"path": [e["from"], e["to"]], "color": "#555555", "kind": "move"})
        elif kind == "attack":
            face = DIE_FACES[e["roll"] - 1] if 1 <= e["roll"] <= 6 else str(e["roll"])
            extra = ("+1" if e["combined"] else "") + (f"+{e['bonus']}" if e["bonus"] else "")
            text = (
                f"{e['base']}{extra}+{face}{e['roll']}={e['total']} vs {e['defence']}: "
                f"{word(e['result'], lang)}"
            )
            for src in e["from"]:
                arrows.append(
                    {"path": [src, e["at"]], "color": "#111111", "kind": "attack", "text": text}
                )
    notes = []
    decks = state.get("decks", {})
    notes.append(
        word("Decks", lang)
        + ": "
        + ", ".join(
            f"{side_title(s)} {len(d) if isinstance(d, list) else d}" for s, d in decks.items()
        )
    )
    notes.append(word("Counters: attack-defence-movement; white corner disc: range", lang))
    lost: dict[str, list[str]] = {"spanish": [], "aztec": []}
    for uid in state.get("eliminated", []):
        t = types.get(state.get("roster", {}).get(uid))
        if t:
            lost[t["side"]].append(f"{t['short']} {uid.rsplit('-', 1)[-1]}")
    notes += shared_notes
    return {
        "map_key": board.key,
        "grid": {"kind": "hex", "columns": board.columns, "rows": board.rows},
        "title": "Siege of Tenochtitlan",
        "lang": lang,
        **static,
        "objectives": objectives,
        "pieces": distinguish_titles(pieces),
        "markers": markers,
        "arrows": arrows,
        "header": [[k, v] for k, v in header(ruleset, state, lang).items()],
        "legend": [
            {"color": COLORS["spanish"], "text": side_title("spanish")},
            {"color": TLAXCALAN_COLOR, "text": word("Tlaxcalan allies", lang)},
            {"color": COLORS["aztec"], "text": side_title("aztec")},
        ],
        "notes": notes,
        "terrain_key": _terrain_key(board, lang),
        "losses": [
            {"color": COLORS[s], "text": f"{side_title(s)} {word('lost:', lang)}", "units": lost[s]}
            for s in ("spanish", "aztec")
        ],
    }


def _terrain_key(board, lang: str = "en") -> list[dict]:
    """One swatch per fill colour on the map (bridges share the water's colour)."""
    types = terrain_chart()["types"]
    used = {board.terrain[i] for i in range(len(board.grid))}
    key: list[dict] = []
    seen: dict[str, dict] = {}
    for name, t in types.items():
        if name not in used or t.get("bridge"):
            continue
        fill = t.get("fill", "#999999")
        if fill in seen:
            if t.get("city"):
                seen[fill]["text"] = word("City sites", lang)
            continue
        seen[fill] = {"color": fill, "text": word(t["title"], lang)}
        key.append(seen[fill])
    return key


SUMMARY_EN = """**Siege of Tenochtitlan** — Spanish (with Tlaxcalan allies and brigantines) against the Aztecs, 24 turns.
**Setup:** Aztecs first: units in Tenochtitlan or on causeways (at most 2 per causeway), canoes on lake hexes next to the city or in the canal. Then the Spanish: brigantines on the southern lake; land units in three connected groups of at least 4, each within 3 hexes of a different village, not in the city or on a causeway.
**Turn:** draw a card (how many units may move and how many may attack, special rule) → movement → enemy defensive fire (up to 3 bowmen/artillery/arquebusiers/crossbowmen/brigantines) → combat → rally.
**Movement:** movement factor vs terrain costs; through friends, not enemies; one unit per hex at the end of the phase (a move may stop on a friend that then moves on); entering an enemy ZOC stops; no ZOC to ZOC; roads: 2 hexes per point outside enemy ZOC. Disorganised units cannot move and have no ZOC.
**Combat:** one or two units (the second adds +1) against one enemy in range (ranged fire needs line of sight; units that moved attack only adjacent; a unit in an enemy ZOC attacks only those units). Attack factor + 1d6 ≥ defence + 1: disorganised and retreat 2 hexes, each step farther from the attackers (in a fort: may stay); ≥ defence + 2: eliminated. Only the highest terrain bonus counts. A faster defender may retreat before a melee. Infantry and cavalry may advance into the vacated hex.
**Win:** Spanish: control Sacred Precinct, Tlatelolco Market, Xoloc, Dock Area, Chapultepec Springs and a whole causeway with its village. Aztecs: prevent that until the end of turn 24, or reduce the Spanish to 6 units (Tlaxcalans not counted)."""

SUMMARY_DE = """**Siege of Tenochtitlan** — Spanier (mit Tlaxcalteken und Brigantinen) gegen Azteken, 24 Spielzüge.
**Aufbau:** Zuerst die Azteken: Einheiten in Tenochtitlan oder auf Dämmen (höchstens 2 je Damm), Kanus auf Seefeldern neben der Stadt oder im Kanal. Dann die Spanier: Brigantinen auf dem südlichen See; Landeinheiten in drei zusammenhängenden Gruppen zu mindestens 4, jede höchstens 3 Felder von einem anderen Dorf, nicht in der Stadt oder auf einem Damm.
**Zug:** Karte ziehen (wie viele Einheiten sich bewegen und wie viele angreifen dürfen, Sonderregel) → Bewegung → feindliches Defensivfeuer (bis zu 3 Bogenschützen/Artillerie/Arkebusiere/Armbrustschützen/Brigantinen) → Kampf → Neuordnung.
**Bewegung:** Bewegungsfaktor gegen Geländekosten; durch eigene, nicht durch feindliche Einheiten; am Ende der Phase eine Einheit je Feld (ein Zug darf auf einer eigenen Einheit enden, die dann weiterzieht); Betreten einer feindlichen ZOC beendet die Bewegung; nicht von ZOC zu ZOC; Straßen: 2 Felder je Punkt außerhalb feindlicher ZOC. Desorganisierte Einheiten bewegen sich nicht und haben keine ZOC.
**Kampf:** eine oder zwei Einheiten (die zweite gibt +1) gegen einen Feind in Reichweite (Fernkampf braucht Sichtlinie; bewegte Einheiten greifen nur benachbart an; eine Einheit in feindlicher ZOC greift nur diese Einheiten an). Angriffsfaktor + 1W6 ≥ Verteidigung + 1: desorganisiert und 2 Felder Rückzug, jeder Schritt weiter weg von den Angreifern (im Fort: darf stehen bleiben); ≥ Verteidigung + 2: eliminiert. Nur der höchste Geländebonus zählt. Ein schnellerer Verteidiger darf vor dem Nahkampf ausweichen. Infanterie und Kavallerie dürfen in das freie Feld vorrücken.
**Sieg:** Spanier: Kontrolle über Heiliger Bezirk, Tlatelolco-Markt, Xoloc, Hafen, Chapultepec-Quellen und einen ganzen Damm samt Dorf. Azteken: das bis zum Ende von Zug 24 verhindern, oder die Spanier auf 6 Einheiten (ohne Tlaxcalteken) bringen."""


def rules_summary(locale: str = "en") -> str:
    return SUMMARY_DE if str(locale).lower().startswith("de") else SUMMARY_EN
