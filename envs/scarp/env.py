"""The Scarp PettingZoo AEC environment: the shared adapter over ScarpGame and ScarpEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import ScarpEncoder
from .game import ScarpGame


class raw_env(CardGameEnv):
    """Scarp for two players (rulebook ../shared/rules/scarp.md); see docs/games/scarp.md."""

    game_cls = ScarpGame
    encoder_cls = ScarpEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
