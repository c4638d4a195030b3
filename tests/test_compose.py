"""compose.yaml, read as Docker Compose reads it (YAML with anchors and merge keys): PostgreSQL
on a volume with a readiness check, bot processes that wait for it, each with a health check,
and shard specs that give every shard to exactly one process. (No Docker daemon runs the file
here; this checks its structure.)"""

from pathlib import Path

import yaml

from service.config import parse_shards

COMPOSE = Path(__file__).resolve().parent.parent / "compose.yaml"


def load():
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def bots(compose):
    return {
        name: service
        for name, service in compose["services"].items()
        if "UMPIRE_SHARDS" in (service.get("environment") or {})
    }


def test_postgres_is_the_official_image_on_a_volume_with_a_readiness_check():
    compose = load()
    postgres = compose["services"]["postgres"]
    assert postgres["image"].split(":")[0] == "postgres"
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume, _, target = postgres["volumes"][0].partition(":")
    assert target == "/var/lib/postgresql/data" and volume in compose["volumes"]


def test_every_bot_process_uses_postgres_has_a_health_check_and_waits_for_the_database():
    compose = load()
    found = bots(compose)
    assert len(found) >= 2
    for name, service in found.items():
        env = service["environment"]
        assert env["UMPIRE_DB"].startswith("postgresql://"), name
        assert env["UMPIRE_HEARTBEAT"], f"{name}: the health check needs the heartbeat"
        assert env["DISCORD_TOKEN"].startswith("${"), f"{name}: the token comes from .env"
        assert service["healthcheck"]["test"][-2:] == ["-m", "cogs.health"], name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert "build" in service, name


def test_the_shard_specs_cover_every_shard_exactly_once():
    plans = {
        name: parse_shards(service["environment"]["UMPIRE_SHARDS"])
        for name, service in bots(load()).items()
    }
    counts = {plan.count for plan in plans.values()}
    assert len(counts) == 1, f"every process must name the same shard count: {plans}"
    [count] = counts
    owned = sorted(shard for plan in plans.values() for shard in plan.ids)
    assert owned == list(range(count)), f"each shard exactly once: {plans}"
    syncing = [name for name, plan in plans.items() if 0 in plan.ids]
    assert len(syncing) == 1, "exactly one process (shard 0) syncs the command tree"
