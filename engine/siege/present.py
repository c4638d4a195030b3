"""How a SIEGE game looks: names, event lines, header and the scene the renderer draws.
No rules are decided here."""

from __future__ import annotations

import re

from . import (
    camp,
    data,
    days,
    engines,
    figures,
    fire,
    oil,
    panic,
    riders,
    shield,
    siege_sheet,
    sight,
    tower,
    wagons,
)

# Side colours stay apart from every terrain fill also with colour blindness (a brick red
# sank into the keep door's brown with deuteranopia), hence the besiegers' orange-red.
COLORS = {"besieger": "#ff5500", "defender": "#1f5f99"}
# Stunned counters are light versions of their side's colour with dark text: told apart from
# healthy ones at phone size, where the S badge alone is a few pixels. Chosen to stay apart
# from every terrain fill also with colour blindness (a pale red sank into the gateway's sand
# with deuteranopia), so the besiegers' is amber.
STUNNED_COLORS = {"besieger": "#ffb000", "defender": "#b8e0ff"}
DEAD = "#555555"
STEP_TITLES = {
    "prepare": "before the assault",
    "fire1": "1 bows and crossbows",
    "move": "2 movement",
    "fire2": "3 bows again",
    "melee": "4 melee",
}
# The picture's own words in German, in the rulebook's terms where it has them (Belagerer,
# Verteidiger, Belagerungsturm, Widder, Balliste, Zugbrücke, Brustwehr, Schießscharten, Panik,
# Flucht, Bresche). Figure and engine names are game data and stay.
PICTURE_WORDS = {
    "de": {
        "Besiegers": "Belagerer",
        "Defenders": "Verteidiger",
        "Round": "Runde",
        "Day": "Tag",
        "Step": "Schritt",
        "Active": "Am Zug",
        "Bridge": "Zugbrücke",
        "Fires": "Feuer",
        "Kindling": "Feuer legen",
        "Melee": "Nahkampf",
        "Engines": "Maschinen",
        "Walls": "Mauern",
        "Engine damage": "Maschinenschaden",
        "Horses": "Pferde",
        "Wagons": "Wagen",
        "Result": "Ergebnis",
        "Objective": "Ziel",
        "up": "hoch",
        "down": "unten",
        "winch": "Winde",
        "of": "von",
        "round": "Runde",
        "win": "gewinnen",
        "draw": "unentschieden",
        "before the assault": "vor dem Sturm",
        "1 bows and crossbows": "1 Bogen und Armbrüste",
        "2 movement": "2 Bewegung",
        "3 bows again": "3 Bogen erneut",
        "4 melee": "4 Nahkampf",
        "off the map": "außerhalb",
        "repairing": "in Reparatur",
        "lightly damaged": "leicht beschädigt",
        "damaged": "beschädigt",
        "badly damaged": "schwer beschädigt",
        "destroyed": "zerstört",
        "ridden by": "geritten von",
        "riderless": "ohne Reiter",
        "dead": "tot",
        "drawn by": "gezogen von",
        "unharnessed": "ohne Gespann",
        "siege tower": "Belagerungsturm",
        "ballista": "Balliste",
        "catapult": "Katapult",
        "onager": "Onager",
        "horse": "Pferd",
        "ox": "Ochse",
        "no rider": "o.Reiter",
        "ram": "Widder",
        "PANIC": "PANIK",
        "ROUT": "FLUCHT",
        "Keep (3)": "Bergfried (3)",
        # terrain key
        "moat": "Graben",
        "open ground": "offenes Gelände",
        "courtyard": "Burghof",
        "parapet": "Brustwehr",
        "inside of a tower": "im Turm",
        "inside of the keep": "im Bergfried",
        "thicket": "Dickicht",
        "tree": "Baum",
        "slope": "Hang",
        "top of the hill": "Hügelkuppe",
        "tent": "Zelt",
        "burnt tent": "verbranntes Zelt",
        "trench": "Graben (Lager)",
        "at the edge": "am Rand",
        "{kind} {cost}pt {cover}": "{kind} {cost} P., {cover} Deckung",
        "vs": "gegen",
        "point(s) to take among": "Punkt(e) zu verteilen auf",
        # a shot's range band and the target's cover on its arrow
        "short": "kurz",
        "long": "weit",
        "none": "keine",
        "light": "leichte",
        "medium": "mittlere",
        "heavy": "schwere",
        "full": "volle",
        # notes
        (
            "Levels: moat 0, ground 1, walls and towers 2, keep 3. Badges: S stunned (light counter), "
            "W wounded, + dead (grey). Thick dark sides: battlements; yellow: arrow slit openings."
        ): (
            "Höhen: Graben 0, Boden 1, Mauern und Türme 2, Bergfried 3. Zeichen: S bewusstlos "
            "(heller Marker), W verwundet, + tot (grau). Dicke dunkle Seiten: Zinnen; gelb: "
            "Schießscharten."
        ),
        (
            "Badges: S stunned (light counter), W wounded, + dead (grey). Thick brown sides: the "
            "slope edge between the hill's top and its slope. Trees block shots, tents stop shots "
            "through them until burnt, trenches give heavy cover."
        ): (
            "Zeichen: S bewusstlos (heller Marker), W verwundet, + tot (grau). Dicke braune Seiten: "
            "die Hangkante zwischen Kuppe und Hang. Bäume sperren Schüsse, Zelte halten Schüsse "
            "auf, bis sie verbrannt sind, Gräben geben schwere Deckung."
        ),
        "Siege tower (outlined): upper counters stand on its top (level 2), lower ones inside.": (
            "Belagerungsturm (umrandet): obere Marker stehen oben (Höhe 2), untere darin."
        ),
        "Red ring and flame with a number: a fire and the rounds it has burned (destroyed after {n}).": (
            "Roter Ring und Flamme mit Zahl: ein Feuer und seine Runden (zerstört nach {n})."
        ),
        "Dark ring O: a pot of boiling oil (with its carrier).": (
            "Dunkler Ring O: ein Topf siedendes Öl (mit seinem Träger)."
        ),
        "Thick slate side: a siege shield laid along it (cover behind it); Sh: a shield carried.": (
            "Dicke schiefergraue Seite: ein aufgestellter Schild (Deckung dahinter); Sh: ein "
            "getragener Schild."
        ),
        "Magenta ring and star with its step (of 4): a damaged wall.": (
            "Magentaroter Ring und Stern mit Stufe (von 4): eine beschädigte Mauer."
        ),
        "Horse: two counters joined by a bar, the rider's counter at its front.": (
            "Pferd: zwei durch einen Balken verbundene Marker, der des Reiters vorn."
        ),
        "Badge P: panic, R: rout (the figure flees).": "Zeichen P: Panik, R: Flucht (flieht).",
        "Melee forming": "Nahkampf wird gebildet",
    }
}
# The game's terms for a reader of another language: side names, the turn counter and the
# steps as the Discord layer names them (flow lines, "waiting for", refusals' side names).
TERMS = {
    "de": {
        "Besiegers": "Belagerer",
        "Defenders": "Verteidiger",
        "Round": "Runde",
        "Turn": "Runde",
        "Day": "Tag",
        "prepare": "vor dem Sturm",
        "fire1": "1 Bogen und Armbrüste",
        "move": "2 Bewegung",
        "fire2": "3 Bogen erneut",
        "melee": "4 Nahkampf",
        "Panic and rout": "Panik und Flucht",
        "Aiming": "Zielen",
    }
}
BATTLEMENT_EDGE = "#2b2b2b"
SLIT_EDGE = "#f1c40f"
TOWER_EDGE = "#6e2c00"
# The terrain key under the map: one swatch per height level family, with its level.
KEY_KINDS = ("moat", "open", "courtyard", "parapet", "tower", "keep")


