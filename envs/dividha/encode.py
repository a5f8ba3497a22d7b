"""Dividha's observation vector, JSON seat view and rendering (the action table is actions.py).

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from the
observer, 0 = self), padded to 7 seats; `SLICES` names every segment, docs/games/dividha.md
tables them. Chip amounts are divided by the chips at the table (`starting_stack` x seats).
The seat's own hand key (the best hand of the cards it holds now) is computed once per card set.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from cardarena.envs.core.betting import RAISES
from cardarena.envs.core.game import Encoder, segment_slices

from . import rules
from .actions import SPLITS, TRADE_CHOICES
from .game import LAST_ROUND, MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS, DividhaGame, public_discards
from .state import BETTING, EMPTY, NUM_SLOTS, OVER, PHASE_NAMES, PUBLIC_SLOTS, SLOT_NAMES, TRADING, DividhaState

NUM_CATEGORIES = 13
HIGH_CARDS = 5
IMMORTAL_SCALE = 5.0
SUM_SCALE = 50.0
HIGH_SCALE = 14.0
COUNT_SCALE = 8.0  # calls or raises of one seat in a hand

_SEGMENTS = [
    ("own_slots", NUM_SLOTS * NUM_CARDS),  # slot k (P1 P2 U1 U2 P3 P4): the card in it
    ("public_cards", MAX_PLAYERS * NUM_CARDS),  # per rel seat: its face-up cards (U1, U2)
    ("gone", NUM_CARDS),  # cards known to be out of play: public cards traded in, own cards traded in
    ("held", 1),  # own cards held / 6
    ("category", NUM_CATEGORIES),  # own best hand now: category one-hot (none before a deal)
    ("key", 3 + HIGH_CARDS),  # providence, immortal / 5, majority sum / 50, high values / 14
    ("table_size", MAX_PLAYERS - MIN_PLAYERS + 1),  # one-hot, 2..7
    ("dealer", MAX_PLAYERS),  # rel seat
    ("to_act", MAX_PLAYERS),  # rel seat
    ("phase", len(PHASE_NAMES)),  # betting, trading, over
    ("round", LAST_ROUND + 1),  # betting round: Demon's Wager, 1, 2, 3
    ("stacks", MAX_PLAYERS),
    ("paid", MAX_PLAYERS),  # chips put in this hand
    ("in_round", MAX_PLAYERS),  # chips put in this betting round
    ("folded", MAX_PLAYERS),
    ("all_in", MAX_PLAYERS),
    ("in_match", MAX_PLAYERS),
    ("traded_slots", MAX_PLAYERS * 4),  # per rel seat: P1 P2 U1 U2 traded in
    ("has_traded", MAX_PLAYERS),
    ("raises", MAX_PLAYERS),  # bets and raises this hand / 8
    ("calls", MAX_PLAYERS),  # calls this hand / 8
    ("tablet", 2),  # own Win and Lose stakes
    ("pot", 1),
    ("forfeit", 1),
    ("to_call", 1),
    ("current_bet", 1),
    ("min_raise", 1),
    ("bets_made", 1),  # bets and raises this round / max_bets (fixed) or / 8
    ("raise_sizes", 4),  # chips each raise option MIN HALF_POT POT ALL_IN adds (0 where not legal)
    ("ante", 1),  # / starting_stack
    ("hand_number", 1),  # hands played / max_hands (match)
    ("match", 1),
]

SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_START = {name: piece.start for name, piece in SLICES.items()}
_BLANK = np.zeros(OBSERVATION_SIZE, np.float32)


@lru_cache(maxsize=1 << 16)
def hand_key(cards: tuple[int, ...], divine_intervention: bool) -> tuple[Any, ...]:
    """The key of the best hand of these deck indices (cached: a seat's cards change only at deals and trades)."""
    return rules.unpack_key(rules.key_ids(cards, divine_intervention))


class DividhaEncoder(Encoder[DividhaState]):
    observation_size = OBSERVATION_SIZE
    game: DividhaGame

    def observation(self, state: DividhaState, seat: int) -> np.ndarray:
        obs = _BLANK.copy()
        game, config = self.game, self.game.config
        n = game.num_players
        bank = config.starting_stack * n
        rel = [(other - seat) % n for other in range(n)]
        ones = self._card_ones(state, seat, rel)
        ones += [_START["table_size"] + n - MIN_PLAYERS, _START["dealer"] + rel[state.dealer], _START["phase"] + state.phase]
        to_act = game.current_player(state)
        if to_act >= 0:
            ones.append(_START["to_act"] + rel[to_act])
        if state.phase == BETTING:
            ones.append(_START["round"] + state.betting_round)
        for other in range(n):
            r = rel[other]
            if state.folded[other] and state.in_match[other]:
                ones.append(_START["folded"] + r)
            if state.in_match[other]:
                ones.append(_START["in_match"] + r)
                if state.stacks[other] == 0 and not state.folded[other]:
                    ones.append(_START["all_in"] + r)
            if state.trades[other] >= 0:
                ones.append(_START["has_traded"] + r)
                ones += [_START["traded_slots"] + 4 * r + slot for slot in TRADE_CHOICES[state.trades[other]]]
        obs[ones] = 1.0
        self._encode_key(obs, state, seat)
        stacks, paid = SLICES["stacks"].start, SLICES["paid"].start
        for other in range(n):
            obs[stacks + rel[other]] = state.stacks[other] / bank
            obs[paid + rel[other]] = state.paid[other] / bank
        self._encode_actions(obs, state, rel)
        obs[_START["tablet"]] = state.win[seat] / bank
        obs[_START["tablet"] + 1] = state.lose[seat] / bank
        obs[_START["pot"]] = state.pot / bank
        obs[_START["forfeit"]] = state.forfeit / bank
        if state.bets is not None:
            self._encode_betting(obs, state, seat, rel, bank)
        obs[_START["ante"]] = min(state.ante / config.starting_stack, 1.0)
        if config.match:
            obs[_START["hand_number"]] = state.hand_number / config.max_hands
            obs[_START["match"]] = 1.0
        return obs

    def _card_ones(self, state: DividhaState, seat: int, rel: list[int]) -> list[int]:
        ones = [_START["own_slots"] + slot * NUM_CARDS + card for slot, card in enumerate(state.cards[seat]) if card != EMPTY]
        for other, slots in enumerate(state.cards):
            ones += [_START["public_cards"] + rel[other] * NUM_CARDS + slots[slot] for slot in PUBLIC_SLOTS if slots[slot] != EMPTY]
        ones += [_START["gone"] + card for card in known_discards(state, seat)]
        return ones

    def _encode_key(self, obs: np.ndarray, state: DividhaState, seat: int) -> None:
        held = tuple(sorted(card for card in state.cards[seat] if card != EMPTY))
        obs[_START["held"]] = len(held) / NUM_SLOTS
        if not held:
            return
        category, providence, immortal, total, high = hand_key(held, self.game.config.divine_intervention)
        obs[_START["category"] + category] = 1.0
        start = _START["key"]
        obs[start : start + 3] = (providence, immortal / IMMORTAL_SCALE, min(total / SUM_SCALE, 1.0))
        obs[start + 3 : start + 3 + len(high)] = [value / HIGH_SCALE for value in high]

    def _encode_actions(self, obs: np.ndarray, state: DividhaState, rel: list[int]) -> None:
        counts = np.zeros((2, MAX_PLAYERS), np.float32)
        for actor, _round, kind, *_ in state.actions:
            if kind == "raise":
                counts[0, rel[actor]] += 1
            elif kind == "call":
                counts[1, rel[actor]] += 1
        obs[SLICES["raises"]] = np.minimum(counts[0] / COUNT_SCALE, 1.0)
        obs[SLICES["calls"]] = np.minimum(counts[1] / COUNT_SCALE, 1.0)

    def _encode_betting(self, obs: np.ndarray, state: DividhaState, seat: int, rel: list[int], bank: int) -> None:
        bets = state.bets
        start = _START["in_round"]
        for other, chips in enumerate(bets["contributions"]):
            obs[start + rel[other]] = chips / bank
        obs[_START["to_call"]] = (bets["current_bet"] - bets["contributions"][seat]) / bank
        obs[_START["current_bet"]] = bets["current_bet"] / bank
        obs[_START["min_raise"]] = bets["min_raise"] / bank
        config = self.game.config
        obs[_START["bets_made"]] = min(bets["bets"] / (config.max_bets if config.limit == "fixed" else COUNT_SCALE), 1.0)
        if bets["to_act"] and bets["to_act"][0] == seat:
            round_ = self.game.betting_round(state)
            legal = round_.options(self.game.betting_rules)
            for option, increment in enumerate(self.game.raise_increments(round_, seat)):
                if increment and RAISES[option] in legal:
                    obs[_START["raise_sizes"] + option] = increment / bank

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
            "cards": {name: (codes[card] if card != EMPTY else None) for name, card in zip(SLOT_NAMES, state.cards[seat])},
            "dealt": [[name for name, card in zip(SLOT_NAMES, slots) if card != EMPTY] for slots in state.cards],
            "public": [[codes[slots[slot]] if slots[slot] != EMPTY else None for slot in PUBLIC_SLOTS] for slots in state.cards],
            "trades": [[SLOT_NAMES[slot] for slot in TRADE_CHOICES[choice]] if choice >= 0 else None for choice in state.trades],
            "traded_in": [[codes[card] for card in known_discards_of(state, seat, other)] for other in range(game.num_players)],
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
        title = f"{game.env_id}  hand {state.hand_number + (state.phase != OVER)}  dealer seat {state.dealer}  ante {state.ante}"
        stage = PHASE_NAMES[state.phase] + (f" (round {state.betting_round})" if state.phase == BETTING else "")
        lines = [f"{title}  {stage}"]
        shown = state.showdown["shown"] if state.phase == OVER and state.showdown else {}
        for other in range(game.num_players):
            if not state.in_match[other]:
                lines.append(f"  seat {other}: out of the match")
                continue
            slots = [_slot_text(state, other, slot, seat, shown) for slot in range(NUM_SLOTS)]
            tablet = f"  win {state.win[other]} lose {state.lose[other]}" if seat is None or seat == other else ""
            marker = ">" if other == to_act else " "
            status = "  folded" if state.folded[other] else ("  all-in" if state.stacks[other] == 0 else "")
            lines.append(f"{marker} seat {other}: {' '.join(slots)}  stack {state.stacks[other]}  paid {state.paid[other]}{tablet}{status}")
        lines.append(f"pot {state.pot}" + (f"  forfeits {state.forfeit}" if state.forfeit else ""))
        if state.phase == OVER and state.showdown:
            for other, hand in shown.items():
                lines.append(f"  seat {other} shows {' '.join(hand['cards'])}: {hand['name']} {tuple(hand['key'][:4])}")
            lines.append("received: " + ", ".join(f"seat {s} {chips}" for s, chips in enumerate(state.showdown["received"])))
        if state.terminal or state.truncated:
            lines.append("result: " + ", ".join(f"seat {s} {r:+g}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def known_discards(state: DividhaState, seat: int) -> list[int]:
    """Every card `seat` knows was traded in: its own, and the public cards of everyone."""
    return [card for other in range(len(state.discards)) for card in known_discards_of(state, seat, other)]


def known_discards_of(state: DividhaState, seat: int, other: int) -> list[int]:
    """The cards `other` traded in that `seat` knows: all of its own, the public ones of others."""
    return list(state.discards[seat]) if other == seat else public_discards(state, other)


def _slot_text(state: DividhaState, other: int, slot: int, seat: int | None, shown: dict[str, Any]) -> str:
    card = state.cards[other][slot]
    if card == EMPTY:
        return "--"
    code = rules.DECK[card]
    visible = seat is None or seat == other or slot in PUBLIC_SLOTS or code in shown.get(str(other), {}).get("cards", [])
    return code if visible else "??"


def _action_json(record: list[Any], seat: int) -> dict[str, Any]:
    actor, round_, kind, chips, split, stack = record
    entry = {"seat": actor, "round": round_, "kind": kind, "chips": chips, "stack": stack}
    if actor == seat and split >= 0:
        entry["split"] = SPLITS[split]
    return entry


def _betting_json(bets: dict[str, Any] | None) -> dict[str, Any] | None:
    if bets is None:
        return None
    return {
        "current_bet": bets["current_bet"],
        "contributions": list(bets["contributions"]),
        "bets": bets["bets"],
        "min_raise": bets["min_raise"],
        "pending": list(bets["to_act"]),
        "history": [list(entry) for entry in bets["history"]],
    }

