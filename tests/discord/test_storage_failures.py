"""A database that refuses writes: the player is told privately, in their language, that
nothing changed; the operator's log gets one line naming the file and what to do."""

import logging

from .conftest import reply_text


async def read_only(table):
    # SQLITE_READONLY on the bot's own connection: what a read-only file, directory or mount
    # returns (file modes cannot be used: tests may run as root).
    await table.service.store.fetchone("PRAGMA query_only = ON")


async def test_a_read_only_database_gets_a_clean_reply_and_one_log_line(table, caplog):
    info = await table.started_game()
    await read_only(table)
    with caplog.at_level(logging.ERROR, logger="umpire.discord"):
        result = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    text = reply_text(result)
    assert result.ephemeral and text.startswith("The bot cannot save right now"), text
    assert "Nothing was changed" in text and table.db not in text
    lines = [r for r in caplog.records if "storage failure" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
    message = lines[0].getMessage()
    assert str(table.db) in message and "read-only" in message and "\n" not in message
    await table.service.store.fetchone("PRAGMA query_only = OFF")
    assert (await table.game()).version == info.version


async def test_the_storage_reply_speaks_german(table, german):
    await table.started_game()
    await read_only(table)
    result = await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    assert reply_text(result).startswith("Der Bot kann gerade nicht speichern"), reply_text(result)
    await table.service.store.fetchone("PRAGMA query_only = OFF")
