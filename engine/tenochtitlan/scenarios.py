"""Scenario files: reading, validating and normalising them into one plain dict.

The format is documented in ``docs/scenarios/tenochtitlan.md``. A scenario may describe the
start of a game (units without a hex are placed by the players in the setup phase) or any
position at all (units anywhere with their state, the phase, the card in play, decks...).
"""

from __future__ import annotations

from engine.core.errors import ScenarioError
from engine.core.names import with_article
from engine.core.scenario_io import check_schema

from .data import (
    DATA_DIR,
    SIDES,
    WATER_CLASSES,
    _read_json,
    board_for,
    card_decks,
    cards_by_id,
    unit_types,
)

PHASES = ("draw", "movement", "defensive-fire", "combat", "rally")
ALL_PHASES = ("setup",) + PHASES
SCENARIO_DIR = DATA_DIR / "scenarios"
LAST_TURN = 24
# The entries of a scenario file; data/schemas/tenochtitlan.schema.json lists the same ones.
KNOWN_KEYS = frozenset(
    {
        "_comment",
        "name",
        "title",
        "description",
        "map",
        "phase",
        "turn",
        "active",
        "units",
        "roster",
        "eliminated",
        "card",
        "decks",
        "discards",
        "control",
        "attacks_used",
        "extra_melee",
        "aztec_wins_at",
        "returned",
        "last_turn",
        "suggested",
    }
)


def packaged_names() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))


def read_scenario(name: str) -> dict:
    """A packaged scenario by name (callers from outside check the name first, see
    ``Ruleset.load_packaged``)."""
    name = (name or "standard").strip()
    if name not in packaged_names():
        raise ScenarioError(
            name[:64], "scenario", f"unknown scenario; packaged: {', '.join(packaged_names())}"
        )
    file = f"scenarios/{name}.json"
    return from_document(_read_json(SCENARIO_DIR / f"{name}.json", file), file, name)


def from_document(document: dict, file: str, default_name: str = "custom") -> dict:
    """A scenario document: structure by ``data/schemas/tenochtitlan.schema.json``, then meaning."""
    check_schema(document, "tenochtitlan", file)
    return normalise(document, file, default_name)


def standard_roster() -> dict[str, str]:
    """Unit id -> type for the full forces of the standard scenario (counts from units.json)."""
    roster = {}
    for tname, t in unit_types().items():
        for n in range(1, t["count"] + 1):
            roster[f"{tname}-{n}"] = tname
    return roster


