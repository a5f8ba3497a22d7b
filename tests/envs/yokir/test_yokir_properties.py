"""Hypothesis properties of the Yokir environment: random play, masks, card conservation,
determinism and hidden-information invariance, in single-hand and match mode.
"""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from yokir_support import PASS, accepted_up_card, make, played_cards

from cardarena.envs.yokir.game import BID1, BID2, DISCARD, OVER, PLAY
from cardarena.envs.yokir.rules import match_winner

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(0, 2**32 - 1)
configs = st.one_of(
    st.fixed_dictionaries({"reward_mode": st.sampled_from(["relative", "points"])}),
    st.fixed_dictionaries(
        {"match": st.just(True), "target_score": st.integers(1, 4), "max_hands": st.integers(1, 8)}
    ),
)


def _done(env) -> bool:
    agent = env.agent_selection
    return env.terminations[agent] or env.truncations[agent]


def _check_cards(state) -> None:
    """Every card is in exactly one place: a hand, out of play, played, the discard or the turned-down up-card."""
    cards = [card for hand in state.hands for card in hand] + list(state.out_of_play) + played_cards(state)
    if state.discard >= 0:
        cards.append(state.discard)
    if not accepted_up_card(state):
        cards.append(state.up_card)
    assert sorted(cards) == list(range(24)), f"cards not conserved: {sorted(cards)}"
    assert len(state.out_of_play) == 8
    if state.phase in (BID1, BID2):  # bidding: nobody holds more or less than five
        assert [len(hand) for hand in state.hands] == [5, 5, 5]
    if state.phase == DISCARD:
        assert len(state.hands[state.caller]) == 6
    if state.phase == PLAY:
        played = [0, 0, 0]
        for leader, *trick, _winner in state.tricks:
            for position in range(3):
                played[(leader + position) % 3] += 1
        for position in range(len(state.trick)):
            played[(state.leader + position) % 3] += 1
        assert [len(hand) + n for hand, n in zip(state.hands, played)] == [5, 5, 5]


@SETTINGS
@given(seed=seeds, config=configs, policy=seeds)
def test_random_play_masks_cards_and_length(seed, config, policy):
    env = make(**config)
    env.reset(seed=seed)
    rng = random.Random(policy)
    steps_in_hand, accepted, hand_number, hands_seen = 0, False, 0, 1
    while not _done(env):
        state = env.state
        legal = env.game.legal_actions(state)
        acting = env.agent_selection
        assert legal, "a live decision point with no legal action"
        for agent in env.possible_agents:
            mask = env.observe(agent)["action_mask"]
            if agent == acting:
                assert mask.nonzero()[0].tolist() == legal
            else:
                assert not mask.any()
        obs = env.observe(acting)["observation"]
        assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
        _check_cards(state)
        action = rng.choice(legal)
        accepted |= state.phase == BID1 and action != PASS
        env.step(action)
        steps_in_hand += 1
        if env.state.hand_number != hand_number or _done(env):
            assert steps_in_hand == 6 or 17 <= steps_in_hand <= (19 if accepted else 21), steps_in_hand
            steps_in_hand, accepted, hand_number = 0, False, env.state.hand_number
            hands_seen += 1 if not _done(env) else 0
        assert steps_in_hand <= 21
    _check_cards(env.state)
    assert env.state.phase == OVER
    for agent in env.possible_agents:
        assert not env.observe(agent)["action_mask"].any()
    if config.get("match"):
        assert env.state.hand_number == hands_seen <= config["max_hands"]
        winner = match_winner(env.state.scores, config["target_score"])
        if winner is None:
            assert all(env.truncations.values()) and env.state.hand_number == config["max_hands"]
            assert set(env.rewards.values()) == {0.0}
        else:
            assert all(env.terminations.values()) and not any(env.truncations.values())
            assert env.rewards == {f"player_{s}": 1.0 if s == winner else -0.5 for s in range(3)}
    elif config["reward_mode"] == "relative":
        assert abs(sum(env.rewards.values())) < 1e-9


def _trace(env, seed, actions):
    env.reset(seed=seed)
    out = []
    for action in actions:
        if _done(env):
            break
        out.append((
            env.agent_selection,
            [env.observe(a)["observation"].tobytes() + env.observe(a)["action_mask"].tobytes() for a in env.possible_agents],
            json.dumps([env.observe_json(a) for a in env.possible_agents]),
        ))
        env.step(action)
        out.append((dict(env.rewards), dict(env.terminations), dict(env.truncations)))
    return out


