"""The Antipoker PettingZoo AEC environment: the shared adapter over AntipokerGame and AntipokerEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import AntipokerEncoder
from .game import AntipokerGame


class raw_env(CardGameEnv):
    """Antipoker for 2 to 6 players (rulebook ../shared/rules/antipoker.md); see docs/games/antipoker.md."""

    game_cls = AntipokerGame
    encoder_cls = AntipokerEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
