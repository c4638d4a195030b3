"""``/info unit:…`` and ``/info cell:…``: one unit or one cell explained, for any game.

Built on what every ruleset already has: the picture a viewer may see (``Ruleset.scene`` of
that viewer's view: counters, their labels and factors, the cells and their names), the
names players type (:mod:`engine.core.names`) and the legal actions. A ruleset adds its own
facts (a unit type's numbers, a terrain's effects) through ``Ruleset.unit_facts`` and
``Ruleset.cell_facts``. Pure: the answer depends on the view it is given, so a secret that the
view hides cannot appear, and what a unit may do now is told to its own side only.
"""

from __future__ import annotations

import re

from .commands import format_command
from .errors import RuleError
from .names import _WHERE, AmbiguousName, resolve_value

MAX_ACTIONS_SHOWN = 6
# Longest text an /info option may carry into name matching (Discord caps options at 100).
MAX_TYPED = 100

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "side": "Side",
        "counter": "Counter",
        "at": "At",
        "off_board": "not on the board",
        "may_now": "It may now",
        "more": "(+{count} more)",
        "nothing_now": "It has nothing to do now.",
        "not_its_turn": "It is not its side's turn now.",
        "here": "Here",
        "nobody_here": "Nobody stands here.",
        "terrain": "Terrain",
        "need_one": "Name a unit (unit:) or a cell (cell:) to explain.",
        "one_at_a_time": "Name either a unit or a cell, not both.",
        "no_unit": "There is no unit {unit!r} that you can see.",
        "no_cell": "{cell!r} is not a cell of this board.",
        # Facts the games add (Ruleset.unit_facts, cell_facts)
        "type": "Type",
        "attack": "Attack",
        "defence": "Defence",
        "movement": "Movement",
        "range": "Range",
        "strength": "Strength",
        "speed": "Speed",
        "disorganised": "Disorganised: it may not move or attack until it rallies.",
        "move_cost": "Movement cost",
        "defence_bonus": "Defence bonus",
        "stops": "Entering ends the move.",
        "no_attack": "A unit that ends its move here may not attack this turn.",
        "blocks_sight": "Blocks line of sight.",
        "impassable": "No unit may enter.",
        "water_only": "Water: only boats enter.",
        "road": "A road runs through it.",
        "fort": "Fort (+{bonus} defence).",
        "controlled_by": "Controlled by",
        "units": "Units",
        "terrain_table": "Terrain",
        "in_scenario": "{count} in the standard scenario",
    },
    "de": {
        "side": "Seite",
        "counter": "Spielstein",
        "at": "Auf",
        "off_board": "nicht auf dem Brett",
        "may_now": "Sie kann jetzt",
        "more": "(+{count} weitere)",
        "nothing_now": "Sie hat jetzt nichts zu tun.",
        "not_its_turn": "Ihre Seite ist jetzt nicht am Zug.",
        "here": "Hier",
        "nobody_here": "Hier steht niemand.",
        "terrain": "Gelände",
        "need_one": "Nenne eine Einheit (unit:) oder ein Feld (cell:), das erklärt werden soll.",
        "one_at_a_time": "Nenne entweder eine Einheit oder ein Feld, nicht beides.",
        "no_unit": "Es gibt keine Einheit {unit!r}, die du sehen kannst.",
        "no_cell": "{cell!r} ist kein Feld dieses Bretts.",
        "type": "Typ",
        "attack": "Angriff",
        "defence": "Verteidigung",
        "movement": "Bewegung",
        "range": "Reichweite",
        "strength": "Stärke",
        "speed": "Geschwindigkeit",
        "disorganised": "Desorganisiert: sie darf erst nach der Neuorganisation wieder ziehen "
        "oder angreifen.",
        "move_cost": "Bewegungskosten",
        "defence_bonus": "Verteidigungsbonus",
        "stops": "Wer es betritt, beendet seine Bewegung.",
        "no_attack": "Wer hier seine Bewegung beendet, darf in diesem Zug nicht angreifen.",
        "blocks_sight": "Blockiert die Sichtlinie.",
        "impassable": "Keine Einheit darf es betreten.",
        "water_only": "Wasser: nur Boote fahren hinein.",
        "road": "Eine Straße führt hindurch.",
        "fort": "Fort (+{bonus} Verteidigung).",
        "controlled_by": "Kontrolliert von",
        "units": "Einheiten",
        "terrain_table": "Gelände",
        "in_scenario": "{count} im Standardszenario",
    },
}


