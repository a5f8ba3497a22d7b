"""Latency of `/healthz` and of table requests while a `pimc` Yokir match runs on the server.

Starts `cardarena serve --bots pimc` in its own process on 127.0.0.1, creates a `pimc` match of
the longest length the server allows, then for `--seconds` runs `--clients` clients, each in a loop:
`GET /healthz`, create a table with two random bots, read it, play a move, delete it. Prints a table
of p50/p99 latency per request kind, errors, the server's RSS before and after, and that of the
processes it started (its search processes, where the match's bots think).

    .venv/bin/python benchmarks/serve_reliability.py [--clients 4] [--seconds 20]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import httpx
import numpy as np

from cardarena.serve.tables import TABLE_LENGTH_BOUNDS

CARDARENA = str(Path(sys.executable).with_name("cardarena"))


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def children(pid: int) -> list[int]:
    """The processes `pid` started, from any of its threads."""
    return [
        int(child) for task in Path(f"/proc/{pid}/task").iterdir() for child in (task / "children").read_text().split()
    ]


def client_loop(url: str, stop: float, timings: dict[str, list[float]], errors: list[str]) -> None:
    def timed(kind: str, method: str, path: str, **kwargs) -> dict | None:
        started = time.perf_counter()
        try:
            response = http.request(method, path, **kwargs)
            response.raise_for_status()
        except httpx.HTTPError as error:
            errors.append(f"{kind}: {error}")
            return None
        timings[kind].append(time.perf_counter() - started)
        return response.json() if response.content else {}

    with httpx.Client(base_url=url, timeout=10) as http:
        while time.monotonic() < stop:
            timed("healthz", "GET", "/healthz")
            table = timed("create", "POST", "/v1/tables", json={"game": "yokir", "seats": [None, "random", "random"]})
            if table is None:
                continue
            token, table_id = table["seats"][0]["token"], table["table_id"]
            view = timed("read", "GET", f"/v1/tables/{table_id}", params={"seat": 0, "token": token})
            if view is not None and view["your_turn"]:
                move = {"seat": 0, "token": token, "action": view["view"]["legal_actions"][0]["id"]}
                timed("play", "POST", f"/v1/tables/{table_id}/actions", json=move)
            timed("delete", "DELETE", f"/v1/tables/{table_id}", params={"token": table["creator_token"]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port", type=int, default=8123)
    args = parser.parse_args()
    url = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [CARDARENA, "serve", "--port", str(args.port), "--bots", "pimc"], stdout=subprocess.DEVNULL
    )
    try:
        for _ in range(600):
            try:
                httpx.get(f"{url}/healthz")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        before = rss_mib(server.pid)
        match = {"match": True, "target_score": TABLE_LENGTH_BOUNDS["target_score"]}
        pimc_match = httpx.post(f"{url}/v1/tables", json={"game": "yokir", "seats": ["pimc"] * 3, "config": match})
        pimc_match.raise_for_status()
        timings: dict[str, list[float]] = defaultdict(list)
        errors: list[str] = []
        stop = time.monotonic() + args.seconds
        clients = [threading.Thread(target=client_loop, args=(url, stop, timings, errors)) for _ in range(args.clients)]
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        thinking = httpx.get(f"{url}/v1/tables").json()
        spectator = {"token": pimc_match.json()["spectator_token"]}
        history = httpx.get(f"{url}/v1/tables/{pimc_match.json()['table_id']}/history", params=spectator).json()
        after = rss_mib(server.pid)
        started = [rss_mib(child) for child in children(server.pid)]
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{args.clients} clients, {args.seconds:g} s, a pimc match of target_score {match['target_score']} running")
    print(f"{'request':<8} {'count':>6} {'p50 ms':>8} {'p99 ms':>8}")
    for kind, seconds in timings.items():
        p50, p99 = np.percentile(np.array(seconds) * 1000, [50, 99])
        print(f"{kind:<8} {len(seconds):>6} {p50:>8.1f} {p99:>8.1f}")
    print(f"errors: {len(errors)}{' (' + errors[0] + ')' if errors else ''}")
    print(f"server RSS: {before:.0f} MiB before, {after:.0f} MiB after")
    print(f"processes it started: {len(started)}, RSS {sum(started):.0f} MiB in all at the end")
    print(f"match still running at the end: {any(table['bots_thinking'] for table in thinking)}")
    print(f"the match's public history at the end: {len(history['events'])} events")


if __name__ == "__main__":
    main()
