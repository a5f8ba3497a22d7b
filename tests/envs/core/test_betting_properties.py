"""Properties of the betting engine over random configurations of every style the games use.

Random hands of up to three betting rounds (antes, then rounds that carry stacks, folds and the
pot) under Tilt-, Paycheck-, Dividha-, Antipoker- and Piktas-like rules, played by random legal
choices: the seat to act always has a legal action, chips are conserved, every round ends
within its bound with every live seat that can still bet level with the current bet, and the
settlement of the hand pays out exactly the pot.
"""

from __future__ import annotations

import pytest
from cardarena.envs.core.betting import RAISES, BettingRound, BettingRules
from cardarena.envs.core.settlement import settle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@st.composite
def betting_rules(draw) -> BettingRules:
    style = draw(st.sampled_from(["tilt", "paycheck", "dividha", "antipoker", "piktas"]))
    unit = draw(st.integers(1, 4))
    if style == "tilt":
        return BettingRules(unit=unit, max_bets=draw(st.integers(1, 5)))
    if style == "paycheck":
        return BettingRules(unit=draw(st.integers(0, 2)), max_bets=1, fold="never")
    if style == "dividha":
        limit = draw(st.sampled_from(["fixed", "pot", "no"]))
        cap = draw(st.integers(1, 5)) if limit == "fixed" else None
        return BettingRules(unit=unit, max_bets=cap, limit=limit, short_all_in_raise=True)
    if style == "antipoker":
        limit = draw(st.sampled_from(["fixed", "pot"]))
        return BettingRules(unit=unit, max_bets=draw(st.integers(1, 5)), limit=limit, bankroll="unlimited")
    return BettingRules(
        unit=draw(st.integers(1, 10)), max_bets=draw(st.integers(0, 4)), bankroll="covered", fold="always"
    )


@st.composite
def tables(draw, max_players: int, max_stack: int):
    rules = draw(betting_rules())
    n = draw(st.integers(2, max_players))
    stacks = (
        [0] * n if rules.bankroll == "unlimited" else draw(st.lists(st.integers(0, max_stack), min_size=n, max_size=n))
    )
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda flags: not all(flags)))
    ante = draw(st.integers(0, 3))
    return rules, stacks, folded, ante, draw(st.integers(0, n - 1)), draw(st.integers(1, 3))


def round_bound(rules: BettingRules, n: int, chips: int) -> int:
    """Most actions a round can take: n, plus n - 1 after each bet or raise (at most the cap, or one per chip)."""
    raises = rules.max_bets if rules.max_bets is not None else chips
    return n + raises * (n - 1)


def play_round(bets: BettingRound, rules: BettingRules, data, chips: int) -> None:
    n, pot_before, total = len(bets.stacks), bets.pot, sum(bets.stacks) + bets.pot
    for _ in range(round_bound(rules, n, chips) + 1):
        if bets.finished:
            break
        options = bets.options(rules)
        assert options, f"seat {bets.seat_to_act} has no legal action"
        bets.act(rules, data.draw(st.sampled_from(options)))
        assert sum(bets.stacks) + bets.pot == total and bets.pot - pot_before == sum(bets.contributions)
        assert bets.current_bet == max(bets.contributions)
        assert rules.bankroll == "unlimited" or min(bets.stacks) >= 0
    assert bets.finished, "the round did not end within its bound"
    assert len(bets.history) <= n + bets.bets * (n - 1)
    assert rules.max_bets is None or bets.bets <= rules.max_bets
    assert bets.last_bettor == next((seat for seat, action in reversed(bets.history) if action in RAISES), None)
    if len(bets.live) > 1:
        level = [seat for seat in bets.live if not (rules.bankroll == "stacks" and bets.stacks[seat] == 0)]
        assert all(bets.contributions[seat] == bets.current_bet for seat in level)


def check_hand(table, data) -> None:
    rules, stacks, folded, ante, first, rounds = table
    paid = [
        0 if out else (ante if rules.bankroll == "unlimited" else min(ante, stack))
        for stack, out in zip(stacks, folded, strict=True)
    ]
    stacks = [stack - chips for stack, chips in zip(stacks, paid, strict=True)]
    chips = sum(abs(stack) for stack in stacks)
    pot = sum(paid)
    for _ in range(rounds):
        bets = BettingRound.open(rules, stacks, folded, first, pot)
        play_round(bets, rules, data, chips)
        stacks, folded, pot = bets.stacks, bets.folded, bets.pot
        paid = [before + now for before, now in zip(paid, bets.contributions, strict=True)]
    keys = [None if out else data.draw(st.integers(0, 2)) for out in folded]
    payouts = settle(paid, folded, keys, first).payouts
    assert sum(payouts) == pot == sum(paid)


def _settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_settings(300)
@given(tables(max_players=5, max_stack=12), st.data())
def test_random_hands_keep_every_betting_property(table, data):
    check_hand(table, data)


@pytest.mark.slow
@_settings(5000)
@given(tables(max_players=9, max_stack=60), st.data())
def test_random_hands_keep_every_betting_property_slow(table, data):
    check_hand(table, data)
