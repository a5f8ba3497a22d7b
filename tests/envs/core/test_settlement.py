"""The settlement against the rulebooks' settlement examples (Tilt, Dividha, Antipoker, Piktas) and its properties.

The games' evaluators are not the engine's: each hand of an example is given here as a key
that ranks it as the rulebook says (larger is better).
"""

from __future__ import annotations

import pytest
from cardarena.envs.core.settlement import Pot, layer_pots, settle, settle_columns, split_pot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# ---------------------------------------------------------------- Tilt 6.6 (keys: (orbit, category, top rank))

PAIR_OF_5S, EIGHT_HIGH = (1, 1, 5), (1, 0, 8)
COMMAND, FOUR_SEVENS, TWO_PAIR = (1, 8, 12), (1, 7, 7), (1, 2, 6)
# Gravity (R28): three hands without an Orbit; an Orbit hand and a better one without
CREW_STRAIGHT_FLUSH, PLANETS_STRAIGHT_FLUSH, COMMAND_NO_ORBIT = (0, 6, 8), (0, 6, 4), (0, 8, 12)
ORBIT_SEVEN_HIGH = (1, 0, 7)


def fine_print(dummy):
    """R19: a contested pot is not paid when the Fine Print hand strictly beats its best hand."""
    return lambda best: not dummy > best


def gravity(best):
    """R28: a contested pot is paid only if its best hand has an Orbit."""
    return best[0] == 1


TILT_EXAMPLES = {
    "E42": (
        {"stakes": [5, 5, 5], "folded": [False] * 3, "keys": [PAIR_OF_5S, EIGHT_HIGH, PAIR_OF_5S], "dealer": 0},
        ([7, 0, 8], [0, 0, 0]),
    ),
    "E43": (
        {
            "stakes": [3, 9, 9, 5],
            "folded": [False, False, False, True],
            "keys": [COMMAND, FOUR_SEVENS, TWO_PAIR, None],
            "dealer": 3,
        },
        ([12, 14, 0, 0], [0, 0, 0, 0]),
    ),
    "E44-fine-print-wins": (
        {
            "stakes": [7, 7, 3],
            "folded": [False, False, True],
            "keys": [PAIR_OF_5S, EIGHT_HIGH, None],
            "dealer": 0,
            "pays": fine_print((1, 1, 7)),
        },
        ([0, 0, 0], [7, 7, 3]),
    ),
    "E44-fine-print-loses": (
        {
            "stakes": [7, 7, 3],
            "folded": [False, False, True],
            "keys": [PAIR_OF_5S, EIGHT_HIGH, None],
            "dealer": 0,
            "pays": fine_print((1, 1, 4)),
        },
        ([17, 0, 0], [0, 0, 0]),
    ),
    "E45-gravity-contested": (
        {
            "stakes": [4, 4, 4],
            "folded": [False] * 3,
            "keys": [CREW_STRAIGHT_FLUSH, PLANETS_STRAIGHT_FLUSH, COMMAND_NO_ORBIT],
            "dealer": 1,
            "pays": gravity,
        },
        ([0, 0, 0], [4, 4, 4]),
    ),
    "E45-gravity-uncontested": (
        {
            "stakes": [1, 9, 1],
            "folded": [True, False, True],
            "keys": [None, (0, 0, 5), None],
            "dealer": 0,
            "pays": gravity,
        },
        ([0, 11, 0], [0, 0, 0]),
    ),
    "E46": (
        {
            "stakes": [3, 3, 0],
            "folded": [False, False, True],
            "keys": [ORBIT_SEVEN_HIGH, CREW_STRAIGHT_FLUSH, None],
            "dealer": 0,
            "pays": gravity,
            "carry": [4, 4, 4],
        },
        ([18, 0, 0], [0, 0, 0]),
    ),
}


