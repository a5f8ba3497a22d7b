"""Decks shared by several games, each defined once."""
