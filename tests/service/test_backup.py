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
        tmp_path, monkeypatch, clock):
    source = tmp_path / "umpire.sqlite3"
    monkeypatch.setenv("UMPIRE_DB", str(source))
    svc = await GameService.open(source, clock=clock)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="b")).id)
        await svc.act(game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0201"},
                      actor="table")
        assert (tmp_path / "umpire.sqlite3-wal").stat().st_size > 0   # commits not yet folded in
        code, out, err = run(str(tmp_path / "copy.sqlite3"))          # the bot still has it open
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
            ([str(garbage), "--db", str(garbage), "--force"], "the database itself")):
        code, _, err = run(*argv)
        assert code == backup.FAILED, (argv, err)
        assert err.startswith("Backup failed: Database ") and words in err, err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage.sqlite3"]