@pytest.mark.parametrize("example", sorted(TILT_EXAMPLES), ids=lambda e: f"tilt-{e}")
def test_tilt_settlement_examples(example):
    args, (payouts, unpaid) = TILT_EXAMPLES[example]
    dealer = args.pop("dealer")
    result = settle(first_seat=(dealer + 1) % len(args["stakes"]), **args)
    assert (result.payouts, result.unpaid) == (payouts, unpaid)
    assert sum(payouts) + sum(unpaid) == sum(args["stakes"]) + sum(args.get("carry") or [])


def test_tilt_e43_side_pots():
    assert layer_pots([3, 9, 9, 5], [False, False, False, True]) == [
        Pot((3, 3, 3, 3), (0, 1, 2)),
        Pot((0, 6, 6, 2), (1, 2)),
    ]
    assert settle([3, 9, 9, 5], [False, False, False, True], [COMMAND, FOUR_SEVENS, TWO_PAIR, None], 0).winners == [
        [0],
        [1],
    ]


def test_tilt_last_pot_takes_folded_chips_above_the_highest_live_stake():
    pots = layer_pots([4, 2, 9], [False, False, True])
    assert [pot.amount for pot in pots] == [6, 9] and [pot.eligible for pot in pots] == [(0, 1), (0,)]


def test_tilt_carried_chips_go_into_pot_1_and_stay_unpaid_with_it():
    result = settle([2, 5, 5], [False] * 3, [(0, 1), (0, 9), (0, 3)], 0, pays=gravity, carry=[1, 0, 2])
    assert result.payouts == [0, 0, 0] and result.unpaid == [3, 5, 7] and result.winners == [[], []]


def test_an_unpaid_side_pot_leaves_the_other_pots_paid():
    keys = [(1, 9), (0, 9), (0, 2)]  # the side pot of seats 1 and 2 has no Orbit hand
    result = settle([3, 9, 9], [False] * 3, keys, 0, pays=gravity)
    assert result.payouts == [9, 0, 0] and result.unpaid == [0, 6, 6]


# ---------------------------------------------------------------- Dividha 6.6 (keys: category ranks)

HIGH_CARD, PAIR_OF_QUEENS, THREE_KINGS, STRAIGHT, FULL_HOUSE = 0, 1, 3, 4, 6

DIVIDHA_EXAMPLES = {
    "E46-stalemate-best-on-lose": (([1, 9], [9, 1], [FULL_HOUSE, HIGH_CARD], 0), [10, 10]),
    "E46-stalemate-best-on-win": (([1, 9], [9, 1], [HIGH_CARD, FULL_HOUSE], 0), [10, 10]),
    "E46-both-on-win": (([9, 9], [1, 1], [FULL_HOUSE, HIGH_CARD], 0), [18, 2]),
    "E47-folded-money-and-layers": (([1, 5, 9], [9, 5, 1], [FULL_HOUSE, HIGH_CARD, None], 1), [7, 23, 0]),
    "E48-tie-for-best": (([3, 3, 3], [1, 1, 1], [HIGH_CARD, STRAIGHT, STRAIGHT], 0), [3, 5, 4]),
    "E48-tie-for-worst": (([1, 1, 1], [2, 2, 1], [STRAIGHT, STRAIGHT, FULL_HOUSE], 2), [3, 2, 3]),
    "E50-all-in-small-win-stake": (([4, 10, 10], [1, 1, 1], [FULL_HOUSE, PAIR_OF_QUEENS, HIGH_CARD], 0), [12, 12, 3]),
    "E52-settle-line": (([1, 7, 2], [1, 1, 6], [None, THREE_KINGS, HIGH_CARD], 0), [0, 10, 8]),
}


def dividha_settle(win, lose, keys, dealer, folded=None, forfeit=0):
    """Dividha's settle (6.6) on the engine: the Win column to the best hand, the Lose column to the worst."""
    folded = [key is None for key in keys] if folded is None else folded
    columns = [(win, "best"), (lose, "worst")]
    return settle_columns(columns, folded, keys, (dealer + 1) % len(keys), forfeit=forfeit).payouts


