"""Names players can type: a unit, card or cell named by its id, by the label on its counter
("Cav 1"), by its human label ("Spanish Cavalry 1"), or by an unambiguous prefix of any of
these, case-insensitively. One place for the local table and every Discord option.

Pure: works on a state as the acting side may see it (``Ruleset.view``) and that side's legal
actions, so a name never finds something the side could not see.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import RuleError

# Options whose values are things on the board or in a hand; other options (a die, a number, a
# fixed word) are matched only exactly.
NAMED_OPTIONS = frozenset(
    {"unit", "target", "with", "card", "to", "hex", "tile", "faction"}
    # cells, SIEGE's engines, towers, ladders, horses, wagons and items, and the named fixed
    # words of Tactical Table War (training, buildings) and Pocket Tactics (melee or magic)
    | {"at", "towards", "faces", "engine", "tower", "ladder", "horse", "wagon", "item"}
    | {"kind", "as", "build"}
)
UNIT_OPTIONS = frozenset({"unit", "target", "with"})
CELL_OPTIONS = frozenset({"to", "at", "hex", "towards", "faces"})
# "2309 (Texcoco)": a cell's label names the place in brackets.
_PLACE_NAME = re.compile(r"\(([^()]+)\)\s*$")
MAX_CANDIDATES_SHOWN = 8
# The label of a piece on the board ends where its position begins.
_WHERE = re.compile(r" (?:at|in|onto|on|auf) .*$| \(.*$")
# Languages whose labels a player may have read (autocomplete and replies follow the client).
LABEL_LANGUAGES = ("de",)


class AmbiguousName(RuleError):
    """A typed name fits several things; ``candidates`` are ``(id, label)`` pairs to choose from."""

    def __init__(self, option: str, typed: str, candidates: list[tuple[str, str]]):
        self.option, self.typed, self.candidates = option, typed, candidates
        shown = [
            label if value in label.split() else f"{label} ({value})"
            for value, label in candidates[:MAX_CANDIDATES_SHOWN]
        ]
        super().__init__(
            f"{option}:{typed} could mean more than one thing; type the id or more of the name.",
            shown,
        )

    def __str__(self) -> str:
        more = len(self.candidates) - MAX_CANDIDATES_SHOWN
        tail = f" (+{more} more)" if more > 0 else ""
        return f"{self.message} It could be: {'; '.join(self.legal)}{tail}."


def possessive(name: str) -> str:
    """English possessive of a name: "Aztec's", but "Allies'" (never "Allies's")."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def with_article(word: str) -> str:
    """ "a bunker", "an objective", "an OFF die" (by the first letter; good for our words)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _fold(text: str) -> str:
    return " ".join(str(text).casefold().split())


def distinguish_titles(pieces: list[dict]) -> list[dict]:
    """Counters that would show the same title get " 1", " 2"... in the order of their ids, so
    two "PzF 1/1" can be told apart (and named). Changes the pieces in place; returns them."""
    by_title: dict[str, list[dict]] = {}
    for piece in pieces:
        if piece.get("title"):
            by_title.setdefault(piece["title"], []).append(piece)
    for title, same in by_title.items():
        if len(same) < 2:
            continue
        for n, piece in enumerate(sorted(same, key=lambda p: str(p.get("id", ""))), start=1):
            piece["title"] = f"{title} {n}"
    return pieces


def counter_titles(ruleset, state: dict) -> dict[str, str]:
    """The title printed on each unit's counter in the public picture, by unit id."""
    try:
        scene = ruleset.scene(state, [], None)
    except Exception:  # a position the picture cannot show still has its ids and labels
        return {}
    return {
        str(p["id"]): str(p["title"])
        for p in scene.get("pieces", [])
        if p.get("id") and p.get("title")
    }


