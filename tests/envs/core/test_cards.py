"""The core shuffle and full sample: the library's orders for any seed, and uniform."""

from __future__ import annotations

import random
from collections import Counter

from cardarena.envs.core.cards import Deck, sampled, shuffle
from hypothesis import given
from hypothesis import strategies as st


@given(st.integers(0, 2**63 - 1) | st.text(max_size=12), st.integers(0, 140))
def test_shuffle_gives_the_order_of_random_shuffle(seed, size):
    expected, got = list(range(size)), list(range(size))
    random.Random(seed).shuffle(expected)
    shuffle(got, seed)
    assert got == expected


@given(st.integers(0, 2**63 - 1), st.integers(0, 140))
def test_sampled_gives_the_order_of_random_sample_and_leaves_the_stream_where_it_leaves_it(seed, size):
    library, ours = random.Random(seed), random.Random(seed)
    assert sampled(range(size), ours) == library.sample(range(size), size)
    assert ours.getrandbits(64) == library.getrandbits(64)


def test_shuffle_is_uniform_over_the_orders_of_three_cards():
    counts = Counter()
    for seed in range(6000):
        cards = ["a", "b", "c"]
        shuffle(cards, seed)
        counts["".join(cards)] += 1
    assert len(counts) == 6 and all(900 < count < 1100 for count in counts.values()), counts


def test_deck_shuffled_is_a_permutation_fixed_by_its_seed():
    deck = Deck([f"c{i}" for i in range(52)])
    assert sorted(deck.shuffled(7)) == list(range(52))
    assert deck.shuffled(7) == deck.shuffled(7) != deck.shuffled(8)
