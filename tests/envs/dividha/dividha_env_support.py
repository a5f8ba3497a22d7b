"""Helpers for Dividha's environment tests: tables with a stacked deck, actions by name."""

from __future__ import annotations

from typing import Any

from cardarena.envs import make
from cardarena.envs.dividha import rules
from cardarena.envs.dividha.actions import ACTION_NAMES


def table(stock: list[str] | None = None, **config: Any):
    """A reset Dividha environment whose every hand's stock starts with the cards `stock`, the
    rest following in deck order; without `stock` the seeded shuffle (seed 0)."""
    env = make("dividha_v1", **config)
    if stock is not None:
        top = rules.CARDS.indices_of(stock)
        rest = [card for card in range(len(rules.DECK)) if card not in top]
        env.game.shuffled_deck = lambda state: top + rest
    env.reset(seed=0)
    return env


def act(env, *names: str) -> None:
    """Play actions by their action-table names (e.g. "RAISE(MIN, WIN)"), each by the seat to act."""
    for name in names:
        env.step(ACTION_NAMES.index(name))


def seat_to_act(env) -> int:
    return env.game.current_player(env.state)


def legal_names(env) -> list[str]:
    return [ACTION_NAMES[action] for action in env.game.legal_actions(env.state)]


def codes(env, seat: int, slots: range = range(6)) -> list[str | None]:
    """The codes in a seat's slots P1 P2 U1 U2 P3 P4 (None where empty)."""
    cards = env.state.cards[seat]
    return [rules.DECK[cards[slot]] if cards[slot] >= 0 else None for slot in slots]
