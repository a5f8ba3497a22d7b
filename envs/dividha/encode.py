"""Dividha's observation vector, JSON seat view and rendering (the action table is actions.py).

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from the
observer, 0 = self), padded to 7 seats; `SLICES` names every segment and `ACTION_NAMES` every
action id (re-exported here like every game's encoder module), docs/games/dividha.md tables them.
Chip amounts are divided by the chips at the table (`starting_stack` x seats).
The seat's own hand key (the best hand of the cards it holds now) is computed once per card set,
its card segments are kept while the cards are unchanged, and the table's numbers are written by
compiled code (table_writer.py); observation_reference.py writes the same vector in plain Python.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import numpy as np
from cardarena.envs.core.betting import BettingRound
from cardarena.envs.core.game import Encoder

from . import rules
from .actions import ACTION_NAMES as ACTION_NAMES
from .actions import SPLITS, TRADE_CHOICES
from .game import MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS, DividhaGame, public_discards
from .layout import (
    COUNT_SCALE,
    GONE_AT,
    HAND_FEATURES,
    HAS_TRADED_AT,
    HELD_AT,
    HIGH_SCALE,
    IMMORTAL_SCALE,
    MATCH_AT,
    NUM_CATEGORIES,
    NUM_RAISE_SIZES,
    OBSERVATION_SIZE,
    OWN_AT,
    PUBLIC_AT,
    ROW_SEATS,
    SEAT_BLOCKS,
    SUM_SCALE,
    TABLE_SIZE_AT,
    TRADED_SLOTS_AT,
)
from .layout import SLICES as SLICES
from .state import BETTING, EMPTY, NUM_SLOTS, OVER, PHASE_NAMES, PUBLIC_SLOTS, SLOT_NAMES, TRADING, DividhaState

_OWN_SLOT_AT = tuple(OWN_AT + slot * NUM_CARDS for slot in range(NUM_SLOTS))  # + card: the one of own slot k
_PUBLIC_SEAT_AT = tuple(PUBLIC_AT + r * NUM_CARDS for r in range(MAX_PLAYERS))  # + card: a public card of rel seat r
# per rel seat r and trade choice: the `has_traded` cell and the `traded_slots` cells it sets
_TRADED_AT = tuple(
    tuple((HAS_TRADED_AT + r, *(TRADED_SLOTS_AT + 4 * r + slot for slot in slots)) for slots in TRADE_CHOICES)
    for r in range(MAX_PLAYERS)
)
_BLANK = array("f", bytes(4 * OBSERVATION_SIZE))
_NO_RAISES = (0,) * NUM_RAISE_SIZES


@lru_cache(maxsize=1 << 14)  # keyed by the slots' values and the variant: the features are a function of them alone
def hand_features(slots: tuple[int, ...], divine_intervention: bool) -> array:
    """The `held`, `category` and `key` segments for the cards in a seat's slots (cached: a
    seat's cards change only at deals and trades)."""
    held = [card for card in slots if card != EMPTY]
    return _key_features(len(held), rules.key_ids(held, divine_intervention) if held else -1)


@lru_cache(maxsize=1 << 14)  # keyed by two integers: the features are a function of them alone
def _key_features(held: int, packed: int) -> array:
    """`hand_features` of `held` cards whose best hand has the packed key `packed` (-1: no cards)."""
    features = array("f", bytes(4 * HAND_FEATURES))
    features[0] = held / NUM_SLOTS
    if held:
        category, providence, immortal, total, high = rules.unpack_key(packed)
        features[1 + category] = 1.0
        key = [
            providence,
            immortal / IMMORTAL_SCALE,
            min(total / SUM_SCALE, 1.0),
            *[value / HIGH_SCALE for value in high],
        ]
        features[1 + NUM_CATEGORIES : 1 + NUM_CATEGORIES + len(key)] = array("f", key)
    return features


