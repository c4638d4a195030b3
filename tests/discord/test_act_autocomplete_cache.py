"""The /act autocomplete answers every keystroke from lists kept per game version: the legal
actions are described once per version, side and language, and a new version (an action taken)
describes them afresh. Counted, never timed."""

from __future__ import annotations

import sys

from simcord import interactions as simcord_interactions


def count_descriptions(table, monkeypatch) -> list[int]:
    """Counts the labels the running bot's /act completer writes (discord.py loads each cog
    extension as a fresh module, so it is found through the loaded cog)."""
    calls = [0]
    play = sys.modules[type(table.bot.get_cog("PlayCog")).__module__]
    original = play.describe_action

    def counted(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(play, "describe_action", counted)
    return calls


async def test_keystrokes_at_one_version_describe_the_actions_once(table, monkeypatch):
    await table.started_game()
    described = count_descriptions(table, monkeypatch)
    first = await table.alice.autocomplete(table.thread, "act", "action", "")
    once = described[0]
    assert first and once >= len(first)
    again = await table.alice.autocomplete(table.thread, "act", "action", "")
    narrowed = await table.alice.autocomplete(table.thread, "act", "action", "end")
    assert described[0] == once  # answered from the kept list
    assert again == first
    assert narrowed and all("end" in c["value"] or "end" in c["name"].lower() for c in narrowed)

    # An action makes a new version: its list is described afresh, not served stale.
    await table.alice.slash(table.thread, "act", action="/move unit:r1 to:0201")
    after = await table.alice.autocomplete(table.thread, "act", "action", "")
    assert described[0] > once
    assert after != first


async def test_the_kept_lists_are_per_language(table, monkeypatch):
    await table.started_game()
    described = count_descriptions(table, monkeypatch)
    english = await table.alice.autocomplete(table.thread, "act", "action", "")
    in_english = described[0]
    original = simcord_interactions.base_payload

    def german_payload(*args, **kwargs):
        record, data = original(*args, **kwargs)
        data["locale"] = "de"
        return record, data

    monkeypatch.setattr(simcord_interactions, "base_payload", german_payload)
    german = await table.alice.autocomplete(table.thread, "act", "action", "")
    assert [c["value"] for c in german] == [c["value"] for c in english]
    assert described[0] > in_english  # described for the German reader, not served English


async def test_the_first_keystroke_describes_only_the_actions_it_shows(table, monkeypatch):
    # Setting up Tenochtitlan offers hundreds of placements: with nothing typed yet the answer
    # shows 25 of them and counts the rest, describing 25, not all of them.
    await table.alice.slash(table.channel, "game new", ruleset="tenochtitlan", scenario="standard")
    thread = table.thread
    await table.alice.slash(thread, "game join", side="spanish")
    await table.bob.slash(thread, "game join", side="aztec")
    await table.alice.slash(thread, "game start")
    info = await table.game()
    player = {"spanish": table.alice, "aztec": table.bob}[info.state["awaiting"][0]]
    legal = await table.service.legal_actions(info.id, info.state["awaiting"][0])
    assert len(legal) > 100
    described = count_descriptions(table, monkeypatch)
    first = await player.autocomplete(thread, "act", "action", "")
    assert len(first) == 25 and described[0] == 25
    assert f"{len(legal) - 25}" in first[-1]["name"]  # how many more there are
    typed = await player.autocomplete(thread, "act", "action", "zzz-matches-nothing")
    assert typed == [] and described[0] == len(legal)  # text is matched against every label
    await player.autocomplete(thread, "act", "action", "0")
    assert described[0] == len(legal)  # each described once per version
