"""The exact Piktas pool scorer (rulebook section 5, variants 8.1-8.3), compiled with numba.

It mirrors reference.py, the plain-Python reading to learn the rules from: `score_pool`,
`exchange_outcomes` and `closeness` give that module's results for the same turn, and tests hold
them equal.

A pool is a list of *items*: deck indices of pip cards, trumps and (with `wild_voids`) voids;
item i is bit i of every mask. Method (rulebook 5.6):

1. Enumerate candidate units of the seven kinds other than Suit Run, each as
   (kind, item mask, points, best face value), one per card set with its best layout.
   A wild void is a *joker*: it fills any pip slot of a unit (any suit and value, duplicates
   allowed), so the search never enumerates void identities. In a Value Sequence a wild can
   always take a suit that satisfies both the two-suit rule and a cap at its end (a cap has two
   suits), so only real end cards constrain caps and the suit rule.
2. Depth-first search over at most one candidate per kind whose exclusive parts (pips and
   wilds; every card with `trump_multi_unit=False`) are disjoint, pruned by an upper bound.
3. Close each branch with the best Suit Run: every unused pip of one suit, every unused wild
   (as a 10 of that suit) and every (unused) trump carrying it; adding a card never lowers any
   key, so trying each suit and none is exact. Keep the best (total, best_unit, best_card).

With `trump_multi_unit=True` a capped run whose caps could be more is dominated (same pips, a
superset of trumps, more points), so only the largest cap sets are offered there.

`exchange_outcomes` scores every exchange of a turn at once for the observation: the pools it
scores are parts of one pool, so the candidates are enumerated once (with every cap set, since a
part may lack a cap) and each part's search takes the candidates made of its own items.

numba compiles a function once more for every literal value passed to it from compiled code, so
calls pass typed values (`np.int64(...)`, `np.bool_(...)`) where a bare constant would recompile
a large function; that keeps the first call's compilation short.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

NUM_SUITS = 5
NUM_VALUES = 10
FIRST_TRUMP = 50
DECK_SIZE = 72
NUM_TRUMP_PAIRS = NUM_SUITS * (NUM_SUITS - 1) // 2
FULL_HAND_BONUS = 2
MIN_UNIT_CARDS = 6
MAX_POOL = 56  # items per pool: a mask and a kind share one int64 key
WILD_FACE_VALUE = 10

TRUE_SEQUENCE, VALUE_SEQUENCE, MIXED_SEQUENCE, QUINTET, QUARTET, TRIO, DUO = (np.int64(kind) for kind in range(7))
NO_TOTAL = -1  # below every total: a hand's best before the search finds one
TRUMP_DUO_POINTS = np.int64(4)
NO_FACE_VALUE = np.int64(0)  # the best card of a unit without pips
NUM_SEARCHED_KINDS = 7
PIP, TRUMP, WILD = 0, 1, 2


def _card_tables() -> tuple[np.ndarray, ...]:
    """Per deck index: item type, pip suit, pip value, a trump's two suits and its pair id."""
    item_type = np.full(DECK_SIZE, WILD, np.int64)
    suit = np.full(DECK_SIZE, -1, np.int64)
    value = np.zeros(DECK_SIZE, np.int64)
    trump_suits = np.full((DECK_SIZE, 2), -1, np.int64)
    pair = np.full(DECK_SIZE, -1, np.int64)
    for card in range(FIRST_TRUMP):
        item_type[card], suit[card], value[card] = PIP, card // NUM_VALUES, card % NUM_VALUES + 1
    pairs = [(a, b) for a in range(NUM_SUITS) for b in range(a + 1, NUM_SUITS)]
    for pair_id, (a, b) in enumerate(pairs):
        for copy in range(2):
            card = FIRST_TRUMP + 2 * pair_id + copy
            item_type[card], pair[card] = TRUMP, pair_id
            trump_suits[card, 0], trump_suits[card, 1] = a, b
    return item_type, suit, value, trump_suits, pair


ITEM_TYPE, PIP_SUIT, PIP_VALUE, TRUMP_SUITS, TRUMP_PAIR = _card_tables()