def word(text: str, lang: str) -> str:
    """``text`` as the picture shows it to a reader of ``lang``."""
    return PICTURE_WORDS.get(lang, {}).get(text, text)


def figure_label(state: dict, fid: str) -> str:
    f = state["figures"].get(fid)
    if not f:
        return fid
    kind = data.figure_types()[f["type"]]["title"]
    where = {"top": " (on top of the siege tower)", "inside": " (inside the siege tower)"}.get(
        tower.where(state, f) or "", ""
    )
    return f"{f['name']} ({kind}, {figures.state_word(f)}) at {f['at']}{where}"


def describe(ruleset, state: dict, key: str, value: str) -> str:
    if key in ("unit", "target"):
        return figure_label(state, value)
    return value


def figure_label_de(ruleset, state: dict, fid: str) -> str:
    """``figure_label`` for a German reader: kind, state and place in the rulebook's words
    (Bogenschütze, bewusstlos, Belagerungsturm); the figure's name is game data and stays."""
    f = state["figures"].get(fid)
    if not f:
        return fid
    kind = data.figure_types()[f["type"]]["title"]
    where = {"top": " (oben auf dem Belagerungsturm)", "inside": " (im Belagerungsturm)"}.get(
        tower.where(state, f) or "", ""
    )
    return (
        f"{f['name']} ({ruleset.term(kind, 'de')}, {state_word_de(figures.state_word(f))}) "
        f"auf {f['at']}{where}"
    )


def unit_facts(ruleset, state: dict, fid: str, lang: str = "en") -> list[str]:
    """``/info unit:``: the figure's kind and weapon, its state with that state's factors, and
    whether it stands in or on a siege tower."""
    f = state["figures"].get(fid)
    if not f:
        return []
    kind = data.figure_types()[f["type"]]
    factors = kind["wounded" if f["wounded"] else "healthy"]
    weapon = kind.get("weapon")
    where = tower.where(state, f)
    if lang == "de":
        lines = [
            f"Art: {ruleset.term(kind['title'], 'de')}"
            + (f" ({WEAPONS_DE.get(weapon, weapon)})" if weapon else ""),
            f"Zustand: {state_word_de(figures.state_word(f))}; Bewegung {factors['move']}, "
            f"Angriff {factors['attack']}, Verteidigung {factors['defence']}",
        ]
        if where:
            lines.append("oben auf dem Belagerungsturm" if where == "top" else "im Belagerungsturm")
        return lines
    lines = [
        f"Kind: {kind['title']}" + (f" ({weapon})" if weapon else ""),
        f"State: {figures.state_word(f)}; move {factors['move']}, attack {factors['attack']}, "
        f"defence {factors['defence']}",
    ]
    if where:
        lines.append("on top of the siege tower" if where == "top" else "inside the siege tower")
    return lines


def cell_facts(ruleset, state: dict, cell: str, lang: str = "en") -> list[str]:
    """``/info cell:``: the cell's terrain with its height level, the cover a figure in it has,
    what entering it costs on foot and its effect on melee (the terrain table, 1.1, 2.1, 3.1)."""
    board = ruleset.board(state)
    if cell not in board:
        return []
    c = board.cell(cell)
    melee = MELEE_WORDS["de" if lang == "de" else "en"].get(c.melee, c.melee)
    if lang == "de":
        cost = f"Bewegungskosten {c.cost}" if c.cost is not None else "zu Fuß nicht betretbar"
        return [
            f"Gelände: {ruleset.term(c.title, 'de')} (Höhe {c.level}); Deckung "
            f"{sight.COVER_DE.get(c.cover, c.cover)}; {cost}; Nahkampf {melee}"
        ]
    cost = f"movement cost {c.cost}" if c.cost is not None else "impassable on foot"
    return [f"Terrain: {c.title} (level {c.level}); cover {c.cover}; {cost}; melee {melee}"]


