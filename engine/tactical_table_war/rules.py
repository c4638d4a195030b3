"""Tactical Table War with "Die Kunst der Belagerung": the ruleset.

Sides ``red`` and ``blue``. Each player-turn has the expansion's five phases:
``preparation`` (automatic: weakening dice off own units, training finished, constructions
finished, treasure collected), ``movement`` (``/move``; onto the enemy wall over a ladder man), ``recruitment`` (``/recruit``,
``/train``), ``building`` (``/build``), ``attack`` (``/attack``; a catapult's ``/scatter``, ``/weaken``,
``/strike``, answered by the struck side's ``/counter``); ``/end-phase`` ends the
four phases a player acts in.
"""

from __future__ import annotations

import hashlib

from engine.core.dice import Dice
from engine.core.errors import RuleError, ScenarioError
from engine.core.names import possessive
from engine.core.phases import TurnCycle
from engine.core.ruleset import Command, Option, Ruleset, Scenario
from engine.core.scenario_io import check_schema
from engine.core.state import canonical_json, clone

from . import board, explain, present
from .combat import counter_route, record_loss, release_tile, remove_unit, strike, terrain_counts
from .data import (
    PHASES,
    SCENARIO_DIR,
    SIDES,
    TRAININGS,
    Catalogue,
    check_scenario,
    other,
    read_json,
)
from .units import (
    ECONOMIC,
    ENGINES,
    building_of,
    crew_fits,
    forge_bonuses,
    simple_trained,
    stats,
    works,
)
from .units import label as unit_label

SIDE_TITLES = {"red": "Red", "blue": "Blue"}
EXPLORE_RADIUS_AT_START = 2  # hexes around everything on the map that are known at setup
COLORS = {"red": "#a4133c", "blue": "#2e5cb0"}
WAR_BUILDINGS = {
    "bow": "fortress",
    "sword": "trebuchet",
}  # crew type -> what a settler builds on it
SYMBOLS = {"sword": "infantry", "bow": "artillery", "shoe": "cavalry", "settler": "engineer"}


