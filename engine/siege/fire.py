"""Fire (rulebook 3.5) and fire arrows (5.31): setting tents and siege engines alight, fire
spreading, putting it out, figures in burning cells and the destruction after three rounds.

State: ``state["fires"]`` is ``{cell: {"age": rounds burning in a row, "by": side that set
it}}``; ``state["kindling"]`` the figures standing a whole round beside an object to set it
alight (3.51). Burnable objects are the cells of ``state["engines"]`` (any engine kind), of the
siege towers (F13) and cells of terrain kind ``tent`` (the camp map's). Numbers are data:
``data/siege/fire-spread.json``. Readings F1-F6 and F13 in docs/rules/siege.md.

An engine that moves must take its fire markers along (:func:`follow`), as a rolling siege
tower does.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core.dice import Dice

from . import data, figures

FILE = "fire-spread.json"
OBJECT_KINDS = ("engine", "tent")
# Siege towers burn like engines (5.32 names them with the engines and its fire table column
# "Belagerungsmaschine"), reading F13.
COLUMN = {"engine": "engine", "tower": "engine", "tent": "tent"}
PARAPETS = ("parapet", "keep-parapet")


@functools.lru_cache(maxsize=1)
def table() -> dict:
    return load(data.DATA_DIR / FILE, FILE)


def load(path, label: str) -> dict:
    """The fire table from ``path``, checked entry by entry (errors name ``label`` and the
    entry)."""
    spec = data.read_json(path, label)
    catches: Any = spec.get("catches")
    data.need(isinstance(catches, dict), label, "catches", "must be an object per object kind")
    for kind in OBJECT_KINDS:
        row = catches.get(kind)
        data.need(
            isinstance(row, list) and len(row) == 10 and all(x in ("F", "-") for x in row),
            label,
            f"catches.{kind}",
            "must list ten entries, each 'F' (catches fire) or '-'",
        )
    row = spec.get("put_out")
    data.need(
        isinstance(row, list) and len(row) == 10 and all(x in ("out", "-") for x in row),
        label,
        "put_out",
        "must list ten entries, each 'out' or '-'",
    )
    after = spec.get("destroyed_after")
    data.need(
        isinstance(after, int) and after >= 1,
        label,
        "destroyed_after",
        "must be a whole number >= 1",
    )
    data.need(
        spec.get("fire_arrow_band") in data.BANDS,
        label,
        "fire_arrow_band",
        f"must be one of {', '.join(data.BANDS)}",
    )
    return spec


def fires(state: dict) -> dict[str, dict]:
    return state.get("fires") or {}


def can_burn(state: dict, board) -> bool:
    """Whether anything on this game's map could burn: an engine, a siege tower, tents."""
    return bool(state.get("engines")) or bool(state.get("towers")) or bool(tents(board))


@functools.lru_cache(maxsize=64)
def _tents(name: str, counters: tuple) -> tuple[str, ...]:
    board = data.board_with(name, counters) if counters else data.board(name)
    return tuple(lab for lab in board.labels() if board.cell(lab).kind == "tent")


def tents(board) -> tuple[str, ...]:
    """The map's tent cells (burnt tents are counters of another kind), once per map variant."""
    if "tent" not in data.terrain()["kinds"]:
        return ()
    return _tents(board.name, tuple(getattr(board, "counters", ()) or ()))


def objects(state: dict, board) -> dict[str, tuple[str, str]]:
    """Cell -> (object kind, its id) for every burnable object: engines and siege towers
    (their id) and tents (the cell is the tent's id)."""
    out: dict[str, tuple[str, str]] = {lab: ("tent", lab) for lab in tents(board)}
    for tid, t in sorted((state.get("towers") or {}).items()):
        for cell in t["cells"]:
            out[cell] = ("tower", tid)
    for eid, engine in sorted((state.get("engines") or {}).items()):
        for cell in engine["cells"]:
            out[cell] = ("engine", eid)
    return out


