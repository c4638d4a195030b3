"""Siege engines: the ballista (rulebook 3.4), onager and catapult (4.2).

``state["engines"]`` maps an engine id to ``{"kind", "side", "cells", ...}`` (the shared SIEGE
state contract: other modules read only ``kind``, ``side`` and ``cells``). ``cells`` is empty
for an onager or catapult standing off the map (4.11: "werden in der Regel außerhalb der Karte
platziert"). Engine-specific keys:

- ballista: ``markers``, the round markers 1-3 of 3.41 laid while its crew stands beside it;
  with all three it may shoot in the crossbows' step, which takes them off again.
- onager and catapult: ``lost`` (destruction points lost to result C, 4.23), ``repair_day``
  (the day spent repairing them), ``aimed`` (``{"day", "at", "fired"}``: the one wall cell it
  bombards that day, 4.21).

An engine may vanish from the dict at any time (siege-fire removes one destroyed by fire), so
nothing here keeps an engine id anywhere else for longer than one action.

Bombardment happens before the day's assault, in the ``prepare`` step (4.11: "Während die
Zerstörung aus der Distanz jede andere Form von Aktion ausschließt"): ``/aim engine: at:``
assigns an engine to a wall cell, ``/bombard at:`` rolls once for the points of every engine
assigned to it (4.21), ``/end-phase`` rolls what is still assigned and starts the assault.
"""

from __future__ import annotations

import functools

from engine.core import hexgrid
from engine.core.dice import Dice

from . import data, figures, fire, movement, shooting, siege_sheet, sight, tower
from .board import Board
from .data import need
from .refusals import say, worded

FILE = "engines.json"
KINDS = ("ballista", "catapult", "onager", "ram")
ACTIONS = ("emplace", "aim", "bombard", "repair", "damage", "bolt", "drive", "batter")


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    raw = data.read_json(data.DATA_DIR / FILE, FILE)
    kinds = raw.get("kinds")
    need(
        isinstance(kinds, dict) and set(kinds) == set(KINDS),
        FILE,
        "kinds",
        f"must describe exactly {', '.join(KINDS)}",
    )
    assert isinstance(kinds, dict)
    for name, entry in kinds.items():
        need(
            isinstance(entry, dict)
            and isinstance(entry.get("title"), str)
            and isinstance(entry.get("points"), int)
            and entry["points"] >= 0,
            FILE,
            f"kinds.{name}",
            "needs a title and its destruction points (a whole number >= 0)",
        )
    ballista = kinds["ballista"]
    for key in ("markers", "crew"):
        need(
            isinstance(ballista.get(key), int) and ballista[key] >= 1,
            FILE,
            f"kinds.ballista.{key}",
            "must be a whole number >= 1",
        )
    need(
        isinstance(ballista.get("ready"), int) and 0 <= ballista["ready"] <= ballista["markers"],
        FILE,
        "kinds.ballista.ready",
        "must be 0 up to markers",
    )
    need(
        ballista.get("crew_type") in data.figure_types(),
        FILE,
        "kinds.ballista.crew_type",
        "must be a figure type of figures.json",
    )
    need(
        isinstance(ballista.get("steps"), list)
        and ballista["steps"]
        and set(ballista["steps"]) <= {"fire1", "fire2"},
        FILE,
        "kinds.ballista.steps",
        "must list fire1 and/or fire2",
    )
    bands = ballista.get("bands")
    need(
        isinstance(bands, dict)
        and set(bands) == set(data.BANDS)
        and all(isinstance(bands[b], int) and bands[b] >= 1 for b in data.BANDS)
        and bands["short"] < bands["medium"] < bands["long"],
        FILE,
        "kinds.ballista.bands",
        "must give short < medium < long in cells",
    )
    mods = ballista.get("modifiers")
    need(
        isinstance(mods, dict)
        and set(mods) == set(data.BANDS)
        and all(isinstance(v, int) for v in mods.values()),
        FILE,
        "kinds.ballista.modifiers",
        "must give a whole-number modifier per band",
    )
    ram = kinds["ram"]
    for key in ("crew", "enter", "between_cells", "every_rounds"):
        need(
            isinstance(ram.get(key), int) and ram[key] >= 1,
            FILE,
            f"kinds.ram.{key}",
            "must be a whole number >= 1",
        )
    need(
        isinstance(ram.get("ignores"), list) and set(ram["ignores"]) <= {"C", "D"},
        FILE,
        "kinds.ram.ignores",
        "must list destruction results the ram ignores",
    )
    stands = raw.get("stands_on")
    need(
        isinstance(stands, list) and stands and all(k in data.terrain()["kinds"] for k in stands),
        FILE,
        "stands_on",
        "must list terrain kinds of terrain.json",
    )
    return raw


def title(kind: str) -> str:
    return spec()["kinds"][kind]["title"]


# ----- scenario --------------------------------------------------------------------------
def validate(board: Board, raw: object, figs: dict, blocked: set[str], file: str) -> dict:
    """Scenario entry ``engines``: id -> {kind, side, at (absent: an onager or catapult off
    the map), markers (ballista), lost (onager, catapult)}."""
    need(isinstance(raw, dict), file, "engines", "must be an object: engine id -> engine")
    assert isinstance(raw, dict)
    out: dict[str, dict] = {}
    living = {f["at"] for f in figs.values() if not f["dead"]}
    for eid, e in raw.items():
        entry = f"engines.{eid}"
        need(
            isinstance(eid, str) and 1 <= len(eid) <= 24 and eid.replace("-", "").isalnum(),
            file,
            entry,
            "ids are 1-24 letters, digits or dashes",
        )
        need(
            isinstance(e, dict)
            and set(e) <= {"kind", "side", "at", "markers", "lost", "cells", "towards"},
            file,
            entry,
            "must be an object with kind, side, at (and markers for a ballista, lost for an "
            "onager or catapult; a ram has cells and towards instead of at)",
        )
        need(e.get("kind") in KINDS, file, f"{entry}.kind", f"must be one of {', '.join(KINDS)}")
        need(e.get("side") in ("besieger", "defender"), file, f"{entry}.side", "must be a side")
        kind = e["kind"]
        taken = {c for o in out.values() for c in o["cells"]}
        if kind == "ram":
            out[eid] = _validate_ram(board, e, blocked | taken, entry, file)
            continue
        need(
            "cells" not in e and "towards" not in e,
            file,
            entry,
            "only a ram has cells and towards; other engines stand on one cell, at",
        )
        at = e.get("at")
        if at is None:
            need(
                kind != "ballista",
                file,
                f"{entry}.at",
                "a ballista stands on the map (3.41: its crew stands beside it)",
            )
        else:
            need(
                isinstance(at, str)
                and at in board
                and board.cell(at).kind in spec()["stands_on"]
                and at not in blocked,
                file,
                f"{entry}.at",
                f"must be a free cell of {' or '.join(spec()['stands_on'])}",
            )
            need(
                at not in living,
                file,
                f"{entry}.at",
                "a figure stands there: no figure may be in an engine's cell (3.43)",
            )
            need(
                all(at not in o["cells"] for o in out.values()),
                file,
                f"{entry}.at",
                "another engine stands there",
            )
        engine: dict = {"kind": kind, "side": e["side"], "cells": [at] if at else []}
        if kind == "ballista":
            most = spec()["kinds"]["ballista"]["markers"]
            markers = e.get("markers", spec()["kinds"]["ballista"]["ready"])
            need(
                isinstance(markers, int) and 0 <= markers <= most and "lost" not in e,
                file,
                f"{entry}.markers",
                f"a ballista carries 0-{most} round markers (3.41) and no lost points",
            )
            engine["markers"] = markers
        else:
            points = spec()["kinds"][kind]["points"]
            lost = e.get("lost", 0)
            need(
                isinstance(lost, int) and 0 <= lost <= points and "markers" not in e,
                file,
                f"{entry}.lost",
                f"a {kind} has lost 0-{points} destruction points (4.23) and carries no markers",
            )
            engine.update(lost=lost, repair_day=None, aimed=None)
        out[eid] = engine
    return out


