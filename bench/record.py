"""Benchmark figures written into docs/performance.md by the benchmark that measured them.

A benchmark run with ``--record`` replaces its own block, between two markers that name it,
in the section "Latest recorded figures"; the rest of the file is left as it was, byte for
byte. Two benchmarks recording at the same moment take turns (a lock on the file's folder),
so neither block is lost. Each block says when and where it was measured (UTC time, commit,
cores, load average before the run), so a reader can tell a quiet machine's figures from those
measured beside other work. The dated prose sections of the file stay hand-written: they say why.
"""

from __future__ import annotations

import datetime
import fcntl
import os
import platform
import shutil
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PERFORMANCE_DOC = ROOT / "docs" / "performance.md"
HEADING = "## Latest recorded figures"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- recorded by {name}: begin -->", f"<!-- recorded by {name}: end -->"


def _commit() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
        )
        return done.stdout.strip() if done.returncode == 0 else ""

    try:
        commit = git("rev-parse", "--short", "HEAD")
        # the file the benchmarks write into is not code: a run that recorded before this one
        # leaves it changed
        changed = git(
            "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/performance.md"
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not commit:
        return "unknown"
    # figures of uncommitted code say so: the commit alone would name code they did not run
    return f"{commit} with uncommitted changes" if changed else commit


def where_and_when(load_before: float | None = None) -> str:
    """One line: when, on which code and on what machine the figures were measured."""
    from PIL import __version__ as pillow_version

    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()[0] if load_before is None else load_before
    return (
        f"Measured {now} UTC on `{_commit()}`: {os.cpu_count()} cores, load average "
        f"{load:.2f} before the run, Python {platform.python_version()}, Pillow {pillow_version}."
    )


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the block of ``name`` holding ``body``: in place if it is there, else at
    the end of the "Latest recorded figures" section (added at the end when missing). The
    block's lines end as the file's do."""
    begin, end = markers(name)
    nl = "\r\n" if "\r\n" in text else "\n"
    block = nl.join((begin, *body.strip().splitlines(), end))
    if text.count(begin) != text.count(end) or text.count(begin) > 1:
        raise ValueError(f"docs: the markers of {name!r} are not one begin and one end")
    if begin in text:
        start = text.index(begin)
        stop = text.find(end, start)
        if stop < 0:
            raise ValueError(f"docs: the end marker of {name!r} comes before its begin")
        return text[:start] + block + text[stop + len(end) :]
    heading = text.find(f"{nl}{HEADING}{nl}")
    if heading < 0:
        return f"{text.rstrip()}{nl}{nl}{HEADING}{nl}{nl}{block}{nl}"
    following = text.find(f"{nl}## ", heading + len(HEADING) + 2 * len(nl))
    if following < 0:
        return f"{text.rstrip()}{nl}{nl}{block}{nl}"
    return f"{text[:following].rstrip()}{nl}{nl}{block}{nl}{text[following:]}"


def record(name: str, body: str, path: Path = PERFORMANCE_DOC) -> None:
    """Write ``body`` as the block of ``name`` in ``path`` (whole file replaced at once)."""
    # The lock is on the folder, not the file: replacing the file would drop a lock held on it.
    # Nothing is left behind, unlike a lock file.
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        with open(path, encoding="utf-8", newline="") as doc:  # line ends kept as they are
            text = doc.read()
        updated = replace_block(text, name, body)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with open(temporary, "w", encoding="utf-8", newline="") as doc:
                doc.write(updated)
            shutil.copymode(path, temporary)
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    finally:
        os.close(folder)  # and with it the lock
    print(f"recorded in {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {name}")


def table(header: tuple[str, ...], rows: list[tuple]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(value: float, limit: float) -> str:
    """Whether a figure is under its target's limit, as the tables show it."""
    if value != value:  # NaN: nothing of that kind happened in the run
        return "none measured"
    return "yes" if value < limit else "**no**"
