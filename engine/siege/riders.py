"""Mounted figures and horses (rulebook 3.3).

A horse is a two-cell counter: ``state["horses"][hid] = {"kind", "side", "cells": [front,
back], "rider": fid | None, "dead": bool}``. Its rider is a figure whose ``"at"`` is the
horse's front cell and whose ``"horse"`` names the horse; while mounted the figure uses the
mounted counter's factors (3.33: "die Spielsteine, die das Pferd und den Ritter einzeln
darstellen, mit dem Spielstein, der beide darstellt eingetauscht"), from
``data/siege/horses.json``.

Our reading of how a two-cell counter moves (the Cry Havoc family; not in our text): the front
cell leads along a path of single steps and the back cell follows one step behind, so the horse
turns as it goes. A riderless horse led by a figure follows it the same way, as "eine
Erweiterung des Spielsteins, die es führt" (3.34).
"""

from __future__ import annotations

import functools
import heapq
from pathlib import Path
from typing import Any

from engine.core.errors import Reason

from . import data, movement, tower
from .board import Board
from .data import need

UNREACHABLE = movement.UNREACHABLE


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    return load_spec(data.DATA_DIR / "horses.json", "horses.json")


def load_spec(path: Path, file: str) -> dict:
    """``data/siege/horses.json`` (or a copy to check), validated; errors name the entry."""
    raw = data.read_json(path, file)
    mounted: Any = raw.get("mounted")
    need(isinstance(mounted, dict) and mounted, file, "mounted", "must name the types that ride")
    for kind, values in mounted.items():
        need(kind in data.figure_types(), file, f"mounted.{kind}", "must be a figure type")
        for st in data.STATES:
            v = values.get(st) if isinstance(values, dict) else None
            need(
                isinstance(v, dict)
                and all(isinstance(v.get(k), int) and v[k] >= 0 for k in ("move", "attack"))
                and isinstance(v.get("defence"), int)
                and v["defence"] >= 1,
                file,
                f"mounted.{kind}.{st}",
                "must give move, attack (whole numbers >= 0) and defence (>= 1)",
            )
    for key in ("riderless_defence", "dead_horse_weight"):
        need(
            isinstance(raw.get(key), int) and raw[key] >= 1,
            file,
            key,
            "must be a whole number >= 1",
        )
    listed = raw.get("impassable")
    need(
        isinstance(listed, list) and all(isinstance(k, str) for k in listed),
        file,
        "impassable",
        "must be a list of terrain kind names",
    )
    assert isinstance(listed, list)
    kinds = data.terrain()["kinds"]
    for kind in listed:
        need(kind in kinds, file, "impassable", f"{kind!r} is not a terrain kind (terrain.json)")
        # The terrain table's own `mounted` word (the camp's kinds) is the one source for
        # those kinds; a second, contradicting list here would make the two disagree silently.
        need(
            kinds[kind].get("mounted") in (None, "impassable"),
            file,
            "impassable",
            f"{kind!r} is {kinds[kind].get('mounted')} for horses in terrain.json",
        )
    return raw


@functools.lru_cache(maxsize=1)
def horse_kinds() -> tuple[frozenset[str], frozenset[str]]:
    """Terrain kinds closed to horses, and kinds they cross but never stop on (3.32 and the
    3.1 chart): the castle's kinds from ``horses.json``, the camp's from the terrain table's
    ``mounted`` (``impassable``, ``cross-only``)."""
    kinds = data.terrain()["kinds"]
    closed = set(spec()["impassable"])
    closed |= {k for k, v in kinds.items() if v.get("mounted") == "impassable"}
    crossed = {k for k, v in kinds.items() if v.get("mounted") == "cross-only"}
    return frozenset(closed), frozenset(crossed)


# ----- who is where ------------------------------------------------------------------------


def horse_of(state: dict, fig: dict) -> dict | None:
    hid = fig.get("horse")
    return state.get("horses", {}).get(hid) if hid else None


def cells_of(state: dict, fig: dict) -> list[str]:
    """The cells a figure occupies: its horse's two when mounted, else its own."""
    horse = horse_of(state, fig)
    return list(horse["cells"]) if horse else [fig["at"]]


def mounted_values(fig: dict) -> dict:
    return spec()["mounted"][fig["type"]]["wounded" if fig["wounded"] else "healthy"]


def occupied_cells(state: dict) -> dict[str, str]:
    """Cell -> the id of the living horse standing on it (with or without its rider). Other
    modules ask this for the cells a horse's counter takes."""
    from . import wagons

    out = {
        cell: hid
        for hid, h in sorted(state.get("horses", {}).items())
        if not h["dead"]
        for cell in h["cells"]
    }
    out.update(wagons.cells(state))
    return out


def blocked(state: dict, side: str) -> tuple[set[str], set[str]]:
    """For a figure of ``side`` on foot: horse cells it may not enter, and cells it may cross
    but not stop on. A mounted friend is crossed like any friend (1.62); an enemy rider is not;
    a riderless horse stands in everybody's way (our reading: it is nobody's friend)."""
    from . import wagons

    closed, crossed = set(wagons.cells(state)), set()
    for h in state.get("horses", {}).values():
        if h["dead"]:
            continue
        if h["rider"] and h["side"] == side:
            crossed |= set(h["cells"])
        else:
            closed |= set(h["cells"])
    return closed, crossed


def dead_weights(state: dict) -> dict[str, int]:
    """1.61 (4)-(5): a dead horse counts as ``dead_horse_weight`` dead figures in each of its
    cells (our reading: its counter lies on both)."""
    weight = spec()["dead_horse_weight"]
    out: dict[str, int] = {}
    for h in state.get("horses", {}).values():
        if h["dead"]:
            for cell in h["cells"]:
                out[cell] = out.get(cell, 0) + weight
    return out


# ----- terrain -----------------------------------------------------------------------------


def closed_kind(board: Board, cell: str, bridge_up: bool) -> str | None:
    """The terrain kind that shuts ``cell`` to horses (3.32), or None."""
    kind = movement.effective_kind(board, cell, bridge_up)
    if kind in horse_kinds()[0] or board.cell(cell).cost is None:
        return kind
    if board.cell(cell).building is not None:
        return kind
    return None


