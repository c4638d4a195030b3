"""The command grammar shared by Discord and the local table.

``/move unit:sp-cav-2 to:0507`` -> ``{"type": "move", "unit": "sp-cav-2", "to": "0507"}``.
Values containing spaces are quoted: ``/play card:"Aqueduct cut"``; unquoted, the words up to
the next ``name:`` belong to the value before them (``/move unit:Cav 1 to:0507``).
"""

from __future__ import annotations

import shlex

from .errors import CommandSyntaxError

# Far above any real command (the longest ids and card names fit many times over), far below
# what would make splitting a hostile line expensive: checked before any parsing work.
MAX_COMMAND_CHARS = 2000


def parse_command(text: str) -> dict:
    if len(text) > MAX_COMMAND_CHARS:
        raise CommandSyntaxError(
            f"That command is {len(text):,} characters long; a command has "
            f"at most {MAX_COMMAND_CHARS:,}.",
            key="syntax_too_long",
            params={"length": f"{len(text):,}", "most": f"{MAX_COMMAND_CHARS:,}"},
        )
    text = text.strip()
    if not text.startswith("/"):
        raise CommandSyntaxError(
            f"A command starts with '/', e.g. /move unit:… to:…; got {text!r}.",
            key="syntax_no_slash",
            params={"typed": repr(text)},
        )
    try:
        words = split_words(text[1:])
    except ValueError as exc:
        raise CommandSyntaxError(
            f"Cannot read {text!r}: {exc}.", key="syntax_unreadable", params={"typed": repr(text)}
        ) from None
    if not words:
        raise CommandSyntaxError("Empty command.", key="syntax_empty")
    name, *rest = words
    if ":" in name:
        raise CommandSyntaxError(
            f"The command name comes first, e.g. /move; got {name!r}.",
            key="syntax_name_first",
            params={"typed": repr(name)},
        )
    action = {"type": name.lower()}
    last = None
    for word in rest:
        key, sep, value = word.partition(":")
        if not sep and last is not None:
            # A name typed as the board shows it, unquoted: unit:Cav 1 means unit:"Cav 1".
            action[last] += " " + word
            continue
        if not sep or not key:
            raise CommandSyntaxError(
                f"Options are written name:value, e.g. /{name.lower()} unit:… to:…; "
                f"{word!r} is not.",
                key="syntax_not_option",
                params={"command": name.lower(), "typed": repr(word)},
            )
        if not value:
            raise CommandSyntaxError(
                f"Option {key!r} has no value.", key="syntax_no_value", params={"option": key}
            )
        if key in action or key in ("type", "side"):
            raise CommandSyntaxError(
                f"Option {key!r} given twice or reserved.",
                key="syntax_twice",
                params={"option": key},
            )
        action[key] = value
        last = key
    return action


_WHITESPACE = frozenset(" \t\r\n")


def split_words(text: str) -> list[str]:
    """``shlex.split`` (POSIX rules: whitespace separates, '...' is literal, "..." honours
    backslash before " and \\, a backslash outside quotes takes the next character) in time
    linear in the line: shlex grows each word one character at a time, which is quadratic in
    a long word (a megabyte took minutes). Raises ValueError like shlex."""
    words: list[str] = []
    current: list[str] = []
    in_word = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _WHITESPACE:
            if in_word:
                words.append("".join(current))
                current, in_word = [], False
            i += 1
            continue
        in_word = True
        if ch == "\\":
            if i + 1 >= n:
                raise ValueError("No escaped character")
            current.append(text[i + 1])
            i += 2
        elif ch == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ValueError("No closing quotation")
            current.append(text[i + 1 : end])
            i = end + 1
        elif ch == '"':
            i += 1
            while True:
                if i >= n:
                    raise ValueError("No closing quotation")
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\" and i + 1 >= n:
                    raise ValueError("No escaped character")
                if c == "\\" and text[i + 1] in '"\\':
                    current.append(text[i + 1])
                    i += 2
                    continue
                current.append(c)
                i += 1
        else:
            # Runs of plain characters in one slice, so a long word costs one append.
            j = i + 1
            while j < n and text[j] not in _WHITESPACE and text[j] not in "\\'\"":
                j += 1
            current.append(text[i:j])
            i = j
    if in_word:
        words.append("".join(current))
    return words


def format_command(action: dict) -> str:
    parts = ["/" + action["type"]]
    for key, value in action.items():
        if key in ("type", "side"):
            continue
        parts.append(f"{key}:{shlex.quote(value) if (' ' in value or not value) else value}")
    return " ".join(parts)
