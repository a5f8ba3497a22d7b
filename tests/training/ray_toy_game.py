"""Imported by Ray's workers in the Ray backend tests (tests/training/test_ray_backend.py)."""

import highcard
from cardarena.envs import register


def register_highcard() -> None:
    """Register the toy game highcard_v1 (tests/envs/highcard.py) in this process."""
    register(highcard.ENV_ID, highcard.MODULE)
