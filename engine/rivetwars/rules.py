"""Rivet Wars: Eastern Front — Allies against the Bismark on map tiles of 3x3 segments.

A round: initiative, then each side's turn in order: card phase, deployment, combat, movement,
rally (scoring). Segments (2x2 squares, named by their top-left square) are the unit of movement
and range; squares say where in a segment a unit stands (target priority). Rules are traced in
docs/rules/rivet-wars.md; the data (units, cards, tiles, missions) lives in data/rivet-wars/.
"""

from __future__ import annotations

import json
from functools import lru_cache

from engine.core import squaregrid
from engine.core.dice import Dice
from engine.core.errors import Reason, RuleError, keyed_of
from engine.core.names import possessive, with_article
from engine.core.phases import TurnCycle
from engine.core.ruleset import Command, Option, Ruleset, Scenario
from engine.core.state import clone

from . import data, explain, present
from .board import (
    Board,
    build_board,
    deviation_step,
    seg_label,
    seg_of_square,
    seg_range,
    squares_of,
)

SIDES = ("allies", "bismark")
CYCLE = TurnCycle(phases=("card", "deploy", "combat", "move", "rally"), sides=SIDES)
SEGMENT_CAPACITY = 4
INFANTRY_ONLY = ("bunker", "objective", "tanktrap")
MINE_DICE = 2
BARRAGE_DICE = 2
PARADROP_DRAWS = 40
GAS_MARKERS = data.GAS_MARKERS
HIT = 5
ACTION_HAND = 3
SECRET_HAND = 2
BASIC_INFANTRY = {"allies": "rifleman", "bismark": "panzerfaust"}
ESCALATION = {
    1: "point",
    2: "point",
    3: "rivet",
    4: "rivet",
    5: "points3",
    6: "points3",
    7: "free3",
    8: "free3",
}


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@lru_cache(maxsize=32)
def _merged_roster(overrides_json: str) -> dict:
    roster = dict(data.base_roster())
    roster.update(json.loads(overrides_json))
    return roster


def roster(state: dict) -> dict:
    overrides = state.get("roster")
    if not overrides:
        return data.base_roster()
    return _merged_roster(json.dumps(overrides, sort_keys=True))


_BOARDS: dict[str, Board] = {}


def board(state: dict) -> Board:
    tiles = state["mission"]["tiles"]
    found = _BOARDS.get(tiles)
    if found is None:
        found = _BOARDS[tiles] = build_board(tiles, data.tile_faces())
    return found


def known_seg(state: dict, label: str) -> tuple[int, int]:
    """The segment of a label the mission data or a legal action already vouched for."""
    seg = board(state).parse_seg(label)
    if seg is None:
        raise RuleError(f"{label!r} is not a segment of this board.")
    return seg


@lru_cache(maxsize=4096)
def sq(text: str):
    return squaregrid.parse_label(text)


@lru_cache(maxsize=4096)
def sqlabel(square) -> str:
    return squaregrid.label(square)


def fast_clone(state: dict) -> dict:
    # States are plain JSON by contract; a JSON round trip copies them several times faster
    # than deepcopy, which matters for autoplay over whole missions.
    return json.loads(json.dumps(state))


@lru_cache(maxsize=1)
def _type_names_de() -> dict[str, str]:
    return {
        str(spec["name"]): str(spec["name_de"])
        for spec in data.base_roster().values()
        if spec.get("name_de")
    }