def horse_cells_closed(board: Board, state: dict) -> dict[str, str]:
    """Cells no horse enters and why: 3.32 terrain, raised ladders ("Leitern"), siege towers
    and other engines ("alle Felder, in denen sich Belagerungsmaschinen befinden")."""
    out: dict[str, str] = {}
    for lad in state.get("ladders", {}).values():
        if lad["raised"]:
            out[lad["at"]] = "a raised ladder"
    for cell in tower.cells_of(state):
        out[cell] = "a siege tower"
    for engine in state.get("engines", {}).values():
        kind = engine.get("kind", "siege engine")
        for cell in engine.get("cells", []):
            out[cell] = f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    for w in state.get("wagons", {}).values():
        for cell in w["cells"]:
            out[cell] = "a wagon"
    # A fire outlives its engine until the round ends (fire.round_end); nobody walks into
    # it on foot, and no horse is ridden or led into it either.
    for cell in state.get("fires") or {}:
        out[cell] = "a fire"
    return out


def _stop_ok(board: Board, cell: str, bridge_up: bool) -> bool:
    return movement.effective_kind(board, cell, bridge_up) not in horse_kinds()[1]


# ----- moving a two-cell counter -----------------------------------------------------------


def horse_reachable(
    board: Board,
    state: dict,
    cells: list[str],
    points: int,
    enemies: set[str],
    friends: set[str],
    dead_count: dict[str, int],
) -> dict[tuple[str, str], tuple[int, list[str]]]:
    """Where a horse (front, back) can end a move of ``points``: (front, back) -> (cost, the
    front's path). The front leads cell by cell, the back follows one step behind. Enemies'
    cells are never entered, except trenches (3.32: "können Reiter diese wohl überqueren, selbst
    wenn sich eine Figur auf dem Feld befindet"); neither cell ends on a figure or a trench."""
    bridge_up = state["bridge_up"]
    shut = horse_cells_closed(board, state)
    dead = data.terrain()["dead_figures"]
    front, back = cells
    start = (front, back)
    best = {start: 0}
    parent: dict[tuple[str, str], tuple[str, str]] = {}
    frontier = [(0, start)]
    own = set(cells)
    while frontier:
        cost, (f, b) = heapq.heappop(frontier)
        if cost > best.get((f, b), UNREACHABLE):
            continue
        for n in board.neighbours(f):
            if n == b or n in shut or closed_kind(board, n, bridge_up):
                continue
            if not movement.connects(board, f, n, bridge_up):
                continue
            trench = not _stop_ok(board, n, bridge_up)
            if n in enemies and n not in own and not trench:
                continue
            step = movement.enter_cost(board, f, n, 0, bridge_up)
            if step >= UNREACHABLE:
                continue
            here = dead_count.get(n, 0)
            if here >= dead["impassable_at"]:
                continue
            if here >= dead["extra_cost_at"]:
                step += 1
            total = cost + step
            nxt = (n, f)
            if total <= points and total < best.get(nxt, UNREACHABLE):
                best[nxt] = total
                parent[nxt] = (f, b)
                heapq.heappush(frontier, (total, nxt))
    out = {}
    for end, cost in best.items():
        if end == start:
            continue
        if any(c not in own and (c in friends or c in enemies) for c in end):
            continue
        if not all(_stop_ok(board, c, bridge_up) for c in end):
            continue
        path = [end[0]]
        node = end
        while node != start:
            node = parent[node]
            path.append(node[0])
        out[end] = (cost, path[::-1])
    return out


def mounted_plans(
    board: Board,
    state: dict,
    fid: str,
    points: int,
    enemies: set[str],
    friends: set[str],
    dead_count: dict[str, int],
) -> dict[str, dict]:
    """``/move`` plans of a rider: keyed by the new front cell, the cheapest way there."""
    fig = state["figures"][fid]
    horse = horse_of(state, fig)
    assert horse is not None
    ends = horse_reachable(board, state, horse["cells"], points, enemies, friends, dead_count)
    plans: dict[str, dict] = {}
    for (front, back), (cost, path) in sorted(ends.items()):
        if front in plans and plans[front]["cost"] <= cost:
            continue
        plans[front] = {"path": path, "cost": cost, "horse_cells": [front, back]}
    return plans


def lead_plans(
    board: Board,
    state: dict,
    fid: str,
    hid: str,
    foot_plans: dict[str, dict],
    occupied: set[str],
) -> dict[str, dict]:
    """3.34: a figure next to a riderless horse leads it: the figure moves as on foot and the
    horse follows it as an extension of its counter, the cell nearer the leader in front.
    5.11: a draught animal is led the same way and its wagon follows behind it, the animal's
    rear staying in one of the wagon's front cells. ``foot_plans``: the figure's own plans;
    ``occupied``: cells of living figures."""
    from . import wagons

    fig = state["figures"][fid]
    horse = state["horses"][hid]
    start = fig["at"]
    animal = list(reversed(horse["cells"]))  # tail to head
    wid = wagons.harnessed_to(state, hid)
    if wid is not None:
        if board.distance(start, animal[-1]) != 1:
            return {}
        train = list(reversed(state["wagons"][wid]["cells"])) + animal
    elif board.distance(start, animal[-1]) == 1:
        train = animal
    elif board.distance(start, animal[0]) == 1:
        train = animal[::-1]
    else:
        return {}
    n = len(train)
    others = set(occupied_cells(state)) - set(train)
    bridge_up = state["bridge_up"]
    shut = horse_cells_closed(board, state)
    out = {}
    for end, plan in foot_plans.items():
        trail = train + plan["path"]
        new = trail[-(n + 1) : -1]
        passed = trail[n:-1]
        if any(c in shut or closed_kind(board, c, bridge_up) for c in passed):
            continue
        if len(set(new)) != n or not all(_stop_ok(board, c, bridge_up) for c in new):
            continue
        if any(c in occupied and c != start for c in new):
            continue
        if any(c in others for c in new):
            continue
        plan = {**plan, "horse": hid}
        if wid is not None:
            if not wagons.in_front(board, new[:2], new[2]):
                continue
            plan["wagon"], plan["wagon_cells"] = wid, [new[1], new[0]]
            plan["horse_cells"] = list(reversed(new[2:]))
        else:
            plan["horse_cells"] = list(reversed(new))
        out[end] = plan
    return out


# ----- melee and cover ---------------------------------------------------------------------


def contact(board: Board, state: dict, a: dict, d: dict) -> tuple[str, str] | None:
    """A pair of adjacent cells (attacker's, defender's) when a horse is involved, the first
    the attacker could step into (1.74); None when they are not in contact."""
    for ca in cells_of(state, a):
        for cd in cells_of(state, d):
            if board.distance(ca, cd) == 1 and movement.connects(board, ca, cd, state["bridge_up"]):
                return ca, cd
    return None


def better_cover(options: list) -> Any:
    """3.31: the rider is in the cell that gives him more cover; a cell out of sight gives
    total cover (our reading: no shot at him then)."""
    order = {c: i for i, c in enumerate(data.COVERS)}

    def rank(seen):
        return len(data.COVERS) if not seen.possible else order.get(seen.cover, 0)

    return max(options, key=rank)


