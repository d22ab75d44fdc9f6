"""A real nginx in front of serve instances, run with the README's own config.

`readme_config` takes the `nginx` block of the README's "Run it for a team" section and
points it at the given instances and a loopback port (its `listen 443 ssl` becomes plain
HTTP: no certificate here). `Nginx.start_new` runs it in the foreground (`daemon off`) from
a temporary prefix directory, its temporary files and logs there too, and returns None with
the reason when there is no nginx binary (one that will not start is an error). `stop`
ends it and removes the directory.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
_TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")  # Debian's defaults are under /var


def readme_config(instances: tuple[str, str], port: int) -> str:
    """The README's nginx config, in front of `instances` (`host:port`), listening on `port`."""
    text = README.read_text()
    section = text[text.index("### Run it for a team"):]
    match = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert match is not None, "no nginx config in the README's team section"
    config = match[1]
    for example, instance in zip(("10.0.0.11:8787", "10.0.0.12:8787"), instances, strict=True):
        assert example in config, f"the README's nginx config has no {example}"
        config = config.replace(example, instance)
    assert "listen 443 ssl;" in config
    return config.replace("listen 443 ssl;", f"listen 127.0.0.1:{port};")


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Nginx:
    """One nginx master (and its worker) in the foreground, from a temporary prefix."""

    def __init__(self, process: subprocess.Popen[bytes], prefix: Path, port: int) -> None:
        self.process, self.prefix, self.port = process, prefix, port

    @classmethod
    def start_new(cls, instances: tuple[str, str]) -> tuple[Nginx | None, str]:
        """nginx running the README's config in front of `instances`, or None and why not."""
        binary = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
        if binary is None:
            return None, "no nginx binary on this machine (.ci/run installs Debian's nginx)"
        prefix, port = Path(tempfile.mkdtemp(prefix="sse-rewrite-nginx-")), free_port()
        prefix.chmod(0o755)  # (as root, nginx's workers run as nobody)
        (prefix / "temp").mkdir()
        temp = "\n".join(f"    {name}_temp_path {prefix / 'temp' / name};" for name in _TEMP_PATHS)
        (prefix / "nginx.conf").write_text(
            f"pid {prefix / 'nginx.pid'};\nworker_processes 1;\nerror_log {prefix / 'error.log'} info;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\n    access_log {prefix / 'access.log'};\n{temp}\n"
            f"{readme_config(instances, port)}\n}}\n")
        command = [binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                   "-e", str(prefix / "error.log"), "-g", "daemon off;"]
        with (prefix / "output.log").open("wb") as output:  # what it says before its error log is open
            process = subprocess.Popen(command, stdout=output, stderr=output)
        server = cls(process, prefix, port)
        deadline = time.monotonic() + 15
        while not server._listening():
            if process.poll() is not None or time.monotonic() > deadline:
                log = server.log()
                server.stop()
                raise RuntimeError(f"nginx did not start: {log[-2000:]}")
            time.sleep(0.05)
        return server, ""

    @property
    def url(self) -> str:
        """The base URL clients use (`…/v1`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def log(self) -> str:
        """What nginx wrote to its output and its error log."""
        paths = (self.prefix / "output.log", self.prefix / "error.log")
        return "".join(path.read_text(errors="replace") for path in paths if path.exists())

    def stop(self) -> None:
        """Stop nginx (a fast shutdown) and delete its directory."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.prefix, ignore_errors=True)

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False
