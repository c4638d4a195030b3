"""Where the games' data files live: ``data/`` next to the code in a checkout (also an
editable install), or ``share/umpire/data`` under the environment's prefix when Umpire was
installed with ``pip install .`` (the wheel ships them as data files)."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

CHECKOUT_DATA = Path(__file__).resolve().parents[2] / "data"
INSTALLED_DATA = tuple(
    dict.fromkeys(
        Path(prefix) / "share" / "umpire" / "data"
        for prefix in (sysconfig.get_path("data"), sys.prefix)
    )
)


def data_dir(game: str) -> Path:
    """The directory of one game's data files (``tenochtitlan``, ``rivet-wars``, ...). When
    none exists, the checkout's path, so a loader's error names where the file was looked for."""
    for root in (CHECKOUT_DATA, *INSTALLED_DATA):
        if (root / game).is_dir():
            return root / game
    return CHECKOUT_DATA / game
