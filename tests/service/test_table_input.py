"""The local table survives odd and hostile input, and seeds its games as strongly as the bot."""

import io
import json
import re
import time

import pytest

from service import table


def run_script(tmp_path, lines, *extra):
    path = tmp_path / "script.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = table.main(
        [
            "--game",
            "skirmish",
            "--seed",
            "5",
            "--db",
            str(tmp_path / "t.db"),
            "--script",
            str(path),
            *extra,
        ],
        stdout=out,
        stderr=err,
    )
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


@pytest.mark.parametrize("count", ["²", "⑤", "٣", "-1", "1e9", "99999999999999999999"])
def test_log_with_a_count_that_is_not_a_plain_number_is_refused_and_the_table_goes_on(
    tmp_path, count
):
    # '²' and '⑤' pass str.isdigit() but not int(): the table used to die with a ValueError.
    code, lines, _ = run_script(tmp_path, ["red /move unit:r1 to:0201", f"/log {count}", "/log 1"])
    assert code == 0 and len(lines) == 3
    moved, refused, log = lines
    assert not refused["ok"] and "/log takes a number of actions" in refused["error"]
    assert refused["state_hash"] == moved["state_hash"]
    assert log["ok"] and log["log"][0].startswith("#1 turn 1 Red")


def test_a_megabyte_line_is_refused_quickly_without_being_echoed(tmp_path):
    huge = "red /move unit:" + "a" * 1_000_000
    started = time.perf_counter()
    code, lines, _ = run_script(
        tmp_path, [huge, 'red /move unit:"' + "x" * 500_000, "red /move unit:r1 to:0201"]
    )
    elapsed = time.perf_counter() - started
    assert code == 0 and len(lines) == 3
    for refused in lines[:2]:
        assert not refused["ok"] and "a command has at most 2,000" in refused["error"]
        assert len(json.dumps(refused)) < 1000
    assert lines[2]["ok"]
    assert elapsed < 5, elapsed


def test_a_megabyte_line_typed_at_the_terminal_is_refused(tmp_path):
    typed = iter(["/move unit:" + "a" * 1_000_000, "/quit"])
    out = io.StringIO()
    code = table.main(
        ["--game", "skirmish", "--seed", "3", "--db", str(tmp_path / "t.db")],
        stdout=out,
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    assert code == 0
    assert "✗ That line is 1,000,011 characters long" in out.getvalue()
    assert len(out.getvalue()) < 5000


def test_the_default_seed_has_128_random_bits(tmp_path):
    seeds = set()
    for n in range(2):
        err = io.StringIO()
        assert table.main(
            [
                "--game",
                "skirmish",
                "--autoplay",
                "--max-actions",
                "1",
                "--db",
                str(tmp_path / f"{n}.db"),
            ],
            stdout=io.StringIO(),
            stderr=err,
        ) in (0, 1)
        seed = re.search(r"seed (\S+) \(pass --seed", err.getvalue()).group(1)
        assert re.fullmatch(r"[0-9a-f]{32}", seed), seed
        seeds.add(seed)
    assert len(seeds) == 2


def test_an_endless_line_in_a_script_is_counted_not_kept():
    """A script line is read at most MAX_LINE_CHARS + 1 characters at a time: the rest of a
    huge line is only counted (a gigabyte on stdin must not cost a gigabyte)."""

    class Reads(io.StringIO):
        largest = 0

        def readline(self, size=-1):
            assert size != -1, "a script line is never read whole"
            line = super().readline(size)
            Reads.largest = max(Reads.largest, len(line))
            return line

    handle = Reads("red /move unit:" + "a" * 3_000_000 + "\n/log 1\n")
    lines = list(table.read_lines(handle, table.MAX_LINE_CHARS))
    assert [(len(text), length) for text, length in lines] == [
        (table.MAX_LINE_CHARS + 1, 3_000_016),
        (7, 7),
    ]
    assert Reads.largest <= 1 << 16


def test_a_huge_line_on_stdin_is_refused_with_its_real_length(tmp_path, monkeypatch):
    monkeypatch.setattr(
        "sys.stdin",
        io.StringIO("red /move unit:" + "a" * 3_000_000 + "\nred /move unit:r1 to:0201\n"),
    )
    out = io.StringIO()
    assert (
        table.main(
            ["--game", "skirmish", "--seed", "1", "--script", "-", "--db", str(tmp_path / "t.db")],
            stdout=out,
            stderr=io.StringIO(),
        )
        == 0
    )
    refused, moved = [json.loads(line) for line in out.getvalue().splitlines()]
    assert not refused["ok"] and "That line is 3,000,016 characters long" in refused["error"]
    assert moved["ok"]
