"""Tilt hand evaluation over deck indices (rulebook sections 5.1-5.5): the hot path.

A card in evaluation is an attribute triple `(rank, category suits, hazard suits)`, suits as
4-bit masks (bit 0 Crew, 1 Planets, 2 Stars, 3 Ships). A hand's category comes from a table of
rank patterns (built once per sorted rank tuple, or per count of ranks for a three- or four-card
hand without wild cards), then the suit conditions of the categories its ranks allow, highest
first. Under a set of Hazards met often (TABLE_AFTER hands of a size), every three- or
four-card hand's key is tabled. Wild cards are resolved without trying every assignment of the
36 identities: the wilds' ranks are tried in order of the best key their rank pattern could
reach (an upper bound that needs no suits), stopping as soon as no bound can beat the best key
found, and only the suits of number-rank wilds are then enumerated (Command identities have
fixed attributes).
`tests/envs/tilt/tilt_reference.py` is the brute force this is held to.

Hazards arrive as one int of flag bits (`HULL` ... `ENGB` below).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence

Card = tuple[int, int, int]  # (rank, category suits, hazard suits)
Key = tuple[int, ...]

NUM_CARDS = 36
NUM_SUITS = 4
CREW, PLANETS, STARS, SHIPS = range(NUM_SUITS)
ALL_SUITS = (1 << NUM_SUITS) - 1
FIRST_COMMAND = 32
COMMAND_RANKS = (9, 10, 11, 12)

HULL, TRST, BINY, EXPD, JUMP, MUTI, TEAM, GRAV, STSH, ENGB = (1 << bit for bit in range(10))

FOUR_CARD_CATEGORIES = (
    "High Card", "One Pair", "Flush", "Straight", "Three of a Kind",
    "Two Pair", "Parley", "Straight Flush", "Four of a Kind", "Command",
)  # fmt: skip  # the categories low to high, a few to a line
SIX_CARD_CATEGORIES = (
    "High Card", "One Pair", "Two Pair", "Three of a Kind", "Parley", "Station", "Straight",
    "Three Pair", "Flush", "Four of a Kind", "Colony", "Command", "Investment", "Convoy",
    "Redshirts", "Moon", "Straight Flush", "Bridge", "Chain of Command",
)  # fmt: skip  # the categories low to high, a few to a line
THREE_CARD_CATEGORIES = (
    "High Card", "One Pair", "Straight", "Flush", "Three of a Kind", "Straight Flush", "Command",
)  # fmt: skip  # the categories low to high, a few to a line
CATEGORIES = {4: FOUR_CARD_CATEGORIES, 6: SIX_CARD_CATEGORIES, 3: THREE_CARD_CATEGORIES}
COMMAND_TYPE = {4: frozenset({9}), 6: frozenset({11, 14, 17, 18}), 3: frozenset({6})}

GRID_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def card_rank(card: int) -> int:
    """Rank 1-12 of a deck index (number cards 1-8, Command cards 9-12)."""
    return card % 8 + 1 if card < FIRST_COMMAND else card - FIRST_COMMAND + 9


def printed_suit(card: int) -> int | None:
    """Suit index 0-3 printed on a number card; None for a Command card."""
    return card // 8 if card < FIRST_COMMAND else None


def is_command(card: int) -> bool:
    return card >= FIRST_COMMAND


RANK = tuple(card_rank(card) for card in range(NUM_CARDS))
PRINTED_SUIT = tuple(printed_suit(card) for card in range(NUM_CARDS))


def table_size(flags: int) -> int:
    """T: 6 under Captain's Reserve Stash, 3 under Engine Breach, else 4."""
    return 6 if flags & STSH else 3 if flags & ENGB else 4


def _attributes(card: int, flags: int) -> Card | None:
    """Evaluation attributes of a physical card (5.2); None for a blank (a Ships card under HULL)."""
    suit = PRINTED_SUIT[card]
    if suit is None:
        return (RANK[card], ALL_SUITS, 0)
    if suit == SHIPS and flags & HULL:
        return None
    mask = ALL_SUITS if suit == CREW and flags & TRST else 1 << suit
    return (RANK[card], mask, mask)


