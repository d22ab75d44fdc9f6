"""A real PostgreSQL server for the store tests: made in a temporary directory, on a free loopback port.

`PostgresServer.start_new()` runs `initdb` and `pg_ctl` from the machine's PostgreSQL (the
newest `/usr/lib/postgresql/*/bin`, else `PATH`) and returns None with the reason when it
cannot: no server binary, no psycopg. PostgreSQL refuses to run as root, so as root the
server runs as `nobody` (through `runuser`), its directory handed to that user. `stop` and
`start` take it down and up again on the same port (the tests of a database that goes away).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

_USER = "nobody"
_databases = itertools.count(1)


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One throwaway PostgreSQL server; `url(name)` for a database on it."""

    def __init__(self, bin_dir: Path, root: Path, port: int) -> None:
        self.bin_dir, self.root, self.port = bin_dir, root, port
        self.data = root / "data"

    @classmethod
    def start_new(cls) -> tuple[PostgresServer | None, str]:
        """A started server, or None and why not."""
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError as error:
            return None, f"psycopg is not installed ({error})"
        bin_dir = _bin_dir()
        if bin_dir is None:
            return None, "no PostgreSQL server binary (initdb, pg_ctl) on this machine"
        if os.geteuid() == 0 and shutil.which("runuser") is None:
            return None, "running as root without runuser to start PostgreSQL as another user"
        root = Path(tempfile.mkdtemp(prefix="sse-rewrite-pg-"))
        server = cls(bin_dir, root, _free_port())
        if os.geteuid() == 0:
            os.chmod(root, 0o755)
            shutil.chown(root, _USER)
        try:
            server._run("initdb", "-D", str(server.data), "-A", "trust", "-U", "postgres", "--no-sync",
                        "-E", "UTF8")
            server.start()
        except (subprocess.CalledProcessError, OSError) as error:
            server.remove()
            output = getattr(error, "stdout", b"") or b""
            return None, f"PostgreSQL would not start: {error} {output.decode(errors='replace')[-500:]}"
        return server, ""

    def url(self, database: str = "postgres") -> str:
        """The URL of `database` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database on this server; its URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(_databases)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def start(self) -> None:
        """Start (or start again) on the same port; wait until it takes connections."""
        options = f"-p {self.port} -k {self.root} -h 127.0.0.1 -F -c max_connections=100"
        self._run("pg_ctl", "start", "-w", "-t", "30", "-D", str(self.data), "-l", str(self.root / "log"),
                  "-o", options)

    def stop(self) -> None:
        """Stop it at once (open connections are cut)."""
        self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.data))

    def remove(self) -> None:
        """Stop it if it runs, and delete its directory."""
        with contextlib.suppress(subprocess.CalledProcessError, OSError):
            self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.data))
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", _USER, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=self.root,
                       timeout=60)
