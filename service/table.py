"""The local table: ``python bot.py local``. Hot-seat play in a terminal with exactly the
commands players type in Discord, plus ``--script`` (JSON Lines, for tests and tools) and
``--autoplay``. Everything goes through :class:`service.games.GameService`, so the table
stores its games in SQLite like the bot does. See ``docs/local-table.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import secrets
import shlex
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from engine import registry
from engine.core.commands import MAX_COMMAND_CHARS, format_command, parse_command
from engine.core.errors import CommandSyntaxError, RuleError, UmpireError
from engine.core.game import MAX_AUTOPLAY_ACTIONS
from engine.core.names import AmbiguousName, possessive
from engine.core.scenario_io import read_path

from .errors import ServiceError, StorageError
from .games import GameService, describe_event
from .names import act_by_names
from .storage import BadDatabaseSetting, parse_database

DEFAULT_GAME = "tenochtitlan"
# Games named in the project plan whose rules are not written yet.
PLANNED: dict[str, str] = {}
MAX_LISTED = 40  # longer option lists are grouped in the terminal (script mode gets them all)
# After a change, a side with at most this many legal actions is shown them (Discord: buttons).
MAX_CHOICES = 5
# Header fields the "Now: ..." line already names.
FLOW_FIELDS = frozenset({"Turn", "Round", "Phase", "Step", "Active"})
# A side name, a space and the longest command.
MAX_LINE_CHARS = MAX_COMMAND_CHARS + 40
TABLE_COMMANDS = ("help", "rules", "options", "state", "board", "log", "undo", "quit")
LATEST = "latest"

HELP = """Commands (the same grammar as in Discord):
  {play}  play an action; put a side first to act for it: {side_example}
  /auto-setup       place the side's remaining units legally at random (before play){suggested}
  /options [side] [words]   the legal actions now, with the exact command to type;
                    words narrow the list ({narrow})
  /state            the full game state as JSON
  /board            write the board picture now
  /log [n]          the last n actions (default 10)
  /undo             take back your last action (same phase, no dice rolled, nothing revealed);
                    'referee /undo' takes back any last action
  /rules            the game's rules summary, its units and its terrain
  /help             this text
  /quit             leave (the game stays in the database; --resume continues it)"""


HELP_DE = """Befehle (dieselbe Schreibweise wie in Discord):
  {play}  eine Aktion spielen; die Seite davor handelt für sie: {side_example}
  /auto-setup       die übrigen Einheiten der Seite zufällig und regelgerecht aufstellen (vor dem Spiel){suggested}
  /options [Seite] [Wörter]   die erlaubten Aktionen jetzt, mit dem genauen Befehl;
                    Wörter grenzen die Liste ein ({narrow})
  /state            der ganze Spielstand als JSON
  /board            das Brettbild jetzt schreiben
  /log [n]          die letzten n Aktionen (sonst 10)
  /undo             die eigene letzte Aktion zurücknehmen (dieselbe Phase, kein Würfel, nichts
                    aufgedeckt); 'referee /undo' nimmt jede letzte Aktion zurück
  /rules            die Regeln des Spiels in Kürze, seine Einheiten und sein Gelände
  /help             dieser Text
  /quit             gehen (die Partie bleibt in der Datenbank; --resume setzt sie fort)"""

# The table's own sentences in each language it speaks (--lang); the games' words come from
# the games (narration, refusals, header, /rules), as for a Discord player of that language.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "banner": "{title} — scenario {scenario}. Sides: {sides}.",
        "seed_hash": "Seed hash {hash} (the seed is shown when the game ends).",
        "optional": "Optional rules: {rules}.",
        "boards_go": "Board pictures go to {dir}/ after each turn.",
        "type_help": "Type /help for commands, /options for what you can do now.",
        "game_over": "Game over: {reason}. Winner: {winner}.",
        "draw": "none (draw)",
        "seed_was": "The seed was {seed}; check every die with: {command}",
        "left": "Left the table. The game is saved as #{id} in {db}.",
        "continue": "Continue it with: {command}",
        "options_hint": "  (/options lists the exact commands to type; add words to narrow it)",
        "legal_count": "{count} legal action(s) for {side}:",
        "ways": "({count} ways)",
        "narrow": "Narrow it down, e.g. /options {example}",
        "nothing_played": "Nothing played yet.",
        "undone": "Undone.",
        "acts": "  (acted for {side})",
        "may_type": "  {side} may type: {choices}",
        "board_picture": "Board picture: {path}",
        "picture": "Picture: {path}",
        "now": "Now: {where} ({why}).",
        "where": "{word} {turn}, {phase}, {sides} to act",
        "not_turn": "It is not {side} turn: the game waits for {waiting}.",
        "nobody": "nobody",
        "now_for": "Now, for {side}: ",
        "commands": "This game's commands:",
        "questions": "Questions any side may ask at any time:",
        "suggested": "place them as the scenario suggests",
        "start_with": "Start with a command (/move ...) or a side and a command ({example}); "
        "sides: {sides}, referee. Got {typed}.",
        "which_side": "Say which side acts (e.g. {example}); the game waits for {waiting}.",
        "list_over": "over: {reason}",
        "list_finished": "finished",
        "continuing": "Continuing game #{id} ({game}, scenario {scenario}) from {db}",
    },
    "de": {
        "banner": "{title} — Szenario {scenario}. Seiten: {sides}.",
        "seed_hash": "Seed-Hash {hash} (der Seed wird am Ende der Partie gezeigt).",
        "optional": "Wahlregeln: {rules}.",
        "boards_go": "Brettbilder kommen nach jedem Zug nach {dir}/.",
        "type_help": "Tippe /help für die Befehle, /options für das, was du jetzt tun kannst.",
        "game_over": "Partie vorbei ({reason}). Sieger: {winner}.",
        "draw": "keiner (unentschieden)",
        "seed_was": "Der Seed war {seed}; jeden Wurf prüfst du mit: {command}",
        "left": "Tisch verlassen. Die Partie ist als #{id} in {db} gespeichert.",
        "continue": "Weiter geht es mit: {command}",
        "options_hint": "  (/options zeigt die genauen Befehle; weitere Wörter grenzen ein)",
        "legal_count": "{count} erlaubte Aktion(en) für {side}:",
        "ways": "({count} Möglichkeiten)",
        "narrow": "Grenze ein, z. B. /options {example}",
        "nothing_played": "Noch nichts gespielt.",
        "undone": "Zurückgenommen.",
        "acts": "  (gespielt für {side})",
        "may_type": "  Möglich für {side}: {choices}",
        "board_picture": "Brettbild: {path}",
        "picture": "Bild: {path}",
        "now": "Jetzt: {where} ({why}).",
        "where": "{word} {turn}, {phase}, am Zug: {sides}",
        "not_turn": "Nicht am Zug: {side}; die Partie wartet auf {waiting}.",
        "nobody": "niemand",
        "now_for": "Jetzt, für {side}: ",
        "commands": "Die Befehle dieses Spiels:",
        "questions": "Fragen, die jede Seite jederzeit stellen darf:",
        "suggested": "sie so aufstellen, wie das Szenario es vorschlägt",
        "start_with": "Beginne mit einem Befehl (/move ...) oder einer Seite und einem Befehl "
        "({example}); Seiten: {sides}, referee. Getippt: {typed}.",
        "which_side": "Sag, welche Seite handelt (z. B. {example}); die Partie wartet auf "
        "{waiting}.",
        "list_over": "vorbei: {reason}",
        "list_finished": "beendet",
        "continuing": "Partie #{id} ({game}, Szenario {scenario}) geht weiter, aus {db}",
    },
}


class TableError(Exception):
    """Bad command-line arguments; exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bot.py local", description="Umpire's local table.")
    p.add_argument(
        "--game",
        default=DEFAULT_GAME,
        help="tenochtitlan, rivet-wars, pocket-tactics, siege, tactical-table-war",
    )
    p.add_argument(
        "--scenario",
        default="",
        help="a packaged scenario name, or the path of a scenario file (.json)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="RULE",
        help="switch on one of the game's optional rules (repeatable), e.g. --option aiming; "
        "--option no-aiming switches off one the scenario plays with",
    )
    p.add_argument("--seed", default=None, help="the game's seed (default: random, printed)")
    p.add_argument(
        "--dice",
        default=None,
        help="dice to use first, in order, e.g. 6,1,4 (then the seed's dice)",
    )
    p.add_argument("--out", default=None, help="directory for board pictures (and the database)")
    p.add_argument(
        "--lang",
        default=None,
        choices=("en", "de"),
        help="the table's language: its messages, the games' narration and refusals, and the "
        "board pictures' words (default: en; a resumed game keeps the one it was started in)",
    )
    p.add_argument(
        "--script",
        default=None,
        metavar="FILE|-",
        help="read '<side> <command>' lines, print one JSON object per line",
    )
    p.add_argument(
        "--autoplay",
        action="store_true",
        help="play every side with random legal actions from the seed",
    )
    p.add_argument(
        "--db",
        default=None,
        help="SQLite file, sqlite:///FILE or postgresql://… (default: table.sqlite3 "
        "in --out, else the per-user file "
        "$XDG_DATA_HOME/umpire/table.sqlite3, i.e. "
        "~/.local/share/umpire/table.sqlite3)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const=LATEST,
        default=None,
        metavar="ID",
        help="continue a stored game (default: the one played last)",
    )
    p.add_argument("--list", action="store_true", help="list the stored games and exit")
    p.add_argument("--max-actions", type=int, default=MAX_AUTOPLAY_ACTIONS, help=argparse.SUPPRESS)
    return p


