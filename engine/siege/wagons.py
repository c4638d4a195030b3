"""Wagons and draught animals (rulebook 5.1).

A wagon is a two-cell counter: ``state["wagons"][wid] = {"side", "cells": [front, back],
"animal": hid | None}``. Its draught animal is an entry of ``state["horses"]`` (a horse on two
cells, or an ox, ``"kind": "ox"``, on one) whose rear stands in one of the wagon's front cells
(5.11: "Der Ochse oder der hintere Teil des Zugpferdes müssen sich in einem der mit einem Kreuz
gekennzeichneten Felder befinden"; the illustration is not in our text: our reading takes the
three neighbours of the front cell that do not touch the back cell). The animal is led like a
riderless horse and the wagon follows it (``riders.lead_plans``).
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .data import need
from .refusals import say


def harnessed_to(state: dict, hid: str) -> str | None:
    for wid, w in sorted(state.get("wagons", {}).items()):
        if w.get("animal") == hid:
            return wid
    return None


def in_front(board: Board, tail_to_head: list[str], cell: str) -> bool:
    """Whether ``cell`` is one of the wagon's front cells (wagon cells back, front)."""
    back, front = tail_to_head
    return board.distance(front, cell) == 1 and board.distance(back, cell) == 2


def cells(state: dict) -> dict[str, str]:
    """Cell -> the wagon standing on it."""
    return {c: wid for wid, w in sorted(state.get("wagons", {}).items()) for c in w["cells"]}


def validate(
    board: Board, wagons: object, horses: dict, figs: dict, taken: set[str], file: str
) -> dict:
    """Scenario entry ``wagons``: id -> {side, cells: [front, back], animal?}."""
    from . import riders

    need(
        isinstance(wagons, dict),
        file,
        "wagons",
        "must be an object: wagon id -> {side, cells, animal}",
    )
    assert isinstance(wagons, dict)
    out: dict[str, dict] = {}
    used = set(taken) | set(riders.occupied_cells({"horses": horses}))
    living = {f["at"] for f in figs.values() if not f["dead"]}
    animals: set[str] = set()
    for wid, w in wagons.items():
        entry = f"wagons.{wid}"
        need(
            isinstance(wid, str)
            and 1 <= len(wid) <= 24
            and wid.replace("-", "").isalnum()
            and wid not in figs
            and wid not in horses,
            file,
            entry,
            "ids are 1-24 letters, digits or dashes, different from every figure and horse",
        )
        need(
            isinstance(w, dict) and {"side", "cells"} <= set(w) <= {"side", "cells", "animal"},
            file,
            entry,
            "must be an object with side and cells (front, back), optionally animal",
        )
        need(
            w["side"] in ("besieger", "defender"),
            file,
            f"{entry}.side",
            "must be besieger or defender",
        )
        wc: Any = w["cells"]
        need(
            isinstance(wc, list)
            and len(wc) == 2
            and all(isinstance(c, str) and c in board for c in wc)
            and board.distance(wc[0], wc[1]) == 1,
            file,
            f"{entry}.cells",
            "must be two neighbouring cells of the map: front, back",
        )
        for c in wc:
            why = riders.closed_kind(board, c, False)
            need(
                why is None
                and riders._stop_ok(board, c, False)
                and c not in used
                and c not in living,
                file,
                f"{entry}.cells",
                f"{c}: a wagon stands only where a horse could, on nobody else's cell (5.11)",
            )
        used |= set(wc)
        animal = w.get("animal")
        if animal is not None:
            need(
                animal in horses and not horses[animal]["rider"] and animal not in animals,
                file,
                f"{entry}.animal",
                "must be a riderless horse or ox of this file drawing no other wagon",
            )
            need(
                in_front(board, [wc[1], wc[0]], horses[animal]["cells"][-1]),
                file,
                f"{entry}.animal",
                "the ox, or the rear of the horse, stands in one of the wagon's front cells "
                "(the three cells beyond its front, 5.11)",
            )
            animals.add(animal)
        out[wid] = {"side": w["side"], "cells": list(wc), "animal": animal}
    return out


# ----- harnessing (5.11) -------------------------------------------------------------------


