"""Dividha: the game's rules, state machine, encoder and PettingZoo environment."""
