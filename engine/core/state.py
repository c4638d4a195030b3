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
    if kind is dict or kind is FrozenDict:
        return {key: item if type(item) in _ATOMS else _copy(item) for key, item in value.items()}
    if kind is list or kind is FrozenList:
        return [item if type(item) in _ATOMS else _copy(item) for item in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


def _refuse(self, *args, **kwargs):
    raise TypeError(
        "this state is shared read-only (kept once per game version for every reader); "
        "clone() it to change a copy"
    )


class FrozenDict(dict):
    """A dict nobody may change, made by ``freeze`` (which freezes everything inside too): a
    state or view kept once and handed to many readers instead of a private copy each. Reads, ``json.dumps`` and ``isinstance(x, dict)`` work
    as for a dict; ``clone`` (and ``copy.deepcopy``, pickling) give plain, changeable data."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo) -> dict:
        return _copy(self)

    def __reduce__(self):
        return (dict, (dict(self),))


class FrozenList(list):
    """A list nobody may change; see ``FrozenDict``."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo) -> list:
        return _copy(self)

    def __reduce__(self):
        return (list, (list(self),))


def freeze(value):
    """A read-only deep copy of plain JSON data (see ``FrozenDict``), to share instead of
    copying it for every reader. What is frozen already (only ``freeze`` makes frozen
    containers, so all of it is) is shared, not copied: a view that is the state itself, or
    keeps parts of it, costs nothing more."""
    kind = type(value)
    if kind is dict:
        return FrozenDict(
            {key: item if type(item) in _ATOMS else freeze(item) for key, item in value.items()}
        )
    if kind is list:
        return FrozenList([item if type(item) in _ATOMS else freeze(item) for item in value])
    if kind is FrozenDict or kind is FrozenList:
        return value
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


_FROZEN = (FrozenDict, FrozenList)


def _kept_as_is(old, item) -> bool:
    """Whether ``old`` (from the frozen original) can stand for ``item``: it is the same
    object (a view that kept the state's own part), or frozen and equal."""
    return old is item or (type(old) in _FROZEN and old == item)


def freeze_like(value, like):
    """``freeze(value)``, sharing every container that equals the one at the same place in
    ``like`` (frozen already) instead of freezing a copy of it: a side's view is the state
    with a few parts hidden, so most of it is the state's own frozen parts again. Equality is
    Python's (``1 == 1.0 == True``), which is why this is for what is shown (views), never for
    a state that is hashed, stored or played on."""
    kind = type(value)
    if kind is dict and type(like) is FrozenDict:
        shared = {}
        for key, item in value.items():
            if type(item) in _ATOMS:
                shared[key] = item
                continue
            old = like.get(key)
            shared[key] = old if _kept_as_is(old, item) else freeze_like(item, old)
        return FrozenDict(shared)
    if kind is list and type(like) is FrozenList and len(value) == len(like):
        return FrozenList(
            [
                item
                if type(item) in _ATOMS
                else old
                if _kept_as_is(old, item)
                else freeze_like(item, old)
                for item, old in zip(value, like)
            ]
        )
    return freeze(value)
