"""The Dividha PettingZoo AEC environment: the shared adapter over DividhaGame and DividhaEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import DividhaEncoder
from .game import DividhaGame


class raw_env(CardGameEnv):
    """Dividha for 2 to 7 players; see docs/games/dividha.md."""

    game_cls = DividhaGame
    encoder_cls = DividhaEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