def on_fire(state: dict, obj: tuple[str, str]) -> bool:
    """An engine burns when any of its cells does (3.55: one cell destroys the whole)."""
    kind, ident = obj
    if kind == "tent":
        return ident in fires(state)
    return any(c in fires(state) for c in _holder(state, kind)[ident]["cells"])


def _holder(state: dict, kind: str) -> dict:
    return state["towers"] if kind == "tower" else state["engines"]


def owner(state: dict, obj: tuple[str, str]) -> str | None:
    kind, ident = obj
    return None if kind == "tent" else _holder(state, kind)[ident].get("side")


def catches(kind: str, roll: int) -> bool:
    return table()["catches"][COLUMN[kind]][roll - 1] == "F"


def follow(state: dict, moving: dict[str, str]) -> None:
    """An object that moves (a siege tower rolling, 2.41) takes its fire markers along:
    ``moving`` maps its old cells to the new ones."""
    burning = fires(state)
    if not any(c in burning for c in moving):
        return
    kept = {c: f for c, f in burning.items() if c not in moving}
    kept.update({moving[c]: f for c, f in burning.items() if c in moving})
    state["fires"] = kept


def light(state: dict, cell: str, side: str, how: str, events: list) -> None:
    """A fire marker on ``cell`` (age 1). A stunned figure in the cell comes to at once (3.54,
    F4) so that it can leave."""
    state.setdefault("fires", {})[cell] = {"age": 1, "by": side}
    events.append({"type": "fire_lit", "at": cell, "by": side, "how": how})
    for fid, f in sorted(state["figures"].items()):
        if f["at"] == cell and f["stunned"] and not f["dead"]:
            f["stunned"] = False
            events.append({"type": "recovered", "unit": fid, "at": cell, "by": "fire"})


def busy(state: dict) -> set[str]:
    """Figures standing beside an object to set it alight do nothing else meanwhile (3.51)."""
    return {k["unit"] for k in state.get("kindling") or []}


# ----- 3.51 setting alight --------------------------------------------------------------
def kindle_actions(state: dict, board, side: str, candidates: list[str]) -> list[dict]:
    """``/kindle unit: at:`` in the movement step instead of moving: a figure beside an enemy
    engine or a tent, not on a parapet (3.51 "Anmerkung"), not already kindling."""
    objs = objects(state, board)
    if not objs:
        return []
    out = []
    for fid in candidates:
        f = state["figures"][fid]
        if board.cell(f["at"]).kind in PARAPETS or f.get("layer"):
            continue
        for cell in sorted(board.neighbours(f["at"])):
            obj = objs.get(cell)
            if obj is None or on_fire(state, obj) or owner(state, obj) == side:
                continue
            out.append({"type": "kindle", "side": side, "unit": fid, "at": cell})
    return out


def kindle_refusal(state: dict, board, action: dict, fid: str | None):
    """Why ``/kindle`` is refused, in the rule's words, or None when the generic answer says
    it. ``fid``: the figure the player named, resolved, of the acting side."""
    from .refusals import say

    if fid is None:
        return None
    f = state["figures"][fid]
    if board.cell(f["at"]).kind in PARAPETS:
        # 3.51 "Anmerkung": "Eine Figur auf einem Brustwehrfeld kann auf diese Weise eine
        # angrenzende Belagerungsmaschine nicht in Brand setzen".
        return say(
            "kindle_parapet",
            f"{f['name']} stands on a parapet and sets nothing alight by staying beside it; "
            "fire arrows or boiling oil do it from there (3.51).",
            name=f["name"],
        )
    at = str(action.get("at", ""))[:12]
    return say(
        "kindle_where",
        f"{f['name']} sets fire only to an enemy engine, siege tower or tent beside him that is "
        f"not burning yet, staying a whole round beside it (3.51): not {at}.",
        name=f["name"],
        at=at,
    )