# The terrain chart's melee sign for a reader: whoever stands there, attacking or defending,
# fights one column of the melee table better (+) or worse (-) (data/siege/terrain.json).
MELEE_WORDS = {
    "en": {
        "+": "+ (a figure here fights one column better, 1.7)",
        "0": "0 (no effect)",
        "-": "- (a figure here fights one column worse, 1.7)",
    },
    "de": {
        "+": "+ (eine Figur hier kämpft eine Spalte besser, 1.7)",
        "0": "0 (keine Wirkung)",
        "-": "- (eine Figur hier kämpft eine Spalte schlechter, 1.7)",
    },
}


def label(ruleset, state: dict, key: str, value: str, lang: str = "en") -> str:
    """``describe`` for a reader of ``lang`` (autocomplete, the hints of a refusal)."""
    if lang == "de" and key in ("unit", "target"):
        return figure_label_de(ruleset, state, value)
    return describe(ruleset, state, key, value)


def header(ruleset, state: dict) -> dict[str, str]:
    out = {
        "Round": f"{state['turn']} / {state['last_turn']}",
        "Step": STEP_TITLES.get(state["phase"], state["phase"]),
        "Active": ruleset.side_titles.get(state["active"], state["active"]),
        "Bridge": ("up" if state["bridge_up"] else "down")
        + (
            f" (winch: {state['figures'][state['winch']['unit']]['name']})"
            if state.get("winch")
            else ""
        ),
    }
    if not ruleset.board(state).drawbridge:  # the camp has no drawbridge to report
        out.pop("Bridge")
    out.update(fire.header(state))
    days.header_fields(state, out)
    if state.get("pending"):
        out["Melee"] = (
            ", ".join(state["figures"][a]["name"] for a in state["pending"]["attackers"])
            + " vs "
            + ", ".join(state["figures"][d]["name"] for d in state["pending"]["defenders"])
            + (f"horse {state['pending']['horse']}" if state["pending"].get("horse") else "")
        )
    out.update(engines.header_lines(state))
    if riders.header_line(state):
        out["Horses"] = riders.header_line(state) or ""
    if wagons.header_line(state):
        out["Wagons"] = wagons.header_line(state) or ""
    if state.get("result"):
        winner = state["result"].get("winner")
        out["Result"] = (ruleset.side_titles.get(winner, "draw") + " win") if winner else "draw"
    return out


def picture_header(ruleset, state: dict, lang: str = "en") -> list[list[str]]:
    """The header over the picture: the text header's fields in the reader's language, the
    engines, horses and wagons shortened to what fits a phone's width (their counters are on
    the map; the full lines are in the text header)."""
    w = lambda text: word(text, lang)  # noqa: E731
    full = header(ruleset, state)
    out: dict[str, str] = {}
    for key, value in full.items():
        if key == "Step":
            value = w(value)
        elif key == "Active":
            value = w(ruleset.side_titles.get(state["active"], state["active"]))
        elif key == "Bridge":
            value = w("up" if state["bridge_up"] else "down") + (
                f" ({w('winch')}: {state['figures'][state['winch']['unit']]['name']})"
                if state.get("winch")
                else ""
            )
        elif key == "Day":
            per_day = state["rounds_per_day"]
            value = (
                f"{state['day']} {w('of')} {state['days']}, {w('round')} "
                f"{state['turn'] - (state['day'] - 1) * per_day} {w('of')} {per_day}"
            )
        elif key == "Walls":
            value = ", ".join(
                f"{c} {w(siege_sheet.step_name(v['step']))}"
                for c, v in sorted(state.get("siege_sheet", {}).items())
                if v.get("step")
            )
        elif key == "Engines":
            value = engines.picture_line(state, w) or ""
        elif key == "Horses":
            value = "; ".join(
                f"{hid} {w('dead')} {'-'.join(h['cells'])}"
                if h["dead"]
                else f"{hid} {'-'.join(h['cells'])} "
                + (
                    f"{w('ridden by')} {state['figures'][h['rider']]['name']}"
                    if h["rider"]
                    else w("riderless")
                )
                for hid, h in sorted(state.get("horses", {}).items())
            )
        elif key == "Wagons":
            value = "; ".join(
                f"{wid} {'-'.join(wg['cells'])} ({w(ruleset.side_titles[wg['side']]) if lang != 'en' else wg['side']}) "
                + (f"{w('drawn by')} {wg['animal']}" if wg["animal"] else w("unharnessed"))
                for wid, wg in sorted(state.get("wagons", {}).items())
            )
        elif key == "Melee":
            value = value.replace(" vs ", f" {w('vs')} ")
            if state["pending"].get("horse"):
                struck = f"horse {state['pending']['horse']}"
                value = value.replace(struck, f"{w('horse')} {state['pending']['horse']}")
        elif key == "Objective" and lang == "de":
            value = _goal_line_de(ruleset, state)
        elif key == "Engine damage":
            damage = state["engine_damage"]
            value = (
                f"{damage['points']} {w('point(s) to take among')} "
                f"{', '.join(damage['among'])} (/damage)"
            )
        elif key == "Result":
            winner = state["result"].get("winner")
            value = (
                f"{w(ruleset.side_titles.get(winner, 'draw'))} {w('win')}" if winner else w("draw")
            )
        out[w(key)] = value
    return [list(kv) for kv in out.items()]


def _goal_line_de(ruleset, state: dict) -> str:
    """``fire._goal_line`` for a German reader (3.5: the side that burns the camp wins)."""
    goal = fire.burn_goal(state) or {}
    parts = [
        f"{e} ({'zerstört' if e not in (state.get('engines') or {}) else 'steht'})"
        for e in goal.get("engines", [])
    ]
    if goal.get("tents"):
        parts.append(f"{goal['tents']} Zelte ({fire.burnt_tents(state)} abgebrannt)")
    side = ruleset.term(ruleset.side_titles.get(goal.get("by"), "?"), "de")
    return f"{side} gewinnen, wenn sie verbrennen: " + ", ".join(parts)


