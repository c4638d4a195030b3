"""SIEGE (Cry Havoc family), rulebook sections 1 and 2: the ruleset the service drives.

This module is the turn machinery and the action checks only; each rule lives in the module its
name says: :mod:`.board` (map and heights), :mod:`.sight` (sight and cover), :mod:`.movement`,
:mod:`.shooting`, :mod:`.melee`, :mod:`.figures` (states). Part 2 adds modules beside them.

A side's phase (1.21) is four steps: ``fire1`` (bows and crossbows, not figures in melee last
round), ``move`` (not crossbowmen who just shot), ``fire2`` (bows only), ``melee``; at its end
the side's figures stunned before this phase recover. Several players on one side act in the
same steps through their seats.

Melee is declared in steps so every choice is one flat action: ``/attack unit: target:`` adds an
attacker and a defender to the melee being formed (one attacker against several defenders, or
several attackers against one), ``/fight`` resolves it, ``/cancel`` drops it (its attackers may
not attack again this phase). When a result hits one of several figures its owner answers with
``/take unit:``; after a retreat or a death the winner may ``/advance unit: to:`` into the freed
cell or ``/stay``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import hexgrid
from engine.core.dice import Dice
from engine.core.errors import Reason, RuleError, keyed_of
from engine.core.phases import TurnCycle
from engine.core.ruleset import Answer, Command, Option, Ruleset, Scenario
from engine.core.scenario_io import check_schema
from engine.core.state import clone

from . import (
    aiming,
    data,
    days,
    engines,
    equipment,
    figures,
    fire,
    melee,
    movement,
    oil,
    panic,
    present,
    refusals,
    riders,
    scenarios,
    shield,
    shooting,
    sight,
    tower,
    wagons,
)

SIDES = scenarios.SIDES
PHASES = scenarios.PHASES
TITLES = {"besieger": "Besiegers", "defender": "Defenders"}


def _cycle(state: dict) -> TurnCycle:
    return TurnCycle(phases=PHASES, sides=tuple(state["order"]), last_turn=state["last_turn"])


# The commands' descriptions for German readers, in the rulebook's words (siege-cry-havoc.de.txt).
COMMAND_DESCRIPTIONS_DE = {
    "shoot": "Mit Bogen oder Armbrust schießen",
    "move": "Eine Figur bewegen",
    "roll": "Den eigenen Belagerungsturm gerade vor oder zurück schieben (2.41)",
    "mount": "Ein Pferd neben der Figur besteigen: dauert die ganze Runde (3.33)",
    "dismount": "Vom Pferd auf ein Feld daneben absteigen: dauert die ganze Runde (3.33)",
    "lead": "Ein reiterloses Pferd neben der Figur führen: es folgt ihrer Bewegung (3.34)",
    "harness": "Ein Zugtier vor einem Wagen anschirren: dauert die ganze Runde (5.11)",
    "unharness": "Das Zugtier eines Wagens ausschirren, lebend oder tot: dauert die ganze "
    "Runde (5.11)",
    "attack": "Eine Figur und ihr Ziel zum Nahkampf hinzufügen, der gerade gebildet wird",
    "fight": "Den gebildeten Nahkampf auswürfeln",
    "cancel": "Den gebildeten Nahkampf verwerfen",
    "take": "Wählen, welche eigene Figur das Ergebnis trägt",
    "advance": "Nach dem Kampf in das frei gewordene Feld nachrücken",
    "stay": "Nach dem Kampf nicht nachrücken",
    "retreat": "Wählen, wohin die eigene Figur zurückweicht (1.72)",
    "land": "Wählen, wo die stürzende Figur landet (1.8, 1.94)",
    "face": "Angeben, wohin eine Figur in einer Tür Deckung nimmt: nach innen oder außen (1.53)",
    "fill": "Vor dem Sturm: einen Spielstein „gefüllter Graben“ legen (2.2)",
    "place": "Vor dem Sturm: den Belagerungsturm an einen Kartenrand stellen, Front nach Wahl "
    "(2.41)",
    "breach": "Vor dem Sturm: einen Spielstein „zerstörte Mauer“ legen (2.31)",
    "carry": "Zwei benachbarte Figuren heben eine liegende Leiter auf (1.91)",
    "raise": "Eine getragene Leiter am Fuß einer Mauer aufstellen (1.91)",
    "shift": "Zwei Figuren drehen eine aufgestellte Leiter oder rücken sie ein Feld weiter, "
    "je 2 Punkte (1.92)",
    "drop": "Eine getragene Leiter ablegen",
    "push": "Versuchen, eine aufgestellte Leiter von der Brustwehr umzustoßen (1.94)",
    "winch": "In dieser Runde die Winde der Zugbrücke bedienen (1.8)",
    "bolt": "Mit einer bemannten Balliste im Schritt der Armbrüste schießen (3.41)",
    "drive": "Den Widder mit den drei Figuren darunter gerade vor oder zurück schieben (4.31)",
    "batter": "Mit dem Widder gegen die Mauer stoßen, die seine Spitze berührt (4.32)",
    "emplace": "Vor dem Sturm: eine Kriegsmaschine aufstellen (3.43, 4.22)",
    "aim": "Vor dem Sturm: Onager oder Katapult für heute auf ein Mauerfeld richten (4.21)",
    "bombard": "Vor dem Sturm: für die auf ein Mauerfeld gerichteten Maschinen würfeln (4.21)",
    "repair": "Den heutigen Tag mit der Reparatur beschädigter Maschinen verbringen (4.23)",
    "damage": "Ergebnis C: die Maschine wählen, die einen Zerstörungspunkt verliert (4.23)",
    "kindle": "Eine ganze Runde neben einer feindlichen Maschine oder einem Zelt bleiben, um "
    "sie in Brand zu setzen (3.51)",
    "douse": "Versuchen, ein benachbartes Feuer zu löschen (3.53)",
    "firearrow": "Einen Brandpfeil auf kurze Entfernung auf eine feindliche Maschine oder einen "
    "Belagerungsturm schießen (5.31)",
    "lift": "Einen Topf kochendes Öl (5.32) oder einen Belagerungsschild (5.21) aufnehmen",
    "lay": "Den Belagerungsschild im eigenen Feld an die Seite zu einem Nachbarfeld legen (5.22)",
    "pour": "Kochendes Öl von einer Brustwehr auf ein benachbartes, tieferes Feld gießen (5.32)",
    "panic": "Wahlregel Panik: eine Figur wählen, die der Panikwurf trifft (keine: keine weitere)",
    "end-phase": "Diesen Schritt deiner Phase beenden",
}


class Siege(Ruleset):
    name = "siege"
    title = "SIEGE"
    sides = SIDES
    side_titles = TITLES
    default_scenario = "open-gate"
    phases = PHASES
    optional_rules = scenarios.OPTIONAL_RULES
    # Refusals carry keys for German players: the riders' (3.3) and the rest of the game's.
    translations = {
        lang: {
            **present.TERMS.get(lang, {}),
            **riders.TRANSLATIONS.get(lang, {}),
            **refusals.TRANSLATIONS.get(lang, {}),
        }
        for lang in {*present.TERMS, *riders.TRANSLATIONS, *refusals.TRANSLATIONS}
    }
    commands: tuple[Command, ...] = (
        Command(
            "shoot",
            "Shoot with a bow or crossbow",
            (
                Option("unit", "unit", "Your archer or crossbowman"),
                Option("target", "target", "Enemy figure"),
            ),
        ),
        Command(
            "move",
            "Move a figure",
            (
                Option("unit", "unit", "Your figure"),
                Option("to", "hex", "Destination cell"),
                Option(
                    "level", "choice", "top: onto a siege tower's platform (2.42)", required=False
                ),
            ),
        ),
        Command(
            "roll",
            "Push your siege tower straight forward or back (2.41)",
            (
                Option("tower", "choice", "The siege tower"),
                Option("to", "hex", "Where its first cell goes"),
            ),
        ),
        Command(
            "mount",
            "Mount a horse next to your figure: takes its whole round (3.33)",
            (Option("unit", "unit", "Your figure"), Option("horse", "choice", "The horse")),
        ),
        Command(
            "dismount",
            "Get off your horse onto a cell beside it: takes the whole round (3.33)",
            (Option("unit", "unit", "Your rider"), Option("to", "hex", "A cell beside the horse")),
        ),
        Command(
            "lead",
            "Lead a riderless horse next to your figure: it follows your move (3.34)",
            (
                Option("unit", "unit", "Your figure"),
                Option("horse", "choice", "The horse"),
                Option("to", "hex", "Destination cell"),
            ),
        ),
        Command(
            "harness",
            "Harness a draught animal standing before a wagon: takes the whole round (5.11)",
            (
                Option("unit", "unit", "Your figure"),
                Option("horse", "choice", "The horse or ox"),
                Option("wagon", "choice", "The wagon"),
            ),
        ),
        Command(
            "unharness",
            "Unharness a wagon's animal, alive or dead: takes the whole round (5.11)",
            (Option("unit", "unit", "Your figure"), Option("wagon", "choice", "The wagon")),
        ),
        Command(
            "attack",
            "Add a figure and its target to the melee being formed",
            (
                Option("unit", "unit", "Your attacking figure"),
                Option("target", "target", "Adjacent enemy"),
            ),
        ),
        Command("fight", "Resolve the melee being formed"),
        Command("cancel", "Drop the melee being formed"),
        Command(
            "take",
            "Choose which of your figures takes the result",
            (Option("unit", "unit", "Your figure"),),
        ),
        Command(
            "advance",
            "Advance after combat into the freed cell",
            (
                Option("unit", "unit", "Your figure that fought"),
                Option("to", "hex", "The freed cell"),
                Option(
                    "level", "choice", "top: onto a siege tower's platform (2.45)", required=False
                ),
            ),
        ),
        Command("stay", "Do not advance after combat"),
        Command(
            "retreat",
            "Choose where your figure retreats (1.72)",
            (
                Option("unit", "unit", "Your retreating figure"),
                Option("to", "hex", "One cell away"),
            ),
        ),
        Command(
            "land",
            "Choose where your falling figure lands (1.8, 1.94)",
            (Option("unit", "unit", "Your falling figure"), Option("to", "hex", "Where it lands")),
        ),
        Command(
            "face",
            "Declare which way a figure in a doorway takes cover: in or out (1.53)",
            (
                Option("unit", "unit", "Your figure in a doorway"),
                Option("toward", "choice", "in or out"),
            ),
        ),
        Command(
            "fill",
            "Before the assault: lay a filled-moat counter (2.2)",
            (Option("at", "hex", "A moat cell"),),
        ),
        Command(
            "place",
            "Before the assault: put your siege tower at a map edge, facing where you wish (2.41)",
            (
                Option("tower", "choice", "The siege tower"),
                Option("at", "hex", "Its first cell"),
                Option("towards", "hex", "The neighbour of that cell it faces"),
            ),
        ),
        Command(
            "breach",
            "Before the assault: lay a broken-wall counter (2.31)",
            (Option("at", "hex", "A wall cell"),),
        ),
        Command(
            "carry",
            "Two adjacent figures pick up a lying ladder (1.91)",
            (
                Option("unit", "unit", "Your figure"),
                Option("with", "unit", "The second carrier"),
                Option("ladder", "choice", "The ladder"),
            ),
        ),
        Command(
            "raise",
            "Raise a carried ladder at the foot of a wall (1.91)",
            (
                Option("ladder", "choice", "The ladder"),
                Option("at", "hex", "Foot of the wall"),
                Option("faces", "hex", "The parapet it leans on"),
            ),
        ),
        Command(
            "shift",
            "Two figures turn a raised ladder or move it one cell, 2 points each (1.92)",
            (
                Option("unit", "unit", "Your figure"),
                Option("with", "unit", "The second figure"),
                Option("ladder", "choice", "The ladder"),
                Option("at", "hex", "Its new foot"),
                Option("faces", "hex", "The parapet it leans on"),
            ),
        ),
        Command("drop", "Put a carried ladder down", (Option("ladder", "choice", "The ladder"),)),
        Command(
            "push",
            "Try to push a raised ladder over from the parapet (1.94)",
            (
                Option("unit", "unit", "Your figure on the parapet"),
                Option("ladder", "choice", "The ladder"),
            ),
        ),
        Command(
            "winch",
            "Work the drawbridge winch this round (1.8)",
            (Option("unit", "unit", "Your figure on the winch"),),
        ),
        Command(
            "bolt",
            "Shoot a manned ballista in the crossbows' step (3.41)",
            (
                Option("engine", "choice", "Your ballista"),
                Option("target", "target", "Enemy figure"),
            ),
        ),
        Command(
            "drive",
            "Push your ram straight forward or back with the three figures under it (4.31)",
            (
                Option("engine", "choice", "The ram"),
                Option("to", "hex", "Where its first cell goes"),
            ),
        ),
        Command(
            "batter",
            "Work your ram against the wall its front touches (4.32)",
            (Option("engine", "choice", "The ram"),),
        ),
        Command(
            "emplace",
            "Before the assault: set up an engine (3.43, 4.22)",
            (Option("engine", "choice", "The engine"), Option("at", "hex", "Its cell")),
        ),
        Command(
            "aim",
            "Before the assault: lay an onager or catapult on a wall cell for today (4.21)",
            (Option("engine", "choice", "The engine"), Option("at", "hex", "A wall cell")),
        ),
        Command(
            "bombard",
            "Before the assault: roll for the engines laid on a wall cell (4.21)",
            (Option("at", "hex", "The wall cell"),),
        ),
        Command("repair", "Spend today repairing your damaged engines (4.23)"),
        Command(
            "damage",
            "Result C: choose the engine that loses a destruction point (4.23)",
            (Option("engine", "choice", "The engine"),),
        ),
        Command(
            "kindle",
            "Stay a whole round beside an enemy engine or tent to set it alight (3.51)",
            (Option("unit", "unit", "Your figure beside it"), Option("at", "hex", "Its cell")),
        ),
        Command(
            "douse",
            "Try to put out an adjacent fire (3.53)",
            (Option("unit", "unit", "Your figure"), Option("at", "hex", "The burning cell")),
        ),
        Command(
            "firearrow",
            "Shoot a fire arrow at an enemy engine or siege tower at short range (5.31)",
            (Option("unit", "unit", "Your archer"), Option("at", "hex", "A cell of the engine")),
        ),
        Command(
            "lift",
            "Take up a pot of boiling oil (5.32) or a siege shield (5.21)",
            (Option("unit", "unit", "Your figure"), Option("item", "choice", "The pot or shield")),
        ),
        Command(
            "lay",
            "Lay your siege shield in your cell along the side towards a neighbour (5.22)",
            (
                Option("unit", "unit", "Your figure with the shield"),
                Option("faces", "hex", "The neighbouring cell it faces"),
            ),
        ),
        Command(
            "pour",
            "Pour boiling oil from a parapet onto an adjacent lower cell (5.32)",
            (Option("unit", "unit", "Your figure with a pot"), Option("at", "hex", "The cell")),
        ),
        Command(
            "panic",
            "Optional rule panic: choose a figure the panic roll strikes (none: strike no more)",
            (
                Option(
                    "unit", "unit", "Your figure within three cells of the dead one", required=False
                ),
            ),
        ),
        Command("end-phase", "End this step of your phase"),
    )
    # /help and Discord's command picker speak the reader's language.
    commands = tuple(
        replace(c, description_i18n={"de": COMMAND_DESCRIPTIONS_DE[c.name]}) for c in commands
    )
    queries = (
        Command(
            "los",
            "Line of sight: is a shot possible, at what range and cover, and why",
            (
                Option("from", "hex", "The shooter's cell, e.g. 1012"),
                Option("to", "hex", "The target's cell, e.g. 1517"),
            ),
            description_i18n={
                "de": "Sichtlinie: ist ein Schuss möglich, auf welche "
                "Entfernung, mit welcher Deckung, und warum"
            },
        ),
    )

    # ----- setup -------------------------------------------------------------------------
    def scenarios(self) -> list[Scenario]:
        out = []
        for name in scenarios.packaged_names():
            sc = scenarios.read_scenario(name)
            out.append(Scenario(name, sc["title"], sc["description"]))
        return out

    def load_scenario(self, name: str) -> dict:
        return scenarios.read_scenario(name or self.default_scenario)

    def scenario_from_document(self, document: dict, label: str) -> dict:
        """A scenario file (attached in Discord, or a path on the local table): structure by
        ``data/schemas/siege.schema.json``, then meaning (``scenarios.normalise``)."""
        check_schema(document, "siege", label)
        return scenarios.normalise(document, label, "attached")

    def setup(self, scenario: dict, dice: Dice) -> tuple[dict, list[dict]]:
        order = [scenario["first"]] + [s for s in SIDES if s != scenario["first"]]
        state = {
            "game": self.name,
            "scenario": scenario["name"],
            "map": scenario["map"],
            "result": None,
            "order": order,
            "last_turn": scenario["last_turn"],
            "turn": scenario["turn"],
            "active": scenario["active"],
            "phase": scenario["phase"],
            "awaiting": [scenario["active"]],
            "bridge_up": scenario["bridge_up"],
            "victory": clone(scenario["victory"]),
            "figures": clone(scenario["figures"]),
            "half": 1,
            "done": [],
            "crossbow_shot": [],
            "melee_half": {},
            "attacked": [],
            "pending": None,
            "choice": None,
            "advance": None,
            "acted": [],
            "winch": None,
            "ladders": clone(scenario.get("ladders", {})),
            "counters": clone(scenario.get("counters", [])),
            "to_place": clone(scenario.get("prepare", {"filled_moat": 0, "breaches": 0})),
            "towers": clone(scenario.get("towers", {})),
            "tower_moved": [],
            "engines": clone(scenario.get("engines", {})),
            "siege_sheet": clone(scenario.get("siege_sheet", {})),
            "engine_damage": None,
            "oil": clone(scenario.get("oil", {})),
            "shields": clone(scenario.get("shields", {})),
            "horses": clone(scenario.get("horses", {})),
            "wagons": clone(scenario.get("wagons", {})),
            "mounting": [],
        }
        days.setup(scenario, state)
        state["options"] = self.options_in(scenario)
        state["skills"] = clone(scenario.get("skills", {}))
        events = [
            {"type": "scenario", "name": scenario["name"]},
            {"type": "phase_started", "phase": state["phase"], "side": state["active"]},
        ]
        return state, events

    # ----- helpers -------------------------------------------------------------------------
    def board(self, state: dict):
        counters = state.get("counters")
        if not counters:
            return data.board(state["map"])
        return data.board_with(state["map"], tuple(sorted((c, k) for c, k in counters)))

    @staticmethod
    def _living_at(state: dict) -> dict[str, str]:
        """Cell -> the living figure on its ground layer (inside a siege tower on tower cells)."""
        return {
            f["at"]: fid
            for fid, f in state["figures"].items()
            if not f["dead"] and tower.layer(f) == tower.GROUND
        }

    @staticmethod
    def _positions(state: dict) -> dict[tuple[str, str], str]:
        """(cell, layer) -> the living figure there (2.46: a siege tower cell holds two)."""
        return {tower.position(f): fid for fid, f in state["figures"].items() if not f["dead"]}

    @staticmethod
    def _dead_count(state: dict) -> dict[str, int]:
        count: dict[str, int] = {}
        for f in state["figures"].values():
            if f["dead"] and not f.get("off_map"):  # fled off the map (optional rule panic)
                count[f["at"]] = count.get(f["at"], 0) + 1
        for cell, weight in riders.dead_weights(state).items():
            count[cell] = count.get(cell, 0) + weight
        return count

    @staticmethod
    def _facing(state: dict) -> dict[str, str]:
        """Door cell -> the side its figure takes cover against (1.53; "out" until declared)."""
        return {f["at"]: f.get("facing", "out") for f in state["figures"].values() if not f["dead"]}

    def _face_actions(self, state: dict, side: str) -> list[dict]:
        """1.53: under crossfire the player declares which way a figure in a doorway is covered."""
        board = self.board(state)
        return [
            {"type": "face", "side": side, "unit": fid, "toward": toward}
            for fid, f in sorted(state["figures"].items())
            if f["side"] == side
            and not f["dead"]
            and board.cell(f["at"]).kind == "tower-door"
            and fid not in state["done"]
            for toward in ("in", "out")
            if toward != f.get("facing", "out")
        ]

    @staticmethod
    def _ladders(state: dict) -> dict[str, str]:
        """Raised ladders: cell -> the parapet each leans on."""
        return {
            lad["at"]: lad["faces"] for lad in state.get("ladders", {}).values() if lad["raised"]
        }

    def _actor(self, state: dict) -> str:
        return (state.get("awaiting") or [state["active"]])[0]

    def _sight(self, state: dict, shooter_id: str, target_id: str, at: str | None = None):
        board = self.board(state)
        shooter, target = state["figures"][shooter_id], state["figures"][target_id]
        living = {at: state["figures"][fid]["name"] for at, fid in self._living_at(state).items()}
        if state.get("horses"):
            if at is None and riders.horse_of(state, target):
                # 3.31: the rider is in whichever of his two cells gives him more cover.
                return riders.better_cover(
                    [
                        self._sight(state, shooter_id, target_id, c)
                        for c in riders.cells_of(state, target)
                    ]
                )
            living = riders.in_the_line(state, shooter, target, living)
        bands = data.fire()["weapons"][figures.weapon(shooter)]["bands"]
        tower_of = tower.cells_of(state)
        shooter_top, target_top = (
            tower.layer(shooter) == tower.TOP,
            tower.layer(target) == tower.TOP,
        )
        seen = sight.look(
            board,
            living,
            shooter["at"],
            at or target["at"],
            bands=bands,
            bridge_up=state["bridge_up"],
            ladders=self._ladders(state),
            facing=self._facing(state),
            towers=tower_of,
            shooter_top=shooter_top,
            target_top=target_top,
        )
        self._no_shot_beside_a_friend(
            board, state, shooter, target["at"], self._level(board, state, target), seen
        )
        engines.block(
            state, seen, shooter["at"], target["at"], board, self._level(board, state, shooter)
        )
        shield.cover(board, state, shooter["at"], at or target["at"], seen)
        if state.get("wagons"):
            wagons.block_sight(board, state, self._level(board, state, shooter), seen)
        return seen

    def _no_shot_beside_a_friend(
        self, board, state: dict, shooter: dict | None, target_at: str, target_level: int, seen
    ) -> None:
        """2.43: from a siege tower's top, within its radius, no shot at a target with a friend
        of the shooter beside it on the target's level (``/shoot`` and ``/los`` alike)."""
        if aiming.on(state) or not (
            seen.possible
            and shooter is not None
            and tower.layer(shooter) == tower.TOP
            and board.distance(shooter["at"], target_at) <= tower.spec()["shooting_radius"]
        ):
            return
        for other in state["figures"].values():
            if (
                other["side"] == shooter["side"]
                and not other["dead"]
                and other is not shooter
                and board.distance(other["at"], target_at) == 1
                and self._level(board, state, other) == target_level
            ):
                seen.possible = False
                seen.reasons.append(
                    refusals.say(
                        "sight_friend_beside",
                        f"{other['at']}: {other['name']}, a friend of the shooter, stands beside "
                        f"the target on its level: no shot from the siege tower (2.43)",
                        cell=other["at"],
                        name=other["name"],
                    )
                )
                return

    @staticmethod
    def _level(board, state: dict, fig: dict) -> int:
        """Height level of a figure: its cell's, or the siege tower's platform (2.4)."""
        return (
            tower.spec()["top_level"]
            if tower.layer(fig) == tower.TOP
            else board.cell(fig["at"]).level
        )

    def _tower_view(self, state: dict, from_cell: str, to_cell: str) -> dict:
        """For ``/los``: a line from a siege tower's cell starts on its platform (nobody shoots
        from inside, 2.44); a line to one ends inside when only the inside is occupied."""
        towers = tower.cells_of(state)
        taken = self._positions(state)
        target_top = to_cell in towers and (
            (to_cell, tower.TOP) in taken or (to_cell, tower.GROUND) not in taken
        )
        return {"towers": towers, "shooter_top": from_cell in towers, "target_top": target_top}

    def los(self, state: dict, from_cell: str, to_cell: str, lang: str = "en") -> str:
        """The ``/los from: to:`` answer (any player, any time): pure text from the height model,
        in the reader's language."""
        board = self.board(state)
        for cell in (from_cell, to_cell):
            if cell not in board:
                raise RuleError(
                    f"{cell[:12]!r} is not a cell of this map.",
                    key="not_a_cell",
                    params={"cell": cell[:12]},
                    domain=self.name,
                )
        if ballista := engines.los_text(self, state, from_cell, to_cell, lang):
            return ballista
        seen, weapon = self._los_sight(state, from_cell, to_cell)
        text = sight.answer_text(seen, from_cell, to_cell, lang)
        if weapon:
            return text
        if lang == "de":
            return text + (
                "\n- (kein Bogen auf dem ersten Feld: Reichweiten nicht beurteilt, Figuren "
                "blockieren)"
            )
        return text + "\n- (no bow on the first cell: range bands not judged, figures block)"

    def _los_sight(self, state: dict, from_cell: str, to_cell: str, machine: bool = False):
        """The line ``/los`` judges, with the same rules as ``/shoot``: the first cell's figure
        (on a siege tower's cell, the one on its top) is the shooter. ``machine``: the target
        is a siege tower itself (a fire arrow, 5.31), seen at its top whoever is inside."""
        board = self.board(state)
        living = {at: state["figures"][fid]["name"] for at, fid in self._living_at(state).items()}
        view = self._tower_view(state, from_cell, to_cell)
        if machine and to_cell in view["towers"]:
            view["target_top"] = True
        shooter_id = self._positions(state).get(
            (from_cell, tower.TOP if view["shooter_top"] else tower.GROUND)
        )
        shooter = state["figures"][shooter_id] if shooter_id else None
        weapon = figures.weapon(shooter) if shooter else None
        bands = data.fire()["weapons"][weapon]["bands"] if weapon else None
        if state.get("horses"):
            living = riders.los_living(state, from_cell, to_cell, living)
        seen = sight.look(
            board,
            living,
            from_cell,
            to_cell,
            bands=bands,
            bridge_up=state["bridge_up"],
            ladders=self._ladders(state),
            facing=self._facing(state),
            **view,
        )
        target_level = (
            tower.spec()["top_level"] if view["target_top"] else board.cell(to_cell).level
        )
        self._no_shot_beside_a_friend(board, state, shooter, to_cell, target_level, seen)
        engines.block(
            state,
            seen,
            from_cell,
            to_cell,
            board,
            tower.spec()["top_level"] if view["shooter_top"] else board.cell(from_cell).level,
        )
        shield.cover(board, state, from_cell, to_cell, seen)
        if state.get("wagons"):
            level = self._level(board, state, shooter) if shooter else board.cell(from_cell).level
            wagons.block_sight(board, state, level, seen)
        return seen, weapon

    def referee_edit(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        """``/ref phase`` sets a step of the turn (and the side in it) between decisions; a
        melee being formed, a casualty, retreat, advance or landing still to be chosen must be
        finished first (jumping past them would lose the result). Figures are not units, so
        ``/ref place`` and ``/ref remove`` are refused by the default."""
        if action.get("type") != "ref-phase":
            return super().referee_edit(state, action)
        self.check_referee_phase(action)
        if state.get("result"):
            raise RuleError("The game is over.", key="game_over", domain=self.name)
        if state.get("phase") == "prepare":
            why = refusals.say(
                "ref_prepare",
                "Before the assault the besieger lays counters, places towers and works "
                "its engines; its /end-phase starts the day's assault.",
            )
            raise RuleError(why, list(self.phases), **keyed_of(why))
        open_decisions = [
            (key, what)
            for key, what in (
                ("pending", "a melee being formed (/fight or /cancel)"),
                ("choice", "which figure takes a result (/take)"),
                ("retreat", "a retreat (/retreat)"),
                ("advance", "an advance after combat (/advance or /stay)"),
                ("landing", "where a falling figure lands (/land)"),
                ("engine_damage", "which engine is damaged (/damage)"),
                ("panic_choice", "who panics (/panic)"),
            )
            if state.get(key)
        ]
        if open_decisions:
            key, what = open_decisions[0]
            why = refusals.say(
                f"ref_finish_{key}", f"Finish {what} before setting a step.", what=what
            )
            raise RuleError(why, **keyed_of(why))
        side = action.get("value") or state["active"]
        if side not in self.sides:
            raise RuleError(
                f"Unknown side {side!r}.",
                list(self.sides),
                key="unknown_side",
                params={"side": str(side)[:24]},
                domain=self.name,
            )
        state = clone(state)
        state.update(
            phase=action["phase"], active=side, awaiting=[side], done=[], attacked=[], spent={}
        )
        return state, [
            {"type": "referee", "what": "phase", "phase": state["phase"], "active": side}
        ]

    def query(self, state, viewer, name, options, lang="en"):
        """``/los`` in the reader's language: the options are checked (and answered in English)
        by the base class, then the answer is worded again for another language."""
        answer = super().query(state, viewer, name, options, lang)
        if name != "los" or lang == "en":
            return answer
        from_cell, to_cell = options["from"].strip().upper(), options["to"].strip().upper()
        return Answer(
            self.los(state, from_cell, to_cell, lang),
            self.los_scene(state, from_cell, to_cell, lang),
        )

    def answer_query(
        self, state: dict, viewer: str | None, name: str, options: dict[str, str]
    ) -> Answer:
        if name != "los":
            return super().answer_query(state, viewer, name, options)
        from_cell, to_cell = options["from"].strip().upper(), options["to"].strip().upper()
        return Answer(
            self.los(state, from_cell, to_cell), self.los_scene(state, from_cell, to_cell)
        )

    def los_scene(self, state: dict, from_cell: str, to_cell: str, lang: str = "en") -> dict:
        """The board with the ``/los`` line drawn: the line, the cells it crosses outlined, and
        the verdict as the line's label (pure; a front end renders it like any scene)."""
        board = self.board(state)
        for cell in (from_cell, to_cell):
            if cell not in board:
                raise RuleError(
                    f"{cell[:12]!r} is not a cell of this map.",
                    key="not_a_cell",
                    params={"cell": cell[:12]},
                    domain=self.name,
                )
        seen, _ = self._los_sight(state, from_cell, to_cell)
        scene = self.scene(state, [], None, lang)
        verdict = f"range {seen.distance}, cover {seen.cover}" if seen.possible else "no shot"
        if lang == "de":
            verdict = (
                f"Entfernung {seen.distance}, Deckung {sight.COVER_DE.get(seen.cover, seen.cover)}"
                if seen.possible
                else "kein Schuss"
            )
        scene["arrows"] = [
            {
                "path": [from_cell, to_cell],
                "color": "#27ae60" if seen.possible else "#c0392b",
                "kind": "attack",
                "text": verdict,
            }
        ]
        scene["markers"] = scene.get("markers", []) + [
            {"at": cell, "kind": "highlight", "color": "#f39c12"}
            for cell in seen.crossed
            if cell in board
        ]
        # A plain str: a reason may carry its translation key, which a copy would not keep.
        scene["notes"] = [refusals.worded(seen.reasons[-1], lang)] if seen.reasons else []
        return scene

    # ----- legal actions -------------------------------------------------------------------
    def legal_actions(self, state: dict, side: str) -> list[dict]:
        return self._legal(state, side)

    def _legal(
        self, state: dict, side: str, kind: str | None = None, unit: str | None = None
    ) -> list[dict]:
        """Legal actions, optionally only those of one type (and one figure): ``apply`` checks
        an action against the same list without building every other kind."""
        if state.get("result") or side not in self.awaiting(state):
            return []
        if state.get("panic_choice"):
            return panic.choice_actions(state, side)
        if state["choice"]:
            return [{"type": "take", "side": side, "unit": fid} for fid in state["choice"]["among"]]
        if state.get("engine_damage"):
            return engines.damage_actions(state, side)
        if state.get("landing"):
            landing = state["landing"]
            return [
                {"type": "land", "side": side, "unit": landing["unit"], "to": c}
                for c in landing["options"]
            ]
        if state.get("retreat"):
            fid = state["retreat"]["queue"][0]
            return [
                {"type": "retreat", "side": side, "unit": fid, "to": c}
                for c in self._retreat_options(state, fid)
            ]
        if state["advance"]:
            return self._advance_actions(state, side) + [{"type": "stay", "side": side}]
        phase = state["phase"]
        actions: list[dict] = []
        if phase == "prepare":
            return self._prepare_actions(state, side) + [{"type": "end-phase", "side": side}]
        if phase in ("fire1", "fire2") and kind in (None, "shoot"):
            for fid in self._shooters(state, side):
                if unit is None or fid == unit:
                    for tid in self._targets(state, fid):
                        actions.append({"type": "shoot", "side": side, "unit": fid, "target": tid})
        if phase in ("fire1", "fire2") and kind in (None, "bolt"):
            actions += engines.bolt_actions(self, state, side)
        elif phase == "move" and kind in (None, "move"):
            for fid, cells in self._moves(state, side, unit).items():
                actions += [self._move_action(side, fid, c) for c in cells]
            actions = panic.allowed_moves(state, actions)
        if phase in ("fire1", "fire2") and kind in (None, "firearrow"):
            actions += self._fire_arrow_actions(state, side, unit)
        if phase == "move" and kind in (None, "roll"):
            actions += self._tower_actions(state, side)
        if phase == "move" and kind in (None, "drive"):
            actions += engines.drive_actions(self, state, side)
        if phase == "move" and kind in (None, "mount", "dismount", "lead") and state.get("horses"):
            actions += riders.actions(self, state, side, kind)
        if phase == "move" and kind in (None, "harness", "unharness") and state.get("wagons"):
            actions += wagons.actions(self, state, side, kind)
        if phase == "move" and kind in (None, "winch"):
            actions += self._winch_actions(state, side)
        if phase == "move" and kind in (None, "face"):
            actions += self._face_actions(state, side)
        if (
            phase == "move"
            and kind in (None, "lift")
            and (oil.pots(state) or shield.shields(state))
        ):
            # A rider carries no ladder, and no shield or pot either (reading R8).
            hands = [
                f for f in self._free_hands(state, side) if not state["figures"][f].get("horse")
            ]
            holding = set(oil.carriers(state)) | set(shield.carriers(state))
            actions += oil.lift_actions(state, self.board(state), side, hands, holding)
            actions += shield.lift_actions(state, side, hands, holding)
        if phase == "move" and kind in (None, "lay") and shield.shields(state):
            able = [
                fid
                for fid in shield.carriers(state)
                if state["figures"][fid]["side"] == side and fid not in self._busy(state)
            ]
            actions += shield.lay_actions(state, self.board(state), side, able)
        if phase == "move" and kind in (None, "kindle") and fire.can_burn(state, self.board(state)):
            actions += fire.kindle_actions(
                state, self.board(state), side, self._free_hands(state, side)
            )
        if phase == "move" and kind in (None, "carry", "raise", "drop", "shift"):
            actions += self._ladder_actions(state, side)
        elif phase == "melee" and kind != "end-phase":
            if kind in (None, "push") and not state["pending"]:
                actions += self._push_actions(state, side)
            if kind in (None, "batter") and not state["pending"]:
                actions += engines.batter_actions(self, state, side)
            if kind in (None, "pour") and not state["pending"] and oil.pots(state):
                actions += oil.pour_actions(
                    state,
                    self.board(state),
                    side,
                    self._free_hands(state, side),
                    tower.cells_of(state),
                    set(state.get("shot", [])),
                )
            if kind in (None, "douse") and not state["pending"] and fire.fires(state):
                actions += fire.douse_actions(
                    state, self.board(state), side, self._free_hands(state, side)
                )
            if kind != "push":
                actions += self._melee_actions(state, side)
        if not state["pending"]:
            actions.append({"type": "end-phase", "side": side})
        return actions

    def _prepare_actions(self, state: dict, side: str) -> list[dict]:
        """2.2, 2.31: before the assault the besieger lays the filled-moat and broken-wall
        counters the scenario gives on cells of its choice."""
        board = self.board(state)
        out = []
        bridge = board.drawbridge.get("cells", [])
        if state["to_place"]["filled_moat"]:
            out += [
                {"type": "fill", "side": side, "at": lab}
                for lab in board.labels()
                if board.cell(lab).kind == "moat" and lab not in bridge
            ]
        if state["to_place"]["breaches"]:
            out += [
                {"type": "breach", "side": side, "at": lab}
                for lab in board.labels()
                if board.cell(lab).kind in ("parapet", "wall")
            ]
        for tid in state["to_place"].get("towers", []):
            blocked = self._tower_blocked(state, tid)
            out += [
                {"type": "place", "side": side, "tower": tid, "at": at, "towards": towards}
                for at, towards in sorted(tower.placements(board, state, tid, blocked))
            ]
        return out + engines.prepare_actions(self, state, side)

    @staticmethod
    def _tower_blocked(state: dict, tid: str) -> set[str]:
        """Cells a tower may not stand on: living figures outside it, ladders, other towers."""
        t = state["towers"][tid]
        blocked = {
            f["at"]
            for f in state["figures"].values()
            if not f["dead"] and f["at"] not in t["cells"]
        }
        blocked |= {lad["at"] for lad in state["ladders"].values()}
        blocked |= set(engines.cells(state))
        blocked |= set(riders.occupied_cells(state))
        return blocked | {
            c for other, o in state["towers"].items() if other != tid for c in o["cells"]
        }

    def _tower_actions(self, state: dict, side: str) -> list[dict]:
        """2.41: three able figures inside push their tower, once a round, straight forward or
        back; not the round after one of them fought."""
        out: list[dict] = []
        if not state.get("towers") or side != state["active"]:
            return out
        board = self.board(state)
        for tid, t in sorted(state["towers"].items()):
            if t["side"] != side or tid in state.get("tower_moved", []):
                continue
            inside = [
                fid
                for fid, f in state["figures"].items()
                if f["at"] in t["cells"] and tower.layer(f) == tower.GROUND and not f["dead"]
            ]
            if any(state["melee_half"].get(fid, -9) >= state["half"] - 2 for fid in inside):
                continue
            crew = [
                fid
                for fid in tower.crew(state, tid)
                if fid not in state["done"] and fid not in self._busy(state)
            ]
            if len(crew) < tower.spec()["crew"]:
                continue
            blocked = self._tower_blocked(state, tid)
            out += [
                {"type": "roll", "side": side, "tower": tid, "to": to}
                for to in sorted(tower.tower_moves(board, state, tid, blocked))
            ]
        return out

    @staticmethod
    def _busy(state: dict) -> set[str]:
        """Figures working the winch do nothing else for the round (1.8), nor those setting a
        fire (3.51), mounting or dismounting (3.33)."""
        busy = {state["winch"]["unit"]} if state.get("winch") else set()
        return busy | fire.busy(state) | set(state.get("mounting", []))

    def _free_hands(self, state: dict, side: str) -> list[str]:
        """The side's able figures that have not acted this step and carry no ladder."""
        busy, carrying = self._busy(state), equipment.carried_by(state)
        return [
            fid
            for fid, f in sorted(state["figures"].items())
            if f["side"] == side
            and figures.can_act(f)
            and fid not in state["done"]
            and fid not in busy
            and fid not in carrying
        ]

    def _fire_arrow_actions(self, state: dict, side: str, unit: str | None) -> list[dict]:
        """5.31: bows shoot fire arrows at enemy engines (siege towers too, F13) at short
        range."""
        if not (state.get("engines") or state.get("towers")):
            return []
        board = self.board(state)

        def look(a, b):
            return self._los_sight(state, a, b, machine=True)[0]

        return [
            {"type": "firearrow", "side": side, "unit": fid, "at": cell}
            for fid in self._shooters(state, side)
            if unit is None or fid == unit
            for cell in fire.arrow_targets(state, board, fid, look)
        ]

    def _winch_actions(self, state: dict, side: str) -> list[dict]:
        board = self.board(state)
        winch = board.drawbridge.get("winch")
        if not winch or state.get("winch") or side != state["active"]:
            return []
        out = []
        for fid, f in sorted(state["figures"].items()):
            if (
                f["side"] == side
                and f["at"] == winch
                and figures.can_act(f)
                and fid not in state["acted"]
                and fid not in state["done"]
            ):
                out.append({"type": "winch", "side": side, "unit": fid})
        return out

    def _shooters(self, state: dict, side: str) -> list[str]:
        step, out = state["phase"], []
        for fid, f in sorted(state["figures"].items()):
            weapon = figures.weapon(f)
            if (
                f["side"] != side
                or not figures.can_act(f)
                or weapon is None
                or fid in state["done"]
                or fid in self._busy(state)
                or fid in equipment.carried_by(state)
            ):
                continue
            if step not in data.fire()["weapons"][weapon]["steps"]:
                continue
            # 1.21 step 1: not those that fought in melee last round.
            if step == "fire1" and state["melee_half"].get(fid, -9) >= state["half"] - 2:
                continue
            out.append(fid)
        return out

    def _targets(self, state: dict, fid: str) -> list[str]:
        me = state["figures"][fid]
        out = []
        board = self.board(state)
        longest = data.fire()["weapons"][figures.weapon(me)]["bands"]["long"]
        for tid, t in sorted(state["figures"].items()):
            if t["side"] == me["side"] or t["dead"]:
                continue
            # Range counts from the wall at most one cell shorter: skip hopeless lines early.
            if board.distance(me["at"], t["at"]) > longest + 1:
                continue
            if self._sight(state, fid, tid).possible:
                out.append(tid)
        if state.get("horses"):
            out += riders.horse_targets(self, state, fid)
        return out

    def _refuse_shot(self, state: dict, action: dict, same: list[dict]) -> None:
        """A shot refused by the sight line says which cell and rule stopped it (the same
        reason ``/los`` gives), not only which shots are legal."""
        fid, tid = str(action.get("unit")), str(action.get("target"))
        figs = state["figures"]
        if fought := self._fought_last_round(state, action):
            raise RuleError(fought, self.legal_hints(state, same[:12]), **keyed_of(fought))
        if (
            fid not in self._shooters(state, action.get("side", ""))
            or tid not in figs
            or figs[tid]["dead"]
            or figs[tid]["side"] == figs[fid]["side"]
        ):
            return
        seen = self._sight(state, fid, tid)
        if seen.possible and seen.band:
            return
        name, target = figs[fid]["name"], figs[tid]["name"]
        text = f"{name} cannot shoot at {target}: {seen.reasons[-1]}"
        keyed = {}
        longest = data.fire()["weapons"][figures.weapon(figs[fid])]["bands"]["long"]
        why = keyed_of(seen.reasons[-1])
        if why and not seen.possible and why["key"].startswith("siege.shot_"):
            # A wall or a figure in the line (1.41, 1.42, 1.45): its template names the shooter.
            keyed = {
                "key": why["key"],
                "params": {"name": name, "target": target, **why["params"]},
                "domain": why["domain"],
            }
        elif seen.band is None and seen.distance > longest:
            # The sight line stops at the range (its last reason).
            keyed = keyed_of(
                refusals.say(
                    "beyond_range",
                    text,
                    name=name,
                    target=target,
                    distance=seen.distance,
                    long=longest,
                )
            )
        elif why:
            # Any other sight reason (cover, doors, slits, the camp, engines): worded here,
            # since it may hold another reason (a wall the line grazes).
            keyed = keyed_of(
                refusals.say(
                    "cannot_shoot",
                    text,
                    name=name,
                    target=target,
                    why_de=refusals.worded(seen.reasons[-1], "de"),
                )
            )
        raise RuleError(text, self.legal_hints(state, same[:12]), **keyed)

    def _fought_last_round(self, state: dict, action: dict) -> Reason | None:
        """1.21 step 1: a bow or crossbow that fought in melee last round does not shoot in the
        first fire step; say so rather than only listing the others' shots."""
        fid = refusals.figure_named(state, action.get("unit"))
        if state["phase"] != "fire1" or fid is None:
            return None
        fig = state["figures"][fid]
        if (
            fig["side"] != action.get("side")
            or not figures.can_act(fig)
            or figures.weapon(fig) is None
            or state["melee_half"].get(fid, -9) < state["half"] - 2
        ):
            return None
        return refusals.say(
            "fought_last_round",
            f"{fig['name']} fought in melee last round and does not shoot in this first fire "
            "step (1.21).",
            name=fig["name"],
        )

    @staticmethod
    def _move_action(side: str, fid: str, key: str) -> dict:
        """A plan key ``CCRR`` or ``CCRR+top`` (a siege tower's platform) as a /move action."""
        cell, _, top = key.partition("+")
        action = {"type": "move", "side": side, "unit": fid, "to": cell}
        if top:
            action["level"] = "top"
        return action

    def _moves(self, state: dict, side: str, only: str | None = None) -> dict[str, list[str]]:
        return {fid: sorted(plans) for fid, plans in self._move_plans(state, side, only).items()}

    def _move_plans(
        self, state: dict, side: str, only: str | None = None
    ) -> dict[str, dict[str, dict]]:
        """Per figure, every cell it may move to with the path (and, for a ladder carrier, where
        its partner follows: the pair moves together, 1.91)."""
        board = self.board(state)
        living = self._living_at(state)
        enemies = {at for at, fid in living.items() if state["figures"][fid]["side"] != side}
        friends = {at for at, fid in living.items() if state["figures"][fid]["side"] == side}
        dead = self._dead_count(state)
        ladders = self._ladders(state)
        carriers = equipment.carried_by(state)
        tower_of = tower.cells_of(state)
        positions = self._positions(state)
        if state.get("horses") or state.get("wagons"):
            closed, crossed = riders.blocked(state, side)
            enemies, friends = enemies | closed, friends | crossed
        out: dict[str, dict[str, dict]] = {}
        for fid, f in sorted(state["figures"].items()):
            if f["side"] != side or not figures.can_act(f) or fid in state["done"]:
                continue
            if (only is not None and fid != only) or fid in self._busy(state):
                continue
            if fid in state["crossbow_shot"]:
                continue  # 1.21 step 2: crossbowmen who have just shot do not move
            points = figures.values(f)["move"] - state.get("spent", {}).get(fid, 0)
            points -= oil.penalty(state, fid) + shield.penalty(state, fid)
            partner = None
            if fid in carriers:
                partner = next(p for p in state["ladders"][carriers[fid]]["carriers"] if p != fid)
                if partner in state["done"]:
                    continue
                points = (
                    min(points, figures.values(state["figures"][partner])["move"])
                    - equipment.CARRY_PENALTY
                )
            if f.get("horse"):
                plans = riders.mounted_plans(board, state, fid, points, enemies, friends, dead)
                if plans:
                    out[fid] = plans
                continue
            # Over (cell, layer) positions only when the figure could reach a tower this step
            # (every step costs at least a point); elsewhere the towers are just cells it
            # cannot enter, and the plain search is the same and faster.
            if (
                tower_of
                and partner is None
                and (
                    f["at"] in tower_of
                    or min(board.distance(f["at"], c) for c in tower_of) <= points
                )
            ):
                plans = self._tower_plans(
                    state, board, f, points, positions, dead, ladders, tower_of
                )
                plans.update(engines.ram_entries(self, state, board, fid, points, plans))
                if plans:
                    out[fid] = plans
                continue
            # Ladder carriers never take a ladder into a siege tower.
            ends, parent = movement.reachable(
                board,
                f["at"],
                points,
                enemies | set(tower_of) | set(engines.cells(state)) | set(fire.fires(state)),
                friends,
                dead,
                state["bridge_up"],
                ladders,
            )
            plans = {}
            for end, cost in ends.items():
                path = movement.path_to(parent, f["at"], end)
                plan = {"path": path, "cost": cost}
                if partner is not None:
                    mate = state["figures"][partner]
                    trail = [mate["at"], *path[:-1]]
                    follow = equipment.trailing_cost(
                        board, mate["at"], path, dead, state["bridge_up"], ladders
                    )
                    if (
                        follow is None
                        or follow > points
                        or (trail[-1] in living and trail[-1] not in (f["at"], mate["at"]))
                        or trail[-1] in enemies
                    ):
                        continue
                    plan.update(partner=partner, partner_path=trail, partner_cost=follow)
                plans[end] = plan
            if partner is None:
                plans.update(engines.ram_entries(self, state, board, fid, points, plans))
            if plans:
                out[fid] = plans
        return out

    @staticmethod
    def _tower_plans(
        state, board, f, points, positions, dead, ladders, tower_of
    ) -> dict[str, dict]:
        """Moves over (cell, layer) positions while a siege tower stands (2.42, 2.45). Keys are
        the cell, with ``+top`` for the platform, so one dict serves both layers."""
        enemies = {p for p, o in positions.items() if state["figures"][o]["side"] != f["side"]}
        enemies |= {(c, tower.GROUND) for c in engines.cells(state)}
        enemies |= {(c, lay) for c in fire.fires(state) for lay in (tower.GROUND, tower.TOP)}
        friends = {p for p, o in positions.items() if state["figures"][o]["side"] == f["side"]}
        if state.get("horses") or state.get("wagons"):
            closed, crossed = riders.blocked(state, f["side"])
            enemies |= {(c, tower.GROUND) for c in closed}
            friends |= {(c, tower.GROUND) for c in crossed}
        start = tower.position(f)
        ends, parent = tower.reachable(
            board, start, points, enemies, friends, dead, state["bridge_up"], ladders, tower_of
        )
        plans = {}
        for end, cost in ends.items():
            steps = tower.path_to(parent, start, end)
            key = end[0] + ("+top" if end[1] == tower.TOP else "")
            plans[key] = {
                "path": [c for c, _ in steps],
                "layers": [lay for _, lay in steps],
                "cost": cost,
                "to": end[0],
                "layer": end[1],
            }
        return plans

    def _ladder_actions(self, state: dict, side: str) -> list[dict]:
        """1.91: two adjacent figures pick up a lying ladder next to them; carriers raise it at
        the foot of a parapet or put it down."""
        board = self.board(state)
        out = []
        carriers = equipment.carried_by(state)
        living = self._living_at(state)
        ready = [
            fid
            for fid, f in sorted(state["figures"].items())
            if f["side"] == side
            and figures.can_act(f)
            and fid not in state["done"]
            and fid not in self._busy(state)
            and fid not in carriers
            and not f.get(
                "horse"
            )  # a rider carries no ladder (our reading: both hands on the reins)
        ]
        ladder_cells = {lad["at"] for lad in state["ladders"].values() if lad["raised"]}
        # No ladder stands in a siege tower's cells.
        occupied = set(living) | set(tower.cells_of(state)) | set(engines.cells(state))
        spent = state.get("spent", {})
        for lid, lad in sorted(state.get("ladders", {}).items()):
            if lad["raised"]:
                # 1.92: two figures next to a raised ladder nobody stands on turn it or move it
                # one cell, two movement points each.
                if lad["at"] in living:
                    continue
                helpers = [
                    fid
                    for fid in ready
                    if board.distance(state["figures"][fid]["at"], lad["at"]) == 1
                    and fid not in state["crossbow_shot"]
                    and figures.values(state["figures"][fid])["move"] - spent.get(fid, 0) >= 2
                ]
                if len(helpers) < 2:
                    continue
                spots = [
                    (foot, wall)
                    for foot, wall in equipment.raise_spots(
                        board, [lad["at"]], occupied, ladder_cells - {lad["at"]}
                    )
                    if board.distance(foot, lad["at"]) <= 1
                    and (foot, wall) != (lad["at"], lad["faces"])
                ]
                for a in helpers:
                    for b in helpers:
                        if a < b:
                            out += [
                                {
                                    "type": "shift",
                                    "side": side,
                                    "unit": a,
                                    "with": b,
                                    "ladder": lid,
                                    "at": foot,
                                    "faces": wall,
                                }
                                for foot, wall in spots
                            ]
                continue
            if lad["carriers"]:
                if state["figures"][lad["carriers"][0]]["side"] != side:
                    continue
                cells = [state["figures"][c]["at"] for c in lad["carriers"]]
                for foot, wall in equipment.raise_spots(board, cells, occupied, ladder_cells):
                    out.append(
                        {"type": "raise", "side": side, "ladder": lid, "at": foot, "faces": wall}
                    )
                out.append({"type": "drop", "side": side, "ladder": lid})
                continue
            near = {lad["at"], *board.neighbours(lad["at"])}
            for a in ready:
                for b in ready:
                    fa, fb = state["figures"][a], state["figures"][b]
                    if (
                        a < b
                        and board.distance(fa["at"], fb["at"]) == 1
                        and (fa["at"] in near or fb["at"] in near)
                    ):
                        out.append(
                            {"type": "carry", "side": side, "unit": a, "with": b, "ladder": lid}
                        )
        return out

    def _push_actions(self, state: dict, side: str) -> list[dict]:
        """1.94: a figure on a parapet next to a raised ladder, that has neither shot nor moved
        this phase, may try to push it over in the melee step."""
        board = self.board(state)
        out = []
        for lid, lad in sorted(state.get("ladders", {}).items()):
            if not lad["raised"]:
                continue
            for fid, f in sorted(state["figures"].items()):
                if (
                    f["side"] == side
                    and figures.can_act(f)
                    and board.cell(f["at"]).kind == "parapet"
                    and f["at"] in board.neighbours(lad["at"])
                    and fid not in state["acted"]
                    and fid not in state["done"]
                    and fid not in self._busy(state)
                ):
                    out.append({"type": "push", "side": side, "unit": fid, "ladder": lid})
        return out

    def _can_attack(self, state: dict, aid: str, did: str) -> bool:
        board = self.board(state)
        a, d = state["figures"][aid], state["figures"][did]
        if a["side"] == d["side"] or not figures.can_act(a) or d["dead"]:
            return False
        if (
            aid in state["done"]
            or did in state["attacked"]
            or aid in self._busy(state)
            or aid in equipment.carried_by(state)
        ):
            return False
        if state.get("horses") and (a.get("horse") or d.get("horse")):
            # 5.23 holds for riders too: a cell pair across a laid shield is no contact.
            return any(
                board.distance(ca, cd) == 1
                and movement.connects(board, ca, cd, state["bridge_up"])
                and not shield.across(state, ca, cd)
                for ca in riders.cells_of(state, a)
                for cd in riders.cells_of(state, d)
            )
        if board.distance(a["at"], d["at"]) != 1 or shield.across(state, a["at"], d["at"]):
            return False
        tower_of = tower.cells_of(state)
        if tower_of:
            verdict = tower.adjacent_for_melee(
                board, tower_of, tower.position(a), tower.position(d)
            )
            if verdict is not None:
                return verdict
        ladders = self._ladders(state)
        if a["at"] in ladders:
            # 1.74: from a ladder only the parapet it leans on.
            return d["at"] == ladders[a["at"]]
        if d["at"] in ladders and ladders[d["at"]] == a["at"]:
            return True
        # 1.74: no attack into a cell the attacker could not enter.
        return movement.connects(board, a["at"], d["at"], state["bridge_up"])

    def _melee_actions(self, state: dict, side: str) -> list[dict]:
        pending = state["pending"]
        if pending and pending.get("horse"):
            return riders.horse_melee_actions(self, state, side)
        out = (
            riders.horse_melee_actions(self, state, side)
            if state.get("horses") and not pending
            else []
        )
        for aid, a in sorted(state["figures"].items()):
            if a["side"] != side:
                continue
            for did, d in sorted(state["figures"].items()):
                if not self._can_attack(state, aid, did):
                    continue
                if pending:
                    atts, defs = pending["attackers"], pending["defenders"]
                    if aid in atts and did in defs:
                        continue
                    if (
                        aid in atts
                        and did not in defs
                        and len(atts) == 1
                        or did in defs
                        and aid not in atts
                        and len(defs) == 1
                    ):
                        pass
                    else:
                        continue
                out.append({"type": "attack", "side": side, "unit": aid, "target": did})
        if pending:
            odds = melee.assess(
                self.board(state),
                state["figures"],
                pending["attackers"],
                pending["defenders"],
                self._ladders(state),
                tower.cells_of(state),
                riders.mounted_cells(state),
            )["odds"]
            if odds >= 1:
                out.append({"type": "fight", "side": side})
            out.append({"type": "cancel", "side": side})
        return out

    def _advance_actions(self, state: dict, side: str) -> list[dict]:
        out = []
        for fid, key in sorted(self._advance_paths(state)):
            action = self._move_action(side, fid, key)
            action["type"] = "advance"
            out.append(action)
        return out

    def _advance_paths(self, state: dict) -> dict[tuple[str, str], list[str]]:
        """1.73: one participant of the winner moves with half its movement, first into a freed
        cell; if that cell touches an enemy, the advance stops there."""
        adv = state["advance"]
        board = self.board(state)
        living = self._living_at(state)
        dead = self._dead_count(state)
        out: dict[tuple[str, str], list[str]] = {}
        tower_of = tower.cells_of(state)
        for fid in adv["figures"]:
            f = state["figures"][fid]
            if not figures.can_act(f):
                continue
            budget = max(1, figures.values(f)["move"] // 2)
            if f.get("horse"):
                for cell in riders.advance_cells(self, state, fid, adv["cells"], budget):
                    out[(fid, cell)] = [f["at"], cell]
                continue
            if tower_of and (
                f["at"] in tower_of or any(c.partition("+")[0] in tower_of for c in adv["cells"])
            ):
                # 2.45: between a tower's top and a parapet (or into the tower) the advance is
                # the one step into the freed position.
                for key in adv["cells"]:
                    cell, _, top = key.partition("+")
                    if board.distance(f["at"], cell) != 1:
                        continue
                    base = movement.enter_cost(
                        board, f["at"], cell, dead.get(cell, 0), state["bridge_up"]
                    )
                    cost = tower.step_cost(
                        board,
                        tower_of,
                        tower.position(f),
                        (cell, tower.TOP if top else tower.GROUND),
                        None if base >= movement.UNREACHABLE else base,
                    )
                    if cost is not None and cost <= budget:
                        out[(fid, key)] = [f["at"], cell]
                continue
            enemies = {at for at, o in living.items() if state["figures"][o]["side"] != f["side"]}
            friends = {at for at, o in living.items() if state["figures"][o]["side"] == f["side"]}
            enemies |= set(riders.occupied_cells(state))
            for cell in adv["cells"]:
                if (
                    cell in living
                    or cell in engines.cells(state)
                    or board.distance(f["at"], cell) != 1
                ):
                    continue
                first = movement.enter_cost(
                    board, f["at"], cell, dead.get(cell, 0), state["bridge_up"]
                )
                if first > budget:
                    continue
                out[(fid, cell)] = [f["at"], cell]
                if any(n in enemies for n in board.neighbours(cell)):
                    continue
                ends, parent = movement.reachable(
                    board,
                    cell,
                    budget - first,
                    enemies | set(tower_of) | set(engines.cells(state)),
                    friends - {f["at"]},
                    dead,
                    state["bridge_up"],
                    self._ladders(state),
                )
                for end in ends:
                    if end != f["at"] and (fid, end) not in out:
                        out[(fid, end)] = [f["at"]] + movement.path_to(parent, cell, end)
        return out

    # ----- apply ---------------------------------------------------------------------------
    def apply(self, state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
        unit = action.get("unit") if isinstance(action.get("unit"), str) else None
        legal = self._legal(state, action.get("side", ""), action.get("type"), unit)
        if action not in legal:
            self._refuse(state, action, [a for a in legal if a["type"] == action.get("type")])
        state = clone(state)
        events: list[dict] = []
        kind = action["type"]
        dead_before = {fid for fid, f in state["figures"].items() if f["dead"]}
        if kind == "shoot":
            self._shoot(state, action, dice, events)
        elif kind in ("move", "lead"):
            self._move(state, action, events)
        elif kind in ("mount", "dismount"):
            riders.apply_mount(state, action, events)
        elif kind in ("harness", "unharness"):
            wagons.apply(state, action, events)
        elif kind == "attack":
            pending = state["pending"] or {"attackers": [], "defenders": []}
            if action["unit"] not in pending["attackers"]:
                pending["attackers"].append(action["unit"])
            if action["target"] in state.get("horses", {}):
                pending["horse"] = action["target"]  # 3.35: striking the horse itself
            elif action["target"] not in pending["defenders"]:
                pending["defenders"].append(action["target"])
            state["pending"] = pending
            events.append(
                {
                    "type": "melee_declared",
                    "attackers": list(pending["attackers"]),
                    "defenders": list(pending["defenders"]),
                }
            )
        elif kind == "cancel":
            state["done"] += state["pending"]["attackers"]
            events.append({"type": "melee_cancelled", "attackers": state["pending"]["attackers"]})
            state["pending"] = None
        elif kind == "fight":
            self._fight(state, dice, events)
        elif kind == "take":
            choice = state["choice"]
            state["choice"] = None
            self._hit(state, action["unit"], choice["effect"], choice["letter"], events)
            self._after_result(state, choice["combat"], events)
        elif kind == "advance":
            f = state["figures"][action["unit"]]
            key = action["to"] + ("+top" if action.get("level") == "top" else "")
            path = self._advance_paths(state)[(action["unit"], key)]
            events.append(
                {
                    "type": "advanced",
                    "unit": action["unit"],
                    "from": f["at"],
                    "to": action["to"],
                    "path": path,
                }
            )
            if f.get("horse"):
                riders.follow(state, f["horse"], [action["to"], f["at"]], events)
            f["at"] = action["to"]
            if action.get("level") == "top":
                f["layer"] = tower.TOP
            else:
                f.pop("layer", None)
            self._close_advance(state)
        elif kind == "retreat":
            state["retreat"]["queue"].pop(0)
            self._retreat_to(state, action["unit"], action["to"], events)
            self._continue_retreat(state, events)
        elif kind == "land":
            landing = state.pop("landing")
            state["landing"] = None
            if landing.get("thrown"):
                riders.place_thrown(state, landing["unit"], landing["thrown"], action["to"], events)
            else:
                self._land(state, landing["unit"], landing["from"], action["to"], events)
            state["awaiting"] = [state["active"]]
        elif kind == "face":
            state["figures"][action["unit"]]["facing"] = action["toward"]
            state["done"].append(action["unit"])
            events.append({"type": "faced", "unit": action["unit"], "toward": action["toward"]})
        elif kind in ("fill", "breach"):
            key, counter = (
                ("filled_moat", "filled-moat") if kind == "fill" else ("breaches", "breach")
            )
            state["counters"].append([action["at"], counter])
            state["to_place"][key] -= 1
            events.append({"type": "counter_placed", "kind": counter, "at": action["at"]})
            if not any(state["to_place"].values()) and not engines.more_to_do(
                self, state, action["side"]
            ):
                self._start_assault(state, events)
        elif kind == "carry":
            lad = state["ladders"][action["ladder"]]
            lad["carriers"] = [action["unit"], action["with"]]
            lad["at"] = state["figures"][action["unit"]]["at"]
            events.append(
                {"type": "ladder_carried", "ladder": action["ladder"], "carriers": lad["carriers"]}
            )
        elif kind == "raise":
            lad = state["ladders"][action["ladder"]]
            state["done"] += [c for c in lad["carriers"] if c not in state["done"]]
            lad.update(at=action["at"], faces=action["faces"], raised=True, carriers=[])
            events.append(
                {
                    "type": "ladder_raised",
                    "ladder": action["ladder"],
                    "at": action["at"],
                    "faces": action["faces"],
                }
            )
        elif kind == "shift":
            lad = state["ladders"][action["ladder"]]
            spent = state.setdefault("spent", {})
            for fid in (action["unit"], action["with"]):
                spent[fid] = spent.get(fid, 0) + 2
            events.append(
                {
                    "type": "ladder_shifted",
                    "ladder": action["ladder"],
                    "from": lad["at"],
                    "at": action["at"],
                    "faces": action["faces"],
                    "by": [action["unit"], action["with"]],
                }
            )
            lad.update(at=action["at"], faces=action["faces"])
        elif kind == "drop":
            self._drop(state, action["ladder"], events)
        elif kind == "roll":
            self._roll(state, action, events)
        elif kind == "place":
            t = state["towers"][action["tower"]]
            board = self.board(state)
            cells = tower.placements(
                board, state, action["tower"], self._tower_blocked(state, action["tower"])
            )[(action["at"], action["towards"])]
            self._carry_tower(state, t, cells)
            t["towards"] = action["towards"]
            state["to_place"]["towers"].remove(action["tower"])
            events.append(
                {
                    "type": "tower_placed",
                    "tower": action["tower"],
                    "at": cells,
                    "towards": action["towards"],
                }
            )
            if not any(state["to_place"].values()) and not engines.more_to_do(
                self, state, action["side"]
            ):
                self._start_assault(state, events)
        elif kind == "push":
            self._push(state, action, dice, events)
        elif kind == "winch":
            f = state["figures"][action["unit"]]
            state["winch"] = {"unit": action["unit"], "at": f["at"], "half": state["half"]}
            state["done"].append(action["unit"])
            events.append(
                {
                    "type": "winch_manned",
                    "unit": action["unit"],
                    "at": f["at"],
                    "raise": not state["bridge_up"],
                }
            )
        elif kind == "stay":
            events.append({"type": "no_advance", "side": action["side"]})
            self._close_advance(state)
        elif kind in engines.ACTIONS:
            engines.apply(self, state, action, dice, events)
            if (
                state["phase"] == "prepare"
                and not state.get("engine_damage")
                and not any(state["to_place"].values())
                and not engines.more_to_do(self, state, action["side"])
            ):
                self._start_assault(state, events)
        elif kind == "end-phase":
            ended = (state["phase"], state["active"])
            # Before the assault every engine still laid on a wall fires (4.21); a result C
            # that needs the besieger's choice keeps the step open.
            if state["phase"] != "prepare" or not engines.finish_prepare(self, state, dice, events):
                self._end_step(state, events, dice)
                days.after_step(state, events, dice)
                if days.dawned(events) and not state.get("result"):
                    work = engines.prepare_actions(self, state, "besieger")
                    days.open_prepare(state, events, sorted({a["type"] for a in work}))
                panic.after_step(state, ended, events)
        elif kind == "kindle":
            fire.start_kindling(state, action, events)
            state["done"].append(action["unit"])
            state["acted"].append(action["unit"])
        elif kind == "douse":
            fire.douse(state, action, dice, events)
            state["done"].append(action["unit"])
            state["acted"].append(action["unit"])
        elif kind == "firearrow":
            at = state["figures"][action["unit"]]["at"]
            seen = self._los_sight(state, at, action["at"], machine=True)[0]
            state["done"].append(action["unit"])
            state["acted"].append(action["unit"])
            state.setdefault("shot", []).append(action["unit"])
            fire.shoot_arrow(state, action, seen, dice, events)
        elif kind == "lift":
            if action["item"] in oil.pots(state):
                oil.lift(state, action, events)
            else:
                shield.lift(state, action, events)
        elif kind == "lay":
            shield.lay(state, action, events)
            if action["unit"] not in state["done"]:
                state["done"].append(action["unit"])
                state["acted"].append(action["unit"])
        elif kind == "pour":
            state["done"].append(action["unit"])
            state["acted"].append(action["unit"])
            victim = oil.pour(state, self.board(state), action, dice, events, state["half"])
            if victim:
                combat = {
                    "attackers": [],
                    "defenders": [victim],
                    "letter": "D",
                    "cells": {victim: state["figures"][victim]["at"]},
                }
                state["retreat"] = {"queue": [victim], "combat": combat}
                self._continue_retreat(state, events)
        elif kind == "panic":
            panic.choose(state, action, events)
        self._check_ladders(state, events)
        panic.after_action(state, dead_before, events, dice)
        shield.drop_unable(state, events)
        oil.drop_unable(state, events)
        self._check_victory(state, events)
        return state, events

    def _roll(self, state, action, events):
        """2.41: the tower and everyone in and on it move together; its crew has used its move."""
        tid = action["tower"]
        t = state["towers"][tid]
        board = self.board(state)
        cells, cost = tower.tower_moves(board, state, tid, self._tower_blocked(state, tid))[
            action["to"]
        ]
        crew = [fid for fid in tower.crew(state, tid) if fid not in state["done"]][
            : tower.spec()["crew"]
        ]
        vector = tower.heading(board, t)
        old = list(t["cells"])
        self._carry_tower(state, t, cells)
        fire.follow(state, dict(zip(old, cells)))
        q, r = board.cell(cells[0]).hex
        t["towards"] = hexgrid.label((q + vector[0], r + vector[1]))
        state["done"] += crew
        state["acted"] += crew
        state.setdefault("tower_moved", []).append(tid)
        events.append(
            {
                "type": "tower_rolled",
                "tower": tid,
                "from": old,
                "to": cells,
                "cost": cost,
                "crew": crew,
            }
        )

    @staticmethod
    def _carry_tower(state, t, cells):
        """The tower stands on ``cells`` (in the order of its old ones); everyone living in and
        on it comes along."""
        moving = dict(zip(t["cells"], cells))
        for f in state["figures"].values():
            if f["at"] in moving and not f["dead"]:
                f["at"] = moving[f["at"]]
        t["cells"] = list(cells)

    def _drop(self, state, lid, events):
        lad = state["ladders"][lid]
        if lad["carriers"]:
            lad["at"] = state["figures"][lad["carriers"][0]]["at"]
            # Putting the ladder down ends the carriers' movement (our reading; it also keeps a
            # step from looping through pick-up and put-down).
            state["done"] += [c for c in lad["carriers"] if c not in state["done"]]
        lad["carriers"] = []
        events.append({"type": "ladder_dropped", "ladder": lid, "at": lad["at"]})

    def _check_ladders(self, state, events):
        """A carried ladder falls when a carrier is stunned, dies or is separated (retreat)."""
        board = self.board(state)
        for lid, lad in sorted(state.get("ladders", {}).items()):
            if not lad["carriers"]:
                continue
            pair = [state["figures"][c] for c in lad["carriers"]]
            if (
                any(not figures.can_act(f) for f in pair)
                or board.distance(pair[0]["at"], pair[1]["at"]) != 1
            ):
                self._drop(state, lid, events)
            else:
                lad["at"] = pair[0]["at"]

    def _refuse(self, state: dict, action: dict, same: list[dict]) -> None:
        """Why an action is not legal, from the list already built for its type (building
        every legal action again for the message would cost more than the check)."""
        why = riders.explain_refusal(self, state, action) if state.get("horses") else None
        if why:
            raise RuleError(why, self.legal_hints(state, same[:12]), **keyed_of(why))
        if action.get("type") == "shoot":
            self._refuse_shot(state, action, same)
        if engine_rule := engines.refusal(self, state, action):
            raise RuleError(
                engine_rule,
                self.legal_hints(state, same[:12]),
                **keyed_of(engine_rule),
            )
        if done := self._already_done(state, action):
            raise RuleError(done, self.legal_hints(state, same[:12]), **keyed_of(done))
        if action.get("type") in ("fill", "breach") and (
            counter := self._counter_refusal(state, action)
        ):
            raise RuleError(counter, self.legal_hints(state, same[:12]), **keyed_of(counter))
        if action.get("type") in ("kindle", "douse") and (
            burning := self._fire_refusal(state, action)
        ):
            raise RuleError(burning, self.legal_hints(state, same[:12]), **keyed_of(burning))
        if action.get("type") == "roll" and (stuck := self._roll_refusal(state, action)):
            raise RuleError(stuck, self.legal_hints(state, same[:12]), **keyed_of(stuck))
        if action.get("type") in ("lift", "lay") and (held := self._carry_refusal(state, action)):
            raise RuleError(held, self.legal_hints(state, same[:12]), **keyed_of(held))
        if action.get("type") == "pour" and (spilt := self._pour_refusal(state, action)):
            raise RuleError(spilt, self.legal_hints(state, same[:12]), **keyed_of(spilt))
        if action.get("type") == "raise" and (leaning := self._raise_refusal(state, action)):
            raise RuleError(leaning, self.legal_hints(state, same[:12]), **keyed_of(leaning))
        if action.get("type") == "attack" and (apart := self._not_adjacent(state, action)):
            raise RuleError(apart, self.legal_hints(state, same[:12]), **keyed_of(apart))
        if action.get("type") == "move" and (held := self._crossbow_held(state, action)):
            raise RuleError(held, self.legal_hints(state, same[:12]), **keyed_of(held))
        kind = action.get("type")
        if not same and action.get("unit") is not None:
            # The command fits this step but the figure does not (mistyped, the enemy's, one
            # that cannot act): name the figure with those that can, not "/shoot is not
            # possible now" (``apply`` built only the typed figure's actions).
            wider = [
                a for a in self._legal(state, action.get("side", ""), kind) if a["type"] == kind
            ]
            if wider:
                self.refuse_value(state, action, wider)
        if same:
            self.refuse_value(state, action, same)
            raise RuleError(
                f"That /{action['type']} is not legal now.",
                self.legal_hints(state, same[:12]),
                key="not_legal_now",
                params={"command": str(action["type"])},
                domain=self.name,
            )
        side = action.get("side", "")
        if state["choice"]:
            kinds = ["take"]
        elif state.get("engine_damage"):
            kinds = ["damage"]
        elif state.get("landing"):
            kinds = ["land"]
        elif state.get("retreat"):
            kinds = ["retreat"]
        elif state["advance"]:
            kinds = ["advance", "stay"]
        else:
            kinds = {
                "fire1": ["shoot", "bolt", "firearrow"],
                "fire2": ["shoot", "bolt", "firearrow"],
                "move": [
                    "move",
                    "roll",
                    "drive",
                    "face",
                    "carry",
                    "raise",
                    "drop",
                    "shift",
                    "kindle",
                    "lift",
                    "lay",
                    "mount",
                    "dismount",
                    "lead",
                    "harness",
                    "unharness",
                ],
                "melee": ["attack", "fight", "cancel", "push", "batter", "douse", "pour"],
                "prepare": ["fill", "breach", "place", "emplace", "aim", "bombard", "repair"],
            }[state["phase"]]
            if state["phase"] in ("fire1", "fire2") and not self._shooters(state, side):
                kinds = ["bolt"] if engines.bolt_actions(self, state, side) else []
            if not state["pending"]:
                kinds = [k for k in kinds if k not in ("fight", "cancel")] + ["end-phase"]
        command = str(action.get("type"))[:24]
        raise RuleError(
            f"/{command} is not possible now.",
            ["/" + k for k in kinds],
            key="not_possible_now",
            params={"command": command},
            domain=self.name,
        )

    def _counter_refusal(self, state: dict, action: dict) -> Reason | None:
        """Why a /fill or /breach before the assault is refused (2.2, 2.31): none of those
        counters is left to lay, or the cell is not moat (the drawbridge's cells excepted) or
        wall."""
        if state["phase"] != "prepare" or action.get("side") != state["active"]:
            return None
        filling = action["type"] == "fill"
        left = state["to_place"]["filled_moat" if filling else "breaches"]
        what = "filled-moat" if filling else "broken-wall"
        if not left:
            return refusals.say(
                f"no_{action['type']}_left",
                f"No {what} counter is left to lay (2.2, 2.31: the scenario gives their number).",
            )
        at = str(action.get("at", ""))[:12]
        if filling:
            return refusals.say(
                "fill_where",
                f"{at} is no moat cell: filled-moat counters go on the moat, never under the "
                "drawbridge (2.2).",
                at=at,
            )
        return refusals.say(
            "breach_where",
            f"{at} is no wall or parapet cell: broken-wall counters go on the castle's walls "
            "(2.31).",
            at=at,
        )

    def _fire_refusal(self, state: dict, action: dict) -> Reason | None:
        """A /kindle (movement step) or /douse (melee step) by an able figure of the acting
        side that has not acted: say which part of 3.51 or 3.53 stops it."""
        kindling = action["type"] == "kindle"
        decisions = ("pending", "choice", "retreat", "advance", "landing", "engine_damage")
        fid = refusals.figure_named(state, action.get("unit"))
        if (
            state["phase"] != ("move" if kindling else "melee")
            or action.get("side") != state["active"]
            or any(state.get(k) for k in decisions)
            or fid is None
            or fid not in self._free_hands(state, str(action.get("side")))
            or state["figures"][fid].get("layer")
        ):
            return None
        if kindling:
            return fire.kindle_refusal(state, self.board(state), action, fid)
        return fire.douse_refusal(state, action, fid)

    def _roll_refusal(self, state: dict, action: dict) -> Reason | None:
        """Why a /roll of a siege tower in the movement step is refused (2.41)."""
        decisions = ("pending", "choice", "retreat", "advance", "landing", "engine_damage")
        side = action.get("side")
        if (
            state["phase"] != "move"
            or side != state["active"]
            or any(state.get(k) for k in decisions)
        ):
            return None
        tid = str(action.get("tower", ""))[:24]
        t = state.get("towers", {}).get(tid)
        if t is None or t["side"] != side:
            return refusals.say(
                "not_your_tower",
                f"{tid or 'That'} is not a siege tower of yours.",
                tower=tid or "That",
            )
        if tid in state.get("tower_moved", []):
            return refusals.say(
                "tower_pushed",
                f"Siege tower {tid} has already been pushed this round (2.41).",
                tower=tid,
            )
        inside = [
            fid
            for fid, f in state["figures"].items()
            if f["at"] in t["cells"] and tower.layer(f) == tower.GROUND and not f["dead"]
        ]
        if any(state["melee_half"].get(fid, -9) >= state["half"] - 2 for fid in inside):
            return refusals.say(
                "tower_crew_fought",
                f"Siege tower {tid} cannot move this round: one of the figures working it fought "
                "last round (2.41).",
                tower=tid,
            )
        crew = [
            fid
            for fid in tower.crew(state, tid)
            if fid not in state["done"] and fid not in self._busy(state)
        ]
        need = tower.spec()["crew"]
        if len(crew) < need:
            names = ", ".join(state["figures"][f]["name"] for f in crew) or "nobody"
            return refusals.say(
                "tower_crew",
                f"Siege tower {tid} needs {need} able figures of its side inside that have not "
                f"acted this round (2.41); now: {names}.",
                tower=tid,
                crew=need,
                team=names,
            )
        return refusals.say(
            "tower_straight",
            f"Siege tower {tid} rolls only straight forward or back within the round's points, "
            "over flat ground or filled moat, never onto a figure, ladder, engine or another "
            "tower (2.41).",
            tower=tid,
        )

    def _carry_refusal(self, state: dict, action: dict) -> Reason | None:
        """Why a /lift of a pot or shield (5.21, F8) or a /lay of a shield (5.22) in the
        movement step is refused, for an able figure of the acting side that has not acted."""
        decisions = ("pending", "choice", "retreat", "advance", "landing", "engine_damage")
        fid = refusals.figure_named(state, action.get("unit"))
        side = str(action.get("side"))
        if (
            state["phase"] != "move"
            or side != state["active"]
            or any(state.get(k) for k in decisions)
            or fid is None
            or fid not in self._free_hands(state, side)
            or state["figures"][fid].get("horse")
        ):
            return None
        name, at = state["figures"][fid]["name"], state["figures"][fid]["at"]
        pots, shields = oil.carriers(state), shield.carriers(state)
        if action["type"] == "lay":
            if fid not in shields:
                return refusals.say(
                    "lay_no_shield", f"{name} carries no siege shield to lay (5.22).", name=name
                )
            faces = str(action.get("faces", ""))[:12]
            return refusals.say(
                "lay_where",
                f"{faces} is not beside {name}'s cell {at}: the shield lies along one side of "
                "its carrier's cell (5.22).",
                faces=faces,
                name=name,
                at=at,
            )
        if fid in pots or fid in shields:
            thing = pots.get(fid) or shields.get(fid)
            return refusals.say(
                "lift_full_hands",
                f"{name} already carries {thing}: a figure carries one thing only (F8, F11).",
                name=name,
                item=thing,
            )
        item = str(action.get("item", ""))[:24]
        holder = next((f for f, i in {**pots, **shields}.items() if i == item), None)
        if holder is not None:
            other = state["figures"][holder]["name"]
            return refusals.say(
                "lift_carried", f"{item} is carried by {other}.", item=item, other=other
            )
        if item in shield.shields(state):
            return refusals.say(
                "lift_shield_where",
                f"{name} takes up shield {item} only on its cell, {shield.where(state, item)} "
                "(5.21: on the same cell).",
                name=name,
                item=item,
                cell=shield.where(state, item),
            )
        if item in oil.pots(state):
            return refusals.say(
                "lift_pot_where",
                f"{name} takes up pot {item} only on its cell, {oil.where(state, item)}, or "
                "beside it (F8).",
                name=name,
                item=item,
                cell=oil.where(state, item),
            )
        known = sorted({*oil.pots(state), *shield.shields(state)})
        return refusals.say(
            "lift_unknown",
            f"There is no pot or shield {item!r}; there are: {', '.join(known) or 'none'}.",
            item=item,
            known=known,
        )

    def _pour_refusal(self, state: dict, action: dict) -> Reason | None:
        decisions = ("pending", "choice", "retreat", "advance", "landing", "engine_damage")
        if (
            state["phase"] != "melee"
            or action.get("side") != state["active"]
            or any(state.get(k) for k in decisions)
        ):
            return None
        return oil.pour_refusal(
            state,
            self.board(state),
            action,
            refusals.figure_named(state, action.get("unit")),
            set(state.get("shot", [])),
        )

    @staticmethod
    def _raise_refusal(state: dict, action: dict) -> Reason | None:
        """Why a /raise of a ladder is refused (1.91): it lies unpicked, stands already, or
        the cell and parapet named are not where its carriers can lean it."""
        lid = str(action.get("ladder", ""))[:24]
        lad = state.get("ladders", {}).get(lid)
        decisions = ("pending", "choice", "retreat", "advance", "landing", "engine_damage")
        if (
            lad is None
            or state["phase"] != "move"
            or action.get("side") != state["active"]
            or any(state.get(k) for k in decisions)
        ):
            return None
        if lad["raised"]:
            return refusals.say(
                "ladder_raised",
                f"Ladder {lid} already leans on {lad['faces']}.",
                ladder=lid,
                faces=lad["faces"],
            )
        if not lad["carriers"]:
            return refusals.say(
                "ladder_lying",
                f"Ladder {lid} lies on the ground: two figures beside it pick it up with /carry "
                "first (1.91).",
                ladder=lid,
            )
        if state["figures"][lad["carriers"][0]]["side"] != action.get("side"):
            return None
        at, faces = str(action.get("at", ""))[:12], str(action.get("faces", ""))[:12]
        return refusals.say(
            "ladder_where",
            f"Ladder {lid} cannot lean on {faces} from {at}: a ladder is raised on a free cell "
            "outside at the foot of a parapet, next to a cell next to its carriers, and leans on "
            "that parapet, never on a tower (1.91).",
            ladder=lid,
            at=at,
            faces=faces,
        )

    @staticmethod
    def _already_done(state: dict, action: dict) -> Reason | None:
        """A figure that moved, shot or fought in this step has had its turn in it (1.21);
        say so rather than only listing what the others may do."""
        steps = {"move": ("move",), "shoot": ("fire1", "fire2"), "attack": ("melee",)}
        fid = refusals.figure_named(state, action.get("unit"))
        decisions = ("pending", "choice", "retreat", "advance", "landing", "engine_damage")
        if (
            state["phase"] not in steps.get(str(action.get("type")), ())
            or action.get("side") != state["active"]
            or any(state.get(k) for k in decisions)
            or fid is None
            or fid not in state["done"]
            or state["figures"][fid]["side"] != action.get("side")
            or state["figures"][fid]["dead"]
        ):
            return None
        name = state["figures"][fid]["name"]
        return refusals.say(
            "already_done", f"{name} has already had his turn in this step (1.21).", name=name
        )

    def _not_adjacent(self, state: dict, action: dict) -> Reason | None:
        """1.7: figures fight from adjacent cells only; say so when an attack names an enemy
        further away (riders and siege towers have their own contacts and keep the list)."""
        aid = refusals.figure_named(state, action.get("unit"))
        did = refusals.figure_named(state, action.get("target"))
        decisions = ("choice", "retreat", "advance", "landing", "engine_damage")
        if (
            state["phase"] != "melee"
            or action.get("side") != state["active"]
            or any(state.get(k) for k in decisions)
            or aid is None
            or did is None
        ):
            return None
        a, d = state["figures"][aid], state["figures"][did]
        towers = tower.cells_of(state)
        if (
            a["side"] != action.get("side")
            or d["side"] == a["side"]
            or d["dead"]
            or a.get("horse")
            or d.get("horse")
            or a["at"] in towers
            or d["at"] in towers
            or self.board(state).distance(a["at"], d["at"]) <= 1
        ):
            return None
        return refusals.say(
            "not_adjacent",
            f"{a['name']} is not next to {d['name']}: figures fight only from adjacent cells "
            "(1.7).",
            name=a["name"],
            target=d["name"],
        )

    @staticmethod
    def _crossbow_held(state: dict, action: dict) -> Reason | None:
        """1.21 step 2: a crossbowman who has just shot does not move; say so rather than only
        listing the moves of the others."""
        fid = refusals.figure_named(state, action.get("unit"))
        if (
            state["phase"] != "move"
            or fid is None
            or fid not in state.get("crossbow_shot", [])
            or state["figures"][fid]["side"] != action.get("side")
        ):
            return None
        name = state["figures"][fid]["name"]
        return refusals.say(
            "crossbow_shot",
            f"{name} has just shot his crossbow and does not move in this movement step (1.21).",
            name=name,
        )

    def _shoot(self, state, action, dice, events):
        if action["target"] in state.get("horses", {}):
            riders.shoot_horse(self, state, action, dice, events)
            return
        fid, tid = action["unit"], action["target"]
        shooter, target = state["figures"][fid], state["figures"][tid]
        seen = self._sight(state, fid, tid)
        state["done"].append(fid)
        state["acted"].append(fid)
        state.setdefault("shot", []).append(fid)
        if figures.weapon(shooter) == "crossbow":
            state["crossbow_shot"].append(fid)
        shot = shooting.resolve(
            fid, shooter, tid, target, seen, dice, events, state["half"], aiming.skill(state, fid)
        )
        board = self.board(state)
        aiming.after_shot(
            state,
            fid,
            tid,
            shot,
            dice,
            events,
            lambda f: self._level(board, state, f),
            lambda other: self._sight(state, fid, other).possible,
        )
        if shot["outcome"] != "no effect":
            riders.throw(self, state, tid, events)

    def _move(self, state, action, events):
        fid = action["unit"]
        f = state["figures"][fid]
        key = action["to"] + ("+top" if action.get("level") == "top" else "")
        if action["type"] == "lead":
            plan = riders.lead_options(self, state, f["side"], fid)[(action["horse"], key)]
        else:
            plan = self._move_plans(state, f["side"], fid)[fid][key]
        moved = {
            "type": "moved",
            "unit": fid,
            "from": f["at"],
            "to": action["to"],
            "path": plan["path"],
            "cost": plan["cost"],
        }
        if "layers" in plan:
            moved["layers"] = plan["layers"]
        events.append(moved)
        if "horse_cells" in plan:
            riders.follow(state, f.get("horse") or plan["horse"], plan["horse_cells"], events, plan)
        f["at"] = action["to"]
        if plan.get("layer") == tower.TOP:
            f["layer"] = tower.TOP
        else:
            f.pop("layer", None)
        state["done"].append(fid)
        state["acted"].append(fid)
        if plan.get("partner"):
            mate = state["figures"][plan["partner"]]
            events.append(
                {
                    "type": "moved",
                    "unit": plan["partner"],
                    "from": mate["at"],
                    "to": plan["partner_path"][-1],
                    "path": plan["partner_path"],
                    "cost": plan["partner_cost"],
                    "carrying": True,
                }
            )
            mate["at"] = plan["partner_path"][-1]
            state["done"].append(plan["partner"])
            state["acted"].append(plan["partner"])

    def _fight(self, state, dice, events):
        pending = state["pending"]
        state["pending"] = None
        board = self.board(state)
        horse = pending.get("horse")
        if horse:
            state["attacked"].append(horse)
        combat = {
            "attackers": pending["attackers"],
            "defenders": pending["defenders"],
            "attacker_side": state["figures"][pending["attackers"][0]]["side"],
            "cells": {
                fid: state["figures"][fid]["at"]
                for fid in pending["attackers"] + pending["defenders"]
            },
            "layers": {
                fid: tower.layer(state["figures"][fid])
                for fid in pending["attackers"] + pending["defenders"]
            },
        }
        for fid in combat["attackers"] + combat["defenders"]:
            state["melee_half"][fid] = state["half"]
        state["done"] += combat["attackers"]
        state["acted"] += combat["attackers"]
        state["attacked"] += combat["defenders"]
        sums = melee.assess(
            board,
            state["figures"],
            combat["attackers"],
            combat["defenders"],
            self._ladders(state),
            tower.cells_of(state),
            riders.mounted_cells(state),
            riders.struck(state, horse),
        )
        panic.melee_shift(state, combat["defenders"], sums)
        names = ", ".join(state["figures"][a]["name"] for a in combat["attackers"])
        dnames = ", ".join(state["figures"][d]["name"] for d in combat["defenders"])
        if horse:
            dnames = f"horse {horse}"
        roll = dice.roll(f"melee {names} vs {dnames}", events, sides=10)
        letter = melee.table_letter(sums["column"], roll, sums["mounted"])
        meaning = data.results()[letter]["title"] if letter != "-" else "no effect"
        text = f"{names} attack {dnames}: {sums['text']}; d10 {roll} -> {letter if letter != '-' else 'no result'}: {meaning}"
        events.append(
            {
                "type": "melee",
                "attackers": combat["attackers"],
                "defenders": combat["defenders"],
                "roll": roll,
                "letter": letter,
                "meaning": meaning,
                "text": text,
                **{
                    k: sums[k]
                    for k in ("attack", "defence", "odds", "base_column", "shifts", "column")
                },
                **({"horse": horse} if horse else {}),
            }
        )
        if letter == "-":
            return
        if panic.ignores(state, combat["defenders"], letter):
            events.append({"type": "result_ignored", "letter": letter, "why": "panic"})
            return
        spec = data.results()[letter]
        if horse and spec["side"] != "attacker":
            riders.horse_hit(self, state, horse, letter, combat, events)
            return
        hit_side = "attackers" if spec["side"] == "attacker" else "defenders"
        group = [fid for fid in combat[hit_side] if not state["figures"][fid]["dead"]]
        combat["letter"] = letter
        if spec["effect"] == "retreat":
            state["retreat"] = {"queue": list(group), "combat": combat}
            self._continue_retreat(state, events)
        elif len(group) > 1:
            owner = state["figures"][group[0]]["side"]
            state["choice"] = {
                "side": owner,
                "effect": spec["effect"],
                "letter": letter,
                "among": group,
                "combat": combat,
            }
            state["awaiting"] = [owner]
            events.append(
                {"type": "choose_casualty", "side": owner, "among": group, "effect": spec["effect"]}
            )
        elif group:
            self._hit(state, group[0], spec["effect"], letter, events)
            self._after_result(state, combat, events)

    def _hit(self, state, fid, effect, letter, events):
        f = state["figures"][fid]
        outcome = figures.apply_effect(f, effect, state["half"])
        events.append(
            {
                "type": "figure_hit",
                "unit": fid,
                "effect": effect,
                "letter": letter,
                "outcome": outcome,
                "at": f["at"],
            }
        )
        riders.throw(self, state, fid, events)

    def _retreat_options(self, state, fid) -> list[str]:
        """1.72: where a figure of the losing group may retreat, one cell.

        Our reading (illegible passage, Cry Havoc convention): a free cell it could enter, next
        to no enemy if there is such a cell; its owner chooses. None: it cannot retreat."""
        board = self.board(state)
        f = state["figures"][fid]
        living = self._living_at(state)
        enemy_cells = [
            o["at"] for o in state["figures"].values() if not o["dead"] and o["side"] != f["side"]
        ]
        dead = self._dead_count(state)
        tower_of = tower.cells_of(state)
        if f.get("horse"):
            front = riders.cells_of(state, f)[0]
            # 5.23: "nicht möglich, sich über eine Schirmfeldseite zurückzuziehen", mounted too.
            return [
                c
                for c in riders.retreat_options(self, state, fid)
                if not shield.across(state, front, c)
            ]
        if f["at"] in tower_of:
            # Our reading: in a siege tower a figure retreats along its own level of the tower.
            taken = {cell for cell, lay in self._positions(state) if lay == tower.layer(f)}
            free = [
                cell
                for cell in sorted(board.neighbours(f["at"]))
                if tower_of.get(cell) == tower_of[f["at"]] and cell not in taken
            ]
        else:
            free = [
                cell
                for cell in sorted(board.neighbours(f["at"]))
                if cell not in living
                and cell not in tower_of
                and cell not in engines.cells(state)
                and not shield.across(state, f["at"], cell)
                and cell not in fire.fires(state)
                and cell not in riders.occupied_cells(state)
                and movement.enter_cost(board, f["at"], cell, dead.get(cell, 0), state["bridge_up"])
                < movement.UNREACHABLE
            ]
        safe = [c for c in free if all(board.distance(c, e) > 1 for e in enemy_cells)]
        return safe or free

    def _continue_retreat(self, state, events):
        """Retreat the losing group figure by figure; stop for the owner's choice when a
        figure has several cells to go to. A figure that cannot retreat is stunned instead."""
        pending = state["retreat"]
        while pending["queue"]:
            fid = pending["queue"][0]
            f = state["figures"][fid]
            options = self._retreat_options(state, fid) if not f["dead"] else []
            if len(options) > 1:
                state["awaiting"] = [f["side"]]
                events.append(
                    {"type": "choose_retreat", "side": f["side"], "unit": fid, "options": options}
                )
                return
            pending["queue"].pop(0)
            if f["dead"]:
                continue
            if options:
                self._retreat_to(state, fid, options[0], events)
            else:
                outcome = figures.apply_effect(f, "stun", state["half"])
                events.append(
                    {"type": "cannot_retreat", "unit": fid, "at": f["at"], "outcome": outcome}
                )
                riders.throw(self, state, fid, events)
        state["retreat"] = None
        self._after_result(state, pending["combat"], events)

    def _retreat_to(self, state, fid, cell, events):
        if state["figures"][fid].get("horse"):
            riders.retreat_to(state, fid, cell, events)
            return
        f = state["figures"][fid]
        events.append({"type": "retreated", "unit": fid, "from": f["at"], "to": cell})
        f["at"] = cell

    def _after_result(self, state, combat, events):
        """1.73: after a retreat or a death the winner may advance one participant."""
        state["awaiting"] = [state["landing"]["side"] if state.get("landing") else state["active"]]
        letter = combat["letter"]
        spec = data.results()[letter]
        losers = "attackers" if spec["side"] == "attacker" else "defenders"
        winners = "defenders" if losers == "attackers" else "attackers"
        freed = []
        layers = combat.get("layers", {})
        for fid in combat[losers]:
            f = state["figures"][fid]
            old = combat["cells"][fid]
            if f["dead"] or f["at"] != old:
                freed.append(old + ("+top" if layers.get(fid) == tower.TOP else ""))
        occupied = {
            cell + ("+top" if lay == tower.TOP else "") for cell, lay in self._positions(state)
        }
        occupied |= set(riders.occupied_cells(state))
        burning = fire.fires(state)
        freed = [c for c in freed if c not in occupied and c.partition("+")[0] not in burning]
        able = [fid for fid in combat[winners] if figures.can_act(state["figures"][fid])]
        if not freed or not able:
            return
        side = state["figures"][able[0]]["side"]
        state["advance"] = {"side": side, "figures": able, "cells": freed}
        if not self._advance_actions(state, side):
            state["advance"] = None
            return
        # A thrown rider's owner places him first (3.35); the advance waits for that.
        state["awaiting"] = [state["landing"]["side"] if state.get("landing") else side]
        events.append({"type": "may_advance", "side": side, "figures": able, "cells": freed})

    def _close_advance(self, state):
        state["advance"] = None
        state["awaiting"] = [state["active"]]

    def _start_assault(self, state, events):
        state["to_place"] = {"filled_moat": 0, "breaches": 0, "towers": []}
        state["phase"] = PHASES[0]
        state["active"] = state["order"][0]
        state["awaiting"] = [state["active"]]
        events.append({"type": "phase_started", "phase": state["phase"], "side": state["active"]})

    def _end_step(self, state, events, dice):
        if state["phase"] == "prepare":
            self._start_assault(state, events)
            return
        if state["phase"] == "melee":
            engines.end_of_phase(state, events)
            # 1.21 step 5: own figures stunned before this phase recover.
            for fid, f in sorted(state["figures"].items()):
                if (
                    f["side"] == state["active"]
                    and f["stunned"]
                    and not f["dead"]
                    and f["stunned_half"] < state["half"]
                ):
                    f["stunned"] = False
                    events.append({"type": "recovered", "unit": fid, "at": f["at"]})
            if fire.fires(state):
                fire.spread(state, self.board(state), state["active"], dice, events)
        state["done"] = []
        state["attacked"] = []
        state["spent"] = {}

        def on_enter(st, phase, evs):
            if phase == "fire1":
                st["half"] += 1
                st["crossbow_shot"] = []
                st["acted"] = []
                st["tower_moved"] = []
                st["shot"] = []
                if st.get("kindling"):
                    fire.resolve_kindling(st, self.board(st), st["active"], evs)
                riders.new_phase(st)

        def on_round_end(st, evs):
            self._turn_winch(st, evs)
            for fid, cell in fire.round_end(st, self.board(st), evs):
                self._land(st, fid, cell, cell, evs)  # off a siege tower that burnt down
                st["figures"][fid].pop("layer", None)

        events += _cycle(state).advance(state, on_enter=on_enter, on_round_end=on_round_end)
        if state.get("landing") and state["awaiting"]:
            state["awaiting"] = [state["landing"]["side"]]

    def _push(self, state, action, dice, events):
        """1.94: 1-6 on a d10 pushes the ladder over; a figure on it falls.

        Our reading of the garbled passage: the falling figure's owner places it on a cell next
        to the ladder that is not a parapet, or on the fallen ladder (its own cell). 1.62 and
        1.94 allow it to land on another figure ("Die gestürzte Figur kann so also auf eine
        andere Figur ... gesetzt werden"), which is then stunned: the one exception to one
        living figure per cell on the ground. The faller suffers a fall (stunned; dead if
        already stunned or wounded)."""
        fid, lid = action["unit"], action["ladder"]
        lad = state["ladders"][lid]
        board = self.board(state)
        state["done"].append(fid)
        state["acted"].append(fid)
        roll = dice.roll(
            f"{state['figures'][fid]['name']} pushes at ladder {lid}", events, sides=10
        )
        over = roll <= 6
        events.append(
            {
                "type": "ladder_push",
                "unit": fid,
                "ladder": lid,
                "roll": roll,
                "over": over,
                "at": lad["at"],
                "text": f"d10 {roll}: {'pushed over (1-6)' if over else 'stays (7-10)'}",
            }
        )
        if not over:
            return
        living = self._living_at(state)
        climber = living.get(lad["at"])
        lad["raised"] = False
        if climber is None:
            return
        towers = tower.cells_of(state)
        places = [
            c
            for c in sorted(board.neighbours(lad["at"]))
            if board.cell(c).kind != "parapet"
            and board.cell(c).cost is not None
            and not board.cell(c).inside
            and c not in towers
            and c not in engines.cells(state)
        ]
        self._fall(state, climber, lad["at"], sorted(places + [lad["at"]]), events)

    def _fall(self, state, fid, origin, options, events):
        """A figure falls (1.8 from the bridge, 1.94 from a ladder): its owner chooses where it
        lands among ``options``; with one option it lands there at once, with none it dies."""
        falling = state["figures"][fid]
        if not options:
            outcome = figures.apply_effect(falling, "kill", state["half"])
            events.append(
                {
                    "type": "fell",
                    "unit": fid,
                    "from": origin,
                    "to": falling["at"],
                    "outcome": outcome,
                }
            )
            return
        if len(options) == 1:
            self._land(state, fid, origin, options[0], events)
            return
        state["landing"] = {
            "side": falling["side"],
            "unit": fid,
            "from": origin,
            "options": list(options),
        }
        state["awaiting"] = [falling["side"]]
        events.append(
            {
                "type": "choose_landing",
                "side": falling["side"],
                "unit": fid,
                "options": list(options),
            }
        )

    def _land(self, state, fid, origin, cell, events):
        """The fall itself: stunned, or dead if already stunned or wounded; landing on a figure
        stuns that one (1.94)."""
        under = self._living_at(state).get(cell)
        falling = state["figures"][fid]
        falling["at"] = cell
        outcome = figures.apply_effect(falling, "fall", state["half"])
        events.append({"type": "fell", "unit": fid, "from": origin, "to": cell, "outcome": outcome})
        # 1.94, garbled: "... keine Auswirkung, wenn sie eventuell auf Figuren fallen"; our
        # reading: a figure killed by its fall does not stun the figure it lands on.
        if under and under != fid and not falling["dead"]:
            hit = figures.apply_effect(state["figures"][under], "stun", state["half"])
            events.append(
                {
                    "type": "figure_hit",
                    "unit": under,
                    "effect": "stun",
                    "letter": "-",
                    "outcome": hit,
                    "at": cell,
                }
            )

    def _turn_winch(self, state, events):
        """1.8: at the end of the round the bridge moves if its winch was worked all round.

        Our reading: the work fails if the figure is no longer on the winch, stunned or dead.
        A figure on the rising bridge falls into an adjacent free moat cell its owner chooses,
        stunned, or dies if it was already stunned or wounded; with no free moat cell beside it,
        it dies.
        """
        winch = state.get("winch")
        if not winch:
            return
        state["winch"] = None
        f = state["figures"][winch["unit"]]
        if f["dead"] or f["stunned"] or f["at"] != winch["at"]:
            events.append({"type": "winch_failed", "unit": winch["unit"]})
            return
        board = self.board(state)
        raising = not state["bridge_up"]
        state["bridge_up"] = raising
        events.append(
            {"type": "bridge_raised" if raising else "bridge_lowered", "by": winch["unit"]}
        )
        if not raising:
            return
        living = self._living_at(state)
        for cell in board.drawbridge.get("cells", []):
            fid = living.get(cell)
            if fid is None:
                continue
            free = [
                c
                for c in sorted(board.neighbours(cell))
                if board.cell(c).kind == "moat"
                and c not in living
                and c not in board.drawbridge.get("cells", [])
            ]
            self._fall(state, fid, cell, free, events)

    def _check_victory(self, state, events):
        if state.get("result"):
            return
        board = self.board(state)
        alive = {
            s: [f for f in state["figures"].values() if f["side"] == s and not f["dead"]]
            for s in SIDES
        }
        for side in SIDES:
            if not alive[side]:
                other = next(s for s in SIDES if s != side)
                # Optional rule panic: figures that fled off the map never come back.
                fled = any(f.get("off_map") for f in state["figures"].values() if f["side"] == side)
                gone = "dead or fled off the map" if fled else "dead"
                state["result"] = {
                    "winner": other,
                    "reason": f"every {TITLES[side].lower()[:-1]} figure is {gone}",
                }
        keeper = state["victory"]["keep_taken_by"]
        if not state.get("result"):
            for f in alive[keeper]:
                if board.cell(f["at"]).kind == "keep" and not f["stunned"]:
                    state["result"] = {
                        "winner": keeper,
                        "reason": f"{f['name']} stands in the keep",
                    }
                    break
        if not state.get("result") and fire.burn_won(state):
            burner = state["victory"]["burn"]["by"]
            state["result"] = {"winner": burner, "reason": fire.burn_won(state)}
        if not state.get("result") and state.get("turn_limit_reached"):
            other = next(s for s in SIDES if s != keeper)
            held = f"{state['last_turn']} rounds"
            if state.get("days", 1) > 1:
                held = f"{state['days']} days ({held})"
            state["result"] = {"winner": other, "reason": f"held out for {held}"}
        if state.get("result"):
            state["awaiting"] = []
            events.append({"type": "game_over", **state["result"]})

    # ----- presentation --------------------------------------------------------------------
    def term(self, text, lang):
        if lang == "de":
            return refusals.german_word(text, self.translations["de"])
        return super().term(text, lang)

    def describe(self, state, key, value):
        return present.describe(self, state, key, value)

    def label(self, state, key, value, lang="en"):
        return present.label(self, state, key, value, lang)

    def describe_event(self, state, event):
        return present.describe_event(state, event)

    def narrate(self, state, event, lang="en"):
        return present.describe_event(state, event, lang)

    def roll_purpose(self, state, event, lang="en"):
        purpose = str(event.get("purpose", "die"))
        return present.roll_purpose_de(purpose) if lang == "de" else purpose

    def result_reason(self, state, lang="en"):
        reason = str((state.get("result") or {}).get("reason") or "")
        return present.reason_de(reason) if lang == "de" else reason

    def header(self, state):
        return present.header(self, state)

    def unit_facts(self, state, unit, lang="en"):
        return present.unit_facts(self, state, unit, lang)

    def cell_facts(self, state, cell, lang="en"):
        return present.cell_facts(self, state, cell, lang)

    def localised_header(self, state, lang="en"):
        return present.localised_header(self, state, lang)

    def scene(self, state, events, viewer, lang="en"):
        return present.scene(self, state, events, viewer, lang)

    def rules_summary(self, locale: str = "en") -> str:
        return present.rules_summary(locale)
