"""Boiling oil (rulebook 5.32): pots carried at two points less movement, poured from a parapet
onto the enemy in adjacent lower cells in the melee step, resolved on the melee table against
foot figures, or on the fire table's engine column against an engine.

State ``state["oil"]``: ``{pot: {"at": cell}}`` for a pot standing on a cell, ``{pot:
{"carrier": figure}}`` for one carried (it is where its carrier is). A carrier who is stunned or
dead holds nothing any more: anyone may lift the pot from beside him. Numbers:
``data/siege/oil.json``. Readings F7-F9 in docs/rules/siege.md.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core.dice import Dice
from engine.core.errors import ScenarioError

from . import data, figures, fire, melee

FILE = "oil.json"
PARAPETS = ("parapet", "keep-parapet")


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    return load(data.DATA_DIR / FILE, FILE)


def load(path, label: str) -> dict:
    raw = data.read_json(path, label)
    data.need(
        isinstance(raw.get("odds"), int) and raw["odds"] >= 1,
        label,
        "odds",
        "must be a whole number >= 1 (the melee odds column, 3 for 3-1)",
    )
    data.need(
        isinstance(raw.get("carry_penalty"), int) and raw["carry_penalty"] >= 0,
        label,
        "carry_penalty",
        "must be a whole number >= 0",
    )
    return raw


def column() -> str:
    """The melee column for the odds in ``oil.json``; odds beyond the last column use the last
    one, as in every melee (``melee.json``)."""
    columns = data.melee()["columns"]
    return columns[min(columns.index("1-1") + spec()["odds"] - 1, len(columns) - 1)]


def normalise(raw: Any, board, figs: dict, file: str) -> dict:
    """The scenario's ``oil``: pot id -> ``{"at": cell}`` or ``{"carrier": figure}``."""
    if not isinstance(raw, dict):
        raise ScenarioError(file, "oil", "must be an object: pot id -> {at} or {carrier}")
    out: dict[str, dict] = {}
    for pid, pot in raw.items():
        entry = f"oil.{pid}"
        data.need(
            isinstance(pot, dict) and len(pot) == 1 and set(pot) <= {"at", "carrier"},
            file,
            entry,
            "must be {at: cell} or {carrier: figure}",
        )
        if "at" in pot:
            data.need(
                pot["at"] in board and board.cell(pot["at"]).cost is not None,
                file,
                f"{entry}.at",
                "must be a cell a figure can stand on",
            )
        else:
            carrier = pot["carrier"]
            data.need(
                carrier in figs and not figs[carrier]["dead"],
                file,
                f"{entry}.carrier",
                "must be a living figure of the scenario",
            )
            data.need(
                all(o.get("carrier") != carrier for o in out.values()),
                file,
                f"{entry}.carrier",
                "carries another pot already",
            )
        out[pid] = dict(pot)
    return out


def pots(state: dict) -> dict[str, dict]:
    return state.get("oil") or {}


def where(state: dict, pid: str) -> str:
    pot = pots(state)[pid]
    return state["figures"][pot["carrier"]]["at"] if pot.get("carrier") else pot["at"]


def drop_unable(state: dict, events: list) -> None:
    """F8: a carrier stunned or killed holds nothing: his pot stands in his cell, and when he
    comes to he must take it up again."""
    for pid, pot in sorted(pots(state).items()):
        carrier = pot.get("carrier")
        if carrier and not figures.can_act(state["figures"][carrier]):
            state["oil"][pid] = {"at": state["figures"][carrier]["at"]}
            events.append({"type": "oil_dropped", "unit": carrier, "pot": pid})


def carriers(state: dict) -> dict[str, str]:
    """Able figure -> the pot it carries."""
    return {
        pot["carrier"]: pid
        for pid, pot in sorted(pots(state).items())
        if pot.get("carrier") and figures.can_act(state["figures"][pot["carrier"]])
    }


def penalty(state: dict, fid: str) -> int:
    """5.32: "die Bewegungskapazität der Figur wird um 2 Punkte verringert"."""
    return spec()["carry_penalty"] if fid in carriers(state) else 0


