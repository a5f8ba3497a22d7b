"""The stdio bot driven by a subprocess: one JSON answer per request line, errors as JSON lines, never a crash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from serve_support import acting_views

CARDARENA = str(Path(sys.executable).with_name("cardarena"))


def _converse(agent: str, lines: list[str]) -> tuple[list[dict], int]:
    done = subprocess.run(
        [CARDARENA, "bot", "--agent", agent], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120
    )
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


def test_the_stdio_bot_answers_each_line_and_survives_bad_ones():
    views = acting_views(seed=2)
    good = [json.dumps({"game": "yokir_v1", "seat_view": view}) for view in views]
    bad_view = dict(views[0], hand=["CiAr", "CiAr"])
    lines = [
        good[0],
        "this is not json",
        json.dumps([1, 2]),
        json.dumps({"game": "yokir_v1", "seat_view": bad_view}),
        json.dumps({"bot": "random", "game": "yokir_v1", "seat_view": views[0]}),
        json.dumps({"game": "yokir_v1"}),
        "[" * 50_000,
        "",
        *good[1:],
    ]
    answers, status = _converse("yokir/ppo-selfplay", lines)
    assert status == 0
    assert [answer.get("error") for answer in answers[1:7]] == [
        "bad_json",
        "bad_request",
        "bad_seat_view",
        "unknown_bot",
        "bad_request",
        "bad_request",
    ]
    moves = [answers[0], *answers[7:]]
    assert len(moves) == len(views)
    for view, move in zip(views, moves, strict=True):
        legal = {action["id"]: action["label"] for action in view["legal_actions"]}
        assert move["legal"] is True and legal[move["action"]] == move["action_label"]


def test_an_unknown_agent_is_one_error_line():
    answers, status = _converse("yokir/nobody", [])
    assert status == 2
    assert answers[0]["error"] == "unknown_bot" and "yokir/nobody" in answers[0]["detail"]


TORCH_PROBE = """
import io, sys
from cardarena.serve.stdio import run
answers = io.StringIO()
status = run(sys.argv[1], io.StringIO(sys.argv[2] + "\\n"), answers)
print(status, "torch" in sys.modules, "stable_baselines3" in sys.modules, answers.getvalue().strip())
"""


def _first_answer_modules(agent: str) -> tuple[str, ...]:
    """(status, torch imported, SB3 imported, the answer) of a fresh stdio bot asked one request."""
    request = json.dumps({"game": "yokir_v1", "seat_view": acting_views(seed=2)[0]})
    done = subprocess.run(
        [sys.executable, "-c", TORCH_PROBE, agent, request], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return tuple(done.stdout.split(" ", 3))


def test_a_heuristic_stdio_bot_answers_without_torch():
    status, torch, sb3, reply = _first_answer_modules("yokir/heuristic")
    assert (status, torch, sb3) == ("0", "False", "False")
    assert json.loads(reply)["legal"] is True


def test_a_shipped_stdio_bot_answers_without_torch():
    status, torch, sb3, reply = _first_answer_modules("yokir/ppo-selfplay")
    assert json.loads(reply)["legal"] is True
    assert (status, torch, sb3) == ("0", "False", "False")