def douse_refusal(state: dict, action: dict, fid: str | None):
    """Why ``/douse`` is refused (3.53), or None when the generic answer says it."""
    from .refusals import say

    if fid is None:
        return None
    name = state["figures"][fid]["name"]
    at = str(action.get("at", ""))[:12]
    return say(
        "douse_where",
        f"{name} fights only a fire in a cell beside him, in the melee step (3.53): {at} is not "
        "one.",
        name=name,
        at=at,
    )


def start_kindling(state: dict, action: dict, events: list) -> None:
    f = state["figures"][action["unit"]]
    state.setdefault("kindling", []).append(
        {"unit": action["unit"], "side": action["side"], "at": action["at"], "from": f["at"]}
    )
    events.append({"type": "kindling", "unit": action["unit"], "at": action["at"], "from": f["at"]})


def resolve_kindling(state: dict, board, side: str, events: list) -> None:
    """At the start of the side's next phase, a whole round later: the object catches fire if
    the figure stayed where it was, able, and the object still stands (F1)."""
    keep, objs = [], objects(state, board)
    for k in state.get("kindling") or []:
        if k["side"] != side:
            keep.append(k)
            continue
        f = state["figures"][k["unit"]]
        obj = objs.get(k["at"])
        reason = (
            "is dead"
            if f["dead"]
            else "is stunned"
            if f["stunned"]
            else "was driven from its place"
            if f["at"] != k["from"]
            else "has nothing left to set alight"
            if obj is None
            else None
        )
        if obj is not None and reason is None and on_fire(state, obj):
            reason = "finds it burning already"
        if reason:
            events.append(
                {"type": "kindle_failed", "unit": k["unit"], "at": k["at"], "reason": reason}
            )
            continue
        light(state, k["at"], side, "kindled", events)
    state["kindling"] = keep


# ----- 3.52 spreading -------------------------------------------------------------------
def spread(state: dict, board, ended: str, dice: Dice, events: list) -> None:
    """At the end of ``ended``'s phase the other side's fires may spread: one roll for each
    adjacent cell holding an object not yet burning, on the object's column."""
    objs = objects(state, board)
    sources = sorted(c for c, f in fires(state).items() if f["by"] != ended)
    targets: dict[str, str] = {}
    for cell in sources:
        by = fires(state)[cell]["by"]
        for n in sorted(board.neighbours(cell)):
            if n in objs and n not in targets and not on_fire(state, objs[n]):
                targets[n] = by
    for cell, by in sorted(targets.items()):
        obj = objs[cell]
        if on_fire(state, obj):  # another cell of the same engine caught this very check
            continue
        roll = dice.roll(f"fire spreads to {cell}", events, sides=10)
        caught = catches(obj[0], roll)
        events.append(
            {"type": "fire_spread", "at": cell, "roll": roll, "caught": caught, "kind": obj[0]}
        )
        if caught:
            light(state, cell, by, "spread", events)


# ----- 3.53 putting out -----------------------------------------------------------------
def douse_actions(state: dict, board, side: str, candidates: list[str]) -> list[dict]:
    burning = fires(state)
    if not burning:
        return []
    return [
        {"type": "douse", "side": side, "unit": fid, "at": cell}
        for fid in candidates
        if not state["figures"][fid].get("layer")
        for cell in sorted(board.neighbours(state["figures"][fid]["at"]))
        if cell in burning
    ]


def douse(state: dict, action: dict, dice: Dice, events: list) -> None:
    f = state["figures"][action["unit"]]
    roll = dice.roll(f"{f['name']} tries to put out the fire at {action['at']}", events, sides=10)
    out = table()["put_out"][roll - 1] == "out"
    # 4.34 names fighting a fire beside melee as what keeps a ram's crew from working it.
    state.setdefault("doused", {})[action["unit"]] = state["half"]
    events.append(
        {"type": "douse", "unit": action["unit"], "at": action["at"], "roll": roll, "out": out}
    )
    if out:
        del state["fires"][action["at"]]


