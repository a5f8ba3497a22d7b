"""Hypothesis properties of the Piktas environment over random deals, every variant flag and
table sizes 2-11: random legal play never raises, masks are the rulebook's legal ids (4.6),
cards and chips are conserved, the episode length is bounded (4.1, 6.3), returns are zero-sum
(7); cards taken from the field are public (9). (Replays, round trips and hidden information
are in tests/envs/test_conformance.py for every game.)

The default run plays a few hundred episodes; the `slow` marker plays thousands.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from cardarena.envs.piktas import rules
from cardarena.envs.piktas.encode import NUM_CARDS, SLICES
from cardarena.envs.piktas.game import BETTING, EXCHANGE
from cardarena.envs.piktas.rules import DECK, FIRST_VOID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from piktas_env_support import done, exchange_id, make, mask_ids

BETTING_IDS = {"stay": 31, "match": 32, "raise": 33, "fold": 34}


def _settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _sizes(default: int, slow: int) -> list:
    """Example counts: the default run's, and the `slow` run's thousands of hands."""
    return [pytest.param(default, id="default"), pytest.param(slow, id="slow", marks=pytest.mark.slow)]


def _hypothesis(check, examples: int, **strategies) -> None:
    """Run `check` as a hypothesis test drawing `strategies`, `examples` times."""
    _settings(examples)(given(**strategies)(check))()


seeds = st.integers(0, 2**32 - 1)


@st.composite
def configs(draw) -> dict:
    """A table of 2-11 seats with every variant flag drawn; gambling stacks small enough to eliminate."""
    n = draw(st.integers(2, 11))
    use_voids = draw(st.booleans())
    config = {
        "num_players": n,
        "dealer": draw(st.integers(0, n - 1)),
        "num_hands": draw(st.integers(1, 3)),
        "use_voids": use_voids,
        "wild_voids": use_voids and draw(st.booleans()),
        "trump_multi_unit": draw(st.booleans()),
        "highest_unit_only": draw(st.booleans()),
    }
    if draw(st.booleans()):
        config["reward_mode"] = draw(st.sampled_from(["score_diff", "win"]))
        return config
    buy_in = draw(st.integers(1, 15))
    return {
        **config,
        "mode": "gambling",
        "buy_in": buy_in,
        "starting_stack": draw(st.integers(buy_in, 8 * buy_in)),
        "bet_size": draw(st.integers(1, 15)),
        "max_bets": draw(st.integers(0, 4)),
    }


# ---------------------------------------------------------------- the rulebook's masks, written out


def _uncovered(stack: list[int]) -> bool:
    return len(stack) == 1 and stack[0] < FIRST_VOID


def _exchange_ids(hand: list[int], field: list[list[int]]) -> list[int]:
    """4.6: pass, and every (hand slot, uncovered position) pair."""
    return [0] + sorted(
        exchange_id(slot, j) for slot in range(len(hand)) for j, stack in enumerate(field) if _uncovered(stack)
    )


def _betting_ids(state, config: dict) -> list[int]:
    bets = state.bets
    options = rules.betting_actions(
        bets["current_bet"],
        bets["contributions"],
        bets["stacks"],
        bets["folded"],
        bets["to_act"][0],
        raise_amount=config["bet_size"],
        max_raises=config["max_bets"],
    )
    return sorted(BETTING_IDS[name] for name in options)


def _codes(cards) -> list[str]:
    return [DECK[card] for card in cards]


def _check_decision(env, config: dict) -> list[int]:
    """The acting seat's mask is the rulebook's legal set, with at least two ids; the others have none."""
    state, agent = env.state, env.agent_selection
    seat = int(agent.split("_")[1])
    legal = mask_ids(env)
    assert legal == env.game.legal_actions(state)
    if state.phase == EXCHANGE:
        hand = state.hands[seat]
        assert legal == _exchange_ids(hand, state.field)
        labels = sorted(env.action_label(action) for action in legal)
        assert labels == rules.legal_actions(_codes(hand), [_codes(stack) for stack in state.field])
    else:
        assert state.phase == BETTING and legal == _betting_ids(state, config)
    assert len(legal) >= 2
    for other in env.agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()
    seen = env.observe(agent)
    assert env.observation_space(agent).contains(seen)
    return legal


def _check_cards(state, deck_size: int) -> None:
    """Every card of the deck is in exactly one hand, field position or the deck; taken cards are held."""
    cards = [card for hand in state.hands for card in hand] + [card for stack in state.field for card in stack]
    cards += state.deck
    assert sorted(cards) == list(range(deck_size))
    for hand, taken in zip(state.hands, state.taken, strict=True):
        assert set(taken) <= set(hand)
    for seat, active in enumerate(state.active):
        assert len(state.hands[seat]) == 0 if not active else 4 <= len(state.hands[seat]) <= 6


def _check_showdown(record: dict, flags: dict) -> None:
    """The recorded evaluations are the Checkable API's, and the winners its best seats."""
    field = _codes(card for stack in record["field"] for card in stack)
    shown = {int(seat): _codes(hand) for seat, hand in record["hands"].items()}
    for seat, hand in shown.items():
        assert tuple(record["evaluations"][str(seat)]) == rules.evaluate(hand, field, **flags)
    if len(shown) > 1:
        seats = sorted(shown)
        best = rules.winners([shown[seat] for seat in seats], field, **flags)
        assert sorted(record["winners"]) == [seats[i] for i in best]


