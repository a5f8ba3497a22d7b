"""`YokirGame.resample_hidden` keeps what a seat knows (rulebook section 9): its own cards and
discard, the up-card, every card played, the suits each player showed out of, an accepted up-card
with its caller; and deals everything else anew. (That the seat's view is unchanged is checked
for every game in tests/envs/test_conformance.py.)
"""

from __future__ import annotations

import random

from cardarena.envs.yokir.game import PLAY
from cardarena.envs.yokir.rules import SUITS, effective_suit
from yokir_support import SUIT_ACTION, code, e24_state, ids, make


def _showed_out(state) -> list[set[str]]:
    """Per seat, the effective suits led that it did not follow this hand."""
    voids: list[set[str]] = [set(), set(), set()]
    trump = SUITS[state.trump] if state.trump >= 0 else None
    tricks = [(leader, cards) for leader, *cards, _winner in state.tricks] + [(state.leader, state.trick)]
    for leader, cards in tricks:
        if not cards:
            continue
        led = effective_suit(code(cards[0]), trump)
        for position, card in enumerate(cards[1:], start=1):
            if effective_suit(code(card), trump) != led:
                voids[(leader + position) % 3].add(led)
    return voids


def _states_in_trick_play(seeds):
    """Every state of trick play in random hands from these seeds."""
    env = make()
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.current_player(env.state) >= 0:
            if env.state.phase == PLAY:
                yield env.game, env.game.clone(env.state)
            env.step(rng.choice(env.game.legal_actions(env.state)))


def test_a_player_who_showed_out_of_a_suit_is_dealt_none_of_it():
    rng = random.Random(0)
    showed_out = 0
    for game, state in _states_in_trick_play(range(40)):
        voids = _showed_out(state)
        trump = SUITS[state.trump]
        for seat in range(3):
            for _ in range(5):
                world = game.resample_hidden(state, seat, rng)
                assert sorted(world.hands[seat]) == sorted(state.hands[seat])
                assert (world.tricks, world.trick, world.up_card) == (state.tricks, state.trick, state.up_card)
                for other in set(range(3)) - {seat}:
                    assert len(world.hands[other]) == len(state.hands[other])
                    assert not {effective_suit(code(card), trump) for card in world.hands[other]} & voids[other]
                    showed_out += bool(voids[other])
    assert showed_out > 1000, "too few show-outs to test"


def _e24_after_accept(env):
    """Rulebook E24: seat 1 accepts the up-card ScAt (trump At); it is to discard."""
    env.load_state(e24_state(env))
    env.step(SUIT_ACTION["At"])
    return env.state


def test_an_accepted_up_card_stays_in_the_callers_hand_until_the_discard():
    env = make(dealer=0)
    state = _e24_after_accept(env)
    up_card = ids("ScAt")[0]
    rng = random.Random(1)
    for seat in (0, 2):
        for _ in range(50):
            world = env.game.resample_hidden(state, seat, rng)
            assert up_card in world.hands[1] and len(world.hands[1]) == 6


def test_after_the_discard_the_up_card_is_in_the_callers_hand_or_discard():
    env = make(dealer=0)
    _e24_after_accept(env)
    env.step(ids("StPo")[0])
    up_card, rng = ids("ScAt")[0], random.Random(2)
    worlds = [env.game.resample_hidden(env.state, 0, rng) for _ in range(300)]
    assert all(up_card in world.hands[1] or world.discard == up_card for world in worlds)
    assert {world.discard == up_card for world in worlds} == {True, False}
    assert len({world.discard for world in worlds}) > 5  # the discard is dealt anew for a defender
    caller_worlds = [env.game.resample_hidden(env.state, 1, rng) for _ in range(20)]
    assert {world.discard for world in caller_worlds} == {ids("StPo")[0]}  # the caller knows its own


def test_every_unseen_card_can_land_in_every_unseen_place():
    env = make()
    env.reset(seed=3)
    state, rng = env.state, random.Random(3)
    unseen = set(range(24)) - set(state.hands[0]) - {state.up_card}
    worlds = [env.game.resample_hidden(state, 0, rng) for _ in range(400)]
    for place in (lambda world: world.hands[1], lambda world: world.hands[2], lambda world: world.out_of_play):
        assert {card for world in worlds for card in place(world)} == unseen
    assert len({world.deal_seed for world in worlds}) == len(worlds)


def test_later_hands_of_a_match_are_dealt_anew():
    env = make(match=True)
    env.reset(seed=4)
    rng = random.Random(4)
    while env.state.hand_number == 0:
        before = env.game.clone(env.state)
        env.step(rng.choice(env.game.legal_actions(env.state)))
    action = next(a for a in env.game.legal_actions(before) if _ends_hand(env.game, before, a))
    next_hands = set()
    for _ in range(10):
        world = env.game.resample_hidden(before, before.to_act, rng)
        env.game.apply(world, action)
        next_hands.add(tuple(map(tuple, world.hands)))
    assert len(next_hands) == 10


def _ends_hand(game, state, action) -> bool:
    after = game.clone(state)
    game.apply(after, action)
    return after.hand_number != state.hand_number
