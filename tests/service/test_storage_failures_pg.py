"""Storage failures against a real PostgreSQL server: each becomes a StorageError whose one line
names the database (never its password), the problem and what to do; a refused write leaves the
game as it was and the service works again once the cause is gone.

What each test produces, honestly: the server itself ends the bot's sessions
(``pg_terminate_backend``, what a failover or an administrator does), then either refuses new
sessions (``ALLOW_CONNECTIONS false``) or hands out read-only ones
(``default_transaction_read_only``, what a standby server does). The test cluster trusts its
socket, so the password in the URL is never checked, only kept out of messages.
"""

import asyncio

import asyncpg
import pytest

from service import verify
from service.errors import StorageError
from service.games import GameService

MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}
PASSWORD = "s3cret-pw"


def with_password(url: str) -> str:
    return url.replace("postgresql://umpire@", f"postgresql://umpire:{PASSWORD}@", 1)


def database_name(url: str) -> str:
    return url.split("?", 1)[0].rsplit("/", 1)[1]


async def as_admin(pg_cluster, *statements):
    connection = await asyncpg.connect(pg_cluster.url())
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


async def end_sessions(pg_cluster, name):
    await as_admin(
        pg_cluster,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{name}' AND pid <> pg_backend_pid()",
    )
    await asyncio.sleep(0.3)  # the pool's sockets see the server hang up


def one_line(error: StorageError, *words):
    text = str(error)
    assert "\n" not in text and PASSWORD not in text, text
    assert "umpire:***@" in text, text
    for word in words:
        assert word in text, text


async def test_a_read_only_server_refuses_the_write_and_the_game_is_untouched(
    pg_cluster, pg_url, clock
):
    url, name = with_password(pg_url), database_name(pg_url)
    svc = await GameService.open(url, clock=clock)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="s")).id)
        await as_admin(
            pg_cluster, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'
        )
        await end_sessions(pg_cluster, name)
        with pytest.raises(StorageError) as caught:
            await svc.act(game.id, MOVE, actor="table")
        one_line(caught.value, "read-only", "primary")
        await as_admin(pg_cluster, f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
        await end_sessions(pg_cluster, name)
        assert (await svc.get_game(game.id)).version == 0 and await svc.history(game.id) == []
        out = await svc.act(game.id, MOVE, actor="table")
        assert out.version == 1
    finally:
        await svc.close()


async def test_a_server_that_refuses_sessions_is_a_storage_error_then_recovers(
    pg_cluster, pg_url, clock
):
    url, name = with_password(pg_url), database_name(pg_url)
    svc = await GameService.open(url, clock=clock)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="s")).id)
        await as_admin(pg_cluster, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await end_sessions(pg_cluster, name)
        with pytest.raises(StorageError) as caught:
            await svc.act(game.id, MOVE, actor="table")
        one_line(caught.value, "does not accept connections")
        # Reads fail the same way (a player looking at the board, the reminder loop).
        with pytest.raises(StorageError):
            await svc.store.games()
        await as_admin(pg_cluster, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        out = await svc.act(game.id, MOVE, actor="table")
        assert out.version == 1 and len(await svc.history(game.id)) == 1
    finally:
        await svc.close()


async def test_opening_a_database_that_does_not_exist_says_so(pg_cluster):
    url = with_password(pg_cluster.url("no_such_umpire_db"))
    with pytest.raises(StorageError) as caught:
        await GameService.open(url)
    one_line(caught.value, "no such database", "createdb")


def test_verify_prints_one_line_when_the_server_refuses(pg_cluster, pg_url, capsys):
    url, name = with_password(pg_url), database_name(pg_url)

    async def one_game():
        svc = await GameService.open(url)
        try:
            return (await svc.create_game("skirmish", seed="s")).id
        finally:
            await svc.close()

    game_id = asyncio.run(one_game())
    asyncio.run(as_admin(pg_cluster, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
    try:
        capsys.readouterr()
        assert verify.main(["--db", url, "--game", str(game_id)]) == verify.CANNOT_READ
        err = capsys.readouterr().err
        assert "does not accept connections" in err and PASSWORD not in err
        assert "Traceback" not in err and "\n" not in err.strip()
    finally:
        asyncio.run(as_admin(pg_cluster, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))


async def test_a_connection_lost_during_the_commit_is_reported_as_uncertain(pg_url, clock):
    """The server ends the session while it commits an action (a deferred trigger, run at
    COMMIT, terminates its own session): nobody can know whether the write landed, and the
    error says exactly that (here it did not: the server rolled the transaction back)."""
    from cogs.common import player_message
    from service.errors import CommitUncertain

    svc = await GameService.open(with_password(pg_url), clock=clock)
    admin = await asyncpg.connect(pg_url)
    try:
        game = await svc.start_game((await svc.create_game("skirmish", seed="s")).id)
        await admin.execute(
            "CREATE FUNCTION die_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$"
        )
        await admin.execute(
            "CREATE CONSTRAINT TRIGGER die_at_commit AFTER INSERT ON actions DEFERRABLE "
            "INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION die_at_commit()"
        )
        with pytest.raises(CommitUncertain) as caught:
            await svc.act(game.id, MOVE, actor="table")
        one_line(caught.value, "may or may not have been saved", "version")
        assert "may or may not" in player_message(caught.value, "en")
        assert "gespeichert worden sein oder auch nicht" in player_message(caught.value, "de")
        await admin.execute("DROP TRIGGER die_at_commit ON actions")
        # The next read shows the truth; play goes on from it.
        again = await svc.get_game(game.id)
        assert again.version == 0 and await svc.history(game.id) == []
        assert (await svc.act(game.id, MOVE, actor="table", expected_version=0)).version == 1
    finally:
        await admin.close()
        await svc.close()
