"""Every target of issue 13 measured in one run, each figure beside its reference and target,
and written into docs/performance.md ("Latest recorded figures").

Runs, one after the other and each in a process of its own (so no run inherits another's
caches, heap or picture workers):

1. ``bench_load.py`` at 100 commands/s for 60 s on 1,000 games (latency, autocomplete,
   event-loop lag, reminder pass, RSS);
2. ``bench_load.py`` at 200 commands/s for 60 s (graceful degradation);
3. ``bench_render.py`` (a picture of the largest map, warm and cold, against the encode floor);
4. ``bench_length.py`` (costs at 300, 1,000 and 5,000 logged actions, verify, the replay).

About three minutes on two idle cores (the issue asks for under five). ``--no-record`` prints
only. Run it on a quiet machine: every run is slowed by whatever else runs beside it.

    .venv/bin/python bench/bench_targets.py
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUNS = (
    ("load at 100/s", ["bench_load.py", "--rate", "100", "--seconds", "60", "--games", "1000"]),
    ("load at 200/s", ["bench_load.py", "--rate", "200", "--seconds", "60", "--games", "1000"]),
    ("pictures", ["bench_render.py"]),
    ("costs against a game's length", ["bench_length.py"]),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--no-record", action="store_true", help="print the figures, leave the docs alone"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    failed = []
    for title, command in RUNS:
        print(f"\n===== {title}: {' '.join(command)}", flush=True)
        extra = [] if args.no_record else ["--record"]
        done = subprocess.run([sys.executable, str(HERE / command[0]), *command[1:], *extra])
        if done.returncode != 0:
            failed.append(title)
    print(f"\nall targets measured in {time.perf_counter() - started:.0f} s")
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