ATTRIBUTES = {
    flags: tuple(_attributes(card, flags) for card in range(NUM_CARDS)) for flags in (0, HULL, TRST, HULL | TRST)
}


# ---------------------------------------------------------------- rank patterns (5.3)

PLAIN, FLUSH, PARLEY, CONVOY, MOON, REDSHIRTS, CHAIN = range(7)  # suit condition of a category
Candidate = tuple[int, int, tuple[int, ...], Key]  # (base, suit condition, tie-break, key with no Hazard)


def _rows(table: int, ranks: tuple[int, ...]) -> list[tuple[int, bool, int, str]]:
    """(base, rank condition, suit condition, tie-break kind) of every category of `table`, highest first."""
    n = len(ranks)
    mult = sorted(Counter(ranks).values(), reverse=True) + [0, 0, 0]
    run = n == table and len(set(ranks)) == n and ranks[0] - ranks[-1] == n - 1
    full = n == table
    if table == 4:
        return [
            (9, ranks == (12, 11, 10, 9), PLAIN, "desc"), (8, mult[0] >= 4, PLAIN, "group"),
            (7, run, FLUSH, "top"), (6, mult[1] >= 2, PARLEY, "group"), (5, mult[1] >= 2, PLAIN, "group"),
            (4, mult[0] >= 3, PLAIN, "group"), (3, run, PLAIN, "top"), (2, full, FLUSH, "desc"),
            (1, mult[0] >= 2, PLAIN, "group"), (0, True, PLAIN, "desc"),
        ]  # fmt: skip  # the rulebook's category rows, a few to a line
    if table == 3:
        return [
            (6, full and ranks[-1] >= 9, PLAIN, "desc"), (5, run, FLUSH, "top"), (4, mult[0] >= 3, PLAIN, "group"),
            (3, full, FLUSH, "desc"), (2, run, PLAIN, "top"), (1, mult[0] >= 2, PLAIN, "group"),
            (0, True, PLAIN, "desc"),
        ]  # fmt: skip  # the rulebook's category rows, a few to a line
    command = set(COMMAND_RANKS) <= set(ranks)
    bridge = ranks == (12, 11, 10, 9, 8, 7)
    return [
        (18, bridge, CHAIN, "desc"), (17, bridge, PLAIN, "desc"), (16, run, FLUSH, "top"),
        (15, full and mult[:3] == [3, 3, 0], MOON, "group"), (14, full and command, REDSHIRTS, "desc"),
        (13, full and mult[:4] == [2, 2, 2, 0], CONVOY, "group"), (12, mult[0] >= 4 and mult[1] >= 2, PLAIN, "group"),
        (11, command, PLAIN, "desc"), (10, mult[1] >= 3, PLAIN, "group"), (9, mult[0] >= 4, PLAIN, "group"),
        (8, full, FLUSH, "desc"), (7, mult[2] >= 2, PLAIN, "group"), (6, run, PLAIN, "top"),
        (5, mult[0] >= 3 and mult[1] >= 2, PLAIN, "group"), (4, mult[1] >= 2, PARLEY, "group"),
        (3, mult[0] >= 3, PLAIN, "group"), (2, mult[1] >= 2, PLAIN, "group"), (1, mult[0] >= 2, PLAIN, "group"),
        (0, True, PLAIN, "desc"),
    ]  # fmt: skip  # the rulebook's category rows, a few to a line


def _tie_break(table: int, ranks: tuple[int, ...], kind: str) -> tuple[int, ...]:
    if kind == "top":
        values: tuple[int, ...] = ranks[:1]
    elif kind == "group":
        counts = Counter(ranks)
        values = tuple(sorted(counts, key=lambda rank: (-counts[rank], -rank)))
    else:
        values = ranks
    return values + (0,) * (table - len(values))


