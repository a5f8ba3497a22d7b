"""A hand as the compiled evaluator reads it: a row of deck indices, padded to six cards."""

from __future__ import annotations

from cardarena.envs.core.decks.scarp import DECK

NO_CARD = len(DECK)  # pads a row of `rules.breakdowns` holding fewer than six cards