def localised_header(ruleset, state: dict, lang: str = "en") -> dict[str, str]:
    """The turn post's and ``/game status``'s header for a reader of ``lang``: the picture's
    header fields in that language (engines, horses and wagons shortened as there)."""
    if lang == "en":
        return header(ruleset, state)
    return dict(picture_header(ruleset, state, lang))


def _static(board, lang: str = "en") -> dict:
    kinds = data.terrain()["kinds"]
    cells, edges = [], []
    for lab in board.labels():
        cell = board.cell(lab)
        cells.append({"at": lab, "fill": kinds[cell.kind].get("fill", "#cccccc")})
        for other in sorted(cell.openings):
            if cell.kind in ("parapet", "keep-parapet"):
                edges.append({"at": lab, "to": other, "color": BATTLEMENT_EDGE, "width": 5})
            else:
                edges.append({"at": lab, "to": other, "color": SLIT_EDGE, "width": 3})
    buildings: dict[str, list[str]] = {}
    for lab in board.labels():
        ident = board.cell(lab).building
        if ident:
            buildings.setdefault(ident, []).append(lab)
    # Towers and the keep outlined (they stand above the walls: level 2 and 3).
    regions = [
        {
            "cells": cells_of,
            "outline": "#3b2f24",
            "width": 3,
            **({"label": word("Keep (3)", lang)} if ident.startswith("keep") else {}),
        }
        for ident, cells_of in sorted(buildings.items())
    ]
    edges += camp.slope_edges(board)
    return {"cells": cells, "edges": edges, "regions": regions}


def _badge(f: dict) -> str:
    """Stunned is shown as a badge, not as a turned-over counter: the renderer labels turned
    counters as disorganised, a different thing."""
    if f["dead"]:
        return ""
    return ("S" if f["stunned"] else "") + ("W" if f["wounded"] else "") + panic.badge(f)


def scene(ruleset, state: dict, events: list[dict], viewer, lang: str = "en") -> dict:
    w = lambda text: word(text, lang)  # noqa: E731
    board = ruleset.board(state)
    static = _static(board, lang)
    pieces = []
    towers = tower.cells_of(state)
    for fid, f in sorted(state["figures"].items(), key=lambda kv: (not kv[1]["dead"], kv[0])):
        if f.get("off_map"):  # fled off the map in panic or rout: never comes back
            continue
        v = figures.values(f)
        # In a siege tower the upper counters stand on its top, the lower ones inside (2.4).
        slot = (
            {"slot": 0 if tower.layer(f) == tower.TOP else 2}
            if f["at"] in towers and not f["dead"]
            else {}
        )
        stunned = f["stunned"] and not f["dead"]
        pieces.append(
            {
                "at": f["at"],
                "id": fid,
                "color": DEAD if f["dead"] else (STUNNED_COLORS if stunned else COLORS)[f["side"]],
                **({"text_color": "#1b1b1b"} if stunned else {}),
                "title": ("+" if f["dead"] else "") + f["name"][:8],
                "values": f"{v['attack']}-{v['defence']}-{v['move']}",
                **({"badge": _badge(f)} if _badge(f) else {}),
                **slot,
            }
        )
    riders.draw(state, pieces, COLORS, DEAD, w)
    wagons.draw(state, pieces, COLORS)
    # A raised ladder: the plain ladder mark; lying: "=" ; carried: "c" (marker text is tiny).
    markers = [
        {
            "at": lad["at"],
            "kind": "ladder",
            **({} if lad["raised"] else {"text": "c" if lad.get("carriers") else "="}),
        }
        for _, lad in sorted(state.get("ladders", {}).items())
    ]
    markers += [{"at": cell, "kind": "highlight", "color": TOWER_EDGE} for cell in sorted(towers)]

    markers += fire.markers(state) + oil.markers(state) + shield.markers(state)
    labels = [
        {"at": t["cells"][0], "text": f"{w('siege tower')} {tid}", "color": TOWER_EDGE}
        for tid, t in sorted(state.get("towers", {}).items())
    ]
    engine_pieces, engine_markers, engine_labels = engines.scene_parts(state, w)
    pieces, markers, labels = (
        pieces + engine_pieces,
        markers + engine_markers,
        labels + engine_labels,
    )
    labels += panic.labels(state, w)
    arrows = []
    for e in events:
        if e.get("type") in ("moved", "advanced", "retreated", "fled"):
            path = e.get("path") or [e["from"], e["to"]]
            side = state["figures"].get(e["unit"], {}).get("side")
            arrows.append({"path": path, "color": COLORS.get(side, "#222222"), "kind": "move"})
        elif e.get("type") == "shot":
            text = f"{w(e['band'])} {w(e['cover'])}: {e['roll']}{e['modifier']:+d} {e['letter']}"
            arrows.append(
                {"path": [e["from"], e["to"]], "color": "#000000", "kind": "attack", "text": text}
            )
        elif e.get("type") == "melee":
            target = (
                state["figures"][e["defenders"][0]]["at"]
                if e["defenders"]
                else state["horses"][e["horse"]]["cells"][0]
            )
            for aid in e["attackers"]:
                arrows.append(
                    {
                        "path": [state["figures"][aid]["at"], target],
                        "color": "#000000",
                        "kind": "attack",
                        "text": f"{e['column']} {e['roll']} {e['letter']}",
                    }
                )
    notes = [
        (
            "Levels: moat 0, ground 1, walls and towers 2, keep 3. Badges: S stunned (light counter), "
            "W wounded, + dead (grey). Thick dark sides: battlements; yellow: arrow slit openings."
        )
    ]
    notes = camp.notes(board) or notes  # the castle's levels and battlements are not on the camp
    if towers:
        notes.append(
            "Siege tower (outlined): upper counters stand on its top (level 2), lower ones inside."
        )
    if any(v.get("step") for v in state.get("siege_sheet", {}).values()):
        notes.append("Magenta ring and star with its step (of 4): a damaged wall.")
    if any(not h["dead"] for h in state.get("horses", {}).values()):
        notes.append("Horse: two counters joined by a bar, the rider's counter at its front.")
    if any(f.get("panic") and not f["dead"] for f in state["figures"].values()):
        notes.append("Badge P: panic, R: rout (the figure flees).")
    notes = [w(n) for n in notes]
    notes += fire.notes(state, w) + [w(n) for n in oil.notes(state) + shield.notes(state)]
    kinds = data.terrain()["kinds"]
    if state.get("pending"):
        melee = dict(picture_header(ruleset, state, lang))[w("Melee")]
        notes.append(w("Melee forming") + ": " + melee)
    key = f"siege/{board.name}" + "".join(f"+{c}{k[0]}" for c, k in board.counters)
    # Laid shields are drawn as hexsides of the static layer, so they are part of its key.
    key += "".join(f"+{at}|{faces}" for at, faces in sorted(shield.laid(state).items()))
    static["edges"] = static["edges"] + shield.edges(state)
    return {
        "map_key": key,
        "title": ruleset.title,
        "grid": {"kind": "hex", "columns": board.columns, "rows": board.rows},
        **static,
        "pieces": pieces,
        "arrows": arrows,
        "markers": markers,
        "lang": lang,
        "header": picture_header(ruleset, state, lang),
        "legend": [{"color": c, "text": w(ruleset.side_titles[s])} for s, c in COLORS.items()],
        "notes": notes,
        "labels": labels,
        "terrain_key": camp.terrain_key(board, w)
        or [
            {"color": kinds[k]["fill"], "text": f"{w(kinds[k]['title'])} {kinds[k]['level']}"}
            for k in KEY_KINDS
        ],
    }


