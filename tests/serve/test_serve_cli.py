"""`cardarena serve` starts the server with one command; a bot it cannot load is a one-line error."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

CARDARENA = str(Path(sys.executable).with_name("cardarena"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_cardarena_serve_answers_on_its_port():
    port = _free_port()
    server = subprocess.Popen([CARDARENA, "serve", "--port", str(port), "--bots", "yokir/ppo-selfplay"], stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz").json()
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
                time.sleep(0.1)
        assert "yokir/ppo-selfplay" in health["bots"] and "yokir_v1" in health["games"]
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=10)
    assert f"on http://127.0.0.1:{port}" in output


def test_cardarena_serve_refuses_an_unknown_bot():
    done = subprocess.run([CARDARENA, "serve", "--bots", "yokir/nobody"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "unknown agent 'yokir/nobody'" in done.stdout
