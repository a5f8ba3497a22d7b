"""Piktas scoring and exchange features in plain Python: the reading to learn these rules from.

The compiled scorer (scoring.py) and the compiled feature writer (features.py) mirror this module:
the same inputs give the same results, there written for speed and here for the reader. Speed is
not the point here; tests hold the two equal on random states of real play.

Scoring is rulebook section 5 with variants 8.1-8.3, by the method of 5.6:

1. List the *candidate units* of the seven kinds other than Suit Run, each card set once, with
   its best layout (the most points, then the highest face value).
2. Try every *arrangement* of at most one candidate per kind in which no pip is in two units
   (no card at all with `trump_multi_unit=False`, 8.1).
3. Close each arrangement with the best Suit Run on the cards it leaves free, or with none, and
   keep the best (total, best_unit, best_card).

A pool is a list of *items*: deck indices of its pips, its trumps and, with `wild_voids`, its
voids. A set of items is an int with bit i for item i.

A wild void (8.2) may become any pip card. Rather than trying all 50 identities, a wild is a
*joker* that fills any pip place of a unit: a value of a run, a value of a set, a card of a Suit
Run (as a 10 of that suit, the best face value it can show there). That is the same as trying
every identity, since a wild is in one unit at most and its identity matters only there. In a
Value Sequence a wild can always take a suit that makes the run two-suited and shares a suit with
the cap beside it (a cap has two suits), so only real end cards constrain caps.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from . import rules
from .exchange import NUM_EXCHANGE_ACTIONS, play_exchange
from .layout import CLOSENESS_SCALE, GAP_CLOSENESS, GAP_POINTS, SCORE_SCALE
from .rules import MIN_UNIT_CARDS, NUM_VALUES, SUITS, carries, suit_of, trump_suits, value_of

FULL_HAND_BONUS = 2
TRUMP_DUO_POINTS = 4
WILD_FACE_VALUE = 10  # a wild in a Suit Run is any card of its suit: it shows a 10
SEARCHED_KINDS = ("true_sequence", "value_sequence", "mixed_sequence", "quintet", "quartet", "trio", "duo")
SET_KINDS = {5: "quintet", 4: "quartet", 3: "trio", 2: "duo"}

Evaluation = tuple[int, int, int]  # (total, best_unit, best_card): compared lexicographically (5.4)


def _cards_in(items: int) -> int:
    return items.bit_count()


def _bit(item: int) -> int:
    return 1 << item


def _mask(items: Sequence[int]) -> int:
    mask = 0
    for item in items:
        mask |= _bit(item)
    return mask


class Pool:
    """The items of one pool, sorted by what they are."""

    def __init__(self, cards: Sequence[int]):
        self.cards = [int(card) for card in cards]
        self.everything = _bit(len(self.cards)) - 1
        self.pip_at: dict[tuple[int, int], int] = {}  # (suit, value) -> its item
        self.pips_of_value: dict[int, list[int]] = {value: [] for value in range(1, NUM_VALUES + 1)}
        self.trumps: list[int] = []
        self.wilds: list[int] = []
        for item, card in enumerate(self.cards):
            if rules.is_pip(card):
                self.pip_at[suit_of(card), value_of(card)] = item
                self.pips_of_value[value_of(card)].append(item)
            elif rules.is_trump(card):
                self.trumps.append(item)
            else:
                self.wilds.append(item)
        self.carriers = [
            [item for item in self.trumps if carries(self.cards[item], suit)] for suit in range(len(SUITS))
        ]
        # what a Suit Run of each suit may hold: its pips and every wild; the trumps carrying it
        self.suit_run_pips = [
            _mask([item for (pip_suit, _), item in self.pip_at.items() if pip_suit == suit] + self.wilds)
            for suit in range(len(SUITS))
        ]
        self.suit_run_trumps = [_mask(carriers) for carriers in self.carriers]

    def is_wild(self, item: int) -> bool:
        return rules.is_void(self.cards[item])

    def suit(self, item: int) -> int:
        return suit_of(self.cards[item])

    def face_value(self, item: int) -> int:
        """The face value an item shows in a Suit Run: a pip's value, a wild's 10, a trump's none."""
        card = self.cards[item]
        return value_of(card) if rules.is_pip(card) else WILD_FACE_VALUE if rules.is_void(card) else 0


