"""What players see of Rivet Wars: filtered views, labels, event lines, header, the scene.

No rule is decided here. Hidden information (hands of action cards, secret missions, deck
order) is removed for everyone but its owner.
"""

from __future__ import annotations

import hashlib
import json
import re

from engine.core import squaregrid
from engine.core.names import distinguish_titles, possessive

from . import data
from .board import seg_label, seg_of_square, squares_of

COLORS = {"allies": "#2e6fb5", "bismark": "#b0322b"}
TERRITORY_FILL = {"allies": "#b9c9b0", "bismark": "#c9b9a8", None: "#a89a7a"}
WALKWAY_FILL = "#d2b07a"
TERRAIN_KEY = [
    {"color": TERRITORY_FILL["allies"], "text": "Allied territory"},
    {"color": TERRITORY_FILL["bismark"], "text": "Bismark territory"},
    {"color": TERRITORY_FILL[None], "text": "No man's land"},
    {"color": WALKWAY_FILL, "text": "Walkway"},
]
# The picture's own words in German, in the rulebook's terms (Territorium, Niemandsland,
# Laufroste, Action!-Karten, Geheime Missionen, Treffer). Unit and card names are game data.
PICTURE_WORDS = {
    "de": {
        "Allied territory": "Alliiertes Territorium",
        "Bismark territory": "Bismark-Territorium",
        "No man's land": "Niemandsland",
        "Walkway": "Laufrost",
        "lost:": "verloren:",
        "hit": "Treffer",
        "miss": "kein Treffer",
        "gas": "Gas",
        "Your hand": "Deine Hand",
        "your secret missions": "deine Geheimen Missionen",
        "Held": "Auf der Hand",
        "card(s)": "Action!-Karte(n)",
        "mission(s)": "Geheime Mission(en)",
        "Game over": "Spielende",
        "Nobody": "Niemand",
        "wins": "gewinnt",
        "cannon": "Kanone",
        "carbine": "Karabiner",
        "gas-projector": "Gaswerfer",
        "hacksaw": "Säge",
        "lance-pistol": "Lanzenpistole",
        "mg08": "MG08",
        "panzerfaust": "Panzerfaust",
        "pistol": "Pistole",
        "rifle": "Gewehr",
        "rockets": "Raketen",
        "scoped-rifle": "Zielfernrohrgewehr",
        "shell": "Granate",
        "twin-mg": "Zwillings-MG",
    }
}


def word(text: str, lang: str) -> str:
    """``text`` as the picture shows it to a reader of ``lang``."""
    return PICTURE_WORDS.get(lang, {}).get(text, text)


ICON = {
    "bunker": "bunker",
    "objective": "objective",
    "wire": "wire",
    "tanktrap": "tanktrap",
    "minefield": "mine",
    "deploy": "deploy",
}
PHASE_TITLES = {
    "card": "Cards",
    "deploy": "Deployment",
    "combat": "Combat",
    "move": "Movement",
    "rally": "Rally",
}


def _side_title(rs, side):
    return rs.side_titles.get(side, str(side))


def view(rs, state, side):
    # The state's own parts where nothing is hidden (views are read, never changed): a copy of
    # the whole state cost more than the rest of an autocomplete.
    shown = dict(state)
    shown["hand_counts"] = {s: len(state["hands"][s]) for s in rs.sides}
    shown["secret_counts"] = {s: len(state["secrets"][s]) for s in rs.sides}
    for part in ("hands", "secrets"):
        shown[part] = {
            s: [] if s in rs.sides and s != side else cards for s, cards in state[part].items()
        }
    shown["decks"] = {
        "action": len(state["decks"]["action"]),
        "secret": len(state["decks"]["secret"]),
        "action_discard": list(state["decks"]["action_discard"]),
        "secret_discard": list(state["decks"]["secret_discard"]),
    }
    return shown


def named_units(state, event, lang):
    """``event`` with its unit ids (unit, target, by, swapped, host) as sentences name them."""
    named = dict(event)
    for key in ("unit", "target", "by", "swapped", "host"):
        if isinstance(named.get(key), str) and not (
            key == "unit" and event.get("type") == "plugged"
        ):
            named[key] = unit_title(state, named[key], lang)
    if event.get("type") == "eliminated" and named["unit"] == event["unit"] and event.get("types"):
        from .explain import type_name
        from .rules import roster

        spec = roster(state).get(event["types"][0])  # the unit has left the board
        if spec:
            named["unit"] = f"{type_name(spec, lang)} ({event['unit']})"
    return named


