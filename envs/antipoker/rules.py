"""Antipoker rules as pure functions over Scarp-deck card codes (the rulebook's Checkable API).

Hand values are computed by one compiled evaluator, `breakdowns`, over rows of deck indices:
the API's `value_breakdown` is one row of it, the environment's hands and the heuristic's samples
more rows. The environment's hands (`parts_of_ids`) are valued by evaluator_reference.py while
the evaluator compiles in the background.
Betting is the core engine configured by `betting_rules`; `bet` plays one of the rulebook's
betting words on it, for the environment and `run_betting` alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType

import numpy as np
from cardarena.envs.core import betting, settlement
from cardarena.envs.core.compiling import Background, in_numba_cache
from cardarena.envs.core.decks.scarp import DECK
from cardarena.envs.core.errors import IllegalActionError

from . import evaluator_reference
from .rows import NO_CARD

HAND_SIZE = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 6
PARTS = ("cards", "force", "elements", "sets")
BETTING_WORDS = ("fold", "call", "raise")


def breakdowns(hands: np.ndarray) -> np.ndarray:
    """The parts (cards, force, elements, sets) of each row of deck indices, as an int64 array (rows, 4).

    A row holds at most six distinct cards, padded with NO_CARD. Every card counts in every part
    it qualifies for (R11): effective values are the faces doubled by the suit's Essence (R7) and
    again by the Ghost (R8); five or six cards of a colour are a Force (x3, x4, R12); three or more
    of a suit an Element (x count, R13); three or four of a face number a set (sum squared or
    cubed, R14), and three or four Essences one (10 each, x2 with the Ghost, R15).
    The compiled evaluator (evaluator.py) is loaded on first use.
    """
    from . import evaluator

    return evaluator.breakdowns(np.asarray(hands, dtype=np.int64).reshape(-1, HAND_SIZE))


def hand_values(hands: np.ndarray) -> np.ndarray:
    """The total value of each row of deck indices (see `breakdowns`)."""
    return breakdowns(hands).sum(axis=1)


def hand_row(cards: Sequence[int]) -> list[int]:
    """Deck indices padded with NO_CARD to one row of `breakdowns`."""
    return [*cards, *[NO_CARD] * (HAND_SIZE - len(cards))]


def _compile() -> ModuleType:
    from numba import types

    from . import evaluator

    evaluator.breakdowns.compile((types.int64[:, ::1],))
    evaluator.value_features.compile((types.int64[::1], types.float64))
    return evaluator


def _cached() -> bool:
    from . import evaluator

    return in_numba_cache(evaluator.breakdowns, evaluator.value_features)


# `breakdowns` and `value_features` for the game's hands: compiled in a background thread when
# first asked for, or read at once from a warm numba cache (core/compiling.py); until then
# evaluator_reference.py, which tests hold equal to them, values the hands
COMPILED = Background("antipoker", _compile, _cached)


# Keyed by the hand, a tuple of card ids: its value depends on those cards alone.
@lru_cache(maxsize=1 << 16)
def parts_of_ids(cards: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The (cards, force, elements, sets) parts of one hand of deck indices, remembered (a hand is valued at
    every decision): `breakdowns` once compiled, `evaluator_reference.parts` until then."""
    evaluator = COMPILED.ready()
    if evaluator is None:
        return evaluator_reference.parts(cards)
    row = np.array(hand_row(cards), np.int64).reshape(-1, HAND_SIZE)
    cards_part, force, elements, sets = (int(part) for part in evaluator.breakdowns(row)[0])
    return cards_part, force, elements, sets


def value_of_ids(cards: Sequence[int]) -> int:
    """The total value of one hand of deck indices."""
    return int(hand_values(np.array(hand_row(cards)))[0])


# ---------------------------------------------------------------- the Checkable API


def effective_value(card: str, hand: list[str]) -> int:
    """The value `card` (which must be in `hand`) counts with in `hand`: face, doubled by its suit's Essence and
    by the Ghost."""
    cards = _hand_ids(hand)
    index = DECK.index_of(card)
    if index not in cards:
        raise ValueError(f"card {card!r} is not in the hand {list(hand)!r}")
    from . import evaluator

    return int(evaluator.effective_values(np.array(hand_row(cards), dtype=np.int64))[cards.index(index)])


def value_breakdown(hand: list[str]) -> dict[str, int]:
    """The hand's cards, force, elements and sets parts and their total, for 0 to 6 distinct cards."""
    parts = [int(part) for part in breakdowns(np.array(hand_row(_hand_ids(hand))))[0]]
    return {**dict(zip(PARTS, parts)), "total": sum(parts)}


def hand_value(hand: list[str]) -> int:
    """The hand's total value."""
    return value_of_ids(_hand_ids(hand))


def showdown(hands: list[list[str] | None]) -> list[int]:
    """Ascending seats holding the highest value; None marks a folded seat; ties share (R20)."""
    if not isinstance(hands, list) or all(hand is None for hand in hands):
        raise ValueError(f"showdown needs a list with at least one hand present, got {hands!r}")
    rows = {seat: _hand_ids(hand) for seat, hand in enumerate(hands) if hand is not None}
    seen = [card for cards in rows.values() for card in cards]
    if len(set(seen)) != len(seen):
        raise ValueError(
            f"a card appears in two hands: {[DECK.codes[c] for c in sorted(set(seen)) if seen.count(c) > 1]}"
        )
    return best_seats({seat: value_of_ids(cards) for seat, cards in rows.items()})