def names_of(ruleset, state: dict, key: str, value: str, counters: dict[str, str]) -> list[str]:
    """Every name ``value`` of option ``key`` answers to (folded)."""
    names = {value, value.replace("-", " ")}  # "east catapult" for east-catapult
    labels = []
    try:
        labels.append(ruleset.describe(state, key, value))
    except Exception:
        labels.append(value)
    for lang in LABEL_LANGUAGES:
        try:
            labels.append(ruleset.label(state, key, value, lang))
        except Exception:  # noqa: S112 - a label that cannot be made is simply not a name
            continue
    titles = [*getattr(ruleset, "side_titles", {}).values(), *ruleset.sides]
    for lang in LABEL_LANGUAGES:
        try:
            titles += [ruleset.side_title(side, lang) for side in ruleset.sides]
        except Exception:  # noqa: S112 - the English titles are enough then
            continue
    for label in labels:
        if not label:
            continue
        names.add(label)
        place = _PLACE_NAME.search(label) if key in CELL_OPTIONS else None
        if place:
            names.add(place.group(1).strip())
        bare = _WHERE.sub("", label).strip()
        if bare:
            names.add(bare)
            # "Cavalry 1" for "Spanish Cavalry 1": the side is clear from who is acting.
            for title in titles:
                if title and _fold(bare).startswith(_fold(title) + " "):
                    names.add(bare[len(title) + 1 :])
    if key in UNIT_OPTIONS and value in counters:
        names.add(counters[value])
    return sorted({_fold(n) for n in names if n})


def _pools(state: dict, action: dict, key: str, legal: list[dict]) -> list[list[str]]:
    """Values to look among, nearest first: what this command may take for this option given
    the options already typed, what it may take at all, what any command may take, then every
    unit the side can see (so a unit that cannot act is still named, and the rules say why)."""

    def values(actions: Iterable[dict]) -> list[str]:
        seen: dict[str, None] = {}
        for a in actions:
            if key in a:
                seen.setdefault(str(a[key]), None)
        return list(seen)

    same = [a for a in legal if a.get("type") == action.get("type")]
    fitting = [
        a
        for a in same
        if all(
            a.get(k) == v for k, v in action.items() if k not in (key, "type", "side") and k in a
        )
    ]
    pools = [values(fitting), values(same), values(legal)]
    if key in UNIT_OPTIONS and isinstance(state.get("units"), dict):
        pools.append([str(u) for u in state["units"]])
    return pools


def resolve_value(
    ruleset,
    state: dict,
    action: dict,
    key: str,
    legal: list[dict],
    counters: dict[str, str] | None = None,
    cache: dict | None = None,
) -> str:
    """The id ``action[key]`` names (see :func:`resolve_action`). ``cache`` keeps the counter
    titles between options of one action: they are read from the picture only when a typed
    value is not an id."""
    typed = str(action[key])
    pools = _pools(state, action, key, legal)
    if any(typed in pool for pool in pools):
        return typed  # an exact id always wins
    if key not in NAMED_OPTIONS:
        folded = _fold(typed)
        for pool in pools:
            found = [v for v in pool if _fold(v) == folded]
            if len(found) == 1:
                return found[0]
        return typed
    if counters is None:
        if key not in UNIT_OPTIONS:
            counters = {}
        else:
            cache = {} if cache is None else cache
            if "counters" not in cache:
                cache["counters"] = counter_titles(ruleset, state)
            counters = cache["counters"]
    needle = _fold(typed)
    if not needle:
        return typed
    named: dict[str, list[str]] = {}

    def names(value: str) -> list[str]:
        if value not in named:
            named[value] = names_of(ruleset, state, key, value, counters)
        return named[value]

    # Exact names before prefixes; within each, the nearest pool that has any match decides.
    for matches in (lambda n: n == needle, lambda n: n.startswith(needle)):
        for pool in pools:
            found = [v for v in pool if any(matches(n) for n in names(v))]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise AmbiguousName(
                    key, typed, [(v, _label(ruleset, state, key, v, counters)) for v in found]
                )
    return typed


def _label(ruleset, state: dict, key: str, value: str, counters: dict[str, str]) -> str:
    """How a candidate is shown: its label, and the title on its counter when the label does
    not hold it (the board shows "PzF 1" and "PzF 2"; that is what a player types next)."""
    try:
        label = ruleset.describe(state, key, value)
    except Exception:
        label = value
    title = counters.get(value)
    if title and _fold(title) not in _fold(label):
        label = f"{label} [{title}]"
    return label


def resolve_action(ruleset, state: dict, action: dict, legal: list[dict]) -> dict:
    """``action`` with every option value replaced by the id it names. Values that name nothing
    are left as typed, for the rules to refuse with their reason. Raises :class:`AmbiguousName`
    when a name fits several things equally well."""
    out = dict(action)
    cache: dict = {}
    for key in list(action):
        if key in ("type", "side") or not isinstance(action[key], str):
            continue
        out[key] = resolve_value(ruleset, state, out, key, legal, cache=cache)
    return out