# Counted nouns (singular, plural) per language: "1 point", "2 points", never "1 points".
NOUNS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "point": ("point", "points"),
        "die": ("die", "dice"),
        "attack": ("attack", "attacks"),
        "bonus move": ("bonus move", "bonus moves"),
        "rivet": ("rivet", "rivets"),
    },
    "de": {
        "point": ("Punkt", "Punkte"),
        "die": ("Würfel", "Würfel"),
        "attack": ("Angriff", "Angriffe"),
        "bonus move": ("Bonusbewegung", "Bonusbewegungen"),
        "rivet": ("Niete", "Nieten"),
    },
}


def count(lang: str, n: int, noun: str) -> str:
    one, many = (NOUNS.get(lang) or NOUNS["en"])[noun]
    return f"{n} {one if n == 1 else many}"


def word(lang: str, key: str, **params) -> str:
    text = WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"][key]
    return text.format(**params) if params else text


class Board:
    """What a viewer sees of the board: counters by id and cells by label (from the scene)."""

    def __init__(self, ruleset, state: dict, viewer: str | None, lang: str = "en"):
        try:
            scene = ruleset.scene(state, [], viewer, lang)
        except Exception:  # a position the picture cannot show is explained without it
            scene = {}
        self.pieces: dict[str, dict] = {}
        for piece in scene.get("pieces", []):
            if piece.get("id"):
                self.pieces.setdefault(str(piece["id"]), piece)
        # Units the view holds but the picture does not draw (in reserve, captured): still
        # explained, as not on the board.
        units = state.get("units")
        if isinstance(units, dict):
            for uid in units:
                self.pieces.setdefault(str(uid), {})
        self.cells: dict[str, dict] = {
            str(c["at"]): c for c in scene.get("cells", []) if c.get("at")
        }

    def units_at(self, cell: str) -> list[str]:
        # Pieces only: a unit off the board stands nowhere.
        return [uid for uid, piece in self.pieces.items() if piece.get("at") == cell]


def find_unit(ruleset, state: dict, board: Board, typed: str) -> str:
    """The id of the unit ``typed`` names among the counters the viewer sees."""
    typed = typed.strip()[:MAX_TYPED]
    pool = [{"type": "info", "unit": uid} for uid in board.pieces]
    counters = {uid: str(p.get("title", "")) for uid, p in board.pieces.items()}
    found = resolve_value(
        ruleset, state, {"type": "info", "unit": typed}, "unit", pool, counters=counters
    )
    if found not in board.pieces:
        raise RuleError(
            word("en", "no_unit", unit=typed),
            key="info_no_unit",
            params={"unit": typed},
            domain=ruleset.name,
        )
    return found


def find_cell(ruleset, board: Board, typed: str, state: dict | None = None) -> str:
    """The cell ``typed`` names: its label in any case, or the place name the messages give
    it ("2309 (Texcoco)": ``texcoco``, ``Texc``), as for a cell in a command."""
    typed = typed.strip()[:MAX_TYPED]
    for cell in board.cells:
        if cell.casefold() == typed.casefold():
            return cell
    if state is not None and typed:
        pool = [{"type": "info", "to": cell} for cell in board.cells]
        try:
            found = resolve_value(
                ruleset, state, {"type": "info", "to": typed}, "to", pool, counters={}
            )
        except AmbiguousName as error:
            raise AmbiguousName("cell", typed, error.candidates) from None
        if found in board.cells:
            return found
    raise RuleError(
        word("en", "no_cell", cell=typed),
        key="info_no_cell",
        params={"cell": typed},
        domain=ruleset.name,
    )


def unit_side(state: dict, uid: str) -> str | None:
    # The two layouts the rulesets use for pieces on the board (SIEGE keeps "figures").
    for key in ("units", "figures"):
        table = state.get(key)
        if isinstance(table, dict) and isinstance(table.get(uid), dict):
            side = table[uid].get("side")
            return str(side) if side is not None else None
    return None


# Where a label says the unit stands, in English or German ("... at 0507", "... auf 0507").
_PLACE = re.compile(_WHERE.pattern + r"| auf .*$")


def bare_label(ruleset, state: dict, uid: str, piece: dict, lang: str = "en") -> str:
    """The unit's human name without where it stands ("Spanish Cavalry 1")."""
    try:
        label = ruleset.label(state, "unit", uid, lang)
    except Exception:
        label = uid
    label = _PLACE.sub("", label).strip() or uid
    if label == uid and piece.get("title"):
        return f"{piece['title']} ({uid})"
    return label if uid in label else f"{label} ({uid})"


