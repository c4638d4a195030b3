"""Siege of Tenochtitlan (Aztecs vs Spanish, 1521): the complete ruleset.

Every clause is listed in ``docs/rules/tenochtitlan.md`` with the test that checks it and the
interpretation chosen. Data (map, terrain chart, units, cards) lives in ``data/tenochtitlan``.

Shape of the state (plain JSON)::

    game, scenario, turn, phase, active, awaiting, result      (engine/core/state.py)
    map            packaged map name or an inline map object
    last_turn      24
    roster         unit id -> type (every unit of the game, on the map or not)
    units          unit id -> {type, side, at, disorganised}   (units on the map)
    pool           unit ids still to be placed in the setup phase
    eliminated     unit ids in the eliminated box
    card           the active side's card in play (None before the draw)
    decks, discards  side -> card ids (deck top first; the order is hidden by ``view``)
    moved, attacked, fired, no_attack   unit ids, reset at each draw phase
    attacks_used   attacking units counted against the card this turn
    extra_melee    unit that advanced after a retreat before combat and may melee again
    returned       whether this turn's card already returned a unit
    pending        a decision owed by one side: evade / retreat / advance (or None)
    control        hex -> side, for objectives, villages, causeways and the aqueduct
    aztec_wins_at  the Spanish collapse threshold (6)

Legal actions and ``apply`` share one generator (``_candidates``), narrowed by action type
and unit in ``apply``, so the two cannot disagree.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import cast

from engine.core import hexgrid
from engine.core.dice import Dice
from engine.core.errors import Reason, RuleError, ScenarioError, keyed_of
from engine.core.hexgrid import UNREACHABLE
from engine.core.names import possessive
from engine.core.phases import TurnCycle
from engine.core.ruleset import Command, Option, Ruleset, Scenario

from . import present, setup_groups
from .data import SIDES, WATER_CLASSES, board_for, cards_by_id, unit_types
from .scenarios import PHASES, from_document, packaged_names, read_scenario

# The rule names the kinds per side: Aztec bowmen; Spanish artillery, arquebusiers, crossbowmen
# and brigantines (a group's own Aztec "artillery" would not fire defensively).
DEFENSIVE_FIRE_CLASSES = {
    "aztec": frozenset({"bowmen"}),
    "spanish": frozenset({"artillery", "arquebusiers", "crossbowmen", "brigantine"}),
}
ARTILLERY_CLASSES = frozenset({"artillery", "brigantine"})
ADVANCE_CLASSES = frozenset({"infantry", "cavalry"})
MAX_DEFENSIVE_FIRERS = 3
OTHER = {"spanish": "aztec", "aztec": "spanish"}


def cycle_for(state: dict) -> TurnCycle:
    return _cycle(state.get("last_turn", 24))


@functools.cache
def _cycle(last_turn: int) -> TurnCycle:
    return TurnCycle(
        phases=PHASES,
        sides=SIDES,
        reactive_phases=frozenset({"defensive-fire"}),
        last_turn=last_turn,
    )


@functools.lru_cache(maxsize=200_000)
def _sight(a: tuple, b: tuple) -> hexgrid.SightLine:
    return hexgrid.sight_line(a, b)


def los_clear(board, a: int, b: int, occupied, through_units: bool) -> bool:
    """Ranged line of sight. Terrain (and forts) that blocks, and units unless the shooter is
    artillery, block when the line crosses them. A line running exactly along a hexside is
    blocked only when the hexes on *both* sides block (``edge_rule="both"``)."""
    line = _sight(board.grid.hexes[a], board.grid.hexes[b])
    index = board.grid.index

    def blocks(h) -> bool:
        i = index.get(h)
        if i is None:
            return False
        return board.blocks[i] or (not through_units and i in occupied)

    for h in line.crossed:
        if blocks(h):
            return False
    for first, second in line.edges:
        if blocks(first) and blocks(second):
            return False
    return True


class Pos:
    """A read-only analysis of one state (occupancy, zones of control, the card in play)."""

    def __init__(self, state: dict):
        self.state = state
        self.board = board_for(state["map"])
        self.types = unit_types()
        self.units = state["units"]
        self.at: dict[int, str] = {}
        # Hexes holding two units: only possible during the movement phase (one unit per hex is
        # a rule for its end), listed first the unit that has moved there.
        self.stacked: dict[int, list[str]] = {}
        idx = self.board.grid.by_label
        for uid, u in sorted(self.units.items()):
            i = idx[u["at"]]
            if i in self.at:
                self.stacked.setdefault(i, [self.at[i]]).append(uid)
            self.at[i] = uid
        for i, uids in self.stacked.items():
            moved = state.get("moved", [])
            uids.sort(key=lambda x: (x not in moved, x))
        self.reach_cache: dict[str, tuple[dict[str, int], dict[int, int], int]] = {}
        self._zoc: dict[str, frozenset] = {}
        card_id = state.get("card")
        self.card = cards_by_id().get(card_id) if card_id else None

    # units
    def where(self, uid: str) -> int:
        return self.board.grid.by_label[self.units[uid]["at"]]

    def utype(self, uid: str) -> dict:
        return self.types[self.units[uid]["type"]]

    def cls(self, uid: str) -> str:
        return self.utype(uid)["class"]

    def side_units(self, side: str) -> list[str]:
        return sorted(uid for uid, u in self.units.items() if u["side"] == side)

    def zoc(self, side: str) -> frozenset:
        """Hexes in the zone of control of ``side``'s good-order (not disorganised) units."""
        if side not in self._zoc:
            adjacent = self.board.grid.adjacent
            hexes: set[int] = set()
            for i, uid in self.at.items():
                u = self.units[uid]
                if u["side"] == side and not u["disorganised"]:
                    hexes.update(adjacent[i])
            self._zoc[side] = frozenset(hexes)
        return self._zoc[side]

    def exerting(self, i: int, side: str) -> list[str]:
        """``side``'s good-order units whose zone of control covers hex ``i``."""
        out = []
        for n in self.board.grid.adjacent[i]:
            uid = self.at.get(n)
            if uid and self.units[uid]["side"] == side and not self.units[uid]["disorganised"]:
                out.append(uid)
        return out

    def dist(self, a: int, b: int) -> int:
        hexes = self.board.grid.hexes
        return hexgrid.distance(hexes[a], hexes[b])

    # cards
    def special(self, kind: str) -> dict | None:
        """The card's special rule of ``kind`` if the card in play has it and it applies."""
        card = self.card
        if not card or not card.get("special") or card["special"]["kind"] != kind:
            return None
        special = card["special"]
        if special.get("requires") == "aqueduct":
            control = self.state["control"]
            if not any(
                control.get(self.board.label(i)) == card["side"] for i in self.board.aqueduct
            ):
                return None
        return special

    def movement(self, uid: str) -> int:
        t = self.utype(uid)
        bonus = self.special("movement_bonus")
        extra = (
            bonus["bonus"]
            if bonus
            and t["class"] in bonus["classes"]
            and self.units[uid]["side"] == self.state["active"]
            else 0
        )
        return t["movement"] + extra

    def attack_bonus(self, attackers: list[str]) -> int:
        bonus = self.special("attack_bonus")
        if bonus and any(self.cls(a) in bonus["classes"] for a in attackers):
            return bonus["bonus"]
        return 0

    def move_limit(self) -> int:
        return self.card["move"] if self.card else 0

    def attack_limit(self) -> int:
        return self.card["attack"] if self.card else 0


def fast_clone(state: dict) -> dict:
    """A deep copy of plain JSON data (several times faster than copy.deepcopy)."""
    return json.loads(json.dumps(state))


def _charge(state: dict, attackers: list[str]) -> int:
    """How many units an attack adds to the card's count of attacking units. The card limits
    "die Anzahl der Einheiten, die angreifen dürfen, nicht ... die Anzahl der Angriffe": a unit
    that has attacked this turn (the extra melee after an advance) is already counted."""
    return sum(1 for uid in attackers if uid not in state["attacked"])


def _points(half: int) -> str:
    """Movement points counted in halves (road steps cost half a point), as a reader writes
    them: "3", "2½"."""
    whole, rest = divmod(half, 2)
    return f"{whole}½" if rest and whole else ("½" if rest else str(whole))


def _unit_number(uid: str) -> str:
    return uid.rsplit("-", 1)[-1]


