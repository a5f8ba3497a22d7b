"""Piktas rules as pure functions over canonical card codes (rulebook section 12, Checkable API).

Each public function validates its codes and delegates to an index-level twin (`*_ids`) that
game.py calls on its hot path. Deck index (rulebook section 2): pips 10 * suit + value - 1
(0-49), trumps 50-69 (pairs in canonical order, copy 1 then 2), voids 70 and 71.
Scoring is exact and compiled (scoring.py); reference.py is its plain reading, the one to learn it from.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from cardarena.envs.core import betting, settlement
from cardarena.envs.core.cards import Deck

SUITS = "OWKUM"
NUM_VALUES = 10
TRUMP_PAIRS = tuple((a, b) for a in range(len(SUITS)) for b in range(a + 1, len(SUITS)))
FIRST_TRUMP = 50
FIRST_VOID = 70
VOIDS = (70, 71)
DECK: list[str] = (
    [f"{suit}{value}" for suit in SUITS for value in range(1, NUM_VALUES + 1)]
    + [f"T{SUITS[a]}{SUITS[b]}{copy}" for a, b in TRUMP_PAIRS for copy in (1, 2)]
    + ["V1", "V2"]
)
CARDS = Deck(DECK)
HAND_SIZE = 6
FIELD_SIZE = 6
INITIAL_FIELD_POSITIONS = 3
NUM_CYCLES = 3  # exchange cycles a round (4.1)
MIN_PLAYERS, MAX_PLAYERS = 2, 11
MIN_UNIT_CARDS = 6
KINDS = ("true_sequence", "value_sequence", "mixed_sequence", "suit_run", "quintet", "quartet", "trio", "duo")
SET_SIZES = {"quintet": 5, "quartet": 4, "trio": 3}


def is_pip(card: int) -> bool:
    return card < FIRST_TRUMP


def is_trump(card: int) -> bool:
    return FIRST_TRUMP <= card < FIRST_VOID


def is_void(card: int) -> bool:
    return card >= FIRST_VOID


def suit_of(card: int) -> int:
    """A pip card's suit index."""
    return card // NUM_VALUES


def value_of(card: int) -> int:
    """A pip card's face value 1-10."""
    return card % NUM_VALUES + 1


