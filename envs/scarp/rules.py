"""Scarp rules as pure functions over canonical card codes (the rulebook's Checkable API).

Each public function validates its codes and delegates to an index-level twin (`*_ids`, deck
indices of the Scarp deck) that game.py calls on its hot path, so every rule is written once.
The deck itself (codes, suits, colours, Essences) lives in `cardarena.envs.core.decks.scarp`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from cardarena.envs.core.decks.scarp import (
    DECK,
    ENEMY,
    ESSENCE,
    GHOST,
    NUMBER_INDEX,
    SUIT_INDEX,
    SUITS,
    Suit,
    check_suit,
    colour_of,
    number_of,
    opposite_suits,
    suit_of,
)

__all__ = [
    "COMBO_KINDS",
    "DECK",
    "ENEMY",
    "ESSENCE",
    "GHOST",
    "SUITS",
    "Suit",
    "answer_options",
    "colour_of",
    "combo_options",
    "end_result",
    "has_colour_win",
    "is_combo",
    "is_valid_answer",
    "number_of",
    "opposite_suits",
    "resolve_challenge",
    "strip_count",
    "suit_of",
]

NUM_PLAYERS = 2
HAND_SIZE = 5
NUM_NUMBERED = 40
FIRST_ESSENCE = 40
GHOST_ID = DECK.index[GHOST]
ESSENCE_IDS = tuple(DECK.index[ESSENCE[suit]] for suit in SUITS)
COLOUR_WIN_CARDS = 10
QUAKE_HAND_LIMIT = 10
COMBO_KINDS = ("emp", "shrike", "quake")
PICK_KINDS = (*COMBO_KINDS, "reverse")

SUIT = SUIT_INDEX
"""Per deck index: the suit's index in SUITS (L, S, D, H), -1 for the Ghost."""
NUMBER = NUMBER_INDEX
"""Per deck index: the face number, 0 for Essences and the Ghost."""
COLOUR = tuple(suit % 2 if suit >= 0 else -1 for suit in SUIT)
"""Per deck index: 0 white (Light, Death), 1 black (Shade, Life), -1 for the Ghost."""
COST = tuple(number or (1 if suit >= 0 else 0) for number, suit in zip(NUMBER, SUIT))
"""Per deck index: what a card takes from an answer's total: its number, 1 for an Essence (its least value)."""
OPPOSITE = tuple(tuple(SUITS.index(other) for other in opposite_suits(suit)) for suit in SUITS)
"""Per suit index: the two suit indices of the other colour, in suit order."""
ENEMY_INDEX = tuple(SUITS.index(ENEMY[suit]) for suit in SUITS)


def is_essence_id(card: int) -> bool:
    return FIRST_ESSENCE <= card < GHOST_ID


def is_numbered_id(card: int) -> bool:
    return card < NUM_NUMBERED


# ---------------------------------------------------------------- answers (R9, R10)


def is_valid_answer_ids(cards: Iterable[int], number: int, suit: int) -> bool:
    """A valid answer to (number, suit): non-empty, all of the suit's colour, one card of the suit,
    an exact total without Essences, else numbers plus one per Essence at most `number`."""
    colour, total, essences, has_suit, size = suit % 2, 0, 0, False, 0
    for card in cards:
        card_suit = SUIT[card]
        if card_suit < 0 or card_suit % 2 != colour:
            return False
        size += 1
        has_suit |= card_suit == suit
        if card >= FIRST_ESSENCE:
            essences += 1
        else:
            total += NUMBER[card]
    if not (size and has_suit):
        return False
    return total + essences <= number if essences else total == number


def answer_completes_ids(chosen: Iterable[int], rest: Iterable[int], number: int, suit: int) -> bool:
    """Whether some cards of `rest` complete `chosen` to a valid answer to (number, suit).

    Two ways to complete: with an Essence (the total plus one per Essence may not exceed the
    number, so the cheapest additions decide), or with numbered cards only (an exact subset sum,
    as a bitmask of reachable totals, with and without a card of the suit).
    """
    colour, total, essences, has_suit = suit % 2, 0, 0, False
    for card in chosen:
        card_suit = SUIT[card]
        if card_suit < 0 or card_suit % 2 != colour:
            return False
        has_suit |= card_suit == suit
        if card >= FIRST_ESSENCE:
            essences += 1
        else:
            total += NUMBER[card]
    budget = number - total - essences
    if budget < 0:
        return False
    suit_essence = other_essence = False
    cheapest_suit = 11
    reach, reach_suit = 1, 0  # bit s: some numbered cards of rest total s (reach_suit: one of them of the suit)
    full = (1 << (budget + 1)) - 1
    for card in rest:
        card_suit = SUIT[card]
        if card_suit < 0 or card_suit % 2 != colour:
            continue
        if card >= FIRST_ESSENCE:
            if card_suit == suit:
                suit_essence = True
            else:
                other_essence = True
            continue
        value = NUMBER[card]
        if card_suit == suit:
            cheapest_suit = min(cheapest_suit, value)
            reach_suit = (reach_suit | (reach_suit << value) | (reach << value)) & full
        else:
            reach_suit = (reach_suit | (reach_suit << value)) & full
        reach = (reach | (reach << value)) & full
    # with an Essence: the cheapest way to hold one Essence and one card of the suit
    if essences:
        need = 0 if has_suit else min(1 if suit_essence else 11, cheapest_suit)
    elif has_suit:
        need = 1 if suit_essence or other_essence else 11
    else:
        need = 1 if suit_essence else (1 + cheapest_suit if other_essence else 11)
    if need <= budget:
        return True
    if essences:
        return False
    exact = reach if has_suit else reach_suit
    return bool(exact >> budget & 1) and (budget > 0 or has_suit)


