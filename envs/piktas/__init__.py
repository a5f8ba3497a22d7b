"""Piktas: the flagship game of up to 11 players around one field."""
