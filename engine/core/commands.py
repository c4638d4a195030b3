"""The command grammar shared by Discord and the local table.

``/move unit:sp-cav-2 to:0507`` -> ``{"type": "move", "unit": "sp-cav-2", "to": "0507"}``.
Values containing spaces are quoted: ``/play card:"Aqueduct cut"``.
"""
from __future__ import annotations

import shlex

from .errors import CommandSyntaxError

# Far above any real command (the longest ids and card names fit many times over), far below
# what would make splitting a hostile line expensive: checked before any parsing work.
MAX_COMMAND_CHARS = 2000


def parse_command(text: str) -> dict:
    if len(text) > MAX_COMMAND_CHARS:
        raise CommandSyntaxError(f"That command is {len(text):,} characters long; a command has "
                                 f"at most {MAX_COMMAND_CHARS:,}.")
    text = text.strip()
    if not text.startswith("/"):
        raise CommandSyntaxError(f"A command starts with '/', e.g. /move unit:… to:…; got {text!r}.")
    try:
        words = shlex.split(text[1:])
    except ValueError as exc:
        raise CommandSyntaxError(f"Cannot read {text!r}: {exc}.") from None
    if not words:
        raise CommandSyntaxError("Empty command.")
    name, *rest = words
    if ":" in name:
        raise CommandSyntaxError(f"The command name comes first, e.g. /move; got {name!r}.")
    action = {"type": name.lower()}
    for word in rest:
        key, sep, value = word.partition(":")
        if not sep or not key:
            raise CommandSyntaxError(f"Options are written name:value; {word!r} is not.")
        if not value:
            raise CommandSyntaxError(f"Option {key!r} has no value.")
        if key in action or key in ("type", "side"):
            raise CommandSyntaxError(f"Option {key!r} given twice or reserved.")
        action[key] = value
    return action


def format_command(action: dict) -> str:
    parts = ["/" + action["type"]]
    for key, value in action.items():
        if key in ("type", "side"):
            continue
        parts.append(f"{key}:{shlex.quote(value) if (' ' in value or not value) else value}")
    return " ".join(parts)
