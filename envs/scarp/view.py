"""Rebuilding a Scarp state from one seat's JSON view (`ScarpGame.state_from_view`)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, islice
from typing import Annotated, Any, Literal, Protocol

from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.picks import PickState
from cardarena.envs.core.views import SeenLegalAction, Table, read_view, view_card
from pydantic import BaseModel, ConfigDict, Field

from .rules import DECK, NUM_PLAYERS, SUITS, Suit
from .state import (
    COMBO,
    OVER,
    PHASE_NAMES,
    RESPONSE,
    REVERSE_CHALLENGE,
    STAGE_NAMES,
    ComboKind,
    Effect,
    PhaseName,
    ScarpState,
    StageName,
)

Seat = Annotated[int, Field(ge=0, le=NUM_PLAYERS - 1)]
Count = Annotated[int, Field(ge=0)]
Cards = list[str]
_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)
NEEDED_SEARCH_LIMIT = 4096
"""Most sets of unseen cards `_needed` tries when the cards it kept do not fit the opponent's hand."""


class ScarpTable(Table, Protocol):
    """What rebuilding a state needs of the game (a `ScarpGame`)."""

    def legal_actions(self, state: ScarpState) -> list[int]: ...


class SeenChallenge(BaseModel):
    model_config = _VIEW_MODEL
    card: str
    suit: Suit


