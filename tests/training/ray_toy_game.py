"""Imported by Ray's workers in the Ray backend tests (tests/training/test_ray_backend.py)."""

import os
from pathlib import Path

from cardarena.agents.base import RandomAgent
from cardarena.envs import register

DEATHS = "CARDARENA_TEST_DEATHS"  # set in Ray's workers only, by the tests' cluster


def register_highcard() -> None:
    """Register the toy game highcard_v1 (tests/envs/highcard.py) in this process."""
    import highcard

    register(highcard.ENV_ID, highcard.MODULE)


class MortalRandom(RandomAgent):
    """A random agent that, in a Ray worker, ends the worker's process at its first move while a
    death token lies in the folder `DEATHS` names, taking one (a worker lost mid-tournament)."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.first_move = True

    def act(self, observation):
        if self.first_move and (folder := os.environ.get(DEATHS)):
            self.first_move = False
            for token in sorted(Path(folder).glob("death-*")):
                try:
                    token.unlink()
                except FileNotFoundError:  # another worker took it
                    continue
                os._exit(1)
        return super().act(observation)