def lift_actions(
    state: dict, board, side: str, candidates: list[str], holding: set[str]
) -> list[dict]:
    """``/lift unit: item:`` in the movement step, before moving: a pot on the figure's cell or
    beside it that no able figure carries (F8); a figure carries one thing only."""
    if not pots(state):
        return []
    held = carriers(state)
    out = []
    for fid in candidates:
        if fid in holding:
            continue
        here = state["figures"][fid]["at"]
        for pid in sorted(pots(state)):
            if pid in held.values():
                continue
            if board.distance(here, where(state, pid)) <= 1:
                out.append({"type": "lift", "side": side, "unit": fid, "item": pid})
    return out


def lift(state: dict, action: dict, events: list) -> None:
    state["oil"][action["item"]] = {"carrier": action["unit"]}
    events.append({"type": "oil_lifted", "unit": action["unit"], "pot": action["item"]})


def pour_actions(
    state: dict, board, side: str, candidates: list[str], towers: dict, shot: set[str]
) -> list[dict]:
    """``/pour unit: at:`` in the melee step: a defender carrying a pot on a parapet that has
    not shot this phase, onto an adjacent lower cell with an enemy figure, or a cell of an
    enemy engine or siege tower not burning yet (F9)."""
    held = carriers(state)
    if not held or side != "defender":  # "Verteidiger, die sich auf Brustwehrfeldern befinden"
        return []
    machines = _enemy_machines(state, board, side)
    unburnt = _enemy_machines(state, board, side, unburnt=True)
    enemies = {
        f["at"]
        for f in state["figures"].values()
        if f["side"] != side and not f["dead"] and f["at"] not in towers
    }
    out = []
    for fid in candidates:
        f = state["figures"][fid]
        if fid not in held or fid in shot or board.cell(f["at"]).kind not in PARAPETS:
            continue
        level = board.cell(f["at"]).level
        for cell in sorted(board.neighbours(f["at"])):
            if board.cell(cell).level >= level:
                continue
            if cell in unburnt or (cell in enemies and cell not in machines):
                out.append({"type": "pour", "side": side, "unit": fid, "at": cell})
    return out


def pour_refusal(state: dict, board, action: dict, fid: str | None, shot: set[str]):
    """Why ``/pour`` is refused, in the rule's words (5.32 "Verteidiger, die sich auf
    Brustwehrfeldern befinden"), or None when the generic answer says it. ``fid``: the figure
    the player named, resolved."""
    from .refusals import say

    if action.get("side") != "defender":
        return say("pour_defenders", "Only defenders on a parapet pour boiling oil (5.32).")
    if fid is None or state["figures"][fid]["side"] != "defender":
        return None
    name = state["figures"][fid]["name"]
    if fid not in carriers(state):
        return say(
            "pour_no_pot",
            f"{name} carries no pot of oil: /lift one in the movement step first (5.32).",
            name=name,
        )
    if board.cell(state["figures"][fid]["at"]).kind not in PARAPETS:
        return say("pour_parapet", f"{name} pours oil only from a parapet (5.32).", name=name)
    if fid in shot:
        return say("pour_shot", f"{name} shot in this phase and pours no oil (5.32).", name=name)
    at = str(action.get("at", ""))[:12]
    return say(
        "pour_where",
        f"No oil onto {at}: it goes onto an adjacent lower cell with an enemy figure, or an enemy "
        "engine or siege tower not burning yet (5.32, F9).",
        at=at,
    )


def _enemy_machines(state: dict, board, side: str, unburnt: bool = False) -> set[str]:
    """Cells of the enemy's engines and siege towers (``unburnt``: of those not on fire yet):
    oil there only sets them alight; the figures inside are sheltered by them (F9)."""
    return {
        cell
        for cell, obj in fire.objects(state, board).items()
        if obj[0] != "tent"
        and fire.owner(state, obj) != side
        and not (unburnt and fire.on_fire(state, obj))
    }