class RivetWars(Ruleset):
    name = "rivet-wars"
    title = "Rivet Wars: Eastern Front"
    sides = SIDES
    side_titles = {"allies": "Allies", "bismark": "Bismark"}
    # The rulebook's German words (Kartenphase, Aufstellungsphase, Siegpunkte, ...).
    translations = {
        "de": {
            "Allies": "Alliierte",
            "Cards": "Karten",
            "Deployment": "Aufstellung",
            "Combat": "Kampf",
            "Movement": "Bewegung",
            "Rally": "Sammeln",
            "card": "Karten",
            "deploy": "Aufstellung",
            "combat": "Kampf",
            "move": "Bewegung",
            "rally": "Sammeln",
            "Round": "Runde",
            "Phase": "Phase",
            "Active": "Aktive Seite",
            "VP": "Siegpunkte",
            "Rivets": "Nieten",
            "Points": "Punkte",
            "Waiting": "Wartet auf",
            "infantry": "Infanterie",
            "rivetwars.wrong_phase": "/{command} gehört in die Phase {phase}; jetzt ist die Phase "
            "{now}.",
            "rivetwars.not_deploy_segment": "{segment} ist keines deiner Aufstellungssegmente "
            "({segments}).",
            "rivetwars.cannot_deploy": "{unit} kann nicht in {segment} aufgestellt werden: "
            "{problem}.",
            "rivetwars.too_dear": "{unit} kostet {cost} Punkte und {rivets} Nieten; du hast "
            "{points_left} Punkte und {rivets_left} Nieten.",
            "rivetwars.not_yours": "{unit!r} ist keine deiner Einheiten.",
            "rivetwars.spent": "{unit} wurde in dieser Phase schon aktiviert (die Aktivierung "
            "seines Segments ist vorbei).",
            "rivetwars.own_segment": "In {segment} steht eine deiner Einheiten; angegriffen "
            "werden nur Segmente ohne eigene Einheiten.",
            "rivetwars.not_a_segment": "{segment} ist kein Segment; Segmente heißen nach ihrem "
            "Feld oben links (A1, C1, ..., A3, ...).",
            "rivetwars.not_next": "{segment} liegt nicht neben dem Segment {here} von {unit}; "
            "gezogen wird ein Segment nach dem anderen.",
            "rivetwars.cannot_enter": "{unit} kann nicht nach {segment}: {problem}.",
            # what stops a unit entering a segment (the problem in the two refusals above)
            "enemy units there": "dort stehen feindliche Einheiten",
            "segment full (4 units)": "das Segment ist voll (4 Einheiten)",
            "off the map": "außerhalb der Karte",
            "only infantry may enter a bunker": "nur Infanterie darf in einen Bunker",
            "only infantry may enter an objective": "nur Infanterie darf auf ein Ziel",
            "only infantry may enter a tanktrap": "nur Infanterie darf auf eine Panzersperre",
            "infantry cannot enter barbed wire": "Infanterie kann nicht in Stacheldraht",
            # armour classes named in a refusal (the rulebook's "Panzerung")
            "light": "leicht",
            "medium": "mittel",
            "heavy": "schwer",
            "rivetwars.not_your_type": "{unit!r} ist keiner deiner Einheitentypen.",
            "rivetwars.none_left": "Es ist kein {unit} mehr zum Aufstellen übrig (Anzahl in der "
            "Schachtel, oder ein Held wurde schon eingesetzt).",
            "rivetwars.plugin_host": "{unit} ist ein Aufstecker: stelle ihn auf eine deiner "
            "Einheiten (to:<Einheit>) mit freiem Sockel in deinem Gebiet.",
            "rivetwars.no_socket": "{unit} hat keinen freien Sockel.",
            "rivetwars.plugin_territory": "{unit} steht nicht in deinem Gebiet; Aufstecker kommen "
            "nur zu Einheiten im eigenen Gebiet.",
            "rivetwars.no_advance": "{unit} hat keinen Schnellen Vorstoß (weder eigenen noch von "
            "einem Aufstecker oder als Vorteil seines Segments).",
            "rivetwars.no_rush": "{unit} kann nicht Rasen (weder selbst noch durch einen "
            "Aufstecker oder als Vorteil seines Segments).",
            "rivetwars.advance_first": "{unit} hat in dieser Aktivierung schon gehandelt; der "
            "Schnelle Vorstoß muss zuerst kommen.",
            "rivetwars.rush_first": "{unit} hat in dieser Aktivierung schon gehandelt; Rasen muss "
            "zuerst kommen und ersetzt den Angriff.",
            "rivetwars.advance_used": "{unit} hat alle {total} Segmente seines Schnellen Vorstoßes "
            "verbraucht.",
            "rivetwars.rush_used": "{unit} hat alle {total} Segmente seines Rasens verbraucht.",
            "rivetwars.one_diagonal": "{unit} ist in dieser Aktivierung schon einmal diagonal "
            "gezogen; nur ein diagonaler Schritt pro Aktivierung.",
            "rivetwars.advanced_no_move": "{unit} hat in diesem Zug einen Schnellen Vorstoß "
            "gemacht und darf sich in der Bewegungsphase nicht bewegen.",
            "rivetwars.not_in_hand": "{card!r} hast du nicht auf der Hand.",
            "rivetwars.not_in_hand_of": "{card!r} hast du nicht auf der Hand ({hand}).",
            "rivetwars.hand_empty": "{card!r} hast du nicht auf der Hand (sie ist leer).",
            "rivetwars.not_reaction": "{card} ist keine Reaktionskarte; nur eine Reaktionskarte "
            "antwortet auf einen Angriff.",
            "rivetwars.cover_where": "Take Cover! kommt auf eine deiner Einheiten im angegriffenen "
            "Segment {segment}; {unit!r} gehört nicht dazu.",
            "rivetwars.not_pushed": "{unit!r} wurde nicht verdrängt; ausweichen müssen: {units}.",
            "rivetwars.retreat_where": "{segment!r} ist kein Segment neben {here}, das {unit} "
            "betreten könnte.",
            "rivetwars.drop_where": "{segment!r} ist kein Segment dieser Karte (Segmente: A1, C1, "
            "..., A3, ...).",
            "rivetwars.waiting_reaction": "Die Partie wartet auf {side}: /play mit einer "
            "Reaktionskarte (Take Cover!) auf eine deiner Einheiten in {segment}, oder /pass.",
            "rivetwars.waiting_retreat": "Die Partie wartet auf {side}: /retreat für jede "
            "verdrängte Einheit in ein benachbartes Segment.",
            "rivetwars.waiting_paradrop": "Die Partie wartet auf {side}: /place mit dem "
            "Absprungsegment der Fallschirmjäger.",
            "rivetwars.no_reaction": "Es gibt keinen feindlichen Angriff zu beantworten; /pass "
            "gilt nur für Reaktionen.",
            "rivetwars.place_paratroopers": "/place gehört zu den Fallschirmjägern von Mission 9, "
            "zu Beginn des Zuges ihrer Seite.",
            "rivetwars.no_retreat": "/retreat antwortet auf einen Panzerschreck; keine deiner "
            "Einheiten wurde verdrängt.",
            "rivetwars.discard_phase": "Action!-Karten werden in der Kartenphase abgeworfen; jetzt "
            "ist die Phase {phase}.",
            "rivetwars.discarded_already": "Du hast in dieser Kartenphase schon eine Action!-Karte "
            "abgeworfen.",
            "rivetwars.regrouped": "{unit} wurde in dieser Bewegungsphase schon umgruppiert.",
            "rivetwars.regroup_where": "{square!r} ist kein Feld im Segment {segment} von {unit}; "
            "umgruppiert wird nur innerhalb des Segments.",
            "rivetwars.stands_there": "{unit} steht schon auf {square}.",
            "rivetwars.reaction_only": "{card} ist eine Reaktionskarte: sie wird gespielt, wenn "
            "ein feindlicher Angriff gerade würfeln will.",
            "rivetwars.card_phase_any": "{card} wird in deiner Aufstellungs-, Kampf- oder "
            "Bewegungsphase gespielt; jetzt ist die Phase {now}.",
            "rivetwars.card_phase_deploy": "{card} wird in deiner Aufstellungsphase gespielt; "
            "jetzt ist die Phase {now}.",
            "rivetwars.card_phase_combat": "{card} wird in deiner Kampfphase gespielt; jetzt ist "
            "die Phase {now}.",
            "rivetwars.card_phase_move": "{card} wird in deiner Bewegungsphase gespielt; jetzt "
            "ist die Phase {now}.",
            "rivetwars.card_phase_card": "{card} wird in deiner Kartenphase gespielt; jetzt ist "
            "die Phase {now}.",
            "rivetwars.no_weapon": "{unit} hat keine Waffe.",
            "rivetwars.ref_not_square": "{square!r} ist kein Feld der Karte (z. B. C4).",
            "rivetwars.ref_occupied": "Das Feld {square} ist besetzt.",
            "rivetwars.which_weapon": "{unit} hat mehrere Waffen: gib choice: an ({weapons}).",
            "rivetwars.no_such_weapon": "{unit} hat keine Waffe {weapon!r}; seine Waffen: "
            "{weapons}.",
            "rivetwars.rushed": "{unit} ist in dieser Aktivierung als [Aktion] gerast und kann "
            "nicht angreifen.",
            "rivetwars.attacks_used": "{unit} hat in dieser Phase alle {attacks} Angriffe mit "
            "{weapon} gemacht.",
            "rivetwars.no_gas": "Alle {markers} Gasmarker der Schachtel liegen auf der Karte; "
            "keine neue Wolke möglich.",
            "rivetwars.not_sniper": "Nur die Einzelangriffe eines Scharfschützen nennen eine "
            "Zieleinheit; greife ein Segment mit to:<Segment> an.",
            "rivetwars.not_enemy": "{unit!r} ist keine feindliche Einheit auf der Karte.",
            "rivetwars.sniper_target": "{unit} ist ein Scharfschütze: nenne die feindliche "
            "Einheit mit target:<Einheit>.",
            "rivetwars.no_enemy": "In {segment} steht keine feindliche Einheit.",
            "rivetwars.range_zero_ground": "{weapon} kann keine Bodenziele angreifen (Reichweite "
            "0).",
            "rivetwars.range_zero_air": "{weapon} kann keine Luftziele angreifen (Reichweite 0).",
            "rivetwars.out_of_range_ground": "{segment} ist {distance} Segmente entfernt; {weapon} "
            "von {unit} reicht {reach} gegen Bodenziele.",
            "rivetwars.out_of_range_air": "{segment} ist {distance} Segmente entfernt; {weapon} "
            "von {unit} reicht {reach} gegen Luftziele.",
            "rivetwars.zero_dice": "{unit} (Panzerung {armour}) kann von {weapon} nicht verletzt "
            "werden: 0 Würfel.",
            "rivetwars.zero_dice_first": "{unit} (erste in der Zielreihenfolge des Verteidigers, "
            "Panzerung {armour}) kann von {weapon} nicht verletzt werden: 0 Würfel.",
        }
    }
    phases = CYCLE.phases
    setup_phases = ("deploy",)
    default_scenario = "mission-1"
    commands = (
        Command(
            "end-phase",
            "End the current phase (the card phase draws your cards)",
            description_i18n={"de": "Aktuelle Phase beenden (die Kartenphase zieht Karten)"},
        ),
        Command(
            "discard",
            "Card phase: discard one action card before drawing",
            (Option("card", "card", "Action card in your hand"),),
            {"de": "Kartenphase: eine Action!-Karte abwerfen"},
        ),
        Command(
            "deploy",
            "Deploy a unit type into one of your deployment segments (a plug-in: to an own unit)",
            (
                Option("unit", "choice", "Unit type"),
                Option("to", "hex", "Deployment segment or host unit"),
            ),
            {"de": "Einheit in ein Aufstellungssegment bringen (Aufstecker: auf eigene Einheit)"},
        ),
        Command(
            "attack",
            "Combat: attack a segment (or, for a sniper, a unit) with one attack",
            (
                Option("unit", "unit", "Your unit"),
                Option("to", "hex", "Target segment", False),
                Option("target", "target", "Target unit (snipers)", False),
                Option("choice", "choice", "Weapon, if the unit has several", False),
            ),
            {"de": "Kampf: ein Segment (Scharfschütze: eine Einheit) angreifen"},
        ),
        Command(
            "advance",
            "Combat: Quick Advance one segment before attacking",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Adjacent segment")),
            {"de": "Kampf: Schneller Vorstoß um ein Segment"},
        ),
        Command(
            "rush",
            "Combat [Action]: Rush one segment instead of attacking",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Adjacent segment")),
            {"de": "Kampf [Aktion]: Rasen um ein Segment"},
        ),
        Command(
            "move",
            "Movement: move a unit one segment",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Adjacent segment")),
            {"de": "Bewegung: Einheit ein Segment bewegen"},
        ),
        Command(
            "regroup",
            "Movement: move a unit to another square of its segment (swapping)",
            (
                Option("unit", "unit", "Your unit"),
                Option("to", "hex", "Square in the same segment"),
            ),
            {"de": "Bewegung: innerhalb des Segments umgruppieren"},
        ),
        Command(
            "play",
            "Play an action card (a reaction card when the game waits for your reaction)",
            (
                Option("card", "card", "Action card"),
                Option("unit", "unit", "Your unit", False),
                Option("to", "hex", "Target segment", False),
            ),
            {
                "de": "Action!-Karte spielen (Reaktionskarte, wenn das Spiel auf deine Reaktion wartet)"
            },
        ),
        Command(
            "pass",
            "Let the enemy attack go ahead without playing a reaction card",
            description_i18n={"de": "Den feindlichen Angriff ohne Reaktionskarte geschehen lassen"},
        ),
        Command(
            "place",
            "Paratroopers: choose the drop segment",
            (Option("to", "hex", "Segment"),),
            {"de": "Fallschirmjäger: Absprungsegment wählen"},
        ),
        Command(
            "retreat",
            "Tank shock: move your shocked unit to an adjacent segment",
            (Option("unit", "unit", "Your unit"), Option("to", "hex", "Adjacent segment")),
            {"de": "Panzerschreck: verdrängte Einheit versetzen"},
        ),
    )

    def term(self, text, lang):
        """Side, phase and refusal words, and a unit type's name (a refusal names the type
        it refuses) under the rulebook's German name."""
        if lang == "de" and text in _type_names_de():
            return _type_names_de()[text]
        return super().term(text, lang)

    def suggested_actions(self, state, side):
        """The mission's suggested first deployment (``suggested``): only in ``side``'s
        deployment phase of round 1 and before it has deployed anything, since every later
        deployment phase answers a position no file can foresee."""
        if (
            state.get("turn") != 1
            or state.get("phase") != "deploy"
            or state.get("active") != side
            or any(u["side"] == side for u in state["units"].values())
        ):
            return []
        pairs = (state.get("suggested") or {}).get(side) or []
        return [{"type": "deploy", "side": side, "unit": unit, "to": seg} for unit, seg in pairs]

    # ----- scenarios -------------------------------------------------------------------------
    def scenarios(self):
        out = []
        for name in data.mission_names():
            scn = data.load(name)
            out.append(
                Scenario(
                    name,
                    scn["title"],
                    f"{scn['tiles']}; first to {scn['victory']['allies']}"
                    f"/{scn['victory']['bismark']} VP (Allies/Bismark)",
                )
            )
        return out

    def packaged_names(self) -> list[str]:
        return data.mission_names()

    def load_scenario(self, name: str) -> dict:
        return data.load(name or self.default_scenario)

    def scenario_from_document(self, document: dict, label: str) -> dict:
        return data.from_document(document, label)

    def build_scenario(self, raw: dict) -> dict:
        """Validate an in-memory scenario (tests, tools); same format as a scenario file."""
        return data.build(raw, "<scenario>")

    def setup(self, scenario: dict, dice: Dice):
        scn = clone(scenario)
        events: list[dict] = []
        mission = {
            k: scn.get(k)
            for k in (
                "name",
                "title",
                "tiles",
                "resources",
                "cards",
                "victory",
                "objective_vp",
                "round_vp",
                "infantry_points",
                "escalation",
                "paratroopers",
                "deploy",
                "territory_of",
                "round_limit",
                "first",
            )
        }
        terrain: dict[str, list[str]] = {}
        for kind, segs in scn["terrain"].items():
            for label in segs:
                terrain.setdefault(label, []).append(kind)
        state = {
            "game": self.name,
            "scenario": scn["name"],
            "result": None,
            "mission": mission,
            "roster": scn.get("roster") or {},
            "terrain": terrain,
            "units": {},
            "counter": {},
            "vp": {s: 0 for s in SIDES},
            "rivets": {s: 0 for s in SIDES},
            "points": {s: 0 for s in SIDES},
            "infantry_points": {s: 0 for s in SIDES},
            "free_units": {s: 0 for s in SIDES},
            "heroes_used": list(scn.get("heroes_used") or []),
            "hands": {s: [] for s in SIDES},
            "secrets": {s: [] for s in SIDES},
            "decks": {"action": [], "action_discard": [], "secret": [], "secret_discard": []},
            "first_turn": bool(scn.get("first_turn", "phase" not in scn)),
            "discarded": False,
            "flags": dict(scn.get("flags") or {}),
            "clouds": [],
            "act": None,
            "spent": [],
            "ust": {},
            "no_move": [],
            "regrouped": [],
            "effects": {"precision": {}, "dig_in": {}, "march": {}, "cover": {}},
            "kills": [],
            "pending": None,
            "escalation_vp": {s: 0 for s in SIDES},
            "overtime": False,
            "awaiting": [],
        }
        for key in ("vp", "rivets", "points", "escalation_vp"):
            state[key].update(scn.get(key) or {})
        for side in SIDES:
            state["hands"][side] = list((scn.get("hands") or {}).get(side, []))
            state["secrets"][side] = list((scn.get("secrets") or {}).get(side, []))
        for i, cloud in enumerate(scn.get("clouds") or []):
            state["clouds"].append(
                {
                    "id": i + 1,
                    "at": cloud["at"].upper(),
                    "owner": cloud["owner"],
                    "dice": cloud["dice"],
                    "precision": cloud.get("precision", 0),
                    "placed": cloud.get("placed", scn.get("turn", 1)),
                }
            )
        units = scn.get("units")
        if units is None:
            units = []
            start = scn.get("start_on_objectives")
            if start:
                for label in scn["terrain"].get("objective", []):
                    units.append(
                        {
                            "type": start["unit"],
                            "side": start["side"],
                            "at": sqlabel(squares_of(known_seg(state, label))[0]),
                        }
                    )
        for unit in units:
            uid = unit.get("id") or self._new_id(state, unit["type"])
            state["units"][uid] = {
                "type": unit["type"],
                "side": roster(state)[unit["type"]]["side"],
                "at": unit["at"].upper(),
                "damage": unit.get("damage", 0),
                "plugins": list(unit.get("plugins", [])),
            }
            for t in [unit["type"], *unit.get("plugins", [])]:
                if roster(state)[t].get("hero") and t not in state["heroes_used"]:
                    state["heroes_used"].append(t)
        for uid in state["units"]:
            t = state["units"][uid]["type"]
            prefix, _, num = uid.rpartition("-")
            if prefix == t and num.isdigit():
                state["counter"][t] = max(state["counter"].get(t, 0), int(num))
        card_data = data.cards()
        held = {c for s in SIDES for c in state["hands"][s] + state["secrets"][s]}
        decks = scn.get("decks") or {}
        if "action" in decks:
            state["decks"]["action"] = list(decks["action"])
        else:
            state["decks"]["action"] = dice.shuffle(
                [c for c in card_data["action"] if c not in held], "shuffle action cards", events
            )
        if "secret" in decks:
            state["decks"]["secret"] = list(decks["secret"])
        else:
            state["decks"]["secret"] = dice.shuffle(
                [c for c in card_data["secret"] if c not in held], "shuffle secret missions", events
            )
        state["turn"] = scn.get("turn", 1)
        if scn.get("suggested"):
            state["suggested"] = clone(scn["suggested"])
        state["spent"] = list(scn.get("spent") or [])
        state["no_move"] = list(scn.get("no_move") or [])
        if "phase" in scn:
            state["order"] = list(
                scn.get("order")
                or [scn.get("active") or SIDES[0], other(scn.get("active") or SIDES[0])]
            )
            state["active"] = scn.get("active") or state["order"][0]
            state["phase"] = scn["phase"]
            if "points" not in scn and state["phase"] == "deploy":
                self._enter_deploy(state, events)
            state["awaiting"] = [state["active"]]
            return state, events
        # Without a phase the game starts at the very beginning of a turn, so the start-of-turn
        # steps (gas drift and gas attacks, flags, paratroopers) run: by default the first turn
        # of round 1, or the turn of ``active`` in round ``turn``.
        start_side = scn.get("active")
        if scn.get("order"):
            state["order"] = list(scn["order"])
        elif start_side:
            state["order"] = [start_side, other(start_side)]
        elif mission.get("first"):
            first = str(mission["first"])
            state["order"] = [first, other(first)]
            events.append({"type": "initiative", "order": state["order"], "reason": "mission"})
        else:
            self._roll_initiative(state, dice, events)
        turn = state["turn"]
        started = CYCLE.start(state)
        state["turn"] = turn
        if start_side:
            state["active"] = start_side
            state["awaiting"] = [start_side]
        for event in started:
            event["side"] = state["active"]
            if "turn" in event:
                event["turn"] = turn
        events += started
        if "first_turn" not in scn:
            # Only the game's very first turn draws no action card.
            state["first_turn"] = turn == 1 and state["active"] == state["order"][0]
        self._on_enter(state, "card", events, dice)
        self._settle(state, events, dice)
        return state, events

    # ----- small helpers ------------------------------------------------------------------------
    def _new_id(self, state, utype):
        n = state["counter"].get(utype, 0) + 1
        while f"{utype}-{n}" in state["units"]:
            n += 1
        state["counter"][utype] = n
        return f"{utype}-{n}"

    def spec(self, state, uid):
        return roster(state)[state["units"][uid]["type"]]

    def seg(self, state, uid) -> tuple[int, int]:
        return seg_of_square(sq(state["units"][uid]["at"]))

    def seg_name(self, state, uid) -> str:
        return seg_label(self.seg(state, uid))

    def occupancy(self, state) -> dict:
        """segment label -> [unit ids] and square label -> unit id."""
        segs: dict[str, list[str]] = {}
        squares: dict[str, str] = {}
        for uid in sorted(state["units"]):
            unit = state["units"][uid]
            squares[unit["at"]] = uid
            segs.setdefault(seg_label(seg_of_square(sq(unit["at"]))), []).append(uid)
        return {"segs": segs, "squares": squares}

    def is_infantry(self, state, utype):
        return roster(state)[utype]["class"] == "infantry"

    def hp(self, state, uid):
        unit = state["units"][uid]
        return roster(state)[unit["type"]]["hp"] + sum(
            roster(state)[p].get("hp_bonus", 0) for p in unit["plugins"]
        )

    def _own_abilities(self, state, uid, advantage_only=False) -> dict:
        unit = state["units"][uid]
        out: dict[str, int] = {}
        for t in [unit["type"], *unit["plugins"]]:
            for ab in roster(state)[t].get("abilities", []):
                if advantage_only and not ab.get("advantage"):
                    continue
                out[ab["name"]] = out.get(ab["name"], 0) + ab.get("x", 1)
        return out

    def _segment_advantages(self, state, side, label, occ) -> dict:
        out: dict[str, int] = {}
        for uid in occ["segs"].get(label, []):
            if state["units"][uid]["side"] != side:
                continue
            for name, x in self._own_abilities(state, uid, advantage_only=True).items():
                out[name] = max(out.get(name, 0), x)
        return out

    def abilities(self, state, uid, occ=None) -> dict:
        """A unit's abilities now: its own and its plug-ins', plus the advantages it holds (those
        of its activation group while activated, else those of its segment)."""
        occ = occ or self.occupancy(state)
        own = self._own_abilities(state, uid)
        act = state.get("act")
        if act and uid in act["group"]:
            adv = act["adv"]
        else:
            adv = self._segment_advantages(
                state, state["units"][uid]["side"], self.seg_name(state, uid), occ
            )
        out = dict(own)
        for name, x in adv.items():
            if name not in own or own[name] < x:
                out[name] = max(own.get(name, 0), x)
        return out

    def weapons(self, state, uid) -> list[tuple[str, dict]]:
        unit = state["units"][uid]
        out: list[tuple[str, dict]] = []
        for t in [unit["type"], *unit["plugins"]]:
            for w in roster(state)[t].get("weapons", []):
                key = w["id"] if all(w["id"] != k for k, _ in out) else f"{t}-{w['id']}"
                out.append((key, w))
        return out

    def is_air(self, state, uid):
        return self.spec(state, uid)["armour"] == 5

    def _enter_problem(self, state, utype, side, label, occ, mover=None) -> str | None:
        """Why a unit of ``utype`` cannot enter segment ``label`` (None if it can)."""
        seg = board(state).parse_seg(label)
        if seg is None:
            return "off the map"
        here = [u for u in occ["segs"].get(label, []) if u != mover]
        if any(state["units"][u]["side"] != side for u in here):
            return "enemy units there"
        if len(here) >= SEGMENT_CAPACITY:
            return "segment full (4 units)"
        return self._terrain_problem(state, utype, label)

    def _terrain_problem(self, state, utype, label):
        kinds = state["terrain"].get(label, [])
        infantry = self.is_infantry(state, utype)
        if not infantry:
            for kind in INFANTRY_ONLY:
                if kind in kinds:
                    return f"only infantry may enter {with_article(kind)}"
        if infantry and "wire" in kinds:
            return "infantry cannot enter barbed wire"
        return None

    def _free_square(self, state, label, occ, mover=None) -> str | None:
        seg = known_seg(state, label)
        for s in squares_of(seg):
            lab = sqlabel(s)
            if lab not in occ["squares"] or occ["squares"][lab] == mover:
                return lab
        return None

    def _pool_left(self, state, side, utype) -> int:
        spec = roster(state)[utype]
        on_board = sum(
            1 for u in state["units"].values() for t in [u["type"], *u["plugins"]] if t == utype
        )
        if spec.get("hero") and utype in state["heroes_used"]:
            return 0
        return spec["count"] - on_board

    def _facing_north(self, side):
        return side == "allies"

    def territory(self, state, label):
        return state["mission"]["territory_of"].get(label)

    # ----- the turn machinery ------------------------------------------------------------
    def _roll_initiative(self, state, dice, events):
        while True:
            rolls = {s: dice.roll(f"initiative {self.side_titles[s]}", events) for s in SIDES}
            if rolls[SIDES[0]] != rolls[SIDES[1]]:
                break
            events.append({"type": "initiative_tie", "value": rolls[SIDES[0]]})
        first = max(SIDES, key=lambda s: rolls[s])
        state["order"] = [first, other(first)]
        events.append({"type": "initiative", "order": state["order"], "rolls": rolls})

    def _advance(self, state, events, dice):
        def on_enter(st, phase, evs):
            self._on_enter(st, phase, evs, dice)

        def on_round_end(st, evs):
            if st["mission"].get("escalation"):
                st["escalation_vp"] = dict(st["vp"])
                evs.append({"type": "escalation", "vp": dict(st["vp"])})
            self._roll_initiative(st, dice, evs)

        events += CYCLE.advance(state, on_enter, on_round_end)

    def _on_enter(self, state, phase, events, dice):
        if phase == "card":
            self._start_turn(state, events, dice)
        elif phase == "deploy":
            self._enter_deploy(state, events)
        elif phase == "combat":
            self._reset_activation(state)
            side = state["active"]
            keep = []
            for cloud in state["clouds"]:
                if cloud["owner"] == side and state["turn"] - cloud["placed"] >= 2:
                    events.append({"type": "gas_removed", "at": cloud["at"], "owner": side})
                else:
                    keep.append(cloud)
            state["clouds"] = keep
        elif phase == "move":
            self._reset_activation(state)
            state["regrouped"] = []

    def _reset_activation(self, state):
        state["act"] = None
        state["spent"] = []
        state["ust"] = {}
        state["effects"]["precision"] = {}
        state["effects"]["march"] = {}
        state["effects"]["cover"] = {}

    def _start_turn(self, state, events, dice):
        side = state["active"]
        state["kills"] = []
        state["discarded"] = False
        state["no_move"] = []
        state["effects"]["dig_in"] = {
            u: s for u, s in state["effects"]["dig_in"].items() if s != side
        }
        # Gas: the owner's clouds drift first, then everything standing in gas is attacked.
        hit_now: set[str] = set()
        for cloud in list(state["clouds"]):
            if cloud["owner"] != side or cloud["placed"] >= state["turn"]:
                continue
            target = self._deviate(state, cloud["at"], side, events, dice, "gas drift")
            events.append({"type": "gas_drift", "from": cloud["at"], "to": target, "owner": side})
            if target is None:
                state["clouds"].remove(cloud)
                continue
            cloud["at"] = target
            for uid in self.occupancy(state)["segs"].get(target, []):
                hit_now.add(uid)
                self._gas_attack(state, cloud, uid, events, dice)
        for cloud in list(state["clouds"]):
            for uid in list(self.occupancy(state)["segs"].get(cloud["at"], [])):
                if uid in hit_now or uid not in state["units"]:
                    continue
                hit_now.add(uid)
                self._gas_attack(state, cloud, uid, events, dice)
        # Control: own unit on an objective at the start of the turn plants the flag.
        occ = self.occupancy(state)
        for label in self._objectives(state):
            if any(state["units"][u]["side"] == side for u in occ["segs"].get(label, [])):
                if state["flags"].get(label) != side:
                    state["flags"][label] = side
                    events.append({"type": "flag_placed", "at": label, "side": side})
        para = state["mission"].get("paratroopers")
        if para and para["side"] == side and self._pool_left(state, side, para["unit"]) > 0:
            state["pending"] = {
                "kind": "paradrop",
                "side": side,
                "unit": para["unit"],
                "count": para["count"],
            }
            events.append({"type": "paradrop_ready", "side": side, "count": para["count"]})

    def _objectives(self, state):
        return sorted(label for label, kinds in state["terrain"].items() if "objective" in kinds)

    def _card_phase_has_choice(self, state):
        return bool(state["hands"][state["active"]]) and not state["discarded"]

    def _draw_cards(self, state, events, dice):
        side = state["active"]
        cfg = state["mission"]["cards"]
        if cfg["action"] and not state["first_turn"] and len(state["hands"][side]) < ACTION_HAND:
            card = self._take(state, "action", events, dice)
            if card:
                state["hands"][side].append(card)
                events.append(
                    {
                        "type": "card_drawn",
                        "side": side,
                        "card": card,
                        "deck": "action",
                        "private": side,
                    }
                )
                events.append({"type": "cards_drawn", "side": side, "deck": "action", "count": 1})
        if cfg["secret"]:
            drawn = 0
            while len(state["secrets"][side]) < SECRET_HAND:
                card = self._take(state, "secret", events, dice)
                if not card:
                    break
                state["secrets"][side].append(card)
                drawn += 1
                events.append(
                    {
                        "type": "card_drawn",
                        "side": side,
                        "card": card,
                        "deck": "secret",
                        "private": side,
                    }
                )
            if drawn:
                events.append(
                    {"type": "cards_drawn", "side": side, "deck": "secret", "count": drawn}
                )
        state["first_turn"] = False

    def _take(self, state, deck, events, dice):
        if not state["decks"][deck]:
            pile = state["decks"][deck + "_discard"]
            if not pile:
                return None
            state["decks"][deck] = dice.shuffle(pile, f"reshuffle {deck} discards", events)
            state["decks"][deck + "_discard"] = []
        return state["decks"][deck].pop(0)

    def _enter_deploy(self, state, events):
        side = state["active"]
        res = state["mission"]["resources"][side]
        points, rivets, free = res["points"], res["rivets"], 0
        if state["mission"].get("escalation"):
            bonus = ESCALATION.get(state["escalation_vp"].get(side, 0))
            if bonus == "point":
                points += 1
            elif bonus == "rivet":
                rivets += 1
            elif bonus == "points3":
                points += 3
            elif bonus == "free3":
                free = 3
            if bonus:
                events.append({"type": "escalation_bonus", "side": side, "bonus": bonus})
        state["points"][side] = points
        state["rivets"][side] += rivets
        state["infantry_points"][side] = state["mission"].get("infantry_points") or 0
        state["free_units"][side] = free
        events.append(
            {
                "type": "resources",
                "side": side,
                "points": points,
                "rivets": state["rivets"][side],
                "infantry_points": state["infantry_points"][side],
                "free_units": free,
            }
        )

    def _settle(self, state, events, dice):
        """Run the steps that need no decision: an empty card phase, the rally, the round end."""
        while not state.get("result"):
            if state.get("pending"):
                state["awaiting"] = [state["pending"]["side"]]
                return
            if state["phase"] == "card" and not self._card_phase_has_choice(state):
                self._draw_cards(state, events, dice)
                self._advance(state, events, dice)
                continue
            if state["phase"] == "rally":
                self._rally(state, events)
                if state["active"] == state["order"][-1]:
                    self._round_end(state, events)
                    if state.get("result"):
                        break
                self._advance(state, events, dice)
                continue
            break
        state["awaiting"] = [] if state.get("result") else [state["active"]]

    def _rally(self, state, events):
        side = state["active"]
        occ = self.occupancy(state)
        per = state["mission"]["objective_vp"].get(side, 1)
        for label in self._objectives(state):
            mine = any(state["units"][u]["side"] == side for u in occ["segs"].get(label, []))
            flag = state["flags"].get(label)
            if mine and flag == other(side):
                del state["flags"][label]
                events.append({"type": "flag_removed", "at": label, "side": other(side)})
                flag = None
            if mine or flag == side:
                events.append({"type": "captured", "at": label, "side": side, "vp": per})
                self._score(state, side, per, f"objective {label}", events)
        for card in list(state["secrets"][side]):
            mission = data.cards()["secret"][card]
            if self._secret_done(state, side, mission["goal"], occ):
                state["secrets"][side].remove(card)
                state["decks"]["secret_discard"].append(card)
                events.append(
                    {
                        "type": "reveal",
                        "side": side,
                        "card": card,
                        "what": "secret mission completed",
                    }
                )
                self._score(state, side, mission["vp"], f"secret mission {mission['name']}", events)

    def _secret_done(self, state, side, goal, occ) -> bool:
        mine = [u for u, unit in state["units"].items() if unit["side"] == side]
        segs = {self.seg_name(state, u) for u in mine}
        if goal == "breakthrough":
            return any(self.territory(state, s) == other(side) for s in segs)
        if goal == "headhunter":
            return any(k["hero"] for k in state["kills"])
        if goal == "attrition":
            return len(state["kills"]) >= 2
        if goal == "scrap-metal":
            return any(k["class"] != "infantry" for k in state["kills"])
        if goal == "no-mans-land":
            return sum(1 for s in segs if self.territory(state, s) is None) >= 2
        if goal == "standard-bearer":
            return sum(1 for f in state["flags"].values() if f == side) >= 2
        if goal == "wide-front":
            return len(segs) >= 6
        return False

    def _score(self, state, side, vp, why, events):
        if vp:
            state["vp"][side] += vp
            events.append(
                {"type": "vp", "side": side, "vp": vp, "total": state["vp"][side], "why": why}
            )

    def _round_end(self, state, events):
        for side, vp in (state["mission"].get("round_vp") or {}).items():
            self._score(state, side, vp, "end of round", events)
        vp = state["vp"]
        target = state["mission"]["victory"]
        reached = [s for s in SIDES if vp[s] >= target[s]]
        winner = None
        reason = ""
        if state["overtime"] or reached:
            if len(reached) == 1 and not state["overtime"]:
                winner, reason = reached[0], f"reached {target[reached[0]]} victory points"
            elif vp[SIDES[0]] != vp[SIDES[1]]:
                winner = max(SIDES, key=lambda s: vp[s])
                reason = (
                    f"ended the round ahead on victory points ({vp[winner]} to {vp[other(winner)]})"
                )
            else:
                if not state["overtime"]:
                    events.append({"type": "tied", "vp": dict(vp)})
                state["overtime"] = True
        if winner:
            state["result"] = {"winner": winner, "reason": reason}
        elif (
            state["mission"].get("round_limit") and state["turn"] >= state["mission"]["round_limit"]
        ):
            if vp[SIDES[0]] == vp[SIDES[1]]:
                state["result"] = {
                    "winner": None,
                    "reason": f"round limit {state['turn']}: tied on victory points",
                }
            else:
                winner = max(SIDES, key=lambda s: vp[s])
                state["result"] = {
                    "winner": winner,
                    "reason": f"round limit {state['turn']}: more victory points",
                }
        if state["result"]:
            events.append({"type": "game_over", **state["result"]})

    # ----- deviation -------------------------------------------------------------------------
    def _deviate(self, state, label, side, events, dice, why):
        """Draw the top action card and shift ``label`` by its diagram, seen from ``side``.
        None when the result is off the map."""
        card = self._take(state, "action", events, dice)
        seg = board(state).parse_seg(label)
        if card is None:
            events.append(
                {"type": "deviation", "why": why, "card": None, "from": label, "to": label}
            )
            return label
        state["decks"]["action_discard"].append(card)
        direction = data.cards()["action"][card]["deviation"]
        dx, dy = deviation_step(direction, self._facing_north(side))
        new = (seg[0] + dx, seg[1] + dy)
        to = seg_label(new) if board(state).on_board(new) else None
        events.append(
            {
                "type": "deviation",
                "why": why,
                "card": card,
                "direction": direction,
                "from": label,
                "to": to,
                "side": side,
            }
        )
        return to

    # ----- attacks -----------------------------------------------------------------------------
    def _defence(self, state, uid, occ) -> int:
        ab = self.abilities(state, uid, occ)
        value = ab.get("reinforced_defence", 0)
        if self.is_infantry(state, state["units"][uid]["type"]) and "bunker" in state[
            "terrain"
        ].get(self.seg_name(state, uid), []):
            value += 1
        if uid in state["effects"]["dig_in"]:
            value += 1
        if uid in state["effects"].get("cover", {}):
            value += 1
        return value

    def dice_against(self, state, chart, uid, occ) -> int:
        base = chart[self.spec(state, uid)["armour"] - 1]
        if base <= 0:
            return 0
        return max(1, base - self._defence(state, uid, occ))

    def _roll_attack(self, state, attacker_desc, uid, n, precision, events, dice, kind):
        values = dice.roll_many(n, f"{attacker_desc} vs {uid}", events)
        hit = any(v + precision >= HIT for v in values)
        events.append(
            {
                "type": "attack",
                "by": attacker_desc,
                "target": uid,
                "dice": values,
                "precision": precision,
                "hit": hit,
                "kind": kind,
            }
        )
        return hit

    def _damage(self, state, uid, killer_side, events):
        unit = state["units"][uid]
        unit["damage"] += 1
        events.append(
            {"type": "damage", "unit": uid, "damage": unit["damage"], "hp": self.hp(state, uid)}
        )
        if unit["damage"] >= self.hp(state, uid):
            self._eliminate(state, uid, killer_side, events)

    def _eliminate(self, state, uid, killer_side, events):
        unit = state["units"].pop(uid)
        types = [unit["type"], *unit["plugins"]]
        events.append(
            {
                "type": "eliminated",
                "unit": uid,
                "side": unit["side"],
                "at": unit["at"],
                "types": types,
            }
        )
        # kept for the picture's losses strip (a unit leaves ``units`` when it is eliminated)
        state.setdefault("lost", {}).setdefault(unit["side"], []).append(
            {"unit": uid, "types": types}
        )
        if killer_side and killer_side != unit["side"]:
            loot = sum(roster(state)[t].get("loot", 0) for t in types)
            self._score(state, killer_side, loot, f"loot {uid}", events)
            if killer_side == state["active"]:
                spec = roster(state)[unit["type"]]
                state["kills"].append(
                    {
                        "type": unit["type"],
                        "class": spec["class"],
                        "hero": any(roster(state)[t].get("hero") for t in types),
                    }
                )
        for key in ("spent", "no_move", "regrouped"):
            if uid in state[key]:
                state[key].remove(uid)
        state["ust"].pop(uid, None)
        for eff in state["effects"].values():
            eff.pop(uid, None)
        if state.get("act") and uid in state["act"]["group"]:
            state["act"]["group"].remove(uid)

    def _gas_attack(self, state, cloud, uid, events, dice):
        if uid not in state["units"] or self._own_abilities(state, uid).get("gas_immune"):
            return
        n = self.dice_against(state, cloud["dice"], uid, self.occupancy(state))
        if n <= 0:
            return
        if self._roll_attack(
            state,
            f"gas cloud at {cloud['at']}",
            uid,
            n,
            cloud.get("precision", 0),
            events,
            dice,
            "gas",
        ):
            self._damage(state, uid, cloud["owner"], events)

    def _priority(self, state, label, side, occ) -> list[str]:
        """Units in ``label`` in ``side``'s segment target priority order."""
        seg = known_seg(state, label)
        out = []
        for dx, dy in data.cards()["priority"][side]:
            lab = sqlabel((seg[0] * 2 + dx, seg[1] * 2 + dy))
            if lab in occ["squares"]:
                out.append(occ["squares"][lab])
        return out

    def _range(self, state, uid, weapon, target_uid, occ, ab) -> int:
        if self.is_air(state, target_uid):
            base, bonus = weapon["air"], ab.get("range_air", 0)
        else:
            base, bonus = weapon["ground"], ab.get("range_ground", 0)
        return base + bonus if base > 0 else 0

    def _attack_options(self, state, uid, occ) -> list[dict]:
        """Every attack ``uid`` may make now (one per weapon/target), as action options."""
        side = state["units"][uid]["side"]
        ust = state["ust"].get(uid) or {}
        if ust.get("mode") == "rush":
            return []
        ab = self.abilities(state, uid, occ)
        here = self.seg(state, uid)
        weapons = self.weapons(state, uid)
        left = ust.get("attacks") or {k: w["attacks"] for k, w in weapons}
        out = []
        for key, weapon in weapons:
            if left.get(key, 0) <= 0 or (weapon.get("gas") and len(state["clouds"]) >= GAS_MARKERS):
                continue
            extra = {"choice": key} if len(weapons) > 1 else {}
            for label, uids in sorted(occ["segs"].items()):
                if any(state["units"][u]["side"] == side for u in uids):
                    continue
                dist = seg_range(here, known_seg(state, label))
                enemies = [u for u in uids if state["units"][u]["side"] != side]
                if not enemies:
                    continue

                def ok(t, weapon=weapon, dist=dist):
                    r = self._range(state, uid, weapon, t, occ, ab)
                    return (
                        r > 0 and dist <= r and self.dice_against(state, weapon["dice"], t, occ) > 0
                    )

                if ab.get("sniper") and not (weapon.get("area") or weapon.get("gas")):
                    for t in enemies:
                        if ok(t):
                            out.append({"target": t, **extra})
                elif weapon.get("area") or weapon.get("gas"):
                    if any(ok(t) for t in enemies):
                        out.append({"to": label, **extra})
                else:
                    first = self._priority(state, label, other(side), occ)
                    if first and ok(first[0]):
                        out.append({"to": label, **extra})
        return out

    def _resolve_attack(self, state, uid, action, events, dice):
        side = state["units"][uid]["side"]
        weapons = dict(self.weapons(state, uid))
        key = action.get("choice") or next(iter(weapons))
        weapon = weapons[key]
        ust = state["ust"].setdefault(uid, {})
        ust.setdefault("attacks", {k: w["attacks"] for k, w in weapons.items()})
        ust["attacks"][key] -= 1
        ust["mode"] = "attack"
        if "target" in action:
            target_seg = self.seg_name(state, action["target"])
        else:
            target_seg = action["to"].upper()
        events.append(
            {
                "type": "attack_declared",
                "unit": uid,
                "weapon": key,
                "at": target_seg,
                "from": state["units"][uid]["at"],
                "target": action.get("target"),
            }
        )
        if weapon.get("deviation"):
            target_seg = self._deviate(state, target_seg, side, events, dice, f"{uid} {key}")
            if target_seg is None:
                events.append({"type": "attack_lost", "unit": uid, "why": "deviated off the map"})
                return
        strike = {"kind": "attack", "unit": uid, "weapon": key, "at": target_seg}
        if "target" in action:
            strike["target"] = action["target"]
        if not self._open_reaction(state, target_seg, strike, events):
            self._strike(state, strike, events, dice)

    def _open_reaction(self, state, label, strike, events) -> bool:
        """Pause an attack of the active side before its dice so the defender may answer with a
        reaction card. The pause depends only on public facts (the defender has units in the
        segment and holds at least one action card), so it tells nothing about the hand."""
        defender = other(state["active"])
        if state["phase"] != "combat" or not state["hands"][defender]:
            return False
        if not any(
            state["units"][u]["side"] == defender
            for u in self.occupancy(state)["segs"].get(label, [])
        ):
            return False
        state["pending"] = {
            "kind": "reaction",
            "side": defender,
            "segment": label,
            "strike": strike,
        }
        events.append({"type": "reaction_window", "side": defender, "at": label})
        return True

    def _resume_strike(self, state, events, dice):
        strike = state["pending"]["strike"]
        state["pending"] = None
        if strike["kind"] == "barrage":
            self._barrage(state, strike["side"], strike["at"], events, dice)
        else:
            self._strike(state, strike, events, dice)

    def _strike(self, state, strike, events, dice):
        """Roll an attack whose target segment is final (after deviation and reactions)."""
        uid, key, target_seg = strike["unit"], strike["weapon"], strike["at"]
        if uid not in state["units"]:
            return
        side = state["units"][uid]["side"]
        occ = self.occupancy(state)
        ab = self.abilities(state, uid, occ)
        weapon = dict(self.weapons(state, uid))[key]
        precision = ab.get("precision", 0) + state["effects"]["precision"].get(uid, 0)
        desc = uid
        present_units = occ["segs"].get(target_seg, [])
        if not present_units:
            events.append({"type": "attack_lost", "unit": uid, "why": f"no unit in {target_seg}"})
            return
        if weapon.get("gas"):
            cloud = {
                "id": max([c["id"] for c in state["clouds"]] + [0]) + 1,
                "at": target_seg,
                "owner": side,
                "dice": list(weapon["dice"]),
                "precision": precision,
                "placed": state["turn"],
            }
            state["clouds"].append(cloud)
            events.append({"type": "gas_placed", "at": target_seg, "owner": side, "unit": uid})
            for t in list(present_units):
                self._gas_attack(state, cloud, t, events, dice)
            return
        here = self.seg(state, uid)
        dist = seg_range(here, board(state).parse_seg(target_seg))
        deviated = bool(weapon.get("deviation"))

        def in_reach(t):
            # A deviated attack is resolved "as if the new segment had been the target": its
            # distance no longer matters, but a range of 0 still means that kind of target
            # (ground or air) cannot be attacked at all.
            r = self._range(state, uid, weapon, t, occ, ab)
            return r > 0 and (deviated or dist <= r)

        if weapon.get("area"):
            for t in list(present_units):
                if t not in state["units"]:
                    continue
                occ = self.occupancy(state)
                n = self.dice_against(state, weapon["dice"], t, occ)
                if (
                    n > 0
                    and in_reach(t)
                    and self._roll_attack(state, desc, t, n, precision, events, dice, "area")
                ):
                    self._damage(state, t, side, events)
            return
        if "target" in strike:
            queue = [strike["target"]]
        else:
            owner_side = other(side)
            queue = self._priority(state, target_seg, owner_side, occ)
            if any(state["units"][u]["side"] == side for u in present_units):
                queue = [u for u in queue] + [
                    u for u in self._priority(state, target_seg, side, occ) if u not in queue
                ]
        for t in queue:
            if t not in state["units"]:
                continue
            occ = self.occupancy(state)
            n = self.dice_against(state, weapon["dice"], t, occ)
            if n <= 0 or not in_reach(t):
                if weapon.get("chain"):
                    continue
                events.append(
                    {"type": "attack_lost", "unit": uid, "why": f"{t} cannot be harmed by {key}"}
                )
                return
            hit = self._roll_attack(
                state,
                desc,
                t,
                n,
                precision,
                events,
                dice,
                "chain" if weapon.get("chain") else "single",
            )
            if hit:
                self._damage(state, t, side, events)
            if not (weapon.get("chain") and hit):
                return

    # ----- movement ----------------------------------------------------------------------------
    def _budget(self, state, uid, occ) -> int:
        ab = self.abilities(state, uid, occ)
        spec = self.spec(state, uid)
        points = spec["move"] + ab.get("movement_bonus", 0)
        act = state.get("act")
        if act and uid in act["group"] and "walk" in act:
            on_walkway = uid in act["walk"]
        else:
            on_walkway = self._on_walkway(state, uid)
        if ab.get("runner") and on_walkway:
            points += ab["runner"]
        return points + state["effects"]["march"].get(uid, 0)

    def _on_walkway(self, state, uid) -> bool:
        # Bunkers and objectives count as walkways for the whole segment they lie in.
        if sq(state["units"][uid]["at"]) in board(state).walkways:
            return True
        kinds = state["terrain"].get(self.seg_name(state, uid), [])
        return "bunker" in kinds or "objective" in kinds

    def _steps(self, state, uid, diag_used, occ) -> list[str]:
        unit = state["units"][uid]
        here = self.seg(state, uid)
        out = []
        tank = self.abilities(state, uid, occ).get("tank_shock", 0)
        for n in board(state).neighbours(here):
            if diag_used and n[0] != here[0] and n[1] != here[1]:
                continue
            label = seg_label(n)
            if self._enter_problem(state, unit["type"], unit["side"], label, occ, uid) is None:
                out.append(label)
            elif tank and self._shockable(state, uid, label, occ):
                out.append(label)
        return out

    def _shockable(self, state, uid, label, occ):
        side = state["units"][uid]["side"]
        there = occ["segs"].get(label, [])
        return (
            bool(there)
            and all(
                state["units"][u]["side"] != side
                and self.is_infantry(state, state["units"][u]["type"])
                for u in there
            )
            and self._terrain_problem(state, state["units"][uid]["type"], label) is None
        )

    def _step(self, state, uid, label, events, dice):
        """Move ``uid`` one segment; runs tank shock, wire, mines and gas on the way in."""
        occ = self.occupancy(state)
        unit = state["units"][uid]
        side = unit["side"]
        there = occ["segs"].get(label, [])
        if there and state["units"][there[0]]["side"] != side:
            x = self.abilities(state, uid, occ).get("tank_shock", 0)
            events.append({"type": "tank_shock", "unit": uid, "at": label, "dice": x})
            for t in self._priority(state, label, other(side), occ):
                occ = self.occupancy(state)
                n = max(1, x - self._defence(state, t, occ)) if x > 0 else 0
                if n and self._roll_attack(state, uid, t, n, 0, events, dice, "tank shock"):
                    self._damage(state, t, side, events)
            survivors = [
                u
                for u in self._priority(state, label, other(side), self.occupancy(state))
                if u in state["units"]
            ]
            state["pending"] = {
                "kind": "retreat",
                "side": other(side),
                "units": survivors,
                "from": label,
                "mover": uid,
                "to": label,
            }
            self._check_retreats(state, events, dice)
            return
        self._arrive(state, uid, label, events, dice)

    def _arrive(self, state, uid, label, events, dice):
        occ = self.occupancy(state)
        unit = state["units"][uid]
        square = self._free_square(state, label, occ, uid)
        events.append(
            {"type": "moved", "unit": uid, "from": unit["at"], "to": square, "segment": label}
        )
        unit["at"] = square
        kinds = state["terrain"].get(label, [])
        infantry = self.is_infantry(state, unit["type"])
        if "wire" in kinds and not infantry:
            kinds.remove("wire")
            events.append({"type": "wire_destroyed", "at": label, "unit": uid})
        if "minefield" in kinds and not infantry:
            # Reinforced Defence reduces "the dice rolled against your unit", mines included.
            n = max(1, MINE_DICE - self._defence(state, uid, self.occupancy(state)))
            if self._roll_attack(state, f"minefield {label}", uid, n, 0, events, dice, "mine"):
                self._damage(state, uid, None, events)
        for cloud in list(state["clouds"]):
            if cloud["at"] == label and uid in state["units"]:
                self._gas_attack(state, cloud, uid, events, dice)

    def _retreat_options(self, state, uid, occ) -> list[str]:
        pend = state["pending"]
        unit = state["units"][uid]
        out = []
        for n in board(state).neighbours(known_seg(state, pend["from"])):
            label = seg_label(n)
            if self._enter_problem(state, unit["type"], unit["side"], label, occ, uid) is None:
                out.append(label)
        return out

    def _check_retreats(self, state, events, dice):
        """Eliminate shocked units with nowhere to go; finish the shock once all have moved."""
        pend = state["pending"]
        occ = self.occupancy(state)
        for uid in list(pend["units"]):
            if uid not in state["units"]:
                pend["units"].remove(uid)
            elif not self._retreat_options(state, uid, occ):
                pend["units"].remove(uid)
                events.append({"type": "no_retreat", "unit": uid})
                self._eliminate(state, uid, state["active"], events)
                occ = self.occupancy(state)
        if not pend["units"]:
            state["pending"] = None
            mover = pend["mover"]
            if mover in state["units"]:
                self._arrive(state, mover, pend["to"], events, dice)
            state["awaiting"] = [state["active"]]
        else:
            state["awaiting"] = [pend["side"]]

    # ----- activation ------------------------------------------------------------------------
    def _activate(self, state, uid, events):
        act = state.get("act")
        if act and uid in act["group"]:
            return
        if act:
            state["spent"] += [u for u in act["group"] if u not in state["spent"]]
        side = state["units"][uid]["side"]
        label = self.seg_name(state, uid)
        occ = self.occupancy(state)
        group = [
            u
            for u in occ["segs"].get(label, [])
            if state["units"][u]["side"] == side and u not in state["spent"]
        ]
        adv = self._segment_advantages(state, side, label, occ)
        # Runner counts the square a unit stands on when its segment is activated.
        walk = [u for u in group if self._on_walkway(state, u)]
        state["act"] = {"segment": label, "group": group, "adv": adv, "walk": walk}
        events.append({"type": "activated", "segment": label, "units": group, "advantages": adv})

    def _selectable(self, state, side):
        return [
            u
            for u in sorted(state["units"])
            if state["units"][u]["side"] == side and u not in state["spent"]
        ]

    # ----- legal actions -----------------------------------------------------------------------
    def legal_actions(self, state, side):
        if state.get("result") or side not in self.awaiting(state):
            return []
        return self._legal(state, side)

    def awaiting(self, state):
        if state.get("result"):
            return []
        if state.get("pending"):
            return [state["pending"]["side"]]
        return [state["active"]]

    def _legal(self, state, side, only: str | None = None, unit: str | None = None) -> list[dict]:
        out: list[dict] = []

        def add(kind, **opts):
            if only is None or kind == only:
                out.append({"type": kind, "side": side, **opts})

        pend = state.get("pending")
        if pend:
            if pend["kind"] == "paradrop":
                for label in board(state).labels():
                    add("place", to=label)
            elif pend["kind"] == "reaction":
                add("pass")
                if only in (None, "play"):
                    out += self._reaction_plays(state, side, pend)
            else:
                occ = self.occupancy(state)
                for uid in pend["units"]:
                    if unit and uid != unit:
                        continue
                    for label in self._retreat_options(state, uid, occ):
                        add("retreat", unit=uid, to=label)
            return out
        phase = state["phase"]
        add("end-phase")
        if phase == "card":
            if not state["discarded"]:
                for card in state["hands"][side]:
                    add("discard", card=card)
            return out
        if only in (None, "play"):
            out += self._card_plays(state, side)
        occ = self.occupancy(state)
        if phase == "deploy" and only in (None, "deploy"):
            out += self._deploys(state, side, occ)
        if phase == "combat" and only in (None, "attack", "advance", "rush"):
            for uid in self._selectable(state, side):
                if unit and uid != unit:
                    continue
                ust = state["ust"].get(uid) or {}
                mode = ust.get("mode")
                if only in (None, "attack") and mode != "rush":
                    for opts in self._attack_options(state, uid, occ):
                        out.append({"type": "attack", "side": side, "unit": uid, **opts})
                ab = self.abilities(state, uid, occ)
                if only in (None, "advance") and mode in (None, "advance"):
                    left = ust.get("advance_left", ab.get("quick_advance", 0))
                    if left > 0:
                        for label in self._steps(state, uid, ust.get("diag", False), occ):
                            add("advance", unit=uid, to=label)
                if only in (None, "rush") and mode in (None, "rush"):
                    left = ust.get("rush_left", ab.get("rush", 0))
                    if left > 0:
                        for label in self._steps(state, uid, ust.get("diag", False), occ):
                            add("rush", unit=uid, to=label)
        if phase == "move" and only in (None, "move", "regroup"):
            for uid in self._selectable(state, side):
                if unit and uid != unit:
                    continue
                if only in (None, "move") and uid not in state["no_move"]:
                    ust = state["ust"].get(uid) or {}
                    left = ust["left"] if "left" in ust else self._budget(state, uid, occ)
                    if left > 0:
                        for label in self._steps(state, uid, ust.get("diag", False), occ):
                            add("move", unit=uid, to=label)
            if only in (None, "regroup"):
                for uid in sorted(state["units"]):
                    u = state["units"][uid]
                    if u["side"] != side or uid in state["regrouped"] or (unit and uid != unit):
                        continue
                    for s in squares_of(self.seg(state, uid)):
                        lab = sqlabel(s)
                        other_uid = occ["squares"].get(lab)
                        if lab != u["at"] and (
                            other_uid is None or state["units"][other_uid]["side"] == side
                        ):
                            add("regroup", unit=uid, to=lab)
        return out

    def _deploys(self, state, side, occ) -> list[dict]:
        out = []
        ros = roster(state)
        on_board_groups = {
            ros[t].get("hero_group")
            for u in state["units"].values()
            for t in [u["type"], *u["plugins"]]
            if ros[t].get("hero_group")
        }
        for utype, spec in sorted(ros.items()):
            if spec["side"] != side or self._pool_left(state, side, utype) <= 0:
                continue
            if spec.get("hero_group") and spec["hero_group"] in on_board_groups:
                continue
            if not self._affordable(state, side, utype):
                continue
            if spec.get("plugin"):
                for uid in sorted(state["units"]):
                    host = state["units"][uid]
                    if (
                        host["side"] == side
                        and len(host["plugins"]) < ros[host["type"]].get("sockets", 0)
                        and self.territory(state, self.seg_name(state, uid)) == side
                    ):
                        out.append({"type": "deploy", "side": side, "unit": utype, "to": uid})
            else:
                for label in state["mission"]["deploy"][side]:
                    if self._enter_problem(state, utype, side, label, occ) is None:
                        out.append({"type": "deploy", "side": side, "unit": utype, "to": label})
        return out

    def _affordable(self, state, side, utype) -> bool:
        spec = roster(state)[utype]
        if spec["rivets"] > state["rivets"][side]:
            return False
        if utype == BASIC_INFANTRY[side] and state["free_units"][side] > 0:
            return True
        points = state["points"][side]
        if self._infantry_point_eligible(state, utype):
            points += state["infantry_points"][side]
        return spec["cost"] <= points

    def _infantry_point_eligible(self, state, utype):
        spec = roster(state)[utype]
        return spec["class"] == "infantry" and not spec.get("hero") and not spec.get("plugin")

    def _reaction_plays(self, state, side, pend) -> list[dict]:
        out = []
        occ = self.occupancy(state)
        mine = [
            u for u in occ["segs"].get(pend["segment"], []) if state["units"][u]["side"] == side
        ]
        for card in state["hands"][side]:
            if data.cards()["action"][card]["effect"] != "take-cover":
                continue
            for uid in mine:
                out.append({"type": "play", "side": side, "card": card, "unit": uid})
        return out

    def _card_plays(self, state, side) -> list[dict]:
        out: list[dict] = []
        phase = state["phase"]
        if phase not in ("deploy", "combat", "move"):
            return out
        occ = self.occupancy(state)
        own = [u for u in sorted(state["units"]) if state["units"][u]["side"] == side]
        for card in state["hands"][side]:
            spec = data.cards()["action"][card]
            if spec["when"] not in ("any", phase):
                continue
            effect = spec["effect"]
            base = {"type": "play", "side": side, "card": card}
            if effect in ("reinforcements", "supply-drop"):
                out.append(base)
            elif effect == "forced-march":
                for uid in own:
                    if uid not in state["spent"] and uid not in state["no_move"]:
                        out.append({**base, "unit": uid})
            elif effect == "steady-aim":
                for uid in own:
                    if uid not in state["spent"] and self.weapons(state, uid):
                        out.append({**base, "unit": uid})
            elif effect == "field-repairs":
                for uid in own:
                    if state["units"][uid]["damage"] > 0:
                        out.append({**base, "unit": uid})
            elif effect == "dig-in":
                for uid in own:
                    if uid not in state["effects"]["dig_in"]:
                        out.append({**base, "unit": uid})
            elif effect == "barrage":
                for label, uids in sorted(occ["segs"].items()):
                    if uids and all(state["units"][u]["side"] != side for u in uids):
                        out.append({**base, "to": label})
        return out

    # ----- apply -------------------------------------------------------------------------------
    def apply(self, state, action, dice):
        side = action.get("side")
        kind = action.get("type")
        unit = action.get("unit") if kind not in ("deploy",) else None
        if unit is not None and unit not in state["units"]:
            own = [u for u in sorted(state["units"]) if state["units"][u]["side"] == side]
            raise RuleError(
                f"There is no unit {unit!r} on the board.",
                own,
                key="no_unit_on_map",
                params={"unit": str(unit)},
                domain=self.name,
            )
        legal = (
            self._legal(state, side, only=kind, unit=unit) if side in self.awaiting(state) else []
        )
        if action not in legal:
            reason = self._explain(state, action) if side in self.awaiting(state) else None
            if reason:
                same = self.legal_hints(state, [a for a in legal if a["type"] == kind])
                if not same:
                    same = sorted({"/" + a["type"] for a in self._legal(state, side)})
                raise RuleError(reason, same, **keyed_of(reason))
            self.refuse_unknown(state, action)
        state = fast_clone(state)
        events: list[dict] = []
        if kind == "end-phase":
            self._end_phase(state, events, dice)
        elif kind == "discard":
            state["hands"][side].remove(action["card"])
            state["decks"]["action_discard"].append(action["card"])
            state["discarded"] = True
            events.append({"type": "discarded", "side": side, "card": action["card"]})
        elif kind == "deploy":
            self._deploy(state, action, events)
        elif kind == "attack":
            self._activate(state, action["unit"], events)
            self._resolve_attack(state, action["unit"], action, events, dice)
        elif kind in ("advance", "rush", "move"):
            self._do_move(state, action, events, dice)
        elif kind == "regroup":
            self._regroup(state, action, events)
        elif kind == "play":
            reacting = bool(state.get("pending"))
            self._play(state, action, events, dice)
            if reacting:
                self._resume_strike(state, events, dice)
        elif kind == "pass":
            events.append({"type": "passed", "side": side})
            self._resume_strike(state, events, dice)
        elif kind == "place":
            self._paradrop(state, action, events, dice)
        elif kind == "retreat":
            self._retreat(state, action, events, dice)
        self._settle(state, events, dice)
        return state, events

    def _explain(self, state, action) -> str | None:
        """Why a refused move, deploy or attack is illegal, in the player's terms (None: no
        specific reason known; the generic refusal lists what is legal)."""
        kind, side = action.get("type"), action.get("side")
        uid, to = action.get("unit"), str(action.get("to", "")).upper()
        waiting = self._explain_waiting(state, action)
        if waiting is not None or state.get("pending"):
            return waiting
        if kind in ("play", "discard", "pass", "place", "retreat", "regroup"):
            return self._explain_other(state, action)
        phase_of = {
            "move": "move",
            "advance": "combat",
            "rush": "combat",
            "attack": "combat",
            "deploy": "deploy",
        }
        if kind not in phase_of:
            return None
        if state["phase"] != phase_of[kind]:
            return Reason(
                f"/{kind} belongs to the {phase_of[kind]} phase; this is the {state['phase']} phase.",
                "rivetwars.wrong_phase",
                self.name,
                command=kind,
                phase=phase_of[kind],
                now=state["phase"],
            )
        b = board(state)
        occ = self.occupancy(state)
        if kind == "deploy":
            spec = roster(state).get(uid or "")
            if spec is None or spec["side"] != side:
                return self._why(
                    f"{uid!r} is not one of your unit types.", "not_your_type", unit=str(uid)
                )
            if self._pool_left(state, side, uid) <= 0:
                return self._why(
                    f"No {spec['name']} is left to deploy (box count, or a hero already used).",
                    "none_left",
                    unit=spec["name"],
                )
            if not self._affordable(state, side, uid):
                return Reason(
                    f"{spec['name']} costs {spec['cost']} points and {spec['rivets']} rivets; you "
                    f"have {state['points'][side]} points and {state['rivets'][side]} rivets.",
                    "rivetwars.too_dear",
                    self.name,
                    unit=spec["name"],
                    cost=spec["cost"],
                    rivets=spec["rivets"],
                    points_left=state["points"][side],
                    rivets_left=state["rivets"][side],
                )
            if spec.get("plugin"):
                host = state["units"].get(action.get("to"))
                if host is None or host["side"] != side:
                    return self._why(
                        f"{spec['name']} is a plug-in: deploy it onto one of your units (to:<unit id>) "
                        f"that has a free socket and stands in your territory.",
                        "plugin_host",
                        unit=spec["name"],
                    )
                if len(host["plugins"]) >= roster(state)[host["type"]].get("sockets", 0):
                    return self._why(
                        f"{action['to']} has no free socket.", "no_socket", unit=action["to"]
                    )
                if self.territory(state, self.seg_name(state, action["to"])) != side:
                    return self._why(
                        f"{action['to']} is not in your territory; plug-ins join units in your "
                        f"own territory.",
                        "plugin_territory",
                        unit=action["to"],
                    )
                return None
            if not spec.get("plugin"):
                if to not in state["mission"]["deploy"][side]:
                    segments = ", ".join(state["mission"]["deploy"][side])
                    return Reason(
                        f"{to} is not one of your deployment segments ({segments}).",
                        "rivetwars.not_deploy_segment",
                        self.name,
                        segment=to,
                        segments=segments,
                    )
                problem = self._enter_problem(state, uid, side, to, occ)
                if problem:
                    return Reason(
                        f"{spec['name']} cannot be deployed in {to}: {problem}.",
                        "rivetwars.cannot_deploy",
                        self.name,
                        unit=spec["name"],
                        segment=to,
                        problem=problem,
                    )
            return None
        unit = state["units"].get(uid)
        if unit is None or unit["side"] != side:
            return Reason(
                f"{uid!r} is not one of your units.", "rivetwars.not_yours", self.name, unit=uid
            )
        if uid in state["spent"]:
            return Reason(
                f"{uid} has already been activated this phase (its segment's activation is over).",
                "rivetwars.spent",
                self.name,
                unit=uid,
            )
        if kind == "attack":
            if "to" in action and b.parse_seg(to) is None:
                return self._not_a_segment(to)
            if "to" in action and any(
                state["units"][u]["side"] == side for u in occ["segs"].get(to, [])
            ):
                return Reason(
                    f"{to} holds one of your own units; only segments without friendly units may "
                    f"be attacked.",
                    "rivetwars.own_segment",
                    self.name,
                    segment=to,
                )
            return self._explain_attack(state, action, occ)
        there = b.parse_seg(to)
        if there is None:
            return self._not_a_segment(to)
        here = self.seg(state, uid)
        if max(abs(here[0] - there[0]), abs(here[1] - there[1])) != 1:
            return Reason(
                f"{to} is not next to {possessive(uid)} segment {seg_label(here)}; move one "
                f"segment at a time.",
                "rivetwars.not_next",
                self.name,
                segment=to,
                unit=uid,
                here=seg_label(here),
            )
        ust = state["ust"].get(uid) or {}
        if kind in ("advance", "rush"):
            ability = {"advance": "quick_advance", "rush": "rush"}[kind]
            title = {"advance": "Quick Advance", "rush": "Rush"}[kind]
            total = self.abilities(state, uid, occ).get(ability, 0)
            if not total:
                return self._why(
                    f"{uid} has no {title} (its own, a plug-in's, or an advantage in its segment).",
                    f"no_{kind}",
                    unit=uid,
                )
            if ust.get("mode") not in (None, kind):
                return self._why(
                    f"{uid} has already {'attacked' if ust.get('mode') == 'attack' else 'acted'} this "
                    f"activation; {title} must come first"
                    + (" and replaces the attack." if kind == "rush" else "."),
                    f"{kind}_first",
                    unit=uid,
                )
            if ust.get(f"{kind}_left", total) <= 0:
                return self._why(
                    f"{uid} has used all {total} segment(s) of its {title}.",
                    f"{kind}_used",
                    unit=uid,
                    total=total,
                )
        if ust.get("diag") and here[0] != there[0] and here[1] != there[1]:
            return self._why(
                f"{uid} has already made its one diagonal step in this activation.",
                "one_diagonal",
                unit=uid,
            )
        if kind == "move" and uid in state["no_move"]:
            return self._why(
                f"{uid} used Quick Advance this turn and cannot move in the movement phase.",
                "advanced_no_move",
                unit=uid,
            )
        problem = self._enter_problem(state, unit["type"], side, to, occ, uid)
        if problem and not (
            problem == "enemy units there" and self.abilities(state, uid, occ).get("tank_shock")
        ):
            return Reason(
                f"{uid} cannot enter {to}: {problem}.",
                "rivetwars.cannot_enter",
                self.name,
                unit=uid,
                segment=to,
                problem=problem,
            )
        return None

    def _not_a_segment(self, label) -> Reason:
        return Reason(
            f"{label} is not a segment; segments are named by their top-left square (A1, C1, "
            f"..., A3, ...).",
            "rivetwars.not_a_segment",
            self.name,
            segment=str(label),
        )

    def _why(self, text: str, key: str, **params) -> Reason:
        """A refusal's English text with its key for the German template (``translations``)."""
        return Reason(text, "rivetwars." + key, self.name, **params)

    def _explain_waiting(self, state, action) -> str | None:
        """Refusals while the game waits for one decision (a reaction, a retreat, a drop)."""
        pend = state.get("pending")
        kind = action.get("type")
        if not pend:
            return None
        asks = {
            "reaction": "/play a reaction card (Take Cover!) on one of your units in "
            f"{pend.get('segment')}, or /pass",
            "retreat": "/retreat each shocked unit to an adjacent segment",
            "paradrop": "/place the paratroopers' drop segment",
        }[pend["kind"]]
        if pend["kind"] == "reaction" and kind == "play":
            spec = data.cards()["action"].get(action.get("card", ""))
            if action.get("card") not in state["hands"][action.get("side")]:
                return self._why(
                    f"{action.get('card')!r} is not in your hand.",
                    "not_in_hand",
                    card=str(action.get("card")),
                )
            if spec["effect"] != "take-cover":
                return self._why(
                    f"{spec['name']} is not a reaction card; only a reaction card can answer an "
                    f"attack.",
                    "not_reaction",
                    card=spec["name"],
                )
            return self._why(
                f"Take Cover! goes on one of your units in the attacked segment {pend['segment']}; "
                f"{action.get('unit')!r} is not one of them.",
                "cover_where",
                segment=pend["segment"],
                unit=str(action.get("unit")),
            )
        if pend["kind"] == "retreat" and kind == "retreat":
            if action.get("unit") not in pend["units"]:
                return self._why(
                    f"{action.get('unit')!r} was not pushed out; these must retreat: "
                    f"{', '.join(pend['units'])}.",
                    "not_pushed",
                    unit=str(action.get("unit")),
                    units=", ".join(pend["units"]),
                )
            return self._why(
                f"{action.get('to')!r} is not a segment next to {pend['from']} that "
                f"{action.get('unit')} could enter.",
                "retreat_where",
                segment=str(action.get("to")),
                here=pend["from"],
                unit=str(action.get("unit")),
            )
        if pend["kind"] == "paradrop" and kind == "place":
            return self._why(
                f"{action.get('to')!r} is not a segment of this map (segments: A1, C1, ..., A3, "
                f"...).",
                "drop_where",
                segment=str(action.get("to")),
            )
        return self._why(
            f"The game is waiting for {self.side_titles[pend['side']]}: {asks}.",
            "waiting_" + pend["kind"],
            side=self.side_titles[pend["side"]],
            segment=str(pend.get("segment")),
        )

    def _explain_other(self, state, action) -> str | None:
        kind, side = action.get("type"), action.get("side")
        phase = state["phase"]
        card = action.get("card")
        if kind == "pass":
            return self._why(
                "There is no enemy attack to answer; /pass is for reactions.", "no_reaction"
            )
        if kind == "place":
            return self._why(
                "/place is for mission 9's paratroopers at the start of their side's turn.",
                "place_paratroopers",
            )
        if kind == "retreat":
            return self._why(
                "/retreat answers a tank shock; no unit of yours has been pushed out.",
                "no_retreat",
            )
        hand = ", ".join(state["hands"][side]) if side in state["hands"] else ""
        if kind == "discard":
            if phase != "card":
                return self._why(
                    f"Action cards are discarded in the card phase; this is the {phase} phase.",
                    "discard_phase",
                    phase=phase,
                )
            if state["discarded"]:
                return self._why(
                    "You have already discarded one action card this card phase.",
                    "discarded_already",
                )
            return self._not_in_hand(card, hand)
        if kind == "regroup":
            if phase != "move":
                return self._why(
                    f"/regroup belongs to the move phase; this is the {phase} phase.",
                    "wrong_phase",
                    command="regroup",
                    phase="move",
                    now=phase,
                )
            uid = action.get("unit")
            unit = state["units"].get(uid)
            if unit is None or unit["side"] != side:
                return self._why(f"{uid!r} is not one of your units.", "not_yours", unit=uid)
            if uid in state["regrouped"]:
                return self._why(
                    f"{uid} has already regrouped this movement phase.", "regrouped", unit=uid
                )
            square = board(state).parse_square(str(action.get("to", "")))
            if square is None or seg_of_square(square) != self.seg(state, uid):
                return self._why(
                    f"{action.get('to')!r} is not a square of {uid}'s segment "
                    f"{self.seg_name(state, uid)}; regrouping stays inside the segment.",
                    "regroup_where",
                    square=str(action.get("to")),
                    unit=uid,
                    segment=self.seg_name(state, uid),
                )
            return self._why(
                f"{uid} already stands on {action.get('to')}.",
                "stands_there",
                unit=uid,
                square=str(action.get("to")),
            )
        if kind == "play":
            spec = data.cards()["action"].get(card or "")
            if card not in state["hands"][side]:
                return self._not_in_hand(card, hand)
            if spec["when"] == "reaction":
                return self._why(
                    f"{spec['name']} is a reaction card: it is played when an enemy attack is "
                    f"about to roll.",
                    "reaction_only",
                    card=spec["name"],
                )
            if phase not in ("deploy", "combat", "move") or spec["when"] not in ("any", phase):
                titles = {
                    "deploy": "deployment",
                    "combat": "combat",
                    "move": "movement",
                    "card": "card",
                }
                when = (
                    "deployment, combat or movement"
                    if spec["when"] == "any"
                    else titles[spec["when"]]
                )
                return self._why(
                    f"{spec['name']} is played in your {when} phase; this is the {titles[phase]} "
                    f"phase.",
                    "card_phase_" + spec["when"],
                    card=spec["name"],
                    now=phase,
                )
            return None
        return None

    def _not_in_hand(self, card, hand: str) -> Reason:
        return self._why(
            f"{card!r} is not in your hand ({hand or 'empty'}).",
            "not_in_hand_of" if hand else "hand_empty",
            card=str(card),
            hand=hand,
        )

    def _explain_attack(self, state, action, occ) -> str | None:
        uid = action["unit"]
        side = state["units"][uid]["side"]
        weapons = dict(self.weapons(state, uid))
        if not weapons:
            return self._why(f"{uid} has no weapon.", "no_weapon", unit=uid)
        key = action.get("choice")
        if key is None and len(weapons) > 1:
            return self._why(
                f"{uid} has several weapons: add choice: {' or '.join(weapons)}.",
                "which_weapon",
                unit=uid,
                weapons=", ".join(weapons),
            )
        key = key or next(iter(weapons))
        if key not in weapons:
            return self._why(
                f"{uid} has no weapon {key!r}; its weapons: {', '.join(weapons)}.",
                "no_such_weapon",
                unit=uid,
                weapon=str(key),
                weapons=", ".join(weapons),
            )
        weapon = weapons[key]
        ust = state["ust"].get(uid) or {}
        if ust.get("mode") == "rush":
            return self._why(
                f"{uid} has used Rush as its [Action] this activation and cannot attack.",
                "rushed",
                unit=uid,
            )
        if (ust.get("attacks") or {}).get(key, weapon["attacks"]) <= 0:
            return self._why(
                f"{uid} has made all {weapon['attacks']} attack(s) of its {key} this phase.",
                "attacks_used",
                unit=uid,
                attacks=weapon["attacks"],
                weapon=key,
            )
        if weapon.get("gas") and len(state["clouds"]) >= GAS_MARKERS:
            return self._why(
                f"All {GAS_MARKERS} gas markers of the box are on the board; no new cloud can be "
                f"laid.",
                "no_gas",
                markers=GAS_MARKERS,
            )
        ab = self.abilities(state, uid, occ)
        area = weapon.get("area") or weapon.get("gas")
        if "target" in action:
            if not ab.get("sniper") or area:
                return self._why(
                    "Only a sniper's single attacks name a target unit; attack a segment with "
                    "to:<segment>.",
                    "not_sniper",
                )
            target = state["units"].get(action["target"])
            if target is None or target["side"] == side:
                return self._why(
                    f"{action['target']!r} is not an enemy unit on the board.",
                    "not_enemy",
                    unit=str(action["target"]),
                )
            label = self.seg_name(state, action["target"])
        else:
            if ab.get("sniper") and not area:
                return self._why(
                    f"{uid} is a sniper: name the enemy unit with target:<unit id>.",
                    "sniper_target",
                    unit=uid,
                )
            label = str(action.get("to", "")).upper()
        enemies = [u for u in occ["segs"].get(label, []) if state["units"][u]["side"] != side]
        if not enemies:
            return self._why(f"{label} holds no enemy unit.", "no_enemy", segment=label)
        first = action.get("target") or (
            enemies[0] if area else self._priority(state, label, other(side), occ)[0]
        )
        dist = seg_range(self.seg(state, uid), known_seg(state, label))
        kind = "air" if self.is_air(state, first) else "ground"
        reach = self._range(state, uid, weapon, first, occ, ab)
        if reach <= 0:
            return self._why(
                f"{key} cannot attack {kind} targets (range 0).",
                f"range_zero_{kind}",
                weapon=key,
            )
        if dist > reach:
            return self._why(
                f"{label} is {dist} segments away; {uid}'s {key} reaches {reach} "
                f"against {kind} targets.",
                f"out_of_range_{kind}",
                segment=label,
                distance=dist,
                unit=uid,
                weapon=key,
                reach=reach,
            )
        if self.dice_against(state, weapon["dice"], first, occ) <= 0:
            armour = data.ARMOUR_NAMES[self.spec(state, first)["armour"] - 1]
            lead = (
                "" if action.get("target") or area else "first in the defender's target priority, "
            )
            return self._why(
                f"{first} ({lead}armour {armour}) cannot be harmed by {key}: 0 dice.",
                "zero_dice_first" if lead else "zero_dice",
                unit=first,
                armour=armour,
                weapon=key,
            )
        return None

    def _end_phase(self, state, events, dice):
        side = state["active"]
        phase = state["phase"]
        if phase == "card":
            self._draw_cards(state, events, dice)
        elif phase == "deploy":
            lost = state["points"][side] + state["infantry_points"][side]
            if lost:
                events.append({"type": "points_lost", "side": side, "points": lost})
            state["points"][side] = 0
            state["infantry_points"][side] = 0
            state["free_units"][side] = 0
        elif phase in ("combat", "move"):
            if state.get("act"):
                state["spent"] += state["act"]["group"]
            state["act"] = None
        self._advance(state, events, dice)

    def _deploy(self, state, action, events):
        side, utype = action["side"], action["unit"]
        spec = roster(state)[utype]
        cost = spec["cost"]
        paid = {}
        if utype == BASIC_INFANTRY[side] and state["free_units"][side] > 0:
            state["free_units"][side] -= 1
            paid["free"] = 1
        else:
            if self._infantry_point_eligible(state, utype):
                use = min(cost, state["infantry_points"][side])
                state["infantry_points"][side] -= use
                cost -= use
                if use:
                    paid["infantry_points"] = use
            state["points"][side] -= cost
            paid["points"] = cost
        state["rivets"][side] -= spec["rivets"]
        if spec["rivets"]:
            paid["rivets"] = spec["rivets"]
        if spec.get("hero"):
            state["heroes_used"].append(utype)
        if spec.get("plugin"):
            host = state["units"][action["to"]]
            host["plugins"].append(utype)
            events.append(
                {"type": "plugged", "side": side, "unit": utype, "host": action["to"], "paid": paid}
            )
            return
        uid = self._new_id(state, utype)
        square = self._free_square(state, action["to"], self.occupancy(state))
        state["units"][uid] = {
            "type": utype,
            "side": side,
            "at": square,
            "damage": 0,
            "plugins": [],
        }
        events.append(
            {
                "type": "deployed",
                "side": side,
                "unit": uid,
                "unit_type": utype,
                "at": square,
                "segment": action["to"],
                "paid": paid,
            }
        )

    def _do_move(self, state, action, events, dice):
        uid, kind = action["unit"], action["type"]
        occ = self.occupancy(state)
        self._activate(state, uid, events)
        ab = self.abilities(state, uid, occ)
        ust = state["ust"].setdefault(uid, {})
        here = self.seg(state, uid)
        to = board(state).parse_seg(action["to"])
        if to[0] != here[0] and to[1] != here[1]:
            ust["diag"] = True
        if kind == "advance":
            ust["mode"] = "advance"
            ust["advance_left"] = ust.get("advance_left", ab.get("quick_advance", 0)) - 1
            if uid not in state["no_move"]:
                state["no_move"].append(uid)
        elif kind == "rush":
            ust["mode"] = "rush"
            ust["rush_left"] = ust.get("rush_left", ab.get("rush", 0)) - 1
        else:
            ust["left"] = (ust["left"] if "left" in ust else self._budget(state, uid, occ)) - 1
        self._step(state, uid, action["to"].upper(), events, dice)

    def _regroup(self, state, action, events):
        uid = action["unit"]
        occ = self.occupancy(state)
        unit = state["units"][uid]
        other_uid = occ["squares"].get(action["to"])
        if other_uid:
            state["units"][other_uid]["at"] = unit["at"]
        events.append(
            {
                "type": "regrouped",
                "unit": uid,
                "from": unit["at"],
                "to": action["to"],
                "swapped": other_uid,
            }
        )
        unit["at"] = action["to"]
        state["regrouped"].append(uid)

    def _play(self, state, action, events, dice):
        side, card = action["side"], action["card"]
        spec = data.cards()["action"][card]
        state["hands"][side].remove(card)
        state["decks"]["action_discard"].append(card)
        events.append(
            {
                "type": "played",
                "side": side,
                "card": card,
                "effect": spec["effect"],
                "unit": action.get("unit"),
                "to": action.get("to"),
            }
        )
        effect = spec["effect"]
        uid = action.get("unit")
        if effect == "reinforcements":
            state["points"][side] += 2
        elif effect == "supply-drop":
            state["rivets"][side] += 1
        elif effect == "forced-march":
            ust = state["ust"].get(uid)
            if ust and "left" in ust:
                ust["left"] += 1
            else:
                state["effects"]["march"][uid] = state["effects"]["march"].get(uid, 0) + 1
        elif effect == "steady-aim":
            state["effects"]["precision"][uid] = state["effects"]["precision"].get(uid, 0) + 1
        elif effect == "field-repairs":
            state["units"][uid]["damage"] -= 1
            events.append(
                {"type": "repaired", "unit": uid, "damage": state["units"][uid]["damage"]}
            )
        elif effect == "dig-in":
            state["effects"]["dig_in"][uid] = side
        elif effect == "take-cover":
            state["effects"].setdefault("cover", {})[uid] = (
                side  # games saved before reactions lack it
            )
            events.append({"type": "covered", "side": side, "unit": uid})
        elif effect == "barrage":
            target = self._deviate(state, action["to"], side, events, dice, "barrage")
            if target is None:
                events.append(
                    {"type": "attack_lost", "unit": None, "why": "barrage deviated off the map"}
                )
                return
            strike = {"kind": "barrage", "side": side, "at": target}
            if not self._open_reaction(state, target, strike, events):
                self._barrage(state, side, target, events, dice)

    def _barrage(self, state, side, target, events, dice):
        for t in list(self.occupancy(state)["segs"].get(target, [])):
            if t in state["units"]:
                n = max(1, BARRAGE_DICE - self._defence(state, t, self.occupancy(state)))
                if self._roll_attack(state, "barrage", t, n, 0, events, dice, "barrage"):
                    self._damage(state, t, side, events)

    def _paradrop(self, state, action, events, dice):
        pend = state["pending"]
        state["pending"] = None
        side, utype = pend["side"], pend["unit"]
        chosen = action["to"].upper()
        events.append({"type": "paradrop", "side": side, "at": chosen, "count": pend["count"]})
        for _ in range(pend["count"]):
            if self._pool_left(state, side, utype) <= 0:
                events.append({"type": "paradrop_none", "why": "no unit left in the box"})
                break
            at = chosen
            landed = None
            # Each card deviates from the last forbidden segment; the cap only matters when the
            # action deck and its discards are both empty (the drift then never moves on).
            for _attempt in range(PARADROP_DRAWS):
                at = self._deviate(state, at, side, events, dice, "paratrooper")
                if at is None:
                    events.append(
                        {
                            "type": "paradrop_lost",
                            "side": side,
                            "unit_type": utype,
                            "why": "drifted off the map",
                        }
                    )
                    break
                if self._enter_problem(state, utype, side, at, self.occupancy(state)) is None:
                    landed = at
                    break
            else:
                events.append(
                    {
                        "type": "paradrop_lost",
                        "side": side,
                        "unit_type": utype,
                        "why": f"no segment it may enter after {PARADROP_DRAWS} cards",
                    }
                )
            if landed:
                uid = self._new_id(state, utype)
                square = self._free_square(state, landed, self.occupancy(state))
                state["units"][uid] = {
                    "type": utype,
                    "side": side,
                    "at": square,
                    "damage": 0,
                    "plugins": [],
                }
                events.append(
                    {
                        "type": "deployed",
                        "side": side,
                        "unit": uid,
                        "unit_type": utype,
                        "at": square,
                        "segment": landed,
                        "paid": {"paratrooper": 1},
                    }
                )

    def _retreat(self, state, action, events, dice):
        uid = action["unit"]
        pend = state["pending"]
        occ = self.occupancy(state)
        unit = state["units"][uid]
        square = self._free_square(state, action["to"], occ, uid)
        events.append(
            {
                "type": "retreated",
                "unit": uid,
                "from": unit["at"],
                "to": square,
                "segment": action["to"],
            }
        )
        unit["at"] = square
        pend["units"].remove(uid)
        self._check_retreats(state, events, dice)

    # ----- presentation ------------------------------------------------------------------------
    def view(self, state, side):
        return present.view(self, state, side)

    def describe(self, state, key, value):
        return present.describe(self, state, key, value)

    def label(self, state, key, value, lang="en"):
        return present.describe(self, state, key, value, lang)

    def unit_facts(self, state, unit, lang="en"):
        return explain.unit_facts(self, roster(state), state, unit, lang)

    def cell_facts(self, state, cell, lang="en"):
        return explain.cell_facts(board(state), state, cell, lang)

    def narrate(self, state, event, lang="en"):
        if lang == "de":
            return explain.narrate_de(self, state, event, present.PHASE_TITLES)
        return self.describe_event(state, event)

    def result_reason(self, state, lang="en"):
        reason = str((state.get("result") or {}).get("reason") or "")
        return explain.phrase_de(reason) if lang == "de" else reason

    def roll_purpose(self, state, event, lang="en"):
        return explain.roll_purpose(event, lang)

    def describe_event(self, state, event):
        return present.describe_event(self, state, event)

    def header(self, state):
        return present.header(self, state)

    def localised_header(self, state, lang="en"):
        return present.header(self, state, lang)

    def scene(self, state, events, viewer, lang="en"):
        return present.scene(self, state, events, viewer, lang)

    def rules_reference(self, lang="en", state=None):
        return explain.rules_reference(self, roster(state or {}), lang)

    def rules_summary(self, locale="en"):
        return present.rules_summary(locale)

    def referee_edit(self, state, action):
        if action["type"] in ("ref-place", "ref-remove") and action.get("unit") not in state.get(
            "units", {}
        ):
            raise RuleError(
                f"No unit {action.get('unit')!r}.",
                sorted(state.get("units", {}))[:20],
                key="no_unit",
                params={"unit": str(action.get("unit"))},
                domain=self.name,
            )
        if action["type"] == "ref-place":
            b = board(state)
            if b.parse_square(action.get("to", "")) is None:
                raise RuleError(
                    f"{action.get('to')!r} is not a square of the map (e.g. C4).",
                    key="rivetwars.ref_not_square",
                    params={"square": str(action.get("to"))},
                    domain=self.name,
                )
            if action["to"].upper() in self.occupancy(state)["squares"]:
                raise RuleError(
                    f"Square {action['to']} is occupied.",
                    key="rivetwars.ref_occupied",
                    params={"square": str(action["to"])},
                    domain=self.name,
                )
        return super().referee_edit(state, action)
