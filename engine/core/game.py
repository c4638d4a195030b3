"""Driving a ruleset: checked application, replay of an action log, autoplay.

All pure. The seed is never part of the state: the server keeps it secret until the game ends,
and the dice of action *n* are ``seeded(seed, n)`` (see :mod:`engine.core.dice`).
Action index 0 is the setup; the first player action has index 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .dice import Dice, SeededSource, seeded
from .errors import RuleError
from .ruleset import Ruleset
from .state import state_hash

MAX_AUTOPLAY_ACTIONS = 50_000
AUTO_SETUP = "auto-setup"
# Takes the deployment a scenario suggests for the acting side (``Ruleset.suggested_actions``).
SUGGESTED = "suggested"
# Far above any army or map of the packaged games; stops a game whose setup never ends.
MAX_AUTO_SETUP_STEPS = 500


def apply_action(
    ruleset: Ruleset, state: dict, action: dict, dice: Dice
) -> tuple[dict, list[dict]]:
    """Apply one action through the ruleset with the checks every game shares."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError("An action needs a type.")
    for key, value in action.items():
        if not isinstance(value, str):
            raise RuleError(f"Option {key!r} must be text, not {type(value).__name__}.")
    if action.get("side") == "referee":
        if not action["type"].startswith("ref-"):
            raise RuleError(
                "A referee may only use referee actions (ref-place, ref-remove, ref-phase)."
            )
        edited, events = ruleset.referee_edit(state, action)
        if action["type"] == "ref-phase":
            _require_playable_phase(ruleset, state, edited, action)
        return edited, events
    ruleset.require_turn(state, action)
    if action["type"] == AUTO_SETUP:
        new_state, events = auto_setup(ruleset, state, action, dice)
    elif action["type"] == SUGGESTED and ruleset.suggested_actions(state, action["side"]):
        new_state, events = take_suggested(ruleset, state, action, dice)
    else:
        try:
            new_state, events = ruleset.apply(state, action, dice)
        except RuleError as refused:
            missing = _missing_option(ruleset, state, action, refused)
            if missing is not None:
                raise missing from None
            raise
    rolls_in_log = sum(1 for e in events if e.get("type") == "roll")
    visible_rolls = sum(1 for r in dice.rolled if not r.get("hidden"))
    if rolls_in_log != visible_rolls:
        raise AssertionError(
            f"{ruleset.name}: {visible_rolls} dice rolled but "
            f"{rolls_in_log} roll events emitted for {action}"
        )
    return new_state, events


def _missing_option(
    ruleset: Ruleset, state: dict, action: dict, refused: RuleError
) -> RuleError | None:
    """A refused command that lacks an option every legal command of its kind has, and whose
    refusal spoke of the missing value as 'None' or gave no reason at all, is refused for the
    missing option instead: "/move needs unit:…". A game's own reason for the gap is kept."""
    kind = action["type"]
    if "None" not in refused.message and not refused.message.startswith(f"That /{kind} is not"):
        return None
    command = next((c for c in ruleset.commands if c.name == kind), None)
    if command is None:
        return None
    try:
        same = [a for a in ruleset.legal_actions(state, action["side"]) if a["type"] == kind]
    except Exception:  # the original refusal stands when the position cannot list its actions
        return None
    for option in command.options:
        if option.name in action or not same or any(option.name not in a for a in same):
            continue
        missing = RuleError(
            f"/{kind} needs {option.name}:…",
            refused.legal,
            key="missing_option",
            params={"command": kind, "option": option.name},
            domain=ruleset.name,
        )
        missing.legal_in = refused.legal_in
        return missing
    return None


