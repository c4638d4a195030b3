"""The exported page in a real browser (issue 15): headless Chromium opens the file offline,
steps through the boards with its buttons and slider, and shows each board, its caption and
the matching log entry. CI installs Chromium (.ci/run); a machine without it skips locally."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time

import aiohttp
import pytest

from engine import registry
from service.export import export_game
from service.games import GameService

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str:
    found = next((path for path in map(shutil.which, BROWSERS) if path), None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing; .ci/run installs it (apt-get install chromium)")
        pytest.skip("no Chromium here (CI installs it)")
    return found


class Page:
    """One tab driven through the DevTools protocol."""

    def __init__(self, socket):
        self.socket, self.next_id = socket, 0

    async def evaluate(self, expression: str):
        self.next_id += 1
        await self.socket.send_json(
            {
                "id": self.next_id,
                "method": "Runtime.evaluate",
                "params": {"expression": expression, "returnByValue": True},
            }
        )
        while True:
            reply = await self.socket.receive_json(timeout=30)
            if reply.get("id") == self.next_id:
                result = reply["result"]
                assert "exceptionDetails" not in result, result
                return result["result"].get("value")

    async def shown(self) -> dict:
        return await self.evaluate("""({
            caption: document.getElementById('caption').textContent,
            position: document.getElementById('position').textContent,
            slider: Number(document.getElementById('slider').value),
            image: document.getElementById('board').complete &&
                   document.getElementById('board').naturalWidth,
            current: Array.from(document.querySelectorAll('#log > li.current > span'))
                          .map(e => e.textContent),
            seed: (document.getElementById('seed') || {}).textContent || ''
        })""")


async def open_page(
    binary: str, html_path, profile
) -> tuple[subprocess.Popen, aiohttp.ClientSession, Page]:
    process = subprocess.Popen(
        [
            binary,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            html_path.as_uri(),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + 60
    while not port_file.exists() or not port_file.read_text().strip():
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            pytest.fail("Chromium did not start")
        await asyncio.sleep(0.1)
    port = int(port_file.read_text().split()[0])
    session = aiohttp.ClientSession()
    for _ in range(100):
        async with session.get(f"http://127.0.0.1:{port}/json/list") as response:
            tabs = [
                t
                for t in json.loads(await response.text())
                if t.get("type") == "page" and t.get("url", "").startswith("file:")
            ]
        if tabs:
            break
        await asyncio.sleep(0.1)
    socket = await session.ws_connect(tabs[0]["webSocketDebuggerUrl"], max_msg_size=0)
    page = Page(socket)
    # Loaded and its script ran: the position under the slider is filled in.
    for _ in range(300):
        if await page.evaluate(
            "document.readyState === 'complete' && "
            "!!document.getElementById('position') && "
            "document.getElementById('position').textContent !== ''"
        ):
            break
        await asyncio.sleep(0.1)
    else:
        pytest.fail("the page did not load in Chromium")
    return process, session, page


async def test_the_exported_page_steps_through_the_game_in_chromium(tmp_path):
    binary = browser()
    svc = await GameService.open(tmp_path / "umpire.sqlite3")
    try:
        info = await svc.create_game("skirmish", seed="export-2")
        await svc.start_game(info.id)
        from engine.core.game import autoplay

        rules = registry.get_ruleset("skirmish")
        _, actions = autoplay(rules, rules.load_scenario(rules.default_scenario), "export-2")
        for action in actions:
            await svc.act(info.id, action, actor="table")
        info = await svc.get_game(info.id)
        made = await export_game(svc, info.id, max_frames=20)
    finally:
        await svc.close()
    html_path = tmp_path / "game.html"
    html_path.write_text(made.html, encoding="utf-8")
    profile = tmp_path / "profile"
    profile.mkdir()
    process, session, page = await open_page(binary, html_path, profile)
    try:
        first = await page.shown()
        assert first["caption"] == "Setup" and first["position"] == f"1 / {made.frames}"
        assert first["image"] > 0 and first["current"] == []
        assert info.seed in first["seed"] and "python bot.py verify" in first["seed"]
        await page.evaluate("document.getElementById('next').click()")
        second = await page.shown()
        assert second["slider"] == 1 and second["position"] == f"2 / {made.frames}"
        assert second["caption"].startswith("v") and second["image"] > 0
        assert second["current"] == [second["caption"]], "the log marks the action shown"
        await page.evaluate("""(function () { var s = document.getElementById('slider');
            s.value = s.max; s.dispatchEvent(new Event('input')); })()""")
        last = await page.shown()
        assert last["position"] == f"{made.frames} / {made.frames}"
        assert last["caption"].startswith(f"v{len(actions)} ") and last["current"] == [
            last["caption"]
        ]
        await page.evaluate("document.getElementById('next').click()")
        assert (await page.shown())["position"] == last["position"], "the last board stays"
    finally:
        await page.socket.close()
        await session.close()
        process.kill()
        process.wait(timeout=30)