def _need(cond: object, file: str, entry: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(file, entry, problem)


def normalise(data: dict, file: str, default_name: str = "custom") -> dict:
    """Validate a scenario object and fill in every default. Returns plain data."""
    types = unit_types()
    cards = cards_by_id()
    for key in data:
        _need(
            key in KNOWN_KEYS,
            file,
            key,
            f"unknown key; known keys: {', '.join(sorted(KNOWN_KEYS - {'_comment'}))}",
        )
    out: dict = {
        "name": str(data.get("name", default_name)),
        "title": str(data.get("title", data.get("name", default_name))),
        "description": str(data.get("description", "")),
    }
    map_spec = data.get("map", "standard")
    board = board_for(map_spec, file)
    out["map"] = map_spec

    units: dict[str, dict] = {}
    roster = data.get("roster")
    if roster is not None:
        _need(roster == "standard", file, "roster", 'the only roster shorthand is "standard"')
        for uid, tname in standard_roster().items():
            units[uid] = {"type": tname, "at": None}
    raw_units = data.get("units", {})
    _need(
        isinstance(raw_units, dict), file, "units", "must be an object: unit id -> {type, at, ...}"
    )
    for uid, spec in raw_units.items():
        entry = f"units.{uid}"
        _need(isinstance(spec, dict), file, entry, "must be an object with type and at")
        for key in spec:
            _need(
                key in ("type", "at", "disorganised", "moved", "attacked", "fired", "no_attack"),
                file,
                f"{entry}.{key}",
                "unknown key; known: type, at, disorganised, moved, attacked, fired, no_attack",
            )
        tname = spec.get("type", units.get(uid, {}).get("type"))
        _need(
            tname in types, file, f"{entry}.type", f"unknown unit type; known: {', '.join(types)}"
        )
        units[uid] = {
            "type": tname,
            "at": spec.get("at"),
            **{
                k: bool(spec.get(k, False))
                for k in ("disorganised", "moved", "attacked", "fired", "no_attack")
            },
        }
    phase = data.get("phase", "setup" if any(u["at"] is None for u in units.values()) else "draw")
    _need(phase in ALL_PHASES, file, "phase", f"must be one of {', '.join(ALL_PHASES)}")
    out["phase"] = phase
    occupied: dict[int, str] = {}
    for uid, u in units.items():
        entry = f"units.{uid}.at"
        t = types[u["type"]]
        u.setdefault("disorganised", False)
        for k in ("moved", "attacked", "fired", "no_attack"):
            u.setdefault(k, False)
        if u["at"] is None:
            _need(
                phase == "setup",
                file,
                entry,
                "a unit without a hex is only allowed in the setup phase",
            )
            continue
        _need(isinstance(u["at"], str), file, entry, "must be a hex label such as 0507, or null")
        i = board.idx(u["at"])
        if i is None:
            raise ScenarioError(file, entry, "is not a hex of the map")
        water = t["class"] in WATER_CLASSES
        medium = board.medium[i]
        _need(
            (medium == "water") if water else (medium != "water"),
            file,
            entry,
            f"a {'water' if water else 'land'} unit cannot stand on {board.terrain[i]}",
        )
        _need(i not in occupied, file, entry, f"{u['at']} already holds {occupied.get(i)}")
        occupied[i] = uid
    out["units"] = units

    eliminated = data.get("eliminated", {})
    _need(isinstance(eliminated, dict), file, "eliminated", "must be an object: unit id -> type")
    for uid, tname in eliminated.items():
        _need(uid not in units, file, f"eliminated.{uid}", "is also on the map")
        _need(tname in types, file, f"eliminated.{uid}", "unknown unit type")
    out["eliminated"] = dict(eliminated)

    active = data.get("active", "aztec" if phase == "setup" else "spanish")
    _need(active in SIDES, file, "active", "must be spanish or aztec")
    out["active"] = active
    turn = data.get("turn", 0 if phase == "setup" else 1)
    last_turn = data.get("last_turn", LAST_TURN)
    _need(
        isinstance(last_turn, int) and last_turn >= 1,
        file,
        "last_turn",
        "must be a whole number >= 1",
    )
    _need(
        isinstance(turn, int) and (0 if phase == "setup" else 1) <= turn <= last_turn,
        file,
        "turn",
        f"must be a whole number 1..{last_turn} (0 in setup)",
    )
    out["turn"], out["last_turn"] = turn, last_turn

    card = data.get("card")
    if card is not None:
        _need(card in cards, file, "card", "unknown card")
        _need(
            cards[card]["side"] == active,
            file,
            "card",
            f"{card} is not a card of the {active} deck",
        )
    _need(
        card is not None or phase in ("setup", "draw"),
        file,
        "card",
        "a card must be in play in the movement, defensive-fire, combat and rally phases",
    )
    out["card"] = card
    used = {card} if card else set()
    decks_in = data.get("decks", {})
    discards_in = data.get("discards", {})
    _need(
        isinstance(decks_in, dict) and isinstance(discards_in, dict),
        file,
        "decks",
        "decks and discards must be objects: side -> list of card ids",
    )
    decks: dict[str, list[str]] = {}
    discards: dict[str, list[str]] = {}
    for side in SIDES:
        for what, source, target in (
            ("discards", discards_in, discards),
            ("decks", decks_in, decks),
        ):
            if side not in source:
                continue
            lst = source[side]
            _need(isinstance(lst, list), file, f"{what}.{side}", "must be a list of card ids")
            for pos, cid in enumerate(lst):
                _need(
                    cid in cards and cards[cid]["side"] == side,
                    file,
                    f"{what}.{side}[{pos}]",
                    f"is not a card of the {side} deck",
                )
                _need(cid not in used, file, f"{what}.{side}[{pos}]", f"{cid} is used twice")
                used.add(cid)
            target[side] = list(lst)
    out["decks"] = decks  # missing sides are shuffled at setup
    out["discards"] = {s: discards.get(s, []) for s in SIDES}
    out["unused_cards"] = {
        s: [c["id"] for c in card_decks()[s] if c["id"] not in used] for s in SIDES
    }

    control = data.get("control", {})
    _need(isinstance(control, dict), file, "control", "must be an object: hex -> side")
    for lab, side in control.items():
        _need(board.idx(lab) is not None, file, f"control.{lab}", "is not a hex of the map")
        _need(side in SIDES, file, f"control.{lab}", "must be spanish or aztec")
    out["control"] = dict(control)
    attacks_used = data.get("attacks_used", 0)
    _need(
        isinstance(attacks_used, int) and attacks_used >= 0,
        file,
        "attacks_used",
        "must be a whole number >= 0",
    )
    out["attacks_used"] = attacks_used
    extra = data.get("extra_melee")
    _need(
        extra is None or extra in units, file, "extra_melee", "must be the id of a unit on the map"
    )
    out["extra_melee"] = extra
    threshold = data.get("aztec_wins_at", 6)
    _need(
        isinstance(threshold, int),
        file,
        "aztec_wins_at",
        "must be a whole number (the Aztecs win when the Spanish have this many non-Tlaxcalan units or fewer)",
    )
    out["aztec_wins_at"] = threshold
    out["returned"] = bool(data.get("returned", False))
    out["suggested"] = _suggested(data.get("suggested", {}), units, board, file)
    return out


def _suggested(raw, units: dict, board, file: str) -> dict[str, list[list[str]]]:
    """``suggested``: side -> {unit id: hex}, a deployment a side can take with /suggested.
    Only units still to be placed; the rules check each placement when it is taken."""
    _need(isinstance(raw, dict), file, "suggested", "must be an object: side -> {unit: hex}")
    out: dict[str, list[list[str]]] = {}
    types = unit_types()
    for side, placements in raw.items():
        entry = f"suggested.{side}"
        _need(side in SIDES, file, entry, "must be spanish or aztec")
        _need(isinstance(placements, dict), file, entry, "must be an object: unit id -> hex")
        seen: dict[str, str] = {}
        for uid, lab in placements.items():
            where = f"{entry}.{uid}"
            unit = units.get(uid)
            _need(unit is not None, file, where, "is not a unit of this scenario")
            assert unit is not None  # _need raised otherwise; this tells the type checker
            _need(unit["at"] is None, file, where, "is already on the map")
            _need(
                types[unit["type"]]["side"] == side,
                file,
                where,
                f"is not {with_article(side)} unit",
            )
            _need(board.idx(lab) is not None, file, where, f"{lab!r} is not a hex of the map")
            _need(lab not in seen, file, where, f"{lab} is suggested for {seen.get(lab)} too")
            seen[lab] = uid
        out[side] = [[uid, lab] for uid, lab in placements.items()]
    return out
