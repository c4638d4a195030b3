"""A plain ``pip install .`` gives a working Umpire: the games' data files are shipped, and the
``umpire`` console command runs from any directory, without the checkout.

The copy is installed into a fresh virtual environment with ``--no-deps`` (so the test needs
no downloads of discord.py and friends); their already-installed copies are made visible to it
through a ``.pth`` line. The build itself is pip's ordinary isolated build.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.packaging


def copy_sources(target: Path) -> None:
    """What git would ship (tracked and new files, not ignored ones), so the build never
    writes build/ or *.egg-info into the working tree. Without git (a source archive), the
    tree without environments and caches."""
    try:
        listed = (
            subprocess.run(
                ["git", "ls-files", "-co", "--exclude-standard", "-z"],
                cwd=ROOT,
                capture_output=True,
                check=True,
            )
            .stdout.decode()
            .split("\0")
        )
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(
            ROOT,
            target,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns(
                ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "out"
            ),
        )
        return
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("packaging")
    source, venv = base / "src", base / "venv"
    copy_sources(source)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The dependencies, from the environment running the tests (after the venv's own
    # site-packages on sys.path, so the installed Umpire wins over any other copy).
    Path(purelib, "test-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(source)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv, base


def run(venv: Path, cwd: Path, *argv: str, timeout: float = 120):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH",) and not k.startswith(("UMPIRE_", "DISCORD_"))
    }
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_wheel_ships_every_data_file(installed):
    venv, _ = installed
    shipped = venv / "share" / "umpire" / "data"
    expected = sorted(
        p.relative_to(ROOT / "data") for p in (ROOT / "data").rglob("*") if p.is_file()
    )
    assert (
        expected
        and sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file()) == expected
    )


def test_the_umpire_command_plays_every_game_from_the_installed_copy(installed):
    venv, base = installed
    elsewhere = base / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    where = run(
        venv,
        elsewhere,
        str(venv / "bin" / "python"),
        "-c",
        "import engine.core.paths as p, bot; print(p.__file__); print(bot.__file__); "
        "print(p.data_dir('tenochtitlan'))",
    )
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert line.startswith(str(venv)), where.stdout  # not the checkout
    for game in ("tenochtitlan", "rivet-wars", "pocket-tactics"):
        done = run(
            venv,
            elsewhere,
            str(venv / "bin" / "umpire"),
            "local",
            "--game",
            game,
            "--seed",
            "4",
            "--autoplay",
            "--max-actions",
            "40",
            "--db",
            str(base / f"{game}.sqlite3"),
        )
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert lines and lines[0]["type"] == "action", (
            game,
            done.stdout[-500:],
            done.stderr[-2000:],
        )
        assert "Traceback" not in done.stderr


def test_the_umpire_command_prints_the_command_tree(installed):
    venv, base = installed
    done = run(venv, base, str(venv / "bin" / "umpire"), "commands")
    assert done.returncode == 0, done.stderr[-2000:]
    names = {command["name"] for command in json.loads(done.stdout)}
    assert {"game", "move", "act"} <= names
