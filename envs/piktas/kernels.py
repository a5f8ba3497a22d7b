"""Piktas's compiled kernels (scoring.py, features.py), compiled in a background thread the first
time the game needs one, or read at once from numba's cache (core/compiling.py); until they are
ready the game scores pools and writes its exchange features with reference.py, which tests hold
equal to them.

The kernels are compiled for the argument types the game passes (int64 arrays, Python ints and
bools, the float32 observation), so no call on the compiled path compiles again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from cardarena.envs.core.compiling import Background, in_numba_cache

from . import reference, rules


class Kernels(NamedTuple):
    exchange_outcomes: Callable[..., tuple]
    write_exchange_features: Callable[..., None]


def _compile() -> Kernels:
    from numba import types

    from . import features, scoring

    ints, flag = types.int64[::1], types.boolean
    scoring.score_pool.compile((ints, types.int64, flag, flag, flag))
    scoring.exchange_outcomes.compile((ints, ints, ints, ints, ints, ints, flag, flag, flag))
    # the whole-field totals are a column of the search's results: strided
    features.write_exchange_features.compile((types.float32[::1], ints, ints, types.int64[:], ints))
    return Kernels(features.exchange_outcomes, features.write_exchange_features)


def _cached() -> bool:
    from . import features, scoring

    return in_numba_cache(scoring.score_pool, scoring.exchange_outcomes, features.write_exchange_features)


COMPILED = Background("piktas", _compile, _cached)


def evaluate_ids(
    hand: Sequence[int], field: Sequence[int], trump_multi_unit: bool, highest_unit_only: bool, wild_voids: bool
) -> tuple[int, int, int, int]:
    """`rules.evaluate_ids` (the compiled scorer) once it is compiled, `reference.evaluate_ids` until then."""
    evaluate = rules.evaluate_ids if COMPILED.ready() is not None else reference.evaluate_ids
    return evaluate(hand, field, trump_multi_unit, highest_unit_only, wild_voids)
