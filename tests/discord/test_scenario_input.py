"""Scenarios from Discord (issue 8): a scenario is a packaged name or a JSON file attached to
``/game new``. No text typed in Discord ever reaches the filesystem, an attachment is read
into memory only and capped in size, and a refusal names the entry and the problem without
quoting a file."""

from __future__ import annotations

import builtins
import io
import json
import os
import time
from pathlib import Path

import discord
import pytest

from .conftest import reply_text

MISSION_3 = Path("data/rivet-wars/missions/mission-3.json")


@pytest.fixture
def file_access(monkeypatch):
    """Every path the process opens or stats from now on (as text)."""
    seen: list[str] = []

    def watch(original):
        def wrapper(path, *args, **kwargs):
            seen.append(
                os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
            )
            return original(path, *args, **kwargs)

        return wrapper

    for module, name in (
        (builtins, "open"),
        (io, "open"),
        (os, "open"),
        (os, "stat"),
        (os, "lstat"),
    ):
        monkeypatch.setattr(module, name, watch(getattr(module, name)))
    return seen


async def nothing_opened(table):
    assert not table.channel.threads, "no thread for a game that was never created"
    assert await table.service.list_games(guild_id=table.guild.id) == []
    assert table.public() == []


@pytest.mark.parametrize(
    "hostile",
    [
        "/etc/passwd",
        "../../../../etc/passwd",
        "../data/rivet-wars/missions/mission-1",
        "../rivet-wars/missions/mission-1.json",
        "/dev/zero",
        "fifo",
        "x" * 6000,
    ],
)
async def test_a_path_or_an_overlong_name_is_refused_without_touching_the_filesystem(
    table, tmp_path, file_access, hostile
):
    if hostile == "fifo":
        hostile = str(tmp_path / "pipe.json")
        os.mkfifo(hostile)  # reading it would block a worker thread forever
    file_access.clear()
    started = time.perf_counter()
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario=hostile
    )
    elapsed = time.perf_counter() - started
    text = reply_text(result)
    assert result.ephemeral
    if len(hostile) > 100:
        # Every option's length is capped by the command tree before any command runs.
        assert text.startswith("The option `scenario` is too long"), text
    else:
        assert text.startswith("There is no such scenario, no game was opened."), text
        assert "mission-1, mission-2" in text and "scenario_file" in text, text
    assert "path" not in text.lower(), "the refusal no longer invites paths"
    assert "root:" not in text and hostile not in text, "nothing of the input or a file is echoed"
    touched = [p for p in file_access if hostile in p or "passwd" in p or p.startswith("/dev")]
    assert touched == [], touched
    assert elapsed < 5, elapsed
    await nothing_opened(table)


async def test_a_packaged_name_opens_the_game(table):
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario="mission-3"
    )
    assert "is open in" in reply_text(result), reply_text(result)
    assert (await table.game()).scenario == "mission-3"


async def test_an_attached_scenario_file_opens_a_game_from_its_content(table, monkeypatch):
    reads = []
    original = discord.Attachment.read

    async def read(self, *args, **kwargs):
        reads.append(self.filename)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(discord.Attachment, "read", read)
    document = {
        "name": "trench-duel",
        "mission": "mission-3",
        "phase": "combat",
        "active": "bismark",
        "turn": 4,
        "units": [{"type": "koenig", "at": "I5", "id": "koenig"}, {"type": "rifleman", "at": "I9"}],
        "vp": {"allies": 7, "bismark": 6},
    }
    result = await table.alice.slash(
        table.channel,
        "game new",
        ruleset="rivet-wars",
        scenario_file=("trench-duel.json", json.dumps(document).encode()),
    )
    assert "is open in" in reply_text(result), reply_text(result)
    assert reads == ["trench-duel.json"]
    info = await table.game()
    assert info.scenario == "trench-duel" and info.creator_id == table.alice.id
    assert info.state["turn"] == 4 and info.state["vp"] == {"allies": 7, "bismark": 6}
    assert info.state["units"]["koenig"]["at"] == "I5"
    await table.alice.slash(table.thread, "game join", side="bismark")
    await table.bob.slash(table.thread, "game join", side="allies")
    started = await table.alice.slash(table.thread, "game start")
    assert reply_text(started) == "Done.", reply_text(started)
    assert (await table.game()).state["phase"] == "combat"


async def test_an_oversized_attachment_is_refused_before_it_is_downloaded(table, monkeypatch):
    reads = []

    async def read(self, *args, **kwargs):
        reads.append(self.filename)
        raise AssertionError("an oversized attachment must not be downloaded")

    monkeypatch.setattr(discord.Attachment, "read", read)
    padding = " " * (300 * 1024)
    document = ('{"name": "big", "mission": "mission-1"' + padding + "}").encode()
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario_file=("big.json", document)
    )
    text = reply_text(result)
    assert result.ephemeral and "larger than 256 KiB" in text and "no game was opened" in text, text
    assert reads == []
    await nothing_opened(table)


@pytest.mark.parametrize(
    "filename, document, entry, problem",
    [
        (
            "bool.json",
            b'{"name": "t", "mission": "mission-1", "objective_vp": true}',
            "/objective_vp",
            "must be an object",
        ),
        (
            "navy.json",
            b'{"name": "t", "mission": "mission-1", "deploy": {"navy": 1.5}}',
            "/deploy/navy",
            "unknown entry",
        ),
        (
            "type.json",
            b'{"mission": "mission-1", "units": [{"type": ["x"], "at": "C4"}]}',
            "/units/0/type",
            "must be a text",
        ),
        (
            "terrain.json",
            b'{"mission": "mission-1", "terrain": []}',
            "/terrain",
            "must be an object",
        ),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, "file", "is nested more than"),
        ("latin1.json", '{"name": "Stra\u00dfe"}'.encode("latin-1"), "file", "is not UTF-8"),
        ("list.json", b"[1, 2, 3]", "/", "the top level must be a JSON object"),
        (
            "secret.json",
            b'{"mission": "mission-1", "title": ["root:x:0:0:root:/root:/bin/bash"]}',
            "/title",
            "must be a text",
        ),
    ],
)
async def test_an_invalid_attachment_is_refused_naming_entry_and_problem_without_echo(
    table, filename, document, entry, problem
):
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario_file=(filename, document)
    )
    text = reply_text(result)
    assert result.ephemeral
    assert text.startswith("That scenario cannot be used, no game was opened"), text
    assert f"{filename}: {entry}: {problem}" in text, text
    assert "root:" not in text and "true" not in text and "1.5" not in text, text
    await nothing_opened(table)


async def test_a_name_and_a_file_together_are_refused(table):
    result = await table.alice.slash(
        table.channel,
        "game new",
        ruleset="rivet-wars",
        scenario="mission-1",
        scenario_file=("m.json", b'{"mission": "mission-2"}'),
    )
    assert "either a scenario name or a scenario file" in reply_text(result)
    await nothing_opened(table)


async def test_refusals_in_german(table, german):
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario="/etc/passwd"
    )
    text = reply_text(result)
    assert text.startswith("Dieses Szenario gibt es nicht"), text
    assert "szenario_datei" in text
    result = await table.alice.slash(
        table.channel, "game new", ruleset="rivet-wars", scenario_file=("b.json", b"\xff")
    )
    assert reply_text(result).startswith("Dieses Szenario geht nicht"), reply_text(result)
    await nothing_opened(table)