def fought_fire(state: dict, team: list[str]) -> bool:
    """Whether one of ``team`` tried to put out a fire this round (4.34: "in einen Kampf
    verwickelt wird oder versucht ein Feuer zu löschen" stops a ram that round)."""
    doused = state.get("doused") or {}
    return any(doused.get(fid, -9) >= state["half"] - 1 for fid in team)


# ----- 3.54, 3.55 at the end of the round -----------------------------------------------
def round_end(state: dict, board, events: list) -> list[tuple[str, str]]:
    """Figures still in a burning cell are wounded (a wounded one dies: "in der ersten Runde
    verwundet und in der darauf folgenden tot"); then each fire has burned one more round and
    one that has burned ``destroyed_after`` rounds in a row destroys its object."""
    burning = fires(state)
    fallen: list[tuple[str, str]] = []
    if not burning:
        return fallen
    for fid, f in sorted(state["figures"].items()):
        if f["at"] in burning and not f["dead"]:
            outcome = figures.apply_effect(f, "wound", state["half"])
            events.append(
                {
                    "type": "figure_hit",
                    "unit": fid,
                    "effect": "wound",
                    "letter": "fire",
                    "outcome": outcome,
                    "at": f["at"],
                }
            )
    objs = objects(state, board)
    limit = table()["destroyed_after"]
    for cell in sorted(burning):
        if cell not in burning:  # put out with its engine a moment ago
            continue
        if cell not in objs:  # its object left the map otherwise: nothing feeds the fire
            burning.pop(cell)
            events.append({"type": "fire_out", "at": cell})
            continue
        if burning[cell]["age"] < limit:
            burning[cell]["age"] += 1
            continue
        kind, ident = objs.get(cell, ("gone", cell))
        if kind == "engine":
            for c in state["engines"][ident]["cells"]:
                burning.pop(c, None)
            del state["engines"][ident]
            events.append({"type": "engine_destroyed", "engine": ident, "by": "fire"})
        elif kind == "tower":
            # Its platform burns away: whoever stands on top falls onto the cell (F13).
            cells = state["towers"][ident]["cells"]
            for c in cells:
                burning.pop(c, None)
            fallen += [
                (fid, f["at"])
                for fid, f in sorted(state["figures"].items())
                if f["at"] in cells and f.get("layer") and not f["dead"]
            ]
            del state["towers"][ident]
            events.append({"type": "tower_destroyed", "tower": ident, "by": "fire"})
        else:
            burning.pop(cell)
            if kind == "tent":
                state["counters"].append([cell, "burnt-tent"])
                events.append({"type": "counter_placed", "kind": "burnt-tent", "at": cell})
    return fallen


# ----- 5.31 fire arrows -----------------------------------------------------------------
def arrow_targets(state: dict, board, shooter_id: str, look) -> list[str]:
    """Cells of enemy engines not burning a bow can reach at the fire-arrow band with a line
    (``look(from, to)`` is the same sight the ``/los`` query judges)."""
    shooter = state["figures"][shooter_id]
    if figures.weapon(shooter) not in ("longbow", "shortbow"):
        return []
    band = table()["fire_arrow_band"]
    reach = data.fire()["weapons"][figures.weapon(shooter)]["bands"][band]
    out = []
    for cell, obj in sorted(objects(state, board).items()):
        if obj[0] == "tent" or owner(state, obj) == shooter["side"] or on_fire(state, obj):
            continue
        # Range counts from the wall, never longer than the plain distance: skip early.
        if board.distance(shooter["at"], cell) > reach + 1:
            continue
        seen = look(shooter["at"], cell)
        if seen.possible and seen.band == band:
            out.append(cell)
    return out


