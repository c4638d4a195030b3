"""A bot process sets its long-lived objects aside from the cyclic garbage collector once it
is set up, so a full collection (which holds the event loop) walks only what came later. Run
in a process of its own: objects set aside are never collected, which a test run must not do
to its own process."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json
import cogs.runtime  # the bot's modules, as a running bot holds them
from service.lifecycle import settle_long_lived_objects
before = len(gc.get_objects())
set_aside = settle_long_lived_objects()
later = [{"n": [i]} for i in range(1000)]
print(json.dumps([before, set_aside, len(gc.get_objects())]))
"""


def test_after_settling_a_full_collection_walks_only_what_came_later():
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    before, set_aside, walked = json.loads(done.stdout.strip().splitlines()[-1])
    assert before > 20_000  # the bot's modules, classes and functions
    assert set_aside >= before * 0.9
    assert walked < 3_000  # the 2,000 new containers and little else
