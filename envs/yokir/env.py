"""The Yokir PettingZoo AEC environment: the shared adapter over YokirGame and YokirEncoder."""

from cardarena.envs.core.env import CardGameEnv

from .encode import YokirEncoder
from .game import YokirGame


class raw_env(CardGameEnv):
    """Yokir for three players (rulebook ../shared/rules/yokir.md); see docs/games/yokir.md."""

    game_cls = YokirGame
    encoder_cls = YokirEncoder
    metadata = {**CardGameEnv.metadata, "name": "yokir_v1"}


def env(**kwargs):
    """A Yokir environment; it enforces call order and legality itself, so no wrappers are added."""
    return raw_env(**kwargs)
