"""Helpers shared by the Antipoker tests: tables from card codes, and playing actions by name.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

from collections.abc import Iterable

import cardarena.envs as envs
from cardarena.envs.antipoker.game import CALL, DONE, FOLD, RAISE
from cardarena.envs.antipoker.rules import DECK
from cardarena.envs.antipoker.state import AntipokerState

ENV_ID = "antipoker_v1"
WORD_IDS = {"fold": FOLD, "call": CALL, "raise": RAISE}


def ids(codes: str | Iterable[str]) -> list[int]:
    """Deck indices of space-separated (or listed) card codes, in the given order."""
    if isinstance(codes, str):
        codes = codes.split()
    return [DECK.index_of(code) for code in codes]


def make(**config):
    return envs.make(ENV_ID, **config)


def dealt(env, hands: dict[int, str], deck: str | None = None, seed: int = 0) -> AntipokerState:
    """A fresh hand of `env` (reset with `seed`) with `hands[seat]` dealt as given; the other seats
    get the lowest-indexed cards left, and the deck (top first) is `deck` followed by the rest."""
    env.reset(seed=seed)
    state = env.state
    n = len(state.hands)
    given = {seat: sorted(ids(codes)) for seat, codes in hands.items()}
    top = ids(deck) if deck else []
    used = {card for cards in given.values() for card in cards} | set(top)
    rest = [card for card in range(len(DECK)) if card not in used]
    for seat in range(n):
        state.hands[seat] = given.get(seat) or sorted(rest[:6])
        if seat not in given:
            rest = rest[6:]
    state.deck = top + rest
    env.load_state(state)
    return env.state


def draw(env, discards: str = "") -> None:
    """The seat to act picks these cards (codes) and closes its draw with DONE."""
    for card in ids(discards):
        env.step(card)
    env.step(DONE)


def draw_all(env, discards: Iterable[str]) -> None:
    for cards in discards:
        draw(env, cards)


def bet(env, words: Iterable[str]) -> None:
    for word in words:
        env.step(WORD_IDS[word])


def rewards_after(env) -> list[float]:
    """Each seat's return so far."""
    return list(env.game.returns(env.state))