def answer_picks_ids(pool: Sequence[int], chosen: Sequence[int], number: int, suit: int) -> list[int]:
    """The cards of `pool` not in `chosen` after which a valid answer can still be completed, ascending."""
    taken = set(chosen)
    colour = suit % 2
    rest = [card for card in pool if card not in taken and COLOUR[card] == colour]
    picks = []
    for card in sorted(rest):
        others = [other for other in rest if other != card]
        if answer_completes_ids([*chosen, card], others, number, suit):
            picks.append(card)
    return picks


def is_valid_answer(cards: list[str], number: int, suit: str) -> bool:
    """The answer conditions: not empty and no Ghost; every card of the challenge suit's colour;
    at least one card of the challenge suit; numbers total exactly `number` without Essences,
    else numbers plus one per Essence at most `number` (each Essence stands for 1..10)."""
    ids = DECK.indices_of(cards)
    return is_valid_answer_ids(ids, _check_number(number), SUITS.index(check_suit(suit)))


def answer_options(pool: list[str], chosen: list[str], number: int, suit: str) -> list[str]:
    """The cards of `pool` (deck order) that keep `chosen` completable to a valid answer, then
    "DONE" when `chosen` is itself a valid answer."""
    pool_ids = DECK.indices_of(pool)
    chosen_ids = _subset(chosen, pool_ids, "chosen", "pool")
    number, suit_id = _check_number(number), SUITS.index(check_suit(suit))
    options = DECK.codes_of(answer_picks_ids(pool_ids, chosen_ids, number, suit_id))
    return options + (["DONE"] if is_valid_answer_ids(chosen_ids, number, suit_id) else [])


# ---------------------------------------------------------------- combinations (4.1, R16-R18)


def is_combo_ids(cards: Sequence[int], kind: str) -> bool:
    """Three cards forming an Emp (one colour), a Shrike (one suit) or a Quake (one number, Essences wild);
    never the Ghost."""
    if len(cards) != 3 or any(SUIT[card] < 0 for card in cards):
        return False
    if kind == "emp":
        return len({COLOUR[card] for card in cards}) == 1
    if kind == "shrike":
        return len({SUIT[card] for card in cards}) == 1
    return len({NUMBER[card] for card in cards if card < FIRST_ESSENCE}) <= 1


def combo_completes_ids(chosen: Sequence[int], rest: Sequence[int], kind: str) -> bool:
    """Whether cards of `rest` complete `chosen` to a three-card combination of `kind`; a
    `reverse` Shrike must also leave a numbered card in the hand (`chosen` and `rest`)."""
    need = 3 - len(chosen)
    if need < 0:
        return False
    if kind != "reverse":
        return _combo_count_completes(chosen, rest, kind, need)
    for extra in combinations(rest, need):
        combo = [*chosen, *extra]
        if is_combo_ids(combo, "shrike") and _leaves_numbered(combo, chosen, rest):
            return True
    return False


def _combo_count_completes(chosen: Sequence[int], rest: Sequence[int], kind: str, need: int) -> bool:
    """`combo_completes_ids` for an Emp, a Shrike or a Quake by counting: the chosen cards agree
    on a colour, a suit or a number (Essences wild), and `rest` holds `need` more that agree."""
    if any(SUIT[card] < 0 for card in chosen):
        return False
    usable = [card for card in rest if SUIT[card] >= 0]
    if kind == "quake":
        wild = sum(card >= FIRST_ESSENCE for card in usable)
        keys, usable = (
            {NUMBER[card] for card in chosen if card < FIRST_ESSENCE},
            [card for card in usable if card < FIRST_ESSENCE],
        )
        key_of = NUMBER
    else:
        wild, key_of = 0, COLOUR if kind == "emp" else SUIT
        keys = {key_of[card] for card in chosen}
    if len(keys) > 1:
        return False
    counts = [0] * 11
    for card in usable:
        counts[key_of[card]] += 1
    most = counts[keys.pop()] if keys else max(counts)
    return wild + most >= need