def _unit_name(rs, state, utype):
    from .rules import roster

    return roster(state)[utype]["name"]


LABEL_WORDS = {
    "en": {"hp": "hp", "onto": "onto", "weapon": "weapon"},
    "de": {"hp": "LP", "onto": "auf", "weapon": "Waffe"},
}


def describe(rs, state, key, value, lang="en"):
    from engine.core.info import count

    from .explain import TOKEN_NAMES_DE, type_name
    from .rules import roster

    say = LABEL_WORDS.get(lang) or LABEL_WORDS["en"]
    units = state.get("units", {})
    if key in ("unit", "target") and value in units:
        u = units[value]
        hp = rs.hp(state, value)
        specs = roster(state)
        plugs = "".join(f"+{type_name(specs[p], lang)}" for p in u["plugins"])
        side = rs.side_title(u["side"], lang)
        return (
            f"{side} {type_name(specs[u['type']], lang)}{plugs} {value} in "
            f"{seg_label(seg_of_square(squaregrid.parse_label(u['at'])))} "
            f"({hp - u['damage']}/{hp} {say['hp']})"
        )
    if key == "unit" and value in roster(state):
        spec = roster(state)[value]
        cost = count(lang, spec["cost"], "point")
        if spec["rivets"]:
            cost += " + " + count(lang, spec["rivets"], "rivet")
        return f"{type_name(spec, lang)} ({cost})"
    if key == "card":
        card = data.cards()["action"].get(value) or data.cards()["secret"].get(value)
        if card:
            return f"{card['name']} ({value})"
    if key == "to" and value in units:
        return f"{say['onto']} {describe(rs, state, 'unit', value, lang)}"
    if key == "to" and isinstance(value, str):
        kinds = state.get("terrain", {}).get(value.upper(), [])
        if lang == "de":
            kinds = [TOKEN_NAMES_DE.get(k, k) for k in kinds]
        extra = f" ({', '.join(kinds)})" if kinds else ""
        return f"{value}{extra}"
    if key == "choice":
        return f"{say['weapon']} {value}"
    return value


def unit_title(state, uid, lang="en") -> str:
    """A unit as a sentence names it: its type and, when the board shows several counters of
    that type, the counter's number in brackets ("Panzerfaust (PzF 2)", which is also a name
    players can type). A unit no longer on the board keeps its id."""
    from .explain import type_name
    from .rules import roster

    units = (state or {}).get("units", {})
    if not isinstance(uid, str) or uid not in units:
        return str(uid)
    specs = roster(state)

    def counter(spec) -> str:  # as the picture titles a counter (present.scene)
        return spec.get("short", spec["name"][:5])

    spec = specs[units[uid]["type"]]
    same = sorted(v for v, u in units.items() if counter(specs[u["type"]]) == counter(spec))
    name = type_name(spec, lang)
    if len(same) < 2:
        return name
    return f"{name} ({counter(spec)} {same.index(uid) + 1})"


# "Allies" is a plural: "Allies have", "Allies play" (Bismark has, plays).
PLURAL_VERBS_EN = {
    "has": "have",
    "plays": "play",
    "takes": "take",
    "holds": "hold",
    "deploys": "deploy",
    "plugs": "plug",
    "discards": "discard",
    "draws": "draw",
    "reveals": "reveal",
    "loses": "lose",
    "gains": "gain",
    "wins": "win",
    "goes": "go",
}


def describe_event(rs, state, event):
    line = _describe_event(rs, state, event)
    if line is None:
        return None
    from .explain import PLURAL_SIDES

    for side in PLURAL_SIDES:
        line = re.sub(
            r"\b(" + re.escape(_side_title(rs, side)) + r") (\w+)",
            lambda m: f"{m[1]} {PLURAL_VERBS_EN.get(m[2], m[2])}",
            line,
        )
    return line