SUMMARY_EN = """**SIEGE** (Cry Havoc family: castle and camp maps, horses, engines, fire, long sieges).
Before the assault (and each morning of a long siege) the besieger may `/fill` the moat, `/breach`
a wall, `/place` a siege tower, `/emplace` an engine, `/aim` onagers and catapults at a wall and
`/bombard` it, or `/repair` them (`/damage`: which one a result C hits).
Each side's phase has four steps:
1. bows and crossbows `/shoot` (not after a melee last round), a ballista `/bolt`s, bows shoot a
   `/firearrow` at engines;
2. `/move` (`level:top`: a tower's platform), `/winch` the bridge, ladders `/carry` `/raise`
   `/shift` `/drop`, `/face` in a doorway, `/roll` a tower or `/drive` a ram (three inside),
   `/mount` `/dismount` (a whole round), `/lead` a horse, `/harness` `/unharness` a wagon,
   `/kindle` a fire, `/lift` an oil pot or shield, `/lay` a shield;
3. bows shoot again; 4. `/attack` forms a melee, `/fight` rolls it (or `/cancel`), `/push` a
   ladder, `/batter` with a ram, `/douse` a fire, `/pour` oil.
`/end-phase` ends a step. After a melee: `/take` a result, `/retreat`, `/advance` or `/stay`; a
falling or thrown figure's owner picks where it lands (`/land`).
Shots: d10 + range/state modifier against cover; melee: odds shifted by terrain. Results: A killed,
B wounded, C stunned, D defenders retreat, E attackers retreat, F an attacker stunned.
`/los from: to:` explains any sight line. At a day's end the wounded roll for healing.
Optional rules (`/game new rules:`): panic and rout (`/panic` picks who panics), aiming.
Our tables approximate the play aid (docs/rules/siege.md)."""

SUMMARY_DE = """**SIEGE** (Cry-Havoc-Familie: Burg und Lager, Pferde, Maschinen, Feuer, lange Belagerungen).
Vor dem Sturm (und jeden Morgen einer langen Belagerung) darf der Belagerer den Graben füllen
(`/fill`), Mauern brechen (`/breach`), einen Turm aufstellen (`/place`), eine Maschine aufstellen
(`/emplace`), Onager und Katapulte richten (`/aim`) und würfeln (`/bombard`) oder reparieren
(`/repair`; `/damage`: welche Ergebnis C trifft).
Jede Phase hat vier Schritte:
1. Schützen schießen (`/shoot`, nicht nach Nahkampf letzte Runde), die Balliste (`/bolt`),
   Brandpfeile auf Maschinen (`/firearrow`);
2. `/move` (`level:top`: Turmplattform), `/winch` Zugbrücke, Leitern `/carry` `/raise` `/shift`
   `/drop`, `/face` in der Tür, `/roll` Turm oder `/drive` Widder (drei darin), `/mount`
   `/dismount` (ganze Runde), `/lead` Pferd führen, `/harness` `/unharness` Wagen, `/kindle`
   Feuer legen, `/lift` Öltopf oder Schirm, `/lay` Schirm;
3. Schützen schießen erneut; 4. `/attack` bildet einen Kampf, `/fight` würfelt (oder
   `/cancel`), `/push` Leiter, `/batter` Widder, `/douse` löschen, `/pour` Öl.
`/end-phase` beendet einen Schritt. Nach dem Nahkampf: `/take`, `/retreat`, `/advance` oder
`/stay`; wo eine stürzende oder abgeworfene Figur landet, wählt ihr Besitzer (`/land`).
Schüsse: W10 + Modifikator gegen Deckung; Nahkampf: Verhältnis, verschoben durch Gelände.
Ergebnisse: A tot, B verwundet, C bewusstlos, D Verteidiger weichen, E Angreifer weichen, F ein Angreifer
bewusstlos. `/los from: to:` erklärt jede Schusslinie. Am Tagesende würfeln Verwundete auf
Heilung. Wahlregeln (`/game new rules:`): Panik und Flucht (`/panic` wählt), Richtig zielen.
Unsere Tabellen nähern die Spielhilfe an (docs/rules/siege.md)."""


