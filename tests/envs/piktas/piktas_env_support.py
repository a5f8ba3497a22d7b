"""Helpers shared by the Piktas environment tests: tables set up from card codes, masks and play.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

from collections.abc import Iterable

import cardarena.envs as envs
import numpy as np
from cardarena.envs.piktas.rules import DECK, FIRST_VOID

ENV_ID = "piktas_v1"
PASS, STAY, MATCH, RAISE, FOLD = 0, 31, 32, 33, 34


def make(**config):
    return envs.make(ENV_ID, **config)


def ids(codes: str | Iterable[str]) -> list[int]:
    """Deck indices of space-separated (or listed) card codes, in the given order."""
    if isinstance(codes, str):
        codes = codes.split()
    return [DECK.index(code) for code in codes]


def codes(cards: Iterable[int]) -> list[str]:
    return [DECK[card] for card in cards]


def exchange_id(slot: int, position: int) -> int:
    """Action id of hand slot `slot` onto field position `position` (rulebook 4.6)."""
    return 1 + 5 * slot + position


def table_state(env, dealer: int, hands: dict[int, str], field: list[str], deck: str = "", seed: int = 0):
    """A fresh state of `env` (seed `seed`) at the first exchange turn, with a chosen deal.

    `hands[seat]` and each position of `field` (a stack bottom -> top) are card codes; `deck`
    lists the top of the deck, and every other card follows in canonical order.
    """
    env.reset(seed=seed)
    state = env.game.clone(env.state)
    n = env.game.num_players
    size = len(DECK) if env.game.config.use_voids else FIRST_VOID
    stacks = [ids(stack) for stack in field]
    dealt = [card for seat in hands for card in ids(hands[seat])] + [card for stack in stacks for card in stack]
    top = ids(deck)
    rest = [card for card in range(size) if card not in dealt and card not in top]
    assert len(set(dealt + top)) == len(dealt + top), "a card is dealt twice"
    state.dealer = dealer
    state.order = [(dealer + k) % n for k in range(1, n + 1)]
    state.hands = [sorted(ids(hands.get(seat, ""))) for seat in range(n)]
    state.field = stacks
    state.deck = top + rest
    return state


def done(env) -> bool:
    agent = env.agent_selection
    return env.terminations[agent] or env.truncations[agent]


def mask_ids(env, agent: str | None = None) -> list[int]:
    """Legal ids read from an agent's action mask (the acting agent's by default)."""
    mask = env.observe(agent or env.agent_selection)["action_mask"]
    return [int(i) for i in np.flatnonzero(mask)]


def play(env, actions: Iterable[int]) -> None:
    """Play action ids in order, each from the agent the environment selects."""
    for action in actions:
        assert not done(env), f"episode over before action {action}"
        env.step(action)