def parse_dice(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        values = [int(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError:
        raise TableError(
            f"--dice takes numbers separated by commas, e.g. 6,1,4; got {text!r}."
        ) from None
    if not values or any(v < 1 for v in values):
        raise TableError(f"--dice needs at least one die of 1 or more; got {text!r}.")
    return values


def _chooser(seed):
    """The same move picker as engine autoplay, so the table's autoplay matches it."""
    try:
        from engine.core.game import _Chooser

        return _Chooser(seed)
    except ImportError:  # pragma: no cover - the engine keeps this helper
        from engine.core.dice import SeededSource

        class _Pick:
            def __init__(self):
                self._source = SeededSource(f"autoplay:{seed}", 0)

            def pick(self, items):
                return items[self._source.draw(len(items)) - 1]

        return _Pick()


class Table:
    def __init__(
        self, svc: GameService, game_id: int, out_dir: Path | None, stdout: TextIO, stderr: TextIO
    ):
        self.svc = svc
        self.game_id = game_id
        self.out_dir = out_dir
        self.stdout = stdout
        self.stderr = stderr
        self.render_note_shown = False
        self.db_label = str(getattr(svc.store, "path", ""))
        self.db_option: str | None = None  # the --db to repeat when resuming, if not default
        self.lang = "en"  # the words on the board pictures (--lang)

    async def info(self):
        return await self.svc.get_game(self.game_id)

    @property
    def ruleset(self):
        return registry.get_ruleset(self._ruleset_name)

    async def setup(self):
        info = await self.info()
        self._ruleset_name = info.ruleset
        return info

    def title(self, side: str) -> str:
        if side == "referee":
            return "Referee" if self.lang == "en" else "Schiedsrichter"
        if self.lang != "en":
            return self.ruleset.side_title(side, self.lang)
        return self.ruleset.side_titles.get(side, side)

    def label(self, state: dict, action: dict) -> str:
        """An action as the messages name it, in the table's language."""
        if self.lang == "en":
            return self.ruleset.describe_action(state, action)
        return self.ruleset.action_label(state, action, self.lang)

    def w(self, key: str, **params) -> str:
        return (WORDS.get(self.lang) or WORDS["en"])[key].format(**params)

    def error_text(self, exc: UmpireError, state: dict | None = None) -> str:
        """A refusal as a player of the table's language reads it (the Discord wording)."""
        if self.lang == "en" or not isinstance(exc, (RuleError, CommandSyntaxError)):
            return str(exc)
        from cogs.i18n import rule_text, t

        if isinstance(exc, AmbiguousName):
            shown = list(exc.legal)
            if state is not None:
                # the candidates as this player's messages name them ("... auf 0502")
                key = "to" if exc.option == "cell" else exc.option
                shown = [
                    self.candidate(state, key, value, label)
                    for value, label in exc.candidates[: len(exc.legal)]
                ]
            return t(
                self.lang,
                "ambiguous_name",
                option=exc.option,
                typed=exc.typed,
                candidates="; ".join(shown),
            )
        return rule_text(exc, self.lang)

    def candidate(self, state: dict, key: str, value: str, english: str) -> str:
        try:
            label = self.ruleset.label(state, key, value, self.lang)
        except Exception:  # the English label is better than none
            label = english
        # keep the counter's title the English label carried ("[PzF 1]")
        title = english[english.rfind(" [") :] if english.endswith("]") else ""
        label += title
        return label if value in label.split() else f"{label} ({value})"

    # ----- one line of input ---------------------------------------------------------------
    def side_named(self, word: str) -> str | None:
        """The side ``word`` names: its id or its name as the prompt shows it ("Belagerer",
        "Besiegers"), in any case."""
        wanted = word.casefold()
        for side in (*self.ruleset.sides, "referee"):
            names = {side, self.title(side)}
            if side != "referee":
                names.add(self.ruleset.side_titles.get(side, side))
            if wanted in {name.casefold() for name in names}:
                return side
        return None

    def split_side(self, line: str, awaiting: list[str]) -> tuple[str | None, str]:
        line = line.strip()
        if line.startswith("/"):
            return None, line
        word, _, rest = line.partition(" ")
        side = self.side_named(word)
        if side is None:
            side = self.ruleset.sides[0]
            raise ServiceError(
                self.w(
                    "start_with",
                    example=f"{side} /{self.ruleset.commands[0].name} …",
                    sides=", ".join(self.ruleset.sides),
                    typed=repr(word),
                )
            )
        return side, rest.strip()

    async def execute(self, line: str, length: int | None = None) -> dict:
        """Run one line; the result is the JSON object the script mode prints. ``length``: the
        line's real length when only its beginning was read (see :func:`read_lines`)."""
        info = await self.info()
        length = len(line) if length is None else length
        if length > MAX_LINE_CHARS:
            # Refused before any splitting, and not echoed back: a pasted megabyte stays out
            # of the terminal and out of the JSON Lines output.
            return {
                "input": line.strip()[:80] + "…",
                "ok": False,
                "error": f"That line is {length:,} characters long; a command has at "
                f"most {MAX_COMMAND_CHARS:,}.",
                "events": [],
                "state_hash": _hash(info.state),
                "version": info.version,
            }
        result: dict = {"input": line.strip()}
        try:
            side, text = self.split_side(line, info.awaiting)
            result["side"] = side
            name = text[1:].split(" ", 1)[0].lower() if text.startswith("/") else ""
            if name in TABLE_COMMANDS:
                result.update(await self.table_command(name, text, side, info))
            elif any(q.name == name for q in self.ruleset.all_queries()):
                result.update(await self.query(name, text, side, info))
            else:
                result.update(await self.play(text, side, info))
        except UmpireError as exc:
            if not isinstance(exc, StorageError):  # when storage fails, keep what was read
                info = await self.info()
            result.update(
                ok=False,
                error=self.error_text(exc, info.state),
                events=[],
                state_hash=_hash(info.state),
                version=info.version,
            )
        return result

    async def play(self, text: str, side: str | None, info) -> dict:
        action = parse_command(text)
        inferred = side is None
        if side is None:
            waiting = info.awaiting
            if len(waiting) != 1:
                names = ", ".join(waiting) or "nobody (the game is over)"
                raise ServiceError(
                    self.w(
                        "which_side",
                        example=f"{waiting[0] if waiting else self.ruleset.sides[0]} {text}",
                        waiting=names,
                    )
                )
            side = waiting[0]
        action["side"] = side
        out = await act_by_names(self.svc, self.game_id, action, actor="table")
        action = dict(out.action)
        result = {
            "ok": True,
            "side": side,
            "action": action,
            "events": out.events,
            "state_hash": _hash(out.game.state),
            "version": out.version,
            "turn": out.game.state.get("turn"),
            "phase": out.game.state.get("phase"),
            "awaiting": out.game.awaiting,
            "turn_ended": out.turn_ended,
            "game_over": out.game_over,
        }
        if inferred:
            result["side_inferred"] = True
        flow = await self.flow(info.state, out, action)
        if flow:
            result["flow"] = flow
            facts = self.changed_facts(info.state, out.game.state)
            if facts:
                result["facts"] = facts
            if len(out.game.awaiting) == 1:
                legal = await self.svc.legal_actions(self.game_id, out.game.awaiting[0])
                if 0 < len(legal) <= MAX_CHOICES:
                    result["choices"] = [format_command(a) for a in legal]
        if out.game_over:
            result["result"] = out.game.result
            result["seed"] = out.game.seed
        if out.turn_ended:
            board = await self.write_board(out.game)
            if board:
                result["board"] = board
        return result

    async def flow(self, before: dict, out, action: dict) -> str | None:
        """The line announcing a new turn, phase or side to act, and why (the words of the
        Discord turn post): "Now: Turn 1, Combat, Spanish to act (Spanish ended the phase)."."""
        # The table is a front end like the cogs: it announces the game's flow the same way.
        from cogs.common import flow_changed, flow_reason

        after = out.game.state
        if not flow_changed(before, after):
            return None
        pending = after.get("pending") if isinstance(after.get("pending"), dict) else None
        owed = {}
        if pending and pending.get("side") in self.ruleset.sides:
            owed[pending["side"]] = await self.svc.legal_actions(self.game_id, pending["side"])
        why = flow_reason(self.ruleset, before, after, out.events, action, self.lang, owed)
        return self.w("now", where=self.where(after, out.game.awaiting), why=why)

    def changed_facts(self, before: dict, after: dict) -> list[str]:
        """The public header's facts that changed, besides turn, phase and side (a card drawn,
        victory points, Pocket Tactics' re-rolls left): "Re-rolls left: South 1 / North 0"."""
        try:
            old = self.ruleset.localised_header(self.ruleset.view(before, None), self.lang)
            new = self.ruleset.localised_header(self.ruleset.view(after, None), self.lang)
        except Exception:  # the announcement stands without them
            return []
        return [
            f"{key}: {value}"
            for key, value in new.items()
            if key not in self.flow_fields() and old.get(key) != value
        ]

    def flow_fields(self) -> frozenset[str]:
        return FLOW_FIELDS | {self.ruleset.term(f, self.lang) for f in FLOW_FIELDS}

    def where(self, state: dict, awaiting: list[str]) -> str:
        """ "Round 2, Movement, Bismark to act", in the game's own words for its turn and phase."""
        from cogs.common import headline

        word, phase = headline(self.ruleset, state, self.lang)
        waiting = " / ".join(self.title(s) for s in awaiting) or self.w("nobody")
        return self.w("where", word=word, turn=state.get("turn"), phase=phase, sides=waiting)

    async def query(self, name: str, text: str, side: str | None, info) -> dict:
        """A ruleset's read-only question ``name`` (one it declares, e.g.
        ``/los from:0816 to:0819``), for any side at any time: its answer, and its picture
        next to the boards (named after the question, never after what was typed). Nothing is
        stored."""
        options = parse_command(text)
        options.pop("type")
        viewer = side if side in self.ruleset.sides else None
        inferred = side is None and len(info.awaiting) == 1
        if inferred:
            # Hot-seat: a question typed without a side is asked by the side to act, as a
            # command would be (so /info tells that side what its unit may do now).
            viewer = info.awaiting[0]
        answer, png = await self.svc.ask(
            self.game_id,
            name,
            options,
            viewer=viewer,
            picture=self.out_dir is not None,
            lang=self.lang,
        )
        result = {
            "ok": True,
            "command": name,
            "events": [],
            "state_hash": _hash(info.state),
            "version": info.version,
            "text": answer,
        }
        if inferred:
            result["side"], result["side_inferred"] = viewer, True
        if png is not None and self.out_dir is not None:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / f"{name}.png"
            path.write_bytes(png)
            result["picture"] = str(path)
        return result

    async def table_command(self, name: str, text: str, side: str | None, info) -> dict:
        words = text.split()[1:]
        base = {
            "ok": True,
            "command": name,
            "events": [],
            "state_hash": _hash(info.state),
            "version": info.version,
        }
        if name == "help":
            commands = [
                f"/{c.name}" + "".join(f" {o.name}:…" for o in c.options) + f"  {self.said(c)}"
                for c in self.ruleset.commands
            ]
            text = await self.help_head(info) + f"\n\n{self.w('commands')}\n  "
            text += "\n  ".join(commands)
            if self.ruleset.all_queries():
                questions = [
                    f"/{q.name}" + "".join(f" {o.name}:…" for o in q.options) + f"  {self.said(q)}"
                    for q in self.ruleset.all_queries()
                ]
                text += f"\n\n{self.w('questions')}\n  " + "\n  ".join(questions)
            return {**base, "text": text + await self.examples_now(info)}
        if name == "rules":
            from engine.core.info import reference_text

            parts = [
                self.ruleset.rules_summary(self.lang),
                reference_text(self.ruleset, self.lang, info.state),
            ]
            return {**base, "text": "\n\n".join(p for p in parts if p)}
        if name == "state":
            return {**base, "state": info.state}
        if name == "options":
            who = side
            if words and words[0].lower() in self.ruleset.sides:
                who, words = words[0].lower(), words[1:]
            who = who or (info.awaiting[:1] or [None])[0]
            if who is None:
                return {**base, "side": None, "options": []}
            if who not in info.awaiting:
                waiting = " / ".join(self.title(s) for s in info.awaiting) or self.w("nobody")
                return {
                    **base,
                    "side": who,
                    "options": [],
                    "note": self.w(
                        "not_turn",
                        side=possessive(self.title(who)) if self.lang == "en" else self.title(who),
                        waiting=waiting,
                    ),
                }
            legal = await self.svc.legal_actions(self.game_id, who)
            options = [
                {"command": format_command(a), "label": self.label(info.state, a)} for a in legal
            ]
            # Any further words narrow the list: /options az-bowmen-1, /options move 0507
            needles = [w.lower() for w in words]
            options = [
                o
                for o in options
                if all(n in (o["command"] + " " + o["label"]).lower() for n in needles)
            ]
            return {**base, "side": who, "options": options}
        if name == "board":
            board = await self.write_board(info, force=True)
            if not board:
                raise ServiceError("No board picture could be written (see the note above).")
            return {**base, "board": board}
        if name == "log":
            count = _log_count(words[0] if words else None)
            records = await self.svc.history(self.game_id)
            lines = []
            for r in records[-count:]:
                lines.append(
                    f"#{r.seq} {'turn' if self.lang == 'en' else 'Zug'} {r.turn} "
                    f"{self.title(r.side)}: "
                    f"{(r.label if self.lang == 'en' else None) or self.label(info.state, r.action)}"
                )
                lines += [
                    f"    {t}"
                    for t in (
                        describe_event(self.ruleset, info.state, e, self.lang) for e in r.events
                    )
                    if t
                ]
            return {**base, "log": lines}
        if name == "undo":
            after = await self.svc.undo(
                self.game_id,
                actor="table",
                side=None if side == "referee" else side,
                referee=side == "referee",
            )
            return {
                **base,
                "state_hash": _hash(after.state),
                "version": after.version,
                "undone": True,
                "awaiting": after.awaiting,
            }
        if name == "quit":
            return {**base, "quit": True}
        raise ServiceError(f"Unknown table command /{name}.")  # pragma: no cover

    def said(self, command) -> str:
        """A command's description in the table's language (as Discord's /help shows it)."""
        if self.lang == "en":
            return command.description
        from cogs.i18n import DE_TEXT

        return command.description_i18n.get(self.lang) or DE_TEXT.get(
            command.description, command.description
        )

    async def help_head(self, info) -> str:
        """The table's own commands, with examples from this game's position (never another
        game's sides or units)."""
        side = (info.awaiting or self.ruleset.sides)[0]
        legal = await self.svc.legal_actions(self.game_id, side) if info.awaiting else []
        example = next((a for a in legal if a.get("type") != "end-phase"), None)
        if example is None:
            command = self.ruleset.commands[0]
            play = f"/{command.name}" + "".join(f" {o.name}:…" for o in command.options)
        else:
            play = format_command(example)
        words = []
        for key in ("unit", "to", "at", "tile", "card"):
            value = next((a[key] for a in legal if isinstance(a.get(key), str)), None)
            if value and value not in words:
                words.append(value)
        narrow = ", ".join(f"/options {w}" for w in words[:2]) or "/options end"
        view = await self.svc.view(self.game_id, side) if info.awaiting else info.state
        suggested = ""
        if any(self.ruleset.suggested_actions(view, s) for s in info.awaiting):
            suggested = "\n  /suggested        " + self.w("suggested")
        return (HELP_DE if self.lang == "de" else HELP).format(
            play=play.ljust(16),
            side_example=f"{side} /{play.split()[0][1:]} …",
            suggested=suggested,
            narrow=narrow,
        )

    async def examples_now(self, info) -> str:
        """A few commands that are legal right now, one per command, typed out in full."""
        lines = []
        for side in info.awaiting:
            legal = await self.svc.legal_actions(self.game_id, side)
            examples: dict[str, dict] = {}
            for action in legal:
                examples.setdefault(action["type"], action)
            shown = [format_command(a) for a in list(examples.values())[:4]]
            state = await self.svc.view(self.game_id, side)
            if self.ruleset.setup_actions(state, side):
                shown.append("/auto-setup")
            if self.ruleset.suggested_actions(state, side):
                shown.append("/suggested")
            if shown:
                lines.append(self.w("now_for", side=self.title(side)) + "   ".join(shown))
        return ("\n\n" + "\n".join(lines)) if lines else ""

    async def write_board(self, info, force: bool = False) -> str | None:
        if self.out_dir is None:
            return None
        try:
            png = await self.svc.render(self.game_id, lang=self.lang)
        except Exception as exc:  # pictures are optional at the table; the game goes on
            if not self.render_note_shown or force:
                print(f"(no board picture: {exc})", file=self.stderr)
                self.render_note_shown = True
            return None
        self.out_dir.mkdir(parents=True, exist_ok=True)
        state = info.state
        who = (info.awaiting[:1] or ["end"])[0]
        # Numbered by the game's version: a setup or map building that stays in one turn
        # gives each board its own file instead of overwriting one.
        path = (
            self.out_dir
            / f"{int(info.version):04d}-turn{int(state.get('turn') or 0):02d}-{who}.png"
        )
        path.write_bytes(png)
        (self.out_dir / "board.png").write_bytes(png)
        return str(path)

    # ----- modes -------------------------------------------------------------------------
    async def run_script(self, handle: TextIO) -> int:
        for line, length in read_lines(handle, MAX_LINE_CHARS):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            result = await self.execute(line, length)
            self.emit(result)
            if result.get("quit"):
                break
        return 0

    async def run_autoplay(self, seed: str, max_actions: int) -> int:
        chooser = _chooser(seed)
        count = 0
        info = await self.info()
        while not info.result:
            if count >= max_actions:
                self.emit(
                    {
                        "type": "error",
                        "ok": False,
                        "error": f"no result after {max_actions} actions",
                    }
                )
                return 1
            side = info.awaiting[0]
            legal = await self.svc.legal_actions(self.game_id, side)
            if not legal:
                self.emit(
                    {
                        "type": "error",
                        "ok": False,
                        "error": f"{side} has no legal action in phase {info.state.get('phase')}",
                    }
                )
                return 1
            action = chooser.pick(legal)
            out = await self.svc.act(self.game_id, action, actor="table")
            count += 1
            self.emit(
                {
                    "type": "action",
                    "ok": True,
                    "n": count,
                    "side": side,
                    "action": action,
                    "events": out.events,
                    "turn": out.game.state.get("turn"),
                    "state_hash": _hash(out.game.state),
                }
            )
            if out.turn_ended:
                await self.write_board(out.game)
            info = out.game
        result = info.result or {}
        self.emit(
            {
                "type": "game_over",
                "winner": result.get("winner"),
                "reason": result.get("reason"),
                "turns": info.state.get("turn"),
                "actions": count,
                "state_hash": _hash(info.state),
                "game_id": info.id,
                "seed": info.seed,
            }
        )
        return 0

    async def run_interactive(self, input_fn=input) -> int:
        info = await self.info()
        sides = ", ".join(self.title(s) for s in self.ruleset.sides)
        self.say(self.w("banner", title=self.ruleset.title, scenario=info.scenario, sides=sides))
        self.say(self.w("seed_hash", hash=info.seed_hash))
        switched_on = self.ruleset.optional_rules_on(info.state)
        if switched_on:
            self.say(self.w("optional", rules=", ".join(r.title for r in switched_on)))
        if self.out_dir:
            self.say(self.w("boards_go", dir=self.out_dir))
        self.say(self.w("type_help"))
        await self.write_board(info)
        while True:
            info = await self.info()
            if info.result:
                from cogs.common import result_reason

                winner = info.result.get("winner")
                self.say(
                    self.w(
                        "game_over",
                        reason=result_reason(self.ruleset, info.state, info.result, self.lang),
                        winner=self.title(winner) if winner else self.w("draw"),
                    )
                )
                command = f"python bot.py verify --db {self.svc.store.path} --game {info.id}"
                self.say(self.w("seed_was", seed=repr(info.seed), command=command))
                return 0
            prompt = (
                f"[{self.where(info.state, info.awaiting).replace(', ', ' · ')}] "
                f"{'/'.join(info.awaiting)}> "
            )
            try:
                line = input_fn(prompt)
            except EOFError:
                self.say("")
                self.say(self.come_back(info.id))
                return 0
            if not line.strip():
                continue
            result = await self.execute(line)
            self.show(result, info)
            if result.get("quit"):
                self.say(self.w("left", id=info.id, db=self.db_label))
                self.say(self.come_back(info.id))
                return 0

    def come_back(self, game_id: int) -> str:
        return self.w("continue", command=resume_command(game_id, self.db_option))

    def show(self, result: dict, before) -> None:
        if not result.get("ok"):
            self.say(f"✗ {result.get('error')}")
            if any(w in str(result.get("error")) for w in ("Legal:", "Erlaubt:")):
                # Hints name things as players read them; the exact ids to type are in /options.
                self.say(self.w("options_hint"))
            return
        if "text" in result:
            self.say(result["text"])
        elif "state" in result:
            self.say(json.dumps(result["state"], indent=2, ensure_ascii=False))
        elif result.get("note"):
            self.say(result["note"])
        elif "options" in result:
            options = result["options"]
            side = self.title(result["side"] or "-")
            self.say(self.w("legal_count", count=len(options), side=side))
            if len(options) > MAX_LISTED:
                groups: dict[str, int] = {}
                for o in options:
                    head = group_head(o["command"])
                    groups[head] = groups.get(head, 0) + 1
                for head, count in groups.items():
                    more = "" if head.endswith("…") else " …"
                    ways = self.w("ways", count=count)
                    self.say(f"  {head}{more}  {ways}" if count > 1 else f"  {head}")
                example = next(
                    (h.split()[1].partition(":")[2] for h in groups if " " in h and "…" not in h),
                    next(iter(groups)).split()[0][1:],
                )
                self.say(self.w("narrow", example=example))
                return
            for o in options:
                extra = f"   ({o['label']})" if o["label"] != o["command"] else ""
                self.say(f"  {o['command']}{extra}")
        elif "log" in result:
            self.say("\n".join(result["log"]) or self.w("nothing_played"))
        elif result.get("undone"):
            self.say(self.w("undone"))
        elif "action" in result:
            state = before.state
            if result.get("side_inferred"):
                self.say(self.w("acts", side=self.title(result["side"])))
            for event in result["events"]:
                text = describe_event(self.ruleset, state, event, self.lang)
                if text:
                    self.say(f"  {text}")
            if result.get("flow"):
                self.say(result["flow"])
            if result.get("facts"):
                self.say("  " + " · ".join(result["facts"]))
            if result.get("choices"):
                waiting = self.title(result["awaiting"][0])
                self.say(self.w("may_type", side=waiting, choices="   ".join(result["choices"])))
        if result.get("board"):
            self.say(self.w("board_picture", path=result["board"]))
        if result.get("picture"):
            self.say(self.w("picture", path=result["picture"]))

    def emit(self, obj: dict) -> None:
        print(json.dumps(obj, ensure_ascii=False, sort_keys=False), file=self.stdout, flush=True)

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)


@contextmanager
def _stop_signals_interrupt():
    """SIGTERM and SIGHUP (a closed terminal, ``kill``) end the table like Ctrl-C: the prompt
    is interrupted, the database closed and the game's file named. The table waits in a
    blocking ``input()``, so these are plain signal handlers, not event-loop ones."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may install handlers (a table run inside a test thread)
        return
    previous = {s: signal.signal(s, interrupt) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# Options whose value is a piece: a long list is grouped by the piece ("/move unit:x …");
# by any other option (a cell, a number) it is grouped by the command ("/fill at:…").
PIECE_OPTIONS = ("unit:", "engine:", "tower:", "ladder:", "horse:", "wagon:", "card:", "faction:")


def group_head(command: str) -> str:
    words = command.split()
    if len(words) < 2 or words[1].startswith(PIECE_OPTIONS):
        return " ".join(words[:2])
    return f"{words[0]} {words[1].partition(':')[0]}:…"


def read_lines(handle: TextIO, limit: int) -> Iterator[tuple[str, int]]:
    """``(line, length)`` for each line of a script, keeping at most ``limit + 1`` characters
    of any line in memory: the rest of an over-long line is read in chunks and only counted, so
    a gigabyte without a newline on stdin costs no gigabyte."""
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        length = len(line)
        if length > limit and not line.endswith("\n"):
            while True:
                more = handle.readline(1 << 16)
                length += len(more)
                if not more or more.endswith("\n"):
                    break
        yield line, length


def _log_count(word: str | None) -> int:
    """``/log n``: str.isdigit() also accepts '²' and '⑤', which int() refuses, so only ASCII
    digits count; the number is capped so a huge one costs nothing."""
    if word is None:
        return 10
    if not (word.isascii() and word.isdigit()) or len(word) > 6:
        raise ServiceError(f"/log takes a number of actions, e.g. /log 20; got {word[:20]!r}.")
    return max(1, int(word))


def _hash(state: dict) -> str:
    from engine.core.state import state_hash

    return state_hash(state)


def _check_game(name: str) -> str | None:
    """None if the game can be played here, else the message to print."""
    if name in PLANNED and name not in registry.RULESETS:
        return (
            f"{PLANNED[name]} ({name}) is not supported yet: its rules are not written. "
            f"Playable now: {', '.join(registry.available()) or 'none'}."
        )
    if name not in registry.RULESETS:
        known = sorted(set(registry.RULESETS) | set(PLANNED))
        return f"Unknown game {name!r}. Games: {', '.join(known)}."
    try:
        registry.get_ruleset(name)
    except (ImportError, AttributeError) as exc:
        return (
            f"{name} is not supported yet: its rules cannot be loaded ({exc}). "
            f"Playable now: {', '.join(registry.available()) or 'none'}."
        )
    return None


def _optional_rules(args) -> list[str]:
    """``--option`` names, checked against the game's declared optional rules."""
    if not args.option:
        return []
    return registry.get_ruleset(args.game).optional_rule_names(" ".join(args.option))


def looks_like_path(scenario: str) -> bool:
    """Packaged scenario names are plain words; a file is named by its path or ``.json``."""
    return bool(scenario) and (
        scenario.lower().endswith(".json")
        or "/" in scenario
        or os.sep in scenario
        or scenario.startswith(".")
    )


def table_home() -> Path:
    """Where the local table keeps its games by default: ``$XDG_DATA_HOME/umpire`` (an absolute
    path; else ``~/.local/share/umpire``, on Windows ``%LOCALAPPDATA%\\umpire``)."""
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    if base and os.path.isabs(base):
        return Path(base) / "umpire"
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "umpire"
    return Path.home() / ".local" / "share" / "umpire"


def boards_home(db_path: str | Path, db_label: str) -> Path:
    """Where interactive games' pictures go without --out: ``boards/`` beside the per-user
    database; for any other database a folder of its own, so game #1 of one database and game
    #1 of another never write over each other's boards."""
    if isinstance(db_path, Path):
        if db_path == table_home() / "table.sqlite3":
            return table_home() / "boards"
        return db_path.parent / f"{db_path.stem}-boards"
    # a PostgreSQL URL: named by a digest of it (never by the URL, which may hold a password)
    digest = hashlib.sha256(db_label.encode()).hexdigest()[:12]
    return table_home() / "boards" / f"postgresql-{digest}"


def resume_command(game_id: int, db_option: str | None) -> str:
    db = f" --db {shlex.quote(db_option)}" if db_option else ""
    return f"python bot.py local --resume {game_id}{db}"


TABLE_LANG = "table_lang"  # the game's settings key for the language it was started in


def game_lang(info, chosen: str | None) -> str:
    """The table's language for ``info``: the one asked for (--lang), else the one the game
    was started in, so a German game resumed without --lang stays German."""
    if chosen:
        return chosen
    stored = (info.settings or {}).get(TABLE_LANG)
    return stored if stored in WORDS else "en"


async def _list_games(svc: GameService, stdout, chosen: str | None = None) -> int:
    games = await svc.list_games()
    if not games:
        print("No games stored yet. Start one with: python bot.py local", file=stdout)
        return 0
    from cogs.common import headline, result_reason

    for info in games:
        # each game in the language it is played in (the one its table will speak)
        lang = game_lang(info, chosen)
        words = WORDS[lang]
        title = info.ruleset
        word, phase = "turn", info.state.get("phase")
        result = info.result or {}
        reason = str(result.get("reason") or "")
        try:
            ruleset = registry.get_ruleset(info.ruleset)
            title = ruleset.title
            waiting = " / ".join(ruleset.side_title(s, lang) for s in info.awaiting)
            # the words of the game's own prompt: "Round 2, Movement", not "turn 2, move"
            word, phase = headline(ruleset, info.state, lang)
            if result:
                reason = result_reason(ruleset, info.state, result, lang)
        except Exception:  # a game whose rules are no longer installed is still listed
            waiting = ""
        if info.status == "finished":
            where = words["list_over"].format(reason=reason or words["list_finished"])
        elif waiting:
            where = words["where"].format(
                word=word, turn=info.state.get("turn"), phase=phase, sides=waiting
            )
        else:
            where = f"{word} {info.state.get('turn')}, {phase}"
        print(f"#{info.id}  {title} ({info.scenario})  {where}", file=stdout)
    return 0


async def _find_resumed(svc: GameService, wanted: str, stderr) -> int | None:
    """The id of the game ``--resume`` names (``latest``: the unfinished one changed last)."""
    if wanted == LATEST:
        open_games = [g for g in await svc.list_games() if g.status in ("active", "paused")]
        if not open_games:
            print(
                "No unfinished game to continue here; start one with: python bot.py local "
                "(--list shows the stored games).",
                file=stderr,
            )
            return None
        return max(open_games, key=lambda g: (g.updated_at, g.id)).id
    text = wanted.lstrip("#")
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        print(f"--resume takes a game number, e.g. --resume 3; got {wanted[:20]!r}.", file=stderr)
        return None
    try:
        info = await svc.get_game(int(text))
    except ServiceError:
        print(f"There is no game #{text} here (--list shows the stored games).", file=stderr)
        return None
    problem = _check_game(info.ruleset)
    if problem:
        print(problem, file=stderr)
        return None
    return info.id


async def _run(
    args,
    dice,
    seed: str,
    db_path: str | Path,
    out_dir: Path | None,
    stdout,
    stderr,
    input_fn,
    db_label: str = "",
    db_option: str | None = None,
) -> int:
    synchronous = "NORMAL"  # a killed table loses nothing committed; power loss may
    svc = await GameService.open(db_path, dice_override=dice, synchronous=synchronous)
    try:
        if args.list:
            return await _list_games(svc, stdout, args.lang)
        if args.resume is not None:
            game_id = await _find_resumed(svc, args.resume, stderr)
            if game_id is None:
                return 2
            info = await svc.get_game(game_id)
            print(
                WORDS[game_lang(info, args.lang)]["continuing"].format(
                    id=info.id, game=info.ruleset, scenario=info.scenario, db=db_label
                ),
                file=stderr,
            )
        elif looks_like_path(args.scenario):
            # The person at the terminal owns the machine, so a path is theirs to give; it is
            # still read safely (a regular file, size-capped).
            document = await asyncio.to_thread(read_path, args.scenario)
            info = await svc.create_game(
                args.game,
                seed=seed,
                document=document,
                document_label=args.scenario,
                optional_rules=_optional_rules(args),
                settings={TABLE_LANG: args.lang or "en"},
            )
            info = await svc.start_game(info.id)
        else:
            info = await svc.create_game(
                args.game,
                args.scenario,
                seed=seed,
                optional_rules=_optional_rules(args),
                settings={TABLE_LANG: args.lang or "en"},
            )
            info = await svc.start_game(info.id)
        if out_dir is None and not args.autoplay and args.script is None:
            # Each game's pictures in a folder of its own next to the database.
            out_dir = boards_home(db_path, db_label) / f"game-{info.id}"
        table = Table(svc, info.id, out_dir, stdout, stderr)
        table.lang = game_lang(info, args.lang)
        table.db_label = db_label or table.db_label
        table.db_option = db_option
        await table.setup()
        try:
            if args.autoplay:
                return await table.run_autoplay(seed, args.max_actions)
            if args.script is not None:
                if args.script == "-":
                    return await table.run_script(sys.stdin)
                # The terminal's single user waits for the script anyway; nothing else shares
                # the loop.
                with open(args.script, encoding="utf-8") as handle:  # noqa: ASYNC230
                    return await table.run_script(handle)
            return await table.run_interactive(input_fn)
        except StorageError as exc:  # the database failed while reading, between commands
            print(f"Stopped: {exc}", file=stderr)
            return 1
    finally:
        await svc.close()


def main(
    argv: list[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    input_fn=input,
) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv or []))
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.resume is not None and args.autoplay:
        print(
            "--resume continues a game by hand or with --script; --autoplay starts a new one.",
            file=stderr,
        )
        return 2
    if args.resume is None and not args.list:
        problem = _check_game(args.game)
        if problem:
            print(problem, file=stderr)
            return 2
    try:
        dice = parse_dice(args.dice)
    except TableError as exc:
        print(exc, file=stderr)
        return 2
    if args.script is not None and args.script != "-" and not Path(args.script).is_file():
        print(f"--script: no file {args.script!r}.", file=stderr)
        return 2
    seed = str(args.seed) if args.seed is not None else secrets.token_hex(16)
    out_dir = Path(args.out) if args.out else None
    db_option: str | None = None
    if args.db:
        try:
            database = parse_database(args.db)
        except BadDatabaseSetting as exc:
            print(exc, file=stderr)
            return 2
        # A PostgreSQL URL stays text: Path() would fold its "//".
        db_path: str | Path = database.target if database.is_postgres else Path(database.target)
        db_label = database.display()
        db_option = args.db if not database.is_postgres else db_label
    elif out_dir is not None:
        db_path = out_dir / "table.sqlite3"
        db_label = str(db_path)
        db_option = str(db_path)
    else:
        # Games are kept between sessions (--resume, --list) in one per-user file.
        home = table_home()
        try:
            home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(
                f"Cannot create {home} for the table's games ({exc.strerror or exc}); "
                f"pass --db FILE to keep them elsewhere.",
                file=stderr,
            )
            return 2
        db_path = home / "table.sqlite3"
        db_label = str(db_path)
    if args.seed is None and args.resume is None and not args.list:
        print(
            f"seed {seed} (pass --seed {seed} to replay this game); database {db_label}",
            file=stderr,
        )
    try:
        with _stop_signals_interrupt():
            return asyncio.run(
                _run(
                    args,
                    dice,
                    seed,
                    db_path,
                    out_dir,
                    stdout,
                    stderr,
                    input_fn,
                    db_label,
                    db_option,
                )
            )
    except UmpireError as exc:  # a scenario that does not load, an unknown scenario name
        print(f"Cannot start: {exc}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("\nInterrupted; everything played so far is saved in " + db_label, file=stderr)
        return 130
