"""`PiktasGame.resample_hidden` keeps what a seat knows (rulebook section 9): its hand, the field,
every hand's size and the deck's, the field cards each seat took and still holds, the hands shown
at the last showdown; and deals the rest anew, the deck's order and later rounds included.
(That the seat's view is unchanged is checked for every game in tests/envs/test_conformance.py.)
"""

from __future__ import annotations

import random

from piktas_env_support import FOLD, MATCH, PASS, RAISE, STAY, make, play


def _random_states(config: dict, seeds):
    """Every state of random episodes from these seeds, the end included."""
    env = make(**config)
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        while True:
            yield env.game, env.game.clone(env.state)
            if env.game.current_player(env.state) < 0:
                break
            env.step(rng.choice(env.game.legal_actions(env.state)))


def test_cards_taken_from_the_field_stay_with_their_taker():
    rng = random.Random(0)
    kept = 0
    for game, state in _random_states({"num_players": 4, "num_hands": 2}, range(6)):
        for seat in range(4):
            world = game.resample_hidden(state, seat, rng)
            assert world.hands[seat] == state.hands[seat]
            assert (world.field, world.taken, world.exchanges) == (state.field, state.taken, state.exchanges)
            assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands]
            assert len(world.deck) == len(state.deck)
            for other, taken in enumerate(state.taken):
                assert set(taken) <= set(world.hands[other])
                kept += len(taken) * (other != seat)
    assert kept > 100, "too few taken cards to test"


def test_every_unseen_card_can_land_in_every_other_hand_and_the_deck():
    game, state = next(_random_states({"num_players": 3}, [5]))
    rng = random.Random(5)
    unseen = set(state.hands[1]) | set(state.hands[2]) | set(state.deck)
    worlds = [game.resample_hidden(state, 0, rng) for _ in range(300)]
    for other in (1, 2):
        assert {card for world in worlds for card in world.hands[other]} == unseen
    assert {world.deck[0] for world in worlds} == unseen  # the deck's order is drawn too
    assert len({world.deal_seed for world in worlds}) == len(worlds)


def _gambling_end_with_a_fold():
    """A finished gambling round (3 seats): seat 1 raised, seat 2 folded, seat 0 matched; two hands shown."""
    env = make(num_players=3, mode="gambling", dealer=0)
    env.reset(seed=8)
    play(env, [PASS] * 9 + [RAISE, FOLD, MATCH])
    assert env.state.terminal and env.state.returns == [-20.0, 30.0, -10.0]
    return env.game, env.state


def test_hands_shown_at_the_end_are_kept_and_a_folded_hand_is_not():
    game, state = _gambling_end_with_a_fold()
    shown = state.showdowns[-1]["hands"]
    assert sorted(shown) == ["0", "1"]
    rng = random.Random(8)
    worlds = [game.resample_hidden(state, 0, rng) for _ in range(30)]
    assert all(world.hands[1] == shown["1"] for world in worlds)
    assert len({tuple(world.hands[2]) for world in worlds}) > 1


def test_a_betting_round_is_left_as_it_was():
    env = make(num_players=3, mode="gambling", dealer=0)
    env.reset(seed=9)
    play(env, [PASS] * 9 + [RAISE])
    world = env.game.resample_hidden(env.state, 2, random.Random(9))
    assert (world.bets, world.chips, world.pot, world.folded) == (
        env.state.bets,
        env.state.chips,
        env.state.pot,
        env.state.folded,
    )
    assert env.game.legal_actions(world) == env.game.legal_actions(env.state) == [MATCH, RAISE, FOLD]
    assert STAY not in env.game.legal_actions(world)
