"""`cardarena play` shows only what the person's seat may know: a bot's face-down discard and a folded
seat's cards never appear, every public event is announced, the seats are named, and each legal
move is shown as "id label" on one line. The person plays the first legal move each time."""

from __future__ import annotations

import re

from cardarena.agents import default_opponent, load
from cardarena.envs import lookup, make
from cardarena.envs.core.history import seen_by
from cardarena.envs.core.table import Table
from typer.testing import CliRunner

from cardarena.cli import app

runner = CliRunner()
YOKIR_MATCH = ("yokir", 4, {"match": True})
PIKTAS_GAMBLING = ("piktas", 4, {"num_players": 3, "mode": "gambling", "num_hands": 2})


def first_legal_play(game: str, seed: int, config: dict) -> tuple[list[list[dict]], Table]:
    """Seat 0 playing its first legal move each time against the default opponents, as `cardarena
    play` seats them: the legal moves offered at each decision, and the table once over."""
    name = lookup(game).name
    env = make(game, **config)
    bots = {seat: load(default_opponent(name), game=name) for seat in range(1, env.game.num_players)}
    table = Table(env)
    table.reset(seed=seed)
    menus = []
    while table.advance(bots) is not None:
        menus.append(env.observe_json("player_0")["legal_actions"])
        table.play(menus[-1][0]["id"])
    return menus, table


def play_in_terminal(game: str, seed: int, config: dict) -> tuple[str, list[list[dict]], Table]:
    """`cardarena play` fed the first legal move at each decision: its output, the menus, the table."""
    menus, table = first_legal_play(game, seed, config)
    settings = [option for key, value in config.items() for option in ("--set", f"{key}={str(value).lower()}")]
    result = runner.invoke(
        app, ["play", game, "--seed", str(seed), *settings], input="".join(f"{menu[0]['id']}\n" for menu in menus)
    )
    assert result.exit_code == 0, result.output
    assert f"your reward: {table.totals[0]:+.3f}" in result.output, "the terminal played another game than the test"
    return result.output, menus, table


def hands_told(output: str) -> dict[int, str]:
    """The output of each hand, from its rule line ("── hand 2 ──") to the next."""
    parts = re.split(r"^─+ hand (\d+) ─+$", output, flags=re.MULTILINE)
    return {int(number) - 1: text for number, text in zip(parts[1::2], parts[2::2], strict=True)}


def codes(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def test_a_bots_face_down_discard_is_never_shown():
    output, _, table = play_in_terminal(*YOKIR_MATCH)
    log = table.env.history()
    hidden = [event for event in log if event["kind"] == "action" and event["seat"] != 0 and "private" in event]
    assert any(event["hand"] == 1 and event["seat"] == 2 for event in hidden), (
        "the case found: seat 2 discards face down in hand 2"
    )
    lines = output.splitlines()
    for event in hidden:
        label = event["private"]["label"]
        assert all(line.startswith("you (seat 0)") for line in lines if label in line), f"{label} shown"
    told = hands_told(output)
    for event in hidden:
        assert f"seat {event['seat']} (heuristic): discard\n" in told[event["hand"]]


def test_every_public_event_is_announced_and_the_seats_named():
    output, _, table = play_in_terminal(*YOKIR_MATCH)
    assert output.splitlines()[0] == "yokir_v1: you (seat 0), seat 1 (heuristic), seat 2 (heuristic)"
    log = seen_by(table.env.history(), 0)
    told = hands_told(output)
    assert sorted(told) == sorted({event["hand"] for event in log})
    for event in log:
        if event["kind"] == "trick":
            cards = " ".join(event["cards"])
            assert (
                f"table: trick  leader {event['leader']}  cards {cards}  winner {event['winner']}\n"
                in told[event["hand"]]
            )
        if event["kind"] == "result":
            assert f"table: hand {event['hand'] + 1} result\n" in told[event["hand"]]
            assert f"  points: {' '.join(map(str, event['points']))}\n" in told[event["hand"]]


def test_a_folded_hand_is_never_shown_and_the_field_and_result_are_announced():
    output, _, table = play_in_terminal(*PIKTAS_GAMBLING)
    log = table.env.history()
    told = hands_told(output)
    assert sorted(told) == [0, 1]
    folded_hidden = 0
    for result in (event for event in log if event["kind"] == "result"):
        hand = result["hand"]
        public = codes(str(seen_by([event for event in log if event["hand"] == hand], None)))
        assert f"table: hand {hand + 1} result\n" in told[hand]
        for seat in set(result["folded"]) - {0}:
            dealt = next(e for e in log if e["hand"] == hand and e["kind"] == "deal" and e["seat"] == seat)["private"][
                "cards"
            ]
            hidden = set(dealt) - public
            folded_hidden += len(hidden)
            assert not hidden & codes(told[hand]), f"seat {seat} folded in hand {hand + 1}, but its cards are shown"
    assert folded_hidden, "the case found: a seat folds holding cards nobody saw"
    for event in log:
        if event["kind"] == "deal" and event.get("place") == "field":
            assert (
                f"table: deal  place field  position {event['position']}  cards {' '.join(event['cards'])}\n"
                in told[event["hand"]]
            )


def test_each_legal_move_is_shown_as_id_and_label_on_one_line():
    for case in (YOKIR_MATCH, PIKTAS_GAMBLING):
        output, menus, _ = play_in_terminal(*case)
        lines = output.splitlines()
        assert output.count("your move") == len(menus)
        for menu in menus:
            for action in menu:
                shown = f"{action['id']} {action['label']}"
                assert any(shown in line for line in lines), f"{shown!r} is not on one line"