def _describe_event(rs, state, event):
    t = event.get("type")
    side = _side_title(rs, event.get("side"))
    event = named_units(state, event, "en")
    if t == "initiative":
        if event.get("reason") == "mission":
            return f"The mission sets the order: {', '.join(_side_title(rs, s) for s in event['order'])}."
        rolls = ", ".join(
            f"{_side_title(rs, s)} rolled {v}" for s, v in event.get("rolls", {}).items()
        )
        return f"Initiative: {rolls}; {_side_title(rs, event['order'][0])} goes first."
    if t == "initiative_tie":
        return f"Initiative tied at {event['value']}; rolled again."
    if t == "attack":
        dice = " ".join(str(v) for v in event["dice"])
        prec = f" +{event['precision']}" if event.get("precision") else ""
        return (
            f"{event['by']} attacks {event['target']} ({event['kind']}): dice [{dice}]{prec} -> "
            f"{'hit, 1 damage' if event['hit'] else 'miss'}."
        )
    if t == "attack_declared":
        aim = event.get("target") or event["at"]
        return f"{event['unit']} attacks {aim} with {event['weapon']}."
    if t == "regrouped":
        return f"{event['unit']} regroups to {event['to']}" + (
            f", swapping with {event['swapped']}." if event.get("swapped") else "."
        )
    if t == "turn_started":
        return f"Round {event['turn']} begins."
    if t == "side_started":
        return f"{possessive(side)} turn."
    if t == "phase_started":
        return f"{side}: {PHASE_TITLES.get(event['phase'], event['phase'])} phase."
    if t == "eliminated":
        return f"{event['unit']} is eliminated."
    if t == "vp":
        return f"{side} +{event['vp']} VP ({event['why']}), total {event['total']}."
    if t == "moved":
        square = f" ({event['to']})" if event["to"] != event["segment"] else ""
        return f"{event['unit']} moves to {event['segment']}{square}."
    if t == "retreated":
        return f"{event['unit']} is pushed back to {event['segment']}."
    if t == "deployed":
        return f"{side} deploys {event['unit']} in {event['segment']}."
    if t == "plugged":
        return f"{side} plugs {_unit_name(rs, state, event['unit'])} into {event['host']}."
    if t == "deviation":
        if event.get("card") is None:
            return f"Deviation ({event['why']}): no card to draw, stays on {event['from']}."
        where = event["to"] or "off the map"
        return f"Deviation ({event['why']}): card {event['card']} shows {event['direction']}: {event['from']} -> {where}."
    if t == "gas_placed":
        return f"{event['unit']} lays a gas cloud on {event['at']}."
    if t == "gas_drift":
        return f"Gas cloud drifts from {event['from']} to {event['to'] or 'off the map'}."
    if t == "gas_removed":
        return f"Gas cloud on {event['at']} disperses."
    if t == "flag_placed":
        return f"{side} takes control of the objective {event['at']} (flag)."
    if t == "flag_removed":
        return f"{possessive(side)} flag on {event['at']} is taken down."
    if t == "captured":
        return f"{side} holds the objective {event['at']}."
    if t == "played":
        card = data.cards()["action"][event["card"]]
        target = event.get("unit") or event.get("to") or ""
        return f"{side} plays {card['name']}{' on ' + target if target else ''}."
    if t == "discarded":
        return f"{side} discards an action card."
    if t == "cards_drawn":
        return f"{side} draws {event['count']} {'action card' if event['deck'] == 'action' else 'secret mission'}(s)."
    if t == "card_drawn":
        card = data.cards()[event["deck"]][event["card"]]
        return f"You draw {card['name']}."
    if t == "reveal":
        card = data.cards()["secret"].get(event["card"])
        return f"{side} reveals the completed secret mission {card['name'] if card else event['card']}."
    if t == "wire_destroyed":
        return f"{event['unit']} flattens the barbed wire in {event['at']}."
    if t == "tank_shock":
        return f"{event['unit']} drives into {event['at']}: tank shock with {event['dice']} dice."
    if t == "no_retreat":
        return f"{event['unit']} has nowhere to fall back and is lost."
    if t == "paradrop":
        return f"{side} paratroopers jump over {event['at']}."
    if t == "paradrop_lost":
        return f"A paratrooper is lost: {event.get('why', 'drifted off the map')}."
    if t == "resources":
        return (
            f"{side} has {event['points']} deployment points and {event['rivets']} rivets"
            + (
                f", {event['infantry_points']} infantry-only points"
                if event.get("infantry_points")
                else ""
            )
            + (f", {event['free_units']} free infantry" if event.get("free_units") else "")
            + "."
        )
    if t == "points_lost":
        return f"{side} loses {event['points']} unspent deployment points."
    if t == "attack_lost":
        return f"The attack is lost: {event['why']}."
    if t == "reaction_window":
        return (
            f"{side} may answer the attack on {event['at']} with a reaction card "
            f"(/play a reaction card, or /pass)."
        )
    if t == "passed":
        return f"{side} plays no reaction card."
    if t == "covered":
        return f"{event['unit']} takes cover: Reinforced Defence (-1) until the end of this phase."
    if t == "repaired":
        return f"{event['unit']} is repaired."
    if t == "tied":
        return "Victory points are tied: play goes on until a round ends with a leader."
    if t == "game_over":
        winner = _side_title(rs, event["winner"]) if event.get("winner") else "Nobody"
        return f"Game over: {winner} wins ({event['reason']})."
    if t == "escalation_bonus":
        return f"Escalation: {side} gains {event['bonus']}."
    return None


