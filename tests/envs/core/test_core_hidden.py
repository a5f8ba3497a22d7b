"""Dealing unseen cards again (envs/core/hidden.py): every deal that fits what is known, equally often."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from cardarena.envs.core.hidden import Place, deal_unseen
from hypothesis import given, settings
from hypothesis import strategies as st


def _fitting_deals(cards: list[int], places: list[Place]) -> set[tuple[frozenset[int], ...]]:
    """Every deal (each place's set of cards) in which no place gets a card it refuses, by brute force."""
    found = set()
    for order in permutations(cards):
        piles, start = [], 0
        for place in places:
            piles.append(frozenset(order[start : start + place.size]))
            start += place.size
        if all(not pile & set(place.refuses) for pile, place in zip(piles, places, strict=True)):
            found.add(tuple(piles))
    return found


def test_each_fitting_deal_is_equally_likely():
    # Two hands that showed out of some cards, a one-card discard and a pile: 87 fitting deals.
    cards = list(range(7))
    places = [Place(2, {0, 1, 2}), Place(2, {3, 4}), Place(1), Place(2, {6})]
    fitting = _fitting_deals(cards, places)
    rng = random.Random(7)
    draws = 6_000
    counts = Counter(tuple(frozenset(pile) for pile in deal_unseen(cards, places, rng)) for _ in range(draws))
    assert set(counts) == fitting
    expected = draws / len(fitting)
    assert all(abs(n - expected) < 5 * expected**0.5 for n in counts.values()), counts


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.integers(0, 5), min_size=1, max_size=5))
def test_a_deal_keeps_sizes_and_cards_and_refuses_nothing_it_must(seed, sizes):
    """Refusals drawn around a true deal (so one deal fits): the new deal honours them all."""
    rng = random.Random(seed)
    cards = rng.sample(range(60), sum(sizes))
    truth, start = [], 0
    for size in sizes:
        truth.append(cards[start : start + size])
        start += size
    places = [
        Place(size, {card for card in cards if card not in held and rng.random() < 0.5})
        for size, held in zip(sizes, truth, strict=True)
    ]
    dealt = deal_unseen(cards, places, rng)
    assert [len(pile) for pile in dealt] == sizes
    assert sorted(card for pile in dealt for card in pile) == sorted(cards)
    for pile, place in zip(dealt, places, strict=True):
        assert not set(pile) & set(place.refuses)


def test_a_pile_comes_in_random_order():
    orders = {tuple(deal_unseen([1, 2, 3], [Place(3)], random.Random(seed))[0]) for seed in range(60)}
    assert len(orders) == 6


def test_no_cards_deal_empty_places():
    assert deal_unseen([], [Place(0), Place(0)], random.Random(0)) == [[], []]


def test_sizes_that_do_not_hold_the_cards_are_refused():
    with pytest.raises(ValueError, match="3 unseen cards for places holding 2"):
        deal_unseen([1, 2, 3], [Place(1), Place(1)], random.Random(0))


def test_knowledge_no_deal_fits_is_refused():
    with pytest.raises(ValueError, match="no deal"):
        deal_unseen([1, 2], [Place(1, {1, 2}), Place(1)], random.Random(0))
