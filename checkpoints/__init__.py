"""Trained bots shipped with cardarena: checkpoints/<game>/<name>/ holds card.json and policy.npz (actor and critic)."""
