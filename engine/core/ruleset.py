"""The contract every game implements. The service, local table, bot and renderer use only this.

A ruleset is a subclass of :class:`Ruleset` registered in :mod:`engine.registry`.

Actions are flat dicts of strings: ``{"type": "move", "side": "spanish", "unit": "sp-cav-2",
"to": "0507"}``. ``type`` is the command name as typed (``/move`` -> ``"move"``,
``/end-phase`` -> ``"end-phase"``); every other key is a command option and every value is a
string, so an action parsed from ``/move unit:sp-cav-2 to:0507`` compares equal to the one
``legal_actions`` offered.

Agreement law (property-tested for every ruleset): every action in ``legal_actions(state, side)``
applies without error, and ``apply`` refuses every action not in that list with a
:class:`~engine.core.errors.RuleError` saying why. The usual way to get this for free is to write
one ``check(state, action)`` that raises ``RuleError`` and have ``legal_actions`` filter
generated candidates through it.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

from .dice import Dice
from .errors import HINTS_SHOWN, Hints, NotYourTurn, OptionalRuleError, RuleError, ScenarioError


@dataclass(frozen=True)
class Option:
    """One option of a command. ``kind`` tells front ends how to present it:

    ``unit`` (an own unit id), ``target`` (an enemy unit id), ``hex`` (a cell label such as
    ``0507`` or a square such as ``C4``), ``card``, ``choice`` (a fixed word), ``number``, ``text``.
    """

    name: str
    kind: str
    description: str
    required: bool = True


@dataclass(frozen=True)
class Command:
    name: str
    description: str
    options: tuple[Option, ...] = ()
    # Translations of the description, by Discord locale ("de").
    description_i18n: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """A query's answer: text for the player and, optionally, a scene to draw with it."""

    text: str
    scene: dict | None = None


@dataclass(frozen=True)
class OptionalRule:
    """A rule a group may switch on for one game (the rulebook's "Wahlregeln"); off unless
    ``default``. Switched on in a scenario file (``"options": {"panic": true}``), at
    ``/game new rules:`` or with ``--option`` on the local table; stored with the game's
    scenario, so replay and verify see the same rules."""

    name: str
    title: str
    description: str
    default: bool = False


# ``/game new rules:`` text is capped before it is split (a handful of short names fit).
MAX_OPTIONAL_RULES_TEXT = 200
# ``no-aiming`` switches off a rule the scenario plays with.
OFF = "no-"


def check_scenario_options(
    declared: tuple[OptionalRule, ...], raw: object, file: str
) -> dict[str, bool]:
    """A scenario file's ``options``: an object of declared rule names to true/false."""
    known = {r.name for r in declared}
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and isinstance(v, bool) for k, v in raw.items()
    ):
        raise ScenarioError(file, "options", "must be an object: optional rule name -> true/false")
    unknown = sorted(set(raw) - known)
    if unknown:
        names = ", ".join(sorted(known)) or "none"
        raise ScenarioError(
            file, f"options.{unknown[0]}", f"no such optional rule; this game has: {names}"
        )
    return {r.name: bool(raw.get(r.name, r.default)) for r in declared}


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    description: str


# ``/info``: every game answers it (engine/core/info.py), so it is not among a ruleset's own
# ``queries`` but added by ``all_queries``.
INFO = Command(
    "info",
    "Explain one unit or one cell",
    (
        Option("unit", "unit", "A unit on the board", required=False),
        Option("cell", "hex", "A cell, e.g. 0507 or C4", required=False),
    ),
    {"de": "Eine Einheit oder ein Feld erklären"},
)