# ---------------------------------------------------------------- candidate units (5.2)


class Candidates:
    """The candidate units of a pool: per kind, each card set once with its best (points, best_card)."""

    def __init__(self) -> None:
        self.by_kind: dict[str, dict[int, tuple[int, int]]] = {kind: {} for kind in SEARCHED_KINDS}

    def offer(self, kind: str, items: int, points: int, best_card: int) -> None:
        known = self.by_kind[kind].get(items)
        if known is None or (points, best_card) > known:
            self.by_kind[kind][items] = (points, best_card)

    def units(self, kind: str) -> list[tuple[int, int, int]]:
        """(items, points, best_card) of every candidate of `kind`."""
        return [(items, points, card) for items, (points, card) in self.by_kind[kind].items()]


def _fillings(places: Sequence[Sequence[int]], wilds: Sequence[int]) -> Iterator[list[int]]:
    """Every way to fill the places in turn, each with one of its own items or a wild not used yet."""
    if not places:
        yield []
        return
    for item in places[0]:
        for rest in _fillings(places[1:], wilds):
            yield [item, *rest]
    for wild in wilds:
        for rest in _fillings(places[1:], [other for other in wilds if other != wild]):
            yield [wild, *rest]


def _runs(
    places_of_value: Callable[[int], list[int]], shortest: int, wilds: Sequence[int]
) -> Iterator[tuple[int, list[list[int]]]]:
    """(hi, places) of every run of face values lo..hi at least `shortest` long that the wilds can
    complete: place v holds the items that can stand at value v. A run stops growing once it has
    more empty places than there are wilds."""
    for lo in range(1, NUM_VALUES + 1):
        places: list[list[int]] = []
        for hi in range(lo, NUM_VALUES + 1):
            places.append(places_of_value(hi))
            if sum(1 for place in places if not place) > len(wilds):
                break
            if len(places) >= shortest:
                yield hi, list(places)


SHORTEST_CAPPED_RUN = MIN_UNIT_CARDS - 2  # pips a run needs with both caps to make six cards


def _one_suit_runs(pool: Pool, suit: int, shortest: int) -> Iterator[tuple[int, list[list[int]]]]:
    """The runs of one suit: place v holds the pool's pip of that suit and value, if any."""

    def pip_of_value(value: int) -> list[int]:
        return [pool.pip_at[suit, value]] if (suit, value) in pool.pip_at else []

    return _runs(pip_of_value, shortest, pool.wilds)


def run_points(true_sequence: bool, pips: int, hi: int, caps: int, top_capped: bool) -> int:
    """True Sequence 2L + H, Value Sequence L + H: L counts each cap twice; H is hi, or hi + 1 with a top cap."""
    length = pips + 2 * caps
    high = hi + 1 if top_capped else hi
    return (2 * length if true_sequence else length) + high


