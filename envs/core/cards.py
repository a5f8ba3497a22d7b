"""Card and deck helpers shared by every game: canonical codes <-> deck indices."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any


class Deck:
    """A fixed deck of canonical card codes; a card's index is its position in `codes`."""

    def __init__(self, codes: Sequence[str]):
        if len(set(codes)) != len(codes):
            raise ValueError("a deck cannot hold the same code twice")
        self.codes: tuple[str, ...] = tuple(codes)
        self.index: dict[str, int] = {code: i for i, code in enumerate(self.codes)}

    def __len__(self) -> int:
        return len(self.codes)

    def index_of(self, code: str) -> int:
        """Deck index of one card code; ValueError naming the code if it is not a card."""
        try:
            return self.index[code]
        except (KeyError, TypeError):
            raise ValueError(f"unknown card code {code!r}") from None

    def indices_of(self, codes: Iterable[str]) -> list[int]:
        """Deck indices of distinct card codes; ValueError on an unknown code or a repeat."""
        indices = [self.index_of(code) for code in codes]
        if len(set(indices)) != len(indices):
            raise ValueError(f"card listed twice in {list(codes)!r}")
        return indices

    def codes_of(self, indices: Iterable[int]) -> list[str]:
        """Card codes of deck indices, in deck order."""
        return [self.codes[i] for i in sorted(indices)]

    def sorted_codes(self, codes: Iterable[str]) -> list[str]:
        """Card codes sorted in deck order (validating each)."""
        return self.codes_of(self.indices_of(codes))

    def shuffled(self, seed: int) -> list[int]:
        """All deck indices in a uniformly shuffled order determined by `seed`."""
        order = list(range(len(self.codes)))
        shuffle(order, seed)
        return order


def shuffle(cards: list[Any], seed: int | str) -> None:
    """Shuffle `cards` in place, uniformly, in the order `random.Random(seed).shuffle(cards)` gives.

    The same Fisher-Yates draws from the same Mersenne Twister stream, written out: about a third
    faster than the library call (no method call per draw), and fixed here rather than by the
    library's version.
    """
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def sampled(population: Sequence[Any], rng: random.Random) -> list[Any]:
    """`rng.sample(population, len(population))`: the same draws, written out (no method call per draw).

    The library picks from a shrinking pool for a full-length sample; so does this.
    """
    getrandbits = rng.getrandbits
    pool = list(population)
    result = []
    for n in range(len(pool), 0, -1):
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        result.append(pool[j])
        pool[j] = pool[n - 1]
    return result


def hand_seed(deal_seed: int, hand_number: int) -> int:
    """Seed of one hand's shuffle: a match's hands are independent yet replayable from one seed."""
    return (deal_seed * 1_000_003 + hand_number) % (2**63)