def _validate_ram(board: Board, e: dict, blocked: set[str], entry: str, file: str) -> dict:
    """A ram: three connected cells of ground a siege tower could roll over, and ``towards``,
    the neighbour of its first cell its front faces (4.31: moved like the siege tower, G13)."""
    need(
        set(e) == {"kind", "side", "cells", "towards"},
        file,
        entry,
        "a ram has kind, side, cells (three) and towards (the neighbour its front faces)",
    )
    ram_cells = e["cells"]
    rolls = tower.spec()["rolls_over"]
    need(
        isinstance(ram_cells, list)
        and len(ram_cells) == 3
        and len(set(ram_cells)) == 3
        and all(isinstance(c, str) and c in board for c in ram_cells),
        file,
        f"{entry}.cells",
        "must be three different cells of the map",
    )
    need(
        all(board.cell(c).kind in rolls for c in ram_cells),
        file,
        f"{entry}.cells",
        f"a ram stands only on {' or '.join(rolls)} (4.31, as the siege tower 2.41)",
    )
    need(
        all(any(board.distance(c, o) == 1 for o in ram_cells if o != c) for c in ram_cells),
        file,
        f"{entry}.cells",
        "the three cells must hang together",
    )
    need(
        not blocked & set(ram_cells),
        file,
        f"{entry}.cells",
        "a siege tower, ladder, engine, horse or wagon stands there",
    )
    need(
        isinstance(e["towards"], str)
        and e["towards"] in board
        and board.distance(ram_cells[0], e["towards"]) == 1
        and e["towards"] not in ram_cells,
        file,
        f"{entry}.towards",
        "must be a neighbour of the first cell outside the ram",
    )
    return {
        "kind": "ram",
        "side": e["side"],
        "cells": list(ram_cells),
        "towards": e["towards"],
        "last_roll": None,
        "driven_half": None,
    }


def validate_placing(engines: dict, placed: object, file: str) -> list[str]:
    """Scenario entry ``prepare.engines``: besieger engines placed before the assault."""
    need(
        isinstance(placed, list)
        and all(
            isinstance(e, str)
            and e in engines
            and engines[e]["side"] == "besieger"
            and engines[e]["kind"] != "ram"
            for e in placed
        )
        and len(set(placed)) == len(placed),
        file,
        "prepare.engines",
        "must list besieger engines of this file (not rams: they are pushed, 4.31), each once "
        "(3.43: placed before the assault)",
    )
    assert isinstance(placed, list)
    return list(placed)


# ----- where engines stand ---------------------------------------------------------------
def cells(state: dict) -> dict[str, str]:
    """Cell -> the engine standing on it."""
    return {c: eid for eid, e in state.get("engines", {}).items() for c in e["cells"]}


def block(
    state: dict,
    seen,
    from_cell: str,
    to_cell: str,
    board: Board | None = None,
    shooter_level: int | None = None,
) -> None:
    """3.42 (and 4.22 for onager and catapult): no shot through an engine's cell. 4.33: a
    ram's cells block lines of figures on its level (E13); under it total cover, no shooting."""
    if not seen.possible:
        return
    standing = cells(state)
    rams = {c for c, eid in standing.items() if state["engines"][eid]["kind"] == "ram"}
    if from_cell in rams:
        seen.possible = False
        seen.reasons.append(
            say(
                "sight_under_ram_shooter",
                f"{from_cell}: figures under a ram do not shoot (4.33)",
                cell=from_cell,
            )
        )
        return
    if to_cell in rams:
        seen.possible = False
        seen.cover = "full"
        seen.reasons.append(
            say("sight_under_ram", f"{to_cell}: total cover under the ram (4.33)", cell=to_cell)
        )
        return
    # 2.43 (as reading C6 has it for tents): within its radius the top of a siege tower sees
    # over "Hindernisse ..., die sich tiefer befinden", and an engine on the ground is one.
    from_top = (
        board is not None
        and from_cell in tower.cells_of(state)
        and shooter_level == tower.spec()["top_level"]
        and board.distance(from_cell, to_cell) <= tower.spec()["shooting_radius"]
    )
    for cell in seen.crossed:
        if cell not in standing or cell in (from_cell, to_cell):
            continue
        if cell in rams and board is not None and shooter_level != board.cell(cell).level:
            continue
        if from_top:
            kind = title(state["engines"][standing[cell]]["kind"])
            seen.reasons.insert(
                -1 if seen.reasons else 0,
                say(
                    "sight_engine_lower",
                    f"{cell}: the {kind} is lower than the siege tower's top: no hindrance "
                    "(2.43, E16)",
                    cell=cell,
                    engine=_a(kind),
                ),
            )
            continue
        seen.possible = False
        kind = title(state["engines"][standing[cell]]["kind"])
        rule = "4.33" if cell in rams else "3.42"
        seen.reasons.append(
            say(
                "sight_engine_blocks",
                f"{cell}: the {kind} stands there: no shot through it ({rule})",
                cell=cell,
                engine=_a(kind),
                rule=rule,
            )
        )
        return


def _a(kind: str) -> str:
    """An engine's title with its article ("a ballista", "an onager"): a word the riders'
    German knows."""
    return ("an " if kind[:1] in "aeiou" else "a ") + kind


def crew(state: dict, eid: str) -> list[str]:
    """3.41: the able figures of the ballista's side beside it."""
    e = state["engines"][eid]
    if not e["cells"]:
        return []
    board_cells = set(e["cells"])
    return [
        fid
        for fid, f in sorted(state["figures"].items())
        if f["side"] == e["side"]
        and figures.can_act(f)
        and tower.layer(f) == tower.GROUND
        and any(_adjacent(f["at"], c) for c in board_cells)
    ]


def _adjacent(a: str, b: str) -> bool:
    return hexgrid.distance(hexgrid.parse_label(a), hexgrid.parse_label(b)) == 1


def manned(state: dict, eid: str) -> bool:
    """3.41: "zwei Figuren angrenzend ... Mindestens eine von diesen beiden Figuren muß ein
    Techniker sein"."""
    ballista = spec()["kinds"]["ballista"]
    team = crew(state, eid)
    return len(team) >= ballista["crew"] and any(
        state["figures"][fid]["type"] == ballista["crew_type"] for fid in team
    )


def points(state: dict, e: dict) -> int:
    """Destruction points an onager or catapult can use today (4.21, 4.23): its kind's less
    what result C took, all of it back once a day of repair has passed, none while repairing."""
    day = state.get("day", 1)
    full = spec()["kinds"][e["kind"]]["points"]
    if e.get("repair_day") is not None:
        return 0 if e["repair_day"] >= day else full
    return full - e.get("lost", 0)