def rules_summary(locale: str = "en") -> str:
    return SUMMARY_DE if str(locale).lower().startswith("de") else SUMMARY_EN


# ----- German narration (issue 15) --------------------------------------------------------
# The rulebook's own words where it has them: bewusstlos, verwundet, Leiter, Belagerungsturm,
# Zugbrücke, Graben, Bresche. Figure names are game data and stay as the scenario wrote them.
STATE_WORDS_DE = {
    "dead": "tot",
    "stunned": "bewusstlos",
    "wounded": "verwundet",
    "healthy": "unverletzt",
    "no effect": "keine Wirkung",
}
RESULT_TITLES_DE = {
    "killed": "getötet",
    "wounded": "verwundet",
    "stunned": "bewusstlos",
    "defenders retreat": "die Verteidiger weichen zurück",
    "attackers retreat": "die Angreifer weichen zurück",
    "an attacker stunned": "ein Angreifer bewusstlos",
    "no effect": "keine Wirkung",
}
EFFECTS_DE = {"kill": "getötet", "wound": "verwundet", "stun": "bewusstlos", "fall": "Sturz"}
WEAPONS_DE = {"longbow": "Langbogen", "shortbow": "Kurzbogen", "crossbow": "Armbrust"}
BANDS_DE = {"short": "kurz", "medium": "mittel", "long": "weit"}
COVER_DE = {"none": "keine", "light": "leicht", "medium": "mittel", "heavy": "schwer"}
COUNTERS_DE = {
    "filled-moat": "Marker „aufgefüllter Graben“",
    "breach": "Bresche-Marker",
    "burnt-tent": "Marker „abgebranntes Zelt“",
}


def state_word_de(word: str | None) -> str:
    """A figure's state word (``figures.state_word``: "stunned wounded", "dead") in German."""
    if not word:
        return ""
    if word in STATE_WORDS_DE:
        return STATE_WORDS_DE[word]
    return ", ".join(STATE_WORDS_DE.get(w, w) for w in word.split())


def _result_de(letter: str, meaning: str | None = None) -> str:
    if letter == "-":
        return "kein Ergebnis: keine Wirkung"
    title = meaning or data.results()[letter]["title"]
    return f"{letter}: {RESULT_TITLES_DE.get(title, title)}"


def _shot_de(state: dict, e: dict, name) -> str:
    skill = e.get("skill", 0)
    return (
        f"{name(e['unit'])} ({WEAPONS_DE.get(e['weapon'], e['weapon'])}) {e['from']}->{e['to']} "
        f"{name(e['target'])}: Entfernung {e['range']} {BANDS_DE.get(e['band'], e['band'])} "
        f"({e['modifier']:+d}), Deckung {COVER_DE.get(e['cover'], e['cover'])}; "
        f"W10 {e['roll']}{e['modifier']:+d}"
        + (f"{skill:+d} Geschick" if skill else "")
        + f"={e['modified']} -> {_result_de(e['letter'])}; "
        f"{name(e['target'])} {state_word_de(e['outcome'])}"
    )


def _shift_reason_de(why: str) -> str:
    """A column shift's reason (``melee.assess``) for a German reader: the cell and its
    terrain sign stay, the terrain's English title is left out."""
    cell_sign = r"(\S+) .*\(([-+0])\)$"
    found = re.match(r"^defender on " + cell_sign, why)
    if found:
        return f"Verteidiger auf {found[1]} ({found[2]})"
    found = re.match(r"^attackers' worst terrain " + cell_sign, why)
    if found:
        return f"schlechtestes Gelände der Angreifer {found[1]} ({found[2]})"
    if why.startswith("several attackers"):
        return "mehrere Angreifer (1.72)"
    return "Spaltenverschiebung"


def _melee_de(state: dict, e: dict, name) -> str:
    attackers = ", ".join(name(a) for a in e["attackers"])
    defenders = (
        f"Pferd {e['horse']}" if e.get("horse") else ", ".join(name(d) for d in e["defenders"])
    )
    shifts = [f"{_shift_reason_de(why)}: {s:+d}" for s, why in e.get("shifts", []) if s]
    shift_text = "; ".join(shifts) or "keine Spaltenverschiebung"
    # The event keeps no flag for the mounted table; its English line is the one record of it.
    if "against mounted figures" in e.get("text", ""):
        shift_text += "; Spalte der Tabelle gegen Berittene"
        if "several attackers do not shift" in e["text"]:
            shift_text += "; mehrere Angreifer verschieben gegen Reiter nicht (1.72)"
    verb = "greift" if len(e["attackers"]) == 1 else "greifen"
    return (
        f"{attackers} {verb} {defenders} an: Angriff {e['attack']} gegen Verteidigung "
        f"{e['defence']}: {e['attack']}/{e['defence']} -> {e['base_column']}; {shift_text}; "
        f"Spalte {e['column']}; W10 {e['roll']} -> {_result_de(e['letter'], e.get('meaning'))}"
    )


def _miss_de(state: dict, e: dict, name) -> str:
    beside = ", ".join(name(f) for f in e["beside"])
    line = (
        f"{name(e['unit'])} verfehlt neben {beside}: Fehlschuss-Wurf W10 {e['roll']} "
        f"(modifiziert {e['modified']})"
    )
    if e.get("hit"):
        line += f"; {name(e['hit'])} {state_word_de(e['outcome'])}"
    return line