class ScarpSeatView(BaseModel):
    """The shape of Scarp's JSON seat view (docs/protocol.md lists every field)."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    phase: PhaseName
    to_act: Seat | None
    turn: Count
    challenger: Seat | None
    first_challenger: Seat | None
    named: Annotated[list[Suit | None], Field(min_length=2, max_length=2)]
    revealed: Cards
    hand: Cards
    hand_sizes: Annotated[list[Count], Field(min_length=2, max_length=2)]
    opponent_known: Cards
    known_by_opponent: Cards
    deck_size: Count
    deck: Cards | None
    pile: Cards
    aside: Cards
    table: Cards
    effect: Effect | None
    pick: str | None
    combo: ComboKind | None
    picked: Cards
    pick_size: Count
    shrike_played: bool
    quake_used: bool
    double_used: bool
    challenge: SeenChallenge | None
    reverse: SeenChallenge | None
    stage: StageName
    access: bool
    reverse_failed: bool
    winner: Seat | None
    reason: Literal["fold", "colour_win", "deck_out", "turn_limit"] | None
    returns: Annotated[list[float], Field(min_length=2, max_length=2)] | None
    legal_actions: list[SeenLegalAction] | None = None


def state_from_seat_view(game: ScarpTable, view: dict[str, Any]) -> ScarpState:
    """A state for the view's seat: its own cards and everything public as seen; the opponent
    holds the cards the seat has seen there (and her displayed picks) plus unseen cards to her
    hand size (`_dealt`), the deck the rest (the seat's deck pick: the cards it sees)."""
    seen = read_view(ScarpSeatView, view, game)
    seat, other = seen.seat, 1 - seen.seat
    names = ("hand", "opponent_known", "known_by_opponent", "pile", "aside", "table", "revealed", "picked")
    cards = {name: _ids(getattr(seen, name), name) for name in names}
    deck_seen = _ids(seen.deck, "deck") if seen.deck is not None else None
    _check_places(cards, deck_seen)
    if not set(cards["known_by_opponent"]) <= set(cards["hand"]):
        raise SeatViewError("seat view field 'known_by_opponent' names a card that is not in 'hand'")
    opponent = sorted(set(cards["opponent_known"]) | (set(cards["picked"]) - set(cards["hand"])))
    placed = set(cards["hand"]) | set(opponent) | set(cards["pile"]) | set(cards["aside"]) | set(cards["table"])
    unseen = [card for card in range(len(DECK)) if card not in placed and (deck_seen is None or card not in deck_seen)]
    missing = seen.hand_sizes[other] - len(opponent)
    deck_size = len(deck_seen) if deck_seen is not None else len(unseen) - missing
    fits = missing == len(unseen) if deck_seen is not None else 0 <= missing <= len(unseen)
    if not fits or deck_size != seen.deck_size:
        raise SeatViewError(
            f"seat view card counts do not add up to {len(DECK)}: hand_sizes {seen.hand_sizes}, "
            f"deck_size {seen.deck_size}, "
            f"{len(placed)} cards in hands, pile, aside and table"
        )
    if len(cards["hand"]) != seen.hand_sizes[seat]:
        raise SeatViewError(
            f"seat view 'hand' holds {len(cards['hand'])} cards but hand_sizes gives {seen.hand_sizes[seat]}"
        )
    state = ScarpState(seed=0)
    state.hands[seat] = sorted(cards["hand"])
    state.known[seat], state.known[other] = sorted(cards["opponent_known"]), sorted(cards["known_by_opponent"])
    for name in ("pile", "aside", "table"):
        setattr(state, name, sorted(cards[name]))
    state.revealed, state.picks = cards["revealed"], PickState(cards["picked"])
    state.named = [SUITS.index(s) if s is not None else -1 for s in seen.named]
    state.first_challenger = _seat(seen.first_challenger)
    state.challenger, state.to_act, state.turn = _seat(seen.challenger), _seat(seen.to_act), seen.turn
    state.phase, state.stage = PHASE_NAMES.index(seen.phase), STAGE_NAMES.index(seen.stage)
    state.effect, state.combo, state.pick_size = seen.effect or "", seen.combo or "", seen.pick_size
    state.shrike_played, state.quake_used, state.double_used = seen.shrike_played, seen.quake_used, seen.double_used
    state.challenge, state.reverse = _challenge(seen.challenge, "challenge"), _challenge(seen.reverse, "reverse")
    state.access, state.reverse_failed = seen.access, seen.reverse_failed
    state.reason = seen.reason or ""
    if seen.phase == PHASE_NAMES[OVER]:
        state.winner = _seat(seen.winner)
        state.returns = list(seen.returns or [0.0, 0.0])
    dealt = _dealt(game, state, other, opponent, unseen, missing)
    state.hands[other] = sorted(opponent + dealt)
    state.deck = deck_seen if deck_seen is not None else [card for card in unseen if card not in dealt]
    return state


def _dealt(
    game: ScarpTable, state: ScarpState, other: int, opponent: list[int], unseen: list[int], missing: int
) -> list[int]:
    """The `missing` unseen cards dealt to the opponent: the first in deck order, unless she is to
    act and they leave her no legal action (in a combination, an answer or a reverse challenge she
    is in the middle of, her choice needs cards the seat has not seen); then the unseen cards her
    choice needs (`_needed`), and the first of the rest. Without such a deal, the first ones
    (`check_state` refuses the state, naming the field)."""
    first = unseen[:missing]

    def playable(dealt: list[int]) -> bool:
        state.hands[other] = sorted(opponent + dealt)
        return bool(game.legal_actions(state))

    if state.to_act != other or state.phase not in (COMBO, RESPONSE, REVERSE_CHALLENGE):
        return first
    try:
        if playable(first) or not playable(unseen):
            return first
    except ValueError:  # a choice the rules cannot read (no challenge to answer): check_state names the field
        return first
    needed = _needed(playable, unseen, missing)
    if needed is None:
        return first
    return needed + [card for card in unseen if card not in needed][: missing - len(needed)]


def _needed(playable: Callable[[list[int]], bool], unseen: list[int], most: int) -> list[int] | None:
    """At most `most` cards of `unseen` that are `playable` (as all of `unseen` are, and every set
    holding a playable one): all of them, less each card not needed (runs of cards first, so that
    the hands tried shrink fast), which leaves a set none of whose cards can be spared; if that
    holds more than `most`, the smallest playable set among the first NEEDED_SEARCH_LIMIT by size."""
    needed, step = list(unseen), len(unseen)
    while step:  # drop runs of cards, halving their length down to single cards
        start = 0
        while start < len(needed):
            fewer = needed[:start] + needed[start + step :]
            if playable(fewer):
                needed = fewer
            else:
                start += step
        step //= 2
    if len(needed) <= most:
        return needed
    sets = (list(cards) for size in range(most + 1) for cards in combinations(unseen, size))
    return next((cards for cards in islice(sets, NEEDED_SEARCH_LIMIT) if playable(cards)), None)


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def _ids(codes: list[str], name: str) -> list[int]:
    return [view_card(DECK, code, name) for code in codes]


def _challenge(laid: SeenChallenge | None, name: str) -> list[int]:
    return [] if laid is None else [view_card(DECK, laid.card, f"{name}.card"), SUITS.index(laid.suit)]


def _check_places(cards: dict[str, list[int]], deck: list[int] | None) -> None:
    """No card in two places (the picks may lie in a hand; what a seat knows lies in a hand)."""
    found: dict[int, str] = {}
    places = [(name, cards[name]) for name in ("hand", "opponent_known", "pile", "aside", "table")]
    if deck is not None:
        places.append(("deck", deck))
    for name, held in places:
        for card in held:
            if card in found:
                raise SeatViewError(f"seat view holds {DECK.codes[card]} twice: in {found[card]!r} and in {name!r}")
            found[card] = name
