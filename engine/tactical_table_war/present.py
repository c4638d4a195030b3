"""The words of Tactical Table War's picture in the reader's language.

The scene itself is built in :mod:`engine.tactical_table_war.rules`; this module only words it.
German uses the rulebook's own terms (Vorbereitungsphase, Burg, Vorposten, Eroberungspunkt,
Holzfällerlager, Tribock, Schwächungswürfel, Schatzkammer), the game's original language.
"""

from __future__ import annotations

PICTURE_WORDS = {
    "de": {
        "Red": "Rot",
        "Blue": "Blau",
        # phases (data.PHASES) and header fields
        "phase:preparation": "Vorbereitung",
        "phase:movement": "Bewegung",
        "phase:recruitment": "Rekrutierung",
        "phase:building": "Bau",
        "phase:attack": "Angriff",
        "Turn": "Runde",
        "Phase": "Phase",
        "Active": "Am Zug",
        "Treasury": "Schatzkammer",
        "Catapult": "Katapult",
        "choose the unit to strike": "Ziel des Angriffswürfels wählen",
        "lay dice": "Schwächungswürfel legen",
        "may strike back": "darf zurückschlagen",
        # landscapes (data/tactical-table-war/tiles.json) and buildings (buildings.json)
        "Plain": "Ebene",
        "Forest": "Wald",
        "Hill": "Hügel",
        "Lake": "See",
        "impassable": "unpassierbar",
        "castle": "Burg",
        "Castle": "Burg",
        "Outpost": "Vorposten",
        "Capture point": "Eroberungspunkt",
        "Quarry": "Steinbruch",
        "Lumber camp": "Holzfällerlager",
        "Forge": "Schmiede",
        "Fortress": "Festung",
        "Trebuchet": "Tribock",
        "Ballista": "Balliste",
        "building": "im Bau",
        # combat outcomes (engine/tactical_table_war/combat.py)
        "killed": "besiegt",
        "tie": "Gleichstand",
        "held": "hält stand",
        "destroyed": "zerstört",
        "lost:": "verloren:",
        "Supply": "Vorrat",
        "tiles free": "Plättchen frei",
        "Looting die": "Plünderwürfel",
        "counters strength-range-speed, badge weakening": (
            "Einheiten Stärke-Reichweite-Geschwindigkeit, Eckzahl Schwächung"
        ),
        '"Lumber 1/6 c3": attacks withstood, counter die 3': (
            '"Holz 1/6 z3": Angriffe überstanden, Zählerwürfel 3'
        ),
    }
}


def word(text: str, lang: str) -> str:
    """``text`` as the picture shows it to a reader of ``lang``."""
    return PICTURE_WORDS.get(lang, {}).get(text, text)


# The map names a building by one short word: a longer name wraps onto the hex below.
SHORT_NAMES = {"de": {"Lumber camp": "Holz", "Quarry": "Stein", "Trebuchet": "Tribock"}}


def short_name(title: str, lang: str) -> str:
    """A building's name under its hex ("Lumber", "Holz")."""
    return SHORT_NAMES.get(lang, {}).get(title) or word(title.split()[0], lang)


def header(rs, state: dict, lang: str) -> list[list[str]]:
    """The picture's header pairs: :meth:`header`'s facts in ``lang``."""
    english = rs.header(state)
    if lang == "en":
        return [list(kv) for kv in english.items()]
    out = []
    for key, value in english.items():
        if key == "Phase":
            value = word("phase:" + state["phase"], lang)
        elif key == "Active":
            value = word(value, lang)
        elif key == "Treasury":
            treasury = state["treasury"]
            value = (
                f"{word('Red', lang)} {treasury['red']} · {word('Blue', lang)} {treasury['blue']}"
            )
        elif key == "Catapult":
            sc = state["scatter"]
            value = {
                "weaken": f"{word('lay dice', lang)} {sc['dice']}",
                "strike": word("choose the unit to strike", lang),
                "counter": f"{sc['defender']} {word('may strike back', lang)}",
            }[sc["stage"]]
        out.append([word(key, lang), value])
    return out
