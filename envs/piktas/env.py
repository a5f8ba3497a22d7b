"""The Piktas PettingZoo AEC environment: the shared adapter over PiktasGame and PiktasEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import PiktasEncoder
from .game import PiktasGame


class raw_env(CardGameEnv):
    """Piktas for 2 to 11 players (rulebook ../shared/rules/piktas.md); see docs/games/piktas.md."""

    game_cls = PiktasGame
    encoder_cls = PiktasEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
