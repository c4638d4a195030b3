"""Turning the names a player typed into the ids the rules use, for the local table and the
Discord commands alike (see :mod:`engine.core.names`)."""

from __future__ import annotations

from engine import registry
from engine.core import hexgrid, squaregrid
from engine.core.commands import format_command
from engine.core.errors import NotYourTurn, RuleError
from engine.core.names import AmbiguousName, resolve_action

from .games import GameService


async def resolve_names(svc: GameService, game_id: int, action: dict) -> dict:
    """``action`` (which names its side) with names replaced by ids, as that side sees the
    game. Referee actions name any unit: they are resolved against the full state."""
    if not any(isinstance(v, str) and k not in ("type", "side") for k, v in action.items()):
        return action  # nothing named (/end-phase, /pass)
    info = await svc.get_game(game_id)
    if info.status not in ("active", "paused"):
        return action  # the service refuses it with its own reason
    side = action.get("side")
    ruleset = registry.get_ruleset(info.ruleset)
    if side == "referee":
        return resolve_action(ruleset, info.state, action, [])
    if side not in ruleset.sides:
        return action
    state = await svc.view(game_id, side)
    legal = await svc.legal_actions(game_id, side)
    return resolve_action(ruleset, state, action, legal)


MAX_SUGGESTIONS = 5


class TaughtRefusal(RuleError):
    """The rules' reason, then a few typeable commands relevant to what was tried (the same
    unit's legal actions first) instead of every label the game knows; ``more``: how many other
    actions are legal."""

    def __init__(self, message: str, commands: list[str], more: int):
        self.more = more
        super().__init__(message, commands)

    def __str__(self) -> str:
        if not self.legal:
            return self.message
        tail = f" (+{self.more} more)" if self.more else ""
        return f"{self.message} Legal: {', '.join(self.legal)}{tail}."


def _relevance(tried: dict, candidate: dict) -> int:
    score = 0
    same_type = candidate.get("type") == tried.get("type")
    if tried.get("unit") is not None and candidate.get("unit") == tried.get("unit"):
        score += 8 if same_type else 4
    elif same_type:
        score += 2
    for key in ("target", "to", "card", "with", "hex"):
        if tried.get(key) is not None and candidate.get(key) == tried.get(key):
            score += 1
    return score


def _distance(tried: dict, candidate: dict) -> int:
    """How far the candidate's destination is from the one tried (hex labels such as 0507 by
    hex steps, squares such as C4 by king moves), so the nearest cells are suggested first;
    0 when either is no cell."""
    for key in ("to", "at"):
        a, b = tried.get(key), candidate.get(key)
        if not (isinstance(a, str) and isinstance(b, str)):
            continue
        for grid, measure in ((hexgrid, hexgrid.distance), (squaregrid, squaregrid.chebyshev)):
            try:
                return measure(grid.parse_label(a), grid.parse_label(b))
            except Exception:  # noqa: S112 - not a label of this kind of grid
                continue
    return 0


def suggestions(
    tried: dict, legal: list[dict], limit: int = MAX_SUGGESTIONS
) -> tuple[list[str], int]:
    """At most ``limit`` legal commands for a refused ``tried``: the most relevant first (the
    same unit's, then the same command's; stable among equals), and one example of each other
    command possible now while there is room (when the tried command is not possible at all,
    those examples come first). Also returns how many legal actions were left out."""
    order = sorted(
        range(len(legal)), key=lambda i: (-_relevance(tried, legal[i]), _distance(tried, legal[i]))
    )
    relevant = [legal[i] for i in order if _relevance(tried, legal[i]) > 0]
    examples: dict[str, dict] = {}
    for action in relevant + legal:  # each command's most relevant example
        examples.setdefault(str(action.get("type")), action)
    if not any(a.get("type") == tried.get("type") for a in legal):
        picked = list(examples.values())[:limit]
    else:
        picked = relevant[: max(1, limit - (len(examples) - 1))]
        for action in examples.values():
            if len(picked) >= limit:
                break
            if all(p.get("type") != action.get("type") for p in picked):
                picked.append(action)
    return [format_command(a) for a in picked], max(0, len(legal) - len(picked))


async def teach(svc: GameService, game_id: int, action: dict, error: RuleError) -> RuleError:
    """The refusal to show a player: the rules' reason with :func:`suggestions` in place of
    the rules' own list. Refusals about whose turn it is, ambiguous names and referee actions
    stay as they are."""
    if isinstance(error, (NotYourTurn, AmbiguousName)) or action.get("side") == "referee":
        return error
    try:
        legal = await svc.legal_actions(game_id, str(action.get("side")))
    except Exception:  # the refusal itself is what matters; keep it as the rules said it
        return error
    if not legal:
        return error
    commands, more = suggestions(action, legal)
    taught = TaughtRefusal(error.message, commands, more)
    taught.key, taught.params, taught.domain = error.key, error.params, error.domain
    return taught


async def act_by_names(svc: GameService, game_id: int, action: dict, **act_options):
    """``svc.act`` for an action a person typed. Ids (what autocomplete and buttons send) are
    applied as they are, at no extra cost; only an action the rules refuse is read again with
    names resolved (:func:`resolve_names`) and, if that changed it, tried once more. A refusal
    that stands comes back as :func:`teach` makes it. Raises :class:`AmbiguousName` when a
    typed name fits several things."""
    try:
        return await svc.act(game_id, action, **act_options)
    except NotYourTurn:
        raise
    except RuleError as first:
        resolved = await resolve_names(svc, game_id, action)
        if resolved == action:
            raise await teach(svc, game_id, action, first) from None
    try:
        return await svc.act(game_id, resolved, **act_options)
    except NotYourTurn:
        raise
    except RuleError as error:
        raise await teach(svc, game_id, resolved, error) from None
