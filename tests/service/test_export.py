"""The export (issue 15): one self-contained HTML page with a board after every action, the log
with every die and, once the game is over, the seed and how to verify it; plus the JSON log.
The page is checked in a real browser in tests/ops/test_export_browser.py."""

from __future__ import annotations

import base64
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine import registry
from engine.core.game import autoplay
from service.export import export_game
from service.games import GameService

ROOT = Path(__file__).resolve().parents[2]


async def finished_skirmish(svc, seed="export-2"):  # four dice rolled
    rules = registry.get_ruleset("skirmish")
    _, actions = autoplay(rules, rules.load_scenario(rules.default_scenario), seed)
    info = await svc.create_game("skirmish", seed=seed)
    await svc.start_game(info.id)
    for action in actions:
        await svc.act(info.id, action, actor="table")
    return await svc.get_game(info.id), actions


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(tmp_path / "umpire.sqlite3")
    yield svc
    await svc.close()


def frames_of(page: str) -> list[dict]:
    found = re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found[1])


async def test_a_finished_game_exports_every_board_the_dice_and_the_seed(service):
    info, actions = await finished_skirmish(service)
    assert info.status == "finished"
    made = await export_game(service, info.id)
    frames = frames_of(made.html)
    assert made.actions == len(actions) and made.frames == len(actions) + 1 == len(frames)
    for frame in frames[:3] + frames[-1:]:
        png = base64.b64decode(frame["src"].removeprefix("data:image/png;base64,"))
        assert Image.open(io.BytesIO(png)).format == "PNG"
    assert frames[0]["caption"] == "Setup" and frames[1]["caption"].startswith("v1 · ")
    assert f"Seed: <code>{info.seed}</code>" in made.html
    assert (
        f"python bot.py verify --db umpire.sqlite3 --game {info.id} --seed {info.seed}" in made.html
    )
    history = await service.history(info.id)
    dice = sum(1 for r in history for e in r.events if e.get("type") == "roll")
    assert dice and made.html.count("🎲") == dice
    # Nothing is fetched from elsewhere: the page works offline.
    assert not re.search(r'(src|href)="(https?:)?//', made.html)
    log = json.loads(made.log_json)
    assert log["seed"] == info.seed and len(log["actions"]) == len(actions)
    assert [a["action"] for a in log["actions"]] == [r.action for r in history if not r.undone_by]


async def test_a_running_game_keeps_its_seed_secret(service):
    info = await service.create_game("skirmish", seed="secret-seed")
    await service.start_game(info.id)
    await service.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    made = await export_game(service, info.id)
    assert "secret-seed" not in made.html and "secret-seed" not in made.log_json
    assert "stays secret until it ends" in made.html and made.frames == 2


async def test_a_long_game_is_thinned_to_stay_under_the_size_bound(service):
    info, actions = await finished_skirmish(service)
    small = await export_game(service, info.id, max_frames=5)
    frames = frames_of(small.html)
    assert small.frames == len(frames) <= 6
    assert frames[0]["caption"] == "Setup" and frames[-1]["step"] == len(actions)
    tiny = await export_game(service, info.id, max_bytes=len(small.html) // 2)
    assert len(tiny.html) < len(small.html) and frames_of(tiny.html)[-1]["step"] == len(actions)


async def test_names_from_a_game_cannot_inject_markup(service, monkeypatch):
    import service.export as export
    import service.games as games

    hostile = "</script><script>alert(1)</script><b>x</b>"  # as a scenario file could name a unit
    monkeypatch.setattr(export, "describe_action", lambda *a: hostile)
    monkeypatch.setattr(games, "describe_action", lambda *a: hostile)
    info = await service.create_game("skirmish", seed="x")
    await service.start_game(info.id)
    await service.act(info.id, {"type": "end-phase", "side": "red"}, actor="table")
    page = (await export_game(service, info.id)).html
    assert "<script>alert(1)" not in page and "<b>x</b>" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page
    assert frames_of(page)[1]["caption"].endswith("</script><script>alert(1)</script><b>x</b>")


def test_bot_py_export_writes_the_page_and_the_json_log(tmp_path):
    import asyncio

    db = tmp_path / "umpire.sqlite3"

    async def make():  # a real ruleset: the command line knows no test fixtures
        svc = await GameService.open(db)
        try:
            info = await svc.create_game("tenochtitlan", "historical", seed="cli")
            await svc.start_game(info.id)
            for _ in range(3):
                side = (await svc.get_game(info.id)).awaiting[0]
                action = (await svc.legal_actions(info.id, side))[0]
                await svc.act(info.id, action, actor="table")
            await svc.resign(info.id, "aztec")
            return await svc.get_game(info.id)
        finally:
            await svc.close()

    info = asyncio.run(make())
    out = tmp_path / "game.html"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bot.py"),
            "export",
            "--db",
            str(db),
            "--game",
            str(info.id),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["seed"] == info.seed
    missing = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bot.py"),
            "export",
            "--db",
            str(db),
            "--game",
            "999",
            "--out",
            str(tmp_path / "x.html"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert missing.returncode == 1 and "Cannot export game 999" in missing.stderr
