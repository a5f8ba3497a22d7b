"""The Paradigm PettingZoo AEC environment: the shared adapter over ParadigmGame and ParadigmEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import ParadigmEncoder
from .game import ParadigmGame


class raw_env(CardGameEnv):
    """Paradigm for two to four players (rulebook ../shared/rules/paradigm.md); see docs/games/paradigm.md."""

    game_cls = ParadigmGame
    encoder_cls = ParadigmEncoder


env = raw_env  # the environment enforces call order and legality itself: no PettingZoo wrappers