def shoot_arrow(state: dict, action: dict, seen, dice: Dice, events: list) -> None:
    f = state["figures"][action["unit"]]
    roll = dice.roll(f"{f['name']} shoots a fire arrow at {action['at']}", events, sides=10)
    caught = catches("engine", roll)
    events.append(
        {
            "type": "fire_arrow",
            "unit": action["unit"],
            "from": f["at"],
            "to": action["at"],
            "range": seen.distance,
            "roll": roll,
            "caught": caught,
        }
    )
    if caught:
        light(state, action["at"], action["side"], "fire arrow", events)


# ----- victory by burning (a scenario's ``victory.burn``) ------------------------------
@functools.lru_cache(maxsize=8)
def tent_groups(name: str) -> tuple[tuple[str, ...], ...]:
    """The map's tents: each a group of touching tent cells (the camp's tents are two cells,
    F14), as the map was drawn, before any burnt."""
    board = data.board(name)
    cells = set(tents(board))
    groups: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for start in sorted(cells):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            cell = todo.pop()
            if cell in group:
                continue
            group.add(cell)
            todo += [n for n in board.neighbours(cell) if n in cells]
        seen |= group
        groups.append(tuple(sorted(group)))
    return tuple(groups)


def burnt_tents(state: dict) -> int:
    """Tents burnt down to the last cell (every cell a ``burnt-tent`` counter)."""
    burnt = {c for c, kind in state.get("counters") or [] if kind == "burnt-tent"}
    return sum(1 for group in tent_groups(state["map"]) if set(group) <= burnt)


def burn_goal(state: dict) -> dict | None:
    return (state.get("victory") or {}).get("burn")


def burn_won(state: dict) -> str | None:
    """The reason the burning side has won, once every engine it must destroy is gone and
    enough tents have burnt down; None before."""
    goal = burn_goal(state)
    if not goal:
        return None
    standing = [e for e in goal["engines"] if e in (state.get("engines") or {})]
    if standing or burnt_tents(state) < goal["tents"]:
        return None
    parts = [f"engine {e}" for e in goal["engines"]]
    if goal["tents"]:
        parts.append(f"{goal['tents']} tent{'s' if goal['tents'] != 1 else ''}")
    return f"{' and '.join(parts)} destroyed"


def _goal_line(state: dict) -> str:
    goal = burn_goal(state) or {}
    parts = [
        f"{e} ({'destroyed' if e not in (state.get('engines') or {}) else 'standing'})"
        for e in goal.get("engines", [])
    ]
    if goal.get("tents"):
        parts.append(f"{goal['tents']} tents ({burnt_tents(state)} burnt down)")
    return f"{goal.get('by', '?')}s win by burning " + ", ".join(parts)


# ----- the picture and the header --------------------------------------------------------
def markers(state: dict) -> list[dict]:
    """A fire marker on each burning cell with the rounds it has burned in a row (3.55: "um
    sich die bereits verstrichenen Runden zu merken")."""
    out = []
    for cell, f in sorted(fires(state).items()):
        # The red ring shows a burning cell at phone size, where the flame alone is a few
        # pixels beside (and as orange as) the besiegers' counters.
        out.append({"at": cell, "kind": "highlight", "color": FIRE_RING})
        out.append({"at": cell, "kind": "fire", "text": str(f["age"])})
    return out


FIRE_RING = "#e00000"


def notes(state: dict, word=lambda text: text) -> list[str]:
    """``word`` gives the picture's words in the reader's language."""
    if not fires(state):
        return []
    limit = table()["destroyed_after"]
    text = "Red ring and flame with a number: a fire and the rounds it has burned (destroyed after {n})."
    return [word(text).format(n=limit)]


def header(state: dict) -> dict[str, str]:
    burning = fires(state)
    out = {}
    if burn_goal(state):
        out["Objective"] = _goal_line(state)
    if burning:
        out["Fires"] = ", ".join(
            f"{cell} ({f['age']}/{table()['destroyed_after']})"
            for cell, f in sorted(burning.items())
        )
    if state.get("kindling"):
        out["Kindling"] = ", ".join(
            f"{state['figures'][k['unit']]['name']} → {k['at']}" for k in state["kindling"]
        )
    return out


