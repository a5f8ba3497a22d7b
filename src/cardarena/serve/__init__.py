"""Opponents for other frontends: the bot and table server, its client and the stdio bot."""