class TacticalTableWar(Ruleset):
    name = "tactical-table-war"
    title = "Tactical Table War: Die Kunst der Belagerung"
    sides = SIDES
    side_titles = SIDE_TITLES
    default_scenario = "prepared-battlefield"
    translations = {"de": explain.TRANSLATIONS_DE}
    # The phases a referee can leave the game in; ``/ref phase preparation`` is accepted too,
    # but the preparation needs no decision, so it runs at once and the game waits in movement.
    phases = PHASES[1:]
    commands = (
        Command(
            "move",
            "Move a unit along free hexes (onto an enemy-held building: direct conquest)",
            (
                Option("unit", "unit", "your unit"),
                Option("to", "hex", "destination"),
                Option(
                    "build",
                    "choice",
                    "settler onto a simple unit: fortress, trebuchet, catapult, ballista",
                    required=False,
                ),
            ),
            {"de": "Einheit über freie Felder bewegen (auf ein feindliches Gebäude: erobern)"},
        ),
        Command(
            "recruit",
            "Recruit an untrained unit on or next to your castle (1 treasure die)",
            (Option("at", "hex", "free hex on or next to your castle"),),
            {"de": "Unausgebildete Einheit auf oder neben der Burg rekrutieren (1 Schatzwürfel)"},
        ),
        Command(
            "train",
            "Train a unit on or next to your castle; finished in your next preparation phase",
            (
                Option("unit", "unit", "your unit"),
                Option("as", "choice", "sword, bow, shoe, settler or advanced"),
            ),
            {
                "de": "Einheit auf oder neben der Burg ausbilden; fertig in der nächsten "
                "Vorbereitungsphase"
            },
        ),
        Command(
            "build",
            "A settler builds a quarry, lumber camp or forge (and occupies it) or an outpost on its hex",
            (
                Option("unit", "unit", "your settler"),
                Option("kind", "choice", "quarry, lumber-camp, forge, outpost"),
            ),
            {
                "de": "Ein Siedler baut Steinbruch, Holzfällerlager oder Schmiede (und besetzt "
                "sie) oder einen Vorposten"
            },
        ),
        Command(
            "attack",
            "Attack an enemy unit, or a building by its hex, along an attack route",
            (
                Option("unit", "unit", "your unit"),
                Option("target", "target", "enemy unit or building hex"),
            ),
            {"de": "Feindliche Einheit oder ein Gebäude entlang einer Angriffsroute angreifen"},
        ),
        Command(
            "scatter",
            "Catapult: scatter attack on a hex with an enemy and every hex next to it",
            (
                Option("unit", "unit", "your catapult's crew"),
                Option("at", "hex", "hex with an enemy unit"),
            ),
            {"de": "Katapult: Streuangriff auf ein Feld mit Feind und alle Nachbarfelder"},
        ),
        Command(
            "weaken",
            "Catapult: lay one of the rolled weakening dice on a unit in the attacked area",
            (
                Option("die", "number", "the die's value"),
                Option("target", "target", "enemy unit in the area"),
            ),
            {"de": "Katapult: einen Schwächungswürfel auf eine Einheit im Gebiet legen"},
        ),
        Command(
            "strike",
            "Catapult: roll the attack die against one of the units just weakened",
            (Option("target", "target", "a unit weakened by this scatter attack"),),
            {"de": "Katapult: den Angriffswürfel gegen eine gerade geschwächte Einheit werfen"},
        ),
        Command(
            "counter",
            "Strike back at the catapult's crew, or at the catapult itself by its hex, or none",
            (Option("target", "target", "crew unit, catapult hex, or none"),),
            {"de": "Zurückschlagen: gegen die Besatzung, das Katapult oder keinen"},
        ),
        Command("end-phase", "End this phase", description_i18n={"de": "Diese Phase beenden"}),
    )

    def __init__(self):
        self.cat = Catalogue.load()

    # ----- setup ---------------------------------------------------------------------------
    def scenarios(self) -> list[Scenario]:
        out = []
        for path in sorted(SCENARIO_DIR.glob("*.json")):
            data = read_json(path)
            out.append(Scenario(data["name"], data["title"], data["description"]))
        return out

    def load_scenario(self, name: str) -> dict:
        """A packaged scenario; files from elsewhere come in through ``load_document`` /
        ``load_path`` (engine/core/scenario_io.py), never by a name that looks like a path."""
        name = name or self.default_scenario
        if name not in self.packaged_names():
            raise ScenarioError(
                name[:64],
                "scenario",
                f"no such scenario; packaged: {', '.join(self.packaged_names())}",
            )
        return self.scenario_from_document(
            read_json(SCENARIO_DIR / f"{name}.json"),
            f"data/tactical-table-war/scenarios/{name}.json",
        )

    def scenario_from_document(self, document: dict, label: str) -> dict:
        """A scenario file: structure by ``data/schemas/tactical-table-war.schema.json``, then meaning."""
        check_schema(document, "tactical-table-war", label)
        return self.scenario_from_data(document, label)

    def scenario_from_data(self, data: dict, source: str = "<scenario>") -> dict:
        """Meaning checks only (tests build positions in memory this way)."""
        return check_scenario(self.cat, data, source)

    def _cycle(self, state: dict) -> TurnCycle:
        return TurnCycle(PHASES, SIDES, last_turn=state["last_turn"])

    def setup(self, scenario: dict, dice: Dice) -> tuple[dict, list[dict]]:
        events: list[dict] = []
        cols, rows = scenario["columns"], scenario["rows"]
        fixed = scenario.get("fixed_tiles", {})
        tiles = {lab: land for lab, land in fixed.items()}
        known = set(scenario["castles"].values()) | set(scenario.get("capture_points", []))
        known |= {u["at"] for u in scenario["units"]} | {
            b["at"] for b in scenario.get("prebuilt", [])
        }
        known |= {o["at"] for o in scenario.get("outposts", [])}
        if scenario.get("explore", True):
            # The landscape is explored as units go: at first only around what is on the map.
            start = set(known)
            for lab in known:
                start |= {n for n in board.within_labels(lab, EXPLORE_RADIUS_AT_START)}
        else:
            start = set(board.all_labels(cols, rows))
        for lab in sorted(start):
            if lab not in tiles and board.on_map(lab, cols, rows):
                tiles[lab] = self._random_tile(lab, lab in known, dice, events)
        units: dict[str, dict] = {}
        units = {}
        for u in scenario["units"]:
            units[u["id"]] = {
                "side": u["side"],
                "type": u["type"],
                "level": u.get("level", "simple"),
                "at": u["at"],
                "weak": list(u.get("weakening", [])),
                "training": dict(u["training"]) if u.get("training") else None,
                "moved": False,
                "attacked": False,
            }
        state = {
            "game": self.name,
            "scenario": scenario["name"],
            "result": None,
            "columns": cols,
            "rows": rows,
            "last_turn": scenario["last_turn"],
            "tiles": tiles,
            "castles": dict(scenario["castles"]),
            "capture_points": {lab: None for lab in scenario.get("capture_points", [])},
            "treasury": dict(scenario["treasury"]),
            "units": units,
            "eliminated": [],
            "lost": {s: [] for s in SIDES},
            "buildings": {},
            "constructions": {},
            "outposts": {
                o["at"]: {"side": o["side"], "damage": o.get("damage", 0)}
                for o in scenario.get("outposts", [])
            },
            "looting": {s: scenario.get("looting", {}).get(s, 0) for s in SIDES},
            "castle_damage": {s: scenario.get("castle_damage", {}).get(s, 0) for s in SIDES},
            "supply": [{"pair": list(p), "at": None} for p in self.cat.supply],
            "engine_supply": [{"pair": list(p), "at": None} for p in self.cat.engine_supply],
            "fortress_values": {
                s: dict(
                    scenario.get("fortress_values", {}).get(s)
                    or {
                        "range": self.cat.fortress["default_range"],
                        "strength": self.cat.fortress["default_strength"],
                    }
                )
                for s in SIDES
            },
            "next_id": {s: 1 + sum(1 for u in scenario["units"] if u["side"] == s) for s in SIDES},
        }
        for b in scenario.get("prebuilt", []):
            tile = self._free_tile(state, b["kind"])
            if tile is None:
                raise ScenarioError(
                    scenario["name"], "prebuilt", f"no {b['kind']} tile left in the supply"
                )
            (state["engine_supply"] if b["kind"] in ENGINES else state["supply"])[tile]["at"] = b[
                "at"
            ]
            occupant = next((uid for uid, u in units.items() if u["at"] == b["at"]), None)
            state["buildings"][b["at"]] = self._new_building(b["kind"], tile, occupant, None)
            state["buildings"][b["at"]].update(damage=b.get("damage", 0), counter=b.get("counter"))
        for c in scenario.get("constructions", []):
            tile = self._free_tile(state, c["kind"])
            if tile is None:
                raise ScenarioError(
                    scenario["name"], "constructions", f"no {c['kind']} tile left in the supply"
                )
            at = units[c["settler"]]["at"]
            (state["engine_supply"] if c["kind"] in ENGINES else state["supply"])[tile]["at"] = at
            state["constructions"][at] = {
                "kind": c["kind"],
                "settler": c["settler"],
                "crew": c["crew"],
                "side": units[c["settler"]]["side"],
                "tile": tile,
            }
        events += self._cycle(state).start(state)
        if scenario.get("active"):
            state["active"] = scenario["active"]
        if scenario.get("phase"):
            state["phase"] = scenario["phase"]
            state["awaiting"] = [state["active"]]
        else:
            self._preparation(state, events)
        return state, events

    def _random_tile(self, lab: str, must_stand: bool, dice: Dice, events: list) -> str:
        """One explored landscape tile: one die decides it (``faces`` in tiles.json). A hex
        something already stands on is never a lake."""
        faces = {f: name for name, spec in self.cat.landscapes.items() for f in spec["faces"]}
        land = faces[dice.roll("landscape", events, at=lab)]
        if must_stand and not self.cat.landscapes[land]["passable"]:
            land = "plain"
        return land

    def _explore(self, state: dict, path: list[str], dice: Dice, events: list) -> None:
        """Moving explores: every unexplored hex next to the path gets a random tile."""
        found = []
        for lab in path:
            for n in board.neighbour_labels(lab):
                if n not in state["tiles"] and board.on_map(n, state["columns"], state["rows"]):
                    state["tiles"][n] = self._random_tile(n, False, dice, events)
                    found.append([n, state["tiles"][n]])
        if found:
            events.append({"type": "explored", "tiles": found})

    def _new_building(
        self, kind: str, tile: int | None, occupant: str | None, builder: str | None
    ) -> dict:
        b = {"kind": kind, "tile": tile, "occupant": occupant, "damage": 0, "counter": None}
        if kind == "fortress":
            b.update(
                range=self.cat.fortress["default_range"],
                strength=self.cat.fortress["default_strength"],
            )
        return b

    def _free_tile(self, state: dict, kind: str) -> int | None:
        pool = state["engine_supply"] if kind in ENGINES else state["supply"]
        for i, tile in enumerate(pool):
            if tile["at"] is None and kind in tile["pair"]:
                return i
        return None

    # ----- the preparation phase --------------------------------------------------------------
    def _preparation(self, state: dict, events: list) -> None:
        """The expansion's new first phase, done for the active side without a command."""
        side = state["active"]
        for uid, u in sorted(state["units"].items()):
            if u["side"] != side:
                continue
            u["moved"] = u["attacked"] = False
            if u["weak"]:
                events.append({"type": "weakening_removed", "unit": uid, "dice": u["weak"]})
                u["weak"] = []
            if u["training"]:
                u.update(type=u["training"]["type"], level=u["training"]["level"], training=None)
                events.append(
                    {"type": "trained", "unit": uid, "as": u["type"], "level": u["level"]}
                )
        for lab, c in sorted(state["constructions"].items()):
            if c["side"] != side:
                continue
            del state["constructions"][lab]
            # The settler leaves play: used up, not killed.
            state["units"].pop(c["settler"])
            b = self._new_building(c["kind"], c["tile"], c["crew"], side)
            if c["kind"] == "fortress":
                b.update(state["fortress_values"][side])
            state["buildings"][lab] = b
            events.append(
                {
                    "type": "built",
                    "kind": c["kind"],
                    "at": lab,
                    "side": side,
                    "occupant": c["crew"],
                    "settler_used": c["settler"],
                }
            )
        income = self.cat.castle["treasure"]
        sources = [f"castle {income}"]
        for lab, o in sorted(state["outposts"].items()):
            holder = self._unit_at(state, lab)
            if o["side"] == side and not (holder and state["units"][holder]["side"] != side):
                income += self.cat.outpost["treasure"]
                sources.append(f"outpost {lab}")
        for lab in sorted(state["capture_points"]):
            holder = self._unit_at(state, lab)
            state["capture_points"][lab] = (
                state["units"][holder]["side"] if holder else state["capture_points"][lab]
            )
            if holder and state["units"][holder]["side"] == side:
                income += self.cat.capture_point["treasure"]
                sources.append(f"capture point {lab}")
        for lab, b in sorted(state["buildings"].items()):
            if b["kind"] not in ("quarry", "lumber-camp") or not b["occupant"]:
                continue
            if state["units"][b["occupant"]]["side"] != side:
                continue
            land = self.cat.kinds[b["kind"]]["needs_adjacent"]
            count = board.adjacent_count(state["tiles"], lab, land)
            if count >= 6:
                b["counter"] = None
                income += 1
                sources.append(f"{b['kind']} {lab} (six {land} tiles)")
            elif b["counter"] is None:
                b["counter"] = 1
                events.append({"type": "counter_placed", "at": lab, "value": 1})
            else:
                b["counter"] = min(6, b["counter"] + count)
                events.append(
                    {"type": "counter_raised", "at": lab, "value": b["counter"], "by": count}
                )
                if b["counter"] >= 6:
                    income += 1
                    b["counter"] = 1
                    sources.append(f"{b['kind']} {lab}")
                    events.append({"type": "counter_placed", "at": lab, "value": 1})
        state["treasury"][side] += income
        events.append(
            {
                "type": "treasure",
                "side": side,
                "dice": income,
                "sources": sources,
                "treasury": state["treasury"][side],
            }
        )
        events += self._cycle(state).advance(state)

    def _advance(self, state: dict, events: list) -> None:
        events += self._cycle(state).advance(state)
        if state.get("turn_limit_reached"):
            self._score(state, events)
            return
        if state["phase"] == "preparation":
            self._preparation(state, events)

    def _score(self, state: dict, events: list) -> None:
        scores = {
            s: state["treasury"][s]
            + sum(1 for u in state["units"].values() if u["side"] == s)
            + sum(1 for owner in state["capture_points"].values() if owner == s)
            for s in SIDES
        }
        red, blue = scores["red"], scores["blue"]
        winner = "red" if red > blue else "blue" if blue > red else None
        state["result"] = {"winner": winner, "reason": f"turn limit: score red {red}, blue {blue}"}
        state["awaiting"] = []
        events.append({"type": "game_over", **state["result"], "scores": scores})

    def _check_defeat(self, state: dict, events: list) -> None:
        if state["result"]:
            return
        for side in SIDES:
            has_units = any(u["side"] == side for u in state["units"].values())
            if not has_units and state["treasury"][side] < self.cat.costs["recruit"]:
                state["result"] = {
                    "winner": other(side),
                    "reason": f"{SIDE_TITLES[side]} has no unit left and cannot recruit",
                }
                state["awaiting"] = []
                events.append({"type": "game_over", **state["result"]})
                return

    # ----- what blocks what -------------------------------------------------------------------
    @staticmethod
    def _unit_at(state: dict, lab: str) -> str | None:
        for uid, u in state["units"].items():
            if u["at"] == lab:
                c = state["constructions"].get(lab)
                if c and uid == c["crew"]:
                    continue  # the settler on top is the one that counts (and is attacked first)
                return uid
        return None

    def _units_at(self, state: dict, lab: str) -> list[str]:
        return [uid for uid, u in state["units"].items() if u["at"] == lab]

    def _enemy_castle(self, state: dict, side: str, lab: str) -> bool:
        return state["castles"][other(side)] == lab

    def _crossable(self, state: dict, side: str, lab: str) -> bool:
        """Attack routes may not pass through a neutral building (only end there) nor over the
        enemy castle wall."""
        b = state["buildings"].get(lab)
        if b and b["kind"] not in ENGINES:
            return False
        return not self._enemy_castle(state, side, lab)

    def _may_pass(self, state: dict, side: str, lab: str) -> bool:
        if not self.cat.landscapes[state["tiles"][lab]]["passable"]:
            return False
        if self._enemy_castle(state, side, lab):
            return False
        return all(state["units"][uid]["side"] == side for uid in self._units_at(state, lab))

    # ----- legal actions ------------------------------------------------------------------------
    def legal_actions(self, state: dict, side: str) -> list[dict]:
        if state.get("result") or side not in self.awaiting(state):
            return []
        if state.get("scatter"):
            return self._scatter_actions(state, side)
        phase = state["phase"]
        out: list[dict] = []
        if phase == "movement":
            for uid in sorted(state["units"]):
                if state["units"][uid]["side"] == side:
                    out += self._moves(state, uid)
        elif phase == "recruitment":
            out += self._recruits(state, side)
        elif phase == "building":
            out += self._builds(state, side)
        elif phase == "attack":
            for uid in sorted(state["units"]):
                if state["units"][uid]["side"] == side:
                    out += self._attacks(state, uid)
        out.append({"type": "end-phase", "side": side})
        return out

    def _in_construction(self, state: dict, uid: str) -> bool:
        c = state["constructions"].get(state["units"][uid]["at"])
        return bool(c) and uid in (c["settler"], c["crew"])

    def _moves(self, state: dict, uid: str) -> list[dict]:
        u = state["units"][uid]
        side = u["side"]
        if u["moved"] or self._in_construction(state, uid):
            return []
        speed = stats(self.cat, state, uid)["speed"]
        if speed <= 0:
            return []
        own_b = building_of(state, uid)
        carrying_engine = own_b if own_b and state["buildings"][own_b]["kind"] in ENGINES else None
        reach = board.paths(
            state["tiles"],
            u["at"],
            speed,
            lambda lab: (
                self._may_pass(state, side, lab)
                and not (carrying_engine and lab in state["buildings"])
            ),
        )
        out = []
        for lab, path in sorted(reach.items()):
            if lab == u["at"]:
                continue
            base = {"type": "move", "side": side, "unit": uid, "to": lab}
            b = state["buildings"].get(lab)
            others = self._units_at(state, lab)
            if lab in state["constructions"]:
                continue
            if not others:
                if b and (carrying_engine or not crew_fits(self.cat, b["kind"], u)):
                    # An empty building is entered only by a fitting unit; passing through is fine.
                    continue
                out.append(base)
                continue
            if (
                len(others) == 1
                and u["type"] == "settler"
                and not carrying_engine
                and not b
                and lab not in state["castles"].values()
                and lab not in state["capture_points"]
            ):
                crew = state["units"][others[0]]
                if crew["side"] == side and simple_trained(crew) and not crew["training"]:
                    for kind in self._war_kinds(crew["type"]):
                        if self._free_tile(state, kind) is not None:
                            out.append({**base, "build": kind})
        # Over a ladder man onto the enemy castle wall (never the ladder man himself).
        wall = state["castles"][other(side)]
        if not carrying_engine and not own_b and not self._units_at(state, wall):
            for lab, path in sorted(reach.items()):
                if (
                    len(path) - 1 < speed
                    and wall in board.neighbour_labels(lab)
                    and any(
                        self._ladder_man(state, o) for o in self._units_at(state, lab) if o != uid
                    )
                ):
                    out.append({"type": "move", "side": side, "unit": uid, "to": wall})
                    break
        # Direct conquest: one step from a reachable hex onto a building an enemy occupies. The
        # step starts where the unit could stop, since a fight that nobody wins leaves it there.
        if not own_b:
            for lab, path in sorted(reach.items()):
                if len(path) - 1 >= speed or not self._may_stop_before(state, uid, lab):
                    continue
                for n in board.neighbour_labels(lab):
                    b = state["buildings"].get(n)
                    if (
                        b
                        and b["occupant"]
                        and state["units"][b["occupant"]]["side"] != side
                        and n not in state["constructions"]
                    ):
                        move = {"type": "move", "side": side, "unit": uid, "to": n}
                        if move not in out:
                            out.append(move)
        return out

    def _may_stop_before(self, state: dict, uid: str, lab: str) -> bool:
        if lab == state["units"][uid]["at"]:
            return True
        return not (
            self._units_at(state, lab) or lab in state["buildings"] or lab in state["constructions"]
        )

    def _ladder_man(self, state: dict, uid: str) -> bool:
        """A settler is a ladder man while its side's tool forge works (a settler occupies a
        forge) and it is not that occupant nor working or building itself."""
        u = state["units"][uid]
        if u["type"] != "settler" or building_of(state, uid) or self._in_construction(state, uid):
            return False
        return "tool" in forge_bonuses(self.cat, state, u["side"])

    @staticmethod
    def _war_kinds(crew_type: str) -> list[str]:
        if crew_type == "shoe":
            return list(ENGINES)
        return [WAR_BUILDINGS[crew_type]] if crew_type in WAR_BUILDINGS else []

    def _castle_spots(self, state: dict, side: str) -> list[str]:
        castle = state["castles"][side]
        return [castle] + [n for n in board.neighbour_labels(castle) if n in state["tiles"]]

    def _recruits(self, state: dict, side: str) -> list[dict]:
        out = []
        if state["treasury"][side] >= self.cat.costs["recruit"]:
            for lab in sorted(self._castle_spots(state, side)):
                if (
                    not self._units_at(state, lab)
                    and lab not in state["buildings"]
                    and self.cat.landscapes[state["tiles"][lab]]["passable"]
                ):
                    out.append({"type": "recruit", "side": side, "at": lab})
        spots = set(self._castle_spots(state, side))
        for uid, u in sorted(state["units"].items()):
            if (
                u["side"] != side
                or u["training"]
                or u["at"] not in spots
                or self._in_construction(state, uid)
            ):
                continue
            if (
                u["type"] == "recruit"
                and state["treasury"][side] >= self.cat.costs["simple_training"]
            ):
                out += [{"type": "train", "side": side, "unit": uid, "as": t} for t in TRAININGS]
            elif (
                u["type"] in self.cat.advanced
                and u["level"] == "simple"
                and state["treasury"][side] >= self.cat.costs["advanced_training"]
            ):
                out.append({"type": "train", "side": side, "unit": uid, "as": "advanced"})
        return out

    def _builds(self, state: dict, side: str) -> list[dict]:
        out = []
        for uid, u in sorted(state["units"].items()):
            if u["side"] != side or u["type"] != "settler" or self._in_construction(state, uid):
                continue
            lab = u["at"]
            if (
                lab in state["buildings"]
                or lab in state["castles"].values()
                or lab in state["capture_points"]
                or lab in state["outposts"]
            ):
                continue
            own_outposts = sum(1 for o in state["outposts"].values() if o["side"] == side)
            if (
                own_outposts < self.cat.outpost["per_side"]
                and state["treasury"][side] >= self.cat.outpost["cost"]
            ):
                out.append({"type": "build", "side": side, "unit": uid, "kind": "outpost"})
            for kind in ECONOMIC:
                spec = self.cat.kinds[kind]
                if state["treasury"][side] < spec["cost"] or self._free_tile(state, kind) is None:
                    continue
                need = spec.get("needs_adjacent")
                if need and not board.adjacent_count(state["tiles"], lab, need):
                    continue
                out.append({"type": "build", "side": side, "unit": uid, "kind": kind})
        return out

    def _can_attack(self, state: dict, uid: str) -> bool:
        u = state["units"][uid]
        if u["attacked"] or self._in_construction(state, uid):
            return False
        lab = building_of(state, uid)
        # Occupants of neutral buildings work and cannot attack; the fortress, the trebuchet
        # and the engines are built to fight, so their crews do.
        return not (lab and state["buildings"][lab]["kind"] in ECONOMIC)

    def _attacks(self, state: dict, uid: str) -> list[dict]:
        if not self._can_attack(state, uid):
            return []
        u = state["units"][uid]
        side = u["side"]
        reach = stats(self.cat, state, uid)["range"]
        out = []
        for tid, t in sorted(state["units"].items()):
            if t["side"] == side or not self._targetable(state, tid):
                continue
            if self._route(state, uid, t["at"], reach):
                out.append({"type": "attack", "side": side, "unit": uid, "target": tid})
        own_b = building_of(state, uid)
        if (
            own_b
            and state["buildings"][own_b]["kind"] == "catapult"
            and works(self.cat, state, own_b)
        ):
            for at in sorted({t["at"] for t in state["units"].values() if t["side"] != side}):
                if self._route(state, uid, at, reach):
                    out.append({"type": "scatter", "side": side, "unit": uid, "at": at})
        if u["at"] == state["castles"][other(side)]:
            # Only units standing on the wall attack the castle directly.
            out.append({"type": "attack", "side": side, "unit": uid, "target": u["at"]})
        for lab, o in sorted(state["outposts"].items()):
            if o["side"] != side and self._route(state, uid, lab, reach):
                out.append({"type": "attack", "side": side, "unit": uid, "target": lab})
        for lab, b in sorted(state["buildings"].items()):
            if b["occupant"] and state["units"][b["occupant"]]["side"] == side:
                continue
            if lab == u["at"]:
                continue
            if self._route(state, uid, lab, reach):
                out.append({"type": "attack", "side": side, "unit": uid, "target": lab})
        return out

    def _scatter_area(self, state: dict, side: str, at: str) -> list[str]:
        """The enemy units a scatter attack on ``at`` may weaken (a building crew only once its
        settler is gone, as for every attack)."""
        area = {at, *board.neighbour_labels(at)}
        return sorted(
            uid
            for uid, u in state["units"].items()
            if u["side"] != side and u["at"] in area and self._targetable(state, uid)
        )

    def _scatter_actions(self, state: dict, side: str) -> list[dict]:
        sc = state["scatter"]
        if sc["stage"] == "weaken":
            return [
                {"type": "weaken", "side": side, "die": str(die), "target": tid}
                for die in sorted(set(sc["dice"]))
                for tid in self._scatter_area(state, side, sc["at"])
            ]
        if sc["stage"] == "strike":
            return [
                {"type": "strike", "side": side, "target": tid}
                for tid in sc["weakened"]
                if tid in state["units"]
            ]
        # The struck unit strikes back, at the crew or at the catapult itself, if its range reaches.
        out = [{"type": "counter", "side": side, "target": "none"}]
        striker, crew = sc["defender"], sc["crew"]
        if (
            striker in state["units"]
            and crew in state["units"]
            and counter_route(self.cat, state, striker, crew, self._crossable)
        ):
            out.append({"type": "counter", "side": side, "target": crew})
            engine_at = state["units"][crew]["at"]
            if engine_at in state["buildings"]:
                out.append({"type": "counter", "side": side, "target": engine_at})
        return out

    def _targetable(self, state: dict, tid: str) -> bool:
        """Enemies attack the settler of a construction first; its crew only once it is gone."""
        c = state["constructions"].get(state["units"][tid]["at"])
        return not (c and c["crew"] == tid)

    def _route(self, state: dict, uid: str, goal: str, reach: int) -> list[str] | None:
        u = state["units"][uid]
        return board.route(
            state["tiles"], u["at"], goal, reach, lambda lab: self._crossable(state, u["side"], lab)
        )

    # ----- apply ------------------------------------------------------------------------------
    def apply(self, state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
        self.require_turn(state, action)
        if action not in self.legal_actions(state, action["side"]):
            self._explain(state, action)
        state = clone(state)
        events: list[dict] = []
        kind = action["type"]
        if kind == "end-phase":
            events.append({"type": "phase_ended", "phase": state["phase"], "side": action["side"]})
            self._advance(state, events)
        else:
            getattr(self, "_do_" + kind.replace("-", "_"))(state, action, events, dice)
        self._check_defeat(state, events)
        return state, events

    def _keyed(self, what: str, **params) -> dict:
        """RuleError's key, params and domain for one of this game's refusals (German in
        ``explain.TRANSLATIONS_DE``)."""
        return {"key": f"{self.name}.{what}", "params": params, "domain": self.name}

    def _explain(self, state: dict, action: dict) -> None:
        side, kind = action.get("side"), action.get("type")
        uid = action.get("unit")
        units = state["units"]
        command = next((c for c in self.commands if c.name == kind), None)
        if command is not None:
            allowed = {o.name for o in command.options}
            unknown = sorted(set(action) - allowed - {"type", "side"})
            if unknown:
                raise RuleError(
                    f"/{kind} has no option {unknown[0]!r}.",
                    sorted(allowed),
                    key="no_option",
                    params={"command": str(kind), "option": unknown[0]},
                    domain=self.name,
                )
        if uid is not None and kind in ("move", "train", "build", "attack"):
            if uid not in units or units[uid]["side"] != side:
                raise RuleError(
                    f"{uid!r} is not one of your units.",
                    sorted(u for u, v in units.items() if v["side"] == side)[:20],
                    **self._keyed("not_yours", unit=str(uid)),
                )
            if kind == "attack" and state["phase"] == "attack":
                lab = building_of(state, uid)
                if lab and state["buildings"][lab]["kind"] in ECONOMIC:
                    raise RuleError(
                        f"{uid} works in the {state['buildings'][lab]['kind']} at {lab} "
                        "and cannot attack.",
                        **self._keyed(
                            "works_in", unit=uid, kind=state["buildings"][lab]["kind"], cell=lab
                        ),
                    )
                if self._in_construction(state, uid):
                    raise RuleError(
                        f"{uid} is building at {units[uid]['at']} and cannot attack until it is "
                        "done.",
                        **self._keyed("building_no_attack", unit=uid, cell=units[uid]["at"]),
                    )
                if units[uid]["attacked"]:
                    raise RuleError(
                        f"{uid} has already attacked this phase.",
                        **self._keyed("already_attacked", unit=uid),
                    )
                target = str(action.get("target"))
                if target in units and not self._targetable(state, target):
                    raise RuleError(
                        f"{target} is guarded by the settler building with it: attack the "
                        "settler first.",
                        **self._keyed("guarded", target=target),
                    )
                if target in units or target in state["buildings"]:
                    reach = stats(self.cat, state, uid)["range"]
                    raise RuleError(
                        f"No attack route of at most {reach} hexes "
                        f"leads from {units[uid]['at']} to {target} (routes may end in but not pass "
                        "a neutral building, nor cross the enemy castle wall).",
                        **self._keyed(
                            "no_route", reach=reach, cell=units[uid]["at"], target=target
                        ),
                    )
        if kind == "move" and state["phase"] == "movement" and uid in units:
            self._explain_move(state, str(uid), str(action.get("to")))
        if kind in ("recruit", "train") and state["phase"] == "recruitment":
            cost = self.cat.costs["recruit"] if kind == "recruit" else None
            if cost is not None and state["treasury"].get(side, 0) < cost:
                raise RuleError(
                    f"Recruiting costs {cost} treasure die; your treasury has "
                    f"{state['treasury'][side]}.",
                    **self._keyed("recruit_cost", cost=cost, has=state["treasury"][side]),
                )
        if kind == "build" and state["phase"] == "building" and action.get("kind") in ECONOMIC:
            spec = self.cat.kinds[action["kind"]]
            if state["treasury"].get(side, 0) < spec["cost"]:
                raise RuleError(
                    f"A {action['kind']} costs {spec['cost']} treasure dice; "
                    f"your treasury has {state['treasury'][side]}.",
                    **self._keyed(
                        "build_cost",
                        kind=action["kind"],
                        cost=spec["cost"],
                        has=state["treasury"][side],
                    ),
                )
            if self._free_tile(state, action["kind"]) is None:
                raise RuleError(
                    f"Every {action['kind']} tile of the supply is built; one must be destroyed "
                    "first.",
                    **self._keyed("supply_used", kind=action["kind"]),
                )
            need = spec.get("needs_adjacent")
            if (
                need
                and uid in units
                and not board.adjacent_count(state["tiles"], units[uid]["at"], need)
            ):
                raise RuleError(
                    f"A {action['kind']} needs at least one adjacent {need} tile.",
                    **self._keyed("needs_adjacent", kind=action["kind"], need=need),
                )
        self.refuse_unknown(state, action)

    def _explain_move(self, state: dict, uid: str, to: str) -> None:
        """Why a unit cannot go where it was told (a stranger's commonest mistake), with the
        hexes it can go to; a legal hex with a wrong ``build:`` falls through to the generic list."""
        unit = state["units"][uid]
        if unit["moved"]:
            raise RuleError(
                f"{uid} has already moved this phase.", **self._keyed("already_moved", unit=uid)
            )
        if self._in_construction(state, uid):
            raise RuleError(
                f"{uid} is building at {unit['at']} and stays there until it is done.",
                **self._keyed("building_stays", unit=uid, cell=unit["at"]),
            )
        speed = stats(self.cat, state, uid)["speed"]
        if speed <= 0:
            raise RuleError(f"{uid} cannot move (speed 0).", **self._keyed("speed_zero", unit=uid))
        if to not in state["tiles"]:
            raise RuleError(
                f"{to} is not an explored hex of the map: units move over explored landscape "
                "only, and exploring happens next to every path a unit moves.",
                **self._keyed("unexplored", cell=to),
            )
        reachable = sorted({m["to"] for m in self._moves(state, uid)})
        side = unit["side"]
        if to not in reachable and not self._may_pass(state, side, to):
            if not self.cat.landscapes[state["tiles"][to]]["passable"]:
                land = self.cat.landscapes[state["tiles"][to]]["title"]
                raise RuleError(
                    f"No unit enters {to} ({land}).",
                    reachable,
                    **self._keyed("impassable", cell=to, land=land),
                )
            if self._enemy_castle(state, side, to):
                raise RuleError(
                    f"{to} is the enemy castle; no unit enters it.",
                    reachable,
                    **self._keyed("enemy_castle", cell=to),
                )
            enemy = self._units_at(state, to)[0]
            raise RuleError(
                f"{to} holds the enemy {enemy}; no unit enters an enemy's hex.",
                reachable,
                **self._keyed("enemy_there", cell=to, enemy=enemy),
            )
        if to not in reachable:
            # The shortest open way there, however long, against the unit's speed.
            ways = board.paths(
                state["tiles"],
                unit["at"],
                len(state["tiles"]),
                lambda lab: self._may_pass(state, side, lab),
            )
            need = len(ways[to]) - 1 if to in ways else None
            if need is not None and need > speed:
                raise RuleError(
                    f"{uid} needs {need} steps to reach {to} and has speed {speed}.",
                    reachable,
                    **self._keyed("too_far", unit=uid, cell=to, need=need, speed=speed),
                )
            if need is None:
                raise RuleError(
                    f"Enemy units, lakes or the enemy castle bar every way {uid} could take to "
                    f"{to}.",
                    reachable,
                    **self._keyed("no_way", unit=uid, cell=to),
                )
            raise RuleError(
                f"{uid} (speed {speed}) cannot reach {to} this phase: one unit per hex, "
                "never through enemy units, lakes or the enemy castle.",
                reachable,
                **self._keyed("cannot_reach", unit=uid, speed=speed, cell=to),
            )

    def _do_move(self, state, action, events, dice):
        uid, to, side = action["unit"], action["to"], action["side"]
        u = state["units"][uid]
        start = u["at"]
        own_b = building_of(state, uid)
        carrying_engine = own_b if own_b and state["buildings"][own_b]["kind"] in ENGINES else None
        speed = stats(self.cat, state, uid)["speed"]
        reach = board.paths(
            state["tiles"], start, speed, lambda lab: self._may_pass(state, side, lab)
        )
        target_b = state["buildings"].get(to)
        u["moved"] = True
        if own_b and not carrying_engine:
            # Leaving a building empties it; it stops working until someone fitting enters.
            state["buildings"][own_b]["occupant"] = None
            events.append({"type": "left", "unit": uid, "at": own_b})
        if (
            target_b
            and target_b["occupant"]
            and state["units"][target_b["occupant"]]["side"] != side
        ):
            self._conquer(state, uid, to, reach, events, dice)
            return
        if to == state["castles"][other(side)]:
            ladder = min(
                lab
                for lab in board.neighbour_labels(to)
                if lab in reach
                and len(reach[lab]) - 1 < speed
                and any(self._ladder_man(state, o) for o in self._units_at(state, lab) if o != uid)
            )
            path = reach[ladder] + [to]
        else:
            path = reach[to]
        u["at"] = to
        if carrying_engine:
            state["buildings"][to] = state["buildings"].pop(carrying_engine)
            tile = state["buildings"][to]["tile"]
            state["engine_supply"][tile]["at"] = to
        events.append({"type": "moved", "unit": uid, "side": side, "path": path})
        self._explore(state, path, dice, events)
        if action.get("build"):
            crew = next(o for o in self._units_at(state, to) if o != uid)
            tile = self._free_tile(state, action["build"])
            pool = state["engine_supply"] if action["build"] in ENGINES else state["supply"]
            pool[tile]["at"] = to
            state["constructions"][to] = {
                "kind": action["build"],
                "settler": uid,
                "crew": crew,
                "side": side,
                "tile": tile,
            }
            events.append(
                {
                    "type": "construction_started",
                    "kind": action["build"],
                    "at": to,
                    "settler": uid,
                    "crew": crew,
                }
            )
        elif target_b and not target_b["occupant"]:
            target_b["occupant"] = uid
            events.append({"type": "occupied", "unit": uid, "at": to, "kind": target_b["kind"]})

    def _conquer(self, state, uid, to, reach, events, dice):
        """Direct conquest: a fight without terrain advantage; the winner occupies at once."""
        side = state["units"][uid]["side"]
        speed = stats(self.cat, state, uid)["speed"]
        before = min(
            (
                lab
                for lab in board.neighbour_labels(to)
                if lab in reach
                and len(reach[lab]) - 1 < speed
                and self._may_stop_before(state, uid, lab)
            ),
            key=lambda lab: (len(reach[lab]), lab),
        )
        path = reach[before]
        state["units"][uid]["at"] = before
        events.append(
            {"type": "moved", "unit": uid, "side": side, "path": path + [to], "conquest": True}
        )
        self._explore(state, path, dice, events)
        b = state["buildings"][to]
        defender = b["occupant"]
        outcome = strike(
            self.cat, state, uid, defender, dice, events, "conquest", False, [before, to]
        )
        if outcome != "killed":
            back = strike(
                self.cat,
                state,
                defender,
                uid,
                dice,
                events,
                "conquest-defence",
                False,
                [to, before],
            )
            if outcome == "tie":
                remove_unit(self.cat, state, defender, events, "conquest")
            if back in ("killed", "tie"):
                remove_unit(self.cat, state, uid, events, "conquest")
                return
        else:
            remove_unit(self.cat, state, defender, events, "conquest")
        if outcome in ("killed", "tie") and uid in state["units"]:
            state["units"][uid]["at"] = to
            b["occupant"] = uid
            events.append(
                {
                    "type": "conquered",
                    "unit": uid,
                    "at": to,
                    "kind": b["kind"],
                    "works": works(self.cat, state, to),
                }
            )

    def _do_scatter(self, state, action, events, dice):
        uid, at, side = action["unit"], action["at"], action["side"]
        state["units"][uid]["attacked"] = True
        path = self._route(state, uid, at, stats(self.cat, state, uid)["range"])
        rolled = dice.roll_many(3, "catapult weakening", events, at=at)
        state["scatter"] = {
            "crew": uid,
            "at": at,
            "dice": rolled,
            "weakened": [],
            "stage": "weaken",
            "defender": None,
        }
        events.append(
            {
                "type": "scatter",
                "attacker": uid,
                "side": side,
                "from": state["units"][uid]["at"],
                "to": at,
                "route": path,
                "dice": rolled,
                "area": self._scatter_area(state, side, at),
            }
        )

    def _do_weaken(self, state, action, events, dice):
        sc = state["scatter"]
        die, tid = int(action["die"]), action["target"]
        sc["dice"].remove(die)
        state["units"][tid]["weak"].append(die)
        if tid not in sc["weakened"]:
            sc["weakened"].append(tid)
        events.append({"type": "weakened", "unit": tid, "die": die, "by": sc["crew"]})
        if not sc["dice"]:
            sc["stage"] = "strike"

    def _do_strike(self, state, action, events, dice):
        sc = state["scatter"]
        crew, tid = sc["crew"], action["target"]
        path = self._route(
            state, crew, state["units"][tid]["at"], stats(self.cat, state, crew)["range"]
        ) or [state["units"][crew]["at"], state["units"][tid]["at"]]
        outcome = strike(
            self.cat,
            state,
            crew,
            tid,
            dice,
            events,
            "catapult",
            terrain_counts(state, tid),
            path,
            weakens=False,
        )
        if outcome == "killed":
            remove_unit(self.cat, state, tid, events, "catapult")
            del state["scatter"]
            return
        sc.update(stage="counter", defender=tid, outcome=outcome)
        if not counter_route(self.cat, state, tid, crew, self._crossable):
            # Out of range: nothing to choose, the attack is over.
            self._do_counter(state, {"target": "none"}, events, dice)
            return
        state["awaiting"] = [state["units"][tid]["side"]]

    def _do_counter(self, state, action, events, dice):
        sc = state.pop("scatter")
        state["awaiting"] = [state["active"]]
        striker, crew, target = sc["defender"], sc["crew"], action["target"]
        if target == crew:
            back = counter_route(self.cat, state, striker, crew, self._crossable)
            result = strike(
                self.cat,
                state,
                striker,
                crew,
                dice,
                events,
                "counter",
                terrain_counts(state, crew),
                back,
            )
            if result in ("killed", "tie"):
                remove_unit(self.cat, state, crew, events, "counter-attack")
        elif target != "none":
            b = state["buildings"][target]
            b["damage"] += 1
            withstands = self.cat.engines[b["kind"]]["withstands"]
            destroyed = b["damage"] > withstands
            striker_at = state["units"][striker]["at"]
            events.append(
                {
                    "type": "building_attacked",
                    "attacker": striker,
                    "side": state["units"][striker]["side"],
                    "from": striker_at,
                    "to": target,
                    "route": [striker_at, target],
                    "kind": b["kind"],
                    "damage": 1,
                    "attacks_withstood": min(b["damage"], withstands),
                    "withstands": withstands,
                    "destroyed": destroyed,
                }
            )
            if destroyed:
                del state["buildings"][target]
                release_tile(state, b["kind"], b["tile"])
        if sc["outcome"] == "tie":
            remove_unit(self.cat, state, striker, events, "catapult")

    def _do_recruit(self, state, action, events, dice):
        side = action["side"]
        uid = f"{side}-{state['next_id'][side]}"
        state["next_id"][side] += 1
        state["treasury"][side] -= self.cat.costs["recruit"]
        state["units"][uid] = {
            "side": side,
            "type": "recruit",
            "level": "simple",
            "at": action["at"],
            "weak": [],
            "training": None,
            "moved": True,
            "attacked": True,
        }
        events.append({"type": "recruited", "unit": uid, "side": side, "at": action["at"]})

    def _do_train(self, state, action, events, dice):
        side, uid, to = action["side"], action["unit"], action["as"]
        u = state["units"][uid]
        if to == "advanced":
            u["training"] = {"type": u["type"], "level": "advanced"}
            cost = self.cat.costs["advanced_training"]
        else:
            u["training"] = {"type": to, "level": "simple"}
            cost = self.cat.costs["simple_training"]
        state["treasury"][side] -= cost
        events.append({"type": "training_started", "unit": uid, "as": to, "cost": cost})

    def _do_build(self, state, action, events, dice):
        side, uid, kind = action["side"], action["unit"], action["kind"]
        lab = state["units"][uid]["at"]
        if kind == "outpost":
            state["treasury"][side] -= self.cat.outpost["cost"]
            state["outposts"][lab] = {"side": side, "damage": 0}
            events.append(
                {"type": "built", "kind": "outpost", "at": lab, "side": side, "occupant": None}
            )
            return
        tile = self._free_tile(state, kind)
        state["supply"][tile]["at"] = lab
        state["treasury"][side] -= self.cat.kinds[kind]["cost"]
        state["buildings"][lab] = self._new_building(kind, tile, uid, side)
        events.append(
            {"type": "built", "kind": kind, "at": lab, "side": side, "occupant": uid, "tile": tile}
        )

    def _do_attack(self, state, action, events, dice):
        uid, target, side = action["unit"], action["target"], action["side"]
        u = state["units"][uid]
        u["attacked"] = True
        reach = stats(self.cat, state, uid)["range"]
        own_b = building_of(state, uid)
        engine = (
            state["buildings"][own_b]["kind"] if own_b and works(self.cat, state, own_b) else None
        )
        if target == state["castles"][other(side)]:
            self._attack_castle(state, uid, target, engine, events)
            return
        if target in state["outposts"]:
            self._attack_outpost(state, uid, target, engine, events)
            return
        if target in state["buildings"]:
            self._attack_building(state, uid, target, engine, events, dice)
            return
        path = self._route(state, uid, state["units"][target]["at"], reach)
        if engine == "ballista":
            weak = dice.roll_many(3, "ballista weakening", events, unit=target)
            state["units"][target]["weak"] += weak
            events.append(
                {
                    "type": "ballista",
                    "attacker": uid,
                    "defender": target,
                    "side": side,
                    "from": u["at"],
                    "to": state["units"][target]["at"],
                    "route": path,
                    "dice": weak,
                }
            )
            outcome = "held"
        else:
            outcome = strike(
                self.cat,
                state,
                uid,
                target,
                dice,
                events,
                "attack",
                terrain_counts(state, target),
                path,
            )
        if outcome == "killed":
            remove_unit(self.cat, state, target, events, "attack")
            return
        back = counter_route(self.cat, state, target, uid, self._crossable)
        # Builders and workers cannot attack but do defend, and striking back is defending.
        if back:
            result = strike(
                self.cat,
                state,
                target,
                uid,
                dice,
                events,
                "counter",
                terrain_counts(state, uid),
                back,
            )
            if result in ("killed", "tie"):
                remove_unit(self.cat, state, uid, events, "counter-attack")
        if outcome == "tie":
            remove_unit(self.cat, state, target, events, "attack")

    def _attack_castle(self, state, uid, lab, engine, events):
        side = state["units"][uid]["side"]
        enemy = other(side)
        hit = self.cat.kinds["trebuchet"]["building_damage"] if engine == "trebuchet" else 1
        state["castle_damage"][enemy] += hit
        withstands = self.cat.castle["withstands"]
        destroyed = state["castle_damage"][enemy] > withstands
        events.append(
            {
                "type": "building_attacked",
                "attacker": uid,
                "side": side,
                "from": lab,
                "to": lab,
                "route": [lab],
                "kind": "castle",
                "damage": hit,
                "attacks_withstood": min(state["castle_damage"][enemy], withstands),
                "withstands": withstands,
                "destroyed": destroyed,
            }
        )
        if destroyed:
            state["result"] = {
                "winner": side,
                "reason": f"{SIDE_TITLES[enemy]}'s castle is destroyed",
            }
            state["awaiting"] = []
            events.append({"type": "game_over", **state["result"]})

    def _attack_outpost(self, state, uid, lab, engine, events):
        u = state["units"][uid]
        o = state["outposts"][lab]
        hit = self.cat.kinds["trebuchet"]["building_damage"] if engine == "trebuchet" else 1
        o["damage"] += hit
        withstands = self.cat.outpost["withstands"]
        destroyed = o["damage"] > withstands
        events.append(
            {
                "type": "building_attacked",
                "attacker": uid,
                "side": u["side"],
                "from": u["at"],
                "to": lab,
                "route": self._route(state, uid, lab, stats(self.cat, state, uid)["range"]),
                "kind": "outpost",
                "damage": hit,
                "attacks_withstood": min(o["damage"], withstands),
                "withstands": withstands,
                "destroyed": destroyed,
            }
        )
        if destroyed:
            del state["outposts"][lab]

    def _attack_building(self, state, uid, lab, engine, events, dice):
        b = state["buildings"][lab]
        u = state["units"][uid]
        spec = self.cat.kinds.get(b["kind"]) or self.cat.engines[b["kind"]]
        hit = self.cat.kinds["trebuchet"]["building_damage"] if engine == "trebuchet" else 1
        b["damage"] += hit
        path = self._route(state, uid, lab, stats(self.cat, state, uid)["range"])
        destroyed = b["damage"] > spec["withstands"]
        events.append(
            {
                "type": "building_attacked",
                "attacker": uid,
                "side": u["side"],
                "from": u["at"],
                "to": lab,
                "route": path,
                "kind": b["kind"],
                "damage": hit,
                "attacks_withstood": min(b["damage"], spec["withstands"]),
                "withstands": spec["withstands"],
                "destroyed": destroyed,
            }
        )
        occupant = b["occupant"]
        if destroyed:
            del state["buildings"][lab]
            release_tile(state, b["kind"], b["tile"])
        # The fortress always strikes back while occupied and in range, even when the building
        # itself is the target (the expansion's ACHTUNG and FAQ).
        if not destroyed and b["kind"] == "fortress" and occupant and works(self.cat, state, lab):
            back = counter_route(self.cat, state, occupant, uid, self._crossable)
            if back:
                result = strike(
                    self.cat,
                    state,
                    occupant,
                    uid,
                    dice,
                    events,
                    "fortress-counter",
                    terrain_counts(state, uid),
                    back,
                )
                if result in ("killed", "tie"):
                    remove_unit(self.cat, state, uid, events, "fortress counter-attack")

    # ----- referee edits ------------------------------------------------------------------------
    def referee_edit(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        """Place and remove keep buildings, constructions and castles consistent: a unit taken
        off a building leaves it empty, one taken off a construction ends it."""
        kind = action["type"]
        if kind == "ref-phase":
            prepare = action.get("phase") == PHASES[0]
            state, phase_events = super().referee_edit(
                state, {**action, "phase": PHASES[1]} if prepare else action
            )
            state.pop("scatter", None)  # a half-done catapult attack is abandoned
            if prepare:
                state["phase"] = phase_events[-1]["phase"] = PHASES[0]
                self._preparation(state, phase_events)
            return state, phase_events
        if kind not in ("ref-place", "ref-remove"):
            return super().referee_edit(state, action)
        uid = str(action.get("unit"))
        if uid not in state["units"]:
            raise RuleError(
                f"No unit {uid!r}.",
                sorted(state["units"])[:20],
                key="no_unit",
                params={"unit": uid},
                domain=self.name,
            )
        to = str(action.get("to"))
        if kind == "ref-place":
            if to not in state["tiles"] or self._units_at(state, to):
                raise RuleError(
                    f"{to!r} is not a free hex of the map.", **self._keyed("ref_not_free", cell=to)
                )
            if not self.cat.landscapes[state["tiles"][to]]["passable"]:
                raise RuleError(
                    f"{to} is a {state['tiles'][to]}: no unit can stand there.",
                    **self._keyed("ref_impassable", cell=to, landscape=state["tiles"][to]),
                )
        state = clone(state)
        unit = state["units"][uid]
        old = unit["at"]
        events: list[dict] = []
        b = state["buildings"].get(old)
        if b and b["occupant"] == uid:
            b["occupant"] = None  # an engine stays where it was, without its crew
        c = state["constructions"].get(old)
        if c and uid in (c["settler"], c["crew"]):
            release_tile(state, c["kind"], c["tile"])
            del state["constructions"][old]
            events.append({"type": "construction_abandoned", "at": old, "kind": c["kind"]})
        if kind == "ref-place":
            unit["at"] = to
            target = state["buildings"].get(to)
            if target and target["occupant"] is None:
                target["occupant"] = uid
            events.append({"type": "referee", "what": "place", "unit": uid, "from": old, "to": to})
        else:
            record_loss(self.cat, state, state["units"].pop(uid))
            state["eliminated"].append(uid)
            events.append({"type": "referee", "what": "remove", "unit": uid, "from": old})
        self._check_defeat(state, events)
        return state, events

    # ----- presentation -------------------------------------------------------------------------
    def label(self, state: dict, key: str, value: str, lang: str = "en") -> str:
        if lang == "de":
            return explain.label_de(self, self.cat, state, key, value)
        return self.describe(state, key, value)

    def describe(self, state: dict, key: str, value: str) -> str:
        if key in ("unit", "target") and value in state["units"]:
            return unit_label(self.cat, state, value)
        if key == "target" and value in state["buildings"]:
            return f"the {state['buildings'][value]['kind']} at {value}"
        if key == "target" and value in state["outposts"]:
            return f"the {state['outposts'][value]['side']} outpost at {value}"
        if key == "target" and value in state["castles"].values():
            return f"the castle at {value}"
        return value

    def unit_facts(self, state: dict, unit: str, lang: str = "en") -> list[str]:
        return explain.unit_facts(self, self.cat, state, unit, lang)

    def cell_facts(self, state: dict, cell: str, lang: str = "en") -> list[str]:
        return explain.cell_facts(self, self.cat, state, cell, lang)

    def narrate(self, state: dict, event: dict, lang: str = "en") -> str | None:
        if lang == "de":
            return explain.narrate_de(self, event, state)
        return self.describe_event(state, event)

    def result_reason(self, state: dict, lang: str = "en") -> str:
        reason = str((state.get("result") or {}).get("reason") or "")
        return explain.reason_de(reason) if lang == "de" else reason

    def roll_purpose(self, state: dict, event: dict, lang: str = "en") -> str:
        return explain.roll_purpose(event, lang)

    def describe_event(self, state: dict, event: dict) -> str | None:
        event = explain.named_units(self.cat, state, event, "en")
        kind = event.get("type")
        if kind == "combat":
            return (
                f"{event['attacker']} ({event['strength']}+⚄{event['attack_die']}={event['attack']}) "
                f"vs {event['defender']} ({event['defender_strength']}+{event['terrain_advantage']}"
                f"+⚄{event['defence_die']}-{event['weakening']}={event['defence']}): {event['outcome']}"
            )
        if kind == "moved":
            return f"{event['unit']} moved {'→'.join(event['path'])}"
        if kind == "treasure":
            return f"{SIDE_TITLES[event['side']]} collects {event['dice']} treasure dice ({', '.join(event['sources'])})"
        if kind == "built":
            return f"{event['kind']} built at {event['at']}"
        if kind == "eliminated":
            return f"{event['unit']} eliminated at {event['at']}"
        if kind == "building_attacked":
            return f"{event['attacker']} hits the {event['kind']} at {event['to']}" + (
                " — destroyed" if event["destroyed"] else ""
            )
        if kind == "game_over":
            return f"Game over: {event['reason']}"
        if kind == "construction_started":
            return (
                f"{event['settler']} starts a {event['kind']} on {event['crew']} at {event['at']}"
            )
        if kind == "construction_abandoned":
            return f"the {event['kind']} at {event['at']} is abandoned"
        if kind == "trained":
            return f"{event['unit']} finishes its training: {event['level']} {event['as']}"
        if kind == "ballista":
            return (
                f"ballista {event['attacker']} lays weakening dice "
                f"{', '.join(map(str, event['dice']))} on {event['defender']}"
            )
        if kind == "scatter":
            return (
                f"catapult {event['attacker']} scatters on {event['to']}: weakening dice "
                f"{', '.join(map(str, event['dice']))} to lay with /weaken"
            )
        if kind == "recruited":
            return f"{SIDE_TITLES[event['side']]} recruits {event['unit']} at {event['at']}"
        if kind == "training_started":
            return (
                f"{event['unit']} starts training ({event['as']}, {event['cost']} treasure dice); "
                "it is finished in its side's next preparation"
            )
        if kind == "weakening_removed":
            return f"{event['unit']} is rid of its weakening dice"
        if kind == "explored":
            return "explored: " + ", ".join(f"{lab} {land}" for lab, land in event["tiles"])
        if kind == "occupied":
            return f"{event['unit']} occupies the {event['kind']} at {event['at']}"
        if kind == "left":
            return f"{event['unit']} leaves the building at {event['at']}"
        if kind == "weakened":
            return f"{event['unit']} gets a weakening die of {event['die']}"
        if kind == "looted":
            return f"{possessive(SIDE_TITLES[event['side']])} looting die pays a treasure die"
        if kind in ("counter_placed", "counter_raised"):
            return f"counter die at {event['at']}: {event['value']}"
        if kind == "conquered":
            return f"{event['unit']} takes the {event['kind']} at {event['at']}"
        return None

    def header(self, state: dict) -> dict[str, str]:
        sc = state.get("scatter")
        if sc:
            waiting = {
                "weaken": f"lay dice {sc['dice']}",
                "strike": "choose the unit to strike",
                "counter": f"{sc['defender']} may strike back",
            }[sc["stage"]]
            extra = {"Catapult": waiting}
        else:
            extra = {}
        return {
            "Turn": f"{state['turn']} / {state['last_turn']}",
            "Phase": state["phase"].title(),
            "Active": SIDE_TITLES[state["active"]],
            "Treasury": f"Red {state['treasury']['red']} · Blue {state['treasury']['blue']}",
        } | extra

    def localised_header(self, state: dict, lang: str = "en") -> dict[str, str]:
        header = super().localised_header(state, lang)
        if lang != "en":  # the treasury line names both sides
            treasury = " · ".join(
                f"{self.side_title(side, lang)} {state['treasury'][side]}" for side in SIDES
            )
            header[self.term("Treasury", lang)] = treasury
        return header

    def scene(self, state: dict, events: list[dict], viewer: str | None, lang: str = "en") -> dict:
        word = lambda text: present.word(text, lang)  # noqa: E731
        side_title = lambda side: word(SIDE_TITLES[side])  # noqa: E731
        cells = []
        for lab, land in sorted(state["tiles"].items()):
            cell = {"at": lab, "fill": self.cat.landscapes[land]["fill"]}
            for side, castle in state["castles"].items():
                if castle == lab:
                    # "Red castle", but "Burg Rot": German names the colour after the noun
                    name = (
                        f"{word('castle')} {side_title(side)}"
                        if lang == "de"
                        else f"{side_title(side)} {word('castle')}"
                    )
                    cell.update(icon="fort", text=name)
            cells.append(cell)
        key = hashlib.sha256(canonical_json(cells).encode()).hexdigest()[:16]
        objectives = []
        for side, lab in sorted(state["castles"].items()):
            objectives.append(
                {
                    "at": lab,
                    "name": f"{word('Castle')} {state['castle_damage'][side]}/"
                    f"{self.cat.castle['withstands']}",
                    "owner": side,
                    "color": COLORS[side],
                }
            )
        for lab, o in sorted(state["outposts"].items()):
            objectives.append(
                {
                    "at": lab,
                    "name": f"{word('Outpost')} {o['damage']}/{self.cat.outpost['withstands']}",
                    "owner": o["side"],
                    "color": COLORS[o["side"]],
                }
            )
        for lab, owner in sorted(state["capture_points"].items()):
            objectives.append(
                {
                    "at": lab,
                    "name": word("Capture point"),
                    "owner": owner,
                    "color": COLORS[owner] if owner else "#ffffff",
                }
            )
        for lab, b in sorted(state["buildings"].items()):
            spec = self.cat.kinds.get(b["kind"]) or self.cat.engines[b["kind"]]
            occupant = b["occupant"]
            owner = state["units"][occupant]["side"] if occupant else None
            # The first word only ("Lumber 0/6 c3"): a longer name wraps onto a second line that
            # reaches the label of the hex below on the phone-sized picture.
            name = f"{present.short_name(spec['title'], lang)} {b['damage']}/{spec['withstands']}"
            if b["counter"] is not None:
                # "c3", not a die glyph: the fallback font's glyph is taller than the label band
                name += f" {'z' if lang == 'de' else 'c'}{b['counter']}"
            objectives.append(
                {
                    "at": lab,
                    "name": name,
                    "owner": owner,
                    "color": COLORS[owner] if owner else "#ffffff",
                }
            )
        # A construction is named under its hex like a building (settler and crew share the hex
        # and are drawn too small for a title; a marker with a word covered a neighbour's label).
        for lab, c in sorted(state["constructions"].items()):
            spec = self.cat.kinds.get(c["kind"]) or self.cat.engines[c["kind"]]
            objectives.append(
                {
                    "at": lab,
                    "name": f"{word(spec['title'])} ({word('building')})",
                    "owner": c["side"],
                    "color": COLORS[c["side"]],
                }
            )
        pieces = []
        for uid, u in sorted(state["units"].items()):
            s = stats(self.cat, state, uid)
            spec = self.cat.types[u["type"]]
            piece = {
                "at": u["at"],
                "id": uid,
                "color": COLORS[u["side"]],
                "text_color": "#ffffff",
                "title": spec["short"] + ("+" if u["level"] == "advanced" else ""),
                "values": f"{s['strength']}-{s['range']}-{s['speed']}",
            }
            if u["type"] in SYMBOLS:
                piece["symbol"] = SYMBOLS[u["type"]]
            if u["weak"]:
                piece["badge"] = str(sum(u["weak"]))
            if u["training"]:
                # In training: the symbol it will carry after its next preparation.
                goal = u["training"]
                piece["title"] += (
                    "→"
                    + self.cat.types[goal["type"]]["short"]
                    + ("+" if goal["level"] == "advanced" else "")
                )
            pieces.append(piece)
        arrows = []
        for e in events:
            if e.get("type") == "moved" and len(e["path"]) > 1:
                arrows.append({"path": list(e["path"]), "color": COLORS[e["side"]], "kind": "move"})
            elif e.get("type") in ("combat", "ballista", "scatter", "building_attacked") and e.get(
                "route"
            ):
                text = (
                    f"{e['attack']} vs {e['defence']}: {word(e['outcome'])}"
                    if e["type"] == "combat"
                    else "+".join(map(str, e["dice"]))
                    if e["type"] in ("ballista", "scatter")
                    else f"-{e['damage']}" + (f" {word('destroyed')}" if e["destroyed"] else "")
                )
                arrows.append(
                    {
                        "path": [e["route"][0], e["route"][-1]],
                        "color": "#000000",
                        "kind": "attack",
                        "text": text,
                    }
                )
        legend = [{"color": COLORS[s], "text": side_title(s)} for s in SIDES]
        on_map = set(state["tiles"].values())
        terrain_key = [
            {
                "color": spec["fill"],
                "text": f"{word(spec['title'])} +{spec['terrain_advantage']}"
                if spec["passable"]
                else f"{word(spec['title'])} ({word('impassable')})",
            }
            for name, spec in self.cat.landscapes.items()
            if name in on_map
        ]
        losses = [
            {
                "color": COLORS[s],
                "text": f"{side_title(s)} {word('lost:')}",
                "units": list(state.get("lost", {}).get(s, [])),
            }
            for s in SIDES
        ]
        free = sum(1 for t in state["supply"] if t["at"] is None)
        notes = [
            (
                f"{word('Supply')} {free}/{len(state['supply'])} {word('tiles free')} · "
                f"{word('Looting die')} {side_title('red')} {state['looting']['red']}, "
                f"{side_title('blue')} {state['looting']['blue']} · "
                f"{word('counters strength-range-speed, badge weakening')} · "
                + word('"Lumber 1/6 c3": attacks withstood, counter die 3')
            )
        ]
        return {
            "map_key": f"tactical-table-war/{key}",
            "grid": {"kind": "hex", "columns": state["columns"], "rows": state["rows"]},
            "title": self.title,
            "lang": lang,
            "cells": cells,
            "objectives": objectives,
            "pieces": pieces,
            "markers": [],
            "arrows": arrows,
            "header": present.header(self, state, lang),
            "legend": legend,
            "notes": notes,
            "terrain_key": terrain_key,
            "losses": losses,
        }

    def rules_reference(self, lang="en", state=None):
        return explain.rules_reference(self.cat, lang)

    def rules_summary(self, locale: str = "en") -> str:
        if locale.startswith("de"):
            return (
                "**Tactical Table War: Die Kunst der Belagerung** — Rot gegen Blau.\n"
                "**Fünf Phasen:** Vorbereitung (automatisch: Schwächungswürfel entfernen, Ausbildung "
                "abschließen, Schatzwürfel erhalten), Bewegung (`/move`), Rekrutierung (`/recruit`, "
                "`/train`), Bau (`/build`), Angriff (`/attack`); `/end-phase` beendet eine Phase.\n"
                "**Kampf:** Stärke + Angriffswürfel gegen Stärke + Landschaftsvorteil + Würfel − "
                "Schwächungswürfel; höher oder gleich tötet, sonst bleibt der Angriffswürfel als "
                "Schwächungswürfel liegen und der Verteidiger kontert, wenn seine Reichweite reicht.\n"
                "**Gebäude:** Steinbruch, Holzfällerlager, Schmiede, Festung, Tribock, Katapult/Balliste "
                "(`/scatter`, `/weaken`, `/strike`, `/counter`), Vorposten. Leitermänner bringen Einheiten auf "
                "die feindliche Mauer; wer darauf steht, greift die Burg an.\n"
                "**Sieg:** feindliche Burg zerstören, oder nach der letzten Runde die meisten Punkte "
                "(Schatzwürfel + Einheiten + Eroberungspunkte)."
            )
        return (
            "**Tactical Table War: Die Kunst der Belagerung** — Red against Blue.\n"
            "**Five phases:** preparation (automatic: weakening dice removed, training finished, "
            "treasure collected), movement (`/move`), recruitment (`/recruit`, `/train`), building "
            "(`/build`), attack (`/attack`); `/end-phase` ends a phase.\n"
            "**Combat:** strength + attack die against strength + terrain advantage + die − weakening "
            "dice; higher or equal kills, otherwise the attack die stays as a weakening die and the "
            "defender strikes back if its range reaches.\n"
            "**Buildings:** quarry, lumber camp, forge, fortress, trebuchet, catapult/ballista "
            "(`/scatter`, `/weaken`, `/strike`, `/counter`), outposts. Ladder men carry units onto the "
            "enemy wall; units on it attack the castle.\n"
            "**Victory:** destroy the enemy castle, or hold the best score after the last turn "
            "(treasure dice + units + capture points)."
        )