# ----- scenario ----------------------------------------------------------------------------


def validate(board: Board, horses: object, figs: dict, taken: set[str], file: str) -> dict:
    """Scenario entry ``horses``: id -> {kind?, side, cells: [front, back], rider?, dead?}.
    Marks each rider figure with its horse. ``taken``: cells no horse may share (towers)."""
    need(
        isinstance(horses, dict),
        file,
        "horses",
        "must be an object: horse id -> {side, cells, rider, dead}",
    )
    assert isinstance(horses, dict)
    out: dict[str, dict] = {}
    used: set[str] = set()
    living_at = {f["at"]: fid for fid, f in figs.items() if not f["dead"] and "layer" not in f}
    for hid, h in horses.items():
        entry = f"horses.{hid}"
        need(
            isinstance(hid, str) and 1 <= len(hid) <= 24 and hid.replace("-", "").isalnum(),
            file,
            entry,
            "ids are 1-24 letters, digits or dashes",
        )
        need(hid not in figs, file, entry, "a figure has this id: horses need ids of their own")
        need(
            isinstance(h, dict)
            and {"side", "cells"} <= set(h) <= {"side", "cells", "rider", "dead", "kind"},
            file,
            entry,
            "must be an object with side and cells (front, back), optionally rider, dead and kind",
        )
        kind = h.get("kind", "horse")
        need(
            kind in ("horse", "ox"),
            file,
            f"{entry}.kind",
            "must be horse or ox (a draught ox, 5.1)",
        )
        need(
            h["side"] in ("besieger", "defender"),
            file,
            f"{entry}.side",
            "must be besieger or defender",
        )
        cells = h["cells"]
        need(
            isinstance(cells, list)
            and len(cells) == (1 if kind == "ox" else 2)
            and all(isinstance(c, str) and c in board for c in cells)
            and (kind == "ox" or board.distance(cells[0], cells[1]) == 1),
            file,
            f"{entry}.cells",
            "an ox stands on one cell"
            if kind == "ox"
            else "must be two neighbouring cells of the map: front, back",
        )
        for c in cells:
            why = closed_kind(board, c, False)
            need(
                why is None and c not in taken,
                file,
                f"{entry}.cells",
                f"{c}: horses cannot stand on {why or 'a siege tower'} (3.32)",
            )
            need(
                _stop_ok(board, c, False),
                file,
                f"{entry}.cells",
                f"{c}: horses cross a {board.cell(c).kind} but never stop on one (3.32)",
            )
        dead = h.get("dead", False)
        need(isinstance(dead, bool), file, f"{entry}.dead", "must be true or false")
        rider = h.get("rider")
        if rider is not None:
            need(
                isinstance(rider, str) and rider in figs,
                file,
                f"{entry}.rider",
                "must be a figure of this file",
            )
            fig = figs[rider]
            need(
                not dead and kind == "horse",
                file,
                f"{entry}.rider",
                "only a living horse has a rider",
            )
            need(
                fig["type"] in spec()["mounted"],
                file,
                f"{entry}.rider",
                f"only {', '.join(spec()['mounted'])} ride (data/siege/horses.json)",
            )
            need(
                fig["at"] == cells[0] and not fig["dead"] and fig["side"] == h["side"],
                file,
                f"{entry}.rider",
                "must be a living figure of the horse's side standing on its front cell",
            )
            need(not fig.get("horse"), file, f"{entry}.rider", "already rides another horse")
        if not dead:
            need(not used & set(cells), file, f"{entry}.cells", "another horse stands there")
            for c in cells:
                other = living_at.get(c)
                need(
                    other is None or other == rider,
                    file,
                    f"{entry}.cells",
                    f"{other} already stands on {c}: one living counter per cell (1.62)",
                )
            used |= set(cells)
        if rider is not None:
            figs[rider]["horse"] = hid
        out[hid] = {
            "side": h["side"],
            "cells": list(cells),
            "rider": rider,
            "dead": dead,
            **({"kind": "ox"} if kind == "ox" else {}),
        }
    return out


__all__ = [
    "blocked",
    "cells_of",
    "contact",
    "dead_weights",
    "horse_of",
    "lead_plans",
    "mounted_plans",
    "mounted_values",
    "occupied_cells",
    "spec",
    "validate",
]


def in_the_line(state: dict, shooter: dict, target: dict, living: dict[str, str]) -> dict[str, str]:
    """``living`` with the cells of living horses added: a horse's counter stands in a line
    like a figure (our reading), except the shooter's and the target's own cells."""
    own = set(cells_of(state, shooter)) | set(cells_of(state, target))
    out = {c: name for c, name in living.items() if c not in own}
    for hid, h in sorted(state.get("horses", {}).items()):
        if h["dead"]:
            continue
        name = state["figures"][h["rider"]]["name"] if h["rider"] else f"horse {hid}"
        for cell in h["cells"]:
            if cell not in own:
                out.setdefault(cell, name)
    return out


# ----- mounting, dismounting, leading (3.33, 3.34) -----------------------------------------


def new_phase(state: dict) -> None:
    """A figure that mounted or dismounted spent its round doing so; the next phase frees it."""
    state["mounting"] = []


def _fresh(state: dict, fid: str, f: dict, side: str, rules) -> bool:
    """A figure that has done nothing yet this round (3.33: "eine ganze Runde")."""
    from . import figures

    return (
        f["side"] == side
        and figures.can_act(f)
        and fid not in state["acted"]
        and fid not in state["done"]
        and fid not in rules._busy(state)
    )


def mount_refusal(state: dict, fig: dict, horse: dict) -> str | None:
    """Why ``fig`` may not mount ``horse`` (None: it may)."""
    code = _mount_code(state, fig, horse)
    if code is None:
        return None
    return WHY[code].format(riders=_plural(spec()["mounted"]), type=fig["type"])


# Why a figure may not get on or off a horse: English fragments; the German ones are in
# TRANSLATIONS under "siege.cannot_<code>".
WHY = {
    "not_rider": "only {riders} ride (3.33; a {type} has no mounted counter)",
    "ox": "an ox is not ridden",
    "harnessed": "a horse in harness is not ridden; unharness it first (5.11)",
    "wounded_knight": "a wounded knight can neither mount nor dismount (3.33)",
    "captured": "only knights mount captured horses (3.33)",
}


def _mount_code(state: dict, fig: dict, horse: dict) -> str | None:
    from . import wagons

    if fig["type"] not in spec()["mounted"]:
        return "not_rider"
    if horse.get("kind") == "ox":
        return "ox"
    if any(
        h is horse for hid, h in state.get("horses", {}).items() if wagons.harnessed_to(state, hid)
    ):
        return "harnessed"
    if fig["type"] == "knight" and fig["wounded"]:
        return "wounded_knight"
    if horse["side"] != fig["side"] and fig["type"] != "knight":
        return "captured"
    return None