def reason_de(reason: str | None) -> str:
    """The game's end as ``rules`` words it ("held out for 3 days (24 rounds)")."""
    if not reason:
        return ""
    text = reason
    for pattern, german in (
        (r"^every besieger figure is dead$", "alle Figuren der Belagerer sind tot"),
        (r"^every defender figure is dead$", "alle Figuren der Verteidiger sind tot"),
        (
            r"^every besieger figure is dead or fled off the map$",
            "alle Figuren der Belagerer sind tot oder vom Spielplan geflohen",
        ),
        (
            r"^every defender figure is dead or fled off the map$",
            "alle Figuren der Verteidiger sind tot oder vom Spielplan geflohen",
        ),
        (r"^(.+) stands in the keep$", r"\1 steht im Bergfried"),
        (r"^held out for (\d+) days \((\d+) rounds\)$", r"\1 Tage (\2 Runden) standgehalten"),
        (r"^held out for (\d+) rounds$", r"\1 Runden standgehalten"),
    ):
        text, found = re.subn(pattern, german, text)
        if found:
            return text
    if reason.endswith(" destroyed"):  # fire.burn_won: "engine X and 2 tents destroyed"
        parts = reason[: -len(" destroyed")].split(" and ")
        things = [
            re.sub(r"^engine (.+)$", r"Maschine \1", re.sub(r"^(\d+) tents?$", r"\1 Zelt(e)", p))
            for p in parts
        ]
        return f"{' und '.join(things)} zerstört"
    return reason


# The game's own events in each language (the modules' events have their own tables). The
# rulebook's German words: bewusstlos, verwundet, Leiter, Belagerungsturm, Zugbrücke, Winde.
EVENT_WORDS = {
    "en": {
        "moved": "{name} moves {steps} ({cost} points).",
        "top": " top",
        "figure_hit": "{name} at {at}: {outcome}.",
        "retreated": "{name} retreats {cell_from} → {cell_to}.",
        "cannot_retreat": "{name} cannot retreat from {at} and is {outcome} instead.",
        "choose_casualty": "{among}: their owner chooses who is hit ({effect}).",
        "may_advance": "The winners may advance into {cells} (/advance or /stay).",
        "advanced": "{name} advances {cell_from} → {cell_to}.",
        "recovered": "{name} at {at} recovers.",
        "winch_manned": "{name} works the winch: the bridge {winch} at the end of the round.",
        "winch: raise": "rises",
        "winch: lower": "comes down",
        "bridge_raised": "The drawbridge is raised.",
        "bridge_lowered": "The drawbridge is lowered.",
        "winch_failed": "{name} could not finish working the winch; the bridge stays.",
        "fell": "{name} falls from {cell_from} into {cell_to}: {outcome}.",
        "tower_placed": "Siege tower {tower} is put on {cells}, facing {towards}.",
        "tower_rolled": "Siege tower {tower} rolls {cells_from} → {cells_to} ({cost} points, "
        "pushed by {crew}).",
        "choose_retreat": "{name} must retreat: its owner chooses where ({options}; /retreat).",
        "choose_landing": "{name} falls: its owner chooses where it lands ({options}; /land).",
        "faced": "{name} takes cover in the doorway against the {toward}.",
        "toward: in": "inside",
        "toward: out": "outside",
        "counter_placed": "A {counter} counter is laid on {at}.",
        "ladder_push": "{name} pushes at the ladder at {at}: {pushed}.",
        "game_over": "Game over: {reason}.",
    },
    "de": {
        "moved": "{name} zieht {steps} ({cost} Punkte).",
        "top": " oben",
        "figure_hit": "{name} auf {at}: {outcome}.",
        "retreated": "{name} weicht zurück: {cell_from} → {cell_to}.",
        "cannot_retreat": "{name} kann von {at} nicht zurückweichen und ist stattdessen {outcome}.",
        "choose_casualty": "{among}: ihr Besitzer wählt, wen es trifft ({effect}).",
        "may_advance": "Die Sieger dürfen nach {cells} nachrücken (/advance oder /stay).",
        "advanced": "{name} rückt nach: {cell_from} → {cell_to}.",
        "recovered": "{name} auf {at} kommt wieder zu sich.",
        "winch_manned": "{name} bedient die Winde: die Zugbrücke wird am Rundenende {winch}.",
        "winch: raise": "hochgezogen",
        "winch: lower": "herabgelassen",
        "bridge_raised": "Die Zugbrücke wird hochgezogen.",
        "bridge_lowered": "Die Zugbrücke wird herabgelassen.",
        "winch_failed": "{name} konnte die Winde nicht zu Ende bedienen; die Zugbrücke bleibt.",
        "fell": "{name} stürzt von {cell_from} nach {cell_to}: {outcome}.",
        "tower_placed": "Belagerungsturm {tower} wird auf {cells} gestellt, Front zu {towards}.",
        "tower_rolled": "Belagerungsturm {tower} rollt {cells_from} → {cells_to} ({cost} Punkte, "
        "geschoben von {crew}).",
        "choose_retreat": "{name} muss zurückweichen: sein Besitzer wählt wohin ({options}; "
        "/retreat).",
        "choose_landing": "{name} stürzt: sein Besitzer wählt, wo er landet ({options}; /land).",
        "faced": "{name} sucht im Türdurchgang Deckung gegen die {toward}.",
        "toward: in": "Innenseite",
        "toward: out": "Außenseite",
        "counter_placed": "Ein {counter} wird auf {at} gelegt.",
        "ladder_push": "{name} stößt gegen die Leiter auf {at}: {pushed}.",
        "ladder: over": "W10 {roll}: umgestoßen (1-6)",
        "ladder: stays": "W10 {roll}: bleibt stehen (7-10)",
        "game_over": "Spielende: {reason}.",
    },
}
PANIC_EVENTS = ("panic_roll", "choose_panic", "panicked", "fled", "cannot_fall_back", "calmed")


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    """One line for an event in the reader's language. An event with no German yet is told in
    English rather than left out of the log."""
    kind = str(e.get("type"))
    german = lang == "de"
    words = EVENT_WORDS["de" if german else "en"]

    def name(fid):
        return state["figures"].get(fid, {}).get("name", fid)

    if state.get("horses") and (line := riders.describe_event(state, e, lang)):
        return line
    if state.get("wagons") and (line := wagons.describe_event(state, e, lang)):
        return line
    if kind in ("day_ended", "day_started"):
        return days.describe_event(state, e, lang)
    if kind in (*PANIC_EVENTS, "left_map"):
        return panic.describe_event(state, e, lang)
    if kind in ("shot", "melee", "miss_roll"):
        # Their English line is the one the rules wrote with the dice; German words it anew.
        if not german:
            return e["text"]
        if kind == "shot" and e.get("weapon") == "ballista":
            return engines.describe_event(state, e, lang)
        return {"shot": _shot_de, "melee": _melee_de, "miss_roll": _miss_de}[kind](state, e, name)
    if kind in words and ":" not in kind:
        return _worded(state, e, words, german, name)
    line = (
        engines.describe_event(state, e, lang)
        or fire.describe_event(state, e, lang)
        or oil.describe_event(state, e, lang)
        or shield.describe_event(state, e, lang)
    )
    return line or (describe_event(state, e) if german else None)


