"""Copying game states (`Game.clone`, `state_json.copy_state`): a copy shares nothing that play changes."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from cardarena.envs import make, registered
from cardarena.envs.core.betting import BettingRound
from cardarena.envs.core.state_json import copy_data, copy_state


def mutable_parts(value: Any, skip: set[int]) -> dict[int, Any]:
    """Every list, dict and dataclass reachable from `value`, by id (those in `skip` and below them left out)."""
    found: dict[int, Any] = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in skip or id(item) in found:
            continue
        if isinstance(item, list):
            found[id(item)] = item
            stack.extend(item)
        elif isinstance(item, dict):
            found[id(item)] = item
            stack.extend(item.values())
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            found[id(item)] = item
            stack.extend(getattr(item, field.name) for field in dataclasses.fields(item))
    return found


def played_state(env_id: str, moves: int, seed: int):
    env = make(env_id)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(mask.nonzero()[0])))
    return env.game, env.state


@pytest.mark.parametrize("env_id", [entry.env_id for entry in registered()])
@pytest.mark.parametrize("moves", [0, 7, 30])
def test_a_clone_equals_the_state_and_shares_only_logged_events(env_id: str, moves: int):
    game, state = played_state(env_id, moves, seed=moves)
    twin = game.clone(state)
    assert game.state_to_json(twin) == game.state_to_json(state)
    log, twin_log = game.event_log(state), game.event_log(twin)
    assert twin_log is not log and all(
        a is b for a, b in zip(twin_log, log, strict=True)
    )  # the events themselves are shared
    events = {id(event) for event in log}
    shared = mutable_parts(twin, events).keys() & mutable_parts(state, events).keys()
    shared_parts = [type(part).__name__ for part in mutable_parts(state, events).values() if id(part) in shared]
    assert not shared, f"the clone shares {shared_parts}"


def test_copy_data_copies_lists_and_dicts_clones_objects_and_shares_immutable_values():
    bets = BettingRound(
        stacks=[5, 5],
        folded=[False, False],
        to_act=[0, 1],
        pot=2,
        current_bet=0,
        contributions=[0, 0],
        bets=0,
        min_raise=1,
    )
    frozen = (1, 2)
    data = {"piles": [[1, 2], [3]], "bets": bets, "frozen": frozen, "name": "x", "odd": {1, 2}}
    twin = copy_data(data)
    assert twin == data
    assert twin["piles"] is not data["piles"] and twin["piles"][0] is not data["piles"][0]
    assert twin["bets"] is not bets and twin["bets"].stacks is not bets.stacks and twin["bets"] == bets
    assert twin["frozen"] is frozen
    assert twin["odd"] is not data["odd"]  # neither plain data nor a clone(): deep-copied


def test_copy_state_copies_the_events_list_but_not_the_events():
    @dataclasses.dataclass
    class Toy:
        cards: list[int]
        log: list[dict[str, Any]]

    state = Toy(cards=[1, 2], log=[{"kind": "deal", "cards": [1, 2]}])
    twin = copy_state(state, state.log)
    assert twin == state and twin.cards is not state.cards
    assert twin.log is not state.log and twin.log[0] is state.log[0]
    assert copy_state(state).log[0] is not state.log[0]  # without `events`, every field is copied through