def trump_suits(card: int) -> tuple[int, int]:
    """A trump's two suits (its pair)."""
    return TRUMP_PAIRS[(card - FIRST_TRUMP) // 2]


def carries(card: int, suit: int) -> bool:
    return suit in trump_suits(card)


# ---------------------------------------------------------------- single units (5.2)


def unit_points(kind: str, cards: list[str]) -> int | None:
    """Points of `cards` as one unit of `kind`, all cards used, best layout; None if not valid."""
    if kind not in KINDS:
        raise ValueError(f"unknown unit kind {kind!r}; kinds are {', '.join(KINDS)}")
    ids = CARDS.indices_of(cards)
    if any(is_void(card) for card in ids):
        return None
    pips = sorted((card for card in ids if is_pip(card)), key=value_of)
    trumps = [card for card in ids if is_trump(card)]
    if kind in SET_SIZES:
        return _set_points(pips, trumps, SET_SIZES[kind])
    if kind == "duo":
        return _duo_points(pips, trumps)
    if len(ids) < MIN_UNIT_CARDS:
        return None
    if kind == "suit_run":
        return _suit_run_points(pips, trumps)
    if kind == "mixed_sequence":
        return _mixed_sequence_points(pips, trumps)
    return _sequence_points(pips, trumps, true_run=kind == "true_sequence")


def _set_points(pips: list[int], trumps: list[int], size: int) -> int | None:
    if trumps or len(pips) != size or len({value_of(card) for card in pips}) != 1:
        return None
    return size


def _duo_points(pips: list[int], trumps: list[int]) -> int | None:
    if len(pips) == 2 and not trumps and value_of(pips[0]) == value_of(pips[1]):
        return 2
    if len(trumps) == 2 and not pips and trump_suits(trumps[0]) == trump_suits(trumps[1]):
        return 4
    return None


def _suit_run_points(pips: list[int], trumps: list[int]) -> int | None:
    for suit in range(len(SUITS)):
        if all(suit_of(card) == suit for card in pips) and all(carries(card, suit) for card in trumps):
            return len(pips) + 2 * len(trumps)
    return None


def _is_consecutive(pips: list[int]) -> bool:
    """Pips (sorted by value) with distinct consecutive values."""
    return all(value_of(b) == value_of(a) + 1 for a, b in zip(pips, pips[1:]))


def _sequence_points(pips: list[int], trumps: list[int], true_run: bool) -> int | None:
    """True Sequence (2L + H) or Value Sequence (L + H), caps placed for the most points."""
    if not pips or len(trumps) > 2 or not _is_consecutive(pips):
        return None
    suits = {suit_of(card) for card in pips}
    if true_run and len(suits) != 1 or not true_run and len(suits) < 2:
        return None
    low, high = pips[0], pips[-1]
    length, hi = len(pips) + 2 * len(trumps), value_of(high)

    def fits(cap: int, end: int) -> bool:
        return carries(cap, suit_of(end))

    if not trumps:
        top = hi
    elif len(trumps) == 1:
        cap = trumps[0]
        if fits(cap, high):
            top = hi + 1
        elif fits(cap, low):
            top = hi
        else:
            return None
    else:
        a, b = trumps
        if not (fits(a, low) and fits(b, high) or fits(b, low) and fits(a, high)):
            return None
        top = hi + 1
    return (2 * length if true_run else length) + top


def _mixed_sequence_points(pips: list[int], trumps: list[int]) -> int | None:
    """L + highest pip, if the cards can be laid out as a chain S1 t1 S2 ... Sm (m >= 2)."""
    if not trumps:
        return None
    per_suit = [sorted(value_of(card) for card in pips if suit_of(card) == suit) for suit in range(len(SUITS))]
    splits = [_segment_splits(values) for values in per_suit]
    knits = [trump_suits(card) for card in trumps]
    for choice in itertools.product(*splits):
        segment_suits = [suit for suit, segments in enumerate(choice) for _ in segments]
        if len(segment_suits) == len(knits) + 1 and _chains(segment_suits, knits):
            return len(pips) + 2 * len(trumps) + max(value_of(card) for card in pips)
    return None


def _segment_splits(values: list[int]) -> list[list[list[int]]]:
    """Every way to cut one suit's sorted values into segments of >= 2 consecutive values."""
    if not values:
        return [[]]
    splits = []
    for end in range(2, len(values) + 1):
        head = values[:end]
        if head[-1] - head[0] != end - 1 or len(set(head)) != end:
            break
        splits += [[head, *rest] for rest in _segment_splits(values[end:])]
    return splits


def _chains(segment_suits: list[int], knits: list[tuple[int, int]]) -> bool:
    """Whether the segments (by suit) and knits can alternate in one chain."""
    for order in itertools.permutations(segment_suits):
        links = [tuple(sorted(pair)) for pair in zip(order, order[1:])]
        if all(a != b for a, b in links) and sorted(links) == sorted(knits):
            return True
    return False


# ---------------------------------------------------------------- pools (5.3-5.5, 8.1-8.3)


def evaluate(
    hand: list[str],
    field: list[str],
    *,
    trump_multi_unit: bool = True,
    highest_unit_only: bool = False,
    wild_voids: bool = False,
) -> tuple[int, int, int, int]:
    """(total, best_unit, best_card, hand_high) of a seat's hand pooled with the field (5.4)."""
    hand_ids, field_ids = CARDS.indices_of(hand), CARDS.indices_of(field)
    _require_disjoint(hand_ids, field_ids)
    return evaluate_ids(hand_ids, field_ids, trump_multi_unit, highest_unit_only, wild_voids)


def evaluate_ids(
    hand: Sequence[int], field: Sequence[int], trump_multi_unit: bool, highest_unit_only: bool, wild_voids: bool
) -> tuple[int, int, int, int]:
    """`evaluate` on deck indices (no validation)."""
    items, hand_mask, full_hand_allowed = pool_items(hand, field, highest_unit_only, wild_voids)
    from .scoring import MAX_POOL, score_pool  # the compiled scorer loads on first use, not with the game

    if len(items) > MAX_POOL:
        raise ValueError(f"a pool of {len(items)} cards is larger than the {MAX_POOL} the scorer handles")
    total, best_unit, best_card = score_pool(
        np.array(items, np.int64), hand_mask, full_hand_allowed, trump_multi_unit, highest_unit_only
    )
    return (int(total), int(best_unit), int(best_card), hand_high(hand))


def pool_items(
    hand: Sequence[int], field: Sequence[int], highest_unit_only: bool, wild_voids: bool
) -> tuple[list[int], int, bool]:
    """A seat's pool as the scorer takes it (5.1, 8.2, 8.3): its items (the hand's cards, then the
    field's; voids only when they are wild), the mask of the hand's items (item i is bit i), and
    whether the Full Hand bonus can be earned (a non-empty hand with no void blocking it)."""
    hand_items = [card for card in hand if wild_voids or not is_void(card)]
    field_items = [card for card in field if wild_voids or not is_void(card)]
    void_in_hand = len(hand_items) < len(hand)
    full_hand_allowed = bool(hand) and not void_in_hand and not highest_unit_only
    return hand_items + field_items, (1 << len(hand_items)) - 1, full_hand_allowed


def hand_high(hand: Sequence[int]) -> int:
    """The highest face value among the hand's pips, 0 without one: the last tie-break (5.4)."""
    return max((value_of(card) for card in hand if is_pip(card)), default=0)


def score(
    hand: list[str],
    field: list[str],
    *,
    trump_multi_unit: bool = True,
    highest_unit_only: bool = False,
    wild_voids: bool = False,
) -> int:
    """The pool's points: `evaluate(...)[0]`."""
    return evaluate(
        hand, field, trump_multi_unit=trump_multi_unit, highest_unit_only=highest_unit_only, wild_voids=wild_voids
    )[0]


def winners(
    hands: list[list[str]],
    field: list[str],
    *,
    trump_multi_unit: bool = True,
    highest_unit_only: bool = False,
    wild_voids: bool = False,
) -> list[int]:
    """Ascending indices of the hands with the greatest `evaluate` tuple (5.5)."""
    field_ids = CARDS.indices_of(field)
    hand_ids = [CARDS.indices_of(hand) for hand in hands]
    _require_disjoint(*hand_ids, field_ids)
    results = [evaluate_ids(hand, field_ids, trump_multi_unit, highest_unit_only, wild_voids) for hand in hand_ids]
    return best_seats(results)


def best_seats(results: Sequence[tuple[int, int, int, int]]) -> list[int]:
    """Indices of the greatest evaluate tuples (all of them on a tie)."""
    if not results:
        return []
    top = max(results)
    return [i for i, result in enumerate(results) if result == top]


def _require_disjoint(*groups: Sequence[int]) -> None:
    cards = [card for group in groups for card in group]
    if len(set(cards)) != len(cards):
        twice = sorted({card for card in cards if cards.count(card) > 1})
        raise ValueError(f"card given twice: {', '.join(DECK[c] for c in twice)}")


# ---------------------------------------------------------------- table actions (3.5, 4.2)


def is_uncovered(stack: Sequence[int]) -> bool:
    """A position holding exactly one non-void card and nothing else."""
    return len(stack) == 1 and not is_void(stack[0])


def legal_actions(hand: list[str], field: list[list[str]]) -> list[str]:
    """Sorted labels of the legal exchange actions: pass, swap:<hand>:<field>, void:<void>:<field>."""
    hand_ids = CARDS.indices_of(hand)
    stacks = [CARDS.indices_of(stack) for stack in field]
    _require_disjoint(hand_ids, *stacks)
    targets = exchange_targets(stacks)
    return sorted(["pass", *(move_label(card, stacks[position][0]) for card in hand_ids for position in targets)])


def exchange_targets(positions: Sequence[Sequence[int]]) -> list[int]:
    """The field positions a hand card can go onto at an exchange turn (4.2): the uncovered ones.
    Every card of the hand may go onto each, a void laid on its card, any other card swapped."""
    return [position for position, stack in enumerate(positions) if is_uncovered(stack)]


def move_label(card: int, target: int) -> str:
    """`swap:<hand card>:<field card>`, or `void:<void>:<field card>` when the hand card is a void."""
    return f"{'void' if is_void(card) else 'swap'}:{DECK[card]}:{DECK[target]}"


def deal_field_card(deck: list[str]) -> dict[str, list[str]]:
    """Deal one field position from the top of `deck` (3.5): {"stack": bottom->top, "deck": rest}."""
    ids = CARDS.indices_of(deck)
    stack, rest = deal_position_ids(ids)
    return {"stack": [DECK[c] for c in stack], "deck": [DECK[c] for c in rest]}


def deal_position_ids(deck: Sequence[int]) -> tuple[list[int], list[int]]:
    """(stack bottom->top, rest of the deck): voids drawn lie on the first non-void card drawn."""
    voids: list[int] = []
    for drawn, card in enumerate(deck):
        if not is_void(card):
            return [card, *reversed(voids)], list(deck[drawn + 1 :])
        voids.append(card)
    return list(reversed(voids)), []


def round_order(dealer: int, in_round: Sequence[bool]) -> list[int]:
    """The seats in the round, clockwise from the dealer's left (the dealer last): the order of the deal,
    the exchanges and the next dealer (3.4, 4.1)."""
    n = len(in_round)
    return [seat for seat in ((dealer + k) % n for k in range(1, n + 1)) if in_round[seat]]


def initial_deal(deck: list[str], num_players: int, dealer: int) -> dict[str, list]:
    """Hands (6 passes clockwise from the dealer's left) and 3 field positions (3.4)."""
    ids = CARDS.indices_of(deck)
    if sorted(ids) not in (list(range(len(DECK))), list(range(FIRST_VOID))):
        raise ValueError(
            f"deck must be the {len(DECK)}-card deck or the {FIRST_VOID}-card deck without voids, in any order"
        )
    _require_table(num_players, dealer)
    order = round_order(dealer, [True] * num_players)
    hands, field, rest = deal_hands_and_field_ids(ids, order, num_players)
    return {
        "hands": [[DECK[c] for c in hand] for hand in hands],
        "field": [[DECK[c] for c in stack] for stack in field],
        "deck": [DECK[c] for c in rest],
    }


def deal_hands_and_field_ids(
    deck: Sequence[int], order: Sequence[int], num_players: int
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Deal 6 passes to the seats of `order` (clockwise from the dealer's left), then 3 field positions.

    Returns (hands in dealing order, one per seat of the table; field positions; rest of the deck).
    """
    hands: list[list[int]] = [[] for _ in range(num_players)]
    dealt = HAND_SIZE * len(order)
    for position, card in enumerate(deck[:dealt]):
        hands[order[position % len(order)]].append(card)
    rest = list(deck[dealt:])
    field = []
    for _ in range(INITIAL_FIELD_POSITIONS):
        stack, rest = deal_position_ids(rest)
        if stack:
            field.append(stack)
    return hands, field, rest


def _require_table(num_players: int, dealer: int) -> None:
    if not isinstance(num_players, int) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players={num_players!r}: must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}")
    if not isinstance(dealer, int) or not 0 <= dealer < num_players:
        raise ValueError(f"dealer={dealer!r}: must be a seat from 0 to {num_players - 1}")


# ---------------------------------------------------------------- betting (section 6)

# The betting engine's actions under this rulebook's names (6.3).
BETTING_NAMES = {betting.CHECK: "stay", betting.CALL: "match", betting.RAISE_MIN: "raise", betting.FOLD: "fold"}
# What a Piktas state keeps of an open betting round: the engine's round, less what 6.3 derives.
BETTING_STATE = ("stacks", "folded", "to_act", "pot", "current_bet", "contributions", "history")


def betting_rules(raise_amount: int, max_raises: int) -> betting.BettingRules:
    """6.3 on the betting engine: raises of `raise_amount`, at most `max_raises` in all, each one
    affordable by every seat still in (so nobody is ever all-in), and `fold` always legal."""
    return betting.BettingRules(unit=raise_amount, max_bets=max_raises, bankroll="covered", fold="always")


def betting_round(
    current_bet: int,
    contributions: list[int],
    stacks: list[int],
    folded: list[bool],
    to_act: list[int],
    pot: int = 0,
    history: list[list[Any]] | None = None,
    *,
    raise_amount: int,
) -> betting.BettingRound:
    """The engine's round for a betting state of 6.3, where raises so far = current_bet / raise_amount."""
    return betting.BettingRound.from_json(
        {
            "stacks": stacks,
            "folded": folded,
            "to_act": to_act,
            "pot": pot,
            "current_bet": current_bet,
            "contributions": contributions,
            "bets": current_bet // raise_amount,
            "min_raise": raise_amount,
            "history": history or [],
        }
    )


def betting_actions(
    current_bet: int,
    contributions: list[int],
    stacks: list[int],
    folded: list[bool],
    seat: int,
    *,
    raise_amount: int = 10,
    max_raises: int = 3,
) -> list[str]:
    """Sorted betting actions open to `seat` (6.3); ValueError if it has folded or already matched."""
    if not len(contributions) == len(stacks) == len(folded) or not 0 <= seat < len(stacks):
        raise ValueError("contributions, stacks and folded need one entry per seat, and seat must be one of them")
    if raise_amount < 1 or max_raises < 0:
        raise ValueError(f"raise_amount={raise_amount} must be >= 1 and max_raises={max_raises} >= 0")
    bets = betting_round(current_bet, contributions, stacks, folded, [seat], raise_amount=raise_amount)
    return sorted(BETTING_NAMES[action] for action in bets.options(betting_rules(raise_amount, max_raises)))


def split_pot(pot: int, winners: list[int], dealer: int, num_players: int) -> list[int]:
    """Chips each seat receives (6.4): equal shares, odd chips clockwise from the dealer's left."""
    _require_table(num_players, dealer)
    if not winners or any(not 0 <= seat < num_players for seat in winners) or len(set(winners)) != len(winners):
        raise ValueError(f"winners={winners!r}: need distinct seats from 0 to {num_players - 1}")
    return [int(chips) for chips in settlement.split_pot(pot, winners, (dealer + 1) % num_players, num_players)]