def free_cells_beside(board: Board, state: dict, cells: list[str], occupied: set[str]) -> list[str]:
    """Cells next to a horse where a figure on foot can stand and nobody does, never a
    burning one (3.54, F4: nobody enters a fire)."""
    shut = set(tower.cells_of(state)) | set(occupied_cells(state)) | set(state.get("fires") or {})
    out = set()
    for c in cells:
        for n in board.neighbours(c):
            if (
                n not in cells
                and n not in occupied
                and n not in shut
                and board.cell(n).cost is not None
                and any(movement.connects(board, c, n, state["bridge_up"]) for c in cells)
            ):
                out.add(n)
    return sorted(out)


def lead_options(rules, state: dict, side: str, fid: str) -> dict[tuple[str, str], dict]:
    """(horse, cell) -> plan for every riderless horse the figure leads this move (3.34): one
    it stands next to, or one it walks up to and takes along for the rest of its move ("Um
    ein Pferd am Zügel zu führen reicht es schon, eine beliebige Figur ... angrenzend zu dem
    Pferd zu bringen. Die Figur kann ihre Bewegung beenden, wobei das Pferd ihr folgt")."""
    board = rules.board(state)
    f = state["figures"][fid]
    if f.get("horse") or f["at"] in tower.cells_of(state) or fid in rules._busy(state):
        return {}
    free = [
        hid
        for hid, h in sorted(state.get("horses", {}).items())
        if not h["dead"] and not h["rider"]
    ]
    if not free:
        return {}

    def on_foot(view: dict) -> dict[str, dict]:
        plans = rules._move_plans(view, side, fid).get(fid, {})
        return {k: p for k, p in plans.items() if "partner" not in p and "+" not in k}

    occupied = set(rules._living_at(state))
    walk: dict[str, dict] | None = None
    out: dict[tuple[str, str], dict] = {}
    for hid in free:
        cells = state["horses"][hid]["cells"]
        # The horse being led is no obstacle to its leader's own path.
        led = {**state, "horses": {k: v for k, v in state["horses"].items() if k != hid}}
        if any(board.distance(f["at"], c) == 1 for c in cells):
            for end, plan in lead_plans(board, state, fid, hid, on_foot(led), occupied).items():
                out[(hid, end)] = plan
            continue
        if walk is None:
            walk = on_foot(state)
        for pick, first in sorted(walk.items()):
            if not any(board.distance(pick, c) == 1 for c in cells):
                continue
            spent = {
                **state.get("spent", {}),
                fid: state.get("spent", {}).get(fid, 0) + first["cost"],
            }
            figs = {**state["figures"], fid: {**f, "at": pick}}
            view = {**state, "figures": figs, "spent": spent}
            rest = on_foot({**led, "figures": figs, "spent": spent})
            taken = (occupied - {f["at"]}) | {pick}
            for end, plan in lead_plans(board, view, fid, hid, rest, taken).items():
                whole = {
                    **plan,
                    "path": first["path"] + plan["path"][1:],
                    "cost": first["cost"] + plan["cost"],
                }
                if (hid, end) not in out or out[(hid, end)]["cost"] > whole["cost"]:
                    out[(hid, end)] = whole
    return out


def actions(rules, state: dict, side: str, kind: str | None) -> list[dict]:
    board = rules.board(state)
    out: list[dict] = []
    occupied = set(rules._living_at(state))
    horses = state.get("horses", {})
    for fid, f in sorted(state["figures"].items()):
        if not _fresh(state, fid, f, side, rules) or fid in state["crossbow_shot"]:
            continue
        horse = horse_of(state, f)
        if horse is not None:
            if kind in (None, "dismount") and mount_refusal(state, f, horse) is None:
                for cell in free_cells_beside(board, state, horse["cells"], occupied):
                    out.append({"type": "dismount", "side": side, "unit": fid, "to": cell})
            continue
        for hid, h in sorted(horses.items()):
            if h["dead"] or h["rider"] or mount_refusal(state, f, h):
                continue
            if kind in (None, "mount") and any(board.distance(f["at"], c) == 1 for c in h["cells"]):
                out.append({"type": "mount", "side": side, "unit": fid, "horse": hid})
        if kind in (None, "lead"):
            for (hid, key), _plan in sorted(lead_options(rules, state, side, fid).items()):
                out.append({"type": "lead", "side": side, "unit": fid, "horse": hid, "to": key})
    return out


def apply_mount(state: dict, action: dict, events: list[dict]) -> None:
    fid = action["unit"]
    f = state["figures"][fid]
    if action["type"] == "mount":
        hid = action["horse"]
        horse = state["horses"][hid]
        captured = horse["side"] != f["side"]
        events.append(
            {
                "type": "mounted",
                "unit": fid,
                "horse": hid,
                "from": f["at"],
                "to": horse["cells"][0],
                **({"captured": True} if captured else {}),
            }
        )
        horse["rider"], horse["side"] = fid, f["side"]
        f["at"], f["horse"] = horse["cells"][0], hid
    else:
        hid = f.pop("horse")
        state["horses"][hid]["rider"] = None
        events.append(
            {"type": "dismounted", "unit": fid, "horse": hid, "from": f["at"], "to": action["to"]}
        )
        f["at"] = action["to"]
    state["done"].append(fid)
    state["acted"].append(fid)
    state.setdefault("mounting", []).append(fid)


def follow(
    state: dict, hid: str, cells: list[str], events: list[dict], plan: dict | None = None
) -> None:
    """The horse's counter takes its new cells after its rider's or leader's move, and a wagon
    it draws follows (5.11)."""
    horse = state["horses"][hid]
    events.append(
        {"type": "horse_moved", "horse": hid, "from": list(horse["cells"]), "to": list(cells)}
    )
    horse["cells"] = list(cells)
    if plan and plan.get("wagon"):
        wagon = state["wagons"][plan["wagon"]]
        events.append(
            {
                "type": "wagon_moved",
                "wagon": plan["wagon"],
                "from": list(wagon["cells"]),
                "to": plan["wagon_cells"],
            }
        )
        wagon["cells"] = list(plan["wagon_cells"])


def mounted_cells(state: dict) -> dict[str, list[str]]:
    """Rider id -> his horse's two cells."""
    return {
        h["rider"]: list(h["cells"])
        for h in state.get("horses", {}).values()
        if h["rider"] and not h["dead"]
    }


# ----- thrown riders and retreats (3.35, 1.72) ---------------------------------------------


