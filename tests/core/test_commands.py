"""The command grammar's word splitting: exactly shlex's POSIX rules, in linear time."""

import shlex
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.commands import MAX_COMMAND_CHARS, parse_command, split_words
from engine.core.errors import CommandSyntaxError


def shlex_or_error(text: str):
    try:
        return shlex.split(text)
    except ValueError as exc:
        return ("error", str(exc))


def ours_or_error(text: str):
    try:
        return split_words(text)
    except ValueError as exc:
        return ("error", str(exc))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab :\t\n'\"\\#é⑤", max_size=40))
def test_words_split_exactly_like_shlex(text):
    assert ours_or_error(text) == shlex_or_error(text)


@pytest.mark.parametrize(
    "text",
    [
        "move unit:'Spanish Cavalry 2' to:0507",
        'play card:"Aqueduct \\"cut\\""',
        "a '' b",
        "x\\ y",
        'say "a\\b"',
        "tab\tsep\nnl",
    ],
)
def test_examples_agree_with_shlex(text):
    assert split_words(text) == shlex.split(text)


def test_a_megabyte_word_splits_in_linear_time():
    # shlex.split needs minutes for this (each character copies the word so far).
    word = "a" * 1_000_000
    started = time.perf_counter()
    assert split_words(f'unit:{word} to:"{word}"') == [f"unit:{word}", f"to:{word}"]
    assert time.perf_counter() - started < 2


def test_over_long_commands_are_refused_before_parsing():
    with pytest.raises(CommandSyntaxError, match="at most 2,000"):
        parse_command("/move unit:" + "a" * MAX_COMMAND_CHARS)
    assert parse_command("/move unit:" + "a" * 100) == {"type": "move", "unit": "a" * 100}