def _leaves_numbered(combo: Sequence[int], chosen: Sequence[int], rest: Sequence[int]) -> bool:
    return any(card < NUM_NUMBERED and card not in combo for card in (*chosen, *rest))


def combo_picks_ids(hand: Sequence[int], chosen: Sequence[int], kind: str) -> list[int]:
    """The cards of `hand` not in `chosen` after which the combination can still be completed, ascending."""
    rest = [card for card in sorted(hand) if card not in chosen]
    return [
        card for card in rest if combo_completes_ids([*chosen, card], [other for other in rest if other != card], kind)
    ]


def held_combos_ids(hand: Sequence[int]) -> frozenset[str]:
    """The kinds of combination the hand holds (EMP, QUAKE, DOUBLE_SHRIKE and REVERSE are legal
    only then), by counting: three cards of a colour (emp) or of a suit (shrike); three cards of
    a number, Essences filling in (quake); a Shrike that, spending its suit's Essence where it
    can, leaves a numbered card (reverse)."""
    suits, numbers, essences, numbered = [0, 0, 0, 0], [0] * 11, 0, 0
    for card in hand:
        suit = SUIT[card]
        if suit < 0:
            continue
        suits[suit] += 1
        if card >= FIRST_ESSENCE:
            essences += 1
        else:
            numbered += 1
            numbers[NUMBER[card]] += 1
    held = []
    if suits[0] + suits[2] >= 3 or suits[1] + suits[3] >= 3:
        held.append("emp")
    if max(suits) >= 3:
        held.append("shrike")
        cards = set(hand)
        if any(count >= 3 and numbered - 3 + (ESSENCE_IDS[suit] in cards) >= 1 for suit, count in enumerate(suits)):
            held.append("reverse")
    if essences + max(numbers) >= 3 and (essences >= 3 or numbered > 0):
        held.append("quake")
    return frozenset(held)


def has_combo_ids(hand: Sequence[int], kind: str) -> bool:
    """Whether the hand holds a combination of `kind` (see `held_combos_ids`)."""
    return kind in held_combos_ids(hand)


def is_combo(cards: list[str], kind: str) -> bool:
    """Whether exactly three cards form a combination of `kind`: "emp", "shrike" or "quake"."""
    ids = DECK.indices_of(cards)
    return is_combo_ids(ids, _check_kind(kind, COMBO_KINDS))


def combo_options(hand: list[str], chosen: list[str], kind: str) -> list[str]:
    """The cards of `hand` (deck order) that keep `chosen` completable to a combination of `kind`
    ("emp", "shrike", "quake" or "reverse"); [] once three are chosen."""
    hand_ids = DECK.indices_of(hand)
    chosen_ids = _subset(chosen, hand_ids, "chosen", "hand")
    return DECK.codes_of(combo_picks_ids(hand_ids, chosen_ids, _check_kind(kind, PICK_KINDS)))


# ---------------------------------------------------------------- resolution and ends (4.5, 4.8)


def resolve_challenge(
    challenge: str, suit: str, answer: list[str] | None, challenger_hand: list[str], responder_hand: list[str]
) -> dict[str, Any]:
    """A challenge's resolution: the hands after it, the cards put on the discard pile and who
    draws ("responder", "challenger" or None). `answer=None` is a decline."""
    card = DECK.index_of(challenge)
    if not is_numbered_id(card):
        raise ValueError(f"challenge card {challenge!r} is not a numbered card")
    challenge_suit = suit_of(challenge)
    if challenge_suit is None:  # numbered cards all have a suit; only the Ghost has none
        raise ValueError(f"challenge card {challenge!r} has no suit")
    if check_suit(suit) not in opposite_suits(challenge_suit):
        raise ValueError(
            f"challenge suit {suit!r} is not one of {opposite_suits(challenge_suit)}, the suits opposite {challenge}"
        )
    hands = [DECK.indices_of(challenger_hand), DECK.indices_of(responder_hand)]
    _check_apart([[card], *hands], ["the challenge card", "challenger_hand", "responder_hand"])
    answer_ids = None if answer is None else DECK.indices_of(answer)
    if answer_ids is not None:
        if not is_valid_answer_ids(answer_ids, NUMBER[card], SUITS.index(suit)):
            raise ValueError(f"answer {answer} is not a valid answer to {challenge} with challenge suit {suit}")
        strays = [DECK.codes[c] for c in answer_ids if c not in hands[0] and c not in hands[1]]
        if strays:
            raise ValueError(f"answer card {strays[0]} is in neither hand")
    challenger, responder, discard, draw = resolve_challenge_ids(card, answer_ids, hands[0], hands[1])
    return {
        "challenger_hand": DECK.codes_of(challenger),
        "responder_hand": DECK.codes_of(responder),
        "discard": DECK.codes_of(discard),
        "draw": draw,
    }


