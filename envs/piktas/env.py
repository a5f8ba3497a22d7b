"""The Piktas PettingZoo AEC environment: the shared adapter over PiktasGame and PiktasEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import PiktasEncoder
from .game import PiktasGame


class raw_env(CardGameEnv):
    """Piktas for 2 to 11 players (rulebook ../shared/rules/piktas.md); see docs/games/piktas.md."""

    game_cls = PiktasGame
    encoder_cls = PiktasEncoder
    metadata = {**CardGameEnv.metadata, "name": "piktas_v1"}


def env(**kwargs):
    """A Piktas environment; it enforces call order and legality itself, so no wrappers are added."""
    return raw_env(**kwargs)
