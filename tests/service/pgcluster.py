"""A throwaway PostgreSQL cluster for the test session: ``initdb`` into a temporary directory,
the server listening only on a Unix socket in that directory, removed at the end.

``initdb`` refuses to run as root, so under root (containers, CI) the cluster belongs to the
``postgres`` system user the server package created and every server command runs through
``runuser``. The tests connect over the socket as the cluster's superuser ``umpire`` (trust
authentication: nobody else can reach a socket in a private temporary directory).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "umpire"


def find_bindir() -> Path | None:
    """The newest PostgreSQL server binaries: Debian's /usr/lib/postgresql/N/bin, else PATH."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if candidates:
        return Path(candidates[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    return None


class Cluster:
    def __init__(self, bindir: Path, base: Path | None = None):
        """``base``: the directory to create the cluster in; by default a tmpfs if there is
        one (a benchmark passes the directory its SQLite file is in, to compare like with
        like)."""
        self.bindir = bindir
        if base is None:
            # In memory where there is a tmpfs: a database per test writes a lot of small
            # files, and on a busy shared disk removing them took longer than the tests.
            shm = Path("/dev/shm")
            base = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="umpire-pg-", dir=base))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._numbers = itertools.count(1)
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            account = pwd.getpwnam("postgres")
            os.chown(self.root, account.pw_uid, account.pw_gid)
        os.chmod(self.root, 0o700)

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n"
                f"{done.stdout}\n{done.stderr}\n{log}"
            )

    def start(self, durable: bool = False) -> None:
        """``durable``: keep fsync and full-page writes on, as a production server runs (the
        benchmarks); the tests switch them off for speed."""
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
        # Only the socket in our own directory; durability settings stay the server's defaults
        # except fsync: the crash test kills the client, never the server.
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.root}' "
            "-c max_connections=200 -c wal_level=minimal -c max_wal_senders=0"
        )
        if not durable:
            options += " -c fsync=off -c full_page_writes=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.root}"

    async def new_database(self) -> str:
        """A fresh empty database (from template0) and its URL."""
        import asyncpg

        name = f"test_{os.getpid()}_{next(self._numbers)}"
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(
                f'CREATE DATABASE "{name}" TEMPLATE template0 STRATEGY FILE_COPY'
            )
        finally:
            await connection.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        import asyncpg

        # The socket directory in "?host=/dev/shm/..." has slashes too: the name ends at "?".
        name = url.split("?", 1)[0].rsplit("/", 1)[1]
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()
