"""SIEGE scenario files: read, validated and normalised into plain data.

A scenario can set up any position: figures in any state on any cell, the drawbridge, whose
turn and which step. Format: docs/scenarios/siege.md.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import ScenarioError
from engine.core.ruleset import check_scenario_options

from . import (
    aiming,
    data,
    days,
    engines,
    fire,
    oil,
    panic,
    riders,
    shield,
    siege_sheet,
    tower,
    wagons,
)
from .data import need

SIDES = ("besieger", "defender")
PHASES = ("fire1", "move", "fire2", "melee")
STATES = ("healthy", "wounded", "stunned", "stunned wounded", "dead")
SCENARIO_DIR = data.DATA_DIR / "scenarios"
KEYS = {
    "_comment",
    "name",
    "title",
    "description",
    "map",
    "first",
    "last_turn",
    "turn",
    "active",
    "phase",
    "bridge_up",
    "figures",
    "victory",
    "ladders",
    "filled_moat",
    "breaches",
    "prepare",
    "towers",
    "burnt_tents",
    "engines",
    "walls",
    "oil",
    "shields",
    "days",
    "rounds_per_day",
    "options",
    "skills",
    "horses",
    "wagons",
}
# The rulebook's optional rules ("Wahlregeln") this game offers; off unless switched on.
OPTIONAL_RULES = (panic.RULE, aiming.RULE)


def packaged_names() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))


def read_scenario(name_or_path: str) -> dict:
    name = (name_or_path or "").strip()
    if name in packaged_names():
        file = f"scenarios/{name}.json"
        return normalise(data.read_json(SCENARIO_DIR / f"{name}.json", file), file, name)
    # Files from elsewhere come in as documents (Ruleset.load_document / load_path), never here.
    raise ScenarioError(
        name or "(none)", "scenario", f"unknown scenario; packaged: {', '.join(packaged_names())}"
    )


def normalise(raw: dict, file: str, default_name: str) -> dict:
    for key in raw:
        need(
            key in KEYS, file, key, f"unknown key; known: {', '.join(sorted(KEYS - {'_comment'}))}"
        )
    board = data.board(str(raw.get("map", "castle")))
    types = data.figure_types()
    out: dict[str, Any] = {
        "name": str(raw.get("name", default_name)),
        "title": str(raw.get("title", default_name)),
        "description": str(raw.get("description", "")),
        "map": board.name,
    }
    first = raw.get("first", "besieger")
    need(first in SIDES, file, "first", f"must be one of {', '.join(SIDES)}")
    out["first"] = first
    raw = days.with_last_turn(raw, file)
    last_turn = raw.get("last_turn", 12)
    need(isinstance(last_turn, int) and 1 <= last_turn <= 200, file, "last_turn", "must be 1..200")
    out["last_turn"] = last_turn
    turn = raw.get("turn", 1)
    need(isinstance(turn, int) and 1 <= turn <= last_turn, file, "turn", "must be 1..last_turn")
    out["turn"] = turn
    days.normalise(raw, out)
    active = raw.get("active", first)
    need(active in SIDES, file, "active", f"must be one of {', '.join(SIDES)}")
    out["active"] = active
    phase = raw.get("phase", PHASES[0])
    need(phase in PHASES, file, "phase", f"must be one of {', '.join(PHASES)}")
    out["phase"] = phase
    need(isinstance(raw.get("bridge_up", False), bool), file, "bridge_up", "must be true or false")
    out["bridge_up"] = raw.get("bridge_up", False)
    victory: Any = raw.get("victory", {})
    need(
        isinstance(victory, dict) and set(victory) <= {"_comment", "keep_taken_by", "burn"},
        file,
        "victory",
        "may only say keep_taken_by (the side that wins by standing in the keep) and burn",
    )
    need(
        victory.get("keep_taken_by", "besieger") in SIDES,
        file,
        "victory.keep_taken_by",
        f"must be one of {', '.join(SIDES)}",
    )
    out["victory"] = {"keep_taken_by": victory.get("keep_taken_by", "besieger")}
    # Section 2 counters already on the map, and how many the besieger places before the assault.
    out["counters"] = []
    for key, kind, allowed in (
        ("filled_moat", "filled-moat", ("moat",)),
        ("breaches", "breach", ("parapet", "wall")),
        ("burnt_tents", "burnt-tent", ("tent",)),
    ):
        cells = raw.get(key, [])
        need(
            isinstance(cells, list)
            and all(
                c in board
                and board.cell(c).kind in allowed
                and c not in board.drawbridge.get("cells", [])
                for c in cells
            ),
            file,
            key,
            f"must list {' or '.join(allowed)} cells",
        )
        out["counters"] += [[c, kind] for c in cells]
    laid = (
        data.board_with(board.name, tuple(sorted((c, k) for c, k in out["counters"])))
        if out["counters"]
        else board
    )
    out["towers"] = tower.validate(laid, raw.get("towers", {}), file)
    tower_of = {c: tid for tid, t in out["towers"].items() for c in t["cells"]}
    figs: Any = raw.get("figures")
    need(isinstance(figs, dict) and figs, file, "figures", "must be an object: figure id -> figure")
    living_at: dict[str, str] = {}
    out["figures"] = {}
    for fid, spec in figs.items():
        entry = f"figures.{fid}"
        need(
            isinstance(fid, str) and 1 <= len(fid) <= 24 and fid.replace("-", "").isalnum(),
            file,
            entry,
            "ids are 1-24 letters, digits or dashes",
        )
        need(isinstance(spec, dict), file, entry, "must be an object")
        for key in spec:
            need(
                key in ("type", "name", "side", "at", "state", "layer"),
                file,
                f"{entry}.{key}",
                "unknown key; known: type, name, side, at, state, layer",
            )
        need(spec.get("type") in types, file, f"{entry}.type", f"must be one of {', '.join(types)}")
        need(spec.get("side") in SIDES, file, f"{entry}.side", f"must be one of {', '.join(SIDES)}")
        need(spec.get("at") in board, file, f"{entry}.at", "must be a cell of the map")
        cell = board.cell(spec["at"])
        need(
            cell.cost is not None,
            file,
            f"{entry}.at",
            f"{spec['at']} is {cell.title}: no figure can stand there",
        )
        state = spec.get("state", "healthy")
        need(state in STATES, file, f"{entry}.state", f"must be one of {', '.join(STATES)}")
        layer = spec.get("layer", tower.GROUND)
        need(
            layer in (tower.GROUND, tower.TOP)
            and (layer == tower.GROUND or spec["at"] in tower_of),
            file,
            f"{entry}.layer",
            'may only be "top": on the platform of a siege tower standing on its cell',
        )
        if state != "dead":
            place = spec["at"] if layer == tower.GROUND else f"{spec['at']} (top of the tower)"
            need(
                place not in living_at,
                file,
                f"{entry}.at",
                f"{living_at.get(place)} already stands on {place}: one living figure per cell "
                f"(1.62; in a siege tower one inside and one on top, 2.46)",
            )
            living_at[place] = fid
        name = spec.get("name", fid)
        need(
            isinstance(name, str) and 1 <= len(name) <= 24, file, f"{entry}.name", "1-24 characters"
        )
        out["figures"][fid] = {
            "type": spec["type"],
            "name": name,
            "side": spec["side"],
            "at": spec["at"],
            "wounded": "wounded" in state,
            "stunned": "stunned" in state,
            "dead": state == "dead",
            "stunned_half": 0,
            **({"layer": tower.TOP} if layer == tower.TOP else {}),
        }
    out["horses"] = riders.validate(
        laid, raw.get("horses", {}), out["figures"], set(tower_of), file
    )
    out["wagons"] = wagons.validate(
        laid, raw.get("wagons", {}), out["horses"], out["figures"], set(tower_of), file
    )
    for side in SIDES:
        need(
            any(f["side"] == side and not f["dead"] for f in out["figures"].values()),
            file,
            "figures",
            f"{side} needs at least one living figure",
        )
    out["options"] = check_scenario_options(OPTIONAL_RULES, raw.get("options", {}), file)
    out["skills"] = aiming.normalise_skills(raw.get("skills", {}), out["figures"], file)
    prepare: Any = raw.get("prepare", {})
    placed = prepare.get("towers", []) if isinstance(prepare, dict) else []
    need(
        isinstance(prepare, dict)
        and set(prepare) <= {"filled_moat", "breaches", "towers", "engines"}
        and all(
            isinstance(v, int) and 0 <= v <= 20
            for k, v in prepare.items()
            if k not in ("towers", "engines")
        ),
        file,
        "prepare",
        "may give filled_moat and breaches, each a number 0-20 of counters the besieger places first, "
        "and towers",
    )
    need(
        isinstance(placed, list)
        and all(
            isinstance(t, str) and t in out["towers"] and out["towers"][t]["side"] == "besieger"
            for t in placed
        )
        and len(set(placed)) == len(placed),
        file,
        "prepare.towers",
        "must list besieger siege towers of this file, each once (2.41: the besieger "
        "puts them at a map edge before the assault)",
    )
    out["prepare"] = {
        "filled_moat": prepare.get("filled_moat", 0),
        "breaches": prepare.get("breaches", 0),
        "towers": list(placed),
    }
    if any(out["prepare"].values()):
        need(
            "phase" not in raw,
            file,
            "phase",
            "a scenario with counters to place starts with their placement",
        )
        out["phase"] = "prepare"
        out["active"] = "besieger"
    out["ladders"] = {}
    ladders: Any = raw.get("ladders", {})
    need(
        isinstance(ladders, dict),
        file,
        "ladders",
        "must be an object: ladder id -> {at, faces, raised}",
    )
    for lid, spec in ladders.items():
        entry = f"ladders.{lid}"
        need(
            isinstance(spec, dict) and set(spec) <= {"at", "faces", "raised", "carriers"},
            file,
            entry,
            "must be an object with at, faces and raised (or carriers)",
        )
        at, faces = spec.get("at"), spec.get("faces")
        carriers = spec.get("carriers", [])
        if spec.get("raised") is False or carriers:
            # A lying or carried ladder: where it lies, carried by two adjacent figures of a side.
            need(
                at in board and board.cell(at).cost is not None,
                file,
                f"{entry}.at",
                "must be a cell of the map",
            )
            need(
                isinstance(carriers, list)
                and len(carriers) in (0, 2)
                and all(c in out["figures"] and not out["figures"][c]["dead"] for c in carriers)
                and (
                    not carriers
                    or (
                        out["figures"][carriers[0]]["side"] == out["figures"][carriers[1]]["side"]
                        and board.distance(
                            out["figures"][carriers[0]]["at"], out["figures"][carriers[1]]["at"]
                        )
                        == 1
                    )
                ),
                file,
                f"{entry}.carriers",
                "two living, adjacent figures of one side, or none",
            )
            need(
                not spec.get("raised", False),
                file,
                f"{entry}.raised",
                "a carried ladder is not raised",
            )
            at = out["figures"][carriers[0]]["at"] if carriers else at
            out["ladders"][lid] = {
                "at": at,
                "faces": None,
                "raised": False,
                "carriers": list(carriers),
            }
            continue
        need(
            at in board and not board.cell(at).inside and board.cell(at).cost is not None,
            file,
            f"{entry}.at",
            "must be a cell outside the castle at the foot of a wall",
        )
        need(
            faces in board
            and board.cell(faces).kind == "parapet"
            and faces in board.neighbours(at),
            file,
            f"{entry}.faces",
            "must be a parapet cell next to the ladder (never a tower, 1.91)",
        )
        need(
            all(other["at"] != at for other in out["ladders"].values()),
            file,
            f"{entry}.at",
            "another ladder stands there",
        )
        need(at not in tower_of, file, f"{entry}.at", "a siege tower stands there")
        need(
            isinstance(spec.get("raised", True), bool),
            file,
            f"{entry}.raised",
            "must be true or false",
        )
        out["ladders"][lid] = {
            "at": at,
            "faces": faces,
            "raised": spec.get("raised", True),
            "carriers": [],
        }
    # Section 3.4 and 4.2: engines on the map (or off it), placed or bombarding before the assault.
    out["engines"] = engines.validate(
        laid,
        raw.get("engines", {}),
        out["figures"],
        set(tower_of)
        | {lad["at"] for lad in out["ladders"].values()}
        | set(riders.occupied_cells(out)),  # 3.32: no horse or wagon shares an engine's cell
        file,
    )
    out["prepare"]["engines"] = engines.validate_placing(
        out["engines"], prepare.get("engines", []), file
    )
    # 4.12: the siege sheet carried over from earlier days: wall cell -> damage steps 1-3.
    walls: Any = raw.get("walls", {})
    faces = set(siege_sheet.targets(laid))
    need(
        isinstance(walls, dict)
        and all(
            c in faces and isinstance(n, int) and 1 <= n < len(siege_sheet.table()["steps"])
            for c, n in walls.items()
        ),
        file,
        "walls",
        "must map wall, tower or keep cells on a face of the castle to damage steps 1-3 "
        "(a destroyed cell is a broken-wall counter: breaches)",
    )
    out["siege_sheet"] = {c: {"step": n, "ranged_day": None} for c, n in walls.items()}
    if out["prepare"]["engines"]:
        need("phase" not in raw, file, "phase", "engines to place start the game with placing")
    bombarding = any(
        e["side"] == "besieger" and e["kind"] != "ballista" for e in out["engines"].values()
    )
    if out["prepare"]["engines"] or (bombarding and "phase" not in raw):
        out["phase"] = "prepare"
        out["active"] = "besieger"
    burn = victory.get("burn")
    if burn is not None:
        out["victory"]["burn"] = _burn_goal(burn, board, out["engines"], file)
    out["oil"] = oil.normalise(raw.get("oil", {}), board, out["figures"], file)
    taken = set(out["oil"]) | {p["carrier"] for p in out["oil"].values() if "carrier" in p}
    out["shields"] = shield.normalise(raw.get("shields", {}), board, out["figures"], file, taken)
    return out


def _burn_goal(burn: Any, board, engines_on_map: dict, file: str) -> dict:
    """``victory.burn``: ``{"by": side, "engines": [ids], "tents": n}``, the side that wins at
    once when every listed engine of the other side is destroyed and ``n`` of the map's tents
    have burnt down to the last cell (3.5)."""
    need(
        isinstance(burn, dict) and set(burn) <= {"_comment", "by", "engines", "tents"},
        file,
        "victory.burn",
        "must be an object with by, engines and tents",
    )
    by = burn.get("by")
    need(by in SIDES, file, "victory.burn.by", f"must be one of {', '.join(SIDES)}")
    listed: Any = burn.get("engines", [])
    need(
        isinstance(listed, list)
        and len(set(map(str, listed))) == len(listed)
        and all(
            isinstance(e, str) and e in engines_on_map and engines_on_map[e]["side"] != by
            for e in listed
        ),
        file,
        "victory.burn.engines",
        "must list engines of this file belonging to the other side, each once",
    )
    count: Any = burn.get("tents", 0)
    most = len(fire.tent_groups(board.name))
    need(
        isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= most,
        file,
        "victory.burn.tents",
        f"must be a whole number 0-{most} (the tents on this map)",
    )
    need(bool(listed) or count > 0, file, "victory.burn", "must name an engine or tents to burn")
    return {"by": by, "engines": list(listed), "tents": count}
