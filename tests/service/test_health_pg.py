"""The container health check with ``UMPIRE_DB`` set to a PostgreSQL URL."""

import asyncio

from cogs.health import check
from service.storage import open_store


def test_health_check_asks_the_postgresql_server(pg_url, tmp_path):
    beat = tmp_path / "beat"
    beat.write_text("now")
    # An empty database is not Umpire's yet: unhealthy, and saying why.
    assert any("games" in p for p in check(pg_url, beat))

    async def migrate():
        await (await open_store(pg_url)).close()

    asyncio.run(migrate())
    assert check(pg_url, beat) == []


def test_an_unreachable_server_is_unhealthy_without_showing_the_password(tmp_path):
    url = f"postgresql://umpire:s3cret@/umpire?host={tmp_path}&port=1"
    problems = check(url, None)
    assert problems and "s3cret" not in " ".join(problems)
    assert check("mysql://u@h/db", None)