def header(rs, state, lang="en"):
    """The turn post's fields; German ones in the rulebook's words (Runde, Siegpunkte, Nieten)."""
    term = lambda text: rs.term(text, lang)  # noqa: E731
    side = lambda s: rs.side_title(s, lang)  # noqa: E731
    out = {
        term("Round"): str(state.get("turn")),
        term("Phase"): term(PHASE_TITLES.get(state.get("phase"), str(state.get("phase")))),
        term("Active"): side(state.get("active")),
    }
    victory = state["mission"]["victory"]
    out[term("VP")] = " / ".join(f"{side(s)} {state['vp'][s]}/{victory[s]}" for s in rs.sides)
    out[term("Rivets")] = " / ".join(f"{side(s)} {state['rivets'][s]}" for s in rs.sides)
    if state.get("phase") == "deploy":
        active = state["active"]
        extra = state["infantry_points"][active]
        out[term("Points")] = str(state["points"][active]) + (
            f" (+{extra} {term('infantry')})" if extra else ""
        )
    if state.get("pending"):
        out[term("Waiting")] = f"{side(state['pending']['side'])}: {term(state['pending']['kind'])}"
    return out


def _static(rs, state):
    from .rules import board

    b = board(state)
    territory = state["mission"]["territory_of"]
    deploy = {
        label: side for side, labels in state["mission"]["deploy"].items() for label in labels
    }
    cells = []
    for seg in b.segments():
        label = seg_label(seg)
        kinds = list(state["terrain"].get(label, []))
        if label in deploy:
            kinds.append("deploy")
        for i, square in enumerate(squares_of(seg)):
            cell = {
                "at": squaregrid.label(square),
                "fill": WALKWAY_FILL
                if square in b.walkways
                else TERRITORY_FILL[territory.get(label)],
            }
            if i < len(kinds):
                cell["icon"] = ICON[kinds[i]]
                if kinds[i] == "deploy":
                    cell["icon_color"] = COLORS[deploy[label]]
            if i == 0:
                # a segment is named by its top-left square: that square's label stands out
                cell["strong_label"] = True
            cells.append(cell)
    edges = []
    for y in range(b.rows):
        for x in range(b.columns):
            if x % 2 == 1 and x + 1 < b.columns:
                edges.append(
                    {
                        "at": squaregrid.label((x, y)),
                        "to": squaregrid.label((x + 1, y)),
                        "color": "#222222",
                        "width": 5 if (x + 1) % 6 == 0 else 3,
                    }
                )
            if y % 2 == 1 and y + 1 < b.rows:
                edges.append(
                    {
                        "at": squaregrid.label((x, y)),
                        "to": squaregrid.label((x, y + 1)),
                        "color": "#222222",
                        "width": 5 if (y + 1) % 6 == 0 else 3,
                    }
                )
    return b, cells, edges


