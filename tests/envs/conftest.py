"""Shared by the game test folders: this folder is on sys.path, so `golden_support` imports."""
