"""``python bot.py verify``: a complete and contiguous log, the seed against the hash posted at
the start, a read-only open that never migrates, distinct exit codes, undone rolls listed."""

import hashlib
import io
import json
import sqlite3

import pytest

from service import table, verify
from service.store import SCHEMA_VERSION

from .test_table import walk_script

FIRE = "red /fire unit:r1 target:b2"


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


@pytest.fixture
def rerolled(tmp_path):
    """A game where the referee took back red's fire (its die went against red) and red fired
    again with fresh dice: a legal re-roll the audit must show."""
    db = tmp_path / "t.db"
    script = tmp_path / "s.txt"
    script.write_text("\n".join(walk_script() + [FIRE, "referee /undo", FIRE]) + "\n")
    out = io.StringIO()
    assert (
        table.main(
            ["--game", "skirmish", "--seed", "9", "--db", str(db), "--script", str(script)],
            stdout=out,
            stderr=io.StringIO(),
        )
        == 0
    )
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert all(r["ok"] for r in results), [r for r in results if not r["ok"]]
    return db


def run_verify(capsys, *argv):
    code = verify.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_rerolled_game_verifies_and_lists_the_undone_roll_with_who_undid_it(rerolled, capsys):
    code, out, _ = run_verify(capsys, "--db", str(rerolled), "--game", "1")
    assert code == 0, out
    with sqlite3.connect(rerolled) as db:
        (seq,) = db.execute("SELECT seq FROM actions WHERE live = 0").fetchone()
    assert "Undone rolls: 1:" in out
    assert f"Action #{seq} (red: fire) rolled [" in out and "undone by table" in out


def test_deleting_the_undone_reroll_from_the_database_fails_verification(rerolled, capsys):
    with sqlite3.connect(rerolled) as db:
        db.execute("DELETE FROM actions WHERE live = 0")
    code, out, _ = run_verify(capsys, "--db", str(rerolled), "--game", "1")
    assert code == verify.MISMATCH, out
    assert "FAILED" in out and "The log is incomplete" in out and "rows were deleted" in out


def test_deleting_the_last_action_fails_verification(rerolled, capsys):
    with sqlite3.connect(rerolled) as db:
        db.execute("DELETE FROM actions WHERE seq = (SELECT MAX(seq) FROM actions)")
        # Even with the snapshot rolled back to match, the game's version gives it away.
        last = db.execute(
            "SELECT state_hash FROM actions WHERE live = 1 ORDER BY seq DESC LIMIT 1"
        ).fetchone()[0]
        db.execute("UPDATE snapshots SET state_hash = ?", (last,))
    code, out, _ = run_verify(capsys, "--db", str(rerolled), "--game", "1")
    assert code == verify.MISMATCH and "no action or undo produced version" in out, out


def test_the_seed_is_checked_against_the_hash_posted_at_the_start(rerolled, capsys):
    posted = seed_hash("9")
    code, out, _ = run_verify(
        capsys, "--db", str(rerolled), "--game", "1", "--seed", "9", "--seed-hash", posted
    )
    assert code == 0, out
    # Someone rewrote both the seed and its hash in the database: the posted hash catches it.
    with sqlite3.connect(rerolled) as db:
        db.execute("UPDATE games SET seed = 'forged', seed_hash = ?", (seed_hash("forged"),))
    code, out, _ = run_verify(capsys, "--db", str(rerolled), "--game", "1", "--seed-hash", posted)
    assert code == verify.MISMATCH
    assert "not the one posted at the start" in out
    assert "does not hash to the value posted at the start" in out


def test_verify_opens_read_only_and_never_changes_the_file(rerolled, capsys):
    # Fold the WAL in first so the main file holds everything and must stay byte for byte.
    with sqlite3.connect(rerolled) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = rerolled.read_bytes()
    assert run_verify(capsys, "--db", str(rerolled), "--game", "1")[0] == 0
    assert rerolled.read_bytes() == before


def test_an_older_schema_is_refused_not_migrated(rerolled, capsys):
    with sqlite3.connect(rerolled) as db:
        db.execute("DELETE FROM schema_version WHERE version = ?", (SCHEMA_VERSION,))
    code, _, err = run_verify(capsys, "--db", str(rerolled), "--game", "1")
    assert code == verify.CANNOT_READ
    assert f"schema version {SCHEMA_VERSION - 1}" in err and "never changes the file" in err
    with sqlite3.connect(rerolled) as db:
        assert (
            db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            == SCHEMA_VERSION - 1
        )


def test_exit_codes_tell_cannot_read_from_mismatch(tmp_path, rerolled, capsys):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"\x00junk" * 1000)
    for argv in (
        ["--db", str(tmp_path / "missing.db"), "--game", "1"],
        ["--db", str(garbage), "--game", "1"],
        ["--db", str(rerolled), "--game", "77"],
    ):
        code, out, err = run_verify(capsys, *argv)
        assert code == verify.CANNOT_READ == 3, (argv, out, err)
        assert err.startswith("Cannot read: ") and "Traceback" not in err
    assert not (tmp_path / "missing.db").exists()  # a read-only open creates nothing
    assert run_verify(capsys, "--db", str(rerolled), "--game", "x")[0] == verify.USAGE == 2
    code, _, _ = run_verify(capsys, "--db", str(rerolled), "--game", "1", "--seed", "8")
    assert code == verify.MISMATCH == 1


def test_on_postgresql_verify_finds_deleted_rows_and_never_migrates(tmp_path, pg_url, capsys):
    """The same hardening against a PostgreSQL database (``--db postgresql://…``)."""
    import asyncio

    from .backends import query

    script = tmp_path / "s.txt"
    script.write_text("\n".join(walk_script() + [FIRE, "referee /undo", FIRE]) + "\n")
    assert (
        table.main(
            ["--game", "skirmish", "--seed", "9", "--db", pg_url, "--script", str(script)],
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
        == 0
    )
    code, out, _ = run_verify(capsys, "--db", pg_url, "--game", "1", "--seed-hash", seed_hash("9"))
    assert code == verify.OK and "Undone rolls: 1:" in out, out

    asyncio.run(query(pg_url, "DELETE FROM actions WHERE live = 0"))
    code, out, _ = run_verify(capsys, "--db", pg_url, "--game", "1")
    assert code == verify.MISMATCH and "The log is incomplete" in out, out

    asyncio.run(query(pg_url, "DELETE FROM schema_version WHERE version = ?", (SCHEMA_VERSION,)))
    code, _, err = run_verify(capsys, "--db", pg_url, "--game", "1")
    assert code == verify.CANNOT_READ and f"schema version {SCHEMA_VERSION - 1}" in err, err
    assert asyncio.run(query(pg_url, "SELECT MAX(version) FROM schema_version")) == [
        (SCHEMA_VERSION - 1,)
    ]