def _cap_sets(trumps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """No cap, one cap or two caps from `trumps`."""
    for count in range(3):
        yield from itertools.combinations(trumps, count)


def _true_sequences(pool: Pool, candidates: Candidates) -> None:
    """Pips of one suit with consecutive values, and 0-2 caps carrying that suit; with one cap, on top."""
    for suit in range(len(SUITS)):
        caps = pool.carriers[suit]
        for hi, places in _one_suit_runs(pool, suit, SHORTEST_CAPPED_RUN):
            for filling in _fillings(places, pool.wilds):
                for cap_set in _cap_sets(caps):
                    if len(filling) + len(cap_set) < MIN_UNIT_CARDS:
                        continue
                    points = run_points(True, len(filling), hi, len(cap_set), top_capped=bool(cap_set))
                    candidates.offer("true_sequence", _mask(filling + list(cap_set)), points, hi)


def _value_sequences(pool: Pool, candidates: Candidates) -> None:
    """One pip per value lo..hi, not all of one suit, and 0-2 caps sharing a suit with the end they cap."""
    for hi, places in _runs(lambda value: pool.pips_of_value[value], SHORTEST_CAPPED_RUN, pool.wilds):
        for filling in _fillings(places, pool.wilds):
            real_suits = {pool.suit(item) for item in filling if not pool.is_wild(item)}
            if len(real_suits) < 2 and not any(pool.is_wild(item) for item in filling):
                continue
            for cap_set in _cap_sets(pool.trumps):
                if len(filling) + len(cap_set) < MIN_UNIT_CARDS:
                    continue
                top_capped = _value_sequence_caps(pool, filling[0], filling[-1], cap_set)
                if top_capped is not None:
                    points = run_points(False, len(filling), hi, len(cap_set), top_capped)
                    candidates.offer("value_sequence", _mask(filling + list(cap_set)), points, hi)


def _value_sequence_caps(pool: Pool, bottom: int, top: int, caps: tuple[int, ...]) -> bool | None:
    """Whether the best placing of `caps` on a Value Sequence has a top cap; None if they fit no placing."""

    def fits(cap: int, end: int) -> bool:
        return pool.is_wild(end) or carries(pool.cards[cap], pool.suit(end))

    if not caps:
        return False
    if len(caps) == 1:
        if fits(caps[0], top):
            return True
        return False if fits(caps[0], bottom) else None
    first, second = caps
    if fits(first, bottom) and fits(second, top) or fits(second, bottom) and fits(first, top):
        return True
    return None


def _segments(pool: Pool) -> dict[tuple[int, int], int]:
    """Mixed Sequence segments: two or more pips of one suit with consecutive values.
    Maps (suit, items) to the highest face value the items can show."""
    segments: dict[tuple[int, int], int] = {}
    for suit in range(len(SUITS)):
        for hi, places in _one_suit_runs(pool, suit, 2):
            for filling in _fillings(places, pool.wilds):
                key = (suit, _mask(filling))
                segments[key] = max(segments.get(key, 0), hi)
    return segments


def _mixed_sequences(pool: Pool, candidates: Candidates) -> None:
    """Chains S1 t1 S2 ... Sm (m >= 2): each knit t joins two segments of different suits, exactly its two."""
    segments = list(_segments(pool).items())

    def grow(items: int, length: int, high: int, tail_suit: int) -> None:
        for knit in pool.trumps:
            if items & _bit(knit):
                continue
            for (suit, segment), segment_high in segments:
                if suit == tail_suit or items & segment or set(trump_suits(pool.cards[knit])) != {tail_suit, suit}:
                    continue
                chain = items | _bit(knit) | segment
                chain_length = length + 2 + _cards_in(segment)
                chain_high = max(high, segment_high)
                if _cards_in(chain) >= MIN_UNIT_CARDS:
                    candidates.offer("mixed_sequence", chain, chain_length + chain_high, chain_high)
                grow(chain, chain_length, chain_high, suit)

    for (suit, segment), segment_high in segments:
        grow(segment, _cards_in(segment), segment_high, suit)


def _sets(pool: Pool, candidates: Candidates) -> None:
    """Quintets, Quartets, Trios and Duos of one value's pips (and wilds); Duos of one trump pair."""
    for value in range(1, NUM_VALUES + 1):
        choices = pool.pips_of_value[value] + pool.wilds
        for size, kind in SET_KINDS.items():
            for chosen in itertools.combinations(choices, size):
                candidates.offer(kind, _mask(chosen), size, value)
    for first, second in itertools.combinations(pool.trumps, 2):
        if trump_suits(pool.cards[first]) == trump_suits(pool.cards[second]):
            candidates.offer("duo", _mask([first, second]), TRUMP_DUO_POINTS, 0)


def candidate_units(pool: Pool) -> Candidates:
    """Every candidate unit of the pool, Suit Runs aside (5.6)."""
    candidates = Candidates()
    for enumerate_kind in (_true_sequences, _value_sequences, _mixed_sequences, _sets):
        enumerate_kind(pool, candidates)
    return candidates


# ---------------------------------------------------------------- the best arrangement (5.3, 5.4, 8.1, 8.3)


def _best_suit_run(pool: Pool, free: int) -> Iterator[tuple[int, int, int]]:
    """(items, points, best_card) of each suit's Suit Run on the `free` items, where one exists."""
    for suit in range(len(SUITS)):
        pips, carriers = pool.suit_run_pips[suit] & free, pool.suit_run_trumps[suit] & free
        if _cards_in(pips) + _cards_in(carriers) >= MIN_UNIT_CARDS:
            best_card = max((pool.face_value(item) for item in range(len(pool.cards)) if pips & _bit(item)), default=0)
            yield pips | carriers, _cards_in(pips) + 2 * _cards_in(carriers), best_card


def best_arrangement(
    pool: Pool, candidates: Candidates, hand_mask: int, full_hand_bonus: int, trump_multi_unit: bool
) -> Evaluation:
    """The best (total, best_unit, best_card) over every arrangement of the pool (5.3, 5.4, 8.1)."""
    shared = _mask(pool.trumps) if trump_multi_unit else 0  # items that several units may hold
    by_kind = [candidates.units(kind) for kind in SEARCHED_KINDS]
    best: Evaluation = (-1, 0, 0)

    def close(used: int, covered: int, points: int, best_unit: int, best_card: int) -> None:
        nonlocal best
        endings = [(0, 0, 0), *_best_suit_run(pool, pool.everything & ~used)]
        for run_items, run_total, run_card in endings:
            cover = covered | run_items
            bonus = full_hand_bonus if cover & hand_mask == hand_mask else 0
            best = max(best, (points + run_total + bonus, max(best_unit, run_total), max(best_card, run_card)))

    def extend(kind: int, used: int, covered: int, points: int, best_unit: int, best_card: int) -> None:
        if kind == len(by_kind):
            close(used, covered, points, best_unit, best_card)
            return
        extend(kind + 1, used, covered, points, best_unit, best_card)
        for items, unit_points, unit_card in by_kind[kind]:
            if items & ~shared & used:
                continue
            extend(
                kind + 1,
                used | (items & ~shared),
                covered | items,
                points + unit_points,
                max(best_unit, unit_points),
                max(best_card, unit_card),
            )

    extend(0, 0, 0, 0, 0, 0)
    return best


def best_single_unit(pool: Pool, candidates: Candidates) -> Evaluation:
    """Variant 8.3: (p, p, c), p the most points of one unit of the pool and c that unit's best card."""
    units = [(points, card) for kind in SEARCHED_KINDS for _, points, card in candidates.units(kind)]
    units += [(points, card) for _, points, card in _best_suit_run(pool, pool.everything)]
    points, card = max(units, default=(0, 0))
    return points, points, card


def score_pool(
    cards: Sequence[int], hand_mask: int, full_hand_allowed: bool, trump_multi_unit: bool, highest_unit_only: bool
) -> Evaluation:
    """(total, best_unit, best_card) of the best arrangement of a pool (rulebook 5.4, 8.1-8.3).

    cards: deck indices of the pool items (pips, trumps, and voids only when they are wild);
    hand_mask: the items that are the seat's hand; full_hand_allowed: the hand is non-empty and
    holds no void that blocks the bonus. `rules.pool_items` makes these from a hand and a field.
    """
    pool = Pool(cards)
    candidates = candidate_units(pool)
    if highest_unit_only:
        return best_single_unit(pool, candidates)
    bonus = FULL_HAND_BONUS if full_hand_allowed else 0
    return best_arrangement(pool, candidates, hand_mask, bonus, trump_multi_unit)


def evaluate_ids(
    hand: Sequence[int], field: Sequence[int], trump_multi_unit: bool, highest_unit_only: bool, wild_voids: bool
) -> tuple[int, int, int, int]:
    """`rules.evaluate_ids` on this scorer: (total, best_unit, best_card, hand_high) of a hand pooled
    with field cards (voids ignored unless wild)."""
    items, hand_mask, full_hand_allowed = rules.pool_items(hand, field, highest_unit_only, wild_voids)
    return (
        *score_pool(items, hand_mask, full_hand_allowed, trump_multi_unit, highest_unit_only),
        rules.hand_high(hand),
    )


# ---------------------------------------------------------------- exchange turns (features.py, the observation)


def closeness(cards: Sequence[int]) -> int:
    """How near cards are to scoring, a heuristic for the exchange turns before units are complete:
    the square of each suit's count (a trump counts for both its suits), twice the square of each
    value's count, 3 for every two pips of one suit with neighbouring values and 4 for each trump
    pair held whole. Voids count for nothing."""
    pips = [card for card in cards if rules.is_pip(card)]
    trumps = [card for card in cards if rules.is_trump(card)]
    suit_counts = [
        sum(suit_of(card) == suit for card in pips) + sum(carries(card, suit) for card in trumps)
        for suit in range(len(SUITS))
    ]
    value_counts = [sum(value_of(card) == value for card in pips) for value in range(1, NUM_VALUES + 1)]
    held = {(suit_of(card), value_of(card)) for card in pips}
    neighbours = sum((suit, value + 1) in held for suit, value in held)
    pair_counts = [trump_suits(card) for card in trumps]
    whole_pairs = sum(pair_counts.count(pair) == 2 for pair in set(pair_counts))
    return (
        sum(count**2 for count in suit_counts)
        + 2 * sum(count**2 for count in value_counts)
        + 3 * neighbours
        + 4 * whole_pairs
    )


def exchange_outcomes(
    hand: Sequence[int],
    positions: Sequence[Sequence[int]],
    legal: Sequence[int],
    trump_multi_unit: bool,
    highest_unit_only: bool,
    wild_voids: bool,
) -> tuple[Evaluation, list[int], list[int], list[int]]:
    """The seat's pool as it stands, (total, best_unit, best_card), and for each legal exchange id
    (exchange.py) the secured total, the whole-field total and the closeness of the secured cards
    after playing it. `positions` is the field, each stack bottom -> top.

    The *secured* pool is the hand with every card of the positions that are not uncovered (4.2):
    what no opponent can take away. The whole-field pool adds every field card.
    """
    flags = (trump_multi_unit, highest_unit_only, wild_voids)
    standing = evaluate_ids(hand, [card for stack in positions for card in stack], *flags)[:3]
    secured, full, near = [], [], []
    for action in legal:
        after_hand, after_positions = list(hand), [list(stack) for stack in positions]
        play_exchange(after_hand, after_positions, action)
        kept = [card for stack in after_positions if not rules.is_uncovered(stack) for card in stack]
        secured.append(evaluate_ids(after_hand, kept, *flags)[0])
        full.append(evaluate_ids(after_hand, [card for stack in after_positions for card in stack], *flags)[0])
        near.append(closeness(after_hand + kept))
    return standing, secured, full, near


def exchange_features(
    legal: Sequence[int],
    secured: Sequence[int],
    full: Sequence[int],
    near: Sequence[int],
) -> dict[str, np.ndarray]:
    """The per-action features of an exchange turn, one float32 row per exchange id (0 where not
    legal), by their observation names: each legal id's secured and whole-field totals over
    `SCORE_SCALE` and its closeness over `CLOSENESS_SCALE`, capped at 1 (`*_after`), and each one's
    *gap* (`*_gap`): 1 for the best legal id, less by 1 per `GAP_POINTS` points (`GAP_CLOSENESS`
    closeness) below it, floor 0, so that small differences stand out.

    Totals are worked in float64 and closeness in float32, as the observation stores them.
    """
    rows = {}
    for name, values in (("secured", secured), ("full", full)):
        after, gap = np.zeros(NUM_EXCHANGE_ACTIONS, np.float32), np.zeros(NUM_EXCHANGE_ACTIONS, np.float32)
        best = max(values)
        for action, value in zip(legal, values, strict=True):
            after[action] = min(value / SCORE_SCALE, 1.0)
            gap[action] = max(1.0 - (best - value) / GAP_POINTS, 0.0)
        rows[f"{name}_after"], rows[f"{name}_gap"] = after, gap
    after, gap = np.zeros(NUM_EXCHANGE_ACTIONS, np.float32), np.zeros(NUM_EXCHANGE_ACTIONS, np.float32)
    one, best_closeness = np.float32(1.0), np.float32(max(near))
    for action, raw in zip(legal, near, strict=True):
        closeness = np.float32(raw)
        after[action] = min(closeness / np.float32(CLOSENESS_SCALE), one)
        gap[action] = max(one - (best_closeness - closeness) / np.float32(GAP_CLOSENESS), np.float32(0.0))
    rows["closeness_after"], rows["closeness_gap"] = after, gap
    return rows
