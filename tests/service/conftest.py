import pytest

from engine import registry

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")


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


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "umpire.sqlite3"


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
