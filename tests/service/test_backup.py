"""``python bot.py backup PATH``: a consistent, checked copy with SQLite's backup API, taken
while the database is open for writing; an existing file is kept unless --force."""

import io
import sqlite3
from contextlib import redirect_stderr, redirect_stdout

import bot
from service import backup
from service.games import GameService


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = bot.main(["backup", *argv])
    return code, out.getvalue(), err.getvalue()


def games_in(path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT id, seed_hash, version FROM games ORDER BY id").fetchall()


async def test_backup_copies_a_database_in_use_including_what_sits_in_the_wal(
    tmp_path, monkeypatch, clock
):
    source = tmp_path / "umpire.sqlite3"
    monkeypatch.setenv("UMPIRE_DB", str(source))
    svc = await GameService.open(source, clock=clock)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="b")).id)
        await svc.act(
            game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"}, actor="table"
        )
        assert (tmp_path / "umpire.sqlite3-wal").stat().st_size > 0  # commits not yet folded in
        code, out, err = run(str(tmp_path / "copy.sqlite3"))  # the bot still has it open
    finally:
        await svc.close()
    assert code == 0, err
    assert "integrity checked" in out
    assert games_in(tmp_path / "copy.sqlite3") == games_in(source) == [(1, game.seed_hash, 1)]
    copy = await GameService.open(tmp_path / "copy.sqlite3", clock=clock)
    try:
        assert (await copy.get_game(1)).state["units"]["r1"]["at"] == "0201"
    finally:
        await copy.close()
    assert not list(tmp_path.glob("*.part"))


async def test_an_existing_file_is_kept_unless_forced(tmp_path, clock):
    source = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(source, clock=clock)
    await svc.create_game("skirmish", seed="b")
    await svc.close()
    target = tmp_path / "keep.sqlite3"
    target.write_bytes(b"precious")
    code, _, err = run(str(target), "--db", str(source))
    assert code == backup.USAGE and "exists; pass --force" in err
    assert target.read_bytes() == b"precious"
    code, _, err = run(str(target), "--db", str(source), "--force")
    assert code == 0, err
    assert games_in(target) == games_in(source)


def test_failures_are_one_line_and_leave_no_partial_copy(tmp_path):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not sqlite at all" * 500)
    for argv, words in (
        ([str(tmp_path / "c1"), "--db", str(tmp_path / "missing.sqlite3")], "no such file"),
        ([str(tmp_path / "c2"), "--db", str(garbage)], "not a database"),
        ([str(tmp_path / "nodir" / "c3"), "--db", str(garbage)], "cannot be written"),
        ([str(tmp_path), "--db", str(garbage)], "is a directory"),
        ([str(garbage), "--db", str(garbage), "--force"], "the database itself"),
    ):
        code, _, err = run(*argv)
        assert code == backup.FAILED, (argv, err)
        assert err.startswith("Backup failed: Database ") and words in err, err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage.sqlite3"]


MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}


def test_a_postgresql_database_is_copied_into_a_checked_sqlite_file_and_restores(
    pg_cluster, pg_url, tmp_path
):
    import asyncio

    url = pg_url.replace("postgresql://umpire@", "postgresql://umpire:s3cret@", 1)

    async def play():
        svc = await GameService.open(url)
        try:
            game = await svc.start_game((await svc.create_game("skirmish", seed="pg")).id)
            await svc.act(game.id, MOVE, actor="table")
            await svc.create_game("skirmish", seed="lobby")
            return game
        finally:
            await svc.close()

    game = asyncio.run(play())
    target = tmp_path / "pg-copy.sqlite3"
    code, out, err = run(str(target), "--db", url)
    assert code == backup.COPIED, err
    assert "s3cret" not in out + err and "umpire:***@" in out and "migrate-db" in out
    assert "2 games" in out and "1 actions" in out
    assert [p.name for p in tmp_path.iterdir()] == ["pg-copy.sqlite3"]  # one whole file
    assert games_in(target) == [(1, game.seed_hash, 1), (2, games_in(target)[1][1], 0)]

    # An existing copy is kept unless --force.
    code, _, err = run(str(target), "--db", url)
    assert code == backup.USAGE and "exists; pass --force" in err

    async def restore_and_play_on() -> None:
        fresh = await pg_cluster.new_database()
        try:
            from service.migrate_db import copy_database

            report = await copy_database(str(target), fresh)
            assert report.ok and report.checked_games == 2, report.problems
            svc = await GameService.open(fresh)
            try:
                restored = await svc.get_game(game.id)
                assert restored.state["units"]["r1"]["at"] == "0201"
                assert (await svc.verify(game.id)).ok
                out = await svc.act(
                    game.id, {"type": "end-phase", "side": "red"}, actor="table", expected_version=1
                )
                assert out.version == 2
            finally:
                await svc.close()
        finally:
            await pg_cluster.drop_database(fresh)

    asyncio.run(restore_and_play_on())


def test_a_postgresql_backup_that_cannot_read_says_so_in_one_line(pg_cluster, tmp_path):
    url = pg_cluster.url("no_such_umpire_db").replace("umpire@", "umpire:s3cret@", 1)
    code, _, err = run(str(tmp_path / "copy.sqlite3"), "--db", url)
    assert code == backup.FAILED
    assert (
        err.startswith("Backup failed: Database postgresql://umpire:***@")
        and "no such database" in err
        and "s3cret" not in err
        and err.count("\n") == 1
    )
    assert list(tmp_path.iterdir()) == []


async def test_the_database_may_be_named_as_a_sqlite_url_and_nonsense_is_refused(tmp_path, clock):
    source = tmp_path / "umpire.sqlite3"
    svc = await GameService.open(source, clock=clock)
    await svc.create_game("skirmish", seed="u")
    await svc.close()
    code, out, err = run(str(tmp_path / "copy.sqlite3"), "--db", f"sqlite:///{source}")
    assert code == backup.COPIED, err
    assert games_in(tmp_path / "copy.sqlite3") == games_in(source)
    code, _, err = run(str(tmp_path / "other.sqlite3"), "--db", "mysql://u:s3cret@db/x")
    assert code == backup.USAGE and "unknown database kind" in err and "s3cret" not in err
    assert not (tmp_path / "other.sqlite3").exists()