class Tenochtitlan(Ruleset):
    name = "tenochtitlan"
    title = "Siege of Tenochtitlan"
    sides = SIDES
    side_titles = {"spanish": "Spanish", "aztec": "Aztec"}
    # The rulebook's own German words (Spielablauf: "Kartenziehen", "Bewegung", ...).
    translations = {
        "de": {
            "Spanish": "Spanier",
            "Aztec": "Azteken",
            "Setup": "Aufstellung",
            "Draw card": "Kartenziehen",
            "Movement": "Bewegung",
            "Defensive fire": "Defensivfeuer",
            "Combat": "Kampf",
            "Rally": "Neuorganisation",
            "setup": "Aufstellung",
            "draw": "Kartenziehen",
            "movement": "Bewegung",
            "defensive-fire": "Defensivfeuer",
            "combat": "Kampf",
            "rally": "Neuorganisation",
            "retreat": "Rückzug",
            "advance": "Nachrücken",
            "evade": "Ausweichen",
            "Turn": "Spielzug",
            "Phase": "Phase",
            "Active": "Aktive Seite",
            "Card": "Karte",
            "Used": "Genutzt",
            "Waiting": "Wartet auf",
            "Result": "Ergebnis",
            "draw_result": "Remis",
            "infantry": "Infanterie",
            "cavalry": "Kavallerie",
            "artillery": "Artillerie",
            "arquebusiers": "Arkebusiere",
            "crossbowmen": "Armbrustschützen",
            "bowmen": "Bogenschützen",
            "brigantine": "Brigantine",
            "canoe": "Kanu",
            "Tlaxcalan ally: does not count for the Aztec victory.": "Tlaxcaltekischer "
            "Verbündeter: zählt nicht für den Sieg der Azteken.",
            "tenochtitlan.not_your_decision": "Für {side} gibt es jetzt nichts zu entscheiden; "
            "die Partie wartet auf {waiting}.",
            "tenochtitlan.card_demands_attack": "Die ausgespielte Karte verlangt einen Angriff, und "
            "einer ist möglich.",
            "tenochtitlan.one_per_hex": "Am Ende der Bewegungsphase darf nur eine Einheit auf jedem "
            "Feld stehen: auf {cell} stehen {units}; {mover} muss "
            "weiterziehen, bevor die Phase endet oder eine andere "
            "Einheit zieht.",
            "tenochtitlan.not_during_phase": "/{command} ist in der Phase {phase} nicht möglich.",
            "tenochtitlan.not_during_decision": "/{command} ist während einer Entscheidung "
            "({phase}) nicht möglich.",
            "tenochtitlan.no_unit_on_map": "Es gibt keine Einheit {unit!r} auf dem Brett.",
            "tenochtitlan.not_yours": "{unit} gehört dir nicht.",
            "tenochtitlan.disorganised": "{unit} ist desorganisiert und darf erst nach der "
            "Neuorganisation wieder ziehen oder angreifen.",
            "tenochtitlan.already_moved": "{unit} hat sich in diesem Spielzug schon bewegt.",
            "tenochtitlan.move_limit": "Die Karte erlaubt {limit} Einheiten zu ziehen, und sie "
            "haben gezogen.",
            "tenochtitlan.cannot_reach": "{unit} kann seinen Zug in diesem Spielzug nicht auf "
            "{cell} beenden: {points} Bewegungspunkte, Geländekosten, "
            "keine Feindfelder, Halt beim Betreten feindlicher "
            "Kontrollzonen oder haltenden Geländes, am Ende eine "
            "Einheit pro Feld.",
            "tenochtitlan.move_in_place": "{unit} steht schon auf {cell}.",
            "tenochtitlan.enemy_there": "Auf {cell} steht der Feind {enemy}; kein Feld eines "
            "Feindes wird betreten.",
            "tenochtitlan.water_unit_ashore": "{unit} kann den Zug nicht auf {cell} ({place}) "
            "beenden: Boote halten nur auf Wasser (Dämme und Brücken dürfen sie überqueren).",
            "tenochtitlan.land_unit_afloat": "{unit} kann {cell} ({place}) nicht betreten: "
            "Landeinheiten betreten kein Wasser.",
            "tenochtitlan.too_far": "{unit} braucht {need} Bewegungspunkte bis {cell} und hat "
            "{have}.",
            "tenochtitlan.zoc_to_zoc": "{unit} steht in einer feindlichen Kontrollzone und darf "
            "nicht direkt in eine andere ziehen ({at}) auf dem Weg nach {cell}.",
            "tenochtitlan.zoc_stops": "Das Betreten der feindlichen Kontrollzone auf {at} beendet "
            "den Zug von {unit} vor {cell}.",
            "tenochtitlan.terrain_stops": "Das Betreten von {at} ({place}) beendet den Zug von "
            "{unit} vor {cell}.",
            "tenochtitlan.no_way": "Kein Weg führt {unit} nach {cell}.",
            "tenochtitlan.enemies_bar": "Feindliche Einheiten versperren {unit} jeden Weg nach "
            "{cell}; kein Feld eines Feindes wird betreten.",
            "tenochtitlan.already_attacked": "{unit} hat in diesem Spielzug schon angegriffen.",
            "tenochtitlan.attack_limit": "Die Karte erlaubt {limit} angreifende Einheiten, und "
            "{used} haben angegriffen.",
            "tenochtitlan.not_disorganised": "{unit} ist nicht desorganisiert.",
            "tenochtitlan.not_enemy": "{target!r} ist keine feindliche Einheit auf dem Brett.",
            "tenochtitlan.out_of_range": "{target} ist {distance} Felder von {unit} entfernt; "
            "die Reichweite ist {range}.",
            "tenochtitlan.moved_adjacent_only": "{unit} hat sich in diesem Spielzug bewegt und "
            "darf nur einen benachbarten Feind angreifen.",
            "tenochtitlan.sight_blocked": "Die Sichtlinie von {unit} zu {target} ist blockiert.",
            "tenochtitlan.zoc_attack": "{unit} steht in einer feindlichen Kontrollzone und darf "
            "nur die Einheiten angreifen, die sie ausüben.",
            "tenochtitlan.not_in_pool": "{unit!r} ist keine deiner Einheiten, die noch "
            "aufgestellt werden.",
            "tenochtitlan.hex_taken": "Auf {cell} steht schon {unit}; eine Einheit je Feld.",
            "tenochtitlan.setup_canoes": "Kanus werden auf Seefeldern neben Tenochtitlan oder im "
            "Kanal aufgestellt.",
            "tenochtitlan.setup_causeway_full": "Auf dem Damm {causeway} stehen schon zwei "
            "aztekische Einheiten (höchstens zwei je Damm).",
            "tenochtitlan.setup_aztec": "Aztekische Einheiten werden in Tenochtitlan oder auf "
            "einem Damm aufgestellt.",
            "tenochtitlan.setup_brigantines": "Brigantinen werden auf dem Texcoco-See außerhalb "
            "der Dämme aufgestellt (dem südlichen See).",
            "tenochtitlan.setup_spanish_not_there": "Spanische Landeinheiten dürfen nicht in "
            "Tenochtitlan, auf einem Damm oder auf Wasser aufgestellt werden.",
            "tenochtitlan.setup_spanish_village": "Spanische Landeinheiten werden höchstens 3 "
            "Felder von einem aztekischen Dorf entfernt aufgestellt.",
            "tenochtitlan.setup_spanish_groups": "Eine Einheit dort ließe keine Aufstellung mehr "
            "zu, die in genau drei Gruppen (Einheiten auf zusammenhängenden Feldern) zu "
            "mindestens vier Einheiten endet, jede höchstens 3 Felder von ihrem eigenen "
            "aztekischen Dorf.",
            "tenochtitlan.stop_on_friend": "Auf {cell} steht {friend}. Eine Einheit darf nur auf "
            "einer eigenen anhalten, wenn diese in dieser Phase noch auf ein leeres Feld "
            "weiterziehen kann (Zuglimit der Karte, noch nicht gezogen, nicht desorganisiert): "
            "am Ende der Bewegungsphase eine Einheit je Feld.",
            "tenochtitlan.no_attack_terrain": "{unit} hat Gelände betreten, das in diesem "
            "Spielzug keinen Angriff erlaubt.",
            "tenochtitlan.fire_classes": "Defensivfeuer geben nur aztekische Bogenschützen, "
            "spanische Artillerie, Arkebusiere, Armbrustschützen und Brigantinen.",
            "tenochtitlan.three_fired": "Drei Einheiten haben schon Defensivfeuer gegeben.",
            "tenochtitlan.rally_in_zoc": "{unit} steht in einer feindlichen Kontrollzone und "
            "kann sich nicht neu organisieren.",
            "tenochtitlan.only_retreats": "Jetzt weicht nur {unit} zurück.",
            "tenochtitlan.retreat_how": "{unit} muss zwei Felder zurückweichen, jeder Schritt "
            "weiter weg von den Angreifern, auf ein leeres Feld außerhalb feindlicher "
            "Kontrollzonen (eigene Einheiten dürfen passiert werden).",
            "tenochtitlan.advance_how": "Nur {units} darf nachrücken, und nur in das frei "
            "gewordene Feld {cell}: eine angreifende Infanterie- oder Kavallerieeinheit daneben "
            "und außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.not_partner": "{unit!r} ist keine andere eigene Einheit auf dem Brett "
            "für einen gemeinsamen Angriff.",
            "tenochtitlan.is_disorganised": "{unit} ist desorganisiert.",
            "tenochtitlan.ref_water": "{unit} kann nur auf Wasser stehen, nicht auf {cell}.",
            "tenochtitlan.ref_land": "{unit} kann nicht auf dem Wasserfeld {cell} stehen.",
            "tenochtitlan.ref_stacked": "Auf {cell} stehen {units}; setze eine davon mit "
            "ref-place um, bevor du die Phase änderst.",
            # a card's return of an eliminated unit ("Erlaubt eine Karte die Rückkehr einer
            # eliminierten Einheit ins Spiel ...")
            "tenochtitlan.not_eliminated": "{unit!r} ist keine deiner eliminierten Einheiten.",
            "tenochtitlan.not_a_hex": "{cell!r} ist kein Feld dieser Karte.",
            "tenochtitlan.no_return": "Die ausgespielte Karte bringt keine (weitere) eliminierte "
            "Einheit zurück.",
            "tenochtitlan.return_classes": "Die Karte bringt nur Einheiten dieser Art zurück: "
            "{classes}.",
            "tenochtitlan.return_where_default_land": "Die Karte bringt die Einheit auf ein "
            "leeres Feld neben einer eigenen, nicht desorganisierten Einheit zurück, an Land, "
            "außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.return_where_default_water": "Die Karte bringt die Einheit auf ein "
            "leeres Feld neben einer eigenen, nicht desorganisierten Einheit zurück, auf dem "
            "Wasser, außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.return_where_city_land": "Die Karte bringt die Einheit auf ein leeres "
            "Feld von Tenochtitlan zurück, an Land, außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.return_where_city_water": "Die Karte bringt die Einheit auf ein leeres "
            "Feld von Tenochtitlan zurück, auf dem Wasser, außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.return_where_village_land": "Die Karte bringt die Einheit auf ein leeres "
            "Feld in oder neben einem Dorf zurück, an Land, außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.return_where_village_water": "Die Karte bringt die Einheit auf ein "
            "leeres Feld in oder neben einem Dorf zurück, auf dem Wasser, außerhalb feindlicher "
            "Kontrollzonen.",
            "tenochtitlan.return_where_named_land": "Die Karte bringt die Einheit auf das Feld "
            "zurück, das sie nennt, an Land, außerhalb feindlicher Kontrollzonen.",
            "tenochtitlan.return_where_named_water": "Die Karte bringt die Einheit auf das Feld "
            "zurück, das sie nennt, auf dem Wasser, außerhalb feindlicher Kontrollzonen.",
        }
    }
    phases = PHASES
    setup_phases = ("setup",)
    default_scenario = "standard"
    commands = (
        Command(
            "place",
            "Place a unit (setup) or return an eliminated unit (card)",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Hex")),
            {"de": "Einheit aufstellen oder eliminierte Einheit zurückbringen"},
        ),
        Command(
            "move",
            "Move a unit",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Destination hex")),
            {"de": "Einheit bewegen"},
        ),
        Command(
            "fire",
            "Defensive fire at an enemy unit",
            (Option("unit", "unit", "Your unit"), Option("target", "target", "Enemy unit")),
            {"de": "Defensivfeuer auf eine feindliche Einheit"},
        ),
        Command(
            "attack",
            "Attack an enemy unit (with: a second unit for a combined attack)",
            (
                Option("unit", "unit", "Attacking unit"),
                Option("target", "target", "Enemy unit"),
                Option("with", "unit", "Second unit of a combined attack", required=False),
            ),
            {"de": "Angreifen (with: zweite Einheit für einen kombinierten Angriff)"},
        ),
        Command(
            "retreat",
            "Retreat a unit (forced, or before combat)",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Destination hex")),
            {"de": "Einheit zurückziehen"},
        ),
        Command(
            "advance",
            "Advance after combat into the vacated hex",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Vacated hex")),
            {"de": "Nach dem Kampf vorrücken"},
        ),
        Command(
            "pass",
            "Decline: stand and fight instead of retreating, hold a fort, or do not advance",
            (),
            {"de": "Verzichten: stehen bleiben, das Fort halten oder nicht vorrücken"},
        ),
        Command(
            "rally",
            "Rally a disorganised unit",
            (Option("unit", "unit", "Your unit"),),
            {"de": "Desorganisierte Einheit neu ordnen"},
        ),
        Command("end-phase", "End the current phase", (), {"de": "Phase beenden"}),
    )

    # ----- scenarios and setup ---------------------------------------------------------------
    def scenarios(self) -> list[Scenario]:
        out = []
        for name in packaged_names():
            sc = read_scenario(name)
            out.append(Scenario(name, sc["title"], sc["description"]))
        return out

    def packaged_names(self) -> list[str]:
        return packaged_names()

    def load_scenario(self, name: str) -> dict:
        return read_scenario(name or self.default_scenario)

    def scenario_from_document(self, document: dict, label: str) -> dict:
        return from_document(document, label)

    def setup(self, scenario: dict, dice: Dice) -> tuple[dict, list[dict]]:
        types = unit_types()
        events: list[dict] = [{"type": "scenario", "name": scenario["name"]}]
        roster = {uid: u["type"] for uid, u in scenario["units"].items()}
        roster.update(scenario["eliminated"])
        units = {}
        pool = []
        moved: list[str] = []
        attacked: list[str] = []
        fired: list[str] = []
        no_attack: list[str] = []
        for uid, u in sorted(scenario["units"].items()):
            if u["at"] is None:
                pool.append(uid)
                continue
            units[uid] = {
                "type": u["type"],
                "side": types[u["type"]]["side"],
                "at": u["at"],
                "disorganised": u["disorganised"],
            }
            for key, lst in (
                ("moved", moved),
                ("attacked", attacked),
                ("fired", fired),
                ("no_attack", no_attack),
            ):
                if u[key]:
                    lst.append(uid)
        decks = {}
        for side in SIDES:
            if side in scenario["decks"]:
                decks[side] = list(scenario["decks"][side])
            else:
                decks[side] = dice.shuffle(
                    scenario["unused_cards"][side], f"shuffle the {side} deck", events
                )
        board = board_for(scenario["map"])
        control = {board.label(i): "aztec" for i in board.control_hexes}
        control.update(scenario["control"])
        state = {
            "game": self.name,
            "scenario": scenario["name"],
            "turn": scenario["turn"],
            "phase": scenario["phase"],
            "active": scenario["active"],
            "awaiting": [],
            "result": None,
            "map": scenario["map"],
            "last_turn": scenario["last_turn"],
            "roster": roster,
            "units": units,
            "pool": pool,
            "eliminated": sorted(scenario["eliminated"]),
            "card": scenario["card"],
            "decks": decks,
            "discards": {s: list(v) for s, v in scenario["discards"].items()},
            "moved": moved,
            "attacked": attacked,
            "fired": fired,
            "no_attack": no_attack,
            "attacks_used": scenario["attacks_used"],
            "extra_melee": scenario["extra_melee"],
            "returned": scenario["returned"],
            "pending": None,
            "control": control,
            "aztec_wins_at": scenario["aztec_wins_at"],
        }
        if scenario.get("suggested"):
            state["suggested"] = scenario["suggested"]
        for uid, u in units.items():
            self._occupy(state, board, u["at"], u["side"], None)
        if state["phase"] == "setup":
            self._check_spanish_setup_possible(state, scenario["name"])
            self._next_setup_side(state, events, dice, start=True)
        elif state["phase"] == "draw" and state["card"] is None:
            self._enter(state, "draw", events, dice)
        self._settle(state, events, dice)
        return state, events

    # ----- whose decision ----------------------------------------------------------------------
    def awaiting(self, state: dict) -> list[str]:
        if state.get("result"):
            return []
        return list(state.get("awaiting") or [])

    # ----- legal actions -------------------------------------------------------------------------
    def legal_actions(self, state: dict, side: str) -> list[dict]:
        if state.get("result") or side not in self.awaiting(state):
            return []
        return self._candidates(state, side)

    def _candidates(
        self, state: dict, side: str, kind: str | None = None, unit: str | None = None
    ) -> list[dict]:
        """Every legal action of ``side`` (optionally only of one type / one unit)."""
        pos = Pos(state)
        pending = state.get("pending")
        out: list[dict] = []

        def want(k: str) -> bool:
            return kind is None or kind == k

        if pending:
            if pending["side"] != side:
                return []
            if pending["kind"] in ("evade", "retreat") and want("retreat"):
                out += [
                    {"type": "retreat", "side": side, "unit": pending["unit"], "to": lab}
                    for lab in pending["options"]
                ]
            if pending["kind"] == "advance" and want("advance"):
                out += [
                    {"type": "advance", "side": side, "unit": uid, "to": pending["to"]}
                    for uid in pending["units"]
                ]
            if (pending["kind"] in ("evade", "advance") or pending.get("optional")) and want(
                "pass"
            ):
                out.append({"type": "pass", "side": side})
            return out
        phase = state["phase"]
        if phase == "setup":
            if want("place"):
                out += self._setup_places(pos, side, unit)
            return out
        if phase == "draw":
            if want("place"):
                out += self._return_places(pos, side, unit)
        elif phase == "movement":
            if want("move"):
                for uid in [unit] if unit else pos.side_units(side):
                    if uid in pos.units and pos.units[uid]["side"] == side:
                        out += [
                            {"type": "move", "side": side, "unit": uid, "to": lab}
                            for lab in self._move_options(pos, uid)
                        ]
        elif phase == "defensive-fire":
            if want("fire"):
                out += self._fire_actions(pos, side, unit)
        elif phase == "combat":
            if want("attack"):
                out += self._attack_actions(pos, side, unit)
        elif phase == "rally":
            if want("rally"):
                out += self._rally_actions(pos, side, unit)
        if want("end-phase") and self._may_end_phase(pos, side):
            out.append({"type": "end-phase", "side": side})
        return out

    def _may_end_phase(self, pos: Pos, side: str) -> bool:
        state = pos.state
        if state["phase"] == "movement" and pos.stacked:
            return False
        if (
            state["phase"] == "combat"
            and state["attacks_used"] == 0
            and pos.special("mandatory_attack")
        ):
            return not self._attack_actions(pos, side, None, first_only=True)
        return True

    # --- setup placement
    def _setup_places(self, pos: Pos, side: str, unit: str | None) -> list[dict]:
        state = pos.state
        if side != state["active"]:
            return []
        pool = [u for u in state["pool"] if unit is None or u == unit]
        types = pos.types
        by_kind: dict[str, list[str]] = {}
        out = []
        for uid in pool:
            t = types[state["roster"][uid]]
            if t["side"] != side:
                continue
            kind = "water" if t["class"] in WATER_CLASSES else "land"
            if kind not in by_kind:
                by_kind[kind] = self._setup_hexes(pos, side, kind)
            out += [
                {"type": "place", "side": side, "unit": uid, "to": lab} for lab in by_kind[kind]
            ]
        return out

    def _setup_hexes(self, pos: Pos, side: str, kind: str) -> list[str]:
        board = pos.board
        n = len(board.grid)
        free = [i for i in range(n) if i not in pos.at]
        if side == "aztec":
            if kind == "water":
                # Canoes: lake hexes next to Tenochtitlan, or the canal.
                return [
                    board.label(i)
                    for i in free
                    if board.medium[i] == "water"
                    and (
                        board.city[i]
                        or any(
                            board.city[j] and board.medium[j] != "water"
                            for j in board.grid.adjacent[i]
                        )
                    )
                ]
            per_causeway: dict[str, int] = {}
            for i, uid in pos.at.items():
                name = board.causeway_of[i]
                if name and pos.units[uid]["side"] == "aztec":
                    per_causeway[name] = per_causeway.get(name, 0) + 1
            out = []
            for i in free:
                if board.medium[i] == "water":
                    continue
                name = board.causeway_of[i]
                if board.city[i] or (name and per_causeway.get(name, 0) < 2):
                    out.append(board.label(i))
            return out
        if kind == "water":
            return [board.label(i) for i in free if i in board.brigantine_setup]
        return self._spanish_land_hexes(pos, free)

    def _spanish_land_hexes(self, pos: Pos, free: list[int]) -> list[str]:
        """Hexes where a Spanish land unit may be placed: eligible for the three-group rule and
        leaving a setup that can still be completed (``setup_groups`` shows why this can never
        get stuck)."""
        board, state = pos.board, pos.state
        types = pos.types
        placed = [
            i
            for i, uid in pos.at.items()
            if pos.units[uid]["side"] == "spanish"
            and types[pos.units[uid]["type"]]["class"] not in WATER_CLASSES
        ]
        others = set(pos.at) - set(placed)
        left = (
            sum(
                1
                for uid in state["pool"]
                if types[state["roster"][uid]]["side"] == "spanish"
                and types[state["roster"][uid]]["class"] not in WATER_CLASSES
            )
            - 1
        )
        return [board.label(i) for i in setup_groups.offered_hexes(board, placed, others, left)]

    def _check_spanish_setup_possible(self, state: dict, file: str) -> None:
        """A setup scenario whose Spanish land units could never form the three groups would
        leave the Spanish with no legal placement; refuse it when it is loaded instead."""
        pos = Pos(state)
        types = pos.types
        pool = [
            u
            for u in state["pool"]
            if types[state["roster"][u]]["side"] == "spanish"
            and types[state["roster"][u]]["class"] not in WATER_CLASSES
        ]
        if not pool:
            return
        placed = [
            i
            for i, uid in pos.at.items()
            if pos.units[uid]["side"] == "spanish"
            and types[pos.units[uid]["type"]]["class"] not in WATER_CLASSES
        ]
        if not setup_groups.completable(pos.board, placed, set(pos.at) - set(placed), len(pool)):
            raise ScenarioError(
                file,
                "units",
                (
                    f"the {len(pool)} Spanish land units still to place cannot form three groups of at "
                    f"least four, each within 3 hexes of its own village, on this map"
                ),
            )

    def spanish_setup_valid(self, state: dict) -> bool:
        """The finished Spanish setup obeys the three-group rule (used by tests and checks)."""
        pos = Pos(state)
        placed = [
            i
            for i, uid in pos.at.items()
            if pos.units[uid]["side"] == "spanish"
            and pos.types[pos.units[uid]["type"]]["class"] not in WATER_CLASSES
        ]
        return setup_groups.legal_setup(pos.board, placed)

    # --- returning eliminated units (card special)
    def _return_places(self, pos: Pos, side: str, unit: str | None) -> list[dict]:
        state = pos.state
        if side != state["active"] or state.get("returned"):
            return []
        special = pos.special("return_unit")
        if not special:
            return []
        out = []
        cache: dict[str, list[str]] = {}
        for uid in state["eliminated"]:
            if unit is not None and uid != unit:
                continue
            t = pos.types[state["roster"][uid]]
            if t["side"] != side or t["class"] not in special["classes"]:
                continue
            kind = "water" if t["class"] in WATER_CLASSES else "land"
            if kind not in cache:
                cache[kind] = self._return_hexes(pos, side, kind, special.get("where", "default"))
            out += [{"type": "place", "side": side, "unit": uid, "to": lab} for lab in cache[kind]]
        return out

    def _return_hexes(self, pos: Pos, side: str, kind: str, where: str) -> list[str]:
        board = pos.board
        enemy_zoc = pos.zoc(OTHER[side])
        hexes = board.grid.hexes
        villages = list(board.villages.values())
        out = []
        for i in range(len(hexes)):
            if i in pos.at or i in enemy_zoc:
                continue
            if (board.medium[i] == "water") != (kind == "water"):
                continue
            if where == "default":
                ok = any(
                    (uid := pos.at.get(n))
                    and pos.units[uid]["side"] == side
                    and not pos.units[uid]["disorganised"]
                    for n in board.grid.adjacent[i]
                )
            elif where == "city":
                ok = board.city[i]
            else:
                ok = any(hexgrid.distance(hexes[i], hexes[v]) <= 1 for v in villages)
            if ok:
                out.append(board.label(i))
        return out

    # --- movement
    def _move_options(self, pos: Pos, uid: str) -> list[str]:
        """Destination labels of a unit that may move now.

        Moves may end on a friend ("Am Ende der Bewegungsphase darf sich nur eine Einheit auf
        jedem Feld befinden": the rule binds the end of the phase). So that the phase can always
        still end, at most one hex holds two units at a time, its unit that has not moved must
        move on before any other unit moves, and a move onto a friend is offered only if that
        friend (or a chain of friends it could move onto in turn) can still reach an empty hex
        within the card's move limit. The order of moves changes nothing else: a unit's reach
        never depends on where its friends stand, only on enemies and terrain (a brigantine's
        crossing needs a friend on the causeway hex, and that hex holds one both before and after
        any stack is made and resolved)."""
        state = pos.state
        if pos.stacked:
            if not any(uid in uids and uid not in state["moved"] for uids in pos.stacked.values()):
                return []
        ends = self._reach(pos, uid)[0]
        if not ends:
            return []
        budget = pos.move_limit() - len(state["moved"]) - 1
        start = pos.where(uid)
        vacated = frozenset() if start in pos.stacked else frozenset({start})
        out = []
        for lab, i in ends.items():
            friend = pos.at.get(i)
            if i in pos.stacked:
                continue
            if friend is None or self._can_clear(pos, friend, budget, vacated, frozenset({uid})):
                out.append(lab)
        return sorted(out)

    def _can_clear(
        self, pos: Pos, uid: str, budget: int, vacated: frozenset, seen: frozenset
    ) -> bool:
        """Whether ``uid``, joined on its hex by a friend, can still move off it to an empty hex
        (``vacated``: hexes emptied meanwhile), directly or by pushing on a chain of unmoved
        friends, with ``budget`` moves left on the card."""
        state = pos.state
        if budget < 1 or uid in state["moved"] or pos.units[uid]["disorganised"]:
            return False
        ends = self._reach_all(pos, uid)
        if any(i not in pos.at or i in vacated for i in ends.values()):
            return True
        return any(
            pos.at[i] not in seen
            and self._can_clear(pos, pos.at[i], budget - 1, vacated, seen | {uid})
            for i in ends.values()
            if pos.at[i] not in seen
        )

    def _move_path(self, pos: Pos, uid: str, lab: str) -> list[str]:
        ends, parent, start = self._reach(pos, uid)
        board = pos.board
        return [board.label(j) for j in hexgrid.path_to(parent, start, ends[lab])]

    def _reach_all(self, pos: Pos, uid: str) -> dict[str, int]:
        """Where ``uid`` could end a move (friends' hexes included), whatever the card's count."""
        return self._reach(pos, uid, ignore_count=True)[0]

    def _reach(
        self, pos: Pos, uid: str, ignore_count: bool = False
    ) -> tuple[dict[str, int], dict[int, int], int]:
        """(destination label -> hex index, parent links, start index) for a unit that may move;
        destinations include friends' hexes (enemy hexes never)."""
        if not ignore_count and len(pos.state["moved"]) >= pos.move_limit():
            return {}, {}, 0
        if uid not in pos.reach_cache:
            pos.reach_cache[uid] = self._compute_reach(pos, uid)
        return pos.reach_cache[uid]

    def _compute_reach(self, pos: Pos, uid: str) -> tuple[dict[str, int], dict[int, int], int]:
        state = pos.state
        u = pos.units[uid]
        if u["side"] != state["active"] or u["disorganised"] or uid in state["moved"]:
            return {}, {}, 0
        ends, parent, start = self._search(pos, uid, pos.movement(uid))
        labels = pos.board.grid.labels
        medium = pos.board.medium
        # Water units pass causeways and bridges but never stop on them.
        water = pos.cls(uid) in WATER_CLASSES
        out = {labels[i]: i for i in ends if not water or medium[i] == "water"}
        return out, parent, start

    def _search(
        self,
        pos: Pos,
        uid: str,
        points: int,
        zoc: bool = True,
        stops: bool = True,
        enemies: bool = True,
    ) -> tuple[dict[int, int], dict[int, int], int]:
        """The movement search for ``uid`` with ``points`` movement points (costs in half
        points); without ``zoc`` or ``stops`` it shows what enemy zones of control or stopping
        terrain took away, for a refusal's reason."""
        board = pos.board
        u = pos.units[uid]
        cls = pos.cls(uid)
        start = pos.where(uid)
        side = u["side"]
        enemy = {i for i, other in pos.at.items() if pos.units[other]["side"] != side}
        if not enemies:
            enemy = set()
        cost: Sequence[int]
        if cls == "canoe":
            cost = board.cost_canoe
        elif cls == "brigantine":
            cost = priced = list(board.cost_brigantine)
            # A brigantine crosses a causeway (never a bridge) only "dort, wo eine befreundete
            # Landeinheit ist": on the causeway hex a friendly land unit stands on (passing
            # through that friend), paying the higher crossing cost.
            for cw in board.causeways.values():
                for i in cw["hexes"]:
                    if board.bridge[i]:
                        continue
                    if (
                        (o := pos.at.get(i))
                        and pos.units[o]["side"] == side
                        and pos.cls(o) not in WATER_CLASSES
                    ):
                        priced[i] = board.brigantine_causeway_cost
        else:
            cost = board.cost_land
        water = cls in WATER_CLASSES
        # reachable takes a tuple as well (fixed costs are then prepared once per map).
        ends, parent = hexgrid.reachable(
            board.grid,
            start,
            points,
            cast(list, cost),
            enemy=enemy,
            enemy_zoc=pos.zoc(OTHER[side]),
            stops=frozenset() if water or not stops else board.stops,
            ignore_zoc=water or not zoc,
            road_links=frozenset() if water else board.road_links,
        )
        return ends, parent, start

    # --- combat and defensive fire
    def _targets(self, pos: Pos, uid: str, defensive: bool) -> list[str]:
        """Enemy units ``uid`` may attack on its own now (range, line of sight, ZOC, moved)."""
        state, board = pos.state, pos.board
        u = pos.units[uid]
        cls = pos.cls(uid)
        rng = pos.utype(uid)["range"]
        a = pos.where(uid)
        enemy_side = OTHER[u["side"]]
        melee_only = False
        if not defensive:
            if uid in state["moved"] and cls != "brigantine":
                melee_only = True  # moved units only attack adjacent enemies
            if uid in state["attacked"] and uid == state.get("extra_melee"):
                melee_only = True  # the extra attack after an advance is melee only
        restrict = None
        if cls not in WATER_CLASSES and a in pos.zoc(enemy_side):
            restrict = set(pos.exerting(a, enemy_side))
        out = []
        for b, tid in pos.at.items():
            if pos.units[tid]["side"] != enemy_side:
                continue
            d = pos.dist(a, b)
            if d > rng or (d > 1 and melee_only):
                continue
            if restrict is not None and tid not in restrict:
                continue
            if d > 1 and not los_clear(board, a, b, pos.at, cls in ARTILLERY_CLASSES):
                continue
            out.append(tid)
        return sorted(out)

    def _may_attack(self, pos: Pos, uid: str) -> bool:
        state = pos.state
        u = pos.units[uid]
        if u["side"] != state["active"] or u["disorganised"] or uid in state["no_attack"]:
            return False
        return uid not in state["attacked"] or uid == state.get("extra_melee")

    def _attack_actions(
        self, pos: Pos, side: str, unit: str | None, first_only: bool = False
    ) -> list[dict]:
        state = pos.state
        if side != state["active"]:
            return []
        remaining = pos.attack_limit() - state["attacks_used"]
        attackers = [
            uid
            for uid in pos.side_units(side)
            if self._may_attack(pos, uid) and _charge(state, [uid]) <= remaining
        ]
        if not attackers:
            return []
        targets = {uid: self._targets(pos, uid, False) for uid in attackers}
        out = []
        for uid in attackers:
            if unit is not None and uid != unit:
                continue
            for tid in targets[uid]:
                out.append({"type": "attack", "side": side, "unit": uid, "target": tid})
                if first_only:
                    return out
                for other in attackers:
                    if (
                        other != uid
                        and tid in targets[other]
                        and _charge(state, [uid, other]) <= remaining
                    ):
                        out.append(
                            {
                                "type": "attack",
                                "side": side,
                                "unit": uid,
                                "target": tid,
                                "with": other,
                            }
                        )
        return out

    def _fire_actions(self, pos: Pos, side: str, unit: str | None) -> list[dict]:
        state = pos.state
        if side == state["active"] or len(state["fired"]) >= MAX_DEFENSIVE_FIRERS:
            return []
        if pos.special("no_defensive_fire"):
            return []
        out = []
        for uid in pos.side_units(side):
            if unit is not None and uid != unit:
                continue
            u = pos.units[uid]
            if (
                u["disorganised"]
                or uid in state["fired"]
                or pos.cls(uid) not in DEFENSIVE_FIRE_CLASSES[side]
            ):
                continue
            out += [
                {"type": "fire", "side": side, "unit": uid, "target": tid}
                for tid in self._targets(pos, uid, True)
            ]
        return out

    def _rally_actions(self, pos: Pos, side: str, unit: str | None) -> list[dict]:
        if side != pos.state["active"]:
            return []
        zoc = pos.zoc(OTHER[side])
        return [
            {"type": "rally", "side": side, "unit": uid}
            for uid in pos.side_units(side)
            if (unit is None or uid == unit)
            and pos.units[uid]["disorganised"]
            and pos.where(uid) not in zoc
        ]

    def _retreat_options(self, pos: Pos, uid: str, attackers_at: list[int]) -> list[str]:
        """Hexes two steps away, each step farther from every attacker (the rule's "2 hexes away
        from the attacker": the unit ends two hexes farther off than it stood), empty, outside
        enemy ZOC, reached through a hex the unit may enter (friends may be passed, enemies not)."""
        board = pos.board
        cls = pos.cls(uid)
        side = pos.units[uid]["side"]
        start = pos.where(uid)
        zoc = pos.zoc(OTHER[side])
        cost: Sequence[int]
        if cls == "canoe":
            cost = board.cost_canoe
        elif cls == "brigantine":
            cost = board.cost_brigantine
        else:
            cost = board.cost_land
        water = cls in WATER_CLASSES
        out = set()
        for mid in board.grid.adjacent[start]:
            if cost[mid] >= UNREACHABLE:
                continue
            occupant = pos.at.get(mid)
            if occupant and pos.units[occupant]["side"] != side:
                continue
            if any(pos.dist(mid, a) <= pos.dist(start, a) for a in attackers_at):
                continue
            for dest in board.grid.adjacent[mid]:
                if dest in pos.at or dest in zoc or cost[dest] >= UNREACHABLE:
                    continue
                if water and board.medium[dest] != "water":
                    continue
                if any(pos.dist(dest, a) <= pos.dist(mid, a) for a in attackers_at):
                    continue
                out.add(dest)
        return sorted(board.label(i) for i in out)

    # ----- apply ---------------------------------------------------------------------------------
    def apply(self, state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
        side = action.get("side", "")
        kind = action.get("type", "")
        unit = action.get("unit")
        legal = (
            self._candidates(state, side, kind, unit if isinstance(unit, str) else None)
            if side in self.awaiting(state)
            else []
        )
        if action not in legal:
            self._refuse(state, action, legal)
        state = fast_clone(state)
        events: list[dict] = []
        handler = getattr(self, "_do_" + kind.replace("-", "_"))
        handler(state, action, events, dice)
        self._settle(state, events, dice)
        return state, events

    def _refuse(self, state: dict, action: dict, legal: list[dict]) -> None:
        side = action.get("side", "")
        kind = action.get("type", "")
        if side not in self.awaiting(state):
            waiting = (
                ", ".join(self.side_titles.get(s, s) for s in self.awaiting(state)) or "nobody"
            )
            raise RuleError(
                f"It is not {possessive(self.side_titles.get(side, side))} decision now; the game "
                f"waits for {waiting}.",
                **self._keyed(
                    "not_your_decision",
                    side=self.side_titles.get(side, side),
                    waiting=[self.side_titles.get(s, s) for s in self.awaiting(state)],
                ),
            )
        everything = self._candidates(state, side)
        kinds = sorted({"/" + a["type"] for a in everything})
        if (
            kind == "end-phase"
            and state["phase"] == "combat"
            and not state.get("pending")
            and not any(a["type"] == "end-phase" for a in everything)
        ):
            raise RuleError(
                "The card in play demands an attack and one is possible.",
                kinds,
                **self._keyed("card_demands_attack"),
            )
        pos = Pos(state)
        if state["phase"] == "movement" and pos.stacked and kind in ("end-phase", "move"):
            i, uids = next(iter(pos.stacked.items()))
            mover = next((x for x in uids if x not in state["moved"]), uids[-1])
            if kind == "end-phase" or action.get("unit") != mover:
                raise RuleError(
                    f"One unit per hex at the end of the movement phase: {pos.board.label(i)} holds "
                    f"{' and '.join(self._name(state, x) for x in uids)}; {self._name(state, mover)} "
                    f"must move on before the phase ends or another unit moves.",
                    kinds,
                    **self._keyed(
                        "one_per_hex",
                        cell=pos.board.label(i),
                        mover=self._name(state, mover),
                        units=[self._name(state, x) for x in uids],
                    ),
                )
        if not any(a["type"] == kind for a in everything):
            pending = state.get("pending")
            what = f"a decision ({pending['kind']})" if pending else f"the {state['phase']} phase"
            raise RuleError(
                f"/{kind} is not possible during {what}.",
                kinds,
                **self._keyed(
                    "not_during_decision" if pending else "not_during_phase",
                    command=kind,
                    phase=pending["kind"] if pending else state["phase"],
                ),
            )
        extra = set(action) - {"type", "side", "unit", "to", "target", "with"}
        if extra:
            raise RuleError(
                f"/{kind} has no option {', '.join(sorted(extra))}.",
                key="no_option",
                params={"command": kind, "option": ", ".join(sorted(extra))},
                domain=self.name,
            )
        unit = action.get("unit")
        reason: str | None = None
        keyed: dict = {}  # the reason's key and params, for a reader of another language
        if kind in ("move", "attack", "fire", "rally", "retreat", "advance") and unit is not None:
            if unit not in pos.units:
                reason = f"There is no unit {unit!r} on the map."
                keyed = self._keyed("no_unit_on_map", unit=str(unit))
            elif pos.units[unit]["side"] != side:
                reason = f"{self._name(state, unit)} is not yours."
                keyed = self._keyed("not_yours", unit=self._name(state, unit))
            elif kind in ("move", "attack", "fire") and pos.units[unit]["disorganised"]:
                reason = (
                    f"{self._name(state, unit)} is disorganised and may not {kind} until rallied."
                )
                keyed = self._keyed("disorganised", unit=self._name(state, unit))
            elif kind == "move" and unit in state["moved"]:
                reason = f"{self._name(state, unit)} has already moved this turn."
                keyed = self._keyed("already_moved", unit=self._name(state, unit))
            elif kind == "move" and len(state["moved"]) >= pos.move_limit():
                reason = f"The card allows {pos.move_limit()} units to move and they have moved."
                keyed = self._keyed("move_limit", limit=pos.move_limit())
            elif (
                kind == "move"
                and (friend := self._friend_at(pos, side, action.get("to")))
                and friend != unit
            ):
                reason = (
                    f"{action['to']} holds {self._name(state, friend)}. A unit may stop on a "
                    f"friend only if that friend can still move on to an empty hex this phase "
                    f"(card move limit, not moved yet, not disorganised): one unit per hex at the "
                    f"end of the movement phase."
                )
                keyed = self._keyed(
                    "stop_on_friend", cell=str(action["to"]), friend=self._name(state, friend)
                )
            elif kind == "move" and (
                unreachable := self._why_not_reach(pos, unit, action.get("to"))
            ):
                reason, keyed = unreachable, keyed_of(unreachable)
            elif kind == "move":
                reason = (
                    f"{self._name(state, unit)} cannot end its move on {action.get('to')!r} this "
                    f"turn: {pos.movement(unit)} movement points, terrain costs, no enemy hexes, "
                    f"a stop on entering enemy zones of control or stopping terrain, one unit "
                    f"per hex at the end."
                )
                keyed = self._keyed(
                    "cannot_reach",
                    unit=self._name(state, unit),
                    cell=str(action.get("to")),
                    points=pos.movement(unit),
                )
            elif (
                kind == "attack" and unit in state["attacked"] and unit != state.get("extra_melee")
            ):
                reason = f"{self._name(state, unit)} has already attacked this turn."
                keyed = self._keyed("already_attacked", unit=self._name(state, unit))
            elif kind == "attack" and unit in state["no_attack"]:
                reason = (
                    f"{self._name(state, unit)} entered terrain that forbids attacking this turn."
                )
                keyed = self._keyed("no_attack_terrain", unit=self._name(state, unit))
            elif (
                kind == "attack"
                and state["attacks_used"]
                + _charge(state, [unit] + ([action["with"]] if action.get("with") else []))
                > pos.attack_limit()
            ):
                reason = (
                    f"The card allows {pos.attack_limit()} attacking units and "
                    f"{state['attacks_used']} have attacked."
                )
                keyed = self._keyed(
                    "attack_limit", limit=pos.attack_limit(), used=state["attacks_used"]
                )
            elif kind == "fire" and pos.cls(unit) not in DEFENSIVE_FIRE_CLASSES[side]:
                reason = (
                    "Only Aztec Bowmen, Spanish Artillery, Arquebusiers, Crossbowmen and "
                    "Brigantines give defensive fire."
                )
                keyed = self._keyed("fire_classes")
            elif kind == "fire" and len(state["fired"]) >= MAX_DEFENSIVE_FIRERS:
                reason = "Three units have already given defensive fire."
                keyed = self._keyed("three_fired")
            elif kind == "rally" and not pos.units[unit]["disorganised"]:
                reason = f"{self._name(state, unit)} is not disorganised."
                keyed = self._keyed("not_disorganised", unit=self._name(state, unit))
            elif kind == "rally" and pos.where(unit) in pos.zoc(OTHER[side]):
                reason = (
                    f"{self._name(state, unit)} is in an enemy zone of control and cannot rally."
                )
                keyed = self._keyed("rally_in_zoc", unit=self._name(state, unit))
            elif (
                kind == "retreat" and state.get("pending") and unit != state["pending"].get("unit")
            ):
                reason = f"Only {self._name(state, state['pending']['unit'])} retreats now."
                keyed = self._keyed(
                    "only_retreats", unit=self._name(state, state["pending"]["unit"])
                )
            elif (
                kind == "retreat" and state.get("pending") and unit == state["pending"].get("unit")
            ):
                reason = (
                    f"{self._name(state, unit)} must retreat two hexes, each step farther from "
                    f"the attackers, to an empty hex outside enemy zones of control "
                    f"(friends may be passed)."
                )
                keyed = self._keyed("retreat_how", unit=self._name(state, unit))
            elif (
                kind == "advance" and state.get("pending") and state["pending"]["kind"] == "advance"
            ):
                reason = (
                    f"Only {', '.join(self._name(state, x) for x in state['pending']['units'])} "
                    f"may advance, and only into the vacated hex {state['pending']['to']}; "
                    f"an attacking infantry or cavalry unit next to it and outside enemy "
                    f"zones of control."
                )
                keyed = self._keyed(
                    "advance_how",
                    units=", ".join(self._name(state, x) for x in state["pending"]["units"]),
                    cell=state["pending"]["to"],
                )
        if kind == "place" and reason is None:
            reason = self._why_not_place(pos, side, unit, action.get("to"))
        if (
            kind in ("attack", "fire")
            and reason is None
            and isinstance(unit, str)
            and unit in pos.units
        ):
            target = action.get("target")
            partner = action.get("with") if kind == "attack" else None
            if (
                not isinstance(target, str)
                or target not in pos.units
                or pos.units[target]["side"] == side
            ):
                reason = f"{target!r} is not an enemy unit on the map."
                keyed = self._keyed("not_enemy", target=str(target))
            elif partner is not None and (
                not isinstance(partner, str)
                or partner not in pos.units
                or pos.units[partner]["side"] != side
                or partner == unit
            ):
                reason = (
                    f"{partner!r} is not another unit of yours on the map for a combined attack."
                )
                keyed = self._keyed("not_partner", unit=str(partner))
            else:
                reason = self._why_not_attack(pos, side, unit, target, kind)
                if reason is None and partner is not None:
                    why = self._why_not_attack(pos, side, partner, target, kind, joining=True)
                    if why:
                        # the German template of each joining reason is built from the
                        # reason's own (see JOIN_REASONS below the class)
                        inner = keyed_of(why)
                        reason = Reason(
                            f"{self._name(state, partner)} cannot join: {why}",
                            str(inner.get("key", "")).replace(
                                "tenochtitlan.", "tenochtitlan.cannot_join."
                            ),
                            self.name,
                            partner=self._name(state, partner),
                            **inner.get("params", {}),
                        )
        same = [a for a in legal if a["type"] == kind] or [
            a for a in everything if a["type"] == kind
        ]
        hints = self.legal_hints(state, same)
        if reason:
            # ``keyed`` is set together with ``reason``; reasons without one stay English.
            raise RuleError(reason, hints, **(keyed or keyed_of(reason)))
        raise RuleError(
            f"That /{kind} is not legal now.",
            hints,
            key="not_legal_now",
            params={"command": kind},
            domain=self.name,
        )

    def _why_not_reach(self, pos: Pos, uid: str, to) -> Reason | None:
        """Why ``uid`` cannot end its move on ``to``, in the game's terms: the hex cannot be
        entered, the cheapest way there costs more than its movement points, or an enemy zone
        of control or stopping terrain ends the move before it gets there. None when the search
        has no single reason (the generic refusal then lists the rules)."""
        state, board = pos.state, pos.board
        name = self._name(state, uid)
        goal = board.idx(to) if isinstance(to, str) else None
        if goal is None:
            return Reason(
                f"{to!r} is not a hex of this map.",
                f"{self.name}.not_a_hex",
                self.name,
                cell=str(to),
            )
        start = pos.where(uid)
        water = pos.cls(uid) in WATER_CLASSES
        place = present.place_name(board, goal)

        def keyed(what: str, text: str, **params) -> Reason:
            return Reason(text, f"{self.name}.{what}", self.name, unit=name, cell=to, **params)

        if goal == start:
            return keyed("move_in_place", f"{name} already stands on {to}.")
        holder = pos.at.get(goal)
        if holder is not None and pos.units[holder]["side"] != pos.units[uid]["side"]:
            enemy = self._name(state, holder)
            return keyed(
                "enemy_there",
                f"{to} holds the enemy {enemy}; no unit enters an enemy's hex.",
                enemy=enemy,
            )
        if water and board.medium[goal] != "water":
            return keyed(
                "water_unit_ashore",
                f"{name} cannot end a move on {to} ({place}): boats stop only on water "
                f"(causeways and bridges they may pass).",
                place=place,
            )
        if not water and board.medium[goal] == "water":
            return keyed(
                "land_unit_afloat",
                f"{name} cannot enter {to} ({place}): land units do not enter water.",
                place=place,
            )
        far = 2 * len(board.grid.hexes) + 2  # more points than any way across the map costs
        ends, _, _ = self._search(pos, uid, far)
        have = pos.movement(uid)
        if goal in ends and ends[goal] > 2 * have:
            need = _points(ends[goal])
            return keyed(
                "too_far",
                f"{name} needs {need} movement points to reach {to} and has {have}.",
                need=need,
                have=have,
            )
        if goal in ends:
            return None
        for what, search in (
            ("zoc", lambda: self._search(pos, uid, far, zoc=False)),
            ("stop", lambda: self._search(pos, uid, far, stops=False)),
            ("both", lambda: self._search(pos, uid, far, zoc=False, stops=False)),
        ):
            ends, parent, _ = search()
            if goal not in ends:
                continue
            path = [goal]
            while path[-1] != start:
                path.append(parent[path[-1]])
            path.reverse()
            zoc, stops = pos.zoc(OTHER[pos.units[uid]["side"]]), board.stops
            if start in zoc and path[1] in zoc:
                return keyed(
                    "zoc_to_zoc",
                    f"{name} stands in an enemy zone of control and may not step straight into "
                    f"another ({board.label(path[1])}) on the way to {to}.",
                    at=board.label(path[1]),
                )
            halt = next((i for i in path[1:-1] if i in zoc or i in stops), None)
            if halt is None:
                break
            if halt in zoc:
                return keyed(
                    "zoc_stops",
                    f"Entering the enemy zone of control at {board.label(halt)} ends "
                    f"{possessive(name)} move before {to}.",
                    at=board.label(halt),
                )
            halt_place = present.place_name(board, halt)
            return keyed(
                "terrain_stops",
                f"Entering {board.label(halt)} ({halt_place}) ends {possessive(name)} move "
                f"before {to}.",
                at=board.label(halt),
                place=halt_place,
            )
        ends, _, _ = self._search(pos, uid, far, zoc=False, stops=False, enemies=False)
        if goal in ends:
            return keyed(
                "enemies_bar",
                f"Enemy units bar every way {name} could take to {to}; no unit enters an "
                f"enemy's hex.",
            )
        return keyed("no_way", f"No way leads {name} to {to}.")

    def _keyed(self, what: str, **params) -> dict:
        """RuleError's key, params and domain for one of this game's refusals."""
        return {"key": f"{self.name}.{what}", "params": params, "domain": self.name}

    @staticmethod
    def _friend_at(pos: Pos, side: str, lab) -> str | None:
        """The friendly unit on hex label ``lab`` (None for no such hex or no friend there)."""
        i = pos.board.idx(lab) if isinstance(lab, str) else None
        friend = pos.at.get(i) if i is not None else None
        return friend if friend is not None and pos.units[friend]["side"] == side else None

    def _why_not_attack(
        self, pos: Pos, side: str, uid: str, target: str, kind: str, joining: bool = False
    ) -> str | None:
        """Why ``uid`` may not attack ``target`` on its own terms (each unit of a combined attack
        must be able to attack the target itself)."""
        state = pos.state
        name = self._name(state, uid)
        if joining:
            if pos.units[uid]["disorganised"]:
                return Reason(
                    f"{name} is disorganised.", "tenochtitlan.is_disorganised", self.name, unit=name
                )
            if uid in state["attacked"] and uid != state.get("extra_melee"):
                return Reason(
                    f"{name} has already attacked this turn.",
                    "tenochtitlan.already_attacked",
                    self.name,
                    unit=name,
                )
            if uid in state["no_attack"]:
                return Reason(
                    f"{name} entered terrain that forbids attacking this turn.",
                    "tenochtitlan.no_attack_terrain",
                    self.name,
                    unit=name,
                )
        d = pos.dist(pos.where(uid), pos.where(target))
        rng = pos.utype(uid)["range"]
        them = self._name(state, target)
        if d > rng:
            return Reason(
                f"{them} is {d} hexes from {name}; its range is {rng}.",
                "tenochtitlan.out_of_range",
                self.name,
                target=them,
                distance=d,
                unit=name,
                range=rng,
            )
        if d > 1 and kind == "attack" and uid in state["moved"] and pos.cls(uid) != "brigantine":
            return Reason(
                f"{name} moved this turn and may only attack an adjacent enemy.",
                "tenochtitlan.moved_adjacent_only",
                self.name,
                unit=name,
            )
        if d > 1 and not los_clear(
            pos.board, pos.where(uid), pos.where(target), pos.at, pos.cls(uid) in ARTILLERY_CLASSES
        ):
            return Reason(
                f"The line of sight from {name} to {them} is blocked.",
                "tenochtitlan.sight_blocked",
                self.name,
                unit=name,
                target=them,
            )
        enemy = OTHER[side]
        if (
            pos.cls(uid) not in WATER_CLASSES
            and pos.where(uid) in pos.zoc(enemy)
            and target not in pos.exerting(pos.where(uid), enemy)
        ):
            return Reason(
                f"{name} is in an enemy zone of control and may only attack the units exerting it.",
                "tenochtitlan.zoc_attack",
                self.name,
                unit=name,
            )
        return None

    def _why_not_place(self, pos: Pos, side: str, uid, lab) -> str | None:
        """Why a /place (setup or a card's return) is refused, in the rule's terms."""
        state, board = pos.state, pos.board
        setup = state["phase"] == "setup"
        if setup and uid not in state["pool"]:
            return Reason(
                f"{uid!r} is not one of your units waiting to be set up.",
                "tenochtitlan.not_in_pool",
                self.name,
                unit=str(uid),
            )
        if not setup and uid not in state["eliminated"]:
            return Reason(
                f"{uid!r} is not one of your eliminated units.",
                "tenochtitlan.not_eliminated",
                self.name,
                unit=str(uid),
            )
        t = pos.types[state["roster"][uid]]
        if t["side"] != side:
            return Reason(
                f"{self._name(state, uid)} is not yours.",
                "tenochtitlan.not_yours",
                self.name,
                unit=self._name(state, uid),
            )
        i = board.idx(lab) if isinstance(lab, str) else None
        if i is None:
            return Reason(
                f"{lab!r} is not a hex of this map.",
                "tenochtitlan.not_a_hex",
                self.name,
                cell=str(lab),
            )
        if i in pos.at:
            return Reason(
                f"{lab} already holds {self._name(state, pos.at[i])}; one unit per hex.",
                "tenochtitlan.hex_taken",
                self.name,
                cell=lab,
                unit=self._name(state, pos.at[i]),
            )
        water = t["class"] in WATER_CLASSES
        if not setup:
            special = pos.special("return_unit")
            if not special or state.get("returned"):
                return Reason(
                    "The card in play returns no (further) eliminated unit.",
                    "tenochtitlan.no_return",
                    self.name,
                )
            if t["class"] not in special["classes"]:
                return Reason(
                    f"The card returns only {', '.join(special['classes'])} units.",
                    "tenochtitlan.return_classes",
                    self.name,
                    classes=list(special["classes"]),
                )
            where = {
                "default": "an empty hex next to a friendly unit in good order",
                "city": "an empty Tenochtitlan hex",
                "village": "an empty hex at or next to a village",
            }
            kind = special.get("where", "default")
            return Reason(
                f"The card returns the unit to {where.get(kind, 'the hex it names')}, "
                f"{'on water' if water else 'on land'}, outside enemy zones of control.",
                f"tenochtitlan.return_where_{kind if kind in where else 'named'}_"
                f"{'water' if water else 'land'}",
                self.name,
            )

        def why(text: str, key: str, **params) -> Reason:
            return Reason(text, f"tenochtitlan.{key}", self.name, **params)

        if side == "aztec":
            if water:
                return why(
                    "Canoes set up on lake hexes next to Tenochtitlan or in the canal.",
                    "setup_canoes",
                )
            name = board.causeway_of[i]
            if name:
                return why(
                    f"The {name} causeway already holds two Aztec units (at most two per "
                    f"causeway).",
                    "setup_causeway_full",
                    causeway=name,
                )
            return why("Aztec units set up in Tenochtitlan or on a causeway.", "setup_aztec")
        if water:
            return why(
                "Brigantines set up on Lake Texcoco outside the causeways (the southern lake).",
                "setup_brigantines",
            )
        if board.city[i] or board.causeway_of[i] or board.medium[i] != "land":
            return why(
                "Spanish land units may not set up in Tenochtitlan, on a causeway or on water.",
                "setup_spanish_not_there",
            )
        if i not in setup_groups.eligible_hexes(board):
            return why(
                "Spanish land units set up within 3 hexes of an Aztec village.",
                "setup_spanish_village",
            )
        return why(
            "A unit there would leave a setup that can no longer end in exactly three groups "
            "(units on connected hexes) of at least four units, each within 3 hexes of its own "
            "Aztec village.",
            "setup_spanish_groups",
        )

    # --- action handlers (the action is already known to be legal)
    def _do_place(self, state, action, events, dice):
        uid, lab, side = action["unit"], action["to"], action["side"]
        board = board_for(state["map"])
        t = unit_types()[state["roster"][uid]]
        state["units"][uid] = {
            "type": state["roster"][uid],
            "side": t["side"],
            "at": lab,
            "disorganised": False,
        }
        if state["phase"] == "setup":
            state["pool"].remove(uid)
            events.append({"type": "placed", "unit": uid, "to": lab})
            self._occupy(state, board, lab, side, events)
            if not any(unit_types()[state["roster"][u]]["side"] == side for u in state["pool"]):
                events.append({"type": "setup_done", "side": side})
                self._next_setup_side(state, events, dice)
        else:
            state["eliminated"].remove(uid)
            state["returned"] = True
            events.append({"type": "returned", "unit": uid, "to": lab})
            self._occupy(state, board, lab, side, events)

    def _next_setup_side(self, state, events, dice, start=False):
        types = unit_types()
        order = ["aztec", "spanish"]
        begin = order.index(state["active"]) if start else order.index(state["active"]) + 1
        for side in order[begin:]:
            if any(types[state["roster"][u]]["side"] == side for u in state["pool"]):
                state["active"] = side
                state["awaiting"] = [side]
                if not start or side != order[begin]:
                    events.append({"type": "setup_started", "side": side})
                return
        state["pool"] = []
        cycle = cycle_for(state)
        events += cycle.start(state)
        self._enter(state, "draw", events, dice)

    def _do_move(self, state, action, events, dice):
        pos = Pos(state)
        uid, lab = action["unit"], action["to"]
        path = self._move_path(pos, uid, lab)
        unit = state["units"][uid]
        events.append({"type": "moved", "unit": uid, "from": unit["at"], "to": lab, "path": path})
        unit["at"] = lab
        state["moved"].append(uid)
        board = pos.board
        if board.no_attack[board.idx(lab)]:
            state["no_attack"].append(uid)
        self._occupy(state, board, lab, unit["side"], events)
        friend = pos.at.get(board.idx(lab))
        if friend is not None:
            events.append({"type": "must_move_on", "unit": friend, "with": uid, "at": lab})

    def _do_fire(self, state, action, events, dice):
        state["fired"].append(action["unit"])
        self._start_attack(state, [action["unit"]], action["target"], True, events, dice)

    def _do_attack(self, state, action, events, dice):
        attackers = [action["unit"]] + ([action["with"]] if action.get("with") else [])
        # Charge the card before marking the units: a unit already counted is not counted again.
        state["attacks_used"] += _charge(state, attackers)
        for uid in attackers:
            if uid == state.get("extra_melee") and uid in state["attacked"]:
                state["extra_melee"] = None
            if uid not in state["attacked"]:
                state["attacked"].append(uid)
        self._start_attack(state, attackers, action["target"], False, events, dice)

    def _start_attack(self, state, attackers, target, defensive, events, dice):
        pos = Pos(state)
        t_at = pos.where(target)
        ranged = any(pos.dist(pos.where(a), t_at) > 1 for a in attackers)
        bonus = 0 if defensive else pos.attack_bonus(attackers)
        context = {
            "attackers": attackers,
            "target": target,
            "ranged": ranged,
            "bonus": bonus,
            "defensive": defensive,
        }
        defender = pos.units[target]
        # Retreat before combat answers any melee attack, defensive fire included (it "works like
        # normal combat" and may be melee); movement factors as the card in play modifies them.
        if not ranged and not defender["disorganised"]:
            fastest = max(pos.movement(a) for a in attackers)
            if pos.movement(target) > fastest:
                options = self._retreat_options(pos, target, [pos.where(a) for a in attackers])
                if options:
                    state["pending"] = {
                        "kind": "evade",
                        "side": defender["side"],
                        "unit": target,
                        "options": options,
                        "attack": context,
                    }
                    events.append(
                        {
                            "type": "evade_offered",
                            "unit": target,
                            "attackers": attackers,
                            "options": options,
                        }
                    )
                    return
        self._resolve(state, context, events, dice)

    def _resolve(self, state, context, events, dice):
        pos = Pos(state)
        attackers, target = context["attackers"], context["target"]
        board = pos.board
        t_at = pos.where(target)
        defender = pos.units[target]
        base = pos.utype(attackers[0])["attack"]
        combined = 1 if len(attackers) > 1 else 0
        attack = base + combined + context["bonus"]
        roll = dice.roll(f"attack on {target}", events)
        total = attack + roll
        terrain = board.defence[t_at]
        defence = pos.utype(target)["defence"] + terrain
        result = "none"
        if total >= defence + 2:
            result = "eliminated"
        elif total >= defence + 1:
            result = "retreat"
        note = None
        artillery_only = all(pos.cls(a) in ARTILLERY_CLASSES for a in attackers)
        if (
            result == "eliminated"
            and context["ranged"]
            and artillery_only
            and not defender["disorganised"]
        ):
            result, note = "retreat", "ranged artillery cannot eliminate a unit in good order"
        event = {
            "type": "attack",
            "attackers": attackers,
            "target": target,
            "from": [pos.units[a]["at"] for a in attackers],
            "at": defender["at"],
            "base": base,
            "combined": combined,
            "bonus": context["bonus"],
            "roll": roll,
            "total": total,
            "defence": defence,
            "terrain": terrain,
            "result": result,
            "defensive": context["defensive"],
            "ranged": context["ranged"],
        }
        if note:
            event["note"] = note
        events.append(event)
        if result == "none":
            return
        if result == "eliminated":
            self._eliminate(state, target, "attack", events)
            self._offer_advance(state, attackers, t_at, False, events)
            return
        fort = board.fort[t_at]
        # In a fort the unit need not retreat, so it is never "forced" to: an already
        # disorganised defender there survives a retreat result.
        if defender["disorganised"] and not fort:
            self._eliminate(state, target, "disorganised unit forced to retreat", events)
            self._offer_advance(state, attackers, t_at, False, events)
            return
        if not defender["disorganised"]:
            defender["disorganised"] = True
            events.append({"type": "disorganised", "unit": target})
        pos = Pos(state)
        options = self._retreat_options(pos, target, [pos.where(a) for a in attackers])
        if fort:
            if options:
                # "Need not retreat": the owner may still choose to (/retreat) or hold (/pass).
                state["pending"] = {
                    "kind": "retreat",
                    "side": defender["side"],
                    "unit": target,
                    "options": options,
                    "attack": context,
                    "optional": True,
                }
                events.append({"type": "fort_retreat_offered", "unit": target, "options": options})
            else:
                events.append({"type": "held_fort", "unit": target, "at": defender["at"]})
            return
        if not options:
            self._eliminate(state, target, "no retreat possible", events)
            self._offer_advance(state, attackers, t_at, False, events)
            return
        state["pending"] = {
            "kind": "retreat",
            "side": defender["side"],
            "unit": target,
            "options": options,
            "attack": context,
        }

    def _eliminate(self, state, uid, reason, events):
        unit = state["units"].pop(uid)
        state["eliminated"].append(uid)
        state["eliminated"].sort()
        if state.get("extra_melee") == uid:
            state["extra_melee"] = None
        events.append({"type": "eliminated", "unit": uid, "at": unit["at"], "reason": reason})

    def _offer_advance(self, state, attackers, vacated, evaded, events):
        pos = Pos(state)
        board = pos.board
        if vacated in pos.at or board.medium[vacated] == "water":
            return
        candidates = []
        for a in attackers:
            if a not in pos.units or pos.cls(a) not in ADVANCE_CLASSES:
                continue
            here = pos.where(a)
            if vacated not in board.grid.adjacent[here]:
                continue
            if here in pos.zoc(OTHER[pos.units[a]["side"]]):
                continue
            candidates.append(a)
        if candidates:
            side = pos.units[candidates[0]]["side"]
            state["pending"] = {
                "kind": "advance",
                "side": side,
                "units": candidates,
                "to": board.label(vacated),
                "evaded": evaded,
            }
            events.append(
                {"type": "advance_offered", "units": candidates, "to": board.label(vacated)}
            )

    def _do_retreat(self, state, action, events, dice):
        pending = state["pending"]
        state["pending"] = None
        board = board_for(state["map"])
        uid, lab = action["unit"], action["to"]
        unit = state["units"][uid]
        origin = board.idx(unit["at"])
        events.append(
            {
                "type": "retreated" if pending["kind"] == "retreat" else "evaded",
                "unit": uid,
                "from": unit["at"],
                "to": lab,
            }
        )
        unit["at"] = lab
        if pending["kind"] == "evade":
            unit["disorganised"] = True
            events.append({"type": "disorganised", "unit": uid})
        self._occupy(state, board, lab, unit["side"], events)
        attackers = [a for a in pending["attack"]["attackers"] if a in state["units"]]
        self._offer_advance(state, attackers, origin, pending["kind"] == "evade", events)

    def _do_pass(self, state, action, events, dice):
        pending = state["pending"]
        state["pending"] = None
        if pending["kind"] == "evade":
            events.append({"type": "stood", "unit": pending["unit"]})
            self._resolve(state, pending["attack"], events, dice)
        elif pending["kind"] == "retreat":
            unit = state["units"][pending["unit"]]
            events.append({"type": "held_fort", "unit": pending["unit"], "at": unit["at"]})
        else:
            events.append({"type": "no_advance", "to": pending["to"]})

    def _do_advance(self, state, action, events, dice):
        pending = state["pending"]
        state["pending"] = None
        board = board_for(state["map"])
        uid, lab = action["unit"], action["to"]
        unit = state["units"][uid]
        events.append({"type": "advanced", "unit": uid, "from": unit["at"], "to": lab})
        unit["at"] = lab
        if board.no_attack[board.idx(lab)] and uid not in state["no_attack"]:
            state["no_attack"].append(uid)
        self._occupy(state, board, lab, unit["side"], events)
        if pending["evaded"] and state["phase"] == "combat":
            state["extra_melee"] = uid
            events.append({"type": "extra_melee", "unit": uid})

    def _do_rally(self, state, action, events, dice):
        state["units"][action["unit"]]["disorganised"] = False
        events.append({"type": "rallied", "unit": action["unit"]})

    def _do_end_phase(self, state, action, events, dice):
        events.append({"type": "phase_ended", "phase": state["phase"], "side": action["side"]})
        events += cycle_for(state).advance(
            state, on_enter=lambda s, p, e: self._enter(s, p, e, dice)
        )

    # ----- phase machinery ----------------------------------------------------------------------
    def _enter(self, state, phase, events, dice):
        if phase != "draw":
            return
        for key in ("moved", "attacked", "fired", "no_attack"):
            state[key] = []
        state["attacks_used"] = 0
        state["extra_melee"] = None
        state["returned"] = False
        cards = cards_by_id()
        if state.get("card"):
            old = state["card"]
            state["discards"][cards[old]["side"]].append(old)
            state["card"] = None
        side = state["active"]
        if not state["decks"][side]:
            if not state["discards"][side]:
                events.append({"type": "no_card", "side": side})
                return
            state["decks"][side] = dice.shuffle(
                state["discards"][side], f"reshuffle the {side} deck", events
            )
            state["discards"][side] = []
            events.append({"type": "reshuffled", "side": side})
        card = state["decks"][side].pop(0)
        state["card"] = card
        events.append({"type": "card_drawn", "side": side, "card": card})

    def _has_choice(self, state: dict, side: str) -> bool:
        if state["phase"] == "movement" and not state.get("pending"):
            pos = Pos(state)
            if side != state["active"]:
                return False
            if pos.stacked:
                return True  # its unmoved unit always has a way on (see _move_options)
            # An empty destination is always offered; only a move onto a friend needs more.
            return any(
                any(i not in pos.at for i in self._reach(pos, uid)[0].values())
                for uid in pos.side_units(side)
            ) or any(self._move_options(pos, uid) for uid in pos.side_units(side))
        return any(a["type"] != "end-phase" for a in self._candidates(state, side))

    def _settle(self, state, events, dice):
        """Check victory; skip phases in which the acting side has nothing to decide."""
        for _ in range(5000):
            self._check_victory(state, events)
            if state["result"]:
                state["awaiting"] = []
                state["pending"] = None
                return
            if state.get("pending"):
                state["awaiting"] = [state["pending"]["side"]]
                return
            if state["phase"] == "setup":
                state["awaiting"] = [state["active"]]
                return
            cycle = cycle_for(state)
            actor = cycle.actor(state)
            state["awaiting"] = [actor]
            if self._has_choice(state, actor):
                return
            events.append({"type": "phase_skipped", "phase": state["phase"], "side": actor})
            events += cycle.advance(state, on_enter=lambda s, p, e: self._enter(s, p, e, dice))
        raise AssertionError("phase loop did not settle")

    def _occupy(self, state, board, lab, side, events):
        control = state["control"]
        if lab in control and control[lab] != side:
            control[lab] = side
            if events is not None:
                events.append({"type": "control", "at": lab, "side": side})

    def spanish_goal(self, state: dict) -> tuple[bool, list[str]]:
        """Whether the Spanish hold every objective and a whole causeway with its village."""
        board = board_for(state["map"])
        control = state["control"]
        missing = [
            name for name, i in board.objectives.items() if control.get(board.label(i)) != "spanish"
        ]
        causeway_ok = False
        for cw in board.causeways.values():
            village = board.label(board.villages[cw["village"]])
            if control.get(village) == "spanish" and all(
                control.get(board.label(i)) == "spanish" for i in cw["hexes"]
            ):
                causeway_ok = True
        if not causeway_ok:
            missing.append("a causeway and its village")
        return not missing, missing

    def _check_victory(self, state, events):
        if state.get("result") or state["phase"] == "setup":
            return
        types = unit_types()
        spanish = sum(
            1
            for u in state["units"].values()
            if u["side"] == "spanish" and not types[u["type"]].get("tlaxcalan")
        )
        result = None
        if spanish <= state["aztec_wins_at"]:
            result = {
                "winner": "aztec",
                "reason": f"only {spanish} Spanish units (without Tlaxcalans) remain on the map",
            }
        elif self.spanish_goal(state)[0]:
            result = {
                "winner": "spanish",
                "reason": "the Spanish control every objective and a causeway with its village",
            }
        elif state.get("turn_limit_reached"):
            result = {
                "winner": "aztec",
                "reason": f"the Spanish did not win by the end of turn {state['last_turn']}",
            }
        if result:
            state["result"] = result
            events.append({"type": "game_over", **result})

    # ----- referee corrections ---------------------------------------------------------------------
    def referee_edit(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        """``ref-place`` (also brings an eliminated unit back), ``ref-remove`` and ``ref-phase``,
        checked against this game's map and then re-synchronised (control, whose decision,
        victory). No phase is skipped automatically here: a referee edit rolls no dice."""
        kind = action.get("type")
        state = fast_clone(state)
        board = board_for(state["map"])
        events: list[dict] = []
        if kind == "ref-place":
            uid, lab = action.get("unit", ""), action.get("to", "")
            if uid not in state["roster"]:
                raise RuleError(
                    f"No unit {uid!r}.",
                    sorted(state["roster"])[:20],
                    key="no_unit",
                    params={"unit": str(uid)},
                    domain=self.name,
                )
            i = board.idx(lab)
            if i is None:
                raise RuleError(
                    f"{lab!r} is not a hex of this map.", **self._keyed("not_a_hex", cell=str(lab))
                )
            t = unit_types()[state["roster"][uid]]
            if (board.medium[i] == "water") != (t["class"] in WATER_CLASSES):
                raise RuleError(
                    f"A {t['title']} cannot stand on {board.terrain[i]}.",
                    **self._keyed(
                        "ref_water" if t["class"] in WATER_CLASSES else "ref_land",
                        unit=t["title"],
                        cell=lab,
                    ),
                )
            holder = next(
                (o for o, u in state["units"].items() if u["at"] == lab and o != uid), None
            )
            if holder:
                raise RuleError(
                    f"{lab} already holds {self._name(state, holder)}.",
                    **self._keyed("hex_taken", cell=lab, unit=self._name(state, holder)),
                )
            unit = state["units"].get(uid)
            old = unit["at"] if unit else None
            if unit is None:
                state["units"][uid] = {
                    "type": state["roster"][uid],
                    "side": t["side"],
                    "at": lab,
                    "disorganised": False,
                }
                if uid in state["eliminated"]:
                    state["eliminated"].remove(uid)
                if uid in state["pool"]:
                    state["pool"].remove(uid)
            else:
                unit["at"] = lab
            self._occupy(state, board, lab, t["side"], events)
            events.insert(
                0, {"type": "referee", "what": "place", "unit": uid, "from": old, "to": lab}
            )
        elif kind == "ref-remove":
            uid = action.get("unit", "")
            if uid not in state["units"]:
                raise RuleError(
                    f"No unit {uid!r} on the map.",
                    sorted(state["units"])[:20],
                    **self._keyed("no_unit_on_map", unit=str(uid)),
                )
            removed = state["units"].pop(uid)
            state["eliminated"] = sorted(state["eliminated"] + [uid])
            events.append({"type": "referee", "what": "remove", "unit": uid, "from": removed["at"]})
        elif kind == "ref-phase":
            self.check_referee_phase(action)
            phase = action["phase"]
            stacked = Pos(state).stacked
            if stacked:
                # Only the movement phase may hold two units on a hex; no other phase can cope.
                i, uids = next(iter(stacked.items()))
                raise RuleError(
                    f"{board.label(i)} holds {' and '.join(self._name(state, x) for x in uids)}; "
                    f"move one with ref-place before changing the phase.",
                    **self._keyed(
                        "ref_stacked",
                        cell=board.label(i),
                        units=[self._name(state, x) for x in uids],
                    ),
                )
            if action.get("value"):
                if action["value"] not in self.sides:
                    raise RuleError(
                        f"Unknown side {action['value']!r}.",
                        list(self.sides),
                        key="unknown_side",
                        params={"side": str(action["value"])},
                        domain=self.name,
                    )
                state["active"] = action["value"]
            state["phase"] = phase
            state["pending"] = None
            events.append(
                {"type": "referee", "what": "phase", "phase": phase, "active": state["active"]}
            )
        else:
            raise RuleError(
                f"Unknown referee action {kind!r}.", ["ref-place", "ref-remove", "ref-phase"]
            )
        if state.get("pending"):
            # The offered choices were computed for the old position; the referee's edit ends them.
            events.append({"type": "decision_dropped", "kind": state["pending"]["kind"]})
            state["pending"] = None
        if state["phase"] != "setup":
            state["awaiting"] = [cycle_for(state).actor(state)]
        self._check_victory(state, events)
        if state["result"]:
            state["awaiting"] = []
        return state, events

    # ----- presentation ---------------------------------------------------------------------------
    def view(self, state: dict, side: str | None) -> dict:
        shown = dict(state)  # the state's own parts but the decks (views are only read)
        # Nobody may know the order of a face-down deck, only its size.
        shown["decks"] = {s: len(d) for s, d in state["decks"].items()}
        return shown

    def _name(self, state: dict, uid: str) -> str:
        tname = state.get("roster", {}).get(uid) or state["units"].get(uid, {}).get("type")
        t = unit_types().get(tname)
        if not t:
            return uid
        return f"{t['title']} {_unit_number(uid)}"

    def describe(self, state: dict, key: str, value: str) -> str:
        return self.label(state, key, value, "en")

    def label(self, state: dict, key: str, value: str, lang: str = "en") -> str:
        if key in ("unit", "target", "with") and value in state.get("roster", {}):
            unit = state["units"].get(value)
            at, eliminated = (
                (" auf ", " (eliminiert)") if lang == "de" else (" at ", " (eliminated)")
            )
            where = (
                f"{at}{unit['at']}"
                if unit
                else (eliminated if value in state["eliminated"] else "")
            )
            name = self._name(state, value)
            side = unit_types()[state["roster"][value]]["side"]
            if (
                side == "spanish"
                and not name.startswith("Spanish")
                and not unit_types()[state["roster"][value]].get("tlaxcalan")
            ):
                name = "Spanish " + name
            if side == "aztec" and not name.startswith("Aztec"):
                name = "Aztec " + name
            return name + where
        if key == "to":
            board = board_for(state["map"])
            i = board.idx(value)
            if i is not None:
                return f"{value} ({present.word(present.place_name(board, i), lang)})"
        return value

    def describe_event(self, state: dict, event: dict) -> str | None:
        return present.describe_event(self, state, event)

    def narrate(self, state: dict, event: dict, lang: str = "en") -> str | None:
        return present.describe_event(self, state, event, lang)

    def result_reason(self, state: dict, lang: str = "en") -> str:
        return present.reason_text(str((state.get("result") or {}).get("reason") or ""), lang)

    def roll_purpose(self, state: dict, event: dict, lang: str = "en") -> str:
        return present.roll_purpose(state, event, lang)

    def unit_facts(self, state: dict, unit: str, lang: str = "en") -> list[str]:
        return present.unit_facts(self, state, unit, lang)

    def cell_facts(self, state: dict, cell: str, lang: str = "en") -> list[str]:
        return present.cell_facts(self, state, cell, lang)

    def header(self, state: dict) -> dict[str, str]:
        return present.header(self, state)

    def localised_header(self, state: dict, lang: str = "en") -> dict[str, str]:
        return present.header(self, state, lang)

    def scene(self, state: dict, events: list[dict], viewer: str | None, lang: str = "en") -> dict:
        return present.scene(self, state, events, viewer, lang)

    def rules_summary(self, locale: str = "en") -> str:
        return present.rules_summary(locale)

    def rules_reference(self, lang="en", state=None):
        return present.rules_reference(self, lang, state)


# A partner that cannot join a combined attack is refused with its own reason: "<partner> kann
# sich nicht anschließen: <reason>" for each reason a joining unit can have.
for _reason in (
    "out_of_range",
    "moved_adjacent_only",
    "sight_blocked",
    "zoc_attack",
    "is_disorganised",
    "already_attacked",
    "no_attack_terrain",
):
    Tenochtitlan.translations["de"][f"tenochtitlan.cannot_join.{_reason}"] = (
        "{partner} kann sich dem Angriff nicht anschließen: "
        + Tenochtitlan.translations["de"][f"tenochtitlan.{_reason}"]
    )

# Place and terrain names a refusal gives ("Lake Texcoco") read as on the German board.
for _place in (
    "Clear",
    "Hills",
    "Marsh",
    "Lake Texcoco",
    "Canal",
    "City sites",
    "Sacred Precinct",
    "Tlatelolco Market",
    "Dock Area",
    "Tlacopan Gate",
    "Causeway",
    "Aqueduct",
    "Canal bridge",
    "Causeway bridge",
    "Iztapalapa causeway",
    "Tepeyac causeway",
    "Tlacopan causeway",
    "Village",
    "Chapultepec Springs",
):
    Tenochtitlan.translations["de"].setdefault(_place, present.PICTURE_WORDS["de"][_place])
