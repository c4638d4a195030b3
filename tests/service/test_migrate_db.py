"""``bot.py migrate-db``: a SQLite database copied into a real PostgreSQL database, checked,
refused when the target already holds games."""

import asyncio

import pytest

from engine.core.state import state_hash
from service.games import GameService
from service.migrate_db import main

from .backends import query
from .test_games import autoplayed

pytestmark = pytest.mark.usefixtures("pg_cluster")


async def _populate(path, clock):
    svc = await GameService.open(path, clock=clock)
    try:
        finished, _ = await autoplayed(svc, seed="done", limit=400)
        assert finished.result
        playing, _ = await autoplayed(svc, seed="mid", limit=12)
        await svc.undo(playing.id, actor="referee:1", referee=True)
        timed = await svc.create_game(
            "skirmish", seed="timed", guild_id=2**62, settings={"clock": {"initial": 3600}}
        )
        await svc.seat(timed.id, "red", 2**63 - 1)
        await svc.seat(timed.id, "blue", 42)
        await svc.start_game(timed.id)
        await svc.record_post(playing.id, "turn", 2**62 + 1, 2**62 + 2, 11)
        await svc.add_flare(playing.id, "0201")
        await svc.set_guild_config(2**62, locale="de")
        lobby = await svc.create_game("skirmish", seed="lobby")
        return [finished.id, playing.id, timed.id, lobby.id]
    finally:
        await svc.close()


async def _snapshot_of_everything(db):
    svc = await GameService.open(db)
    try:
        out = []
        for info in await svc.list_games():
            out.append(
                (
                    info.id,
                    info.status,
                    info.version,
                    state_hash(info.state),
                    [
                        (r.seq, r.version, r.state_hash, r.label)
                        for r in await svc.history(info.id, include_undone=True)
                    ],
                    await svc.seats(info.id),
                    await svc.posts(info.id),
                    await svc.flares(info.id),
                    await svc.store.clocks(info.id),
                )
            )
        return out, await svc.guild_config(2**62)
    finally:
        await svc.close()


async def test_every_game_and_setting_arrives_and_plays_on(tmp_path, pg_url, clock, capsys):
    source = tmp_path / "umpire.sqlite3"
    ids = await _populate(source, clock)
    code = await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url])
    out = capsys.readouterr()
    assert code == 0, out
    assert "4 games" in out.out and "all 4 games replay to their stored snapshots" in out.out
    assert await _snapshot_of_everything(pg_url) == await _snapshot_of_everything(source)

    svc = await GameService.open(pg_url, clock=clock)
    try:
        assert (await svc.create_game("skirmish", seed="new")).id == max(ids) + 1
        playing = await svc.get_game(ids[1])
        action = (await svc.legal_actions(playing.id, playing.awaiting[0]))[0]
        out = await svc.act(playing.id, action, actor="table", expected_version=playing.version)
        assert out.version == playing.version + 1
        assert (await svc.verify(ids[0])).ok
    finally:
        await svc.close()


async def test_a_target_with_games_is_refused_unless_replacing(tmp_path, pg_url, clock, capsys):
    source = tmp_path / "umpire.sqlite3"
    await _populate(source, clock)
    assert await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url]) == 0
    svc = await GameService.open(pg_url, clock=clock)
    extra = await svc.create_game("skirmish", seed="only-in-target")
    await svc.close()
    capsys.readouterr()

    assert await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url]) == 2
    assert "not empty" in capsys.readouterr().err
    assert (await query(pg_url, "SELECT COUNT(*) FROM games WHERE id = ?", (extra.id,)))[0][0] == 1

    assert (
        await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url, "--replace-target"])
        == 0
    )
    assert (await query(pg_url, "SELECT COUNT(*) FROM games WHERE id = ?", (extra.id,)))[0][0] == 0


async def test_a_copy_that_does_not_replay_is_reported(tmp_path, pg_url, clock, capsys):
    source = tmp_path / "umpire.sqlite3"
    ids = await _populate(source, clock)
    # A snapshot that no longer matches its game's log (damaged on the source's disk).
    await query(source, "UPDATE snapshots SET state_hash = 'damaged' WHERE game_id = ?", (ids[1],))
    code = await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url])
    out = capsys.readouterr().out
    assert code == 1
    assert f"Game #{ids[1]} (skirmish)" in out and "damaged" in out
    assert f"Game #{ids[0]} " not in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--from", "nowhere.sqlite3", "--to", "postgresql://u@h/db"], "No database file"),
        (["--from", "mysql://u@h/db", "--to", "postgresql://u@h/db"], "unknown database kind"),
    ],
)
def test_bad_arguments_are_explained(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


async def test_the_source_and_the_target_must_differ(tmp_path, clock, capsys):
    source = tmp_path / "umpire.sqlite3"
    await _populate(source, clock)
    assert (
        await asyncio.to_thread(main, ["--from", str(source), "--to", f"sqlite:///{source}"]) == 2
    )
    assert "same database" in capsys.readouterr().err
