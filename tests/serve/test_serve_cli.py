"""`cardarena serve` starts the server with one command; a bot or key file it cannot load is a one-line error."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import typer.main
from serve_support import ALICE, KEY_FILE, free_port

from cardarena.cli import app
from cardarena.records import read_records, replayed
from cardarena.serve.client import Client
from cardarena.serve.keys import API_KEY_HEADER, TABLES_PER_KEY
from cardarena.serve.tables import MAX_TABLES, TABLE_TTL

CARDARENA = str(Path(sys.executable).with_name("cardarena"))


def started(*options: str, **popen) -> tuple[subprocess.Popen, str]:
    """`cardarena serve` on a free port of 127.0.0.1, once its /healthz answers: the process and its URL."""
    port = free_port()
    command = [CARDARENA, "serve", "--port", str(port), *options]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, **popen)
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz")
            return server, f"http://127.0.0.1:{port}"
        except httpx.TransportError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise AssertionError("the server did not start") from None
            time.sleep(0.1)


@contextmanager
def serving(*options: str) -> Iterator[tuple[str, list[str]]]:
    """`cardarena serve` (`started`): its URL, and its output once stopped."""
    server, url = started(*options)
    output: list[str] = []
    try:
        yield url, output
    finally:
        server.terminate()
        output.append(server.communicate(timeout=10)[0])


def test_cardarena_serve_answers_on_its_port():
    with serving("--bots", "yokir/ppo-selfplay") as (url, output):
        health = httpx.get(f"{url}/healthz").json()
    assert "yokir/ppo-selfplay" in health["bots"] and "yokir_v1" in health["games"]
    assert f"on {url}" in output[0]


def test_cardarena_serve_with_a_key_file_needs_a_key(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text(KEY_FILE)
    with serving("--bots", "random", "--api-keys", str(keys), "--tables-per-key", "3", "--table-ttl", "30") as (
        url,
        output,
    ):
        refused = httpx.get(f"{url}/v1/games")
        created = httpx.post(
            f"{url}/v1/tables", json={"game": "yokir_v1", "seats": [None, None, None]}, headers={API_KEY_HEADER: ALICE}
        )
        for _ in range(2):
            httpx.post(
                f"{url}/v1/tables",
                json={"game": "yokir_v1", "seats": [None, None, None]},
                headers={API_KEY_HEADER: ALICE},
            )
        capped = httpx.post(
            f"{url}/v1/tables", json={"game": "yokir_v1", "seats": [None, None, None]}, headers={API_KEY_HEADER: ALICE}
        )
    assert (refused.status_code, refused.json()["error"]) == (401, "bad_api_key")
    assert (created.status_code, created.json()["table_ttl"]) == (201, 30.0)
    assert capped.status_code == 429 and "holds 3 unfinished tables" in capped.json()["detail"]
    assert f"API keys: 4 from {keys}" in output[0] and ALICE not in output[0]


def test_cardarena_serve_records_each_table_it_ends(tmp_path):
    folder = tmp_path / "records"
    with serving("--bots", "random", "--record", str(folder)) as (url, output):
        table = httpx.post(f"{url}/v1/tables", json={"game": "yokir_v1", "seats": ["random"] * 3, "seed": 4}).json()
    lines = (folder / f"{table['table_id']}.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["seats"] == ["random"] * 3
    assert f"recording every table's hands in {folder}" in output[0]


def test_a_killed_server_leaves_each_finished_hand_of_a_match_on_file_and_its_orphans_are_removed(tmp_path):
    orphan = tmp_path / ".earlier.jsonl.4242.tmp"  # a killed writer's temporary file
    orphan.write_text('{"format": "cardarena.rec')
    server, url = started("--bots", "random", "--record", str(tmp_path), stderr=subprocess.PIPE)
    try:
        with Client(url) as client:
            match = {"match": True, "target_score": 100}
            table = client.create_table("yokir_v1", [None, "random", "random"], config=match, seed=4)
            path, token = tmp_path / f"{table['table_id']}.jsonl", table["seats"][0]["token"]
            view, rng = client.table(table["table_id"], 0, token), random.Random(4)
            while not path.exists() or len(path.read_text().splitlines()) < 3:
                assert not view["finished"] and view["your_turn"], "the match ended, or the bots did not answer"
                move = rng.choice(view["view"]["legal_actions"])["id"]
                view = client.play(table["table_id"], 0, token, action=move)
    finally:
        server.kill()  # SIGKILL: no shutdown runs
        errors = server.communicate(timeout=10)[1]
    assert not orphan.exists() and f"removed {orphan}" in errors
    records = read_records(path)
    assert [record["hand"] for _, record in records] == [0, 1, 2]
    for line, record in records:
        assert record["seats"] == ["client", "random", "random"]
        replayed(path, line, record)


def test_cardarena_serve_refuses_an_unknown_bot():
    done = subprocess.run([CARDARENA, "serve", "--bots", "yokir/nobody"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "unknown agent 'yokir/nobody'" in done.stdout


def test_cardarena_serve_refuses_a_bad_key_file_naming_the_line(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text(f"{ALICE}\nshort-key\n")
    done = subprocess.run([CARDARENA, "serve", "--api-keys", str(keys)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"{keys} line 2: a key is 16 to 200 printable ASCII characters" in " ".join(done.stdout.split())
    assert "short-key" not in done.stdout


def test_the_serve_options_default_to_the_servers_limits():
    command = next(c for c in typer.main.get_command(app).commands.values() if c.name == "serve")
    defaults = {param.name: param.default for param in command.params}
    assert (defaults["table_ttl"], defaults["max_tables"], defaults["tables_per_key"]) == (
        TABLE_TTL,
        MAX_TABLES,
        TABLES_PER_KEY,
    )


def test_sigterm_stops_the_server_within_seconds_while_bots_think(tmp_path):
    with serving("--bots", "pimc", "--record", str(tmp_path)) as (url, output):
        match = {"game": "yokir", "seats": ["pimc"] * 3, "config": {"match": True, "target_score": 100}}
        assert httpx.post(f"{url}/v1/tables", json=match).status_code == 201
        time.sleep(2)  # the bots are thinking now
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 10


def search_processes(pid: int) -> set[int]:
    """The search processes the server `pid` has started (children of any of its threads) and that still run."""
    children = {
        int(child) for task in Path(f"/proc/{pid}/task").iterdir() for child in (task / "children").read_text().split()
    }
    return {
        child for child in children if running(child) and b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
    }


def running(pid: int) -> bool:
    """Whether process `pid` exists and is no zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_sigterm_stops_the_server_and_kills_its_search_processes_within_seconds_mid_move():
    endless = "yokir/expert:worlds=100000000"  # minutes a move
    server, url = started("--bots", endless)
    try:
        assert httpx.post(f"{url}/v1/tables", json={"game": "yokir", "seats": [endless] * 3}).status_code == 201
        deadline = time.monotonic() + 60
        while not (thinking := search_processes(server.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert thinking
        stopping = time.monotonic()
        server.terminate()
        server.communicate(timeout=15)
        assert time.monotonic() - stopping < 10
        while any(running(pid) for pid in thinking) and time.monotonic() - stopping < 10:
            time.sleep(0.1)
        assert not any(running(pid) for pid in thinking)
    finally:
        server.kill()
        server.communicate()


def test_key_caps_over_the_servers_tables_are_refused_at_start(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text(KEY_FILE)
    done = subprocess.run(
        [CARDARENA, "serve", "--api-keys", str(keys), "--max-tables", "250"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "table caps add up to 302, over the server's 250 tables" in done.stdout + done.stderr
