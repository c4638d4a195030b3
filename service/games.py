"""GameService: the one door between the front ends (Discord cogs, local table) and the games.

It loads a game, applies an action through the engine under the game's lock, stores the result
in one transaction and renders pictures off the event loop. Contract: "GameService API" in
``docs/architecture.md``; storage details in ``docs/storage.md``.

Versions: ``GameInfo.version`` grows by one with every change of the game's state (an accepted
action, an undo) and never goes back, so a button posted at version *v* can never match again
once anything happened, not even after an undo.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import contextvars
import json
import secrets
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.core.commands import format_command
from engine.core.dice import Dice, SeededSource, seeded
from engine.core.errors import DiceExhausted, RuleError, UmpireError
from engine.core.game import new_game
from engine.core.names import possessive
from engine.core.ruleset import Ruleset
from engine.core.state import FrozenDict, clone, freeze, freeze_like, state_hash

from . import store as store_module
from .admission import Admission
from .config import ShardPlan
from .errors import GameNotActive, GameNotFound, NotSeated, ServiceError, StaleVersion
from .lru import Lru
from .pictures import Overloaded, PicturePool, scene_of
from .replay import (
    SERVICE_ACTIONS,
    VerifyReport,
    apply_logged,
    dice_for,
    replay_rows,
    seed_hash,
    undo_blockers,
    verify_log,
)
from .storage import open_store
from .store import Store, VersionConflict, dumps

__all__ = [
    "GameService",
    "GameInfo",
    "Outcome",
    "ActionRecord",
    "VerifyReport",
    "GameBusy",
    "ReplayTooBig",
    "ReplayUnreadable",
    "UndoNeedsConsent",
    "Overloaded",
    "PicturePool",
]

TIMEOUT_ACTIONS = ("referee", "forfeit")
OPEN_STATUSES = ("lobby", "active", "paused")
# Open games (lobby, running or paused) one member may have created, and one server may hold,
# unless /umpire config says otherwise.
DEFAULT_MAX_OPEN_PER_USER = 3
DEFAULT_MAX_OPEN_PER_GUILD = 25
# Replays, past boards and verifications replay a whole log and draw many pictures: at most this
# many run at once in the process, and at most one per game, so a burst of requests cannot
# take the bot's memory (each replay holds about one frame at a time, see renderer).
HEAVY_WORKERS = 2
DISCORD_ATTACHMENT_LIMIT = 25 * 1024 * 1024
# Finished games' replays are kept in memory up to this many bytes in total (their log can no
# longer change, so the picture cannot either).
REPLAY_CACHE_BYTES = 64 * 1024 * 1024
MAX_REPLAY_FRAMES = 200
REPLAY_BATCH = 500  # logged actions a replay reads from the store at once
REPLAY_READ_TIMEOUT = 60.0  # seconds one of a replay's reads may take before it gives up
REPLAY_WIDTHS = (800, 480, 320)  # tried in turn until the replay fits the size limit
# Load shedding: a player's action is refused at once (Overloaded, "busy, try again") while
# this many actions are already in progress, or while the pictures waiting would keep every
# worker busy for a while (PICTURES_AHEAD_PER_WORKER below, at most half the picture pool's
# bound: the rest is kept for the boards of actions already accepted), so a burst beyond what
# two cores can draw never turns into a queue that only grows.
MAX_ACTIONS_IN_FLIGHT = 32
# ... and while this many pictures per worker are already waiting or being drawn: three keep a
# worker busy between pictures; twelve (half the pool, the bound before) made an accepted
# command's board wait behind five others' under load (docs/performance.md).
PICTURES_AHEAD_PER_WORKER = 3
# Player commands being worked on at once (``GameService.command``) are bounded by
# ``service.admission.Admission``: one more is refused at its very start, before it reads
# anything, so the excess of a burst costs next to nothing and the accepted ones are not
# slowed down by a queue in front of the database. The bound follows how long commands take
# (from 12, the bound it had before, up to 48), so it admits what this machine carries now.
_IN_COMMAND: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "umpire_in_command", default=False
)
# Within one command, the game rows and seats it read (one read per command, not one per
# call): dropped for a game as soon as this service writes to it.
_READS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("umpire_reads", default=None)
# Games whose current state (and lock) stay in memory, least recently used out: a game not
# in the cache is read from its snapshot again.
STATE_CACHE_GAMES = 2000
# Of those, the most recently used games' states are kept ready to use (read-only objects,
# 15-40 KB each); the others as their JSON text (1-7 KB each: a fifth to a sixth of that),
# at most STATE_TEXT_BYTES in all, parsed again when their game is played (about a tenth of
# a millisecond, and no trip to the database). With every state kept as objects, a bot
# playing 1,000 games held about 30 MB more than one playing 200 (docs/performance.md).
STATES_READY = 256
STATE_TEXT_BYTES = 24 * 2**20
# Legal actions per game version, side: asked for by a command's autocomplete, the command and
# its board's buttons within moments of each other; an old version's are never asked again.
LEGAL_KEPT = 256
# Views (what one side or the public sees) of the games being played right now: a version's
# are asked for within the command that made it and the next one; each kept view is about a
# hundred containers the garbage collector walks in a full collection.
VIEWS_KEPT = 256

_shared_pictures: PicturePool | None = None


def shared_pictures() -> PicturePool:
    """One picture pool per process, shared by every service in it (a test suite opens many
    services; each would otherwise start its own worker processes)."""
    global _shared_pictures
    if _shared_pictures is None:
        _shared_pictures = PicturePool()
    return _shared_pictures


# The referee as the action log names them, per reader language.
REFEREE = {"en": "Referee", "de": "Schiedsrichter"}


class GameBusy(ServiceError):
    """Heavy work for this game (or too much heavy work overall) is already running."""

    def __init__(self, game_id: int | None, overall: bool = False):
        self.game_id, self.overall = game_id, overall
        super().__init__(
            "The bot is busy drawing or checking other games; try again in a moment."
            if overall
            else f"Game #{game_id} is already drawing a replay or checking its log; "
            "try again in a moment."
        )


class UndoNeedsConsent(ServiceError):
    """A referee who also plays wants to take back an action with dice: a player of another
    side must agree first (``undo(..., agreed_by=...)``)."""

    def __init__(
        self,
        game_id: int,
        own_sides: list[str],
        other_sides: list[str],
        dice: list,
        action: dict,
        label: str | None,
    ):
        self.game_id, self.own_sides, self.other_sides = game_id, own_sides, other_sides
        self.dice, self.action, self.label = dice, action, label
        super().__init__(
            "You also play in this game and the last action rolled dice: a player "
            f"of {', '.join(other_sides)} must agree to take it back."
        )


class ReplayTooBig(ServiceError):
    """A replay that does not fit the attachment limit even at its smallest."""


class ReplayUnreadable(ServiceError):
    """A replay that could not read the game's log: a read hung, or the log lost an action it
    had when the replay started (the game was deleted meanwhile)."""


class ReplayAbandoned(Exception):
    """Stops a replay's drawing thread once nobody waits for the replay (its caller was
    cancelled); never reaches a player."""


class _ReplayCache:
    """Finished games' replays by (game, version, viewer, size limit, language), least
    recently used first out, bounded by their total size."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._entries: dict[tuple, bytes] = {}
        self._size = 0

    def get(self, key: tuple) -> bytes | None:
        data = self._entries.pop(key, None)
        if data is not None:
            self._entries[key] = data  # most recently used last
        return data

    def put(self, key: tuple, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        old = self._entries.pop(key, None)
        if old is not None:
            self._size -= len(old)
        self._entries[key] = data
        self._size += len(data)
        while self._size > self.max_bytes:
            oldest = next(iter(self._entries))
            self._size -= len(self._entries.pop(oldest))


@dataclass
class GameInfo:
    id: int
    ruleset: str
    scenario: str
    status: str  # lobby | active | paused | finished
    version: int
    # the full state, secrets included (show players view() instead); read-only, shared by
    # every GameInfo of this version (clone() it to change a copy)
    state: dict
    seed_hash: str
    seed: str | None  # None until the game is finished
    creator_id: int | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    settings: dict
    result: dict | None
    created_at: float
    updated_at: float
    flag: str | None = None  # why a referee is needed ("timeout:aztec"), else None

    @property
    def awaiting(self) -> list[str]:
        if self.state.get("result"):
            return []
        return list(self.state.get("awaiting") or [self.state.get("active")])

    @property
    def turn(self) -> int | None:
        return self.state.get("turn")


@dataclass
class Outcome:
    game: GameInfo
    action: dict
    events: list[dict]
    version: int
    seq: int
    turn_ended: bool  # the active side or the turn changed (post a new board)
    game_over: bool


@dataclass(frozen=True)
class Reminder:
    """One due reminder with all its text needs, read for a whole pass at once: no game's
    state, no query per game."""

    id: int  # the game's
    ruleset: str
    side: str
    people: list[int]  # seated on ``side``
    left: float | None  # seconds on the side's clock as of the pass; None without a limit
    version: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    board: tuple[int, int, int] | None  # newest board post: (channel id, message id, version)


@dataclass
class ActionRecord:
    seq: int
    version: int
    side: str
    actor: str
    action: dict
    events: list[dict]
    state_hash: str
    live: bool
    created_at: float
    undone_by: str | None = None
    undone_at: float | None = None
    turn: int | None = None  # turn, phase and active side when the action was taken
    phase: str | None = None
    active: str | None = None
    label: str | None = None  # "/move unit:Red r1 at 0101 to:0201", as it read when played


class _GameLock:
    """One game's lock, counting who holds or waits for it (so the bounded cache of locks
    never drops one in use)."""

    def __init__(self):
        self._lock = asyncio.Lock()
        self.users = 0

    async def __aenter__(self) -> None:
        self.users += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self.users -= 1
            raise

    async def __aexit__(self, *exc) -> None:
        self._lock.release()
        self.users -= 1


class _OverrideSource:
    """The local table's ``--dice``: typed-in dice first, then the seed's dice."""

    def __init__(self, queue: list[int], fallback: SeededSource):
        self.queue = list(queue)
        self.fallback = fallback
        self.used_override = False

    def draw(self, sides: int) -> int:
        if not self.queue:
            return self.fallback.draw(sides)
        value = self.queue[0]
        if not 1 <= value <= sides:
            raise DiceExhausted(f"The next --dice value {value} is not a face of a d{sides}.")
        self.queue.pop(0)
        self.used_override = True
        return value


# The languages pictures are drawn in; any other locale gets the English picture.
PICTURE_LANGS = ("en", "de")


def picture_lang(lang: str | None) -> str:
    """A reader's locale ("de", "de-DE", None) as a picture language the rulesets know."""
    text = str(lang or "").lower()
    return next((known for known in PICTURE_LANGS if text.startswith(known)), "en")


def _validate_settings(settings: dict | None) -> dict:
    settings = dict(settings or {})
    clock = settings.get("clock")
    if clock is None:
        return settings
    if not isinstance(clock, dict):
        raise ServiceError(
            "settings['clock'] must be an object with initial, increment, cap, "
            "on_timeout and remind_every."
        )
    clock = dict(clock)
    for key in ("initial", "increment", "cap", "remind_every"):
        value = clock.get(key)
        if value is not None and (not isinstance(value, (int, float)) or value < 0):
            raise ServiceError(
                f"Clock setting {key!r} must be a number of seconds ≥ 0, not {value!r}."
            )
    clock.setdefault("increment", 0)
    clock.setdefault("on_timeout", "referee")
    if clock["on_timeout"] not in TIMEOUT_ACTIONS:
        raise ServiceError(
            f"Clock setting 'on_timeout' must be 'referee' or 'forfeit', "
            f"not {clock['on_timeout']!r}."
        )
    if (
        clock.get("initial") is not None
        and clock.get("cap") is not None
        and clock["cap"] < clock["initial"]
    ):
        raise ServiceError("The clock's cap cannot be smaller than its initial allowance.")
    settings["clock"] = clock
    return settings


def _current(conflict: VersionConflict, row: dict) -> int:
    """The version another writer left the game at (its row's, if that is unknown)."""
    return conflict.current if conflict.current is not None else int(row["version"])


def _user_id(actor: str) -> int | None:
    kind, _, rest = str(actor).partition(":")
    if kind == "user" and rest.strip().lstrip("-").isdigit():
        return int(rest)
    return None


class GameService:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        dice_override: Iterable[int] | None = None,
        pictures: PicturePool | None = None,
        cache_games: int = STATE_CACHE_GAMES,
    ):
        self.store = store
        self.pictures = pictures if pictures is not None else shared_pictures()
        self._acting = 0
        self.admission = Admission()
        self._clock = clock
        self._dice_queue: list[int] | None = (
            list(dice_override) if dice_override is not None else None
        )
        # A lock held or waited for is never evicted: two different locks for one game would
        # let two actions interleave.
        self._locks: Lru[int, _GameLock] = Lru(cache_games, keep=lambda lock: lock.users > 0)
        # id -> (version, state): ready to use, and as text (see STATES_READY)
        self._cache: Lru[int, tuple[int, dict]] = Lru(min(cache_games, STATES_READY))
        self._texts: Lru[int, tuple[int, str]] = Lru(
            cache_games, weigh=lambda kept: sys.getsizeof(kept[1]), max_bytes=STATE_TEXT_BYTES
        )
        # (id, version, side) -> legal actions
        self._legal: Lru[tuple, list[dict]] = Lru(min(cache_games, LEGAL_KEPT))
        self._views: Lru[tuple, dict] = Lru(VIEWS_KEPT)  # (id, version, side) -> view
        self._seqs: Lru[int, tuple[int, int]] = Lru(cache_games)  # id -> (version, last seq)
        self._fixed: Lru[int, dict] = Lru(cache_games * 4)  # id -> id, ruleset
        # Set by a sharded bot process: reminders and timeouts only for the games of its
        # shards (service.config.ShardPlan); None checks every game.
        self.shard_plan: ShardPlan | None = None
        self._heavy_running: set[int] = set()
        self._heavy_slots = HEAVY_WORKERS
        self._replays = _ReplayCache(REPLAY_CACHE_BYTES)

    @classmethod
    async def open(
        cls,
        path,
        clock: Callable[[], float] = time.time,
        dice_override: Iterable[int] | None = None,
        *,
        synchronous: str = "FULL",
    ) -> GameService:
        store = await open_store(path, synchronous=synchronous)
        return cls(store, clock=clock, dice_override=dice_override)

    async def close(self) -> None:
        await self.store.close()

    # ----- helpers -----------------------------------------------------------------------
    def _lock(self, game_id: int) -> _GameLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = _GameLock()
        return lock

    @property
    def _pictures_backed_up(self) -> bool:
        """As many pictures are waiting or being drawn as keep every worker busy (or half
        the pool's bound, if that is lower): an action accepted now would post its board
        behind all of them, so new commands wait for the queue to shorten (refused as busy)."""
        pool = self.pictures
        ahead = min((pool.limit + 1) // 2, PICTURES_AHEAD_PER_WORKER * max(1, pool.workers))
        return pool.in_flight >= ahead

    @property
    def overloaded(self) -> bool:
        """True while a new player command would be refused (see ``command``)."""
        return self.admission.full or self._pictures_backed_up

    @contextlib.asynccontextmanager
    async def command(self) -> AsyncIterator[None]:
        """Around one player's command, from its start: refused at once with Overloaded while
        ``admission.limit`` are in progress or the picture pool is half full. Nested use (a
        command that calls another) counts once."""
        if _IN_COMMAND.get():
            yield
            return
        if self.overloaded:
            raise Overloaded("commands")
        ticket = self.admission.start()
        token = _IN_COMMAND.set(True)
        reads = _READS.set({})
        try:
            yield
        finally:
            _READS.reset(reads)
            _IN_COMMAND.reset(token)
            self.admission.finish(ticket)

    @contextlib.asynccontextmanager
    async def same_reads(self) -> AsyncIterator[None]:
        """Within: a game's row and seats are read once (an autocomplete asks for the game,
        the caller's sides, a view and the legal actions of one position)."""
        if _READS.get() is not None:
            yield
            return
        reads = _READS.set({})
        try:
            yield
        finally:
            _READS.reset(reads)

    @staticmethod
    def _forget(game_id: int) -> None:
        """This service changed the game: the command's earlier reads of it are stale."""
        reads = _READS.get()
        if reads is not None:
            reads.pop(("row", game_id), None)
            reads.pop(("seats", game_id), None)
            reads.pop(("clocks", game_id), None)

    @staticmethod
    def _remember_row(row: dict) -> None:
        """The game's row as this service just wrote it, for the rest of the command."""
        reads = _READS.get()
        if reads is not None:
            reads[("row", row["id"])] = row

    async def _clock_rows(self, game_id: int) -> list[dict]:
        """The game's clock rows, read once per command (an action checks for a timeout, then
        moves the clocks on)."""
        reads = _READS.get()
        if reads is not None and ("clocks", game_id) in reads:
            return reads[("clocks", game_id)]
        rows = await self.store.clocks(game_id)
        if reads is not None:
            reads[("clocks", game_id)] = rows
        return rows

    @contextlib.asynccontextmanager
    async def heavy(self, game_id: int) -> AsyncIterator[None]:
        """A slot for heavy work on one game: refused at once (GameBusy) when that game already
        has one or every slot is taken, so requests never pile up in memory."""
        key = int(game_id)
        if key in self._heavy_running:
            raise GameBusy(key)
        if len(self._heavy_running) >= self._heavy_slots:
            raise GameBusy(key, overall=True)
        self._heavy_running.add(key)
        try:
            yield
        finally:
            self._heavy_running.discard(key)

    @staticmethod
    def _ruleset(name: str) -> Ruleset:
        try:
            return registry.get_ruleset(name)
        except registry.UnknownGame as exc:
            raise ServiceError(str(exc)) from None
        except (ImportError, AttributeError) as exc:
            raise ServiceError(
                f"The game {name!r} is not available on this server ({exc})."
            ) from None

    async def _row(self, game_id: int) -> dict:
        try:
            key = int(game_id)
        except (TypeError, ValueError):
            raise GameNotFound(game_id) from None
        reads = _READS.get()
        if reads is not None and ("row", key) in reads:
            return reads[("row", key)]
        row = await self.store.game(key)
        if row is None:
            raise GameNotFound(game_id)
        if reads is not None:
            reads[("row", key)] = row
        return row

    async def _seat_rows(self, game_id: int) -> list[dict]:
        reads = _READS.get()
        if reads is not None and ("seats", game_id) in reads:
            return reads[("seats", game_id)]
        seats = await self.store.seats(game_id)
        if reads is not None:
            reads[("seats", game_id)] = seats
        return seats

    async def _known(self, game_id: int) -> dict:
        """The game's fields that never change (``id``, ``ruleset``), for calls that need no
        more: read once, then kept (games are never deleted), so a command's many small
        calls (seats, posts, flares) do not each read the whole game row again."""
        try:
            key = int(game_id)
        except (TypeError, ValueError):
            raise GameNotFound(game_id) from None
        known = self._fixed.get(key)
        if known is None:
            row = await self._row(key)
            known = self._fixed[key] = {"id": row["id"], "ruleset": row["ruleset"]}
        return known

    async def _load(self, game_id: int) -> tuple[dict, dict]:
        """The game row and its current state (the snapshot, or a replay if the snapshot is
        missing or does not match the log: the log is the truth)."""
        row = await self._row(game_id)
        cached = self._cache.get(row["id"])
        if cached and cached[0] == row["version"]:
            return row, cached[1]
        text = self._texts.get(row["id"])
        if text and text[0] == row["version"]:
            # written or checked by this process at this version: no hash to check again
            parsed = freeze(json.loads(text[1]))
            self._cache[row["id"]] = (row["version"], parsed)
            return row, parsed
        # Row, snapshot and last live hash in one read: separate reads could pair version v
        # with a snapshot another process committed in between.
        loaded, snap, live_hash = await self.store.load_game(row["id"])
        if loaded is None:
            raise GameNotFound(game_id)
        row = loaded
        state: dict | None = None
        if snap is not None:
            state = json.loads(snap["state_json"])
            if state_hash(state) != snap["state_hash"] or (
                live_hash is not None and live_hash != snap["state_hash"]
            ):
                state = None
            else:
                state = freeze(state)
                self._texts[row["id"]] = (row["version"], snap["state_json"])
        if state is None:
            # The row again, with the log, from one read: the state must belong to the
            # version it is cached and repaired under.
            fresh, logged, _ = await self.store.game_log(row["id"])
            row = fresh or row
            rows = [r for r in logged if r["live"]]
            state = freeze(await asyncio.to_thread(self._replay_state, row, rows))
            text = dumps(state)
            await self.store.repair_snapshot(
                row["id"], row["version"], text, state_hash(state), self._clock()
            )
            self._texts[row["id"]] = (row["version"], text)
        self._cache[row["id"]] = (row["version"], state)
        return row, state

    def _replay_state(self, row: dict, rows: list[dict]) -> dict:
        ruleset = self._ruleset(row["ruleset"])
        return replay_rows(ruleset, json.loads(row["scenario_json"]), row["seed"], rows).state

    def _info(self, row: dict, state: dict) -> GameInfo:
        """``state``: the cached, read-only state of the row's version, shared by every
        GameInfo of that version instead of a copy each (a command made three or four)."""
        return GameInfo(
            id=row["id"],
            ruleset=row["ruleset"],
            scenario=row["scenario"],
            status=row["status"],
            version=row["version"],
            state=state if type(state) is FrozenDict else freeze(state),
            seed_hash=row["seed_hash"],
            seed=row["seed"] if row["status"] == "finished" else None,
            creator_id=row["creator_id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            settings=json.loads(row["settings_json"] or "{}"),
            result=json.loads(row["result_json"]) if row["result_json"] else None,
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            flag=row["flag"],
        )

    async def _game_info(self, game_id: int) -> GameInfo:
        row, state = await self._load(game_id)
        return self._info(row, state)

    @staticmethod
    def _awaiting(ruleset: Ruleset, state: dict) -> list[str]:
        return ruleset.awaiting(state)

    # ----- games -------------------------------------------------------------------------
    async def create_game(
        self,
        ruleset: str,
        scenario: str = "",
        *,
        creator_id: int | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        settings: dict | None = None,
        seed: str | int | None = None,
        document: bytes | None = None,
        document_label: str = "scenario file",
        optional_rules: list[str] | None = None,
    ) -> GameInfo:
        """``scenario`` is a packaged name only (never a path); a scenario file comes as the
        bytes of ``document`` (attached in Discord, or read by the local table).
        ``optional_rules``: names of the ruleset's optional rules to switch on (checked; they
        are stored in the scenario, so replay sets up the same game)."""
        rules = self._ruleset(ruleset)
        settings = _validate_settings(settings)
        if document is not None:
            scenario_data = await asyncio.to_thread(rules.load_document, document, document_label)
        else:
            scenario_data = await asyncio.to_thread(
                rules.load_packaged, scenario or rules.default_scenario
            )
        scenario_data = rules.with_optional_rules(scenario_data, list(optional_rules or []))
        seed = str(seed) if seed is not None else secrets.token_hex(16)
        state, setup_events = await asyncio.to_thread(new_game, rules, scenario_data, seed)
        now = self._clock()
        fields = {
            "ruleset": rules.name or ruleset,
            "scenario": str(state.get("scenario") or scenario or rules.default_scenario),
            "scenario_json": dumps(scenario_data),
            "seed": seed,
            "seed_hash": seed_hash(seed),
            "status": "lobby",
            "version": 0,
            "setup_events": dumps(setup_events),
            "guild_id": guild_id,
            "channel_id": channel_id,
            "creator_id": creator_id,
            "settings_json": dumps(settings),
            "created_at": now,
            "updated_at": now,
        }
        if fields["ruleset"] != ruleset:
            fields["ruleset"] = ruleset  # the registry name is what get_ruleset understands
        game_id = await self.store.insert_game(fields, dumps(state), state_hash(state))
        return await self._game_info(game_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        row = await self._row(game_id)
        self._forget(row["id"])
        await self.store.update_game(row["id"], thread_id=thread_id, updated_at=self._clock())

    async def start_game(self, game_id: int) -> GameInfo:
        async with self._lock(int(game_id)):
            row, state = await self._load(game_id)
            if row["status"] != "lobby":
                raise GameNotActive(
                    f"Game #{row['id']} has already started (it is {row['status']})."
                )
            now = self._clock()
            settings = json.loads(row["settings_json"])
            clocks = []
            clock = settings.get("clock")
            if clock:
                awaiting = self._awaiting(self._ruleset(row["ruleset"]), state)
                for side in self._ruleset(row["ruleset"]).sides:
                    clocks.append(
                        {
                            "side": side,
                            "remaining": clock.get("initial"),
                            "started_at": now if side in awaiting else None,
                            "last_reminder_at": None,
                        }
                    )
            self._forget(row["id"])
            await self.store.put_clocks(row["id"], clocks, {"status": "active", "updated_at": now})
        return await self._game_info(game_id)

    async def rematch(self, game_id: int, *, creator_id: int | None) -> GameInfo:
        """A new game (in the lobby) of the same ruleset, scenario and clocks, with the same
        people on the same seats. A scenario that came as a file is used again as stored."""
        row = await self._row(game_id)
        rules = self._ruleset(row["ruleset"])
        packaged = row["scenario"] in rules.packaged_names()
        stored = json.loads(row["scenario_json"])
        switched_on = [name for name, on in (stored.get("options") or {}).items() if on]
        new = await self.create_game(
            row["ruleset"],
            row["scenario"] if packaged else "",
            creator_id=creator_id,
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            settings=json.loads(row["settings_json"]),
            document=None if packaged else row["scenario_json"].encode(),
            document_label=f"scenario of game #{row['id']}",
            optional_rules=switched_on if packaged else None,
        )
        for seat in await self.store.seats(row["id"]):
            await self.store.seat(new.id, seat["side"], int(seat["user_id"]))
        return await self._game_info(new.id)

    async def set_turn_notice(self, game_id: int, user_id: int, lang: str | None) -> None:
        """A seated player opts in (``lang``: the language of the message) or out (None) of a
        direct message when the game starts waiting for their side. Kept with the game's
        settings, so a rematch keeps it too."""
        async with self._lock(int(game_id)):
            row = await self._row(game_id)
            if not await self._sides_of(row["id"], user_id):
                raise NotSeated(f"You have no seat in game #{row['id']}.")
            settings = json.loads(row["settings_json"] or "{}")
            notify = dict(settings.get("notify") or {})
            if lang is None:
                notify.pop(str(int(user_id)), None)
            else:
                notify[str(int(user_id))] = lang
            settings["notify"] = notify
            await self.store.update_game(
                row["id"], settings_json=dumps(settings), updated_at=self._clock()
            )

    async def cancel_lobby(self, game_id: int) -> GameInfo:
        """Close a game that never started: it is finished with no winner (reason
        "cancelled") and no longer counts against the open-games limits. A started game is
        ended by resigning instead, so its log keeps who gave up."""
        async with self._lock(int(game_id)):
            row = await self._row(game_id)
            if row["status"] != "lobby":
                raise GameNotActive(
                    f"Game #{row['id']} has already started (it is "
                    f"{row['status']}); a started game ends by /game resign."
                )
            await self.store.update_game(
                row["id"],
                status="finished",
                result_json=dumps({"winner": None, "reason": "cancelled"}),
                updated_at=self._clock(),
            )
        return await self._game_info(game_id)

    async def get_game(self, game_id: int) -> GameInfo:
        return await self._game_info(game_id)

    async def find_by_thread(self, thread_id: int) -> GameInfo | None:
        row, seats = await self.store.game_in_thread(thread_id)
        if row is None:
            return None
        # the whole row and its seats, read together: not read again within the command
        self._remember_row(row)
        reads = _READS.get()
        if reads is not None:
            reads[("seats", row["id"])] = seats
        return await self._game_info(row["id"])

    async def list_games(
        self, guild_id: int | None = None, status: str | None = None
    ) -> list[GameInfo]:
        return [
            await self._game_info(r["id"])
            for r in await self.store.games(guild_id=guild_id, status=status)
        ]

    async def resign(self, game_id: int, side: str, *, actor: str = "resign") -> GameInfo:
        """``side`` gives up; with two sides the other wins. Logged like an action; the seed
        is revealed."""
        out = await self._act(
            game_id,
            {"type": "resign", "side": side},
            actor=actor,
            expected_version=None,
            allow_paused=True,
            check_seat=False,
        )
        return out.game

    # ----- play --------------------------------------------------------------------------
    async def act(
        self, game_id: int, action: dict, *, actor: str, expected_version: int | None = None
    ) -> Outcome:
        """Apply ``action`` (which names its ``side``). A ``user:<id>`` actor must be seated on
        that side; referee actions (``side: "referee"``) are also accepted while paused.
        Actions only the service takes (resigning, losing on time) are refused here: they
        have their own doors (``resign``, the clock)."""
        if isinstance(action, dict) and action.get("type") in SERVICE_ACTIONS:
            raise RuleError(
                f"/{action['type']} is not a move; to give up use /game resign "
                "(a clock running out is decided by the bot alone)."
            )
        self._admit()
        self._acting += 1
        try:
            return await self._act(
                game_id,
                action,
                actor=actor,
                expected_version=expected_version,
                allow_paused=False,
                check_seat=True,
            )
        finally:
            self._acting -= 1

    def _admit(self) -> None:
        """Refuse a new action at once (Overloaded) when the bot is saturated; see
        MAX_ACTIONS_IN_FLIGHT."""
        if self._acting >= MAX_ACTIONS_IN_FLIGHT:
            raise Overloaded("actions")
        if self._pictures_backed_up:
            raise Overloaded("pictures")

    async def _act(
        self, game_id, action, *, actor, expected_version, allow_paused, check_seat
    ) -> Outcome:
        if not isinstance(action, dict):
            raise RuleError("An action needs a type.")
        action = dict(action)
        async with self._lock(int(game_id) if str(game_id).isdigit() else -1):
            row, state = await self._load(game_id)
            if expected_version is not None and int(expected_version) != row["version"]:
                raise StaleVersion(row["id"], int(expected_version), row["version"])
            side = action.get("side")
            referee = side == "referee"
            self._require_playable(row, allow_paused=allow_paused or referee)
            ruleset = self._ruleset(row["ruleset"])
            if check_seat and not referee:
                await self._require_seat(row, ruleset, actor, side)
            if referee and str(actor).startswith("user:"):
                # A member edits as a referee only through the referee commands (actor
                # "referee:<id>", checked there); a player's action that names the referee's
                # side, by whatever way, is refused rather than trusted.
                raise NotSeated("Only a referee can make referee changes (/ref ...).")
            settings = json.loads(row["settings_json"])
            now = self._clock()
            if not referee and await self._clock_expired(row, settings, side, now):
                await self._handle_timeout(row, state, ruleset, settings, side, now)
                raise GameNotActive(
                    f"{possessive(ruleset.side_titles.get(side, side))} clock has run out; "
                    f"the action was not played."
                )
            seq = await self._next_seq(row)
            source = None
            if self._dice_queue:
                source = _OverrideSource(self._dice_queue, SeededSource(row["seed"], seq))
                dice = Dice(source)
            else:
                dice = seeded(row["seed"], seq)
            new_state, events = await asyncio.to_thread(apply_logged, ruleset, state, action, dice)
            version = await self._commit(
                row,
                ruleset,
                settings,
                state,
                new_state,
                action,
                events,
                dice,
                seq,
                actor,
                now,
                fixed=bool(source and source.used_override),
            )
            after = self._cache[row["id"]][1]  # new_state as kept: read-only, shared
            if source is not None:
                self._dice_queue = source.queue
            row = await self._row(row["id"])  # as _commit wrote it
            turn_ended = (new_state.get("turn"), new_state.get("active")) != (
                state.get("turn"),
                state.get("active"),
            ) or bool(ruleset.result(new_state))
            return Outcome(
                game=self._info(row, after),
                action=action,
                events=events,
                version=version,
                seq=seq,
                turn_ended=turn_ended,
                game_over=bool(ruleset.result(new_state)),
            )

    async def _commit(
        self,
        row,
        ruleset,
        settings,
        state,
        new_state,
        action,
        events,
        dice,
        seq,
        actor,
        now,
        fixed=False,
    ) -> int:
        result = ruleset.result(new_state)
        fields: dict[str, Any] = {}
        if result:
            fields = {"status": "finished", "result_json": dumps(result), "flag": None}
        clocks = await self._clock_changes(
            row,
            ruleset,
            settings,
            self._awaiting(ruleset, new_state),
            now,
            increment=True,
            running=row["status"] == "active" and not result,
        )
        record = {
            "seq": seq,
            "side": str(action.get("side")),
            "actor": str(actor),
            "action_json": dumps(action),
            "events_json": dumps(events),
            "dice_json": dumps([r["value"] for r in dice.rolled]),
            "dice_source": "fixed" if fixed else "seed",
            "state_hash": state_hash(new_state),
            "turn": state.get("turn"),
            "phase": state.get("phase"),
            "active": state.get("active"),
            "label": describe_action(ruleset, state, action),
        }
        reads = _READS.get()
        seats = reads.get(("seats", row["id"])) if reads is not None else None
        text = dumps(new_state)
        try:
            self._forget(row["id"])
            version = await self.store.commit_change(
                row["id"],
                row["version"],
                now=now,
                state_json=text,
                state_hash=record["state_hash"],
                game_fields=fields,
                action=record,
                clocks=clocks,
            )
        except VersionConflict as conflict:
            raise StaleVersion(row["id"], row["version"], _current(conflict, row)) from None
        self._cache[row["id"]] = (version, freeze(new_state))
        self._texts[row["id"]] = (version, text)
        self._seqs[row["id"]] = (version, seq)
        # The row as this write left it (the columns commit_change sets): the command's later
        # steps (the board, the reply) need not read it again.
        self._remember_row({**row, **fields, "version": version, "updated_at": now})
        if reads is not None and seats is not None:
            reads[("seats", row["id"])] = seats  # a change of state seats nobody
        return version

    async def _next_seq(self, row: dict) -> int:
        """The sequence number of the game's next action. Kept from this service's last
        action while the game is still at the version that action made; anything else (an
        undo, another process's action) changed the version, and the log is asked."""
        kept = self._seqs.get(row["id"])
        if kept is not None and kept[0] == row["version"]:
            return kept[1] + 1
        return await self.store.max_seq(row["id"]) + 1

    def _require_playable(self, row: dict, allow_paused: bool = False) -> None:
        status = row["status"]
        if status == "active" or (status == "paused" and allow_paused):
            return
        if status == "lobby":
            raise GameNotActive(f"Game #{row['id']} has not started yet; use /game start.")
        if status == "paused":
            why = " (a clock ran out)" if (row["flag"] or "").startswith("timeout") else ""
            raise GameNotActive(
                f"Game #{row['id']} is paused by the referee{why}; "
                f"nothing can be played until it resumes."
            )
        raise GameNotActive(f"Game #{row['id']} is over.")

    async def _require_seat(self, row: dict, ruleset: Ruleset, actor: str, side) -> None:
        user = _user_id(actor)
        if user is None:
            return
        sides = await self._sides_of(row["id"], user)
        if side in sides:
            return
        title = ruleset.side_titles.get(side, side)
        if sides:
            mine = ", ".join(ruleset.side_titles.get(s, s) for s in sides)
            raise NotSeated(f"You play {mine}, not {title}.")
        raise NotSeated(
            f"You have no seat in this game, so you cannot act for {title}; use /game join."
        )

    async def legal_actions(self, game_id: int, side: str) -> list[dict]:
        """The legal actions now. A command asks several times (autocomplete, the command,
        the board's decision buttons) for the same position: kept per game version."""
        row, state = await self._load(game_id)
        if row["status"] != "active":
            return []
        key = (row["id"], row["version"], side)
        legal = self._legal.get(key)
        if legal is None:
            ruleset = self._ruleset(row["ruleset"])
            legal = await asyncio.to_thread(ruleset.legal_actions, state, side)
            self._legal[key] = legal
        return [dict(action) for action in legal]

    async def view(self, game_id: int, side: str | None) -> dict:
        """What ``side`` (None: the public) sees now: the caller's own copy (see
        ``shared_view``)."""
        return clone(await self.shared_view(game_id, side))

    async def shared_view(self, game_id: int, side: str | None) -> dict:
        """What ``side`` (None: the public) sees now, read-only: the one copy kept for this
        game version and handed to every reader (``engine.core.state.FrozenDict``: changing
        it raises TypeError). A command reads the public view three or four times and an
        autocomplete its side's; each private copy cost as much as the ruleset's hiding
        work, so readers that only read (labels, headers, announcements) take this one."""
        row, state = await self._load(game_id)
        key = (row["id"], row["version"], side)
        shown = self._views.get(key)
        if shown is None:
            # Rulesets hide on a copy of their own (or show the state itself); what the copy
            # left as it was is the cached state's frozen part again, shared rather than
            # frozen a second time (both are read-only): about half of a view's cost.
            shown = self._views[key] = freeze_like(
                self._ruleset(row["ruleset"]).view(state, side), state
            )
        return shown

    async def undo(
        self,
        game_id: int,
        *,
        actor: str,
        side: str | None = None,
        referee: bool = False,
        expected_version: int | None = None,
        agreed_by: int | None = None,
    ) -> GameInfo:
        """Take back the last live action. Players: only their own side's, in the same turn and
        phase, and only if it rolled no die and revealed nothing. Referees: always (the log is
        replayed without it). The action stays in the audit log with ``live = 0``.

        ``expected_version``: the version the player saw when asking (the board's). If the game
        moved on meanwhile (another action, another undo) nothing is undone and StaleVersion is
        raised, so two Undo clicks on the same board take back one action, not two.

        A referee who is also seated (``actor`` ``referee:<user id>``) may take back an action
        that rolled dice only with ``agreed_by``: a player seated on a side the referee does
        not play (else UndoNeedsConsent). Dice are the one thing a player-referee could rewind
        in their own favour; a referee without a seat, or one who plays every side, has no
        opponent at the table to wrong."""
        async with self._lock(int(game_id)):
            row, state = await self._load(game_id)
            if expected_version is not None and int(expected_version) != row["version"]:
                raise StaleVersion(row["id"], int(expected_version), row["version"])
            if row["status"] == "finished":
                raise GameNotActive(
                    f"Game #{row['id']} is over and its seed is public; it cannot be rewound."
                )
            self._require_playable(row, allow_paused=referee)
            ruleset = self._ruleset(row["ruleset"])
            # The last two live actions: the one taken back and the one whose snapshot is the
            # state before it (the whole log only if that snapshot is gone).
            live = await self.store.last_live_actions(row["id"], 2)
            if not live:
                raise ServiceError("There is nothing to undo.")
            last = live[-1]
            undone_by = str(actor)
            if not referee:
                self._check_player_undo(row, ruleset, state, last, side)
                await self._require_seat(row, ruleset, actor, last["side"])
            else:
                agreed = await self._referee_undo_consent(row, ruleset, actor, last, agreed_by)
                if agreed is not None:
                    undone_by = f"{actor};agreed:user:{agreed}"
            new_state = await self._state_before(row, live)
            now = self._clock()
            settings = json.loads(row["settings_json"])
            clocks = await self._clock_changes(
                row,
                ruleset,
                settings,
                self._awaiting(ruleset, new_state),
                now,
                increment=False,
                running=row["status"] == "active",
            )
            try:
                self._forget(row["id"])
                version = await self.store.commit_change(
                    row["id"],
                    row["version"],
                    now=now,
                    state_json=(text := dumps(new_state)),
                    state_hash=state_hash(new_state),
                    undo_seq=last["seq"],
                    undone_by=undone_by,
                    clocks=clocks,
                )
            except VersionConflict as conflict:
                raise StaleVersion(row["id"], row["version"], _current(conflict, row)) from None
            self._cache[row["id"]] = (version, freeze(new_state))
            self._texts[row["id"]] = (version, text)
            self._forget(row["id"])
        return await self._game_info(game_id)

    async def _referee_undo_consent(
        self, row: dict, ruleset: Ruleset, actor: str, last: dict, agreed_by: int | None
    ) -> int | None:
        """Who agreed to a seated referee's undo of an action with dice (None: no agreement
        needed); raises UndoNeedsConsent when one is needed and missing."""
        kind, _, rest = str(actor).partition(":")
        if kind != "referee" or not rest.isdigit():
            return None
        own = await self._sides_of(row["id"], int(rest))
        others = [s for s in ruleset.sides if s not in own]
        events = json.loads(last["events_json"])
        dice = [e.get("value") for e in events if e.get("type") == "roll"]
        if not own or not others or not dice:
            return None
        if agreed_by is not None and int(agreed_by) != int(rest):
            theirs = await self._sides_of(row["id"], int(agreed_by))
            if any(s in others for s in theirs):
                return int(agreed_by)
        raise UndoNeedsConsent(
            row["id"], own, others, dice, json.loads(last["action_json"]), last.get("label")
        )

    async def _state_before(self, row: dict, tail: list[dict]) -> dict:
        """The state the last live action was played on: the snapshot of the version before it
        when it is still kept and agrees with the log, else a replay without that action.
        ``tail``: the newest live actions, at least the last two (or all there are)."""
        if len(tail) >= 2:
            snap = await self.store.snapshot_at(row["id"], tail[-1]["version"] - 1)
            if snap is not None and snap["state_hash"] == tail[-2]["state_hash"]:
                state = json.loads(snap["state_json"])
                if state_hash(state) == snap["state_hash"]:
                    return state
            live = await self.store.actions(row["id"], include_undone=False)
        else:
            live = tail
        return await asyncio.to_thread(self._replay_state, row, live[:-1])

    @staticmethod
    def _check_player_undo(row, ruleset, state, last, side) -> None:
        action = json.loads(last["action_json"])
        title = ruleset.side_titles.get(last["side"], last["side"])
        if last["side"] == "referee" or action.get("type") in SERVICE_ACTIONS:
            raise ServiceError("Only a referee can take back that action.")
        if side is not None and side != last["side"]:
            raise ServiceError(
                f"You can only undo your own side's last action; the last action was {title}'s."
            )
        if (state.get("turn"), state.get("phase"), state.get("active")) != (
            last["turn"],
            last["phase"],
            last["active"],
        ):
            raise ServiceError(
                "That action was in an earlier phase or turn; only a referee can take it back now."
            )
        blockers = undo_blockers(json.loads(last["events_json"]))
        if blockers:
            raise ServiceError(
                f"That action cannot be taken back by a player ({', '.join(blockers)})"
                f"; ask a referee."
            )

    async def history(
        self, game_id: int, since_version: int = 0, include_undone: bool = False
    ) -> list[ActionRecord]:
        row = await self._row(game_id)
        rows = await self.store.actions(row["id"], include_undone=include_undone)
        return [self._record(r) for r in rows if r["version"] > since_version]

    @staticmethod
    def _record(r: dict) -> ActionRecord:
        return ActionRecord(
            seq=r["seq"],
            version=r["version"],
            side=r["side"],
            actor=r["actor"],
            action=json.loads(r["action_json"]),
            events=json.loads(r["events_json"]),
            state_hash=r["state_hash"],
            live=bool(r["live"]),
            created_at=r["created_at"],
            undone_by=r["undone_by"],
            undone_at=r["undone_at"],
            turn=r["turn"],
            phase=r["phase"],
            active=r["active"],
            label=r.get("label"),
        )

    async def changes_since(self, game_id: int, side: str, lang: str = "en") -> list[str]:
        """Human lines for everything that happened since ``side`` last acted (everything, if
        it never did). Other sides' private events are left out. ``lang``: the reader's
        language for side names (the game's own lines are its own words)."""
        row, state = await self._load(game_id)
        ruleset = self._ruleset(row["ruleset"])
        lines: list[str] = []
        for r in await self.store.live_actions_since_side(row["id"], side):
            who = (
                REFEREE.get(lang, "Referee")
                if r["side"] == "referee"
                else ruleset.side_title(r["side"], lang)
            )
            action = json.loads(r["action_json"])
            # The stored label is English, worded for the position it was played in; another
            # reader gets the command itself (the events below are told in their language).
            if lang == "en":
                label = r.get("label") or describe_action(ruleset, state, action)
            else:
                label = format_command(action)
            lines.append(f"{who}: {label}")
            for event in json.loads(r["events_json"]):
                if event.get("private") and event.get("private") != side:
                    continue
                text = describe_event(ruleset, state, event, lang)
                if text:
                    lines.append(f"  {text}")
        return lines

    # ----- pictures ----------------------------------------------------------------------
    @staticmethod
    def _renderer():
        try:
            import renderer
        except ImportError as exc:
            raise ServiceError(
                f"Pictures are not available: the renderer cannot be loaded ({exc})."
            ) from None
        if not hasattr(renderer, "render_png"):
            raise ServiceError("Pictures are not available: the renderer is not installed yet.")
        return renderer

    @staticmethod
    def _visible(events: list[dict], viewer: str | None) -> list[dict]:
        return [e for e in events if not e.get("private") or e.get("private") == viewer]

    @staticmethod
    def _last_segment(rows: list[dict]) -> list[dict]:
        """The trailing actions taken in the same player-turn as the last one."""
        if not rows:
            return []
        key = (rows[-1]["turn"], rows[-1]["active"])
        start = len(rows)
        while start > 0 and (rows[start - 1]["turn"], rows[start - 1]["active"]) == key:
            start -= 1
        return rows[start:]

    async def render(
        self,
        game_id: int,
        viewer: str | None = None,
        at_version: int | None = None,
        flares: Iterable[str] = (),
        lang: str = "en",
    ) -> bytes:
        """The board PNG: now, or after the live actions up to ``at_version``; the arrows and
        dice are those of the last player-turn; ``flares`` are cell labels to mark; its words
        in ``lang`` (the reader's language, "en" or "de")."""
        row, state = await self._load(game_id)
        ruleset = self._ruleset(row["ruleset"])
        renderer = self._renderer()
        if at_version is not None and int(at_version) != row["version"]:
            if int(at_version) < 0 or int(at_version) > row["version"]:
                raise ServiceError(
                    f"Version {at_version} does not exist; the game is at version {row['version']}."
                )
            live = await self.store.actions(row["id"], include_undone=False)
            live = [r for r in live if r["version"] <= int(at_version)]
            state = await asyncio.to_thread(self._replay_state, row, live)
            segment = self._last_segment(live)
        else:
            # Only the last player-turn's actions: the picture's cost does not grow with the
            # game's length.
            segment = await self.store.last_turn_actions(row["id"])
        events = [e for r in segment for e in json.loads(r["events_json"])]
        return await self._draw(renderer, ruleset, state, events, viewer, tuple(flares), lang)

    async def _draw(
        self, renderer, ruleset, state, events, viewer, flares=(), lang: str = "en"
    ) -> bytes:
        """Scene and picture made in the picture pool (bounded: Overloaded when full). A
        stand-in renderer (tests) draws in a thread under the same bound."""
        if getattr(renderer.render_png, "__module__", None) == "renderer.render":
            return await self.pictures.board(
                ruleset, state, self._visible(events, viewer), viewer, flares, picture_lang(lang)
            )
        scene = await asyncio.to_thread(self._scene, ruleset, state, events, viewer, flares, lang)
        return await self._picture(renderer, scene)

    async def _picture(self, renderer, scene: dict) -> bytes:
        """Every picture a player can ask for goes through the bounded picture pool."""
        if getattr(renderer.render_png, "__module__", None) == "renderer.render":
            return await self.pictures.render(scene)
        return await self.pictures.run(renderer.render_png, scene, in_process=False)

    async def ask(
        self,
        game_id: int,
        name: str,
        options: dict[str, str],
        viewer: str | None = None,
        picture: bool = True,
        lang: str = "en",
    ) -> tuple[str, bytes | None]:
        """Answer a ruleset's read-only query (``/los from: to:``, ``/info unit:``) for
        ``viewer``'s view of the game, in ``lang`` where the answer has words of its own: its
        text and, when the ruleset gives a scene and ``picture``, the PNG. Nothing is stored or
        logged; a bad query raises RuleError."""
        row, state = await self._load(game_id)
        ruleset = self._ruleset(row["ruleset"])
        answer = ruleset.query(
            ruleset.view(clone(state), viewer), viewer, name, dict(options), lang=lang
        )
        if answer.scene is None or not picture:
            return answer.text, None
        renderer = self._renderer()
        return answer.text, await self._picture(renderer, answer.scene)

    def _scene(self, ruleset, state, events, viewer, flares=(), lang: str = "en") -> dict:
        return scene_of(
            ruleset, state, self._visible(events, viewer), viewer, flares, picture_lang(lang)
        )

    @staticmethod
    def _turn_groups(turns: list[int | None]) -> list[int]:
        """For each frame of a replay, how many live actions it shows: 0 (the setup), then the
        end of each run of actions taken in one turn (``turns``: each live action's turn)."""
        ends = [0]
        for index, turn in enumerate(turns):
            if index + 1 == len(turns) or turns[index + 1] != turn:
                ends.append(index + 1)
        return ends

    def _replay_frames(
        self,
        ruleset: Ruleset,
        row: dict,
        index: list[tuple[int, int | None, int]],
        ends: list[int],
        wanted: set[int],
        wait: Callable[[Any], Any],
    ) -> Iterator[tuple[dict, list[dict]]]:
        """(state at its end, its events) of each ``wanted`` frame of a replay (0: the setup,
        then one per turn), in order. Runs in a worker thread; ``wait`` runs one of the store's
        coroutines on the event loop and returns its result.

        ``index`` is the live log as the replay started (:meth:`Store.live_action_index`) and
        ``ends`` its frames' ends (:meth:`_turn_groups`); only
        those actions are applied, so an undo made meanwhile changes nothing here. Its cost
        does not grow with the game's length: when a frame's turn starts more than
        ``CHECKPOINT_EVERY`` actions beyond where the replay is, it starts again from the newest
        sound checkpoint before that turn instead of applying every action in between, and the
        actions are read a bounded batch at a time, so a frame costs about ``CHECKPOINT_EVERY``
        actions plus its own turn's at most (unless every nearby checkpoint was taken back) and
        one state is held at a time."""
        seqs = [seq for seq, _, _ in index]
        state, _ = new_game(ruleset, json.loads(row["scenario_json"]), row["seed"])
        applied = 0  # live actions of ``index`` the state has seen
        for frame in sorted(wanted):
            if frame == 0:
                yield state, []
                continue
            start, end = ends[frame - 1], ends[frame]
            if start - applied > store_module.CHECKPOINT_EVERY:
                # the checkpoints are read on the event loop, parsed and checked here
                kept = self._first_sound(wait(self._checkpoints_of_log(row, index[start - 1][2])))
                if kept is not None:
                    checkpoint_state, after_seq = kept
                    position = bisect.bisect_right(seqs, after_seq)
                    # a state of this log (its action was live when the replay started) and
                    # further on than the replay is
                    if position > applied and seqs[position - 1] == after_seq:
                        state, applied = checkpoint_state, position
            events: list[dict] = []
            while applied < end:
                batch_end = min(end, applied + REPLAY_BATCH)
                wanted_seqs = set(seqs[applied:batch_end])
                rows = wait(
                    self.store.actions_live_at(
                        row["id"],
                        row["version"],
                        seqs[applied - 1] if applied else 0,
                        seqs[batch_end - 1],
                    )
                )
                rows = [r for r in rows if r["seq"] in wanted_seqs]
                if len(rows) != batch_end - applied:
                    raise ReplayUnreadable(
                        f"The log of game #{row['id']} lost actions while its replay was drawn."
                    )
                for r in rows:
                    state, got = apply_logged(
                        ruleset, state, json.loads(r["action_json"]), dice_for(r, row["seed"])
                    )
                    if applied >= start:
                        events += got
                    applied += 1
            yield state, events

    async def _checkpoints_of_log(self, row: dict, version: int) -> list[tuple[dict, int]]:
        """The newest kept states at or before ``version`` (at most three) whose hash agrees
        with the live action each follows, newest first, with that action's seq: states of
        the live log, unless their text was damaged (:meth:`_first_sound` checks it). One taken
        back since is passed over."""
        found = []
        for checkpoint in await self.store.checkpoints_upto(row["id"], version):
            base = await self.store.newest_live_action_upto(row["id"], checkpoint["version"])
            if base is not None and base["state_hash"] == checkpoint["state_hash"]:
                found.append((checkpoint, int(base["seq"])))
        return found

    @staticmethod
    def _first_sound(found: list[tuple[dict, int]]) -> tuple[dict, int] | None:
        """The first of :meth:`_checkpoints_of_log`'s states whose text still hashes to its
        hash, parsed: (state, the seq of the action it follows), or None."""
        for checkpoint, seq in found:
            state = json.loads(checkpoint["state_json"])
            if state_hash(state) == checkpoint["state_hash"]:
                return state, seq
        return None

    async def render_turn(
        self, game_id: int, turn: int, viewer: str | None = None, lang: str = "en"
    ) -> bytes:
        """The board as it stood after turn ``turn`` (with that turn's moves and dice).
        Heavy work: refused with GameBusy while another runs for this game. The state comes
        from the nearest kept checkpoint, never from a replay of the whole game."""
        row, _ = await self._load(game_id)
        renderer = self._renderer()
        ruleset = self._ruleset(row["ruleset"])
        turn = int(turn)
        async with self.heavy(row["id"]):
            rows = await self.store.live_actions_of_turn(row["id"], turn)
            if rows:
                state = await self._state_after(row, ruleset, rows[-1])
                events = [e for r in rows for e in json.loads(r["events_json"])]
                return await self._draw(renderer, ruleset, state, events, viewer, (), lang)
            if turn == 0:  # the setup, before anyone acted
                state, _ = await asyncio.to_thread(
                    new_game, ruleset, json.loads(row["scenario_json"]), row["seed"]
                )
                return await self._draw(renderer, ruleset, state, [], viewer, (), lang)
            played = [t for t in await self.store.live_turns(row["id"]) if t]
        raise ServiceError(
            f"Turn {turn} has not been played; turns so far: "
            f"{', '.join(map(str, played)) or 'none'}."
        )

    async def _state_after(self, row: dict, ruleset: Ruleset, target: dict) -> dict:
        """The state right after live action ``target``: its own snapshot if still kept, else
        a replay from the nearest checkpoint before it whose hash agrees with the log (at most
        CHECKPOINT_EVERY actions), else from the setup."""
        snap = await self.store.snapshot_at(row["id"], target["version"])
        if snap is not None and snap["state_hash"] == target["state_hash"]:
            state = json.loads(snap["state_json"])
            if state_hash(state) == snap["state_hash"]:
                return state
        kept = self._first_sound(await self._checkpoints_of_log(row, target["version"]))
        start_state, after_seq = kept if kept is not None else (None, 0)
        rows = await self.store.live_actions_between(row["id"], after_seq, target["seq"])
        seed = row["seed"]

        def replay() -> dict:
            if start_state is None:
                return replay_rows(ruleset, json.loads(row["scenario_json"]), seed, rows).state
            state = start_state
            for r in rows:
                state, _ = apply_logged(
                    ruleset, state, json.loads(r["action_json"]), dice_for(r, seed)
                )
            return state

        return await asyncio.to_thread(replay)

    async def render_animation(
        self,
        game_id: int,
        viewer: str | None = None,
        *,
        max_bytes: int = DISCORD_ATTACHMENT_LIMIT,
        max_frames: int = MAX_REPLAY_FRAMES,
        lang: str = "en",
    ) -> bytes:
        """An animated picture of the game: the setup, then one frame per turn, at most
        ``max_frames`` frames (a longer game shows every n-th turn, and always its last) and
        at most ``max_bytes`` (Discord's attachment limit). A finished game's replay is
        cached. Heavy work: refused with GameBusy while another runs for this game."""
        row, _ = await self._load(game_id)
        renderer = self._renderer()
        if not hasattr(renderer, "render_animation"):
            raise ServiceError("Replays are not available: the renderer cannot animate yet.")
        lang = picture_lang(lang)
        key = (row["id"], row["version"], viewer, int(max_bytes), int(max_frames), lang)
        if row["status"] == "finished":
            cached = self._replays.get(key)
            if cached is not None:
                return cached
        ruleset = self._ruleset(row["ruleset"])
        async with self.heavy(row["id"]):
            index = await self.store.live_action_index(row["id"])
            ends = self._turn_groups([turn for _, turn, _ in index])
            count = len(ends)
            stride = max(1, -(-count // max(2, int(max_frames))))
            wanted = set(range(0, count, stride)) | {count - 1}
            loop = asyncio.get_running_loop()
            abandoned = threading.Event()

            def wait(coroutine):
                if abandoned.is_set():
                    coroutine.close()
                    raise ReplayAbandoned
                future = asyncio.run_coroutine_threadsafe(coroutine, loop)
                try:
                    # bounded: a thread left waiting on a loop that stopped would hold the
                    # process's exit (the default executor is joined at shutdown)
                    return future.result(timeout=REPLAY_READ_TIMEOUT)
                except TimeoutError:
                    future.cancel()
                    raise ReplayUnreadable(
                        f"The replay of game #{row['id']} could not read the game's log in time."
                    ) from None

            def build(max_width: int) -> bytes:
                scenes = (
                    self._scene(ruleset, s, events, viewer, (), lang)
                    for s, events in self._replay_frames(ruleset, row, index, ends, wanted, wait)
                )
                return renderer.render_animation(
                    scenes, max_bytes=int(max_bytes), max_width=max_width
                )

            data = b""
            for max_width in REPLAY_WIDTHS:
                try:
                    data = await asyncio.to_thread(build, max_width)
                except asyncio.CancelledError:
                    # nobody waits for this replay any more: its thread stops at its next read
                    # instead of drawing the rest of the game
                    abandoned.set()
                    raise
                if len(data) <= max_bytes:
                    break
            else:
                raise ReplayTooBig(
                    f"The replay of game #{row['id']} does not fit in "
                    f"{max_bytes // (1024 * 1024)} MiB even at its smallest."
                )
        if row["status"] == "finished":
            self._replays.put(key, data)
        return data

    # ----- audit -------------------------------------------------------------------------
    async def verify(self, game_id: int, seed: str | None = None) -> VerifyReport:
        """Replay every logged action with the seed (the stored one, or ``seed`` to check a
        revealed seed) and compare every die and state hash with the log."""
        key = (await self._row(game_id))["id"]
        row, rows, snap = await self.store.game_log(key)
        if row is None:
            raise GameNotFound(game_id)
        ruleset = self._ruleset(row["ruleset"])
        async with self.heavy(row["id"]):
            return await self._verify(row, ruleset, seed, rows, snap)

    async def _verify(
        self, row: dict, ruleset: Ruleset, seed: str | None, rows: list[dict], snap: dict | None
    ) -> VerifyReport:
        return await asyncio.to_thread(
            verify_log,
            ruleset,
            json.loads(row["scenario_json"]),
            str(seed) if seed is not None else row["seed"],
            row["seed_hash"],
            json.loads(row["setup_events"]),
            rows,
            snap["state_hash"] if snap else None,
        )

    # ----- seats and referees ------------------------------------------------------------
    async def seat(self, game_id: int, side: str, user_id: int) -> None:
        row = await self._row(game_id)
        ruleset = self._ruleset(row["ruleset"])
        if side not in ruleset.sides:
            raise ServiceError(
                f"{ruleset.title or row['ruleset']} has no side {side!r}; sides: "
                f"{', '.join(ruleset.sides)}."
            )
        self._forget(row["id"])
        await self.store.seat(row["id"], side, int(user_id))

    async def unseat(self, game_id: int, user_id: int) -> None:
        row = await self._row(game_id)
        self._forget(row["id"])
        await self.store.unseat(row["id"], int(user_id))

    async def seats(self, game_id: int) -> dict[str, list[int]]:
        row = await self._known(game_id)
        out: dict[str, list[int]] = {side: [] for side in self._ruleset(row["ruleset"]).sides}
        for seat in await self._seat_rows(row["id"]):
            out.setdefault(seat["side"], []).append(seat["user_id"])
        return out

    async def _sides_of(self, game_id: int, user_id: int) -> list[str]:
        return [s["side"] for s in await self._seat_rows(game_id) if s["user_id"] == int(user_id)]

    async def sides_of(self, game_id: int, user_id: int) -> list[str]:
        row = await self._known(game_id)
        return await self._sides_of(row["id"], user_id)

    async def set_guild_config(
        self,
        guild_id: int,
        referee_role_id: int | None = None,
        locale: str | None = None,
        max_open_per_user: int | None = None,
        max_open_per_guild: int | None = None,
    ) -> None:
        """Arguments left at None keep their stored value."""
        for name, cap in (
            ("max_open_per_user", max_open_per_user),
            ("max_open_per_guild", max_open_per_guild),
        ):
            if cap is not None and (not isinstance(cap, int) or not 1 <= cap <= 1000):
                raise ServiceError(f"{name} must be a whole number from 1 to 1000, not {cap!r}.")
        fields = {
            k: v
            for k, v in (
                ("referee_role_id", referee_role_id),
                ("locale", locale),
                ("max_open_per_user", max_open_per_user),
                ("max_open_per_guild", max_open_per_guild),
            )
            if v is not None
        }
        reads = _READS.get()
        if reads is not None:
            reads.pop(("guild", int(guild_id)), None)
        await self.store.set_guild_config(int(guild_id), **fields)

    async def guild_config(self, guild_id: int) -> dict:
        """The server's settings; caps on open games filled in with the defaults."""
        reads = _READS.get()
        key = ("guild", int(guild_id))
        if reads is not None and key in reads:
            return dict(reads[key])
        row = dict(
            await self.store.guild_config(int(guild_id))
            or {"guild_id": int(guild_id), "referee_role_id": None, "locale": None}
        )
        if row.get("max_open_per_user") is None:
            row["max_open_per_user"] = DEFAULT_MAX_OPEN_PER_USER
        if row.get("max_open_per_guild") is None:
            row["max_open_per_guild"] = DEFAULT_MAX_OPEN_PER_GUILD
        if reads is not None:
            reads[key] = dict(row)
        return row

    async def open_games(
        self, *, guild_id: int | None = None, creator_id: int | None = None
    ) -> int:
        """How many games not yet finished (lobby, running, paused) a server holds or a member
        created."""
        return await self.store.count_open_games(
            OPEN_STATUSES,
            guild_id=None if guild_id is None else int(guild_id),
            creator_id=None if creator_id is None else int(creator_id),
        )

    # ----- posts -------------------------------------------------------------------------
    async def record_post(
        self, game_id: int, kind: str, channel_id: int | None, message_id: int, version: int
    ) -> None:
        row = await self._known(game_id)
        await self.store.record_post(
            row["id"], kind, channel_id, int(message_id), int(version), self._clock()
        )

    async def posts(self, game_id: int, kind: str | None = None) -> list[dict]:
        row = await self._known(game_id)
        return await self.store.posts(row["id"], kind)

    async def post(self, message_id: int) -> dict | None:
        """The recorded post (game_id, kind, channel_id, message_id, version) or None."""
        return await self.store.post(int(message_id))

    # ----- flares ------------------------------------------------------------------------
    async def add_flare(self, game_id: int, label: str) -> list[str]:
        """Mark a cell for the pictures until the next turn post; returns every mark."""
        row = await self._known(game_id)
        await self.store.add_flare(row["id"], str(label), self._clock())
        return await self.store.flares(row["id"])

    async def flares(self, game_id: int) -> list[str]:
        row = await self._known(game_id)
        return await self.store.flares(row["id"])

    async def clear_flares(self, game_id: int, labels) -> None:
        """Remove the given marks (the ones a turn post showed; a mark added meanwhile stays)."""
        row = await self._known(game_id)
        await self.store.clear_flares(row["id"], list(labels))

    # ----- slow turns --------------------------------------------------------------------
    async def _clock_changes(
        self,
        row: dict,
        ruleset: Ruleset,
        settings: dict,
        awaiting_after: list[str],
        now: float,
        *,
        increment: bool,
        running: bool,
    ) -> list[dict]:
        """Clock rows to write with a change of state: a side that stops being awaited is
        charged the time it took (and, if ``increment``, gets the increment up to the cap); a
        side that starts being awaited starts its clock. Only awaited sides' clocks run."""
        clock = settings.get("clock")
        if not clock:
            return []
        stored = {c["side"]: c for c in await self._clock_rows(row["id"])}
        changes = []
        for side in ruleset.sides:
            c = dict(
                stored.get(side)
                or {
                    "side": side,
                    "remaining": clock.get("initial"),
                    "started_at": None,
                    "last_reminder_at": None,
                }
            )
            was_running = c["started_at"] is not None
            should_run = running and side in awaiting_after
            if was_running and not should_run:
                if c["remaining"] is not None:
                    c["remaining"] = c["remaining"] - (now - c["started_at"])
                    if increment:
                        c["remaining"] += clock.get("increment") or 0
                    if clock.get("cap") is not None:
                        c["remaining"] = min(c["remaining"], clock["cap"])
                c["started_at"] = None
            elif should_run and not was_running:
                c["started_at"] = now
                c["last_reminder_at"] = None
            else:
                continue
            changes.append(c)
        return changes

    @staticmethod
    def _left(c: dict, now: float) -> float | None:
        if c["remaining"] is None:
            return None
        if c["started_at"] is None:
            return c["remaining"]
        return c["remaining"] - (now - c["started_at"])

    async def _clock_expired(self, row: dict, settings: dict, side, now: float) -> bool:
        if (settings.get("clock") or {}).get("initial") is None:
            return False
        for c in await self._clock_rows(row["id"]):
            if c["side"] == side:
                left = self._left(c, now)
                return left is not None and c["started_at"] is not None and left <= 0
        return False

    async def clocks(self, game_id: int) -> dict[str, float]:
        """Seconds left per side as of now ({} without a time control)."""
        row = await self._known(game_id)
        now = self._clock()
        left = {c["side"]: self._left(c, now) for c in await self.store.clocks(row["id"])}
        return {side: seconds for side, seconds in left.items() if seconds is not None}

    async def set_clock(self, game_id: int, side: str, seconds: float) -> dict[str, float]:
        """A referee sets a side's remaining time (e.g. after a timeout)."""
        async with self._lock(int(game_id)):
            row, state = await self._load(game_id)
            ruleset = self._ruleset(row["ruleset"])
            if side not in ruleset.sides:
                raise ServiceError(f"Unknown side {side!r}; sides: {', '.join(ruleset.sides)}.")
            now = self._clock()
            stored = {c["side"]: c for c in await self.store.clocks(row["id"])}
            c = dict(
                stored.get(side) or {"side": side, "started_at": None, "last_reminder_at": None}
            )
            c["remaining"] = float(seconds)
            if c["started_at"] is not None:
                c["started_at"] = now
            self._forget(row["id"])
            await self.store.put_clocks(row["id"], [c])
        return await self.clocks(game_id)

    async def _clocks_to_check(self) -> list[dict]:
        plan = self.shard_plan
        if plan is None:
            return await self.store.clocks_to_check()
        return await self.store.clocks_to_check(plan.ids, plan.count)

    async def due_reminders(self) -> list[tuple[GameInfo, str]]:
        """(game, side) for each due reminder (see :meth:`reminders`), with the whole game."""
        claimed = await self.reminders()
        reads = _READS.get()
        if reads is not None and claimed:
            # Inside same_reads(): every reminded game's row in one read, not one per game.
            for row in await self.store.games_by_ids(sorted({r.id for r in claimed})):
                reads[("row", row["id"])] = row
        return [(await self._game_info(r.id), r.side) for r in claimed]

    async def reminders(self) -> list[Reminder]:
        """A :class:`Reminder` for each awaited side whose last reminder (or turn start) is at
        least ``remind_every`` ago; each is claimed in the database (``Store.claim_reminder``)
        before it is returned, so of several processes, or a process and its restarted self,
        exactly one gets it, and the next one comes an interval later.

        However many are due, a pass reads the clocks with their games' columns once, claims in
        one transaction, and reads the seats and the newest board posts of all reminded games
        in one query each; no game's state is read."""
        now = self._clock()
        wanted = []
        for c in await self._clocks_to_check():
            every = (json.loads(c["settings_json"]).get("clock") or {}).get("remind_every")
            if not every:
                continue
            since = c["last_reminder_at"] if c["last_reminder_at"] is not None else c["started_at"]
            if now - since < every:
                continue
            wanted.append(c)
        if not wanted:
            return []
        # All claims in one transaction: one commit per pass, not one per reminder.
        won = await self.store.claim_reminders(
            [(c["game_id"], c["side"], c["started_at"], c["last_reminder_at"]) for c in wanted], now
        )
        claimed = [c for c, ok in zip(wanted, won) if ok]  # else another process has it
        if not claimed:
            return []
        ids = sorted({c["game_id"] for c in claimed})
        seats: dict[int, list[dict]] = {game_id: [] for game_id in ids}
        for seat in await self.store.seats_of_games(ids):
            seats[seat["game_id"]].append({"side": seat["side"], "user_id": seat["user_id"]})
        reads = _READS.get()
        if reads is not None:
            for game_id, rows in seats.items():
                reads[("seats", game_id)] = rows
        posts = await self.store.newest_posts(ids, "turn")
        out = []
        for c in claimed:
            post = posts.get(c["game_id"])
            out.append(
                Reminder(
                    id=c["game_id"],
                    ruleset=c["ruleset"],
                    side=c["side"],
                    people=[s["user_id"] for s in seats[c["game_id"]] if s["side"] == c["side"]],
                    left=self._left(c, now),
                    version=c["version"],
                    guild_id=c["guild_id"],
                    channel_id=c["channel_id"],
                    thread_id=c["thread_id"],
                    board=(
                        (int(post["channel_id"]), int(post["message_id"]), int(post["version"]))
                        if post is not None
                        else None
                    ),
                )
            )
        return out

    async def check_timeouts(self) -> list[tuple[GameInfo, str, str]]:
        """(game, side, what_happened) for every clock that ran out; what_happened is
        ``"referee"`` (paused and flagged for the referee) or ``"forfeit"`` (the side lost).
        Each timeout is handled by exactly one process: a forfeit is an action guarded by the
        game's version, a pause is guarded by status and version
        (``Store.pause_for_timeout``); the loser of either race reports nothing."""
        now = self._clock()
        out = []
        for c in await self._clocks_to_check():
            left = self._left(c, now)
            if left is None or left > 0:
                continue
            async with self._lock(c["game_id"]):
                row, state = await self._load(c["game_id"])
                settings = json.loads(row["settings_json"])
                if row["status"] != "active" or not await self._clock_expired(
                    row, settings, c["side"], now
                ):
                    continue
                ruleset = self._ruleset(row["ruleset"])
                try:
                    what = await self._handle_timeout(row, state, ruleset, settings, c["side"], now)
                except StaleVersion:
                    continue  # another process changed the game first (e.g. forfeited it)
                if what is None:
                    continue
            out.append((await self._game_info(row["id"]), c["side"], what))
        return out

    async def _handle_timeout(self, row, state, ruleset, settings, side, now) -> str | None:
        """Called under the game's lock with the side's clock at or below zero; None if
        another process handled this timeout first."""
        what = settings["clock"].get("on_timeout", "referee")
        if what == "forfeit":
            action = {"type": "forfeit", "side": side}
            seq = await self._next_seq(row)
            dice = seeded(row["seed"], seq)
            new_state, events = apply_logged(ruleset, state, action, dice)
            await self._commit(
                row, ruleset, settings, state, new_state, action, events, dice, seq, "clock", now
            )
            return what
        clocks = await self._clock_changes(
            row, ruleset, settings, [], now, increment=False, running=False
        )
        for c in clocks:
            if c["side"] == side and c["remaining"] is not None:
                c["remaining"] = max(c["remaining"], 0.0)
        self._forget(row["id"])
        if not await self.store.pause_for_timeout(
            row["id"],
            row["version"],
            clocks,
            {"status": "paused", "flag": f"timeout:{side}", "updated_at": now},
        ):
            return None
        return what

    async def pause(self, game_id: int, paused: bool = True) -> GameInfo:
        """Referee pause: clocks stop and player actions are refused; ``paused=False`` resumes.
        A side whose clock ran out resumes with one increment (or, without increments, the
        initial allowance) so the game does not time out again at once."""
        async with self._lock(int(game_id)):
            row, state = await self._load(game_id)
            if row["status"] in ("lobby", "finished"):
                raise GameNotActive(
                    f"Game #{row['id']} is {'not started' if row['status'] == 'lobby' else 'over'}; "
                    "there is nothing to pause."
                )
            ruleset = self._ruleset(row["ruleset"])
            settings = json.loads(row["settings_json"])
            now = self._clock()
            if paused and row["status"] == "active":
                clocks = await self._clock_changes(
                    row, ruleset, settings, [], now, increment=False, running=False
                )
                self._forget(row["id"])
                await self.store.put_clocks(
                    row["id"], clocks, {"status": "paused", "updated_at": now}
                )
            elif not paused and row["status"] == "paused":
                clocks = await self._clock_changes(
                    row,
                    ruleset,
                    settings,
                    self._awaiting(ruleset, state),
                    now,
                    increment=False,
                    running=True,
                )
                clock = settings.get("clock") or {}
                grace = clock.get("increment") or clock.get("initial")
                for c in clocks:
                    if c["remaining"] is not None and c["remaining"] <= 0 and grace:
                        c["remaining"] = float(grace)
                self._forget(row["id"])
                await self.store.put_clocks(
                    row["id"], clocks, {"status": "active", "flag": None, "updated_at": now}
                )
        return await self._game_info(game_id)


def describe_action(ruleset: Ruleset, state: dict, action: dict) -> str:
    if action.get("type") in SERVICE_ACTIONS and action.get("side") != "referee":
        return "/game resign" if action["type"] == "resign" else "(clock ran out)"
    try:
        return ruleset.describe_action(state, action)
    except (KeyError, TypeError, ValueError, AttributeError, UmpireError):
        from engine.core.commands import format_command

        return format_command(action)


def describe_event(ruleset: Ruleset, state: dict, event: dict, lang: str = "en") -> str | None:
    """The ruleset's line for an event (in ``lang`` where the game narrates in it); dice always
    get a line even if the ruleset is silent."""
    try:
        text = ruleset.narrate(state, event, lang)
    except (KeyError, TypeError, ValueError, UmpireError):
        text = None
    if text is None and event.get("type") == "roll":
        try:
            purpose = ruleset.roll_purpose(state, event, lang)
        except (KeyError, TypeError, ValueError, UmpireError):
            purpose = str(event.get("purpose", "roll"))
        text = f"🎲 {purpose}: {event.get('value')} (d{event.get('sides', 6)})"
    if text is None and event.get("type") in SERVICE_ACTIONS:
        text = event.get("reason")
        if lang != "en" and event.get("side") in ruleset.sides:
            # The stored reason is the replay's English; a reader of another language gets
            # the same fact in the bot's words for it.
            from cogs.i18n import t

            key = "narrated_resign" if event["type"] == "resign" else "narrated_time"
            text = t(lang, key, side=ruleset.side_title(event["side"], lang))
    if text is None and event.get("type") == "referee":
        detail = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type",))
        text = f"Referee: {detail}"
    return text
