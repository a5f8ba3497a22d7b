"""`cardarena watch` tells the public events of a table of bots, `eval --record` writes every hand
as a record that `cardarena replay` plays again bit for bit, whole table or one seat's view, and a
corrupt or mismatched record is an error naming its line."""

from __future__ import annotations

import json
import logging

import pytest
from cardarena.agents import load
from cardarena.envs import make
from cardarena.envs.core import history
from cardarena.envs.core.table import Table
from typer.testing import CliRunner

from cardarena.cli import app
from cardarena.records import RecordFileError, read_records, replay
from cardarena.terminal import describe, seat_names

runner = CliRunner()
GAMES = [
    ("yokir_v1", {"match": True, "max_hands": 2}),
    ("piktas_v1", {"num_players": 3, "mode": "gambling", "num_hands": 2}),
    ("tilt_v2", {"num_players": 3, "num_hands": 2}),
]


def settings(config: dict) -> list[str]:
    return [option for key, value in config.items() for option in ("--set", f"{key}={str(value).lower()}")]


def said(result) -> str:
    """The command's output on one line, however the terminal wrapped it."""
    return " ".join(result.output.split())


def heuristics_log(game: str, config: dict, seed: int) -> tuple[list[dict], list[float]]:
    """The whole log and the rewards of heuristic bots in every seat, dealt with `seed`."""
    env = make(game, **config)
    table = Table(env)
    table.reset(seed=seed)
    table.advance({seat: load("heuristic", game=env.game.name) for seat in range(env.game.num_players)})
    return env.history(), table.totals


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_watch_tells_every_public_event_in_order_and_nothing_private(game, config):
    result = runner.invoke(app, ["watch", game, "--delay", "0", "--seed", "5", *settings(config)])
    assert result.exit_code == 0, result.output
    log, rewards = heuristics_log(game, config, 5)
    names = seat_names(["heuristic"] * len(rewards))
    lines = result.output.splitlines()
    assert lines[0] == f"{game}: " + ", ".join(names)
    told = [describe(event, names) for event in history.seen_by(log, None)]
    position = 0
    for text in told:
        position = result.output.index(text, position) + len(text)
    assert "(private)" not in result.output and "the others see" not in result.output
    assert sum(1 for event in log if event["kind"] == "result") == config.get("num_hands", 2)
    assert lines[-1] == "rewards: " + ", ".join(
        f"{name} {reward:+.3f}" for name, reward in zip(names, rewards, strict=True)
    )


def test_watch_one_seat_shows_its_own_cards_only():
    result = runner.invoke(app, ["watch", "yokir", "--delay", "0", "--seed", "5", "--seat", "1"])
    assert result.exit_code == 0, result.output
    log, _ = heuristics_log("yokir_v1", {}, 5)
    mine = next(event for event in log if event["kind"] == "deal" and event["seat"] == 1)
    assert f"seat 1 (heuristic): deal  count 5  cards {' '.join(mine['private']['cards'])} (private)" in result.output
    assert result.output.count("(private)") == 1


def test_watch_refuses_a_wrong_lineup():
    result = runner.invoke(app, ["watch", "yokir", "--agents", "heuristic,random"])
    assert result.exit_code == 2
    assert "played by 3 seats here, but 2 agents were given" in said(result)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict[str, tuple]:
    """`cardarena eval --record` of one deal played in the three rotations of each game: its file and the eval's
    JSON results."""
    folder = tmp_path_factory.mktemp("records")
    files = {}
    for game, config in GAMES:
        results = folder / f"{game}.json"
        result = runner.invoke(
            app,
            [
                "eval",
                game,
                "--agents",
                "heuristic,random,random",
                "--episodes",
                "3",
                "--record",
                str(folder),
                "--json",
                str(results),
                *settings(config),
            ],
        )
        assert result.exit_code == 0, result.output
        files[game] = (folder / f"{game}-3p.jsonl", json.loads(results.read_text()))
    return files


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_eval_records_every_hand_and_each_replays_to_its_log(recorded, game, config):
    path, results = recorded[game]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [record["episode"] for record in records] == [0, 0, 1, 1, 2, 2]
    assert [record["hand"] for record in records] == [0, 1] * 3
    assert {tuple(record["seats"]) for record in records} == {
        ("heuristic", "random", "random"),
        ("random", "heuristic", "random"),
        ("random", "random", "heuristic"),
    }
    for record in records:
        env = replay(record)
        assert [event for event in env.history() if event["hand"] == record["hand"]] == record["log"]
    last_hands = [record for record in records if record["hand"] == 1]
    heuristic_mean = (
        sum(record["returns"][record["seats"].index("heuristic")] for record in last_hands) / 3
    )  # one deal, three rotations
    assert heuristic_mean == pytest.approx(next(s["mean"] for s in results["scores"] if s["name"] == "heuristic"))


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_replay_steps_through_every_hand_of_the_file(recorded, game, config):
    path, _ = recorded[game]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    result = runner.invoke(app, ["replay", str(path), "--delay", "0"])
    assert result.exit_code == 0, result.output
    names = seat_names(records[0]["seats"])
    position = 0
    for line, record in enumerate(records, 1):
        for text in [
            f"line {line}, {game}",
            *(describe(event, seat_names(record["seats"])) for event in record["log"]),
        ]:
            position = result.output.index(text, position) + len(text)
        assert f"line {line} replayed" in result.output
    assert names[0] in result.output.splitlines()[0]