def resolve_challenge_ids(
    card: int, answer: Sequence[int] | None, challenger: Sequence[int], responder: Sequence[int]
) -> tuple[list[int], list[int], list[int], str | None]:
    """(challenger's hand, responder's hand, cards discarded, who draws) after a challenge with
    Challenge card `card`: the challenger's answer cards are stolen; an Essence in the answer
    brings the Challenge card to the responder and nobody draws (R11); a decline discards it
    and the challenger draws."""
    if answer is None:
        return list(challenger), list(responder), [card], "challenger"
    stolen = [c for c in answer if c in challenger]
    kept = [c for c in challenger if c not in stolen]
    gained = list(responder) + stolen
    if any(is_essence_id(c) for c in answer):
        return kept, [*gained, card], [], None
    return kept, gained, [card], "responder"


def strip_count(hand_size: int) -> int:
    """Cards the target of an Essence's strip discards: half her hand, rounded down (R20)."""
    if type(hand_size) is not int or hand_size < 0:
        raise ValueError(f"hand_size must be a count of cards (an int >= 0), got {hand_size!r}")
    return hand_size // 2


def has_colour_win_ids(hand: Iterable[int]) -> bool:
    """At least ten numbered cards of one colour and an Essence of that colour (R23)."""
    numbered, essence = [0, 0], [False, False]
    for card in hand:
        colour = COLOUR[card]
        if colour < 0:
            continue
        if card < NUM_NUMBERED:
            numbered[colour] += 1
        else:
            essence[colour] = True
    return any(numbered[c] >= COLOUR_WIN_CARDS and essence[c] for c in (0, 1))


def has_colour_win(hand: list[str]) -> bool:
    """End condition 1: at least ten numbered cards of one colour plus an Essence of that colour."""
    return has_colour_win_ids(DECK.indices_of(hand))


def end_result_ids(hands: Sequence[Sequence[int]], deck_count: int) -> int | None:
    """The end checks in order: a colour win (both at once: a draw), then deck out (more cards
    wins, equal is a draw). None while play goes on; else the winning seat, or -1 for a draw."""
    wins = [has_colour_win_ids(hand) for hand in hands]
    if any(wins):
        return -1 if all(wins) else wins.index(True)
    if deck_count == 0:
        return size_winner([len(hand) for hand in hands])
    return None


def size_winner(sizes: Sequence[int]) -> int:
    """The seat holding more cards, -1 when both hold as many (deck out, the turn limit)."""
    if sizes[0] == sizes[1]:
        return -1
    return 0 if sizes[0] > sizes[1] else 1


def end_result(hands: list[list[str]], deck_count: int) -> int | None:
    """End checks 1 and 2: None if play goes on, else the winning seat (0 or 1), or -1 for a draw."""
    if len(hands) != NUM_PLAYERS:
        raise ValueError(f"hands must list the {NUM_PLAYERS} players' hands, got {len(hands)}")
    if type(deck_count) is not int or deck_count < 0:
        raise ValueError(f"deck_count must be a count of cards (an int >= 0), got {deck_count!r}")
    ids = [DECK.indices_of(hand) for hand in hands]
    _check_apart(ids, ["hands[0]", "hands[1]"])
    return end_result_ids(ids, deck_count)


# ---------------------------------------------------------------- input checks


def _check_number(number: int) -> int:
    if type(number) is not int or not 1 <= number <= 10:
        raise ValueError(f"challenge number must be an int from 1 to 10, got {number!r}")
    return number


def _check_kind(kind: str, allowed: tuple[str, ...]) -> str:
    if kind not in allowed:
        raise ValueError(f"unknown combination kind {kind!r}: expected one of {', '.join(allowed)}")
    return kind


def _subset(chosen: list[str], whole: list[int], name: str, whole_name: str) -> list[int]:
    ids = DECK.indices_of(chosen)
    outside = [DECK.codes[card] for card in ids if card not in whole]
    if outside:
        raise ValueError(f"{name} card {outside[0]} is not in {whole_name}")
    return ids


def _check_apart(groups: list[list[int]], names: list[str]) -> None:
    seen: dict[int, str] = {}
    for cards, name in zip(groups, names):
        for card in cards:
            if card in seen:
                raise ValueError(f"card {DECK.codes[card]} is in both {seen[card]} and {name}")
            seen[card] = name
