"""cardarena training: self-play with MaskablePPO, pretraining, checkpoints, tournaments and plots.

Submodules import stable-baselines3 only where they train (`train`, `checkpoint.load_model`), so
loading and playing a trained agent does not.
"""
