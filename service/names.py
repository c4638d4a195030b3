"""Turning the names a player typed into the ids the rules use, for the local table and the
Discord commands alike (see :mod:`engine.core.names`)."""
from __future__ import annotations

from engine import registry
from engine.core.names import resolve_action

from .games import GameService


async def resolve_names(svc: GameService, game_id: int, action: dict) -> dict:
    """``action`` (which names its side) with names replaced by ids, as that side sees the
    game. Referee actions name any unit: they are resolved against the full state."""
    if not any(isinstance(v, str) and k not in ("type", "side") for k, v in action.items()):
        return action   # nothing named (/end-phase, /pass)
    info = await svc.get_game(game_id)
    if info.status not in ("active", "paused"):
        return action   # the service refuses it with its own reason
    side = action.get("side")
    ruleset = registry.get_ruleset(info.ruleset)
    if side == "referee":
        return resolve_action(ruleset, info.state, action, [])
    if side not in ruleset.sides:
        return action
    state = await svc.view(game_id, side)
    legal = await svc.legal_actions(game_id, side)
    return resolve_action(ruleset, state, action, legal)