def auto_setup(ruleset: Ruleset, state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
    """``/auto-setup``: place the acting side's remaining forces legally at random, one legal
    setup action after another, while the game still waits for that side. The picks come from
    the action's own dice, so the log replays to the same placements."""
    side = action["side"]
    extra = sorted(set(action) - {"type", "side"})
    if extra:
        raise _no_options(ruleset, AUTO_SETUP, extra)
    events: list[dict] = []
    placed = 0
    for _ in range(MAX_AUTO_SETUP_STEPS):
        if side not in ruleset.awaiting(state):
            break
        choices = ruleset.setup_actions(state, side)
        if not choices:
            break
        pick = choices[dice.choose(len(choices), AUTO_SETUP)]
        state, more = ruleset.apply(state, pick, dice)
        events += more
        placed += 1
    if not placed:
        title = ruleset.side_titles.get(side, side)
        raise RuleError(
            f"{title} has nothing to place now (phase {state.get('phase')}): "
            f"/{AUTO_SETUP} places a side's units (or map tiles) before play.",
            key="auto_setup_nothing",
            params={"side": title, "phase": str(state.get("phase"))},
            domain=ruleset.name,
        )
    return state, events


def _no_options(ruleset: Ruleset, command: str, extra: list[str]) -> RuleError:
    return RuleError(
        f"/{command} takes no options; got {', '.join(extra)}.",
        key="takes_no_options",
        params={"command": command, "options": ", ".join(extra)},
        domain=ruleset.name,
    )


def take_suggested(
    ruleset: Ruleset, state: dict, action: dict, dice: Dice
) -> tuple[dict, list[dict]]:
    """``/suggested``: the scenario's suggested deployment for the acting side, placement after
    placement, each one checked by the rules as if typed. Placements already made are skipped;
    one the rules refuse refuses the whole command (nothing changes) with their reason."""
    side = action["side"]
    extra = sorted(set(action) - {"type", "side"})
    if extra:
        raise _no_options(ruleset, SUGGESTED, extra)
    events: list[dict] = []
    placed = 0
    for step in ruleset.suggested_actions(state, side):
        if side not in ruleset.awaiting(state):
            break
        legal = ruleset.legal_actions(state, side)
        if step not in legal:
            still_to_place = any(
                a.get("unit") == step.get("unit") for a in ruleset.setup_actions(state, side)
            )
            if not still_to_place:
                continue  # already placed (by hand or by an earlier /suggested)
            try:
                ruleset.apply(state, step, dice)
            except RuleError as refused:
                # A reader of another language gets the rules' own reason in it.
                raise RuleError(
                    f"The suggested deployment cannot be taken: {refused.message}",
                    key=refused.key,
                    params=refused.params,
                    domain=refused.domain,
                ) from None
            continue  # pragma: no cover - a legal step is in the legal list
        state, more = ruleset.apply(state, step, dice)
        events += more
        placed += 1
    if not placed:
        title = ruleset.side_titles.get(side, side)
        raise RuleError(
            f"{title} has nothing left to place as the scenario suggests.",
            key="suggested_nothing_left",
            params={"side": title},
            domain=ruleset.name,
        )
    return state, events


def _stuck(ruleset: Ruleset, state: dict) -> bool:
    """True when a game that is not over cannot go on: nobody is awaited, an awaited side has no
    legal action, or listing them fails because the phase lacks what it needs (e.g. a combat)."""
    if ruleset.result(state):
        return False
    try:
        waiting = ruleset.awaiting(state)
        return not waiting or any(not ruleset.legal_actions(state, side) for side in waiting)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError):
        return True


def _require_playable_phase(ruleset: Ruleset, before: dict, after: dict, action: dict) -> None:
    """A declared phase can still be the wrong one for the moment (a dice-bonus step with no
    combat under way, a setup step that is over): a referee's phase change that would leave no
    legal action is refused like an unknown phase, naming the phases that can be set now."""
    if not _stuck(ruleset, after):
        return
    usable = []
    for phase in ruleset.phases:
        if phase == action.get("phase"):
            continue
        try:
            trial, _ = ruleset.referee_edit(before, {**action, "phase": phase})
        except RuleError:
            continue
        if not _stuck(ruleset, trial):
            usable.append(phase)
    raise RuleError(
        f"Phase {action.get('phase')!r} cannot be set now: no action would be legal "
        "in it. Phases that can be set now:",
        usable,
    )


def new_game(ruleset: Ruleset, scenario: dict, seed: str | bytes | int) -> tuple[dict, list[dict]]:
    return ruleset.setup(scenario, seeded(seed, 0))


@dataclass
class Replay:
    states: list[dict] = field(default_factory=list)  # state after setup, then after each action
    events: list[list[dict]] = field(default_factory=list)


def replay(
    ruleset: Ruleset,
    scenario: dict,
    seed,
    actions: list[dict],
    keep_states: bool = False,
    dice_indices: list[int] | None = None,
) -> tuple[dict, Replay]:
    """Rebuild a game from its log. ``dice_indices[i]`` is the dice stream of ``actions[i]``
    (the store's never-reused ``seq``; after an undo it is not simply ``i + 1``)."""
    indices = dice_indices if dice_indices is not None else range(1, len(actions) + 1)
    if len(indices) != len(actions):
        raise ValueError("one dice index per action")
    state, events = new_game(ruleset, scenario, seed)
    log = Replay([state] if keep_states else [], [events])
    for index, action in zip(indices, actions):
        state, events = apply_action(ruleset, state, action, seeded(seed, index))
        if keep_states:
            log.states.append(state)
        log.events.append(events)
    return state, log


class _Chooser:
    """Picks autoplay moves from a stream separate from the game's dice."""

    def __init__(self, seed):
        self._source = SeededSource(f"autoplay:{seed}", 0)

    def pick(self, items: list):
        return items[self._source.draw(len(items)) - 1]


def autoplay(
    ruleset: Ruleset, scenario: dict, seed, max_actions: int = MAX_AUTOPLAY_ACTIONS, on_action=None
) -> tuple[dict, list[dict]]:
    """Play every side with random legal actions until the game ends.

    ``on_action(index, side, action, events, state)`` is called after each action.
    Returns the final state and the action log. Raises if the game does not end in time.
    """
    state, _ = new_game(ruleset, scenario, seed)
    chooser = _Chooser(seed)
    actions: list[dict] = []
    while not ruleset.result(state):
        if len(actions) >= max_actions:
            raise RuntimeError(f"{ruleset.name}: no result after {max_actions} actions")
        waiting = ruleset.awaiting(state)
        side = waiting[0]
        legal = ruleset.legal_actions(state, side)
        if not legal:
            raise RuntimeError(
                f"{ruleset.name}: {side} has no legal action in phase "
                f"{state.get('phase')} (hash {state_hash(state)[:12]})"
            )
        action = chooser.pick(legal)
        state, events = apply_action(ruleset, state, action, seeded(seed, len(actions) + 1))
        actions.append(action)
        if on_action:
            on_action(len(actions), side, action, events, state)
    return state, actions
