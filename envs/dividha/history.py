"""What a Dividha hand writes in its hand history (core history.py), in card codes, and how its
actions read.

A hand logs its start (dealer, ante, the seats dealt in, stacks, pot and forfeits after the
antes), every deal (a seat's private cards under `private`, public cards face up for all),
the replacements of traded cards the same way, seats eliminated from a match, and its result:
who folded, the hands shown (best cards, key, name), every seat's Win and Lose stakes (revealed
at settlement), what each seat received, the stacks and the rewards. The environment logs the
actions: their public label gives the kind, the chips and the traded slots, never the split.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cardarena.envs.core.history import RESULT, emit

from .actions import (
    CALL_KIND,
    MOVES,
    RAISE_KIND,
    RAISE_OPTIONS,
    SPLITS,
    TRADE_CHOICES,
    TRADE_KIND,
    Move,
    choice_slots,
    decode,
)
from .rules import CARDS
from .state import BETTING, DEALS, PUBLIC_SLOTS, SLOT_NAMES, TRADING, DividhaState
from .table import DividhaTable


def _split_slots(slots: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(slot for slot in slots if slot not in PUBLIC_SLOTS), tuple(
        slot for slot in slots if slot in PUBLIC_SLOTS
    )


# every slot tuple a deal or a trade fills: its private slots and its public ones
_SLOT_SPLIT = {slots: _split_slots(slots) for slots in {*TRADE_CHOICES, *DEALS.values()}}


def _secret_words(move: Move) -> list[str]:
    """What only the actor knows of a move, in its label: the raise option and the split."""
    words = [RAISE_OPTIONS[move.option].lower()] if move.kind == RAISE_KIND and move.option is not None else []
    return words + ([SPLITS[move.split].lower()] if move.split is not None else [])


_SECRETS = tuple(_secret_words(move) for move in MOVES)


def log_hand_start(game: DividhaTable, state: DividhaState) -> None:
    emit(
        state.log,
        state.hand_number,
        "start",
        dealer=state.dealer,
        ante=state.ante,
        seats=game.order(state),
        stacks=list(state.stacks),
        pot=state.pot,
        forfeit=state.forfeit,
    )


def log_deal(state: DividhaState, seats: list[int], slots: tuple[int, ...], replacement: bool = False) -> None:
    """The cards just put in `slots` of each seat: private slots for the seat alone, public ones face up."""
    kind = "replace" if replacement else "deal"
    private, public = _SLOT_SPLIT[slots]
    codes, log, hand = CARDS.codes, state.log, state.hand_number
    for seat in seats:
        held = state.cards[seat]
        if private:
            cards = [codes[held[slot]] for slot in private]
            emit(
                log,
                hand,
                kind,
                seat,
                {"cards": cards},
                slots=[SLOT_NAMES[slot] for slot in private],
                count=len(private),
            )
        if public:
            emit(
                log,
                hand,
                kind,
                seat,
                slots=[SLOT_NAMES[slot] for slot in public],
                cards=[codes[held[slot]] for slot in public],
            )


def log_eliminated(state: DividhaState, seat: int) -> None:
    """A seat out of the match before the next hand: its whole stack is forfeit. Logged with the
    hand just finished (elimination only follows a hand), so that each hand's record holds it."""
    emit(state.log, state.hand_number - 1, "eliminated", seat, forfeit=state.stacks[seat], ante=state.ante)


def log_last_seat(state: DividhaState, seat: int) -> None:
    """The match ends with one seat left: it takes the forfeits."""
    emit(state.log, state.hand_number - 1, "match_won", seat, forfeit=state.forfeit)


def log_result(state: DividhaState, returns_before: list[float]) -> None:
    """The hand's result (the seat view's `last_hand`), once it is settled."""
    assert state.showdown is not None  # settling the hand wrote it
    outcome = {key: value for key, value in state.showdown.items() if key != "hand"}
    rewards = [after - before for after, before in zip(state.returns, returns_before)]
    emit(state.log, state.showdown["hand"], RESULT, **outcome, stacks=list(state.stacks), rewards=rewards)


def describe(game: DividhaTable, state: DividhaState, action: int) -> tuple[str, dict[str, Any]]:
    """An action at this decision point: its label and its details. The label is the public
    label (kind, chips, traded slots) followed, for what only the actor knows (the split, the
    private cards traded in), by that part in parentheses."""
    move = decode(action)
    split = None if move.split is None else SPLITS[move.split]
    if move.kind == TRADE_KIND:
        assert move.choice is not None  # a trade names its choice
        slots = choice_slots(move.choice)
        seat = game.current_player(state) if state.phase == TRADING else -1
        traded = [CARDS.codes[state.cards[seat][slot]] for slot in TRADE_CHOICES[move.choice]] if seat >= 0 else []
        fee = game.trade_fee(state, move.choice) if seat >= 0 else 0
        public = "trade " + (" ".join(slots) if slots else "nothing") + (f" paying {fee}" if fee else "")
        details = {"kind": TRADE_KIND, "cards": traded, "slots": slots, "chips": fee, "split": split}
        return _with_secret(public, _SECRETS[action] + traded), details
    chips = _chips(game, state, move)
    return _betting_label(action, chips), {"kind": move.kind, "cards": [], "chips": chips, "split": split}


def label_of(game: DividhaTable, state: DividhaState, action: int) -> str:
    """`describe`'s label alone, without building the details."""
    move = decode(action)
    if move.kind == TRADE_KIND:
        return describe(game, state, action)[0]
    return _betting_label(action, _chips(game, state, move))


# Keyed by action id and chips (ints): a pure function of them.
@lru_cache(maxsize=1 << 12)
def _betting_label(action: int, chips: int) -> str:
    """The label of a betting action that pays `chips` (cached: few ids and amounts recur)."""
    kind = MOVES[action].kind
    return _with_secret(f"{kind} {chips}" if kind in (CALL_KIND, RAISE_KIND) else kind, _SECRETS[action])


def _with_secret(public: str, secret: list[str]) -> str:
    return f"{public} ({' '.join(secret)})" if secret else public


def public_part(label: str) -> str:
    """What every seat sees of an action whose label is `label` (`describe`)."""
    return label.partition(" (")[0]


def _chips(game: DividhaTable, state: DividhaState, move: Any) -> int:
    """The chips a betting move pays: the call (all-in for less when short) or call plus raise;
    0 outside a betting round."""
    if state.phase != BETTING:
        return 0
    bets = state.bets
    assert bets is not None  # the betting phase holds its open round
    seat = bets.to_act[0]
    if move.kind == CALL_KIND:
        return min(bets.to_call(seat), bets.stacks[seat])
    if move.kind == RAISE_KIND:
        return bets.to_call(seat) + (game.decision(state).increments[move.option] or 0)
    return 0