class DividhaEncoder(Encoder[DividhaState]):
    observation_size = OBSERVATION_SIZE
    game: DividhaGame

    def __init__(self, game: DividhaGame):
        super().__init__(game)
        config, n = game.config, game.num_players
        self._divine = config.divine_intervention
        blank = array("f", _BLANK)  # what every observation at this table starts from
        blank[TABLE_SIZE_AT + n - MIN_PLAYERS] = 1.0
        blank[MATCH_AT] = float(config.match)
        self._blank = blank
        self._clockwise = [
            tuple(enumerate((seat + r) % n for r in range(n))) for seat in range(n)
        ]  # (rel seat r, seat)
        self._public_at = [
            tuple((_PUBLIC_SEAT_AT[r], other) for r, other in clockwise) for clockwise in self._clockwise
        ]
        cap = config.max_bets if config.limit == "fixed" else COUNT_SCALE
        self._scales = np.array(
            [1.0 / (config.starting_stack * n), cap, config.starting_stack, config.max_hands if config.match else 0.0]
        )
        self._no_chips = [0] * n
        self._row = struct.Struct(f"{ROW_SEATS + SEAT_BLOCKS * n}q")
        from .table_writer import write_table  # here, not at import: importing the game loads no numba

        self._write_table = write_table
        # copies of the cards, trades and discards last observed, one set for all seats, and per seat its card
        # segments written from them (None: not yet); compared by value: they are all `_card_part` reads, so
        # equal values give an equal part however the state was made. One set of copies, not one per seat:
        # the seats are observed in turn, and copies per seat were made once per seat at every card move.
        self._cards_seen: tuple[Any, Any, Any] = (None, None, None)
        self._card_parts: list[array | None] = [None] * n
        # the hand's actions last counted, with their counts (`_counts`)
        self._counted: tuple[list[Any], list[int], list[int]] = ([], [0] * n, [0] * n)

    def observation(self, state: DividhaState, seat: int) -> np.ndarray:
        """The seat's card segments (kept per seat until a card moves) with the table's numbers
        written over them by compiled code (table_writer.py) from one int64 row (`_table_row`)."""
        vector = np.frombuffer(self._card_part(state, seat)[:], np.float32)
        self._write_table(vector, np.frombuffer(self._table_row(state, seat), np.int64), self._scales)
        return vector

    def _table_row(self, state: DividhaState, seat: int) -> bytes:
        """What `write_table` reads, packed as int64 in the order of its `ROW_*` positions (layout.py): the
        hand's numbers, the open betting round's (-1 and zeros when none is open), then per seat its
        stack, chips paid this hand and this round, whether it plays and folded, its raises and calls."""
        raises, calls = self._counts(state)
        bets = state.bets
        if bets is None:
            round_number = round_to_act = -1
            current = own_bet = min_raise = made = 0
            in_round, increments = self._no_chips, _NO_RAISES
        else:
            round_number, round_to_act, current, min_raise, made = (
                state.betting_round,
                bets.to_act[0],
                bets.current_bet,
                bets.min_raise,
                bets.bets,
            )
            in_round = bets.contributions
            own_bet = in_round[seat]
            increments = self.game.decision(state).raise_sizes if round_to_act == seat else _NO_RAISES
        trading_to_act = self.game.current_player(state) if state.phase == TRADING else -1
        return self._row.pack(
            seat, state.phase, state.dealer, round_number, round_to_act, current, own_bet, min_raise, made,
            trading_to_act, state.win[seat], state.lose[seat], state.pot, state.forfeit, state.ante, state.hand_number,
            *increments, *state.stacks, *state.paid, *in_round, *state.in_match, *state.folded, *raises, *calls,
        )  # fmt: skip  # the packed row's fields, a few to a line rather than one a line

    def _card_part(self, state: DividhaState, seat: int) -> array:
        """The table's blank observation with the segments that change only when cards move set
        for `seat`: own and public cards, the hand features, who traded what and the cards known
        gone. Kept per seat while the cards, trades and discards are equal in value."""
        cards, trades, discards = state.cards, state.trades, state.discards
        seen_cards, seen_trades, seen_discards = self._cards_seen
        parts = self._card_parts
        if seen_cards != cards or seen_trades != trades or seen_discards != discards:
            self._cards_seen = ([row[:] for row in cards], trades[:], [row[:] for row in discards])
            parts = self._card_parts = [None] * len(parts)
        else:
            part = parts[seat]
            if part is not None:
                return part
        part = self._blank[:]
        if cards:
            own = cards[seat]
            for at, card in zip(_OWN_SLOT_AT, own):
                if card != EMPTY:
                    part[at + card] = 1.0
            for at, other in self._public_at[seat]:
                slots = cards[other]
                if slots[2] != EMPTY:
                    part[at + slots[2]] = 1.0
                    part[at + slots[3]] = 1.0
            part[HELD_AT : HELD_AT + HAND_FEATURES] = hand_features(tuple(own), self._divine)
        for at in self._trades(state, seat):
            part[at] = 1.0
        parts[seat] = part
        return part

    def _trades(self, state: DividhaState, seat: int) -> Iterator[int]:
        """Per seat that traded, its `has_traded` and `traded_slots` cells, and the `gone` cells of
        the cards `seat` knows it traded in."""
        trades = state.trades
        for r, other in self._clockwise[seat]:
            choice = trades[other]
            if choice >= 0:
                yield from _TRADED_AT[r][choice]
                for card in state.discards[seat] if other == seat else public_discards(state, other):
                    yield GONE_AT + card

    def _counts(self, state: DividhaState) -> tuple[list[int], list[int]]:
        """Bets and raises, and calls, of each seat this hand, counted from the hand's actions: the ones
        past those counted last are counted and copied beside them; where the copies then differ in value
        from the actions (another hand or state, or one edited in place), all are counted afresh."""
        actions = state.actions
        counted, raises, calls = self._counted
        if len(actions) > len(counted):
            _count(actions[len(counted) :], counted, raises, calls)
        if counted != actions:  # one compare of the whole hand, no slice of the part counted before
            self._counted = counted, raises, calls = [], self._no_chips[:], self._no_chips[:]
            _count(actions, counted, raises, calls)
        return raises, calls

    def seat_view(self, state: DividhaState, seat: int) -> dict[str, Any]:
        game = self.game
        to_act = game.current_player(state)
        codes = rules.DECK
        return {
            "game": game.env_id,
            "seat": seat,
            "hand": state.hand_number,
            "dealer": state.dealer,
            "ante": state.ante,
            "phase": PHASE_NAMES[state.phase],
            "round": state.betting_round if state.phase == BETTING else None,
            "to_act": to_act if to_act >= 0 else None,
            "in_match": list(state.in_match),
            "stacks": list(state.stacks),
            "paid": list(state.paid),
            "folded": list(state.folded),
            "pot": state.pot,
            "forfeit": state.forfeit,
            "stock_size": len(state.stock),
            "cards": {
                name: (codes[card] if card != EMPTY else None) for name, card in zip(SLOT_NAMES, state.cards[seat])
            },
            "dealt": [[name for name, card in zip(SLOT_NAMES, slots) if card != EMPTY] for slots in state.cards],
            "public": [
                [codes[slots[slot]] if slots[slot] != EMPTY else None for slot in PUBLIC_SLOTS] for slots in state.cards
            ],
            "trades": [
                [SLOT_NAMES[slot] for slot in TRADE_CHOICES[choice]] if choice >= 0 else None for choice in state.trades
            ],
            "traded_in": [
                [codes[card] for card in known_discards_of(state, seat, other)] for other in range(game.num_players)
            ],
            "tablet": {"win": state.win[seat], "lose": state.lose[seat]},
            "actions": [_action_json(record, seat) for record in state.actions],
            "betting": _betting_json(state.bets),
            "showdown": state.showdown,
            "returns": list(state.returns) if state.terminal or state.truncated else None,
            "truncated": state.truncated,
        }

    def render(self, state: DividhaState, seat: int | None) -> str:
        game = self.game
        to_act = game.current_player(state)
        title = (
            f"{game.env_id}  hand {state.hand_number + (state.phase != OVER)}"
            f"  dealer seat {state.dealer}  ante {state.ante}"
        )
        stage = PHASE_NAMES[state.phase] + (f" (round {state.betting_round})" if state.phase == BETTING else "")
        lines = [f"{title}  {stage}"]
        shown = state.showdown["shown"] if state.phase == OVER and state.showdown else {}
        for other in range(game.num_players):
            if not state.in_match[other]:
                lines.append(f"  seat {other}: out of the match")
                continue
            slots = [_slot_text(state, other, slot, seat, shown) for slot in range(NUM_SLOTS)]
            tablet = (
                f"  win {state.win[other]} lose {state.lose[other]}"
                if seat in (None, other) or state.phase == OVER
                else ""
            )
            marker = ">" if other == to_act else " "
            status = "  folded" if state.folded[other] else ("  all-in" if state.stacks[other] == 0 else "")
            lines.append(
                f"{marker} seat {other}: {' '.join(slots)}"
                f"  stack {state.stacks[other]}  paid {state.paid[other]}{tablet}{status}"
            )
        lines.append(f"pot {state.pot}" + (f"  forfeits {state.forfeit}" if state.forfeit else ""))
        if state.phase == OVER and state.showdown:
            for other, hand in shown.items():
                lines.append(f"  seat {other} shows {' '.join(hand['cards'])}: {hand['name']} {tuple(hand['key'][:4])}")
            lines.append(
                "received: " + ", ".join(f"seat {s} {chips}" for s, chips in enumerate(state.showdown["received"]))
            )
        if state.terminal or state.truncated:
            lines.append("result: " + ", ".join(f"seat {s} {r:+g}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def _count(records: list[list[Any]], counted: list[list[Any]], raises: list[int], calls: list[int]) -> None:
    """Each action record's bet or raise, or call, added to its seat's count, and a copy of it to `counted`."""
    for record in records:
        kind = record[2]
        if kind == "raise":
            raises[record[0]] += 1
        elif kind == "call":
            calls[record[0]] += 1
        counted.append(record[:])


def known_discards_of(state: DividhaState, seat: int, other: int) -> list[int]:
    """The cards `other` traded in that `seat` knows: all of its own, the public ones of others."""
    return list(state.discards[seat]) if other == seat else public_discards(state, other)


def _slot_text(state: DividhaState, other: int, slot: int, seat: int | None, shown: dict[str, Any]) -> str:
    card = state.cards[other][slot]
    if card == EMPTY:
        return "--"
    code = rules.DECK[card]
    visible = (
        seat is None or seat == other or slot in PUBLIC_SLOTS or code in shown.get(str(other), {}).get("cards", [])
    )
    return code if visible else "??"


def _action_json(record: list[Any], seat: int) -> dict[str, Any]:
    actor, round_, kind, chips, split, stack = record
    entry = {"seat": actor, "round": round_, "kind": kind, "chips": chips, "stack": stack}
    if actor == seat and split >= 0:
        entry["split"] = SPLITS[split]
    return entry


def _betting_json(bets: BettingRound | None) -> dict[str, Any] | None:
    if bets is None:
        return None
    return {
        "current_bet": bets.current_bet,
        "contributions": list(bets.contributions),
        "bets": bets.bets,
        "min_raise": bets.min_raise,
        "pending": list(bets.to_act),
        "history": [list(entry) for entry in bets.history],
    }