@SETTINGS
@given(seed=seeds, config=configs, policy=seeds)
def test_same_seed_and_actions_give_the_same_episode(seed, config, policy):
    first = make(**config)
    first.reset(seed=seed)
    rng = random.Random(policy)
    actions = []
    while not _done(first):
        actions.append(rng.choice(first.game.legal_actions(first.state)))
        first.step(actions[-1])
    reference = _trace(first, seed, actions)
    again = make(**config)
    again.reset(seed=seed ^ 1)  # a different episode first: reset(seed) must reseed completely
    for _ in range(3):
        again.step(again.game.legal_actions(again.state)[0])
    assert _trace(again, seed, actions) == reference


# ---------------------------------------------------------------- hidden information


def _mid_state(env, seed, policy, stop):
    """A live state reached by random play, `stop` steps in (or the last live one)."""
    env.reset(seed=seed)
    rng = random.Random(policy)
    live = [env.game.clone(env.state)]
    while not _done(env) and len(live) <= stop:
        env.step(rng.choice(env.game.legal_actions(env.state)))
        if not _done(env):
            live.append(env.game.clone(env.state))
    return live[min(stop, len(live) - 1)]


def _hidden_slots(state, observer):
    """(kind, seat, index) of every card slot `observer` cannot see, except where the up-card is fixed."""
    slots = []
    up_held = accepted_up_card(state)
    for seat in range(3):
        if seat == observer:
            continue
        for i, card in enumerate(state.hands[seat]):
            if not (up_held and card == state.up_card):
                slots.append(("hand", seat, i))
    slots += [("out", -1, i) for i in range(len(state.out_of_play))]
    if state.discard >= 0 and state.caller != observer and state.discard != state.up_card:
        slots.append(("discard", -1, 0))
    return slots


def _get(state, slot):
    kind, seat, i = slot
    return state.hands[seat][i] if kind == "hand" else state.out_of_play[i] if kind == "out" else state.discard


def _put(state, slot, card):
    kind, seat, i = slot
    if kind == "hand":
        state.hands[seat][i] = card
    elif kind == "out":
        state.out_of_play[i] = card
    else:
        state.discard = card


def _private(state):
    """What each seat privately knows: its hand, and the caller its discard."""
    return [(sorted(state.hands[s]), state.discard if s == state.caller else None) for s in range(3)]


def _perturb(game, state, observer, rng):
    """A state `observer` cannot tell from `state`: its unseen cards dealt differently."""
    twin = game.clone(state)
    slots = _hidden_slots(state, observer)
    cards = [_get(state, slot) for slot in slots]
    rng.shuffle(cards)
    for slot, card in zip(slots, cards):
        _put(twin, slot, card)
    if accepted_up_card(state) and state.caller != observer and state.discard >= 0:
        # the up-card is in the caller's hand or discard: which one, only the caller knows
        caller_slots = [("hand", state.caller, i) for i in range(len(twin.hands[state.caller]))] + [("discard", -1, 0)]
        if len(caller_slots) >= 2:
            a, b = rng.sample(caller_slots, 2)
            first, second = _get(twin, a), _get(twin, b)
            _put(twin, a, second)
            _put(twin, b, first)
    if _private(twin) == _private(state):
        hand_slots = [slot for slot in slots if slot[0] == "hand"]
        out = ("out", -1, 0)
        if hand_slots:
            slot = rng.choice(hand_slots)
            first, second = _get(twin, slot), _get(twin, out)
            _put(twin, slot, second)
            _put(twin, out, first)
    return twin


def _view(env, seat):
    agent = f"player_{seat}"
    obs = env.observe(agent)
    return obs["observation"].tobytes(), obs["action_mask"].tobytes(), json.dumps(env.observe_json(agent))


@SETTINGS
@given(seed=seeds, config=configs, policy=seeds, stop=st.integers(0, 60), shuffle=seeds)
def test_observation_does_not_depend_on_unseen_cards(seed, config, policy, stop, shuffle):
    env, twin_env = make(**config), make(**config)
    state = _mid_state(env, seed, policy, stop)
    rng = random.Random(shuffle)
    checked = 0
    for observer in range(3):
        twin = _perturb(env.game, state, observer, rng)
        _check_cards(twin)
        changed = [s for s in range(3) if _private(twin)[s] != _private(state)[s]]
        assert observer not in changed
        if not changed:
            continue
        checked += 1
        env.load_state(env.game.clone(state))
        twin_env.load_state(twin)
        assert _view(twin_env, observer) == _view(env, observer), f"seat {observer} sees its unseen cards"
        for seat in changed:  # the perturbation is real: a seat that holds those cards notices
            assert _view(twin_env, seat)[0] != _view(env, seat)[0]
    assume(checked)
