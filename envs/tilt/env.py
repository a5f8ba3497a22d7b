"""The Tilt PettingZoo AEC environment: the shared adapter over TiltGame and TiltEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import TiltEncoder
from .game import TiltGame


class raw_env(CardGameEnv):
    """Tilt for 2 to 6 players (rulebook ../shared/rules/tilt.md); see docs/games/tilt.md."""

    game_cls = TiltGame
    encoder_cls = TiltEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