def test_replay_of_one_seat_shows_what_it_knew_only(recorded):
    path, _ = recorded["yokir_v1"]
    record = json.loads(path.read_text().splitlines()[2])
    result = runner.invoke(app, ["replay", str(path), "--hand", "3", "--seat", "2", "--delay", "0"])
    assert result.exit_code == 0, result.output
    names = seat_names(record["seats"])
    for event in record["log"]:
        seen = history.seen_by([event], 2)[0]
        assert describe(seen, names) in result.output
        if "private" in event and event["seat"] != 2:
            assert describe(event, names) not in result.output
    assert "line 1," not in result.output and result.output.count("(private)") == 1


def test_replay_steps_on_enter(recorded):
    path, _ = recorded["yokir_v1"]
    events = len(json.loads(path.read_text().splitlines()[0])["log"])
    result = runner.invoke(app, ["replay", str(path), "--hand", "1", "--step"], input="\n" * events)
    assert result.exit_code == 0, result.output
    assert "line 1 replayed" in result.output


def corrupt(path, tmp_path, line: int, change) -> str:
    """A copy of the record file with line `line`'s record changed by `change`."""
    lines = path.read_text().splitlines()
    record = json.loads(lines[line - 1])
    change(record)
    lines[line - 1] = json.dumps(record)
    copy = tmp_path / "corrupt.jsonl"
    copy.write_text("\n".join(lines) + "\n")
    return str(copy)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda record: record["actions"].pop(), "replays to another log"),
        (lambda record: record["actions"].__setitem__(0, 999), "action 0 must be an action id 0..28, got 999"),
        (lambda record: record["actions"].__setitem__(0, 24.0), "action 0 must be an action id 0..28, got 24.0"),
        (lambda record: record["start"]["hands"][0].__setitem__(0, 2**31), "field 'hands[0][0]' must be 0..23"),
        (lambda record: record["start"]["hands"][0].__setitem__(0, record["start"]["hands"][1][0]), "holds card"),
        (lambda record: record["log"][3].__setitem__("seat", 0), "replays to another log: event 3 differs"),
        (lambda record: record.__setitem__("returns", [9.0, 0.0, 0.0]), "returns"),
        (lambda record: record.__setitem__("game", "nogame_v1"), "nogame"),
        (lambda record: record.pop("start"), "not a cardarena.record/1 record"),
    ],
)
def test_a_corrupt_or_mismatched_record_is_an_error_naming_its_line(recorded, tmp_path, change, words):
    path, _ = recorded["yokir_v1"]
    result = runner.invoke(app, ["replay", corrupt(path, tmp_path, 4, change), "--delay", "0"])
    assert result.exit_code == 2, result.output
    assert "line 4 does not replay" in said(result) and words in said(result)
    assert "table:" not in result.output, "nothing is shown before the file is checked"


def test_a_bad_start_state_is_an_error_naming_the_line_when_records_are_read(recorded, tmp_path):
    path, _ = recorded["yokir_v1"]
    bad = corrupt(path, tmp_path, 1, lambda record: record["start"]["hands"][0].__setitem__(0, 2**31))
    with pytest.raises(RecordFileError, match=r"line 1 does not replay: .*start state .*'hands\[0\]\[0\]'"):
        read_records(bad)


def test_a_file_that_is_not_records_is_an_error_naming_the_line(recorded, tmp_path):
    path, _ = recorded["yokir_v1"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(path.read_text().splitlines()[0] + "\n{not json\n")
    for args, words in [
        ([str(broken)], "line 2 is not a JSON record"),
        ([str(path), "--hand", "99"], "has no hand on line 99: its 6 lines hold 6 hands"),
        ([str(path), "--seat", "3"], "is a 3-seat table: it has no seat 3"),
        ([str(tmp_path / "missing.jsonl")], "cannot read"),
    ]:
        result = runner.invoke(app, ["replay", *args, "--delay", "0"])
        assert result.exit_code == 2, result.output
        assert words in said(result)


def test_a_last_line_cut_short_by_a_kill_is_skipped_with_a_warning_naming_the_file(recorded, tmp_path, caplog):
    path, _ = recorded["yokir_v1"]
    lines = path.read_text().splitlines(keepends=True)
    killed = tmp_path / "killed.jsonl"
    killed.write_text("".join(lines[:2]) + lines[2][:40])
    with caplog.at_level(logging.WARNING, logger="cardarena.records"):
        assert [number for number, _ in read_records(killed)] == [1, 2]
    assert f"{killed}: its last line (3) is cut short" in caplog.text
    result = runner.invoke(app, ["replay", str(killed), "--delay", "0"])
    assert result.exit_code == 0, result.output
    killed.write_text("".join(lines[:2]) + lines[2][:40] + "\n")  # a whole line, not cut short: still an error
    with pytest.raises(RecordFileError, match="line 3 is not a JSON record"):
        read_records(killed)


def test_eval_refuses_a_record_folder_it_cannot_write_before_playing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(app, ["eval", "yokir", "--episodes", "3", "--record", str(blocker)])
    assert result.exit_code == 2
    assert f"{blocker} exists and is not a folder" in said(result)