def actions(rules, state: dict, side: str, kind: str | None) -> list[dict]:
    """``/harness unit: horse: wagon:`` and ``/unharness unit: wagon:``: a figure of the
    wagon's side next to the animal or the wagon spends its whole round ("Es wird von einer
    Figur eine ganze Runde benötigt, um ein Zugtier ein- oder auszuspannen, ob das Tier nun tot
    oder lebendig ist")."""
    from . import riders

    board = rules.board(state)
    out: list[dict] = []
    for fid, f in sorted(state["figures"].items()):
        if f.get("horse") or not riders._fresh(state, fid, f, side, rules):
            continue
        for wid, w in sorted(state.get("wagons", {}).items()):
            if w["side"] != side:
                continue
            if w["animal"]:
                team = list(w["cells"]) + state["horses"][w["animal"]]["cells"]
                if kind in (None, "unharness") and any(
                    board.distance(f["at"], c) == 1 for c in team
                ):
                    out.append({"type": "unharness", "side": side, "unit": fid, "wagon": wid})
                continue
            if kind not in (None, "harness"):
                continue
            for hid, h in sorted(state["horses"].items()):
                if (
                    h["dead"]
                    or h["rider"]
                    or h["side"] != side
                    or harnessed_to(state, hid)
                    or not in_front(board, [w["cells"][1], w["cells"][0]], h["cells"][-1])
                    or not any(
                        board.distance(f["at"], c) == 1 for c in list(w["cells"]) + h["cells"]
                    )
                ):
                    continue
                out.append(
                    {"type": "harness", "side": side, "unit": fid, "horse": hid, "wagon": wid}
                )
    return out


def apply(state: dict, action: dict, events: list[dict]) -> None:
    fid, wid = action["unit"], action["wagon"]
    wagon = state["wagons"][wid]
    if action["type"] == "harness":
        wagon["animal"] = action["horse"]
        events.append({"type": "harnessed", "unit": fid, "wagon": wid, "horse": action["horse"]})
    else:
        events.append({"type": "unharnessed", "unit": fid, "wagon": wid, "horse": wagon["animal"]})
        wagon["animal"] = None
    state["done"].append(fid)
    state["acted"].append(fid)
    state.setdefault("mounting", []).append(fid)


# ----- sight (5.11) ------------------------------------------------------------------------


def block_sight(board: Board, state: dict, shooter_level: int, seen) -> None:
    """5.11: "Die beiden Felder, die durch einen Wagen besetzt werden, blockieren für Figuren
    auf gleicher Höhe die Schußlinie": a line crossing a wagon's cell is blocked for a shooter
    on the wagon's level (from higher up one shoots over it)."""
    if not seen.possible:
        return
    standing = cells(state)
    for c in seen.crossed:
        if c in standing and board.cell(c).level == shooter_level:
            seen.possible = False
            seen.reasons.append(
                say(
                    "sight_wagon",
                    f"{c}: wagon {standing[c]} blocks the line on its level (5.11)",
                    cell=c,
                    wagon=standing[c],
                )
            )
            return


# ----- what players see --------------------------------------------------------------------


def draw(state: dict, pieces: list[dict], colors: dict[str, str]) -> None:
    """Wagons as two counters, the front one naming the wagon, both naming its team."""
    for wid, w in sorted(state.get("wagons", {}).items()):
        drawn_by = f"< {w['animal']}" if w["animal"] else "no team"
        for cell, title in zip(w["cells"], (f"wagon {wid}", "wagon")):
            pieces.append(
                {
                    "at": cell,
                    "id": f"{wid}-{cell}",
                    # Dark wood with white lettering reads at phone size; the side is in the
                    # header line.
                    "color": "#5d4037",
                    "text_color": "#ffffff",
                    "title": title[:8],
                    "values": drawn_by[:8],
                    # one counter across the hexside: a bar joins its two cells
                    **({"joined": w["cells"][1]} if cell == w["cells"][0] else {}),
                }
            )


def header_line(state: dict) -> str | None:
    parts = [
        f"{wid} {'-'.join(w['cells'])} ({w['side']}) "
        + (f"drawn by {w['animal']}" if w["animal"] else "unharnessed")
        for wid, w in sorted(state.get("wagons", {}).items())
    ]
    return "; ".join(parts) or None


# A wagon's events in each language.
EVENT_WORDS = {
    "en": {
        "harnessed": "{name} harnesses {horse} to wagon {wagon}: that takes the round.",
        "unharnessed": "{name} unharnesses {horse} from wagon {wagon}: that takes the round.",
        "wagon_moved": "Wagon {wagon}: {cells_from} → {cells_to}.",
    },
    "de": {
        "harnessed": "{name} spannt {horse} vor Wagen {wagon}: das kostet die Runde.",
        "unharnessed": "{name} spannt {horse} von Wagen {wagon} ab: das kostet die Runde.",
        "wagon_moved": "Wagen {wagon}: {cells_from} → {cells_to}.",
    },
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    template = EVENT_WORDS.get(lang, EVENT_WORDS["en"]).get(str(e.get("type")))
    if template is None:
        return None
    return template.format(
        name=state["figures"].get(e.get("unit"), {}).get("name", e.get("unit")),
        horse=e.get("horse"),
        wagon=e.get("wagon"),
        cells_from="-".join(e.get("from") or []),
        cells_to="-".join(e.get("to") or []),
    )
