"""The optional rule "panic and rout" (Panik und Flucht).

When a figure dies, its side rolls on the panic table (``data/siege/panic.json``) for its
own figures within three cells that can panic: knights never, soldiers only at the death of a
knight or soldier, peasants at anyone's; defenders inside the castle never. The owner chooses
who is struck when fewer are struck than could be (``/panic unit:``), and may strike the
rest within the radius too before stopping (``/panic``); a figure already in panic that risks
it again is routed at once.

A panicked figure at once falls back three cells away from the enemy (a besieger inside the
castle towards the nearest way out), never into a cell next to an enemy; it is wounded instead
when it cannot. It may not move next to an enemy; its attackers fight one column to the right
and ignore results against themselves. Panic ends as soon as an own knight or sergeant stands
beside the figure or the nearest enemy is six cells away or more. A routed figure does all
that and, at the start of each of its side's movement steps, runs its whole movement away
from the enemy; rout ends when an own knight or sergeant stands beside it at the end of a
movement step.

Figures carry ``"panic": "panic" | "rout"`` while struck. Readings D7-D12 in
docs/rules/siege.md.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core.dice import Dice
from engine.core.ruleset import OptionalRule

from . import data, days, figures, fire, movement, riders, tower
from .data import need

RULE = OptionalRule(
    "panic",
    "Panic and rout",
    "When a figure dies, its side rolls for panic among its own figures within three cells; "
    "panicked figures fall back from the enemy, routed ones flee every round.",
)
PANIC, ROUT = "panic", "rout"
CLASSES = ("knight", "soldier", "peasant")


def on(state: dict) -> bool:
    return bool((state.get("options") or {}).get(RULE.name))


@functools.lru_cache(maxsize=1)
def table() -> dict:
    file = "panic.json"
    raw = days.rows_table(
        file,
        lambda v: v in (None, PANIC, ROUT),
        "effect",
        'must be null (no effect), "panic" or "rout"',
    )
    for index, row in enumerate(raw["rows"]):
        need(
            isinstance(row.get("count"), int) and 0 <= row["count"] <= 20,
            file,
            f"rows[{index}].count",
            "must be the number of figures struck, 0..20",
        )
    classes: Any = raw.get("classes")
    types = data.figure_types()
    need(
        isinstance(classes, dict)
        and set(classes) == set(types)
        and all(c in CLASSES for c in classes.values()),
        file,
        "classes",
        f"must give every figure type ({', '.join(types)}) one of {', '.join(CLASSES)}",
    )
    for key in ("radius", "calm_distance", "retreat"):
        need(
            isinstance(raw.get(key), int) and 1 <= raw[key] <= 20,
            file,
            key,
            "must be a number of cells 1..20",
        )
    need(
        isinstance(raw.get("rallying"), list) and set(raw["rallying"]) <= set(types),
        file,
        "rallying",
        "must list figure types",
    )
    return raw


def _class(fig: dict) -> str:
    return table()["classes"][fig["type"]]


def _board(state: dict):
    counters = state.get("counters")
    if not counters:
        return data.board(state["map"])
    return data.board_with(state["map"], tuple(sorted((c, k) for c, k in counters)))


def _living(state: dict, side: str | None = None, other_than: str | None = None) -> list[str]:
    return [
        fid
        for fid, f in sorted(state["figures"].items())
        if not f["dead"]
        and (side is None or f["side"] == side)
        and (other_than is None or f["side"] != other_than)
    ]


def can_panic(board, state: dict, fid: str, dead_id: str) -> bool:
    """Whether ``fid`` is one the death of ``dead_id`` may strike."""
    f, dead = state["figures"][fid], state["figures"][dead_id]
    kind = _class(f)
    if kind == "knight":
        return False
    if kind == "soldier" and _class(dead) == "peasant":
        return False
    # "Die Verteidiger der Burg werden nicht von Panik oder Flucht erfaßt, wenn sie sich im
    # Inneren der Burg befinden."
    if f["side"] == "defender" and board.cell(f["at"]).inside:
        return False
    return board.distance(f["at"], dead["at"]) <= table()["radius"]


# ----- after every action ------------------------------------------------------------------------
def after_action(state: dict, dead_before: set[str], events: list[dict], dice: Dice) -> None:
    """Roll for every figure that died in this action; end panics that are over."""
    if not on(state) or state.get("result"):
        return
    board = _board(state)
    seen = set(dead_before)
    # A figure wounded to death because it could not fall back is a death too: roll again.
    while newly_dead := [
        fid
        for fid, f in sorted(state["figures"].items())
        if f["dead"] and not f.get("off_map") and fid not in seen
    ]:
        seen.update(newly_dead)
        _roll_for(state, board, newly_dead, events, dice)
    _open_choice(state, events)
    calm(state, events)


def _roll_for(state: dict, board, newly_dead: list[str], events: list[dict], dice: Dice) -> None:
    for dead_id in newly_dead:
        f = state["figures"][dead_id]
        f.pop("panic", None)
        side = f["side"]
        struck = [
            fid
            for fid in _living(state, side)
            if fid != dead_id and can_panic(board, state, fid, dead_id)
        ]
        # "Wichtige Anmerkung": a figure in panic that risks it a second time is routed.
        for fid in struck:
            if state["figures"][fid].get("panic") == PANIC:
                _strike(state, fid, ROUT, events)
        fresh = [fid for fid in struck if not state["figures"][fid].get("panic")]
        if not fresh:
            continue
        rows = table()
        roll = dice.roll(f"panic after {f['name']}'s death", events, sides=rows["die"])
        row = days.lookup(rows, roll)
        events.append(
            {
                "type": "panic_roll",
                "side": side,
                "dead": dead_id,
                "roll": roll,
                "title": row["title"],
                "among": fresh,
            }
        )
        if row["effect"] is None:
            continue
        if row["count"] >= len(fresh):
            for fid in fresh:
                _strike(state, fid, row["effect"], events)
            continue
        queue = state.setdefault("panic_choice", [])
        queue.append({"side": side, "effect": row["effect"], "count": row["count"], "among": fresh})


def _open_choice(state: dict, events: list[dict]) -> None:
    queue = state.get("panic_choice") or []
    if not queue:
        state.pop("panic_choice", None)
        return
    first = queue[0]
    if "resume" not in first:
        first["resume"] = list(state.get("awaiting") or [state["active"]])
        events.append(
            {
                "type": "choose_panic",
                "side": first["side"],
                "effect": first["effect"],
                "count": first["count"],
                "among": list(first["among"]),
            }
        )
    state["awaiting"] = [first["side"]]


def choice_actions(state: dict, side: str) -> list[dict]:
    first = state["panic_choice"][0]
    if side != first["side"]:
        return []
    picks = [{"type": "panic", "side": side, "unit": fid} for fid in first["among"]]
    if first["count"] <= 0:
        # The result is met; the rest within the radius are the owner's to add or to spare.
        picks.append({"type": "panic", "side": side})
    return picks


def choose(state: dict, action: dict, events: list[dict]) -> None:
    """``/panic unit:``: the owner names one figure the result strikes. Once as many are struck
    as the result says, the owner may go on ("Umgekehrt kann der Spieler aber alle Figuren,
    die sich innerhalb dieses Radius befinden, freiwillig in Panik versetzen, auch wenn diese
    Anzahl die Zahl vom Ergebnis überschreitet") or stop with a bare ``/panic``."""
    queue = state["panic_choice"]
    first = queue[0]
    if "unit" in action:
        first["among"].remove(action["unit"])
        first["count"] -= 1
        _strike(state, action["unit"], first["effect"], events)
        first["among"] = [fid for fid in first["among"] if not state["figures"][fid]["dead"]]
    if "unit" not in action or not first["among"]:
        queue.pop(0)
        state["awaiting"] = first["resume"]
    elif first["count"] == 0:
        events.append(
            {
                "type": "choose_panic",
                "side": first["side"],
                "effect": first["effect"],
                "count": 0,
                "among": list(first["among"]),
                "voluntary": True,
            }
        )
    _open_choice(state, events)
    calm(state, events)


# ----- striking and falling back ---------------------------------------------------------------
def _strike(state: dict, fid: str, effect: str, events: list[dict]) -> None:
    f = state["figures"][fid]
    was = f.get("panic")
    f["panic"] = ROUT if ROUT in (effect, was) else PANIC
    events.append({"type": "panicked", "unit": fid, "state": f["panic"], "at": f["at"]})
    if was is None or f["panic"] != was:
        fall_back(state, fid, table()["retreat"], events, cells=True)


def _enemy_cells(state: dict, side: str) -> list[str]:
    """Every cell a living enemy takes: both of a rider's horse."""
    return [
        c
        for o in _living(state, other_than=side)
        for c in riders.cells_of(state, state["figures"][o])
    ]


def _shut(state: dict, side: str) -> set[str]:
    """Cells no fleeing figure enters or crosses, as no mover does: fire (3.54), engines (3.43),
    horses and wagons that are not a friend's mount (3.3, 5.1)."""
    shut = set(fire.fires(state))
    shut |= {c for e in state.get("engines", {}).values() for c in e.get("cells", [])}
    shut |= riders.blocked(state, side)[0]
    return shut


def _exits(board, state: dict) -> list[str]:
    """Ways out of the castle for a besieger inside it: a breach, a raised ladder's parapet, a
    siege tower, the lowered drawbridge."""
    out = [c for c, kind in state.get("counters", []) if kind == "breach"]
    out += [lad["faces"] for lad in state.get("ladders", {}).values() if lad.get("raised")]
    out += [c for t in state.get("towers", {}).values() for c in t.get("cells", [])]
    if not state.get("bridge_up"):
        out += list(board.drawbridge.get("cells", []))
    return sorted(set(out))


def fall_back(state: dict, fid: str, reach: int, events: list[dict], cells: bool) -> None:
    """Move ``fid`` away from the enemy: ``reach`` cells (panic) or movement points (rout),
    through own figures, never into a cell next to an enemy; the farthest cell from the
    nearest enemy wins (for a besieger inside the castle: the nearest to a way out), ties by
    the lowest label. Wounded if it cannot get farther (panic only)."""
    board = _board(state)
    f = state["figures"][fid]
    if tower.layer(f) == tower.TOP or f["at"] in tower.cells_of(state):
        # Our reading: figures in a siege tower stay in it (its ways out are the crew's).
        return
    enemies = _enemy_cells(state, f["side"])
    if not enemies:
        return
    horse = riders.horse_of(state, f)
    own = set(riders.cells_of(state, f))
    living = {state["figures"][o]["at"] for o in _living(state) if o != fid}
    # A friend's mount may be crossed but not stopped on (1.62).
    living |= riders.blocked(state, f["side"])[1] - own
    friends = {state["figures"][o]["at"] for o in _living(state, f["side"]) if o != fid}
    dead_count: dict[str, int] = {}
    for o in state["figures"].values():
        if o["dead"] and not o.get("off_map"):
            dead_count[o["at"]] = dead_count.get(o["at"], 0) + 1
    near_enemy = {c for e in enemies for c in board.neighbours(e)}
    ladders = {
        lad["at"]: lad["faces"] for lad in state.get("ladders", {}).values() if lad.get("raised")
    }
    # "Dieser Rückzug kann über von eigenen Figuren besetzte Felder führen, aber nicht in
    # Felder, die angrenzend zu feindlichen Figuren ... sind": the way too, not only its end.
    barred = (set(enemies) | near_enemy | _shut(state, f["side"])) - own
    horse_ends: dict[str, list[str]] = {}
    if horse is not None:
        # Our reading: a rider flees on his horse, its counter moving as in a move (the back
        # following the front, only where a horse may go); panic's three cells are points.
        points = reach if cells else riders.mounted_values(f)["move"]
        moves = riders.horse_reachable(
            board, state, horse["cells"], points, barred, set(living), {}
        )
        ends, parent = {}, {}
        rides: dict[str, list[str]] = {}
        for (front, back), (cost, way) in sorted(moves.items(), key=lambda kv: (kv[1][0], kv[0])):
            if front in ends or back in near_enemy:
                continue
            ends[front] = cost
            horse_ends[front] = [front, back]
            rides[front] = way
    elif cells:
        ends, parent = _within_cells(board, f["at"], reach, barred, state["bridge_up"])
    else:
        ends, parent = movement.reachable(
            board,
            f["at"],
            reach,
            barred,
            friends,
            dead_count,
            state["bridge_up"],
            ladders,
        )
    inside_besieger = f["side"] == "besieger" and board.cell(f["at"]).inside
    exits = _exits(board, state) if inside_besieger else []

    def score(cell: str) -> tuple:
        if exits:
            return (min(board.distance(cell, x) for x in exits), cell)
        return (-min(board.distance(cell, e) for e in enemies), cell)

    start_score = score(f["at"])[0]
    options = sorted(
        c
        for c in ends
        if c not in living
        and c not in near_enemy
        and c not in tower.cells_of(state)
        and score(c)[0] < start_score
    )

    def on_edge(cell: str) -> bool:
        return len(board.neighbours(cell)) < 6

    if not options:
        if not inside_besieger and on_edge(f["at"]) and horse is None:
            # Nowhere farther on the map, but the edge is beside it: it flees off the map.
            _leave(state, fid, [f["at"]], events)
        elif cells:
            outcome = figures.apply_effect(f, "wound", state["half"])
            events.append(
                {"type": "cannot_fall_back", "unit": fid, "at": f["at"], "outcome": outcome}
            )
        return
    best = min(options, key=score)
    path = rides[best] if horse is not None else movement.path_to(parent, f["at"], best)
    if not inside_besieger and on_edge(best) and ends[best] < reach and horse is None:
        # Its flight runs into the map's edge with steps (or points) to spare: it leaves.
        _leave(state, fid, path, events)
        return
    events.append(
        {
            "type": "fled",
            "unit": fid,
            "from": f["at"],
            "to": best,
            "path": path,
            "state": f.get("panic", PANIC),
        }
    )
    if horse is not None:
        riders.follow(state, f["horse"], horse_ends[best], events)
    f["at"] = best
    f.pop("facing", None)


def _leave(state: dict, fid: str, path: list[str], events: list[dict]) -> None:
    """ "Figuren, die ... die Karte verlassen haben, können die Karte nicht mehr betreten": the
    figure is out of the game for good (``dead`` with ``off_map``: no body on the map)."""
    f = state["figures"][fid]
    events.append({"type": "left_map", "unit": fid, "from": f["at"], "path": path})
    f["at"] = path[-1]
    f.update(dead=True, off_map=True, stunned=False)
    f.pop("panic", None)
    f.pop("facing", None)


def _within_cells(board, start: str, reach: int, barred: set[str], bridge_up: bool):
    """Cells within ``reach`` steps a figure on foot could take, never through ``barred``."""
    table_ = movement.steps(board, bridge_up)
    depth = {start: 0}
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for here in frontier:
            if depth[here] == reach:
                continue
            for nxt, _ in table_[here]:
                if nxt in depth or nxt in barred:
                    continue
                depth[nxt] = depth[here] + 1
                parent[nxt] = here
                nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return {c: d for c, d in depth.items() if c != start}, parent


# ----- ending --------------------------------------------------------------------------------------
def _rallied(state: dict, board, fid: str) -> bool:
    f = state["figures"][fid]
    rallying = table()["rallying"]
    return any(
        board.distance(o["at"], f["at"]) == 1
        for oid, o in state["figures"].items()
        if oid != fid and o["side"] == f["side"] and not o["dead"] and o["type"] in rallying
    )


def calm(state: dict, events: list[dict]) -> None:
    """Panic ends as soon as an own knight or sergeant is beside the figure or the nearest
    enemy is six cells away or more."""
    board = _board(state)
    for fid in _living(state):
        f = state["figures"][fid]
        if f.get("panic") != PANIC:
            continue
        enemies = _enemy_cells(state, f["side"])
        far = (
            not enemies
            or min(board.distance(f["at"], e) for e in enemies) >= table()["calm_distance"]
        )
        if far or _rallied(state, board, fid):
            f.pop("panic")
            events.append({"type": "calmed", "unit": fid, "at": f["at"], "was": PANIC})


def after_step(state: dict, ended: tuple[str, str], events: list[dict]) -> None:
    """Rout: at the start of its side's movement step a routed figure runs its whole movement
    away from the enemy; at the end of a movement step an own knight or sergeant beside it
    ends the rout."""
    if not on(state) or state.get("result"):
        return
    board = _board(state)
    phase, side = ended
    if phase == "move":
        for fid in _living(state, side):
            f = state["figures"][fid]
            if f.get("panic") == ROUT and _rallied(state, board, fid):
                f.pop("panic")
                events.append({"type": "calmed", "unit": fid, "at": f["at"], "was": ROUT})
    if state["phase"] == "move":
        for fid in _living(state, state["active"]):
            f = state["figures"][fid]
            if f.get("panic") == ROUT and figures.can_act(f):
                fall_back(state, fid, figures.values(f)["move"], events, cells=False)
    calm(state, events)


# ----- what the others may do -------------------------------------------------------------------
def allowed_moves(state: dict, actions: list[dict]) -> list[dict]:
    """Panicked figures never move next to an enemy; routed ones run on their own."""
    if not on(state):
        return actions
    board = _board(state)
    out = []
    for a in actions:
        if a.get("type") != "move":
            out.append(a)
            continue
        f = state["figures"][a["unit"]]
        mood = f.get("panic")
        if mood == ROUT:
            continue
        if mood == PANIC and any(
            board.distance(a["to"], e) == 1 for e in _enemy_cells(state, f["side"])
        ):
            continue
        out.append(a)
    return out


def melee_shift(state: dict, defenders: list[str], sums: dict) -> None:
    """Attacking figures in panic or rout: one column to the right."""
    if not on(state) or not all(state["figures"][d].get("panic") for d in defenders):
        return
    columns = data.melee()["columns"]
    index = min(columns.index(sums["column"]) + 1, len(columns) - 1)
    sums["shifts"].append([1, "defenders in panic or rout"])
    sums["column"] = columns[index]
    sums["text"] += f"; defenders in panic or rout: +1 -> column {columns[index]}"


def ignores(state: dict, defenders: list[str], letter: str) -> bool:
    """Results against the attackers of figures in panic or rout are ignored."""
    if (
        not on(state)
        or letter == "-"
        or not all(state["figures"][d].get("panic") for d in defenders)
    ):
        return False
    return data.results()[letter]["side"] == "attacker"


# ----- presentation -----------------------------------------------------------------------------
def badge(fig: dict) -> str:
    """P or R on the counter: legible at phone size, where the label is a few pixels."""
    return {PANIC: "P", ROUT: "R"}.get(fig.get("panic") or "", "")


def labels(state: dict, word=lambda text: text) -> list[dict]:
    """``word`` gives the picture's words in the reader's language."""
    return [
        {"at": f["at"], "text": word(f["panic"].upper()), "color": "#8b0000"}
        for _, f in sorted(state["figures"].items())
        if f.get("panic") and not f["dead"]
    ]


# Panic's events in each language; German words for its states and the table's results.
EVENT_WORDS = {
    "en": {
        "panic_roll": "{dead} is dead: panic roll {roll} for {among}: {title}.",
        "choose_panic": "Their owner chooses {count} of {among} to {effect} (/panic unit:).",
        "choose_panic_voluntary": "The roll is met. Their owner may also strike {among} with "
        "{effect} of their own free will (/panic unit:), or no more (/panic).",
        "panicked": "{name} at {at}: {state_upper}!",
        "fled": "{name} flees {path} ({state}).",
        "cannot_fall_back": "{name} cannot fall back from {at} and is {outcome}.",
        "left_map": "{name} flees {path} and off the map, never to return.",
        "calmed": "{name} at {at} is no longer in {was}.",
    },
    "de": {
        "panic_roll": "{dead} ist tot: Panikwurf {roll} für {among}: {title}.",
        "choose_panic": "Ihr Besitzer wählt {count} aus {among} für {effect} (/panic unit:).",
        "choose_panic_voluntary": "Der Wurf ist erfüllt. Ihr Besitzer darf freiwillig auch "
        "{among} mit {effect} belegen (/panic unit:) oder keine weitere (/panic).",
        "panicked": "{name} auf {at}: {state_upper}!",
        "fled": "{name} flieht {path} ({state}).",
        "cannot_fall_back": "{name} kann von {at} nicht zurückweichen und ist {outcome}.",
        "left_map": "{name} flieht {path} vom Spielplan und kehrt nie zurück.",
        "calmed": "{name} auf {at} ist nicht mehr in {was}.",
    },
}
PANIC_DE = {"panic": "Panik", "rout": "Flucht"}
PANIC_TITLES_DE = {
    "no effect": "keine Wirkung",
    "panic! 1 figure": "Panik! 1 Figur",
    "panic! 2 figures": "Panik! 2 Figuren",
    "panic! 3 figures": "Panik! 3 Figuren",
    "rout! 3 figures": "Flucht! 3 Figuren",
    "rout! 6 figures": "Flucht! 6 Figuren",
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    kind = str(e.get("type"))
    if kind == "choose_panic" and e.get("voluntary"):
        kind = "choose_panic_voluntary"
    words = EVENT_WORDS.get(lang, EVENT_WORDS["en"])
    if kind not in words:
        return None
    german = lang == "de"

    def name(fid):
        return state["figures"].get(fid, {}).get("name", fid)

    def word(key):
        return PANIC_DE.get(key, key) if german else key

    outcome = str(e.get("outcome", ""))
    if german:
        from .present import state_word_de

        outcome = state_word_de(outcome)
    title = str(e.get("title", ""))
    return words[kind].format(
        dead=name(e.get("dead")),
        roll=e.get("roll"),
        among=", ".join(name(f) for f in e.get("among") or []),
        title=PANIC_TITLES_DE.get(title, title) if german else title,
        count=e.get("count"),
        effect=word(str(e.get("effect"))),
        name=name(e.get("unit")),
        at=e.get("at"),
        state=word(str(e.get("state"))),
        state_upper=word(str(e.get("state"))).upper(),
        path=" → ".join(e.get("path") or []),
        outcome=outcome,
        was=word(str(e.get("was"))),
    )
