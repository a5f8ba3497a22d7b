"""The brute-force reference scorer reproduces the rulebook's scoring examples (section 11, E1-E32),
so that it can serve as the oracle of the property tests.
"""

from __future__ import annotations

import pytest
from examples_support import example_cases
from piktas_examples import EXAMPLES, split_example
from piktas_reference import reference_evaluate, reference_unit_points, reference_winners

REFERENCE = {
    "unit_points": reference_unit_points,
    "evaluate": reference_evaluate,
    "winners": reference_winners,
}
SCORING = [f"E{n}" for n in range(1, 33)]
CASES = example_cases({example: EXAMPLES[example] for example in SCORING})


@pytest.mark.parametrize("line", CASES)
def test_reference_reproduces_worked_example(line):
    call, expected = split_example(line)
    assert eval(call, dict(REFERENCE)) == eval(expected, {})


def test_wild_void_in_the_field_is_part_of_the_pool():
    """8.2: a field void is wild for the seat; a duplicate identity of a pool card is allowed."""
    assert reference_evaluate(["O7", "W7"], ["V2"], wild_voids=True) == (5, 3, 7, 7)


def test_wild_voids_in_the_hand_count_for_the_full_hand():
    assert reference_evaluate(["V1", "V2"], [], wild_voids=True) == (4, 2, 10, 0)


@pytest.mark.parametrize("kind", ["straight", "", "Duo"])
def test_unknown_kind_is_refused(kind):
    with pytest.raises(ValueError, match="kind"):
        reference_unit_points(kind, ["O7", "W7"])


def test_a_shorter_run_can_free_cards_for_a_suit_run():
    """5.6: K7-K10 capped twice (27) plus the Suit Run K5 K6 and four Sky trumps (10) beat K5-K10 capped (31)."""
    hand, field = ["K5", "K6", "K7", "K8", "K9", "K10"], ["TKU1", "TKM1", "TWK1", "TOK1"]
    assert reference_evaluate(hand, field) == (39, 27, 10, 10)
    assert reference_evaluate(hand, field, trump_multi_unit=False) == (33, 31, 10, 10)
