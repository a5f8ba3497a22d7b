"""The Scarp PettingZoo AEC environment: the shared adapter over ScarpGame and ScarpEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import ScarpEncoder
from .game import ScarpGame


class raw_env(CardGameEnv):
    """Scarp for two players (rulebook ../shared/rules/scarp.md); see docs/games/scarp.md."""

    game_cls = ScarpGame
    encoder_cls = ScarpEncoder
    metadata = {**CardGameEnv.metadata, "name": "scarp_v1"}


def env(**kwargs):
    """A Scarp environment; it enforces call order and legality itself, so no wrappers are added."""
    return raw_env(**kwargs)