def explain_unit(ruleset, state: dict, viewer: str | None, typed: str, lang: str) -> str:
    board = Board(ruleset, state, viewer)
    uid = find_unit(ruleset, state, board, typed)
    piece = board.pieces[uid]
    side = ruleset.unit_side(state, uid)
    lines = [f"**{bare_label(ruleset, state, uid, piece, lang)}**"]
    if side is not None:
        lines.append(f"{word(lang, 'side')}: {ruleset.side_title(side, lang)}")
    counter = " ".join(str(piece[k]) for k in ("title", "values") if piece.get(k))
    if counter:
        lines.append(f"{word(lang, 'counter')}: {counter}")
    at = piece.get("at")
    lines.append(f"{word(lang, 'at')}: {at if at else word(lang, 'off_board')}")
    lines += ruleset.unit_facts(state, uid, lang)
    if side is not None and side == viewer:
        lines.append(_may_now(ruleset, state, side, uid, lang))
    return "\n".join(lines)


def _may_now(ruleset, state: dict, side: str, uid: str, lang: str) -> str:
    if side not in ruleset.awaiting(state):
        return word(lang, "not_its_turn")
    mine = [a for a in ruleset.legal_actions(state, side) if a.get("unit") == uid]
    if not mine:
        return word(lang, "nothing_now")
    # One line per command, its other options as typed (the unit is the one asked about), so
    # 57 moves read "/move to:0102 · to:0103 … (+51 more)" rather than 57 full commands.
    by_command: dict[str, list[str]] = {}
    for action in mine:
        rest = {k: v for k, v in action.items() if k not in ("type", "side", "unit")}
        typed = format_command({"type": "x", **rest})[3:] if rest else ""
        by_command.setdefault(str(action["type"]), []).append(typed)
    lines = [word(lang, "may_now") + ":"]
    for command, options in by_command.items():
        shown = " · ".join(o for o in options[:MAX_ACTIONS_SHOWN] if o)
        more = len(options) - MAX_ACTIONS_SHOWN
        tail = " " + word(lang, "more", count=more) if more > 0 else ""
        lines.append(f"• /{command} unit:{uid}" + (f" {shown}" if shown else "") + tail)
    return "\n".join(lines)


def explain_cell(ruleset, state: dict, viewer: str | None, typed: str, lang: str) -> str:
    board = Board(ruleset, state, viewer)
    cell = find_cell(ruleset, board, typed, state)
    name = str(board.cells[cell].get("text") or "")
    lines = [f"**{cell}**" + (f" ({name})" if name and name != cell else "")]
    lines += ruleset.cell_facts(state, cell, lang)
    here = board.units_at(cell)
    if here:
        shown = ", ".join(bare_label(ruleset, state, uid, board.pieces[uid], lang) for uid in here)
        lines.append(f"{word(lang, 'here')}: {shown}")
    else:
        lines.append(word(lang, "nobody_here"))
    return "\n".join(lines)


def answer(ruleset, state: dict, viewer: str | None, options: dict[str, str], lang: str) -> str:
    unit, cell = options.get("unit"), options.get("cell")
    if unit and cell:
        raise RuleError(word("en", "one_at_a_time"), key="info_one_at_a_time", domain=ruleset.name)
    if unit:
        return explain_unit(ruleset, state, viewer, unit, lang)
    if cell:
        return explain_cell(ruleset, state, viewer, cell, lang)
    raise RuleError(word("en", "need_one"), key="info_need_one", domain=ruleset.name)


def choices(
    ruleset,
    state: dict,
    viewer: str | None,
    option: str,
    current: str,
    limit: int = 25,
    lang: str = "en",
) -> list[tuple[str, str]]:
    """(value, label) pairs for autocomplete of /info's ``option`` matching ``current``, the
    labels (unit names, terrain) in ``lang``."""
    board = Board(ruleset, state, viewer, lang)
    needle = current.strip().casefold()[:MAX_TYPED]
    found: list[tuple[str, str]] = []
    if option == "unit":
        for uid, piece in board.pieces.items():
            label = bare_label(ruleset, state, uid, piece, lang)
            at = piece.get("at")
            shown = f"{label} · {at}" if at else label
            if not needle or needle in shown.casefold() or needle in uid.casefold():
                found.append((uid, shown))
    elif option == "cell":
        for cell, spec in board.cells.items():
            name = str(spec.get("text") or "")
            shown = f"{cell} ({name})" if name and name != cell else cell
            if not needle or cell.casefold().startswith(needle) or needle in name.casefold():
                found.append((cell, shown))
    return found[:limit]


def reference_text(ruleset, lang: str = "en", state: dict | None = None) -> str:
    """The game's units and terrain (``Ruleset.rules_reference``) as Markdown lines."""
    parts = []
    for heading, lines in ruleset.rules_reference(lang, state):
        if lines:
            parts.append(f"**{heading}**\n" + "\n".join(f"• {line}" for line in lines))
    return "\n\n".join(parts)
