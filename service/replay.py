"""Rebuilding and auditing a stored game from its log (pure: no database, no clock).

The service logs two kinds of actions the rulesets do not know: ``resign`` and ``forfeit``
(a clock ran out). They end the game for the side named in the action; everything else goes
through :func:`engine.core.game.apply_action`. The dice of stored action ``seq`` are
``seeded(seed, seq)``, except for actions whose dice were typed in on the local table
(``dice_source = "fixed"``), which replay from the dice recorded with them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from engine.core.dice import Dice, fixed, seeded
from engine.core.errors import RuleError, UmpireError
from engine.core.game import apply_action, new_game
from engine.core.ruleset import Ruleset
from engine.core.state import canonical_json, clone, state_hash

SERVICE_ACTIONS = ("resign", "forfeit")
UNDO_BLOCKING_EVENTS = ("roll", "reveal", "shuffle")


def seed_hash(seed: str) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def end_by(ruleset: Ruleset, state: dict, action: dict) -> tuple[dict, list[dict]]:
    """A side resigns or loses on time; with two sides the other one wins."""
    side = action.get("side")
    if side not in ruleset.sides:
        raise RuleError(f"Unknown side {side!r}.", list(ruleset.sides))
    if ruleset.result(state):
        raise RuleError("The game is over.")
    others = [s for s in ruleset.sides if s != side]
    winner = others[0] if len(others) == 1 else None
    title = ruleset.side_titles.get(side, side)
    reason = f"{title} resigned" if action["type"] == "resign" else f"{title} ran out of time"
    state = clone(state)
    state["result"] = {"winner": winner, "reason": reason}
    state["awaiting"] = []
    return state, [{"type": action["type"], "side": side, "winner": winner, "reason": reason}]


def apply_logged(
    ruleset: Ruleset, state: dict, action: dict, dice: Dice
) -> tuple[dict, list[dict]]:
    if action.get("type") in SERVICE_ACTIONS and action.get("side") != "referee":
        return end_by(ruleset, state, action)
    return apply_action(ruleset, state, action, dice)


def dice_for(row: dict, seed: str) -> Dice:
    if row.get("dice_source") == "fixed":
        return fixed(json.loads(row["dice_json"]))
    return seeded(seed, row["seq"])


@dataclass
class Replayed:
    state: dict
    states: list[dict] = field(default_factory=list)  # after setup, then after each row
    events: list[list[dict]] = field(default_factory=list)  # setup events, then each row's


def replay_rows(
    ruleset: Ruleset, scenario: dict, seed: str, rows: list[dict], keep_states: bool = False
) -> Replayed:
    """Replay stored action rows (live ones, in ``seq`` order) from the setup."""
    state, events = new_game(ruleset, scenario, seed)
    out = Replayed(state, [state] if keep_states else [], [events] if keep_states else [])
    for row in rows:
        state, events = apply_logged(
            ruleset, state, json.loads(row["action_json"]), dice_for(row, seed)
        )
        if keep_states:
            out.states.append(state)
            out.events.append(events)
    out.state = state
    return out


def undo_blockers(events: list[dict]) -> list[str]:
    """Why a player may not take these events back (empty: they may)."""
    reasons = []
    if any(e.get("type") == "roll" for e in events):
        reasons.append("dice were rolled")
    if any(e.get("type") == "shuffle" for e in events):
        reasons.append("a deck was shuffled")
    if any(e.get("type") == "reveal" for e in events):
        reasons.append("hidden information was revealed")
    if any(e.get("private") for e in events):
        reasons.append("a player saw hidden information")
    return reasons


@dataclass
class VerifyReport:
    ok: bool
    actions: int  # actions replayed (undone ones included: their dice count too)
    dice: int  # dice checked against the seed
    final_hash: str | None
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = "OK" if self.ok else "FAILED"
        out = [
            f"{head}: {self.actions} actions and {self.dice} dice replayed from the seed; "
            f"final state {self.final_hash}"
        ]
        out += [f"- {p}" for p in self.problems]
        return out


def _roll_values(events: list[dict]) -> list:
    return [e.get("value") for e in events if e.get("type") == "roll"]


def verify_log(
    ruleset: Ruleset,
    scenario: dict,
    seed: str,
    published_hash: str,
    setup_events: list[dict],
    rows: list[dict],
    snapshot_hash: str | None,
) -> VerifyReport:
    """Replay every stored action (undone ones too, on the state they were played on) with
    ``seed`` and compare each die, each event and each resulting state hash with the log."""
    problems: list[str] = []
    dice_count = 0
    if seed_hash(seed) != published_hash:
        problems.append(
            "The seed does not match the seed hash published at the start "
            f"(sha256 of the seed is {seed_hash(seed)[:16]}…, published "
            f"{published_hash[:16]}…)."
        )
    state, events = new_game(ruleset, scenario, seed)
    dice_count += len(_roll_values(events))
    if canonical_json(events) != canonical_json(setup_events):
        problems.append(
            "The setup differs from the log (setup dice or shuffles do not match the seed)."
        )
    # Undo only ever takes back the last live action, so the actions live when ``row`` was
    # played form a stack: pop what was undone before it, apply it on top.
    stack: list[tuple[dict, dict]] = []
    replayed = 0
    for row in rows:
        while (
            stack
            and stack[-1][0]["undone_version"] is not None
            and stack[-1][0]["undone_version"] < row["version"]
        ):
            stack.pop()
        before = stack[-1][1] if stack else state
        label = (
            f"Action #{row['seq']} ({row['side']}: {json.loads(row['action_json']).get('type')})"
        )
        if row.get("dice_source") == "fixed":
            problems.append(f"{label} used dice typed in by hand (--dice), not dice from the seed.")
        dice = dice_for(row, seed)
        try:
            after, got_events = apply_logged(ruleset, before, json.loads(row["action_json"]), dice)
        except (UmpireError, AssertionError) as exc:
            problems.append(f"{label} cannot be replayed: {exc}")
            break
        replayed += 1
        got_dice = [r["value"] for r in dice.rolled]
        dice_count += len(got_dice)
        logged_events = json.loads(row["events_json"])
        logged_dice = json.loads(row["dice_json"])
        got_rolls, logged_rolls = _roll_values(got_events), _roll_values(logged_events)
        if got_rolls != logged_rolls:
            problems.append(
                f"{label}: the log shows dice {logged_rolls}, the seed gives {got_rolls}."
            )
        elif got_dice != logged_dice:
            problems.append(
                f"{label}: the recorded dice {logged_dice} differ from the seed's {got_dice}."
            )
        elif canonical_json(got_events) != canonical_json(logged_events):
            problems.append(f"{label}: the logged events differ from the replay.")
        if state_hash(after) != row["state_hash"]:
            problems.append(
                f"{label}: the resulting state differs from the log "
                f"({row['state_hash'][:12]} logged, {state_hash(after)[:12]} replayed)."
            )
        stack.append((row, after))
    while stack and stack[-1][0]["undone_version"] is not None:
        stack.pop()
    final = stack[-1][1] if stack else state
    final_hash = state_hash(final)
    if snapshot_hash is not None and snapshot_hash != final_hash and replayed == len(rows):
        problems.append(
            f"The stored current state ({snapshot_hash[:12]}) is not what the log "
            f"replays to ({final_hash[:12]})."
        )
    return VerifyReport(
        ok=not problems, actions=replayed, dice=dice_count, final_hash=final_hash, problems=problems
    )