def _worded(state: dict, e: dict, words: dict, german: bool, name) -> str:
    """One of the game's own events from ``words`` (EVENT_WORDS of the reader's language)."""
    kind = str(e.get("type"))
    outcome = str(e.get("outcome", ""))
    layers = e.get("layers") or ["ground"] * len(e.get("path") or [])
    if kind == "ladder_push":
        pushed = (
            words["ladder: over" if e["over"] else "ladder: stays"].format(roll=e["roll"])
            if german
            else e["text"]
        )
    else:
        pushed = ""
    return words[kind].format(
        name=name(e.get("unit")),
        steps=" → ".join(
            cell + (words["top"] if layer == "top" else "")
            for cell, layer in zip(e.get("path") or [], layers)
        ),
        cost=e.get("cost"),
        at=", ".join(e["at"]) if isinstance(e.get("at"), list) else e.get("at"),
        outcome=state_word_de(outcome) if german else outcome,
        cell_from=e.get("from"),
        cell_to=e.get("to"),
        among=", ".join(name(f) for f in e.get("among") or []),
        effect=EFFECTS_DE.get(str(e.get("effect")), e.get("effect")) if german else e.get("effect"),
        cells=", ".join(e["at"] if kind == "tower_placed" else e.get("cells") or []),
        winch=words["winch: raise" if e.get("raise") else "winch: lower"],
        tower=e.get("tower"),
        towards=e.get("towards"),
        cells_from=", ".join(e.get("from") or []) if kind == "tower_rolled" else "",
        cells_to=", ".join(e.get("to") or []) if kind == "tower_rolled" else "",
        crew=", ".join(name(f) for f in e.get("crew") or []),
        options=", ".join(e.get("options") or []),
        toward=words.get(f"toward: {e.get('toward')}", f"{e.get('toward')}side"),
        counter=COUNTERS_DE.get(str(e.get("kind")), e.get("kind")) if german else e.get("kind"),
        pushed=pushed,
        reason=reason_de(e.get("reason")) if german else e.get("reason"),
    )


# Dice purposes as ``rules`` and its modules word them, with their German.
ROLL_PURPOSES_DE = (
    (r"^melee (.+) vs horse (.+)$", r"Nahkampf \1 gegen Pferd \2"),
    (r"^melee (.+) vs (.+)$", r"Nahkampf \1 gegen \2"),
    (r"^(.+)'s miss near (.+)$", r"Fehlschuss von \1 neben \2"),
    (r"^lot: which friend is hit$", "Los: welcher Freund getroffen wird"),
    (r"^healing (.+)$", r"Heilung von \1"),
    (r"^ballista (.+) shoots at (.+)$", r"Balliste \1 schießt auf \2"),
    (r"^ram (.+) batters (.+)$", r"Widder \1 rammt \2"),
    (r"^(.+) bombard (.+)$", r"Beschuss von \2 durch \1"),
    (r"^fire spreads to (.+)$", r"Feuer greift über auf \1"),
    (r"^(.+) tries to put out the fire at (.+)$", r"\1 versucht, das Feuer auf \2 zu löschen"),
    (r"^(.+) shoots a fire arrow at (.+)$", r"\1 schießt einen Brandpfeil auf \2"),
    (
        r"^(.+) pours boiling oil on the machine at (.+)$",
        r"\1 gießt siedendes Öl auf die Maschine auf \2",
    ),
    (r"^(.+) pours boiling oil on (.+)$", r"\1 gießt siedendes Öl auf \2"),
    (r"^panic after (.+)'s death$", r"Panik nach dem Tod von \1"),
    (r"^(.+) pushes at ladder (.+)$", r"\1 stößt gegen Leiter \2"),
    (r"^(.+) shoots at (.+)$", r"\1 schießt auf \2"),
)


def roll_purpose_de(purpose: str) -> str:
    """A die's purpose (the English ``Dice.roll`` was given) for a German reader."""
    for pattern, german in ROLL_PURPOSES_DE:
        text, found = re.subn(pattern, german, purpose)
        if found:
            for title, title_de in engines.ENGINE_TITLES_DE.items():
                text = text.replace(f"({title})", f"({title_de})")
            return text
    return purpose
