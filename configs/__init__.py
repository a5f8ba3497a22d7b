"""Training configs shipped with cardarena: default.yaml documents every field, <game>.yaml tunes a game."""
