"""A slow, literal Dividha evaluator (rulebook 5), written from the rulebook alone, to hold the fast one to.

Every subset of 1 to 5 cards, every reading of every card (a wild card as each of the 10 ranks
and each of the 5 suits, a crossed deuce as a 2 or an Ace), every requirement of 5.3 checked
as written, keys as plain tuples. Nothing is shared with the package but the card codes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

SUITS = "HDBVL"
RANKS = "AKQJ765432"
HIGH = dict(zip(RANKS, (14, 13, 12, 11, 7, 6, 5, 4, 3, 2), strict=True))
SUM = dict(zip(RANKS, (1, 10, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
HEAVEN_SIXES = ["6V1", "6V2", "6V3"]
THE_THREE = ["MIN", "RAL", "SAN"]
HEAVEN = [r + "V" for r in "AKQJ7"] + HEAVEN_SIXES + [r + "V" for r in "5432"] + ["GOD"]
HELL = [r + "L" for r in "AKQJ7"] + THE_THREE + [r + "L" for r in "5432"] + ["SATAN"]
MORTAL = [r + s for s in "HDB" for r in RANKS]
DECK = MORTAL + HEAVEN[:-1] + HELL[:-1] + ["GOD", "SATAN"]
WILDS = ("GOD", "SATAN")
STRAIGHTS = [
    ("A", "2", "3", "4", "5"),
    ("2", "3", "4", "5", "6"),
    ("3", "4", "5", "6", "7"),
    ("4", "5", "6", "7", "J"),
    ("5", "6", "7", "J", "Q"),
    ("6", "7", "J", "Q", "K"),
    ("7", "J", "Q", "K", "A"),
]
DIVINE = (12, 1, 2, 0, ())


@dataclass(frozen=True)
class Reading:
    rank: str
    suit: str | None  # None: no suit (a crossed deuce)
    immortal: bool
    sum_value: int
    wild: bool


def natural_rank(code: str) -> str:
    return "6" if code in HEAVEN_SIXES + THE_THREE else code[0]


def natural_suit(code: str) -> str:
    if code in HEAVEN_SIXES:
        return "V"
    if code in THE_THREE:
        return "L"
    return code[-1]


def is_legal(hand: list[str], divine: bool) -> bool:
    for a in hand:
        for b in hand:
            if a in HEAVEN and a != "2V" and b in HELL and b != "2L":
                if not (divine and a == "GOD" and b == "SATAN"):
                    return False
    return True


def readings(code: str, hand: list[str]) -> list[Reading]:
    """Every concrete reading of one card inside `hand` (5.2)."""
    if code in WILDS:
        return [Reading(rank, suit, True, 0, True) for rank in RANKS for suit in SUITS]
    crossed = (code == "2V" and any(c in HELL for c in hand)) or (code == "2L" and any(c in HEAVEN for c in hand))
    if crossed:
        return [Reading("2", None, True, 2, False), Reading("A", None, True, 1, False)]
    suit, immortal = natural_suit(code), code in HEAVEN or code in HELL
    if all(three in hand for three in THE_THREE) and code in MORTAL:
        suit, immortal = "L", True
    rank = natural_rank(code)
    return [Reading(rank, suit, immortal, SUM[rank], False)]


def is_straight(cards: tuple[Reading, ...]) -> tuple[str, ...] | None:
    if len(cards) != 5:
        return None
    ranks = sorted(c.rank for c in cards)
    for run in STRAIGHTS:
        if sorted(run) == ranks:
            return run
    return None


def one_suit(cards: tuple[Reading, ...]) -> bool:
    return len(cards) == 5 and cards[0].suit is not None and all(c.suit == cards[0].suit for c in cards)


def category_and_combination(cards: tuple[Reading, ...]) -> tuple[int, list[Reading]]:
    """The highest requirement of 5.3 the reading meets, and its combination cards."""
    counts = Counter(c.rank for c in cards)
    shape = sorted(counts.values(), reverse=True)
    run = is_straight(cards)
    pure = one_suit(cards)
    everything = list(cards)
    if shape[0] == 5 and pure and not any(c.wild for c in cards):
        return 11, everything
    if run == ("7", "J", "Q", "K", "A") and pure:
        return 10, everything
    if shape[0] == 5:
        return 9, everything
    if run and pure:
        return 8, everything
    if shape[0] == 4:
        rank = next(r for r, k in counts.items() if k == 4)
        return 7, [c for c in cards if c.rank == rank]
    if shape[:2] == [3, 2]:
        return 6, everything
    if pure:
        return 5, everything
    if run:
        return 4, everything
    if shape[0] == 3:
        rank = next(r for r, k in counts.items() if k == 3)
        return 3, [c for c in cards if c.rank == rank]
    if shape[:2] == [2, 2]:
        ranks = {r for r, k in counts.items() if k == 2}
        return 2, [c for c in cards if c.rank in ranks]
    if shape[0] == 2:
        rank = next(r for r, k in counts.items() if k == 2)
        return 1, [c for c in cards if c.rank == rank]
    return 0, everything


def reading_key(cards: tuple[Reading, ...]) -> tuple:
    category, combination = category_and_combination(cards)
    ace_low = category in (4, 8) and is_straight(cards) == STRAIGHTS[0]
    high = tuple(sorted((1 if ace_low and c.rank == "A" else HIGH[c.rank] for c in cards), reverse=True))
    return (
        category,
        int(any(c.wild for c in combination)),
        sum(c.immortal for c in combination),
        sum(c.sum_value for c in cards),
        high,
    )


def hand_key(hand: list[str], divine: bool) -> tuple:
    if divine and "GOD" in hand and "SATAN" in hand:
        return DIVINE
    return max(reading_key(r) for r in itertools.product(*(readings(code, hand) for code in hand)))


def evaluate(cards: list[str], divine: bool = False) -> tuple:
    return showdown(cards, divine)[0]


def showdown(cards: list[str], divine: bool = False) -> tuple[tuple, list[str]]:
    """The best key and the cards shown (most cards, then the smallest sorted deck indices), in deck order."""
    best = None
    for size in range(1, min(5, len(cards)) + 1):
        for hand in itertools.combinations(cards, size):
            if not is_legal(list(hand), divine):
                continue
            key = hand_key(list(hand), divine)
            indices = sorted(DECK.index(c) for c in hand)
            rank = (key, len(hand), [-i for i in indices])
            if best is None or rank > best[0]:
                best = (rank, indices)
    (key, _, _), indices = best
    return key, [DECK[i] for i in indices]


def settle(win, lose, hands, dealer, divine=False, forfeit=0) -> list[int]:
    """The pseudo-code of 6.6, line by line."""
    n = len(hands)
    eligible = [s for s in range(n) if hands[s] is not None]
    key = {s: evaluate(hands[s], divine) for s in eligible} if len(eligible) > 1 else {eligible[0]: ()}
    pay = [0] * n

    def share(amount, winners):
        ordered = sorted(winners, key=lambda s: (s - dealer - 1) % n)
        for i, s in enumerate(ordered):
            pay[s] += amount // len(ordered) + (1 if i < amount % len(ordered) else 0)

    def settle_column(stake, pick):
        prev, winners = 0, []
        for level in sorted({stake[s] for s in eligible}):
            layer = sum(min(stake[j], level) - min(stake[j], prev) for j in range(n))
            contenders = [s for s in eligible if stake[s] >= level]
            target = pick(key[s] for s in contenders)
            winners = [s for s in contenders if key[s] == target]
            share(layer, winners)
            prev = level
        rest = sum(stake[j] - min(stake[j], prev) for j in range(n))
        share(rest, winners)

    settle_column(win, max)
    settle_column(lose, min)
    if forfeit > 0:
        best = max(key[s] for s in eligible)
        share(forfeit, [s for s in eligible if key[s] == best])
    return pay