def _repaired(state: dict, e: dict) -> None:
    if e.get("repair_day") is not None and e["repair_day"] < state.get("day", 1):
        e.update(lost=0, repair_day=None)


# ----- prepare: placing and bombarding ---------------------------------------------------
def _free_cells(rules, state: dict, eid: str) -> list[str]:
    from . import riders

    board = rules.board(state)
    taken = {f["at"] for f in state["figures"].values() if not f["dead"]}
    taken |= set(tower.cells_of(state))
    taken |= {lad["at"] for lad in state.get("ladders", {}).values()}
    taken |= {c for c, other in cells(state).items() if other != eid}
    taken |= set(riders.occupied_cells(state))  # 3.32: no engine on a horse's or wagon's cell
    return [
        lab
        for lab in board.labels()
        if board.cell(lab).kind in spec()["stands_on"] and lab not in taken
    ]


def movable(state: dict, side: str) -> list[str]:
    """3.43: engines are fixed once on the map; the scenario's ``prepare.engines`` are set up
    before the first assault, and on every later day ("vor jedem neuen Angriff neu postiert")
    each engine of the besieger standing on the map may be set up anew, once."""
    day = state.get("day", 1)
    out = [e for e in state.get("to_place", {}).get("engines", []) if e in state.get("engines", {})]
    if day > 1:
        out += [
            eid
            for eid, e in sorted(state.get("engines", {}).items())
            if e["side"] == side
            and e["cells"]
            and e["kind"] != "ram"
            and e.get("placed_day") != day
            and eid not in out
        ]
    return out


def _bombarders(state: dict, side: str) -> list[str]:
    day = state.get("day", 1)
    return [
        eid
        for eid, e in sorted(state.get("engines", {}).items())
        if e["side"] == side
        and e["kind"] in ("catapult", "onager")
        and points(state, e) > 0
        and not (e.get("aimed") and e["aimed"]["day"] == day)
    ]


def _aimable(rules, state: dict) -> list[str]:
    board = rules.board(state)
    day = state.get("day", 1)
    sheet = state.get("siege_sheet", {})
    broken = {c for c, k in state.get("counters", []) if k == "breach"}
    return [
        c
        for c in siege_sheet.targets(board)
        if c not in broken
        and sheet.get(c, {}).get("rolled_day") != day
        and sheet.get(c, {}).get("ranged_day") != day
        and not siege_sheet.keep_blocked(board, state, c)
    ]


def _aimed_at(state: dict) -> dict[str, list[str]]:
    """Wall cell -> the engines assigned to it today that have not fired yet."""
    day = state.get("day", 1)
    out: dict[str, list[str]] = {}
    for eid, e in sorted(state.get("engines", {}).items()):
        aimed = e.get("aimed")
        if aimed and aimed["day"] == day and not aimed["fired"]:
            out.setdefault(aimed["at"], []).append(eid)
    return out


def prepare_actions(rules, state: dict, side: str) -> list[dict]:
    out: list[dict] = []
    for eid in movable(state, side):
        out += [
            {"type": "emplace", "side": side, "engine": eid, "at": c}
            for c in _free_cells(rules, state, eid)
        ]
    shooters = _bombarders(state, side)
    if shooters:
        walls = _aimable(rules, state)
        out += [
            {"type": "aim", "side": side, "engine": eid, "at": c} for eid in shooters for c in walls
        ]
    out += [{"type": "bombard", "side": side, "at": c} for c in sorted(_aimed_at(state))]
    day = state.get("day", 1)
    if any(
        e["side"] == side
        and e.get("lost")
        and e.get("repair_day") is None
        and not (e.get("aimed") and e["aimed"]["day"] == day)
        for e in state.get("engines", {}).values()
    ):
        out.append({"type": "repair", "side": side})
    return out


def damage_actions(state: dict, side: str) -> list[dict]:
    pending = state["engine_damage"]
    return [
        {"type": "damage", "side": side, "engine": eid}
        for eid in pending["among"]
        if eid in state.get("engines", {}) and points(state, state["engines"][eid]) > 0
    ]


def bombard(rules, state: dict, cell: str, dice: Dice, events: list) -> None:
    """4.21: one roll for every engine assigned to the cell today, their points added up;
    the round walls take 1 off the die. D: one damage step; C: the engines lose points."""
    board = rules.board(state)
    day = state.get("day", 1)
    shooters = [eid for eid in _aimed_at(state).get(cell, []) if eid in state["engines"]]
    total = sum(points(state, state["engines"][eid]) for eid in shooters)
    for eid in shooters:
        state["engines"][eid]["aimed"]["fired"] = True
    sheet = state.setdefault("siege_sheet", {})
    sheet.setdefault(cell, {"step": 0, "ranged_day": None})["rolled_day"] = day
    mod = siege_sheet.modifier(board, cell)
    names = ", ".join(f"{eid} ({title(state['engines'][eid]['kind'])})" for eid in shooters)
    roll = dice.roll(f"{names} bombard {cell}", events, sides=10)
    letter = siege_sheet.result(total, roll + mod)
    meaning = {
        "-": "no effect",
        "D": "one destruction step",
        "C": "the engines are damaged",
    }[letter]
    if letter == "D" and siege_sheet.keep_blocked(board, state, cell):
        meaning = "no effect: a keep wall breaks only after a neighbouring keep cell is damaged"
        letter = "-"
    text = (
        f"{names} bombard {cell}: {total} destruction point{'s' if total != 1 else ''}; d10 "
        f"{roll}{mod:+d}={roll + mod} -> {letter if letter != '-' else 'no result'}: {meaning}"
    )
    events.append(
        {
            "type": "bombarded",
            "at": cell,
            "engines": shooters,
            "points": total,
            "roll": roll,
            "modifier": mod,
            "letter": letter,
            "text": text,
        }
    )
    if letter == "D":
        siege_sheet.damage(state, cell, True, events)
    elif letter == "C":
        state["engine_damage"] = {
            "side": state["engines"][shooters[0]]["side"],
            "points": siege_sheet.table()["engine_damage"],
            "among": shooters,
        }
        _settle_damage(state, events)


def _settle_damage(state: dict, events: list) -> None:
    """4.23: "den entsprechenden Abzug von Zerstörungspunkten teilt der Spieler unter seinen
    Maschinen auf": with one engine left to take the loss it takes it at once; with several
    the owner chooses (``/damage engine:``)."""
    pending = state["engine_damage"]
    while pending["points"] > 0:
        able = damage_actions(state, pending["side"])
        if not able:
            break
        if len(able) > 1:
            state["awaiting"] = [pending["side"]]
            events.append(
                {
                    "type": "choose_engine_damage",
                    "side": pending["side"],
                    "among": [a["engine"] for a in able],
                    "points": pending["points"],
                }
            )
            return
        _lose_point(state, able[0]["engine"], events)
    state["engine_damage"] = None
    state["awaiting"] = [state["active"]]


def _lose_point(state: dict, eid: str, events: list) -> None:
    e = state["engines"][eid]
    e["lost"] = e.get("lost", 0) + 1
    state["engine_damage"]["points"] -= 1
    events.append(
        {"type": "engine_damaged", "engine": eid, "points_left": points(state, e), "by": "C"}
    )