@pytest.mark.parametrize("example", sorted(DIVIDHA_EXAMPLES), ids=lambda e: f"dividha-{e}")
def test_dividha_settlement_examples(example):
    args, payouts = DIVIDHA_EXAMPLES[example]
    assert dividha_settle(*args) == payouts
    assert sum(payouts) == sum(args[0]) + sum(args[1])


def test_dividha_e49_last_seat_standing_takes_both_columns_without_a_key():
    assert dividha_settle([3, 1, 1], [1, 1, 3], [None, None, None], 0, folded=[True, False, True]) == [0, 10, 0]


def test_dividha_e51_forfeit_goes_to_the_best_hand():
    assert dividha_settle([1, 1], [1, 1], [FULL_HOUSE, HIGH_CARD], 0, forfeit=7) == [9, 2]


def test_dividha_e47_layers_and_winners_per_column():
    result = settle_columns(
        [([1, 5, 9], "best"), ([9, 5, 1], "worst")], [False, False, True], [FULL_HOUSE, HIGH_CARD, None], 2
    )
    assert result.winners == [[0], [1], [1], [0]]  # Win: levels 1, 5; Lose: levels 5, 9


# ---------------------------------------------------------------- Antipoker and Piktas


def test_antipoker_e39_tie_splits_fractional_chips():
    result = settle([5, 5, 1], [False, False, True], [21, 21, None], 0, fractional=True)
    assert result.payouts == [5.5, 5.5, 0.0]


@pytest.mark.parametrize(
    ("args", "payout"),
    [((45, [0, 2], 2, 4), [22, 0, 23, 0]), ((40, [3], 1, 4), [0, 0, 0, 40]), ((7, [0, 1, 3], 3, 4), [2, 2, 0, 3])],
    ids=["piktas-E40a", "piktas-E40b", "odd-chips-wrap-clockwise"],
)
def test_split_pot_gives_odd_chips_clockwise_from_the_first_seat(args, payout):
    assert split_pot(*args) == payout


def test_piktas_single_level_pot_gives_split_pot_numbers():
    stakes, folded, keys = [30, 30, 20, 30], [False, False, True, False], [(5, 1), (7, 0), None, (7, 0)]
    assert settle(stakes, folded, keys, 2).payouts == split_pot(110, [1, 3], 2, 4) == [0, 55, 0, 55]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "kwargs", "named"),
    [
        (([1, 2], [False], [0, 0], 0), {}, "one entry per seat"),
        (([1, -2], [False, False], [0, 0], 0), {}, ">= 0"),
        (([1, 2], [True, True], [0, 0], 0), {}, "not folded"),
        (([1, 2], [False, False], [0, None], 0), {}, "hand key"),
        (([1, 2], [False, False], [0, 0], 2), {}, "first_seat"),
        (([1, 2], [False, False], [0], 0), {}, "keys"),
        (([1, 2], [False, False], [0, 0], 0), {"forfeit": -1}, "forfeit"),
    ],
)
def test_bad_input_names_the_problem(args, kwargs, named):
    with pytest.raises(ValueError, match=named):
        settle(*args, **kwargs)


def test_split_pot_needs_a_winner():
    with pytest.raises(ValueError, match="winner"):
        split_pot(10, [], 0, 3)


# ---------------------------------------------------------------- properties


@st.composite
def hands(draw, max_players: int = 7, max_stake: int = 20):
    """A hand at showdown: stakes, folded flags (at least one seat live), keys with ties, a first seat."""
    n = draw(st.integers(2, max_players))
    stakes = draw(st.lists(st.integers(0, max_stake), min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda flags: not all(flags)))
    keys = [None if out else draw(st.integers(0, 3)) for out in folded]
    return stakes, folded, keys, draw(st.integers(0, n - 1))


