"""Errors the service raises on purpose. ``str(error)`` is written for the player who caused it.

Rule violations stay :class:`engine.core.errors.RuleError` (raised unchanged through the
service); these are about the game as a whole: which game, whether it runs, whose seat.
"""

from __future__ import annotations

from engine.core.errors import UmpireError


class ServiceError(UmpireError):
    """Something the player asked for that the service cannot do; the message says why."""


class GameNotFound(ServiceError):
    def __init__(self, game_id):
        self.game_id = game_id
        super().__init__(f"There is no game #{game_id}.")


class GameNotActive(ServiceError):
    """The game is in the lobby, paused by a referee, or finished: no moves now."""


class StaleVersion(ServiceError):
    """The game moved on since the board the player clicked was posted."""

    def __init__(self, game_id, expected: int, current: int | None):
        self.game_id, self.expected, self.current = game_id, expected, current
        super().__init__(
            f"That board is out of date (it shows version {expected}, the game is "
            f"at version {current}). Use the latest board post."
        )


class NotSeated(ServiceError):
    """The player is not seated on the side they tried to act for."""


class StorageError(ServiceError):
    """The database cannot be opened, read or written (disk full, read-only, locked by another
    program, damaged or not a database). Nothing already committed is touched: a failed write
    is rolled back whole.

    ``str(error)`` is one line for the operator (the bot's log, the local table): the file, the
    problem and what to do. Discord replies use their own words and leave the path out.
    """

    def __init__(self, file: str, problem: str, advice: str):
        self.file, self.problem, self.advice = str(file), problem, advice
        super().__init__(f"Database {self.file}: {problem}. {advice}")


class CommitUncertain(StorageError):
    """The connection to a database server broke while it was committing a write: the write
    may or may not have landed, and nobody can say which (PostgreSQL). The game's version tells:
    the next read shows it, and the version guard keeps the game consistent either way."""