class Ruleset(abc.ABC):
    name: str = ""  # "tenochtitlan"
    title: str = ""  # "Siege of Tenochtitlan"
    sides: tuple[str, ...] = ()  # ("spanish", "aztec")
    side_titles: dict[str, str] = {}
    commands: tuple[Command, ...] = ()
    default_scenario: str = ""
    # The phases a referee may set with ``ref-phase``; a game that declares none refuses it.
    phases: tuple[str, ...] = ()
    # Phases in which a side places its forces (or builds the map) before play, and the action
    # types that do it: ``/auto-setup`` repeats random ones of these (see ``setup_actions``).
    setup_phases: tuple[str, ...] = ()
    setup_action_types: tuple[str, ...] = ("place", "deploy")
    # Read-only questions any player may ask at any time (SIEGE's ``/los from: to:``). Declared
    # like commands so every front end offers them without game code; answered by
    # ``answer_query``; they change nothing and never enter the action log.
    queries: tuple[Command, ...] = ()
    # Per language: the game's own words (side and phase names, header fields, values such as
    # "Setup") and its refusal templates (keys "<name>.<what>", see RuleError) for a reader of
    # that language. English needs none: it is what the engine writes.
    translations: dict[str, dict[str, str]] = {}
    # Optional rules a group may switch on per game (see OptionalRule); none by default.
    optional_rules: tuple[OptionalRule, ...] = ()

    # ----- optional rules ------------------------------------------------------------------
    def optional_rule_names(self, text: str) -> list[str]:
        """The optional rules named in ``text`` ("panic, aiming"), each checked against the
        declared ones; raises :class:`OptionalRuleError` for a name this game does not have."""
        known = [r.name for r in self.optional_rules]
        if len(text) > MAX_OPTIONAL_RULES_TEXT:
            raise OptionalRuleError(text[:40] + "…", known, too_long=True)
        names: list[str] = []
        for word in text.replace(",", " ").split():
            name = word.strip().lower()
            if name.removeprefix(OFF) not in known:
                raise OptionalRuleError(word[:40], known)
            if name not in names:
                names.append(name)
        return names

    def with_optional_rules(self, scenario: dict, names: list[str]) -> dict:
        """The validated scenario with ``names`` switched on, and ``no-<name>`` switched off:
        a scenario may play with a rule on, and a group may still leave it out (kept in the
        scenario, so the stored scenario sets up the same game on replay)."""
        if not names:
            return scenario
        known = {r.name for r in self.optional_rules}
        options = dict(scenario.get("options") or {})
        for name in names:
            rule = name.removeprefix(OFF)
            if rule not in known:
                raise OptionalRuleError(name[:40], sorted(known))
            options[rule] = not name.startswith(OFF)
        return {**scenario, "options": options}

    def options_in(self, scenario: dict) -> dict[str, bool]:
        """Every declared optional rule, on or off, for a validated scenario (for ``setup``)."""
        chosen = scenario.get("options") or {}
        return {r.name: bool(chosen.get(r.name, r.default)) for r in self.optional_rules}

    def optional_rules_on(self, state: dict) -> list[OptionalRule]:
        """The optional rules this game plays with (``state["options"]``)."""
        options = state.get("options") or {}
        return [r for r in self.optional_rules if options.get(r.name)]

    # ----- setup -------------------------------------------------------------------------
    @abc.abstractmethod
    def scenarios(self) -> list[Scenario]:
        """The packaged scenarios of this game."""

    @abc.abstractmethod
    def load_scenario(self, name: str) -> dict:
        """Read and validate the packaged scenario ``name`` (one of ``scenarios()``).

        Raises :class:`~engine.core.errors.ScenarioError` naming file, entry and problem.
        This is the one place a ruleset reads files (its own data); the result is plain data.
        Callers outside the engine use :meth:`load_packaged`, which checks the name first.
        """

    # Scenario documents from outside the package. The three ways in are separate methods so
    # that whether a text is a name, a document or a path is decided by the caller's code, never
    # by the text: Discord has only load_packaged and load_document, the local table also
    # load_path.
    def packaged_names(self) -> list[str]:
        return [s.name for s in self.scenarios()]

    def load_packaged(self, name: str) -> dict:
        """A packaged scenario by name; any other text (a path, ``../x``, a long string) is
        refused before it is used for anything."""
        from .scenario_io import check_name

        name = name or self.default_scenario
        return self.load_scenario(check_name(name, self.packaged_names(), self.title or self.name))

    def load_document(self, data: bytes | str, label: str) -> dict:
        """A scenario file's content (e.g. attached in Discord): UTF-8 JSON, size- and
        depth-capped, checked against the game's schema, then for meaning."""
        from .scenario_io import parse_document

        return self.scenario_from_document(parse_document(data, label), label)

    def load_path(self, path: str) -> dict:
        """A scenario file on this machine, for the local table only: a regular file, capped
        in size before it is read."""
        from .scenario_io import read_path

        return self.load_document(read_path(path), str(path))

    def scenario_from_document(self, document: dict, label: str) -> dict:
        """Validate a parsed scenario document. Games that accept scenario files override this
        (schema first, then meaning checks); by default a game takes packaged scenarios only."""
        raise ScenarioError(
            label, "file", f"{self.title or self.name} takes packaged scenarios only"
        )

    @abc.abstractmethod
    def setup(self, scenario: dict, dice: Dice) -> tuple[dict, list[dict]]:
        """The initial state (and events, e.g. decks shuffled) for a validated scenario."""

    # ----- play ----------------------------------------------------------------------------
    def awaiting(self, state: dict) -> list[str]:
        """Sides the game waits for now (empty when the game is over)."""
        if state.get("result"):
            return []
        return list(state.get("awaiting") or [state["active"]])

    @abc.abstractmethod
    def legal_actions(self, state: dict, side: str) -> list[dict]:
        """Every action ``side`` may take now, complete (also feeds autocomplete and autoplay)."""

    @abc.abstractmethod
    def apply(self, state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
        """Check and resolve one action. Returns a new state and the events it caused.

        Must not mutate ``state``. Raises ``RuleError`` (state unchanged) when illegal.
        Events are dicts with a ``type``; dice rolls are ``roll`` events made by ``dice.roll``.
        An event with ``"private": side`` is shown only to that side (drawn secret cards).
        """

    def result(self, state: dict) -> dict | None:
        return state.get("result")

    def ready_scenarios(self) -> list[Scenario]:
        """Packaged scenarios that start with every side already deployed (play begins at
        once), for pointing newcomers past setting up. Computed once per ruleset."""
        if self.name not in _READY:
            from .dice import seeded

            ready = []
            for scenario in self.scenarios():
                try:
                    state, _ = self.setup(self.load_scenario(scenario.name), seeded("ready", 0))
                except ScenarioError:  # reported where the scenario is loaded
                    continue
                if state.get("phase") not in self.setup_phases and not any(
                    self.setup_actions(state, side) for side in self.sides
                ):
                    ready.append(scenario)
            _READY[self.name] = ready
        return _READY[self.name]

    def needs_setting_up(self, scenario_state: dict) -> bool:
        """Whether a game that starts in this state begins with setting up forces."""
        return scenario_state.get("phase") in self.setup_phases

    def setup_actions(self, state: dict, side: str) -> list[dict]:
        """The legal actions that place ``side``'s remaining forces now, for ``/auto-setup``;
        empty once setting up is over. A game overrides this when its setup is not a phase."""
        if state.get("phase") not in self.setup_phases:
            return []
        return [
            a for a in self.legal_actions(state, side) if a.get("type") in self.setup_action_types
        ]

    def suggested_actions(self, state: dict, side: str) -> list[dict]:
        """The deployment the scenario suggests for ``side``, as the setup actions that make it
        (``/suggested`` takes them in order): from ``state["suggested"][side]``, a list of
        ``[unit, cell]``, placed with the first of ``setup_action_types``. Empty when the
        scenario suggests nothing or setting up is over."""
        if state.get("phase") not in self.setup_phases:
            return []
        pairs = (state.get("suggested") or {}).get(side) or []
        kind = self.setup_action_types[0]
        return [{"type": kind, "side": side, "unit": unit, "to": cell} for unit, cell in pairs]

    # ----- presentation (no rules are decided here) -----------------------------------------
    def view(self, state: dict, side: str | None) -> dict:
        """The state as ``side`` may see it (``None``: a spectator). Hides others' secrets.
        Readers only read a view: it may share its parts with ``state`` (here it is ``state``),
        so a caller that changes it clones it first."""
        return state

    def describe(self, state: dict, key: str, value: str) -> str:
        """A human label for an action option value ("Spanish Cavalry 2 at 0507")."""
        return value

    def describe_action(self, state: dict, action: dict) -> str:
        """One line for an action, used by autocomplete and the log."""
        return self.action_label(state, action, "en")

    def label(self, state: dict, key: str, value: str, lang: str = "en") -> str:
        """:meth:`describe` for a reader of ``lang`` (autocomplete, buttons). A game with
        labels in other languages overrides this; by default every reader gets ``describe``."""
        return self.describe(state, key, value)

    def action_label(self, state: dict, action: dict, lang: str = "en") -> str:
        """:meth:`describe_action` for a reader of ``lang``: the command, then each option's
        label."""
        parts = [f"/{action['type']}"]
        parts += [
            f"{k}:{self.label(state, k, v, lang) if lang != 'en' else self.describe(state, k, v)}"
            for k, v in action.items()
            if k not in ("type", "side")
        ]
        return " ".join(parts)

    def describe_choice(self, state: dict, action: dict, lang: str = "en") -> str | None:
        """A decision's choice as a plain sentence for a button ("+1 on your OFF die showing
        2"), or None to let the caller word it from the command and its options."""
        return None

    def describe_event(self, state: dict, event: dict) -> str | None:
        """One human line for an event, or None to leave it out of summaries."""
        return None

    def narrate(self, state: dict, event: dict, lang: str = "en") -> str | None:
        """:meth:`describe_event` for a reader of ``lang``. A game that tells its events in
        other languages overrides this; by default every reader gets the English line."""
        return self.describe_event(state, event)

    def result_reason(self, state: dict, lang: str = "en") -> str:
        """Why the game ended (``state["result"]["reason"]``, the engine's English) in
        ``lang`` where the game knows the words; a game with endings worded by numbers or
        names ("held out for 12 rounds") overrides this."""
        reason = str((state.get("result") or {}).get("reason") or "")
        return reason if lang == "en" else self.term(reason, lang)

    def roll_purpose(self, state: dict, event: dict, lang: str = "en") -> str:
        """What a die (a ``roll`` event) was rolled for, in ``lang`` where the game says so."""
        return str(event.get("purpose", "die"))

    def header(self, state: dict) -> dict[str, str]:
        """Ordered facts for the turn post and the picture: Turn, Phase, Active, Card, ..."""
        return {
            "Turn": str(state.get("turn")),
            "Phase": str(state.get("phase")),
            "Active": self.side_titles.get(str(state.get("active")), str(state.get("active"))),
        }

    @abc.abstractmethod
    def scene(self, state: dict, events: list[dict], viewer: str | None, lang: str = "en") -> dict:
        """What the renderer draws; see :mod:`renderer.scene` for the format. Every word the
        picture shows is in ``lang`` ("en" or "de") where the ruleset knows it; a ruleset
        that does not translate its picture accepts the keyword and draws English."""

    @abc.abstractmethod
    def rules_summary(self, locale: str = "en") -> str:
        """A short Markdown summary of the rules for ``/game rules``."""

    def all_queries(self) -> tuple[Command, ...]:
        """The questions front ends offer: the game's own ``queries`` and ``/info``."""
        if any(q.name == INFO.name for q in self.queries):
            return self.queries
        return (*self.queries, INFO)

    def rules_reference(
        self, lang: str = "en", state: dict | None = None
    ) -> list[tuple[str, list[str]]]:
        """The game's units (their numbers and abilities) and terrain (its effects) for the
        rules summary, drawn from its data so the two never disagree: (heading, lines) pairs.
        ``state``: a game in progress, for scenarios that bring their own units or map."""
        return []

    def query(
        self,
        state: dict,
        viewer: str | None,
        name: str,
        options: dict[str, str],
        lang: str = "en",
    ) -> Answer:
        """Check a query against its declaration, then answer it. ``state`` is what ``viewer``
        may see (``view``), so an answer can never leak a secret. ``lang``: the reader's
        language, for the answers that have words in it (``/info``)."""
        declared = next((q for q in self.all_queries() if q.name == name), None)
        if declared is None:
            raise RuleError(
                f"{self.title or self.name} has no /{name}.",
                ["/" + q.name for q in self.all_queries()],
            )
        known = {o.name for o in declared.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RuleError(
                f"/{name} takes no option {unknown[0]!r}.", [o.name + ":" for o in declared.options]
            )
        missing = [o.name for o in declared.options if o.required and not options.get(o.name)]
        if missing:
            raise RuleError(
                f"/{name} needs {missing[0]}:.",
                [o.name + ": " + o.description for o in declared.options],
            )
        if declared is INFO:
            from . import info

            return Answer(info.answer(self, state, viewer, options, lang))
        return self.answer_query(state, viewer, name, options)

    # ----- /info: one unit or one cell explained (engine/core/info.py) ----------------------
    def unit_side(self, state: dict, unit: str) -> str | None:
        """The side a unit on the board belongs to (None: the game does not say)."""
        from . import info

        return info.unit_side(state, unit)

    def unit_facts(self, state: dict, unit: str, lang: str = "en") -> list[str]:
        """Lines a game adds about one of its units in ``state`` (what the viewer may see):
        its type's numbers, abilities, state. Nothing by default."""
        return []

    def cell_facts(self, state: dict, cell: str, lang: str = "en") -> list[str]:
        """Lines a game adds about one cell: its terrain and what that does. Nothing by
        default."""
        return []

    def info_choices(
        self, state: dict, viewer: str | None, option: str, current: str, lang: str = "en"
    ) -> list[tuple[str, str]]:
        """Autocomplete for ``/info``'s ``unit`` or ``cell``: (value, label) pairs, labelled
        for a reader of ``lang``."""
        from . import info

        return info.choices(self, state, viewer, option, current, lang=lang)

    def answer_query(
        self, state: dict, viewer: str | None, name: str, options: dict[str, str]
    ) -> Answer:
        """Answer a declared query (options checked by ``query``); pure like ``apply``."""
        raise RuleError(f"{self.title or self.name} has no /{name}.")

    # ----- referee edits ------------------------------------------------------------------
    def referee_edit(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        """Apply a referee's correction (``/ref place``, ``/ref remove``, ``/ref phase``).

        Referee actions have ``side: "referee"`` and types ``ref-place`` (``unit``, ``to``),
        ``ref-remove`` (``unit``) and ``ref-phase`` (``phase``, optional ``value`` = active
        side). They go into the action log like any other action, so replay reproduces them.
        This default works for states keeping units in ``state["units"][id]["at"]``;
        rulesets with other layouts override it.
        """
        from .state import clone

        state = clone(state)
        kind = action["type"]
        found = state.get("units")
        if kind in ("ref-place", "ref-remove") and not isinstance(found, dict):
            raise RuleError("This game does not support placing or removing units by referee.")
        units: dict = found if isinstance(found, dict) else {}

        def no_such_unit() -> RuleError:
            return RuleError(
                f"No unit {action.get('unit')!r}.",
                sorted(units)[:20],
                key="no_unit",
                params={"unit": str(action.get("unit"))},
                domain=self.name,
            )

        if kind == "ref-place":
            unit = units.get(action.get("unit", ""))
            if unit is None:
                raise no_such_unit()
            old = unit.get("at")
            unit["at"] = action["to"]
            return state, [
                {
                    "type": "referee",
                    "what": "place",
                    "unit": action["unit"],
                    "from": old,
                    "to": action["to"],
                }
            ]
        if kind == "ref-remove":
            if action.get("unit") not in units:
                raise no_such_unit()
            removed = units.pop(action["unit"])
            state.setdefault("eliminated", [])
            if isinstance(state["eliminated"], list):
                state["eliminated"].append(action["unit"])
            return state, [
                {
                    "type": "referee",
                    "what": "remove",
                    "unit": action["unit"],
                    "from": removed.get("at"),
                }
            ]
        if kind == "ref-phase":
            self.check_referee_phase(action)
            state["phase"] = action["phase"]
            if action.get("value"):
                if action["value"] not in self.sides:
                    raise RuleError(f"Unknown side {action['value']!r}.", list(self.sides))
                state["active"] = action["value"]
            state["awaiting"] = [state["active"]]
            return state, [
                {
                    "type": "referee",
                    "what": "phase",
                    "phase": state["phase"],
                    "active": state["active"],
                }
            ]
        raise RuleError(
            f"Unknown referee action {kind!r}.", ["ref-place", "ref-remove", "ref-phase"]
        )

    def check_referee_phase(self, action: dict) -> None:
        """Refuse a ``ref-phase`` to a phase the game does not have (an empty or made-up one
        would leave a game where no action is legal or the next phase cannot be found)."""
        phase = action.get("phase")
        if not self.phases:
            raise RuleError(f"{self.title or self.name} has no phases a referee can set.")
        if not isinstance(phase, str) or phase not in self.phases:
            shown = phase if isinstance(phase, str) else ""
            what = f"Unknown phase {shown!r}." if shown else "Name the phase to set."
            raise RuleError(f"{what} The phases of {self.title or self.name}:", list(self.phases))

    # ----- helpers for subclasses ----------------------------------------------------------
    def require_turn(self, state: dict, action: dict) -> None:
        side = action.get("side")
        if state.get("result"):
            raise RuleError("The game is over.", key="game_over", domain=self.name)
        if side not in self.sides:
            raise RuleError(
                f"Unknown side {side!r}.",
                list(self.sides),
                key="unknown_side",
                params={"side": str(side)},
                domain=self.name,
            )
        waiting = self.awaiting(state)
        if side not in waiting:
            raise self.not_your_turn(side, waiting)

    def not_your_turn(self, side: str, waiting: list[str], cls: type = NotYourTurn) -> RuleError:
        names = ", ".join(self.side_titles.get(s, s) for s in waiting) or "nobody"
        from .names import possessive

        return cls(
            f"It is not {possessive(self.side_titles.get(side, side))} turn to act; "
            f"the game waits for {names}.",
            key="not_your_turn",
            params={
                "side": self.side_titles.get(side, side),
                "waiting": [self.side_titles.get(s, s) for s in waiting],
            },
            domain=self.name,
        )

    def refuse_unknown(self, state: dict, action: dict) -> None:
        """Raise the best explanation for an action that is not in the legal list."""
        legal = self.legal_actions(state, action.get("side", ""))
        same = [a for a in legal if a["type"] == action.get("type")]
        if not same:
            kinds = sorted({"/" + a["type"] for a in legal})
            raise RuleError(
                f"/{action.get('type')} is not possible now.",
                kinds,
                key="not_possible_now",
                params={"command": str(action.get("type"))},
                domain=self.name,
            )
        self.refuse_value(state, action, same)
        raise RuleError(
            f"That /{action['type']} is not legal now.",
            self.legal_hints(state, same),
            key="not_legal_now",
            params={"command": str(action["type"])},
            domain=self.name,
        )

    def legal_hints(self, state: dict, actions: list[dict]) -> Hints:
        """What a refusal offers instead: each action's label in English and, for the readers
        of every other language this game speaks, the labels shown in theirs (a refusal shows
        only the first few; the rest are counted from the English list)."""
        english = [self.describe_action(state, a) for a in actions]
        localised = {
            lang: [self.action_label(state, a, lang) for a in actions[:HINTS_SHOWN]]
            for lang in self.translations
            if lang != "en"
        }
        return Hints(english, localised)

    def refuse_value(self, state: dict, action: dict, same: list[dict]) -> None:
        """Name the first typed value no legal action of the command takes, given the values
        before it, with the ones it could take ("/recruit cannot take at:0104 now; possible:
        0105, 0204"), instead of a bare "That /recruit is not legal now". An option no form of the
        command has is named as unknown ("/end-phase has no option foo")."""
        declared = next((c for c in self.commands if c.name == action.get("type")), None)
        known = {o.name for o in declared.options} if declared else set()
        known |= {k for a in same for k in a}
        unknown = sorted(k for k in action if k not in known and k not in ("type", "side"))
        if unknown:
            # a typo in an option's name is not a move the rules forbid: say which name is wrong
            raise RuleError(
                f"/{action['type']} has no option {', '.join(unknown)}.",
                self.legal_hints(state, same),
                key="no_option",
                params={"command": str(action["type"]), "option": ", ".join(unknown)},
                domain=self.name,
            )
        order = [o.name for o in declared.options] if declared else []
        keys = [k for k in order if k in action] + [
            k for k in action if k not in order and k not in ("type", "side")
        ]
        fitting = same
        for key in keys:
            typed = str(action[key])
            values = list(dict.fromkeys(str(a[key]) for a in fitting if key in a))
            if values and typed not in values:
                shown = values[:MAX_VALUES_NAMED]
                raise RuleError(
                    f"/{action['type']} cannot take {key}:{typed} now; possible: "
                    + ", ".join(shown)
                    + (" …" if len(values) > len(shown) else "")
                    + ".",
                    self.legal_hints(state, fitting),
                    key="not_legal_value",
                    params={
                        "command": str(action["type"]),
                        "option": key,
                        "value": typed,
                        "possible": shown,
                    },
                    domain=self.name,
                )
            fitting = [a for a in fitting if str(a.get(key)) == typed] or fitting

    # ----- a player's language (the engine's own words are English) ------------------------
    def term(self, text: str, lang: str) -> str:
        """``text`` (a side or phase name, a header field) in ``lang`` when this ruleset's
        ``translations`` know it; otherwise as it is."""
        return self.translations.get(lang, {}).get(text, text)

    def side_title(self, side: str | None, lang: str = "en") -> str:
        if side is None:
            return "—"
        return self.term(self.side_titles.get(side, side), lang)

    def localised_header(self, state: dict, lang: str = "en") -> dict[str, str]:
        """:meth:`header` for a reader of ``lang``: field names and whole values the
        translations know are translated; game data (a card's text) stays."""
        header = self.header(state)
        if lang == "en":
            return header
        return {self.term(key, lang): self.term(str(value), lang) for key, value in header.items()}


_READY: dict[str, list[Scenario]] = {}


MAX_VALUES_NAMED = 8  # values a refusal names for one option (the list of actions follows)


def find_legal(legal: list[dict], action: dict) -> dict | None:
    for candidate in legal:
        if candidate == action:
            return candidate
    return None


def jsonable(value: Any) -> bool:  # small guard used by tests
    import json

    try:
        json.dumps(value)
        return True
    except TypeError:
        return False
