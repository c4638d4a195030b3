"""Turn order and phases as data a ruleset configures, instead of hand-written per game.

A :class:`TurnCycle` knows the phases of one player-turn, the order in which sides take their
player-turns within a game turn (fixed, or read from ``state["order"]`` when a ruleset rolls
initiative each round), and which phases the *other* side acts in (defensive fire).
It only moves the markers ``turn``/``phase``/``active``/``awaiting`` and reports events;
what happens on entering a phase (drawing a card, scoring) is the ruleset's, via ``on_enter``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TurnCycle:
    phases: tuple[str, ...]
    sides: tuple[str, ...]
    reactive_phases: frozenset[str] = field(default_factory=frozenset)
    last_turn: int | None = None  # the game ends after this turn (None: no limit)

    def order(self, state: dict) -> list[str]:
        return list(state.get("order") or self.sides)

    def other(self, state: dict, side: str) -> str:
        others = [s for s in self.sides if s != side]
        return others[0]

    def actor(self, state: dict) -> str:
        if state["phase"] in self.reactive_phases:
            return self.other(state, state["active"])
        return state["active"]

    def start(self, state: dict) -> list[dict]:
        state["turn"] = 1
        state["active"] = self.order(state)[0]
        state["phase"] = self.phases[0]
        state["awaiting"] = [self.actor(state)]
        return [
            {"type": "turn_started", "turn": 1, "side": state["active"]},
            {"type": "phase_started", "phase": state["phase"], "side": state["active"]},
        ]

    def advance(
        self,
        state: dict,
        on_enter: Callable[[dict, str, list], None] | None = None,
        on_round_end: Callable[[dict, list], None] | None = None,
    ) -> list[dict]:
        """Move to the next phase (and side, and turn). Mutates ``state``; returns events.

        ``on_round_end(state, events)`` runs when every side has had its player-turn, before
        the turn number increases (scoring, re-rolling initiative into ``state["order"]``).
        If ``last_turn`` has passed, sets ``state["turn_limit_reached"] = True`` and stops.
        """
        events: list[dict] = []
        index = self.phases.index(state["phase"])
        if index + 1 < len(self.phases):
            state["phase"] = self.phases[index + 1]
        else:
            order = self.order(state)
            position = order.index(state["active"])
            if position + 1 < len(order):
                state["active"] = order[position + 1]
            else:
                if on_round_end:
                    on_round_end(state, events)
                if self.last_turn is not None and state["turn"] >= self.last_turn:
                    state["turn_limit_reached"] = True
                    state["awaiting"] = []
                    events.append({"type": "turn_limit", "turn": state["turn"]})
                    return events
                state["turn"] += 1
                state["active"] = self.order(state)[0]
                events.append(
                    {"type": "turn_started", "turn": state["turn"], "side": state["active"]}
                )
            state["phase"] = self.phases[0]
            events.append({"type": "side_started", "side": state["active"], "turn": state["turn"]})
        state["awaiting"] = [self.actor(state)]
        events.append({"type": "phase_started", "phase": state["phase"], "side": state["active"]})
        if on_enter:
            on_enter(state, state["phase"], events)
        return events
