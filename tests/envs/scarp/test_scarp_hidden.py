"""Scarp's hidden information: the deck pick is seen by its picker only, `resample_hidden` deals
the deck and the opponent's unseen cards again and keeps what the seat has seen."""

from __future__ import annotations

import random

import numpy as np
from cardarena.envs.scarp import game as scarp
from scarp_support import challenge, codes, ids, laid_out, make, pick, play


def at_deck_pick():
    env = laid_out(make(), 0, ["L1 L2 L3 L4 L5 L6 S2", "S7 S8 H7 H8 D1"], pile="D7 H9", deck="D2")
    play(env, scarp.EMP, pick("L1"), pick("L2"), pick("L3"), pick("H9"))
    play(env, scarp.DOUBLE_SHRIKE, pick("L4"), pick("L5"), pick("L6"))
    assert env.state.phase == scarp.DECK_PICK
    return env


def test_the_deck_pick_is_seen_by_its_picker_only():
    env = at_deck_pick()
    seat_view = env.observe_json("player_0")
    assert sorted(seat_view["deck"]) == sorted(codes(env.state.deck))
    assert env.observe_json("player_1")["deck"] is None
    assert codes(env.state.known[0]) == codes(env.state.hands[1])  # seeing the deck, she knows the rest
    chosen = env.state.deck[5]
    code = codes([chosen])[0]
    env.step(scarp.FIRST_PICK + chosen)
    mine, theirs = env.history(0)[-2:], env.history(1)
    assert [e for e in mine if e["kind"] == "action"][-1]["private"] == {"label": f"pick {code}"}
    last = [e for e in theirs if e["kind"] == "action"][-1]
    assert last["label"] == "pick from deck" and "private" not in last
    assert (
        code not in str(theirs[-3:])
        and code not in env.observe_json("player_1")["hand"] + env.observe_json("player_1")["opponent_known"]
    )


def test_two_deck_picks_look_the_same_to_the_opponent():
    seen = set()
    for index in (0, 7):
        env = at_deck_pick()
        env.step(scarp.FIRST_PICK + sorted(env.state.deck)[index])
        observation = env.observe("player_1")["observation"].tobytes()
        seen.add((observation, str(env.history(1))))
    assert len(seen) == 1


def test_resampling_during_the_pickers_deck_pick_keeps_the_deck_contents():
    env = at_deck_pick()
    state, game, rng = env.state, env.game, random.Random(1)
    for _ in range(20):
        world = game.resample_hidden(state, 0, rng)
        assert sorted(world.deck) == sorted(state.deck) and world.hands == state.hands
    changed = False
    for _ in range(20):
        world = game.resample_hidden(state, 1, rng)
        assert world.hands[1] == state.hands[1] and set(state.known[1]) <= set(world.hands[0])
        changed |= world.hands[0] != state.hands[0]
    assert changed


def test_resampling_keeps_what_the_seat_has_seen_in_the_other_hand():
    env = laid_out(make(), 0, ["L8 S5 H1 L2 D4 D6", "GHOST S2 D9 H7 L1"])
    play(env, challenge("L8", 0), scarp.GHOST_ANSWER)
    state, game, rng = env.state, env.game, random.Random(2)
    for _ in range(10):
        assert game.resample_hidden(state, 1, rng).hands[0] == state.hands[0]  # access: the whole hand is seen
    worlds = [game.resample_hidden(state, 0, rng) for _ in range(30)]
    assert all(world.hands[0] == state.hands[0] and len(world.hands[1]) == 4 for world in worlds)
    assert len({tuple(world.hands[1]) for world in worlds}) > 1
    observation = env.encoder.observation(state, 0)
    assert all(np.array_equal(env.encoder.observation(world, 0), observation) for world in worlds)


def test_resampling_keeps_displayed_answer_picks_and_a_finishable_answer():
    env = laid_out(make(), 0, ["L8 D2 D3", "S6 H2 S3 H5 L9 D9"])
    play(env, challenge("L8", 0), pick("S6"))
    state, game, rng = env.state, env.game, random.Random(3)
    for _ in range(30):
        world = game.resample_hidden(state, 0, rng)
        assert ids("S6")[0] in world.hands[1]
        assert game.legal_actions(world), "the opponent can still finish her answer"


def test_resampling_lets_an_opponent_finish_her_combination():
    env = laid_out(make(), 1, ["S1 S2", "L1 L2 L3 H4 H5 D9"])
    play(env, scarp.EMP, pick("L1"))
    state, game, rng = env.state, env.game, random.Random(4)
    for _ in range(30):
        world = game.resample_hidden(state, 0, rng)
        assert ids("L1")[0] in world.hands[1] and game.legal_actions(world)