def throw(rules, state: dict, fid: str, events: list[dict]) -> None:
    """3.35: a rider hit by a shot or in melee (killed, stunned or wounded) is thrown: his
    owner lays him on a cell beside the horse, which stays where it is, riderless. Our
    reading: with no free cell beside the horse he stays in the saddle."""
    f = state["figures"][fid]
    horse = horse_of(state, f)
    if horse is None:
        return
    occupied = set(rules._living_at(state)) - {f["at"]}
    options = free_cells_beside(rules.board(state), state, horse["cells"], occupied)
    if not options and not horse["dead"]:
        return
    hid = f.pop("horse")
    if not options:
        # Nowhere beside a dead horse: the rider lies where he fell, on its front cell.
        horse["rider"] = None
        place_thrown(state, fid, hid, f["at"], events)
        return
    horse["rider"] = None
    if len(options) == 1:
        place_thrown(state, fid, hid, options[0], events)
        return
    state["landing"] = {
        "side": f["side"],
        "unit": fid,
        "from": f["at"],
        "options": options,
        "thrown": hid,
    }
    state["awaiting"] = [f["side"]]
    events.append(
        {
            "type": "choose_landing",
            "side": f["side"],
            "unit": fid,
            "options": options,
            "thrown": True,
        }
    )


def place_thrown(state: dict, fid: str, hid: str, cell: str, events: list[dict]) -> None:
    from . import figures

    f = state["figures"][fid]
    events.append(
        {
            "type": "thrown",
            "unit": fid,
            "horse": hid,
            "from": f["at"],
            "to": cell,
            "outcome": figures.state_word(f),
        }
    )
    f["at"] = cell


def retreat_options(rules, state: dict, fid: str) -> list[str]:
    """1.72 for a rider (our reading): the horse's counter steps one cell as it moves, its
    front into a free cell a horse may enter and its back into the front's old cell; the
    options are the new front cells, those next to no enemy when there are such."""
    board = rules.board(state)
    f = state["figures"][fid]
    horse = horse_of(state, f)
    assert horse is not None
    front, back = horse["cells"]
    shut = horse_cells_closed(board, state)
    taken = set(rules._living_at(state)) | set(occupied_cells(state))
    dead = data.terrain()["dead_figures"]["impassable_at"]
    heaps = rules._dead_count(state)
    free = [
        n
        for n in sorted(board.neighbours(front))
        if n != back
        and n not in taken
        and n not in shut
        and closed_kind(board, n, state["bridge_up"]) is None
        and _stop_ok(board, n, state["bridge_up"])
        and heaps.get(n, 0) < dead
        and movement.connects(board, front, n, state["bridge_up"])
    ]
    enemies = [
        c
        for o in state["figures"].values()
        if not o["dead"] and o["side"] != f["side"]
        for c in cells_of(state, o)
    ]
    safe = [c for c in free if all(board.distance(c, e) > 1 for e in enemies)]
    return safe or free


def retreat_to(state: dict, fid: str, cell: str, events: list[dict]) -> None:
    f = state["figures"][fid]
    events.append({"type": "retreated", "unit": fid, "from": f["at"], "to": cell})
    follow(state, f["horse"], [cell, f["at"]], events)
    f["at"] = cell


# ----- what players see --------------------------------------------------------------------

RIDERLESS_FILL = "#d9c8f5"  # lavender: apart from the map background, terrain and stunned tints