def _build_candidates(table: int, ranks: tuple[int, ...]) -> tuple[Candidate, ...]:
    """Categories the ranks allow, highest first, down to the first that needs no suit condition."""
    found = []
    for base, allowed, condition, kind in _rows(table, ranks):
        if allowed:
            tie = _tie_break(table, ranks, kind)
            found.append((base, condition, tie, (1, 0, base, base) + tie))
            if condition == PLAIN:
                break
    return tuple(found)


# Keyed by hand size and sorted ranks (values): candidates depend on them alone; an entry is never changed.
_CANDIDATES: dict[int, dict[tuple[int, ...], tuple[Candidate, ...]]] = {3: {}, 4: {}, 6: {}}


def candidates(table: int, ranks: tuple[int, ...]) -> tuple[Candidate, ...]:
    """Cached `_build_candidates` for a rank tuple sorted highest first."""
    found = _CANDIDATES[table].get(ranks)
    if found is None:
        found = _CANDIDATES[table][ranks] = _build_candidates(table, ranks)
    return found


RANK_DIGIT = tuple(1 << 3 * rank for rank in RANK)  # a card's rank as a digit of a rank count (3 bits a rank)
# Keyed by hand size and rank count (values): the same for every hand of those numbers.
_CANDIDATES_BY_COUNT: dict[int, dict[int, tuple[Candidate, ...]]] = {3: {}, 4: {}}


def candidates_by_count(table: int, count: int) -> tuple[Candidate, ...]:
    """Cached `candidates` of the ranks counted in `count`, the sum of the cards' RANK_DIGIT."""
    found = _CANDIDATES_BY_COUNT[table].get(count)
    if found is None:
        ranks = tuple(rank for rank in range(12, 0, -1) for _ in range(count >> 3 * rank & 7))
        found = _CANDIDATES_BY_COUNT[table][count] = candidates(table, ranks)
    return found


# ---------------------------------------------------------------- suit conditions (5.3, 5.4)


def _suit_pairs(a: int, b: int) -> int:
    """Bit set of the unordered suit pairs {X, Y}, X != Y, with X in a and Y in b (or the reverse)."""
    bits = 0
    for index, (x, y) in enumerate(itertools.combinations(range(NUM_SUITS), 2)):
        if (a >> x & 1 and b >> y & 1) or (a >> y & 1 and b >> x & 1):
            bits |= 1 << index
    return bits


PAIR_SUITS = tuple(tuple(_suit_pairs(a, b) for b in range(ALL_SUITS + 1)) for a in range(ALL_SUITS + 1))


def _triple_suits(a: int, b: int, c: int) -> int:
    """Bit e set when the three masks can be matched one-to-one to the three suits other than e."""
    bits = 0
    for excluded in range(NUM_SUITS):
        suits = [suit for suit in range(NUM_SUITS) if suit != excluded]
        if any(a >> x & 1 and b >> y & 1 and c >> z & 1 for x, y, z in itertools.permutations(suits)):
            bits |= 1 << excluded
    return bits


# Keyed by three suits (values): a pure function of them.
_TRIPLE_SUITS: dict[tuple[int, int, int], int] = {}


def _triple(a: int, b: int, c: int) -> int:
    found = _TRIPLE_SUITS.get((a, b, c))
    if found is None:
        found = _TRIPLE_SUITS[(a, b, c)] = _triple_suits(a, b, c)
    return found


def _parley(cards: Sequence[Card]) -> bool:
    """Two ranks, two cards of each, with suits X != Y such that each pair is one X and one Y."""
    by_rank: dict[int, list[int]] = {}
    for rank, cat, _ in cards:
        by_rank.setdefault(rank, []).append(cat)
    pair_sets = []
    for cats in by_rank.values():
        if len(cats) >= 2:
            bits = 0
            for a, b in itertools.combinations(cats, 2):
                bits |= PAIR_SUITS[a][b]
            pair_sets.append(bits)
    return any(a & b for a, b in itertools.combinations(pair_sets, 2))


