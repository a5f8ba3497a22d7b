"""The Yokir PettingZoo AEC environment: the shared adapter over YokirGame and YokirEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import YokirEncoder
from .game import YokirGame


class raw_env(CardGameEnv):
    """Yokir for three players (rulebook ../shared/rules/yokir.md); see docs/games/yokir.md."""

    game_cls = YokirGame
    encoder_cls = YokirEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
