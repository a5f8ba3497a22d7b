"""Trained bots shipped with cardarena: checkpoints/<game>/<name>/ holds card.json, policy.pt and model.zip."""
