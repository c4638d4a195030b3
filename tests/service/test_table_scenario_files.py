"""Scenario files on the local table (issue 8): a path is a local-table feature, and even there
only a regular UTF-8 JSON file of at most 256 KiB with a bounded nesting depth is read. A
FIFO, a device or a directory is refused at once instead of blocking or filling memory."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import threading

import pytest

from engine import registry
from engine.core import scenario_io
from engine.core.errors import ScenarioError
from service import table

RIVET = registry.get_ruleset("rivet-wars")


def run_table(argv):
    out, err = io.StringIO(), io.StringIO()
    code = table.main(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def refusal_in_thread(path: str, seconds: float = 10.0) -> ScenarioError:
    """load_path in a thread, so a read that blocks (a FIFO) fails the test instead of hanging."""
    caught: list[BaseException] = []

    def load():
        try:
            RIVET.load_path(path)
        except Exception as error:  # noqa: BLE001 - handed to the test thread below
            caught.append(error)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"loading {path} blocked"
    assert caught and isinstance(caught[0], ScenarioError), caught
    return caught[0]


def test_a_fifo_a_directory_and_a_device_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for path in (str(fifo), str(tmp_path), "/dev/zero"):
        error = refusal_in_thread(path)
        assert error.problem.startswith("is not a regular file"), error


def test_a_file_larger_than_the_cap_is_refused_before_it_is_read(tmp_path, monkeypatch):
    big = tmp_path / "big.json"
    big.write_bytes(b'{"name": "big", "mission": "mission-1"' + b" " * (300 * 1024) + b"}")

    def no_read(*args, **kwargs):
        raise AssertionError("an oversized file must not be opened")

    monkeypatch.setattr(os, "open", no_read)
    error = refusal_in_thread(str(big))
    assert "larger than 256 KiB" in error.problem


@pytest.mark.parametrize(
    "content, problem",
    [
        ('{"name": "Stra\u00dfe", "mission": "mission-1"}'.encode("latin-1"), "is not UTF-8"),
        (b"[" * 50_000 + b"]" * 50_000, "is nested more than 20 levels deep"),
        (b'{"a":' * 30 + b"1" + b"}" * 30, "is nested more than 20 levels deep"),
        (b'{"mission": "mission-1", "turn": NaN}', "number JSON does not allow"),
        (b'{"mission": "mission-1", "turn": ' + b"9" * 5000 + b"}", "number JSON does not allow"),
        (b'{"mission": "mission-1",', "is not valid JSON"),
    ],
)
def test_bad_bytes_are_refused_with_a_scenario_error(tmp_path, content, problem):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    error = refusal_in_thread(str(path))
    assert problem in error.problem, error
    assert error.file == str(path)


def test_depth_is_counted_without_recursion_and_ignores_brackets_in_strings():
    assert scenario_io.nesting_depth('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == 1
    assert scenario_io.nesting_depth("[" * 200_000) == 200_000
    assert scenario_io.nesting_depth('{"a": [{"b": "\\"]]]]"}]}') == 3


def test_the_table_starts_from_a_scenario_file_and_refuses_a_fifo(tmp_path):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"name": "mine", "mission": "mission-3", "turn": 4}))
    empty = tmp_path / "script.txt"
    empty.write_text("")
    code, _, err = run_table(
        [
            "--game",
            "rivet-wars",
            "--scenario",
            str(mine),
            "--script",
            str(empty),
            "--seed",
            "3",
            "--db",
            str(tmp_path / "t.db"),
        ]
    )
    assert code == 0, err
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT scenario FROM games").fetchall() == [("mine",)]
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = run_table(
        [
            "--game",
            "rivet-wars",
            "--scenario",
            str(fifo),
            "--autoplay",
            "--db",
            str(tmp_path / "u.db"),
        ]
    )
    assert code == 2 and "is not a regular file" in err, err
    code, _, err = run_table(
        [
            "--game",
            "rivet-wars",
            "--scenario",
            "mission-4",
            "--script",
            str(empty),
            "--seed",
            "3",
            "--db",
            str(tmp_path / "v.db"),
        ]
    )
    assert code == 0, err
