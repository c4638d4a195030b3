"""Presentation of Tenochtitlan states: event lines, header, the renderer scene, rules summary.

No rules are decided here; everything is read from the state and the data.
"""

from __future__ import annotations

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
    return terrain_chart()["types"][board.terrain[i]]["title"]


def card_text(card: dict, lang: str = "en") -> str:
    if lang == "de":
        text = f"{card['title']}: Bewegung {card['move']}, Angriff {card['attack']}"
    else:
        text = f"{card['title']}: move {card['move']}, attack {card['attack']}"
    special = card.get("special")
    if special:
        text += "; " + (special_text_de(special) if lang == "de" else special_text(special))
    return text


CLASSES_DE = {
    "infantry": "Infanterie",
    "cavalry": "Kavallerie",
    "arquebusiers": "Arkebusiere",
    "crossbowmen": "Armbrustschützen",
    "artillery": "Artillerie",
    "brigantine": "Brigantinen",
    "bowmen": "Bogenschützen",
    "canoe": "Kanus",
}


def special_text_de(special: dict) -> str:
    """:func:`special_text` in German, with the summary's words (Tlaxcalteken, Aquädukt)."""
    classes = ", ".join(CLASSES_DE.get(c, c) for c in special.get("classes", []))
    kind = special["kind"]
    if kind == "attack_bonus":
        text = f"+{special['bonus']} auf Angriffe von {classes}"
    elif kind == "movement_bonus":
        text = f"+{special['bonus']} Bewegung für {classes}"
    elif kind == "return_unit":
        where = {
            "default": "neben eine eigene Einheit",
            "city": "in Tenochtitlan",
            "village": "in ein Dorf",
        }[special.get("where", "default")]
        text = f"eine eliminierte Einheit ({classes}) kehrt zurück, {where}"
    elif kind == "mandatory_attack":
        text = "du musst angreifen, wenn du kannst"
    else:
        text = "kein feindliches Defensivfeuer"
    if special.get("requires") == "aqueduct":
        text += " (wenn du das Aquädukt kontrollierst)"
    return text


def special_text(special: dict) -> str:
    classes = ", ".join(c for c in special.get("classes", []))
    kind = special["kind"]
    if kind == "attack_bonus":
        text = f"+{special['bonus']} to attacks with {classes}"
    elif kind == "movement_bonus":
        text = f"+{special['bonus']} movement for {classes}"
    elif kind == "return_unit":
        where = {
            "default": "next to a friend",
            "city": "in Tenochtitlan",
            "village": "at a village",
        }[special.get("where", "default")]
        text = f"return one eliminated unit ({classes}) {where}"
    elif kind == "mandatory_attack":
        text = "you must attack if you can"
    else:
        text = "no enemy defensive fire"
    if special.get("requires") == "aqueduct":
        text += " (if you control the aqueduct)"
    return text


def unit_name(state: dict, uid: str) -> str:
    tname = state.get("roster", {}).get(uid)
    t = unit_types().get(tname)
    return f"{t['title']} {uid.rsplit('-', 1)[-1]}" if t else uid


def describe_event(ruleset, state: dict, e: dict) -> str | None:
    kind = e.get("type")
    name = lambda uid: unit_name(state, uid)  # noqa: E731
    side = lambda s: ruleset.side_titles.get(s, s)  # noqa: E731
    cards = cards_by_id()
    if kind == "roll":
        return None
    if kind == "placed":
        return f"{name(e['unit'])} placed at {e['to']}."
    if kind == "returned":
        return f"{name(e['unit'])} returns to play at {e['to']}."
    if kind == "card_drawn":
        return f"{side(e['side'])} draw {card_text(cards[e['card']])}."
    if kind == "reshuffled":
        return f"The {side(e['side'])} deck is reshuffled."
    if kind == "moved":
        return f"{name(e['unit'])} moves {' → '.join(e['path'])}."
    if kind == "must_move_on":
        return (
            f"{name(e['unit'])} shares {e['at']} with {name(e['with'])} and must move on before the "
            f"movement phase ends (one unit per hex at its end)."
        )
    if kind == "attack":
        who = " + ".join(name(a) for a in e["attackers"])
        face = DIE_FACES[e["roll"] - 1] if 1 <= e["roll"] <= 6 else str(e["roll"])
        parts = f"{e['base']}"
        if e["combined"]:
            parts += "+1"
        if e["bonus"]:
            parts += f"+{e['bonus']}"
        verb = "fires at" if e.get("defensive") else "attacks"
        outcome = {
            "none": "no effect",
            "retreat": "disorganised and must retreat",
            "eliminated": "eliminated",
        }[e["result"]]
        line = (
            f"{who} {verb} {name(e['target'])} at {e['at']}: {parts}+{face}{e['roll']}={e['total']} "
            f"vs defence {e['defence']} (retreat at {e['defence'] + 1}, eliminated at "
            f"{e['defence'] + 2}): {outcome}."
        )
        if e.get("note"):
            line = line[:-1] + f" ({e['note']})."
        return line
    if kind == "evade_offered":
        return f"{name(e['unit'])} may retreat before combat."
    if kind == "evaded":
        return f"{name(e['unit'])} retreats before combat {e['from']} → {e['to']}."
    if kind == "stood":
        return f"{name(e['unit'])} stands and fights."
    if kind == "retreated":
        return f"{name(e['unit'])} retreats {e['from']} → {e['to']}."
    if kind == "disorganised":
        return f"{name(e['unit'])} is disorganised."
    if kind == "fort_retreat_offered":
        return f"{name(e['unit'])} may hold the fort or retreat."
    if kind == "held_fort":
        return f"{name(e['unit'])} holds the fort at {e['at']} without retreating."
    if kind == "eliminated":
        return f"{name(e['unit'])} is eliminated at {e['at']} ({e['reason']})."
    if kind == "advance_offered":
        return f"{', '.join(name(u) for u in e['units'])} may advance into {e['to']}."
    if kind == "advanced":
        return f"{name(e['unit'])} advances {e['from']} → {e['to']}."
    if kind == "extra_melee":
        return f"{name(e['unit'])} may make one more melee attack."
    if kind == "no_advance":
        return f"No advance into {e['to']}."
    if kind == "rallied":
        return f"{name(e['unit'])} rallies."
    if kind == "control":
        board = board_for(state["map"])
        i = board.idx(e["at"])
        where = place_name(board, i) if i is not None else e["at"]
        return f"{side(e['side'])} take control of {where} ({e['at']})."
    if kind == "game_over":
        winner = side(e["winner"]) if e.get("winner") else "Nobody"
        return f"Game over: {winner} win — {e['reason']}."
    if kind == "turn_started":
        return f"Turn {e['turn']} begins."
    if kind == "setup_started":
        return f"{side(e['side'])} now set up their units."
    if kind == "turn_limit":
        return f"Turn {e['turn']} was the last turn."
    if kind == "setup_done":
        return f"{side(e['side'])} setup complete."
    if kind == "referee":
        if e["what"] == "place":
            return f"Referee: {name(e['unit'])} placed at {e['to']}."
        if e["what"] == "remove":
            return f"Referee: {name(e['unit'])} removed from {e['from']}."
        return f"Referee: phase set to {PHASE_TITLES.get(e['phase'], e['phase'])}, {side(e['active'])} active."
    if kind == "decision_dropped":
        return f"The pending {e['kind']} decision was cancelled by the referee."
    if kind == "no_card":
        return f"{side(e['side'])} have no card to draw."
    if kind == "phase_skipped":
        return None
    if kind == "phase_started":
        return None
    if kind == "shuffle":
        return None
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