def _suits_hold(condition: int, cards: Sequence[Card]) -> bool:
    """The suit condition (other than a common suit) of a category on cards sorted by rank, highest first."""
    if condition == PARLEY:
        return _parley(cards)
    if condition == CONVOY:
        return (
            PAIR_SUITS[cards[0][1]][cards[1][1]]
            & PAIR_SUITS[cards[2][1]][cards[3][1]]
            & PAIR_SUITS[cards[4][1]][cards[5][1]]
            != 0
        )
    if condition == MOON:
        return _triple(cards[0][1], cards[1][1], cards[2][1]) & _triple(cards[3][1], cards[4][1], cards[5][1]) != 0
    if condition == REDSHIRTS:
        rest = list(cards)
        for rank in COMMAND_RANKS:
            rest.remove(next(card for card in rest if card[0] == rank))
        return rest[0][1] & rest[1][1] != 0
    return cards[4][1] & cards[5][1] != 0  # CHAIN: the 8 and the 7 of a Bridge


def has_orbit(cards: Sequence[Card]) -> bool:
    """Two different cards, one with Stars and one with another suit among their hazard suits."""
    stars = [index for index, card in enumerate(cards) if card[2] & 1 << STARS]
    others = [index for index, card in enumerate(cards) if card[2] & ~(1 << STARS) & ALL_SUITS]
    return any(a != b for a in stars for b in others)


def is_teamwork(cards: Sequence[Card]) -> bool:
    """Four different cards matched one-to-one to the four suits by hazard suits (no Command identity)."""
    if len(cards) < NUM_SUITS or any(card[0] >= 9 for card in cards):
        return False
    masks = [card[2] for card in cards]
    return all(sum(1 for mask in masks if mask & suits) >= bin(suits).count("1") for suits in range(1, ALL_SUITS + 1))


# ---------------------------------------------------------------- keys (5.5)


def _made(found: tuple[Candidate, ...], cards: Sequence[Card]) -> Candidate:
    """The first of a rank tuple's candidates whose suit condition the cards meet (the last needs none)."""
    for entry in found:
        condition = entry[1]
        if condition == PLAIN:
            break
        if condition == FLUSH:
            common = ALL_SUITS
            for card in cards:
                common &= card[1]
            if common:
                break
        elif _suits_hold(condition, cards):
            break
    return entry


def natural_key(cards: list[Card], table: int, flags: int, lift: int, command_held: bool) -> Key:
    """Key of a hand with every card's identity fixed (no wild left).

    `lift`: the EXPD category lift (physical Command cards of the hand); `command_held`: a
    physical Command card is in the hand (no Teamwork).
    """
    cards = sorted(cards, reverse=True)
    ranks = tuple([card[0] for card in cards])
    made = _made(_CANDIDATES[table].get(ranks) or candidates(table, ranks), cards)
    if not (lift or flags & (TEAM | MUTI | GRAV)):
        return made[3]
    return _hazard_key(made, cards, table, flags, lift, command_held)


def _hazard_key(made: Candidate, cards: Sequence[Card], table: int, flags: int, lift: int, command_held: bool) -> Key:
    """The key of a made category under the EXPD lift, Teamwork, Mutinous Days and Gravity."""
    base, _, tie, _ = made
    tier = 0
    if flags & (TEAM | MUTI):
        if base in COMMAND_TYPE[table]:
            tier = 2
        elif flags & TEAM and not command_held and is_teamwork(cards):
            tier = 1
    body = (tier, base + lift, base) + tie
    if flags & MUTI and tier < 2:
        body = tuple([-value for value in body])
    return (1 if not flags & GRAV or has_orbit(cards) else 0,) + body