def apply(rules, state: dict, action: dict, dice: Dice, events: list) -> None:
    kind = action["type"]
    day = state.get("day", 1)
    for e in state["engines"].values():
        _repaired(state, e)
    if kind == "emplace":
        eid = action["engine"]
        state["engines"][eid].update(cells=[action["at"]], placed_day=day)
        if eid in state["to_place"].get("engines", []):
            state["to_place"]["engines"].remove(eid)
        events.append({"type": "engine_placed", "engine": eid, "at": action["at"]})
    elif kind == "aim":
        e = state["engines"][action["engine"]]
        e["aimed"] = {"day": day, "at": action["at"], "fired": False}
        events.append({"type": "engine_aimed", "engine": action["engine"], "at": action["at"]})
    elif kind == "bombard":
        bombard(rules, state, action["at"], dice, events)
    elif kind == "repair":
        fixing = [
            eid
            for eid, e in sorted(state["engines"].items())
            if e["side"] == action["side"]
            and e.get("lost")
            and e.get("repair_day") is None
            and not (e.get("aimed") and e["aimed"]["day"] == day)
        ]
        for eid in fixing:
            state["engines"][eid]["repair_day"] = day
        events.append({"type": "engines_repairing", "engines": fixing, "day": day})
    elif kind == "damage":
        _lose_point(state, action["engine"], events)
        _settle_damage(state, events)
    elif kind == "bolt":
        shoot(rules, state, action["engine"], action["target"], dice, events)
    elif kind == "drive":
        drive(rules, state, action["engine"], action["to"], events)
    elif kind == "batter":
        batter(rules, state, action["engine"], dice, events)


def finish_prepare(rules, state: dict, dice: Dice, events: list) -> bool:
    """``/end-phase`` before the assault: every engine still assigned fires. True when a
    result C waits for the besieger's choice (the step stays open)."""
    for e in state.get("engines", {}).values():
        _repaired(state, e)
    for cell in sorted(_aimed_at(state)):
        bombard(rules, state, cell, dice, events)
        if state.get("engine_damage"):
            return True
    return False


def more_to_do(rules, state: dict, side: str) -> bool:
    """Whether the besieger still has engine work before the assault (so it does not start
    by itself when the last counter is laid)."""
    return bool(prepare_actions(rules, state, side))


# ----- the ballista ----------------------------------------------------------------------
def ballista_sight(rules, state: dict, eid: str, target_id: str):
    target = state["figures"][target_id]
    return _ballista_line(rules, state, eid, target["at"], tower.layer(target) == tower.TOP)


def _ballista_line(rules, state: dict, eid: str, to_cell: str, target_top: bool):
    board = rules.board(state)
    at = state["engines"][eid]["cells"][0]
    living = {
        f["at"]: f["name"]
        for f in state["figures"].values()
        if not f["dead"] and tower.layer(f) == tower.GROUND
    }
    seen = sight.look(
        board,
        living,
        at,
        to_cell,
        bands=spec()["kinds"]["ballista"]["bands"],
        bridge_up=state["bridge_up"],
        ladders=rules._ladders(state),
        facing=rules._facing(state),
        towers=tower.cells_of(state),
        target_top=target_top,
    )
    block(state, seen, at, to_cell, board, board.cell(at).level)
    return seen


def los_text(rules, state: dict, from_cell: str, to_cell: str, lang: str = "en") -> str | None:
    """``/los`` from a ballista's cell: its own line and range bands (3.41, E3), as ``/bolt``
    judges them; None from any other cell."""
    eid = cells(state).get(from_cell)
    if eid is None or state["engines"][eid]["kind"] != "ballista":
        return None
    target_top = any(
        f["at"] == to_cell and not f["dead"] and tower.layer(f) == tower.TOP
        for f in state["figures"].values()
    )
    seen = _ballista_line(rules, state, eid, to_cell, target_top)
    bands = (
        f"(Reichweiten der Balliste {eid})"
        if lang == "de"
        else f"(the ballista {eid}'s range bands)"
    )
    return sight.answer_text(seen, from_cell, to_cell, lang) + f"\n- {bands}"


def bolt_actions(rules, state: dict, side: str) -> list[dict]:
    """3.41: a manned ballista with all its round markers shoots in the crossbows' step."""
    ballista = spec()["kinds"]["ballista"]
    if state["phase"] not in ballista["steps"] or side != state["active"]:
        return []
    out = []
    board = rules.board(state)
    for eid, e in sorted(state.get("engines", {}).items()):
        if (
            e["kind"] != "ballista"
            or e["side"] != side
            or not e["cells"]
            or e.get("markers", 0) < ballista["markers"]
            or not manned(state, eid)
        ):
            continue
        for tid, t in sorted(state["figures"].items()):
            if t["side"] == side or t["dead"]:
                continue
            if board.distance(e["cells"][0], t["at"]) > ballista["bands"]["long"] + 1:
                continue
            if ballista_sight(rules, state, eid, tid).possible:
                out.append({"type": "bolt", "side": side, "engine": eid, "target": tid})
    return out


def shoot(rules, state: dict, eid: str, target_id: str, dice: Dice, events: list) -> None:
    """3.41: the fire table by the target's cover, with the ballista's own band modifier."""
    e, target = state["engines"][eid], state["figures"][target_id]
    seen = ballista_sight(rules, state, eid, target_id)
    assert seen.band is not None  # only possible lines are offered
    mod = spec()["kinds"]["ballista"]["modifiers"][seen.band]
    roll = dice.roll(f"ballista {eid} shoots at {target['name']}", events, sides=10)
    modified = roll + mod
    letter = shooting.table_letter(seen.cover, modified)
    outcome, meaning = "no effect", "no effect"
    if letter != "-":
        result = data.results()[letter]
        meaning = result["title"]
        if result["side"] == "defender" and result["effect"] != "retreat":
            outcome = figures.apply_effect(target, result["effect"], state["half"])
    e["markers"] = 0
    text = (
        f"Ballista {eid} {e['cells'][0]}->{target['at']} {target['name']}: range "
        f"{seen.distance} {seen.band} ({mod:+d}), cover {seen.cover}; d10 {roll}{mod:+d}="
        f"{modified} -> {letter if letter != '-' else 'no result'}: {meaning}; "
        f"{target['name']} {outcome}"
    )
    events.append(
        {
            "type": "shot",
            "unit": eid,
            "engine": eid,
            "target": target_id,
            "from": e["cells"][0],
            "to": target["at"],
            "weapon": "ballista",
            "range": seen.distance,
            "band": seen.band,
            "modifier": mod,
            "cover": seen.cover,
            "roll": roll,
            "modified": modified,
            "letter": letter,
            "outcome": outcome,
            "text": text,
        }
    )


def end_of_phase(state: dict, events: list) -> None:
    """3.41 markers: at the end of its side's phase a manned ballista gains a round marker;
    at the end of any phase a ballista without its crew loses them all ("Während dieser drei
    Runden müssen sich zwei Figuren angrenzend zu der Ballista befinden")."""
    most = spec()["kinds"]["ballista"]["markers"]
    for eid, e in sorted(state.get("engines", {}).items()):
        if e["kind"] != "ballista" or not e["cells"]:
            continue
        if not manned(state, eid):
            if e.get("markers"):
                events.append({"type": "ballista_unmanned", "engine": eid})
            e["markers"] = 0
        elif e["side"] == state["active"] and e["markers"] < most:
            e["markers"] += 1
            events.append({"type": "ballista_marker", "engine": eid, "markers": e["markers"]})


