"""Game state is plain JSON-able data (dicts, lists, str, int, bool, None).

Every state carries these keys, which the service, renderer and bot read without knowing the game:

- ``game``: ruleset name; ``scenario``: scenario name
- ``turn`` (int, from 1), ``phase`` (str), ``active`` (side whose turn it is)
- ``awaiting``: list of sides the game waits for now (usually ``[active]``; the reactive side
  during defensive fire; a defender choosing a retreat)
- ``result``: ``None`` while running, else ``{"winner": side or None, "reason": str}``
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: dict) -> str:
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


_ATOMS = (str, int, float, bool, type(None))


def clone(state: dict) -> dict:
    """A deep copy; rulesets mutate the copy and return it, never the input.

    States are plain JSON data (the contract above), so the copy walks dicts and lists only;
    copy.deepcopy's memo of shared objects made it several times slower, and a busy bot copies
    states many times per command. Anything else falls back to deepcopy."""
    return _copy(state)


def _copy(value):
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS else _copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else _copy(item) for item in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)
