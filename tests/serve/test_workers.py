"""`--workers`: a worker that dies is replaced, and the log says so."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import httpx2

from tests.serve.servers import Servers


def test_a_dead_worker_is_replaced_and_logged(servers: Servers) -> None:
    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", servers.upstream, "--port", "0",
               "--workers", "2"]
    with subprocess.Popen(command, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"}) as server:
        try:
            assert server.stderr is not None
            base_url = server.stderr.readline().decode().split("listening on ")[1].split()[0]
            workers = server.stderr.readline().decode().split("workers")[1]
            pids = [int(pid) for pid in re.findall(r"\d+", workers)]
            assert len(pids) == 2
            os.kill(pids[0], signal.SIGKILL)
            replaced = server.stderr.readline().decode()
            assert f"worker {pids[0]} was killed by SIGKILL; worker" in replaced and "replaces it" in replaced
            for _ in range(4):  # the kernel spreads connections over both workers: all answered
                assert httpx2.get(base_url.removesuffix("/v1") + "/healthz", timeout=5).status_code == 200
            server.send_signal(signal.SIGTERM)
            assert server.wait(10) == 0
        finally:
            if server.poll() is None:
                server.kill()


def test_a_stop_while_the_workers_start_drains_them_all(servers: Servers) -> None:
    """SIGTERM at once, while the workers (or a replacement) may still be starting: each handles
    it once its loop runs (a worker starts with the stop signals blocked), drains, and all exit 0.
    Before, a worker the signal found starting died of it, and the server exited 1."""
    command = [sys.executable, "-m", "sse_rewrite", "serve", "--upstream", servers.upstream, "--port", "0",
               "--workers", "2"]
    with subprocess.Popen(command, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"}) as server:
        try:
            assert server.stderr is not None
            assert "listening on " in server.stderr.readline().decode()
            assert "workers" in server.stderr.readline().decode()
            server.send_signal(signal.SIGTERM)
            assert server.wait(20) == 0
        finally:
            if server.poll() is None:
                server.kill()
