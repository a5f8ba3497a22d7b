"""Latency and throughput of `POST /v1/act` on loopback, with 1, 8 and 32 concurrent clients.

Starts `cardarena serve` in its own process, then sends it the acting seat's view at every
decision of random episodes of the bot's game (Yokir by default) from concurrent keep-alive
connections (a minimal asyncio HTTP/1.1 client, so that the load generator takes little of the
machine's two cores), each client waiting for its answer before sending the next request. Prints
p50/p99 latency and requests per second per concurrency level, the server process's CPU time per request
(less sensitive than latency to other work on the machine), and the load average before the run.

    .venv/bin/python benchmarks/serve_latency.py [--bot yokir/ppo-selfplay] [--requests 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np
from cardarena.envs import lookup, make
from cardarena.envs.core.table import Table


def acting_views(game: str, episodes: int, seed: int = 0) -> list[dict]:
    """The acting seat's JSON view at every decision of `episodes` random episodes of `game`."""
    table = Table(make(game))
    rng = random.Random(seed)
    views = []
    for episode in range(episodes):
        table.reset(seed + episode)
        while (seat := table.to_act) is not None:
            view = table.env.observe_json(table.env.possible_agents[seat])
            views.append(view)
            table.play(rng.choice(view["legal_actions"])["id"])
    return views


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(bot: str, port: int) -> subprocess.Popen:
    cardarena = str(Path(sys.executable).with_name("cardarena"))
    server = subprocess.Popen([cardarena, "serve", "--port", str(port), "--bots", bot], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start within 60 s")


class Connection:
    """A minimal keep-alive HTTP/1.1 client over asyncio streams, so the load generator costs little CPU."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        head = (
            f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        status_line, *headers = (await self.reader.readuntil(b"\r\n\r\n")).decode().split("\r\n")
        length = next(int(line.split(":")[1]) for line in headers if line.lower().startswith("content-length:"))
        return int(status_line.split()[1]), await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def measure(port: int, bodies: list[bytes], clients: int, requests: int) -> tuple[np.ndarray, float]:
    """Latency of each request (seconds) and the wall time, `clients` requests always in flight."""
    latencies: list[float] = []
    remaining = iter(range(requests))
    connections = [await Connection.open(port) for _ in range(clients)]

    async def client(number: int) -> None:
        for index in remaining:
            start = time.perf_counter()
            status, answer = await connections[number].post("/v1/act", bodies[(index * 7 + number) % len(bodies)])
            latencies.append(time.perf_counter() - start)
            if status != 200:
                raise RuntimeError(f"/v1/act answered {status}: {answer.decode()}")

    start = time.perf_counter()
    await asyncio.gather(*(client(number) for number in range(clients)))
    wall = time.perf_counter() - start
    for connection in connections:
        connection.close()
    return np.array(latencies), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="yokir/ppo-selfplay")
    parser.add_argument("--requests", type=int, default=3000, help="requests per concurrency level")
    parser.add_argument("--clients", default="1,8,32")
    args = parser.parse_args()

    game = lookup(args.bot.split("/")[0]).env_id
    bodies = [
        json.dumps({"bot": args.bot, "game": game, "seat_view": view}).encode() for view in acting_views(game, 40)
    ]
    load = os.getloadavg()
    port = free_port()
    server = start_server(args.bot, port)
    try:
        asyncio.run(measure(port, bodies, 4, 300))  # warm-up
        rows = []
        for clients in [int(c) for c in args.clients.split(",")]:
            cpu = cpu_seconds(server.pid)
            latencies, seconds = asyncio.run(measure(port, bodies, clients, args.requests))
            server_ms = (cpu_seconds(server.pid) - cpu) / len(latencies) * 1000
            p50, p99 = np.percentile(latencies, [50, 99]) * 1000
            rows.append((clients, len(latencies), p50, p99, len(latencies) / seconds, server_ms))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        f"POST /v1/act, bot {args.bot}, {len(bodies)} distinct seat views; "
        f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(f"{'clients':>7} {'requests':>8} {'p50 ms':>7} {'p99 ms':>7} {'req/s':>7} {'server CPU ms/req':>17}")
    for clients, count, p50, p99, rate, server_ms in rows:
        print(f"{clients:>7} {count:>8} {p50:>7.2f} {p99:>7.2f} {rate:>7.0f} {server_ms:>17.2f}")


if __name__ == "__main__":
    main()
