"""Typed errors. Players see ``str(error)``; it must say what is wrong and what would be legal."""

from __future__ import annotations


class UmpireError(Exception):
    """Base class of every error the engine raises on purpose."""


class RuleError(UmpireError):
    """An action the rules forbid. Nothing changes when this is raised.

    ``legal`` optionally lists short human hints of what is allowed instead
    (e.g. ``["0507", "0608"]`` for reachable hexes).

    ``key`` and ``params`` let a player's client show the refusal in its own language: the key
    names a message template (core keys in the Discord catalogue, ``<ruleset>.<name>`` keys in
    that ruleset's ``translations``), ``params`` fill it, and ``message`` stays the English
    text for everyone else (logs, the local table, a language without that template).
    ``domain``: the ruleset whose terms (side and phase names) translate the params.
    ``legal`` may be :class:`Hints`, which carry the same hints for readers of other
    languages; they are kept in ``legal_in`` (language -> hints).
    """

    def __init__(
        self,
        message: str,
        legal: list[str] | None = None,
        *,
        key: str | None = None,
        params: dict | None = None,
        domain: str | None = None,
    ):
        self.message = message
        self.legal = list(legal or [])
        self.legal_in: dict[str, list[str]] = dict(getattr(legal, "localised", None) or {})
        self.key = key
        self.params = dict(params or {})
        self.domain = domain
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if not self.legal:
            return self.message
        shown = ", ".join(self.legal[:HINTS_SHOWN])
        extra = len(self.legal) - HINTS_SHOWN
        more = f" (+{extra} more)" if extra > 0 else ""
        return f"{self.message} Legal: {shown}{more}."


# How many hints of what is legal a refusal shows; the rest are counted ("+40 more").
HINTS_SHOWN = 12


class Hints(list):
    """Hints of what is legal instead, in English, that also carry the same hints for readers of
    other languages (``localised``: language -> hints in the same order). Refusals are rare, so
    the rules word them in every language at once rather than keep the actions around."""

    def __init__(self, english, localised: dict[str, list[str]] | None = None):
        super().__init__(english)
        self.localised = dict(localised or {})


class NotYourTurn(RuleError):
    """The side named in the action is not the one the game waits for."""


class CommandSyntaxError(UmpireError):
    """A command line that cannot be parsed (``/move unit:`` with no value, unknown command...).
    ``key`` and ``params`` work as a RuleError's, so a client can say it in its language."""

    def __init__(self, message: str, *, key: str | None = None, params: dict | None = None):
        self.message = message
        self.legal: list[str] = []
        self.key = key
        self.params = dict(params or {})
        self.domain = None
        super().__init__(message)


class ScenarioError(UmpireError):
    """A data or scenario file that does not validate. Names the file, the entry and the problem."""

    def __init__(self, file: str, entry: str, problem: str):
        self.file, self.entry, self.problem = file, entry, problem
        super().__init__(f"{file}: {entry}: {problem}")


class OptionalRuleError(UmpireError):
    """An optional rule asked for by name that the game does not declare (or a list of names
    too long to read). ``known`` lists the game's optional rules."""

    def __init__(self, name: str, known: list[str], too_long: bool = False):
        self.name, self.known, self.too_long = name, list(known), too_long
        have = ", ".join(self.known) or "none"
        what = "Too many optional rules named" if too_long else f"No optional rule {name!r}"
        super().__init__(f"{what}; this game has: {have}.")


class DiceExhausted(UmpireError):
    """A fixed dice sequence ran out: the test or ``--dice`` list supplied too few dice."""


class Reason(str):
    """A refusal's English text that also carries its translation key and params, for rules
    code that works out a reason as a string before raising (``RuleError(reason, **reason.keyed)``
    keeps both)."""

    keyed: dict

    def __new__(cls, text: str, key: str, domain: str | None = None, **params):
        made = super().__new__(cls, text)
        made.keyed = {"key": key, "params": params, "domain": domain}
        return made


def keyed_of(reason) -> dict:
    """RuleError's key, params and domain for ``reason`` when it is a :class:`Reason`."""
    return dict(getattr(reason, "keyed", None) or {})