def run_betting(
    num_players: int,
    actions: list[str],
    dealer: int | None = None,
    ante: int = 1,
    bet_size: int = 2,
    bet_cap: int = 4,
) -> dict:
    """Play the betting round from its actions ("fold", "call", "raise") in acting order; the chips
    each seat put in (ante included), the folded seats and the pot. The sequence must be legal and close the round."""
    if not isinstance(num_players, int) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players={num_players!r} must be from {MIN_PLAYERS} to {MAX_PLAYERS}")
    dealer = num_players - 1 if dealer is None else dealer
    if not isinstance(dealer, int) or not 0 <= dealer < num_players:
        raise ValueError(f"dealer={dealer!r} is not a seat: must be from 0 to {num_players - 1}")
    for name, value in (("ante", ante), ("bet_size", bet_size), ("bet_cap", bet_cap)):
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}={value!r} must be an integer of at least 1")
    rules = betting_rules(bet_size, bet_cap)
    bets = open_betting(rules, num_players, dealer, ante * num_players)
    for number, action in enumerate(actions):
        if bets.finished:
            raise ValueError(f"action {number} ({action!r}) comes after the betting round has closed")
        bet(bets, rules, action)
    if not bets.finished:
        raise ValueError(
            f"the actions {actions!r} end before the betting round closes (seat {bets.seat_to_act} is to act)"
        )
    return {
        "contributed": [ante + paid for paid in bets.contributions],
        "folded": [seat for seat, out in enumerate(bets.folded) if out],
        "pot": bets.pot,
    }


# ---------------------------------------------------------------- betting and settlement


def betting_rules(bet_size: int, max_bets: int) -> betting.BettingRules:
    """The betting round on the core engine: fixed limit, bets and raises of `bet_size`, at most
    `max_bets` of them, unlimited bankrolls (R16), FOLD only facing a bet (R19)."""
    return betting.BettingRules(unit=bet_size, max_bets=max_bets, bankroll="unlimited", fold="facing_bet")


def open_betting(
    rules: betting.BettingRules, num_players: int, dealer: int, pot: int, folded: list[bool] | None = None
) -> betting.BettingRound:
    """The round after the draw: level 0, first to act the seat left of the dealer; antes are in `pot` but not
    the level."""
    return betting.BettingRound.open(
        rules, [0] * num_players, folded or [False] * num_players, (dealer + 1) % num_players, pot
    )


# The engine's actions as the rulebook's betting words: "call" checks when nothing is owed, "raise" bets when
# nobody has bet.
WORD_OF_ENGINE = {betting.FOLD: "fold", betting.CHECK: "call", betting.CALL: "call", betting.RAISE_MIN: "raise"}


def bet(
    bets: betting.BettingRound, rules: betting.BettingRules, word: str, choices: dict[str, int] | None = None
) -> None:
    """Play "fold", "call" (a check when nothing is owed) or "raise" (a bet when nobody has bet) for the seat to act.
    `choices`: the decision's `bets.choices(rules)` where the caller has them already."""
    if word not in BETTING_WORDS:
        raise ValueError(f"betting action {word!r} is not one of {', '.join(BETTING_WORDS)}")
    seat = bets.seat_to_act
    move = {"fold": betting.FOLD, "raise": betting.RAISE_MIN}.get(word) or (
        betting.CALL if bets.to_call(seat) > 0 else betting.CHECK
    )
    try:
        bets.act(rules, move, choices)
    except IllegalActionError:
        raise IllegalActionError(
            f"{word!r} is not legal for seat {seat} now; legal: {', '.join(legal_words(bets, rules))}"
        ) from None


def legal_words(
    bets: betting.BettingRound, rules: betting.BettingRules, choices: dict[str, int] | None = None
) -> list[str]:
    """The betting words open to the seat to act, in the order fold, call, raise (from `choices`
    where the caller has the decision's `bets.choices(rules)` already)."""
    return [WORD_OF_ENGINE[move] for move in (bets.choices(rules) if choices is None else choices)]


def best_seats(values: dict[int, int]) -> list[int]:
    """Ascending seats with the highest value."""
    top = max(values.values())
    return sorted(seat for seat, value in values.items() if value == top)


def payouts(contributed: list[int], folded: list[bool], values: list[int | None], dealer: int) -> list[float]:
    """What each seat receives from the pot: all of it to the one seat left in, else to the highest
    value, split exactly on a tie (fractional chips, R20); `values[s]` None for a folded seat."""
    first = (dealer + 1) % len(contributed)
    return [float(paid) for paid in settlement.settle(contributed, folded, values, first, fractional=True).payouts]


def _hand_ids(hand: list[str]) -> list[int]:
    if not isinstance(hand, (list, tuple)):
        raise ValueError(f"a hand is a list of card codes, got {hand!r}")
    if len(hand) > HAND_SIZE:
        raise ValueError(f"a hand holds at most {HAND_SIZE} cards, got {len(hand)}: {list(hand)!r}")
    return DECK.indices_of(hand)
