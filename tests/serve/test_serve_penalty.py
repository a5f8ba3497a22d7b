"""`on_illegal="penalize"` at a served table of every game, in its first hand and after a match's
first hand: the table reports the rewards the environment pays (the offender `illegal_reward`,
every other seat nothing more), and the history closes with the public penalty event."""

from __future__ import annotations

import asyncio
import random

import pytest
from cardarena.envs import make, registered
from cardarena.envs.core import history
from cardarena.envs.core.table import Table
from serve_support import in_process

from cardarena.serve.app import create_app
from cardarena.serve.bots import Roster

ILLEGAL_REWARD = -2.5
# A setting that makes an episode of several hands, for the games that have one.
MATCHES = {
    "yokir_v1": {"match": True},
    "dividha_v1": {"match": True},
    "piktas_v1": {"num_hands": 5},
    "antipoker_v1": {"num_hands": 5},
    "tilt_v2": {"num_hands": 5},
}
GAMES = [entry.env_id for entry in registered()]
SEED = 7


async def _play_until_penalty(game: str, config: dict, hands: int, moves: int) -> tuple[list[int], dict, list[dict]]:
    """Client seats play random legal moves, at least `moves` and until `hands` hands are over,
    then the seat to act plays an illegal action: the legal moves, the answer to it and the offender's history."""
    app = create_app(Roster([]))
    rng = random.Random(SEED)
    async with in_process(app) as http:
        players = make(game, **config).game.num_players
        request = {"game": game, "seats": [None] * players, "config": config, "seed": SEED}
        created = (await http.post("/v1/tables", json=request)).json()
        url, tokens = f"/v1/tables/{created['table_id']}", [seat["token"] for seat in created["seats"]]
        played: list[int] = []
        view = (await http.get(url, params={"seat": 0, "token": tokens[0]})).json()
        while (await _hands_over(http, url, tokens[0])) < hands or len(played) < moves:
            seat = view["to_act"]
            view = (await http.get(url, params={"seat": seat, "token": tokens[seat]})).json()
            played.append(rng.choice(view["view"]["legal_actions"])["id"])
            answer = await http.post(f"{url}/actions", json={"seat": seat, "token": tokens[seat], "action": played[-1]})
            assert answer.status_code == 200, answer.text
            view = answer.json()
            assert not view["finished"], "the episode ended before the illegal move"
        offender = view["to_act"]
        seat_view = (await http.get(url, params={"seat": offender, "token": tokens[offender]})).json()
        legal = {choice["id"] for choice in seat_view["view"]["legal_actions"]}
        illegal = min(set(range(make(game).game.num_actions)) - legal)
        answer = await http.post(
            f"{url}/actions", json={"seat": offender, "token": tokens[offender], "action": illegal}
        )
        assert answer.status_code == 200, answer.text
        events = (await http.get(f"{url}/history", params={"token": tokens[offender]})).json()["events"]
        return played, answer.json(), events


async def _hands_over(http, url: str, token: str) -> int:
    """Hands finished so far: the `"result"` events of a seat's history."""
    events = (await http.get(f"{url}/history", params={"token": token})).json()["events"]
    return sum(event["kind"] == history.RESULT for event in events)


def _check_penalty(game: str, config: dict, hands: int, moves: int) -> None:
    config = {**config, "on_illegal": "penalize", "illegal_reward": ILLEGAL_REWARD}
    played, answer, events = asyncio.run(_play_until_penalty(game, config, hands, moves))
    table = Table(make(game, **config))
    table.reset(seed=SEED)
    for action in played:
        table.play(action)
    offender, before = table.to_act, list(table.env.game.returns(table.env.state))
    assert table.env.game.hands_played(table.env.state) >= hands
    illegal = events[-1]["action"]
    table.play(illegal)
    env = table.env
    assert [env.rewards[agent] for agent in env.possible_agents] == [
        ILLEGAL_REWARD if seat == offender else 0.0 for seat in range(len(before))
    ]
    expected = [total + (ILLEGAL_REWARD if seat == offender else 0.0) for seat, total in enumerate(before)]
    assert table.finished and table.totals == pytest.approx(expected)
    assert answer["finished"] and answer["rewards"] == table.totals
    assert events[-1] == {
        "hand": env.game.hands_played(env.state),
        "kind": history.PENALTY,
        "seat": offender,
        "action": illegal,
        "illegal_reward": ILLEGAL_REWARD,
        "returns_before": before,
    }


@pytest.mark.parametrize("game", GAMES)
def test_a_penalty_in_the_first_hand_pays_the_offender_only(game):
    _check_penalty(game, {}, hands=0, moves=3)


@pytest.mark.parametrize("game", [game for game in GAMES if game in MATCHES])
def test_a_penalty_after_a_finished_hand_ends_the_match_as_the_environment_pays_it(game):
    _check_penalty(game, MATCHES[game], hands=1, moves=0)
