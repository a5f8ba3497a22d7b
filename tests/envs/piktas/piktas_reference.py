"""An independent brute-force reading of Piktas scoring (rulebook section 5, variants 8.2 and 8.3).

Written from the rulebook alone, to serve as an oracle for `cardarena.envs.piktas.rules`.

- `reference_unit_points(kind, cards)` tries every layout of the cards allowed by 5.2: every
  assignment of trumps to the bottom and top cap, every way to cut the pips into segments and
  every order of the segments of a Mixed Sequence.
- `reference_evaluate(hand, field)` tests subsets of the pool against `reference_unit_points`
  (every subset of each kind's possible cards: a suit's cards for a True Sequence, one value's
  pips for a set, pips of distinct consecutive values and up to two trumps for a Value Sequence,
  pips and knits whose suits are among the pips' suits for a Mixed Sequence), searches every
  arrangement of at most one of these units per kind (5.3, or 8.1), and closes every arrangement
  with the Suit Run rule of 5.6:
  the best Suit Run of suit s beside given units is every pip of s they leave free plus every
  trump carrying s (every free one in the designate variant), and it exists iff that makes six or
  more cards. Adding a card to a Suit Run lowers nothing, so trying each suit (and none) is exact.
- With `wild_voids`, every void of the pool is given, in turn, every identity among the 50 pip
  cards (8.2), and the best evaluation is kept.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

SUITS = "OWKUM"
PIPS = [f"{suit}{value}" for suit in SUITS for value in range(1, 11)]
TRUMPS = [f"T{a}{b}{copy}" for a, b in itertools.combinations(SUITS, 2) for copy in (1, 2)]
VOIDS = ["V1", "V2"]
DECK = PIPS + TRUMPS + VOIDS
SET_KINDS = {"quintet": 5, "quartet": 4, "trio": 3}
KINDS = ("true_sequence", "value_sequence", "mixed_sequence", "suit_run", "quintet", "quartet", "trio", "duo")
FULL_HAND = 2


@dataclass(frozen=True)
class Card:
    """One card as section 2 describes it: a pip (one suit, a value), a trump (two suits) or a void."""

    code: str
    suits: tuple[str, ...]
    value: int = 0

    def __post_init__(self):
        object.__setattr__(self, "is_pip", self.value > 0)
        object.__setattr__(self, "is_trump", len(self.suits) == 2)
        object.__setattr__(self, "is_void", not self.suits)
        object.__setattr__(self, "length", 2 if self.is_trump else 1)  # toward a run's length L (5.1)

    def carries(self, suit: str) -> bool:
        return suit in self.suits


@cache
def card(code: str) -> Card:
    """The card of a canonical code; ValueError for anything else."""
    if code not in DECK:
        raise ValueError(f"unknown card code {code!r}")
    if code in VOIDS:
        return Card(code, ())
    if code.startswith("T"):
        return Card(code, (code[1], code[2]))
    return Card(code, (code[0],), int(code[1:]))


def _length(cards) -> int:
    return sum(c.length for c in cards)


def _consecutive(values) -> bool:
    """Distinct consecutive values."""
    ordered = sorted(values)
    return bool(ordered) and ordered == list(range(ordered[0], ordered[0] + len(ordered)))


def _split(cards) -> tuple[list[Card], list[Card]]:
    return [c for c in cards if c.is_pip], [c for c in cards if c.is_trump]


def _cap_layouts(trumps):
    """Every way to place the trumps as caps: (bottom cap or None, top cap or None)."""
    if len(trumps) > 2:
        return
    for slots in itertools.permutations(["bottom", "top"], len(trumps)):
        placed = dict(zip(slots, trumps, strict=True))
        yield placed.get("bottom"), placed.get("top")


def _run_points(cards, *, one_suit: bool) -> int | None:
    """Best points of a True (one_suit) or Value Sequence over every cap layout, None if none is valid."""
    pips, trumps = _split(cards)
    if len(cards) < 6 or len(pips) + len(trumps) != len(cards) or not pips:
        return None
    suits = {p.suits[0] for p in pips}
    if not _consecutive([p.value for p in pips]) or (len(suits) == 1) != one_suit:
        return None
    low = min(pips, key=lambda p: p.value)
    high = max(pips, key=lambda p: p.value)
    best = None
    for bottom, top in _cap_layouts(trumps):
        if bottom and not set(bottom.suits) & set(low.suits if not one_suit else suits):
            continue
        if top and not set(top.suits) & set(high.suits if not one_suit else suits):
            continue
        length = _length(cards)
        top_value = high.value + 1 if top else high.value
        points = 2 * length + top_value if one_suit else length + top_value
        best = points if best is None else max(best, points)
    return best


def _segmentations(pips):
    """The suits of the segments (sorted) for every way to cut the pips into one-suit runs of 2 or more."""
    if not pips:
        yield ()
        return
    first = min(pips, key=lambda p: (p.suits, p.value))
    rest = list(pips)
    rest.remove(first)
    for block in _grow([first], rest):
        left = list(rest)
        for p in block[1:]:
            left.remove(p)
        for tail in _segmentations(left):
            yield tuple(sorted(first.suits + tail))


def _grow(block, rest):
    """Every segment that extends `block` upward: one pip of each next value of its suit."""
    if len(block) >= 2:
        yield list(block)
    suit, value = block[-1].suits, block[-1].value + 1
    for p in [p for p in rest if p.suits == suit and p.value == value]:
        left = list(rest)
        left.remove(p)
        yield from _grow(block + [p], left)


def _chain_exists(segment_suits, knit_pairs) -> bool:
    """Some order of the segments has neighbours of different suits joined by exactly these knits."""
    wanted = sorted(knit_pairs)
    for order in set(itertools.permutations(segment_suits)):
        pairs = [tuple(sorted(pair)) for pair in itertools.pairwise(order)]
        if all(a != b for a, b in pairs) and sorted(pairs) == wanted:
            return True
    return False


def _mixed_points(cards) -> int | None:
    pips, trumps = _split(cards)
    if len(cards) < 6 or len(pips) + len(trumps) != len(cards) or not trumps:
        return None
    if any(sum(q.suits == p.suits for q in pips) < 2 for p in pips):
        return None  # a suit with a single pip cannot form a segment
    knit_pairs = [tuple(sorted(t.suits)) for t in trumps]
    for segment_suits in set(_segmentations(pips)):
        if len(segment_suits) == len(trumps) + 1 and _chain_exists(segment_suits, knit_pairs):
            return _length(cards) + max(p.value for p in pips)
    return None


def _suit_run_points(cards) -> int | None:
    if len(cards) < 6 or any(c.is_void for c in cards):
        return None
    if any(all(c.carries(suit) for c in cards) for suit in SUITS):
        return _length(cards)
    return None


def _set_points(cards, size: int) -> int | None:
    if len(cards) == size and all(c.is_pip for c in cards) and len({c.value for c in cards}) == 1:
        return size
    return None


def _duo_points(cards) -> int | None:
    if len(cards) != 2:
        return None
    a, b = cards
    if a.is_pip and b.is_pip and a.value == b.value:
        return 2
    if a.is_trump and b.is_trump and a.suits == b.suits:
        return 4
    return None


def unit_points_of(kind: str, cards) -> int | None:
    """Points of the Card objects as one unit of `kind`, best layout, None if not a valid unit."""
    if kind == "true_sequence":
        return _run_points(cards, one_suit=True)
    if kind == "value_sequence":
        return _run_points(cards, one_suit=False)
    if kind == "mixed_sequence":
        return _mixed_points(cards)
    if kind == "suit_run":
        return _suit_run_points(cards)
    if kind in SET_KINDS:
        return _set_points(cards, SET_KINDS[kind])
    if kind == "duo":
        return _duo_points(cards)
    raise ValueError(f"unknown kind {kind!r}")


def reference_unit_points(kind: str, cards: list[str]) -> int | None:
    """Points of `cards` (codes) as one unit of `kind` using all of them, best layout (5.2)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    return unit_points_of(kind, [card(code) for code in cards])