# The riders' events in each language.
EVENT_WORDS = {
    "en": {
        "mounted": "{name} mounts horse {horse}{captured} at {to}: that takes the round.",
        "captured": " (a captured horse)",
        "dismounted": "{name} dismounts from horse {horse} onto {to}: that takes the round.",
        "horse_moved": "Horse {horse}: {cells_from} → {cells_to}.",
        "thrown": "{name} is thrown from horse {horse} onto {to} ({outcome}); the horse stays.",
        "horse_killed": "Horse {horse} is killed on {cells}.",
        "horse_unharmed": "Horse {horse}: result {letter} would hurt only a rider and is "
        "ignored (3.35).",
        "choose_landing": "{name} is thrown: his owner chooses where he lies ({options}; /land).",
    },
    "de": {
        "mounted": "{name} besteigt Pferd {horse}{captured} auf {to}: das kostet die Runde.",
        "captured": " (ein erbeutetes Pferd)",
        "dismounted": "{name} steigt von Pferd {horse} ab auf {to}: das kostet die Runde.",
        "horse_moved": "Pferd {horse}: {cells_from} → {cells_to}.",
        "thrown": "{name} wird von Pferd {horse} auf {to} abgeworfen ({outcome}); das Pferd "
        "bleibt.",
        "horse_killed": "Pferd {horse} wird auf {cells} getötet.",
        "horse_unharmed": "Pferd {horse}: Ergebnis {letter} träfe nur einen Reiter und entfällt "
        "(3.35).",
        "choose_landing": "{name} wird abgeworfen: sein Besitzer wählt, wo er liegt ({options}; "
        "/land).",
    },
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    kind = str(e.get("type"))
    words = EVENT_WORDS.get(lang, EVENT_WORDS["en"])
    if (
        kind not in words
        or kind == "captured"
        or (kind == "choose_landing" and not e.get("thrown"))
    ):
        return None
    outcome = str(e.get("outcome", ""))
    if lang == "de":
        from .present import state_word_de

        outcome = state_word_de(outcome)
    return words[kind].format(
        name=state["figures"].get(e.get("unit"), {}).get("name", e.get("unit")),
        horse=e.get("horse"),
        to=e.get("to"),
        captured=words["captured"] if e.get("captured") else "",
        cells_from="-".join(e.get("from") or []),
        cells_to="-".join(e.get("to") or []) if isinstance(e.get("to"), list) else "",
        outcome=outcome,
        cells="-".join(e.get("cells") or []),
        letter=e.get("letter"),
        options=", ".join(e.get("options") or []),
    )


def header_line(state: dict) -> str | None:
    parts = []
    for hid, h in sorted(state.get("horses", {}).items()):
        where = "-".join(h["cells"])
        if h["dead"]:
            parts.append(f"{hid} dead {where}")
        elif h["rider"]:
            parts.append(f"{hid} {where} ridden by {state['figures'][h['rider']]['name']}")
        else:
            parts.append(f"{hid} {where} riderless ({h['side']})")
    return "; ".join(parts) or None


def draw(
    state: dict, pieces: list[dict], colors: dict[str, str], dead: str, word=lambda text: text
) -> None:
    """Horses as two counters joined front to back by a bar across the hexside (one counter
    on the table): the rider's counter (with the mounted factors) on the front cell, the
    horse's on the back; riderless horses pale with their side's lettering, dead horses grey.
    ``word`` gives the picture's words in the reader's language."""
    for hid, h in sorted(state.get("horses", {}).items()):
        beast = h.get("kind", "horse")
        if h["dead"]:
            for cell in h["cells"]:
                pieces.insert(
                    0,
                    {"at": cell, "id": f"{hid}-{cell}", "color": dead, "title": f"+{word(beast)}"},
                )
            continue
        if beast == "ox":
            pieces.append(
                {
                    "at": h["cells"][0],
                    "id": hid,
                    "color": RIDERLESS_FILL,
                    "text_color": colors[h["side"]],
                    "title": f"ox {hid}"[:8],
                    "values": "draught",
                }
            )
            continue
        front, back = h["cells"]
        if h["rider"]:
            rider = state["figures"][h["rider"]]
            pieces.append(
                {
                    "at": back,
                    "id": f"{hid}-back",
                    "color": colors[h["side"]],
                    "title": word("horse"),
                    "values": f"< {rider['name'][:6]}",
                    "joined": front,
                }
            )
            continue
        for cell, title in ((front, f"{hid} >"), (back, word("horse"))):
            pieces.append(
                {
                    "at": cell,
                    "id": f"{hid}-{cell}",
                    "color": RIDERLESS_FILL,
                    "text_color": colors[h["side"]],
                    "title": title[:8],
                    "values": word("no rider"),
                    **({"joined": back} if cell == front else {}),
                }
            )


# ----- striking the horse itself (3.35, 5.12) ----------------------------------------------


def struck(state: dict, hid: str | None) -> dict | None:
    """The horse as the defender of a melee: "wie ein Angriff gegen eine Figur zu Pferd"; a
    riderless horse defends with 1, a ridden one with its mounted counter's defence (our
    reading: horse and rider are one counter)."""
    if not hid:
        return None
    horse = state["horses"][hid]
    defence = (
        mounted_values(state["figures"][horse["rider"]])["defence"]
        if horse["rider"]
        else spec()["riderless_defence"]
    )
    return {"name": f"horse {hid}", "defence": defence, "cells": list(horse["cells"])}


def horse_melee_actions(rules, state: dict, side: str) -> list[dict]:
    """``/attack unit: target:<horse>``: enemy horses next to the attacker, one horse per
    melee and not together with figures; then ``/fight`` or ``/cancel``."""
    from . import equipment, figures, melee

    board = rules.board(state)
    pending = state["pending"]
    out: list[dict] = []
    targets = (
        [pending["horse"]]
        if pending
        else [
            hid
            for hid, h in sorted(state.get("horses", {}).items())
            if not h["dead"] and h["side"] != side and hid not in state["attacked"]
        ]
    )
    for hid in targets:
        cells = state["horses"][hid]["cells"]
        for aid, a in sorted(state["figures"].items()):
            if (
                a["side"] != side
                or not figures.can_act(a)
                or aid in state["done"]
                or aid in rules._busy(state)
                or aid in equipment.carried_by(state)
                or (pending and aid in pending["attackers"])
                or a["at"] in tower.cells_of(state)
            ):
                continue
            if any(
                board.distance(c, h) == 1 and movement.connects(board, c, h, state["bridge_up"])
                for c in cells_of(state, a)
                for h in cells
            ):
                out.append({"type": "attack", "side": side, "unit": aid, "target": hid})
    if pending:
        odds = melee.assess(
            board,
            state["figures"],
            pending["attackers"],
            [],
            mounted=mounted_cells(state),
            horse=struck(state, pending["horse"]),
        )["odds"]
        if odds >= 1:
            out.append({"type": "fight", "side": side})
        out.append({"type": "cancel", "side": side})
    return out


def horse_hit(rules, state: dict, hid: str, letter: str, combat: dict, events: list[dict]) -> None:
    """A result against a struck horse: killed, it falls where it stands and throws its rider
    unhurt; results that would wound or stun the rider are ignored (3.35: "wobei Ergebnisse,
    die eine Verwundung des Reiters nach sich ziehen, ignoriert werden"); a result that makes
    the defender retreat moves a ridden horse as a rider's retreat and leaves a riderless
    one standing (3.34: it does not move unless led)."""
    effect = data.results()[letter]["effect"]
    horse = state["horses"][hid]
    if effect == "kill":
        horse["dead"] = True
        events.append({"type": "horse_killed", "horse": hid, "cells": list(horse["cells"])})
        if horse["rider"]:
            rider = horse["rider"]
            throw(rules, state, rider, events)
        return
    if effect == "retreat" and horse["rider"]:
        rider = horse["rider"]
        combat = {
            **combat,
            "defenders": [rider],
            "cells": {**combat["cells"], rider: horse["cells"][0]},
        }
        combat["letter"] = letter
        state["retreat"] = {"queue": [rider], "combat": combat}
        rules._continue_retreat(state, events)
        return
    events.append({"type": "horse_unharmed", "horse": hid, "letter": letter})


def _say(key: str, text: str, **params) -> Reason:
    """A refusal in English that carries its key for the player's language (TRANSLATIONS)."""
    return Reason(text, key=f"siege.{key}", domain="siege", **params)


def explain_refusal(rules, state: dict, action: dict) -> Reason | None:
    """Why a /move of a rider, a /mount, /dismount or /lead is refused, in words, when the
    reason is a rule of 3.3 (None: the generic refusal with the legal list says it)."""
    kind = action.get("type")
    if kind not in ("mount", "dismount", "lead", "move"):
        return None
    typed = str(action.get("unit", ""))[:40]
    # A name no legal action offers is not resolved to an id before it gets here.
    fid = (
        typed
        if typed in state["figures"]
        else next(
            (
                k
                for k, f in sorted(state["figures"].items())
                if f["name"].casefold() == typed.casefold()
            ),
            None,
        )
    )
    if fid is None:
        return None
    fig = state["figures"][fid]
    name = fig["name"]
    horses = state.get("horses", {})
    if kind == "move":
        return _ride_refusal(rules, state, fid, str(action.get("to", ""))[:12])
    if fid in state.get("mounting", []):
        return _say(
            "mounting",
            f"{name} spends this whole round getting on or off a horse (3.33).",
            name=name,
        )
    if kind != "lead" and fid in state.get("acted", []):
        return _say(
            "acted",
            f"{name} has already acted this round; mounting and dismounting take a whole round (3.33).",
            name=name,
        )
    if kind == "dismount":
        horse = horse_of(state, fig)
        if horse is None:
            return _say("not_mounted", f"{name} is not on a horse.", name=name)
        why = _cannot(state, fig, horse, "dismount", None)
        if why is not None:
            return why
        to = str(action.get("to", ""))[:12]
        free = free_cells_beside(
            rules.board(state), state, horse["cells"], set(rules._living_at(state))
        )
        if to in free:
            return None
        cells = ", ".join(free) or "none"
        return _say(
            "dismount_where",
            f"{name} gets off onto a free cell beside his horse ({cells}), not {to} (3.33).",
            name=name,
            cell=to,
            cells=cells,
        )
    if kind == "mount" and fig["type"] not in spec()["mounted"]:
        return _cannot(state, fig, {}, "mount", None)
    hid = str(action.get("horse", ""))[:24]
    horse = horses.get(hid)
    if horse is None:
        known = ", ".join(sorted(horses)) or "none"
        return _say(
            "no_horse", f"There is no horse {hid!r}; horses: {known}.", horse=hid, known=known
        )
    if horse["dead"]:
        return _say("dead_horse", f"Horse {hid} is dead.", horse=hid)
    if horse["rider"]:
        rider = state["figures"][horse["rider"]]["name"]
        return _say(
            "has_rider", f"Horse {hid} already has a rider ({rider}).", horse=hid, rider=rider
        )
    board = rules.board(state)
    if kind == "lead" and not any(
        h == hid for h, _ in lead_options(rules, state, fig["side"], fid)
    ):
        return _say(
            "cannot_lead",
            f"{name} cannot get beside horse {hid} and lead it on this move (3.34).",
            name=name,
            horse=hid,
        )
    if not any(board.distance(fig["at"], c) == 1 for c in horse["cells"]) and kind == "mount":
        return _say(
            "not_beside",
            f"{name} must stand next to horse {hid} (3.33).",
            name=name,
            horse=hid,
            rule="3.33",
        )
    if kind == "mount":
        if fig.get("horse"):
            return _say("already_rides", f"{name} already rides.", name=name)
        return _cannot(state, fig, horse, "mount", hid)
    return _lead_refusal(rules, state, fid, hid, str(action.get("to", ""))[:12])


def _lead_refusal(rules, state: dict, fid: str, hid: str, to: str) -> Reason | None:
    """A ``/lead`` to a cell the leader could walk to but his horse (and wagon) cannot follow
    him to; None leaves the generic refusal."""
    fig = state["figures"][fid]
    if fig["side"] != state["active"] or fig.get("horse") or fid in state["done"]:
        return None
    led = {**state, "horses": {k: v for k, v in state["horses"].items() if k != hid}}
    if to not in rules._move_plans(led, fig["side"], fid).get(fid, {}):
        return None
    if (hid, to) in lead_options(rules, state, fig["side"], fid):
        return None
    return _say(
        "cannot_follow",
        f"{fig['name']} may walk to {to}, but horse {hid} cannot follow him there: its cells "
        "(and its wagon's) would pass a cell closed to horses or end on a trench, a counter or "
        "a figure (3.34, 5.11).",
        name=fig["name"],
        horse=hid,
        cell=to,
    )


def _cannot(state: dict, fig: dict, horse: dict, verb: str, hid: str | None) -> Reason | None:
    code = _mount_code(state, fig, horse)
    if code is None:
        return None
    why = mount_refusal(state, fig, horse)
    target = f" horse {hid}" if hid else ""
    riders = _plural(spec()["mounted"])
    return _say(
        f"cannot_{code}",
        f"{fig['name']} cannot {verb}{target}: {why}.",
        name=fig["name"],
        verb=verb,
        riders=riders,
        type=fig["type"],
    )


def _ride_refusal(rules, state: dict, fid: str, to: str) -> Reason | None:
    """Why a rider's ``/move`` cannot end on ``to`` when the reason is his horse (3.32);
    None leaves the generic refusal (a cell taken, a rider who cannot move at all)."""
    fig = state["figures"][fid]
    name = fig["name"]
    horse = horse_of(state, fig)
    board = rules.board(state)
    if horse is None or to not in board or fig["side"] != state["active"]:
        return None
    if fid in state["done"]:
        return _say("rider_done", f"{name} has already had his turn this phase.", name=name)
    bridge_up = state["bridge_up"]
    shut = horse_cells_closed(board, state).get(to) or closed_kind(board, to, bridge_up)
    if shut:
        what = data.terrain()["kinds"].get(shut, {}).get("title", shut)
        return _say(
            "no_horse_enters",
            f"{name} rides, and no horse enters {to} ({what}; 3.32).",
            name=name,
            cell=to,
            what=what,
        )
    if not _stop_ok(board, to, bridge_up):
        what = board.cell(to).title
        return _say(
            "cross_only",
            f"{name}'s horse may cross the {what} at {to} but not stop on it (3.1: "
            '"Pferde können den Graben überqueren, aber nicht anhalten").',
            name=name,
            cell=to,
            what=what,
        )
    if to in rules._living_at(state) or to in occupied_cells(state):
        return None
    plans = rules._move_plans(state, fig["side"], fid).get(fid)
    if not plans or to in plans:
        return None  # stunned, busy or hemmed in, or the cell is not what was wrong
    points = mounted_values(fig)["move"] - state.get("spent", {}).get(fid, 0)
    return _say(
        "out_of_reach",
        f"{name}'s horse cannot reach {to} this move: it has {points} movement points, "
        "and both its cells must find room on cells horses may enter (3.3).",
        name=name,
        cell=to,
        points=points,
    )


def _plural(types) -> str:
    words = [f"{t}s" for t in types]
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else words[0]


def advance_cells(rules, state: dict, fid: str, freed: list[str], budget: int) -> list[str]:
    """1.73 for a rider (our reading, R8): his horse steps into a freed cell next to its front
    that horses may enter, the back following into the front's old cell; no further."""
    board = rules.board(state)
    f = state["figures"][fid]
    horse = horse_of(state, f)
    assert horse is not None
    front, back = horse["cells"]
    shut = horse_cells_closed(board, state)
    out = []
    for key in freed:
        cell = key.partition("+")[0]
        if (
            cell != back
            and "+" not in key
            and board.distance(front, cell) == 1
            and cell not in shut
            and closed_kind(board, cell, state["bridge_up"]) is None
            and _stop_ok(board, cell, state["bridge_up"])
            and movement.connects(board, front, cell, state["bridge_up"])
            and movement.enter_cost(
                board, front, cell, rules._dead_count(state).get(cell, 0), state["bridge_up"]
            )
            <= budget
        ):
            out.append(cell)
    return out


# ----- shots at horses (3.35: "Schüsse und Nahkämpfe gegen Pferde und Reiter") ---------------

STAND_IN = "horse target"  # never a figure id: a file's ids have no spaces


def _horse_sight(rules, state: dict, shooter_id: str, hid: str):
    """The shot line at a horse, judged as at a mounted figure on its two cells (R2), by
    the same rules as a shot at a figure: a stand-in target on the horse's front cell."""
    horse = state["horses"][hid]
    stand_in = {
        "type": "peasant",
        "name": f"horse {hid}",
        "side": horse["side"],
        "at": horse["cells"][0],
        "wounded": False,
        "stunned": False,
        "dead": False,
        "stunned_half": 0,
        "horse": hid,
    }
    view = {**state, "figures": {**state["figures"], STAND_IN: stand_in}}
    return rules._sight(view, shooter_id, STAND_IN), stand_in


def horse_targets(rules, state: dict, shooter_id: str) -> list[str]:
    me = state["figures"][shooter_id]
    return [
        hid
        for hid, h in sorted(state.get("horses", {}).items())
        if not h["dead"]
        and h["side"] != me["side"]
        and _horse_sight(rules, state, shooter_id, hid)[0].possible
    ]


def shoot_horse(rules, state: dict, action: dict, dice, events: list[dict]) -> None:
    """A shot at a horse: the fire table as against its rider; only a killing result counts
    (R6: results that would wound or stun a rider are ignored)."""
    from . import figures, shooting

    fid, hid = action["unit"], action["target"]
    shooter = state["figures"][fid]
    seen, stand_in = _horse_sight(rules, state, fid, hid)
    state["done"].append(fid)
    state["acted"].append(fid)
    if figures.weapon(shooter) == "crossbow":
        state["crossbow_shot"].append(fid)
    shot = shooting.resolve(fid, shooter, hid, stand_in, seen, dice, events, state["half"])
    horse = state["horses"][hid]
    if stand_in["dead"]:
        horse["dead"] = True
        events.append({"type": "horse_killed", "horse": hid, "cells": list(horse["cells"])})
        if horse["rider"]:
            throw(rules, state, horse["rider"], events)
    elif shot["letter"] != "-":
        events.append({"type": "horse_unharmed", "horse": hid, "letter": shot["letter"]})


def los_living(state: dict, from_cell: str, to_cell: str, living: dict[str, str]) -> dict[str, str]:
    """For ``/los`` between two cells: horses stand in the line as for ``/shoot``, except the
    horses on the two cells asked about."""
    standing = {
        cell: hid
        for hid, h in state.get("horses", {}).items()
        if not h["dead"]
        for cell in h["cells"]
    }
    ends = [{"at": c, "horse": standing.get(c)} for c in (from_cell, to_cell)]
    return in_the_line(state, ends[0], ends[1], living)


# German for the refusals above (keys "siege.<name>") and the words they fill in: the
# Discord layer shows these to a German-speaking player (cogs/i18n.rule_text).
TRANSLATIONS = {
    "de": {
        "siege.mounting": "{name} verbringt diese ganze Runde mit Auf- oder Absteigen (3.33).",
        "siege.acted": "{name} hat in dieser Runde schon gehandelt; Auf- und Absteigen dauern eine "
        "ganze Runde (3.33).",
        "siege.not_mounted": "{name} sitzt auf keinem Pferd.",
        "siege.no_horse": "Es gibt kein Pferd {horse!r}; Pferde: {known}.",
        "siege.dead_horse": "Pferd {horse} ist tot.",
        "siege.has_rider": "Pferd {horse} hat schon einen Reiter ({rider}).",
        "siege.not_beside": "{name} muss neben Pferd {horse} stehen ({rule}).",
        "siege.already_rides": "{name} reitet schon.",
        "siege.cannot_not_rider": "{name} kann nicht aufsitzen: nur {riders} reiten (3.33; ein "
        "{type} hat keinen Spielstein zu Pferd).",
        "siege.cannot_ox": "{name} kann nicht aufsitzen: ein Ochse wird nicht geritten.",
        "siege.cannot_harnessed": "{name} kann nicht aufsitzen: ein eingespanntes Pferd wird "
        "nicht geritten; erst ausspannen (5.11).",
        "siege.cannot_wounded_knight": "Ein verwundeter Ritter kann weder von einem Pferd "
        "absteigen noch auf ein Pferd steigen (3.33): {name} bleibt, wo er ist.",
        "siege.cannot_captured": "{name} kann nicht aufsitzen: nur Ritter können auf im Kampf "
        "gefangene Pferde steigen (3.33).",
        "siege.cannot_follow": "{name} darf nach {cell} gehen, aber Pferd {horse} kann ihm "
        "nicht dorthin folgen: seine Felder (und die seines Wagens) kämen über ein für Pferde "
        "gesperrtes Feld oder endeten auf einem Graben, einem Spielstein oder einer Figur "
        "(3.34, 5.11).",
        "siege.dismount_where": "{name} steigt auf ein freies Feld neben seinem Pferd ab "
        "({cells}), nicht auf {cell} (3.33).",
        "siege.cannot_lead": "{name} kommt in diesem Zug nicht neben Pferd {horse}, um es zu "
        "führen (3.34).",
        "siege.rider_done": "{name} war in dieser Phase schon an der Reihe.",
        "siege.no_horse_enters": "{name} reitet, und kein Pferd betritt {cell} ({what}; 3.32).",
        "siege.cross_only": "Das Pferd von {name} darf den {what} bei {cell} überqueren, aber "
        "dort nicht anhalten (3.1: „Pferde können den Graben überqueren, aber nicht anhalten“).",
        "siege.out_of_reach": "Das Pferd von {name} erreicht {cell} in diesem Zug nicht: es hat "
        "{points} Bewegungspunkte, und beide Felder müssen Platz auf Feldern finden, die Pferde "
        "betreten dürfen (3.3).",
        # Words filled into the sentences above.
        "knights and sergeants": "Ritter und Sergeanten",
        "trench": "Schützengraben",
        "tent": "Zelt",
        "tree": "Baum",
        "moat": "Burggraben",
        "filled moat": "gefüllter Burggraben",
        "parapet": "Brustwehr",
        "broken wall": "zerstörte Mauer",
        "stairs": "Treppe",
        "tower door": "Turmtür",
        "keep entrance": "Eingang zum Burgfried",
        "a siege tower": "ein Belagerungsturm",
        "a raised ladder": "eine Leiter",
        "a wagon": "ein Wagen",
        "a fire": "ein Feuer",
        "a ballista": "eine Balliste",
        "a ram": "ein Widder",
        "an onager": "ein Onager",
        "a catapult": "ein Katapult",
        "peasant": "Bauer",
        "archer": "Bogenschütze",
        "bowman": "Bogenschütze",
        "crossbowman": "Armbrustschütze",
        "man-at-arms": "Waffenknecht",
        "technician": "Techniker",
    }
}
