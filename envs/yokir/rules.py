"""Yokir rules as pure functions over canonical card codes (rulebook section 12, Checkable API).

Each public function validates its codes and delegates to an index-level twin
(`*_ids`) that game.py calls on its hot path, so every rule is written once.
Deck index = 6 * suit index + rank index (rulebook section 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from cardarena.envs.core.cards import Deck

Suit = Literal["Ar", "Po", "At", "Ph"]
SUITS: tuple[Suit, ...] = get_args(Suit)
RANKS = ("Ci", "St", "Pr", "Jo", "Sc", "Ma")
DECK = Deck([rank + suit for suit in SUITS for rank in RANKS])
NUM_PLAYERS = 3
HAND_SIZE = 5
NUM_TRICKS = 5
CITIZEN = 0


def suit_of(card_id: int) -> int:
    return card_id // len(RANKS)


def rank_of(card_id: int) -> int:
    return card_id % len(RANKS)


def partner_suit(suit_id: int) -> int:
    """The other suit of the same colour (Ar<->Po, At<->Ph)."""
    return suit_id ^ 1


def oracle_id(trump_id: int) -> int:
    return trump_id * len(RANKS) + CITIZEN


def sage_id(trump_id: int) -> int:
    return partner_suit(trump_id) * len(RANKS) + CITIZEN


def _effective_suit_table() -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(trump if card == sage_id(trump) else suit_of(card) for card in range(len(DECK)))
        for trump in range(len(SUITS))
    )


def _power_table() -> tuple[tuple[int, ...], ...]:
    """power[trump][card]: higher beats lower within an effective suit; Oracle 8, Sage 7, Ma..Ci 6..1."""
    table = []
    for trump in range(len(SUITS)):
        row = [rank_of(card) + 1 for card in range(len(DECK))]
        row[oracle_id(trump)] = 8
        row[sage_id(trump)] = 7
        table.append(tuple(row))
    return tuple(table)


EFFECTIVE_SUIT = _effective_suit_table()
POWER = _power_table()


def legal_play_ids(hand: Sequence[int], led: int | None, trump: int) -> list[int]:
    """Card ids of `hand` that may be played to a trick whose led card is `led` (None: leading)."""
    if led is None:
        return sorted(hand)
    effective = EFFECTIVE_SUIT[trump]
    led_suit = effective[led]
    following = [card for card in hand if effective[card] == led_suit]
    return sorted(following or hand)


def trick_winner_id(cards: Sequence[int], trump: int) -> int:
    """Position in play order of the winning card of a (possibly partial) trick."""
    effective = EFFECTIVE_SUIT[trump]
    power = POWER[trump]
    led_suit = effective[cards[0]]
    best_position, best_key = 0, -1
    for position, card in enumerate(cards):
        suit = effective[card]
        key = 100 + power[card] if suit == trump else power[card] if suit == led_suit else -1
        if key > best_key:
            best_position, best_key = position, key
    return best_position


def _suit_id(code: object) -> int:
    try:
        return SUITS.index(code)
    except ValueError:
        raise ValueError(f"unknown suit code {code!r}; suits are {', '.join(SUITS)}") from None


def effective_suit(card: str, trump: str) -> str:
    """Suit the card belongs to when `trump` is trump (the Sage belongs to trump)."""
    return SUITS[EFFECTIVE_SUIT[_suit_id(trump)][DECK.index_of(card)]]


def rank_order(trump: str, suit: str) -> list[str]:
    """Every card whose effective suit is `suit` under `trump`, highest first."""
    trump_id, suit_id = _suit_id(trump), _suit_id(suit)
    members = [card for card in range(len(DECK)) if EFFECTIVE_SUIT[trump_id][card] == suit_id]
    members.sort(key=lambda card: POWER[trump_id][card], reverse=True)
    return [DECK.codes[card] for card in members]


def trick_winner(cards: list[str], trump: str) -> int:
    """Index in play order (cards[0] was led) of the card that wins the trick."""
    if not 1 <= len(cards) <= NUM_PLAYERS:
        raise ValueError(f"a trick has 1 to {NUM_PLAYERS} cards, got {list(cards)!r}")
    return trick_winner_id(DECK.indices_of(cards), _suit_id(trump))


def legal_plays(hand: list[str], led: str | None, trump: str) -> list[str]:
    """Cards of `hand` that may be played, in deck order; `led` is None when this player leads."""
    hand_ids = DECK.indices_of(hand)
    led_id = None if led is None else DECK.index_of(led)
    if led_id in hand_ids:
        raise ValueError(f"led card {led!r} cannot also be in the hand {list(hand)!r}")
    return DECK.codes_of(legal_play_ids(hand_ids, led_id, _suit_id(trump)))


def callable_suits(up_card: str) -> list[str]:
    """Suits that may be named in bidding round 2: all but the up-card's suit."""
    up_suit = suit_of(DECK.index_of(up_card))
    return [suit for suit_id, suit in enumerate(SUITS) if suit_id != up_suit]


def score_hand(caller: int | None, tricks: list[int]) -> list[int]:
    """Points of seats 0, 1, 2 for one hand (rulebook section 5)."""
    if len(tricks) != NUM_PLAYERS or any(type(t) is not int or t < 0 for t in tricks):
        raise ValueError(f"tricks must be {NUM_PLAYERS} non-negative ints, got {tricks!r}")
    if caller is None:
        if any(tricks):
            raise ValueError(f"a void hand (caller None) has no tricks, got {tricks!r}")
        return [0] * NUM_PLAYERS
    if type(caller) is not int or not 0 <= caller < NUM_PLAYERS:
        raise ValueError(f"caller must be a seat 0..{NUM_PLAYERS - 1} or None, got {caller!r}")
    if sum(tricks) != NUM_TRICKS:
        raise ValueError(f"tricks must sum to {NUM_TRICKS}, got {tricks!r}")
    return score_hand_ids(caller, tricks)


def score_hand_ids(caller: int, tricks: Sequence[int]) -> list[int]:
    taken = tricks[caller]
    if taken <= 2:
        return [0 if seat == caller else 1 for seat in range(NUM_PLAYERS)]
    points = 1 if taken <= 4 else 3
    return [points if seat == caller else 0 for seat in range(NUM_PLAYERS)]


def match_winner(scores: list[int], target: int = 10) -> int | None:
    """Seat that has won the match: top score >= target and held alone; else None."""
    if len(scores) != NUM_PLAYERS or any(type(s) is not int or s < 0 for s in scores):
        raise ValueError(f"scores must be {NUM_PLAYERS} non-negative ints, got {scores!r}")
    if type(target) is not int or target < 1:
        raise ValueError(f"target must be an int >= 1, got {target!r}")
    top = max(scores)
    if top >= target and scores.count(top) == 1:
        return scores.index(top)
    return None