# ----- the ram ---------------------------------------------------------------------------
def _as_tower(state: dict, eid: str) -> dict:
    """The ram seen through the siege tower's machinery (4.31: "genauso wie ein
    Belagerungsturm bewegt"): a view with only this ram as a tower."""
    return {"towers": {eid: state["engines"][eid]}, "figures": state["figures"]}


def ram_crew(state: dict, eid: str) -> list[str]:
    """Able figures of the ram's side under it (4.31: three, needed to move and to work it)."""
    return tower.crew(_as_tower(state, eid), eid)


def _rams(state: dict, side: str | None = None) -> list[str]:
    return [
        eid
        for eid, e in sorted(state.get("engines", {}).items())
        if e["kind"] == "ram" and (side is None or e["side"] == side)
    ]


def ram_blocked(state: dict, eid: str) -> set[str]:
    """Cells a ram may not roll onto: living figures outside it, ladders, siege towers, other
    engines (G13), living horses and wagons (3.32: no horse shares a cell with an engine)."""
    from . import riders

    e = state["engines"][eid]
    blocked = {
        f["at"] for f in state["figures"].values() if not f["dead"] and f["at"] not in e["cells"]
    }
    blocked |= {lad["at"] for lad in state.get("ladders", {}).values()}
    blocked |= set(tower.cells_of(state))
    blocked |= set(riders.occupied_cells(state))
    return blocked | {c for c, other in cells(state).items() if other != eid}


def drive_actions(rules, state: dict, side: str) -> list[dict]:
    """4.31 with 2.41: three able figures under the ram that have not acted push it straight
    forward or back once a round; not the round after one of them fought (G14)."""
    if side != state["active"] or state["phase"] != "move":
        return []
    board = rules.board(state)
    out = []
    need_crew = spec()["kinds"]["ram"]["crew"]
    for eid in _rams(state, side):
        e = state["engines"][eid]
        if e.get("driven_half") == state["half"]:
            continue
        under = [
            fid for fid, f in state["figures"].items() if f["at"] in e["cells"] and not f["dead"]
        ]
        if any(state["melee_half"].get(fid, -9) >= state["half"] - 2 for fid in under):
            continue
        team = [
            fid
            for fid in ram_crew(state, eid)
            if fid not in state["done"] and fid not in rules._busy(state)
        ]
        if len(team) < need_crew:
            continue
        moves = tower.tower_moves(board, _as_tower(state, eid), eid, ram_blocked(state, eid))
        out += [{"type": "drive", "side": side, "engine": eid, "to": to} for to in sorted(moves)]
    return out


def drive(rules, state: dict, eid: str, to: str, events: list) -> None:
    e = state["engines"][eid]
    board = rules.board(state)
    view = _as_tower(state, eid)
    new_cells, cost = tower.tower_moves(board, view, eid, ram_blocked(state, eid))[to]
    team = [fid for fid in ram_crew(state, eid) if fid not in state["done"]][
        : spec()["kinds"]["ram"]["crew"]
    ]
    vector = tower.heading(board, e)
    old = list(e["cells"])
    moving = dict(zip(old, new_cells))
    for f in state["figures"].values():
        if f["at"] in moving and not f["dead"]:
            f["at"] = moving[f["at"]]
    e["cells"] = list(new_cells)
    fire.follow(state, moving)  # a burning ram carries its fire along
    q, r = board.cell(new_cells[0]).hex
    e["towards"] = hexgrid.label((q + vector[0], r + vector[1]))
    e["driven_half"] = state["half"]
    state["done"] += team
    state["acted"] += team
    events.append(
        {
            "type": "ram_driven",
            "engine": eid,
            "from": old,
            "to": new_cells,
            "cost": cost,
            "crew": team,
        }
    )


def ram_wall(rules, state: dict, eid: str) -> str | None:
    """4.32: the wall cell the ram's front touches, if it may be battered: a wall or tower
    cell of the castle's face, not the keep ("Ein Widder kann nicht gegen Mauerfelder des
    Burgfrieds eingesetzt werden"), not yet broken."""
    return _front_wall(rules.board(state), state, eid)


def _front_wall(board: Board, state: dict, eid: str) -> str | None:
    front = state["engines"][eid].get("towards")
    if front not in board or front not in siege_sheet.targets(board):
        return None
    if siege_sheet.family(board, front) == "keep":
        return None
    return front


def batter_actions(rules, state: dict, side: str) -> list[dict]:
    """4.32, 4.34: in its side's melee step, a ram with its front at a wall rolls once every
    second round, worked by three able figures under it none of which fought or tried to put
    out a fire this round."""
    if side != state["active"] or state["phase"] != "melee":
        return []
    ram = spec()["kinds"]["ram"]
    out = []
    for eid in _rams(state, side):
        e = state["engines"][eid]
        if e.get("last_roll") is not None and state["turn"] < e["last_roll"] + ram["every_rounds"]:
            continue
        if ram_wall(rules, state, eid) is None:
            continue
        team = ram_crew(state, eid)
        if len(team) < ram["crew"]:
            continue
        if any(state["melee_half"].get(fid, -9) >= state["half"] - 1 for fid in team):
            continue
        if fire.fought_fire(state, team):
            continue
        out.append({"type": "batter", "side": side, "engine": eid})
    return out


def batter(rules, state: dict, eid: str, dice: Dice, events: list) -> None:
    """4.32: 9 destruction points, result C ignored; 1 off the die on a wall already damaged
    (and on the round walls, the gate walls counting as parapets)."""
    board = rules.board(state)
    e = state["engines"][eid]
    cell = ram_wall(rules, state, eid)
    assert cell is not None  # only offered at a wall
    ram = spec()["kinds"]["ram"]
    e["last_roll"] = state["turn"]
    mod = siege_sheet.modifier(board, cell) + (-1 if siege_sheet.step(state, cell) else 0)
    roll = dice.roll(f"ram {eid} batters {cell}", events, sides=10)
    letter = siege_sheet.result(ram["points"], roll + mod)
    if letter in ram["ignores"]:
        letter = "-"
    meaning = {"-": "no effect", "D": "one destruction step"}[letter]
    text = (
        f"Ram {eid} batters {cell}: {ram['points']} destruction points; d10 {roll}{mod:+d}="
        f"{roll + mod} -> {letter if letter != '-' else 'no result'}: {meaning}"
    )
    events.append(
        {
            "type": "bombarded",
            "at": cell,
            "engines": [eid],
            "points": ram["points"],
            "roll": roll,
            "modifier": mod,
            "letter": letter,
            "text": text,
        }
    )
    if letter == "D":
        siege_sheet.damage(state, cell, False, events)


def ram_entries(rules, state: dict, board: Board, fid: str, budget: int, plans: dict) -> dict:
    """Moves into a ram of the figure's side (the chart: "Widder 2 zu Fuß"): from where the
    figure stands or any cell it can reach, onto a free cell under the ram; between two cells
    of one ram 1 point (as in the siege tower, 2.42). Never through a ram."""
    f = state["figures"][fid]
    occupied = {o["at"] for o in state["figures"].values() if not o["dead"]}
    burning = fire.fires(state)  # 3.54: nobody walks into a fire, under a ram or not
    ram = spec()["kinds"]["ram"]
    out: dict[str, dict] = {}
    for eid in _rams(state, f["side"]):
        e = state["engines"][eid]
        for cell in e["cells"]:
            if cell in occupied or cell in burning:
                continue
            if f["at"] in e["cells"]:
                if board.distance(f["at"], cell) == 1 and ram["between_cells"] <= budget:
                    out[cell] = {"path": [f["at"], cell], "cost": ram["between_cells"]}
                continue
            best = None
            starts = [(f["at"], [f["at"]], 0)] + [
                (key, p["path"], p["cost"])
                for key, p in plans.items()
                if "+" not in key and key not in cells(state)
            ]
            for here, path, cost in starts:
                if (
                    board.distance(here, cell) == 1
                    and movement.connects(board, here, cell, state["bridge_up"])
                    and cost + ram["enter"] <= budget
                    and (best is None or cost + ram["enter"] < best["cost"])
                ):
                    best = {"path": [*path, cell], "cost": cost + ram["enter"]}
            if best:
                out[cell] = best
    return out


