"""Dealing unseen cards again, for `Game.resample_hidden`: every deal that fits what a seat knows is equally likely."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from math import factorial


@dataclass(frozen=True)
class Place:
    """Somewhere unseen cards lie (a hand, a face-down pile, the stock).

    How many, and the cards known not to be there."""

    size: int
    refuses: Collection[int] = frozenset()


def deal_unseen(cards: Sequence[int], places: Sequence[Place], rng: random.Random) -> list[list[int]]:
    """Deal `cards` into `places` (their sizes add up to the number of cards), uniformly at random
    among the deals in which no place gets a card it refuses; each place's cards come in random order.

    Cards refused by the same places are interchangeable for counting, so the deals are counted
    and drawn kind by kind (exactly, with integers); the kind allowed in most places comes last
    and fills what is left. The deal is a function of the set of cards, the places and `rng`: the
    order `cards` come in does not matter, so a seat's worlds never depend on where its unseen cards
    really lie. ValueError when no deal fits.
    """
    if sum(place.size for place in places) != len(cards):
        raise ValueError(f"{len(cards)} unseen cards for places holding {sum(place.size for place in places)}")
    if not cards:
        return [[] for _ in places]
    kinds: dict[tuple[int, ...], list[int]] = {}
    for card in sorted(cards):  # the deal depends on which cards are unseen, never on where they lie
        allowed = tuple(i for i, place in enumerate(places) if card not in place.refuses)
        kinds.setdefault(allowed, []).append(card)
    order = sorted(kinds, key=lambda allowed: (len(allowed), len(kinds[allowed]), allowed))
    counts = _DealCounter(tuple((allowed, len(kinds[allowed])) for allowed in order), len(places))
    room = [place.size for place in places]
    if counts.deals(0, tuple(room)) == 0:
        raise ValueError("no deal of the unseen cards fits what is known")
    dealt: list[list[int]] = [[] for _ in places]
    for k, allowed in enumerate(order):
        split = counts.draw_split(k, tuple(room), rng)
        pile = kinds[allowed][:]
        rng.shuffle(pile)
        for place, n in zip(allowed, split):
            dealt[place] += pile[:n]
            del pile[:n]
            room[place] -= n
    for pile in dealt:
        rng.shuffle(pile)
    return dealt


class _DealCounter:
    """Counts the deals of kinds k.. of cards into the room left in each place."""

    def __init__(self, kinds: tuple[tuple[tuple[int, ...], int], ...], num_places: int):
        self.kinds = kinds
        self.num_places = num_places
        self.deals = cache(self._deals)

    def _deals(self, k: int, room: tuple[int, ...]) -> int:
        allowed, count = self.kinds[k]
        if k == len(self.kinds) - 1:
            fits = sum(room) == count and all(room[i] == 0 for i in range(self.num_places) if i not in allowed)
            return _multinomial([room[i] for i in allowed]) if fits else 0
        return sum(ways for ways, _split in self._weighted_splits(k, room))

    def _weighted_splits(self, k: int, room: tuple[int, ...]):
        """(number of deals, split) for each way to share kind k among its places."""
        allowed, count = self.kinds[k]
        for split in _splits(count, [room[i] for i in allowed]):
            rest = list(room)
            for i, n in zip(allowed, split):
                rest[i] -= n
            ways = _multinomial(split) * self.deals(k + 1, tuple(rest))
            if ways:
                yield ways, split

    def draw_split(self, k: int, room: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        """How many cards of kind k go to each of its places, drawn with the weight of the deals it leaves."""
        if k == len(self.kinds) - 1:
            return tuple(room[i] for i in self.kinds[k][0])
        pick = rng.randrange(self.deals(k, room))
        for ways, split in self._weighted_splits(k, room):
            if pick < ways:
                return split
            pick -= ways
        raise AssertionError("the splits add up to the count of deals")


def _splits(count: int, room: list[int]):
    """Every way to share `count` cards among piles with this much room each."""
    if len(room) == 1:
        if count <= room[0]:
            yield (count,)
        return
    for n in range(min(room[0], count) + 1):
        for rest in _splits(count - n, room[1:]):
            yield (n, *rest)


def _multinomial(parts: Sequence[int]) -> int:
    """Ways to share sum(parts) distinct cards into piles of these sizes."""
    ways = factorial(sum(parts))
    for n in parts:
        ways //= factorial(n)
    return ways