@njit(cache=True)
def _popcount(mask):
    """Set bits of an item mask (non-negative), counted in parallel within the word."""
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((mask * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def _offer(cands, count, seen, kind, mask, points, best_card):
    """Add a candidate unit, or improve the layout of the one with the same kind and card set."""
    key = (kind << MAX_POOL) | mask
    if key in seen:
        row = seen[key]
        if points > cands[row, 2] or (points == cands[row, 2] and best_card > cands[row, 3]):
            cands[row, 2] = points
            cands[row, 3] = best_card
        return cands, count
    if count == cands.shape[0]:
        grown = np.empty((2 * count, 4), np.int64)
        grown[:count] = cands
        cands = grown
    cands[count, 0] = kind
    cands[count, 1] = mask
    cands[count, 2] = points
    cands[count, 3] = best_card
    seen[key] = count
    return cands, count + 1


@njit(cache=True)
def _wild_placements(num_wilds, length):
    """Rows (slot of wild 0, slot of wild 1) over slots 0..length-1; -1 leaves a wild out."""
    rows = np.empty(((length + 1) * (length + 1), 2), np.int64)
    n = 0
    for place0 in range(-1, length if num_wilds > 0 else 0):
        for place1 in range(-1, length if num_wilds > 1 else 0):
            if place1 >= 0 and place1 == place0:
                continue
            rows[n, 0] = place0
            rows[n, 1] = place1
            n += 1
    return rows[:n]


@njit(cache=True)
def _one_suit_fillings(slot_item, wilds, num_wilds, suit, lo, hi):
    """Item masks filling pip slots lo..hi of one suit: each slot its real card or a wild.

    Wilds may stand in for real cards too, which frees those for other units.
    """
    length = hi - lo + 1
    placements = _wild_placements(num_wilds, length)
    out = np.empty(placements.shape[0], np.int64)
    n = 0
    for row in range(placements.shape[0]):
        mask = 0
        for offset in range(length):
            if offset == placements[row, 0]:
                mask |= 1 << wilds[0]
            elif offset == placements[row, 1]:
                mask |= 1 << wilds[1]
            elif slot_item[suit, lo + offset] >= 0:
                mask |= 1 << slot_item[suit, lo + offset]
            else:
                mask = -1
                break
        if mask >= 0:
            out[n] = mask
            n += 1
    return out[:n]


@njit(cache=True)
def _run_points(true_run, length, hi, num_caps, top_capped):
    """True Sequence 2L + H, Value Sequence L + H; L counts caps twice, H = hi + 1 with a top cap."""
    run_length = length + 2 * num_caps
    high = hi + 1 if top_capped else hi
    return (2 * run_length if true_run else run_length) + high


@njit(cache=True)
def _true_sequences(cands, count, seen, cards, slot_item, wilds, num_wilds, trumps, num_trumps, multi):
    caps = np.empty(max(num_trumps, 1), np.int64)
    for suit in range(NUM_SUITS):
        num_caps = 0
        for t in range(num_trumps):
            card = cards[trumps[t]]
            if TRUMP_SUITS[card, 0] == suit or TRUMP_SUITS[card, 1] == suit:
                caps[num_caps] = trumps[t]
                num_caps += 1
        fewest_caps = min(2, num_caps) if multi else 0
        for lo in range(1, NUM_VALUES + 1):
            gaps = 0
            for hi in range(lo, NUM_VALUES + 1):
                if slot_item[suit, hi] < 0:
                    gaps += 1
                if gaps > num_wilds:
                    break
                length = hi - lo + 1
                if length + min(2, num_caps) < MIN_UNIT_CARDS:
                    continue
                fillings = _one_suit_fillings(slot_item, wilds, num_wilds, suit, lo, hi)
                for f in range(fillings.shape[0]):
                    for a in range(-1, num_caps):
                        for b in range(a + 1 if a >= 0 else -1, num_caps):
                            used = (a >= 0) + (b >= 0)
                            if used < fewest_caps or length + used < MIN_UNIT_CARDS:
                                continue
                            mask = fillings[f]
                            if a >= 0:
                                mask |= 1 << caps[a]
                            if b >= 0:
                                mask |= 1 << caps[b]
                            points = _run_points(True, length, hi, used, used > 0)
                            cands, count = _offer(cands, count, seen, TRUE_SEQUENCE, mask, points, hi)
    return cands, count


@njit(cache=True)
def _value_sequences(cands, count, seen, cards, value_items, value_count, wilds, num_wilds, trumps, num_trumps, multi):
    chosen = np.empty(NUM_VALUES, np.int64)
    for lo in range(1, NUM_VALUES + 1):
        gaps = 0
        for hi in range(lo, NUM_VALUES + 1):
            if value_count[hi] == 0:
                gaps += 1
            if gaps > num_wilds:
                break
            length = hi - lo + 1
            if length + min(2, num_trumps) < MIN_UNIT_CARDS:
                continue
            placements = _wild_placements(num_wilds, length)
            for row in range(placements.shape[0]):
                place0, place1 = placements[row, 0], placements[row, 1]
                ok = True
                for offset in range(length):
                    if offset != place0 and offset != place1 and value_count[lo + offset] == 0:
                        ok = False
                if not ok:
                    continue
                # odometer over the real card chosen at every slot not taken by a wild
                chosen[:length] = 0
                while True:
                    cands, count = _offer_value_sequence(
                        cands,
                        count,
                        seen,
                        cards,
                        value_items,
                        chosen,
                        wilds,
                        trumps,
                        num_trumps,
                        multi,
                        lo,
                        hi,
                        place0,
                        place1,
                    )
                    offset = 0
                    while offset < length:
                        if offset == place0 or offset == place1:
                            offset += 1
                            continue
                        chosen[offset] += 1
                        if chosen[offset] < value_count[lo + offset]:
                            break
                        chosen[offset] = 0
                        offset += 1
                    if offset == length:
                        break
    return cands, count


@njit(cache=True)
def _offer_value_sequence(
    cands, count, seen, cards, value_items, chosen, wilds, trumps, num_trumps, multi, lo, hi, place0, place1
):
    """Offer one choice of pips for lo..hi with every valid cap set (0, 1 or 2 caps)."""
    length = hi - lo + 1
    pips = 0
    first_suit = -1
    two_suits = place0 >= 0 or place1 >= 0
    for offset in range(length):
        if offset == place0:
            pips |= 1 << wilds[0]
        elif offset == place1:
            pips |= 1 << wilds[1]
        else:
            item = value_items[lo + offset, chosen[offset]]
            pips |= 1 << item
            suit = PIP_SUIT[cards[item]]
            if first_suit < 0:
                first_suit = suit
            elif suit != first_suit:
                two_suits = True
    if not two_suits:
        return cands, count
    bottom_suit = -1 if (place0 == 0 or place1 == 0) else PIP_SUIT[cards[value_items[lo, chosen[0]]]]
    top_wild = place0 == length - 1 or place1 == length - 1
    top_suit = -1 if top_wild else PIP_SUIT[cards[value_items[hi, chosen[length - 1]]]]
    bottom_ok = np.zeros(num_trumps, np.bool_)
    top_ok = np.zeros(num_trumps, np.bool_)
    for t in range(num_trumps):
        card = cards[trumps[t]]
        bottom_ok[t] = bottom_suit < 0 or TRUMP_SUITS[card, 0] == bottom_suit or TRUMP_SUITS[card, 1] == bottom_suit
        top_ok[t] = top_suit < 0 or TRUMP_SUITS[card, 0] == top_suit or TRUMP_SUITS[card, 1] == top_suit
    has_pair = False
    for a in range(num_trumps):
        for b in range(a + 1, num_trumps):
            if (bottom_ok[a] and top_ok[b]) or (bottom_ok[b] and top_ok[a]):
                has_pair = True
                if length + 2 >= MIN_UNIT_CARDS:
                    mask = pips | (1 << trumps[a]) | (1 << trumps[b])
                    cands, count = _offer(
                        cands, count, seen, VALUE_SEQUENCE, mask, _run_points(False, length, hi, 2, True), hi
                    )
    if multi and has_pair:
        return cands, count
    has_single = False
    for t in range(num_trumps):
        if (top_ok[t] or bottom_ok[t]) and length + 1 >= MIN_UNIT_CARDS:
            has_single = True
            points = _run_points(False, length, hi, 1, top_ok[t])
            cands, count = _offer(cands, count, seen, VALUE_SEQUENCE, pips | (1 << trumps[t]), points, hi)
        elif top_ok[t] or bottom_ok[t]:
            has_single = True
    if multi and has_single:
        return cands, count
    if length >= MIN_UNIT_CARDS:
        cands, count = _offer(cands, count, seen, VALUE_SEQUENCE, pips, _run_points(False, length, hi, 0, False), hi)
    return cands, count


@njit(cache=True)
def _segments(slot_item, wilds, num_wilds):
    """Mixed Sequence segments: (suit, item mask, pip count, highest face value) per card set."""
    rows = np.empty((64, 4), np.int64)
    n = 0
    seen = Dict.empty(key_type=types.int64, value_type=types.int64)
    for suit in range(NUM_SUITS):
        for lo in range(1, NUM_VALUES):
            gaps = 1 if slot_item[suit, lo] < 0 else 0
            for hi in range(lo + 1, NUM_VALUES + 1):
                if slot_item[suit, hi] < 0:
                    gaps += 1
                if gaps > num_wilds:
                    break
                fillings = _one_suit_fillings(slot_item, wilds, num_wilds, suit, lo, hi)
                for f in range(fillings.shape[0]):
                    key = (suit << MAX_POOL) | fillings[f]
                    if key in seen:
                        row = seen[key]
                        rows[row, 3] = max(rows[row, 3], hi)
                        continue
                    if n == rows.shape[0]:
                        grown = np.empty((2 * n, 4), np.int64)
                        grown[:n] = rows
                        rows = grown
                    rows[n, 0] = suit
                    rows[n, 1] = fillings[f]
                    rows[n, 2] = hi - lo + 1
                    rows[n, 3] = hi
                    seen[key] = n
                    n += 1
    return rows[:n]


@njit(cache=True)
def _mixed_sequences(cands, count, seen, cards, slot_item, wilds, num_wilds, trumps, num_trumps):
    """Chains S1 t1 S2 ... Sm (m >= 2) grown segment by segment, offered once per card set."""
    segments = _segments(slot_item, wilds, num_wilds)
    num_segments = segments.shape[0]
    if num_segments < 2 or num_trumps == 0:
        return cands, count
    depth_limit = num_trumps + 1
    step = np.zeros(depth_limit, np.int64)
    mask = np.zeros(depth_limit, np.int64)
    run_length = np.zeros(depth_limit, np.int64)
    high = np.zeros(depth_limit, np.int64)
    tail_suit = np.zeros(depth_limit, np.int64)
    options = num_trumps * num_segments
    for first in range(num_segments):
        mask[0] = segments[first, 1]
        run_length[0] = segments[first, 2]
        high[0] = segments[first, 3]
        tail_suit[0] = segments[first, 0]
        step[0] = 0
        depth = 0
        while depth >= 0:
            if step[depth] >= options or depth + 1 >= depth_limit:
                depth -= 1
                continue
            option = step[depth]
            step[depth] += 1
            knit = trumps[option // num_segments]
            nxt = option % num_segments
            suit = segments[nxt, 0]
            if suit == tail_suit[depth] or (mask[depth] >> knit) & 1 or mask[depth] & segments[nxt, 1]:
                continue
            card = cards[knit]
            a, b = TRUMP_SUITS[card, 0], TRUMP_SUITS[card, 1]
            if not ((a == suit and b == tail_suit[depth]) or (b == suit and a == tail_suit[depth])):
                continue
            depth += 1
            mask[depth] = mask[depth - 1] | (1 << knit) | segments[nxt, 1]
            run_length[depth] = run_length[depth - 1] + 2 + segments[nxt, 2]
            high[depth] = max(high[depth - 1], segments[nxt, 3])
            tail_suit[depth] = suit
            step[depth] = 0
            if _popcount(mask[depth]) >= MIN_UNIT_CARDS:
                points = run_length[depth] + high[depth]
                cands, count = _offer(cands, count, seen, MIXED_SEQUENCE, mask[depth], points, high[depth])
    return cands, count


@njit(cache=True)
def _sets(cands, count, seen, cards, value_items, value_count, wilds, num_wilds, trumps, num_trumps):
    """Quintets, Quartets, Trios, pip Duos (any k of one value's pips and wilds), trump Duos."""
    options = np.empty(7, np.int64)
    for size, kind in ((5, QUINTET), (4, QUARTET), (3, TRIO), (2, DUO)):
        for value in range(1, NUM_VALUES + 1):
            n = 0
            for i in range(value_count[value]):
                options[n] = value_items[value, i]
                n += 1
            for w in range(num_wilds):
                options[n] = wilds[w]
                n += 1
            for pick in range(1 << n):
                if _popcount(pick) != size:
                    continue
                mask = np.int64(0)
                for i in range(n):
                    if (pick >> i) & 1:
                        mask |= 1 << options[i]
                cands, count = _offer(cands, count, seen, kind, mask, size, value)
    for a in range(num_trumps):
        for b in range(a + 1, num_trumps):
            if TRUMP_PAIR[cards[trumps[a]]] == TRUMP_PAIR[cards[trumps[b]]]:
                mask = (1 << trumps[a]) | (1 << trumps[b])
                cands, count = _offer(cands, count, seen, DUO, mask, TRUMP_DUO_POINTS, NO_FACE_VALUE)
    return cands, count


@njit(cache=True)
def _candidates(cards, multi):
    """Every candidate unit of the pool (rows: kind, mask, points, best card), grouped by kind in
    kind order, as `_search` needs them: each kind's enumeration runs in turn."""
    n = cards.shape[0]
    slot_item = np.full((NUM_SUITS, NUM_VALUES + 1), -1, np.int64)
    value_items = np.full((NUM_VALUES + 1, NUM_SUITS), -1, np.int64)
    value_count = np.zeros(NUM_VALUES + 1, np.int64)
    wilds = np.full(2, -1, np.int64)
    trumps = np.empty(n, np.int64)
    num_wilds = np.int64(0)
    num_trumps = np.int64(0)
    for item in range(n):
        card = cards[item]
        kind = ITEM_TYPE[card]
        if kind == PIP:
            suit, value = PIP_SUIT[card], PIP_VALUE[card]
            slot_item[suit, value] = item
            value_items[value, value_count[value]] = item
            value_count[value] += 1
        elif kind == TRUMP:
            trumps[num_trumps] = item
            num_trumps += 1
        else:
            wilds[num_wilds] = item
            num_wilds += 1
    cands = np.empty((64, 4), np.int64)
    count = np.int64(0)
    seen = Dict.empty(key_type=types.int64, value_type=types.int64)
    cands, count = _true_sequences(cands, count, seen, cards, slot_item, wilds, num_wilds, trumps, num_trumps, multi)
    cands, count = _value_sequences(
        cands, count, seen, cards, value_items, value_count, wilds, num_wilds, trumps, num_trumps, multi
    )
    cands, count = _mixed_sequences(cands, count, seen, cards, slot_item, wilds, num_wilds, trumps, num_trumps)
    cands, count = _sets(cands, count, seen, cards, value_items, value_count, wilds, num_wilds, trumps, num_trumps)
    return cands[:count]


@njit(cache=True)
def _suit_masks(cards):
    """Per suit: pips of that suit plus every wild (Suit Run material), and trumps carrying it."""
    pips = np.zeros(NUM_SUITS, np.int64)
    carriers = np.zeros(NUM_SUITS, np.int64)
    for item in range(cards.shape[0]):
        card = cards[item]
        kind = ITEM_TYPE[card]
        for suit in range(NUM_SUITS):
            if kind == WILD or (kind == PIP and PIP_SUIT[card] == suit):
                pips[suit] |= 1 << item
            elif kind == TRUMP and (TRUMP_SUITS[card, 0] == suit or TRUMP_SUITS[card, 1] == suit):
                carriers[suit] |= 1 << item
    return pips, carriers


@njit(cache=True)
def _face_values(cards):
    """Face value of each item when it scores in a Suit Run (a wild is a 10)."""
    values = np.zeros(cards.shape[0], np.int64)
    for item in range(cards.shape[0]):
        kind = ITEM_TYPE[cards[item]]
        values[item] = PIP_VALUE[cards[item]] if kind == PIP else (WILD_FACE_VALUE if kind == WILD else 0)
    return values


@njit(cache=True)
def _highest_face(mask, faces):
    best = 0
    item = 0
    while mask:
        if mask & 1 and faces[item] > best:
            best = faces[item]
        mask >>= 1
        item += 1
    return best


@njit(cache=True)
def _better(total, unit, card, best_total, best_unit, best_card):
    if total != best_total:
        return total > best_total
    if unit != best_unit:
        return unit > best_unit
    return card > best_card


@njit(cache=True)
def score_pool(cards, hand_mask, full_hand_allowed, trump_multi_unit, highest_unit_only):
    """(total, best_unit, best_card) of the best arrangement of a pool (rulebook 5.4, 8.1-8.3);
    mirrors `reference.score_pool`.

    cards: int64 deck indices of the pool items (pips, trumps, and voids only when they are wild);
    hand_mask: the items that are the seat's hand; full_hand_allowed: the hand is non-empty and
    holds no void that blocks the bonus.
    """
    if cards.shape[0] == 0:
        return 0, 0, 0
    cands = _candidates(cards, trump_multi_unit)
    pool = _pool(cards, cands, trump_multi_unit)
    within = (1 << cards.shape[0]) - 1
    if highest_unit_only:
        return _best_single_unit(pool, within)
    hands = np.full(1, hand_mask, np.int64)
    bonuses = np.full(1, FULL_HAND_BONUS if full_hand_allowed else 0, np.int64)
    best = np.empty((1, 3), np.int64)
    work = np.empty((_WORK_ROWS, NUM_SEARCHED_KINDS + 1), np.int64)
    _search(pool, np.arange(cands.shape[0]), within, hands, bonuses, np.int64(NO_TOTAL), best, work)
    return best[0, 0], best[0, 1], best[0, 2]


@njit(cache=True)
def _pool(cards, cands, trump_multi_unit):
    """What the searches read of a pool: its candidate units, each suit's pips and trump carriers,
    the items' face values and the items a unit holds alone."""
    pips, carriers = _suit_masks(cards)
    return cands, pips, carriers, _face_values(cards), _exclusive(cards, trump_multi_unit)


@njit(cache=True)
def _exclusive(cards, trump_multi_unit):
    """The items a unit holds alone: pips and wilds, and trumps too when they may not be shared (8.1)."""
    if not trump_multi_unit:
        return -1
    trump_bits = 0
    for item in range(cards.shape[0]):
        if ITEM_TYPE[cards[item]] == TRUMP:
            trump_bits |= 1 << item
    return ~trump_bits


@njit(cache=True)
def _best_single_unit(pool, within):
    """Variant 8.3: the single best unit's points and best card among the items `within`, no Full Hand."""
    cands, pips, carriers, faces, _ = pool
    points, card = 0, 0
    for row in range(cands.shape[0]):
        if cands[row, 1] & ~within == 0 and _better(cands[row, 2], cands[row, 3], 0, points, card, 0):
            points, card = cands[row, 2], cands[row, 3]
    for suit in range(NUM_SUITS):
        run_pips, run_trumps = pips[suit] & within, carriers[suit] & within
        if _popcount(run_pips) + _popcount(run_trumps) >= MIN_UNIT_CARDS:
            length = _popcount(run_pips) + 2 * _popcount(run_trumps)
            face = _highest_face(run_pips, faces)
            if _better(length, face, 0, points, card, 0):
                points, card = length, face
    return points, points, card


# rows of the search's work array: columns per kind (prefix sums, best points) or per depth
_KIND_START, _KIND_BEST, _LEVEL_KIND, _REMAINING, _USED, _COVER, _POINTS, _UNIT, _CARD, _NEXT_ROW = range(10)
_WORK_ROWS = 10


@njit(cache=True)
def _search(pool, rows, within, hands, bonuses, floor, best, work):
    """Depth-first search over one optional candidate per kind, closed by a Suit Run, for one pool
    and several hands at once: best[h] becomes the best (total, best_unit, best_card) when the
    items hands[h] are the seat's hand, with a Full Hand bonus of bonuses[h] (0: none).

    Only the candidates listed in `rows` (indices into `cands`, grouped by kind in kind order as
    `_candidates` makes them) and the Suit Run cards `within` take part; the search descends
    through the kinds that have one. A branch is cut when it cannot reach the lowest best total
    yet. Totals start at `floor`, which must not exceed any hand's total: a hand whose best stays
    there has exactly that total (its best_unit and best_card are then not known).
    """
    cands, pips, carriers, faces, exclusive = pool
    for kind in range(NUM_SEARCHED_KINDS + 1):
        work[_KIND_START, kind] = 0
        work[_KIND_BEST, kind] = 0
    for r in range(rows.shape[0]):
        kind = cands[rows[r], 0]
        work[_KIND_START, kind + 1] += 1
        work[_KIND_BEST, kind] = max(work[_KIND_BEST, kind], cands[rows[r], 2])
    levels = 0
    for kind in range(NUM_SEARCHED_KINDS):
        if work[_KIND_START, kind + 1]:
            work[_LEVEL_KIND, levels] = kind
            levels += 1
        work[_KIND_START, kind + 1] += work[_KIND_START, kind]
    suit_run_bound = 0
    for suit in range(NUM_SUITS):
        run_pips, run_trumps = _popcount(pips[suit] & within), _popcount(carriers[suit] & within)
        if run_pips + run_trumps >= MIN_UNIT_CARDS:
            suit_run_bound = max(suit_run_bound, run_pips + 2 * run_trumps)
    top_bonus = 0
    for h in range(hands.shape[0]):
        top_bonus = max(top_bonus, bonuses[h])
        best[h, 0], best[h, 1], best[h, 2] = floor, 0, 0
    work[_REMAINING, levels] = suit_run_bound + top_bonus
    for level in range(levels - 1, -1, -1):
        work[_REMAINING, level] = work[_REMAINING, level + 1] + work[_KIND_BEST, work[_LEVEL_KIND, level]]

    lowest = floor  # the lowest best total of the hands
    work[_USED, 0] = 0  # exclusive items taken
    work[_COVER, 0] = 0  # every item in a unit
    work[_POINTS, 0] = 0
    work[_UNIT, 0] = 0
    work[_CARD, 0] = 0
    work[_NEXT_ROW, 0] = -1  # -1: the "no unit of this kind" branch is next
    depth = 0
    while depth >= 0:
        if depth == levels:
            _close_with_suit_run(
                work[_USED, depth],
                work[_COVER, depth],
                work[_POINTS, depth],
                work[_UNIT, depth],
                work[_CARD, depth],
                within,
                pips,
                carriers,
                faces,
                hands,
                bonuses,
                lowest - top_bonus,
                best,
            )
            lowest = best[0, 0]
            for h in range(1, hands.shape[0]):
                lowest = min(lowest, best[h, 0])
            depth -= 1
            continue
        kind = work[_LEVEL_KIND, depth]
        row = work[_NEXT_ROW, depth]
        used = work[_USED, depth]
        if row == -1:
            work[_NEXT_ROW, depth] = work[_KIND_START, kind]
            chosen = -1
        else:
            chosen = -1
            while row < work[_KIND_START, kind + 1]:
                candidate = rows[row]
                row += 1
                if cands[candidate, 1] & exclusive & used == 0:
                    chosen = candidate
                    break
            work[_NEXT_ROW, depth] = row
            if chosen < 0:
                depth -= 1
                continue
        child = depth + 1
        work[_USED, child] = used
        work[_COVER, child] = work[_COVER, depth]
        work[_POINTS, child] = work[_POINTS, depth]
        work[_UNIT, child] = work[_UNIT, depth]
        work[_CARD, child] = work[_CARD, depth]
        if chosen >= 0:
            mask = cands[chosen, 1]
            work[_USED, child] |= mask & exclusive
            work[_COVER, child] |= mask
            work[_POINTS, child] += cands[chosen, 2]
            work[_UNIT, child] = max(work[_UNIT, child], cands[chosen, 2])
            work[_CARD, child] = max(work[_CARD, child], cands[chosen, 3])
        if work[_POINTS, child] + work[_REMAINING, child] < lowest:
            continue
        work[_NEXT_ROW, child] = -1
        depth = child


@njit(cache=True, inline="always")  # once per leaf of every search: a call costs more than its work
def _close_with_suit_run(used, cover, points, unit, card, within, pips, carriers, faces, hands, bonuses, below, best):
    """Every end of a branch: no Suit Run, or the Suit Run of one suit on the cards the other units
    left; each hand keeps the best, with its bonus when every card of the hand is in a unit. Ends
    with a total (before any bonus) under `below` improve no hand."""
    for suit in range(-1, NUM_SUITS):
        total, top_unit, top_card, covered = points, unit, card, cover
        if suit >= 0:
            run_pips = pips[suit] & within & ~used
            run_trumps = carriers[suit] & within & ~used
            if _popcount(run_pips) + _popcount(run_trumps) < MIN_UNIT_CARDS:
                continue
            length = _popcount(run_pips) + 2 * _popcount(run_trumps)
            total += length
            top_unit = max(top_unit, length)
            top_card = max(top_card, _highest_face(run_pips, faces))
            covered |= run_pips | run_trumps
        if total < below:
            continue
        for h in range(hands.shape[0]):
            with_bonus = total + bonuses[h] if covered & hands[h] == hands[h] else total
            if _better(with_bonus, top_unit, top_card, best[h, 0], best[h, 1], best[h, 2]):
                best[h, 0], best[h, 1], best[h, 2] = with_bonus, top_unit, top_card


# ---------------------------------------------------------------- every exchange of a turn at once


@njit(cache=True)
def exchange_outcomes(
    hand,
    field_cards,
    field_positions,
    legal,
    action_slot,
    action_position,
    trump_multi_unit,
    highest_unit_only,
    wild_voids,
):
    """The seat's pool as it stands, (total, best_unit, best_card), and for each legal exchange id
    the secured total, the whole-field total and the closeness of the secured cards after it;
    mirrors `reference.exchange_outcomes`, which takes the field as its positions.

    hand: the seat's hand, sorted deck indices; field_cards and field_positions: every card in the
    field (each stack bottom -> top) and its position; legal: the legal exchange ids; action_slot and
    action_position: the hand slot and field position of every id (-1 for pass), from exchange.py.
    The *secured* pool is the hand with the covered positions' cards, what no opponent can take
    away; the whole-field pool adds every field card. Both are parts of the seat's pool as it
    stands (an exchange only moves cards between its hand and the field), so its candidate units
    are enumerated once, with every cap set, and each part's search takes the candidates inside it;
    the whole-field pool is one search for every hand the exchanges leave.
    """
    cards, hands, bonuses, kept, wild_items = _exchange_pools(
        hand, field_cards, field_positions, legal, action_slot, action_position, highest_unit_only, wild_voids
    )
    everything = (1 << cards.shape[0]) - 1
    cands = _candidates(cards, np.bool_(False))
    pool = _pool(cards, cands, trump_multi_unit)
    rows = np.empty(cands.shape[0], np.int64)
    work = np.empty((_WORK_ROWS, NUM_SEARCHED_KINDS + 1), np.int64)
    scratch = np.empty((_SCRATCH_ROWS, NUM_VALUES + 1), np.int64)
    every_row = np.arange(cands.shape[0])
    best = np.empty((hands.shape[0], 3), np.int64)
    if highest_unit_only:
        best[:, 0], best[:, 1], best[:, 2] = _best_single_unit(pool, everything)
    else:
        _search(pool, every_row, everything, hands[:1], bonuses[:1], np.int64(NO_TOTAL), best, work)
        # no hand scores the whole pool below its best arrangement without a bonus
        floor = best[0, 0] - bonuses[0]
        _search(pool, every_row, everything, hands[1:], bonuses[1:], floor, best[1:], work)
    standing = (best[0, 0], best[0, 1], best[0, 2])
    full = best[1:, 0]
    secured = np.empty(legal.shape[0], np.int64)
    near = np.empty(legal.shape[0], np.int64)
    secured_best = np.empty((1, 3), np.int64)
    for k in range(legal.shape[0]):
        if highest_unit_only:
            secured[k] = _best_single_unit(pool, kept[k])[0]
        else:
            within = _rows_within(cands, kept[k], rows)
            hand_after, bonus_after = hands[k + 1 : k + 2], bonuses[k + 1 : k + 2]
            _search(pool, within, kept[k], hand_after, bonus_after, np.int64(NO_TOTAL), secured_best, work)
            secured[k] = secured_best[0, 0]
        near[k] = _closeness(cards, kept[k] & ~wild_items, scratch)
    return standing, secured, full, near


@njit(cache=True)
def _exchange_pools(
    hand, field_cards, field_positions, legal, action_slot, action_position, highest_unit_only, wild_voids
):
    """The seat's pool as items, and per hand, the current one first and then the one each legal
    id leaves: its items, its Full Hand bonus, and (for the ids) the items of its secured pool;
    also the items that are wild voids (see `exchange_outcomes`)."""
    num_positions = 0
    for i in range(field_positions.shape[0]):
        num_positions = max(num_positions, field_positions[i] + 1)
    cards = np.empty(hand.shape[0] + field_cards.shape[0], np.int64)
    n = 0
    hand_item = np.full(hand.shape[0], -1, np.int64)  # -1: a void that is not wild
    hand_mask = np.int64(0)
    blocking_voids = np.int64(0)
    for slot in range(hand.shape[0]):
        if ITEM_TYPE[hand[slot]] == WILD and not wild_voids:
            blocking_voids += 1
            continue
        cards[n] = hand[slot]
        hand_item[slot] = n
        hand_mask |= 1 << n
        n += 1
    bottom_item = np.full(num_positions, -1, np.int64)
    position_items = np.zeros(num_positions, np.int64)
    covered = np.zeros(num_positions, np.bool_)
    wild_items = np.int64(0)
    for i in range(field_cards.shape[0]):
        card, position = field_cards[i], field_positions[i]
        if ITEM_TYPE[card] == WILD:
            covered[position] = True
            if not wild_voids:
                continue
            wild_items |= 1 << n
        else:
            bottom_item[position] = n
        cards[n] = card
        position_items[position] |= 1 << n
        n += 1
    for slot in range(hand.shape[0]):
        if hand_item[slot] >= 0 and ITEM_TYPE[hand[slot]] == WILD:
            wild_items |= 1 << hand_item[slot]
    covered_items = np.int64(0)
    for position in range(num_positions):
        if covered[position]:
            covered_items |= position_items[position]

    hands = np.empty(legal.shape[0] + 1, np.int64)
    bonuses = np.empty(legal.shape[0] + 1, np.int64)
    kept = np.empty(legal.shape[0], np.int64)
    hands[0] = hand_mask
    bonuses[0] = FULL_HAND_BONUS if hand_mask != 0 and blocking_voids == 0 and not highest_unit_only else 0
    for k in range(legal.shape[0]):
        slot, position = action_slot[legal[k]], action_position[legal[k]]
        held, secured, blocking = hand_mask, covered_items, blocking_voids
        if slot >= 0:
            item = hand_item[slot]
            if ITEM_TYPE[hand[slot]] == WILD:
                secured |= position_items[position]
                if item >= 0:
                    held &= ~(1 << item)
                    secured |= 1 << item
                else:
                    blocking -= 1
            else:
                held = (held & ~(1 << item)) | (1 << bottom_item[position])
        hands[k + 1] = held
        bonuses[k + 1] = FULL_HAND_BONUS if held != 0 and blocking == 0 and not highest_unit_only else 0
        kept[k] = secured | held
    return cards[:n], hands, bonuses, kept, wild_items


@njit(cache=True)
def _rows_within(cands, within, rows):
    """The candidates made only of items `within`, written into `rows` (kind order kept)."""
    count = 0
    for row in range(cands.shape[0]):
        if cands[row, 1] & ~within == 0:
            rows[count] = row
            count += 1
    return rows[:count]


# ---------------------------------------------------------------- closeness, a heuristic measure

_SUIT_COUNT, _VALUE_COUNT, _SUIT_VALUES, _PAIR_COUNT = range(4)
_SCRATCH_ROWS = 4


@njit(cache=True)
def closeness(cards):
    """How near a set of cards (deck indices; voids count for nothing) is to scoring; see `_closeness`.
    Mirrors `reference.closeness`."""
    scratch = np.empty((_SCRATCH_ROWS, NUM_VALUES + 1), np.int64)
    return _closeness(cards, (1 << cards.shape[0]) - 1, scratch)


@njit(cache=True)
def _closeness(cards, mask, scratch):
    """Squared suit counts (a trump counts for both its suits), twice the squared value counts,
    3 per pair of neighbouring pips of one suit and 4 per trump pair, over the items in `mask`:
    a heuristic measure for the exchange turns before units are complete."""
    scratch[:] = 0
    item = 0
    while mask:
        if mask & 1:
            card = cards[item]
            if ITEM_TYPE[card] == PIP:
                suit, value = PIP_SUIT[card], PIP_VALUE[card]
                scratch[_SUIT_COUNT, suit] += 1
                scratch[_VALUE_COUNT, value] += 1
                scratch[_SUIT_VALUES, suit] |= 1 << value
            elif ITEM_TYPE[card] == TRUMP:
                scratch[_SUIT_COUNT, TRUMP_SUITS[card, 0]] += 1
                scratch[_SUIT_COUNT, TRUMP_SUITS[card, 1]] += 1
                scratch[_PAIR_COUNT, TRUMP_PAIR[card]] += 1
        mask >>= 1
        item += 1
    total = 0
    for suit in range(NUM_SUITS):
        values = scratch[_SUIT_VALUES, suit]
        total += scratch[_SUIT_COUNT, suit] ** 2 + 3 * _popcount(values & (values >> 1))
    for value in range(1, NUM_VALUES + 1):
        total += 2 * scratch[_VALUE_COUNT, value] ** 2
    for pair in range(NUM_TRUMP_PAIRS):
        if scratch[_PAIR_COUNT, pair] == 2:
            total += 4
    return total
