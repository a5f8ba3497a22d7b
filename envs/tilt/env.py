"""The Tilt PettingZoo AEC environment: the shared adapter over TiltGame and TiltEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import TiltEncoder
from .game import TiltGame


class raw_env(CardGameEnv):
    """Tilt for 2 to 6 players (rulebook ../shared/rules/tilt.md); see docs/games/tilt.md."""

    game_cls = TiltGame
    encoder_cls = TiltEncoder
    metadata = {**CardGameEnv.metadata, "name": "tilt_v2"}


def env(**kwargs):
    """A Tilt environment; it enforces call order and legality itself, so no wrappers are added."""
    return raw_env(**kwargs)
