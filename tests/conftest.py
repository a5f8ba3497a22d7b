"""Shared by every test folder: this folder is on sys.path, so the toy game `coinflip` imports."""

import pytest

import coinflip
from cardarena.envs import register
from cardarena.envs.core import registry


@pytest.fixture
def own_registry():
    """The game registry as it is, restored after the test: what the test registers is gone after it."""
    entries = dict(registry._ENTRIES)
    yield registry
    registry._ENTRIES.clear()
    registry._ENTRIES.update(entries)
    registry.GAMES[:] = [entry.env_id for entry in registry.registered()]


@pytest.fixture
def coinflip_game(own_registry):
    """The toy game coinflip_v1 (tests/coinflip.py), registered with no agents of its own for one test."""
    register(coinflip.ENV_ID, coinflip.MODULE)
    return coinflip.ENV_ID