def _bound(table: int, ranks: tuple[int, ...], flags: int, lift: int, flushable: bool) -> Key:
    """The best key any suits could give a hand of these ranks: an Orbit and every suit condition
    assumed met, except a common suit when the natural cards share none (`flushable` False)."""
    found = [entry for entry in candidates(table, ranks) if flushable or entry[1] != FLUSH]
    top_base, _, top_tie, _ = found[0]
    if flags & MUTI and top_base not in COMMAND_TYPE[table]:
        base, _, tie, _ = found[-1]  # the category the ranks force whatever the suits
        return (1, 0, -(base + lift), -base) + tuple([-value for value in tie])
    tier = 0
    if flags & (TEAM | MUTI):
        tier = 2 if top_base in COMMAND_TYPE[table] else 1 if flags & TEAM else 0
    return (1, tier, top_base + lift, top_base) + top_tie


# Keyed by every input of the rank ordering (ints, a tuple, a bool): a pure function of them.
_RANK_ORDERS: dict[tuple[int, tuple[int, ...], int, int, int, bool], list[tuple[Key, tuple[int, ...]]]] = {}


def _rank_order(
    table: int, natural_ranks: tuple[int, ...], wilds: int, flags: int, lift: int, flushable: bool
) -> list[tuple[Key, tuple[int, ...]]]:
    """Every multiset of wild ranks with its bound, best bound first (cached)."""
    cache_key = (table, natural_ranks, wilds, flags & (MUTI | TEAM), lift, flushable)
    order = _RANK_ORDERS.get(cache_key)
    if order is None:
        order = []
        for wild_ranks in itertools.combinations_with_replacement(range(12, 0, -1), wilds):
            ranks = tuple(sorted(natural_ranks + wild_ranks, reverse=True))
            order.append((_bound(table, ranks, flags, lift, flushable), wild_ranks))
        order.sort(key=lambda entry: entry[0], reverse=True)
        _RANK_ORDERS[cache_key] = order
    return order


# Keyed by ranks, flag and size (values): a pure function of them.
_SUITINGS: dict[tuple[tuple[int, ...], bool, int], list[list[Card]]] = {}


def _suitings(wild_ranks: tuple[int, ...], trust: bool, common: int) -> list[list[Card]]:
    """Every way to give wilds of these ranks card identities, up to swapping wilds of one rank (cached).

    A rank 9-12 identity is that Command card; a number rank takes one of four suits (a Crew
    identity is all-suited under TRST), the suits in `common` (shared by the natural cards) first.
    """
    found = _SUITINGS.get((wild_ranks, trust, common))
    if found is None:
        masks = [ALL_SUITS if trust and suit == CREW else 1 << suit for suit in range(NUM_SUITS)]
        masks.sort(key=lambda mask: not mask & common)
        per_rank = []
        for rank, group in itertools.groupby(wild_ranks):
            count = len(list(group))
            if rank >= 9:
                per_rank.append([[(rank, ALL_SUITS, 0)] * count])
            else:
                choices = itertools.combinations_with_replacement(masks, count)
                per_rank.append([[(rank, mask, mask) for mask in chosen] for chosen in choices])
        found = [[card for part in parts for card in part] for parts in itertools.product(*per_rank)]
        _SUITINGS[(wild_ranks, trust, common)] = found
    return found


def wild_key(
    naturals: list[Card], wilds: int, table: int, flags: int, lift: int, command_held: bool, floor: Key | None = None
) -> Key | None:
    """Best key of `naturals` plus `wilds` wild cards (5.2): max(floor, best over every assignment)."""
    if not wilds:
        key = natural_key(naturals, table, flags, lift, command_held)
        return key if floor is None or key > floor else floor
    natural_ranks = tuple(sorted((card[0] for card in naturals), reverse=True))
    common = ALL_SUITS
    for card in naturals:
        common &= card[1]
    best = floor
    trust = bool(flags & TRST)
    for bound, wild_ranks in _rank_order(table, natural_ranks, wilds, flags, lift, common != 0):
        if best is not None and bound <= best:
            break
        for extra in _suitings(wild_ranks, trust, common):
            key = natural_key(naturals + extra, table, flags, lift, command_held)
            if best is None or key > best:
                best = key
                if key == bound:
                    break
    return best


