import json
import os
import sys
import types

import pytest

from engine import registry

from .pgcluster import Cluster, find_bindir

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")

BACKENDS = ("sqlite", "postgresql")


class FakeClock:
    """Time that only moves when a test says so."""

    def __init__(self, start: float = 1_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL cluster for the whole session (started only if a test asks).
    Without server binaries CI fails loudly; a developer's machine skips with the reason."""
    bindir = find_bindir()
    if bindir is None:
        message = (
            "PostgreSQL server binaries (initdb, pg_ctl) not found under "
            "/usr/lib/postgresql/*/bin or on PATH; install the 'postgresql' package "
            "(.ci/run does) to run the storage tests against PostgreSQL."
        )
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    cluster = Cluster(bindir)
    try:
        cluster.start()
    except BaseException:
        cluster.stop()
        raise
    yield cluster
    cluster.stop()


@pytest.fixture
async def pg_url(pg_cluster):
    """A fresh, empty PostgreSQL database for one test, dropped after it."""
    url = await pg_cluster.new_database()
    yield url
    await pg_cluster.drop_database(url)


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def db_path(backend, tmp_path, request):
    """The database setting a test runs against: a SQLite file, or the URL of a fresh
    PostgreSQL database (every test using it runs once per backend)."""
    if backend == "sqlite":
        return tmp_path / "umpire.sqlite3"
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def svc(db_path, clock):
    from service.games import GameService

    service = await GameService.open(db_path, clock=clock)
    yield service
    await service.close()


@pytest.fixture
async def game(svc):
    """A started skirmish game with a known seed."""
    info = await svc.create_game("skirmish", seed="test-seed")
    return await svc.start_game(info.id)


@pytest.fixture
def scene_renderer(monkeypatch):
    """A stand-in renderer that returns the scenes it is given as JSON: a board's scene, or a
    replay's list of frames (what the service hands the renderer, checked without pixels)."""
    fake = types.ModuleType("renderer")
    fake.render_png = lambda scene: json.dumps(scene).encode()
    fake.render_animation = lambda scenes, **options: json.dumps(list(scenes)).encode()
    monkeypatch.setitem(sys.modules, "renderer", fake)
    return fake
