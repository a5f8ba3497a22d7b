"""Hidden information: what a seat observes, and `resample_hidden` keeping what each seat has seen."""

from __future__ import annotations

import json
import random

import numpy as np
from antipoker_support import dealt, draw, draw_all, ids, make
from cardarena.envs.antipoker.game import DONE


def seen(env, seat: int) -> tuple[bytes, str]:
    agent = f"player_{seat}"
    return env.observe(agent)["observation"].tobytes(), json.dumps(env.observe_json(agent), sort_keys=True)


def test_a_seat_does_not_see_other_hands_their_discards_or_the_deck():
    env = make(num_players=3)
    env.reset(seed=9)
    draw_all(env, ["", ""])
    for card in env.state.hands[2][:2]:
        env.step(card)
    before = seen(env, 0)
    state = env.game.clone(env.state)
    state.hands[1], state.deck[:6] = state.deck[:6], state.hands[1]  # another hand and the deck swap cards
    state.picked = [state.hands[2][3]]  # the drawing seat marks another card
    twin = make(num_players=3)
    twin.load_state(state)
    assert seen(twin, 0) == before


def test_a_seat_sees_its_own_discards_and_everyones_counts():
    env = make()
    dealt(env, {0: "L1 L2 L3 S4 S5 S6"})
    draw(env, "L1 L2")
    view = env.observe_json("player_0")
    assert view["discarded"] == ["L1", "L2"] and view["draws"] == [2, None]
    other = env.observe_json("player_1")
    assert other["discarded"] == [] and other["draws"] == [2, None] and "L1" not in json.dumps(other)
    assert [event.get("private") for event in env.history(1) if event["seat"] == 0 and event["kind"] == "draw"] == [
        None
    ]


def test_resampling_keeps_the_seats_own_discards_and_deals_the_rest_anew():
    env = make(num_players=3)
    dealt(env, {0: "L1 L2 L3 S4 S5 S6"}, seed=4)
    draw(env, "L1 L2")
    draw(env, "")
    hands_seen = set()
    for k in range(40):
        world = env.game.resample_hidden(env.state, 0, random.Random(k))
        assert world.hands[0] == env.state.hands[0] and world.discarded[0] == env.state.discarded[0]
        assert world.pile == ids("L1 L2") and world.drawn == env.state.drawn
        assert sorted([c for hand in world.hands for c in hand] + world.deck + world.pile) == list(range(45))
        hands_seen.add(tuple(world.hands[1]))
    assert len(hands_seen) > 30


def test_resampling_after_a_reshuffle_puts_the_seats_discards_only_where_they_can_be():
    env = make(num_players=6)
    dealt(env, {0: "L1 L2 L3 L4 L5 L6", 1: "S1 S2 S3 S4 S5 S6"}, seed=2)
    draw_all(env, ["L1 L2 L3 L4 L5 L6", "S1 S2 S3 S4 S5 S6", ""])
    own = set(ids("L1 L2 L3 L4 L5 L6"))
    for k in range(30):
        world = env.game.resample_hidden(env.state, 0, random.Random(k))
        assert world.discarded[0] == sorted(own) and not own & set(world.pile)
        assert not own & set(world.hands[2])  # seat 2 drew after the reshuffle but kept its own six
        assert own <= set(world.deck) | set(world.hands[1])
        assert world.pile_owner == [1] * 6 and world.reshuffles == [[1, 6]]
        assert sorted(world.discarded[1]) == sorted(world.pile)


def test_resampling_the_drawing_seat_picks_again_from_its_new_hand():
    env = make(num_players=2)
    env.reset(seed=3)
    for card in env.state.hands[0][:3]:
        env.step(card)
    world = env.game.resample_hidden(env.state, 1, random.Random(0))
    assert len(world.picked) == 3 and set(world.picked) <= set(world.hands[0])
    assert env.game.legal_actions(world)[-1] == DONE


def test_the_hands_shown_at_the_showdown_are_kept():
    env = make(betting=False)
    env.reset(seed=6)
    draw_all(env, ["", ""])
    for k in range(5):
        world = env.game.resample_hidden(env.state, 0, random.Random(k))
        assert world.hands == env.state.hands
    env = make()
    env.reset(seed=6)
    draw_all(env, ["", ""])
    env.step(48)
    env.step(46)  # a hand won by a fold is never shown
    changed = {tuple(env.game.resample_hidden(env.state, 0, random.Random(k)).hands[1]) for k in range(5)}
    assert len(changed) > 1


def test_a_rebuilt_state_gives_the_same_view_after_reshuffles():
    env = make(num_players=6)
    env.reset(seed=8)
    for _ in range(4):
        for card in env.state.hands[env.state.to_act]:
            env.step(card)
        env.step(DONE)
    for seat in range(6):
        view = env.observe_json(f"player_{seat}")
        twin = make(num_players=6)
        assert twin.load_view(json.loads(json.dumps(view))) == f"player_{seat}"
        assert np.array_equal(
            twin.observe(f"player_{seat}")["observation"], env.observe(f"player_{seat}")["observation"]
        )
