"""Reading scenario documents safely, and checking their structure against a JSON Schema.

Three ways in, kept apart on purpose (see ``Ruleset.load_packaged`` / ``load_document`` /
``load_path``):

- a packaged name: checked against the game's own list before anything else happens, so a name
  typed in Discord can never become a filesystem path;
- a document already in memory (a file attached in Discord): bytes, capped in size;
- a path (the local table only, where the person at the terminal owns the machine): only a
  regular file, capped in size before it is read, so a FIFO, a device or a directory is refused
  instead of blocking or exhausting memory.

Every document is strict UTF-8 JSON with a bounded nesting depth, and a refusal never quotes
the document: it names the entry (a JSON pointer such as ``/units/3/at``) and the problem in
our own words.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from typing import Any

from engine.core.paths import data_dir

from .errors import ScenarioError

MAX_DOCUMENT_BYTES = 256 * 1024
# Packaged names are short words; anything longer is refused before it is compared with anything.
MAX_NAME_LENGTH = 64
# The deepest packaged format (a Pocket Tactics combat's dice) nests five levels; twenty leaves
# room for authors while keeping json and the schema walk far from Python's recursion limit.
MAX_DEPTH = 20
# A refusal names at most this much of an entry, so a hostile key cannot flood the reply.
MAX_ENTRY_CHARS = 120

SCHEMA_DIR = data_dir("schemas")

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def check_name(name: str, known: list[str], game: str) -> str:
    """``name`` if it is one of the packaged ``known`` names, else a ScenarioError that lists them."""
    if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH or name not in known:
        raise ScenarioError(
            "scenario", "name", f"unknown scenario of {game}; packaged: {', '.join(known)}"
        )
    return name


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, without recursion (strings are skipped, so a
    bracket inside a string does not count; a malformed text may be over-counted, which only
    turns "not valid JSON" into "nested too deeply")."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_document(data: bytes | str, label: str) -> dict:
    """A JSON object from ``data`` (bytes must be UTF-8), or a ScenarioError saying what is wrong."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ScenarioError(label, "file", f"is larger than {MAX_DOCUMENT_BYTES // 1024} KiB")
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ScenarioError(
                label, "file", f"is not UTF-8 text (bad byte at offset {exc.start})"
            ) from None
    else:
        text = data
        if len(text) > MAX_DOCUMENT_BYTES:
            raise ScenarioError(label, "file", f"is larger than {MAX_DOCUMENT_BYTES // 1024} KiB")
    text = text.removeprefix("\ufeff")
    if nesting_depth(text) > MAX_DEPTH:
        raise ScenarioError(label, "file", f"is nested more than {MAX_DEPTH} levels deep")
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        # exc.msg is json's description of the syntax problem; it never contains the text.
        raise ScenarioError(
            label, f"line {exc.lineno} column {exc.colno}", f"is not valid JSON ({exc.msg})"
        ) from None
    except (ValueError, RecursionError):
        # NaN/Infinity, or an integer longer than Python converts (int_max_str_digits).
        raise ScenarioError(
            label, "file", "holds a number JSON does not allow or that is too long"
        ) from None
    if not isinstance(value, dict):
        raise ScenarioError(label, "/", "the top level must be a JSON object")
    return value


def read_path(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file of at most MAX_DOCUMENT_BYTES, for the local table only."""
    label = str(path)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        raise ScenarioError(label, "file", _os_problem(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise ScenarioError(
            label,
            "file",
            "is not a regular file (a directory, device or pipe cannot be a scenario)",
        )
    if info.st_size > MAX_DOCUMENT_BYTES:
        raise ScenarioError(label, "file", f"is larger than {MAX_DOCUMENT_BYTES // 1024} KiB")
    try:
        # O_NONBLOCK: should the path turn into a FIFO between stat and open, opening must
        # not wait for a writer. The opened file is checked again, by its descriptor.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ScenarioError(label, "file", _os_problem(exc)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ScenarioError(label, "file", "is not a regular file")
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(label, "file", _os_problem(exc)) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ScenarioError(label, "file", f"is larger than {MAX_DOCUMENT_BYTES // 1024} KiB")
    return data


def _os_problem(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return "not found"
    if isinstance(exc, PermissionError):
        return "cannot be read (permission denied)"
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot be read ({exc.strerror})"
    return "cannot be read"


# ----- JSON Schema ----------------------------------------------------------------------------


@functools.cache
def validator(schema_name: str):
    """The validator of ``data/schemas/<schema_name>.schema.json`` (the files published in
    ``docs/scenarios/``). Integers are strict: ``1.0`` and ``true`` are not whole numbers."""
    import jsonschema
    from jsonschema import validators

    schema = json.loads((SCHEMA_DIR / f"{schema_name}.schema.json").read_text(encoding="utf-8"))
    base = validators.validator_for(schema)
    base.check_schema(schema)
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = validators.extend(base, type_checker=checker)
    return strict(schema, format_checker=jsonschema.FormatChecker())


def pointer(path) -> str:
    """A JSON pointer (RFC 6901) for a jsonschema path, clipped so it stays readable."""
    parts = []
    for part in path:
        text = str(part).replace("~", "~0").replace("/", "~1")
        parts.append(text if len(text) <= 40 else text[:39] + "…")
    out = "/" + "/".join(parts)
    return out if len(out) <= MAX_ENTRY_CHARS else out[: MAX_ENTRY_CHARS - 1] + "…"


def _type_words(kinds) -> str:
    words = {
        "integer": "a whole number",
        "number": "a number",
        "string": "a text",
        "boolean": "true or false",
        "object": "an object",
        "array": "a list",
        "null": "null",
    }
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    return " or ".join(words.get(k, k) for k in kinds)


def _problem(error) -> tuple[str, str]:
    """(entry, problem) for one jsonschema error, in our words and from the schema only: the
    instance (the author's value) is never quoted, so a refusal cannot echo a file."""
    where = list(error.absolute_path)
    kind, expected = error.validator, error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "description" in schema and kind in ("pattern", "enum", "oneOf", "anyOf"):
        return pointer(where), f"must be {schema['description']}"
    if kind == "type":
        return pointer(where), f"must be {_type_words(expected)}"
    if kind == "required":
        instance = error.instance if isinstance(error.instance, dict) else {}
        missing = [k for k in expected if k not in instance]
        return pointer(where), f"needs the entry {missing[0] if missing else expected[0]!r}"
    if kind == "additionalProperties":
        known = sorted((schema.get("properties") or {}).keys())
        instance = error.instance if isinstance(error.instance, dict) else {}
        extra = [
            k
            for k in instance
            if k not in known
            and not any(re.search(p, k) for p in (schema.get("patternProperties") or {}))
        ]
        entry = pointer(where + extra[:1])
        return entry, ("unknown entry; known: " + ", ".join(known)) if known else "unknown entry"
    if kind == "enum":
        shown = ", ".join("null" if v is None else str(v) for v in expected[:20])
        return pointer(where), f"must be one of: {shown}"
    if kind == "const":
        return pointer(where), f"must be {json.dumps(expected)}"
    if kind in ("minimum", "exclusiveMinimum"):
        return pointer(
            where
        ), f"must be at least {expected + (1 if kind == 'exclusiveMinimum' else 0)}"
    if kind in ("maximum", "exclusiveMaximum"):
        return pointer(
            where
        ), f"must be at most {expected - (1 if kind == 'exclusiveMaximum' else 0)}"
    if kind == "minItems":
        return pointer(where), f"needs at least {expected} item(s)"
    if kind == "maxItems":
        return pointer(where), f"may hold at most {expected} item(s)"
    if kind == "minLength":
        return pointer(
            where
        ), "must not be empty" if expected == 1 else f"needs at least {expected} characters"
    if kind == "maxLength":
        return pointer(where), f"may be at most {expected} characters long"
    if kind == "minProperties":
        return pointer(where), f"needs at least {expected} entr{'y' if expected == 1 else 'ies'}"
    if kind == "maxProperties":
        return pointer(where), f"may hold at most {expected} entries"
    if kind == "uniqueItems":
        return pointer(where), "lists the same item twice"
    if kind == "pattern":
        return pointer(where), "is not written the expected way"
    if kind == "propertyNames":
        return pointer(where), "has an entry name that is not allowed here"
    if kind in ("oneOf", "anyOf"):
        return pointer(where), "does not have any of the allowed shapes"
    return pointer(where), "is not allowed here"


def check_schema(document: dict, schema_name: str, label: str) -> None:
    """Raise a ScenarioError for the first structural problem of ``document`` (deepest entry
    first, so the author is sent to the exact place)."""
    errors = list(validator(schema_name).iter_errors(document))
    if not errors:
        return
    best = max(errors, key=lambda e: (len(e.absolute_path), -len(e.context)))
    # For oneOf/anyOf, the branch error that went deepest usually says what was meant.
    while best.context:
        best = max(best.context, key=lambda e: len(e.absolute_path))
    entry, problem = _problem(best)
    raise ScenarioError(label, entry, problem)


def safe_label(name: str) -> str:
    """A label for a file someone attached: its name without characters that could break the
    reply's formatting, and short."""
    cleaned = "".join(ch for ch in str(name) if ch.isprintable() and ch not in "`*_~|<>@#\\")
    cleaned = cleaned.strip() or "attached file"
    return cleaned if len(cleaned) <= 60 else cleaned[:59] + "…"
