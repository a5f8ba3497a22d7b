"""Shared by every test folder: this folder is on sys.path, so the toy game `coinflip` imports."""

import coinflip
import pytest
from cardarena.envs import register
from cardarena.envs.core import registry


@pytest.fixture
def own_registry():
    """The game registry as it is, restored after the test: what the test registers is gone after it."""
    with registry.scoped_registrations():
        yield registry


@pytest.fixture
def coinflip_game(own_registry):
    """The toy game coinflip_v1 (tests/coinflip.py), registered with no agents of its own for one test."""
    register(coinflip.ENV_ID, coinflip.MODULE)
    return coinflip.ENV_ID