def _settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_pays_out_the_pot(hand, carry, forfeit, pick, unpaid_keys, fractional):
    stakes, folded, keys, first = hand
    carry = (carry + [0] * len(stakes))[: len(stakes)] if carry else None
    pays = (lambda key: key not in unpaid_keys) if unpaid_keys else None
    result = settle(
        stakes, folded, keys, first, pick=pick, carry=carry, pays=pays, fractional=fractional, forfeit=forfeit
    )
    total = sum(stakes) + sum(carry or []) + forfeit
    assert sum(result.payouts) + sum(result.unpaid) == pytest.approx(total)
    assert all(paid == 0 for paid, out in zip(result.payouts, folded, strict=True) if out)
    assert min(result.payouts) >= 0 and min(result.unpaid) >= 0
    assert pays is not None or sum(result.unpaid) == 0
    for pot, winners in zip(layer_pots(stakes, folded, carry), result.winners, strict=True):
        assert set(winners) <= set(pot.eligible)
        if len(pot.eligible) == 1:
            assert winners == list(pot.eligible)  # an uncontested pot is always paid
    live = [seat for seat, out in enumerate(folded) if not out]
    top = max(stakes[seat] for seat in live)
    best = max(keys[seat] for seat in live)
    sole = [seat for seat in live if keys[seat] == best and stakes[seat] == top]
    if pick == "best" and pays is None and len(sole) == 1 and sum(keys[s] == best for s in live) == 1:
        assert result.payouts[sole[0]] == total  # the best hand that covered every stake takes everything


SETTLE_ARGS = (
    hands(),
    st.lists(st.integers(0, 5), max_size=7),
    st.integers(0, 5),
    st.sampled_from(["best", "worst"]),
    st.frozensets(st.integers(0, 3), max_size=2),
    st.booleans(),
)


@_settings(200)
@given(*SETTLE_ARGS)
def test_settlement_pays_out_exactly_the_pot(hand, carry, forfeit, pick, unpaid_keys, fractional):
    check_pays_out_the_pot(hand, carry, forfeit, pick, unpaid_keys, fractional)


@pytest.mark.slow
@_settings(5000)
@given(*SETTLE_ARGS)
def test_settlement_pays_out_exactly_the_pot_slow(hand, carry, forfeit, pick, unpaid_keys, fractional):
    check_pays_out_the_pot(hand, carry, forfeit, pick, unpaid_keys, fractional)


@_settings(200)
@given(hands(), st.lists(st.integers(0, 20), min_size=7, max_size=7), st.integers(0, 9))
def test_column_settlement_pays_out_both_columns_and_the_forfeit(hand, lose, forfeit):
    win, folded, keys, first = hand
    lose = lose[: len(win)]
    result = settle_columns([(win, "best"), (lose, "worst")], folded, keys, first, forfeit=forfeit)
    assert sum(result.payouts) == sum(win) + sum(lose) + forfeit
    assert result.payouts == [
        a + b + c
        for a, b, c in zip(
            settle(win, folded, keys, first).payouts,
            settle(lose, folded, keys, first, pick="worst").payouts,
            settle([0] * len(win), folded, keys, first, forfeit=forfeit).payouts,
            strict=True,
        )
    ]


def test_rest_apart_shares_dead_chips_above_every_live_stake_on_their_own():
    """Dividha 6.6 `rest`: 3 chips of the top layer and 1 dead chip above it are split separately."""
    stakes, folded, keys = [1, 2, 1], [False, True, False], [5, None, 5]
    assert layer_pots(stakes, folded, rest_apart=True) == [Pot((1, 1, 1), (0, 2)), Pot((0, 1, 0), (0, 2))]
    assert settle(stakes, folded, keys, 2, rest_apart=True).payouts == [1, 0, 3]
    assert settle(stakes, folded, keys, 2).payouts == [2, 0, 2]
