"""The benchmarks write their figures into docs/performance.md themselves (bench/record.py):
each into its own block, replaced by its next run, the rest of the file untouched."""

import importlib.util
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def record():
    spec = importlib.util.spec_from_file_location("bench_record", ROOT / "bench" / "record.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_record"] = module
    spec.loader.exec_module(module)
    return module


DOC = """# Performance

Intro.

## Where things stand

Prose.

## Latest recorded figures

Written by the benchmarks.

## Sixth pass

Hand-written record.
"""


def test_a_first_block_goes_at_the_end_of_its_section_and_nothing_else_moves(record):
    text = record.replace_block(DOC, "bench_load 100/s", "| figure | 1 ms |")
    begin, end = record.markers("bench_load 100/s")
    assert text.count(begin) == 1 and text.count(end) == 1
    before, _, after = text.partition(begin)
    assert before.rstrip().endswith("Written by the benchmarks.")
    assert after.split(end, 1)[0].strip() == "| figure | 1 ms |"
    assert after.split(end, 1)[1].lstrip().startswith("## Sixth pass")
    # everything outside the block is as it was
    assert text.replace(f"{begin}\n| figure | 1 ms |\n{end}\n\n", "") == DOC


def test_a_second_run_replaces_its_own_block_and_leaves_the_others(record):
    text = record.replace_block(DOC, "bench_load 100/s", "old load")
    text = record.replace_block(text, "bench_render", "pictures")
    again = record.replace_block(text, "bench_load 100/s", "new load")
    assert "old load" not in again and "new load" in again and "pictures" in again
    assert again.index("new load") < again.index("pictures")  # its place kept
    assert again.replace("new load", "old load") == text


def test_without_the_section_it_is_added_at_the_end(record):
    text = record.replace_block("# Performance\n\nIntro.\n", "bench_length", "table")
    assert text.startswith("# Performance\n\nIntro.\n\n## Latest recorded figures\n\n")
    assert text.rstrip().endswith(record.markers("bench_length")[1])


@pytest.mark.parametrize(
    "broken",
    [
        "<!-- recorded by bench_render: begin -->\nno end\n",
        "<!-- recorded by bench_render: end -->\n<!-- recorded by bench_render: begin -->\n",
        "<!-- recorded by bench_render: begin -->\n<!-- recorded by bench_render: end -->\n" * 2,
    ],
)
def test_broken_markers_are_refused_not_guessed(record, broken):
    with pytest.raises(ValueError):
        record.replace_block(DOC + broken, "bench_render", "figures")


def test_record_writes_the_file_and_leaves_no_temporary(record, tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(DOC, encoding="utf-8")
    record.record("bench_length", "| verify | linear |", doc)
    assert "| verify | linear |" in doc.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["performance.md"]


def test_a_figure_is_judged_against_its_limit(record):
    assert record.verdict(130.0, 250.0) == "yes"
    assert record.verdict(260.0, 250.0) == "**no**"
    assert record.verdict(float("nan"), 250.0) == "none measured"


def test_the_docs_hold_the_section_the_benchmarks_write_into():
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "\n## Latest recorded figures\n" in text


def test_record_keeps_the_file_s_line_ends_and_permissions(record, tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_bytes(DOC.replace("\n", "\r\n").encode("utf-8"))
    doc.chmod(0o640)
    record.record("bench_render", "pictures", doc)
    data = doc.read_bytes()
    assert b"Hand-written record.\r\n" in data and b"## Sixth pass\r\n" in data
    assert b"-->\r\npictures\r\n<!--" in data
    assert doc.stat().st_mode & 0o777 == 0o640


def test_benchmarks_recording_at_the_same_moment_keep_every_block(record, tmp_path, monkeypatch):
    doc = tmp_path / "performance.md"
    doc.write_text(DOC, encoding="utf-8")
    replace_block = record.replace_block

    def slow_replace_block(text, name, body):
        # wide enough that, without taking turns, every writer reads the file before any writes
        time.sleep(0.05)
        return replace_block(text, name, body)

    monkeypatch.setattr(record, "replace_block", slow_replace_block)
    names = [f"bench_{n}" for n in range(6)]
    writers = [
        threading.Thread(target=record.record, args=(name, f"figures of {name}", doc))
        for name in names
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    text = doc.read_text(encoding="utf-8")
    assert all(f"figures of {name}" in text for name in names), text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["performance.md"]