def _counted_key(cards: Sequence[int], table: int, flags: int) -> Key:
    """`evaluate_ids` of physical cards at a three- or four-card table, no card wild: the ranks are
    counted, not sorted (a common suit and Parley, these tables' suit conditions, ignore order)."""
    naturals: list[Card] = [ATTRIBUTES[flags & TRST][card] for card in cards]  # type: ignore[misc]  # no Hull Breach: no None attributes
    count = 0
    for card in cards:
        count += RANK_DIGIT[card]
    made = _made(_CANDIDATES_BY_COUNT[table].get(count) or candidates_by_count(table, count), naturals)
    if not flags & (TEAM | MUTI | GRAV):
        return made[3]
    return _hazard_key(made, naturals, table, flags, 0, any(card >= FIRST_COMMAND for card in cards))


CHOOSE = tuple(tuple(math.comb(card, size) for card in range(NUM_CARDS)) for size in range(5))
_FIRST, _SECOND, _THIRD, _FOURTH = CHOOSE[1:]  # a card's share of the index in each place
TABLE_AFTER = 500  # hands of one size computed under one set of flags before their table is built
# Keyed by flags << 3 | size (an int): a table lists every hand of that size under those flags.
_TABLES: dict[int, list[Key]] = {}  # per flags << 3 | size
_COMPUTED: Counter[int] = Counter()  # hands computed per flags << 3 | size with no table yet


def hand_keys(flags: int, size: int) -> list[Key]:
    """The key of every hand of `size` cards (3 or 4, at most T) under `flags`, at the hand's
    combination index: for cards c1 < c2 < ..., CHOOSE[1][c1] + CHOOSE[2][c2] + .... Built once
    per flags and size by `computed_key` (four cards: about 0.05 s without wild cards, up to 0.4 s
    with them; three cards: a tenth of that); keys that repeat are stored once. Its reference is
    `computed_key`, the key every entry is copied from."""
    keys = _TABLES.get(flags << 3 | size)
    if keys is None:
        table = table_size(flags)
        span = range(NUM_CARDS)
        if size == 4:  # by combination index
            hands: Iterator[tuple[int, ...]] = (
                (a, b, c, d) for d in span for c in range(d) for b in range(c) for a in range(b)
            )
        else:
            hands = ((a, b, c) for c in span for b in range(c) for a in range(b))
        distinct: dict[Key, Key] = {}
        keys = _TABLES[flags << 3 | size] = [
            distinct.setdefault(key, key) for key in (computed_key(hand, flags, table) for hand in hands)
        ]
    return keys


def evaluate_ids(cards: Sequence[int], flags: int) -> Key:
    """Key of one made hand of deck indices under hazard `flags` (5.5); at most T cards, all distinct.

    A three- or four-card hand at a three- or four-card table is looked up in `hand_keys(flags,
    size)` once TABLE_AFTER such hands have been computed (a table pays for itself only for
    Hazards met often); every other hand is computed (`computed_key`). No validation: the game's
    hot path calls this with cards it dealt.
    """
    table = 6 if flags & STSH else 3 if flags & ENGB else 4
    size = len(cards)
    if table == 6 or size < 3:
        return computed_key(cards, flags, table)
    tabled = flags << 3 | size
    if tabled not in _TABLES:
        computed = _COMPUTED[tabled] = _COMPUTED[tabled] + 1
        if computed <= TABLE_AFTER:
            return computed_key(cards, flags, table)
        hand_keys(flags, size)
    return tabled_key(sorted(cards), flags)  # type: ignore[return-value]  # hand_keys built the table: never None