class Round:
    """Counts one round's exchange turns and betting decisions."""

    def __init__(self, state):
        self.number, self.seats = state.round_number, sum(state.active)
        self.exchanges, self.bets = [0] * len(state.active), 0

    def count(self, state, seat: int) -> None:
        if state.phase == EXCHANGE:
            self.exchanges[seat] += 1
        else:
            self.bets += 1

    def check(self, active: list[bool], max_raises: int) -> None:
        assert self.exchanges == [3 if seat_in else 0 for seat_in in active]
        assert self.bets <= self.seats + max_raises * (self.seats - 1)


def _play_checked(config: dict, seed: int, policy: int) -> None:
    """One random episode, checked at every step against the rulebook."""
    env = make(**config)
    env.reset(seed=seed)
    rng = random.Random(policy)
    gambling = config.get("mode") == "gambling"
    deck_size = len(DECK) if config["use_voids"] else FIRST_VOID
    flags = {key: config[key] for key in ("trump_multi_unit", "highest_unit_only", "wild_voids")}
    bank = config.get("starting_stack", 0) * config["num_players"]
    returns = dict.fromkeys(env.possible_agents, 0.0)
    current = Round(env.state)
    active = list(env.state.active)
    while env.agents:
        agent = env.agent_selection
        returns[agent] += env.last()[1]
        if done(env):
            env.step(None)
            continue
        state = env.state
        _check_cards(state, deck_size)
        if gambling:
            assert sum(state.chips) + state.pot == bank
        legal = _check_decision(env, config)
        current.count(state, int(agent.split("_")[1]))
        env.step(rng.choice(legal))
        if env.state.round_number != current.number:
            current.check(active, config.get("max_bets", 0))
            _check_showdown(env.state.showdowns[-1], flags)
            current, active = Round(env.state), list(env.state.active)
    state = env.state
    assert state.terminal
    rounds = len(state.showdowns)
    if gambling:
        assert sum(state.chips) == bank and state.pot == 0
        assert rounds == config["num_hands"] or sum(chips >= config["buy_in"] for chips in state.chips) < 2
        assert state.returns == [chips - config["starting_stack"] for chips in state.chips]
    else:
        assert rounds == config["num_hands"]
    assert [returns[agent] for agent in env.possible_agents] == pytest.approx(state.returns)
    assert sum(state.returns) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("examples", _sizes(150, 2500))
def test_random_play_follows_the_rulebook(examples):
    _hypothesis(_play_checked, examples, config=configs(), seed=seeds, policy=seeds)


# ---------------------------------------------------------------- hidden information (9)


def test_cards_taken_from_the_field_are_public():
    """A card a seat took from the field and still holds is in the others' view; giving it back removes it."""
    env = make(num_players=3, dealer=0)
    env.reset(seed=12)
    taken_card = env.state.field[0][0]
    env.step(exchange_id(0, 0))  # seat 1 takes position 0
    code = DECK[taken_card]
    for agent in ("player_0", "player_2"):
        assert env.observe_json(agent)["held_from_field"][1] == [code]
    obs = env.observe("player_0")["observation"]
    held = obs[SLICES["held_by_opponents"]]
    assert held.shape == (NUM_CARDS,) and np.flatnonzero(held).tolist() == [taken_card]
