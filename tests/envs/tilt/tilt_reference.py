"""A slow, independent reading of the Tilt rulebook's hand evaluation (sections 5.1-5.5).

Written straight from the rules, sharing no code with cardarena.envs.tilt: every wild card is
tried as every one of the 36 card identities (multisets, repeats allowed), every `JUMP` choice
is tried, and every category condition is checked by brute force over cards and suits. The fast
evaluator is held to it by the tests.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

SUITS = "CPSH"
CODES = [f"{suit}{value}" for suit in SUITS for value in range(1, 9)] + [f"K{rank}" for rank in range(9, 13)]
FOUR = [
    "High Card", "One Pair", "Flush", "Straight", "Three of a Kind", "Two Pair", "Parley", "Straight Flush",
    "Four of a Kind", "Command",
]  # fmt: skip  # the rulebook's ranking, low to high, kept dense
SIX = [
    "High Card", "One Pair", "Two Pair", "Three of a Kind", "Parley", "Station", "Straight", "Three Pair", "Flush",
    "Four of a Kind", "Colony", "Command", "Investment", "Convoy", "Redshirts", "Moon", "Straight Flush", "Bridge",
    "Chain of Command",
]  # fmt: skip  # the rulebook's ranking, low to high, kept dense
THREE = ["High Card", "One Pair", "Straight", "Flush", "Three of a Kind", "Straight Flush", "Command"]
TABLES = {4: FOUR, 6: SIX, 3: THREE}
COMMAND_TYPE = {4: {"Command"}, 3: {"Command"}, 6: {"Command", "Redshirts", "Bridge", "Chain of Command"}}
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@dataclass(frozen=True)
class Held:
    """One card of a made hand after wild assignment."""

    rank: int
    cat: frozenset[str]
    haz: frozenset[str]
    command: bool  # the identity is a Command card


def rank_of(code: str) -> int:
    return int(code[1:])


def identity(code: str, hazards: set[str]) -> Held:
    """The attributes of card identity `code` (5.2)."""
    if code[0] == "K":
        return Held(rank_of(code), frozenset(SUITS), frozenset(), True)
    suits = frozenset(SUITS) if code[0] == "C" and "TRST" in hazards else frozenset(code[0])
    return Held(rank_of(code), suits, suits, False)


def is_run(ranks: list[int], size: int) -> bool:
    return len(ranks) == size and len(set(ranks)) == size and max(ranks) - min(ranks) == size - 1


def common_suit(cards: list[Held]) -> bool:
    return any(all(suit in card.cat for card in cards) for suit in SUITS)


def one_x_one_y(a: Held, b: Held, x: str, y: str) -> bool:
    return (x in a.cat and y in b.cat) or (y in a.cat and x in b.cat)


def parley(cards: list[Held]) -> bool:
    """Two ranks, two cards of each chosen, suits X != Y, each chosen pair one X and one Y."""
    for i, j, k, m in itertools.permutations(range(len(cards)), 4):
        a, b, c, d = cards[i], cards[j], cards[k], cards[m]
        if a.rank == b.rank and c.rank == d.rank and a.rank != c.rank:
            if any(one_x_one_y(a, b, x, y) and one_x_one_y(c, d, x, y) for x, y in itertools.permutations(SUITS, 2)):
                return True
    return False


def convoy(cards: list[Held]) -> bool:
    counts = Counter(card.rank for card in cards)
    if len(cards) != 6 or sorted(counts.values()) != [2, 2, 2]:
        return False
    pairs = [[card for card in cards if card.rank == rank] for rank in counts]
    return any(all(one_x_one_y(p[0], p[1], x, y) for p in pairs) for x, y in itertools.permutations(SUITS, 2))


def moon(cards: list[Held]) -> bool:
    counts = Counter(card.rank for card in cards)
    if len(cards) != 6 or sorted(counts.values()) != [3, 3]:
        return False
    triples = [[card for card in cards if card.rank == rank] for rank in counts]
    for suits in itertools.permutations(SUITS, 3):
        if all(
            any(all(s in c.cat for s, c in zip(suits, order, strict=True)) for order in itertools.permutations(t))
            for t in triples
        ):
            return True
    return False


def redshirts(cards: list[Held]) -> bool:
    if len(cards) != 6 or not {9, 10, 11, 12} <= {card.rank for card in cards}:
        return False
    for taken in itertools.combinations(range(6), 4):
        if sorted(cards[i].rank for i in taken) == [9, 10, 11, 12]:
            rest = [cards[i] for i in range(6) if i not in taken]
            if rest[0].cat & rest[1].cat:
                return True
    return False


def qualifies(name: str, cards: list[Held], size: int) -> bool:
    """Whether the hand meets the condition of category `name` in table `size` (5.3)."""
    ranks = [card.rank for card in cards]
    counts = sorted(Counter(ranks).values(), reverse=True) + [0, 0, 0]
    bridge = sorted(ranks) == [7, 8, 9, 10, 11, 12]
    conditions = {
        "High Card": lambda: True,
        "One Pair": lambda: counts[0] >= 2,
        "Two Pair": lambda: counts[1] >= 2,
        "Three of a Kind": lambda: counts[0] >= 3,
        "Four of a Kind": lambda: counts[0] >= 4,
        "Straight": lambda: is_run(ranks, size),
        "Flush": lambda: len(cards) == size and common_suit(cards),
        "Straight Flush": lambda: is_run(ranks, size) and common_suit(cards),
        "Parley": lambda: parley(cards),
        "Station": lambda: counts[0] >= 3 and counts[1] >= 2,
        "Three Pair": lambda: counts[2] >= 2,
        "Colony": lambda: counts[1] >= 3,
        "Investment": lambda: counts[0] >= 4 and counts[1] >= 2,
        "Convoy": lambda: convoy(cards),
        "Redshirts": lambda: redshirts(cards),
        "Moon": lambda: moon(cards),
        "Bridge": lambda: bridge,
        "Chain of Command": lambda: (
            bridge and bool(next(c for c in cards if c.rank == 7).cat & next(c for c in cards if c.rank == 8).cat)
        ),
        "Command": lambda: (
            sorted(ranks) == [9, 10, 11, 12]
            if size == 4
            else len(cards) == 3 and all(rank >= 9 for rank in ranks)
            if size == 3
            else {9, 10, 11, 12} <= set(ranks)
        ),
    }
    return conditions[name]()


def tie_break(kind: str, ranks: list[int], size: int) -> list[int]:
    if kind == "top":
        values = [max(ranks)] if ranks else []
    elif kind == "group":
        counts = Counter(ranks)
        values = sorted(counts, key=lambda rank: (-counts[rank], -rank))
    else:
        values = sorted(ranks, reverse=True)
    return values + [0] * (size - len(values))


KIND = {
    "High Card": "desc", "Flush": "desc", "Command": "desc", "Redshirts": "desc", "Bridge": "desc",
    "Chain of Command": "desc", "Straight": "top", "Straight Flush": "top",
}  # fmt: skip  # one small table, kept dense


def classify(cards: list[Held], size: int) -> tuple[int, list[int]]:
    """(base, tie-break) of the highest category the hand meets in table `size`."""
    names = TABLES[size]
    for base in range(len(names) - 1, -1, -1):
        if qualifies(names[base], cards, size):
            return base, tie_break(KIND.get(names[base], "group"), [card.rank for card in cards], size)
    raise AssertionError("High Card always qualifies")


def orbit(cards: list[Held]) -> bool:
    return any("S" in a.haz and b.haz - {"S"} for a, b in itertools.permutations(cards, 2))


def teamwork(cards: list[Held], physical_command: bool) -> bool:
    if physical_command or any(card.command for card in cards):
        return False
    return any(
        all(suit in card.haz for suit, card in zip(SUITS, chosen, strict=True))
        for chosen in itertools.permutations(cards, 4)
    )


def size_of(hazards: set[str]) -> int:
    return 6 if "STSH" in hazards else 3 if "ENGB" in hazards else 4


def evaluate(cards: list[str], hazards: list[str]) -> tuple[int, ...]:
    """The rulebook's pseudo-code of 5.5, literally: the max key over every JUMP choice and wild assignment."""
    hazards_set = set(hazards)
    size = size_of(hazards_set)
    live = [code for code in cards if not ("HULL" in hazards_set and code[0] == "H")]
    wild = {
        c
        for c in live
        if ("BINY" in hazards_set and c[0] != "K" and rank_of(c) == 2) or ("EXPD" in hazards_set and c[0] == "K")
    }
    lift = sum(1 for code in cards if code[0] == "K") if "EXPD" in hazards_set else 0
    physical_command = any(code[0] == "K" for code in live)
    jumps: list[str | None] = [None]
    if "JUMP" in hazards_set and live:
        low = min(rank_of(code) for code in live)
        jumps = [code for code in live if rank_of(code) == low]
    best = None
    for jump in jumps:
        wilds = wild | ({jump} if jump else set())
        fixed = [identity(code, hazards_set) for code in live if code not in wilds]
        for chosen in itertools.combinations_with_replacement(CODES, len(wilds)):
            hand = fixed + [identity(code, hazards_set) for code in chosen]
            base, tie = classify(hand, size)
            eff = base + lift
            tier = 0
            if hazards_set & {"TEAM", "MUTI"}:
                if TABLES[size][base] in COMMAND_TYPE[size]:
                    tier = 2
                elif "TEAM" in hazards_set and teamwork(hand, physical_command):
                    tier = 1
            body = [tier, eff, base] + tie
            if "MUTI" in hazards_set and tier < 2:
                body = [-value for value in body]
            key = tuple([1 if "GRAV" not in hazards_set or orbit(hand) else 0] + body)
            best = key if best is None or key > best else best
    assert best is not None
    return best


def best_key(own: list[str], hazards: list[str], shared=(), tariffs=(), grid=()) -> tuple[int, ...]:
    """5.1: the max key over the candidate hands (Haul lines, Tariff subsets, T-subsets of the pool)."""
    size = size_of(set(hazards))
    pool = list(own) + list(shared)
    pools = [pool + [grid[i] for i in line] for line in LINES] if grid else [pool]
    keys = []
    for cards in pools:
        if tariffs:
            every = cards + list(tariffs)
            for hand in itertools.combinations(every, min(size, len(every))):
                if set(hand) & set(tariffs):
                    keys.append(evaluate(list(hand), hazards))
        else:
            keys += [evaluate(list(hand), hazards) for hand in itertools.combinations(cards, min(size, len(cards)))]
    return max(keys)
