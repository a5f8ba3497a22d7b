"""cardarena: reinforcement-learning environments, agents and self-play training for card games."""

__version__ = "0.1.0"