# ----- presentation ----------------------------------------------------------------------
def status(state: dict, eid: str) -> str:
    e = state["engines"][eid]
    where = e["cells"][0] if e["cells"] else "off the map"
    if e["kind"] == "ballista":
        most = spec()["kinds"]["ballista"]["markers"]
        crew_names = ", ".join(state["figures"][f]["name"] for f in crew(state, eid)) or "none"
        ready = (
            "ready to shoot"
            if e["markers"] >= most
            else f"shoots after {most - e['markers']} more manned round(s)"
        )
        return f"{eid} ballista {where}: {e['markers']}/{most} markers, {ready}; crew {crew_names}"
    if e["kind"] == "ram":
        every = spec()["kinds"]["ram"]["every_rounds"]
        team = ", ".join(state["figures"][f]["name"] for f in ram_crew(state, eid)) or "none"
        counters = tuple(sorted((c, k) for c, k in state.get("counters", [])))
        board = data.board_with(state["map"], counters) if counters else data.board(state["map"])
        if _front_wall(board, state, eid) is None:
            nxt = "its front touches no wall it may batter (4.32)"
        elif e.get("last_roll") is None or state["turn"] >= e["last_roll"] + every:
            nxt = f"may batter {e['towards']} in the melee step"
        else:
            nxt = f"next roll in round {e['last_roll'] + every}"
        return f"{eid} ram {'-'.join(e['cells'])} facing {e['towards']}: {nxt}; crew {team}"
    full = spec()["kinds"][e["kind"]]["points"]
    now = points(state, e)
    extra = ""
    if e.get("repair_day") is not None:
        extra = f", repairing on day {e['repair_day']}"
    elif e.get("lost"):
        extra = f", damaged (−{e['lost']})"
    day = state.get("day", 1)
    aimed = e.get("aimed")
    if aimed and aimed["day"] == day:
        extra += (
            f"; bombarded {aimed['at']} today, next on day {day + 1}"
            if aimed["fired"]
            else f"; laid on {aimed['at']}, fires at /bombard or /end-phase"
        )
    elif now:
        extra += "; may bombard before the assault"
    return f"{eid} {title(e['kind'])} {where}: {now}/{full} points{extra}"


def header_lines(state: dict) -> dict[str, str]:
    out = {}
    if state.get("engines"):
        out["Engines"] = "; ".join(status(state, eid) for eid in sorted(state["engines"]))
    sheet = {c: v for c, v in state.get("siege_sheet", {}).items() if v.get("step")}
    if sheet:
        out["Walls"] = ", ".join(
            f"{c} {siege_sheet.step_name(v['step'])}" for c, v in sorted(sheet.items())
        )
    if state.get("engine_damage"):
        out["Engine damage"] = (
            f"{state['engine_damage']['points']} point(s) to take among "
            + ", ".join(state["engine_damage"]["among"])
            + " (/damage)"
        )
    return out


ENGINE_COLORS = {"besieger": "#8e3b00", "defender": "#0d3557"}


def scene_parts(state: dict, word=lambda text: text) -> tuple[list[dict], list[dict], list[dict]]:
    """Engine counters (kind, state), rams outlined and labelled, and a damage marker with its
    step on every damaged wall. ``word`` gives the picture's words in the reader's language."""
    pieces, markers, labels = [], [], []
    most = spec()["kinds"]["ballista"]["markers"]
    for eid, e in sorted(state.get("engines", {}).items()):
        if not e["cells"]:
            continue
        if e["kind"] == "ram":
            # Like the siege tower: the cells outlined, the crew's counters in them (4.31).
            color = ENGINE_COLORS[e["side"]]
            markers += [{"at": c, "kind": "highlight", "color": color} for c in e["cells"]]
            labels.append({"at": e["cells"][0], "text": f"{word('ram')} {eid}", "color": color})
            continue
        if e["kind"] == "ballista":
            values = f"{e['markers']}/{most}"
        else:
            values = f"{points(state, e)} pts"
        piece = {
            "at": e["cells"][0],
            "id": f"engine-{eid}",
            "color": ENGINE_COLORS[e["side"]],
            "title": word(title(e["kind"]))[:8],
            "values": values,
        }
        if e.get("lost") or e.get("repair_day") is not None:
            piece["badge"] = "D"
        pieces.append(piece)
    broken = {c for c, k in state.get("counters", []) if k == "breach"}
    for cell, v in sorted(state.get("siege_sheet", {}).items()):
        if v.get("step") and cell not in broken:
            # The ring shows at phone size which walls are damaged, where the star with its
            # step is a few pixels at the cell's corner; the step is in the header.
            markers.append({"at": cell, "kind": "highlight", "color": WALL_DAMAGE_RING})
            markers.append({"at": cell, "kind": "breach", "text": str(v["step"])})
    return pieces, markers, labels


# Magenta: no terrain, side or other outline of the castle uses it.
WALL_DAMAGE_RING = "#c2008f"


def picture_line(state: dict, word) -> str | None:
    """The engines for the picture's header, short enough for a phone: each one's points (a
    ballista: its round markers) and where it stands; the full status is in the text header.
    ``word`` gives the picture's words in the reader's language."""
    parts = []
    for eid, e in sorted(state.get("engines", {}).items()):
        if e["kind"] == "ram":
            parts.append(f"{eid} {e['cells'][0] if e['cells'] else word('off the map')}")
            continue
        where = e["cells"][0] if e["cells"] else word("off the map")
        if e["kind"] == "ballista":
            most = spec()["kinds"]["ballista"]["markers"]
            parts.append(f"{eid} {where} {e['markers']}/{most}")
            continue
        full = spec()["kinds"][e["kind"]]["points"]
        extra = f" {word('repairing')}" if e.get("repair_day") is not None else ""
        parts.append(f"{eid} {where} {points(state, e)}/{full}{extra}")
    return ", ".join(parts) or None


