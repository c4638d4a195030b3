"""Pocket Tactics: two players, hex tiles drawn from a bag, one action per turn, the dice duel.

Sides are ``north`` and ``south`` (seats, not factions: each player picks a faction in setup).
Unit ids are the unit names of ``data/pocket-tactics/factions.json`` (``spearman``, ``troll``);
the two players must pick different factions, so an id names one figure.

Phases, in order (a scenario may start at any of them):

``faction`` each player picks a faction; then a roll-off decides the player order.
``army``    each player recruits units up to the points limit (``/recruit``, ``/done``).
``tiles``   players alternately put terrain tiles into the bag (``/tile``), then it is shuffled.
``features`` the first player names the central feature (``/central``), each player their own
            (``/feature``).
``map``     the first tile goes to the centre (0808) with the central feature; a second roll-off
            sets the order from here on; players alternately place the tile they drew next to
            the map (``/place to:``).
``home``    each player puts their own feature on a tile as far as possible from every feature
            already placed (``/place to:``; only the maximal tiles are offered).
``start``   players alternately deploy up to three starting units on or next to their own
            feature (``/deploy``, ``/done``); the last player to deploy starts.
``play``    one action per turn: ``/move``, ``/attack`` (melee), ``/fire`` (ranged; flyers may
            first fly their bonus moves with ``to:``),
            ``/deploy``, ``/reserve``, ``/special``.
``bonus``, ``reroll`` the combat's choices, made in turn starting with the attacker
            (``/bonus die: value:``, ``/reroll die:``, ``/pass``); the side awaited is in
            ``state["awaiting"]``, which may be the defender.

Every interpretation of the rulebook is listed in ``docs/rules/pocket-tactics.md``.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from engine.core import hexgrid
from engine.core.commands import format_command
from engine.core.dice import Dice
from engine.core.errors import Reason, RuleError, ScenarioError, keyed_of
from engine.core.info import count
from engine.core.names import distinguish_titles, with_article
from engine.core.ruleset import Command, Option, Ruleset, Scenario
from engine.core.scenario_io import check_schema
from engine.core.state import canonical_json, clone

from . import explain, present
from . import scenario as scenario_module
from .data import (
    CENTRE,
    CLOSE_ATTACKS,
    COLUMNS,
    ROWS,
    SCENARIO_DIR,
    SIDES,
    Catalogue,
    other,
    read_json,
    valid_label,
)

ROLES = ("attacker", "defender")
SIDE_TITLES = {"north": "North", "south": "South"}


def _other_role(role: str) -> str:
    return "defender" if role == "attacker" else "attacker"


def _duel(off: list[int], dfn: list[int]) -> tuple[bool, str]:
    """The rulebook's comparison, with the reason in words: highest against highest, ties pass
    to the next pair, the first unequal pair decides, and an OFF die left without a DEF partner
    wins; all ties (or DEF dice left over) fail."""
    off, dfn = sorted(off, reverse=True), sorted(dfn, reverse=True)
    if not off:
        return False, "no OFF dice"
    ties: list[str] = []
    for i, value in enumerate(off):
        if i >= len(dfn):
            return True, "; ".join(ties + [f"OFF {value} left over"])
        if value != dfn[i]:
            word = "beats" if value > dfn[i] else "is beaten by"
            return value > dfn[i], "; ".join(ties + [f"{value} {word} {dfn[i]}"])
        ties.append(f"{value} ties {dfn[i]}")
    rest = dfn[len(off) :]
    if rest:
        ties.append(f"DEF {','.join(map(str, rest))} left over")
    return False, "; ".join(ties)


def _beats(off: list[int], dfn: list[int]) -> bool:
    return _duel(off, dfn)[0]


@cache
def _hex(lab: str):
    return hexgrid.parse_label(lab)


@cache
def _neighbour_labels(lab: str) -> tuple[str, ...]:
    return tuple(
        hexgrid.label(h) for h in hexgrid.neighbours(_hex(lab)) if min(hexgrid.to_offset(h)) >= 0
    )


def _copy(state: dict) -> dict:
    # states are plain JSON (a contract), and a JSON round trip is several times faster than deepcopy
    return json.loads(json.dumps(state))


def _dist(a: str, b: str) -> int:
    return hexgrid.distance(_hex(a), _hex(b))


def _die_ids(dice: dict) -> list[str]:
    return [f"{kind}{i + 1}" for kind in ("off", "def") for i in range(len(dice[kind]))]


def _die_ref(die: str) -> tuple[str, int]:
    return die[:3], int(die[3:]) - 1


def _fits(bonus: dict, kind: str) -> bool:
    """Whether ``bonus`` may raise a die of ``kind``: "Jeder Bonus kann ein einzelnes
    Würfelergebnis (entweder OFF oder DEF) ... anpassen", whichever dice it is listed next to,
    unless its own data limits it to its kind (``only_kind``)."""
    return not bonus.get("only_kind") or bonus["kind"] in (kind, "any")


# The phases as players read them (the flow line, the prompt, the header), not the ids.
PHASE_TITLES = {
    "faction": "Faction choice",
    "army": "Army",
    "tiles": "Tiles",
    "features": "Features",
    "map": "Map building",
    "home": "Home tile",
    "start": "Starting units",
    "play": "Play",
    "bonus": "Bonus dice",
    "reroll": "Re-rolls",
}


class PocketTactics(Ruleset):
    name = "pocket-tactics"
    title = "Pocket Tactics"
    sides = SIDES
    side_titles = SIDE_TITLES
    translations = {
        "de": {
            "North": "Nord",
            "South": "Süd",
            "play": "Spiel",
            "faction": "Fraktionswahl",
            "army": "Armee",
            "tiles": "Plättchen",
            "features": "Merkmale",
            "map": "Karte",
            "home": "Heimatfeld",
            "start": "Startaufstellung",
            "bonus": "Bonus",
            "reroll": "Neuwurf",
            "Faction choice": "Fraktionswahl",
            "Army": "Armee",
            "Tiles": "Plättchen",
            "Features": "Merkmale",
            "Map building": "Kartenbau",
            "Home tile": "Heimatfeld",
            "Starting units": "Startaufstellung",
            "Play": "Spiel",
            "Bonus dice": "Bonuswürfel",
            "Re-rolls": "Neuwürfe",
            "Turn": "Zug",
            "Phase": "Phase",
            "Active": "Aktive Seite",
            "Awaiting": "Wartet auf",
            "Points": "Punkte",
            "Tile in hand": "Plättchen in der Hand",
            "Bag": "Beutel",
            "Combat": "Kampf",
            "Result": "Ergebnis",
            "choosing": "wählt noch",
            "Re-rolls left": "Neuwürfe übrig",
            "pocket-tactics.not_yours": "{unit} ist nicht deine Einheit.",
            "pocket-tactics.not_in_reserve": "{unit} ist nicht in deiner Reserve.",
            "pocket-tactics.not_on_map": "{unit} steht nicht auf der Karte.",
            "pocket-tactics.not_a_tile": "{cell} ist kein Plättchen der Karte (leere Stellen kann "
            "man nicht betreten).",
            "pocket-tactics.occupied": "Auf {cell} steht schon {unit}.",
            "pocket-tactics.cannot_reach": "{unit} kann {cell} in diesem Zug nicht erreichen.",
            "pocket-tactics.flyers_only": "Nur fliegende Einheiten betreten {cell}; {unit} "
            "fliegt nicht.",
            "pocket-tactics.too_far": "{unit} braucht {need} Schritte bis {cell} und hat in "
            "diesem Zug {steps}.",
            "pocket-tactics.stopped_on_the_way": "{unit} kann {cell} nicht erreichen: jeder Weg "
            "dorthin führt über ein Plättchen, das die Einheit anhält (haltendes Gelände oder "
            "eine Gefahr, die sie nicht bevorzugt).",
            "pocket-tactics.not_enemy": "{target!r} ist keine feindliche Einheit auf der Karte.",
            "pocket-tactics.no_ranged": "{unit} hat keinen Fernkampfangriff.",
            "pocket-tactics.out_of_range": "{target} ist {distance} Plättchen entfernt; {unit} "
            "reicht {reach} weit.",
            "pocket-tactics.no_bonus_left": "Du hast in diesem Kampf keinen Bonus mehr.",
            "pocket-tactics.faction_taken": "{faction} ist schon vergeben; die beiden Spieler "
            "spielen verschiedene Fraktionen.",
            "pocket-tactics.not_of_faction": "{unit!r} ist keine Einheit von {faction}.",
            "pocket-tactics.already_recruited": "{unit} ist schon in deiner Armee (jede Figur "
            "einmal).",
            "pocket-tactics.too_dear": "{unit} kostet {cost} Punkte; deine Armee hat {spent} von "
            "{limit}, {left} übrig.",
            "pocket-tactics.empty_army": "Eine Armee braucht mindestens eine Einheit; erst "
            "/recruit.",
            "pocket-tactics.tile_there": "Auf {cell} liegt schon ein Plättchen.",
            "pocket-tactics.not_next_to_map": "{cell} liegt nicht an der Karte; ein gezogenes "
            "Plättchen wird an ein schon gelegtes angelegt.",
            "pocket-tactics.feature_there": "Auf {cell} liegt schon ein Merkmal.",
            "pocket-tactics.home_too_near": "{cell} ist {here} Plättchen vom nächsten Merkmal "
            "entfernt; die fernsten sind {best} entfernt, und dein Merkmal kommt so weit weg wie "
            "möglich.",
            "pocket-tactics.start_occupied": "{cell} ist besetzt; nur eine Einheit je Plättchen.",
            "pocket-tactics.start_where": "Starteinheiten kommen auf oder neben dein eigenes "
            "Merkmal ({home}).",
            "pocket-tactics.deploy_where": "{cell} liegt nicht neben einem Merkmal, das du "
            "kontrollierst.",
            "pocket-tactics.only_flyers_move_first": "Nur fliegende Einheiten machen vor dem "
            "Angriff Bonusbewegungen; {unit} greift von seinem Feld aus an (ohne to:).",
            "pocket-tactics.cannot_fly": "{unit} kann mit {moves} Bonusbewegungen nicht nach "
            "{cell} fliegen.",
            "pocket-tactics.no_sight": "{unit} hat keine Sichtlinie zu {target}: kein freier "
            "kürzester Weg über {distance} Plättchen (Merkmale außer Wasser, feindliche Einheiten "
            "und Lücken blockieren, außer ein Flieger schießt oder wird beschossen; Lücken "
            "blockieren immer).",
            "pocket-tactics.reserve_not_on_feature": "{unit} steht auf keinem Merkmal; ohne to: "
            "geht eine Einheit in das Merkmal, auf dem sie steht. Mit to: tritt sie in ein "
            "benachbartes Merkmal, das eine deiner Einheiten besetzt.",
            "pocket-tactics.reserve_enemy_feature": "{cell} hält der Feind ({holder}); eine "
            "Einheit tritt nur in ein Merkmal, das eine eigene Einheit besetzt (ein feindliches "
            "Feld zu betreten ist ein Angriff).",
            "pocket-tactics.reserve_where": "{cell} ist kein besetztes Merkmal neben {unit}; eine "
            "Einheit tritt in ein benachbartes Merkmal, das eine deiner Einheiten besetzt.",
            # terrain and attack types named in refusals (the rulebook's words: Nahkampf, Magie)
            "grass": "Grasland",
            "sand": "Dünen",
            "water": "Wasser",
            "marsh": "Sumpf",
            "lava": "Lavafeld",
            "forest": "Wald",
            "highland": "Hochland",
            "village": "Dorf",
            "city": "Stadt",
            "lake": "See",
            "ruins": "Spukruinen",
            "crag": "Felsen",
            "melee": "Nahkampf",
            "magic": "Magie",
            "pocket-tactics.no_option_of": "/{command} hat keine Option {option!r}; seine Optionen "
            "sind {options}.",
            "pocket-tactics.no_options": "/{command} hat keine Option {option!r}; es hat keine "
            "Optionen.",
            "pocket-tactics.needs": "/{command} braucht {missing}.",
            "pocket-tactics.reserve_flyer_where": "{cell} ist kein besetztes Merkmal, das {unit} "
            "erreicht; ein Flieger tritt in ein Merkmal, das eine deiner Einheiten besetzt, neben "
            "sich oder neben einem Plättchen, das seine {moves} Bonusbewegungen erreichen.",
            "pocket-tactics.not_a_feature": "{feature!r} ist kein Merkmal; Merkmale: {features}.",
            "pocket-tactics.not_a_terrain": "{tile!r} ist kein Geländeplättchen (Merkmale liegen "
            "auf Plättchen, sie kommen nicht in den Beutel); Gelände: {terrains}.",
            "pocket-tactics.not_on_table": "{cell!r} ist kein Platz auf dem Tisch (Bezeichnungen "
            "0101-1515).",
            "pocket-tactics.not_map_tile": "{cell!r} ist kein Plättchen der Karte.",
            "pocket-tactics.not_waiting": "{unit!r} ist keine Einheit deiner Armee, die noch "
            "aufgestellt wird.",
            "pocket-tactics.cannot_stand": "{unit} kann nicht auf {cell} stehen ({kind}).",
            "pocket-tactics.not_your_die": "{die!r} ist keiner deiner Würfel in diesem Kampf.",
            "pocket-tactics.die_six": "{die} zeigt schon 6; ein Bonus hebt keinen Würfel über 6.",
            "pocket-tactics.no_bonus_for_kind": "Du hast keinen Bonus mehr für einen {kind}-Würfel "
            "(deine übrigen Boni heben nur {other}-Würfel, wie die Karte ihrer Einheit sagt).",
            "pocket-tactics.no_such_bonus": "Du hast keinen Bonus +{value} für {die}; übrig: "
            "{left}.",
            "pocket-tactics.no_special": "{unit} hat keine Spezialfähigkeit.",
            "pocket-tactics.ref_not_free": "{cell!r} ist kein freies Plättchen der Karte.",
            "pocket-tactics.ref_in_setup": "Der Schiedsrichter kann den Zug erst ändern, wenn "
            "das Spiel begonnen hat; der Aufbau ist beim Schritt {phase} (/ref undo nimmt einen "
            "Aufbauschritt zurück).",
            "pocket-tactics.ref_in_combat": "Gerade wird ein Kampf ausgetragen; der "
            "Schiedsrichter kann den Zug ändern, sobald seine Würfel feststehen.",
            "pocket-tactics.bless_how": "{unit} segnet einen benachbarten Verbündeten: /special "
            "unit:{unit} with:<Verbündeter>.",
            "pocket-tactics.not_ally_next": "{ally!r} ist kein Verbündeter neben {unit}.",
            "pocket-tactics.already_blessed": "{ally} ist schon gesegnet; ein Segen hält bis zu "
            "seinem nächsten Kampf.",
            "pocket-tactics.teleport_how": "{unit} teleportiert sich: /special unit:{unit} "
            "to:<Plättchen>.",
            "pocket-tactics.teleport_where": "{unit} teleportiert sich nur auf ein freies "
            "Plättchen neben einem Merkmal, das du kontrollierst.",
            "pocket-tactics.not_adjacent": "Ein Nahkampfangriff braucht einen benachbarten Feind; "
            "{target} ist {distance} Plättchen entfernt.",
            "pocket-tactics.cannot_enter_attack": "{unit} kann {cell} ({kind}) nicht betreten und "
            "{target} dort darum nicht im Nahkampf angreifen.",
            "pocket-tactics.one_attack_type": "{unit} kennt nur die Angriffsart {attack}; lass as: "
            "weg.",
            "pocket-tactics.undeclared": "{unit} hat keine Angriffsart erklärt: der Angreifer "
            "erklärt sie, {types}.",
            "pocket-tactics.wrong_attack_type": "{unit} kann nicht als {declared!r} angreifen: der "
            "Angreifer erklärt die Angriffsart, {types}.",
        }
    }
    # A referee may hand the turn in play to a side (/ref phase play side:...), nothing more: the
    # setup steps build the bag, the map and the armies one after the other, so a jump between
    # them leaves a half-built game, and the dice steps of a combat exist only inside a combat.
    phases = ("play",)
    setup_phases = ("faction", "army", "tiles", "features", "map", "home", "start")
    default_scenario = "standard"
    commands = (
        Command(
            "faction",
            "Choose your faction",
            (Option("faction", "choice", "Faction"),),
            {"de": "Wähle deine Fraktion"},
        ),
        Command(
            "recruit",
            "Add a unit to your army (points limit)",
            (Option("unit", "choice", "Unit"),),
            {"de": "Einheit in die Armee aufnehmen (Punktegrenze)"},
        ),
        Command(
            "done",
            "Finish recruiting or placing starting units",
            (),
            {"de": "Armeeaufbau oder Startaufstellung beenden"},
        ),
        Command(
            "tile",
            "Put a terrain tile into the bag",
            (Option("tile", "choice", "Terrain"),),
            {"de": "Ein Geländeplättchen in den Beutel legen"},
        ),
        Command(
            "central",
            "Name the central feature (or random)",
            (Option("tile", "choice", "Feature"),),
            {"de": "Zentrales Merkmal bestimmen (oder zufällig)"},
        ),
        Command(
            "feature",
            "Choose your own feature",
            (Option("tile", "choice", "Feature"),),
            {"de": "Eigenes Merkmal wählen"},
        ),
        Command(
            "place",
            "Place the drawn tile or your feature",
            (Option("to", "hex", "Where"),),
            {"de": "Gezogenes Plättchen oder eigenes Merkmal platzieren"},
        ),
        Command(
            "deploy",
            "Put a unit from your reserve on the map",
            (Option("unit", "unit", "Unit"), Option("to", "hex", "Where")),
            {"de": "Einheit aus der Reserve stationieren"},
        ),
        Command(
            "move",
            "Move a unit",
            (Option("unit", "unit", "Unit"), Option("to", "hex", "Destination")),
            {"de": "Einheit bewegen"},
        ),
        Command(
            "attack",
            "Close-combat attack on an adjacent enemy (melee or magic)",
            (
                Option("unit", "unit", "Attacker"),
                Option("target", "target", "Enemy"),
                Option(
                    "as",
                    "choice",
                    "Attack type melee or magic (only units that know magic choose)",
                    False,
                ),
                Option("to", "hex", "Flyers: tile to fly to first with the bonus moves", False),
            ),
            {"de": "Nahkampfangriff auf benachbarten Feind (Nahkampf oder Magie)"},
        ),
        Command(
            "fire",
            "Ranged attack",
            (
                Option("unit", "unit", "Attacker"),
                Option("target", "target", "Enemy"),
                Option("to", "hex", "Flyers: tile to fly to first with the bonus moves", False),
            ),
            {"de": "Fernangriff"},
        ),
        Command(
            "reserve",
            "Return a unit to the reserve through a feature",
            (
                Option("unit", "unit", "Unit"),
                Option(
                    "to",
                    "hex",
                    "Own-occupied feature to step into (adjacent, flyers after bonus moves; leave out: the one it is on)",
                    False,
                ),
            ),
            {"de": "Einheit über ein Merkmal in die Reserve zurückholen"},
        ),
        Command(
            "special",
            "Use a unit's special ability",
            (
                Option("unit", "unit", "Unit"),
                Option("to", "hex", "Destination (teleport)", False),
                Option("with", "unit", "Ally (bless)", False),
            ),
            {"de": "Sonderfähigkeit einer Einheit nutzen"},
        ),
        Command(
            "bonus",
            "Raise one of your combat dice by a bonus",
            (Option("die", "choice", "Die (off1, def2, ...)"), Option("value", "number", "Bonus")),
            {"de": "Einen eigenen Kampfwürfel um einen Bonus erhöhen"},
        ),
        Command(
            "reroll",
            "Re-roll one of your combat dice",
            (Option("die", "choice", "Die"),),
            {"de": "Einen eigenen Kampfwürfel neu würfeln"},
        ),
        Command(
            "pass",
            "Use no bonus / re-roll now (the phase ends when both pass in a row)",
            (),
            {
                "de": "Jetzt keinen Bonus / Neuwurf (die Phase endet, wenn beide nacheinander passen)"
            },
        ),
    )

    def __init__(self):
        self.cat = Catalogue.load()

    # ======================================================================================
    # scenarios and setup
    # ======================================================================================
    def scenarios(self) -> list[Scenario]:
        out = []
        for path in sorted(SCENARIO_DIR.glob("*.json")):
            data = read_json(path)
            out.append(
                Scenario(
                    path.stem, str(data.get("title", path.stem)), str(data.get("description", ""))
                )
            )
        return out

    def packaged_names(self) -> list[str]:
        return sorted(path.stem for path in SCENARIO_DIR.glob("*.json"))

    def load_scenario(self, name: str) -> dict:
        name = name or self.default_scenario
        if name not in self.packaged_names():
            raise ScenarioError(
                name[:64],
                "scenario",
                f"no such scenario; packaged: {', '.join(self.packaged_names())}",
            )
        path = SCENARIO_DIR / f"{name}.json"
        document = read_json(path)
        document.setdefault("name", name)
        return self.scenario_from_document(document, f"data/pocket-tactics/scenarios/{name}.json")

    def scenario_from_document(self, document: dict, label: str) -> dict:
        """A scenario file: structure by ``data/schemas/pocket-tactics.schema.json``, then meaning."""
        check_schema(document, "pocket-tactics", label)
        return self.scenario_from_data(document, label)

    def scenario_from_data(self, data: dict, source: str = "<scenario>") -> dict:
        """Validate scenario data that is already in memory (tests build positions this way)."""
        if not isinstance(data, dict):
            raise ScenarioError(source, "file", "the top level must be a JSON object")
        return scenario_module.validate(self.cat, data, source)

    def setup(self, scenario: dict, dice: Dice) -> tuple[dict, list[dict]]:
        sc = scenario
        state = {
            "game": self.name,
            "scenario": sc["name"],
            "turn": sc.get("turn", 1),
            "phase": sc.get("phase") or "faction",
            "active": sc.get("active") or "north",
            "awaiting": [],
            "result": None,
            "points": sc["points"],
            "tiles_per_player": sc["tiles_per_player"],
            "start_units": sc["start_units"],
            "factions": dict(sc["factions"]),
            "order": sc.get("order"),
            "units": clone(sc["units"]) if sc.get("units") is not None else {},
            "army_done": list(SIDES) if sc.get("units") is not None else [],
            "tile_choices": clone(sc.get("tile_choices") or {s: [] for s in SIDES}),
            "bag": clone(sc["bag"])
            if sc.get("bag") is not None
            else ([] if sc.get("phase") in ("features", "map") else None),
            "drawn": sc.get("drawn"),
            "central": sc.get("central"),
            "own_features": dict(sc["own_features"]),
            "tiles": clone(sc["map"]) if sc.get("map") else {},
            "homes": dict(sc.get("homes") or {}),
            "control": clone(sc.get("control") or {}),
            "map_done": bool(sc.get("map")) and sc.get("phase") not in scenario_module.MAP_PHASES,
            "start": {"placed": {s: 0 for s in SIDES}, "done": [], "next": None, "last": None},
            "combat": None,
        }
        if sc.get("start"):
            state["start"].update(clone(sc["start"]))
        events: list[dict] = []
        if sc.get("map") and sc.get("phase") is None:
            # a ready map with nothing else said: place starting units next
            state["phase"] = "start" if all(state["factions"].values()) else "faction"
        if state["phase"] in ("play", "bonus", "reroll") and state["order"] is None:
            state["order"] = [state["active"], other(state["active"])]
        if sc.get("combat"):
            state["combat"] = self._new_combat_record(state, sc["combat"])
        self._continue(state, events, dice)
        return state, events

    # ======================================================================================
    # phase flow
    # ======================================================================================
    def _wait(self, state: dict, phase: str, side: str) -> None:
        state["phase"], state["active"], state["awaiting"] = phase, side, [side]

    def _continue(self, state: dict, events: list, dice: Dice) -> None:
        """Advance through setup steps that need nobody's decision (roll-off, shuffle, draw)
        until some side must act, and set ``phase``/``active``/``awaiting`` for it."""
        while True:
            phase = state["phase"]
            if phase == "faction":
                missing = [s for s in SIDES if not state["factions"].get(s)]
                if missing:
                    return self._wait(state, "faction", missing[0])
                if not state["order"]:
                    self._roll_off(state, events, dice)
                state["phase"] = "army"
            elif phase == "army":
                todo = [s for s in state["order"] if s not in state["army_done"]]
                if todo:
                    return self._wait(state, "army", todo[0])
                state["phase"] = "start" if state["map_done"] else "tiles"
            elif phase == "tiles":
                chosen = sum(len(v) for v in state["tile_choices"].values())
                if chosen < 2 * state["tiles_per_player"]:
                    return self._wait(state, "tiles", state["order"][chosen % 2])
                if state["bag"] is None:
                    pool = [t for s in state["order"] for t in state["tile_choices"][s]]
                    state["bag"] = dice.shuffle(pool, "tile bag", events)
                state["phase"] = "features"
            elif phase == "features":
                if not state["central"]:
                    return self._wait(state, "features", state["order"][0])
                missing = [s for s in state["order"] if not state["own_features"].get(s)]
                if missing:
                    return self._wait(state, "features", missing[0])
                state["phase"] = "map"
            elif phase == "map":
                if not state["tiles"]:
                    terrain = state["drawn"] or state["bag"].pop(0)
                    state["drawn"] = None
                    state["tiles"][CENTRE] = {"terrain": terrain, "feature": state["central"]}
                    state["control"][CENTRE] = None
                    events.append({"type": "reveal", "what": "tile", "terrain": terrain})
                    events.append(
                        {
                            "type": "tile_placed",
                            "at": CENTRE,
                            "terrain": terrain,
                            "feature": state["central"],
                            "side": None,
                        }
                    )
                    # "Alle Spieler würfeln um zu sehen, wer anfängt": building the map together
                    # has its own roll-off, and its order also places the features and the
                    # starting units ("in der durch Würfeln bestimmten Reihenfolge")
                    self._roll_off(state, events, dice, "map building")
                    continue
                if state["drawn"] is None and state["bag"]:
                    state["drawn"] = state["bag"].pop(0)
                    events.append({"type": "reveal", "what": "tile", "terrain": state["drawn"]})
                if state["drawn"] is not None:
                    if not self._tile_spots(state):
                        # the table edge is full: the tile goes back out of the game
                        events.append({"type": "tile_discarded", "terrain": state["drawn"]})
                        state["drawn"] = None
                        continue
                    return self._wait(state, "map", state["order"][(len(state["tiles"]) - 1) % 2])
                state["phase"] = "home"
            elif phase == "home":
                missing = [s for s in state["order"] if s not in state["homes"]]
                if missing and self._home_spots(state):
                    return self._wait(state, "home", missing[0])
                state["map_done"] = True
                state["phase"] = "start"
            elif phase == "start":
                st = state["start"]
                if st["next"] is None:
                    st["next"] = state["order"][0]
                for side in (st["next"], other(st["next"])):
                    if self._can_place_start(state, side):
                        return self._wait(state, "start", side)
                first = st["last"] or state["order"][0]
                state["phase"], state["active"], state["turn"] = "play", first, 1
                events.append({"type": "game_started", "side": first})
                self._begin_turn(state, events)
                return
            elif phase == "play":
                if state["awaiting"] != [state["active"]]:
                    self._begin_turn(state, events)
                return
            elif phase in ("bonus", "reroll"):
                return self._combat_next(state, events, dice)
            else:  # pragma: no cover - phases are validated on load
                raise RuleError(f"Unknown phase {phase!r}.")

    def _roll_off(self, state: dict, events: list, dice: Dice, what: str = "player order") -> None:
        label = "" if what == "player order" else f" ({what})"
        while True:
            n = dice.roll(f"roll-off{label}: north", events, side="north")
            s = dice.roll(f"roll-off{label}: south", events, side="south")
            if n != s:
                break
            events.append({"type": "roll_off_tie", "value": n})
        first = "north" if n > s else "south"
        state["order"] = [first, other(first)]
        events.append(
            dict(
                {"type": "order", "first": first, "north": n, "south": s},
                **({} if what == "player order" else {"for": what}),
            )
        )

    # ======================================================================================
    # geometry and map helpers
    # ======================================================================================
    def _kind(self, state: dict, lab: str) -> str:
        tile = state["tiles"][lab]
        return tile.get("feature") or tile["terrain"]

    def _spec(self, state: dict, lab: str) -> dict:
        return self.cat.tile(self._kind(state, lab))

    def _occupant(self, state: dict) -> dict[str, str]:
        return {u["at"]: uid for uid, u in state["units"].items() if u["status"] == "map"}

    def _uspec(self, state: dict, uid: str) -> dict:
        return self.cat.units[state["units"][uid]["type"]]

    def _tile_spots(self, state: dict) -> list[str]:
        spots = set()
        for lab in state["tiles"]:
            for n in _neighbour_labels(lab):
                if n not in state["tiles"] and valid_label(n):
                    spots.add(n)
        return sorted(spots)

    def _tile_steps(self, state: dict, start: str) -> dict[str, int]:
        """How many tiles away each tile is from ``start``, counted across the map's tiles (a
        gap in the map is walked around, never crossed)."""
        steps, frontier = {start: 0}, [start]
        while frontier:
            nxt = []
            for lab in frontier:
                for n in _neighbour_labels(lab):
                    if n in state["tiles"] and n not in steps:
                        steps[n] = steps[lab] + 1
                        nxt.append(n)
            frontier = nxt
        return steps

    def _home_scores(self, state: dict) -> dict[str, int]:
        """For each tile without a feature: tiles to the nearest feature already placed."""
        features = [lab for lab, t in state["tiles"].items() if t.get("feature")]
        free = [lab for lab, t in state["tiles"].items() if not t.get("feature")]
        far = [self._tile_steps(state, f) for f in features]
        return {lab: min((d.get(lab, 10**6) for d in far), default=0) for lab in free}

    def _home_spots(self, state: dict) -> list[str]:
        score = self._home_scores(state)
        if not score:
            return []
        best = max(score.values())
        return sorted(lab for lab in score if score[lab] == best)

    def _can_enter(self, state: dict, uid: str, lab: str, occupied) -> bool:
        if lab not in state["tiles"] or lab in occupied:
            return False
        return not self._spec(state, lab)["flyers_only"] or self._uspec(state, uid)["flying"] > 0

    def _hazard_applies(self, state: dict, uid: str, lab: str) -> bool:
        return (
            bool(self._spec(state, lab)["hazard"])
            and self._kind(state, lab) not in self._uspec(state, uid)["preferred"]
        )

    def _start_spots(self, state: dict, side: str, uid: str) -> list[str]:
        home = state["homes"].get(side)
        if home is None:
            return []
        occupied = self._occupant(state)
        return sorted(
            lab
            for lab in (home,) + _neighbour_labels(home)
            if self._can_enter(state, uid, lab, occupied)
        )

    def _can_place_start(self, state: dict, side: str) -> bool:
        st = state["start"]
        if side in st["done"] or st["placed"][side] >= state["start_units"]:
            return False
        return any(
            self._start_spots(state, side, uid)
            for uid, u in state["units"].items()
            if u["side"] == side and u["status"] == "reserve"
        )

    def _deploy_spots(self, state: dict, side: str, uid: str) -> list[str]:
        occupied = self._occupant(state)
        spots: set[str] = set()
        for lab, owner in state["control"].items():
            if owner == side and lab in state["tiles"]:
                spots.update(
                    n for n in _neighbour_labels(lab) if self._can_enter(state, uid, n, occupied)
                )
        return sorted(spots)

    def _destinations(
        self, state: dict, uid: str, steps: int | None = None
    ) -> dict[str, list[str]]:
        """Every tile the unit may end a move on, with one path to it.

        A move is one step plus the unit's fast/flying bonus steps (``steps`` overrides that). A
        step goes to an adjacent free tile, or jumps over an adjacent unit (an ally; any unit for
        flyers) to a free tile next to it; only one jump per move. Non-flyers stop on entering a
        tile that stops movement or whose hazard applies to them; flyers pass over anything but
        empty space.
        """
        unit, spec = state["units"][uid], self._uspec(state, uid)
        start = unit["at"]
        flyer = spec["flying"] > 0
        occupied = {lab for lab in self._occupant(state) if lab != start}
        friends = {
            u["at"]
            for v, u in state["units"].items()
            if u["status"] == "map" and v != uid and (flyer or u["side"] == unit["side"])
        }
        if steps is None:
            steps = 1 + spec["fast"] + spec["flying"]
        seen: dict[tuple[str, bool], list[str]] = {(start, False): [start]}
        frontier = [(start, False)]
        for _ in range(steps):
            nxt = []
            for here, jumped in frontier:
                path = seen[(here, jumped)]
                if (
                    here != start
                    and not flyer
                    and (self._spec(state, here)["stops"] or self._hazard_applies(state, uid, here))
                ):
                    continue
                for n in _neighbour_labels(here):
                    if (
                        n != start
                        and self._can_enter(state, uid, n, occupied)
                        and (n, jumped) not in seen
                    ):
                        seen[(n, jumped)] = path + [n]
                        nxt.append((n, jumped))
                if not jumped:
                    for over in _neighbour_labels(here):
                        if over not in friends:
                            continue
                        for n in _neighbour_labels(over):
                            if n in (here, start) or (n, True) in seen:
                                continue
                            if (
                                self._can_enter(state, uid, n, occupied)
                                and not self._spec(state, n)["no_jump_in"]
                            ):
                                seen[(n, True)] = path + [n]
                                nxt.append((n, True))
            frontier = nxt
        out: dict[str, list[str]] = {}
        for (lab, _), path in sorted(seen.items(), key=lambda kv: (len(kv[1]), kv[0])):
            if lab != start and lab not in out:
                out[lab] = path
        return out

    def _flyer(self, state: dict, uid: str) -> bool:
        return self._uspec(state, uid)["flying"] > 0

    def _flights(self, state: dict, uid: str) -> dict[str, list[str]]:
        """Tiles a flyer may reach with its bonus moves before it attacks. Flyers take them "wenn
        sie aktiviert werden" (fast units only "wenn sie zum Bewegen aktiviert werden"), so an
        attack activates them too; the bonus moves alone, without the move action's own step."""
        bonus = self._uspec(state, uid)["flying"]
        return self._destinations(state, uid, steps=bonus) if bonus else {}

    def _sight_clear(self, state: dict, uid: str, tid: str, origin: str | None = None) -> bool:
        """Whether some shortest route from the shooter to the target, tile to neighbouring tile,
        crosses no blocking tile ("Zählen Sie die kürzeste Route entlang der Fliesenkanten ...
        Merkmale ... und feindliche Einheiten blockieren die Sichtlinie"). Empty space always
        blocks; features (except water) and enemy units block unless a flyer shoots or is shot."""
        a, b = origin or state["units"][uid]["at"], state["units"][tid]["at"]
        side = state["units"][uid]["side"]
        flyer = self._flyer(state, uid) or self._flyer(state, tid)
        occupant = self._occupant(state)

        def blocks(lab: str) -> bool:
            if lab not in state["tiles"]:
                return True  # empty space always blocks
            if flyer:
                return False
            if self._spec(state, lab)["blocks_sight"]:
                return True
            other_unit = occupant.get(lab)
            return other_unit is not None and state["units"][other_unit]["side"] != side

        # walk the shortest routes layer by layer: each step goes one tile closer to the target
        left = _dist(a, b)
        frontier = {a}
        while left > 1:
            left -= 1
            frontier = {
                n
                for here in frontier
                for n in _neighbour_labels(here)
                if _dist(n, b) == left and not blocks(n)
            }
            if not frontier:
                return False
        return True

    def _reach(self, state: dict, uid: str) -> int:
        return 1 + self._uspec(state, uid)["ranged"]

    # ======================================================================================
    # legal actions
    # ======================================================================================
    def legal_actions(self, state: dict, side: str) -> list[dict]:
        if state.get("result") or side not in self.awaiting(state):
            return []
        phase = state["phase"]
        a = lambda kind, **kw: {"type": kind, "side": side, **kw}  # noqa: E731
        if phase == "faction":
            taken = {f for f in state["factions"].values() if f}
            return [a("faction", faction=f) for f in self.cat.factions if f not in taken]
        if phase == "army":
            faction = self.cat.factions[state["factions"][side]]
            mine = [uid for uid, u in state["units"].items() if u["side"] == side]
            left = state["points"] - sum(self.cat.units[u]["points"] for u in mine)
            out = [
                a("recruit", unit=uid)
                for uid, spec in faction["units"].items()
                if uid not in state["units"] and spec["points"] <= left
            ]
            if mine or not out:  # an army needs a unit, unless none fits the points
                out.append(a("done"))
            return out
        if phase == "tiles":
            return [a("tile", tile=t) for t in self.cat.terrains]
        if phase == "features":
            # the text never asks the central and the own features to differ
            if not state["central"]:
                return [a("central", tile=f) for f in self.cat.features] + [
                    a("central", tile="random")
                ]
            return [a("feature", tile=f) for f in self.cat.features]
        if phase == "map":
            return [a("place", to=lab) for lab in self._tile_spots(state)]
        if phase == "home":
            return [a("place", to=lab) for lab in self._home_spots(state)]
        if phase == "start":
            out = [
                a("deploy", unit=uid, to=lab)
                for uid, u in sorted(state["units"].items())
                if u["side"] == side and u["status"] == "reserve"
                for lab in self._start_spots(state, side, uid)
            ]
            return out + [a("done")]
        if phase == "play":
            return self._turn_actions(state, side)
        if phase in ("bonus", "reroll"):
            return self._combat_actions(state, side)
        return []

    def _turn_actions(self, state: dict, side: str) -> list[dict]:
        return [a for actions in self._unit_actions(state, side) for a in actions]

    def _unit_actions(self, state: dict, side: str):
        """The turn actions unit by unit (a generator, so "has any action" can stop early)."""
        occupant = self._occupant(state)
        for uid in sorted(state["units"]):
            unit = state["units"][uid]
            if unit["side"] != side:
                continue
            if unit["status"] == "reserve":
                yield [
                    {"type": "deploy", "side": side, "unit": uid, "to": lab}
                    for lab in self._deploy_spots(state, side, uid)
                ]
            elif unit["status"] == "map":
                yield self._actions_of(state, side, uid, occupant)

    def _actions_of(self, state: dict, side: str, uid: str, occupant: dict) -> list[dict]:
        unit, spec = state["units"][uid], self._uspec(state, uid)
        out = [
            {"type": "move", "side": side, "unit": uid, "to": lab}
            for lab in sorted(self._destinations(state, uid))
        ]
        out += self._attacks_from(state, side, uid, unit["at"], {})
        for lab in sorted(self._flights(state, uid)):
            out += self._attacks_from(state, side, uid, lab, {"to": lab})
        if state["tiles"][unit["at"]].get("feature"):  # into the feature it stands on
            out.append({"type": "reserve", "side": side, "unit": uid})
        out += [
            {"type": "reserve", "side": side, "unit": uid, "to": lab}
            for lab in self._reserve_gates(state, uid, occupant)
        ]
        if spec["special"] == "teleport":
            out += [
                {"type": "special", "side": side, "unit": uid, "to": lab}
                for lab in self._deploy_spots(state, side, uid)
            ]
        elif spec["special"] == "bless":
            for n in _neighbour_labels(unit["at"]):
                ally = occupant.get(n)
                if (
                    ally
                    and state["units"][ally]["side"] == side
                    and not state["units"][ally]["blessing"]
                ):
                    out.append({"type": "special", "side": side, "unit": uid, "with": ally})
        return out

    def _attacks_from(self, state: dict, side: str, uid: str, at: str, extra: dict) -> list[dict]:
        """The attacks ``uid`` could make standing on ``at`` (each action carries ``extra``)."""
        spec = self._uspec(state, uid)
        out = []
        for tid in sorted(state["units"]):
            target = state["units"][tid]
            if target["side"] == side or target["status"] != "map":
                continue
            d = _dist(at, target["at"])
            if d == 1 and self._can_enter(state, uid, target["at"], ()):
                if len(spec["attacks"]) == 1:  # nothing to declare: the unit's only attack type
                    out.append(
                        {"type": "attack", "side": side, "unit": uid, "target": tid, **extra}
                    )
                else:
                    out += [
                        {
                            "type": "attack",
                            "side": side,
                            "unit": uid,
                            "target": tid,
                            "as": t,
                            **extra,
                        }
                        for t in spec["attacks"]
                    ]
            if (
                spec["ranged"]
                and d <= self._reach(state, uid)
                and (d == 1 or self._sight_clear(state, uid, tid, at))
            ):
                out.append({"type": "fire", "side": side, "unit": uid, "target": tid, **extra})
        return out

    def _reserve_gates(self, state: dict, uid: str, occupant: dict) -> list[str]:
        """Features the unit may step "into" to reach the reserve: occupied by a unit of its own
        side, since a move never enters a tile an enemy holds (that is close combat); next to the
        unit or, for a flyer, next to a tile its bonus moves reach (it takes them "wenn sie
        aktiviert werden", so going to the reserve activates them too)."""
        return sorted(self._reserve_launches(state, uid, occupant))

    def _reserve_launches(self, state: dict, uid: str, occupant: dict) -> dict[str, list[str]]:
        """Each feature the unit may step into, with the path of the step: from where it stands,
        or a flyer's bonus moves and then the step. The flyer never lands on the way (it ends
        inside the feature, off the map), so, as in a flying move, no tile's hazard strikes."""
        unit = state["units"][uid]
        side, at = unit["side"], unit["at"]
        launches = {at: [at], **self._flights(state, uid)}
        out: dict[str, list[str]] = {}
        for here, path in sorted(launches.items(), key=lambda kv: (len(kv[1]), kv[0])):
            for n in _neighbour_labels(here):
                if (
                    n != at
                    and n not in out
                    and n in occupant
                    and state["units"][occupant[n]]["side"] == side
                    and state["tiles"][n].get("feature")
                ):
                    out[n] = path + [n]
        return out

    def _combat_actions(self, state: dict, side: str) -> list[dict]:
        c = state["combat"]
        role = c["chooser"]
        mine = c["dice"][role]
        out = []
        if state["phase"] == "bonus":
            seen = set()
            for die in _die_ids(mine):
                kind, i = _die_ref(die)
                if mine[kind][i] >= 6:
                    continue
                for b in c["bonuses"][role]:
                    if _fits(b, kind) and (die, b["value"]) not in seen:
                        seen.add((die, b["value"]))
                        out.append(
                            {"type": "bonus", "side": side, "die": die, "value": str(b["value"])}
                        )
        else:
            out = [{"type": "reroll", "side": side, "die": die} for die in _die_ids(mine)]
        return out + [{"type": "pass", "side": side}]

    # ======================================================================================
    # apply
    # ======================================================================================
    def apply(self, state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
        self.require_turn(state, action)
        if action not in self.legal_actions(state, action["side"]):
            self._explain_refusal(state, action)
        state = _copy(state)
        events: list[dict] = []
        side, kind = action["side"], action["type"]
        handler = getattr(self, "_do_" + kind.replace("-", "_"))
        handler(state, action, side, events, dice)
        if not state.get("result"):
            self._continue(state, events, dice)
        if state.get("result"):
            state["awaiting"] = []
        return state, events

    def _explain_refusal(self, state: dict, action: dict) -> None:
        # a missing unit: or side was refused before; "" keeps the lookups below well-typed
        units, uid = state["units"], action.get("unit") or ""
        kind, side = action.get("type"), action.get("side") or ""
        command = next((c for c in self.commands if c.name == kind), None)
        if command is not None:
            known = {o.name for o in command.options} | {"type", "side"}
            extra = sorted(set(action) - known)
            if extra:
                options = ", ".join(o.name for o in command.options)
                raise RuleError(
                    f"/{kind} has no option {extra[0]!r}; its options are {options or 'none'}.",
                    **self._keyed(
                        "no_option_of" if options else "no_options",
                        command=str(kind),
                        option=str(extra[0]),
                        options=options,
                    ),
                )
            missing = [o.name for o in command.options if o.required and o.name not in action]
            if missing:
                raise RuleError(
                    f"/{kind} needs {' and '.join(m + ':' for m in missing)}.",
                    [
                        format_command(a)
                        for a in self.legal_actions(state, side)
                        if a["type"] == kind
                    ],
                    **self._keyed("needs", command=str(kind), missing=[m + ":" for m in missing]),
                )
        if (
            state["phase"] in ("army", "map", "home", "start", "features", "faction")
            and command is not None
        ):
            self._explain_setup(state, action)
        if state["phase"] in ("bonus", "reroll") and kind in ("bonus", "reroll"):
            self._explain_combat_choice(state, action)
        if state["phase"] == "play" and kind in (
            "move",
            "attack",
            "fire",
            "reserve",
            "special",
            "deploy",
        ):
            if uid not in units:
                raise RuleError(
                    f"There is no unit {uid!r}.",
                    sorted(u for u, v in units.items() if v["side"] == side),
                    key="no_unit",
                    params={"unit": str(uid)},
                    domain=self.name,
                )
            if units[uid]["side"] != side:
                raise RuleError(
                    f"{uid} is not your unit.",
                    key="pocket-tactics.not_yours",
                    params={"unit": uid},
                    domain=self.name,
                )
            if kind == "deploy" and units[uid]["status"] != "reserve":
                raise RuleError(
                    f"{uid} is not in your reserve.",
                    key="pocket-tactics.not_in_reserve",
                    params={"unit": uid},
                    domain=self.name,
                )
            if kind != "deploy" and units[uid]["status"] != "map":
                raise RuleError(
                    f"{uid} is not on the map ({units[uid]['status']}).",
                    key="pocket-tactics.not_on_map",
                    params={"unit": uid},
                    domain=self.name,
                )
            to = action.get("to")
            if kind in ("move", "deploy") and to is not None:
                if to not in state["tiles"]:
                    raise RuleError(
                        f"{to} is not a tile of the map (empty spaces cannot be entered).",
                        key="pocket-tactics.not_a_tile",
                        params={"cell": str(to)},
                        domain=self.name,
                    )
                if to in self._occupant(state):
                    raise RuleError(
                        f"{to} is occupied by {self._occupant(state)[to]}.",
                        key="pocket-tactics.occupied",
                        params={"cell": str(to), "unit": self._occupant(state)[to]},
                        domain=self.name,
                    )
                if kind == "deploy":
                    raise RuleError(
                        f"{to} is not next to a feature you control.",
                        self._deploy_spots(state, side, uid),
                        key="pocket-tactics.deploy_where",
                        params={"cell": str(to)},
                        domain=self.name,
                    )
                why = self._why_not_reach(state, uid, to)
                raise RuleError(why, sorted(self._destinations(state, uid)), **keyed_of(why))
            target = action.get("target")
            if kind in ("attack", "fire") and target is not None:
                if (
                    target not in units
                    or units[target]["side"] == side
                    or units[target]["status"] != "map"
                ):
                    raise RuleError(
                        f"{target!r} is not an enemy unit on the map.",
                        key="pocket-tactics.not_enemy",
                        params={"target": str(target)},
                        domain=self.name,
                    )
                at = units[uid]["at"]
                if to is not None:
                    if not self._flyer(state, uid):
                        raise RuleError(
                            f"Only flying units take bonus moves before they attack; {uid} attacks "
                            f"from where it stands (leave out to:).",
                            key="pocket-tactics.only_flyers_move_first",
                            params={"unit": uid},
                            domain=self.name,
                        )
                    flights = self._flights(state, uid)
                    if to not in flights:
                        raise RuleError(
                            f"{uid} cannot fly to {to} with its {self._uspec(state, uid)['flying']} "
                            f"bonus moves.",
                            sorted(flights),
                            key="pocket-tactics.cannot_fly",
                            params={
                                "unit": uid,
                                "cell": str(to),
                                "moves": self._uspec(state, uid)["flying"],
                            },
                            domain=self.name,
                        )
                    at = to
                d = _dist(at, units[target]["at"])
                if kind == "attack":
                    self._explain_close_attack(state, action, d)
                    self.refuse_unknown(state, action)
                if not self._uspec(state, uid)["ranged"]:
                    raise RuleError(
                        f"{uid} has no ranged attack.",
                        key="pocket-tactics.no_ranged",
                        params={"unit": uid},
                        domain=self.name,
                    )
                if d > self._reach(state, uid):
                    raise RuleError(
                        f"{target} is {d} tiles away; {uid} reaches {self._reach(state, uid)}.",
                        key="pocket-tactics.out_of_range",
                        params={
                            "target": target,
                            "distance": d,
                            "unit": uid,
                            "reach": self._reach(state, uid),
                        },
                        domain=self.name,
                    )
                raise RuleError(
                    f"{uid} has no line of sight to {target}: no clear shortest route of {d} tiles "
                    f"(features except water, enemy units and empty spaces block it, unless a flyer "
                    f"shoots or is shot; empty spaces always block).",
                    key="pocket-tactics.no_sight",
                    params={"unit": uid, "target": str(target), "distance": d},
                    domain=self.name,
                )
            if kind == "special":
                self._explain_special(state, action)
            if kind == "reserve":
                at = units[uid]["at"]
                gates = self._reserve_gates(state, uid, self._occupant(state))
                ways = ([f"/reserve unit:{uid}"] if state["tiles"][at].get("feature") else []) + [
                    f"/reserve unit:{uid} to:{lab}" for lab in gates
                ]
                if to is None:
                    raise RuleError(
                        f"{uid} does not stand on a feature; without to: a unit goes into the "
                        f"feature it stands on. With to: it steps into an adjacent feature one of "
                        f"your units occupies.",
                        ways,
                        key="pocket-tactics.reserve_not_on_feature",
                        params={"unit": uid},
                        domain=self.name,
                    )
                holder = self._occupant(state).get(to)
                if (
                    holder is not None
                    and units[holder]["side"] != side
                    and state["tiles"].get(to, {}).get("feature")
                    and _dist(at, to) == 1
                ):
                    raise RuleError(
                        f"{to} is held by the enemy {holder}; a unit steps only into a feature one "
                        f"of your own units occupies (entering an enemy's tile is an attack).",
                        ways,
                        key="pocket-tactics.reserve_enemy_feature",
                        params={"cell": str(to), "holder": holder},
                        domain=self.name,
                    )
                if self._flyer(state, uid):
                    raise RuleError(
                        f"{to} is not an occupied feature {uid} can reach; a flyer steps into a feature "
                        f"one of your units occupies, next to it or next to a tile its "
                        f"{self._uspec(state, uid)['flying']} bonus moves reach.",
                        ways,
                        **self._keyed(
                            "reserve_flyer_where",
                            cell=str(to),
                            unit=uid,
                            moves=self._uspec(state, uid)["flying"],
                        ),
                    )
                raise RuleError(
                    f"{to} is not an occupied feature next to {uid}; a unit steps into an adjacent "
                    f"feature one of your units occupies.",
                    ways,
                    key="pocket-tactics.reserve_where",
                    params={"cell": str(to), "unit": uid},
                    domain=self.name,
                )
        self.refuse_unknown(state, action)

    def _explain_setup(self, state: dict, action: dict) -> None:
        """Say why a setup step is refused (the generic refusal then lists what is legal)."""
        kind, side, phase = action["type"], action["side"], state["phase"]
        to = action.get("to")
        if (
            phase == "faction"
            and kind == "faction"
            and action.get("faction") in state["factions"].values()
        ):
            raise RuleError(
                f"{action['faction']} is already taken; the two players play different factions "
                f"(the rules allow a mirror match, but our data holds one set of each faction's figures).",
                [a["faction"] for a in self.legal_actions(state, side)],
                **self._keyed("faction_taken", faction=str(action["faction"])),
            )
        if phase == "army" and kind == "recruit":
            uid = action.get("unit")
            faction = state["factions"][side]
            if uid not in self.cat.factions[faction]["units"]:
                raise RuleError(
                    f"{uid!r} is not a unit of {self.cat.factions[faction]['title']}.",
                    sorted(self.cat.factions[faction]["units"]),
                    **self._keyed(
                        "not_of_faction",
                        unit=str(uid),
                        faction=self.cat.factions[faction]["title"],
                    ),
                )
            if uid in state["units"]:
                raise RuleError(
                    f"{uid} is already in your army (each figure once).",
                    **self._keyed("already_recruited", unit=uid),
                )
            spent = sum(
                self.cat.units[u]["points"] for u, v in state["units"].items() if v["side"] == side
            )
            cost = self.cat.units[uid]["points"]
            raise RuleError(
                f"{uid} costs {cost} points; your army has {spent} of {state['points']}, "
                f"{state['points'] - spent} left.",
                [a["unit"] for a in self.legal_actions(state, side) if a["type"] == "recruit"],
                **self._keyed(
                    "too_dear",
                    unit=uid,
                    cost=cost,
                    spent=spent,
                    limit=state["points"],
                    left=state["points"] - spent,
                ),
            )
        if (
            phase == "army"
            and kind == "done"
            and not any(v["side"] == side for v in state["units"].values())
        ):
            raise RuleError(
                "An army needs at least one unit; /recruit one first.",
                **self._keyed("empty_army"),
            )
        if phase == "features" and kind in ("central", "feature"):
            feature = action.get("tile")
            if feature not in self.cat.features and feature != "random":
                raise RuleError(
                    f"{feature!r} is not a feature; features: {', '.join(self.cat.features)}.",
                    **self._keyed(
                        "not_a_feature", feature=str(feature), features=", ".join(self.cat.features)
                    ),
                )
        if phase == "tiles" and kind == "tile" and action.get("tile") not in self.cat.terrains:
            raise RuleError(
                f"{action.get('tile')!r} is not a terrain tile (features sit on tiles, they do not "
                f"go into the bag); terrains: {', '.join(self.cat.terrains)}.",
                **self._keyed(
                    "not_a_terrain",
                    tile=str(action.get("tile")),
                    terrains=", ".join(self.cat.terrains),
                ),
            )
        if phase == "map" and kind == "place" and to is not None:
            if not valid_label(to):
                raise RuleError(
                    f"{to!r} is not a place on the table (labels 0101-1515).",
                    **self._keyed("not_on_table", cell=str(to)),
                )
            if to in state["tiles"]:
                raise RuleError(
                    f"{to} already holds a tile.", **self._keyed("tile_there", cell=str(to))
                )
            raise RuleError(
                f"{to} is not next to the map; a drawn tile is placed touching a tile already laid.",
                self._tile_spots(state),
                **self._keyed("not_next_to_map", cell=str(to)),
            )
        if phase == "home" and kind == "place" and to is not None:
            if to not in state["tiles"]:
                raise RuleError(
                    f"{to!r} is not a tile of the map.", **self._keyed("not_map_tile", cell=str(to))
                )
            if state["tiles"][to].get("feature"):
                raise RuleError(
                    f"{to} already holds a feature.", **self._keyed("feature_there", cell=str(to))
                )
            scores = self._home_scores(state)
            raise RuleError(
                f"{to} is {scores[to]} tiles from the nearest feature; the farthest tiles are "
                f"{max(scores.values())} tiles away, and your feature goes as far as possible.",
                self._home_spots(state),
                **self._keyed(
                    "home_too_near", cell=str(to), here=scores[to], best=max(scores.values())
                ),
            )
        if phase == "start" and kind == "deploy":
            uid = action.get("unit")
            unit = state["units"].get(uid)
            if uid is None or unit is None or unit["side"] != side or unit["status"] != "reserve":
                raise RuleError(
                    f"{uid!r} is not a unit of your army waiting to be placed.",
                    sorted(
                        u
                        for u, v in state["units"].items()
                        if v["side"] == side and v["status"] == "reserve"
                    ),
                    **self._keyed("not_waiting", unit=str(uid)),
                )
            spot = to or ""
            if spot in self._occupant(state):
                raise RuleError(
                    f"{spot} is occupied; only one unit per tile.",
                    self._start_spots(state, side, uid),
                    **self._keyed("start_occupied", cell=spot),
                )
            if spot in state["tiles"] and not self._can_enter(state, uid, spot, ()):
                raise RuleError(
                    f"{uid} cannot stand on {spot} ({self._kind(state, spot)}).",
                    self._start_spots(state, side, uid),
                    **self._keyed(
                        "cannot_stand", unit=uid, cell=spot, kind=self._kind(state, spot)
                    ),
                )
            raise RuleError(
                f"Starting units go on or next to your own feature ({state['homes'].get(side)}).",
                self._start_spots(state, side, uid),
                **self._keyed("start_where", home=str(state["homes"].get(side))),
            )

    def _keyed(self, what: str, **params) -> dict:
        """RuleError's key, params and domain for one of this game's refusals."""
        return {"key": f"{self.name}.{what}", "params": params, "domain": self.name}

    def _explain_combat_choice(self, state: dict, action: dict) -> None:
        c = state["combat"]
        role = c["chooser"]
        mine = c["dice"][role]
        die = action.get("die", "")
        if die not in _die_ids(mine):
            raise RuleError(
                f"{die!r} is not one of your dice in this combat.",
                _die_ids(mine),
                **self._keyed("not_your_die", die=str(die)),
            )
        if action["type"] != "bonus":
            return
        kind, i = _die_ref(die)
        if mine[kind][i] >= 6:
            raise RuleError(
                f"{die} already shows 6; a bonus never raises a die above 6.",
                **self._keyed("die_six", die=die),
            )
        left = [b for b in c["bonuses"][role] if _fits(b, kind)]
        if not c["bonuses"][role]:
            raise RuleError(
                "You have no bonus left in this combat.",
                key="pocket-tactics.no_bonus_left",
                params={},
                domain=self.name,
            )
        if not left:
            raise RuleError(
                f"You have no bonus left for {with_article(kind.upper())} die (the bonuses you "
                f"have left raise only {'DEF' if kind == 'off' else 'OFF'} dice, as their unit's card says).",
                **self._keyed(
                    "no_bonus_for_kind",
                    kind=kind.upper(),
                    other="DEF" if kind == "off" else "OFF",
                ),
            )
        raise RuleError(
            f"You have no +{action.get('value')} bonus for {die}; left: "
            f"{', '.join('+' + str(b['value']) for b in left)}.",
            **self._keyed(
                "no_such_bonus",
                value=str(action.get("value")),
                die=die,
                left=", ".join("+" + str(b["value"]) for b in left),
            ),
        )

    def _explain_special(self, state: dict, action: dict) -> None:
        uid, side = action["unit"], action["side"]
        special = self._uspec(state, uid)["special"]
        if special is None:
            raise RuleError(
                f"{uid} has no special ability.",
                sorted(
                    u
                    for u, v in state["units"].items()
                    if v["side"] == side
                    and v["status"] == "map"
                    and self._uspec(state, u)["special"]
                ),
                **self._keyed("no_special", unit=uid),
            )
        if special == "bless":
            ally = action.get("with")
            if ally is None or "to" in action:
                raise RuleError(
                    f"{uid} blesses an adjacent ally: /special unit:{uid} with:<ally>.",
                    **self._keyed("bless_how", unit=uid),
                )
            unit = state["units"].get(ally)
            if (
                unit is None
                or unit["side"] != side
                or unit["status"] != "map"
                or _dist(unit["at"], state["units"][uid]["at"]) != 1
            ):
                raise RuleError(
                    f"{ally!r} is not an ally next to {uid}.",
                    **self._keyed("not_ally_next", ally=str(ally), unit=uid),
                )
            raise RuleError(
                f"{ally} is already blessed; a blessing lasts until its next combat.",
                **self._keyed("already_blessed", ally=str(ally)),
            )
        to = action.get("to")
        if to is None or "with" in action:
            raise RuleError(
                f"{uid} teleports: /special unit:{uid} to:<tile>.",
                **self._keyed("teleport_how", unit=uid),
            )
        raise RuleError(
            f"{uid} teleports only to a free tile next to a feature you control.",
            self._deploy_spots(state, side, uid),
            **self._keyed("teleport_where", unit=uid),
        )

    def _explain_close_attack(self, state: dict, action: dict, distance: int) -> None:
        uid, target = action["unit"], action["target"]
        if distance != 1:
            raise RuleError(
                f"A close-combat attack needs an adjacent enemy; {target} is {distance} tiles away.",
                **self._keyed("not_adjacent", target=target, distance=distance),
            )
        there = state["units"][target]["at"]
        if not self._can_enter(state, uid, there, ()):
            raise RuleError(
                f"{uid} cannot enter {there} ({self._kind(state, there)}), so it cannot attack {target} "
                f"there in close combat.",
                **self._keyed(
                    "cannot_enter_attack",
                    unit=uid,
                    cell=there,
                    kind=self._kind(state, there),
                    target=target,
                ),
            )
        types = self._uspec(state, uid)["attacks"]
        declared = action.get("as")
        if len(types) == 1 and declared is not None:
            raise RuleError(
                f"{uid} knows only {types[0]} attacks; leave out as:.",
                [f"/attack unit:{uid} target:{target}"],
                **self._keyed("one_attack_type", unit=uid, attack=types[0]),
            )
        if len(types) > 1 and declared not in types:
            said = "did not declare" if declared is None else f"cannot attack as {declared!r}"
            raise RuleError(
                f"{uid} {said}: the attacker declares the attack type, as:{' or as:'.join(types)}.",
                [f"/attack unit:{uid} target:{target} as:{t}" for t in types],
                **self._keyed(
                    "undeclared" if declared is None else "wrong_attack_type",
                    unit=uid,
                    declared=str(declared),
                    types=["as:" + t for t in types],
                ),
            )

    # ----- setup actions --------------------------------------------------------------------
    def _do_faction(self, state, action, side, events, dice):
        state["factions"][side] = action["faction"]
        events.append({"type": "faction_chosen", "side": side, "faction": action["faction"]})

    def _do_recruit(self, state, action, side, events, dice):
        uid = action["unit"]
        state["units"][uid] = {
            "side": side,
            "type": uid,
            "status": "reserve",
            "at": None,
            "by": None,
            "blessing": 0,
        }
        events.append({"type": "recruited", "side": side, "unit": uid})

    def _do_done(self, state, action, side, events, dice):
        if state["phase"] == "army":
            state["army_done"].append(side)
            events.append({"type": "army_done", "side": side})
        else:
            state["start"]["done"].append(side)
            state["start"]["next"] = other(side)
            events.append({"type": "start_done", "side": side})

    def _do_tile(self, state, action, side, events, dice):
        state["tile_choices"][side].append(action["tile"])
        events.append({"type": "tile_chosen", "side": side, "terrain": action["tile"]})

    def _do_central(self, state, action, side, events, dice):
        feature = action["tile"]
        if feature == "random":
            names = list(self.cat.features)
            feature = names[dice.roll("random central feature", events, sides=len(names)) - 1]
        state["central"] = feature
        events.append({"type": "central_chosen", "side": side, "feature": feature})

    def _do_feature(self, state, action, side, events, dice):
        state["own_features"][side] = action["tile"]
        events.append({"type": "feature_chosen", "side": side, "feature": action["tile"]})

    def _do_place(self, state, action, side, events, dice):
        to = action["to"]
        if state["phase"] == "map":
            state["tiles"][to] = {"terrain": state["drawn"], "feature": None}
            events.append(
                {
                    "type": "tile_placed",
                    "side": side,
                    "at": to,
                    "terrain": state["drawn"],
                    "feature": None,
                }
            )
            state["drawn"] = None
        else:
            feature = state["own_features"][side]
            state["tiles"][to]["feature"] = feature
            state["homes"][side] = to
            state["control"][to] = side
            events.append({"type": "feature_placed", "side": side, "at": to, "feature": feature})

    # ----- turn actions ---------------------------------------------------------------------
    def _do_deploy(self, state, action, side, events, dice):
        uid, to = action["unit"], action["to"]
        unit = state["units"][uid]
        unit["status"], unit["at"] = "map", to
        events.append({"type": "deployed", "side": side, "unit": uid, "to": to})
        self._take_control(state, uid, to, events)
        if state["phase"] == "start":
            st = state["start"]
            st["placed"][side] += 1
            st["last"], st["next"] = side, other(side)
        else:
            self._end_turn(state, events)

    def _do_move(self, state, action, side, events, dice):
        uid, to = action["unit"], action["to"]
        path = self._destinations(state, uid)[to]
        events.append(
            {"type": "moved", "side": side, "unit": uid, "from": path[0], "to": to, "path": path}
        )
        self._enter(state, uid, to, path[0], events, dice)
        self._end_turn(state, events)

    def _do_reserve(self, state, action, side, events, dice):
        uid = action["unit"]
        unit = state["units"][uid]
        at = unit["at"]
        event = {
            "type": "to_reserve",
            "side": side,
            "unit": uid,
            "from": at,
            "via": action.get("to", at),
        }
        if "to" in action:
            path = self._reserve_launches(state, uid, self._occupant(state))[action["to"]]
            if len(path) > 2:
                event["path"] = path  # a flyer flew its bonus moves first
        unit["status"], unit["at"] = "reserve", None
        events.append(event)
        if "to" not in action:
            # going into the feature one stands on gives up its control
            was = state["control"].get(at)
            state["control"][at] = None
            if was is not None:
                events.append({"type": "control", "at": at, "side": None, "was": was})
        self._end_turn(state, events)

    def _do_special(self, state, action, side, events, dice):
        uid = action["unit"]
        spec = self._uspec(state, uid)
        if spec["special"] == "bless":
            ally = action["with"]
            state["units"][ally]["blessing"] = 1
            events.append({"type": "blessed", "side": side, "unit": uid, "with": ally})
        else:
            to = action["to"]
            origin = state["units"][uid]["at"]
            if self._test(state, uid, "off", "teleport", events, dice):
                events.append(
                    {"type": "teleported", "side": side, "unit": uid, "from": origin, "to": to}
                )
                self._enter(state, uid, to, origin, events, dice)
            else:
                events.append(
                    {
                        "type": "action_failed",
                        "side": side,
                        "unit": uid,
                        "why": "teleport OFF test failed",
                    }
                )
        self._end_turn(state, events)

    def _do_attack(self, state, action, side, events, dice):
        declared = action.get("as") or self._uspec(state, action["unit"])["attacks"][0]
        if self._fly_first(state, action, side, events, dice):
            self._start_combat(state, action, side, events, dice, declared)

    def _do_fire(self, state, action, side, events, dice):
        if self._fly_first(state, action, side, events, dice):
            self._start_combat(state, action, side, events, dice, "ranged")

    def _fly_first(self, state, action, side, events, dice) -> bool:
        """A flyer's bonus moves before its attack (``to:``). False if it did not arrive (a hazard
        where it lands); the activation is then spent."""
        to = action.get("to")
        if to is None:
            return True
        uid = action["unit"]
        path = self._flights(state, uid)[to]
        events.append(
            {"type": "moved", "side": side, "unit": uid, "from": path[0], "to": to, "path": path}
        )
        if self._enter(state, uid, to, path[0], events, dice):
            return True
        self._end_turn(state, events)
        return False

    # ----- entering tiles, hazards, tests -------------------------------------------------------
    def _test(self, state, uid, kind, why, events, dice) -> bool:
        """The 5+ test: roll the unit's OFF or DEF dice; one 5 or 6 passes (no dice: fails)."""
        n = self._uspec(state, uid)[kind]
        values = [
            dice.roll(
                f"{uid} {kind.upper()} 5+ test ({why})", events, side=state["units"][uid]["side"]
            )
            for _ in range(n)
        ]
        passed = any(v >= 5 for v in values)
        events.append(
            {
                "type": "test",
                "unit": uid,
                "kind": kind,
                "why": why,
                "dice": values,
                "passed": passed,
            }
        )
        return passed

    def _capture(self, state, uid, by, events, reason) -> None:
        unit = state["units"][uid]
        events.append(
            {"type": "captured", "unit": uid, "by": by, "from": unit["at"], "reason": reason}
        )
        unit.update(status="captured", at=None, by=by, blessing=0)

    def _take_control(self, state, uid, lab, events) -> None:
        side = state["units"][uid]["side"]
        if state["tiles"][lab].get("feature") and state["control"].get(lab) != side:
            events.append(
                {"type": "control", "at": lab, "side": side, "was": state["control"].get(lab)}
            )
            state["control"][lab] = side

    def _enter(self, state, uid, dest, origin, events, dice, water_tested=False) -> bool:
        """Put a moving unit on ``dest`` and resolve the tile's hazard. False if it did not stay."""
        unit = state["units"][uid]
        unit["at"] = dest
        hazard = (
            self._spec(state, dest)["hazard"] if self._hazard_applies(state, uid, dest) else None
        )
        if hazard == "drown" and not water_tested:
            value = dice.roll(f"{uid} water test at {dest}", events, side=unit["side"])
            if value <= 3:
                events.append(
                    {
                        "type": "hazard",
                        "unit": uid,
                        "at": dest,
                        "hazard": "drown",
                        "dice": [value],
                        "passed": False,
                    }
                )
                self._capture(state, uid, other(unit["side"]), events, "drowned")
                return False
            events.append(
                {
                    "type": "hazard",
                    "unit": uid,
                    "at": dest,
                    "hazard": "drown",
                    "dice": [value],
                    "passed": True,
                }
            )
        elif hazard == "def-test":
            if not self._test(state, uid, "def", f"hazard at {dest}", events, dice):
                self._capture(state, uid, other(unit["side"]), events, "hazard")
                return False
        elif hazard == "off-test":
            if not self._test(state, uid, "off", f"hazard at {dest}", events, dice):
                unit["at"] = origin
                events.append(
                    {
                        "type": "action_failed",
                        "unit": uid,
                        "why": f"OFF test at {dest} failed",
                        "back_to": origin,
                    }
                )
                return False
        self._take_control(state, uid, dest, events)
        return True

    # ----- combat -----------------------------------------------------------------------------
    def _bonuses(self, state, uid, enemy, attack_type) -> list[dict]:
        """The bonuses ``uid`` may spend in a combat of ``attack_type`` (a bonus naming attack
        types counts only in those combats, for attacker and defender alike).

        A bonus is listed next to the OFF or the DEF dice, yet "Jeder Bonus kann ein einzelnes
        Würfelergebnis (entweder OFF oder DEF) ... anpassen": it may raise a die of either kind,
        unless its data entry says ``only_kind`` (see ``_fits``)."""
        spec, unit = self._uspec(state, uid), state["units"][uid]
        here = self._kind(state, unit["at"])

        def usable(b: dict, source: str) -> dict:
            return dict(
                {"kind": b["kind"], "value": b["value"], "source": source},
                **({"only_kind": True} if b.get("only_kind") else {}),
            )

        out = [
            usable(b, "card")
            for b in spec["bonus"]
            if attack_type in b.get("attack", (attack_type,))
        ]
        out += [
            usable(b, here)
            for b in self._spec(state, unit["at"])["bonus"]
            if attack_type in b.get("attack", (attack_type,))
        ]
        if spec["bane"] and spec["bane"] in self._uspec(state, enemy)["types"]:
            out.append({"kind": "off", "value": 1, "source": f"bane of {spec['bane']}"})
        if unit["blessing"]:
            out.append({"kind": "any", "value": 1, "source": "blessing"})
        return out

    def _rerolls(self, state, uid) -> int:
        unit = state["units"][uid]
        support = sum(
            1
            for n in _neighbour_labels(unit["at"])
            for v in state["units"].values()
            if v["status"] == "map" and v["at"] == n and v["side"] == unit["side"]
        )
        preferred = (
            1 if self._kind(state, unit["at"]) in self._uspec(state, uid)["preferred"] else 0
        )
        return support + preferred

    def _new_combat_record(self, state, sc: dict) -> dict:
        att, dfd = sc["attacker"], sc["defender"]
        c = {
            "attacker": att,
            "defender": dfd,
            "kind": sc["kind"],
            "from": state["units"][att]["at"],
            "to": state["units"][dfd]["at"],
            "water_tested": sc.get("water_tested", False),
            "dice": clone(sc["dice"]),
            "bonuses": clone(
                sc.get("bonuses")
                or {
                    "attacker": self._bonuses(state, att, dfd, sc["kind"]),
                    "defender": self._bonuses(state, dfd, att, sc["kind"]),
                }
            ),
            "rerolls": clone(
                sc.get("rerolls")
                or {"attacker": self._rerolls(state, att), "defender": self._rerolls(state, dfd)}
            ),
            "passed": list(sc.get("passed", [])),
            "next": sc.get("next", "attacker"),
            "chooser": None,
        }
        for role in ROLES:
            c["bonuses"][role] = [
                dict(b, source=b.get("source", "scenario")) for b in c["bonuses"][role]
            ]
            # a blessing lasts for one combat, used or not
            state["units"][c[role]]["blessing"] = 0
        return c

    def _start_combat(self, state, action, side, events, dice, kind) -> None:
        att, dfd = action["unit"], action["target"]
        units = state["units"]
        a_at, d_at = units[att]["at"], units[dfd]["at"]
        events.append(
            {
                "type": "attack_declared",
                "side": side,
                "unit": att,
                "target": dfd,
                "kind": kind,
                "from": a_at,
                "to": d_at,
            }
        )
        water_tested = False
        if (
            self._spec(state, d_at)["hazard"] == "drown"
            and self._kind(state, d_at) not in self._uspec(state, att)["preferred"]
        ):
            value = dice.roll(f"{att} water test before attacking {dfd}", events, side=side)
            passed = value >= 4
            events.append(
                {
                    "type": "hazard",
                    "unit": att,
                    "at": d_at,
                    "hazard": "drown",
                    "dice": [value],
                    "passed": passed,
                    "before": "attack",
                }
            )
            if not passed:
                if kind in CLOSE_ATTACKS:
                    self._capture(state, att, other(side), events, "drowned")
                else:
                    events.append(
                        {"type": "action_failed", "unit": att, "why": "water test failed"}
                    )
                self._end_turn(state, events)
                return
            water_tested = True
        aspec, dspec = self._uspec(state, att), self._uspec(state, dfd)
        counter = kind in CLOSE_ATTACKS or _dist(a_at, d_at) <= self._reach(state, dfd)
        rolled: dict[str, dict[str, list[int]]] = {
            "attacker": {"off": [], "def": []},
            "defender": {"off": [], "def": []},
        }
        for role, uid, spec, side_of in (
            ("attacker", att, aspec, side),
            ("defender", dfd, dspec, other(side)),
        ):
            for k in ("off", "def"):
                if k == "off" and role == "defender" and not counter:
                    events.append(
                        {"type": "no_counter", "unit": dfd, "why": "attacker out of its range"}
                    )
                    continue
                rolled[role][k] = [
                    dice.roll(
                        f"{uid} {k.upper()}", events, side=side_of, role=role, die=f"{k}{i + 1}"
                    )
                    for i in range(spec[k])
                ]
        state["combat"] = self._new_combat_record(
            state,
            {
                "attacker": att,
                "defender": dfd,
                "kind": kind,
                "dice": rolled,
                "water_tested": water_tested,
            },
        )
        events.append(
            {"type": "combat_rolled", "attacker": att, "defender": dfd, "dice": clone(rolled)}
        )
        state["phase"] = "bonus"

    def _has_choice(self, c: dict, role: str, step: str) -> bool:
        if role in c["passed"]:
            return False
        mine = c["dice"][role]
        if step == "bonus":
            return any(
                mine[k][i] < 6 and any(_fits(b, k) for b in c["bonuses"][role])
                for k in ("off", "def")
                for i in range(len(mine[k]))
            )
        return c["rerolls"][role] > 0 and bool(mine["off"] or mine["def"])

    def _combat_next(self, state, events, dice) -> None:
        c = state["combat"]
        while True:
            step = state["phase"]
            for role in (c["next"], _other_role(c["next"])):
                if self._has_choice(c, role, step):
                    c["chooser"] = role
                    state["awaiting"] = [state["units"][c[role]]["side"]]
                    return
            if step == "bonus":
                state["phase"] = "reroll"
                c["passed"], c["next"] = [], "attacker"
                continue
            self._resolve_combat(state, events, dice)
            return

    def _do_bonus(self, state, action, side, events, dice):
        c = state["combat"]
        role = c["chooser"]
        kind, i = _die_ref(action["die"])
        value = int(action["value"])
        pool = c["bonuses"][role]
        # a bonus tied to the die's kind is spent before an "any" bonus of the same value
        fitting = [b for b in pool if b["value"] == value and _fits(b, kind)]
        # spend the most limited fitting bonus first, so the flexible ones stay for later dice
        used = min(fitting, key=lambda b: (not b.get("only_kind"), b["kind"] != kind))
        pool.remove(used)
        old = c["dice"][role][kind][i]
        c["dice"][role][kind][i] = min(6, old + value)
        events.append(
            {
                "type": "bonus",
                "side": side,
                "unit": c[role],
                "die": action["die"],
                "from": old,
                "to": c["dice"][role][kind][i],
                "value": value,
                "source": used["source"],
            }
        )
        self._changed(c, role)

    def _do_reroll(self, state, action, side, events, dice):
        c = state["combat"]
        role = c["chooser"]
        kind, i = _die_ref(action["die"])
        old = c["dice"][role][kind][i]
        new = dice.roll(
            f"{c[role]} re-roll {action['die']}", events, side=side, role=role, die=action["die"]
        )
        c["dice"][role][kind][i] = new
        c["rerolls"][role] -= 1
        events.append(
            {
                "type": "reroll",
                "side": side,
                "unit": c[role],
                "die": action["die"],
                "from": old,
                "to": new,
            }
        )
        self._changed(c, role)

    @staticmethod
    def _changed(c: dict, role: str) -> None:
        """After a bonus or re-roll the turn passes to the other player, and a player who passed
        earlier may answer the new dice: the players "wechseln sich ... ab" and the text ends
        neither phase for a player who once declined. ``passed`` holds who passed since."""
        c["passed"] = []
        c["next"] = _other_role(role)

    def _do_pass(self, state, action, side, events, dice):
        c = state["combat"]
        c["passed"].append(c["chooser"])
        events.append({"type": "pass", "side": side, "step": state["phase"]})
        c["next"] = _other_role(c["chooser"])

    def _resolve_combat(self, state, events, dice) -> None:
        c = state["combat"]
        att, dfd = c["attacker"], c["defender"]
        a, d = c["dice"]["attacker"], c["dice"]["defender"]
        attack_hits, attack_why = _duel(a["off"], d["def"])
        counter_hits, counter_why = _duel(d["off"], a["def"])
        side = state["units"][att]["side"]
        events.append(
            {
                "type": "combat",
                "attacker": att,
                "defender": dfd,
                "kind": c["kind"],
                "from": c["from"],
                "to": c["to"],
                "attack": {
                    "off": sorted(a["off"], reverse=True),
                    "def": sorted(d["def"], reverse=True),
                    "hit": attack_hits,
                    "why": attack_why,
                },
                "counter": {
                    "off": sorted(d["off"], reverse=True),
                    "def": sorted(a["def"], reverse=True),
                    "hit": counter_hits,
                    "why": counter_why,
                },
            }
        )
        if attack_hits:
            self._capture(state, dfd, side, events, "defeated")
        if counter_hits:
            self._capture(state, att, other(side), events, "defeated")
        state["combat"] = None
        state["phase"] = "play"
        if attack_hits and not counter_hits and c["kind"] in CLOSE_ATTACKS:
            events.append(
                {
                    "type": "moved",
                    "side": side,
                    "unit": att,
                    "from": c["from"],
                    "to": c["to"],
                    "path": [c["from"], c["to"]],
                    "advance": True,
                }
            )
            self._enter(
                state, att, c["to"], c["from"], events, dice, water_tested=c["water_tested"]
            )
        self._end_turn(state, events)

    # ----- turn end and victory -------------------------------------------------------------------
    def _holds_every_feature(self, state, events) -> bool:
        features = [lab for lab, t in state["tiles"].items() if t.get("feature")]
        owners = {state["control"].get(lab) for lab in features}
        if features and len(owners) == 1 and None not in owners:
            winner = owners.pop()
            state["result"] = {
                "winner": winner,
                "reason": f"{SIDE_TITLES[winner]} controls every feature",
            }
            state["awaiting"] = []
            events.append({"type": "game_over", **state["result"]})
            return True
        return False

    def _end_turn(self, state, events) -> None:
        state["phase"], state["combat"] = "play", None
        if self._holds_every_feature(state, events) or self._decided(
            state, events, other(state["active"])
        ):
            return
        state["active"] = other(state["active"])
        state["turn"] += 1
        events.append({"type": "turn_started", "turn": state["turn"], "side": state["active"]})
        state["awaiting"] = [state["active"]]

    def _can_act(self, state, side) -> bool:
        return any(self._unit_actions(state, side))

    def _begin_turn(self, state, events) -> None:
        side = state["active"]
        state["awaiting"] = [side]
        if not self._holds_every_feature(state, events):
            self._decided(state, events, side)

    def _decided(self, state, events, to_move) -> bool:
        """A player wins the moment the opponent could neither activate nor deploy a unit; this is
        checked for both players after every action (and when play starts), so a side that strands
        itself loses before the other moves. Both stuck at once (both last units fall): a draw."""
        stuck = [s for s in (to_move, other(to_move)) if not self._can_act(state, s)]
        if not stuck:
            return False
        if len(stuck) == 2:
            state["result"] = {
                "winner": None,
                "reason": "Neither player can activate or deploy a unit",
            }
        else:
            state["result"] = {
                "winner": other(stuck[0]),
                "reason": f"{SIDE_TITLES[stuck[0]]} can neither activate nor deploy a unit",
            }
        state["awaiting"] = []
        events.append({"type": "game_over", **state["result"]})
        return True

    # ======================================================================================
    # presentation
    # ======================================================================================
    def view(self, state: dict, side: str | None) -> dict:
        shown = dict(state)  # the state's own parts but the bag (views are only read)
        if shown.get("bag") is not None:
            shown["bag"] = sorted(shown["bag"])  # the contents are public, the order is not
        return shown

    def _why_not_reach(self, state: dict, uid: str, to: str) -> Reason:
        """Why ``uid`` cannot end a move on the free tile ``to``, in the game's terms: a tile
        for flyers only, more steps than the unit has, or tiles on every way there that stop
        it."""
        name = self._unit_name(state, uid)
        spec = self._uspec(state, uid)
        if self._spec(state, to)["flyers_only"] and not spec["flying"]:
            return Reason(
                f"Only flyers enter {to}; {name} does not fly.",
                "pocket-tactics.flyers_only",
                self.name,
                unit=name,
                cell=str(to),
            )
        steps = 1 + spec["fast"] + spec["flying"]
        # A move is a handful of steps; a longer search finds how many a way there needs.
        ways = self._destinations(state, uid, steps=steps + 12)
        if to in ways:
            need = len(ways[to]) - 1
            return Reason(
                f"{name} needs {need} steps to reach {to} and has {steps} this move.",
                "pocket-tactics.too_far",
                self.name,
                unit=name,
                cell=str(to),
                need=need,
                steps=steps,
            )
        return Reason(
            f"{name} cannot reach {to}: every way there crosses a tile that stops it "
            f"(stopping terrain, or a hazard it does not prefer).",
            "pocket-tactics.stopped_on_the_way",
            self.name,
            unit=name,
            cell=str(to),
        )

    def _unit_name(self, state, uid) -> str:
        spec = self.cat.units.get(uid)
        return spec["title"] if spec else uid

    def describe_choice(self, state: dict, action: dict, lang: str = "en") -> str | None:
        """The combat choices as sentences about the chooser's own dice."""
        kind = action.get("type")
        if kind == "pass":
            return "Jetzt nichts davon (passen)" if lang == "de" else "Nothing now (pass)"
        c = state.get("combat")
        if kind not in ("bonus", "reroll") or not c or c.get("chooser") not in ROLES:
            return None
        try:
            which, i = _die_ref(str(action.get("die")))
            showing = c["dice"][c["chooser"]][which][i]
        except (KeyError, IndexError, ValueError):
            return None
        die = which.upper()
        if kind == "bonus":
            if lang == "de":
                return f"+{action.get('value')} auf deinen {die}-Würfel mit der {showing}"
            return f"+{action.get('value')} on your {die} die showing {showing}"
        if lang == "de":
            return f"Deinen {die}-Würfel mit der {showing} neu würfeln"
        return f"Re-roll your {die} die showing {showing}"

    def describe(self, state: dict, key: str, value: str) -> str:
        return self.label(state, key, value, "en")

    def label(self, state: dict, key: str, value: str, lang: str = "en") -> str:
        de = lang == "de"
        if key in ("unit", "target", "with") and value in state.get("units", {}):
            u = state["units"][value]
            where = u["at"] if u["status"] == "map" else u["status"]
            if de:
                where = {"reserve": "Reserve", "captured": "gefangen"}.get(where, where)
            return f"{self._unit_name(state, value)} ({self.side_title(u['side'], lang)}, {where})"
        if key == "unit" and value in self.cat.units:
            spec = self.cat.units[value]
            points = count(lang, spec["points"], "point")
            return f"{spec['title']} ({points}, OFF {spec['off']} DEF {spec['def']})"
        if key == "to" and value in state.get("tiles", {}):
            t = state["tiles"][value]
            kind = present.word(self.cat.tile(t["terrain"])["title"], lang)
            on = " auf " if de else " on "
            feat = (
                f"{present.word(self.cat.features[t['feature']]['title'], lang)}{on}"
                if t.get("feature")
                else ""
            )
            return f"{value} ({feat}{kind})"
        if de and key == "die" and state.get("combat"):
            c = state["combat"]
            kind, i = _die_ref(value)
            return f"{kind.upper()}-Würfel {i + 1} (zeigt {c['dice'][c['chooser']][kind][i]})"
        if de and key == "as":
            return {"melee": "Nahkampfangriff", "magic": "Magieangriff"}.get(value, value)
        if key == "tile":
            if value in self.cat.terrains:
                return present.word(self.cat.terrains[value]["title"], lang)
            if value in self.cat.features:
                return present.word(self.cat.features[value]["title"], lang)
        if key == "faction" and value in self.cat.factions:
            return self.cat.factions[value]["title"]
        if key == "die" and state.get("combat"):
            c = state["combat"]
            kind, i = _die_ref(value)
            return f"{kind.upper()} die {i + 1} (shows {c['dice'][c['chooser']][kind][i]})"
        if key == "value":
            return f"+{value}"
        if key == "as":
            return {"melee": "melee attack", "magic": "magic attack"}.get(value, value)
        return value

    def unit_facts(self, state: dict, unit: str, lang: str = "en") -> list[str]:
        return explain.unit_facts(self, self.cat, state, unit, lang)

    def cell_facts(self, state: dict, cell: str, lang: str = "en") -> list[str]:
        return explain.cell_facts(self, self.cat, state, cell, lang)

    def narrate(self, state: dict, event: dict, lang: str = "en") -> str | None:
        if lang == "de" and event.get("type") != "roll":
            return explain.narrate_de(self, self.cat, state, event)
        return self.describe_event(state, event)

    def result_reason(self, state: dict, lang: str = "en") -> str:
        reason = str((state.get("result") or {}).get("reason") or "")
        return explain.phrase_de(reason) if lang == "de" else reason

    def roll_purpose(self, state: dict, event: dict, lang: str = "en") -> str:
        return explain.roll_purpose(event, lang, lambda uid: self._unit_name(state, uid))

    def describe_event(self, state: dict, event: dict) -> str | None:
        t = event.get("type")
        n = lambda uid: self._unit_name(state, uid)  # noqa: E731
        if t == "roll":
            return f"🎲 {event['purpose']}: {event['value']}"
        if t == "order":
            what = (
                f" for {event['for']}" if event.get("for", "player order") != "player order" else ""
            )
            return (
                f"Roll-off{what} North {event['north']} : South {event['south']} — "
                f"{SIDE_TITLES[event['first']]} goes first."
            )
        if t == "faction_chosen":
            return f"{SIDE_TITLES[event['side']]} plays {self.cat.factions[event['faction']]['title']}."
        if t == "recruited":
            return f"{SIDE_TITLES[event['side']]} recruits {n(event['unit'])}."
        if t == "tile_chosen":
            return f"{SIDE_TITLES[event['side']]} puts {self.cat.terrains[event['terrain']]['title']} into the bag."
        if t == "shuffle":
            return f"The {event['purpose']} is shuffled ({event['count']} tiles)."
        if t == "reveal" and event.get("what") == "tile":
            return f"Drawn from the bag: {self.cat.terrains[event['terrain']]['title']}."
        if t == "central_chosen":
            return f"Central feature: {self.cat.features[event['feature']]['title']}."
        if t == "feature_chosen":
            return f"{SIDE_TITLES[event['side']]} chooses {self.cat.features[event['feature']]['title']} as own feature."
        if t == "tile_placed":
            feat = (
                f" with {self.cat.features[event['feature']]['title']}"
                if event.get("feature")
                else ""
            )
            return f"{self.cat.terrains[event['terrain']]['title']}{feat} placed at {event['at']}."
        if t == "feature_placed":
            return f"{SIDE_TITLES[event['side']]} places {self.cat.features[event['feature']]['title']} at {event['at']}."
        if t == "deployed":
            return f"{n(event['unit'])} deployed at {event['to']}."
        if t == "moved":
            verb = "advances" if event.get("advance") else "moves"
            return f"{n(event['unit'])} {verb} {' → '.join(event['path'])}."
        if t == "to_reserve":
            via = (
                f" through the feature at {event['via']}"
                if event.get("via", event["from"]) != event["from"]
                else ""
            )
            if event.get("path"):
                via = f", flying {' → '.join(event['path'][:-1])} and into the feature at {event['via']}"
            return f"{n(event['unit'])} returns to the reserve from {event['from']}{via}."
        if t == "blessed":
            return (
                f"{n(event['unit'])} blesses {n(event['with'])} (+1 to any die in its next combat)."
            )
        if t == "teleported":
            return f"{n(event['unit'])} teleports {event['from']} → {event['to']}."
        if t == "test":
            res = "passed" if event["passed"] else "failed"
            dice = ", ".join(map(str, event["dice"])) or "no dice"
            return f"{n(event['unit'])} {event['kind'].upper()} 5+ test ({event['why']}): {dice} — {res}."
        if t == "hazard":
            res = "safe" if event["passed"] else "fails"
            return f"{n(event['unit'])} water test at {event['at']}: {event['dice'][0]} — {res}."
        if t == "captured":
            return f"{n(event['unit'])} is {event['reason']} and captured by {SIDE_TITLES[event['by']]}."
        if t == "action_failed":
            return f"{n(event['unit'])}: action failed ({event['why']})."
        if t == "attack_declared":
            return f"{n(event['unit'])} attacks {n(event['target'])} ({event['kind']}, {event['from']} → {event['to']})."
        if t == "no_counter":
            return f"{n(event['unit'])} cannot reach the attacker and rolls no OFF dice."
        if t == "combat_rolled":
            d = event["dice"]
            return (
                f"{n(event['attacker'])} OFF {d['attacker']['off']} DEF {d['attacker']['def']} vs "
                f"{n(event['defender'])} OFF {d['defender']['off']} DEF {d['defender']['def']}."
            )
        if t == "bonus":
            return f"{n(event['unit'])}: +{event['value']} ({event['source']}) on {explain.die_name(event['die'])}: {event['from']} → {event['to']}."
        if t == "reroll":
            return f"{n(event['unit'])} re-rolls {explain.die_name(event['die'])}: {event['from']} → {event['to']}."
        if t == "pass":
            return f"{SIDE_TITLES[event['side']]} passes ({event['step']})."
        if t == "combat":
            return f"{n(event['attacker'])} vs {n(event['defender'])}: {self._combat_text(event)}"
        if t == "control":
            who = SIDE_TITLES[event["side"]] if event["side"] else "nobody"
            return f"Feature at {event['at']} now held by {who}."
        if t == "tile_discarded":
            return f"No room left on the table: {self.cat.terrains[event['terrain']]['title']} is set aside."
        if t == "army_done":
            return f"{SIDE_TITLES[event['side']]} has finished recruiting."
        if t == "start_done":
            return f"{SIDE_TITLES[event['side']]} places no more starting units."
        if t == "roll_off_tie":
            return f"Roll-off tied at {event['value']}; rolling again."
        if t == "turn_started":
            return f"Turn {event['turn']}: {SIDE_TITLES[event['side']]}."
        if t == "game_started":
            return f"Starting units placed; {SIDE_TITLES[event['side']]} begins."
        if t == "game_over":
            return f"Game over: {event['reason']}."
        return None

    @staticmethod
    def _combat_text(event: dict, short: bool = False) -> str:
        def part(p):
            off = ",".join(map(str, p["off"])) or "–"
            dfn = ",".join(map(str, p["def"])) or "–"
            why = f" ({p['why']})" if p.get("why") and not short else ""
            return f"{off} vs {dfn} {'hit' if p['hit'] else 'miss'}{why}"

        if short:  # the picture's arrow label: both duels, no explanations
            return f"{part(event['attack'])} · {part(event['counter'])}"
        return f"attack {part(event['attack'])}; counter {part(event['counter'])}"

    def localised_header(self, state: dict, lang: str = "en") -> dict[str, str]:
        header = super().localised_header(state, lang)
        c = state.get("combat")
        if lang != "en" and c:
            # whole-value translation cannot reach the side names inside these two values
            fighters = [self._unit_name(state, c[role]) for role in ROLES]
            header[self.term("Combat", lang)] = (
                " gegen ".join(fighters) if lang == "de" else (" vs ".join(fighters))
            )
            header[self.term("Re-rolls left", lang)] = " / ".join(
                f"{self.side_title(state['units'][c[role]]['side'], lang)} {c['rerolls'][role]}"
                for role in ROLES
            )
        result = state.get("result")
        if lang != "en" and result:
            winner = result.get("winner")
            who = self.side_title(winner, lang) if winner else present.word("draw", lang)
            header[self.term("Result", lang)] = f"{who}: {self.result_reason(state, lang)}"
        return header

    def header(self, state: dict) -> dict[str, str]:
        out = {
            "Turn": str(state.get("turn")),
            "Phase": PHASE_TITLES.get(state.get("phase", ""), state.get("phase", "")),
            "Active": SIDE_TITLES.get(str(state.get("active")), str(state.get("active"))),
        }
        if state.get("awaiting") and state["awaiting"] != [state.get("active")]:
            out["Awaiting"] = ", ".join(SIDE_TITLES[s] for s in state["awaiting"])
        if state["phase"] in ("faction", "army"):
            for s in SIDES:
                f = state["factions"].get(s)
                out[SIDE_TITLES[s]] = self.cat.factions[f]["title"] if f else "choosing"
        if state["phase"] == "army":
            out["Points"] = str(state["points"])
        if state.get("drawn"):
            out["Tile in hand"] = self.cat.terrains[state["drawn"]]["title"]
        if state.get("bag"):
            out["Bag"] = str(len(state["bag"]))
        c = state.get("combat")
        if c:
            out["Combat"] = (
                f"{self._unit_name(state, c['attacker'])} vs {self._unit_name(state, c['defender'])}"
            )
            # Each side's re-rolls in this combat (its supporting friends and preferred terrain),
            # so a player knows before answering whether /reroll is still open.
            out["Re-rolls left"] = " / ".join(
                f"{SIDE_TITLES[state['units'][c[role]]['side']]} {c['rerolls'][role]}"
                for role in ROLES
            )
        if state.get("result"):
            w = state["result"].get("winner")
            out["Result"] = f"{SIDE_TITLES.get(w, 'draw')}: {state['result']['reason']}"
        return out

    def _color(self, state, side) -> str:
        f = state["factions"].get(side)
        return self.cat.factions[f]["color"] if f else ("#555555" if side == "north" else "#999999")

    @staticmethod
    def _window(tiles: dict) -> dict:
        """Only the part of the label space the map has grown into, plus a ring for the
        places a tile may still go: the picture stays as large as the map, not the space."""
        labels = list(tiles) or [CENTRE]
        spots = [hexgrid.to_offset(hexgrid.parse_label(lab)) for lab in labels]
        first_col = max(0, min(c for c, _ in spots) - 1)
        last_col = min(COLUMNS - 1, max(c for c, _ in spots) + 1)
        first_row = max(0, min(r for _, r in spots) - 1)
        last_row = min(ROWS - 1, max(r for _, r in spots) + 1)
        return {
            "kind": "hex",
            "first_column": first_col + 1,
            "first_row": first_row + 1,
            "columns": last_col - first_col + 1,
            "rows": last_row - first_row + 1,
        }

    def scene(self, state: dict, events: list[dict], viewer: str | None, lang: str = "en") -> dict:
        word = lambda text: present.word(text, lang)  # noqa: E731
        tiles = state.get("tiles", {})
        cells = []
        for lab in sorted(tiles):
            t = tiles[lab]
            cell = {"at": lab, "fill": self.cat.terrains[t["terrain"]]["fill"]}
            if t.get("feature"):
                f = self.cat.features[t["feature"]]
                cell["icon"], cell["text"] = f["icon"], word(f["title"])
            cells.append(cell)
        homes = [
            {"cells": [lab], "outline": self._color(state, s)}
            for s, lab in sorted(state.get("homes", {}).items())
        ]
        key = hashlib.sha256(canonical_json([cells, homes]).encode()).hexdigest()[:16]
        pieces, markers, objectives = [], [], []
        for uid, u in sorted(state["units"].items()):
            if u["status"] != "map":
                continue
            spec = self.cat.units[uid]
            piece = {
                "at": u["at"],
                "id": uid,
                "color": self._color(state, u["side"]),
                "text_color": "#ffffff",
                "title": spec["short"],
                "values": f"{spec['off']}/{spec['def']}",
            }
            if u.get("blessing"):
                piece["badge"] = "+1"
            pieces.append(piece)
        for lab, owner in sorted(state.get("control", {}).items()):
            if lab not in tiles:
                continue
            name = (
                word(self.cat.features[tiles[lab]["feature"]]["title"])
                if tiles[lab].get("feature")
                else lab
            )
            objectives.append(
                {
                    "at": lab,
                    "name": name,
                    "owner": owner,
                    "color": self._color(state, owner) if owner else "#ffffff",
                }
            )
            if owner:
                markers.append({"at": lab, "kind": "flag", "color": self._color(state, owner)})
        for a in (
            self.legal_actions(state, (state.get("awaiting") or [None])[0])
            if state["phase"] in ("map", "home")
            else []
        ):
            markers.append({"at": a["to"], "kind": "highlight", "color": "#ffff66"})
        if not tiles:
            # Before the first tile the board is empty: show where the map will start.
            markers.append({"at": CENTRE, "kind": "highlight", "color": "#ffff66"})
        arrows = []
        for e in events:
            if e.get("type") == "moved" and len(e["path"]) > 1:
                arrows.append(
                    {
                        "path": list(e["path"]),
                        "color": self._color(state, e["side"]),
                        "kind": "move",
                    }
                )
            elif e.get("type") == "combat":
                arrows.append(
                    {
                        "path": [e["from"], e["to"]],
                        "color": "#000000",
                        "kind": "attack",
                        "text": present.combat_label(e, lang),
                    }
                )
            elif e.get("type") == "attack_declared" and not any(
                x.get("type") == "combat" for x in events
            ):
                arrows.append(
                    {
                        "path": [e["from"], e["to"]],
                        "color": "#000000",
                        "kind": "attack",
                        "text": word("combat pending" if state.get("combat") else "attack failed"),
                    }
                )

        def names(side, status):
            return (
                ", ".join(
                    self.cat.units[u]["short"]
                    for u, v in sorted(state["units"].items())
                    if v["status"] == status
                    and (v["side"] if status == "reserve" else v["by"]) == side
                )
                or "–"
            )

        # captured units are shown per side under the map (``losses``)
        initial = {s: self.side_title(s, lang)[0] for s in SIDES}
        notes = [
            f"{word('Reserve')} {initial['north']}: {names('north', 'reserve')} · "
            f"{initial['south']}: {names('south', 'reserve')}"
        ]
        c = state.get("combat")
        if c:
            parts = []
            for role in ROLES:
                d = c["dice"][role]
                bonus = " ".join(f"+{b['value']}{b['kind']}" for b in c["bonuses"][role]) or word(
                    "none"
                )
                off = ",".join(map(str, d["off"])) or "–"
                dfn = ",".join(map(str, d["def"])) or "–"
                parts.append(
                    f"{self.cat.units[c[role]]['short']} OFF {off} DEF {dfn} "
                    f"[{bonus}; {c['rerolls'][role]} {word('rr')}]"
                )
            notes.append(" vs ".join(parts))
        legend = [
            {
                "color": self._color(state, s),
                "text": f"{initial[s]} {self.cat.factions[state['factions'][s]]['title']}"
                if state["factions"].get(s)
                else self.side_title(s, lang),
            }
            for s in SIDES
        ]
        # the picture's key: one swatch per plain terrain on the map (features carry icons and
        # names); a side's losses are its captured units
        key_names = sorted({t["terrain"] for t in tiles.values() if not t.get("feature")})
        terrain_key = [
            {"color": self.cat.terrains[n]["fill"], "text": word(self.cat.terrains[n]["title"])}
            for n in key_names
        ]
        losses = [
            {
                "color": self._color(state, s),
                "text": f"{self.side_title(s, lang)} {word('lost:')}",
                "units": [
                    self.cat.units[u]["short"]
                    for u, v in sorted(state["units"].items())
                    if v["status"] == "captured" and v["side"] == s
                ],
            }
            for s in SIDES
        ]
        return {
            "map_key": f"pocket-tactics/{key}",
            "grid": self._window(tiles),
            "title": self.title,
            "lang": lang,
            "cells": cells,
            "regions": homes,
            "objectives": objectives,
            "pieces": distinguish_titles(pieces),
            "markers": markers,
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
                "**Pocket Tactics** — zwei Spieler (Nord, Süd).\n"
                "**Aufbau:** Fraktion wählen, Auswurf um die Reihenfolge, Armee bis zur Punktegrenze (50). "
                "Je sechs Geländeplättchen in den Beutel; zentrales Merkmal auf das erste Plättchen in 0808; "
                "neuer Auswurf für die Reihenfolge beim Kartenbau; gezogene Plättchen reihum angrenzend anlegen; eigenes Merkmal so weit wie möglich von allen "
                "Merkmalen. Bis zu drei Starteinheiten auf/neben das eigene Merkmal; wer zuletzt stellt, beginnt.\n"
                "**Zug (eine Aktion):** `/move` (auf ein freies Nachbarfeld, ein Sprung über einen Verbündeten; "
                "schnell/fliegend: Bonusbewegungen, Flieger springen auch über Feinde und fliegen mit `to:` vor einem Angriff), `/attack` (Nahkampf; Einheiten mit Magie erklären `as:melee` oder `as:magic`), "
                "`/fire` (Fernkampf mit Reichweite und Sichtlinie), `/deploy` (neben ein kontrolliertes Merkmal), "
                "`/reserve` (in das Merkmal unter der Einheit oder mit `to:` in ein benachbartes, von einer eigenen Einheit besetztes; Flieger auch nach ihren Bonusbewegungen), `/special`.\n"
                "**Kampf:** alle OFF/DEF-Würfel zugleich; reihum `/bonus` (ein Würfel, max. 6), dann `/reroll` "
                "(je angrenzender Verbündeter und bevorzugtes Gelände), `/pass`. Höchste OFF gegen höchste DEF, "
                "Gleichstand → nächstes Paar, übrige OFF trifft. Beide können fallen; Besiegte nimmt der Sieger.\n"
                "**Gefahren:** Wasser 1–3 ertrinkt; 5+-Tests. **Sieg:** Gegner kann keine Einheit aktivieren oder "
                "stationieren, oder man kontrolliert alle Merkmale."
            )
        return (
            "**Pocket Tactics** — two players (North, South).\n"
            "**Setup:** choose factions, roll off for order, recruit up to the points limit (50). Six terrain "
            "tiles each go into the bag; the central feature sits on the first tile at 0808; a new roll-off sets "
            "the order for building the map; drawn tiles are placed in turn next to the map; your own feature goes as far as possible from every feature. Deploy "
            "up to three starting units on or next to it; the last to deploy starts.\n"
            "**Turn (one action):** `/move` (to a free adjacent tile, one jump over an ally; fast/flying units get "
            "bonus moves, flyers jump enemies too and may fly first with `to:` when they attack), `/attack` (close combat; units that know magic declare "
            "`as:melee` or `as:magic`), `/fire` (ranged, range and line of sight), "
            "`/deploy` (next to a feature you control), `/reserve` (into the feature the unit stands on, or `to:` an "
            "adjacent one your own unit occupies; flyers also after their bonus moves), `/special`.\n"
            "**Combat:** all OFF/DEF dice at once; in turn `/bonus` (one die, max 6), then `/reroll` (one per "
            "adjacent ally, one on preferred terrain), `/pass`. Highest OFF vs highest DEF, ties go to the next "
            "pair, a spare OFF die hits. Both may fall; the victor keeps the captured unit.\n"
            "**Hazards:** water drowns on 1–3; 5+ tests. **Victory:** the opponent can neither activate nor "
            "deploy a unit, or you control every feature."
        )

    # ----- referee edits --------------------------------------------------------------------
    def _require_unit(self, state: dict, uid) -> None:
        if uid not in state["units"]:
            raise RuleError(
                f"No unit {uid!r}.",
                sorted(state["units"]),
                key="no_unit",
                params={"unit": str(uid)},
                domain=self.name,
            )

    def referee_edit(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        if action["type"] == "ref-place":
            uid, to = action.get("unit"), action.get("to")
            self._require_unit(state, uid)
            if to not in state["tiles"] or to in self._occupant(state):
                raise RuleError(
                    f"{to!r} is not a free tile of the map.",
                    **self._keyed("ref_not_free", cell=str(to)),
                )
            state = clone(state)
            unit = state["units"][uid]
            old = unit["at"]
            unit.update(status="map", at=to, by=None)
            return state, [{"type": "referee", "what": "place", "unit": uid, "from": old, "to": to}]
        if action["type"] == "ref-remove":
            uid = action.get("unit")
            self._require_unit(state, uid)
            state = clone(state)
            unit = state["units"][uid]
            old = unit["at"]
            unit.update(status="reserve", at=None, by=None)
            return state, [{"type": "referee", "what": "remove", "unit": uid, "from": old}]
        if action["type"] == "ref-phase":
            self.check_referee_phase(action)
            if state["phase"] not in ("play", "bonus", "reroll"):
                raise RuleError(
                    "The referee can change the turn only once play has begun; the "
                    f"setup is at step {state['phase']!r} (/ref undo takes a setup step back).",
                    **self._keyed("ref_in_setup", phase=state["phase"]),
                )
            if state.get("combat"):
                raise RuleError(
                    "A combat is being resolved; the referee can change the turn once "
                    "its dice are settled.",
                    **self._keyed("ref_in_combat"),
                )
        return super().referee_edit(state, action)