def tabled_key(cards: Sequence[int], flags: int) -> Key | None:
    """`evaluate_ids` of three or four cards sorted by card index, read from their table under
    `flags` (`hand_keys`); None while there is no such table (not built yet, or never: another
    size, or four cards where Engine Breach makes hands of three). Mirrors `computed_key`, its
    reference (tests/envs/tilt/test_tilt_fast_paths.py holds it to it over hands of random play)."""
    size = len(cards)
    keys = _TABLES.get(flags << 3 | size)
    if keys is None:
        return None
    if size == 4:
        if flags & ENGB:
            return None
        a, b, c, d = cards
        return keys[_FIRST[a] + _SECOND[b] + _THIRD[c] + _FOURTH[d]]
    a, b, c = cards
    return keys[_FIRST[a] + _SECOND[b] + _THIRD[c]]


def computed_key(cards: Sequence[int], flags: int, table: int) -> Key:
    """`evaluate_ids` computed, never looked up, at a T-card `table`: the ranks counted (no wild
    card, T 3 or 4) or sorted, then the wild cards resolved by `wild_key`. The reference of the
    tabled path (`hand_keys`, `tabled_key`), itself held to the rulebook's brute force in
    `tests/envs/tilt/tilt_reference.py`."""
    attributes = ATTRIBUTES[flags & (HULL | TRST)]
    if not flags & (HULL | BINY | EXPD | JUMP):
        if table == 6:
            held = bool(flags & TEAM) and any(card >= FIRST_COMMAND for card in cards)  # only Teamwork asks
            return natural_key([attributes[card] for card in cards], table, flags, 0, held)  # type: ignore[misc]  # no Hull Breach: no None attributes
        return _counted_key(cards, table, flags)
    live = [card for card in cards if attributes[card] is not None]
    commands = sum(1 for card in live if card >= FIRST_COMMAND)
    lift = commands if flags & EXPD else 0
    wild = {card for card in live if (card >= FIRST_COMMAND and flags & EXPD) or (RANK[card] == 2 and flags & BINY)}
    jumps: list[int | None] = [None]
    if flags & JUMP and live:
        lowest = min(RANK[card] for card in live)
        jumps = [card for card in live if RANK[card] == lowest]
    best: Key | None = None
    for jump in jumps:
        wilds = wild | {jump} if jump is not None else wild
        naturals = [attributes[card] for card in live if card not in wilds]
        best = wild_key(naturals, len(wilds), table, flags, lift, commands > 0, best)  # type: ignore[arg-type]  # live cards have attributes
    assert best is not None
    return best


def candidate_hands(
    own: Sequence[int], table: int, shared: Sequence[int] = (), tariffs: Sequence[int] = (), grid: Sequence[int] = ()
) -> Iterator[tuple[int, ...]]:
    """Every candidate hand a seat may form (5.1): pool = own + shared; per Haul line; with a Tariff.
    In no particular order, and a hand two Haul lines both give comes twice."""
    pool = tuple(own) + tuple(shared)
    pools = [pool + tuple(grid[spot] for spot in line) for line in GRID_LINES] if grid else [pool]
    for cards in pools:
        if tariffs:
            size = min(table, len(cards) + len(tariffs))
            for taken in range(1, min(len(tariffs), size) + 1):
                for chosen in itertools.combinations(tariffs, taken):
                    for rest in itertools.combinations(cards, size - taken):
                        yield chosen + rest
        else:
            yield from itertools.combinations(cards, min(table, len(cards)))


def best_key_ids(
    own: Sequence[int], flags: int, shared: Sequence[int] = (), tariffs: Sequence[int] = (), grid: Sequence[int] = ()
) -> Key:
    """Key of the best hand a seat can form from its own cards, the Chicken card, Tariffs and Haul grid (5.1)."""
    table = table_size(flags)
    if not (tariffs or grid) and len(own) + len(shared) <= table:
        return evaluate_ids(list(own) + list(shared) if shared else own, flags)
    return max(evaluate_ids(hand, flags) for hand in candidate_hands(own, table, shared, tariffs, grid))


def category_of(key: Key, flags: int) -> str:
    """Name of a key's base category in the table in force (MUTI negation undone)."""
    return CATEGORIES[table_size(flags)][abs(key[3])]
