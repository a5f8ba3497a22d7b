"""Hidden information: only the deck's order. `resample_hidden` reshuffles the unseen deck and
keeps everything else; every seat's observation is whole public knowledge."""

from __future__ import annotations

import random

from cardarena.envs.paradigm.game import SUIT_PHASE
from paradigm_support import make, played


def played_to(decisions: int, seed: int = 1, n: int = 4):
    return played(decisions, seed, n)


def test_resample_keeps_everything_but_the_order_of_the_deck():
    env = played_to(30)
    game, state = env.game, env.state
    orders = set()
    for draw in range(20):
        world = game.resample_hidden(state, draw % 4, random.Random(draw))
        assert sorted(world.deck) == sorted(state.deck)
        assert (world.table, world.hands, world.discard, world.pending) == (
            state.table,
            state.hands,
            state.discard,
            state.pending,
        )
        assert (world.phase, world.to_act, world.turn, world.suits) == (
            state.phase,
            state.to_act,
            state.turn,
            state.suits,
        )
        orders.add(tuple(world.deck))
        for seat in range(4):
            assert (env.encoder.observation(world, seat) == env.encoder.observation(state, seat)).all()
            assert env.encoder.seat_view(world, seat) == env.encoder.seat_view(state, seat)
    assert len(orders) > 1


def test_resample_before_the_reveal_changes_the_setup_to_come():
    env = make(num_players=2)
    env.reset(seed=0)
    assert env.state.phase == SUIT_PHASE
    worlds = [env.game.resample_hidden(env.state, 0, random.Random(draw)) for draw in range(5)]
    assert len({tuple(world.deck) for world in worlds}) > 1
    assert len({world.seed for world in worlds}) == 5


def test_every_seat_sees_the_same_public_knowledge():
    env = played_to(25, seed=4, n=3)
    views = [env.encoder.seat_view(env.state, seat) for seat in range(3)]
    assert all(
        {k: v for k, v in view.items() if k != "seat"} == {k: v for k, v in views[0].items() if k != "seat"}
        for view in views
    )
    assert not any("private" in event for event in env.history())