def pour(state: dict, board, action: dict, dice: Dice, events: list, half: int) -> str | None:
    """Pour the pot (it is used up). Returns the victim's id when the result makes it retreat
    (D); results against the pourer (E, F) do not apply (F7)."""
    fid, cell = action["unit"], action["at"]
    pid = carriers(state)[fid]
    del state["oil"][pid]
    name = state["figures"][fid]["name"]
    if cell in _enemy_machines(state, board, action["side"]):
        # A figure inside an engine suffers only if the engine catches fire (F9).
        roll = dice.roll(f"{name} pours boiling oil on the machine at {cell}", events, sides=10)
        caught = fire.catches("engine", roll)
        events.append(
            {
                "type": "oil_poured",
                "unit": fid,
                "at": cell,
                "roll": roll,
                "engine": True,
                "caught": caught,
                "text": f"{name} pours oil on {cell}: d10 {roll} -> "
                + ("it catches fire" if caught else "no fire"),
            }
        )
        if caught:
            fire.light(state, cell, action["side"], "boiling oil", events)
        return None
    victim = next(
        v for v, f in sorted(state["figures"].items()) if f["at"] == cell and not f["dead"]
    )
    target = state["figures"][victim]
    col = column()
    roll = dice.roll(f"{name} pours boiling oil on {target['name']}", events, sides=10)
    letter = melee.table_letter(col, roll)
    result = data.results().get(letter, {})
    applies = letter != "-" and result.get("side") == "defender"
    meaning = result.get("title", "no effect") if applies else "no effect"
    events.append(
        {
            "type": "oil_poured",
            "unit": fid,
            "at": cell,
            "roll": roll,
            "engine": False,
            "column": col,
            "letter": letter,
            "text": f"{name} pours oil on {target['name']} at {cell}: column {col}, d10 {roll} "
            f"-> {letter if letter != '-' else 'no result'}: {meaning}",
        }
    )
    if not applies:
        return None
    if result["effect"] == "retreat":
        return victim
    outcome = figures.apply_effect(target, result["effect"], half)
    events.append(
        {
            "type": "figure_hit",
            "unit": victim,
            "effect": result["effect"],
            "letter": letter,
            "outcome": outcome,
            "at": cell,
        }
    )
    return None


def markers(state: dict) -> list[dict]:
    return [
        {"at": where(state, pid), "kind": "control", "color": "#3b2412", "text": "O"}
        for pid in sorted(pots(state))
    ]


def notes(state: dict) -> list[str]:
    return ["Dark ring O: a pot of boiling oil (with its carrier)."] if pots(state) else []


# The pots' events in each language; a pouring is worded below with its dice.
EVENT_WORDS = {
    "en": {
        "oil_lifted": "{who} takes up the oil pot {pot} (moves two points less).",
        "oil_dropped": "{who} drops the oil pot {pot}; it stands in his cell.",
    },
    "de": {
        "oil_lifted": "{who} nimmt den Ölkessel {pot} auf (zieht zwei Punkte weniger).",
        "oil_dropped": "{who} stellt den Ölkessel {pot} ab; er steht in seinem Feld.",
    },
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    kind = e.get("type")
    who = state["figures"].get(e.get("unit", ""), {}).get("name", e.get("unit"))
    if kind == "oil_poured":
        return _poured_de(e, who) if lang == "de" else e["text"] + "."
    template = EVENT_WORDS.get(lang, EVENT_WORDS["en"]).get(str(kind))
    return template.format(who=who, pot=e.get("pot")) if template else None


def _poured_de(e: dict, who) -> str:
    if e.get("engine"):
        result = "es fängt Feuer" if e["caught"] else "kein Feuer"
        return f"{who} gießt siedendes Öl auf {e['at']}: W10 {e['roll']} -> {result}."
    letter = e["letter"]
    spec = data.results().get(letter, {})
    if letter == "-":
        result = "kein Ergebnis: keine Wirkung"
    elif spec.get("side") != "defender":
        result = f"{letter}: keine Wirkung"
    else:
        from .present import _result_de

        result = _result_de(letter)
    return (
        f"{who} gießt siedendes Öl auf {e['at']}: Spalte {e['column']}, "
        f"W10 {e['roll']} -> {result}."
    )
