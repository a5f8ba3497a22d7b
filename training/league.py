"""A league: every agent of a game against every other at every table size, with one rating.

At each table size n, k agents sit at one table cycled over the seats when k <= n (seat i gets
agent i mod k), else at one table for every group of n of them. Each table is a duplicate-deal
tournament (`training/tournament.py`) with the league's seed. The league's rating fits one
Bradley-Terry model on every pair's duplicate margins at every table: on each deal where i and
j both sat, i scores 1/2 + (mean_i - mean_j) / (2 D) against j, D being that table's margin
scale (`evaluate.duplicate_ratings`; 0 when every deal was level, each deal then a draw), so each
table's rewards count on their own scale; one draw per pair keeps the fit finite. sigma comes from
the fit's Fisher information, which counts each deal's score as one game won or lost: an upper bound
for scores spread inside [0, 1].
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from cardarena.envs import lookup
from cardarena.envs.core.errors import ConfigError

from .evaluate import ELO_PER_LOGIT, RATING_CENTER, EvalResult, Rated, Tally, bradley_terry, seat_names

LEAGUE_RATING_MODEL = "bradley-terry on duplicate margins, pooled over every table of the league"


@dataclass
class Standing(Rated):
    """An agent's league rating (Elo scale, mean 1500) with its standard error, and what it played."""

    name: str
    mu: float
    sigma: float
    tables: int
    deals: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            **self.rating(),
            "tables": self.tables,
            "deals": self.deals,
        }


def league_tables(
    game: str, names: Sequence[str], sizes: Sequence[int] | None = None, limit: int = 10_000
) -> list[list[str]]:
    """The seating of every table of the league, size by size (default: every size the game seats).

    ConfigError for fewer than two different agents, or for more than `limit` tables.
    """
    entry = lookup(game)
    if len(set(names)) != len(names) or len(names) < 2:
        raise ConfigError(f"a league needs at least two different agents, got {', '.join(names) or 'none'}")
    tables: list[list[str]] = []
    for size in sizes or list(entry.player_counts):
        groups = [names] if len(names) <= size else itertools.combinations(names, size)
        tables += [
            seat_names(entry.env_id, list(group), size) for group in itertools.islice(groups, limit + 1 - len(tables))
        ]
        if len(tables) > limit:
            raise ConfigError(
                f"this league would play more than {limit:,} tables; give fewer agents or larger --table-sizes"
            )
    return tables


def league_standings(names: Sequence[str], tables: Sequence[tuple[EvalResult, Tally]]) -> list[Standing]:
    """Every agent's rating from the duplicate margins of every table (see the module's docstring)."""
    index = {name: column for column, name in enumerate(names)}
    count = len(names)
    scores, games = np.zeros((count, count)), np.zeros((count, count))
    played, deals = np.zeros(count, int), np.zeros(count, int)
    for result, tally in tables:
        columns = [index[name] for name in tally.names]
        means = tally.deal_means()
        grid = np.ix_(columns, columns)
        scores[grid] += 0.5 * len(means)  # a margin of 0 is a draw; a table whose margin scale is 0 drew every deal
        if result.margin_scale > 0:
            margins = means[:, :, None] - means[:, None, :]
            scores[grid] += (margins / (2 * result.margin_scale)).sum(axis=0)
        games[grid] += len(means)
        played[columns] += 1
        deals[columns] += len(means)
    met = games > 0
    np.fill_diagonal(met, False)
    scores, games = np.where(met, scores + 0.5, 0.0), np.where(met, games + 1, 0.0)
    theta, information = bradley_terry(scores, games)
    sigma = np.sqrt(np.diag(np.linalg.pinv(information)).clip(0.0)) if met.any() else np.zeros(count)
    return [
        Standing(
            name,
            RATING_CENTER + ELO_PER_LOGIT * float(theta[column]),
            ELO_PER_LOGIT * float(sigma[column]),
            int(played[column]),
            int(deals[column]),
        )
        for column, name in enumerate(names)
    ]
