"""Every command example players read (README, docs/, the local table's /help, the bot's own
descriptions) names things that exist (issue 15): each example is parsed with the real command
grammar and checked against a real game of its ruleset, played with seeded random legal
actions while every option value offered on the way is collected with the names it answers to.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest

from engine import registry
from engine.core.commands import parse_command
from engine.core.dice import seeded
from engine.core.errors import CommandSyntaxError, RuleError
from engine.core.game import new_game
from engine.core.info import reference_text
from engine.core.names import counter_titles, names_of
from service.table import TABLE_COMMANDS

ROOT = Path(__file__).resolve().parent.parent
# every game players are offered (test fixtures registered by other test modules are not)
REAL_GAMES = tuple(g for g in registry.available() if not registry.RULESETS[g].startswith("tests."))
# A command with at least one option: /name key:value, a value quoted or up to a space/backtick.
EXAMPLE = re.compile(r"""/[a-z][a-z-]*(?:[ ]+[a-z_]+:(?:"[^"\n]*"|'[^'\n]*'|[^\s`"'|\\]+))+""")
# Placeholders stand for "your unit here", not for an id: shown as such, never checked.
PLACEHOLDER = re.compile(r"…|<|>|\{|\}|^(?:X|Y|CCRR)$")
REFEREE_COMMANDS = ("ref-place", "ref-remove", "ref-phase")
PY_FENCE = re.compile(r"```python\n.*?```", re.S)


def sources() -> list[tuple[str, str]]:
    """(file, text) of what players read: Markdown outside Python test snippets, and the
    strings of the table and the cogs."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        found.append((str(path.relative_to(ROOT)), PY_FENCE.sub("", path.read_text("utf-8"))))
    for path in [ROOT / "service" / "table.py", *sorted((ROOT / "cogs").glob("*.py"))]:
        found.append((str(path.relative_to(ROOT)), path.read_text("utf-8")))
    # What /rules, /game rules and /help show of each game, in both languages.
    for game in REAL_GAMES:
        ruleset = registry.get_ruleset(game)
        for lang in ("en", "de"):
            shown = [ruleset.rules_summary(lang), reference_text(ruleset, lang)]
            shown += [c.description for c in ruleset.commands]
            found.append((f"rules/{game}.{lang}", "\n".join(shown)))
    return found


def examples() -> list[tuple[str, str]]:
    out = []
    for file, text in sources():
        for match in EXAMPLE.finditer(text):
            out.append((file, match.group(0).rstrip(".,;:)")))
    return out


def games_for(file: str) -> tuple[str, ...]:
    """A game's own documents are checked against that game; the rest against any game."""
    for game in REAL_GAMES:
        if f"/{game}." in file or f"/{game}/" in file:
            return (game,)
    return REAL_GAMES


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


@cache
def known_names(game: str) -> dict[str, frozenset[str]]:
    """Per option name, every value offered in a seeded random game and every name of it."""
    ruleset = registry.get_ruleset(game)
    state, _ = new_game(ruleset, ruleset.load_packaged(""), "examples")
    rng = random.Random(15)
    names: dict[str, set[str]] = {}
    seen: set[tuple[str, str]] = set()
    for step in range(500):
        if state.get("result"):
            break
        # Labels change with positions only: a value's names are taken when it is first
        # offered, and counter titles every few actions.
        counters = counter_titles(ruleset, state) if step % 10 == 0 else {}
        side = ruleset.awaiting(state)[0]
        legal = ruleset.legal_actions(state, side)
        for action in legal:
            for key, value in action.items():
                if key in ("type", "side") or ((key, value) in seen and value not in counters):
                    continue
                seen.add((key, value))
                names.setdefault(key, set()).update(names_of(ruleset, state, key, value, counters))
        state, _ = ruleset.apply(state, rng.choice(legal), seeded("examples", step + 1))
    return {key: frozenset(values) for key, values in names.items()}


def problems(game: str, example: str) -> list[str]:
    action = parse_command(example)
    name = action.pop("type")
    ruleset = registry.get_ruleset(game)
    if name in TABLE_COMMANDS or name in REFEREE_COMMANDS:
        return []
    if name in {q.name for q in ruleset.all_queries()}:
        # A question (/los from: to:) is asked of the scenario's first position as typed.
        if any(PLACEHOLDER.search(value) for value in action.values()):
            return []
        state, _ = new_game(ruleset, ruleset.load_packaged(""), "examples")
        try:
            ruleset.query(state, None, name, action)
        except RuleError as exc:
            return [f"/{name}: {exc}"]
        return []
    if name not in {c.name for c in ruleset.commands}:
        return [f"{game} has no /{name}"]
    known = known_names(game)
    found = []
    for key, value in action.items():
        if PLACEHOLDER.search(value):
            continue
        folded = _fold(value)
        if not any(n == folded or n.startswith(folded) for n in known.get(key, ())):
            found.append(f"{key}:{value} names nothing in {game}")
    return found


EXAMPLES = examples()


def test_the_documents_have_examples_to_check():
    files = {file for file, _ in EXAMPLES}
    assert "README.md" in files or "docs/local-table.md" in files
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("file", "example"), EXAMPLES, ids=[f"{f}:{e}" for f, e in EXAMPLES])
def test_every_command_example_names_things_that_exist(file, example):
    try:
        parse_command(example)
    except CommandSyntaxError as exc:
        pytest.fail(f"{file}: {example!r} does not parse: {exc}")
    complaints = {game: problems(game, example) for game in games_for(file)}
    fits = [game for game, found in complaints.items() if not found]
    assert fits, f"{file}: {example!r}: " + "; ".join(
        f"{game}: {', '.join(found)}" for game, found in complaints.items()
    )


def test_the_checker_refuses_ids_that_do_not_exist():
    assert problems("siege", "/los from:9999 to:0819")
    assert not problems("siege", "/los from:0816 to:0819")
    assert problems("tenochtitlan", "/move unit:sp-cav-99 to:0507")
    assert problems("tenochtitlan", '/play card:"Aqueduct cut"')
    assert not problems("tenochtitlan", "/place unit:az-bowmen-1 to:1106")
