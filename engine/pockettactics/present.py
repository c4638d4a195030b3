"""The words of Pocket Tactics' picture in the reader's language.

The scene itself is built in :mod:`engine.pockettactics.rules`; this module only words it.
German follows the rulebook's terms (Merkmal, Kachel, Hochland, Reserve, Neuwurf). Faction and
unit names are game data and stay as the data file writes them.
"""

from __future__ import annotations

PICTURE_WORDS = {
    "de": {
        # terrain tiles and features (data/pocket-tactics/terrain.json)
        "Grassland": "Grasland",
        "Dunes": "Dünen",
        "Water": "Wasser",
        "Marsh": "Sumpf",
        "Lava field": "Lavafeld",
        "Forest": "Wald",
        "Highland": "Hochland",
        "Village": "Dorf",
        "City": "Stadt",
        "Lake": "See",
        "Haunted ruins": "Spukruinen",
        "Crag": "Felsen",
        # the picture's own words
        "lost:": "verloren:",
        "Reserve": "Reserve",
        "none": "keiner",
        "rr": "Neuwürfe",
        "combat pending": "Kampf läuft",
        "attack failed": "Angriff gescheitert",
        "hit": "Treffer",
        "miss": "kein Treffer",
        "draw": "Unentschieden",
        "wins": "gewinnt",
    }
}


def word(text: str, lang: str) -> str:
    """``text`` as the picture shows it to a reader of ``lang``."""
    return PICTURE_WORDS.get(lang, {}).get(text, text)


def header(rs, state: dict, lang: str) -> list[list[str]]:
    """The picture's header pairs: :meth:`header`'s facts, with every field name and every
    value the picture's words or the ruleset's translations know in ``lang``."""
    english = rs.header(state)
    if lang == "en":
        return [list(kv) for kv in english.items()]
    side = lambda s: rs.side_title(s, lang)  # noqa: E731
    out = []
    for key, value in english.items():
        if key == "Awaiting":
            value = ", ".join(side(s) for s in state["awaiting"])
        elif key == "Tile in hand":
            value = word(value, lang)
        elif key == "Re-rolls left":
            c = state["combat"]
            value = " / ".join(
                f"{side(state['units'][c[role]]['side'])} {c['rerolls'][role]}"
                for role in ("attacker", "defender")
            )
        elif key == "Result":
            # the reason is an English sentence of the rules; the winner says it all
            winner = state["result"].get("winner")
            value = f"{side(winner)} {word('wins', lang)}" if winner else word("draw", lang)
        else:
            value = rs.term(value, lang)
        out.append([rs.term(key, lang), value])
    return out


def combat_label(event: dict, lang: str) -> str:
    """A combat's arrow label: both duels' dice as separate values and whether each hit."""

    def duel(p: dict) -> str:
        off = ",".join(map(str, p["off"])) or "–"
        dfn = ",".join(map(str, p["def"])) or "–"
        return f"{off} vs {dfn} {word('hit' if p['hit'] else 'miss', lang)}"

    return f"{duel(event['attack'])} · {duel(event['counter'])}"