# The engines' events in each language (Balliste, Katapult, Onager, Widder: the rulebook's
# words). A bombardment's and a ballista's shot are worded below with their dice.
EVENT_WORDS = {
    "en": {
        "wall_damaged": "The wall at {at} is {name} (step {step} of 4).",
        "engine_placed": "Engine {engine} is set up on {at}.",
        "engine_aimed": "Engine {engine} is laid on the wall at {at} for today.",
        "engines_repairing": "Repairing today: {engines} (back to full strength tomorrow).",
        "engine_damaged": "Engine {engine} is damaged: {points_left} destruction point(s) left.",
        "choose_engine_damage": "Result C: the besieger chooses which engine loses a point "
        "({among}; /damage).",
        "ram_driven": "Ram {engine} rolls {cells_from} → {cells_to} ({cost} points).",
        "ballista_marker": "Ballista {engine} is worked: round marker {markers}.",
        "ballista_unmanned": "Ballista {engine} lacks its crew: its round markers are lost.",
    },
    "de": {
        "wall_damaged": "Die Mauer auf {at} ist {name} (Stufe {step} von 4).",
        "engine_placed": "Maschine {engine} wird auf {at} aufgestellt.",
        "engine_aimed": "Maschine {engine} wird für heute auf die Mauer bei {at} gerichtet.",
        "engines_repairing": "Heute in Reparatur: {engines} (morgen wieder in voller Stärke).",
        "engine_damaged": "Maschine {engine} ist beschädigt: noch {points_left} "
        "Zerstörungspunkt(e).",
        "choose_engine_damage": "Ergebnis C: der Belagerer wählt, welche Maschine einen Punkt "
        "verliert ({among}; /damage).",
        "ram_driven": "Widder {engine} rollt {cells_from} → {cells_to} ({cost} Punkte).",
        "ballista_marker": "Balliste {engine} wird bedient: Rundenmarker {markers}.",
        "ballista_unmanned": "Balliste {engine} fehlt die Mannschaft: ihre Rundenmarker gehen "
        "verloren.",
    },
}
ENGINE_TITLES_DE = {
    "ballista": "Balliste",
    "catapult": "Katapult",
    "onager": "Onager",
    "ram": "Widder",
}
WALL_STEPS_DE = {
    "lightly damaged": "leicht beschädigt",
    "damaged": "beschädigt",
    "badly damaged": "schwer beschädigt",
    "destroyed": "zerstört",
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    kind = str(e.get("type"))
    german = lang == "de"
    if kind == "bombarded":
        return _bombarded_de(state, e) if german else e["text"] + "."
    if kind == "shot":
        return _ballista_shot_de(state, e) if german and e.get("weapon") == "ballista" else None
    template = EVENT_WORDS["de" if german else "en"].get(kind)
    if template is None:
        return None
    name = str(e.get("name", ""))
    return template.format(
        at=e.get("at"),
        name=WALL_STEPS_DE.get(name, name) if german else name,
        step=e.get("step"),
        engine=e.get("engine"),
        engines=", ".join(e.get("engines") or []),
        points_left=e.get("points_left"),
        among=", ".join(e.get("among") or []),
        cells_from=", ".join(e.get("from") or []),
        cells_to=", ".join(e.get("to") or []),
        cost=e.get("cost"),
        markers=e.get("markers"),
    )


def _bombarded_de(state: dict, e: dict) -> str:
    names = ", ".join(
        f"{eid} ({ENGINE_TITLES_DE.get(state['engines'].get(eid, {}).get('kind', ''), eid)})"
        for eid in e["engines"]
    )
    result = {
        "-": "kein Ergebnis: keine Wirkung",
        "D": "D: eine Zerstörungsstufe",
        "C": "C: die Maschinen werden beschädigt",
    }[e["letter"]]
    if "keep wall" in e.get("text", ""):
        result += " (eine Bergfriedmauer bricht erst nach einem beschädigten Nachbarfeld)"
    return (
        f"{names} {'beschießt' if len(e['engines']) == 1 else 'beschießen'} {e['at']}: "
        f"{e['points']} Zerstörungspunkt(e); "
        f"W10 {e['roll']}{e['modifier']:+d}={e['roll'] + e['modifier']} -> {result}."
    )


def _ballista_shot_de(state: dict, e: dict) -> str:
    from .present import BANDS_DE, COVER_DE, _result_de, state_word_de

    target = state["figures"].get(e["target"], {}).get("name", e["target"])
    return (
        f"Balliste {e['engine']} {e['from']}->{e['to']} {target}: Entfernung {e['range']} "
        f"{BANDS_DE.get(e['band'], e['band'])} ({e['modifier']:+d}), Deckung "
        f"{COVER_DE.get(e['cover'], e['cover'])}; W10 {e['roll']}{e['modifier']:+d}="
        f"{e['modified']} -> {_result_de(e['letter'])}; {target} {state_word_de(e['outcome'])}"
    )


# ----- refusals ---------------------------------------------------------------------------
def _names(state: dict, fids: list[str]) -> str:
    return ", ".join(state["figures"][f]["name"] for f in fids) or "nobody"


def _own(state: dict, action: dict, kinds: tuple[str, ...]) -> tuple[str, dict] | str:
    eid = str(action.get("engine", ""))[:24]
    e = state.get("engines", {}).get(eid)
    wanted = " or ".join(title(k) for k in kinds)
    if e is None or e["kind"] not in kinds or e["side"] != action.get("side"):
        return say(
            "not_your_engine",
            f"{eid or 'That'} is not a {wanted} of yours.",
            engine=eid or "That",
            wanted=wanted,
        )
    return eid, e


def refusal(rules, state: dict, action: dict) -> str | None:
    """Why an engine command is not legal, in the players' terms, or None when the generic
    answer (not your turn, a decision pending, the legal list) says it better."""
    kind = action.get("type")
    side = action.get("side")
    decisions = ("pending", "choice", "engine_damage", "landing", "retreat", "advance")
    if side != state.get("active") or any(state.get(k) for k in decisions):
        return None  # the generic answer names the decision to take first
    if kind == "move":
        return _move_refusal(state, action)
    if kind == "bolt":
        return _bolt_refusal(rules, state, action)
    if kind in ("drive", "batter"):
        return _ram_refusal(rules, state, action)
    if kind in ("emplace", "aim", "bombard", "repair") and state["phase"] != "prepare":
        return say(
            "engines_prepare_only",
            "Engines are set up, laid on a wall and fired only before the day's assault, in the "
            "prepare step (3.43, 4.11).",
        )
    if kind == "aim":
        return _aim_refusal(rules, state, action)
    if kind == "bombard":
        at = str(action.get("at", ""))[:12]
        if at not in _aimed_at(state):
            return say(
                "not_aimed",
                f"No engine is laid on {at} today: /aim engine: at:{at} first (4.21).",
                at=at,
            )
    if kind == "emplace":
        found = _own(state, action, ("ballista", "catapult", "onager"))
        if isinstance(found, str):
            return found
        eid, _ = found
        if eid not in movable(state, str(side)):
            return say(
                "engine_fixed",
                f"{eid} stands fixed once on the map (3.43); engines are set up anew only "
                "before a new day's assault.",
                engine=eid,
            )
        at = str(action.get("at", ""))[:12]
        ground = " or ".join(spec()["stands_on"])
        return say(
            "emplace_where",
            f"{at} is not free {ground} ground: no figure, ladder, siege tower or other engine "
            "may stand there.",
            at=at,
            ground=ground,
        )
    return None


def _move_refusal(state: dict, action: dict) -> str | None:
    to = str(action.get("to", ""))[:12]
    eid = cells(state).get(to)
    if eid is None:
        return None
    e = state["engines"][eid]
    if e["kind"] != "ram":
        rule = "3.43" if e["kind"] == "ballista" else "4.22 with 3.43"
        return say(
            "engine_blocks",
            f"No figure may enter {to}: the {title(e['kind'])} {eid} stands there ({rule}).",
            to=to,
            what=title(e["kind"]),
            engine=eid,
            rule=rule,
        )
    if e["side"] != action.get("side"):
        return say(
            "enemy_ram",
            f"{to} is under the enemy's ram {eid}: only its own side goes under it (4.31).",
            to=to,
            engine=eid,
        )
    return None


def _bolt_refusal(rules, state: dict, action: dict) -> str | None:
    ballista = spec()["kinds"]["ballista"]
    found = _own(state, action, ("ballista",))
    if isinstance(found, str):
        return found
    eid, e = found
    if state["phase"] not in ballista["steps"]:
        return say("ballista_step", "A ballista shoots only in the crossbows' step (3.41).")
    if not manned(state, eid):
        beside = _names(state, crew(state, eid))
        return say(
            "ballista_crew",
            f"Ballista {eid} lacks its crew: it needs {ballista['crew']} able figures of its "
            f"side beside it, one a {ballista['crew_type']} (3.41); beside it now: {beside}.",
            engine=eid,
            crew=ballista["crew"],
            crew_type=ballista["crew_type"],
            beside=beside,
        )
    if e.get("markers", 0) < ballista["markers"]:
        left = ballista["markers"] - e.get("markers", 0)
        return say(
            "ballista_markers",
            f"Ballista {eid} shoots every third round (3.41): it has {e.get('markers', 0)}/"
            f"{ballista['markers']} round markers and shoots after {left} more round(s) with "
            "its crew beside it.",
            engine=eid,
            markers=e.get("markers", 0),
            needed=ballista["markers"],
            left=left,
        )
    tid = str(action.get("target", ""))[:24]
    target = state["figures"].get(tid)
    if target is None or target["dead"] or target["side"] == side_of(state, eid):
        return say(
            "no_enemy_figure", f"{tid or 'That'} is not a living enemy figure.", target=tid or "—"
        )
    seen = ballista_sight(rules, state, eid, tid)
    if not seen.possible:
        return say(
            "ballista_blocked",
            f"Ballista {eid} cannot shoot at {target['name']}: {seen.reasons[-1]}",
            engine=eid,
            target=target["name"],
            why_de=worded(seen.reasons[-1], "de"),
        )
    if seen.band is None:
        return say(
            "ballista_no_sight",
            f"Ballista {eid} cannot shoot at {target['name']}: {seen.distance} cells, beyond "
            f"its long range of {ballista['bands']['long']}.",
            engine=eid,
            target=target["name"],
            distance=seen.distance,
            long=ballista["bands"]["long"],
        )
    return None


def side_of(state: dict, eid: str) -> str:
    return state["engines"][eid]["side"]


def _ram_refusal(rules, state: dict, action: dict) -> str | None:
    ram = spec()["kinds"]["ram"]
    found = _own(state, action, ("ram",))
    if isinstance(found, str):
        return found
    eid, e = found
    driving = action["type"] == "drive"
    if state["phase"] != ("move" if driving else "melee"):
        if driving:
            return say("ram_drive_step", "A ram is pushed in its side's movement step (4.31).")
        return say(
            "ram_batter_step", "A ram is worked against a wall in its side's melee step (4.32)."
        )
    if not driving and e.get("last_roll") is not None:
        if state["turn"] < e["last_roll"] + ram["every_rounds"]:
            following = e["last_roll"] + ram["every_rounds"]
            return say(
                "ram_every_second",
                f"Ram {eid} rolled in round {e['last_roll']}: one roll every second round, the "
                f"next in round {following} (4.32).",
                engine=eid,
                last=e["last_roll"],
                next=following,
            )
    if not driving and ram_wall(rules, state, eid) is None:
        front = str(e.get("towards"))
        board = rules.board(state)
        if front in board and siege_sheet.family(board, front) == "keep":
            return say(
                "ram_keep",
                f"Ram {eid}'s front faces {front}: the keep, which a ram may not batter (4.32).",
                engine=eid,
                front=front,
            )
        return say(
            "ram_no_wall",
            f"Ram {eid}'s front faces {front}: no wall, tower or gate wall of the castle's face "
            "(4.32).",
            engine=eid,
            front=front,
        )
    team = ram_crew(state, eid)
    if driving:
        team = [f for f in team if f not in state["done"] and f not in rules._busy(state)]
    if len(team) < ram["crew"]:
        return say(
            "ram_crew_fresh" if driving else "ram_crew",
            f"Ram {eid} needs {ram['crew']} able figures of its side under it"
            + (" that have not acted this round" if driving else "")
            + f" (4.31, 4.34); now: {_names(state, team)}.",
            engine=eid,
            crew=ram["crew"],
            team=_names(state, team),
        )
    under = [f for f, g in state["figures"].items() if g["at"] in e["cells"] and not g["dead"]]
    if driving:
        if e.get("driven_half") == state["half"]:
            return say(
                "ram_pushed",
                f"Ram {eid} has already been pushed this round (4.31, as the siege tower).",
                engine=eid,
            )
        if any(state["melee_half"].get(f, -9) >= state["half"] - 2 for f in under):
            return say(
                "ram_crew_fought",
                f"Ram {eid} cannot move this round: one of its crew fought last round "
                "(4.31, 2.41).",
                engine=eid,
            )
        return say(
            "ram_straight",
            f"Ram {eid} rolls only straight forward or back by whole cells within its crew's "
            "movement, never onto a living figure, ladder, siege tower or engine (4.31, 2.41).",
            engine=eid,
        )
    if any(state["melee_half"].get(f, -9) >= state["half"] - 1 for f in team):
        return say(
            "ram_rests_melee",
            f"Ram {eid} rests this round: one of its crew fought this round (4.34).",
            engine=eid,
        )
    if fire.fought_fire(state, team):
        return say(
            "ram_rests_fire",
            f"Ram {eid} rests this round: one of its crew fought a fire this round (4.34).",
            engine=eid,
        )
    return None


def _aim_refusal(rules, state: dict, action: dict) -> str | None:
    found = _own(state, action, ("catapult", "onager"))
    if isinstance(found, str):
        return found
    eid, e = found
    day = state.get("day", 1)
    if e.get("aimed") and e["aimed"]["day"] == day:
        return say(
            "already_aimed",
            f"{eid} is already laid on {e['aimed']['at']} today: one wall cell per engine a day "
            "(4.21).",
            engine=eid,
            at=e["aimed"]["at"],
        )
    if points(state, e) <= 0:
        return say(
            "no_points",
            f"{eid} has no destruction points today: it is being repaired or wrecked (4.23).",
            engine=eid,
        )
    board = rules.board(state)
    at = str(action.get("at", ""))[:12]
    if at not in board or at not in siege_sheet.targets(board):
        return say(
            "not_wall",
            f"{at} is not a wall, tower or keep cell on the castle's face (4.21).",
            at=at,
        )
    if at in {c for c, k in state.get("counters", []) if k == "breach"}:
        return say("already_breached", f"The wall at {at} is already destroyed (4.14).", at=at)
    entry = state.get("siege_sheet", {}).get(at, {})
    if entry.get("rolled_day") == day or entry.get("ranged_day") == day:
        return say(
            "bombarded_today",
            f"{at} has been bombarded today already: the engines laid on one cell roll once, "
            "and from afar a wall loses at most one step a day (4.13, 4.21).",
            at=at,
        )
    if siege_sheet.keep_blocked(board, state, at):
        return say(
            "keep_blocked",
            f"The keep wall at {at} breaks only after a neighbouring keep cell is damaged (4.21).",
            at=at,
        )
    return None