def scene(rs, state, events, viewer, lang="en"):
    from .rules import roster

    side_title = lambda s: rs.side_title(s, lang)  # noqa: E731
    b, cells, edges = _static(rs, state)
    key = hashlib.sha256(json.dumps(cells, sort_keys=True).encode()).hexdigest()[:12]
    pieces = []
    occ_slots: dict[str, int] = {}
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        spec = roster(state)[u["type"]]
        title = spec.get("short", spec["name"][:5])
        plugs = "".join("+" + roster(state)[p].get("short", "P") for p in u["plugins"])
        hp = rs.hp(state, uid)
        piece = {
            "at": u["at"],
            "id": uid,
            "color": COLORS[u["side"]],
            "text_color": "#ffffff",
            "title": title,
            "values": f"{hp - u['damage']}/{hp}",
        }
        if plugs:
            # plug-ins on a line of their own: "Rifle+Sturm" in one line was cut to "Sturm+…"
            piece["subtitle"] = plugs
        if u["damage"]:
            piece["badge"] = str(u["damage"])
        pieces.append(piece)
        occ_slots[u["at"]] = 1
    objectives = []
    markers = []
    for label, kinds in sorted(state["terrain"].items()):
        if "objective" in kinds:
            seg = b.parse_seg(label)
            owner = state["flags"].get(label)
            first = squaregrid.label(squares_of(seg)[0])
            objectives.append(
                {"at": first, "name": label, "owner": owner, "color": COLORS.get(owner, "#777777")}
            )
            if owner:
                markers.append({"at": first, "kind": "flag", "color": COLORS[owner]})
    for cloud in state["clouds"]:
        seg = b.parse_seg(cloud["at"])
        left = max(0, 2 - (state["turn"] - cloud["placed"]))
        for i, square in enumerate(squares_of(seg)):
            m = {"at": squaregrid.label(square), "kind": "gas", "color": "#9acd32"}
            if i == 0:
                m["text"] = str(left)
            markers.append(m)
    arrows: list[dict] = []
    labels: list[dict] = []
    for e in events:
        if e.get("private") and e["private"] != viewer:
            continue
        if e.get("type") in ("moved", "retreated") and e.get("from") and e.get("to"):
            arrows.append({"path": [e["from"], e["to"]], "color": "#222222", "kind": "move"})
        if e.get("type") == "attack_declared":
            seg = b.parse_seg(e["at"])
            arrows.append(
                {
                    "path": [e["from"], squaregrid.label(squares_of(seg)[0])],
                    "color": "#000000",
                    "kind": "attack",
                    "text": word(e["weapon"], lang),
                    "rolls": [],
                }
            )
        if e.get("type") == "attack":
            # dice as separate values ("5 2", never "52"), hit or miss spelled out
            outcome = word("hit" if e["hit"] else "miss", lang)
            roll = f"{' '.join(str(v) for v in e['dice']) or '-'} {outcome}"
            cloud = str(e.get("by", ""))
            if e.get("kind") == "gas" and cloud.startswith("gas cloud at "):
                # a cloud's attack is shown at the cloud, not on the arrow of who laid it
                seg = b.parse_seg(cloud[len("gas cloud at ") :])
                labels.append(
                    {
                        "at": squaregrid.label(squares_of(seg)[0]),
                        "text": f"{word('gas', lang)}: {roll}",
                        "color": "#5b7f12",
                    }
                )
            elif arrows and arrows[-1]["kind"] == "attack":
                arrows[-1]["rolls"].append(roll)
    for arrow in arrows:
        rolls = arrow.pop("rolls", None)
        if rolls:
            arrow["text"] += ": " + ", ".join(rolls)
    # Most important first: the picture's header has room for few lines.
    notes = []
    if state.get("result"):
        result = state["result"]
        if lang == "en":
            notes.append(describe_event(rs, state, {"type": "game_over", **result}))
        else:
            winner = side_title(result["winner"]) if result.get("winner") else word("Nobody", lang)
            notes.append(f"{word('Game over', lang)}: {winner} {word('wins', lang)}")
    if viewer in rs.sides:
        hand = [data.cards()["action"][c]["name"] for c in state["hands"][viewer]]
        secrets = [data.cards()["secret"][c]["name"] for c in state["secrets"][viewer]]
        notes.append(
            f"{word('Your hand', lang)}: {', '.join(hand) or '-'}; "
            f"{word('your secret missions', lang)}: {', '.join(secrets) or '-'}"
        )
    notes.append(
        word("Held", lang)
        + ": "
        + " · ".join(
            f"{side_title(s)} {len(state['hands'][s])} {word('card(s)', lang)}, "
            f"{len(state['secrets'][s])} {word('mission(s)', lang)}"
            for s in rs.sides
        )
    )
    return {
        "map_key": f"rivet-wars/{state['mission']['tiles'].replace(' ', '')}/{key}",
        "grid": {"kind": "square", "columns": b.columns, "rows": b.rows},
        "title": f"{rs.title} - {state['mission'].get('title') or state['scenario']}",
        "lang": lang,
        "cells": cells,
        "edges": edges,
        "objectives": objectives,
        "pieces": distinguish_titles(pieces),
        "markers": markers,
        "arrows": arrows,
        "labels": labels,
        "header": [[k, v] for k, v in header(rs, state, lang).items()],
        "legend": [{"color": COLORS[s], "text": side_title(s)} for s in rs.sides],
        "notes": notes,
        "terrain_key": [{**k, "text": word(k["text"], lang)} for k in TERRAIN_KEY],
        "losses": [
            {
                "color": COLORS[s],
                "text": f"{side_title(s)} {word('lost:', lang)}",
                "units": [_lost_title(state, lost) for lost in state.get("lost", {}).get(s, [])],
            }
            for s in rs.sides
        ],
    }