# ---------------------------------------------------------------- candidate units of a pool


@dataclass(frozen=True)
class Unit:
    """A valid unit of a pool: its kind, the pool positions it uses, its points and highest pip value."""

    kind: str
    mask: int
    points: int
    high: int


def _subsets(positions, sizes):
    for size in sizes:
        yield from itertools.combinations(positions, size)


def _unit(kind, pool, positions) -> Unit | None:
    points = unit_points_of(kind, [pool[i] for i in positions])
    if points is None:
        return None
    mask = sum(1 << i for i in positions)
    high = max((pool[i].value for i in positions), default=0)
    return Unit(kind, mask, points, high)


def _kind_tries(pool):
    """(kind, positions) for every subset of each kind's possible cards."""
    pips = [i for i, c in enumerate(pool) if c.is_pip]
    trumps = [i for i, c in enumerate(pool) if c.is_trump]
    for suit in SUITS:
        own = [i for i in pips + trumps if pool[i].carries(suit)]
        for positions in _subsets(own, range(6, len(own) + 1)):
            yield "true_sequence", positions
    for pip_part in _subsets(pips, range(4, len(pips) + 1)):
        if _consecutive([pool[i].value for i in pip_part]):
            for trump_part in _subsets(trumps, range(3)):
                if len(pip_part) + len(trump_part) >= 6:
                    yield "value_sequence", pip_part + trump_part
        pip_suits = {pool[i].suits[0] for i in pip_part}
        knits = [i for i in trumps if set(pool[i].suits) <= pip_suits]
        for trump_part in _subsets(knits, range(1, len(pip_part) // 2)):
            yield "mixed_sequence", pip_part + trump_part
    for value in range(1, 11):
        same = [i for i in pips if pool[i].value == value]
        for kind, size in [*SET_KINDS.items(), ("duo", 2)]:
            for positions in _subsets(same, [size]):
                yield kind, positions
    for positions in _subsets(trumps, [2]):
        yield "duo", positions


def candidate_units(pool) -> dict[str, list[Unit]]:
    """Every valid unit of the pool other than Suit Runs, by kind."""
    units: dict[str, list[Unit]] = {kind: [] for kind in KINDS if kind != "suit_run"}
    for kind, positions in _kind_tries(pool):
        unit = _unit(kind, pool, positions)
        if unit is not None:
            units[kind].append(unit)
    return units


def _suit_runs(pool, taken: int, *, pip_mask: int, trump_multi_unit: bool):
    """The best Suit Run of each suit beside units using `taken` (5.6 closing rule)."""
    blocked = taken & pip_mask if trump_multi_unit else taken
    for suit in SUITS:
        positions = [i for i, c in enumerate(pool) if c.carries(suit) and not blocked >> i & 1]
        unit = _unit("suit_run", pool, positions)
        if unit is not None:
            yield unit


# ---------------------------------------------------------------- arrangements


def _arrangements(units_by_kind, conflict_mask: int):
    """Every arrangement of at most one unit per kind whose units share no card in `conflict_mask`."""
    kinds = list(units_by_kind)

    def extend(k: int, chosen: list[Unit], taken: int):
        if k == len(kinds):
            yield chosen, taken
            return
        yield from extend(k + 1, chosen, taken)
        for unit in units_by_kind[kinds[k]]:
            if not unit.mask & taken & conflict_mask:
                yield from extend(k + 1, chosen + [unit], taken | unit.mask)

    yield from extend(0, [], 0)


def _arrangement_key(units, covered: int, hand_mask: int, full_hand_allowed: bool):
    full_hand = full_hand_allowed and hand_mask and hand_mask & covered == hand_mask
    total = sum(u.points for u in units) + (FULL_HAND if full_hand else 0)
    return (total, max((u.points for u in units), default=0), max((u.high for u in units), default=0))


def _best_arrangement(pool, hand_mask: int, full_hand_allowed: bool, trump_multi_unit: bool):
    pip_mask = sum(1 << i for i, c in enumerate(pool) if c.is_pip)
    conflict_mask = pip_mask if trump_multi_unit else (1 << len(pool)) - 1
    best = (0, 0, 0)
    for units, taken in _arrangements(candidate_units(pool), conflict_mask):
        best = max(best, _arrangement_key(units, taken, hand_mask, full_hand_allowed))
        for run in _suit_runs(pool, taken, pip_mask=pip_mask, trump_multi_unit=trump_multi_unit):
            best = max(best, _arrangement_key(units + [run], taken | run.mask, hand_mask, full_hand_allowed))
    return best


def _best_single_unit(pool):
    """(p, p, c) of 8.3: the most points of one unit and the highest pip of a unit with that many."""
    units = [u for kind_units in candidate_units(pool).values() for u in kind_units]
    units += list(_suit_runs(pool, 0, pip_mask=0, trump_multi_unit=True))
    if not units:
        return (0, 0, 0)
    points = max(u.points for u in units)
    return (points, points, max(u.high for u in units if u.points == points))


def _evaluate_pool(hand, field, *, trump_multi_unit: bool, highest_unit_only: bool):
    """(total, best_unit, best_card) of a hand and field of Card objects (voids already made pips or dropped)."""
    pool = [c for c in hand + field if not c.is_void]
    if highest_unit_only:
        return _best_single_unit(pool)
    hand_cards = [c for c in hand if not c.is_void]
    hand_mask = (1 << len(hand_cards)) - 1
    full_hand_allowed = bool(hand) and len(hand_cards) == len(hand)
    return _best_arrangement(pool, hand_mask, full_hand_allowed, trump_multi_unit)


def _check_distinct(codes) -> None:
    seen = set()
    for code in codes:
        card(code)
        if code in seen:
            raise ValueError(f"card {code!r} given twice")
        seen.add(code)


def _wild_identities(voids: list[str]):
    """Every choice of pip identities for the given voids (one place: order does not matter)."""
    return itertools.combinations_with_replacement(PIPS, len(voids))


def reference_evaluate(
    hand: list[str],
    field: list[str],
    *,
    trump_multi_unit: bool = True,
    highest_unit_only: bool = False,
    wild_voids: bool = False,
) -> tuple[int, int, int, int]:
    """(total, best_unit, best_card, hand_high) of 5.4, with the variants of 8.1-8.3."""
    _check_distinct(list(hand) + list(field))
    hand_high = max((card(code).value for code in hand), default=0)
    flags = {"trump_multi_unit": trump_multi_unit, "highest_unit_only": highest_unit_only}
    hand_voids = [code for code in hand if code in VOIDS]
    field_voids = [code for code in field if code in VOIDS]
    if not wild_voids or not (hand_voids or field_voids):
        best = _evaluate_pool([card(c) for c in hand], [card(c) for c in field], **flags)
        return (*best, hand_high)
    hand_rest = [card(c) for c in hand if c not in VOIDS]
    field_rest = [card(c) for c in field if c not in VOIDS]
    best = (0, 0, 0)
    for in_hand in _wild_identities(hand_voids):
        for in_field in _wild_identities(field_voids):
            wild_hand = hand_rest + [card(code) for code in in_hand]
            wild_field = field_rest + [card(code) for code in in_field]
            best = max(best, _evaluate_pool(wild_hand, wild_field, **flags))
    return (*best, hand_high)


def reference_winners(hands: list[list[str]], field: list[str], **flags) -> list[int]:
    """Ascending indices of the hands with the greatest evaluation (5.5)."""
    keys = [reference_evaluate(hand, field, **flags) for hand in hands]
    return [seat for seat, key in enumerate(keys) if key == max(keys)]
