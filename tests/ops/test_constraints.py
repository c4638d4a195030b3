"""What ships is what was tested: constraints.txt pins every declared dependency, the
environment running the tests has exactly those versions, and both run.sh (the tests, CI) and
the Dockerfile (the image) install through it."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and version, f"constraints.txt pins exact versions only: {line!r}"
            out[canonical(name)] = version
    return out


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    return {canonical(re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0]) for r in requirements}


def test_every_declared_dependency_is_pinned():
    missing = declared() - set(pins())
    assert not missing, f"not in constraints.txt: {sorted(missing)}; refresh it as its header says"


def test_the_tests_run_with_the_pinned_versions():
    wrong = {}
    for name in declared():
        installed = metadata.version(name)
        if installed != pins()[name]:
            wrong[name] = (installed, pins()[name])
    assert not wrong, f"installed vs pinned: {wrong}"


def test_run_sh_and_the_dockerfile_install_through_the_constraints():
    assert "-c constraints.txt" in (ROOT / "run.sh").read_text()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY pyproject.toml constraints.txt" in dockerfile
    assert "pip install -c constraints.txt" in dockerfile