def _lost_title(state, lost):
    from .rules import roster

    names = roster(state)
    return "+".join(
        names[t].get("short", names[t]["name"][:5]) if t in names else t for t in lost["types"]
    )


SUMMARY_EN = """**Rivet Wars: Eastern Front** — Allies against the Bismark.
The map is made of segments (2x2 squares, named by their top-left square, e.g. `C3`); movement and range count segments, at most one diagonal each.
Each round starts with an initiative roll (ties re-rolled). On your turn:
1. **Cards**: `/discard` one action card if you like, `/end-phase` draws one (hand of 3; not on the game's very first turn) and secret missions up to 2.
2. **Deployment**: `/deploy unit:<type> to:<deployment segment>` (plug-ins `to:<own unit>` in your territory); unspent points are lost, rivets are kept; heroes once per game.
3. **Combat**: activate segment by segment; each unit attacks once per attack on its card (`/attack unit to:<segment>`, snipers `target:<unit>`) or uses an [Action] (`/rush`); `/advance` is Quick Advance. Dice from the attack chart against the target's armour; an attack with at least one 5+ deals exactly 1 damage, however many 5s and 6s it rolls. Targets follow the defender's square priority.
   When the enemy attacks a segment holding your units and you hold action cards, the game waits for you: `/play` a reaction card (Take Cover!) on a unit there, or `/pass`.
4. **Movement**: `/move unit to:<adjacent segment>`, one segment per point, one diagonal per activation, never into enemy segments; `/regroup` inside a segment.
5. **Rally**: objectives you hold (unit at the end of your turn, or your flag) score, completed secret missions score, loot scores at once.
Reach the mission's victory points first; the round is always finished, and a tie plays on."""

SUMMARY_DE = """**Rivet Wars: Eastern Front** — Alliierte gegen Bismark.
Das Spielfeld besteht aus Segmenten (2x2 Felder, benannt nach dem Feld oben links, z. B. `C3`); Bewegung und Reichweite zählen Segmente, höchstens eine Diagonale.
Jede Runde beginnt mit dem Initiativewurf (bei Gleichstand neu). In deinem Zug:
1. **Karten**: mit `/discard` eine Action!-Karte abwerfen, `/end-phase` zieht eine (max. 3; nicht im allerersten Zug) und Geheime Missionen bis 2.
2. **Aufstellung**: `/deploy unit:<Typ> to:<Aufstellungssegment>` (Aufstecker `to:<eigene Einheit>` im eigenen Gebiet); übrige Punkte verfallen, Rivets bleiben; Helden einmal pro Spiel.
3. **Kampf**: Segment für Segment aktivieren; jede Einheit greift so oft an wie ihre Karte sagt (`/attack unit to:<Segment>`, Scharfschützen `target:<Einheit>`) oder nutzt eine [Aktion] (`/rush`); `/advance` ist Schneller Vorstoß. Würfel laut Angriffsübersicht gegen die Rüstung; ein Angriff mit mindestens einer 5+ macht genau 1 Schaden, egal wie viele Fünfen und Sechsen fallen. Ziele nach der Zielrangfolge des Verteidigers.
   Greift der Gegner ein Segment mit deinen Einheiten an und du hast Action!-Karten, wartet das Spiel auf dich: `/play` eine Reaktionskarte (In Deckung!) auf eine Einheit dort, oder `/pass`.
4. **Bewegung**: `/move unit to:<Nachbarsegment>`, ein Segment pro Punkt, eine Diagonale pro Aktivierung, nie in Segmente mit Feinden; `/regroup` innerhalb des Segments.
5. **Sammeln**: gehaltene strategische Ziele (Einheit am Zugende oder eigene Flagge), erfüllte Geheime Missionen und Beute bringen Siegpunkte.
Wer zuerst die Siegpunkte der Mission erreicht, gewinnt; die Runde wird zu Ende gespielt, bei Gleichstand geht es weiter."""


def rules_summary(locale="en"):
    return SUMMARY_DE if str(locale).lower().startswith("de") else SUMMARY_EN