# Fire's events in each language, and the words filled into them.
EVENT_WORDS = {
    "en": {
        "kindling": "{name} stays beside {at} to set it alight (burns in a round).",
        "kindle_failed": "{name} {reason}: {at} does not catch fire.",
        "fire_lit": "Fire at {at} ({how}).",
        "fire_spread": "Fire spreads towards {at}: d10 {roll} -> {spread}.",
        "douse": "{name} tries to put out {at}: d10 {roll} -> {doused}.",
        "fire_arrow": "{name} shoots a fire arrow {cell_from}->{cell_to} (range {range}): "
        "d10 {roll} -> {caught}.",
        "fire_out": "The fire at {at} dies down: nothing is left to burn.",
        "engine_destroyed": "Engine {engine} is destroyed by {by}.",
        "tower_destroyed": "Siege tower {tower} burns down; whoever stood on it falls.",
        # words
        "spread: yes": "catches",
        "spread: no": "no",
        "arrow: yes": "it catches fire",
        "arrow: no": "no fire",
        "douse: yes": "out",
        "douse: no": "burns on",
    },
    "de": {
        "kindling": "{name} bleibt neben {at}, um es anzuzünden (es brennt nach einer Runde).",
        "kindle_failed": "{name}: {at} fängt kein Feuer.",
        "fire_lit": "Feuer auf {at} ({how}).",
        "fire_spread": "Das Feuer greift auf {at} über: W10 {roll} -> {spread}.",
        "douse": "{name} versucht, {at} zu löschen: W10 {roll} -> {doused}.",
        "fire_arrow": "{name} schießt einen Brandpfeil {cell_from}->{cell_to} (Entfernung "
        "{range}): W10 {roll} -> {caught}.",
        "fire_out": "Das Feuer auf {at} erlischt: nichts brennt mehr.",
        "engine_destroyed": "Maschine {engine} wird zerstört ({by}).",
        "tower_destroyed": "Belagerungsturm {tower} brennt nieder; wer darauf stand, stürzt.",
        # words
        "spread: yes": "es fängt Feuer",
        "spread: no": "kein Feuer",
        "arrow: yes": "es fängt Feuer",
        "arrow: no": "kein Feuer",
        "douse: yes": "gelöscht",
        "douse: no": "brennt weiter",
        "fire": "Feuer",
        "kindled": "angezündet",
        "spread": "übergegriffen",
        "fire arrow": "Brandpfeil",
        "boiling oil": "siedendes Öl",
    },
}
EVENTS = (
    "kindling",
    "kindle_failed",
    "fire_lit",
    "fire_spread",
    "douse",
    "fire_arrow",
    "fire_out",
    "engine_destroyed",
    "tower_destroyed",
)


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    kind = str(e.get("type"))
    if kind not in EVENTS:
        return None
    words = EVENT_WORDS.get(lang, EVENT_WORDS["en"])

    def word(text: str) -> str:
        return words.get(text, text)

    def yes_no(what: str, flag: str) -> str:
        return words[f"{what}: {'yes' if e.get(flag) else 'no'}"]

    unit = e.get("unit")
    return words[kind].format(
        name=state["figures"].get(unit, {}).get("name", unit),
        at=e.get("at"),
        reason=e.get("reason"),
        how=word(str(e.get("how"))) if lang != "en" else e.get("how"),
        roll=e.get("roll"),
        spread=yes_no("spread", "caught"),
        caught=yes_no("arrow", "caught"),
        doused=yes_no("douse", "out"),
        cell_from=e.get("from"),
        cell_to=e.get("to"),
        range=e.get("range"),
        engine=e.get("engine"),
        by=word(str(e.get("by"))) if lang != "en" else e.get("by"),
        tower=e.get("tower"),
    )
